//! Paired A/B runs: game i of a run is played on both sides (the main games, A, and the same
//! study with one change, B) from the same seed, and each game's figures are kept until its
//! twin is played, so that the difference of each game can be summed (`PairSums::d`) as well
//! as each side's own figures. A run holds one chunk of games' figures at a time, never the
//! games.
//!
//! Whether the two sides' games are twins depends on the draw: when both sides shuffle the
//! same tiles in the same order (`same_draw`), game i draws the same tiles on both, and the
//! paired interval applies (`crate::stats`' module doc). The sides may have different tables
//! (another version of a file): their figures are matched by name.

use crate::stats::Moments;
use crate::tally::win_shares;
use engine::simulate::{Collect, SimError, SimOptions, collect_serial};
use engine::{Event, FigureId, Game, Setup, Tables};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// What a figure is measured in (a `--resolve` size in points applies to figures in points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Points.
    Points,
    /// A rate or share, 0–1.
    Rate,
    /// A count (tiles, figures).
    Count,
}

/// Which part of a game a figure describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Group {
    /// The whole game.
    Game,
    /// A seat.
    Seat,
    /// A source of points.
    Source,
    /// A figure (follower kind).
    Figure,
    /// A tile type.
    Tile,
}

/// A figure measured once per game.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    /// Its name in reports (`seat 1: mean score`).
    pub name: String,
    /// What it describes.
    pub group: Group,
    /// What it is measured in.
    pub unit: Unit,
}

impl Metric {
    fn new(name: String, group: Group, unit: Unit) -> Metric {
        Metric { name, group, unit }
    }
}

/// The figures measured per game with these tables and players, in `game_values` order: the
/// game's points, tiles placed and set aside; each seat's score and win share; each source's
/// points (as `simulate` names them); each figure's deployments, and the points of each set
/// figure with a power.
pub fn game_metrics(tables: &Tables, players: u8) -> Vec<Metric> {
    use Group::*;
    let mut out = vec![
        Metric::new("points per game".into(), Game, Unit::Points),
        Metric::new("tiles placed per game".into(), Game, Unit::Count),
        Metric::new("tiles set aside per game".into(), Game, Unit::Count),
    ];
    for seat in 1..=players {
        out.push(Metric::new(
            format!("seat {seat}: mean score"),
            Seat,
            Unit::Points,
        ));
        out.push(Metric::new(
            format!("seat {seat}: win rate"),
            Seat,
            Unit::Rate,
        ));
    }
    let sources = engine::game::GameStats::default().points_by_source(tables);
    for (name, _) in sources {
        let name = format!("points per game from {name}");
        out.push(Metric::new(name, Source, Unit::Points));
    }
    for i in 0..=tables.followers.len() {
        let id = tables.figure_id(FigureId::from_index(i));
        out.push(Metric::new(
            format!("{id}: deployed per game"),
            Figure,
            Unit::Count,
        ));
    }
    for f in tables.followers.iter().filter(|f| f.power.is_some()) {
        let name = format!("{}: points per game from its power", f.id);
        out.push(Metric::new(name, Figure, Unit::Points));
    }
    out
}

/// Appends one finished game's figures, in `game_metrics` order (the values the tally adds
/// up, so both reckon alike).
pub fn game_values(game: &Game<'_>, out: &mut Vec<f64>) {
    let tables = game.tables();
    let stats = game.stats();
    let total: u64 = game.scores().iter().map(|&s| u64::from(s)).sum();
    out.push(total as f64);
    out.push(game.board().placed.len().saturating_sub(1) as f64);
    out.push(stats.set_aside as f64);
    let wins = win_shares(game.scores());
    for (&score, win) in game.scores().iter().zip(wins) {
        out.push(f64::from(score));
        out.push(win);
    }
    out.extend(stats.source_points(tables).into_iter().map(|v| v as f64));
    for i in 0..=tables.followers.len() {
        out.push(stats.deployed.get(i).copied().unwrap_or(0) as f64);
    }
    for (k, _) in (tables.followers.iter().enumerate()).filter(|(_, f)| f.power.is_some()) {
        out.push(stats.figure_points.get(k).copied().unwrap_or(0) as f64);
    }
}

/// The figures of a chunk of games, game after game (`width` values each), kept until their
/// twins on the other side are played.
#[derive(Clone, Debug, Default)]
pub struct Rows {
    /// Values per game.
    pub width: usize,
    /// The games' values, in game order.
    pub values: Vec<f64>,
}

impl Collect for Rows {
    fn add(&mut self, game: &Game<'_>, _: &[Event]) {
        let before = self.values.len();
        game_values(game, &mut self.values);
        self.width = self.values.len() - before;
    }

    fn merge(&mut self, later: Rows) {
        self.width = self.width.max(later.width);
        self.values.extend(later.values);
    }
}

/// Both sides' per-game figures summed, and their per-game differences (A − B), over the
/// union of the two sides' figures (a figure one side lacks is 0 there: a source that paid
/// nothing, a figure never deployed).
#[derive(Clone, Debug, PartialEq)]
pub struct PairSums {
    /// The figures: A's, then B's that A lacks.
    pub metrics: Vec<Metric>,
    /// Side A's values per game.
    pub a: Vec<Moments>,
    /// Side B's values per game.
    pub b: Vec<Moments>,
    /// The differences a_i − b_i of game i.
    pub d: Vec<Moments>,
    at_a: Vec<usize>,
    at_b: Vec<usize>,
}

impl PairSums {
    /// Empty sums for sides measuring `a` and `b`.
    pub fn new(a: &[Metric], b: &[Metric]) -> PairSums {
        let mut metrics: Vec<Metric> = a.to_vec();
        let at_b = (b.iter())
            .map(|m| match metrics.iter().position(|x| x.name == m.name) {
                Some(i) => i,
                None => {
                    metrics.push(m.clone());
                    metrics.len() - 1
                }
            })
            .collect();
        let n = metrics.len();
        PairSums {
            metrics,
            a: vec![Moments::default(); n],
            b: vec![Moments::default(); n],
            d: vec![Moments::default(); n],
            at_a: (0..a.len()).collect(),
            at_b,
        }
    }

    /// Adds the games of `a` and their twins in `b`, game by game (a game without a twin, on
    /// a side that stopped early, is left out of both).
    pub fn add(&mut self, a: &Rows, b: &Rows) {
        let n = self.metrics.len();
        let (mut x, mut y) = (vec![0.0; n], vec![0.0; n]);
        let games_a = a.values.chunks_exact(a.width.max(1));
        let games_b = b.values.chunks_exact(b.width.max(1));
        for (ga, gb) in games_a.zip(games_b) {
            x.fill(0.0);
            y.fill(0.0);
            for (&i, &v) in self.at_a.iter().zip(ga) {
                x[i] = v;
            }
            for (&i, &v) in self.at_b.iter().zip(gb) {
                y[i] = v;
            }
            for i in 0..n {
                self.a[i].add(x[i]);
                self.b[i].add(y[i]);
                self.d[i].add(x[i] - y[i]);
            }
        }
    }

    /// Games paired.
    pub fn games(&self) -> u64 {
        self.d.first().map_or(0, |m| m.n)
    }
}

/// One side of a paired run.
#[derive(Clone, Copy)]
pub struct Side<'t> {
    /// Its tables.
    pub tables: &'t Tables,
    /// Its games (both sides play the same number of games from the same seed).
    pub opts: &'t SimOptions,
}

/// What a paired run gathered.
pub struct PairRun<A, B> {
    /// Side A's collection.
    pub a: A,
    /// Side B's collection.
    pub b: B,
    /// Both sides' per-game figures and their differences.
    pub sums: PairSums,
    /// Wall-clock seconds side A's games took (B's excluded).
    pub a_seconds: f64,
}

/// Plays games 0..n of side A and of side B across all cores, each side's
/// given to its collection (one per chunk, merged in game order as `run_collect` merges them,
/// so side A's collection is what a run of A alone gathers), and pairs game i of A with game i
/// of B. A batch of chunks is played on A, then on B, then paired.
pub fn run_pair<A: Collect, B: Collect>(
    a: Side<'_>,
    b: Side<'_>,
    new_a: &(dyn Fn() -> A + Sync),
    new_b: &(dyn Fn() -> B + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<PairRun<A, B>, SimError> {
    // The chunking of `engine::simulate::run_collect`, so floating-point sums merge alike.
    let random = a
        .opts
        .seats
        .iter()
        .all(|&s| s == engine::players::Strategy::Random);
    let chunk: u64 = if random { 256 } else { 4 };
    const BATCH: u64 = 64;
    let games = a.opts.games;
    let chunks = games.div_ceil(chunk);
    let done = AtomicU64::new(0);
    let tick = |n: u64| {
        done.fetch_add(n, Ordering::Relaxed);
        progress(n);
    };
    let setup_a = Setup::new(a.tables, a.opts.game_options())?;
    let setup_b = Setup::new(b.tables, b.opts.game_options())?;
    // Both sides play A's number of games; B keeps its own seed, which is A's when it is the
    // same study with one change (a test pairs other seeds to see the null hypothesis hold).
    let b_opts = SimOptions {
        games,
        ..b.opts.clone()
    };
    let mut run = PairRun {
        a: new_a(),
        b: new_b(),
        sums: PairSums::new(
            &game_metrics(a.tables, a.opts.players),
            &game_metrics(b.tables, b.opts.players),
        ),
        a_seconds: 0.0,
    };
    for batch in (0..chunks).step_by(BATCH as usize) {
        let range = |c: u64| c * chunk..((c + 1) * chunk).min(games);
        let chunks = batch..(batch + BATCH).min(chunks);
        let start = Instant::now();
        let parts_a: Result<Vec<(A, Rows)>, SimError> = (chunks.clone().into_par_iter())
            .map(|c| {
                let collect = (new_a(), Rows::default());
                collect_serial(&setup_a, a.opts, range(c), collect, &tick)
            })
            .collect();
        run.a_seconds += start.elapsed().as_secs_f64();
        let parts_b: Result<Vec<(B, Rows)>, SimError> = (chunks.into_par_iter())
            .map(|c| {
                let collect = (new_b(), Rows::default());
                collect_serial(&setup_b, &b_opts, range(c), collect, &tick)
            })
            .collect();
        for ((pa, ra), (pb, rb)) in parts_a?.into_iter().zip(parts_b?) {
            run.sums.add(&ra, &rb);
            run.a.merge(pa);
            run.b.merge(pb);
        }
    }
    Ok(run)
}

/// Whether both sides draw the same tiles in the same order from every seed: the same start
/// tile and the same bag, tile for tile by id, before the shuffle, and the same shuffles of a
/// few seeds (a bag laid out in other segments shuffles otherwise). A side that cannot be set
/// up draws nothing alike.
pub fn same_draw(a: Side<'_>, b: Side<'_>) -> bool {
    let prepare = |s: Side<'_>| engine::draw::prepare(s.tables, &s.opts.game_options()).ok();
    let (Some(pa), Some(pb)) = (prepare(a), prepare(b)) else {
        return false;
    };
    let ids = |t: &Tables, kinds: &[engine::KindId]| -> Vec<String> {
        kinds.iter().map(|&k| t.kind(k).id.clone()).collect()
    };
    let start = |t: &Tables, p: &engine::draw::Prepared| t.kind(p.start).id.clone();
    start(a.tables, &pa) == start(b.tables, &pb)
        && ids(a.tables, &pa.bag) == ids(b.tables, &pb.bag)
        && a.opts.tiles == b.opts.tiles
        && (1..=4u64).all(|seed| {
            ids(a.tables, &pa.shuffled(seed, None)) == ids(b.tables, &pb.shuffled(seed, None))
        })
}
