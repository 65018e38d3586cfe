//! Compiled tables: a `TileSet` turned into the lookups of the hot path.
//!
//! Every tile kind is expanded into its distinct orientations (rotations that repeat by symmetry
//! are dropped); each orientation knows its four edge codes, which local feature owns each of its
//! twelve ports, and its feature records. The placement index maps the neighbour pattern of an
//! open position (each direction empty or an edge code) to the rotations of each tile kind that
//! fit there, so finding the legal placements of a drawn tile is one lookup per open position.
//! The index holds the path rule `extend` too (a river tile fits only where it continues the
//! river), as that rule reads nothing but which neighbours are placed.

use crate::ids::{FeatureKindId, FigureId, KindId, OrientId};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use tiledef::{Meeting, Port, Shape, Side, TileSet};

/// The version of the compiled tables format (binary and JSON).
pub const TABLES_VERSION: u32 = 10;

/// The first bytes of the binary tables.
pub const BINARY_MAGIC: &[u8; 8] = b"TKTABLES";

/// A port owned by no feature (an edge kind owns it, as bushes own their centre).
pub const NO_FEATURE: u8 = u8::MAX;

/// The most follower kinds the sets may add: a player's deployable kinds, the base follower
/// included, are a 32-bit set (`game::Deploys`). The checker refuses more at the declaration.
pub const MAX_FOLLOWER_KINDS: usize = tiledef::model::MAX_FIGURE_KINDS;

/// The most features a tile may have: the engine keeps a tile's free features in a 64-bit set
/// (`game::Deploys`). A tile has 12 ports, so only features without ports could come near.
pub const MAX_FEATURES: usize = 64;

/// The most feature kinds a game may have (the checker's limit): the engine keeps per-kind
/// rules in 32-bit masks.
pub const MAX_FEATURE_KINDS: usize = tiledef::model::MAX_FEATURE_KINDS;

/// The most placement-index entries compile accepts (edge kinds and tile kinds multiply).
const MAX_INDEX_ENTRIES: usize = 1 << 26;

/// What compiling a tile set can fail on (the tile set itself is already checked).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CompileError {
    /// The vocabulary has more edge kinds than the compact codes hold.
    #[error("{0} edge kinds: the compiled tables hold at most 254")]
    TooManyEdgeKinds(usize),
    /// A tile has more features than the compact ids hold.
    #[error("tile {tile} has {count} features: the compiled tables hold at most 64 per tile")]
    TooManyFeatures {
        /// The tile's id.
        tile: String,
        /// Its feature count.
        count: usize,
    },
    /// There are more tile kinds than the compact ids hold.
    #[error("{0} tile kinds: the compiled tables hold at most 65,535")]
    TooManyTiles(usize),
    /// There are more follower kinds than a player's deployable kinds hold (`game::Deploys`).
    #[error(
        "{0} follower kinds: the engine plays at most {MAX_FOLLOWER_KINDS} besides the base follower"
    )]
    TooManyFollowerKinds(usize),
    /// More marker kinds hold tiles back than a tile kind's 32-bit sets hold.
    #[error("{0} marker kinds with `held`: the engine plays at most 32")]
    TooManyHeldMarkers(usize),
    /// More creatures are declared than a creature's 32-bit `avoids` holds.
    #[error("{0} creatures: the engine plays at most 32")]
    TooManyCreatures(usize),
    /// More feature kinds are declared than the compact ids and masks hold.
    #[error("{0} feature kinds: the engine plays at most {MAX_FEATURE_KINDS}")]
    TooManyFeatureKinds(usize),
    /// The placement index would be too large.
    #[error(
        "the placement index would need {0} entries ((edge kinds + 1)^4 × tile kinds); reduce the vocabulary"
    )]
    IndexTooLarge(usize),
}

/// Points per tile, per emblem and per marker of a scored feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rates {
    /// Per tile (a site: per tile of its range).
    pub tile: u32,
    /// Per emblem (a city's pennants).
    pub emblem: u32,
    /// Per marker on the feature.
    pub marker: u32,
}

impl From<tiledef::KindPoints> for Rates {
    fn from(p: tiledef::KindPoints) -> Rates {
        Rates {
            tile: p.tile,
            emblem: p.emblem,
            marker: p.marker,
        }
    }
}

/// The tiles around a site that complete it and that it scores: the 3 × 3 block is
/// `Square(1)`, the tile alone `Square(0)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SiteRange {
    /// The tiles up to this many steps away across and diagonally.
    Square(u8),
    /// The tiles up to this many steps away in a straight line.
    Plus(u8),
}

impl SiteRange {
    /// How many tiles the range has.
    pub const fn tiles(self) -> u32 {
        match self {
            SiteRange::Square(r) => (2 * r as u32 + 1) * (2 * r as u32 + 1),
            SiteRange::Plus(r) => 4 * r as u32 + 1,
        }
    }

    /// How far from the site its farthest tile is, across or down.
    pub const fn reach(self) -> u8 {
        match self {
            SiteRange::Square(r) | SiteRange::Plus(r) => r,
        }
    }

    /// Whether the tile `(dx, dy)` away from the site is in the range.
    pub fn contains(self, dx: i32, dy: i32) -> bool {
        match self {
            SiteRange::Square(r) => dx.abs().max(dy.abs()) <= i32::from(r),
            SiteRange::Plus(r) => (dx == 0 || dy == 0) && dx.abs() + dy.abs() <= i32::from(r),
        }
    }
}

/// A declared feature kind as play reads it (`TileSet::feature_kinds`, compiled): how it
/// completes and what it scores. No code names a kind; everything it does is here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureRule {
    /// Its id (`city`, `lake`): records and reports name it.
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// The plural reports name its points by (`cities`, `monasteries`).
    pub plural: String,
    /// How it lies on a tile.
    pub shape: tiledef::Shape,
    /// When it is completed.
    pub complete: tiledef::Completion,
    /// Whether any follower may stand on it.
    pub claimable: bool,
    /// Its emblem's names (a city's pennant), if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emblem: Option<EmblemNames>,
    /// A site's range (its own tile when the declaration has none); `None` for other shapes.
    pub range: Option<SiteRange>,
    /// Points when completed.
    pub complete_rates: Rates,
    /// Points when scored unfinished at the end.
    pub unfinished_rates: Rates,
    /// The rates of a small completed feature: at most this many tiles, these rates, under
    /// this game option (`None`: always).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub small: Option<SmallRule>,
    /// What a region of another kind scores at the end for each completed feature of this
    /// kind it borders: (region kind, points).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bordered: Vec<(FeatureKindId, u32)>,
    /// A hub site (Village Life's marketplace): the lines ending at it stay apart and form a
    /// network (`rules/network.rs`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hub: bool,
}

/// The names of an emblem, as scorings say them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmblemNames {
    /// One: its id (`pennant`).
    pub id: String,
    /// More: the key features write their count under (`pennants`).
    pub plural: String,
}

/// The rates of a small completed feature (the first edition's city of two tiles).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmallRule {
    /// The most tiles it has.
    pub max_tiles: u32,
    /// Its rates, in place of `complete_rates`.
    pub rates: Rates,
    /// The game option that switches them on; `None`: always.
    pub option: Option<String>,
}

impl FeatureRule {
    /// Whether a feature of this kind completes by closing its open ends.
    pub fn closes(&self) -> bool {
        self.complete == tiledef::Completion::Closed
    }

    /// A site's range (its own tile for a site without one; other shapes have none and never
    /// ask).
    pub fn site_range(&self) -> SiteRange {
        self.range.unwrap_or(SiteRange::Square(0))
    }

    /// What a region of kind `region` scores per completed feature of this kind it borders
    /// (0: this kind pays it nothing).
    pub fn pays(&self, region: FeatureKindId) -> u32 {
        (self.bordered.iter())
            .find(|(r, _)| *r == region)
            .map_or(0, |r| r.1)
    }

    /// Whether its declaration pays anything: rates, small rates, or what it pays regions.
    pub fn scores(&self) -> bool {
        let pays = |r: &Rates| r.tile > 0 || r.emblem > 0 || r.marker > 0;
        pays(&self.complete_rates)
            || pays(&self.unfinished_rates)
            || self.small.as_ref().is_some_and(|s| pays(&s.rates))
            || !self.bordered.is_empty()
    }

    /// Whether its features lie on half ports or inside a tile and score what they border (a
    /// field): scored last at the end.
    pub fn is_region(&self) -> bool {
        self.shape == tiledef::Shape::Region
    }

    fn compile(ts: &TileSet, kind: &tiledef::FeatureKindInfo) -> FeatureRule {
        let range = (kind.shape == tiledef::Shape::Site).then(|| match kind.range {
            Some(tiledef::RangeDef::Square(r)) => SiteRange::Square(small(r as usize)),
            Some(tiledef::RangeDef::Plus(r)) => SiteRange::Plus(small(r as usize)),
            None => SiteRange::Square(0),
        });
        FeatureRule {
            id: kind.id.clone(),
            name: kind.name.clone(),
            plural: kind.plural.clone(),
            shape: kind.shape,
            complete: kind.complete,
            claimable: kind.claimable,
            emblem: kind.emblem.as_ref().map(|e| EmblemNames {
                id: e.id.clone(),
                plural: e.key.clone(),
            }),
            range,
            complete_rates: kind.complete_rates.into(),
            unfinished_rates: kind.unfinished_rates.into(),
            small: kind.small.as_ref().map(|s| SmallRule {
                max_tiles: s.max_tiles,
                rates: s.points.into(),
                option: s.option.clone(),
            }),
            bordered: (kind.bordered.iter())
                .filter(|(region, _)| ts.feature_kinds.get(*region).is_some())
                .map(|&(region, points)| (FeatureKindId(small(region)), points))
                .collect(),
            hub: kind.hub,
        }
    }
}

/// One feature of a tile in one orientation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeatureRec {
    /// What it is: an index into `Tables::features`.
    pub kind: FeatureKindId,
    /// The ports it owns, as a bit mask over port indices (bit 0 = `NNW`); a city owns the half
    /// ports of its edges too.
    pub ports: u16,
    /// How many open ends it starts with: its centre ports when its kind closes (0 otherwise).
    pub open: u8,
    /// Its kind's emblems on it (a city's pennants).
    pub emblems: u8,
    /// Where a one-port line ends inside the tile (sides rotated with the tile).
    pub end: Option<LineEnd>,
    /// Local indices of the features a region borders (a field's cities).
    pub borders: Vec<u8>,
    /// Flower groups of a field, one colour index each.
    pub flowers: Vec<u8>,
    /// Marker kind indices on this feature.
    pub markers: Vec<u8>,
}

/// Where a one-port line ends inside its tile (`tiledef::LineEnd`, resolved to indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineEnd {
    /// At a junction (crossroads, village).
    Junction,
    /// At this side of its own tile, whose edge carries no line (bushes, a river bank).
    Side(Side),
    /// At the tile's feature of this area or site kind (a city gate, a monastery, a
    /// marketplace: `FeatureRule::hub`).
    Kind(FeatureKindId),
    /// At one of the tile's markers.
    Marker,
    /// At the tile's marker of this kind (an index into `Tables::markers`).
    MarkerKind(u8),
}

impl LineEnd {
    fn of(end: tiledef::LineEnd) -> LineEnd {
        match end {
            tiledef::LineEnd::Junction => LineEnd::Junction,
            tiledef::LineEnd::Side(side) => LineEnd::Side(side),
            tiledef::LineEnd::Kind(k) => LineEnd::Kind(FeatureKindId(k.0)),
            tiledef::LineEnd::Marker => LineEnd::Marker,
            tiledef::LineEnd::MarkerKind(m) => LineEnd::MarkerKind(small(m)),
        }
    }

    fn rotated(self, r: u8) -> LineEnd {
        match self {
            LineEnd::Side(side) => LineEnd::Side(side.rotated(r)),
            end => end,
        }
    }
}

/// One distinct orientation of a tile kind.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Orient {
    /// Index into `Tables::kinds`.
    pub kind: u16,
    /// Clockwise quarter turns from the tile as written.
    pub rotation: u8,
    /// Edge kind code of each side (N, E, S, W) after rotation.
    pub edges: [u8; 4],
    /// The local feature owning each port (`NO_FEATURE` for none), by absolute port index.
    pub ports: [u8; 12],
    /// The features, in the order written in the tile definition.
    pub features: Vec<FeatureRec>,
    /// The local index of its site a follower may take (a monastery), if it has one: what
    /// completes when its range is placed.
    pub site: Option<u8>,
    /// The local indices of its regions (where a windmill may go).
    pub fields: Vec<u8>,
    /// Per side (N, E, S, W): the sides (bit `Side::index`) whose centre ports belong to the
    /// road or city at this side's centre port, itself included; 0 when it carries none.
    pub links: [u8; 4],
    /// Whether a tile-level marker is a Festival place (its kind has `rule = festival`); kept
    /// here, beside what play reads anyway, rather than on the kind.
    pub festival: bool,
}

impl Orient {
    /// The local feature owning a port, if any.
    pub fn feature_at(&self, port: Port) -> Option<u8> {
        let f = self.ports[port.index()];
        (f != NO_FEATURE).then_some(f)
    }
}

/// A tile kind: the tile as written, with its distinct orientations.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TileKind {
    /// Its id.
    pub id: String,
    /// Its readable name.
    pub name: Option<String>,
    /// Index into `Tables::sets` of its set.
    pub set: u16,
    /// Copies per edition, indexed like `Tables::editions`.
    pub counts: Vec<u32>,
    /// Whether it is the start tile.
    pub start: bool,
    /// Whether it has a marketplace.
    pub marketplace: bool,
    /// Tile-level marker kind indices.
    pub markers: Vec<u8>,
    /// Flower groups on its fields per colour, indexed like `Tables::colours` (empty: none).
    pub flowers: Vec<u8>,
    /// Its distinct orientations (indices into `Tables::orients`), by increasing rotation.
    pub orients: Vec<u16>,
    /// For each of the four rotations, the orientation it is equal to.
    pub rotation_orient: [u16; 4],
    /// Index into `Tables::groups` of the group it is drawn with.
    #[serde(default)]
    pub group: Option<u16>,
    /// Drawn last of its group.
    #[serde(default)]
    pub held_back: bool,
    /// Held in each player's reserve, never drawn (the abbey): how many each holds and where
    /// one may go.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserve: Option<tiledef::ReserveDef>,
    /// Whether one of its edges is a path (`Tables::paths`): the placement index lets it only
    /// continue the path (`extend`).
    #[serde(default)]
    pub path: bool,
    /// Whether one of its edges is a `no-u-turn` path: its placements are filtered for room
    /// (`placement::filter`).
    #[serde(default)]
    pub no_u_turn: bool,
    /// The links of features a moving figure may follow, each a bit mask of local feature
    /// indices (the same in every orientation); empty when the tile declares none. A figure
    /// with the power `move-on` follows them (`rules::wagon`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<u64>,
    /// The draw rules holding it back: bit `h` when it carries the marker of the `h`-th marker
    /// kind with `held_until` (in marker order); 0 for almost every tile.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub held: u32,
    /// The draw rules it lets go when placed: bit `h` when it carries the `h`-th rule's
    /// `held_until` marker.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub releases: u32,
}

fn is_zero(bits: &u32) -> bool {
    *bits == 0
}

/// A tile group, in draw order (`Tables::groups`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupInfo {
    /// Its id.
    pub id: String,
    /// Index into `Tables::sets` of the set declaring it.
    pub set: u16,
    /// Drawn before or after the tiles of no group.
    pub draw: tiledef::GroupDraw,
    /// What becomes of its start tiles that do not start the game.
    pub spare_starts: tiledef::SpareStarts,
}

/// A marker kind of the vocabulary, as the rules see it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MarkerInfo {
    /// Its id.
    pub id: String,
    /// The rule module that uses it.
    pub rule: Option<tiledef::MarkerRule>,
    /// How a road or city carrying it scores (`rule = "well"` compiled into its modifier).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scoring: Option<tiledef::ScoringDef>,
    /// The points of the token it gives when its feature is completed (majority at the end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<u32>,
    /// The id of the good its token is, when named apart from the marker (absent: its id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_id: Option<String>,
    /// Tiles carrying it are held out of the draw until a tile carrying this marker kind has
    /// been placed (`draw::hold`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held_until: Option<u8>,
    /// The figures its tile's player may send home from its feature instead of deploying.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removes: Option<tiledef::Removes>,
    /// Where its tile's player may deploy instead of on the tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy: Option<tiledef::DeployWhere>,
}

/// The placement index: which rotations of each tile kind fit each neighbour pattern.
///
/// A pattern is `c_N + B·c_E + B²·c_S + B³·c_W` with `B = edge kinds + 1`, where `c_d` is 0 when
/// the neighbour in direction `d` is empty and `1 + edge code` of the neighbour's touching edge
/// otherwise. `fits[pattern × kinds + kind]` is a bit mask of the rotations (bit r = r quarter
/// turns) of the kind that fit — no facing edges forbidden, and each path edge kind of the
/// rotation meeting a placed tile on one of its sides (`extend`) — listing only distinct
/// orientations. Columns are per pattern: the frontier's patterns change by a few a turn, so
/// their columns stay in cache whichever kind is drawn, where a kind's row (`B⁴` bytes, 1,296
/// with five edge kinds) is read at a few scattered patterns a draw and, with many kinds in the
/// bag, is cold each time.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlacementIndex {
    /// The pattern base: edge kinds + 1.
    pub base: u32,
    /// The number of tile kinds.
    pub kinds: u32,
    /// Rotation masks, `kinds × base⁴` entries.
    pub fits: Vec<u8>,
}

impl PlacementIndex {
    /// The rotation mask of a tile kind at a neighbour pattern.
    #[inline]
    pub fn fits(&self, pattern: u32, kind: KindId) -> u8 {
        self.fits[pattern as usize * self.kinds as usize + kind.index()]
    }

    /// The number of patterns, `base⁴`.
    #[inline]
    pub fn patterns(&self) -> usize {
        let b = self.base as usize;
        b * b * b * b
    }

    /// The rotation masks of one tile kind, by pattern.
    #[inline]
    pub fn row(&self, kind: KindId) -> Row<'_> {
        Row {
            fits: &self.fits[kind.index()..],
            stride: self.kinds as usize,
        }
    }

    /// The pattern of four neighbour codes (0 = empty, else 1 + edge code), N, E, S, W.
    pub fn pattern(&self, codes: [u32; 4]) -> u32 {
        let b = self.base;
        codes[0] + b * (codes[1] + b * (codes[2] + b * codes[3]))
    }

    /// The weight of direction `side` in a pattern.
    #[inline]
    pub fn weight(&self, side: usize) -> u32 {
        self.base.pow(side as u32)
    }
}

/// One tile kind's rotation masks in the placement index, by pattern (a strided view).
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    fits: &'a [u8],
    stride: usize,
}

impl Row<'_> {
    /// The kind's rotation mask at a neighbour pattern.
    #[inline]
    pub fn at(&self, pattern: u32) -> u8 {
        self.fits[pattern as usize * self.stride]
    }
}

/// Everything the engine needs about a tile set, precomputed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Tables {
    /// `TABLES_VERSION` of the build that wrote them.
    pub version: u32,
    /// Set ids, in load order.
    pub sets: Vec<String>,
    /// Per set (indexed like `sets`): the figures it brings into play besides the followers.
    pub set_figures: Vec<Vec<tiledef::SetFigure>>,
    /// Per set: the colours it declares (indices into `colours`), its flower tokens.
    pub set_colours: Vec<Vec<u8>>,
    /// Edition ids.
    pub editions: Vec<String>,
    /// Edge kind ids; edge codes index into it.
    pub edge_kinds: Vec<String>,
    /// How edge kinds meet: `meets[a × edge kinds + b]`.
    pub meets: Vec<Meeting>,
    /// Flower colour ids; flower groups index into it.
    pub colours: Vec<String>,
    /// Marker kinds; markers index into it.
    pub markers: Vec<MarkerInfo>,
    /// The feature kinds the sets declare, in load order (base's city, road, field, monastery
    /// and garden first); `FeatureRec::kind` indexes it.
    pub features: Vec<FeatureRule>,
    /// Tile kinds.
    pub kinds: Vec<TileKind>,
    /// All distinct orientations of all tile kinds.
    pub orients: Vec<Orient>,
    /// Index into `kinds` of the first start tile in load order (the base game's D): the start
    /// of a game whose sets have none (a game chooses among its sets', see `crate::draw`).
    pub start: u16,
    /// The placement index.
    pub index: PlacementIndex,
    /// The tile groups, in draw order (the groups drawn first, then those drawn last).
    #[serde(default)]
    pub groups: Vec<GroupInfo>,
    /// Per edge code: its placement rule when it is a path (a river), else null.
    #[serde(default)]
    pub paths: Vec<Option<tiledef::PathRule>>,
    /// Per set: the tile kinds a game with that set in its draw leaves out.
    #[serde(default)]
    pub set_removes: Vec<Vec<u16>>,
    /// Per set: its tile kinds in index order (a game's draw walks only its sets' kinds).
    pub set_kinds: Vec<Vec<u16>>,
    /// The follower kinds the sets add besides the base followers (the large follower).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub followers: Vec<FollowerInfo>,
    /// The effects the sets declare (`[[effect]]`), in load order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<EffectRule>,
    /// The figures the sets place at a corner (`at = "corner"`: the barn), in load order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corner_figures: Vec<CornerInfo>,
    /// The creatures the sets declare (`[[creature]]`), in load order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub creatures: Vec<CreatureRule>,
}

/// A figure placed at a corner of the tile just placed, where four quarters of one region of
/// the kind `on` meet (the barn): what it pays, as rates on that region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CornerInfo {
    /// Its id (records name it).
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Index into `Tables::sets` of the set that adds it.
    pub set: u16,
    /// The other sets that declare it again, identically.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<u16>,
    /// How many each player has.
    pub count: u8,
    /// The region kind it stands on.
    pub on: FeatureKindId,
    /// Paid to the majority of the followers on its region when it is placed.
    pub arrival: BonusRates,
    /// Paid to the majority of the followers a later tile joins to its region.
    pub join: BonusRates,
    /// Paid to its owner at the end of the game.
    pub end: BonusRates,
}

impl CornerInfo {
    /// Whether a game whose draw holds tiles of these sets (`in_game`, by set) places it.
    pub fn in_game(&self, in_game: &[bool]) -> bool {
        std::iter::once(&self.set)
            .chain(&self.also)
            .any(|&s| in_game.get(usize::from(s)).copied().unwrap_or(false))
    }
}

/// A creature as the rules read it: a neutral figure, one in a game of its set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatureRule {
    /// Its id (`dragon`).
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Index into `Tables::sets` of the set that declares it: it is in that set's games.
    pub set: u16,
    /// Index into `Tables::markers` of the tile marker whose tile it moves onto when placed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrives: Option<u8>,
    /// The tile marker after whose tile's turn it moves, and the most tiles it enters then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<(u8, u8)>,
    /// The figures it eats, a mask of `FigureId::bit` (all bits: every figure).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub eats: u32,
    /// Whether no figure may be deployed on its tile.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_deploy: bool,
    /// The creatures whose tile it may not enter, bit `c` for `Tables::creatures[c]`.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub avoids: u32,
    /// What it pays the owner of the follower it guards: at their turn's start, and when the
    /// follower's feature is scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guards: Option<(u32, u32)>,
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

/// An effect as scoring reads it: a feature of a kind in `on` scores `complete` (or
/// `unfinished`) more per tile carrying a tile marker of the kind `marker`, counted in its
/// site's range or on its own tiles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectRule {
    /// Its id (`vineyards`).
    pub id: String,
    /// Index into `Tables::markers` of the tile marker kind it counts.
    pub marker: u8,
    /// The feature kinds it applies to.
    pub on: Vec<FeatureKindId>,
    /// Which tiles it counts: `range` (a site's range) or `tiles` (the feature's).
    pub count: tiledef::EffectCount,
    /// Points per counted tile when the feature is completed.
    pub complete: u32,
    /// Points per counted tile when it is scored unfinished.
    pub unfinished: u32,
    /// The game option that switches it on (a house rule); `None`: always on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<String>,
}

/// A figure a set adds (the large follower, the abbot, the builder, the pig): deployed like a
/// follower, on the kinds `on`, with its strength and power.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FollowerInfo {
    /// Its id (records name it).
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Index into `Tables::sets` of the set that adds it: it is in the games that set has a
    /// tile in.
    pub set: u16,
    /// The other sets that declare it again, identically: it is in their games too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<u16>,
    /// How many each player has.
    pub count: u8,
    /// How many followers it counts as in a majority.
    pub strength: FigureStrength,
    /// Bit `k` when it may stand on feature kind `k`.
    pub on: u32,
    /// It goes only where its owner has a claiming figure, and claims nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub beside_own: bool,
    /// What more it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<Power>,
    /// Dealt only in games whose draw has a tile with a feature of this kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealt_with: Option<FeatureKindId>,
}

impl FollowerInfo {
    /// Whether it may stand on features of this kind.
    #[inline]
    pub fn stands_on(&self, kind: FeatureKindId) -> bool {
        self.on & kind.bit() != 0
    }

    /// Its strength on a feature with `emblems` emblems.
    #[inline]
    pub fn strength_with(&self, emblems: u32) -> u32 {
        match self.strength {
            FigureStrength::Fixed(n) => u32::from(n),
            FigureStrength::PerEmblem(n) => u32::from(n) * emblems,
        }
    }

    /// Whether it claims like a follower: a free feature of any claimable kind, no power (the
    /// large follower). A game deploys these with the base follower, features × kinds.
    pub fn is_plain(&self, claimable: u32) -> bool {
        self.on == claimable && !self.beside_own && self.power.is_none()
    }
}

/// How many followers a figure counts as in a majority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FigureStrength {
    /// Always this many.
    Fixed(u8),
    /// This many per emblem of its feature when it is scored (the mayor).
    PerEmblem(u8),
}

/// A figure's power (`tiledef::FigurePower`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Power {
    /// Instead of deploying, its owner takes it back and its feature scores at once, as at the
    /// end (the abbot).
    Recall,
    /// A tile extending its feature gives its owner one more tile (the builder).
    ExtraTile,
    /// Its owner adds these rates when its feature scores for them (the pig).
    Bonus(BonusRates),
    /// When its feature is completed, its owner may move it on along the tiles' `moves` (the
    /// wagon).
    MoveOn,
}

/// What a figure's bonus adds to its owner's points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BonusRates {
    /// Per tile of the feature.
    pub tile: u32,
    /// Per emblem on it.
    pub emblem: u32,
    /// Per completed feature its region borders that pays the region.
    pub bordered: u32,
}

/// A figure placed at a corner as a game reads it.
fn corner_info(f: &tiledef::CornerFigure) -> CornerInfo {
    let rates = |r: tiledef::RegionRates| BonusRates {
        tile: r.tile,
        emblem: r.emblem,
        bordered: r.bordered,
    };
    CornerInfo {
        id: f.id.clone(),
        name: f.name.clone(),
        set: f.set as u16,
        also: f.also.iter().map(|&s| s as u16).collect(),
        count: f.count.min(u32::from(u8::MAX)) as u8,
        on: FeatureKindId(f.on.0),
        arrival: rates(f.arrival),
        join: rates(f.join),
        end: rates(f.end),
    }
}

/// A figure of the loaded sets as a game reads it.
fn follower_info(f: &tiledef::FollowerKind, claimable: u32) -> FollowerInfo {
    let small = |n: u32| n.min(u32::from(u8::MAX)) as u8;
    FollowerInfo {
        id: f.id.clone(),
        name: f.name.clone(),
        set: f.set as u16,
        also: f.also.iter().map(|&s| s as u16).collect(),
        count: small(f.count),
        strength: match f.strength {
            tiledef::Strength::Fixed(n) => FigureStrength::Fixed(small(n)),
            tiledef::Strength::PerEmblem(n) => FigureStrength::PerEmblem(small(n)),
        },
        on: if f.on.is_empty() {
            claimable
        } else {
            (f.on.iter()).fold(0, |bits, k| bits | FeatureKindId(k.0).bit())
        },
        beside_own: f.beside_own,
        power: f.power.map(|p| match p {
            tiledef::FigurePower::Recall => Power::Recall,
            tiledef::FigurePower::ExtraTile => Power::ExtraTile,
            tiledef::FigurePower::MoveOn => Power::MoveOn,
            tiledef::FigurePower::Bonus {
                tile,
                emblem,
                bordered,
            } => Power::Bonus(BonusRates {
                tile,
                emblem,
                bordered,
            }),
        }),
        dealt_with: f.dealt_with.map(|k| FeatureKindId(k.0)),
    }
}

/// The id reports give the base follower, beside the sets' figures' own ids.
pub const BASE_FOLLOWER: &str = "follower";

impl Tables {
    /// A figure's id in reports: `follower` for the base follower, else its `[[figure]]` id.
    pub fn figure_id(&self, figure: crate::ids::FigureId) -> &str {
        match figure.set_index().and_then(|k| self.followers.get(k)) {
            Some(f) => &f.id,
            None => BASE_FOLLOWER,
        }
    }

    /// Bit `k` when a follower may stand on feature kind `k` (`FeatureRule::claimable`).
    pub fn claimable(&self) -> u32 {
        (self.features.iter().enumerate())
            .filter(|(_, k)| k.claimable)
            .fold(0, |bits, (k, _)| bits | 1 << k)
    }

    /// Bit `k` when some figure may stand on feature kind `k`: a follower, or a set's figure
    /// that names it (the abbot, a garden).
    pub fn takeable(&self) -> u32 {
        (self.followers.iter()).fold(self.claimable(), |bits, f| bits | f.on)
    }

    /// A line's end in the words a tile writes it: `junction`, a side (`N`), a kind's id
    /// (`city`), `marker`, a marker kind's id (`festival`).
    pub fn end_name(&self, end: LineEnd) -> String {
        match end {
            LineEnd::Junction => "junction".to_string(),
            LineEnd::Side(side) => side.centre().to_string(),
            LineEnd::Kind(kind) => self.feature(kind).id.clone(),
            LineEnd::Marker => "marker".to_string(),
            LineEnd::MarkerKind(m) => (self.markers.get(usize::from(m)))
                .map_or_else(|| format!("marker {m}"), |k| k.id.clone()),
        }
    }

    /// Whether a feature is a line ending at a hub site (a road to a marketplace).
    pub fn ends_at_hub(&self, feature: &FeatureRec) -> bool {
        matches!(feature.end, Some(LineEnd::Kind(k)) if self.feature(k).hub)
    }

    /// The rule of a feature kind.
    #[inline]
    pub fn feature(&self, kind: FeatureKindId) -> &FeatureRule {
        &self.features[kind.index()]
    }

    /// The feature kind with this id, if declared.
    pub fn feature_kind(&self, id: &str) -> Option<FeatureKindId> {
        (self.features.iter())
            .position(|k| k.id == id)
            .map(|k| FeatureKindId(k as u8))
    }

    /// The rule options a game of these tables may switch on by name (`on`, `--option`): the
    /// engine's own (`BUILT_IN_OPTIONS`) and each one a marker's scoring modifier, a kind's
    /// small rates or an effect declares (a house rule), sorted, each once.
    pub fn rule_options(&self) -> Vec<&str> {
        let modifiers = (self.markers.iter()).filter_map(|m| m.scoring.as_ref()?.option.as_deref());
        let small = (self.features.iter()).filter_map(|k| k.small.as_ref()?.option.as_deref());
        let effects = (self.effects.iter()).filter_map(|e| e.option.as_deref());
        crate::options::rule_options(modifiers.chain(small).chain(effects))
    }

    /// Whether points are credited to the marker kind `marker` (index into `markers`): it has
    /// a scoring modifier, or an effect counts it.
    pub fn marker_pays(&self, marker: usize) -> bool {
        self.markers
            .get(marker)
            .is_some_and(|m| m.scoring.is_some())
            || self.effects.iter().any(|e| usize::from(e.marker) == marker)
    }

    /// The index of a marker kind by id (0 when unknown).
    pub fn marker_index(&self, id: &str) -> usize {
        self.markers.iter().position(|m| m.id == id).unwrap_or(0)
    }

    /// How edge codes `a` (ours) and `b` (the neighbour's) meet.
    #[inline]
    pub fn meeting(&self, a: u8, b: u8) -> Meeting {
        self.meets[a as usize * self.edge_kinds.len() + b as usize]
    }

    /// The tile kind with this id.
    pub fn kind_by_id(&self, id: &str) -> Option<KindId> {
        self.kinds
            .iter()
            .position(|k| k.id == id)
            .map(|i| KindId(i as u16))
    }

    /// A tile kind.
    #[inline]
    pub fn kind(&self, kind: KindId) -> &TileKind {
        &self.kinds[kind.index()]
    }

    /// An orientation.
    #[inline]
    pub fn orient(&self, orient: OrientId) -> &Orient {
        &self.orients[orient.index()]
    }

    /// The orientation of a tile kind after `rotation` quarter turns (symmetric rotations
    /// resolve to the equal orientation with the smallest rotation).
    pub fn orient_of(&self, kind: KindId, rotation: u8) -> OrientId {
        OrientId(self.kind(kind).rotation_orient[rotation as usize % 4])
    }

    /// Per path edge kind on orientation `o` (at most four), the sides carrying it (bit
    /// `Side::index`); the entries past the last kind are 0. `extend` wants each non-zero entry
    /// to meet a placed tile on one of its sides.
    pub fn path_sides(&self, o: &Orient) -> [u8; 4] {
        let mut kinds = [(0u8, 0u8); 4];
        let mut len = 0;
        for (d, &edge) in o.edges.iter().enumerate() {
            if self.path(edge).is_none() {
                continue;
            }
            match kinds[..len].iter_mut().find(|(e, _)| *e == edge) {
                Some((_, sides)) => *sides |= 1 << d,
                None => {
                    kinds[len] = (edge, 1 << d);
                    len += 1;
                }
            }
        }
        kinds.map(|(_, sides)| sides)
    }

    /// The path rule of an edge code, if it is a path kind.
    #[inline]
    pub fn path(&self, edge: u8) -> Option<tiledef::PathRule> {
        self.paths.get(usize::from(edge)).copied().flatten()
    }

    /// Whether orientation `o` fits between the given neighbour edge codes (None = empty),
    /// checked edge by edge, with each path edge kind of it meeting a placed tile (the
    /// reference the index is tested against).
    pub fn fits_brute_force(&self, o: &Orient, neighbours: [Option<u8>; 4]) -> bool {
        let extends = (0..4).all(|d| {
            let edge = o.edges[d];
            self.path(edge).is_none()
                || (0..4).any(|e| o.edges[e] == edge && neighbours[e].is_some())
        });
        neighbours.iter().any(Option::is_some)
            && extends
            && (0..4).all(|d| match neighbours[d] {
                None => true,
                Some(code) => self.meeting(o.edges[d], code) != Meeting::Forbidden,
            })
    }

    /// The tables as pretty JSON (the documented interchange form).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The tables in their compact binary form: the magic `TKTABLES`, the version as a
    /// little-endian u32, then the same structure as the JSON form encoded as CBOR (RFC 8949).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 * 1024);
        out.extend_from_slice(BINARY_MAGIC);
        out.extend_from_slice(&TABLES_VERSION.to_le_bytes());
        // Writing CBOR into a Vec cannot fail for these plain types.
        let _ = ciborium::into_writer(self, &mut out);
        out
    }

    /// Reads tables from their binary form, checking the magic and version.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tables, TablesReadError> {
        let rest = bytes
            .strip_prefix(BINARY_MAGIC.as_slice())
            .ok_or_else(|| TablesReadError::Binary("missing the TKTABLES header".into()))?;
        let (version, body) = rest
            .split_at_checked(4)
            .ok_or_else(|| TablesReadError::Binary("truncated after the header".into()))?;
        let version = u32::from_le_bytes([version[0], version[1], version[2], version[3]]);
        if version != TABLES_VERSION {
            return Err(TablesReadError::Version(version));
        }
        ciborium::from_reader(body).map_err(|e| TablesReadError::Binary(e.to_string()))
    }

    /// Reads tables from JSON, checking the version.
    pub fn from_json(text: &str) -> Result<Tables, TablesReadError> {
        let tables: Tables = serde_json::from_str(text)?;
        if tables.version != TABLES_VERSION {
            return Err(TablesReadError::Version(tables.version));
        }
        Ok(tables)
    }
}

/// Why stored tables could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TablesReadError {
    /// Not valid JSON of the tables.
    #[error("not compiled tables: {0}")]
    Json(#[from] serde_json::Error),
    /// Not compiled tables of this build.
    #[error("not compiled tables: {0}")]
    Binary(String),
    /// Written by a build with a different tables version.
    #[error("tables version {0}, this build reads {TABLES_VERSION}")]
    Version(u32),
}

fn rotate_mask(mask: u16, r: u8) -> u16 {
    let mut out = 0u16;
    for p in Port::ALL {
        if mask & (1 << p.index()) != 0 {
            out |= 1 << p.rotated(r).index();
        }
    }
    out
}

fn small(v: usize) -> u8 {
    u8::try_from(v).unwrap_or(u8::MAX)
}

/// The feature records of a tile as written (rotation 0).
fn base_features(ts: &TileSet, tile: &tiledef::Tile) -> Vec<FeatureRec> {
    let mut recs: Vec<FeatureRec> = tile
        .features
        .iter()
        .map(|f| {
            let mut ports = 0u16;
            for p in &f.ports {
                ports |= 1 << p.index();
            }
            let closes = ts.kind_of(f).complete == tiledef::Completion::Closed;
            FeatureRec {
                kind: FeatureKindId(f.kind.0),
                ports,
                open: if closes {
                    small(f.ports.iter().filter(|p| p.is_centre()).count())
                } else {
                    0
                },
                emblems: small(f.emblems as usize),
                end: f.end.map(LineEnd::of),
                borders: f.borders.iter().map(|&c| small(c)).collect(),
                flowers: f.flowers.iter().map(|&c| small(c)).collect(),
                markers: f.markers.iter().map(|&m| small(m)).collect(),
            }
        })
        .collect();
    // An area edge's half ports belong to the area that owns its centre port.
    for side in Side::ALL {
        let kind = &ts.edge_kinds[tile.edge(side)];
        let [a, centre, b] = side.ports();
        if kind.halves != Some(Shape::Area) {
            continue;
        }
        let owner = recs.iter().position(|r| {
            ts.feature_kinds[usize::from(r.kind.0)].shape == tiledef::Shape::Area
                && r.ports & (1 << centre.index()) != 0
        });
        if let Some(owner) = owner {
            for half in [a, b] {
                let taken = recs.iter().any(|r| r.ports & (1 << half.index()) != 0);
                if !taken {
                    recs[owner].ports |= 1 << half.index();
                }
            }
        }
    }
    recs
}

type Signature = (
    [u8; 4],
    Vec<(
        FeatureKindId,
        u16,
        u8,
        Option<LineEnd>,
        Vec<u16>,
        Vec<u8>,
        Vec<u8>,
    )>,
);

fn signature(edges: [u8; 4], feats: &[FeatureRec]) -> Signature {
    let mut list: Vec<_> = feats
        .iter()
        .map(|f| {
            let mut borders: Vec<u16> =
                f.borders.iter().map(|&c| feats[c as usize].ports).collect();
            borders.sort_unstable();
            let mut flowers = f.flowers.clone();
            flowers.sort_unstable();
            let mut markers = f.markers.clone();
            markers.sort_unstable();
            (f.kind, f.ports, f.emblems, f.end, borders, flowers, markers)
        })
        .collect();
    list.sort();
    (edges, list)
}

/// Flower groups per colour of a tile's features (empty when it has none).
fn flowers_by_colour(colours: usize, features: &[FeatureRec]) -> Vec<u8> {
    let mut groups = vec![0u8; colours];
    for &c in features.iter().flat_map(|f| &f.flowers) {
        if let Some(g) = groups.get_mut(c as usize) {
            *g = g.saturating_add(1);
        }
    }
    if groups.iter().all(|&g| g == 0) {
        groups.clear();
    }
    groups
}

/// Compiles a checked tile set into the engine's tables.
pub fn compile(ts: &TileSet) -> Result<Tables, CompileError> {
    let n = ts.edge_kinds.len();
    if n > 254 {
        return Err(CompileError::TooManyEdgeKinds(n));
    }
    if ts.followers.len() > MAX_FOLLOWER_KINDS {
        return Err(CompileError::TooManyFollowerKinds(ts.followers.len()));
    }
    if ts.tiles.len() > u16::MAX as usize {
        return Err(CompileError::TooManyTiles(ts.tiles.len()));
    }
    if ts.creatures.len() > 32 {
        return Err(CompileError::TooManyCreatures(ts.creatures.len()));
    }
    if ts.feature_kinds.len() > MAX_FEATURE_KINDS {
        return Err(CompileError::TooManyFeatureKinds(ts.feature_kinds.len()));
    }
    let rules: Vec<FeatureRule> = (ts.feature_kinds.iter())
        .map(|k| FeatureRule::compile(ts, k))
        .collect();
    let claimable = (rules.iter().enumerate())
        .filter(|(_, k)| k.claimable)
        .fold(0u32, |bits, (k, _)| bits | 1 << k);
    let followers: Vec<FollowerInfo> = (ts.followers.iter())
        .map(|f| follower_info(f, claimable))
        .collect();
    // The kinds some figure may stand on: a follower's, and those a set's figure names (a
    // garden, the abbot's).
    let takeable = (followers.iter()).fold(claimable, |bits, f| bits | f.on);
    let mut meets = Vec::with_capacity(n * n);
    for a in 0..n {
        for b in 0..n {
            meets.push(ts.meeting(a, b));
        }
    }
    let mut kinds = Vec::with_capacity(ts.tiles.len());
    let mut orients: Vec<Orient> = Vec::new();
    for (k, tile) in ts.tiles.iter().enumerate() {
        kinds.push(tile_kind(ts, (k, tile), &rules, takeable, &mut orients)?);
    }
    draw_holds(ts, &mut kinds)?;
    let base = n as u32 + 1;
    let patterns = (base as usize).pow(4);
    let entries = patterns * kinds.len();
    if entries > MAX_INDEX_ENTRIES {
        return Err(CompileError::IndexTooLarge(entries));
    }
    let mut tables = Tables {
        version: TABLES_VERSION,
        sets: ts.sets.iter().map(|s| s.id.clone()).collect(),
        set_figures: ts.sets.iter().map(|s| s.figures.clone()).collect(),
        set_colours: ts
            .sets
            .iter()
            .map(|s| s.colours.iter().map(|&c| c as u8).collect())
            .collect(),
        editions: ts.editions.iter().map(|e| e.id.clone()).collect(),
        edge_kinds: ts.edge_kinds.iter().map(|e| e.id.clone()).collect(),
        meets,
        colours: ts.colours.iter().map(|c| c.id.clone()).collect(),
        markers: ts
            .markers
            .iter()
            .map(|m| MarkerInfo {
                id: m.id.clone(),
                rule: m.rule,
                scoring: m.scoring.clone(),
                token: m.token,
                token_id: m.token_id.clone(),
                held_until: m.held_until.map(small),
                removes: m.removes,
                deploy: m.deploy,
            })
            .collect(),
        features: rules,
        kinds,
        orients,
        start: ts.start_tile as u16,
        index: PlacementIndex {
            base,
            kinds: ts.tiles.len() as u32,
            fits: vec![0; entries],
        },
        followers,
        corner_figures: ts.corner_figures.iter().map(corner_info).collect(),
        groups: ts
            .groups
            .iter()
            .map(|g| GroupInfo {
                id: g.id.clone(),
                set: g.set as u16,
                draw: g.draw,
                spare_starts: g.spare_starts,
            })
            .collect(),
        paths: ts.edge_kinds.iter().map(|e| e.path).collect(),
        effects: (ts.effects.iter())
            .map(|e| EffectRule {
                id: e.id.clone(),
                marker: small(e.marker),
                on: e.on.iter().map(|k| FeatureKindId(k.0)).collect(),
                count: e.count,
                complete: e.complete,
                unfinished: e.unfinished,
                option: e.option.clone(),
            })
            .collect(),
        set_removes: ts
            .sets
            .iter()
            .map(|s| s.removes.iter().map(|&t| t as u16).collect())
            .collect(),
        set_kinds: Vec::new(),
        creatures: ts.creatures.iter().map(creature_rule).collect(),
    };
    tables.set_kinds = vec![Vec::new(); tables.sets.len()];
    for (k, kind) in tables.kinds.iter().enumerate() {
        tables.set_kinds[usize::from(kind.set)].push(k as u16);
    }
    build_index(&mut tables);
    Ok(tables)
}

/// A creature compiled: its markers and steps small, what it eats and avoids as masks.
fn creature_rule(c: &tiledef::Creature) -> CreatureRule {
    let eats = match &c.eats {
        tiledef::CreatureEats::Nothing => 0,
        tiledef::CreatureEats::All => u32::MAX,
        tiledef::CreatureEats::Only { follower, figures } => (figures.iter())
            .fold(u32::from(*follower) * FigureId::FOLLOWER.bit(), |m, &k| {
                m | FigureId::set(k).bit()
            }),
    };
    CreatureRule {
        id: c.id.clone(),
        name: c.name.clone(),
        set: c.set as u16,
        arrives: c.arrives.map(small),
        moves: (c.moves).map(|(m, steps)| (small(m), steps.min(u32::from(u8::MAX)) as u8)),
        eats,
        no_deploy: c.no_deploy,
        avoids: (c.avoids.iter()).fold(0, |m, &k| m | 1u32 << k),
        guards: c.guards,
    }
}

/// Marks each kind with the draw rules (marker kinds with `held_until`, at most 32) that hold
/// it back and those it lets go.
fn draw_holds(ts: &TileSet, kinds: &mut [TileKind]) -> Result<(), CompileError> {
    let holds: Vec<(usize, usize)> = (ts.markers.iter().enumerate())
        .filter_map(|(m, k)| Some((m, k.held_until?)))
        .collect();
    if holds.is_empty() {
        return Ok(());
    }
    if holds.len() > 32 {
        return Err(CompileError::TooManyHeldMarkers(holds.len()));
    }
    for (kind, tile) in kinds.iter_mut().zip(&ts.tiles) {
        let carries = |m: usize| {
            tile.markers.contains(&m) || tile.features.iter().any(|f| f.markers.contains(&m))
        };
        for (h, &(marker, until)) in holds.iter().enumerate() {
            kind.held |= u32::from(carries(marker)) << h;
            kind.releases |= u32::from(carries(until)) << h;
        }
    }
    Ok(())
}

/// A tile kind of the tables, its distinct orientations appended to `orients`.
fn tile_kind(
    ts: &TileSet,
    (k, tile): (usize, &tiledef::Tile),
    rules: &[FeatureRule],
    takeable: u32,
    orients: &mut Vec<Orient>,
) -> Result<TileKind, CompileError> {
    if tile.features.len() > MAX_FEATURES {
        return Err(CompileError::TooManyFeatures {
            tile: tile.id.clone(),
            count: tile.features.len(),
        });
    }
    let written = base_features(ts, tile);
    let festival = tile
        .markers
        .iter()
        .any(|&m| ts.markers[m].rule == Some(tiledef::MarkerRule::Festival));
    let mut seen: Vec<(Signature, u16)> = Vec::new();
    let mut rotation_orient = [0u16; 4];
    let mut own = Vec::new();
    for r in 0..4u8 {
        let mut edges = [0u8; 4];
        for side in Side::ALL {
            edges[side.rotated(r).index()] = small(tile.edge(side));
        }
        let features: Vec<FeatureRec> = written
            .iter()
            .map(|f| FeatureRec {
                ports: rotate_mask(f.ports, r),
                end: f.end.map(|e| e.rotated(r)),
                ..f.clone()
            })
            .collect();
        let sig = signature(edges, &features);
        if let Some((_, o)) = seen.iter().find(|(s, _)| *s == sig) {
            rotation_orient[r as usize] = *o;
            continue;
        }
        let id = orients.len() as u16;
        orients.push(orient(rules, takeable, (k, r), edges, features, festival));
        seen.push((sig, id));
        own.push(id);
        rotation_orient[r as usize] = id;
    }
    Ok(TileKind {
        id: tile.id.clone(),
        name: tile.name.clone(),
        set: tile.set as u16,
        counts: tile.counts.clone(),
        start: tile.start,
        marketplace: tile.marketplace,
        markers: tile.markers.iter().map(|&m| small(m)).collect(),
        flowers: flowers_by_colour(ts.colours.len(), &written),
        orients: own,
        rotation_orient,
        group: tile.group.map(|g| g as u16),
        held_back: tile.held_back,
        reserve: tile.reserve,
        path: tile.edges.iter().any(|&e| ts.edge_kinds[e].path.is_some()),
        no_u_turn: (tile.edges.iter())
            .any(|&e| ts.edge_kinds[e].path == Some(tiledef::PathRule::NoUTurn)),
        // At most `MAX_FEATURES` (64) features, refused above: every index fits the mask.
        moves: (tile.moves.iter())
            .map(|link| link.iter().fold(0u64, |m, &x| m | 1 << x))
            .collect(),
        held: 0,
        releases: 0,
    })
}

/// One orientation of tile kind `k` turned `r` times: its ports, site, fields and the sides
/// its closing features link.
fn orient(
    rules: &[FeatureRule],
    takeable: u32,
    (k, r): (usize, u8),
    edges: [u8; 4],
    features: Vec<FeatureRec>,
    festival: bool,
) -> Orient {
    let mut ports = [NO_FEATURE; 12];
    for (i, f) in features.iter().enumerate() {
        for p in Port::ALL {
            if f.ports & (1 << p.index()) != 0 {
                ports[p.index()] = small(i);
            }
        }
    }
    // Only a site a figure may take completes with figures on it (a garden, with the
    // abbot).
    let site = (features.iter())
        .position(|f| rules[usize::from(f.kind.0)].range.is_some() && takeable >> f.kind.0 & 1 != 0)
        .map(small);
    let fields = (0..features.len())
        .filter(|&i| rules[usize::from(features[i].kind.0)].is_region())
        .map(small)
        .collect();
    let mut links = [0u8; 4];
    for side in Side::ALL {
        let f = ports[side.centre().index()];
        if f != NO_FEATURE && rules[usize::from(features[f as usize].kind.0)].closes() {
            let own = features[f as usize].ports;
            for other in Side::ALL {
                if own & (1 << other.centre().index()) != 0 {
                    links[side.index()] |= 1 << other.index();
                }
            }
        }
    }
    Orient {
        kind: k as u16,
        rotation: r,
        edges,
        ports,
        features,
        site,
        fields,
        links,
        festival,
    }
}

fn build_index(tables: &mut Tables) {
    let base = tables.index.base;
    let kinds = tables.index.kinds as usize;
    // Per direction and neighbour code: which orientations accept it.
    let mut fits = std::mem::take(&mut tables.index.fits);
    let mut accepts: HashMap<(usize, u32), Vec<bool>> = HashMap::new();
    for d in 0..4 {
        for c in 1..base {
            let v = tables
                .orients
                .iter()
                .map(|o| tables.meeting(o.edges[d], (c - 1) as u8) != Meeting::Forbidden)
                .collect();
            accepts.insert((d, c), v);
        }
    }
    let path_sides: Vec<[u8; 4]> = tables
        .orients
        .iter()
        .map(|o| tables.path_sides(o))
        .collect();
    for pattern in 1..base.pow(4) {
        let codes = [
            pattern % base,
            (pattern / base) % base,
            (pattern / (base * base)) % base,
            pattern / (base * base * base),
        ];
        let placed = (0..4).fold(0u8, |sides, d| sides | u8::from(codes[d] != 0) << d);
        for (i, o) in tables.orients.iter().enumerate() {
            let ok = (0..4).all(|d| codes[d] == 0 || accepts[&(d, codes[d])][i])
                && path_sides[i]
                    .iter()
                    .all(|&sides| sides == 0 || sides & placed != 0);
            if ok {
                fits[pattern as usize * kinds + o.kind as usize] |= 1 << o.rotation;
            }
        }
    }
    tables.index.fits = fits;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> Tables {
        compile(&tiledef::load_bundled()).expect("bundled data compiles")
    }

    #[test]
    fn symmetric_rotations_are_dropped() {
        let t = tables();
        let count = |id: &str| t.kind(t.kind_by_id(id).unwrap()).orients.len();
        assert_eq!(count("B"), 1, "monastery: all rotations equal");
        assert_eq!(count("C"), 1, "city on four sides");
        assert_eq!(count("X"), 1, "crossroads");
        assert_eq!(count("U"), 2, "straight road");
        assert_eq!(count("F"), 2, "city band");
        assert_eq!(count("H"), 2, "two opposite caps");
        assert_eq!(count("D"), 4, "start tile");
        // A symmetric rotation resolves to the equal one.
        let u = t.kind_by_id("U").unwrap();
        assert_eq!(t.orient_of(u, 2), t.orient_of(u, 0));
        assert_eq!(t.orient_of(u, 3), t.orient_of(u, 1));
    }

    #[test]
    fn city_half_ports_belong_to_the_city() {
        let t = tables();
        let e = t.kind_by_id("E").unwrap();
        let o = t.orient(t.orient_of(e, 0));
        let city = o.feature_at(Port::N).unwrap();
        assert_eq!(o.feature_at(Port::NNW), Some(city));
        assert_eq!(o.feature_at(Port::NNE), Some(city));
        assert_eq!(o.features[city as usize].open, 1);
        // Rotated once, the city is on the east edge.
        let r1 = t.orient(t.orient_of(e, 1));
        assert_eq!(r1.feature_at(Port::ESE), r1.feature_at(Port::E));
        assert_eq!(
            r1.edges[1] as usize,
            t.edge_kinds.iter().position(|k| k == "city").unwrap()
        );
    }

    #[test]
    fn links_join_the_sides_of_each_road_and_city() {
        let t = tables();
        let links = |id: &str, rotation: u8| {
            let k = t.kind_by_id(id).unwrap();
            t.orient(t.orient_of(k, rotation)).links
        };
        let (n, e, s, w) = (1, 2, 4, 8);
        // U: one road west–east; fields north and south.
        assert_eq!(links("U", 0), [0, e | w, 0, e | w]);
        assert_eq!(links("U", 1), [n | s, 0, n | s, 0]);
        // X: four roads ending at the crossing, each on its own.
        assert_eq!(links("X", 0), [n, e, s, w]);
        // C: one city on all four sides.
        assert_eq!(links("C", 0), [n | e | s | w; 4]);
    }

    #[test]
    fn real_tiles_compile_long_roads_empty_ports_and_new_ends() {
        let source = |name: &str, text: &str| tiledef::Source {
            name: name.to_string(),
            text: text.to_string(),
        };
        let report = tiledef::load(vec![
            source("base.toml", include_str!("../../definitions/base.toml")),
            source(
                "real-tiles.toml",
                include_str!("../../tiledef/tests/fixtures/real-tiles.toml"),
            ),
        ]);
        let t = compile(&report.tileset.expect("the real tiles validate")).expect("compiles");
        let orient = |id: &str, rotation: u8| {
            let k = t.kind_by_id(id).unwrap();
            t.orient(t.orient_of(k, rotation))
        };
        let (n, e, s, w) = (1, 2, 4, 8);
        // One road joining three or four sides links them all, and has an open end at each.
        assert_eq!(
            orient("AM-Rrr", 0).links,
            [n | e | w, n | e | w, 0, n | e | w]
        );
        assert_eq!(orient("LA-Rrrr", 0).links, [n | e | s | w; 4]);
        let rrr = orient("AM-Rrr", 1);
        let road = rrr.feature_at(Port::E).unwrap();
        assert_eq!(rrr.features[road as usize].open, 3);
        assert_eq!(
            rrr.feature_at(Port::W),
            None,
            "turned once, the field side is west"
        );
        // Ports in `empty` belong to no feature, in every orientation.
        for r in 0..4 {
            let co = orient("CO-12", r);
            assert_eq!(co.feature_at(Port::NNW.rotated(r)), None);
            assert_eq!(co.feature_at(Port::WNW.rotated(r)), None);
            assert!(co.feature_at(Port::NNE.rotated(r)).is_some());
        }
        // City and marker ends stay as they are; a side end turns with the tile.
        let spring = orient("RI-s", 1);
        let ends: Vec<Option<LineEnd>> = spring
            .features
            .iter()
            .filter(|f| t.feature(f.kind).id == "road")
            .map(|f| f.end)
            .collect();
        let city = t.features.iter().position(|k| k.id == "city").unwrap();
        let city = FeatureKindId(city as u8);
        assert_eq!(ends, [Some(LineEnd::Marker), Some(LineEnd::Kind(city))]);
        let bank = orient("RI-bank", 1);
        let road = bank.feature_at(Port::E).unwrap();
        assert_eq!(
            bank.features[road as usize].end,
            Some(LineEnd::Side(Side::S))
        );
    }

    #[test]
    fn a_tile_with_more_features_than_a_deploy_set_holds_is_refused() {
        let mut ts = tiledef::load_bundled();
        let tile = &mut ts.tiles[0];
        let feature = tile.features[0].clone();
        tile.features.resize(MAX_FEATURES + 1, feature);
        let id = tile.id.clone();
        assert_eq!(
            compile(&ts).err(),
            Some(CompileError::TooManyFeatures {
                tile: id,
                count: MAX_FEATURES + 1
            })
        );
        ts.tiles[0].features.truncate(MAX_FEATURES);
        assert!(compile(&ts).is_ok(), "64 features fit");
    }

    #[test]
    fn more_follower_kinds_than_a_deploy_set_holds_are_refused() {
        let mut ts = tiledef::load_bundled();
        let large = ts.followers[0].clone();
        ts.followers.resize(MAX_FOLLOWER_KINDS, large);
        assert!(compile(&ts).is_ok(), "31 kinds fit");
        ts.followers.push(ts.followers[0].clone());
        assert_eq!(
            compile(&ts).err(),
            Some(CompileError::TooManyFollowerKinds(MAX_FOLLOWER_KINDS + 1))
        );
    }

    #[test]
    fn both_forms_round_trip() {
        let t = tables();
        let json = Tables::from_json(&t.to_json()).unwrap();
        let bin = Tables::from_bytes(&t.to_bytes()).unwrap();
        assert_eq!(json.to_json(), t.to_json());
        assert_eq!(bin.to_json(), t.to_json());
        assert!(t.to_bytes().len() < t.to_json().len() / 4);
        let mut bad = t.to_bytes();
        bad[8] = 99;
        assert!(matches!(
            Tables::from_bytes(&bad),
            Err(TablesReadError::Version(99))
        ));
        assert!(Tables::from_bytes(b"nonsense").is_err());
    }
}
