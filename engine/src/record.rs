//! Game records: the options and the turns of a game, in TOML (for people) or JSON (for
//! programs), and their replay. The format is documented in `engine/RECORDS.md`.

use crate::game::{
    Draw, Event, FigureKind, Game, GameOptions, IllegalMove, Move, Phase, RuleOptions, SetupError,
    describe_feature,
};
use crate::ids::{FigureId, KindId, PlacedId};
use crate::rules::{ActionId, Target};
use crate::tables::Tables;
use serde::{Deserialize, Serialize};
use tiledef::Port;

/// A game record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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

/// A feature of the placed tile, named by index, by port, or by kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FeatureRef {
    /// Index into the tile's features as written.
    Index(u8),
    /// A port name (`"NNW"`, `"N"`, … after rotation) or a kind (`"monastery"`, `"city"`).
    Name(String),
}

/// One turn: the tile placed and what the player did next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// The tile drawn (checked against the draw when present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<String>,
    /// Where it goes: `[x, y]`, x east, y south, the start tile at `[0, 0]` (absent, and
    /// `NO_AT` here, on a turn that places a `reserve` tile instead).
    #[serde(default = "no_at", skip_serializing_if = "is_no_at")]
    pub at: [i16; 2],
    /// Clockwise quarter turns.
    #[serde(default)]
    pub rotation: u8,
    /// The feature a follower is deployed on (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy: Option<FeatureRef>,
    /// The field the player's windmill goes on (Village Life).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub windmill: Option<FeatureRef>,
    /// The figure returned to the supply after placing a Festival tile.
    #[serde(default, rename = "return", skip_serializing_if = "Option::is_none")]
    pub return_figure: Option<FigureRef>,
    /// The figure with the power `recall` (the abbot) taken back instead of deploying: its
    /// feature scores at once, as at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recall: Option<FigureRef>,
    /// Where the donkey moves: `[x, y]` of a placed tile (Village Life).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub donkey: Option<[i16; 2]>,
    /// The corner of the tile just placed the player's barn goes at: `NW`, `NE`, `SE` or `SW`
    /// (a figure a set places at a corner, `at = "corner"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub barn: Option<String>,
    /// After the turn, where each wagon freed by a completed feature moved on, in the order
    /// chosen: a feature of a placed tile `{ at = [x, y], on = "N" }`, or `"pass"` (it goes
    /// home).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wagon: Option<Vec<ChoiceRef>>,
    /// The follower of the player's the fairy moves beside instead of deploying (Princess &
    /// Dragon: a guarding `[[creature]]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairy: Option<FigureRef>,
    /// The dragon's steps after the turn, in the order made, each `[x, y]` of the tile it
    /// enters (Princess & Dragon: a roaming `[[creature]]`; each chosen by the next player in
    /// turn order from the current one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dragon: Option<Vec<ChoiceRef>>,
    /// Instead of the drawn tile, the player's reserve tile (the abbey) placed at `[x, y]`, or
    /// `"pass"`: declining to place it after the last tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserve: Option<ReserveRef>,
    /// Which follower `deploy` puts down: the id of a set's follower kind (`"large-follower"`);
    /// absent: a base follower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<String>,
    /// The figure (anyone's) sent home instead of deploying, from the feature a marker with
    /// `removes` on the tile just placed extends (the princess).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub princess: Option<FigureRef>,
    /// Where a base follower goes instead of on the tile just placed, when a tile marker with
    /// `deploy = "anywhere"` lets it (the magic portal): a feature of another placed tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub portal: Option<SpotRef>,
}

/// `Turn::at` on a turn that gives none (a reserve tile's turn).
pub const NO_AT: [i16; 2] = [i16::MIN, i16::MIN];

fn no_at() -> [i16; 2] {
    NO_AT
}

fn is_no_at(at: &[i16; 2]) -> bool {
    *at == NO_AT
}

/// A reserve tile's turn as a record writes it: where it goes, or `"pass"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ReserveRef {
    /// Placed at `[x, y]`, a gap closed on all four sides.
    At([i16; 2]),
    /// `"pass"`: the player declines to place it (after the last tile).
    Word(String),
}

/// One of the current player's figures on the board: its tile, its feature, and (when a
/// follower and a windmill share the feature) which.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureRef {
    /// The tile it stands on, `[x, y]`.
    pub at: [i16; 2],
    /// The feature of that tile, named as in `deploy`.
    pub on: FeatureRef,
    /// `follower` or `windmill` (absent: whichever stands there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<FigureKind>,
}

/// A feature of any placed tile: the tile's position and the feature, named as in `deploy`
/// (`Target::Spot`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpotRef {
    /// The tile, `[x, y]`.
    pub at: [i16; 2],
    /// The feature of that tile.
    pub on: FeatureRef,
}

/// One choice made after a turn (`Phase::Choose`), as its action's list in a turn holds it:
/// `"pass"` (declined), a position `[x, y]`, or a feature of a placed tile `{ at, on }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ChoiceRef {
    /// The choice declined (`Move::Pass`).
    Pass(Declined),
    /// A position (`Target::At`).
    At([i16; 2]),
    /// A feature of a placed tile (`Target::Spot`).
    Spot(SpotRef),
}

/// The word `"pass"`: a choice declined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Declined {
    /// `"pass"`.
    #[serde(rename = "pass")]
    Pass,
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

/// One expected scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectScore {
    /// The turn (1-based) it happens in; absent for the final scoring.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<usize>,
    /// What scored: a feature kind's id (`city`), or `windmill`.
    pub kind: String,
    /// Scoring players (1-based).
    pub players: Vec<u8>,
    /// Points each (base points, scoring modifiers included).
    pub points: u32,
    /// Flower bonuses as `[player, points]` (checked when given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flowers: Option<Vec<[u32; 2]>>,
    /// Marketplace network bonuses as `[player, points]` (checked when given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<Vec<[u32; 2]>>,
    /// What each marker kind's scoring modifier paid, by marker id (checked when given):
    /// `{ well = 1 }`, `{ inn = 4 }` (negative: an inn's road left unfinished).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markers: Option<std::collections::BTreeMap<String, i64>>,
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
        /// The action's record key.
        key: &'static str,
        /// The player who chooses (1-based).
        player: u8,
    },
    /// A turn lists more choices of an action than were asked for.
    #[error("turn {turn}: `{key}` lists {written} choices, but {asked} were asked for")]
    ExtraChoice {
        /// 1-based turn.
        turn: usize,
        /// The action's record key.
        key: &'static str,
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
    /// Reads a record from TOML.
    pub fn from_toml(text: &str) -> Result<Record, ReplayError> {
        toml::from_str(text).map_err(|e| ReplayError::Parse(e.to_string()))
    }

    /// Reads a record from JSON.
    pub fn from_json(text: &str) -> Result<Record, ReplayError> {
        serde_json::from_str(text).map_err(|e| ReplayError::Parse(e.to_string()))
    }

    /// Reads a record, as JSON when it starts with `{`, else TOML.
    pub fn parse(text: &str) -> Result<Record, ReplayError> {
        if text.trim_start().starts_with('{') {
            Record::from_json(text)
        } else {
            Record::from_toml(text)
        }
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
                    .filter(|(_, t)| t.reserve.is_none())
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

/// Finds the current player's figure a `FigureRef` names (index into `Game::figures`).
fn resolve_figure(game: &Game<'_>, r: &FigureRef, own: bool) -> Result<u16, String> {
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
                && r.figure.is_none_or(|k| k == f.kind)
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
        _ => Err("a follower and a windmill stand there: say which with `figure`".into()),
    }
}

/// How a replay names a figure: its tile, its feature by index, and its kind.
pub fn figure_ref(game: &Game<'_>, figure: u16) -> Option<FigureRef> {
    let f = game.core.figures.get(figure as usize)?;
    let p = game.core.board.placed[f.tile.index()];
    Some(FigureRef {
        at: [p.x, p.y],
        on: FeatureRef::Index(game.nodes()[f.node.index()].local),
        figure: Some(f.kind),
    })
}

impl Turn {
    /// The record of a turn: tile `kind` placed at (x, y) turned `rotation`, then `second`
    /// (a deploy, windmill, Festival return, donkey move or pass). `game` is the game after the
    /// placement and before `second` (a returned figure is named by where it stands then).
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
    /// `second` is ignored), then `second`. `game` is the game after the placement.
    pub fn of_reserve(game: &Game<'_>, at: Option<[i16; 2]>, second: Move) -> Turn {
        let mut turn = Turn {
            reserve: Some(at.map_or(ReserveRef::Word("pass".into()), ReserveRef::At)),
            ..Turn::empty()
        };
        if at.is_some() {
            turn.set_second(game, second);
        }
        turn
    }

    /// A turn that names nothing yet.
    fn empty() -> Turn {
        Turn {
            tile: None,
            at: NO_AT,
            rotation: 0,
            deploy: None,
            windmill: None,
            return_figure: None,
            recall: None,
            donkey: None,
            barn: None,
            wagon: None,
            fairy: None,
            dragon: None,
            figure: None,
            princess: None,
            portal: None,
            reserve: None,
        }
    }

    /// Writes the turn's second step.
    fn set_second(&mut self, game: &Game<'_>, second: Move) {
        let tables = game.tables();
        let turn = self;
        match second {
            Move::Deploy { feature, figure } => {
                turn.deploy = Some(FeatureRef::Index(feature));
                turn.figure = (figure.set_index())
                    .and_then(|k| tables.followers.get(k))
                    .map(|f| f.id.clone());
            }
            Move::Action { action, target } => {
                if let (Some(key), Some(written)) =
                    (action.info().record_key, target_ref(game, target))
                {
                    turn.set_action(key, written);
                }
            }
            Move::Place { .. } | Move::Pass => {}
        }
    }

    /// The first move of the turn: the drawn tile placed, or the reserve tile's move.
    fn first_move(&self) -> Result<Move, String> {
        match (&self.reserve, self.at) {
            (None, NO_AT) => Err("the turn gives no `at`: where the tile goes".into()),
            (None, [x, y]) => Ok(Move::Place {
                x,
                y,
                rotation: self.rotation,
            }),
            (Some(_), at) if at != NO_AT => Err(
                "a turn places the drawn tile (`at`) or a reserve tile (`reserve`), not both"
                    .into(),
            ),
            (Some(ReserveRef::At([x, y])), _) => Ok(Move::Action {
                action: ActionId::ABBEY,
                target: Target::At { x: *x, y: *y },
            }),
            (Some(ReserveRef::Word(w)), _) if w == "pass" => Ok(Move::Pass),
            (Some(ReserveRef::Word(w)), _) => {
                Err(format!("`reserve` is `[x, y]` or \"pass\", not \"{w}\""))
            }
        }
    }

    /// Adds to the turn the choice `mv` about to be made in `game`'s `Phase::Choose`, at the
    /// end of its action's list; false when `game` asks for no choice or the format has no
    /// list for it.
    pub fn add_choice(&mut self, game: &Game<'_>, mv: Move) -> bool {
        let Phase::Choose { action, .. } = game.phase() else {
            return false;
        };
        let choice = match mv {
            Move::Pass => Some(ChoiceRef::Pass(Declined::Pass)),
            Move::Action { target, .. } => match target_ref(game, target) {
                Some(TargetRef::At(at)) => Some(ChoiceRef::At(at)),
                Some(TargetRef::Spot(spot)) => Some(ChoiceRef::Spot(spot)),
                _ => None,
            },
            Move::Place { .. } | Move::Deploy { .. } => None,
        };
        match (action.info().record_key, choice) {
            (Some(key), Some(choice)) => match self.choice_list(key) {
                Some(list) => {
                    list.get_or_insert_with(Vec::new).push(choice);
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    /// The choices after the turn it lists, as `(record key, the choices in the order made)`:
    /// the format's keys, each an action of `rules::CHOICES`.
    pub fn choices(&self) -> Vec<(&'static str, &[ChoiceRef])> {
        let written = [("wagon", &self.wagon), ("dragon", &self.dragon)];
        (written.into_iter())
            .filter_map(|(key, list)| Some((key, list.as_deref()?)))
            .collect()
    }

    /// The list of choices a record key names (None: the format has no such list).
    fn choice_list(&mut self, key: &str) -> Option<&mut Option<Vec<ChoiceRef>>> {
        match key {
            "wagon" => Some(&mut self.wagon),
            "dragon" => Some(&mut self.dragon),
            _ => None,
        }
    }

    /// The rule modules' moves the turn names, as `(record key, target)`: the format's keys,
    /// each a module's in the registry (`ActionId::by_record_key`).
    pub fn actions(&self) -> Vec<(&'static str, TargetRef)> {
        let written = [
            ("windmill", self.windmill.clone().map(TargetRef::Feature)),
            ("return", self.return_figure.clone().map(TargetRef::Figure)),
            ("recall", self.recall.clone().map(TargetRef::Figure)),
            ("donkey", self.donkey.map(TargetRef::At)),
            ("barn", self.barn.clone().map(TargetRef::Corner)),
            ("princess", self.princess.clone().map(TargetRef::Figure)),
            ("portal", self.portal.clone().map(TargetRef::Spot)),
            ("fairy", self.fairy.clone().map(TargetRef::Figure)),
            (
                "reserve",
                match &self.reserve {
                    Some(ReserveRef::At(at)) => Some(TargetRef::At(*at)),
                    _ => None,
                },
            ),
        ];
        (written.into_iter())
            .filter_map(|(key, target)| Some((key, target?)))
            .collect()
    }

    /// Writes a module's move under its record key; false when the format has no such key for
    /// that form of target.
    pub fn set_action(&mut self, key: &str, target: TargetRef) -> bool {
        match (key, target) {
            ("windmill", TargetRef::Feature(f)) => self.windmill = Some(f),
            ("return", TargetRef::Figure(f)) => self.return_figure = Some(f),
            ("recall", TargetRef::Figure(f)) => self.recall = Some(f),
            ("donkey", TargetRef::At(at)) => self.donkey = Some(at),
            ("barn", TargetRef::Corner(c)) => self.barn = Some(c),
            ("princess", TargetRef::Figure(f)) => self.princess = Some(f),
            ("portal", TargetRef::Spot(s)) => self.portal = Some(s),
            ("fairy", TargetRef::Figure(f)) => self.fairy = Some(f),
            ("reserve", TargetRef::At(at)) => self.reserve = Some(ReserveRef::At(at)),
            _ => return false,
        }
        true
    }
}

/// A rule module's target as a record writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetRef {
    /// A feature of the tile just placed (`Target::Feature`).
    Feature(FeatureRef),
    /// One of the player's figures on the board (`Target::Figure`).
    Figure(FigureRef),
    /// A position, `[x, y]` (`Target::At`).
    At([i16; 2]),
    /// A corner of the tile just placed, `NE` (`Target::Corner`).
    Corner(String),
    /// A feature of a placed tile (`Target::Spot`).
    Spot(SpotRef),
}

/// A target as a record writes it (None: a figure kind, which no record names).
fn target_ref(game: &Game<'_>, target: Target) -> Option<TargetRef> {
    match target {
        Target::Feature(f) => Some(TargetRef::Feature(FeatureRef::Index(f))),
        Target::Figure(i) => figure_ref(game, i).map(TargetRef::Figure),
        Target::At { x, y } => Some(TargetRef::At([x, y])),
        Target::Spot { x, y, feature } => Some(TargetRef::Spot(SpotRef {
            at: [x, y],
            on: FeatureRef::Index(feature),
        })),
        Target::Kind(_) => None,
        Target::Corner(c) => Target::corner_name(c).map(|c| TargetRef::Corner(c.into())),
    }
}

/// The feature a `SpotRef` names on the board, as a target.
fn resolve_spot(game: &Game<'_>, spot: &SpotRef) -> Result<Target, String> {
    let [x, y] = spot.at;
    let placed = game.core.board.cell(i32::from(x), i32::from(y)).placed;
    if placed == PlacedId::NONE {
        return Err(format!("no tile at ({x}, {y})"));
    }
    let feature = resolve(game, placed, &spot.on)?;
    if usize::from(feature) >= game.orient(placed).features.len() {
        return Err(format!("the tile at ({x}, {y}) has no feature {feature}"));
    }
    Ok(Target::Spot { x, y, feature })
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

/// The registry's moves made after placing (not instead of it).
fn second_steps() -> impl Iterator<Item = ActionId> {
    ActionId::moves().filter(|a| !a.is_choice() && !crate::rules::PLACE_STEP.contains(a))
}

/// A turn's module move as a move of the game: its target resolved on the board.
fn action_move(
    game: &Game<'_>,
    placed: PlacedId,
    key: &str,
    written: &TargetRef,
) -> Result<Move, String> {
    let action =
        ActionId::by_record_key(key).ok_or_else(|| format!("no rule has the move `{key}`"))?;
    let target = match written {
        TargetRef::Feature(r) => Target::Feature(resolve(game, placed, r)?),
        TargetRef::Figure(f) => {
            Target::Figure(resolve_figure(game, f, !action.targets_anyones_figure())?)
        }
        TargetRef::At([x, y]) => Target::At { x: *x, y: *y },
        TargetRef::Corner(c) => Target::Corner(
            Target::corner_by_name(c)
                .ok_or_else(|| format!("`{c}` is not a corner of a tile: NW, NE, SE or SW"))?,
        ),
        TargetRef::Spot(spot) => resolve_spot(game, spot)?,
    };
    Ok(Move::Action { action, target })
}

/// A written choice as a move of the game asking for a choice of `action`.
fn choice_move(game: &Game<'_>, action: ActionId, written: &ChoiceRef) -> Result<Move, String> {
    let target = match written {
        ChoiceRef::Pass(_) => return Ok(Move::Pass),
        ChoiceRef::At([x, y]) => Target::At { x: *x, y: *y },
        ChoiceRef::Spot(spot) => resolve_spot(game, spot)?,
    };
    Ok(Move::Action { action, target })
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
        let key = action.info().record_key.unwrap_or(action.info().name);
        let k = written.iter().position(|(w, _)| *w == key);
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
        let mv = choice_move(game, action, entry).map_err(|message| ReplayError::Feature {
            turn,
            tile: tile.to_string(),
            message: format!("`{key}` choice {}: {message}", asked[k]),
        })?;
        game.apply(mv, events)
            .map_err(|reason| ReplayError::Illegal {
                turn,
                tile: tile.to_string(),
                reason: Box::new(reason),
            })?;
    }
    match (written.iter().zip(&asked)).find(|((_, list), n)| list.len() > **n) {
        Some(((key, list), &n)) => Err(ReplayError::ExtraChoice {
            turn,
            key,
            written: list.len(),
            asked: n,
        }),
        None => Ok(()),
    }
}

/// Replays a record, stopping at the first illegal move.
pub fn replay<'t>(tables: &'t Tables, record: &Record) -> Result<Replay<'t>, ReplayError> {
    let mut setup = Vec::new();
    let mut game = Game::new(tables, record.options()?, &mut setup)?;
    let mut turns = Vec::with_capacity(record.turns.len());
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
        let first = t.first_move().map_err(feature_error)?;
        game.apply(first, &mut events).map_err(illegal)?;
        let actions: Vec<_> = (t.actions().into_iter())
            .filter(|(key, _)| second_steps().any(|a| a.info().record_key == Some(key)))
            .collect();
        if first == Move::Pass {
            if t.deploy.is_some() || !actions.is_empty() {
                return Err(feature_error(
                    "a turn declining the reserve tile places nothing to deploy on".into(),
                ));
            }
            turns.push(events);
            continue;
        }
        let Phase::Act(placed) = game.phase() else {
            return Err(ReplayError::Over { turn });
        };
        if t.figure.is_some() && t.deploy.is_none() {
            return Err(feature_error(
                "`figure` says which follower `deploy` puts down: give `deploy` too".into(),
            ));
        }
        if usize::from(t.deploy.is_some()) + actions.len() > 1 {
            return Err(feature_error(at_most_one()));
        }
        let second = match (&t.deploy, actions.first()) {
            (None, None) => Move::Pass,
            (Some(r), _) => Move::Deploy {
                feature: resolve(&game, placed, r).map_err(feature_error)?,
                figure: match &t.figure {
                    None => FigureId::FOLLOWER,
                    Some(id) => match tables.followers.iter().position(|f| &f.id == id) {
                        Some(k) => FigureId::set(k),
                        None => {
                            let known: Vec<&str> =
                                tables.followers.iter().map(|f| f.id.as_str()).collect();
                            let known = known.join(", ");
                            return Err(feature_error(format!(
                                "unknown figure `{id}`{} (known: {})",
                                crate::options::did_you_mean(id, &known),
                                if known.is_empty() { "none" } else { &known }
                            )));
                        }
                    },
                },
            },
            (None, Some((key, written))) => {
                action_move(&game, placed, key, written).map_err(feature_error)?
            }
        };
        game.apply(second, &mut events).map_err(illegal)?;
        let last = turn == record.turns.len();
        replay_choices(&mut game, t, (turn, &drawn, last), &mut events)?;
        turns.push(events);
    }
    Ok(Replay { game, setup, turns })
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
                        flowers: want.and_then(|w| w.flowers.as_ref()).map(|_| {
                            s.flowers
                                .iter()
                                .map(|b| [u32::from(b.player) + 1, b.points])
                                .collect()
                        }),
                        network: want.and_then(|w| w.network.as_ref()).map(|_| {
                            s.network
                                .iter()
                                .map(|b| [u32::from(b.player) + 1, b.points])
                                .collect()
                        }),
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
    use super::{
        ChoiceRef, Declined, FeatureRef, FigureRef, SpotRef, TargetRef, Turn, at_most_one,
    };
    use crate::rules::{ActionId, TargetKind};

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
            let written = match info.target {
                TargetKind::Feature => TargetRef::Feature(FeatureRef::Index(2)),
                TargetKind::Figure => TargetRef::Figure(FigureRef {
                    at: [1, 0],
                    on: FeatureRef::Name("road".into()),
                    figure: None,
                }),
                TargetKind::At => TargetRef::At([3, -1]),
                TargetKind::Corner => TargetRef::Corner("NE".into()),
                TargetKind::Spot => TargetRef::Spot(SpotRef {
                    at: [2, 1],
                    on: FeatureRef::Name("city".into()),
                }),
                TargetKind::Kind => panic!("`{key}` takes a figure kind: no record form"),
            };
            let mut turn = Turn {
                tile: None,
                at: [0, 1],
                rotation: 0,
                deploy: None,
                windmill: None,
                return_figure: None,
                recall: None,
                donkey: None,
                barn: None,
                wagon: None,
                fairy: None,
                dragon: None,
                reserve: None,
                figure: None,
                princess: None,
                portal: None,
            };
            assert_eq!(ActionId::by_record_key(key), Some(action));
            if action.is_choice() {
                // A choice after the turn is a list under its key, the pass among its forms.
                let list = (turn.choice_list(key)).unwrap_or_else(|| panic!("`{key}`: no list"));
                *list = Some(vec![ChoiceRef::Pass(Declined::Pass)]);
                let made = [ChoiceRef::Pass(Declined::Pass)];
                assert_eq!(turn.choices(), vec![(key, &made[..])]);
                continue;
            }
            assert!(turn.set_action(key, written.clone()), "`{key}` not written");
            assert_eq!(turn.actions(), vec![(key, written)]);
            assert_eq!(ActionId::by_record_key(key), Some(action));
        }
    }

    /// A choice is written `"pass"`, `[x, y]` or `{ at, on }`, and read back as such.
    #[test]
    fn choices_read_back_in_each_form() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct Listed {
            made: Vec<ChoiceRef>,
        }
        let listed = Listed {
            made: vec![
                ChoiceRef::Spot(SpotRef {
                    at: [0, 1],
                    on: FeatureRef::Name("N".into()),
                }),
                ChoiceRef::Pass(Declined::Pass),
                ChoiceRef::At([-2, 3]),
            ],
        };
        let text = toml::to_string(&listed).expect("written");
        assert_eq!(
            text,
            "made = [{ at = [0, 1], on = \"N\" }, \"pass\", [-2, 3]]\n"
        );
        assert_eq!(toml::from_str::<Listed>(&text).ok(), Some(listed));
        assert!(toml::from_str::<Listed>("made = [\"home\"]").is_err());
    }

    #[test]
    fn the_one_second_step_error_lists_the_record_keys() {
        assert_eq!(
            at_most_one(),
            "a turn has at most one of deploy, windmill, return, recall, donkey, barn, princess, portal and fairy"
        );
    }
}
