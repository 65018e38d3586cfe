//! `tilekit simulate`: random legal games across all cores, with a progress bar; reports
//! games/s, score statistics, points by source (features, flowers, windmills, marketplace
//! networks, wells), the expansions' actions (Festival returns, donkey moves, windmills) and the
//! tiles that could not be placed. The rules follow the sets in the bag unless a flag says
//! otherwise; the report's first line (and `rules` in `--json`) says which are in play.

use crate::inputs::{Inputs, load_valid};
use clap::Args;
use engine::FeatureKind;
use engine::simulate::{SimOptions, SimStats};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

/// Examples shown by `tilekit simulate --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit simulate --games 100000 --players 2 --seed 1
  tilekit simulate --games 1000 --players greedy,random
  tilekit simulate --games 200 --players mcts:500,greedy
  tilekit simulate my-set.toml definitions/base.toml --games 10000 --json";

/// Arguments of `tilekit simulate`.
#[derive(Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// Games to play (1 to a billion).
    #[arg(long, default_value_t = 10_000, value_parser = crate::inputs::games())]
    games: u64,
    /// Players: a number N (N random players, 1–8) or one player per seat, comma-separated:
    /// `random`, `greedy` (best immediate value), `mcts` (500 playouts per move) or `mcts:N`.
    #[arg(long, default_value = "2", value_parser = crate::inputs::seats)]
    players: crate::inputs::Seats,
    /// Seed: the same seed gives the same statistics.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only these tile sets in the bag (comma-separated ids; default: all loaded).
    #[arg(long, value_delimiter = ',')]
    sets: Vec<String>,
    /// Edition id for the counts (default: the newest).
    #[arg(long)]
    edition: Option<String>,
    /// Play only this many tiles of each shuffled bag, the start tile included (default: all).
    #[arg(long, value_parser = crate::inputs::tiles())]
    tiles: Option<usize>,
    /// First-edition rule: a completed 2-tile city scores 2.
    #[arg(long)]
    first_edition_small_city: bool,
    /// The Wells: +1 per well on a scored road.
    #[arg(long)]
    wells: bool,
    /// A monastery's flowers are those of its 3×3 range (default: its own tile).
    #[arg(long)]
    monastery_flowers_3x3: bool,
    /// Turn the Festival's return off.
    #[arg(long)]
    no_festival: bool,
    #[command(flatten)]
    village_life: crate::rules::VillageLifeArgs,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `tilekit simulate`.
pub fn run(args: &SimulateArgs) -> miette::Result<ExitCode> {
    let Ok(tileset) = load_valid(&args.inputs)? else {
        return Ok(ExitCode::from(1));
    };
    let tables = crate::inputs::compile_tables(&tileset)?;
    let mut rules = engine::RuleOptions {
        first_edition_small_city: args.first_edition_small_city,
        wells: args.wells,
        monastery_flowers_3x3: args.monastery_flowers_3x3,
        festival: !args.no_festival,
        ..Default::default()
    };
    args.village_life.apply(&mut rules);
    let seats = &args.players.0;
    let players = seats.len() as u8;
    let opts = SimOptions {
        games: args.games,
        players,
        seats: seats.clone(),
        seed: args.seed,
        sets: args.sets.clone(),
        edition: args.edition.clone(),
        rules,
        tiles: args.tiles,
    };
    // Check the options once before fanning out; the rules in play are the same in every game
    // (they follow the sets of the whole bag, not its shuffle).
    let rules = match engine::Game::new(
        &tables,
        engine::GameOptions {
            sets: opts.sets.clone(),
            edition: opts.edition.clone(),
            players: opts.players,
            rules: opts.rules.clone(),
            draw: engine::Draw::Seed(0),
            tiles: opts.tiles,
        },
        &mut Vec::new(),
    ) {
        Ok(game) => game.rules().clone(),
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let bar = if args.json || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.games)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let stats = engine::simulate::run(&tables, &opts, &|n| bar.inc(n))
        .map_err(|e| miette::miette!("{e}"))?;
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let rate = stats.games as f64 / elapsed.max(1e-9);
    if args.json {
        let value = serde_json::json!({
            "games": stats.games,
            "players": players,
            "seats": seats.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "seed": args.seed,
            "rules": rules,
            "threads": rayon::current_num_threads(),
            "seconds": elapsed,
            "games_per_second": rate,
            "mean_score": (0..players as usize).map(|p| stats.mean(p)).collect::<Vec<_>>(),
            "win_rate": (0..players as usize).map(|p| stats.win_rate(p)).collect::<Vec<_>>(),
            "stddev_score": (0..players as usize).map(|p| stats.stddev(p)).collect::<Vec<_>>(),
            "points_per_game": FeatureKind::ALL.iter().map(|k| (k.name(), stats.points_per_game(*k))).collect::<std::collections::BTreeMap<_, _>>(),
            "points_per_game_by_source": sources(&stats).into_iter().map(|(k, v)| (k, v as f64 / stats.games.max(1) as f64)).collect::<std::collections::BTreeMap<_, _>>(),
            "festival_returns_per_game": stats.festival_returns as f64 / stats.games.max(1) as f64,
            "donkey_moves_per_game": stats.donkey_moves as f64 / stats.games.max(1) as f64,
            "windmills_placed_per_game": stats.windmills_placed as f64 / stats.games.max(1) as f64,
            "tiles_set_aside_per_game": stats.set_aside as f64 / stats.games.max(1) as f64,
            "set_aside_by_tile": set_aside(&tables, &stats).into_iter().collect::<std::collections::BTreeMap<_, _>>(),
            "stats": stats,
        });
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        )?;
    } else {
        crate::outln!("rules: {rules}")?;
        crate::out!("{}", report(&tables, &stats, seats, elapsed))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Points by source: each feature kind's base points (wells taken out of roads), then the
/// bonuses.
fn sources(stats: &SimStats) -> Vec<(&'static str, u64)> {
    let k = |kind: FeatureKind| stats.points_by_kind[kind.index()];
    vec![
        (
            "roads",
            k(FeatureKind::Road) - stats.well_points.min(k(FeatureKind::Road)),
        ),
        ("cities", k(FeatureKind::City)),
        ("monasteries", k(FeatureKind::Monastery)),
        ("fields", k(FeatureKind::Field)),
        ("flowers", stats.flower_points),
        ("windmills", k(FeatureKind::Windmill)),
        ("marketplace networks", stats.network_points),
        ("wells", stats.well_points),
    ]
}

fn set_aside(tables: &engine::Tables, stats: &SimStats) -> Vec<(String, u64)> {
    tables
        .kinds
        .iter()
        .zip(&stats.set_aside_by_kind)
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| (k.id.clone(), *n))
        .collect()
}

/// The text report.
fn report(
    tables: &engine::Tables,
    stats: &SimStats,
    seats: &[engine::players::Strategy],
    elapsed: f64,
) -> String {
    let players = seats.len();
    let mut out = String::new();
    let g = stats.games.max(1) as f64;
    let _ = writeln!(
        out,
        "{} games of {players} players in {elapsed:.2} s on {} threads: {:.0} games/s",
        stats.games,
        rayon::current_num_threads(),
        stats.games as f64 / elapsed.max(1e-9)
    );
    let _ = writeln!(
        out,
        "tiles placed per game {:.1}; scorings per game {:.1}",
        stats.tiles_placed as f64 / g,
        stats.scorings as f64 / g
    );
    for (p, seat) in seats.iter().enumerate() {
        let _ = writeln!(
            out,
            "seat {} ({seat}): mean score {:.1} (sd {:.1}), wins {:.1}%, win rate {:.3} (shared wins split)",
            p + 1,
            stats.mean(p),
            stats.stddev(p),
            100.0 * stats.wins[p] as f64 / g,
            stats.win_rate(p)
        );
    }
    let _ = writeln!(
        out,
        "scores range {}–{}; shared wins in {:.1}% of games",
        stats.score_min,
        stats.score_max,
        100.0 * stats.ties as f64 / g
    );
    let by_source = sources(stats);
    let total: u64 = by_source.iter().map(|(_, v)| v).sum();
    let _ = writeln!(out, "points per game by source:");
    for (name, pts) in &by_source {
        let _ = writeln!(
            out,
            "  {:<21} {:>6.1}  ({:.1}%)",
            name,
            *pts as f64 / g,
            100.0 * *pts as f64 / total.max(1) as f64
        );
    }
    let _ = writeln!(
        out,
        "per game: {:.2} Festival returns, {:.2} donkey moves, {:.2} windmills placed",
        stats.festival_returns as f64 / g,
        stats.donkey_moves as f64 / g,
        stats.windmills_placed as f64 / g
    );
    let _ = writeln!(
        out,
        "tiles set aside: {} ({:.3} per game)",
        stats.set_aside,
        stats.set_aside as f64 / g
    );
    for (id, n) in set_aside(tables, stats) {
        let _ = writeln!(out, "  {id:<10} could not be placed {n} times");
    }
    out
}
