//! What a game is set up with: the options (draw, sets, players, rule variants), the rules
//! they resolve to, and why a setup can fail. Plain data, below everything else in the engine.

use crate::rules::{ModuleKey, ModuleOptions, ModuleRules, NAMED_OPTIONS};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The most players a game can have.
pub const MAX_PLAYERS: u8 = 8;

/// The rule options the engine itself knows by name, beside those the definitions declare
/// (`Tables::rule_options`): `on = ["first-edition-small-city"]` is `first_edition_small_city =
/// true`, and so for the others (the rule modules' `rules::NAMED_OPTIONS`).
pub const BUILT_IN_OPTIONS: [&str; 1 + NAMED_OPTIONS.len()] = {
    let mut names = [FIRST_EDITION_SMALL_CITY; 1 + NAMED_OPTIONS.len()];
    let mut i = 0;
    while i < NAMED_OPTIONS.len() {
        names[1 + i] = NAMED_OPTIONS[i];
        i += 1;
    }
    names
};

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

/// Rule options: variants of the rules, not forks of the code. Written as one flat table (a
/// record's `rules`), the rule modules' keys beside the core's; a key neither knows is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleOptions {
    /// First-edition rule: a completed city of two tiles scores 2 (1 per tile and pennant).
    pub first_edition_small_city: bool,
    /// Followers per player.
    pub followers: u8,
    /// The rule modules' options (written in this table, not under a key of their own).
    #[serde(flatten)]
    pub modules: ModuleOptions,
    /// How many of a set's figures each player has, by figure id (`{ abbot = 0 }` takes the
    /// abbot out of play); absent: the figure's declared `count`, when it is dealt.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub figures: BTreeMap<String, u8>,
    /// Options switched on by name: those declared in the definitions (a scoring modifier's
    /// `option`: a house rule) and the engine's own (`BUILT_IN_OPTIONS`; a module's switch set
    /// to true is the same as naming it here). A name no loaded set declares is refused at
    /// setup.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub on: Vec<String>,
}

impl Default for RuleOptions {
    fn default() -> RuleOptions {
        RuleOptions {
            first_edition_small_city: false,
            followers: 7,
            modules: ModuleOptions::default(),
            figures: BTreeMap::new(),
            on: Vec::new(),
        }
    }
}

/// Every key of a `rules` table, in the order listed when one is unknown: the core's, with
/// the modules' in the place their options are written.
const RULE_KEYS: [&str; 4 + ModuleOptions::KEYS.len()] = {
    let mut keys = [""; 4 + ModuleOptions::KEYS.len()];
    keys[0] = "first_edition_small_city";
    keys[1] = "followers";
    let mut i = 0;
    while i < ModuleOptions::KEYS.len() {
        keys[2 + i] = ModuleOptions::KEYS[i];
        i += 1;
    }
    keys[keys.len() - 2] = "figures";
    keys[keys.len() - 1] = "on";
    keys
};

/// A key of a `rules` table: the core's own, or a module's.
#[derive(Clone, Copy)]
enum RuleKey {
    /// `first_edition_small_city`.
    FirstEditionSmallCity,
    /// `followers`.
    Followers,
    /// `figures`.
    Figures,
    /// `on`.
    On,
    /// A key of `ModuleOptions`.
    Module(ModuleKey),
}

impl<'de> Deserialize<'de> for RuleKey {
    // Refused as the key is read, so that the error points at the key.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RuleKey, D::Error> {
        deserializer.deserialize_identifier(RuleKeyVisitor)
    }
}

/// Reads a `rules` table's key.
struct RuleKeyVisitor;

impl Visitor<'_> for RuleKeyVisitor {
    type Value = RuleKey;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<RuleKey, E> {
        match key {
            "first_edition_small_city" => Ok(RuleKey::FirstEditionSmallCity),
            "followers" => Ok(RuleKey::Followers),
            "figures" => Ok(RuleKey::Figures),
            "on" => Ok(RuleKey::On),
            _ => ModuleKey::named(key)
                .map(RuleKey::Module)
                .ok_or_else(|| E::unknown_field(key, &RULE_KEYS)),
        }
    }
}

impl<'de> Deserialize<'de> for RuleOptions {
    // By hand: a derived reader cannot both take the modules' keys from this table (`flatten`)
    // and refuse unknown keys; this one refuses them at the key, as `deny_unknown_fields` did.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RuleOptions, D::Error> {
        deserializer.deserialize_struct("RuleOptions", &RULE_KEYS, RuleOptionsVisitor)
    }
}

/// Reads a `rules` table, absent keys taking their defaults.
struct RuleOptionsVisitor;

impl<'de> Visitor<'de> for RuleOptionsVisitor {
    type Value = RuleOptions;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct RuleOptions")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RuleOptions, A::Error> {
        let mut options = RuleOptions::default();
        let mut seen = [false; RULE_KEYS.len()];
        while let Some(key) = map.next_key::<RuleKey>()? {
            let name = match key {
                RuleKey::FirstEditionSmallCity => 0,
                RuleKey::Followers => 1,
                RuleKey::Module(k) => 2 + k.index(),
                RuleKey::Figures => RULE_KEYS.len() - 2,
                RuleKey::On => RULE_KEYS.len() - 1,
            };
            if std::mem::replace(&mut seen[name], true) {
                return Err(de::Error::duplicate_field(RULE_KEYS[name]));
            }
            match key {
                RuleKey::FirstEditionSmallCity => {
                    options.first_edition_small_city = map.next_value()?;
                }
                RuleKey::Followers => options.followers = map.next_value()?,
                RuleKey::Figures => options.figures = map.next_value()?,
                RuleKey::On => options.on = map.next_value()?,
                RuleKey::Module(k) => options.modules.read(k, &mut map)?,
            }
        }
        Ok(options)
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
    /// The rule modules' rules (written beside the core's, not under a key of their own).
    #[serde(flatten)]
    pub modules: ModuleRules,
    /// The sets' figures each player has in this game (`[[figure]]`), by id, in declaration
    /// order: those dealt (a figure dealt with gardens only when the draw has one). In JSON an
    /// object keyed by figure id, as a record's `figures` is written.
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "pairs_as_map")]
    #[schemars(with = "BTreeMap<String, u8>")]
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
}

/// Writes `(id, value)` pairs as an object keyed by id (in their order, where the serializer
/// keeps it), for programs that read figures by id.
pub fn pairs_as_map<S: serde::Serializer, V: Serialize>(
    pairs: &[(String, V)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(pairs.iter().map(|(id, value)| (id, value)))
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
        write!(
            f,
            "sets {}; {} followers; first-edition small city {}{}",
            self.sets.join(", "),
            self.followers,
            on(self.first_edition_small_city),
            self.modules,
        )?;
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
    /// A rule module refuses its options for this game, saying why in its own words.
    #[error("{0}")]
    Rule(String),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;

    /// A record whose `[game]` has this `rules` line.
    fn record(rules: &str) -> String {
        format!("[game]\nplayers = 2\n{rules}\n")
    }

    /// The keys listed when one is unknown: the list and order `deny_unknown_fields` gave (with
    /// `wagon_move`, added since).
    const LISTED: &str = "expected one of `first_edition_small_city`, `followers`, `festival`, \
        `donkey`, `donkey_blocks`, `windmills`, `reserve`, `flower_bonus`, `wells`, \
        `monastery_flowers_3x3`, `flowers`, `wagon_move`, `figures`, `on`";

    #[test]
    fn an_unknown_key_is_refused_at_the_key_with_the_known_ones() {
        let line = "rules = { festival = false, festivl = true }";
        let column = line.find("festivl").map(|at| at + 1);
        let error = Record::from_toml(&record(line)).map(|_| ()).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("unknown field `festivl`"), "{text}");
        assert!(text.contains(LISTED), "{text}");
        assert!(
            text.contains(&format!("line 3, column {}", column.unwrap_or(0))),
            "{text}"
        );
        // A module's key and a core key misspelt alike.
        for key in ["windmils", "folowers", "modules"] {
            let error = Record::from_toml(&record(&format!("rules = {{ {key} = 1 }}")));
            let text = error.map(|_| ()).unwrap_err().to_string();
            assert!(text.contains(&format!("unknown field `{key}`")), "{text}");
        }
        let json = r#"{ "game": { "players": 2, "rules": { "wells": true, "festivl": true } } }"#;
        let text = Record::from_json(json).map(|_| ()).unwrap_err().to_string();
        assert!(text.contains("unknown field `festivl`"), "{text}");
        assert!(
            text.contains(LISTED) && text.contains("at line 1 column"),
            "{text}"
        );
    }

    #[test]
    fn a_key_twice_and_a_bad_value_are_refused() {
        let json = r#"{ "game": { "players": 2, "rules": { "wells": true, "wells": false } } }"#;
        let text = Record::from_json(json).map(|_| ()).unwrap_err().to_string();
        assert!(text.contains("duplicate field `wells`"), "{text}");
        let line = r#"rules = { donkey_blocks = "nope" }"#;
        let text = Record::from_toml(&record(line)).map(|_| ()).unwrap_err();
        let text = text.to_string();
        assert!(text.contains("unknown variant `nope`"), "{text}");
        assert!(text.contains("line 3, column 27"), "{text}");
        let text = Record::from_toml(&record("rules = { followers = \"x\" }")).map(|_| ());
        let text = text.unwrap_err().to_string();
        assert!(
            text.contains("invalid type: string \"x\", expected u8"),
            "{text}"
        );
    }

    #[test]
    fn the_core_s_and_the_modules_keys_read_into_their_fields_and_write_back_flat() {
        let line = "rules = { followers = 5, windmills = 2, donkey_blocks = \"network\", \
                    flowers = [\"white\", \"orange\"], on = [\"wells\"], figures = { abbot = 0 }, \
                    festival = false, donkey = true, reserve = 1, flower_bonus = true, \
                    wells = true, monastery_flowers_3x3 = true, first_edition_small_city = true }";
        let read = Record::from_toml(&record(line)).map(|r| r.game.rules);
        let rules = read.unwrap_or_default();
        let m = &rules.modules;
        assert_eq!((rules.followers, rules.first_edition_small_city), (5, true));
        assert_eq!(
            (m.windmills, m.donkey, m.reserve),
            (Some(2), Some(true), Some(1))
        );
        assert!(!m.festival && m.wells && m.monastery_flowers_3x3);
        assert_eq!(m.flower_bonus, Some(true));
        assert_eq!(m.flowers, ["white", "orange"]);
        assert_eq!(rules.on, ["wells"]);
        assert_eq!(rules.figures.get("abbot"), Some(&0));
        // Written as one flat object, the keys in the order they were always written.
        let json = serde_json::to_string(&rules).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"first_edition_small_city":true,"followers":5,"festival":false,"donkey":true,"donkey_blocks":"network","windmills":2,"reserve":1,"flower_bonus":true,"wells":true,"monastery_flowers_3x3":true,"flowers":["white","orange"],"figures":{"abbot":0},"on":["wells"]}"#
        );
        let back: Result<RuleOptions, _> = serde_json::from_str(&json);
        assert_eq!(back.ok(), Some(rules));
        // Defaults are left out as before, and an empty table reads as the defaults.
        let json = serde_json::to_string(&RuleOptions::default()).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"first_edition_small_city":false,"followers":7,"festival":true,"donkey_blocks":"road","wells":false,"monastery_flowers_3x3":false}"#
        );
        let empty: Result<RuleOptions, _> = serde_json::from_str("{}");
        assert_eq!(empty.ok(), Some(RuleOptions::default()));
    }

    #[test]
    fn the_built_in_options_are_the_core_s_and_the_modules() {
        assert_eq!(
            BUILT_IN_OPTIONS,
            [FIRST_EDITION_SMALL_CITY, "monastery-flowers-3x3", "wells"]
        );
    }
}
