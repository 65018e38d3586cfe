//! Game records: the options and the turns of a game, in TOML (for people) or JSON (for
//! programs), and their replay. The format is documented in `engine/RECORDS.md`.

use crate::game::{
    Draw, Event, FigureKind, Game, GameOptions, IllegalMove, Move, Phase, RuleOptions, SetupError,
    describe_feature,
};
use crate::ids::{FigureId, KindId, PlacedId};
use crate::options::did_you_mean;
use crate::rules::{ActionId, RECORD_ORDER, RecordForm, Target, TargetKind};
use crate::tables::Tables;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use tiledef::Port;

/// A game record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    /// What the game is played with.
    pub game: GameSpec,
    /// The turns, in order.
    #[serde(default, rename = "turn", skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Turn>,
    /// What a replay must produce (scenario records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
}

/// The `[game]` table: options of the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    /// Tile set ids in the bag (empty: all loaded sets).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sets: Vec<String>,
    /// Edition id (absent: the newest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<String>,
    /// Number of players.
    pub players: u8,
    /// Rule options.
    #[serde(default)]
    pub rules: RuleOptions,
    /// Seed of the shuffled bag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// A fixed draw order of tile ids (absent with no seed: the `tile` of each turn, in order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Vec<String>>,
    /// Only the first this many tiles of the draw are played, the start tile included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles: Option<usize>,
    /// The start tile's id (absent: the first start tile of the game's sets in draw order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
}

impl<'de> Deserialize<'de> for Record {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Record, D::Error> {
        RecordSeed(&RecordNames::default()).deserialize(deserializer)
    }
}

/// Reads a record, its turns' keys also the declared names.
struct RecordSeed<'n>(&'n RecordNames);

/// A record's keys.
const RECORD_FIELDS: &[&str] = &["game", "turn", "expect"];

impl<'de> DeserializeSeed<'de> for RecordSeed<'_> {
    type Value = Record;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Record, D::Error> {
        deserializer.deserialize_struct("Record", RECORD_FIELDS, self)
    }
}

impl<'de> Visitor<'de> for RecordSeed<'_> {
    type Value = Record;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a game record: `[game]`, `[[turn]]` and `[expect]`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Record, A::Error> {
        let (mut game, mut turns, mut expect) = (None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "game" if game.is_none() => game = Some(map.next_value()?),
                "turn" if turns.is_none() => turns = Some(map.next_value_seed(TurnsSeed(self.0))?),
                "expect" if expect.is_none() => expect = Some(map.next_value()?),
                "game" | "turn" | "expect" => {
                    return Err(de::Error::custom(format!("duplicate field `{key}`")));
                }
                other => return Err(de::Error::unknown_field(other, RECORD_FIELDS)),
            }
        }
        Ok(Record {
            game: game.ok_or_else(|| de::Error::missing_field("game"))?,
            turns: turns.unwrap_or_default(),
            expect: expect.unwrap_or_default(),
        })
    }
}

/// Reads a record's `[[turn]]` list.
struct TurnsSeed<'n>(&'n RecordNames);

impl<'de> DeserializeSeed<'de> for TurnsSeed<'_> {
    type Value = Vec<Turn>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<Turn>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for TurnsSeed<'_> {
    type Value = Vec<Turn>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of turns")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Turn>, A::Error> {
        let mut turns = Vec::new();
        while let Some(turn) = seq.next_element_seed(TurnSeed(self.0))? {
            turns.push(turn);
        }
        Ok(turns)
    }
}

/// A feature of the placed tile, named by index, by port, or by kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FeatureRef {
    /// Index into the tile's features as written.
    Index(u8),
    /// A port name (`"NNW"`, `"N"`, … after rotation) or a kind (`"monastery"`, `"city"`).
    Name(String),
}

/// One turn: the tile placed and what the player did next. The core's keys are its fields;
/// each rule module's move is an `Entry` under its action's record key (`rules::ACTIONS`),
/// read, checked and written alike for every action, its shape said by the registry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The tile drawn (checked against the draw when present).
    pub tile: Option<String>,
    /// Where it goes: `[x, y]`, x east, y south, the start tile at `[0, 0]` (absent, and
    /// `NO_AT` here, on a turn whose module entry replaces the placement: `reserve`).
    pub at: [i16; 2],
    /// Clockwise quarter turns.
    pub rotation: u8,
    /// The feature a follower is deployed on (absent: none).
    pub deploy: Option<FeatureRef>,
    /// Which follower `deploy` puts down: the id of a set's follower kind (`"large-follower"`);
    /// absent: a base follower.
    pub figure: Option<String>,
    /// The rule modules' entries, in `RECORD_ORDER`, at most one per action and name.
    entries: Vec<ModuleEntry>,
}

/// A rule module's entry in a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ModuleEntry {
    /// The action it is a move of.
    action: ActionId,
    /// The declared name written as its key instead of the action's own (a creature's id:
    /// `RecordNames`); None: the action's key.
    name: Option<String>,
    /// Its value.
    entry: Entry,
}

impl ModuleEntry {
    /// Its key as written.
    fn key(&self) -> &str {
        self.name.as_deref().unwrap_or(key_of(self.action))
    }
}

/// The declared names a turn's key may be besides the core's and the registry's keys, each
/// with the action it stands for (`rules::record_names`: a creature's id for its moves). A name
/// that is already a turn's key is left out: that key keeps its meaning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordNames {
    /// Name and action, in the tables' order.
    names: Vec<(String, ActionId)>,
}

impl RecordNames {
    /// The names the tables declare.
    pub fn of(tables: &Tables) -> RecordNames {
        let names = (crate::rules::record_names(tables).into_iter())
            .filter(|(name, _)| !is_turn_key(name))
            .collect();
        RecordNames { names }
    }

    /// The actions `name` stands for.
    fn actions<'a>(&'a self, name: &'a str) -> impl Iterator<Item = ActionId> + 'a {
        (self.names.iter())
            .filter(move |(n, _)| n == name)
            .map(|(_, a)| *a)
    }
}

/// Whether `key` is one of the core's keys or a registry action's record key.
fn is_turn_key(key: &str) -> bool {
    CORE_KEYS.iter().any(|(k, _)| *k == key) || ActionId::by_record_key(key).is_some()
}

/// The name a record writes for `game`'s move of `action` now: the declared name of what makes
/// it (a creature's id), unless the action's own key or another turn key is that word.
fn written_name(game: &Game<'_>, action: ActionId) -> Option<String> {
    (game.move_subject(action))
        .filter(|name| !is_turn_key(name))
        .map(str::to_string)
}

/// `Turn::at` on a turn that gives none (a reserve tile's turn).
pub const NO_AT: [i16; 2] = [i16::MIN, i16::MIN];

/// The core's keys of a turn, in the order an error lists them.
const CORE_KEYS: [(&str, Core); 5] = [
    ("tile", Core::Tile),
    ("at", Core::At),
    ("rotation", Core::Rotation),
    ("deploy", Core::Deploy),
    ("figure", Core::Figure),
];

/// A key of the core's, a field of `Turn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Core {
    /// `tile`.
    Tile,
    /// `at`.
    At,
    /// `rotation`.
    Rotation,
    /// `deploy`.
    Deploy,
    /// `figure`.
    Figure,
}

/// The word a declined move is written as.
const PASS: &str = "pass";

/// A rule module's move as a turn writes it under the action's record key: one shape for
/// every action, whose registry entry says which of these its value must be
/// (`RecordForm`, `TargetKind`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Entry {
    /// A number: a feature of the tile just placed, by index.
    Index(u8),
    /// A word: a feature of the tile just placed by port or kind (`"SSW"`, `"field"`), a
    /// corner (`"NE"`), or `"pass"` (declined).
    Word(String),
    /// A position `[x, y]`.
    At([i16; 2]),
    /// A table: a feature of a placed tile, or a figure on it.
    Table(SpotRef),
    /// A list of those: the choices made after the turn, in the order made.
    List(Vec<Entry>),
}

impl Entry {
    /// `"pass"`: the move declined.
    pub fn pass() -> Entry {
        Entry::Word(PASS.into())
    }

    /// Whether it is `"pass"`.
    pub fn is_pass(&self) -> bool {
        matches!(self, Entry::Word(w) if w == PASS)
    }

    /// What it is, for an error.
    fn describe(&self) -> String {
        match self {
            Entry::Index(n) => format!("the number {n}"),
            Entry::Word(w) => format!("\"{w}\""),
            Entry::At([x, y]) => format!("the position [{x}, {y}]"),
            Entry::Table(_) => "a table".into(),
            Entry::List(_) => "a list".into(),
        }
    }
}

/// A feature of a placed tile, `{ at = [x, y], on = "N" }`, and `figure`: for a figure
/// standing there (`Target::Figure`), `follower` or `windmill` when both share it; for a figure
/// put there (`Target::Deploy`), a set figure's id as `figure` names it beside `deploy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpotRef {
    /// The tile, `[x, y]`.
    pub at: [i16; 2],
    /// The feature of that tile, named as in `deploy`.
    pub on: FeatureRef,
    /// For a figure standing there, `follower` or a module figure's word (`FigureKind::name`;
    /// absent: whichever stands there); for a figure put there, a set figure's id (absent: a
    /// base follower).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<String>,
}

/// Why a turn's key or a module's value is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyError {
    /// Neither a key of the core nor a rule module's record key.
    #[error("unknown key `{key}` in a turn{hint} (a turn's keys: {known}; and, of the definitions played, the id of a creature or of a figure that moves on)", hint = did_you_mean(.key, .known))]
    Unknown {
        /// The key written.
        key: String,
        /// Every key a turn may have, comma-separated.
        known: String,
    },
    /// A module's value not of the shape its action's registry entry says.
    #[error("`{key}` expects {expected}, not {found}")]
    Shape {
        /// The key written.
        key: String,
        /// The shape its registry entry says.
        expected: String,
        /// What was written.
        found: String,
    },
}

/// An action's key in a record (its name when it has none: an event).
fn key_of(action: ActionId) -> &'static str {
    action.info().record_key.unwrap_or(action.info().name)
}

/// The action a turn's key names, or the error naming the key and every key a turn may have.
fn recorded_action(key: &str) -> Result<ActionId, KeyError> {
    ActionId::by_record_key(key).ok_or_else(|| unknown_key(key, &RecordNames::default()))
}

/// The error of a key that is no turn's key: it names every key a turn may have, the declared
/// names last.
fn unknown_key(key: &str, names: &RecordNames) -> KeyError {
    let mut known: Vec<&str> = (CORE_KEYS.iter().map(|(k, _)| *k))
        .chain(RECORD_ORDER.iter().map(|&a| key_of(a)))
        .collect();
    for (name, _) in &names.names {
        if !known.contains(&name.as_str()) {
            known.push(name);
        }
    }
    KeyError::Unknown {
        key: key.to_string(),
        known: known.join(", "),
    }
}

/// Whether `entry` is of the shape `action`'s registry entry says: its target's form, once,
/// or also `"pass"`, or a list of those.
fn fits(action: ActionId, entry: &Entry) -> bool {
    let info = action.info();
    let one = |e: &Entry| match (info.target, e) {
        (TargetKind::Feature, Entry::Index(_) | Entry::Word(_))
        | (TargetKind::Corner, Entry::Word(_))
        | (TargetKind::At, Entry::At(_))
        | (TargetKind::Figure, Entry::Table(_)) => true,
        (TargetKind::Spot, Entry::Table(spot)) => spot.figure.is_none(),
        // A figure put there is a set figure: the figures on the board's names are not.
        (TargetKind::Deploy, Entry::Table(spot)) => spot
            .figure
            .as_deref()
            .and_then(FigureKind::by_name)
            .is_none(),
        _ => false,
    };
    let or_pass = |e: &Entry| e.is_pass() || one(e);
    match info.record_form {
        RecordForm::None => false,
        RecordForm::Step => one(entry),
        RecordForm::InsteadOfPlacing => or_pass(entry),
        RecordForm::Choices => matches!(entry, Entry::List(list) if list.iter().all(or_pass)),
    }
}

/// The shape `action`'s value takes, in words.
fn expected(action: ActionId) -> String {
    let info = action.info();
    let one = match info.target {
        TargetKind::Feature => {
            "a feature of the tile just placed, named as in `deploy` (\"N\", \"field\" or an index)"
                .to_string()
        }
        TargetKind::Figure => format!(
            "a figure on the board, `{{ at = [x, y], on = \"N\" }}` (with `figure =` {} when \
             several stand there)",
            FigureKind::names_quoted()
        ),
        TargetKind::At => "a tile's position `[x, y]`".into(),
        TargetKind::Corner => {
            let names: Vec<String> = (0..4)
                .filter_map(Target::corner_name)
                .map(|c| format!("\"{c}\""))
                .collect();
            match names.split_last() {
                Some((last, rest)) => format!(
                    "a corner of the tile just placed: {} or {last}",
                    rest.join(", ")
                ),
                None => "a corner of the tile just placed".into(),
            }
        }
        TargetKind::Spot => "a feature of a placed tile, `{ at = [x, y], on = \"N\" }`".into(),
        TargetKind::Deploy => "a feature of a placed tile, `{ at = [x, y], on = \"N\" }`, with \
             `figure` naming a set's figure as beside `deploy` (absent: a base follower, \
             which `figure` does not name)"
            .into(),
        TargetKind::Kind => "a figure kind, which no record names".into(),
    };
    match info.record_form {
        RecordForm::None => "nothing: it is an event, never a move".into(),
        RecordForm::Step => one,
        RecordForm::InsteadOfPlacing => format!("{one}, or \"pass\" declining it"),
        RecordForm::Choices => {
            format!("a list of the choices made after the turn, each {one} or \"pass\"")
        }
    }
}

/// `entry` if it is of `action`'s shape, else the error naming the key and the shape.
fn check_shape(action: ActionId, entry: Entry) -> Result<Entry, KeyError> {
    check_shape_as(action, key_of(action), entry)
}

/// `check_shape`, the entry written under `key`.
fn check_shape_as(action: ActionId, key: &str, entry: Entry) -> Result<Entry, KeyError> {
    if fits(action, &entry) {
        return Ok(entry);
    }
    Err(KeyError::Shape {
        key: key.to_string(),
        expected: expected(action),
        found: entry.describe(),
    })
}

impl Serialize for Turn {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = usize::from(self.tile.is_some())
            + usize::from(self.at != NO_AT)
            + 1
            + usize::from(self.deploy.is_some())
            + self.entries.len()
            + usize::from(self.figure.is_some());
        // A map, not a struct: a declared name is a key known only at run time.
        let mut out = serializer.serialize_map(Some(len))?;
        if let Some(tile) = &self.tile {
            out.serialize_entry("tile", tile)?;
        }
        if self.at != NO_AT {
            out.serialize_entry("at", &self.at)?;
        }
        out.serialize_entry("rotation", &self.rotation)?;
        if let Some(deploy) = &self.deploy {
            out.serialize_entry("deploy", deploy)?;
        }
        for e in &self.entries {
            out.serialize_entry(e.key(), &e.entry)?;
        }
        // After the modules' keys, where records have always had it.
        if let Some(figure) = &self.figure {
            out.serialize_entry("figure", figure)?;
        }
        out.end()
    }
}

impl<'de> Deserialize<'de> for Turn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Turn, D::Error> {
        TurnSeed(&RecordNames::default()).deserialize(deserializer)
    }
}

/// Reads a turn's table: the core's keys into their fields, any other through the registry
/// or as one of the declared names.
struct TurnSeed<'n>(&'n RecordNames);

impl<'de> DeserializeSeed<'de> for TurnSeed<'_> {
    type Value = Turn;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Turn, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for TurnSeed<'_> {
    type Value = Turn;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a turn: a table of its keys")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Turn, A::Error> {
        let mut turn = Turn::empty();
        let mut seen: Vec<String> = Vec::new();
        while let Some(key) = map.next_key_seed(KeySeed(self.0))? {
            let name = key.name();
            if seen.iter().any(|s| *s == name) {
                return Err(de::Error::custom(format!(
                    "duplicate key `{name}` in a turn"
                )));
            }
            seen.push(name.to_string());
            match key {
                Key::Core(Core::Tile) => turn.tile = map.next_value()?,
                Key::Core(Core::At) => turn.at = map.next_value()?,
                Key::Core(Core::Rotation) => turn.rotation = map.next_value()?,
                Key::Core(Core::Deploy) => turn.deploy = map.next_value()?,
                Key::Core(Core::Figure) => turn.figure = map.next_value()?,
                Key::Module(action) => {
                    let entry = map.next_value_seed(EntrySeed(action))?;
                    turn.insert(action, None, entry);
                }
                Key::Named(name) => {
                    let seed = NamedEntrySeed {
                        names: self.0,
                        name: &name,
                    };
                    let (action, entry) = map.next_value_seed(seed)?;
                    turn.insert(action, Some(name), entry);
                }
            }
        }
        Ok(turn)
    }
}

/// A turn's key: one of `CORE_KEYS`, a rule module's record key, or a declared name.
#[derive(Clone, PartialEq, Eq)]
enum Key {
    /// A core key.
    Core(Core),
    /// The action whose record key it is.
    Module(ActionId),
    /// A declared name (`RecordNames`).
    Named(String),
}

impl Key {
    /// The key as written.
    fn name(&self) -> &str {
        match self {
            Key::Core(core) => (CORE_KEYS.iter())
                .find(|(_, c)| c == core)
                .map_or("", |(k, _)| k),
            Key::Module(action) => key_of(*action),
            Key::Named(name) => name,
        }
    }
}

/// Reads a turn's key, refusing one that is neither the core's, nor the registry's, nor a
/// declared name (the error at the key).
struct KeySeed<'n>(&'n RecordNames);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        let key = String::deserialize(deserializer)?;
        if let Some((_, core)) = CORE_KEYS.iter().find(|(k, _)| *k == key) {
            return Ok(Key::Core(*core));
        }
        if let Some(action) = ActionId::by_record_key(&key) {
            return Ok(Key::Module(action));
        }
        if self.0.actions(&key).next().is_some() {
            return Ok(Key::Named(key));
        }
        Err(de::Error::custom(unknown_key(&key, self.0)))
    }
}

/// Reads a declared name's entry: the move of the first of its actions whose shape it has.
struct NamedEntrySeed<'n> {
    /// The names.
    names: &'n RecordNames,
    /// The name written.
    name: &'n str,
}

impl<'de> DeserializeSeed<'de> for NamedEntrySeed<'_> {
    type Value = (ActionId, Entry);

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<(ActionId, Entry), D::Error> {
        let actions: Vec<ActionId> = self.names.actions(self.name).collect();
        let Some(&first) = actions.first() else {
            return Err(de::Error::custom(unknown_key(self.name, self.names)));
        };
        let entry = Entry::deserialize(deserializer).map_err(|e| {
            de::Error::custom(format!("`{}` expects {}: {e}", self.name, expected(first)))
        })?;
        match actions.iter().copied().find(|a| fits(*a, &entry)) {
            Some(action) => Ok((action, entry)),
            None => check_shape_as(first, self.name, entry)
                .map(|entry| (first, entry))
                .map_err(de::Error::custom),
        }
    }
}

/// Reads an action's entry and checks its shape against the registry.
struct EntrySeed(ActionId);

impl<'de> DeserializeSeed<'de> for EntrySeed {
    type Value = Entry;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Entry, D::Error> {
        let key = key_of(self.0);
        let entry = Entry::deserialize(deserializer)
            .map_err(|e| de::Error::custom(format!("`{key}` expects {}: {e}", expected(self.0))))?;
        check_shape(self.0, entry).map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Entry, D::Error> {
        match deserializer.deserialize_any(ItemVisitor)? {
            Item::Int(n) => index(n),
            Item::Entry(entry) => Ok(entry),
        }
    }
}

/// A value inside an entry: an integer stands for a feature index alone, and for a
/// coordinate in a list of two.
enum Item {
    /// An integer.
    Int(i64),
    /// Anything else, read.
    Entry(Entry),
}

/// An integer as a feature index.
fn index<E: de::Error>(n: i64) -> Result<Entry, E> {
    u8::try_from(n).map(Entry::Index).map_err(|_| {
        E::invalid_value(
            de::Unexpected::Signed(n),
            &"a feature index (0 to 255), or a position [x, y]",
        )
    })
}

/// Reads one `Item`.
struct ItemVisitor;

impl<'de> Visitor<'de> for ItemVisitor {
    type Value = Item;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number, a word, [x, y], a table { at, on } or a list of those")
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Item, E> {
        Ok(Item::Int(n))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Item, E> {
        i64::try_from(n)
            .map(Item::Int)
            .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(n), &self))
    }

    fn visit_str<E: de::Error>(self, word: &str) -> Result<Item, E> {
        Ok(Item::Entry(Entry::Word(word.to_string())))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(ItemSeed)? {
            items.push(item);
        }
        if let [Item::Int(x), Item::Int(y)] = items[..]
            && let (Ok(x), Ok(y)) = (i16::try_from(x), i16::try_from(y))
        {
            return Ok(Item::Entry(Entry::At([x, y])));
        }
        let list = (items.into_iter())
            .map(|item| match item {
                Item::Int(n) => index(n),
                Item::Entry(entry) => Ok(entry),
            })
            .collect::<Result<_, _>>()?;
        Ok(Item::Entry(Entry::List(list)))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Item, A::Error> {
        SpotRef::deserialize(de::value::MapAccessDeserializer::new(map))
            .map(|spot| Item::Entry(Entry::Table(spot)))
    }
}

/// Reads a list's element as an `Item`.
struct ItemSeed;

impl<'de> DeserializeSeed<'de> for ItemSeed {
    type Value = Item;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Item, D::Error> {
        deserializer.deserialize_any(ItemVisitor)
    }
}

/// Expected outcomes of a scenario record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Scores by player after the last turn (final scores when the game is over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<u32>>,
    /// Every scoring, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scored: Option<Vec<ExpectScore>>,
    /// Tile ids set aside, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_aside: Option<Vec<String>>,
    /// The replay must stop at this turn with an error containing this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ExpectError>,
    /// Whether the game must be over after the last turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<bool>,
    /// The game's draw (every tile after the start tile, in the order it comes out of the bag,
    /// after a `tiles` cut) as runs, in order, covering all of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Vec<ExpectRun>>,
}

/// A run of the draw: the next `tiles` tiles (1 when absent), each of `set` and/or the tile
/// `tile` (neither: any tile).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectRun {
    /// The set every tile of the run is of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<String>,
    /// The id every tile of the run has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<String>,
    /// How many tiles the run holds (absent: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles: Option<usize>,
}

/// One expected scoring. Read and written by hand (`ExpectScoreVisitor`), as the derived
/// forms were, its rule modules' bonuses under their kinds' own keys.
#[derive(Clone, PartialEq, Eq)]
pub struct ExpectScore {
    /// The turn (1-based) it happens in; absent for the final scoring.
    pub turn: Option<usize>,
    /// What scored: a feature kind's id (`city`), or `windmill`.
    pub kind: String,
    /// Scoring players (1-based).
    pub players: Vec<u8>,
    /// Points each (base points, scoring modifiers included).
    pub points: u32,
    /// The rule modules' bonuses of each kind given, as `[player, points]` (a kind is checked
    /// when given), written under the kind's record key (`BonusKind::record_key`).
    pub bonuses: std::collections::BTreeMap<crate::rules::BonusKind, Vec<[u32; 2]>>,
    /// What each marker kind's scoring modifier paid, by marker id (checked when given):
    /// `{ well = 1 }`, `{ inn = 4 }` (negative: an inn's road left unfinished).
    pub markers: Option<std::collections::BTreeMap<String, i64>>,
}

/// The keys of an expected scoring, in the order they are written and listed when one is
/// unknown: the core's, the modules' bonuses, then `markers`.
const EXPECT_SCORE_KEYS: [&str; 5 + crate::rules::BonusKind::RECORDED.len()] = {
    let bonuses = crate::rules::BonusKind::RECORD_KEYS;
    let mut keys = [""; 5 + crate::rules::BonusKind::RECORDED.len()];
    keys[0] = "turn";
    keys[1] = "kind";
    keys[2] = "players";
    keys[3] = "points";
    let mut i = 0;
    while i < bonuses.len() {
        keys[4 + i] = bonuses[i];
        i += 1;
    }
    keys[keys.len() - 1] = "markers";
    keys
};

/// A key of an expected scoring.
#[derive(Clone, Copy)]
enum ExpectScoreKey {
    /// `turn`.
    Turn,
    /// `kind`.
    Kind,
    /// `players`.
    Players,
    /// `points`.
    Points,
    /// A kind of bonus's record key.
    Bonus(crate::rules::BonusKind),
    /// `markers`.
    Markers,
}

impl ExpectScoreKey {
    /// Its place in `EXPECT_SCORE_KEYS`.
    fn index(self) -> usize {
        let recorded = crate::rules::BonusKind::RECORDED;
        match self {
            ExpectScoreKey::Turn => 0,
            ExpectScoreKey::Kind => 1,
            ExpectScoreKey::Players => 2,
            ExpectScoreKey::Points => 3,
            ExpectScoreKey::Bonus(k) => 4 + recorded.iter().position(|&r| r == k).unwrap_or(0),
            ExpectScoreKey::Markers => EXPECT_SCORE_KEYS.len() - 1,
        }
    }
}

impl<'de> Deserialize<'de> for ExpectScoreKey {
    // Refused as the key is read, so that the error points at the key.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ExpectScoreKey, D::Error> {
        deserializer.deserialize_identifier(ExpectScoreKeyVisitor)
    }
}

/// Reads an expected scoring's key.
struct ExpectScoreKeyVisitor;

impl Visitor<'_> for ExpectScoreKeyVisitor {
    type Value = ExpectScoreKey;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<ExpectScoreKey, E> {
        match key {
            "turn" => Ok(ExpectScoreKey::Turn),
            "kind" => Ok(ExpectScoreKey::Kind),
            "players" => Ok(ExpectScoreKey::Players),
            "points" => Ok(ExpectScoreKey::Points),
            "markers" => Ok(ExpectScoreKey::Markers),
            _ => (crate::rules::BonusKind::by_record_key(key))
                .map(ExpectScoreKey::Bonus)
                .ok_or_else(|| E::unknown_field(key, &EXPECT_SCORE_KEYS)),
        }
    }
}

impl<'de> Deserialize<'de> for ExpectScore {
    // By hand: a derived reader cannot take the modules' keys from this table and refuse
    // unknown keys; this one refuses them at the key, as `deny_unknown_fields` did.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ExpectScore, D::Error> {
        deserializer.deserialize_struct("ExpectScore", &EXPECT_SCORE_KEYS, ExpectScoreVisitor)
    }
}

/// Reads an expected scoring: `kind`, `players` and `points` required, the rest checked when
/// given.
struct ExpectScoreVisitor;

impl<'de> Visitor<'de> for ExpectScoreVisitor {
    type Value = ExpectScore;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct ExpectScore")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ExpectScore, A::Error> {
        let (mut turn, mut kind, mut players, mut points, mut markers) =
            (None, None, None, None, None);
        let mut bonuses = std::collections::BTreeMap::new();
        let mut seen = [false; EXPECT_SCORE_KEYS.len()];
        while let Some(key) = map.next_key::<ExpectScoreKey>()? {
            if std::mem::replace(&mut seen[key.index()], true) {
                return Err(de::Error::duplicate_field(EXPECT_SCORE_KEYS[key.index()]));
            }
            match key {
                ExpectScoreKey::Turn => turn = map.next_value()?,
                ExpectScoreKey::Kind => kind = Some(map.next_value()?),
                ExpectScoreKey::Players => players = Some(map.next_value()?),
                ExpectScoreKey::Points => points = Some(map.next_value()?),
                ExpectScoreKey::Markers => markers = map.next_value()?,
                ExpectScoreKey::Bonus(k) => {
                    if let Some(given) = map.next_value::<Option<Vec<[u32; 2]>>>()? {
                        bonuses.insert(k, given);
                    }
                }
            }
        }
        Ok(ExpectScore {
            turn,
            kind: kind.ok_or_else(|| de::Error::missing_field("kind"))?,
            players: players.ok_or_else(|| de::Error::missing_field("players"))?,
            points: points.ok_or_else(|| de::Error::missing_field("points"))?,
            bonuses,
            markers,
        })
    }
}

impl Serialize for ExpectScore {
    // The keys in `EXPECT_SCORE_KEYS`'s order, those not given left out, as the derived form
    // wrote them.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let given = 3
            + usize::from(self.turn.is_some())
            + self.bonuses.len()
            + usize::from(self.markers.is_some());
        let mut out = serializer.serialize_struct("ExpectScore", given)?;
        match self.turn {
            Some(_) => out.serialize_field("turn", &self.turn)?,
            None => out.skip_field("turn")?,
        }
        out.serialize_field("kind", &self.kind)?;
        out.serialize_field("players", &self.players)?;
        out.serialize_field("points", &self.points)?;
        let recorded = crate::rules::BonusKind::RECORDED;
        for (k, key) in recorded
            .into_iter()
            .zip(crate::rules::BonusKind::RECORD_KEYS)
        {
            match self.bonuses.get(&k) {
                Some(given) => out.serialize_field(key, &Some(given))?,
                None => out.skip_field(key)?,
            }
        }
        match self.markers {
            Some(_) => out.serialize_field("markers", &self.markers)?,
            None => out.skip_field("markers")?,
        }
        out.end()
    }
}

impl fmt::Debug for ExpectScore {
    // As the derived form said it (a failed expectation's message shows it): each recorded
    // kind of bonus as a field of its own.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("ExpectScore");
        out.field("turn", &self.turn)
            .field("kind", &self.kind)
            .field("players", &self.players)
            .field("points", &self.points);
        let recorded = crate::rules::BonusKind::RECORDED;
        for (k, key) in recorded
            .into_iter()
            .zip(crate::rules::BonusKind::RECORD_KEYS)
        {
            out.field(key, &self.bonuses.get(&k));
        }
        out.field("markers", &self.markers).finish()
    }
}

/// An expected replay error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectError {
    /// The turn (1-based).
    pub turn: usize,
    /// Text the message contains.
    pub contains: String,
}

/// Why a record could not be read or replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// Not a record.
    #[error("not a game record: {0}")]
    Parse(String),
    /// The options are wrong.
    #[error("the game cannot be set up: {0}")]
    Setup(#[from] SetupError),
    /// The draw is not given.
    #[error("turn {turn} names no tile, and the record has neither a seed nor a draw order")]
    NoDraw {
        /// 1-based turn.
        turn: usize,
    },
    /// The record's tile differs from the draw.
    #[error("turn {turn}: the record says tile {recorded}, but {drawn} was drawn")]
    WrongTile {
        /// 1-based turn.
        turn: usize,
        /// The tile in the record.
        recorded: String,
        /// The tile drawn.
        drawn: String,
    },
    /// A move was illegal.
    #[error("turn {turn} (tile {tile}): {reason}")]
    Illegal {
        /// 1-based turn.
        turn: usize,
        /// The tile of the turn.
        tile: String,
        /// Why.
        reason: Box<IllegalMove>,
    },
    /// A deploy names no feature of the tile.
    #[error("turn {turn} (tile {tile}): {message}")]
    Feature {
        /// 1-based turn.
        turn: usize,
        /// The tile of the turn.
        tile: String,
        /// What is wrong.
        message: String,
    },
    /// More turns than tiles.
    #[error("turn {turn}: the game is already over")]
    Over {
        /// 1-based turn.
        turn: usize,
    },
    /// A choice after the turn is asked for, and the turn's list for it has no entry left
    /// (while later turns follow: a record's last turn may stop there, a game in progress).
    #[error(
        "turn {turn}: player {player} must choose a `{key}` move after the turn, but the turn's `{key}` list has no entry left"
    )]
    MissingChoice {
        /// 1-based turn.
        turn: usize,
        /// The key written (the action's record key, or a declared name).
        key: String,
        /// The player who chooses (1-based).
        player: u8,
    },
    /// A turn lists more choices of an action than were asked for.
    #[error("turn {turn}: `{key}` lists {written} choices, but {asked} were asked for")]
    ExtraChoice {
        /// 1-based turn.
        turn: usize,
        /// The key written (the action's record key, or a declared name).
        key: String,
        /// How many the turn lists.
        written: usize,
        /// How many were asked for.
        asked: usize,
    },
}

impl ReplayError {
    /// The 1-based turn the error is at, if it is at one.
    pub fn turn(&self) -> Option<usize> {
        match self {
            ReplayError::NoDraw { turn }
            | ReplayError::WrongTile { turn, .. }
            | ReplayError::Illegal { turn, .. }
            | ReplayError::Feature { turn, .. }
            | ReplayError::Over { turn }
            | ReplayError::MissingChoice { turn, .. }
            | ReplayError::ExtraChoice { turn, .. } => Some(*turn),
            _ => None,
        }
    }
}

impl Record {
    /// Reads a record from TOML (its turns' keys the core's and the registry's).
    pub fn from_toml(text: &str) -> Result<Record, ReplayError> {
        Record::from_toml_with(text, &RecordNames::default())
    }

    /// Reads a record from JSON (its turns' keys the core's and the registry's).
    pub fn from_json(text: &str) -> Result<Record, ReplayError> {
        Record::from_json_with(text, &RecordNames::default())
    }

    /// Reads a record, as JSON when it starts with `{`, else TOML (its turns' keys the core's
    /// and the registry's).
    pub fn parse(text: &str) -> Result<Record, ReplayError> {
        Record::parse_with(text, &RecordNames::default())
    }

    /// `Record::parse`, a turn's key also one of `names` (`RecordNames::of` the tables the
    /// record is played with: a creature's id for its moves).
    pub fn parse_with(text: &str, names: &RecordNames) -> Result<Record, ReplayError> {
        if text.trim_start().starts_with('{') {
            Record::from_json_with(text, names)
        } else {
            Record::from_toml_with(text, names)
        }
    }

    /// `Record::from_toml`, a turn's key also one of `names`.
    pub fn from_toml_with(text: &str, names: &RecordNames) -> Result<Record, ReplayError> {
        let parse = |text| RecordSeed(names).deserialize(toml::de::Deserializer::parse(text)?);
        parse(text).map_err(|e: toml::de::Error| ReplayError::Parse(e.to_string()))
    }

    /// `Record::from_json`, a turn's key also one of `names`.
    pub fn from_json_with(text: &str, names: &RecordNames) -> Result<Record, ReplayError> {
        let mut json = serde_json::Deserializer::from_str(text);
        (RecordSeed(names).deserialize(&mut json))
            .and_then(|record| json.end().map(|()| record))
            .map_err(|e| ReplayError::Parse(e.to_string()))
    }

    /// The record as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// The record as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The game options the record describes.
    pub fn options(&self) -> Result<GameOptions, ReplayError> {
        let g = &self.game;
        let draw = match (&g.seed, &g.draw) {
            (_, Some(order)) => Draw::Order(order.clone()),
            (Some(seed), None) => Draw::Seed(*seed),
            (None, None) => Draw::Order(
                self.turns
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| !t.replaces_placement())
                    .map(|(i, t)| t.tile.clone().ok_or(ReplayError::NoDraw { turn: i + 1 }))
                    .collect::<Result<_, _>>()?,
            ),
        };
        Ok(GameOptions {
            sets: g.sets.clone(),
            edition: g.edition.clone(),
            players: g.players,
            rules: g.rules.clone(),
            draw,
            tiles: g.tiles,
            start: g.start.clone(),
        })
    }
}

/// A replayed game: the state after the last turn and the events of each turn.
#[derive(Debug)]
pub struct Replay<'t> {
    /// The game after the last turn.
    pub game: Game<'t>,
    /// Events of the setup (tiles set aside before the first turn).
    pub setup: Vec<Event>,
    /// Events of each turn (the last one holds the final scoring when the game ended).
    pub turns: Vec<Vec<Event>>,
    /// Per turn, the figure its second step names (`Target::Figure`: the follower a guard
    /// goes beside), where it stood then: its index in the game's figures means nothing once
    /// figures have left.
    pub named: Vec<Option<NamedFigure>>,
}

/// A figure on the board as a move named it: its tile, its feature there and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedFigure {
    /// Its tile's position.
    pub at: [i16; 2],
    /// Its feature's local index on that tile.
    pub feature: u8,
    /// What it is (a follower, a windmill, …).
    pub kind: FigureKind,
    /// Which follower (the base follower or a set figure).
    pub figure: FigureId,
}

impl NamedFigure {
    /// The figure `mv` names in `game` (before `mv` is applied), if it names one.
    pub fn of_move(game: &Game<'_>, mv: Move) -> Option<NamedFigure> {
        let Move::Action {
            target: Target::Figure(i),
            ..
        } = mv
        else {
            return None;
        };
        let f = game.figures().get(usize::from(i))?;
        let p = game.board().placed[f.tile.index()];
        Some(NamedFigure {
            at: [p.x, p.y],
            feature: game.nodes()[f.node.index()].local,
            kind: f.kind,
            figure: f.figure,
        })
    }
}

impl Replay<'_> {
    /// Every event, in order.
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.setup.iter().chain(self.turns.iter().flatten())
    }
}

/// Resolves a named feature on a placed orientation.
fn resolve(game: &Game<'_>, placed: PlacedId, r: &FeatureRef) -> Result<u8, String> {
    let o = game.orient(placed);
    match r {
        FeatureRef::Index(i) => Ok(*i),
        FeatureRef::Name(name) => {
            if let Some(port) = Port::parse(name) {
                return o
                    .feature_at(port)
                    .ok_or_else(|| format!("no feature at port {port}"));
            }
            let kind = (game.core.tables.feature_kind(name))
                .ok_or_else(|| format!("`{name}` is neither a port name nor a feature kind"))?;
            let mut found = o
                .features
                .iter()
                .enumerate()
                .filter(|(_, f)| f.kind == kind);
            match (found.next(), found.next()) {
                (Some((i, _)), None) => Ok(i as u8),
                (None, _) => Err(format!("no {name} on the tile")),
                (Some((i, _)), Some((j, _))) => Err(format!(
                    "several {name}s on the tile ({} and {}): name one by a port",
                    describe_feature(game.core.tables, o, i as u8),
                    describe_feature(game.core.tables, o, j as u8)
                )),
            }
        }
    }
}

/// Finds the figure a `SpotRef` names, the current player's when `own` (index into
/// `Game::figures`).
fn resolve_figure(game: &Game<'_>, r: &SpotRef, own: bool) -> Result<u16, String> {
    let kind = match r.figure.as_deref() {
        None => None,
        Some(name) => Some(FigureKind::by_name(name).ok_or_else(|| {
            format!(
                "`figure` names `{name}`: a figure on the board is {}",
                FigureKind::names_quoted()
            )
        })?),
    };
    let [x, y] = r.at;
    let cell = game.core.board.cell(i32::from(x), i32::from(y));
    if cell.placed == PlacedId::NONE {
        return Err(format!("no tile at ({x}, {y}) to return a figure from"));
    }
    let feature = resolve(game, cell.placed, &r.on)?;
    let p = game.core.board.placed[cell.placed.index()];
    let found: Vec<usize> = game
        .core
        .figures
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            (!own || f.owner == game.to_move())
                && f.node == p.node(feature)
                && kind.is_none_or(|k| k == f.kind)
        })
        .map(|(i, _)| i)
        .collect();
    match found.as_slice() {
        [i] => Ok(*i as u16),
        [] if own => Err(format!(
            "player {} has no figure on {} at ({x}, {y})",
            game.to_move() + 1,
            describe_feature(game.core.tables, game.orient(cell.placed), feature)
        )),
        [] => Err(format!(
            "no figure on {} at ({x}, {y})",
            describe_feature(game.core.tables, game.orient(cell.placed), feature)
        )),
        several => {
            let mut names: Vec<&str> = (several.iter())
                .map(|&i| game.core.figures[i].kind.name())
                .collect();
            names.sort_unstable();
            names.dedup();
            Err(match names.as_slice() {
                [one] => format!("{} {one}s stand there", several.len()),
                _ => format!(
                    "a {} stand there: say which with `figure`",
                    names.join(" and a ")
                ),
            })
        }
    }
}

/// The figure a record's `figure` names beside `deploy` (absent: a base follower): a set
/// figure's id.
fn set_figure_by_id(game: &Game<'_>, id: Option<&str>) -> Result<FigureId, String> {
    let Some(id) = id else {
        return Ok(FigureId::FOLLOWER);
    };
    let followers = &game.tables().followers;
    if let Some(k) = followers.iter().position(|f| f.id == id) {
        return Ok(FigureId::set(k));
    }
    let known: Vec<&str> = followers.iter().map(|f| f.id.as_str()).collect();
    let known = known.join(", ");
    Err(format!(
        "unknown figure `{id}`{} (known: {})",
        did_you_mean(id, &known),
        if known.is_empty() { "none" } else { &known }
    ))
}

/// How a replay names a figure: its tile, its feature by index, and its kind.
pub fn figure_ref(game: &Game<'_>, figure: u16) -> Option<SpotRef> {
    let f = game.core.figures.get(figure as usize)?;
    let p = game.core.board.placed[f.tile.index()];
    Some(SpotRef {
        at: [p.x, p.y],
        on: FeatureRef::Index(game.nodes()[f.node.index()].local),
        figure: Some(f.kind.name().to_string()),
    })
}

impl Turn {
    /// The record of a turn: tile `kind` placed at (x, y) turned `rotation`, then `second`
    /// (a deploy, a rule module's move, or a pass). `game` is the game after the placement and
    /// before `second` (a figure is named by where it stands then).
    pub fn of(
        game: &Game<'_>,
        kind: KindId,
        (x, y, rotation): (i16, i16, u8),
        second: Move,
    ) -> Turn {
        let tables = game.tables();
        let mut turn = Turn {
            tile: Some(tables.kind(kind).id.clone()),
            at: [x, y],
            rotation,
            ..Turn::empty()
        };
        turn.set_second(game, second);
        turn
    }

    /// The record of a turn placing the player's reserve tile at `at` (None: declining it, and
    /// `second` is ignored), then `second`: the registry's move instead of placing
    /// (`RecordForm::InsteadOfPlacing`). `game` is the game after the placement.
    pub fn of_reserve(game: &Game<'_>, at: Option<[i16; 2]>, second: Move) -> Turn {
        let mut turn = Turn::empty();
        let Some(action) =
            ActionId::moves().find(|a| a.info().record_form == RecordForm::InsteadOfPlacing)
        else {
            return turn;
        };
        match at {
            None => turn.insert(action, None, Entry::pass()),
            Some(at) => {
                turn.insert(action, None, Entry::At(at));
                turn.set_second(game, second);
            }
        }
        turn
    }

    /// A turn that names nothing yet (no `at` either).
    pub fn empty() -> Turn {
        Turn {
            tile: None,
            at: NO_AT,
            rotation: 0,
            deploy: None,
            figure: None,
            entries: Vec::new(),
        }
    }

    /// A rule module's entry, by its key as written (a record key, or a declared name).
    pub fn action(&self, key: &str) -> Option<&Entry> {
        (self.entries.iter())
            .find(|e| e.key() == key)
            .map(|e| &e.entry)
    }

    /// Writes a rule module's entry under its record key, replacing any: refused when no
    /// action of the registry has that key, or the entry is not of its shape.
    pub fn set_action(&mut self, key: &str, entry: Entry) -> Result<(), KeyError> {
        let action = recorded_action(key)?;
        let entry = check_shape(action, entry)?;
        self.insert(action, None, entry);
        Ok(())
    }

    /// Takes a rule module's entry out of the turn, by its key as written.
    pub fn remove_action(&mut self, key: &str) -> Option<Entry> {
        let at = self.entries.iter().position(|e| e.key() == key)?;
        Some(self.entries.remove(at).entry)
    }

    /// The rule modules' entries, as `(key as written, entry)`, in the order they are written.
    pub fn actions(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.entries.iter().map(|e| (e.key(), &e.entry))
    }

    /// Whether a module's entry stands instead of placing the drawn tile (`reserve`).
    pub fn replaces_placement(&self) -> bool {
        self.of_form(RecordForm::InsteadOfPlacing).next().is_some()
    }

    /// The entries of the actions written in `form`.
    fn of_form(&self, form: RecordForm) -> impl Iterator<Item = &ModuleEntry> {
        (self.entries.iter()).filter(move |e| e.action.info().record_form == form)
    }

    /// Puts `entry` under `action` written as `name` (None: the action's key), keeping
    /// `RECORD_ORDER`.
    fn insert(&mut self, action: ActionId, name: Option<String>, entry: Entry) {
        if let Some(old) = (self.entries.iter_mut()).find(|e| e.action == action && e.name == name)
        {
            old.entry = entry;
            return;
        }
        // An action missing from the order (a test holds it to the registry) goes last.
        let rank = |a: ActionId| {
            RECORD_ORDER
                .iter()
                .position(|&o| o == a)
                .unwrap_or(usize::MAX)
        };
        let at = (self.entries.iter())
            .position(|e| rank(e.action) > rank(action))
            .unwrap_or(self.entries.len());
        let entry = ModuleEntry {
            action,
            name,
            entry,
        };
        self.entries.insert(at, entry);
    }

    /// Writes the turn's second step.
    fn set_second(&mut self, game: &Game<'_>, second: Move) {
        match second {
            Move::Deploy { feature, figure } => {
                self.deploy = Some(FeatureRef::Index(feature));
                self.figure = (figure.set_index())
                    .and_then(|k| game.tables().followers.get(k))
                    .map(|f| f.id.clone());
            }
            Move::Action { action, target } => {
                if action.info().record_key.is_some()
                    && let Some(entry) = write_target(game, target)
                {
                    self.insert(action, written_name(game, action), entry);
                }
            }
            Move::Place { .. } | Move::Pass => {}
        }
    }

    /// The first move of the turn: the drawn tile placed, or the module's move instead.
    fn first_move(&self, game: &Game<'_>) -> Result<Move, String> {
        match (self.of_form(RecordForm::InsteadOfPlacing).next(), self.at) {
            (None, NO_AT) => Err("the turn gives no `at`: where the tile goes".into()),
            (None, [x, y]) => Ok(Move::Place {
                x,
                y,
                rotation: self.rotation,
            }),
            (Some(e), at) if at != NO_AT => Err(format!(
                "a turn places the drawn tile (`at`) or gives `{}` instead, not both",
                e.key()
            )),
            (Some(e), _) => read_move(game, None, e),
        }
    }

    /// Adds to the turn the choice `mv` about to be made in `game`'s `Phase::Choose`, at the
    /// end of its action's list; false when `game` asks for no choice or the move has no
    /// record form.
    pub fn add_choice(&mut self, game: &Game<'_>, mv: Move) -> bool {
        let Phase::Choose { action, .. } = game.phase() else {
            return false;
        };
        if action.info().record_form != RecordForm::Choices {
            return false;
        }
        let choice = match mv {
            Move::Pass => Entry::pass(),
            Move::Action { target, .. } => match write_target(game, target) {
                Some(entry) => entry,
                None => return false,
            },
            Move::Place { .. } | Move::Deploy { .. } => return false,
        };
        let name = written_name(game, action);
        match (self.entries.iter_mut()).find(|e| e.action == action && e.name == name) {
            Some(ModuleEntry {
                entry: Entry::List(list),
                ..
            }) => list.push(choice),
            Some(_) => return false,
            None => self.insert(action, name, Entry::List(vec![choice])),
        }
        true
    }

    /// The choices after the turn it lists, each entry with its choices in the order made.
    fn choices(&self) -> Vec<(&ModuleEntry, &[Entry])> {
        (self.of_form(RecordForm::Choices))
            .map(|e| match &e.entry {
                Entry::List(list) => (e, &list[..]),
                _ => (e, &[][..]),
            })
            .collect()
    }
}

/// A move's target as a record writes it (None: a figure kind, which no record names).
fn write_target(game: &Game<'_>, target: Target) -> Option<Entry> {
    match target {
        Target::Feature(f) => Some(Entry::Index(f)),
        Target::Figure(i) => figure_ref(game, i).map(Entry::Table),
        Target::At { x, y } => Some(Entry::At([x, y])),
        Target::Spot { x, y, feature } => Some(Entry::Table(SpotRef {
            at: [x, y],
            on: FeatureRef::Index(feature),
            figure: None,
        })),
        Target::Deploy {
            x,
            y,
            feature,
            figure,
        } => Some(Entry::Table(SpotRef {
            at: [x, y],
            on: FeatureRef::Index(feature),
            figure: (figure.set_index())
                .and_then(|k| game.tables().followers.get(k))
                .map(|f| f.id.clone()),
        })),
        Target::Corner(c) => Target::corner_name(c).map(|c| Entry::Word(c.into())),
        Target::Kind(_) => None,
    }
}

/// A module's entry as a move of the game: `"pass"` declining it where its form lets it,
/// else its target resolved on the board (`placed`: the tile just placed, for a feature of
/// it).
fn read_move(game: &Game<'_>, placed: Option<PlacedId>, e: &ModuleEntry) -> Result<Move, String> {
    read_target(game, placed, e.action, e.key(), &e.entry)
}

/// `read_move` of one entry of `action` written under `key` (a choice of its list).
fn read_target(
    game: &Game<'_>,
    placed: Option<PlacedId>,
    action: ActionId,
    key: &str,
    entry: &Entry,
) -> Result<Move, String> {
    if entry.is_pass() && action.info().record_form != RecordForm::Step {
        return Ok(Move::Pass);
    }
    let feature = |r: FeatureRef| {
        let placed = placed.ok_or_else(|| format!("`{key}` needs a tile just placed"))?;
        resolve(game, placed, &r).map(Target::Feature)
    };
    let target = match (action.info().target, entry) {
        (TargetKind::Feature, Entry::Index(i)) => feature(FeatureRef::Index(*i))?,
        (TargetKind::Feature, Entry::Word(w)) => feature(FeatureRef::Name(w.clone()))?,
        (TargetKind::Figure, Entry::Table(f)) => {
            Target::Figure(resolve_figure(game, f, !action.targets_anyones_figure())?)
        }
        (TargetKind::At, Entry::At([x, y])) => Target::At { x: *x, y: *y },
        (TargetKind::Corner, Entry::Word(c)) => Target::Corner(
            Target::corner_by_name(c)
                .ok_or_else(|| format!("`{c}` is not a corner of a tile: NW, NE, SE or SW"))?,
        ),
        (TargetKind::Spot, Entry::Table(spot)) => {
            let (x, y, feature) = resolve_spot(game, spot)?;
            Target::Spot { x, y, feature }
        }
        (TargetKind::Deploy, Entry::Table(spot)) => {
            let (x, y, feature) = resolve_spot(game, spot)?;
            let figure = set_figure_by_id(game, spot.figure.as_deref())?;
            Target::Deploy {
                x,
                y,
                feature,
                figure,
            }
        }
        // Unreachable from a turn read or built here: every entry's shape was checked.
        _ => {
            return Err(format!(
                "`{key}` expects {}, not {}",
                expected(action),
                entry.describe()
            ));
        }
    };
    Ok(Move::Action { action, target })
}

/// The feature a `SpotRef` names on the board: its tile's position and its local index.
fn resolve_spot(game: &Game<'_>, spot: &SpotRef) -> Result<(i16, i16, u8), String> {
    let [x, y] = spot.at;
    let placed = game.core.board.cell(i32::from(x), i32::from(y)).placed;
    if placed == PlacedId::NONE {
        return Err(format!("no tile at ({x}, {y})"));
    }
    let feature = resolve(game, placed, &spot.on)?;
    if usize::from(feature) >= game.orient(placed).features.len() {
        return Err(format!("the tile at ({x}, {y}) has no feature {feature}"));
    }
    Ok((x, y, feature))
}

/// The error of a turn naming more than one second step, listing the record's keys.
fn at_most_one() -> String {
    let keys: Vec<&str> = std::iter::once("deploy")
        .chain(second_steps().filter_map(|a| a.info().record_key))
        .collect();
    match keys.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("a turn has at most one of {} and {last}", rest.join(", "))
        }
        _ => format!("a turn has at most one of {}", keys.join(", ")),
    }
}

/// The registry's moves made after placing (not instead of it, nor chosen after the turn).
fn second_steps() -> impl Iterator<Item = ActionId> {
    ActionId::moves().filter(|a| a.info().record_form == RecordForm::Step)
}

/// Makes the choices asked for after a turn (`Phase::Choose`) from the turn's lists, each in
/// the order made. A record's last turn may stop at a choice not made yet (a game in progress).
fn replay_choices(
    game: &mut Game<'_>,
    t: &Turn,
    (turn, tile, last): (usize, &str, bool),
    events: &mut Vec<Event>,
) -> Result<(), ReplayError> {
    let written = t.choices();
    let mut asked = vec![0usize; written.len()];
    while let Phase::Choose { player, action, .. } = game.phase() {
        // The list written under the chooser's name (a creature's id), else under the
        // action's own key.
        let name = written_name(game, action);
        let list_of = |name: &Option<String>| {
            (written.iter()).position(|(e, _)| e.action == action && e.name == *name)
        };
        let k = list_of(&name).or_else(|| list_of(&None));
        let key = k.map_or_else(
            || name.clone().unwrap_or_else(|| key_of(action).to_string()),
            |k| written[k].0.key().to_string(),
        );
        let Some((k, entry)) = k.and_then(|k| Some((k, written[k].1.get(asked[k])?))) else {
            if last {
                return Ok(());
            }
            return Err(ReplayError::MissingChoice {
                turn,
                key,
                player: player + 1,
            });
        };
        asked[k] += 1;
        let mv = read_target(game, None, action, &key, entry).map_err(|message| {
            ReplayError::Feature {
                turn,
                tile: tile.to_string(),
                message: format!("`{key}` choice {}: {message}", asked[k]),
            }
        })?;
        game.apply(mv, events)
            .map_err(|reason| ReplayError::Illegal {
                turn,
                tile: tile.to_string(),
                reason: Box::new(reason),
            })?;
    }
    match (written.iter().zip(&asked)).find(|((_, list), n)| list.len() > **n) {
        Some(((e, list), &n)) => Err(ReplayError::ExtraChoice {
            turn,
            key: e.key().to_string(),
            written: list.len(),
            asked: n,
        }),
        None => Ok(()),
    }
}

/// The turn's second step as a move of the game: its deploy, its one module move, or the pass.
fn second_move(game: &Game<'_>, placed: PlacedId, t: &Turn) -> Result<Move, String> {
    if t.figure.is_some() && t.deploy.is_none() {
        return Err("`figure` says which follower `deploy` puts down: give `deploy` too".into());
    }
    let steps: Vec<_> = t.of_form(RecordForm::Step).collect();
    if usize::from(t.deploy.is_some()) + steps.len() > 1 {
        return Err(at_most_one());
    }
    Ok(match (&t.deploy, steps.first()) {
        (None, None) => Move::Pass,
        (Some(r), _) => Move::Deploy {
            feature: resolve(game, placed, r)?,
            figure: set_figure_by_id(game, t.figure.as_deref())?,
        },
        (None, Some(e)) => read_move(game, Some(placed), e)?,
    })
}

/// Replays a record, stopping at the first illegal move.
pub fn replay<'t>(tables: &'t Tables, record: &Record) -> Result<Replay<'t>, ReplayError> {
    let mut setup = Vec::new();
    let mut game = Game::new(tables, record.options()?, &mut setup)?;
    let mut turns = Vec::with_capacity(record.turns.len());
    let mut named = Vec::with_capacity(record.turns.len());
    for (i, t) in record.turns.iter().enumerate() {
        let turn = i + 1;
        let kind = match game.phase() {
            Phase::Place(kind) => kind,
            _ => return Err(ReplayError::Over { turn }),
        };
        let drawn = tables.kind(kind).id.clone();
        if let Some(recorded) = &t.tile
            && *recorded != drawn
        {
            return Err(ReplayError::WrongTile {
                turn,
                recorded: recorded.clone(),
                drawn,
            });
        }
        let illegal = |reason| ReplayError::Illegal {
            turn,
            tile: drawn.clone(),
            reason: Box::new(reason),
        };
        let mut events = Vec::new();
        let feature_error = |message| ReplayError::Feature {
            turn,
            tile: drawn.clone(),
            message,
        };
        let first = t.first_move(&game).map_err(feature_error)?;
        game.apply(first, &mut events).map_err(illegal)?;
        if first == Move::Pass {
            if t.deploy.is_some() || t.of_form(RecordForm::Step).next().is_some() {
                let declined = t.of_form(RecordForm::InsteadOfPlacing).next();
                return Err(feature_error(format!(
                    "a turn declining `{}` places nothing to deploy on",
                    declined.map_or("the placement", ModuleEntry::key)
                )));
            }
            turns.push(events);
            named.push(None);
            continue;
        }
        let Phase::Act(placed) = game.phase() else {
            return Err(ReplayError::Over { turn });
        };
        let second = second_move(&game, placed, t).map_err(feature_error)?;
        named.push(NamedFigure::of_move(&game, second));
        game.apply(second, &mut events).map_err(illegal)?;
        let last = turn == record.turns.len();
        replay_choices(&mut game, t, (turn, &drawn, last), &mut events)?;
        turns.push(events);
    }
    Ok(Replay {
        game,
        setup,
        turns,
        named,
    })
}

/// Compares a replay outcome with a record's expectations; returns the mismatches.
pub fn check_expectations(
    tables: &Tables,
    record: &Record,
    outcome: &Result<Replay<'_>, ReplayError>,
) -> Vec<String> {
    let Some(expect) = &record.expect else {
        return Vec::new();
    };
    let mut wrong = Vec::new();
    let replay = match (outcome, &expect.error) {
        (Err(e), Some(want)) => {
            let text = e.to_string();
            if e.turn() != Some(want.turn) || !text.contains(&want.contains) {
                wrong.push(format!(
                    "expected an error at turn {} containing `{}`, got: {text}",
                    want.turn, want.contains
                ));
            }
            return wrong;
        }
        (Err(e), None) => {
            wrong.push(format!("the replay failed: {e}"));
            return wrong;
        }
        (Ok(_), Some(want)) => {
            wrong.push(format!(
                "expected an error at turn {} containing `{}`, but the replay succeeded",
                want.turn, want.contains
            ));
            return wrong;
        }
        (Ok(r), None) => r,
    };
    if let Some(scores) = &expect.scores
        && *scores != replay.game.core.scores
    {
        wrong.push(format!(
            "scores: expected {scores:?}, got {:?}",
            replay.game.core.scores
        ));
    }
    if let Some(over) = expect.over {
        let is_over = replay.game.phase() == Phase::Over;
        if over != is_over {
            wrong.push(format!("game over: expected {over}, got {is_over}"));
        }
    }
    if let Some(ids) = &expect.set_aside {
        let got: Vec<String> = replay
            .game
            .core
            .set_aside
            .iter()
            .map(|&k| tables.kind(k).id.clone())
            .collect();
        if *ids != got {
            wrong.push(format!("set aside: expected {ids:?}, got {got:?}"));
        }
    }
    if let Some(runs) = &expect.draw {
        wrong.extend(check_draw(tables, runs, &replay.game.core.bag));
    }
    if let Some(scored) = &expect.scored {
        let mut got = Vec::new();
        for (i, events) in replay.turns.iter().enumerate() {
            for e in events {
                if let Event::Scored(s) = e {
                    let want = scored.get(got.len());
                    got.push(ExpectScore {
                        turn: (!s.is_final()).then_some(i + 1),
                        kind: s.kind.name(tables).to_string(),
                        players: s.players.iter().map(|p| p + 1).collect(),
                        points: s.points,
                        bonuses: (want.iter().flat_map(|w| w.bonuses.keys()))
                            .map(|&k| {
                                let paid = (s.bonuses.iter()).filter(|b| b.kind() == k);
                                (
                                    k,
                                    paid.map(|b| [u32::from(b.player) + 1, b.points]).collect(),
                                )
                            })
                            .collect(),
                        markers: want.and_then(|w| w.markers.as_ref()).map(|_| {
                            let mut paid = std::collections::BTreeMap::new();
                            for m in &s.modifiers {
                                *paid.entry(m.marker.clone()).or_insert(0) += m.points;
                            }
                            paid
                        }),
                    });
                }
            }
        }
        if *scored != got {
            wrong.push(format!("scorings: expected {scored:?}, got {got:?}"));
        }
    }
    wrong
}

/// Checks a draw against its expected runs: the first mismatch, or the tiles left uncovered.
fn check_draw(tables: &Tables, runs: &[ExpectRun], bag: &[KindId]) -> Option<String> {
    let id = |k: KindId| tables.kind(k).id.as_str();
    let set = |k: KindId| tables.sets[usize::from(tables.kind(k).set)].as_str();
    let mut at = 0;
    for (i, run) in runs.iter().enumerate() {
        let n = run.tiles.unwrap_or(1);
        let says = || {
            let mut parts = Vec::new();
            if let Some(s) = &run.set {
                parts.push(format!("set {s}"));
            }
            if let Some(t) = &run.tile {
                parts.push(format!("tile {t}"));
            }
            if parts.is_empty() {
                parts.push("any tile".into());
            }
            format!("run {} ({n} × {})", i + 1, parts.join(", "))
        };
        for k in at..at + n {
            let Some(&kind) = bag.get(k) else {
                return Some(format!(
                    "draw: {} goes past the end of the draw ({} tiles)",
                    says(),
                    bag.len()
                ));
            };
            if run.set.as_deref().is_some_and(|s| s != set(kind))
                || run.tile.as_deref().is_some_and(|t| t != id(kind))
            {
                return Some(format!(
                    "draw: {} expected at draw position {}, got {} of {}",
                    says(),
                    k + 1,
                    id(kind),
                    set(kind)
                ));
            }
        }
        at += n;
    }
    (at != bag.len()).then(|| {
        format!(
            "draw: the runs cover {at} tiles, the draw has {}",
            bag.len()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{Entry, FeatureRef, KeyError, Record, SpotRef, Turn, at_most_one};
    use crate::rules::{ActionId, RECORD_ORDER, RecordForm, TargetKind};

    /// A value of each target form, as a record writes it.
    fn written(target: TargetKind) -> Entry {
        match target {
            TargetKind::Feature => Entry::Index(2),
            TargetKind::Figure => Entry::Table(SpotRef {
                at: [1, 0],
                on: FeatureRef::Name("road".into()),
                figure: Some("windmill".into()),
            }),
            TargetKind::At => Entry::At([3, -1]),
            TargetKind::Corner => Entry::Word("NE".into()),
            TargetKind::Spot => Entry::Table(SpotRef {
                at: [2, 1],
                on: FeatureRef::Name("city".into()),
                figure: None,
            }),
            TargetKind::Deploy => Entry::Table(SpotRef {
                at: [2, 1],
                on: FeatureRef::Name("city".into()),
                figure: Some("abbot".into()),
            }),
            TargetKind::Kind => panic!("a figure kind has no record form"),
        }
    }

    /// The values an action's turn may hold: its target's form, with the pass and in a list
    /// where its record form says so.
    fn entries(action: ActionId) -> Vec<Entry> {
        let one = written(action.info().target);
        match action.info().record_form {
            RecordForm::None => Vec::new(),
            RecordForm::Step => vec![one],
            RecordForm::InsteadOfPlacing => vec![one, Entry::pass()],
            RecordForm::Choices => vec![Entry::List(vec![one, Entry::pass()]), Entry::List(vec![])],
        }
    }

    /// A record of one turn at [0, 1] holding `key = entry`.
    fn record_of(key: &str, entry: Entry) -> Record {
        let mut turn = Turn {
            at: [0, 1],
            ..Turn::empty()
        };
        turn.set_action(key, entry)
            .unwrap_or_else(|e| panic!("`{key}`: {e}"));
        Record::from_toml("[game]\nplayers = 2\n").map_or_else(
            |e| panic!("{e}"),
            |r| Record {
                turns: vec![turn],
                ..r
            },
        )
    }

    /// Every move in the rules' registry has its key in the record format, for its form of
    /// target, and reads back from it: a module added to the registry without a record key
    /// would otherwise be dropped from records in silence.
    #[test]
    fn every_registry_move_has_its_record_key() {
        for action in ActionId::moves() {
            let info = action.info();
            let Some(key) = info.record_key else {
                continue;
            };
            assert_eq!(ActionId::by_record_key(key), Some(action));
            let mut turn = Turn {
                at: [0, 1],
                ..Turn::empty()
            };
            if action.is_choice() {
                // A choice after the turn is a list under its key, the pass among its forms.
                let list = Entry::List(vec![Entry::pass()]);
                assert_eq!(turn.set_action(key, list), Ok(()), "`{key}`: no list");
                let made = [Entry::pass()];
                let choices: Vec<_> = (turn.choices().into_iter())
                    .map(|(e, list)| (e.action, list))
                    .collect();
                assert_eq!(choices, vec![(action, &made[..])]);
                continue;
            }
            let one = written(info.target);
            assert_eq!(
                turn.set_action(key, one.clone()),
                Ok(()),
                "`{key}` not written"
            );
            assert_eq!(turn.actions().collect::<Vec<_>>(), vec![(key, &one)]);
            assert_eq!(ActionId::by_record_key(key), Some(action));
        }
    }

    /// Each registry action with a record key round-trips through a record, TOML and JSON, in
    /// every shape its entry says (a new module's key needs nothing here), and refuses the
    /// other shapes, naming its key.
    #[test]
    fn every_record_key_round_trips_in_each_shape() {
        let shapes = [
            TargetKind::Feature,
            TargetKind::Figure,
            TargetKind::At,
            TargetKind::Corner,
            TargetKind::Spot,
            TargetKind::Deploy,
        ];
        for action in ActionId::moves() {
            let key = action.info().record_key.unwrap_or_default();
            for entry in entries(action) {
                let record = record_of(key, entry.clone());
                for text in [record.to_toml(), record.to_json()] {
                    let read = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(read, record, "{text}");
                    assert_eq!(read.turns[0].action(key), Some(&entry), "{text}");
                }
            }
            let theirs = written(action.info().target);
            for other in shapes.map(written).into_iter().filter(|e| *e != theirs) {
                let accepted = entries(action).contains(&other)
                    || matches!(
                        (&other, action.info().target),
                        (Entry::Word(_), TargetKind::Feature | TargetKind::Corner)
                            | (Entry::Index(_), TargetKind::Feature)
                            | (Entry::Table(_), TargetKind::Figure)
                            | (
                                Entry::Table(SpotRef { figure: None, .. }),
                                TargetKind::Deploy
                            )
                    );
                let refused = Turn::empty().set_action(key, other.clone());
                assert_eq!(
                    refused.is_err(),
                    !accepted,
                    "`{key}` = {other:?}: {refused:?}"
                );
                if let Err(KeyError::Shape { key: named, .. }) = refused {
                    assert_eq!(named, key);
                }
            }
        }
    }

    /// A turn writes the core's keys, then the modules' in `RECORD_ORDER`, then `figure`,
    /// where records have always had it.
    #[test]
    fn a_turn_writes_its_keys_in_the_registry_order() {
        let mut turn = Turn {
            tile: Some("E".into()),
            at: [0, 1],
            deploy: Some(FeatureRef::Index(0)),
            figure: Some("large-follower".into()),
            ..Turn::empty()
        };
        for action in RECORD_ORDER.iter().rev() {
            let key = action.info().record_key.unwrap_or_default();
            let entry = entries(*action).remove(0);
            assert_eq!(turn.set_action(key, entry), Ok(()), "`{key}`");
        }
        let json = serde_json::to_string_pretty(&turn).expect("written");
        // The turn's own keys are the lines indented once.
        let keys: Vec<&str> = (json.lines())
            .filter_map(|l| l.strip_prefix("  \""))
            .filter_map(|l| l.split_once('"').map(|(k, _)| k))
            .collect();
        let want: Vec<&str> = ["tile", "at", "rotation", "deploy"]
            .into_iter()
            .chain(RECORD_ORDER.iter().filter_map(|a| a.info().record_key))
            .chain(["figure"])
            .collect();
        assert_eq!(keys, want);
    }

    /// A key that is neither the core's nor the registry's is an error naming it and every
    /// key a turn may have; a value of another shape names the key and the shape expected.
    #[test]
    fn a_wrong_key_or_shape_is_named() {
        let turn = |line: &str| {
            let text = format!("[game]\nplayers = 2\n\n[[turn]]\nat = [0, 1]\n{line}\n");
            match Record::from_toml(&text) {
                Ok(r) => panic!("`{line}` read: {r:?}"),
                Err(e) => e.to_string(),
            }
        };
        let unknown = turn("windmil = \"N\"");
        for part in [
            "unknown key `windmil` in a turn: did you mean `windmill`?",
            "tile, at, rotation, deploy, figure, windmill, return, recall, donkey, barn, wagon, \
             fairy, dragon, reserve, princess, portal",
        ] {
            assert!(unknown.contains(part), "{unknown}");
        }
        for (line, says) in [
            (
                "barn = 3",
                "`barn` expects a corner of the tile just placed: \"NW\", \"NE\", \"SE\" or \"SW\", not the number 3",
            ),
            (
                "reserve = \"home\"",
                "`reserve` expects a tile's position `[x, y]`, or \"pass\" declining it, not \"home\"",
            ),
            (
                "dragon = [0, 1]",
                "`dragon` expects a list of the choices made after the turn, each a tile's position `[x, y]` or \"pass\", not the position [0, 1]",
            ),
            ("dragon = [\"home\"]", "`dragon` expects a list"),
            (
                "donkey = \"N\"",
                "`donkey` expects a tile's position `[x, y]`, not \"N\"",
            ),
            (
                "portal = { at = [1, 0], on = \"N\", figure = \"follower\" }",
                "`portal` expects a feature of a placed tile",
            ),
            (
                "return = { at = [1, 0], onn = \"N\" }",
                "unknown field `onn`",
            ),
            (
                "windmill = 300",
                "`windmill` expects a feature of the tile just placed",
            ),
            (
                "windmill = true",
                "`windmill` expects a feature of the tile just placed",
            ),
            (
                "return = 3",
                "(with `figure =` \"follower\" or \"windmill\" when several stand there)",
            ),
        ] {
            let error = turn(line);
            assert!(error.contains(says), "`{line}`: {error}");
        }
        let json = r#"{"game": {"players": 2}, "turn": [{"at": [0, 1], "barn": [1, 2]}]}"#;
        let error = Record::parse(json).map(|_| ()).unwrap_err().to_string();
        assert!(error.contains("`barn` expects a corner"), "{error}");
        let twice = r#"{"game": {"players": 2}, "turn": [{"at": [0, 1], "at": [0, 2]}]}"#;
        let error = Record::parse(twice).map(|_| ()).unwrap_err().to_string();
        assert!(error.contains("duplicate key `at`"), "{error}");
    }

    /// A choice is written `"pass"`, `[x, y]` or `{ at, on }`, and read back as such.
    #[test]
    fn choices_read_back_in_each_form() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct Listed {
            made: Vec<Entry>,
        }
        let listed = Listed {
            made: vec![
                Entry::Table(SpotRef {
                    at: [0, 1],
                    on: FeatureRef::Name("N".into()),
                    figure: None,
                }),
                Entry::pass(),
                Entry::At([-2, 3]),
            ],
        };
        let text = toml::to_string(&listed).expect("written");
        assert_eq!(
            text,
            "made = [{ at = [0, 1], on = \"N\" }, \"pass\", [-2, 3]]\n"
        );
        assert_eq!(toml::from_str::<Listed>(&text).ok(), Some(listed));
        let home = "[game]\nplayers = 2\n[[turn]]\nat = [0, 1]\nwagon = [\"home\"]\n";
        assert!(Record::from_toml(home).is_err());
    }

    /// `RECORDS.md` lists the registry's record keys, in `RECORD_ORDER`, where it says how
    /// a module's key is written.
    #[test]
    fn the_format_lists_the_registry_keys() {
        let doc: Vec<&str> = include_str!("../RECORDS.md").split_whitespace().collect();
        let doc = doc.join(" ");
        let keys: Vec<String> = (RECORD_ORDER.iter())
            .filter_map(|a| a.info().record_key)
            .map(|k| format!("`{k}`"))
            .collect();
        let sentence = format!(
            "A rule module's move is written under its record key, from the registry (`ACTIONS` \
             in `engine/src/rules/mod.rs`): {}.",
            keys.join(", ")
        );
        assert!(
            doc.contains(&sentence),
            "RECORDS.md does not say: {sentence}"
        );
    }

    #[test]
    fn the_one_second_step_error_lists_the_record_keys() {
        assert_eq!(
            at_most_one(),
            "a turn has at most one of deploy, windmill, return, recall, donkey, barn, princess, portal and fairy"
        );
    }

    /// A declared name reads as the move of the first of its actions whose shape its value
    /// has, is written back under the name, and is listed among a turn's keys when a key is
    /// unknown; a value fitting none of its actions is refused under the name.
    #[test]
    fn a_declared_name_reads_as_its_action() {
        let names = super::RecordNames {
            names: vec![
                ("serpent".into(), ActionId::DRAGON),
                ("keeper".into(), ActionId::FAIRY),
                ("both".into(), ActionId::DRAGON),
                ("both".into(), ActionId::FAIRY),
            ],
        };
        let turn = |line: &str| {
            let text = format!("[game]\nplayers = 2\n\n[[turn]]\nat = [0, 1]\n{line}\n");
            Record::from_toml_with(&text, &names).map(|r| r.turns[0].clone())
        };
        for (line, action, key) in [
            ("serpent = [[0, 0], \"pass\"]", ActionId::DRAGON, "serpent"),
            (
                "keeper = { at = [1, 0], on = \"road\" }",
                ActionId::FAIRY,
                "keeper",
            ),
            ("both = [[0, 0]]", ActionId::DRAGON, "both"),
            (
                "both = { at = [1, 0], on = \"road\" }",
                ActionId::FAIRY,
                "both",
            ),
        ] {
            let read = turn(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(read.entries.len(), 1, "{line}");
            assert_eq!(read.entries[0].action, action, "{line}");
            let toml = Record {
                game: Record::from_toml("[game]\nplayers = 2\n")
                    .expect("a game")
                    .game,
                turns: vec![read],
                expect: None,
            }
            .to_toml();
            assert!(toml.contains(&format!("{key} = ")) || toml.contains(&format!("[turn.{key}]")));
        }
        let wrong = turn("serpent = \"N\"").expect_err("a word is no step list");
        assert!(
            wrong.to_string().contains("`serpent` expects a list"),
            "{wrong}"
        );
        let unknown = turn("serpnt = [[0, 0]]").expect_err("unknown");
        let unknown = unknown.to_string();
        assert!(unknown.contains("did you mean `serpent`?"), "{unknown}");
        assert!(
            unknown.contains("reserve, princess, portal, serpent, keeper, both; "),
            "{unknown}"
        );
        assert!(
            Record::from_toml("[game]\nplayers = 2\n[[turn]]\nat = [0, 1]\nserpent = []\n")
                .is_err()
        );
    }
}
