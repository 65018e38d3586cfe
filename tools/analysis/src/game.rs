//! Games played on the host's tables: the session model behind the page's board. A game is its
//! record (options and turns, `engine/RECORDS.md`), the tables it started on and who sits in
//! each seat (a person, or one of the engine's players); every question replays the record
//! through the engine, so the engine alone decides what is legal and what scores, and saving a
//! game is writing its record. A game keeps the tables it started with: a save of the files
//! changes the next game, never one being played (its record would stop replaying).
//!
//! The answers are plain data (`View`, serialisable for the page): the board, the figures, the
//! drawn tile and its legal placements with their rotations, or the second step's choices in
//! words, the scores and each turn's events in words.

use engine::board::Board;
use engine::players::{Player, Strategy};
use engine::record::{GameSpec, NamedFigure, Record, Turn, replay};
use engine::rng::Rng;
use engine::rules::Target;
use engine::{Event, FigureKind, KindId, Move, Phase, Tables};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// The most games kept at once (the oldest is dropped), so a page left reloading cannot fill
/// the memory.
pub const MAX_GAMES: usize = 64;

/// The most seats of a game.
pub const MAX_SEATS: usize = engine::game::MAX_PLAYERS as usize;

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at the page (hotseat: the page lets whoever's turn it is move).
    Person,
    /// One of the engine's players, moving by itself.
    Bot(Strategy),
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Person => write!(f, "person"),
            Seat::Bot(s) => write!(f, "{s}"),
        }
    }
}

impl FromStr for Seat {
    type Err = String;

    /// `person`, or a player: `random`, `greedy`, `mcts`, `mcts:N`.
    fn from_str(text: &str) -> Result<Seat, String> {
        match text.trim() {
            "person" => Ok(Seat::Person),
            other => other
                .parse::<Strategy>()
                .map(Seat::Bot)
                .map_err(|e| format!("{e}, or `person`")),
        }
    }
}

/// Why a game question or move was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GameError {
    /// The seats asked for make no game.
    #[error("{0} seats: a game has 1 to {MAX_SEATS}")]
    Seats(usize),
    /// A person moved in a bot's seat (or asked a bot to move in a person's).
    #[error("it is P{seat}'s turn, played by {by}")]
    NotYourTurn {
        /// The seat whose turn it is, from 1.
        seat: usize,
        /// Who plays it.
        by: String,
    },
    /// No legal move with this index.
    #[error("no legal move {index} (there are {count})")]
    NoMove {
        /// The index asked.
        index: usize,
        /// How many legal moves there are.
        count: usize,
    },
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The engine refused the game or a turn (the record stays as it was).
    #[error("{0}")]
    Engine(String),
}

/// What a new game is played with beside its seats and seed: the page's rules panel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameChoice {
    /// The sets in the bag (empty: every loaded set).
    pub sets: Vec<String>,
    /// The start tile's id (None: the first start tile of the sets in draw order).
    pub start: Option<String>,
    /// Rule options switched on by name (`engine::Tables::rule_options`).
    pub options: Vec<String>,
}

/// One game.
pub struct Session {
    tables: Arc<Tables>,
    record: Record,
    seats: Vec<Seat>,
    /// The engine's player of each bot seat (it keeps its plan from placement to second step).
    players: Vec<Option<Player>>,
    /// The placement made this turn, waiting for its second step.
    pending: Option<(KindId, Move)>,
    rng: Rng,
}

impl Session {
    /// A new game on `tables` with a seeded draw, of the sets, start tile and options chosen.
    pub fn new(
        tables: Arc<Tables>,
        seats: Vec<Seat>,
        seed: u64,
        choice: GameChoice,
    ) -> Result<Session, GameError> {
        if !(1..=MAX_SEATS).contains(&seats.len()) {
            return Err(GameError::Seats(seats.len()));
        }
        let record = Record {
            game: GameSpec {
                sets: choice.sets,
                edition: None,
                players: seats.len() as u8,
                rules: engine::RuleOptions {
                    on: choice.options,
                    ..Default::default()
                },
                seed: Some(seed),
                draw: None,
                tiles: None,
                start: choice.start,
            },
            turns: Vec::new(),
            expect: None,
        };
        replay(&tables, &record).map_err(engine_error)?;
        let players = seats
            .iter()
            .map(|s| match s {
                Seat::Person => None,
                Seat::Bot(strategy) => Some(Player::new(*strategy)),
            })
            .collect();
        Ok(Session {
            tables,
            record,
            seats,
            players,
            pending: None,
            rng: Rng::new(seed ^ 0x5eed),
        })
    }

    /// The game's record (replayable with `tilekit play`).
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Who plays each seat.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The tables the game is played on (those of the files when it started).
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    fn state(&self) -> Result<Played<'_>, GameError> {
        state(&self.tables, &self.record, self.pending)
    }

    /// The seat whose turn it is, when the game is not over and a bot plays it.
    pub fn bot_to_move(&self) -> Result<Option<usize>, GameError> {
        let (game, ..) = self.state()?;
        let seat = usize::from(game.to_move());
        Ok((game.phase() != Phase::Over && self.players[seat].is_some()).then_some(seat))
    }

    /// A person's move: the `index`-th of the engine's legal moves of this phase.
    pub fn play(&mut self, index: usize) -> Result<(), GameError> {
        let (game, ..) = self.state()?;
        let phase = game.phase();
        if phase == Phase::Over {
            return Err(GameError::Over);
        }
        let seat = usize::from(game.to_move());
        if let Seat::Bot(_) = self.seats[seat] {
            return Err(self.not_yours(seat));
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mv = *moves.get(index).ok_or(GameError::NoMove {
            index,
            count: moves.len(),
        })?;
        drop(game);
        self.make(phase, mv)
    }

    /// The bot whose turn it is plays its whole turn (a placement and its second step).
    pub fn bot_turn(&mut self) -> Result<(), GameError> {
        let tables = self.tables.clone();
        let mut moved = false;
        loop {
            let (game, ..) = state(&tables, &self.record, self.pending)?;
            let phase = game.phase();
            if phase == Phase::Over {
                return if moved { Ok(()) } else { Err(GameError::Over) };
            }
            // One turn: stop when the next placement is to be made.
            if moved && matches!(phase, Phase::Place(_)) {
                return Ok(());
            }
            let seat = usize::from(game.to_move());
            let Some(player) = self.players[seat].as_mut() else {
                return if moved {
                    Ok(())
                } else {
                    Err(self.not_yours(seat))
                };
            };
            let mv = player.choose(&game, &mut self.rng).unwrap_or(Move::Pass);
            drop(game);
            self.make(phase, mv)?;
            moved = true;
        }
    }

    fn not_yours(&self, seat: usize) -> GameError {
        GameError::NotYourTurn {
            seat: seat + 1,
            by: self.seats[seat].to_string(),
        }
    }

    fn make(&mut self, phase: Phase, mv: Move) -> Result<(), GameError> {
        match phase {
            // Declining a reserve tile after the last tile: a turn of its own.
            Phase::Place(_) if mv == Move::Pass => {
                let (game, ..) = self.state()?;
                let turn = Turn::of_reserve(&game, None, Move::Pass);
                drop(game);
                self.push_turn(turn)
            }
            Phase::Place(kind) => {
                self.pending = Some((kind, mv));
                // The engine is the judge: a placement it refuses is taken back.
                if let Err(e) = self.state() {
                    self.pending = None;
                    return Err(e);
                }
                Ok(())
            }
            Phase::Act(_) => {
                let (game, ..) = self.state()?;
                let turn = match self.pending {
                    Some((kind, Move::Place { x, y, rotation })) => {
                        Turn::of(&game, kind, (x, y, rotation), mv)
                    }
                    // A reserve tile placed instead of the drawn one.
                    Some((
                        _,
                        Move::Action {
                            target: Target::At { x, y },
                            ..
                        },
                    )) => Turn::of_reserve(&game, Some([x, y]), mv),
                    _ => {
                        return Err(GameError::Engine(
                            "no placement waits for its second step".into(),
                        ));
                    }
                };
                drop(game);
                self.push_turn(turn)
            }
            Phase::Choose { .. } => {
                let (game, ..) = self.state()?;
                let Some(turn) = self.record.turns.last() else {
                    return Err(GameError::Engine("no turn waits for its choice".into()));
                };
                let mut turn = turn.clone();
                if !turn.add_choice(&game, mv) {
                    return Err(GameError::Engine(format!(
                        "the record has no form for the choice {mv:?}"
                    )));
                }
                drop(game);
                let last = self.record.turns.len() - 1;
                let before = std::mem::replace(&mut self.record.turns[last], turn);
                // The engine is the judge: a choice it refuses is taken back.
                if let Err(e) = replay(&self.tables, &self.record) {
                    self.record.turns[last] = before;
                    return Err(engine_error(e));
                }
                Ok(())
            }
            Phase::Over => Err(GameError::Over),
        }
    }

    /// Adds a whole turn to the record; the engine is the judge: a turn it refuses is taken
    /// back.
    fn push_turn(&mut self, turn: Turn) -> Result<(), GameError> {
        self.record.turns.push(turn);
        if let Err(e) = replay(&self.tables, &self.record) {
            self.record.turns.pop();
            return Err(engine_error(e));
        }
        self.pending = None;
        Ok(())
    }

    /// The game as a page draws it: the board, the figures, the drawn tile and its legal
    /// placements, or the choices of the second step; scores; the events in words.
    pub fn view(&self) -> Result<View, GameError> {
        let (game, turns, named) = self.state()?;
        let tables = self.tables.as_ref();
        let tile_id = |k: KindId| tables.kind(k).id.clone();
        let board = game
            .board()
            .placed
            .iter()
            .map(|p| {
                let o = tables.orient(p.orient);
                PlacedTile {
                    x: p.x,
                    y: p.y,
                    tile: tile_id(KindId(o.kind)),
                    rotation: o.rotation,
                }
            })
            .collect();
        let (figures, creatures) = (figure_views(&game), creature_views(&game));
        let donkey = game.donkey().map(|d| {
            let p = game.board().placed[d.index()];
            [p.x, p.y]
        });
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let phase = match game.phase() {
            Phase::Place(kind) => PhaseView::Place {
                place: tile_id(kind),
                placements: (moves.iter().enumerate())
                    .filter_map(|(index, m)| match *m {
                        Move::Place { x, y, rotation } => Some(Placement {
                            index,
                            x,
                            y,
                            rotation,
                        }),
                        _ => None,
                    })
                    .collect(),
                // The rules' moves instead of placing (a reserve tile, declining it), by the
                // registry's words.
                choices: (moves.iter().enumerate())
                    .filter(|(_, m)| !matches!(m, Move::Place { .. }))
                    .map(|(index, m)| Choice {
                        index,
                        label: place_step_text(tables, &game.rules().sets, *m),
                        point: None,
                    })
                    .collect(),
            },
            Phase::Act(placed) => {
                let o = game.orient(placed);
                let p = game.board().placed[placed.index()];
                let choices = (moves.iter().enumerate())
                    .map(|(index, m)| {
                        let (label, point) = choice_text(&game, o, *m);
                        Choice {
                            index,
                            label,
                            point,
                        }
                    })
                    .collect();
                PhaseView::Act {
                    act: tile_id(KindId(o.kind)),
                    at: [p.x, p.y],
                    choices,
                }
            }
            Phase::Choose { action, placed, .. } => PhaseView::Choose {
                choose: action.info().name.to_string(),
                choices: (moves.iter().enumerate())
                    .map(|(index, m)| Choice {
                        index,
                        label: match m {
                            Move::Pass => "decline".to_string(),
                            m => choice_text(&game, game.orient(placed), *m).0,
                        },
                        point: None,
                    })
                    .collect(),
            },
            Phase::Over => PhaseView::Over { over: true },
        };
        let log = (turns.iter().zip(&named))
            .map(|(t, n)| {
                (turn_text(&game, t, n.as_ref()).into_iter())
                    .map(|l| l.trim().to_string())
                    .collect()
            })
            .collect();
        Ok(View {
            players: game.scores().len(),
            seats: self.seats.iter().map(Seat::to_string).collect(),
            current: game.to_move(),
            scores: game.scores().to_vec(),
            supply: game.supply().to_vec(),
            tiles_left: game.tiles_left(),
            board,
            figures,
            donkey,
            creatures,
            phase,
            log,
            rules: game.rules().to_string(),
        })
    }
}

/// A game as a page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The number of players.
    pub players: usize,
    /// Who plays each seat (`person`, `greedy`, …).
    pub seats: Vec<String>,
    /// The seat whose turn it is, from 0.
    pub current: u8,
    /// The scores by seat.
    pub scores: Vec<u32>,
    /// Followers left in each seat's supply.
    pub supply: Vec<u8>,
    /// Tiles left to draw.
    pub tiles_left: usize,
    /// The placed tiles.
    pub board: Vec<PlacedTile>,
    /// The figures on the board.
    pub figures: Vec<FigureView>,
    /// Where the donkey stands.
    pub donkey: Option<[i16; 2]>,
    /// The creatures on the board (the dragon, the fairy, a fan set's).
    pub creatures: Vec<CreatureView>,
    /// What is to be done now.
    pub phase: PhaseView,
    /// Per turn, its events in words (the set-up's with the first turn's).
    pub log: Vec<Vec<String>>,
    /// The rules in play, in words.
    pub rules: String,
}

/// A tile on the board.
#[derive(Clone, Debug, Serialize)]
pub struct PlacedTile {
    /// Its cell.
    pub x: i16,
    /// Its cell.
    pub y: i16,
    /// Its tile id.
    pub tile: String,
    /// Quarter turns clockwise.
    pub rotation: u8,
}

/// A figure on the board.
#[derive(Clone, Debug, Serialize)]
pub struct FigureView {
    /// Its tile's cell.
    pub x: i16,
    /// Its tile's cell.
    pub y: i16,
    /// Where on the tile, in tile units ((0, 0) north-west).
    pub fx: f32,
    /// Where on the tile.
    pub fy: f32,
    /// Its owner's seat.
    pub player: u8,
    /// `follower`, `windmill`, or a set's figure by its id (`abbot`, `builder`, `pig`, `barn`:
    /// at a corner, `fx` and `fy` 0 or 1).
    pub kind: String,
}

/// A creature on the board.
#[derive(Clone, Debug, Serialize)]
pub struct CreatureView {
    /// Its tile's cell.
    pub x: i16,
    /// Its tile's cell.
    pub y: i16,
    /// Its id (`dragon`, `serpent`).
    pub id: String,
    /// Its name (`Sea serpent`).
    pub name: String,
}

/// What is to be done now.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum PhaseView {
    /// The drawn tile is to be placed at one of its legal placements.
    Place {
        /// The drawn tile's id.
        place: String,
        /// Its legal placements, each with every rotation allowed there.
        placements: Vec<Placement>,
        /// The rules' moves instead of placing it (a reserve tile), absent when none.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        choices: Vec<Choice>,
    },
    /// The second step of the placed tile.
    Act {
        /// The placed tile's id.
        act: String,
        /// Its cell.
        at: [i16; 2],
        /// The engine's legal second steps.
        choices: Vec<Choice>,
    },
    /// A choice after the turn (`Phase::Choose`) by the seat `current`.
    Choose {
        /// The action chosen (its registry name: `wagon`).
        choose: String,
        /// The engine's legal choices.
        choices: Vec<Choice>,
    },
    /// The game is over.
    Over {
        /// Always true.
        over: bool,
    },
}

/// A legal placement.
#[derive(Clone, Debug, Serialize)]
pub struct Placement {
    /// Its index among the legal moves (what a move names).
    pub index: usize,
    /// The cell.
    pub x: i16,
    /// The cell.
    pub y: i16,
    /// Quarter turns clockwise.
    pub rotation: u8,
}

/// A legal second step.
#[derive(Clone, Debug, Serialize)]
pub struct Choice {
    /// Its index among the legal moves.
    pub index: usize,
    /// What it does, in words.
    pub label: String,
    /// Where on the placed tile the figure would stand, if one is placed.
    pub point: Option<(f32, f32)>,
}

/// The games of a session (a page's), by id.
#[derive(Default)]
pub struct Games {
    games: HashMap<u64, Session>,
    next: u64,
}

impl Games {
    /// Keeps a game; returns its id. The oldest game goes when `MAX_GAMES` are kept.
    pub fn insert(&mut self, game: Session) -> u64 {
        if self.games.len() >= MAX_GAMES
            && let Some(&oldest) = self.games.keys().min()
        {
            self.games.remove(&oldest);
        }
        self.next += 1;
        self.games.insert(self.next, game);
        self.next
    }

    /// A game by id.
    pub fn get(&mut self, id: u64) -> Option<&mut Session> {
        self.games.get_mut(&id)
    }
}

fn engine_error(e: impl fmt::Display) -> GameError {
    GameError::Engine(e.to_string())
}

/// A figure on the board in words: a set figure's name, else `follower` or `windmill`.
fn figure_word(tables: &Tables, f: &engine::Figure) -> String {
    kind_word(tables, f.kind, f.figure)
}

/// A figure's kind in words: a set figure's name, else `follower` or `windmill`.
fn kind_word(tables: &Tables, kind: FigureKind, figure: engine::FigureId) -> String {
    match (kind, figure.set_index()) {
        (FigureKind::Follower, Some(k)) => (tables.followers.get(k))
            .map_or_else(|| "figure".to_string(), |k| k.name.to_lowercase()),
        _ => kind.name().to_string(),
    }
}

/// A figure a move named, in words: `follower on the road E W at (1, 0)`.
fn named_words(tables: &Tables, board: &Board, n: &NamedFigure) -> String {
    let [x, y] = n.at;
    format!(
        "{} on the {}",
        kind_word(tables, n.kind, n.figure),
        spot_words(tables, board, x, y, n.feature)
    )
}

/// A rule module's target in words, where no tile or game is needed to say it.
fn target_words(tables: &Tables, target: Target) -> String {
    match target {
        Target::Feature(feature) => format!("feature {feature}"),
        Target::Figure(i) => format!("figure {i}"),
        Target::At { x, y } => format!("({x}, {y})"),
        Target::Kind(figure) => engine::rules::figure_kind_id(tables, figure),
        Target::Spot { x, y, feature } | Target::Deploy { x, y, feature, .. } => {
            format!("feature {feature} of the tile at ({x}, {y})")
        }
        Target::Corner(c) => Target::corner_name(c).unwrap_or("?").to_string(),
    }
}

/// A feature of a placed tile (`Target::Spot`) in words: `road W E at (1, 0)`.
fn spot_words(tables: &Tables, board: &Board, x: i16, y: i16, feature: u8) -> String {
    match board.at(x.into(), y.into()) {
        Some(p) => {
            let on = engine::game::describe_feature(tables, tables.orient(p.orient), feature);
            format!("{on} at ({x}, {y})")
        }
        None => target_words(tables, Target::Spot { x, y, feature }),
    }
}

/// A corner of a tile (`Target::Corner`) in tile units ((0, 0) north-west).
fn corner_point(corner: u8) -> (f32, f32) {
    match corner {
        0 => (0.0, 0.0),
        1 => (1.0, 0.0),
        2 => (1.0, 1.0),
        _ => (0.0, 1.0),
    }
}

/// A registry's words (`rules::Action::move_words`, `event_words`) with its player (`P1`)
/// and target filled in.
fn fill(words: &str, player: Option<u8>, target: &str) -> String {
    let words = words.replace("{target}", target);
    match player {
        Some(p) => words.replace("{player}", &format!("P{}", p + 1)),
        None => words,
    }
}

/// A second step in words, and where its figure would stand.
/// A move of the place phase other than a placement, in words: a rule module's by its
/// registry words, the pass as declining the reserve tile.
fn place_step_text(tables: &Tables, sets: &[String], m: Move) -> String {
    match m {
        Move::Action { action, target } => fill(
            &action.move_words(tables, sets, target),
            None,
            &target_words(tables, target),
        ),
        _ => "decline: keep your reserve tile".to_string(),
    }
}

fn choice_text(
    game: &engine::Game<'_>,
    o: &engine::tables::Orient,
    m: Move,
) -> (String, Option<(f32, f32)>) {
    let on = |feature| engine::game::describe_feature(game.tables(), o, feature);
    match m {
        Move::Deploy { feature, figure } => {
            let who = match figure
                .set_index()
                .and_then(|k| game.tables().followers.get(k))
            {
                Some(kind) => kind.name.to_lowercase(),
                None => "follower".to_string(),
            };
            (
                format!("{who} on the {}", on(feature)),
                Some(feature_point(o, feature)),
            )
        }
        Move::Action { action, target } => {
            let point = match target {
                Target::Feature(feature) => Some(feature_point(o, feature)),
                Target::Corner(c) => Some(corner_point(c)),
                _ => None,
            };
            let target_text = match target {
                Target::Feature(feature) => on(feature),
                Target::Spot { x, y, feature } | Target::Deploy { x, y, feature, .. } => {
                    spot_words(game.tables(), game.board(), x, y, feature)
                }
                Target::Figure(i) => match game.figures().get(usize::from(i)) {
                    Some(f) => {
                        let t = game.board().placed[f.tile.index()];
                        format!("{} at ({}, {})", figure_word(game.tables(), f), t.x, t.y)
                    }
                    None => format!("figure {i}"),
                },
                other => target_words(game.tables(), other),
            };
            let words = action.move_words(game.tables(), &game.rules().sets, target);
            (fill(&words, None, &target_text), point)
        }
        Move::Pass => ("pass (no figure)".to_string(), None),
        Move::Place { .. } => ("place".to_string(), None),
    }
}

/// A replayed game: the game, each turn's events (the set-up's with the first turn's) and the
/// figure each turn's move named (`Replay::named`).
type Played<'t> = (engine::Game<'t>, Vec<Vec<Event>>, Vec<Option<NamedFigure>>);

/// Replays a record, then a pending placement (which names no figure).
fn state<'t>(
    tables: &'t Tables,
    record: &Record,
    pending: Option<(KindId, Move)>,
) -> Result<Played<'t>, GameError> {
    let r = replay(tables, record).map_err(engine_error)?;
    let mut game = r.game;
    let mut turns = r.turns;
    let mut named = r.named;
    if let Some((_, mv)) = pending {
        let mut events = Vec::new();
        game.apply(mv, &mut events).map_err(engine_error)?;
        turns.push(events);
        named.push(None);
    }
    if let Some(first) = turns.first_mut() {
        let mut setup = r.setup;
        setup.append(first);
        *first = setup;
    } else if !r.setup.is_empty() {
        turns.push(r.setup);
        named.push(None);
    }
    Ok((game, turns, named))
}

/// The figures on the board as the page draws them, those at corners (barns) where four tiles
/// meet.
fn figure_views(game: &engine::Game<'_>) -> Vec<FigureView> {
    let tables = game.tables();
    let corners = (game.corner_figures().into_iter()).map(|(player, x, y, c, id)| {
        let (fx, fy) = corner_point(c);
        FigureView {
            x,
            y,
            fx,
            fy,
            player,
            kind: id.to_string(),
        }
    });
    (game.figures().iter())
        .map(|f| {
            let p = game.board().placed[f.tile.index()];
            let o = tables.orient(p.orient);
            let (fx, fy) = feature_point(o, game.nodes()[f.node.index()].local);
            FigureView {
                x: p.x,
                y: p.y,
                fx,
                fy,
                player: f.owner,
                kind: match f.figure.set_index() {
                    Some(k) if f.kind == FigureKind::Follower => tables.followers[k].id.clone(),
                    _ => f.kind.name().to_string(),
                },
            }
        })
        .chain(corners)
        .collect()
}

/// The creatures on the board as the page draws them.
fn creature_views(game: &engine::Game<'_>) -> Vec<CreatureView> {
    (game.creatures_on_board().into_iter())
        .map(|(c, t)| {
            let p = game.board().placed[t.index()];
            let rule = &game.tables().creatures[c];
            CreatureView {
                x: p.x,
                y: p.y,
                id: rule.id.clone(),
                name: rule.name.clone(),
            }
        })
        .collect()
}

/// Where to draw a figure on its tile, in tile units ((0, 0) north-west): a little inside the
/// feature's first port, or the centre for a feature without ports.
fn feature_point(o: &engine::tables::Orient, feature: u8) -> (f32, f32) {
    let port = tiledef::Port::ALL
        .into_iter()
        .find(|p| o.ports[p.index()] == feature);
    match port {
        Some(p) => {
            let at = tilekit_render::geom::port_point(p);
            (0.5 + (at.x - 0.5) * 0.7, 0.5 + (at.y - 0.5) * 0.7)
        }
        None => (0.5, 0.5),
    }
}

/// A turn's events in words (`tilekit play` prints the same lines), a figure named by where it
/// stands on the tile just placed (`deploys a follower on the field NNE E SSE`), a feature of
/// another tile by that tile on `game`'s board (at that turn or later: tiles never move), a
/// creature or a figure that moves on by its name among those of `game`'s sets, and the figure
/// the turn's move named (`Replay::named`) by where it stood.
pub fn turn_text(
    game: &engine::Game<'_>,
    events: &[Event],
    named: Option<&NamedFigure>,
) -> Vec<String> {
    let (tables, board, sets) = (game.tables(), game.board(), &game.rules().sets);
    let mut placed = None;
    (events.iter())
        .filter_map(|e| {
            if let Event::Placed { kind, rotation, .. } = *e {
                let kind = tables.kind(kind);
                placed = (kind.orients.iter())
                    .map(|&o| &tables.orients[usize::from(o)])
                    .find(|o| o.rotation == rotation);
            }
            event_text((tables, sets), board, e, placed, named)
        })
        .collect()
}

/// A game event in words; `None` for the end of the game. `placed`: the orientation of the
/// turn's tile, which a deploy's feature index is local to.
fn event_text(
    (tables, sets): (&Tables, &[String]),
    board: &Board,
    e: &Event,
    placed: Option<&engine::tables::Orient>,
    named: Option<&NamedFigure>,
) -> Option<String> {
    let on = |feature: u8, kind: &str| match placed {
        Some(o) => engine::game::describe_feature(tables, o, feature),
        None => format!("{kind} (feature {feature})"),
    };
    let tile = |k: KindId| tables.kind(k).id.clone();
    match e {
        Event::SetAside { kind } => Some(format!("  {} fits nowhere: set aside", tile(*kind))),
        Event::Placed {
            player,
            kind,
            x,
            y,
            rotation,
        } => Some(format!(
            "P{} places {} at ({x}, {y}) rotated {rotation}",
            player + 1,
            tile(*kind)
        )),
        Event::Deployed {
            player,
            kind,
            feature,
            figure,
        } => Some(format!(
            "  P{} deploys {} on the {}",
            player + 1,
            engine::rules::figure_words(tables, *figure),
            on(*feature, &tables.feature(*kind).id)
        )),
        Event::Scored(s) => Some(format!(
            "  {} {} at ({}, {}): {}",
            if s.is_final() { "final" } else { "scored" },
            s.kind.name(tables),
            s.at.0,
            s.at.1,
            s.describe(tables)
        )),
        Event::Returned {
            player,
            figure,
            follower,
            x,
            y,
            kind,
            ..
        } => Some(format!(
            "  P{}'s {} goes home from the {} at ({x}, {y}) (no scoring)",
            player + 1,
            match (figure, follower.set_index()) {
                (FigureKind::Follower, Some(k)) => tables.followers[k].name.to_lowercase(),
                _ => figure.name().to_string(),
            },
            tables.feature(*kind).id
        )),
        Event::Action {
            player,
            action,
            target,
        } => {
            let words = match *target {
                Target::Feature(feature) => on(feature, "feature"),
                Target::Spot { x, y, feature } | Target::Deploy { x, y, feature, .. } => {
                    spot_words(tables, board, x, y, feature)
                }
                Target::Figure(i) => match named {
                    Some(n) => named_words(tables, board, n),
                    None => target_words(tables, Target::Figure(i)),
                },
                other => target_words(tables, other),
            };
            Some(format!(
                "  {}",
                fill(
                    &action.event_words(tables, sets, *target),
                    Some(*player),
                    &words
                )
            ))
        }
        Event::Declined { player, action } => Some(
            (action.info().decline_words)
                .replace("{player}", &format!("P{}", player + 1))
                .to_string(),
        ),
        Event::Module(event) => Some(format!("  {}", event.words())),
        Event::GameOver { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bundled sets, compiled.
    fn bundled() -> Arc<Tables> {
        let tileset = tiledef::load(tiledef::bundled()).tileset.expect("valid");
        Arc::new(engine::compile(&tileset).expect("compiles"))
    }

    #[test]
    fn the_view_shows_where_each_creature_stands() {
        let tables = bundled();
        let seats = vec![Seat::Bot(Strategy::Random), Seat::Bot(Strategy::Random)];
        let choice = GameChoice {
            sets: vec!["base".into(), "princess-and-dragon".into()],
            ..GameChoice::default()
        };
        let mut game = Session::new(tables, seats, 3, choice).expect("a game");
        let mut seen = std::collections::BTreeSet::new();
        while game.bot_to_move().expect("replays").is_some() {
            game.bot_turn().expect("a bot's turn");
            let view = game.view().expect("a view");
            for c in &view.creatures {
                let on_a_tile = (view.board.iter()).any(|t| (t.x, t.y) == (c.x, c.y));
                assert!(on_a_tile, "{} at ({}, {}) off the board", c.id, c.x, c.y);
                seen.insert((c.id.clone(), c.name.clone()));
            }
        }
        let ids: Vec<&str> = seen.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["dragon", "fairy"], "{seen:?}");
    }
}
