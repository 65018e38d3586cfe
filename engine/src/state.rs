//! The state of a game and the primitives every rule works with: the surface that the rule
//! modules (`crate::rules`), the scoring (`crate::scoring`) and the turn flow (`crate::game`)
//! share. Dependencies point one way: `state` ← `scoring` ← `rules` ← `game`; nothing here
//! knows a rule.
//!
//! A `Game` is four parts: its `Core` (tables, rules, board, feature nodes, figures,
//! supplies, scores, the draw, the phase), `Scratch` (the buffers of a ring walk and a turn's
//! completions), `Placements` (the drawn tile's placement masks and their caches:
//! `crate::placements`) and `Modules` (the state of the expansions' rules: the donkey,
//! windmills, flower colours, tokens). A placement filter reads the `Core` and writes the
//! `Placements`.
//!
//! Features are union-find sets over feature nodes (one node per feature of each placed tile)
//! with running aggregates at the root: open ends (and, when a rule module asks, the summed
//! positions they face), pennants, followers, line ends at a hub. The members of a set are also
//! linked in a ring, so a scoring can walk them (to count distinct tiles, cities bordering a
//! field, flowers). How the features of two orientations meet across a side (which ends close
//! there, which facing features join) is one function, `PlayTables::meetings`: `join` applies
//! it to the nodes, the greedy player to its estimate.
//!
//! The primitives rule code uses: on `Core`, `find`/`find_mut` (a node's set), `orient` (a
//! placed tile's orientation), `put` (place a tile and join its features: trials on a copy use
//! it), `closing_rotations`; on `Game`, `members`/`ring` (walk a set), `lift` (a figure back to
//! its supply), `current` (whose turn), and the parts' plain fields.

use crate::board::{Board, Placed};
use crate::ids::{FeatureKindId, FigureId, KindId, NodeId, OrientId, PlacedId};
use crate::options::{GameOptions, Rules};
use crate::placements::Placements;
use crate::scoring::Score;
use crate::tables::{NO_FEATURE, Orient, Tables};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use tiledef::{Meeting, Side};

/// The kinds of figure: the followers, and the figures a rule module places that are not
/// followers (Village Life's windmill), each named by the move that places it, so a new one
/// needs no variant here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FigureKind {
    /// A follower (meeple): 7 per player in the base game.
    Follower,
    /// A figure placed by a rule module's move of this action (`crate::rules::ACTIONS`), not a
    /// follower: the module keeps its supply and is told when it leaves the board.
    Module(crate::rules::ActionId),
}

impl FigureKind {
    /// Its word in records, `--json` and the page: `follower`, or its action's name.
    pub fn name(self) -> &'static str {
        match self {
            FigureKind::Follower => "follower",
            FigureKind::Module(action) => action.info().name,
        }
    }

    /// Every kind's word, `follower` first, each in quotes and joined by " or " (for
    /// messages: `"follower" or "windmill"`).
    pub fn names_quoted() -> String {
        let modules = (crate::rules::ActionId::all()).filter(|a| a.places_figure());
        (std::iter::once("follower").chain(modules.map(|a| a.info().name)))
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(" or ")
    }

    /// The kind a word names (`name`'s inverse): `follower`, or a module's move that places a
    /// figure.
    pub fn by_name(word: &str) -> Option<FigureKind> {
        if word == "follower" {
            return Some(FigureKind::Follower);
        }
        (crate::rules::ActionId::all())
            .find(|a| a.places_figure() && a.info().name == word)
            .map(FigureKind::Module)
    }
}

impl Serialize for FigureKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for FigureKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let word = String::deserialize(deserializer)?;
        FigureKind::by_name(&word).ok_or_else(|| {
            let known: Vec<String> = (std::iter::once(FigureKind::Follower))
                .chain(
                    (crate::rules::ActionId::all())
                        .filter(|a| a.places_figure())
                        .map(FigureKind::Module),
                )
                .map(|k| format!("`{}`", k.name()))
                .collect();
            serde::de::Error::custom(format!(
                "unknown figure `{word}`, expected {}",
                known.join(" or ")
            ))
        })
    }
}

/// A figure on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// What it is.
    pub kind: FigureKind,
    /// The owning player.
    pub owner: u8,
    /// The feature node it stands on.
    pub node: NodeId,
    /// Its tile.
    pub tile: PlacedId,
    /// Which figure a follower is (the base follower, or a set's: the large follower, the
    /// abbot…); the base follower for other figures.
    pub figure: FigureId,
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The current player must place this tile kind.
    Place(KindId),
    /// The tile is placed; deploy or pass.
    Act(PlacedId),
    /// After the turn's second step and its scoring, a rule module asks `player` (not
    /// necessarily the current one) for a move of `action` (`Game::next_choice`); `placed` is
    /// the turn's tile.
    Choose {
        /// Who must choose (0-based).
        player: u8,
        /// The move asked for.
        action: crate::rules::ActionId,
        /// The tile placed this turn.
        placed: PlacedId,
    },
    /// All tiles are drawn and the final scoring is done.
    Over,
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place the drawn tile at a position with clockwise quarter turns.
    Place {
        /// Column.
        x: i16,
        /// Row (south is +1).
        y: i16,
        /// Quarter turns clockwise, 0–3.
        rotation: u8,
    },
    /// Deploy a follower on a local feature of the tile just placed.
    Deploy {
        /// Index into the placed orientation's features.
        feature: u8,
        /// Which figure.
        figure: FigureId,
    },
    /// A rule module's move (`crate::rules::ACTIONS` says which, and what its target is).
    Action {
        /// Which module's move.
        action: crate::rules::ActionId,
        /// What it points at.
        target: crate::rules::Target,
    },
    /// End the turn without deploying.
    Pass,
}

/// A feature node: one feature of one placed tile, and the aggregates of its set at the root.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Union-find parent (itself at a root).
    pub parent: NodeId,
    /// The next member in the ring of the set.
    pub next: NodeId,
    /// Union by rank: an upper bound of the tree's height (at the root).
    pub rank: u8,
    /// Open ends of a road or city (at the root).
    pub open: u32,
    /// Sums of the columns and rows of the empty positions the open ends face (at the root;
    /// kept when a rule module asks, `Modules::wants_ends`, else meaningless): when all ends
    /// face one position, it is their mean, found without walking the set. It cannot overflow
    /// (the assertion below `Node`).
    pub ends_at: (i32, i32),
    /// Emblems, a city's pennants (at the root; saturating: kept small so a node fills half a
    /// cache line).
    pub emblems: u16,
    /// Followers on the set (at the root).
    pub followers: u16,
    /// Line ends at a hub (`Tables::ends_at_hub`, at the root): a set closed with any waits
    /// for the `networks` hook instead of scoring at once.
    pub hub_ends: u16,
    /// Its tile.
    pub tile: PlacedId,
    /// The local feature index on that tile.
    pub local: u8,
    /// What it is: an index into `Tables::features`.
    pub kind: FeatureKindId,
    /// Whether the set has been scored as complete (at the root).
    pub done: bool,
}

// `Node::ends_at` fits in `i32` in every game. The placed tiles are connected and start at
// (0, 0), so with N tiles at most N − t of them stand in columns ≥ t, and the columns of a
// feature's tiles sum to at most N(N − 1)/2 (rows alike, and likewise west of 0). A tile has
// at most 4 open ends, each facing a cell 1 beyond it: |sum| ≤ 4(N(N − 1)/2 + N) = 2N(N + 1)
// = 2,048,064,000 for N = `MAX_TILES` (32,000), under `i32::MAX` (2,147,483,647) by more than
// the 8 × 32,001 a placement can hold in a sum before `join` takes the ends meeting a tile off
// again (its own four facing its neighbours, and their four facing it).
const _: () = {
    let n = crate::board::MAX_TILES as i64;
    assert!(2 * n * (n + 1) + 8 * (n + 1) <= i32::MAX as i64);
};

/// What a playout reads of the tables each turn, compact, built once per `Setup` and shared by
/// its games: every orientation's feature nodes as a placement creates them (`put` copies a
/// tile's nodes and sets their parent, ring and tile, instead of building each from its feature
/// record: a third of a placement's cost), and the few fields of each kind and orientation the
/// turn reads (`KindCore`, `OrientCore`). A `TileKind` is 168 bytes and an `Orient` 80 with
/// their lists beside them; with all the bundled sets in the bag (135 kinds, 473 orientations)
/// the ones a turn reads are seldom in cache, where these 2 and 18 KiB stay there.
#[derive(Debug)]
pub(crate) struct PlayTables {
    /// Per orientation, and one past the last: the index of its first node in `nodes`.
    first: Vec<u32>,
    nodes: Vec<Node>,
    /// Per tile kind.
    pub kinds: Vec<KindCore>,
    /// Per orientation.
    pub orients: Vec<OrientCore>,
    /// Per orientation: bit `k` when it has a feature of kind `k` (a set figure's deploys look
    /// at a tile only when it has a kind the figure stands on).
    kinds_on: Vec<u32>,
    /// `Tables::meets` as `meetings` reads it: whether edge kinds `a` and `b` connect, at
    /// `a × edge_kinds + b`.
    connects: Vec<bool>,
    /// How many edge kinds the tables have.
    edge_kinds: usize,
    /// What the rule modules read of the tables (the flowers' groups, the Festival's tiles),
    /// built by `crate::rules` beside these and shared the same way.
    pub(crate) modules: crate::rules::ModuleTables,
    /// Bit `k` when feature kind `k` completes by closing (`FeatureRule::closes`): what `join`
    /// and the completion check test.
    pub closes: u32,
    /// Bit `k` when a follower may stand on feature kind `k` (`FeatureRule::claimable`).
    pub claimable: u32,
    /// Bit `k` when feature kind `k` is a site with a range a figure may take
    /// (`FeatureRule::range`, `Tables::takeable`): `Core::site_followers` counts the figures
    /// there.
    pub sites: u32,
    /// The farthest reach of a site's range (`SiteRange::reach`): how far from a placed tile
    /// the end of a turn looks for sites it may have completed.
    pub site_reach: u8,
}

/// What a turn reads of a tile kind (`TileKind`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct KindCore {
    /// `TileKind::rotation_orient`: the orientation each rotation 0–3 equals.
    pub rotation_orient: [OrientId; 4],
    /// Its distinct rotations are `0..1 << rotations_shift` (1, 2 or 4).
    pub rotations_shift: u8,
    /// `TileKind::no_u_turn`: its placements are filtered for room.
    pub no_u_turn: bool,
}

/// What a turn reads of an orientation (`Orient`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OrientCore {
    /// `Orient::edges`.
    pub edges: [u8; 4],
    /// `Orient::ports`.
    pub ports: [u8; 12],
    /// The kind of the feature at each port (kind 0 where `ports` has none): what
    /// `PlayTables::meetings` compares, without reading the nodes.
    pub port_kinds: [FeatureKindId; 12],
    /// `Orient::links`.
    pub links: [u8; 4],
    /// `Orient::kind`.
    pub kind: KindId,
    /// `Orient::rotation`.
    pub rotation: u8,
    /// How many features it has.
    pub features: u8,
    /// The sides of its `no-u-turn` path edges (bit `Side::index`).
    pub room_sides: u8,
    /// The local index of its site (`Orient::site`; `NO_FEATURE`: none).
    pub site: u8,
    /// How many fields it has (`Orient::fields`: where a windmill may go).
    pub fields: u8,
}

/// How the features of two placed orientations meet across a side (`PlayTables::meetings`):
/// which ends close there and which facing features join. `Core::join` applies it to the
/// feature nodes and greedy to its estimate, so the two cannot disagree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Meetings {
    /// Our features at the side's ports, clockwise (half, centre, half: `Side::ports`), by
    /// local index (`NO_FEATURE`: none).
    pub ours: [u8; 3],
    /// Theirs at the ports facing ours (`Port::facing`), in the same order.
    pub theirs: [u8; 3],
    /// Bit `k`: the features at port `k` join.
    joins: u8,
    /// `Meetings::OURS_CLOSE`, `THEIRS_CLOSE`, `THEIRS_ENDED`: what happens to the centre
    /// ports' ends.
    ends: u8,
}

impl Meetings {
    /// The centre port, in `ours` and `theirs`.
    pub(crate) const CENTRE: usize = 1;
    /// Our centre feature's kind closes: one of its ends closes here.
    const OURS_CLOSE: u8 = 1;
    /// Their centre feature's kind closes: one of its ends closes here.
    const THEIRS_CLOSE: u8 = 2;
    /// Our edge ends their centre feature without a feature of ours meeting it (bushes on a
    /// road).
    const THEIRS_ENDED: u8 = 4;

    /// Our centre feature, if one of its ends closes here.
    #[inline]
    pub(crate) fn closes_ours(&self) -> Option<u8> {
        (self.ends & Meetings::OURS_CLOSE != 0).then_some(self.ours[Meetings::CENTRE])
    }

    /// Their centre feature, if one of its ends closes here.
    #[inline]
    pub(crate) fn closes_theirs(&self) -> Option<u8> {
        (self.ends & Meetings::THEIRS_CLOSE != 0).then_some(self.theirs[Meetings::CENTRE])
    }

    /// Their centre feature, if our edge ends it (it closes, and joins nothing here).
    #[inline]
    pub(crate) fn ended(&self) -> Option<u8> {
        (self.ends & Meetings::THEIRS_ENDED != 0).then_some(self.theirs[Meetings::CENTRE])
    }

    /// The ports (0–2) whose facing features join, in order.
    #[inline]
    pub(crate) fn joins(&self) -> impl Iterator<Item = usize> + use<> {
        let joins = self.joins;
        (0..3).filter(move |k| joins >> k & 1 != 0)
    }
}

impl PlayTables {
    /// The play tables of the tables.
    pub(crate) fn new(tables: &Tables) -> PlayTables {
        let mut first = Vec::with_capacity(tables.orients.len() + 1);
        let mut nodes = Vec::new();
        for o in &tables.orients {
            let at = nodes.len();
            first.push(at as u32);
            nodes.extend(o.features.iter().enumerate().map(|(i, f)| Node {
                parent: NodeId(0),
                next: NodeId(0),
                rank: 0,
                open: u32::from(f.open),
                ends_at: (0, 0),
                emblems: u16::from(f.emblems),
                followers: 0,
                hub_ends: u16::from(tables.ends_at_hub(f)),
                tile: PlacedId(0),
                local: i as u8,
                kind: f.kind,
                done: false,
            }));
            // Where each end of a road or city faces, from the tile: `put` adds the tile's
            // position once per end (`open`) and takes off the ends that meet a tile.
            for side in Side::ALL {
                let f = o.ports[side.centre().index()];
                // (`NO_FEATURE` lies past the orientation's nodes.)
                if let Some(node) = nodes.get_mut(at + usize::from(f))
                    && tables.feature(node.kind).closes()
                {
                    let (dx, dy) = side.offset();
                    node.ends_at.0 += dx;
                    node.ends_at.1 += dy;
                }
            }
        }
        first.push(nodes.len() as u32);
        let kinds = (tables.kinds.iter())
            .map(|k| KindCore {
                rotation_orient: k.rotation_orient.map(OrientId),
                rotations_shift: k.orients.len().trailing_zeros() as u8,
                no_u_turn: k.no_u_turn,
            })
            .collect();
        // The kind of local feature `f`; kind 0 for none (`NO_FEATURE`), which `meetings`
        // never compares.
        let kind_at = |o: &Orient, f: u8| {
            (o.features.get(usize::from(f))).map_or(FeatureKindId(0), |f| f.kind)
        };
        let orients = (tables.orients.iter())
            .map(|o| OrientCore {
                edges: o.edges,
                ports: o.ports,
                port_kinds: o.ports.map(|f| kind_at(o, f)),
                links: o.links,
                kind: KindId(o.kind),
                rotation: o.rotation,
                features: o.features.len() as u8,
                room_sides: crate::placement::room_sides(tables, o),
                site: o.site.unwrap_or(NO_FEATURE),
                fields: o.fields.len() as u8,
            })
            .collect();
        let kinds_where = |test: &dyn Fn(&crate::tables::FeatureRule) -> bool| {
            (tables.features.iter().enumerate())
                .filter(|(_, k)| test(k))
                .fold(0u32, |bits, (k, _)| bits | 1 << k)
        };
        let kinds_on = (tables.orients.iter())
            .map(|o| (o.features.iter()).fold(0, |bits, f| bits | f.kind.bit()))
            .collect();
        PlayTables {
            first,
            nodes,
            kinds_on,
            kinds,
            orients,
            connects: (tables.meets.iter())
                .map(|&m| m == Meeting::Connect)
                .collect(),
            edge_kinds: tables.edge_kinds.len(),
            modules: crate::rules::ModuleTables::new(tables),
            closes: kinds_where(&|k| k.closes()),
            claimable: kinds_where(&|k| k.claimable),
            sites: kinds_where(&|k| k.range.is_some()) & tables.takeable(),
            site_reach: (tables.features.iter())
                .filter_map(|k| k.range.map(|r| r.reach()))
                .max()
                .unwrap_or(0),
        }
    }

    /// Bit `k` when an orientation has a feature of kind `k`.
    #[inline]
    pub(crate) fn kinds_on(&self, orient: OrientId) -> u32 {
        self.kinds_on[orient.index()]
    }

    /// The orientation a rotation of a tile kind equals (`Tables::orient_of`).
    #[inline]
    pub(crate) fn orient_of(&self, kind: KindId, rotation: u8) -> OrientId {
        self.kinds[kind.index()].rotation_orient[usize::from(rotation % 4)]
    }

    /// What a turn reads of a tile kind.
    #[inline]
    pub(crate) fn kind(&self, kind: KindId) -> &KindCore {
        &self.kinds[kind.index()]
    }

    /// What a turn reads of an orientation.
    #[inline]
    pub(crate) fn orient(&self, orient: OrientId) -> &OrientCore {
        &self.orients[orient.index()]
    }

    /// Whether features of this kind complete by closing.
    #[inline]
    pub(crate) fn closes(&self, kind: FeatureKindId) -> bool {
        self.closes & kind.bit() != 0
    }

    /// How the features of orientation `ours` meet those of `theirs` placed beside its `side`:
    /// each centre feature whose kind closes closes an end there; the centre ports join only
    /// where the edges connect (else our edge ends their line); facing features of one kind
    /// join, the same pair once (a city's three ports, a field's two halves).
    // Always inlined: in `join`, a placement's hot path, the call and the struct packed into a
    // register cost 1.5 % of a random playout's instructions.
    #[inline(always)]
    pub(crate) fn meetings(&self, ours: OrientId, side: Side, theirs: OrientId) -> Meetings {
        let (a, b) = (self.orient(ours), self.orient(theirs));
        // The side's ports clockwise face the opposite side's in reverse (`Port::facing`).
        let (at, facing) = (3 * side.index(), 3 * side.opposite().index() + 2);
        let mut m = Meetings {
            ours: [a.ports[at], a.ports[at + 1], a.ports[at + 2]],
            theirs: [b.ports[facing], b.ports[facing - 1], b.ports[facing - 2]],
            joins: 0,
            ends: 0,
        };
        let closes = |o: &OrientCore, port: usize| {
            o.ports[port] != NO_FEATURE && self.closes(o.port_kinds[port])
        };
        let connect = self.connects(a.edges[side.index()], b.edges[side.opposite().index()]);
        if closes(a, at + 1) {
            m.ends |= Meetings::OURS_CLOSE;
        }
        if closes(b, facing - 1) {
            m.ends |= Meetings::THEIRS_CLOSE;
            if !connect {
                m.ends |= Meetings::THEIRS_ENDED;
            }
        }
        let mut last = (NO_FEATURE, NO_FEATURE);
        for k in 0..3 {
            let pair = (m.ours[k], m.theirs[k]);
            if (k != Meetings::CENTRE || connect)
                && pair.0 != NO_FEATURE
                && pair.1 != NO_FEATURE
                && pair != last
                && a.port_kinds[at + k] == b.port_kinds[facing - k]
            {
                last = pair;
                m.joins |= 1 << k;
            }
        }
        m
    }

    /// Whether edge kinds `a` and `b` connect when they touch (`Meeting::Connect`).
    #[inline]
    fn connects(&self, a: u8, b: u8) -> bool {
        self.connects[usize::from(a) * self.edge_kinds + usize::from(b)]
    }

    /// Whether a follower may stand on this kind.
    #[inline]
    pub(crate) fn claimable(&self, kind: FeatureKindId) -> bool {
        self.claimable & kind.bit() != 0
    }

    /// Whether this kind is a site with a range a follower may take.
    #[inline]
    pub(crate) fn is_site(&self, kind: FeatureKindId) -> bool {
        self.sites & kind.bit() != 0
    }

    /// The nodes of an orientation, by local index.
    #[inline]
    fn of(&self, orient: OrientId) -> &[Node] {
        let o = orient.index();
        &self.nodes[self.first[o] as usize..self.first[o + 1] as usize]
    }
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A tile was drawn that fits nowhere and was set aside.
    SetAside {
        /// Its kind.
        kind: KindId,
    },
    /// A tile was placed.
    Placed {
        /// The player.
        player: u8,
        /// Its kind.
        kind: KindId,
        /// Column.
        x: i16,
        /// Row.
        y: i16,
        /// The distinct rotation it was placed with.
        rotation: u8,
    },
    /// A follower was deployed.
    Deployed {
        /// The player.
        player: u8,
        /// Local feature index on the placed tile.
        feature: u8,
        /// Its kind.
        kind: FeatureKindId,
        /// Which figure.
        figure: FigureId,
    },
    /// A figure was returned to its owner's supply by the Festival, or went home with it (a
    /// builder, a pig: no scoring).
    Returned {
        /// The player.
        player: u8,
        /// What it was.
        figure: FigureKind,
        /// Which figure, for a follower (`Figure::figure`).
        follower: FigureId,
        /// Its tile's column.
        x: i16,
        /// Its tile's row.
        y: i16,
        /// Its feature (local index on its tile).
        feature: u8,
        /// That feature's kind.
        kind: FeatureKindId,
    },
    /// A rule module's move was made, or its rule took effect (`crate::rules::ACTIONS`: a
    /// windmill placed, the donkey moved, an extra tile earned).
    Action {
        /// The player.
        player: u8,
        /// Which module's action.
        action: crate::rules::ActionId,
        /// What it points at.
        target: crate::rules::Target,
    },
    /// A player declined a module's move offered instead of placing (keeping their reserve
    /// tile in the end-game round): words in the registry (`Action::decline_words`).
    Declined {
        /// The player.
        player: u8,
        /// Which module's action.
        action: crate::rules::ActionId,
    },
    /// A feature was scored. (Boxed: the other events are small, and every event is moved
    /// into the list.)
    Scored(Box<Score>),
    /// A rule module's event that is no entry of the registry (`crate::rules::ModuleEvent`:
    /// tokens taken, a majority of them scored), with its words and JSON.
    Module(crate::rules::ModuleEvent),
    /// The final scoring is done.
    GameOver {
        /// Final scores by player.
        scores: Vec<u32>,
    },
}

/// Why a move was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq, Clone)]
pub enum IllegalMove {
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// A placement was expected.
    #[error("a tile must be placed first")]
    PlaceFirst,
    /// A deploy or pass was expected.
    #[error("the tile is already placed: deploy a follower or pass")]
    AlreadyPlaced,
    /// Rotation out of range.
    #[error("rotation {0}: it is 0 to 3 quarter turns")]
    Rotation(u8),
    /// The position holds a tile.
    #[error("({x}, {y}) already holds a tile")]
    Occupied {
        /// Column.
        x: i16,
        /// Row.
        y: i16,
    },
    /// The position touches no tile.
    #[error("({x}, {y}) is not next to any placed tile")]
    NotAdjacent {
        /// Column.
        x: i16,
        /// Row.
        y: i16,
    },
    /// An edge does not match.
    #[error(
        "tile {tile} rotated {rotation} does not fit at ({x}, {y}): its {side} edge ({ours}) may not touch {theirs}"
    )]
    Mismatch {
        /// Tile id.
        tile: String,
        /// Rotation asked for.
        rotation: u8,
        /// Column.
        x: i16,
        /// Row.
        y: i16,
        /// The side that does not match.
        side: String,
        /// Our edge kind.
        ours: String,
        /// The neighbour's edge kind.
        theirs: String,
    },
    /// No such feature on the tile.
    #[error("tile {tile} has no feature {feature}")]
    NoFeature {
        /// Tile id.
        tile: String,
        /// The feature asked for.
        feature: String,
    },
    /// No follower may stand on this kind.
    #[error("no follower may be deployed on a {0}")]
    Unclaimable(String),
    /// The figure may not stand on this kind (its `on`).
    #[error("a {figure} may not stand on a {kind}")]
    FigureNotOn {
        /// The figure's name.
        figure: String,
        /// The feature kind's id.
        kind: String,
    },
    /// A figure beside its owner's needs a claiming figure of its owner on the feature.
    #[error("a {figure} goes only on a {kind} where player {player} already has a follower")]
    NotBesideOwn {
        /// The figure's name.
        figure: String,
        /// The feature kind's id.
        kind: String,
        /// The player (1-based).
        player: u8,
    },
    /// A figure beside its owner's does not go on a feature the tile just completed.
    #[error("a {figure} does not go on a {kind} this tile completed")]
    BesideCompleted {
        /// The figure's name.
        figure: String,
        /// The feature kind's id.
        kind: String,
    },
    /// The figure to recall is not one of the player's figures with the power `recall`.
    #[error("there is no figure {0} of the current player to recall")]
    NoRecall(u16),
    /// The connected feature already has a follower.
    #[error("the {kind} at {feature} is connected to a {kind} that already has a follower")]
    FeatureTaken {
        /// Kind name.
        kind: String,
        /// Which feature.
        feature: String,
    },
    /// The player has no follower left.
    #[error("player {0} has no follower left")]
    NoFollower(u8),
    /// The rules module is not in play, or the move is not offered now.
    #[error("{0}")]
    NotOffered(String),
    /// A rule module's rule refuses the move; the module wrote the message (the donkey blocking
    /// a placement, a windmill off a field, no windmill left, the donkey's target).
    #[error("{0}")]
    Rule(String),
    /// The figure to return is not one of the player's figures.
    #[error("there is no figure {0} of the current player to return")]
    NoSuchFigure(u16),
    /// The placement does not continue a path (a river) at an open end.
    #[error(
        "tile {tile} rotated {rotation} at ({x}, {y}) does not continue the {edge}: none of its {edge} edges meets a placed tile"
    )]
    PathDetached {
        /// Tile id.
        tile: String,
        /// Rotation asked for.
        rotation: u8,
        /// Column.
        x: i16,
        /// Row.
        y: i16,
        /// The path's edge kind.
        edge: String,
    },
    /// The placement leaves a path no room to go on (a U-turn).
    #[error(
        "tile {tile} rotated {rotation} at ({x}, {y}) would turn the {edge} back on itself: its {side} edge leaves the {edge} no room to go on"
    )]
    PathNoRoom {
        /// Tile id.
        tile: String,
        /// Rotation asked for.
        rotation: u8,
        /// Column.
        x: i16,
        /// Row.
        y: i16,
        /// The path's edge kind.
        edge: String,
        /// The side whose path end is cramped.
        side: String,
    },
}

/// Sums kept while a game runs (for simulation reports, which add them up over games:
/// `simulate::SimStats`; counts are `u64` so that those sums cannot overflow). Its JSON form
/// is `GameStats::keyed`; its serde form (indices, not ids) is a study slice's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameStats {
    /// Base points scored by feature kind (indexed like `Tables::features`; wells included).
    pub points_by_kind: Vec<u64>,
    /// Points the rule modules paid outside a feature's own scoring, by `RuleSource::index`.
    pub rule_points: Vec<u64>,
    /// What scoring modifiers changed, by feature kind (part of `points_by_kind`).
    pub modifier_points: Vec<i64>,
    /// What each marker kind's scoring modifier changed, by marker kind (counted per scoring
    /// player, as `points_by_kind` is).
    pub marker_points: Vec<i64>,
    /// Points the majorities of each good paid at the end, by marker kind (the first giving
    /// the good: `rules::good_slot`).
    pub good_points: Vec<u64>,
    /// Figures deployed, by figure (`FigureId::index`).
    pub deployed: Vec<u64>,
    /// Points a set figure's power paid, by `Tables::followers` index: a bonus (the pig) and a
    /// recall's scoring (the abbot; part of `points_by_kind` too).
    pub figure_points: Vec<u64>,
    /// Recalls (the abbot), by `Tables::followers` index.
    pub recalls: Vec<u64>,
    /// Extra tiles a figure gave (the builder).
    pub extra_tiles: u64,
    /// Tiles set aside.
    pub set_aside: u64,
    /// The rule modules' moves made, each counted once (and event-only actions taken effect:
    /// a creature's arrival), by `ActionId::index`.
    #[serde(default)]
    pub actions: Vec<u64>,
    /// Points the figures placed at a corner paid (the barn's), by `Tables::corner_figures`
    /// index.
    #[serde(default)]
    pub corner_points: Vec<u64>,
    /// Points the creatures paid (the fairy's), by `Tables::creatures` index.
    #[serde(default)]
    pub creature_points: Vec<u64>,
    /// Points a module credits to its moves, by `ActionId` index: what the turn of a reserve
    /// tile scored (the features its edges ended, its own site if completed then).
    #[serde(default)]
    pub action_points: Vec<u64>,
}

impl GameStats {
    /// Counts a rule module's move.
    #[inline]
    pub(crate) fn count_action(&mut self, action: usize) {
        if self.actions.len() <= action {
            self.actions.resize(action + 1, 0);
        }
        self.actions[action] += 1;
    }

    /// Credits `points` a rule module paid to its source: the one way modules credit them.
    pub(crate) fn credit_rule_points(&mut self, source: crate::rules::RuleSource, points: u32) {
        let i = source.index();
        if self.rule_points.len() <= i {
            self.rule_points.resize(i + 1, 0);
        }
        self.rule_points[i] += u64::from(points);
    }

    /// The points credited to a rule module's source.
    pub fn points_of(&self, source: crate::rules::RuleSource) -> u64 {
        self.rule_points.get(source.index()).copied().unwrap_or(0)
    }

    /// The moves of a rule module's action made.
    pub fn moves_of(&self, action: crate::rules::ActionId) -> u64 {
        self.actions.get(action.index()).copied().unwrap_or(0)
    }

    /// Credits `points` to a rule module's move.
    pub(crate) fn credit_action(&mut self, action: usize, points: u64) {
        if self.action_points.len() <= action {
            self.action_points.resize(action + 1, 0);
        }
        self.action_points[action] += points;
    }

    /// Points by source, as `simulate` and the balance report print them: each feature kind's
    /// points at the base rates (what scoring modifiers changed taken out), then the bonuses,
    /// then each marker kind's modifier (signed: an inn's unfinished road takes away) and
    /// token majorities. Together they are the points scored.
    pub fn points_by_source(&self, tables: &Tables) -> Vec<(String, i64)> {
        let mut out = Vec::new();
        self.each_source(tables, |_, name, points| {
            out.push((name.to_string(), points))
        });
        out
    }

    /// The points of `points_by_source` alone, in its order: what a tally adds up game by
    /// game, without naming the sources each time.
    pub fn source_points(&self, tables: &Tables) -> Vec<i64> {
        let mut out = Vec::new();
        self.each_source(tables, |_, _, points| out.push(points));
        out
    }

    /// What each entry of `points_by_source` counts, in its order (the same for every
    /// game of the tables): what `Setup::sources_in_play` answers for.
    pub fn sources(tables: &Tables) -> Vec<Source> {
        let mut out = Vec::new();
        GameStats::default().each_source(tables, |source, _, _| out.push(source));
        out
    }

    /// Calls `visit` with each source, its name and its points, in report order.
    fn each_source(&self, tables: &Tables, mut visit: impl FnMut(Source, SourceName<'_>, i64)) {
        let kind = |k: usize| {
            let points = self.points_by_kind.get(k).copied().unwrap_or(0) as i64;
            points - self.modifier_points.get(k).copied().unwrap_or(0)
        };
        let takeable = tables.takeable();
        for (k, rule) in tables.features.iter().enumerate() {
            if takeable >> k & 1 != 0 {
                let id = Source::Kind(FeatureKindId(k as u8));
                visit(id, SourceName::Kind(&rule.plural), kind(k));
            }
        }
        for (k, figure) in tables.followers.iter().enumerate() {
            if let Some(crate::tables::Power::Bonus(_)) = figure.power {
                let v = self.figure_points.get(k).copied().unwrap_or(0) as i64;
                visit(Source::Figure(k), SourceName::Bonus(&figure.id), v);
            }
        }
        for (k, figure) in tables.corner_figures.iter().enumerate() {
            let v = self.corner_points.get(k).copied().unwrap_or(0) as i64;
            visit(Source::Corner(k), SourceName::Bonus(&figure.id), v);
        }
        for (c, creature) in tables.creatures.iter().enumerate() {
            if creature.guards.is_some() {
                let v = self.creature_points.get(c).copied().unwrap_or(0) as i64;
                visit(Source::Creature(c), SourceName::Bonus(&creature.id), v);
            }
        }
        for source in crate::rules::RuleSource::all() {
            visit(
                Source::Rule(source),
                SourceName::Fixed(source.info().name),
                self.points_of(source) as i64,
            );
        }
        for (m, marker) in tables.markers.iter().enumerate() {
            if tables.marker_pays(m) {
                let v = self.marker_points.get(m).copied().unwrap_or(0);
                visit(Source::Modifier(m), SourceName::Modifier(&marker.id), v);
            }
            if let Some(good) = crate::rules::good_of(tables, m)
                && crate::rules::good_slot(tables, m) == m
            {
                let v = self.good_points.get(m).copied().unwrap_or(0) as i64;
                visit(Source::Good(m), SourceName::Good(good), v);
            }
        }
    }
}

/// What one source of points counts (`GameStats::sources`), by its index in the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A feature kind's scorings at the base rates.
    Kind(FeatureKindId),
    /// A set figure's bonus (`Tables::followers`).
    Figure(usize),
    /// A figure placed at a corner (`Tables::corner_figures`).
    Corner(usize),
    /// A creature that guards (`Tables::creatures`).
    Creature(usize),
    /// A rule module's points.
    Rule(crate::rules::RuleSource),
    /// A marker kind's scoring modifier (`Tables::markers`).
    Modifier(usize),
    /// The majorities of the good of a marker kind (`Tables::markers`, the good's first).
    Good(usize),
}

/// A game's (or a run's) sums as programs read them (`simulate --json`): each per-kind,
/// per-marker and per-figure figure an object keyed by the id of what it counts, every id of
/// the sets loaded present (0 where nothing happened).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct KeyedStats {
    /// Base points scored by feature kind id (wells included).
    pub points_by_kind: BTreeMap<String, u64>,
    /// Points the rule modules paid outside a feature's own scoring, by the name of their
    /// source in the registry (`flowers`, `windmills`, `marketplace networks`), every source
    /// present.
    pub rule_points: BTreeMap<String, u64>,
    /// What scoring modifiers changed, by feature kind id (part of `points_by_kind`).
    pub modifier_points: BTreeMap<String, i64>,
    /// What each marker kind's scoring modifier changed, by marker id (counted per scoring
    /// player, as `points_by_kind` is).
    pub marker_points: BTreeMap<String, i64>,
    /// Points the majorities of each good paid at the end, by good id (the marker's id unless
    /// its `token` names another).
    pub good_points: BTreeMap<String, u64>,
    /// Figures deployed, by figure id: `follower` (the base follower) and the sets' figures.
    pub deployed: BTreeMap<String, u64>,
    /// Points a set figure's power paid, by figure id: a bonus (the pig) and a recall's
    /// scoring (the abbot; part of `points_by_kind` too).
    pub figure_points: BTreeMap<String, u64>,
    /// Recalls (the abbot), by figure id.
    pub recalls: BTreeMap<String, u64>,
    /// Extra tiles a figure gave (the builder).
    pub extra_tiles: u64,
    /// Tiles set aside.
    pub set_aside: u64,
    /// The rule modules' moves made, by the registry's name (`windmill`, `return`, `donkey`,
    /// `barn`, `wagon`, `dragon`), and the events-only actions that took effect (`arrives`).
    pub actions: BTreeMap<String, u64>,
    /// Points the figures placed at a corner paid, by figure id (the barn's).
    pub corner_points: BTreeMap<String, u64>,
    /// Points each creature paid (the fairy's), by creature id; absent when none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub creature_points: BTreeMap<String, u64>,
}

/// Each value of `values` under the id `id(i)` of its index; values under one id add up, so
/// nothing is lost even if two ids were the same.
pub fn keyed<'t, T: Copy + Default + std::ops::AddAssign>(
    values: &[T],
    count: usize,
    id: impl Fn(usize) -> &'t str,
) -> BTreeMap<String, T> {
    let mut out = BTreeMap::new();
    for i in 0..count.max(values.len()) {
        let value = values.get(i).copied().unwrap_or_default();
        *out.entry(id(i).to_string()).or_default() += value;
    }
    out
}

impl GameStats {
    /// These sums keyed by id (`KeyedStats`), every id of `tables` present.
    pub fn keyed(&self, tables: &Tables) -> KeyedStats {
        // Destructured, so that a field added to `GameStats` cannot be left out.
        let GameStats {
            points_by_kind,
            rule_points,
            modifier_points,
            marker_points,
            good_points,
            deployed,
            figure_points,
            recalls,
            extra_tiles,
            set_aside,
            actions,
            corner_points,
            creature_points,
            // `simulate` reports them per game by the registry's names.
            action_points: _,
        } = self;
        let kind = |k: usize| tables.features.get(k).map_or("", |f| f.id.as_str());
        let marker = |m: usize| tables.markers.get(m).map_or("", |m| m.id.as_str());
        // A good's points are named by its id (a marker's own unless named apart).
        let good = |m: usize| crate::rules::good_of(tables, m).unwrap_or_else(|| marker(m));
        let set_figure = |k: usize| tables.figure_id(FigureId::set(k));
        let (kinds, markers, figures) = (
            tables.features.len(),
            tables.markers.len(),
            tables.followers.len(),
        );
        KeyedStats {
            points_by_kind: keyed(points_by_kind, kinds, kind),
            rule_points: keyed(rule_points, crate::rules::RULE_SOURCES.len(), |i| {
                (crate::rules::RULE_SOURCES.get(i)).map_or("", |r| r.name)
            }),
            modifier_points: keyed(modifier_points, kinds, kind),
            marker_points: keyed(marker_points, markers, marker),
            good_points: keyed(good_points, markers, good),
            deployed: keyed(deployed, figures + 1, |i| {
                tables.figure_id(FigureId::from_index(i))
            }),
            figure_points: keyed(figure_points, figures, set_figure),
            recalls: keyed(recalls, figures, set_figure),
            extra_tiles: *extra_tiles,
            set_aside: *set_aside,
            actions: (0..crate::rules::ACTIONS.len())
                .filter_map(|a| {
                    let info = &crate::rules::ACTIONS[a];
                    let n = actions.get(a).copied().unwrap_or(0);
                    (info.record_key.is_some() || n > 0).then(|| (info.name.to_string(), n))
                })
                .collect(),
            corner_points: keyed(corner_points, tables.corner_figures.len(), |i| {
                tables.corner_figures.get(i).map_or("", |c| c.id.as_str())
            }),
            creature_points: (tables.creatures.iter().enumerate())
                .map(|(c, rule)| {
                    (
                        rule.id.clone(),
                        creature_points.get(c).copied().unwrap_or(0),
                    )
                })
                .filter(|&(_, n)| n > 0)
                .collect(),
        }
    }
}

/// A source of points as reports name it.
#[derive(Clone, Copy)]
enum SourceName<'a> {
    /// A feature kind, by its plural.
    Kind(&'a str),
    /// A bonus.
    Fixed(&'static str),
    /// A figure's bonus (the pig's), by the figure's id.
    Bonus(&'a str),
    /// A marker kind's scoring modifier.
    Modifier(&'a str),
    /// A good's majorities, by the good's id.
    Good(&'a str),
}

impl std::fmt::Display for SourceName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceName::Kind(name) | SourceName::Fixed(name) => f.write_str(name),
            SourceName::Modifier(marker) => write!(f, "{marker} (modifier)"),
            SourceName::Bonus(figure) => write!(f, "{figure} (bonus)"),
            SourceName::Good(good) => write!(f, "{good} ({})", crate::rules::GOOD_SOURCE),
        }
    }
}

/// A game in progress: its core state, scratch buffers, the drawn tile's placements and the
/// rule modules' state, apart so that a placement filter can read the core while it writes the
/// placements.
#[derive(Clone, Debug)]
pub struct Game<'t> {
    pub(crate) core: Core<'t>,
    pub(crate) scratch: Scratch,
    pub(crate) place: Placements,
    pub(crate) modules: crate::rules::Modules,
}

/// What a game is: the tables and rules it plays, the board and its features, the figures,
/// supplies and scores, the draw and whose turn it is.
#[derive(Clone, Debug)]
pub(crate) struct Core<'t> {
    pub(crate) tables: &'t Tables,
    /// What a turn reads of the tables, compact (shared by the games of a setup).
    pub(crate) play: Arc<PlayTables>,
    /// `PlayTables::closes`, beside the nodes the completion check reads it with.
    pub(crate) closes: u32,
    pub(crate) options: GameOptions,
    /// The rules (shared by the games of a setup: a game never changes them).
    pub(crate) rules: Arc<Rules>,
    pub(crate) board: Board,
    pub(crate) nodes: Vec<Node>,
    /// Figures on the board (followers and windmills), in deploy order.
    pub(crate) figures: Vec<Figure>,
    /// Followers in each player's supply.
    pub(crate) supply: Vec<u8>,
    /// Per follower kind of the tables: how many each player has in this game (0 when its set
    /// has no tile in the game).
    pub(crate) follower_counts: Vec<u8>,
    /// The set's follower kinds in each player's supply (`player × kinds + kind`).
    pub(crate) follower_supply: Vec<u8>,
    /// Whether any of the sets' follower kinds is in this game (else deploys list the base
    /// follower only, without looking at the others).
    pub(crate) follower_kinds: bool,
    /// The set figures in this game by how they deploy and what powers they bring.
    pub(crate) powers: Powers,
    pub(crate) scores: Vec<u32>,
    pub(crate) bag: Vec<KindId>,
    pub(crate) next_draw: usize,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    /// Tile kinds set aside, in order.
    pub(crate) set_aside: Vec<KindId>,
    pub(crate) stats: GameStats,
    /// Followers standing on sites (a monastery): while there are none, the end of a turn
    /// looks for no completed site.
    pub(crate) site_followers: u32,
    /// The marker kinds whose modifiers and tokens the game plays (shared by a setup's games).
    pub(crate) markers: Arc<crate::scoring::MarkersInPlay>,
    /// The tile kind the game started from.
    pub(crate) start: KindId,
}

/// The set figures of a game (`Tables::followers` with a count above 0), by how they deploy
/// and what their powers need of a turn.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Powers {
    /// The figures deployed as a follower is (`FigureId::bit`): the base follower and the set
    /// figures that are `FollowerInfo::is_plain` (the large follower).
    pub(crate) plain: u32,
    /// The set figures with their own `on`, `beside` or power (`FigureId::bit`).
    pub(crate) special: u32,
    /// The kinds the special ones stand on, together (`FollowerInfo::on`): a tile without
    /// any has no special deploy.
    pub(crate) special_on: u32,
    /// The set figures in play with the power `recall` (`FigureId::bit`: the abbot).
    pub(crate) recall_kinds: u32,
    /// The set figures in play with the power `extra-tile` (`FigureId::bit`: the builder).
    pub(crate) extra_tile_kinds: u32,
    /// The set figures in play with the power `move-on` (`FigureId::bit`).
    pub(crate) move_on_kinds: u32,
    /// The set figures in play that stand beside their owner's follower
    /// (`FollowerInfo::beside_own`, `FigureId::bit`).
    pub(crate) beside_kinds: u32,
}

impl Powers {
    /// The powers of the set figures a game deals `counts` of.
    pub(crate) fn new(tables: &Tables, counts: &[u8]) -> Powers {
        let claimable = tables.claimable();
        let mut powers = Powers {
            plain: FigureId::FOLLOWER.bit(),
            ..Powers::default()
        };
        for (k, f) in tables.followers.iter().enumerate() {
            if counts.get(k).copied().unwrap_or(0) == 0 {
                continue;
            }
            let bit = FigureId::set(k).bit();
            if f.is_plain(claimable) {
                powers.plain |= bit;
            } else {
                powers.special |= bit;
                powers.special_on |= f.on;
            }
            if f.beside_own {
                powers.beside_kinds |= bit;
            }
            match f.power {
                Some(crate::tables::Power::Recall) => powers.recall_kinds |= bit,
                Some(crate::tables::Power::ExtraTile) => powers.extra_tile_kinds |= bit,
                Some(crate::tables::Power::MoveOn) => powers.move_on_kinds |= bit,
                _ => {}
            }
        }
        powers
    }
}

/// Buffers a turn reuses, holding nothing between turns that the game's state depends on.
#[derive(Clone, Debug)]
pub(crate) struct Scratch {
    /// Per placed tile: the walk that last counted it (`generation`).
    pub(crate) stamp: Vec<u32>,
    pub(crate) generation: u32,
    /// The members of the last walked ring.
    pub(crate) ring: Vec<NodeId>,
    /// Distinct tiles of the last walked ring.
    pub(crate) ring_tiles: Vec<PlacedId>,
    /// The member of the last walked ring on the earliest placed tile (`members`).
    pub(crate) ring_lowest: NodeId,
    /// Roads whose open end was closed by a neighbour's edge that carries no road (bushes).
    pub(crate) closed_by_edge: Vec<NodeId>,
}

impl Scratch {
    /// Empty buffers for a game of at most `tiles` tiles.
    pub(crate) fn new(tiles: usize) -> Scratch {
        Scratch {
            stamp: vec![0; tiles],
            generation: 0,
            ring: Vec::with_capacity(64),
            ring_tiles: Vec::with_capacity(64),
            ring_lowest: NodeId(0),
            closed_by_edge: Vec::new(),
        }
    }

    /// Walks the ring of the set `root` into `ring` (and its distinct tiles into `ring_tiles`).
    #[inline]
    pub(crate) fn walk(&mut self, nodes: &[Node], root: NodeId) {
        self.generation += 1;
        self.ring.clear();
        self.ring_tiles.clear();
        let mut m = root;
        // The member on the earliest placed tile (then lowest local index): where a scoring is
        // reported. Keys are distinct, so it is the one a search of the ring would find.
        let mut lowest = (u32::MAX, root);
        loop {
            self.ring.push(m);
            let node = &nodes[m.index()];
            let key = u32::from(node.tile.0) << 8 | u32::from(node.local);
            if key < lowest.0 {
                lowest = (key, m);
            }
            let t = node.tile;
            if self.stamp[t.index()] != self.generation {
                self.stamp[t.index()] = self.generation;
                self.ring_tiles.push(t);
            }
            m = nodes[m.index()].next;
            if m == root {
                break;
            }
        }
        self.ring_lowest = lowest.1;
    }
}

impl<'t> Game<'t> {
    /// The player whose turn it is.
    pub fn current(&self) -> u8 {
        self.core.current
    }

    /// The player who moves now: the chooser in `Phase::Choose`, else the current player.
    #[inline]
    pub fn to_move(&self) -> u8 {
        match self.core.phase {
            Phase::Choose { player, .. } => player,
            _ => self.core.current,
        }
    }

    /// The feature nodes.
    pub fn nodes(&self) -> &[Node] {
        &self.core.nodes
    }

    /// The root node of a feature node's set.
    #[inline]
    pub fn find(&self, n: NodeId) -> NodeId {
        self.core.find(n)
    }

    /// The orientation of a placed tile.
    #[inline]
    pub fn orient(&self, placed: PlacedId) -> &'t Orient {
        self.core.orient(placed)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.core.board
    }

    /// Figures on the board (followers and windmills), in deploy order.
    pub fn figures(&self) -> &[Figure] {
        &self.core.figures
    }

    /// Followers in each player's supply.
    pub fn supply(&self) -> &[u8] {
        &self.core.supply
    }

    /// Per follower kind of the tables: how many each player has in this game (0 when its set
    /// has no tile in the game).
    pub fn follower_counts(&self) -> &[u8] {
        &self.core.follower_counts
    }

    /// The set's follower kinds in each player's supply (`player × kinds + kind`).
    pub fn follower_supply(&self) -> &[u8] {
        &self.core.follower_supply
    }

    /// Scores by player.
    pub fn scores(&self) -> &[u32] {
        &self.core.scores
    }

    /// Tile kinds set aside, in order.
    pub fn set_aside(&self) -> &[KindId] {
        &self.core.set_aside
    }

    /// Running sums.
    pub fn stats(&self) -> &GameStats {
        &self.core.stats
    }

    /// Puts a tile on the board and joins its features to its neighbours'.
    pub(crate) fn put(&mut self, x: i32, y: i32, orient: OrientId) -> PlacedId {
        let ends = self.modules.wants_ends();
        (self.core).put(x, y, orient, ends, &mut self.scratch.closed_by_edge)
    }

    /// Takes a figure off the board into its owner's supply (no scoring).
    pub(crate) fn lift(&mut self, index: usize) -> Figure {
        let core = &mut self.core;
        let fig = core.figures.remove(index);
        match fig.kind {
            FigureKind::Follower => {
                let r = core.find_mut(fig.node);
                core.nodes[r.index()].followers -= 1;
                if core.play.is_site(core.nodes[fig.node.index()].kind) {
                    core.site_followers -= 1;
                }
                core.return_to_supply(fig);
            }
            FigureKind::Module(action) => self.module_figure_lifted(action, &fig),
        }
        fig
    }

    /// The event of a figure that went home unscored (lifted: a Festival return, a recall's
    /// lonely figures, the princess, the dragon), where it stood.
    pub(crate) fn returned(&self, fig: &Figure) -> Event {
        let p = self.core.board.placed[fig.tile.index()];
        let n = self.core.nodes[fig.node.index()];
        Event::Returned {
            player: fig.owner,
            figure: fig.kind,
            follower: fig.figure,
            x: p.x,
            y: p.y,
            feature: n.local,
            kind: n.kind,
        }
    }

    /// After a claiming figure left its feature unscored (`lift`), takes its owner's figures
    /// beside theirs there (the builder, the pig) back too when no claiming figure of the owner
    /// is left on it: those figures go where their owner is. Returns the figures taken back.
    pub(crate) fn return_lonely(&mut self, left: Figure) -> Vec<Figure> {
        let core = &self.core;
        // Only a figure standing beside its owner's follower is taken back so: with none in
        // play (a recall in the base game), no walk of the figures.
        if core.powers.beside_kinds == 0 || !core.claims(&left) {
            return Vec::new();
        }
        let root = core.find(left.node);
        if core.has_claim(left.owner, root) {
            return Vec::new();
        }
        let mut lifted = Vec::new();
        while let Some(i) = (self.core.figures.iter()).position(|f| {
            f.owner == left.owner
                && f.kind == FigureKind::Follower
                && !self.core.claims(f)
                && self.core.find(f.node) == root
        }) {
            lifted.push(self.lift(i));
        }
        lifted
    }

    /// Walks the ring of a set into `scratch.ring`, and returns its distinct tiles.
    #[inline]
    pub(crate) fn members(&mut self, root: NodeId) -> Vec<(i16, i16)> {
        self.walk(root);
        // Allocated once, at its size.
        let placed = &self.core.board.placed;
        (self.scratch.ring_tiles.iter())
            .map(|&t| (placed[t.index()].x, placed[t.index()].y))
            .collect()
    }

    /// Walks the ring of a set into `scratch.ring` (and its distinct tiles into `ring_tiles`).
    #[inline]
    pub(crate) fn walk(&mut self, root: NodeId) {
        self.scratch.walk(&self.core.nodes, root);
    }

    /// The members of the last walked ring.
    pub(crate) fn ring(&self) -> &[NodeId] {
        &self.scratch.ring
    }
}

impl<'t> Core<'t> {
    /// Whether features of this kind complete by closing.
    #[inline]
    pub(crate) fn closes(&self, kind: FeatureKindId) -> bool {
        self.closes & kind.bit() != 0
    }

    /// The root node of a feature node's set.
    #[inline]
    pub(crate) fn find(&self, mut n: NodeId) -> NodeId {
        while self.nodes[n.index()].parent != n {
            n = self.nodes[n.index()].parent;
        }
        n
    }

    /// The root node of a feature node's set, halving the path on the way.
    #[inline]
    pub(crate) fn find_mut(&mut self, mut n: NodeId) -> NodeId {
        while self.nodes[n.index()].parent != n {
            let p = self.nodes[n.index()].parent;
            let gp = self.nodes[p.index()].parent;
            self.nodes[n.index()].parent = gp;
            n = gp;
        }
        n
    }

    /// Joins two sets, their aggregates summed at the new root and their rings spliced.
    pub(crate) fn union(&mut self, a: NodeId, b: NodeId) {
        let (mut ra, mut rb) = (self.find_mut(a), self.find_mut(b));
        if ra == rb {
            return;
        }
        if self.nodes[ra.index()].rank < self.nodes[rb.index()].rank {
            std::mem::swap(&mut ra, &mut rb);
        }
        let b = self.nodes[rb.index()];
        let a = &mut self.nodes[ra.index()];
        if a.rank == b.rank {
            a.rank += 1;
        }
        a.open += b.open;
        a.ends_at.0 += b.ends_at.0;
        a.ends_at.1 += b.ends_at.1;
        a.emblems = a.emblems.saturating_add(b.emblems);
        a.followers += b.followers;
        a.hub_ends += b.hub_ends;
        a.done |= b.done;
        let an = a.next;
        a.next = b.next;
        self.nodes[rb.index()].next = an;
        self.nodes[rb.index()].parent = ra;
    }

    /// The orientation of a placed tile.
    #[inline]
    pub(crate) fn orient(&self, placed: PlacedId) -> &'t Orient {
        self.tables.orient(self.board.placed[placed.index()].orient)
    }

    /// What a turn reads of a placed tile's orientation (`PlayTables`).
    #[inline]
    pub(crate) fn play_orient(&self, placed: PlacedId) -> &OrientCore {
        self.play.orient(self.board.placed[placed.index()].orient)
    }

    /// The tile kind of a placed tile.
    #[inline]
    pub(crate) fn kind_of(&self, placed: PlacedId) -> KindId {
        self.play_orient(placed).kind
    }

    /// Puts a tile on the board and joins its features to its neighbours'; with `ends` (a
    /// module reads them: the donkey), keeps `Node::ends_at`. A neighbour's road closed by our
    /// edge goes to `closed` (see `join`).
    pub(crate) fn put(
        &mut self,
        x: i32,
        y: i32,
        orient: OrientId,
        ends: bool,
        closed: &mut Vec<NodeId>,
    ) -> PlacedId {
        let tables = self.tables;
        let o = *self.play.orient(orient);
        let id = PlacedId(self.board.placed.len() as u16);
        let base = NodeId(self.nodes.len() as u32);
        self.nodes.extend_from_slice(self.play.of(orient));
        // Each new node is its own set, a ring of one. With the donkey, the templates hold
        // where each end faces from the tile (see `PlayTables`): the tile's position is added
        // once per end; `join` takes off the ends that meet a tile.
        for (i, node) in self.nodes[base.index()..].iter_mut().enumerate() {
            let n = NodeId(base.0 + i as u32);
            node.parent = n;
            node.next = n;
            node.tile = id;
            if ends {
                let open = node.open as i32;
                node.ends_at.0 += open * x;
                node.ends_at.1 += open * y;
            }
        }
        self.board.placed.push(Placed {
            x: x as i16,
            y: y as i16,
            orient,
            base,
        });
        // An empty neighbour sees our edge from its opposite side.
        let b = tables.index.base;
        let weights = [b * b, b * b * b, 1, b];
        let weights: [u32; 4] =
            std::array::from_fn(|side| weights[side] * (u32::from(o.edges[side]) + 1));
        let cells = self.board.place(x, y, id, weights);
        for side in Side::ALL {
            let cell = cells[side.index()];
            if cell.placed != PlacedId::NONE {
                self.join(id, side, cell.placed, ends, closed);
            }
        }
        id
    }

    /// Joins the features of tile `p` across its `side` to tile `q` as their orientations meet
    /// there (`PlayTables::meetings`; `ends`, `closed`: as `put`).
    fn join(&mut self, p: PlacedId, side: Side, q: PlacedId, ends: bool, closed: &mut Vec<NodeId>) {
        let (pp, qq) = (self.board.placed[p.index()], self.board.placed[q.index()]);
        let m = self.play.meetings(pp.orient, side, qq.orient);
        // Our end faced q's position, q's faced ours.
        if let Some(f) = m.closes_ours() {
            self.close_end(pp.node(f), (qq.x, qq.y), ends);
        }
        if let Some(g) = m.closes_theirs() {
            self.close_end(qq.node(g), (pp.x, pp.y), ends);
        }
        // A neighbour's road closed by our edge (bushes) is not a feature of the placed tile:
        // remember it for the completion check of this turn.
        if let Some(g) = m.ended() {
            closed.push(qq.node(g));
        }
        for k in m.joins() {
            self.union(pp.node(m.ours[k]), qq.node(m.theirs[k]));
        }
    }

    /// Takes one open end, facing the cell `faced`, off the set of node `n` (with `ends`, its
    /// position off `ends_at` too).
    fn close_end(&mut self, n: NodeId, faced: (i16, i16), ends: bool) {
        let r = self.find_mut(n);
        let root = &mut self.nodes[r.index()];
        root.open -= 1;
        if ends {
            root.ends_at.0 -= i32::from(faced.0);
            root.ends_at.1 -= i32::from(faced.1);
        }
    }

    /// The rotations among `mask` of tile kind `kind` placed at the open position `at` that
    /// would close the road or city `root` (a root), all of whose open ends must face `at`.
    pub(crate) fn closing_rotations(
        &self,
        kind: KindId,
        at: (i32, i32),
        mask: u8,
        root: NodeId,
    ) -> u8 {
        if mask == 0 {
            return 0;
        }
        let around = Around::new(self, at.0, at.1);
        if around.ends_of(root) != self.nodes[root.index()].open {
            return 0;
        }
        let mut closing = 0;
        let mut bits = mask;
        while bits != 0 {
            let rotation = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let o = self.play.orient(self.play.orient_of(kind, rotation));
            if around.completes(self, o, root) {
                closing |= 1 << rotation;
            }
        }
        closing
    }

    /// The feature nodes of a placed tile, by local index.
    pub(crate) fn tile_nodes(&self, placed: PlacedId) -> &[Node] {
        let p = self.board.placed[placed.index()];
        let features = self.play.orient(p.orient).features;
        &self.nodes[p.base.index()..p.base.index() + usize::from(features)]
    }

    /// Puts a follower back into its owner's supply of its kind.
    #[inline]
    pub(crate) fn return_to_supply(&mut self, fig: Figure) {
        match fig.figure.set_index() {
            None => self.supply[fig.owner as usize] += 1,
            Some(k) => {
                let kinds = self.follower_counts.len();
                self.follower_supply[fig.owner as usize * kinds + k] += 1;
            }
        }
    }

    /// The strength of a figure in a majority on a feature with `emblems` emblems: 1 for a
    /// follower, its kind's for a set's (per emblem: the mayor).
    #[inline]
    pub(crate) fn strength(&self, fig: &Figure, emblems: u32) -> u16 {
        match self.set_figure(fig) {
            None => 1,
            Some(info) => info.strength_with(emblems).min(u32::from(u16::MAX)) as u16,
        }
    }

    /// The set figure kind a figure is (`Tables::followers`), if it is one.
    #[inline]
    pub(crate) fn set_figure(&self, fig: &Figure) -> Option<&'t crate::tables::FollowerInfo> {
        let tables = self.tables;
        fig.figure.set_index().and_then(|k| tables.followers.get(k))
    }

    /// Whether a figure claims its feature (a follower; not a figure beside its owner's).
    #[inline]
    pub(crate) fn claims(&self, fig: &Figure) -> bool {
        fig.kind == FigureKind::Follower && self.set_figure(fig).is_none_or(|f| !f.beside_own)
    }

    /// How many of `player`'s set figures in the mask `kinds` (`FigureId::bit`) are on the
    /// board: those out of their supply.
    #[inline]
    pub(crate) fn on_board(&self, player: u8, kinds: u32) -> u16 {
        let per_player = self.follower_counts.len();
        let supply = &self.follower_supply[usize::from(player) * per_player..];
        // Bit `k` for set figure `k`: shifted once here, not per figure (a turn asks this).
        let mut bits = kinds >> FigureId::set(0).index();
        let mut out = 0;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out += u16::from(self.follower_counts[k] - supply[k]);
        }
        out
    }

    /// Whether `player` has a figure claiming the set `root` (a root).
    pub(crate) fn has_claim(&self, player: u8, root: NodeId) -> bool {
        (self.figures.iter())
            .any(|f| f.owner == player && self.claims(f) && self.find(f.node) == root)
    }
}

/// The neighbours of an open position, as a placement there meets them.
struct Around {
    /// Per side: the touching edge code of the neighbour, if there is one.
    edge: [Option<u8>; 4],
    /// Per side: the set of the neighbour's road or city at its centre port (`NodeId::NONE`:
    /// none).
    set: [NodeId; 4],
}

impl Around {
    fn new(game: &Core<'_>, x: i32, y: i32) -> Around {
        let mut around = Around {
            edge: [None; 4],
            set: [NodeId::NONE; 4],
        };
        let cells = game.board.neighbours(x, y);
        for side in Side::ALL {
            let q = cells[side.index()].placed;
            if q == PlacedId::NONE {
                continue;
            }
            let q = game.board.placed[q.index()];
            let oq = game.play.orient(q.orient);
            let s = side.index();
            around.edge[s] = Some(oq.edges[side.opposite().index()]);
            // Only a road or city has a set that can be completed.
            if oq.links[side.opposite().index()] != 0 {
                let g = oq.ports[side.centre().facing().index()];
                around.set[s] = game.find(q.node(g));
            }
        }
        around
    }

    /// The sides where the set `root` has an end facing this position, as a mask.
    fn sides_of(&self, root: NodeId) -> u8 {
        let s = &self.set;
        u8::from(s[0] == root)
            | u8::from(s[1] == root) << 1
            | u8::from(s[2] == root) << 2
            | u8::from(s[3] == root) << 3
    }

    /// How many ends of the set `root` face this position.
    fn ends_of(&self, root: NodeId) -> u32 {
        self.sides_of(root).count_ones()
    }

    /// Whether placing `o` here closes the set `target`, all of whose ends face this position:
    /// walking from it through the tile's roads and cities, every side reached must have a
    /// neighbour, and every other set joined must have all its ends here too.
    fn completes(&self, game: &Core<'_>, o: &OrientCore, target: NodeId) -> bool {
        let tables = game.tables;
        let mut joined = [target, NodeId::NONE, NodeId::NONE, NodeId::NONE];
        let mut todo = self.sides_of(target);
        let mut visited = todo;
        while todo != 0 {
            let s = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let Some(theirs) = self.edge[s] else {
                return false;
            };
            if tables.meeting(o.edges[s], theirs) != Meeting::Connect {
                // Closed here without joining (bushes).
                continue;
            }
            let set = self.set[s];
            if set != NodeId::NONE && !joined.contains(&set) {
                // Another set joins: it too must have all its ends here.
                let node = &game.nodes[set.index()];
                let sides = self.sides_of(set);
                if sides.count_ones() != node.open {
                    return false;
                }
                if let Some(free) = joined.iter_mut().find(|j| **j == NodeId::NONE) {
                    *free = set;
                }
                todo |= sides & !visited;
                visited |= sides;
            }
            // Our road or city there joins too; its other sides come next.
            let sides = o.links[s];
            todo |= sides & !visited;
            visited |= sides;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::{Meetings, NO_FEATURE, PlayTables};
    use crate::ids::{KindId, OrientId};
    use tiledef::Side;

    /// The compact copies a turn reads say what the tables say, for every kind and orientation
    /// of the bundled sets, and each orientation has a node per feature.
    #[test]
    fn the_play_tables_agree_with_the_tables() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let play = PlayTables::new(&tables);
        for (k, kind) in tables.kinds.iter().enumerate() {
            let core = play.kinds[k];
            assert_eq!(core.rotation_orient, kind.rotation_orient.map(OrientId));
            assert_eq!(1 << core.rotations_shift, kind.orients.len());
            assert_eq!(core.no_u_turn, kind.no_u_turn);
        }
        for (i, o) in tables.orients.iter().enumerate() {
            let core = play.orients[i];
            assert_eq!(
                (core.edges, core.ports, core.links, core.kind, core.rotation),
                (o.edges, o.ports, o.links, KindId(o.kind), o.rotation)
            );
            assert_eq!(usize::from(core.features), o.features.len());
            for (port, &f) in o.ports.iter().enumerate() {
                if let Some(f) = o.features.get(usize::from(f)) {
                    assert_eq!(core.port_kinds[port], f.kind);
                }
            }
            assert_eq!(core.room_sides, crate::placement::room_sides(&tables, o));
            assert_eq!(
                (core.site, usize::from(core.fields)),
                (o.site.unwrap_or(u8::MAX), o.fields.len())
            );
            assert_eq!(play.of(OrientId(i as u16)).len(), o.features.len());
        }
    }

    /// How edges of the bundled sets meet: a city's three ports are one pair, joined once; a
    /// road edge joins its road and the fields on both sides of it; bushes end a road, joining
    /// only the fields on their halves.
    #[test]
    fn meetings_join_a_pair_once_and_bushes_end_a_road() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let play = PlayTables::new(&tables);
        // The first orientation whose `side` is of edge kind `id`.
        let with = |id: &str, side: Side| {
            let code = tables
                .edge_kinds
                .iter()
                .position(|e| e == id)
                .expect("edge kind");
            let o = tables
                .orients
                .iter()
                .position(|o| o.edges[side.index()] == code as u8);
            OrientId(o.expect("an orientation with that edge") as u16)
        };
        let meet =
            |ours, theirs| play.meetings(with(ours, Side::N), Side::N, with(theirs, Side::S));
        let joins = |m: &Meetings| m.joins().collect::<Vec<_>>();
        let m = meet("city", "city");
        assert_eq!(joins(&m), [0]);
        assert_eq!(
            (m.closes_ours(), m.closes_theirs()),
            (Some(m.ours[1]), Some(m.theirs[1]))
        );
        assert_eq!(m.ended(), None);
        let m = meet("road", "road");
        assert_eq!(joins(&m), [0, 1, 2]);
        assert_eq!(
            (m.closes_ours(), m.closes_theirs()),
            (Some(m.ours[1]), Some(m.theirs[1]))
        );
        assert_eq!(m.ended(), None);
        let m = meet("bushes", "road");
        assert_eq!(joins(&m), [0, 2]);
        assert_eq!(m.ours[1], NO_FEATURE);
        assert_eq!(
            (m.closes_ours(), m.closes_theirs()),
            (None, Some(m.theirs[1]))
        );
        assert_eq!(m.ended(), Some(m.theirs[1]));
        let m = meet("road", "bushes");
        assert_eq!(joins(&m), [0, 2]);
        assert_eq!(
            (m.closes_ours(), m.closes_theirs()),
            (Some(m.ours[1]), None)
        );
        assert_eq!(m.ended(), None);
    }

    /// `PlayTables::meetings` reads a side's ports and the ports facing them by index.
    #[test]
    fn a_sides_ports_face_the_opposite_sides_in_reverse() {
        for side in Side::ALL {
            for (k, port) in side.ports().into_iter().enumerate() {
                assert_eq!(port.index(), 3 * side.index() + k);
                assert_eq!(port.facing().index(), 3 * side.opposite().index() + 2 - k);
            }
        }
    }
}
