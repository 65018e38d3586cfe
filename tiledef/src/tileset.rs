//! The checked, resolved tile set: what the engine and the renderer consume.
//!
//! Every name of the files is resolved to an index here (edge kinds, colours, markers, the cities
//! a field borders), so consumers never look anything up by string. A `TileSet` only exists after
//! every check passed: its invariants are the semantic checks of `check`.

use crate::model::{
    ArtHints, Completion, EdgeStyle, EffectCount, GroupDraw, LookBorder, LookStyle, MarkerIcon,
    MarkerPlace, MarkerRule, Meeting, PathRule, RangeDef, ScoringDef, Shape, SpareStarts,
};
use crate::port::{Port, Side};
use std::path::PathBuf;

/// All loaded sets merged: vocabulary and tiles, ready for compilation and drawing.
#[derive(Clone, Debug)]
pub struct TileSet {
    /// The loaded sets, in load order (required sets before the sets that require them).
    pub sets: Vec<SetInfo>,
    /// Editions declared by the loaded sets.
    pub editions: Vec<Edition>,
    /// The feature kinds the loaded sets declare, in load order (base's city, road, field,
    /// monastery and garden first), checked and resolved; `Feature::kind` indexes into it.
    pub feature_kinds: Vec<FeatureKindInfo>,
    /// The edge kind vocabulary; `Tile::edges` index into it.
    pub edge_kinds: Vec<EdgeKind>,
    /// The flower colour vocabulary; `Feature::flowers` index into it.
    pub colours: Vec<Colour>,
    /// The marker kind vocabulary; `markers` lists index into it.
    pub markers: Vec<MarkerKind>,
    /// Every tile type of every loaded set.
    pub tiles: Vec<Tile>,
    /// Index into `tiles` of the first start tile in load order (the base game's D): what a game
    /// starts from when its own sets have none. A game chooses among its sets' start tiles.
    pub start_tile: usize,
    /// The follower kinds the sets add (the large follower), in load order.
    pub followers: Vec<FollowerKind>,
    /// The figures the sets add that are placed at a corner (`at = "corner"`: the barn), in
    /// load order.
    pub corner_figures: Vec<CornerFigure>,
    /// The tile groups, in draw order: the groups drawn first (ordered by their `after` and
    /// `before`, else by load order), then those drawn last.
    pub groups: Vec<Group>,
    /// The effects the sets declare, in load order (`[[effect]]`).
    pub effects: Vec<Effect>,
    /// The creatures the sets declare, in load order (`[[creature]]`).
    pub creatures: Vec<Creature>,
}

/// A creature, resolved: a neutral figure, one in the game (`[[creature]]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Creature {
    /// Its id, e.g. `dragon`.
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Index into `TileSet::sets` of the set that declares it first.
    pub set: usize,
    /// Index into `TileSet::markers` of the tile marker whose tile it moves onto when placed.
    pub arrives: Option<usize>,
    /// How it roams: the tile marker (index into `TileSet::markers`) after whose tile's turn it
    /// moves, and the most tiles it enters then.
    pub moves: Option<(usize, u32)>,
    /// What it eats on a tile it enters.
    pub eats: CreatureEats,
    /// Whether no figure may be deployed on its tile.
    pub no_deploy: bool,
    /// The creatures (indices into `TileSet::creatures`) whose tile it may not enter.
    pub avoids: Vec<usize>,
    /// What it pays when guarding a follower: at its owner's turn start, and when its feature
    /// is scored.
    pub guards: Option<(u32, u32)>,
}

/// Which figures a creature eats.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CreatureEats {
    /// None.
    #[default]
    Nothing,
    /// Every figure standing on a feature.
    All,
    /// These: the base follower if `follower`, and these `TileSet::followers`.
    Only {
        /// Whether the base follower is eaten.
        follower: bool,
        /// Indices into `TileSet::followers`.
        figures: Vec<usize>,
    },
}

/// An effect, resolved: the scorers of a feature of a kind in `on` get points per tile with a
/// marker of the kind `marker`, counted as `count` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effect {
    /// Its id, e.g. `vineyards`.
    pub id: String,
    /// Index into `TileSet::markers` of the tile marker kind it counts.
    pub marker: usize,
    /// The feature kinds it applies to.
    pub on: Vec<FeatureKindId>,
    /// Which tiles it counts (`range`: only on site kinds).
    pub count: EffectCount,
    /// Points per counted tile when the feature is completed.
    pub complete: u32,
    /// Points per counted tile when it is scored unfinished.
    pub unfinished: u32,
    /// The game option that switches it on; `None`: always on.
    pub option: Option<String>,
}

/// A declared feature kind, resolved: defaults filled in, `bordered` by kind index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureKindInfo {
    /// Its id, e.g. `city`.
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Index into `TileSet::sets` of the set that declares it first.
    pub set: usize,
    /// How it lies on a tile.
    pub shape: Shape,
    /// The key tiles list its features under (declared, or the default: `cities`, `monastery`).
    pub key: String,
    /// The plural reports name its points by (`cities`, `monasteries`).
    pub plural: String,
    /// When it is completed.
    pub complete: Completion,
    /// Whether any follower may stand on it.
    pub claimable: bool,
    /// Its emblem, if it has one.
    pub emblem: Option<Emblem>,
    /// Points when completed.
    pub complete_rates: KindPoints,
    /// Points when scored unfinished at the end.
    pub unfinished_rates: KindPoints,
    /// Points of a small completed feature, if the kind has such a rule.
    pub small: Option<SmallPoints>,
    /// What regions score per completed feature of this kind they border: (index into
    /// `TileSet::feature_kinds` of the region kind, points), in the order written.
    pub bordered: Vec<(usize, u32)>,
    /// A site's range, if it has one (else its own tile).
    pub range: Option<RangeDef>,
    /// Lines ending at it stay separate.
    pub hub: bool,
    /// How it is drawn, if declared.
    pub look: Option<Look>,
    /// Its JCloisterZone element, if it has one.
    pub jcz: Option<String>,
}

/// An emblem of a feature kind (a city's pennant), resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Emblem {
    /// Its id, the key of its rate (`pennant`).
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// The key features write their count under (`pennants`).
    pub key: String,
    /// The most one feature of a tile may carry.
    pub max: u32,
    /// The author's picture drawn for each emblem, resolved against its file's folder.
    pub picture: Option<PathBuf>,
}

/// Points of a scored feature: per tile (a site: per range tile), per emblem, per marker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindPoints {
    /// Per tile.
    pub tile: u32,
    /// Per emblem.
    pub emblem: u32,
    /// Per marker on the feature.
    pub marker: u32,
}

/// The points of a small completed feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmallPoints {
    /// The most tiles a small feature has.
    pub max_tiles: u32,
    /// Its points, in place of the kind's `complete_rates`.
    pub points: KindPoints,
    /// The game option that switches them on; `None`: always.
    pub option: Option<String>,
}

/// How a feature kind is drawn, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// The drawing style.
    pub style: LookStyle,
    /// The fill colour, if declared.
    pub fill: Option<Rgb>,
    /// An area's border, if declared.
    pub border: Option<LookBorder>,
    /// The border's colour, if declared.
    pub border_colour: Option<Rgb>,
    /// A site's icon, if declared.
    pub icon: Option<MarkerIcon>,
    /// A site's picture, the author's, resolved against its file's folder.
    pub picture: Option<PathBuf>,
}

/// A figure a set adds (`FigureDef` resolved): `count` per player, standing on the kinds `on`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FollowerKind {
    /// Its id, e.g. `large-follower`.
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Index into `TileSet::sets` of the set that adds it.
    pub set: usize,
    /// The other sets that declare it again, identically: it is in the games any of them has a
    /// tile in too.
    pub also: Vec<usize>,
    /// How many each player has.
    pub count: u32,
    /// How many followers it counts as in a majority.
    pub strength: Strength,
    /// The feature kinds it may stand on; empty: every claimable kind.
    pub on: Vec<FeatureKindId>,
    /// It goes only where its owner has a claiming figure, and claims nothing.
    pub beside_own: bool,
    /// What more it does.
    pub power: Option<FigurePower>,
    /// Dealt only when a tile of the draw has a feature of this kind.
    pub dealt_with: Option<FeatureKindId>,
    /// The author's picture of it, resolved against its file's folder.
    pub picture: Option<PathBuf>,
}

/// A figure placed at a corner (`FigureDef` with `at = "corner"`, resolved): `count` per player,
/// on a region of the kind `on`, paying its three rates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CornerFigure {
    /// Its id, e.g. `barn`.
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Index into `TileSet::sets` of the set that adds it.
    pub set: usize,
    /// The other sets that declare it again, identically.
    pub also: Vec<usize>,
    /// How many each player has.
    pub count: u32,
    /// The region kind whose four quarters it stands at.
    pub on: FeatureKindId,
    /// Paid to the majority of the followers on its region when it is placed.
    pub arrival: RegionRates,
    /// Paid to the majority of the followers a later tile joins to its region.
    pub join: RegionRates,
    /// Paid to its owner at the end of the game.
    pub end: RegionRates,
    /// The author's picture of it, resolved against its file's folder.
    pub picture: Option<PathBuf>,
}

/// Rates on a region: per tile, per emblem, per completed bordered feature that pays it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegionRates {
    /// Per tile.
    pub tile: u32,
    /// Per emblem.
    pub emblem: u32,
    /// Per completed feature it borders whose kind pays it.
    pub bordered: u32,
}

impl From<crate::model::BonusDef> for RegionRates {
    fn from(b: crate::model::BonusDef) -> RegionRates {
        RegionRates {
            tile: b.tile,
            emblem: b.emblem,
            bordered: b.bordered,
        }
    }
}

/// How many followers a figure counts as in a majority.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Always this many.
    Fixed(u32),
    /// This many per emblem of its feature when it is scored.
    PerEmblem(u32),
}

/// A figure's power (`PowerDef`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigurePower {
    /// Taken back instead of deploying; its feature scores at once, as at the end.
    Recall,
    /// A tile extending its feature gives its owner one more tile.
    ExtraTile,
    /// Its owner adds these rates when its feature scores for them: per tile, per emblem, per
    /// completed bordered feature.
    Bonus {
        /// Per tile.
        tile: u32,
        /// Per emblem.
        emblem: u32,
        /// Per completed feature a region borders.
        bordered: u32,
    },
    /// When its feature is completed, its owner may move it on along the tiles' `moves`.
    MoveOn,
}

/// A tile group: tiles drawn together, before or after the tiles of no group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Its id, e.g. `river`.
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Index into `TileSet::sets` of the set that declares it.
    pub set: usize,
    /// Drawn before or after the tiles of no group.
    pub draw: GroupDraw,
    /// What becomes of its start tiles that do not start the game.
    pub spare_starts: SpareStarts,
}

/// One loaded set.
#[derive(Clone, Debug)]
pub struct SetInfo {
    /// The set's id (`base`, `festival`, …).
    pub id: String,
    /// The set's printed name.
    pub name: String,
    /// Ids of the sets it requires.
    pub requires: Vec<String>,
    /// The file it was loaded from, as named to the loader.
    pub source: String,
    /// The figures it brings into play besides the followers.
    pub figures: Vec<crate::model::SetFigure>,
    /// The colours it declares (indices into `TileSet::colours`): its flower tokens.
    pub colours: Vec<usize>,
    /// The tiles (indices into `TileSet::tiles`) a game with this set leaves out.
    pub removes: Vec<usize>,
}

/// An edition (printing) that counts refer to.
#[derive(Clone, Debug)]
pub struct Edition {
    /// Its id, e.g. `C2`.
    pub id: String,
    /// Its readable name.
    pub name: String,
}

/// A colour for drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub [u8; 3]);

impl Rgb {
    /// Parses `#rrggbb`.
    pub fn parse(text: &str) -> Option<Rgb> {
        let hex = text.strip_prefix('#')?;
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Rgb([byte(0)?, byte(2)?, byte(4)?]))
    }
}

/// An edge kind of the vocabulary.
#[derive(Clone, Debug)]
pub struct EdgeKind {
    /// Its id, e.g. `bushes`.
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// The feature kind its centre port carries, if any.
    pub centre_kind: Option<FeatureKindId>,
    /// The feature kind its half-edge ports carry, if any.
    pub halves_kind: Option<FeatureKindId>,
    /// The shape of what its centre port carries (`centre_kind`'s; never a site).
    pub centre: Option<Shape>,
    /// The shape of what its half-edge ports carry (an area edge's: the centre's area).
    pub halves: Option<Shape>,
    /// How it meets each edge kind, indexed like `TileSet::edge_kinds` (symmetric).
    pub meets: Vec<Meeting>,
    /// Drawing colour, if declared.
    pub display: Option<Rgb>,
    /// How it is drawn: as declared, else as follows from what its ports carry.
    pub style: EdgeStyle,
    /// The placement rule of a path (a river), if it is one.
    pub path: Option<PathRule>,
}

impl EdgeKind {
    /// The feature kind a port of this edge kind carries, if any.
    pub fn kind_at(&self, port: Port) -> Option<FeatureKindId> {
        if port.is_centre() {
            self.centre_kind
        } else {
            self.halves_kind
        }
    }

    /// The shape of what a port of this edge kind carries, by whether it is a centre port.
    pub fn carries(&self, port: Port) -> Option<Shape> {
        if port.is_centre() {
            self.centre
        } else {
            self.halves
        }
    }
}

/// A flower colour.
#[derive(Clone, Debug)]
pub struct Colour {
    /// Its id, e.g. `violet`.
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// The colour flowers are drawn in.
    pub display: Rgb,
}

/// A marker kind: the Festival place, a well, an illustration, …
#[derive(Clone, Debug)]
pub struct MarkerKind {
    /// Its id, e.g. `well`.
    pub id: String,
    /// Its readable name.
    pub name: String,
    /// Where it may be put.
    pub on: MarkerPlace,
    /// The rule module that uses it, if any.
    pub rule: Option<MarkerRule>,
    /// Drawing colour, if declared.
    pub display: Option<Rgb>,
    /// The library icon drawn for it, if declared (else its picture, else a badge).
    pub icon: Option<MarkerIcon>,
    /// The author's picture drawn for it, resolved against its file's folder.
    pub picture: Option<PathBuf>,
    /// How a road or city carrying it scores (`rule = "well"` resolved into its modifier).
    pub scoring: Option<ScoringDef>,
    /// The points of the token it gives, scored by majority at the end.
    pub token: Option<u32>,
    /// Tiles carrying it are held out of the draw until a tile carrying this marker kind (an
    /// index into `TileSet::markers`) has been placed.
    pub held_until: Option<usize>,
    /// The figures its tile's player may send home from its feature instead of deploying.
    pub removes: Option<crate::Removes>,
    /// Where its tile's player may deploy instead of on the tile.
    pub deploy: Option<crate::DeployWhere>,
    /// The id of the good its token is, when named apart from the marker (`fish` on a `port`):
    /// markers giving one good id are counted together.
    pub token_id: Option<String>,
    /// The good's readable name, when named apart from the marker.
    pub token_name: Option<String>,
}

impl MarkerKind {
    /// The id of the good its token is: `token_id`, else its own id.
    pub fn good(&self) -> &str {
        self.token_id.as_deref().unwrap_or(&self.id)
    }
}

/// A feature kind: an index into `TileSet::feature_kinds` (at most 32 of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FeatureKindId(pub u8);

impl FeatureKindId {
    /// Its index into `TileSet::feature_kinds`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a line with one port ends inside its tile, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineEnd {
    /// At a junction (crossroads, village).
    Junction,
    /// At this tile's own side, whose edge carries no line (bushes, a river bank).
    Side(Side),
    /// At the tile's feature of this area or site kind (a city gate, a monastery, a
    /// marketplace).
    Kind(FeatureKindId),
    /// At one of the tile's markers.
    Marker,
    /// At the tile's marker of this kind (index into `TileSet::markers`: the Festival place).
    MarkerKind(usize),
}

/// One feature of a tile type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feature {
    /// What it is: its declared kind.
    pub kind: FeatureKindId,
    /// The ports it leaves the tile by (empty for sites and inner regions).
    pub ports: Vec<Port>,
    /// Its kind's emblems on it (a city's pennants).
    pub emblems: u32,
    /// Where a one-port line ends inside the tile.
    pub end: Option<LineEnd>,
    /// The indices (into `Tile::features`) of the features a region borders (a field's cities),
    /// in the order written.
    pub borders: Vec<usize>,
    /// The flower groups of a region, one colour index each.
    pub flowers: Vec<usize>,
    /// Markers on this feature, as marker kind indices.
    pub markers: Vec<usize>,
}

impl Feature {
    /// A feature of the given kind with nothing else set.
    pub fn new(kind: FeatureKindId) -> Feature {
        Feature {
            kind,
            ports: Vec::new(),
            emblems: 0,
            end: None,
            borders: Vec::new(),
            flowers: Vec::new(),
            markers: Vec::new(),
        }
    }
}

/// One tile type.
#[derive(Clone, Debug)]
pub struct Tile {
    /// Its id, unique in the tile set.
    pub id: String,
    /// Its readable name.
    pub name: Option<String>,
    /// Other ids it is known by.
    pub aliases: Vec<String>,
    /// Index into `TileSet::sets` of the set it belongs to.
    pub set: usize,
    /// Copies per edition, indexed like `TileSet::editions` (0 = not in that edition).
    pub counts: Vec<u32>,
    /// Whether this is the start tile.
    pub start: bool,
    /// Edge kind index of each side, indexed by `Side::index()`.
    pub edges: [usize; 4],
    /// Its features, kind by kind in vocabulary order (the base game's cities, roads, fields,
    /// monastery, garden; then the sets' own kinds), each kind's in written order. Hub sites
    /// (a marketplace) are not features: nobody stands on them and they score nothing.
    pub features: Vec<Feature>,
    /// Whether it has a hub site (Village Life's marketplace), where lines end apart.
    pub marketplace: bool,
    /// Tile-level markers, as marker kind indices.
    pub markers: Vec<usize>,
    /// Whether the layout is a reconstruction.
    pub reconstructed: bool,
    /// Drawing hints as written.
    pub art: ArtHints,
    /// The artwork image resolved against the definitions file's folder.
    pub artwork: Option<PathBuf>,
    /// Index into `TileSet::groups` of the group it is drawn with.
    pub group: Option<usize>,
    /// Drawn last of its group.
    pub held_back: bool,
    /// Held in each player's reserve instead of drawn (the abbey), and where it goes.
    pub reserve: Option<crate::model::ReserveDef>,
    /// The links of features a moving figure may follow (`TileDef::moves`): each a list of
    /// indices into `features`, in written order.
    pub moves: Vec<Vec<usize>>,
}

impl Tile {
    /// The edge kind index of a side.
    pub fn edge(&self, side: Side) -> usize {
        self.edges[side.index()]
    }

    /// The index of the feature owning a port, if any (edge-owned ports have none).
    pub fn feature_at(&self, port: Port) -> Option<usize> {
        self.features.iter().position(|f| f.ports.contains(&port))
    }

    /// All flower groups on the tile (colour indices), in written order.
    pub fn flowers(&self) -> impl Iterator<Item = usize> + '_ {
        self.features.iter().flat_map(|f| f.flowers.iter().copied())
    }

    /// Whether the tile has a feature of the given kind.
    pub fn has(&self, kind: FeatureKindId) -> bool {
        self.features.iter().any(|f| f.kind == kind)
    }
}

impl TileSet {
    /// The declared kind of a feature.
    pub fn kind_of(&self, feature: &Feature) -> &FeatureKindInfo {
        &self.feature_kinds[feature.kind.index()]
    }

    /// The feature kind with this id, if declared.
    pub fn kind_id(&self, id: &str) -> Option<FeatureKindId> {
        self.feature_kinds
            .iter()
            .position(|k| k.id == id)
            .map(|k| FeatureKindId(k as u8))
    }

    /// A line's end as a tile writes it: `junction`, a side (`N`), a kind's id (`city`),
    /// `marker`, a marker kind's id (`festival`).
    pub fn end_name(&self, end: LineEnd) -> String {
        match end {
            LineEnd::Junction => "junction".to_string(),
            LineEnd::Side(side) => side.centre().to_string(),
            LineEnd::Kind(kind) => self.feature_kinds[kind.index()].id.clone(),
            LineEnd::Marker => "marker".to_string(),
            LineEnd::MarkerKind(m) => self.markers[m].id.clone(),
        }
    }

    /// How two edge kinds meet.
    pub fn meeting(&self, a: usize, b: usize) -> Meeting {
        self.edge_kinds[a].meets[b]
    }

    /// The tile with this id or alias.
    pub fn tile(&self, id: &str) -> Option<&Tile> {
        self.tiles
            .iter()
            .find(|t| t.id == id || t.aliases.iter().any(|a| a == id))
    }

    /// The index of an edition by id.
    pub fn edition(&self, id: &str) -> Option<usize> {
        self.editions.iter().position(|e| e.id == id)
    }

    /// The edition used when none is asked for: the last one declared (the newest printing).
    pub fn default_edition(&self) -> usize {
        self.editions.len().saturating_sub(1)
    }

    /// Whether a tile carries a tile-level marker with the given rule.
    pub fn has_rule(&self, tile: &Tile, rule: MarkerRule) -> bool {
        tile.markers
            .iter()
            .any(|&m| self.markers[m].rule == Some(rule))
    }

    /// How many of a feature's markers have the given rule (e.g. the wells on a road).
    pub fn count_rule(&self, feature: &Feature, rule: MarkerRule) -> usize {
        feature
            .markers
            .iter()
            .filter(|&&m| self.markers[m].rule == Some(rule))
            .count()
    }

    /// The tiles no game can place, by index: a game grows from its start tile by sides that
    /// meet, so a tile is reached when a side of it meets a side of a tile already reached.
    /// Any start tile may begin some game, so the search starts from all of them, over every
    /// loaded set. A round that reaches tiles without a new edge kind is the last, so the
    /// rounds are at most the edge kinds and the search stays linear in the tiles.
    pub fn unreachable_tiles(&self) -> Vec<usize> {
        let mut reached: Vec<bool> = self.tiles.iter().map(|t| t.start).collect();
        if !reached.contains(&true) {
            return Vec::new();
        }
        let n = self.edge_kinds.len();
        let mut reached_edge = vec![false; n];
        // Whether an edge kind meets an edge kind of a reached tile.
        let mut fits = vec![false; n];
        let mut grew = true;
        while grew {
            grew = false;
            for (t, tile) in self.tiles.iter().enumerate() {
                if !reached[t] && tile.edges.iter().any(|&e| fits[e]) {
                    reached[t] = true;
                }
            }
            for (tile, _) in self.tiles.iter().zip(&reached).filter(|(_, r)| **r) {
                for &e in &tile.edges {
                    if !reached_edge[e] {
                        reached_edge[e] = true;
                        grew = true;
                        for (b, fit) in fits.iter_mut().enumerate() {
                            *fit |= self.meeting(b, e) != Meeting::Forbidden;
                        }
                    }
                }
            }
        }
        (0..self.tiles.len()).filter(|&t| !reached[t]).collect()
    }

    /// The edge kinds of the tiles a game can place (those `unreachable_tiles` leaves out).
    pub fn reachable_edge_kinds(&self, unreachable: &[usize]) -> Vec<usize> {
        let mut kinds: Vec<usize> = (self.tiles.iter().enumerate())
            .filter(|(t, _)| !unreachable.contains(t))
            .flat_map(|(_, tile)| tile.edges)
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds
    }
}
