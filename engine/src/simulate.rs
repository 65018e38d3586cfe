//! Random playouts: uniform over the legal placements of each drawn tile, then uniform over the
//! follower choices (including none); games with a player per seat (`crate::players`); and the
//! statistics of many of them, played across all cores. Game `i` of a run with seed `s` is seeded from `(s, i)` alone, so results do not
//! depend on the number of threads.

use crate::game::{
    Draw, Event, Game, GameOptions, GameStats, IllegalMove, Move, Phase, Setup, SetupError,
};
use crate::ids::FeatureKindId;
pub use crate::players::random::{choose_action, play_out};
use crate::players::{Player, Strategy};
use crate::record::{GameSpec, Record, Turn};
use crate::rng::Rng;
use crate::rules::{RuleSource, Target};
use crate::state::{KeyedStats, keyed};
use crate::tables::Tables;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// A game's win, in the units of `SimStats::win_shares`: divisible by every number of winners
/// (1 to 8).
pub const WIN_SHARE: u64 = 840;

/// Why a simulation stopped.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The options are wrong.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The engine refused a move it listed as legal (an engine defect).
    #[error("the engine refused a move it listed as legal: {0}")]
    Refused(IllegalMove),
}

/// Plays a random game of a setup with the draw of `seed` to its end, with reusable buffers;
/// `events` collects every event.
pub fn play_random<'t>(
    setup: &Setup<'t>,
    seed: u64,
    rng: &mut Rng,
    moves: &mut Vec<Move>,
    events: &mut Vec<Event>,
) -> Result<Game<'t>, SimError> {
    let mut game = setup.game(seed, events);
    play_out(&mut game, rng, moves, events)?;
    Ok(game)
}

/// Plays a game of a setup with the draw of `seed` and one player per seat (`seats[p]` plays
/// seat `p`); `events` collects every event.
pub fn play_seats<'t>(
    setup: &Setup<'t>,
    seed: u64,
    seats: &mut [Player],
    rng: &mut Rng,
    events: &mut Vec<Event>,
) -> Result<Game<'t>, SimError> {
    let mut game = setup.game(seed, events);
    while game.phase() != Phase::Over {
        let seat = &mut seats[game.to_move() as usize % seats.len()];
        let Some(mv) = seat.choose(&game, rng) else {
            break;
        };
        game.apply(mv, events).map_err(SimError::Refused)?;
    }
    Ok(game)
}

/// Plays a random game and returns its record and all its events.
pub fn play_random_record(
    tables: &Tables,
    spec: GameSpec,
    rng: &mut Rng,
) -> Result<(Record, Vec<Event>, Vec<u32>), SimError> {
    let record = Record {
        game: spec,
        turns: Vec::new(),
        expect: None,
    };
    let options = record.options().map_err(|_| SetupError::Players(0))?;
    let mut events = Vec::new();
    let mut game = Game::new(tables, options, &mut events)?;
    let mut turns = Vec::new();
    let mut moves = Vec::new();
    while let Phase::Place(kind) = game.phase() {
        game.legal_moves(&mut moves);
        let first = moves[rng.below(moves.len())];
        game.apply(first, &mut events).map_err(SimError::Refused)?;
        let reserve = match first {
            Move::Place { .. } => None,
            Move::Action {
                target: Target::At { x, y },
                ..
            } => Some(Some([x, y])),
            Move::Pass => Some(None),
            _ => return Err(SimError::Refused(IllegalMove::PlaceFirst)),
        };
        if reserve == Some(None) {
            turns.push(Turn::of_reserve(&game, None, Move::Pass));
            continue;
        }
        let Some(second) = choose_action(&game, rng, &mut moves) else {
            break;
        };
        let mut turn = match (first, reserve) {
            (Move::Place { x, y, rotation }, _) => Turn::of(&game, kind, (x, y, rotation), second),
            (_, at) => Turn::of_reserve(&game, at.flatten(), second),
        };
        game.apply(second, &mut events).map_err(SimError::Refused)?;
        while let Phase::Choose { .. } = game.phase() {
            let Some(choice) = choose_action(&game, rng, &mut moves) else {
                break;
            };
            turn.add_choice(&game, choice);
            game.apply(choice, &mut events).map_err(SimError::Refused)?;
        }
        turns.push(turn);
    }
    let scores = game.core.scores.clone();
    Ok((Record { turns, ..record }, events, scores))
}

/// What a simulation run is.
#[derive(Clone, Debug, Default)]
pub struct SimOptions {
    /// Games to play.
    pub games: u64,
    /// Players per game.
    pub players: u8,
    /// Run seed.
    pub seed: u64,
    /// Tile sets in the bag (empty: all).
    pub sets: Vec<String>,
    /// Edition (None: the newest).
    pub edition: Option<String>,
    /// Rule options.
    pub rules: crate::game::RuleOptions,
    /// Tiles per game, the start tile included (None: the whole bag).
    pub tiles: Option<usize>,
    /// The start tile's id (None: chosen from the sets, see `crate::draw::plan`).
    pub start: Option<String>,
    /// How each seat plays (empty: every seat random, the fast path).
    pub seats: Vec<Strategy>,
}

/// Statistics of a simulation run (sums; divide by `games` for means). Its JSON form is
/// `SimStats::keyed`; its serde form (indices, not ids) is what a study's slice carries. Every
/// sum is an integer, so slices merged in any grouping give the one run's figures exactly.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SimStats {
    /// Games played.
    pub games: u64,
    /// Tiles placed (the start tile excluded).
    pub tiles_placed: u64,
    /// Sum of scores by seat.
    pub score_sum: Vec<u64>,
    /// Sum of squared scores by seat.
    pub score_sq_sum: Vec<u64>,
    /// Lowest score of any player.
    pub score_min: u32,
    /// Highest score of any player.
    pub score_max: u32,
    /// Wins by seat (shared wins count for each winner).
    pub wins: Vec<u64>,
    /// Wins by seat with shared wins split, in `WIN_SHARE`ths of a game (exact, so sums do
    /// not depend on the order games finish in).
    pub win_shares: Vec<u64>,
    /// Games with a shared win.
    pub ties: u64,
    /// The games' own sums (`Game::stats`: points by source, the expansions' actions, tiles
    /// set aside), added up.
    pub sums: GameStats,
    /// Per tile kind (indexed like `Tables::kinds`): times drawn and set aside.
    pub set_aside_by_kind: Vec<u64>,
    /// Score events.
    pub scorings: u64,
}

/// A run's sums, as programs read them (`simulate --json`'s `stats`): the run's own, the
/// games' beside them, each per-kind, per-marker, per-figure and per-tile figure keyed by id.
/// Per-seat figures stay arrays, seat 1 first: a seat has no id but its place in the turn
/// order.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SimSums {
    /// Games played.
    pub games: u64,
    /// Tiles placed (the start tile excluded).
    pub tiles_placed: u64,
    /// Sum of scores by seat.
    pub score_sum: Vec<u64>,
    /// Sum of squared scores by seat.
    pub score_sq_sum: Vec<u64>,
    /// Lowest score of any player (4294967295 when no game was played).
    pub score_min: u32,
    /// Highest score of any player.
    pub score_max: u32,
    /// Wins by seat (shared wins count for each winner).
    pub wins: Vec<u64>,
    /// Wins by seat with shared wins split, in 840ths of a game (`WIN_SHARE`).
    pub win_shares: Vec<u64>,
    /// Games with a shared win.
    pub ties: u64,
    /// The games' own sums, their fields beside these.
    #[serde(flatten)]
    pub sums: KeyedStats,
    /// Times each tile was drawn and set aside, by tile id (every tile of the tables).
    pub set_aside_by_kind: BTreeMap<String, u64>,
    /// Score events.
    pub scorings: u64,
}

/// Adds one game's (or run's) sums into a run's.
fn add_stats(sum: &mut GameStats, game: &GameStats) {
    // Destructured, so that a field added to `GameStats` cannot be left out of the sum.
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
        action_points,
    } = game;
    add_all(&mut sum.points_by_kind, points_by_kind);
    add_all(&mut sum.rule_points, rule_points);
    add_all(&mut sum.modifier_points, modifier_points);
    add_all(&mut sum.marker_points, marker_points);
    add_all(&mut sum.good_points, good_points);
    add_all(&mut sum.deployed, deployed);
    add_all(&mut sum.figure_points, figure_points);
    add_all(&mut sum.recalls, recalls);
    sum.extra_tiles += extra_tiles;
    sum.set_aside += set_aside;
    add_all(&mut sum.actions, actions);
    add_all(&mut sum.corner_points, corner_points);
    add_all(&mut sum.creature_points, creature_points);
    add_all(&mut sum.action_points, action_points);
}

/// Adds `b` into `a` entry by entry (growing `a` to `b`'s length).
fn add_all<T: Copy + Default + std::ops::AddAssign>(a: &mut Vec<T>, b: &[T]) {
    if a.len() < b.len() {
        a.resize(b.len(), T::default());
    }
    for (x, &y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

impl SimStats {
    /// Empty statistics for games of `players` players and `kinds` tile kinds.
    pub fn new(players: u8, kinds: usize) -> SimStats {
        SimStats {
            score_sum: vec![0; players as usize],
            score_sq_sum: vec![0; players as usize],
            wins: vec![0; players as usize],
            win_shares: vec![0; players as usize],
            set_aside_by_kind: vec![0; kinds],
            score_min: u32::MAX,
            ..SimStats::default()
        }
    }

    fn add_game(&mut self, game: &Game<'_>, scorings: u64) {
        self.games += 1;
        self.tiles_placed += game.core.board.placed.len() as u64 - 1;
        let best = game.core.scores.iter().copied().max().unwrap_or(0);
        let winners = game.core.scores.iter().filter(|&&s| s == best).count();
        if winners > 1 {
            self.ties += 1;
        }
        for (p, &s) in game.core.scores.iter().enumerate() {
            self.score_sum[p] += u64::from(s);
            self.score_sq_sum[p] += u64::from(s) * u64::from(s);
            self.score_min = self.score_min.min(s);
            self.score_max = self.score_max.max(s);
            if s == best {
                self.wins[p] += 1;
                self.win_shares[p] += WIN_SHARE / winners as u64;
            }
        }
        add_stats(&mut self.sums, &game.core.stats);
        for &k in &game.core.set_aside {
            self.set_aside_by_kind[k.index()] += 1;
        }
        self.scorings += scorings;
    }

    /// These statistics keyed by id (`SimSums`), as `simulate --json` prints them.
    pub fn keyed(&self, tables: &Tables) -> SimSums {
        // Destructured, so that a field added to `SimStats` cannot be left out.
        let SimStats {
            games,
            tiles_placed,
            score_sum,
            score_sq_sum,
            score_min,
            score_max,
            wins,
            win_shares,
            ties,
            sums,
            set_aside_by_kind,
            scorings,
        } = self;
        let tile = |k: usize| tables.kinds.get(k).map_or("", |t| t.id.as_str());
        SimSums {
            games: *games,
            tiles_placed: *tiles_placed,
            score_sum: score_sum.clone(),
            score_sq_sum: score_sq_sum.clone(),
            score_min: *score_min,
            score_max: *score_max,
            wins: wins.clone(),
            win_shares: win_shares.clone(),
            ties: *ties,
            sums: sums.keyed(tables),
            set_aside_by_kind: keyed(set_aside_by_kind, tables.kinds.len(), tile),
            scorings: *scorings,
        }
    }

    /// Mean score of a seat.
    pub fn mean(&self, seat: usize) -> f64 {
        self.score_sum[seat] as f64 / self.games.max(1) as f64
    }

    /// A seat's win rate, 0–1, shared wins split between the winners.
    pub fn win_rate(&self, seat: usize) -> f64 {
        self.win_shares[seat] as f64 / WIN_SHARE as f64 / self.games.max(1) as f64
    }

    /// Standard deviation of a seat's score.
    pub fn stddev(&self, seat: usize) -> f64 {
        let n = self.games.max(1) as f64;
        let m = self.mean(seat);
        (self.score_sq_sum[seat] as f64 / n - m * m).max(0.0).sqrt()
    }

    /// Mean points per game of a feature kind (all players together).
    pub fn points_per_game(&self, kind: FeatureKindId) -> f64 {
        let points = self.sums.points_by_kind.get(kind.index()).copied();
        points.unwrap_or(0) as f64 / self.games.max(1) as f64
    }

    /// Mean points per game a rule module's source paid (all players together).
    pub fn rule_points_per_game(&self, source: RuleSource) -> f64 {
        self.sums.points_of(source) as f64 / self.games.max(1) as f64
    }
}

/// What a run gathers from each finished game. A run keeps one per chunk of games and merges
/// them in game order, so what it gathers is the same whatever the thread count, and a run of a
/// million games holds sums, never the games.
pub trait Collect: Send + Sized {
    /// Takes in one finished game and every event it produced.
    fn add(&mut self, game: &Game<'_>, events: &[Event]);
    /// Takes in what was gathered from the games that follow this one's.
    fn merge(&mut self, later: Self);
}

impl Collect for SimStats {
    fn add(&mut self, game: &Game<'_>, events: &[Event]) {
        let scorings = events
            .iter()
            .filter(|e| matches!(e, Event::Scored(_)))
            .count();
        self.add_game(game, scorings as u64);
    }

    fn merge(&mut self, other: SimStats) {
        if self.games == 0 {
            *self = other;
            return;
        }
        if other.games == 0 {
            return;
        }
        self.games += other.games;
        self.tiles_placed += other.tiles_placed;
        for p in 0..self.score_sum.len() {
            self.score_sum[p] += other.score_sum[p];
            self.score_sq_sum[p] += other.score_sq_sum[p];
            self.wins[p] += other.wins[p];
            self.win_shares[p] += other.win_shares[p];
        }
        self.score_min = self.score_min.min(other.score_min);
        self.score_max = self.score_max.max(other.score_max);
        self.ties += other.ties;
        add_stats(&mut self.sums, &other.sums);
        for (a, b) in self
            .set_aside_by_kind
            .iter_mut()
            .zip(other.set_aside_by_kind)
        {
            *a += b;
        }
        self.scorings += other.scorings;
    }
}

/// Two collections gathered from the same games.
impl<A: Collect, B: Collect> Collect for (A, B) {
    fn add(&mut self, game: &Game<'_>, events: &[Event]) {
        self.0.add(game, events);
        self.1.add(game, events);
    }

    fn merge(&mut self, later: Self) {
        self.0.merge(later.0);
        self.1.merge(later.1);
    }
}

/// A collection gathered only when there is one.
impl<C: Collect> Collect for Option<C> {
    fn add(&mut self, game: &Game<'_>, events: &[Event]) {
        if let Some(c) = self {
            c.add(game, events);
        }
    }

    fn merge(&mut self, later: Self) {
        match (self.as_mut(), later) {
            (Some(c), Some(l)) => c.merge(l),
            (None, l) => *self = l,
            (Some(_), None) => {}
        }
    }
}

impl SimOptions {
    /// The options of the run's games (each game draws with its own seed).
    pub fn game_options(&self) -> GameOptions {
        GameOptions {
            sets: self.sets.clone(),
            edition: self.edition.clone(),
            players: self.players,
            rules: self.rules.clone(),
            draw: Draw::Seed(0),
            tiles: self.tiles,
            start: self.start.clone(),
        }
    }
}

/// Plays games `range` of a run on this thread.
pub fn run_serial(
    tables: &Tables,
    opts: &SimOptions,
    range: std::ops::Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimStats, SimError> {
    let stats = SimStats::new(opts.players, tables.kinds.len());
    let setup = Setup::new(tables, opts.game_options())?;
    collect_serial(&setup, opts, range, stats, progress)
}

/// Plays games `range` of a run (of `setup`, made from `opts`) on this thread, each given to
/// `collect`.
pub fn collect_serial<C: Collect>(
    setup: &Setup<'_>,
    opts: &SimOptions,
    range: std::ops::Range<u64>,
    mut collect: C,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<C, SimError> {
    let mut moves = Vec::with_capacity(256);
    let mut events = Vec::with_capacity(256);
    let mut pending = 0;
    // Bots hold buffers between moves; all-random runs take the playouts' fast path.
    let mut seats: Vec<Player> = if opts.seats.iter().all(|&s| s == Strategy::Random) {
        Vec::new()
    } else {
        opts.seats.iter().map(|&s| Player::new(s)).collect()
    };
    // Bot games are slow: report each one.
    let every = if seats.is_empty() { 64 } else { 1 };
    for i in range {
        let mut rng = Rng::for_game(opts.seed, i);
        events.clear();
        let seed = rng.next_u64();
        let game = if seats.is_empty() {
            play_random(setup, seed, &mut rng, &mut moves, &mut events)?
        } else {
            play_seats(setup, seed, &mut seats, &mut rng, &mut events)?
        };
        collect.add(&game, &events);
        pending += 1;
        if pending == every {
            progress(pending);
            pending = 0;
        }
    }
    progress(pending);
    Ok(collect)
}

/// Plays `opts.games` random games across all cores; `progress` is told of finished games.
pub fn run(
    tables: &Tables,
    opts: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimStats, SimError> {
    run_collect(
        tables,
        opts,
        &|| SimStats::new(opts.players, tables.kinds.len()),
        progress,
    )
}

/// Plays `opts.games` games across all cores, each given to a collection made by `new` (one
/// per chunk of games, merged in game order).
pub fn run_collect<C: Collect>(
    tables: &Tables,
    opts: &SimOptions,
    new: &(dyn Fn() -> C + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<C, SimError> {
    run_collect_range(tables, opts, 0..opts.games, new, progress)
}

/// Plays games `range` of a run across all cores, as `run_collect` plays them: the run's own
/// chunks cut to the range, so a range that starts at a chunk boundary groups its games as the
/// whole run does.
pub fn run_collect_range<C: Collect>(
    tables: &Tables,
    opts: &SimOptions,
    range: std::ops::Range<u64>,
    new: &(dyn Fn() -> C + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<C, SimError> {
    // Bot games are slow: small chunks keep every core busy to the end. (Chunks change only
    // the order floating-point sums are merged in, never which games are played.)
    let chunk: u64 = if opts.seats.iter().all(|&s| s == Strategy::Random) {
        256
    } else {
        4
    };
    // Chunks are merged in order (a collection's floating-point sums then add up the same way
    // whatever the thread count), a batch at a time, so at most a batch of them are held.
    const BATCH: u64 = 64;
    let (first, end) = (range.start / chunk, range.end.div_ceil(chunk));
    let done = AtomicU64::new(0);
    let tick = |n: u64| {
        done.fetch_add(n, Ordering::Relaxed);
        progress(n);
    };
    let setup = Setup::new(tables, opts.game_options())?;
    let mut total = new();
    for batch in (first..end).step_by(BATCH as usize) {
        let parts: Result<Vec<C>, SimError> = (batch..(batch + BATCH).min(end))
            .into_par_iter()
            .map(|c| {
                let games = (c * chunk).max(range.start)..((c + 1) * chunk).min(range.end);
                collect_serial(&setup, opts, games, new(), &tick)
            })
            .collect();
        for part in parts? {
            total.merge(part);
        }
    }
    Ok(total)
}
