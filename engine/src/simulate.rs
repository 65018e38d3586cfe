//! Random playouts: uniform over the legal placements of each drawn tile, then uniform over the
//! follower choices (including none); games with a player per seat (`crate::players`); and the
//! statistics of many of them, played across all cores. Game `i` of a run with seed `s` is seeded from `(s, i)` alone, so results do not
//! depend on the number of threads.

use crate::game::{Draw, Event, Game, GameOptions, IllegalMove, Move, Phase, SetupError};
pub use crate::players::random::{choose_action, play_out};
use crate::players::{Player, Strategy};
use crate::record::{FeatureRef, GameSpec, Record, Turn, figure_ref};
use crate::rng::Rng;
use crate::tables::{FeatureKind, Tables};
use rayon::prelude::*;
use serde::Serialize;
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

/// Plays a random game to its end with reusable buffers; `events` collects every event.
pub fn play_random<'t>(
    tables: &'t Tables,
    options: GameOptions,
    rng: &mut Rng,
    moves: &mut Vec<Move>,
    events: &mut Vec<Event>,
) -> Result<Game<'t>, SimError> {
    let mut game = Game::new(tables, options, events)?;
    play_out(&mut game, rng, moves, events)?;
    Ok(game)
}

/// Plays a game with one player per seat (`seats[p]` plays seat `p`); `events` collects every
/// event.
pub fn play_seats<'t>(
    tables: &'t Tables,
    options: GameOptions,
    seats: &mut [Player],
    rng: &mut Rng,
    events: &mut Vec<Event>,
) -> Result<Game<'t>, SimError> {
    let mut game = Game::new(tables, options, events)?;
    while game.phase() != Phase::Over {
        let seat = &mut seats[game.current() as usize % seats.len()];
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
        let Move::Place { x, y, rotation } = moves[rng.below(moves.len())] else {
            return Err(SimError::Refused(IllegalMove::PlaceFirst));
        };
        game.apply(Move::Place { x, y, rotation }, &mut events)
            .map_err(SimError::Refused)?;
        let Some(second) = choose_action(&game, rng, &mut moves) else {
            break;
        };
        let return_figure = match second {
            Move::Return { figure } => figure_ref(&game, figure),
            _ => None,
        };
        game.apply(second, &mut events).map_err(SimError::Refused)?;
        turns.push(Turn {
            tile: Some(tables.kinds[kind as usize].id.clone()),
            at: [x, y],
            rotation,
            deploy: match second {
                Move::Deploy { feature } => Some(FeatureRef::Index(feature)),
                _ => None,
            },
            windmill: match second {
                Move::Windmill { feature } => Some(FeatureRef::Index(feature)),
                _ => None,
            },
            return_figure,
            donkey: match second {
                Move::Donkey { x, y } => Some([x, y]),
                _ => None,
            },
        });
    }
    let scores = game.scores.clone();
    Ok((Record { turns, ..record }, events, scores))
}

/// What a simulation run is.
#[derive(Clone, Debug)]
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
    /// How each seat plays (empty: every seat random, the fast path).
    pub seats: Vec<Strategy>,
}

/// Statistics of a simulation run (sums; divide by `games` for means).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
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
    /// Base points by feature kind (city, road, field, monastery, garden, windmill).
    pub points_by_kind: [u64; 6],
    /// Flower bonus points (Village Life).
    pub flower_points: u64,
    /// Marketplace network bonus points (Village Life).
    pub network_points: u64,
    /// Points from wells (part of the road points).
    pub well_points: u64,
    /// Figures returned by the Festival.
    pub festival_returns: u64,
    /// Donkey moves.
    pub donkey_moves: u64,
    /// Windmills placed.
    pub windmills_placed: u64,
    /// Tiles set aside.
    pub set_aside: u64,
    /// Per tile kind (indexed like `Tables::kinds`): times drawn and set aside.
    pub set_aside_by_kind: Vec<u64>,
    /// Score events.
    pub scorings: u64,
}

impl SimStats {
    fn new(players: u8, kinds: usize) -> SimStats {
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
        self.tiles_placed += game.board.placed.len() as u64 - 1;
        let best = game.scores.iter().copied().max().unwrap_or(0);
        let winners = game.scores.iter().filter(|&&s| s == best).count();
        if winners > 1 {
            self.ties += 1;
        }
        for (p, &s) in game.scores.iter().enumerate() {
            self.score_sum[p] += u64::from(s);
            self.score_sq_sum[p] += u64::from(s) * u64::from(s);
            self.score_min = self.score_min.min(s);
            self.score_max = self.score_max.max(s);
            if s == best {
                self.wins[p] += 1;
                self.win_shares[p] += WIN_SHARE / winners as u64;
            }
        }
        for (k, v) in game.stats.points_by_kind.iter().enumerate() {
            self.points_by_kind[k] += v;
        }
        self.flower_points += game.stats.flower_points;
        self.network_points += game.stats.network_points;
        self.well_points += game.stats.well_points;
        self.festival_returns += u64::from(game.stats.festival_returns);
        self.donkey_moves += u64::from(game.stats.donkey_moves);
        self.windmills_placed += u64::from(game.stats.windmills_placed);
        self.set_aside += u64::from(game.stats.set_aside);
        for &k in &game.set_aside {
            self.set_aside_by_kind[k as usize] += 1;
        }
        self.scorings += scorings;
    }

    fn merge(mut self, other: SimStats) -> SimStats {
        if self.games == 0 {
            return other;
        }
        if other.games == 0 {
            return self;
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
        for k in 0..self.points_by_kind.len() {
            self.points_by_kind[k] += other.points_by_kind[k];
        }
        self.flower_points += other.flower_points;
        self.network_points += other.network_points;
        self.well_points += other.well_points;
        self.festival_returns += other.festival_returns;
        self.donkey_moves += other.donkey_moves;
        self.windmills_placed += other.windmills_placed;
        self.set_aside += other.set_aside;
        for (a, b) in self
            .set_aside_by_kind
            .iter_mut()
            .zip(other.set_aside_by_kind)
        {
            *a += b;
        }
        self.scorings += other.scorings;
        self
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
    pub fn points_per_game(&self, kind: FeatureKind) -> f64 {
        self.points_by_kind[kind.index()] as f64 / self.games.max(1) as f64
    }
}

fn game_options(opts: &SimOptions, rng: &mut Rng) -> GameOptions {
    GameOptions {
        sets: opts.sets.clone(),
        edition: opts.edition.clone(),
        players: opts.players,
        rules: opts.rules.clone(),
        draw: Draw::Seed(rng.next_u64()),
        tiles: opts.tiles,
    }
}

/// Plays games `range` of a run on this thread.
pub fn run_serial(
    tables: &Tables,
    opts: &SimOptions,
    range: std::ops::Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimStats, SimError> {
    let mut stats = SimStats::new(opts.players, tables.kinds.len());
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
        let options = game_options(opts, &mut rng);
        let game = if seats.is_empty() {
            play_random(tables, options, &mut rng, &mut moves, &mut events)?
        } else {
            play_seats(tables, options, &mut seats, &mut rng, &mut events)?
        };
        let scorings = events
            .iter()
            .filter(|e| matches!(e, Event::Scored(_)))
            .count();
        stats.add_game(&game, scorings as u64);
        pending += 1;
        if pending == every {
            progress(pending);
            pending = 0;
        }
    }
    progress(pending);
    Ok(stats)
}

/// Plays `opts.games` random games across all cores; `progress` is told of finished games.
pub fn run(
    tables: &Tables,
    opts: &SimOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimStats, SimError> {
    // Bot games are slow: small chunks keep every core busy to the end. (Results do not
    // depend on chunks: game i is seeded from (seed, i) and the sums are exact.)
    let chunk: u64 = if opts.seats.iter().all(|&s| s == Strategy::Random) {
        256
    } else {
        4
    };
    let chunks = opts.games.div_ceil(chunk);
    let done = AtomicU64::new(0);
    let tick = |n: u64| {
        done.fetch_add(n, Ordering::Relaxed);
        progress(n);
    };
    let parts: Result<Vec<SimStats>, SimError> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let range = c * chunk..((c + 1) * chunk).min(opts.games);
            run_serial(tables, opts, range, &tick)
        })
        .collect();
    let mut total = SimStats::new(opts.players, tables.kinds.len());
    for part in parts? {
        total = total.merge(part);
    }
    Ok(total)
}
