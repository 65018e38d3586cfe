//! What a game is set up with: the options (draw, sets, players, rule variants), the rules
//! they resolve to, and why a setup can fail. Plain data, below everything else in the engine.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The most players a game can have.
pub const MAX_PLAYERS: u8 = 8;

/// The rule options the engine itself knows by name, beside those the definitions declare
/// (`Tables::rule_options`): `on = ["first-edition-small-city"]` is `first_edition_small_city =
/// true`, and so for the others.
pub const BUILT_IN_OPTIONS: [&str; 3] =
    [FIRST_EDITION_SMALL_CITY, "monastery-flowers-3x3", "wells"];

/// The built-in option `first_edition_small_city = true` also switches on: base declares the
/// city's small rates under it.
pub const FIRST_EDITION_SMALL_CITY: &str = "first-edition-small-city";

/// The rule options a game may switch on by name: the engine's own and each one the given
/// scoring modifiers declare (a house rule), sorted, each once.
pub fn rule_options<'a>(declared: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut names: Vec<&str> = BUILT_IN_OPTIONS.iter().copied().chain(declared).collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Rule options: variants of the rules, not forks of the code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RuleOptions {
    /// First-edition rule: a completed city of two tiles scores 2 (1 per tile and pennant).
    pub first_edition_small_city: bool,
    /// Followers per player.
    pub followers: u8,
    /// The Festival: after placing a Festival tile a player may return a figure instead.
    pub festival: bool,
    /// The donkey (Village Life); absent: in play when a set of the game brings it (its
    /// `[set] figures`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub donkey: Option<bool>,
    /// What the donkey forbids completing on its tile.
    pub donkey_blocks: DonkeyBlocks,
    /// Windmills per player (Village Life); absent: 1 when a set of the game brings windmills
    /// (its `[set] figures`), else 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub windmills: Option<u8>,
    /// Reserve tiles per player (Abbey & Mayor's abbey: a tile with `reserve`); absent: the
    /// tile's `each` when its set has a tile in the game; 0 takes them out of play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserve: Option<u8>,
    /// Flower colours and the flower bonus (Village Life); absent: on when a tile of the draw
    /// carries flower groups. Bushes and marketplaces always follow the data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flower_bonus: Option<bool>,
    /// The Wells: +1 per well on a scored road.
    pub wells: bool,
    /// A monastery's flowers are those of its 3×3 range (default: its own tile only).
    pub monastery_flowers_3x3: bool,
    /// Flower colour ids by player (absent: drawn from the tokens, see `rules::flowers`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flowers: Vec<String>,
    /// How many of a set's figures each player has, by figure id (`{ abbot = 0 }` takes the
    /// abbot out of play); absent: the figure's declared `count`, when it is dealt.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub figures: std::collections::BTreeMap<String, u8>,
    /// Options switched on by name: those declared in the definitions (a scoring modifier's
    /// `option`: a house rule) and the engine's own (`BUILT_IN_OPTIONS`; `wells = true` is the
    /// same as naming `wells` here). A name no loaded set declares is refused at setup.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub on: Vec<String>,
}

/// What the donkey forbids completing: the features on its tile (a marketplace road's closing
/// included), or, as FanCloisterZone reads it, a marketplace road's closing only when that
/// road's whole network completes with it.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum DonkeyBlocks {
    /// Closing any road or city on the donkey's tile, marketplace roads included.
    #[default]
    Road,
    /// As `Road`, but a marketplace road on its tile may close unless that completes its
    /// network (every marketplace it touches then has all its roads closed).
    Network,
}

impl DonkeyBlocks {
    /// The option's value as written in records and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            DonkeyBlocks::Road => "road",
            DonkeyBlocks::Network => "network",
        }
    }
}

/// The rules a game plays: its options, with the defaults taken from the sets in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Rules {
    /// The sets with a tile in the game (the whole draw, before a `tiles` cut, and the start
    /// tile), in load order.
    pub sets: Vec<String>,
    /// Followers per player.
    pub followers: u8,
    /// First-edition small city.
    pub first_edition_small_city: bool,
    /// Festival returns.
    pub festival: bool,
    /// The donkey is in play.
    pub donkey: bool,
    /// What the donkey blocks.
    pub donkey_blocks: DonkeyBlocks,
    /// Windmills per player.
    pub windmills: u8,
    /// Reserve tiles per player (the abbey), 0 when none is in play.
    #[serde(skip_serializing_if = "is_zero")]
    pub reserve: u8,
    /// The tile kind held in reserve (index into `Tables::kinds`): the first tile with
    /// `reserve` of a set in the game.
    #[serde(skip)]
    pub reserve_kind: Option<u16>,
    /// Flower colours are dealt and flowers pay.
    pub flower_bonus: bool,
    /// A monastery's flowers are those of its 3×3 range.
    pub monastery_flowers_3x3: bool,
    /// The Wells.
    pub wells: bool,
    /// The sets' figures each player has in this game (`[[figure]]`), by id, in declaration
    /// order: those dealt (a figure dealt with gardens only when the draw has one). In JSON an
    /// object keyed by figure id, as a record's `figures` is written.
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "pairs_as_map")]
    #[schemars(with = "std::collections::BTreeMap<String, u8>")]
    pub figures: Vec<(String, u8)>,
    /// The figure placed at a corner this game plays (`Tables::corner_figures` index) and how
    /// many each player has: the first of the sets in the game (not in JSON: `figures` says it).
    #[serde(skip)]
    pub corner: Option<(u8, u8)>,
    /// Bit `k` when feature kind `k`'s small rates apply (`FeatureRule::small`: no option, or
    /// its option on).
    #[serde(skip)]
    pub small_kinds: u32,
    /// The options switched on by name (declared in the definitions or built in; `wells`
    /// included when it is on), sorted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub on: Vec<String>,
    /// Which optional rules the game's tiles and sets can bring about at all, so that the
    /// rules line names only those (not in JSON: `festival`, `wells`, … say the switches).
    #[serde(skip)]
    pub possible: Possible,
}

/// Whether a count is 0 (left out of JSON).
fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Writes `(id, value)` pairs as an object keyed by id (in their order, where the serializer
/// keeps it), for programs that read figures by id.
pub fn pairs_as_map<S: serde::Serializer, V: Serialize>(
    pairs: &[(String, V)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(pairs.iter().map(|(id, value)| (id, value)))
}

/// The optional rules a game's draw and sets can bring about, whatever their switches say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Possible {
    /// A tile of the draw has a Festival place.
    pub festival: bool,
    /// A set with a tile in the game brings the donkey.
    pub donkey: bool,
    /// A set with a tile in the game brings windmills.
    pub windmills: bool,
    /// A tile of the draw carries flower groups.
    pub flowers: bool,
    /// A tile of the draw carries a marker whose modifier is the `wells` option's.
    pub wells: bool,
}

impl Rules {
    /// Whether a declared option (a scoring modifier's `option`) is switched on.
    pub fn is_on(&self, option: &str) -> bool {
        self.on.iter().any(|o| o == option)
    }
}

impl fmt::Display for Rules {
    /// One line for report headers: the sets, then every rule the game can meet, on or off
    /// (a rule no tile or set of the game brings is named only when switched on).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = |b: bool| if b { "on" } else { "off" };
        let can = self.possible;
        write!(
            f,
            "sets {}; {} followers; first-edition small city {}",
            self.sets.join(", "),
            self.followers,
            on(self.first_edition_small_city),
        )?;
        if can.festival {
            write!(f, "; Festival returns {}", on(self.festival))?;
        }
        if self.donkey || can.donkey {
            write!(f, "; donkey {}", on(self.donkey))?;
            if self.donkey {
                write!(f, " (blocks: {})", self.donkey_blocks.name())?;
            }
        }
        if self.windmills > 0 || can.windmills {
            write!(f, "; windmills {} each", self.windmills)?;
        }
        if self.flower_bonus || can.flowers {
            write!(f, "; flower bonus {}", on(self.flower_bonus))?;
            if self.flower_bonus {
                let range = if self.monastery_flowers_3x3 {
                    "3×3 range"
                } else {
                    "own tile"
                };
                write!(f, " (monastery: {range})")?;
            }
        }
        if self.wells || can.wells {
            write!(f, "; wells {}", on(self.wells))?;
        }
        if self.reserve > 0 {
            write!(f, "; reserve tiles {} each", self.reserve)?;
        }
        for (id, n) in &self.figures {
            write!(f, "; {id} {n} each")?;
        }
        let others: Vec<&str> = (self.on.iter())
            .filter(|o| !BUILT_IN_OPTIONS.contains(&o.as_str()))
            .map(String::as_str)
            .collect();
        if !others.is_empty() {
            write!(f, "; options on: {}", others.join(", "))?;
        }
        Ok(())
    }
}

impl Default for RuleOptions {
    fn default() -> RuleOptions {
        RuleOptions {
            first_edition_small_city: false,
            followers: 7,
            festival: true,
            donkey: None,
            donkey_blocks: DonkeyBlocks::Road,
            windmills: None,
            reserve: None,
            flower_bonus: None,
            wells: false,
            monastery_flowers_3x3: false,
            flowers: Vec::new(),
            figures: std::collections::BTreeMap::new(),
            on: Vec::new(),
        }
    }
}

/// How tiles are drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Draw {
    /// The bag of the chosen sets and edition, shuffled with this seed.
    Seed(u64),
    /// Exactly these tiles (by id), in this order, regardless of counts.
    Order(Vec<String>),
}

impl Draw {
    /// The seed of a seeded draw (0 for a fixed order, which shuffles nothing).
    pub fn seed(&self) -> u64 {
        match self {
            Draw::Seed(seed) => *seed,
            Draw::Order(_) => 0,
        }
    }
}

/// What a game is played with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOptions {
    /// Ids of the tile sets in the bag (empty: all sets of the tables).
    pub sets: Vec<String>,
    /// Edition id for the counts (None: the newest).
    pub edition: Option<String>,
    /// Number of players, 1 to 8.
    pub players: u8,
    /// Rule options.
    pub rules: RuleOptions,
    /// The draw.
    pub draw: Draw,
    /// Play only the first this many tiles of the draw, the start tile included (None: all),
    /// so that sets of different sizes can be compared at the same game length.
    pub tiles: Option<usize>,
    /// The start tile's id (None: the first start tile of the game's sets in draw order, see
    /// `crate::draw::plan`).
    pub start: Option<String>,
}

impl GameOptions {
    /// A base game of all sets for `players` players with a seeded draw.
    pub fn seeded(players: u8, seed: u64) -> GameOptions {
        GameOptions {
            sets: Vec::new(),
            edition: None,
            players,
            rules: RuleOptions::default(),
            draw: Draw::Seed(seed),
            tiles: None,
            start: None,
        }
    }
}

/// ": did you mean \`x\`?" when `name` looks like a typo of one of `known` (comma-separated),
/// by the rule the definitions' checks use (`tiledef::schema::closest`); else nothing.
pub fn did_you_mean(name: &str, known: &str) -> String {
    let known: Vec<&str> = known.split(", ").filter(|k| *k != name).collect();
    tiledef::schema::closest(name, &known)
        .map_or_else(String::new, |best| format!(": did you mean `{best}`?"))
}

/// Why a game could not be set up.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SetupError {
    /// Player count out of range.
    #[error("{0} players: a game has 1 to {MAX_PLAYERS}")]
    Players(u8),
    /// Unknown set id.
    #[error("unknown tile set `{0}`{hint} (loaded: {1})", hint = did_you_mean(.0, .1))]
    Set(String, String),
    /// Unknown edition id.
    #[error("unknown edition `{0}`{hint} (known: {1})", hint = did_you_mean(.0, .1))]
    Edition(String, String),
    /// Unknown tile id in a fixed draw.
    #[error("unknown tile `{0}` in the draw order")]
    Tile(String),
    /// Unknown start tile id.
    #[error("unknown start tile `{0}`")]
    Start(String),
    /// The flower colours given do not fit the players or the vocabulary.
    #[error("flower colours: {0}")]
    Flowers(String),
    /// A rule option switched on by a name neither the engine nor a loaded set declares.
    #[error("unknown rule option `{name}`{hint} (known: {known})", hint = did_you_mean(.name, .known))]
    UnknownOption {
        /// The name as given.
        name: String,
        /// Every option the loaded tables know, comma-separated.
        known: String,
    },
    /// A figure count given for a figure no loaded set declares.
    #[error("unknown figure `{name}`{hint} (known: {known})", hint = did_you_mean(.name, .known))]
    UnknownFigure {
        /// The id as given.
        name: String,
        /// Every figure the loaded sets declare, comma-separated.
        known: String,
    },
    /// A figure count above what a set may declare.
    #[error("figure `{name}`: {count} each is more than {max}, the most a set may declare", max = tiledef::model::MAX_FIGURES)]
    FigureCount {
        /// The id as given.
        name: String,
        /// The count as given.
        count: u8,
    },
    /// The game's sets declare two of something a game plays one of.
    #[error(
        "the sets of this game declare {count} {what} ({ids}): a game plays one; leave a set out"
    )]
    OnePerGame {
        /// What there are too many of, in words.
        what: &'static str,
        /// How many the sets declare.
        count: usize,
        /// Their ids, comma-separated.
        ids: String,
    },
    /// More tiles than the board's positions and indices can hold.
    #[error("{0} tiles (the start tile included): a game has at most {max}", max = crate::board::MAX_TILES)]
    TooManyTiles(u64),
}
