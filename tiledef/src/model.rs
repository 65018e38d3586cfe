//! The file format: what an author writes in a definitions file, as serde + schemars types.
//!
//! These types are the single source of the JSON Schema (`tilekit schema`): their doc comments
//! become the schema's descriptions, which editors show on hover. Checks that need more than one
//! value at a time live in `check`, not here.

use crate::port::Port;
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The version of the format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The most copies of one tile type in one edition (the schema says so too): a count beyond any
/// printed set is a typo, and it would make every drawn bag and print sheet huge.
pub const MAX_COUNT: u32 = 1000;
/// The most pennants one city may have.
pub const MAX_PENNANTS: u32 = 9;
/// The most flower groups one field may have.
pub const MAX_FLOWER_GROUPS: usize = 8;
/// The most tile types one file may hold.
pub const MAX_TILES: usize = 100_000;
/// The longest tile id, alias or set id, in bytes.
pub const MAX_ID_LEN: u32 = 64;
/// The most figures of one follower kind a player may have.
pub const MAX_FIGURES: u32 = 20;
/// The most followers one figure may count as.
pub const MAX_STRENGTH: u32 = 9;
/// The largest rate a scoring modifier or a token may give.
pub const MAX_RATE: u32 = 100;
/// The largest artwork file, in bytes (32 MB).
pub const MAX_ARTWORK_BYTES: u64 = 32_000_000;
/// The most feature kinds the loaded sets may declare together: a game keeps its kinds in a
/// 32-bit mask.
pub const MAX_FEATURE_KINDS: usize = 32;
/// The most figures (`[[figure]]`) the loaded sets may declare together: a player's figures,
/// the base follower included, are a 32-bit set in a game.
pub const MAX_FIGURE_KINDS: usize = 31;
/// Figure ids the engine uses for its own figures (the base follower, Village Life's windmill
/// and donkey) in records, options and reports: a set's figure may not take them.
pub const RESERVED_FIGURE_IDS: [&str; 3] = ["follower", "windmill", "donkey"];
/// The largest radius of a site's range (3: a 7 × 7 square).
pub const MAX_RANGE: u32 = 3;
/// The largest `max_tiles` of a small feature's rates.
pub const MAX_SMALL_TILES: u32 = 100;
/// The keys of a `[[tile]]` table that no feature kind may take as its `key`: the tile's own
/// keys. (`cities`, `roads`, `fields`, `monastery` and `garden` are the keys of base's kinds,
/// `marketplace` Village Life's.)
pub const FIXED_TILE_KEYS: [&str; 15] = [
    "id",
    "name",
    "aliases",
    "count",
    "start",
    "like",
    "edges",
    "empty",
    "markers",
    "reconstructed",
    "art",
    "group",
    "held_back",
    "moves",
    "reserve",
];
/// The keys of a feature on a tile that no feature kind or emblem may take as its `key`.
pub const FIXED_FEATURE_KEYS: [&str; 5] = ["ports", "inner", "end", "flowers", "markers"];

/// A tilekit tile set: one file of tile definitions (a base game or an expansion).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "tilekit tile set")]
pub struct TileSetFile {
    /// The format version; this build reads `1`.
    #[schemars(range(min = 1, max = FORMAT_VERSION))]
    pub format: u32,
    /// What this file is: its id, name and the sets it builds on.
    pub set: SetHeader,
    /// Editions (printings) this set's counts refer to, e.g. `C1` and `C2`.
    #[serde(default, rename = "edition", skip_serializing_if = "Vec::is_empty")]
    pub editions: Vec<EditionDef>,
    /// Feature kinds this set adds: what its tiles carry (a lake, a forest, an island), how
    /// each is completed and scored, who may stand on it and how it is drawn. The base game
    /// declares its city, road, field, monastery and garden so. This version checks the
    /// declarations; tiles cannot carry a kind of your own yet.
    #[serde(default, rename = "feature", skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<FeatureKindDef>,
    /// Edge kinds this set adds to the vocabulary, and how they meet the others.
    #[serde(default, rename = "edge_kind", skip_serializing_if = "Vec::is_empty")]
    pub edge_kinds: Vec<EdgeKindDef>,
    /// Flower colours this set adds to the vocabulary.
    #[serde(default, rename = "colour", skip_serializing_if = "Vec::is_empty")]
    pub colours: Vec<ColourDef>,
    /// Marker kinds this set adds: the Festival place, wells, illustrations, …
    #[serde(default, rename = "marker", skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerDef>,
    /// The tiles of this set (at most 100,000 tile types).
    #[serde(default, rename = "tile", skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = MAX_TILES))]
    pub tiles: Vec<TileDef>,
    /// Follower kinds this set gives every player besides the base game's followers (the large
    /// follower), in the games it has a tile in.
    #[serde(default, rename = "figure", skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<FigureDef>,
    /// Tile groups: tiles drawn before (or after) the tiles of no group, in an order of their
    /// own (the River's tiles first, its lake last of them).
    #[serde(default, rename = "group", skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupDef>,
    /// Effects: points a scored feature's scorers get for the tile markers counted around it
    /// or on it (the vineyards of a monastery's range).
    #[serde(default, rename = "effect", skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<EffectDef>,
    /// Creatures: neutral figures, one of each in the game and nobody's, that arrive, roam,
    /// eat figures or guard them (Princess & Dragon's dragon and fairy).
    #[serde(default, rename = "creature", skip_serializing_if = "Vec::is_empty")]
    pub creatures: Vec<CreatureDef>,
}

/// The most steps a creature's `moves` may take.
pub const MAX_CREATURE_STEPS: u32 = 20;

/// A creature: a neutral figure, one in the game, nobody's. It comes onto the board when a tile
/// with its `arrives` marker is placed; it may roam after a tile with its `moves` marker,
/// eating figures; or players may move it beside their followers to be paid (`guards`).
///
/// ```toml
/// [[creature]]
/// id = "dragon"
/// name = "Dragon"
/// arrives = "volcano"
/// moves = { after = "dragon", steps = 6 }
/// eats = "all"
/// no_deploy = true
/// avoids = ["fairy"]
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatureDef {
    /// The id records and reports name it by, e.g. `"dragon"`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"dragon")]
    pub id: String,
    /// A readable name.
    pub name: String,
    /// A tile marker (`on = "tile"`, in scope): placing a tile carrying it moves the creature
    /// onto that tile, from wherever it was (the dragon to a volcano).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), example = &"volcano")]
    pub arrives: Option<String>,
    /// After the turn of a tile carrying the tile marker `after` (its second step and
    /// scorings), the creature, if on the board, moves up to `steps` tiles, one orthogonal step
    /// at a time, each chosen by the next player in turn order from the current one; never onto
    /// a tile it entered in this movement nor one it `avoids`; it stops when it cannot move.
    /// Needs `arrives`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = MovesDef::example())]
    pub moves: Option<MovesDef>,
    /// What it eats on each tile it enters: `"all"` (every figure standing on a feature: the
    /// followers and set figures, not a windmill) or a list of figure ids (`"follower"` the base
    /// follower, or a `[[figure]]` in scope). Eaten figures go home unscored. Absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eats: Option<EatsDef>,
    /// Whether no figure may be deployed on the tile where it stands (the dragon's).
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_deploy: bool,
    /// Creatures (ids, in scope) whose tile it may not enter: the dragon avoids the fairy's, so
    /// the fairy protects the figures there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = vec!["fairy"])]
    pub avoids: Vec<String>,
    /// A player may, instead of deploying, move it beside one of their followers on the board
    /// (the fairy): it pays that follower's owner these points. It stays on its tile when the
    /// follower leaves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = GuardsDef::example())]
    pub guards: Option<GuardsDef>,
}

/// How a creature roams (`moves`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovesDef {
    /// The tile marker (`on = "tile"`, in scope) after whose tile's turn it moves, e.g.
    /// `"dragon"`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"))]
    pub after: String,
    /// The most tiles it enters in one movement (the dragon: 6).
    #[schemars(range(min = 1, max = MAX_CREATURE_STEPS))]
    pub steps: u32,
}

impl MovesDef {
    fn example() -> MovesDef {
        MovesDef {
            after: "dragon".to_string(),
            steps: 6,
        }
    }
}

/// Which figures a creature eats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum EatsDef {
    /// `"all"`: every figure standing on a feature.
    All(EatsAll),
    /// These figure ids: `"follower"` (the base follower) or a `[[figure]]` in scope.
    Only(#[schemars(length(min = 1))] Vec<String>),
}

/// The word `all`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EatsAll {
    /// Every figure.
    All,
}

/// What a guarding creature pays (the fairy's points).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GuardsDef {
    /// Points to the guarded follower's owner at the start of each of their turns (the fairy:
    /// 1).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = MAX_RATE))]
    pub turn: u32,
    /// Points to the guarded follower's owner when that follower's feature is scored, whoever
    /// wins it (the fairy: 3).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = MAX_RATE))]
    pub scored: u32,
}

impl GuardsDef {
    fn example() -> GuardsDef {
        GuardsDef { turn: 1, scored: 3 }
    }
}

/// An effect: when a feature of a kind in `on` is scored, its scorers get points for the tiles
/// carrying a tile marker of the kind `marker`, counted in the feature's site range or on its
/// tiles (Hills & Sheep's vineyards: 3 a vineyard tile around a completed monastery).
///
/// ```toml
/// [[effect]]
/// id = "vineyards"
/// marker = "vineyard"
/// on = ["monastery"]
/// count = "range"
/// complete = 3
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EffectDef {
    /// The id reports and scorings name it by, e.g. `"vineyards"`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"vineyards")]
    pub id: String,
    /// The marker kind it counts: a tile marker (`on = "tile"`), e.g. `"vineyard"`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"vineyard")]
    pub marker: String,
    /// The feature kinds whose scorings it adds to, by id, e.g. `["monastery"]`.
    #[schemars(length(min = 1), example = EffectDef::on_example())]
    pub on: Vec<String>,
    /// Which tiles it counts: `range` (the placed tiles of a site's range, the site's own tile
    /// included; site kinds only) or `tiles` (the tiles of the feature).
    pub count: EffectCount,
    /// Points per counted tile to those who score the feature completed.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = MAX_RATE))]
    pub complete: u32,
    /// Points per counted tile to those who score the feature unfinished at the end.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = MAX_RATE))]
    pub unfinished: u32,
    /// A game option that switches this effect on (a house rule; off unless the game names it
    /// in its rule options, `[game.rules] on = ["…"]`, `--option`); without it the effect
    /// always pays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"shepherds")]
    pub option: Option<String>,
}

impl EffectDef {
    fn on_example() -> Vec<String> {
        vec!["monastery".to_string()]
    }
}

/// Which tiles an effect counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EffectCount {
    /// The placed tiles of a site's range, its own tile included (site kinds only).
    Range,
    /// The tiles of the feature.
    Tiles,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A feature kind: something tiles carry that figures stand on and that scores (a city, a road,
/// a field, a monastery; a lake, a forest, an island of your own). Its `shape` says how it lies
/// on a tile, `complete` when it scores before the end, `score` its points, and `look` how it is
/// drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeatureKindDef {
    /// The id edges, figures, `bordered` and game records use for it, e.g. `"lake"`: lower-case
    /// letters, digits and `-`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"lake")]
    pub id: String,
    /// A readable name, e.g. `"Lake"`.
    pub name: String,
    /// How it lies on a tile: `area` (whole edges, as a city), `line` (through edge centres, as a
    /// road), `region` (half edges, as a field) or `site` (inside the tile, as a monastery).
    pub shape: Shape,
    /// The key tiles list these features under, e.g. `"lakes"` for `lakes = [...]`. Without it:
    /// the id and an `s` (`lakes`); for a site its id (`island = true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[a-z][a-z0-9_-]*$"), length(max = MAX_ID_LEN), example = &"lakes")]
    pub key: Option<String>,
    /// The plural reports name its points by, e.g. `"monasteries"`. Without it: the key of a
    /// kind tiles list (`lakes`), else the id and an `s` (`islands`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = MAX_ID_LEN), example = &"monasteries")]
    pub plural: Option<String>,
    /// When a feature of this kind is completed and scored before the end: `closed` (an area or
    /// line with no open end), `range` (a site whose range is all placed) or `never` (it scores
    /// at the end only, as a field).
    pub complete: Completion,
    /// Whether any follower may stand on it (the default). `false`: only figures that name this
    /// kind may (a garden, which only the abbot takes).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub claimable: bool,
    /// A count written on features of this kind that scores, as a city's pennants:
    /// `{ id = "pennant", name = "Pennant", key = "pennants", max = 9 }`. One per kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emblem: Option<EmblemDef>,
    /// Its points: `complete` when completed, `unfinished` at the end of the game, `small` for a
    /// small completed feature. A rate left out is 0.
    #[serde(default, skip_serializing_if = "is_default")]
    pub score: KindScoring,
    /// What a region of another kind scores at the end for each completed feature of this kind
    /// it borders, by the region kind's id: `{ field = 3 }` (farmers score 3 a city).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(with = "BTreeMap<String, Rate>", example = FeatureKindDef::bordered_example())]
    pub bordered: BTreeMap<String, u32>,
    /// On a region kind: what it scores at the end for each completed feature it borders, by
    /// that feature's kind id (any shape that completes: an area, a line, a site), for kinds
    /// whose own `bordered` does not name it (another set's: a forest's `{ city = 2 }`). A
    /// pair of kinds is paid by one side only.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(with = "BTreeMap<String, Rate>", example = FeatureKindDef::borders_example())]
    pub borders: BTreeMap<String, u32>,
    /// A site's range, the tiles around it that complete it and that it scores per placed tile:
    /// `{ square = 1 }` (the 3 × 3 block, a monastery) or `{ plus = 1 }` (the tile and its four
    /// neighbours). Without it a site's range is its own tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<RangeDef>,
    /// Lines ending at a feature of this kind stay separate features there (Village Life's
    /// marketplace), rather than joining.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hub: bool,
    /// How the renderer draws it: a style, a fill colour, a border.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<LookDef>,
    /// The JCloisterZone element its features are exported as and imported from (`city`,
    /// `road`, `field`, `monastery`, `garden`); without it JCloisterZone has none, and export
    /// says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[a-z][a-z-]*( [a-z][a-z-]*)*$"), example = &"city")]
    pub jcz: Option<String>,
}

impl FeatureKindDef {
    /// The key tiles list these features under: `key`, else the default.
    pub fn tile_key(&self) -> String {
        self.key.clone().unwrap_or_else(|| self.default_key())
    }

    /// The plural reports use: `plural`, else the key of a listed kind, else the id and an `s`.
    pub fn plural(&self) -> String {
        match (&self.plural, self.shape) {
            (Some(plural), _) => plural.clone(),
            (None, Shape::Site) => format!("{}s", self.id),
            (None, _) => self.tile_key(),
        }
    }

    fn borders_example() -> BTreeMap<String, u32> {
        BTreeMap::from([("city".to_string(), 2), ("monastery".to_string(), 1)])
    }

    fn bordered_example() -> BTreeMap<String, u32> {
        BTreeMap::from([("field".to_string(), 3)])
    }

    /// The key without `key`: the id and an `s`, or a site's id (`monastery = true`).
    pub fn default_key(&self) -> String {
        match self.shape {
            Shape::Site => self.id.clone(),
            _ => format!("{}s", self.id),
        }
    }
}

/// Points per tile, per emblem or per marker (0 to 100): the schema of a `bordered` rate.
#[derive(JsonSchema)]
#[schemars(transparent)]
#[allow(dead_code)]
struct Rate(#[schemars(range(max = MAX_RATE))] u32);

/// How a feature kind lies on a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// It owns whole edges, their centre and both halves (a city, a lake, a forest); its open
    /// ends are its edges that face no tile.
    Area,
    /// It runs through edge centres, with regions on its sides (a road); a line with one port
    /// ends inside the tile.
    Line,
    /// It touches half-edge ports, or lies inside the tile (a field); it lists the features it
    /// borders.
    Region,
    /// It sits inside the tile (a monastery, a garden, an island), with a range around it.
    Site,
}

/// When a feature kind is completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Completion {
    /// When it has no open end left (an area or a line).
    Closed,
    /// When every tile of its range is placed (a site).
    Range,
    /// Never: it scores at the end of the game only (a field).
    Never,
}

/// The tiles around a site that complete it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RangeDef {
    /// The tiles up to this many steps away across and diagonally: 1 is the 3 × 3 block (a
    /// monastery's nine tiles).
    Square(#[schemars(range(min = 1, max = MAX_RANGE))] u32),
    /// The tiles up to this many steps away in a straight line: 1 is the tile and its four
    /// neighbours.
    Plus(#[schemars(range(min = 1, max = MAX_RANGE))] u32),
}

/// A count written on features of one kind that scores (a city's pennants).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EmblemDef {
    /// The id rates use for it, e.g. `"pennant"` in `score.complete = { pennant = 2 }`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"pennant")]
    pub id: String,
    /// A readable name, e.g. `"Pennant"`.
    pub name: String,
    /// The key a feature writes its count under, e.g. `"pennants"` for `pennants = 1`. Without
    /// it: the id and an `s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[a-z][a-z0-9_-]*$"), length(max = MAX_ID_LEN), example = &"pennants")]
    pub key: Option<String>,
    /// The most emblems one feature of a tile may carry (1 to 9; without it, 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = MAX_PENNANTS))]
    pub max: Option<u32>,
    /// An author's picture drawn for each emblem instead of the pennant: a PNG or SVG file,
    /// relative to this file's folder, at most 1 MB and 4096 pixels a side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1), example = &"icons/pearl.svg")]
    pub picture: Option<String>,
}

impl EmblemDef {
    /// The key features write their count under: `key`, else the id and an `s`.
    pub fn count_key(&self) -> String {
        self.key.clone().unwrap_or_else(|| format!("{}s", self.id))
    }
}

/// The points of a feature kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KindScoring {
    /// The rates when a feature is completed, e.g. `{ tile = 2, pennant = 2 }` (a site: per
    /// tile of its range).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complete: Option<KindRates>,
    /// The rates when a feature is scored unfinished at the end (a site: per placed tile of its
    /// range), e.g. `{ tile = 1 }`; `{ tile = 0 }` or nothing scores nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<KindRates>,
    /// The rates of a small completed feature, in place of `complete`: the first edition's
    /// city of two tiles, `{ max_tiles = 2, tile = 1, pennant = 1, option = "…" }`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub small: Option<SmallRates>,
}

/// Points per tile, per marker and per emblem of a feature, each 0 to 100: `tile`, `marker`,
/// and the kind's emblem under its id (`{ tile = 2, pennant = 2 }`). Any other key is refused.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct KindRates {
    /// Points per tile of the feature (a site: per tile of its range).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = MAX_RATE))]
    pub tile: Option<u32>,
    /// Points per marker on the feature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = MAX_RATE))]
    pub marker: Option<u32>,
    /// Points per emblem, under the kind's emblem id: `pennant = 2`.
    #[serde(flatten)]
    #[schemars(with = "BTreeMap<String, Rate>")]
    pub emblems: BTreeMap<String, u32>,
}

/// The rates of a small completed feature: one of at most `max_tiles` tiles scores these in
/// place of `complete`, when the game has `option` on. Rates as in `complete`: `tile`, `marker`
/// and the emblem's id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SmallRates {
    /// The most tiles a completed feature has to score as small, e.g. `2`.
    #[schemars(range(min = 1, max = MAX_SMALL_TILES))]
    pub max_tiles: u32,
    /// The game option that switches these rates on (off unless the game names it); without
    /// it they always apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"first-edition-small-city")]
    pub option: Option<String>,
    /// The rates: `tile`, `marker` and the emblem's id.
    #[serde(flatten)]
    pub rates: KindRates,
}

/// How a feature kind is drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LookDef {
    /// The drawing: for an area `city`, `water`, `forest`, `rock`, `sand` or `plain`; for a line
    /// `road`, `water` or `track`; for a region `grass` or `plain`; for a site `cloister`,
    /// `garden`, `market` or `icon`.
    pub style: LookStyle,
    /// The fill colour (`#rrggbb`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"), example = &"#4f8fd0")]
    pub fill: Option<String>,
    /// An area's border: `wall`, `shore`, `treeline`, `ridge` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub border: Option<LookBorder>,
    /// The border's colour (`#rrggbb`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"), example = &"#d9c48a")]
    pub border_colour: Option<String>,
    /// The icon of a site drawn with `style = "icon"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<MarkerIcon>,
    /// An author's picture of a site drawn with `style = "icon"`, instead of a library `icon`
    /// (not both): a PNG or SVG file, relative to this file's folder, at most 1 MB and 4096
    /// pixels a side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1), example = &"icons/lighthouse.svg")]
    pub picture: Option<String>,
}

/// The drawing styles of feature kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LookStyle {
    /// An area: city walls and roofs.
    City,
    /// An area or a line: water (a lake; a channel with banks).
    Water,
    /// An area: tree crowns.
    Forest,
    /// An area: hatched rock.
    Rock,
    /// An area: sand.
    Sand,
    /// An area or a region: a flat fill.
    Plain,
    /// A line: a band with verges.
    Road,
    /// A line: a dashed track.
    Track,
    /// A region: grass.
    Grass,
    /// A site: a cloister.
    Cloister,
    /// A site: a garden.
    Garden,
    /// A site: a marketplace.
    Market,
    /// A site: an icon of the library (`icon`).
    Icon,
}

/// The borders of an area.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LookBorder {
    /// A city wall.
    Wall,
    /// A shore.
    Shore,
    /// A line of trees.
    Treeline,
    /// A mountain ridge.
    Ridge,
    /// No border.
    None,
}

/// A figure a set adds: deployed like a follower on a feature of the tile just placed, returned
/// when its feature is scored; or, `at = "corner"`, placed at a corner and paying its `scores`.
/// What it may stand on, how much it counts and what more it does are declared here (the large
/// follower, the abbot, the builder, the pig, the mayor, the barn).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FigureDef {
    /// The id records use for it (`figure = "large-follower"` on a turn); not `follower`,
    /// `windmill` or `donkey`, the engine's own figures.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"large-follower")]
    pub id: String,
    /// A readable name.
    pub name: String,
    /// How many each player has (a game's `[rules] figures = { id = n }` may change it; 0 takes
    /// it out of play).
    #[schemars(range(min = 1, max = MAX_FIGURES))]
    pub count: u32,
    /// How many followers it counts as in a majority: a number (0 to 9), or `{ emblem = n }`,
    /// `n` per emblem of its feature when it is scored (the mayor: its city's pennants).
    /// Absent: 1, or 0 for a figure `beside = "own"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<StrengthDef>,
    /// The feature kinds it may stand on, e.g. `["monastery", "garden"]`; absent: every kind a
    /// follower may stand on (`claimable`). An empty list is refused: leave `on` out instead.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(min = 1), example = vec!["road", "city"])]
    pub on: Vec<String>,
    /// `none` (the default): it claims a feature no figure stands on yet. `own`: it goes only
    /// where its owner already has a claiming figure, on a feature not completed by the tile
    /// just placed, claims nothing, and goes home with that figure's feature (the builder, the
    /// pig).
    #[serde(default, skip_serializing_if = "is_default")]
    pub beside: Beside,
    /// What more it does: `recall` (instead of deploying, its owner takes it back and its
    /// feature scores at once as at the end: the abbot), `extra-tile` (placing a tile that
    /// extends its feature gives its owner one more tile: the builder), `{ bonus = { … } }`
    /// (when its feature scores for its owner, the owner adds these rates: the pig), or
    /// `move-on` (when its feature is completed, its owner may move it on along the tiles'
    /// `moves` instead of taking it home: the wagon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<PowerDef>,
    /// When it is dealt: `{ with = "garden" }` only in games whose draw has a tile with a
    /// feature of that kind (the abbot with gardens). Absent: in every game of its set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealt: Option<DealtDef>,
    /// An author's picture of the figure, shown where figures are drawn (the live page's
    /// board): a PNG or SVG file, relative to this file's folder, at most 1 MB and 4096 pixels
    /// a side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1), example = &"icons/mayor.png")]
    pub picture: Option<String>,
    /// Where it is placed: absent, on a feature of the tile just placed, as a follower is;
    /// `corner`, instead of deploying, at a corner of the tile just placed where four placed
    /// tiles meet and the four quarters there are one region of the kind in `on` that holds no
    /// such figure yet (the barn). It claims nothing, never goes home, and pays its `scores`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<FigureAt>,
    /// What a figure `at = "corner"` pays, as rates on its region: `arrival` to the majority of
    /// the followers there when it is placed, `join` to the majority of the followers a later
    /// tile joins to its region, each then going home; `end` to its owner at the end of the
    /// game (the barn: `{ arrival = { bordered = 3 }, join = { bordered = 1 }, end = {
    /// bordered = 4 } }`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<CornerScoresDef>,
}

/// Where a figure is placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FigureAt {
    /// At a corner of the tile just placed where four quarters of one region meet.
    Corner,
}

/// What a figure at a corner pays, each a set of rates on its region (absent: nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CornerScoresDef {
    /// To the majority of the followers on its region when it is placed; they go home.
    #[serde(default, skip_serializing_if = "is_default")]
    pub arrival: BonusDef,
    /// To the majority of the followers on a region a later tile joins to its region; they go
    /// home.
    #[serde(default, skip_serializing_if = "is_default")]
    pub join: BonusDef,
    /// To its owner at the end of the game, once per owner however many such figures they
    /// have on the region.
    #[serde(default, skip_serializing_if = "is_default")]
    pub end: BonusDef,
}

/// How many followers a figure counts as in a majority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum StrengthDef {
    /// A fixed number (0: it occupies its feature but wins no majority alone).
    Count(#[schemars(range(max = MAX_STRENGTH))] u32),
    /// A number per emblem of its feature when it is scored (the mayor: 1 per pennant).
    PerEmblem {
        /// Followers it counts as per emblem.
        #[schemars(range(min = 1, max = MAX_STRENGTH))]
        emblem: u32,
    },
}

/// Whether a figure claims a free feature or joins its owner's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Beside {
    /// It claims a feature no figure stands on.
    #[default]
    None,
    /// It goes only where its owner already has a claiming figure, and claims nothing.
    Own,
}

/// A figure's power.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum PowerDef {
    /// Instead of deploying, its owner may take it back: its feature scores at once as it would
    /// at the end, for its owner (the abbot).
    Recall,
    /// Placing a tile that extends its feature gives its owner one more tile at once, which
    /// never gives another (the builder).
    ExtraTile,
    /// When its feature scores and its owner is among the scorers, the owner adds these rates,
    /// once however many such figures they have there (the pig: `{ bordered = 1 }`, 1 more per
    /// completed city its field borders).
    Bonus(BonusDef),
    /// When its feature is completed and scored, instead of going home its owner may move it
    /// on to an unoccupied, unfinished feature it may stand on that a tile's `moves` links to
    /// the completed feature, on any of that feature's tiles (the wagon).
    MoveOn,
}

/// The rates a figure's bonus adds to its owner's points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BonusDef {
    /// Points per tile of the feature.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = MAX_RATE))]
    pub tile: u32,
    /// Points per emblem on it (a city's pennants).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = MAX_RATE))]
    pub emblem: u32,
    /// Points per completed feature a region borders that pays it (a field's cities).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = MAX_RATE))]
    pub bordered: u32,
}

/// When a figure is dealt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DealtDef {
    /// A feature kind: the figure is dealt only when a tile of the draw has one.
    #[schemars(example = &"garden")]
    pub with: String,
}

/// A tile group: tiles that are drawn together, before or after the tiles of no group.
///
/// A game draws every group with `draw = "first"` (ordered by `after` and `before`, else by
/// load order), then the tiles of no group, then every group with `draw = "last"`. Within a
/// group its tiles are shuffled, and those `held_back` are drawn after the others (the lake).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GroupDef {
    /// The id tiles name in their `group`, e.g. `"river"`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), example = &"river")]
    pub id: String,
    /// A readable name.
    pub name: String,
    /// When the group is drawn: `first` (before the tiles of no group) or `last` (after them).
    #[serde(default)]
    pub draw: GroupDraw,
    /// Groups drawn before this one when both are in a game (this group follows them); they
    /// must be drawn on the same side (`first` or `last`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = vec!["river-fork"])]
    pub after: Vec<String>,
    /// Groups drawn after this one when both are in a game (for a set that must come before a
    /// group of a set it requires: River II's fork before the River's tiles).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = vec!["river"])]
    pub before: Vec<String>,
    /// What becomes of the group's start tiles that are not the game's start tile: `draw`
    /// (they are drawn with the group, every copy) or `leave-out` (they stay in the box: a
    /// second spring when two rivers are played together).
    #[serde(default, skip_serializing_if = "is_default")]
    pub spare_starts: SpareStarts,
}

/// When a group's tiles are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GroupDraw {
    /// Before the tiles of no group (the River).
    #[default]
    First,
    /// After the tiles of no group.
    Last,
}

/// What becomes of a group's start tiles that do not start the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SpareStarts {
    /// They are drawn with the group's other tiles, every copy.
    #[default]
    Draw,
    /// They are left out of the game.
    LeaveOut,
}

/// The placement rule of a path edge kind (a river): what a tile carrying it must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PathRule {
    /// A tile with edges of this kind must put at least one of them against a placed tile (it
    /// continues the path at an open end).
    Extend,
    /// As `extend`, and the path may not turn back on itself: each edge of this kind that the
    /// tile leaves open needs room to go on (the cell it faces, the two beside that cell, and
    /// the three beyond them are empty). The River's U-turn rule, read as JCloisterZone does.
    NoUTurn,
}

/// The `[set]` table: identity and dependencies of a tile set.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetHeader {
    /// A short id, unique among loaded sets, e.g. `"base"` or `"village-life"`: lower-case
    /// letters, digits and `-`, at most 64 characters (it names the set in `requires`, records
    /// and file names).
    #[schemars(regex(pattern = r"^[a-z0-9][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"village-life")]
    pub id: String,
    /// The set's name as printed on sheets.
    #[schemars(example = &"Village Life")]
    pub name: String,
    /// Ids of the sets that must be loaded with this one (their vocabulary is used here).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = vec!["base"])]
    pub requires: Vec<String>,
    /// Free text: where the set comes from, who made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The figures besides the followers that the set brings into the games it is in; a game's
    /// options may still switch each off (or on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = vec![SetFigure::Donkey, SetFigure::Windmill])]
    pub figures: Vec<SetFigure>,
    /// Tiles of the sets this one requires (by id or alias) that a game with this set in its
    /// draw leaves out: River II takes the River's lake out, as JCloisterZone's `<remove>`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = vec!["RI.1/I.e"])]
    pub removes: Vec<String>,
}

/// A figure a set brings into play, whose rules the engine knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SetFigure {
    /// The donkey (Village Life): one neutral figure, starting on the start tile; no feature on
    /// its tile may be completed, and a player may move it instead of deploying.
    Donkey,
    /// A windmill per player (Village Life): goes on a field instead of a follower and scores its
    /// plus-shaped range.
    Windmill,
}

impl SetFigure {
    /// The figure as a file names it (`donkey`).
    pub fn id(self) -> &'static str {
        match self {
            SetFigure::Donkey => "donkey",
            SetFigure::Windmill => "windmill",
        }
    }
}

/// An edition (printing) of the game, which tile counts can refer to.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditionDef {
    /// The id used as a key in `count` tables, e.g. `"C2"`.
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9-]*$"), example = &"C2")]
    pub id: String,
    /// A readable name, e.g. `"Second and third edition"`.
    pub name: String,
}

/// How two edge kinds meet when their edges touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Meeting {
    /// The edges fit; facing ports' features join.
    Connect,
    /// The edges fit; a road on either centre port is closed there (as bushes close a road).
    Close,
    /// The edges fit and join nothing: every road, city and field meeting an edge whose ports
    /// carry nothing ends there (the abbey's walls).
    End,
    /// The edges may not touch.
    Forbidden,
}

/// An edge kind of the vocabulary: what its ports carry and how it meets other kinds.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EdgeKindDef {
    /// The id used in tiles' `edges`, e.g. `"road"`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), example = &"bushes")]
    pub id: String,
    /// A readable name.
    pub name: String,
    /// The feature kind its centre port (`N`, `E`, `S`, `W`) carries, e.g. `"road"`, or `"none"`
    /// (the edge kind owns the port: a field edge's centre, a bushes edge's centre).
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), example = &"road")]
    pub centre: String,
    /// The feature kind its two half-edge ports carry, or `"none"`; an area kind (`city`) on
    /// both the centre and the halves means one area owns the whole edge.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), example = &"field")]
    pub halves: String,
    /// How this kind meets each kind (including itself); a pair not named anywhere is forbidden.
    #[serde(default)]
    pub meets: BTreeMap<String, Meeting>,
    /// Colour used to draw this edge kind (`#rrggbb`): the band, the water, the hedge, the wall.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"))]
    pub display: Option<String>,
    /// How the renderer draws this edge kind; without it, it follows from what the ports carry
    /// (a road centre is a `band`, a city a `city`, a centre that carries nothing and closes
    /// roads a `hedge`, anything else `plain`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<EdgeStyle>,
    /// This edge kind is a path that tiles must continue (`extend`), and may not turn back on
    /// itself (`no-u-turn`, the River's rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<PathRule>,
    /// What this edge kind is in JCloisterZone's XML (`tilekit export jcz`): a side of its
    /// field, road or city, its river, or FanCloisterZone's bush. Absent: JCloisterZone has no
    /// such edge, and export says so for every tile that has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jcz: Option<JczEdge>,
}

/// What an edge kind is in JCloisterZone's XML.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum JczEdge {
    /// A side JCZ reads as field.
    Field,
    /// A side whose centre is a road.
    Road,
    /// A city side.
    City,
    /// The River's `<river>`.
    River,
    /// FanCloisterZone's `bush` (Village Life's bushes), on the road the side belongs to.
    Bush,
}

/// How an edge kind is drawn on a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EdgeStyle {
    /// Nothing of its own: the halves' ground runs to the edge.
    Plain,
    /// A band from the edge centre into the tile, as a road is drawn.
    Band,
    /// Water from the edge centre into the tile; a river that ends inside the tile ends in a
    /// spring or a lake (see the tile's markers), and it divides the fields on its two sides.
    River,
    /// A hedge from the edge centre into the tile, as bushes are drawn.
    Hedge,
    /// A wall along the edge.
    Wall,
    /// A city's walls and fill, reaching the edge.
    City,
}

/// A flower colour of the vocabulary.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ColourDef {
    /// The id used in fields' `flowers`, e.g. `"violet"`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), example = &"light-blue")]
    pub id: String,
    /// A readable name.
    pub name: String,
    /// The colour to draw flowers in (`#rrggbb`).
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"), example = &"#8fc7ea")]
    pub display: String,
}

/// Where a marker kind may be put: `tile`, or the id of a feature kind (`road`, `city`,
/// `field`, `monastery`, a set's own `lake`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MarkerPlace {
    /// On the tile as a whole (`markers` of a tile).
    Tile,
    /// On the features of a kind, by the kind's id (`markers` of a road, of a monastery).
    #[serde(untagged)]
    Kind(String),
}

impl MarkerPlace {
    /// The place as written: `tile`, or the feature kind's id.
    pub fn name(&self) -> &str {
        match self {
            MarkerPlace::Tile => "tile",
            MarkerPlace::Kind(id) => id,
        }
    }

    /// The place written `name`: `tile`, else the feature kind of that id.
    pub fn named(name: &str) -> MarkerPlace {
        match name {
            "tile" => MarkerPlace::Tile,
            kind => MarkerPlace::Kind(kind.to_string()),
        }
    }

    /// Whether markers of this place go on features of the kind `kind` (its id).
    pub fn is_on(&self, kind: &str) -> bool {
        *self != MarkerPlace::Tile && self.name() == kind
    }
}

/// The rule module that gives a marker kind its meaning in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MarkerRule {
    /// The Festival: after placing the tile a player may return one of their figures.
    Festival,
    /// The Wells: +1 per well on a scored road, complete or not, with the `wells` option on;
    /// the same as `scoring = { option = "wells", complete = { marker = 1 }, unfinished =
    /// { marker = 1 } }`, which a marker may say instead.
    Well,
}

/// A marker kind of the vocabulary: the Festival place, a well, an illustration, …
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerDef {
    /// The id used in `markers` lists, e.g. `"well"`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), example = &"water-tower")]
    pub id: String,
    /// A readable name.
    pub name: String,
    /// Where the marker may be put.
    pub on: MarkerPlace,
    /// The rule that uses this marker; without one it is an illustration only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<MarkerRule>,
    /// The colour of its icon (`#rrggbb`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"))]
    pub display: Option<String>,
    /// The icon of the renderer's library drawn for it; without one (and no `picture`), a badge
    /// in its colour with its initial.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<MarkerIcon>,
    /// An author's picture drawn for it instead of a library `icon` (not both): a PNG or SVG
    /// file, relative to this file's folder, at most 1 MB and 4096 pixels a side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1), example = &"icons/mine.svg")]
    pub picture: Option<String>,
    /// How a road or city carrying this marker scores (an inn, a cathedral, a well): rates that
    /// replace the base ones, and points per marker, when complete and when unfinished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = ScoringDef::example())]
    pub scoring: Option<ScoringDef>,
    /// A token the marker gives (Traders & Builders' goods): when a road or city carrying it is
    /// completed, the player who completed it gets one per marker; at the end the players with
    /// the most of this token each score its `points`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<TokenDef>,
    /// Tiles carrying this marker (on the tile or a feature) are held out of the draw until a
    /// tile carrying the marker `until` has been placed: Princess & Dragon's dragon tiles until
    /// the first volcano (`docs/rules-draw.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = HeldDef::example())]
    pub held: Option<HeldDef>,
    /// A feature marker whose tile lets its player, when the placement extends a feature of its
    /// kind that holds figures, send one of those figures home instead of deploying (anyone's;
    /// JCZ's princess: `removes = "follower"` on a city marker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removes: Option<Removes>,
    /// A tile marker that widens where its tile's player may deploy instead of on the tile
    /// (JCZ's magic portal: `deploy = "anywhere"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy: Option<DeployWhere>,
}

/// Which figures a marker with `removes` may send home from its feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Removes {
    /// A figure that claims the feature (a follower, the large follower, the abbot, the mayor;
    /// not a builder or pig, which go home with their owner's last claiming figure there).
    Follower,
}

/// Where a tile marker with `deploy` lets its tile's player deploy instead of on the tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DeployWhere {
    /// On any unoccupied, unfinished feature of any other placed tile, for any figure of the
    /// supply that may stand on it (not one going `beside` its owner's).
    Anywhere,
}

/// When the tiles carrying a marker come into the draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HeldDef {
    /// The marker id (in scope) whose first tile placed lets the held tiles be drawn, e.g.
    /// `"volcano"`.
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"))]
    pub until: String,
}

impl HeldDef {
    fn example() -> HeldDef {
        HeldDef {
            until: "volcano".to_string(),
        }
    }
}

/// A scoring modifier of a marker kind. When a scored road or city carries markers of this
/// kind, `tile` and `pennant` replace the base rates (several kinds on one feature: the highest
/// of each rate they give), and `marker` adds that many points per marker (summed over kinds).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoringDef {
    /// The rates when the feature is completed (absent: the base rates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complete: Option<Rates>,
    /// The rates when the feature is scored unfinished at the end (absent: the base rates);
    /// `{ tile = 0, pennant = 0 }` scores nothing unfinished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<Rates>,
    /// A game option that switches this modifier on (a house rule; off unless the game names
    /// it in its rule options, `[game.rules] on = ["…"]`). `wells` is also the `wells` option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"wells")]
    pub option: Option<String>,
}

impl ScoringDef {
    /// The Wells as a modifier: +1 per well, complete or not, with the `wells` option on
    /// (what `rule = "well"` means).
    pub fn wells() -> ScoringDef {
        let one = Rates {
            marker: Some(1),
            ..Rates::default()
        };
        ScoringDef {
            complete: Some(one),
            unfinished: Some(one),
            option: Some("wells".to_string()),
        }
    }

    fn example() -> ScoringDef {
        ScoringDef {
            complete: Some(Rates {
                tile: Some(2),
                ..Rates::default()
            }),
            unfinished: Some(Rates {
                tile: Some(0),
                ..Rates::default()
            }),
            option: None,
        }
    }
}

/// Points per tile, per pennant and per marker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rates {
    /// Points per tile of the feature, in place of the base rate (road 1; city 2 complete,
    /// 1 unfinished).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = MAX_RATE))]
    pub tile: Option<u32>,
    /// Points per pennant of a city, in place of the base rate (2 complete, 1 unfinished).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = MAX_RATE))]
    pub pennant: Option<u32>,
    /// Points added per marker of this kind on the feature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = MAX_RATE))]
    pub marker: Option<u32>,
    /// On a region: points added per completed feature it borders that pays it, once however
    /// many markers of this kind it holds (River II's pig farm: +1 a completed city to its
    /// farmers, as JCloisterZone pays it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = MAX_RATE))]
    pub bordered: Option<u32>,
}

/// A token kind given by a marker, scored by majority at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenDef {
    /// The good's id, when it is named apart from its marker (`fish` on a `port`); absent: the
    /// marker's id. Markers giving one id, in any loaded set, give one good, counted together
    /// for the majority; events, records and reports name it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[a-z][a-z0-9-]*$"), length(max = MAX_ID_LEN), example = &"fish")]
    pub id: Option<String>,
    /// The good's readable name, e.g. `"Fish"`; absent: the marker's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Fish")]
    pub name: Option<String>,
    /// Points each player with the most tokens of this kind scores at the end (ties: every
    /// tied player scores them all). Every marker giving one good gives it the same points.
    #[schemars(range(min = 1, max = MAX_RATE))]
    pub points: u32,
}

/// The renderer's icon library: what a marker can be drawn as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MarkerIcon {
    /// A round badge with the marker's initial (the default).
    Badge,
    /// The Festival place: a starburst.
    Festival,
    /// A well.
    Well,
    /// A river's spring.
    Spring,
    /// A lake.
    Lake,
    /// A volcano.
    Volcano,
    /// An inn by a road.
    Inn,
    /// A cathedral in a city.
    Cathedral,
    /// A barrel of wine (a good).
    Wine,
    /// A sheaf of grain (a good).
    Grain,
    /// A bolt of cloth (a good).
    Cloth,
    /// A tower foundation.
    Tower,
    /// A bazaar.
    Bazaar,
    /// A dragon.
    Dragon,
    /// A magic portal.
    Portal,
    /// A princess.
    Princess,
    /// A pig herd.
    PigHerd,
    /// A shrine.
    Shrine,
    /// A circus tent.
    Circus,
    /// Acrobats.
    Acrobats,
    /// A watchtower.
    Watchtower,
    /// A flying machine.
    FlyingMachine,
    /// A hill.
    Hill,
    /// A vineyard.
    Vineyard,
    /// Gold.
    Gold,
    /// A mage or a witch.
    Mage,
    /// A ferry or a jetty.
    Ferry,
    /// A crop circle.
    CornCircle,
    /// A tunnel.
    Tunnel,
    /// A besieged city (siege shield).
    Siege,
    /// A castle.
    Castle,
    /// A hut or a house.
    Hut,
    /// A robber or bandit.
    Robber,
    /// A water spirit or other creature.
    Creature,
    /// A district of a city (the City of Carcassonne's quarters).
    Quarter,
}

impl MarkerIcon {
    /// Every icon of the library, in the order declared.
    pub const ALL: [MarkerIcon; 35] = [
        MarkerIcon::Badge,
        MarkerIcon::Festival,
        MarkerIcon::Well,
        MarkerIcon::Spring,
        MarkerIcon::Lake,
        MarkerIcon::Volcano,
        MarkerIcon::Inn,
        MarkerIcon::Cathedral,
        MarkerIcon::Wine,
        MarkerIcon::Grain,
        MarkerIcon::Cloth,
        MarkerIcon::Tower,
        MarkerIcon::Bazaar,
        MarkerIcon::Dragon,
        MarkerIcon::Portal,
        MarkerIcon::Princess,
        MarkerIcon::PigHerd,
        MarkerIcon::Shrine,
        MarkerIcon::Circus,
        MarkerIcon::Acrobats,
        MarkerIcon::Watchtower,
        MarkerIcon::FlyingMachine,
        MarkerIcon::Hill,
        MarkerIcon::Vineyard,
        MarkerIcon::Gold,
        MarkerIcon::Mage,
        MarkerIcon::Ferry,
        MarkerIcon::CornCircle,
        MarkerIcon::Tunnel,
        MarkerIcon::Siege,
        MarkerIcon::Castle,
        MarkerIcon::Hut,
        MarkerIcon::Robber,
        MarkerIcon::Creature,
        MarkerIcon::Quarter,
    ];
}

/// How many copies of a tile a set holds: one number (1 to 1,000), or one per edition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Count {
    /// The same number in every edition, 1 to 1,000.
    All(#[schemars(range(min = 1, max = MAX_COUNT))] u32),
    /// A number per edition id, each 1 to 1,000; an edition not named has none of this tile.
    PerEdition(#[schemars(with = "BTreeMap<String, EditionCount>")] BTreeMap<String, u32>),
}

/// The copies of a tile in one edition, 1 to 1,000 (the schema of a `count` table's values).
#[derive(JsonSchema)]
#[schemars(transparent)]
#[allow(dead_code)]
struct EditionCount(#[schemars(range(max = MAX_COUNT))] u32);

/// The four edges of a tile, each an edge kind id.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Edges {
    /// The north edge.
    pub n: String,
    /// The east edge.
    pub e: String,
    /// The south edge.
    pub s: String,
    /// The west edge.
    pub w: String,
}

/// What a tile writes under a feature kind's key: `true` for a site (`monastery = true`), a list
/// of features for any other shape (`cities = [{ ports = ["N"] }]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TileFeatures {
    /// A site: `true` puts one on the tile, `false` none.
    Present(bool),
    /// The features of an area, line or region kind, in the order written.
    List(Vec<FeatureDef>),
    /// A site with markers on it: `monastery = { markers = ["shrine"] }`.
    Site(SiteDef),
}

/// A site on a tile, written as a table to put markers on it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SiteDef {
    /// Marker ids on the site (each declared `on` the site's kind, e.g. `on = "monastery"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<String>,
}

/// One feature on a tile: the keys its kind's shape takes (`ports` always; `end` on a line;
/// `inner` and `flowers` on a region), its emblem count under the emblem's key (`pennants = 1`),
/// and, on a region, the features it borders under their kind's key (`cities = ["N"]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FeatureDef {
    /// The ports it leaves the tile by: centre ports (`N`, `E`, `S`, `W`) for an area or a line,
    /// half-edge ports (`NNW`, `ENE`, …) for a region; empty for an inner region.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = vec![Port::W, Port::E])]
    pub ports: Vec<Port>,
    /// A region that touches no edge (it lies inside the tile).
    #[serde(default, skip_serializing_if = "is_false")]
    pub inner: bool,
    /// Where a line with one port ends inside the tile: `junction`; a side (`N`, `E`, `S`, `W`)
    /// of this tile whose edge carries no line (bushes, a river bank); the id of an area or site
    /// kind on the tile (`city`: a gate; `monastery`; `marketplace`); `marker` (one of the tile's
    /// markers); or the id of one of the tile's markers (`festival`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[A-Za-z][A-Za-z0-9-]*$"), example = &"junction")]
    pub end: Option<String>,
    /// The flower groups in a region, one colour id per group (at most 8).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = MAX_FLOWER_GROUPS), example = vec!["white", "violet"])]
    pub flowers: Vec<String>,
    /// Markers on this feature, e.g. `["well"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<String>,
    /// The emblem count under its key (`pennants = 1`), and on a region the features it
    /// borders under their kind's key, each named by one of its ports (`cities = ["N"]`), or
    /// the tile's site by `true` (`monastery = true`).
    #[serde(flatten)]
    pub by_kind: BTreeMap<String, KindValue>,
}

/// A value a feature writes under a kind's key: an emblem count or the ports of bordered
/// features.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum KindValue {
    /// An emblem count, e.g. `pennants = 1` (0 to 9).
    Count(#[schemars(range(max = MAX_PENNANTS))] u32),
    /// The features of a kind a region borders, each named by one of its ports.
    Ports(#[schemars(example = vec![Port::N])] Vec<Port>),
    /// A region borders the tile's site of this kind (`monastery = true`).
    Site(bool),
}

impl FeatureDef {
    /// A feature leaving the tile by these ports.
    pub fn at(ports: Vec<Port>) -> FeatureDef {
        FeatureDef {
            ports,
            ..FeatureDef::default()
        }
    }

    /// The count written under `key` (an emblem), 0 if none.
    pub fn count(&self, key: &str) -> u32 {
        match self.by_kind.get(key) {
            Some(KindValue::Count(n)) => *n,
            _ => 0,
        }
    }

    /// The ports written under `key` (bordered features of that kind), empty if none.
    pub fn ports_under(&self, key: &str) -> &[Port] {
        match self.by_kind.get(key) {
            Some(KindValue::Ports(ports)) => ports,
            _ => &[],
        }
    }
}

/// Drawing hints: they place things in the picture and never change the rules.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtHints {
    /// An artwork image (a path to a PNG file, relative to this file's folder, at most 32 MB)
    /// drawn instead of the generated picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Positions of the tile's flower groups, in the order they are written, as `[x, y]`
    /// fractions of the tile (0,0 north-west, 1,1 south-east).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flowers: Vec<[f32; 2]>,
    /// Positions of markers by marker id, as `[x, y]` fractions of the tile.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub markers: BTreeMap<String, [f32; 2]>,
}

/// One tile type. Its features are written under their kinds' keys, which the vocabulary
/// declares: a key no kind in scope writes is the checker's `unknown-key`, not the schema's.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct TileDef {
    /// The tile's id, unique among all loaded sets, e.g. `"D"` or `"FE-CFR"`: letters, digits and
    /// `.` `_` `+` `-`, starting with a letter or digit, at most 64 characters. Ids become file
    /// names of previews, keys in game records and parts of URLs, where `/`, `!`, spaces and the
    /// like do not belong; write another program's name for the tile (JCloisterZone's `BA/RCr`)
    /// in `aliases`, which take any text.
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9._+-]*$"), length(max = MAX_ID_LEN), example = &"VL-01")]
    pub id: String,
    /// A readable name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Other ids this tile is known by (e.g. JCloisterZone's `"BA/RCr"`), for interoperability:
    /// any text of at most 64 characters, unique among all loaded tile ids and aliases.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(inner(length(min = 1, max = MAX_ID_LEN)))]
    pub aliases: Vec<String>,
    /// How many copies the set holds (1 to 1,000): a number, or a table by edition
    /// (`{ C1 = 5, C2 = 4 }`).
    #[schemars(example = Count::All(1))]
    pub count: Count,
    /// This tile is the start tile: one copy is placed unrotated at the origin and not drawn.
    #[serde(default, skip_serializing_if = "is_false")]
    pub start: bool,
    /// Copy the layout (edges, features, markers) of another tile, named by its id or an alias,
    /// from this set or one it requires: for a set that reprints another set's tiles with its own
    /// counts and art (Winter). A tile with `like` writes no layout of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"BA/RCr")]
    pub like: Option<String>,
    /// The edge kind of each side (required unless the tile is `like` another).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edges: Option<Edges>,
    /// The tile's features, under the key their kind declares: the base game's `cities`,
    /// `roads`, `fields`, `monastery = true` and `garden = true`, Village Life's
    /// `marketplace = true`, a set's own (`lakes = [...]`, `island = true`).
    #[serde(flatten)]
    pub features: IndexMap<String, TileFeatures>,
    /// Ports that belong to no feature, on purpose: the parts of an edge that lie against
    /// something that is not a feature (the walls of the City of Carcassonne in *The Count*).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = vec![Port::ESE, Port::SSE])]
    pub empty: Vec<Port>,
    /// Tile-level markers: the Festival place, illustrations, …
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = vec!["festival"])]
    pub markers: Vec<String>,
    /// Which of the tile's features are linked for a figure that moves on from one feature to
    /// another (Abbey & Mayor's wagon; JCloisterZone's `wagon-move`): each list is one link of
    /// two or more features, each named by one of its ports (`"N"`, `"ENE"`) or, for a site,
    /// its kind's id (`"monastery"`), e.g. `[["N", "E"], ["W", "S"]]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(inner(length(min = 2), inner(regex(pattern = r"^[A-Za-z][A-Za-z0-9-]*$"))), example = vec![vec!["monastery", "N"]])]
    pub moves: Vec<Vec<String>>,
    /// The layout is a reconstruction (what the tile carries is known, its drawing is not).
    #[serde(default, skip_serializing_if = "is_false")]
    pub reconstructed: bool,
    /// Drawing hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub art: Option<ArtHints>,
    /// The tile group it is drawn with (declared in this set or one it requires), e.g.
    /// `"river"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"river")]
    pub group: Option<String>,
    /// Drawn last of its group, after the group's other tiles (the River's lake).
    #[serde(default, skip_serializing_if = "is_false")]
    pub held_back: bool,
    /// Held in each player's reserve, not drawn: a player places it instead of the drawn tile
    /// (Abbey & Mayor's abbey). `count` is then the copies printed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(example = ReserveDef { each: 1, into: ReserveInto::ClosedGap })]
    pub reserve: Option<ReserveDef>,
}

/// A tile each player holds in reserve, and where it may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReserveDef {
    /// How many copies each player holds at the start, 1 to 9.
    #[schemars(range(min = 1, max = 9))]
    pub each: u8,
    /// Where a copy may be placed instead of the drawn tile, and once more after the last tile.
    pub into: ReserveInto,
}

/// Where a reserve tile may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReserveInto {
    /// An open position with a placed tile on all four sides, each of whose edges the tile's
    /// own meets.
    ClosedGap,
}

impl TileDef {
    /// The features written under `key` (empty if none, or if it is a site's `true`).
    pub fn features_under(&self, key: &str) -> &[FeatureDef] {
        match self.features.get(key) {
            Some(TileFeatures::List(list)) => list,
            _ => &[],
        }
    }

    /// The features under `key`, to add to.
    pub fn features_under_mut(&mut self, key: &str) -> &mut Vec<FeatureDef> {
        let entry = self
            .features
            .entry(key.to_string())
            .or_insert_with(|| TileFeatures::List(Vec::new()));
        if !matches!(entry, TileFeatures::List(_)) {
            *entry = TileFeatures::List(Vec::new());
        }
        match entry {
            TileFeatures::List(list) => list,
            _ => unreachable!("replaced by a list just above"),
        }
    }

    /// Whether the tile has the site written under `key` (`monastery = true`, or a table).
    pub fn has_site(&self, key: &str) -> bool {
        matches!(
            self.features.get(key),
            Some(TileFeatures::Present(true) | TileFeatures::Site(_))
        )
    }

    /// The markers on the site written under `key` (empty if none).
    pub fn site_markers(&self, key: &str) -> &[String] {
        match self.features.get(key) {
            Some(TileFeatures::Site(site)) => &site.markers,
            _ => &[],
        }
    }

    /// Puts the site written under `key` on the tile.
    pub fn put_site(&mut self, key: &str) {
        self.features
            .insert(key.to_string(), TileFeatures::Present(true));
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_true(b: &bool) -> bool {
    *b
}

fn yes() -> bool {
    true
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// The JSON Schema of the types alone: a tile's feature keys are any key (`additionalProperties`);
/// `schema::json_schema` names the bundled kinds' keys in it.
pub fn types_schema() -> serde_json::Value {
    let schema = schemars::schema_for!(TileSetFile);
    serde_json::to_value(schema).expect("a generated schema is always valid JSON")
}
