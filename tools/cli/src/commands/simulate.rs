//! `tilekit simulate`: random legal games across all cores, with a progress bar; reports
//! games/s, score statistics, points by source (features, flowers, windmills, marketplace
//! networks, each marker kind's scoring modifier and token: wells, inns, cathedrals, goods), the expansions' actions (Festival returns, donkey moves, windmills, every rule module's moves by name) and the
//! tiles that could not be placed. The rules follow the sets in the bag unless a flag says
//! otherwise; the report's first line (and `rules` in `--json`) says which are in play.
//! `--json` prints `SimulateJson`, versioned, its figures keyed by id (its schema:
//! `tilekit schema --of simulate`).
//! `--report DIR` writes a balance report (`tilekit-report`) of the same games and ends the
//! text with its findings; `--compare SETS` also plays the same seeds without those sets and
//! reports what changed; the `--b-…` flags play them with another change (`ab`);
//! `--bot-study BOTS` plays them again with each bot (`bots`).
//! `--shard K/N --out FILE` plays one slice of the study into a slice file (`shard`), and
//! `tilekit merge` joins the slices into what one run prints (`merge`; `docs/cluster.md`).

mod ab;
mod bots;

use crate::inputs::{Inputs, load_valid};
use clap::Args;
use engine::FigureId;
use engine::rules::ActionId;
use engine::simulate::{SimOptions, SimStats, SimSums};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tilekit_report::{RunInfo, Tally};

pub mod merge;
mod shard;

/// Examples shown by `tilekit simulate --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit simulate --games 100000 --players 2 --seed 1
  tilekit simulate --games 1000 --players greedy,random
  tilekit simulate --games 200 --players mcts:500,greedy
  tilekit simulate my-set.toml definitions/base.toml --games 10000 --json
  tilekit simulate --sets base --games 10000 --report out/balance
  tilekit simulate --sets base --compare festival --games 10000 --report out/festival
  tilekit simulate --sets base,river-2 --b-option pig-herd --games 10000
  tilekit simulate my-set.toml --b-rev HEAD~1 --games 10000 --resolve 0.5
  tilekit simulate --games 1000000 --players mcts,greedy --shard 3/40 --out study/slice-3.json
  tilekit merge study/slice-*.json --json     (one run's output; docs/cluster.md)";

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
    /// The start tile's id (default: the first start tile of the sets in draw order, so a
    /// River's spring starts a game it is in).
    #[arg(long, value_name = "TILE")]
    start: Option<String>,
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
    options: crate::rules::OptionArgs,
    #[command(flatten)]
    village_life: crate::rules::VillageLifeArgs,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Write a balance report of the games into this folder: report.html, report.json and
    /// the charts (SVG and PNG).
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// The sets whose tiles the balance report lists first (comma-separated ids; default: your
    /// own, those not bundled with tilekit). An unknown id is refused.
    #[arg(long, value_name = "SETS", value_delimiter = ',', requires = "report")]
    focus: Vec<String>,
    /// Also play the same seeds without these sets (comma-separated ids; they are added to the
    /// bag of the main games if `--sets` leaves them out) and report what changed.
    #[arg(long, value_name = "SETS", value_delimiter = ',')]
    compare: Vec<String>,
    #[command(flatten)]
    ab: Box<ab::AbArgs>,
    /// Bot or rule: play the first `--bot-games` seeds again with each of these bots in every
    /// seat (comma-separated: `greedy`, `mcts` (50 playouts here), `mcts:N`) and report how
    /// each uses your own figures, kinds and markers, side by side.
    #[arg(long, value_name = "BOTS", value_delimiter = ',', requires = "report",
          value_parser = bots::study_bot)]
    bot_study: Vec<engine::players::Strategy>,
    /// Games per bot of `--bot-study` (the run's first seeds).
    #[arg(long, default_value_t = 100, requires = "bot_study",
          value_parser = crate::inputs::games())]
    bot_games: u64,
    /// Play only slice K of N of the games (a contiguous range; each game is the one a single
    /// run plays) and write its sums to `--out` for `tilekit merge`. An `--out` that already
    /// holds this slice of this study is kept, not played again: a study resumes.
    #[arg(long, value_name = "K/N", value_parser = shard::Shard::parse, requires = "out",
          conflicts_with_all = ["json", "report", "compare"])]
    shard: Option<shard::Shard>,
    /// With `--shard`: the slice file to write (atomically).
    #[arg(long, value_name = "FILE", requires = "shard")]
    out: Option<PathBuf>,
}

/// Runs `tilekit simulate`.
pub fn run(args: &SimulateArgs) -> miette::Result<ExitCode> {
    let Ok(tileset) = load_valid(&args.inputs)? else {
        return Ok(ExitCode::from(1));
    };
    let tables = crate::inputs::compile_tables(&tileset)?;
    let Ok(own_sets) = own_sets(args, &tileset)? else {
        return Ok(ExitCode::from(2));
    };
    let mut rules = engine::RuleOptions {
        first_edition_small_city: args.first_edition_small_city,
        modules: engine::ModuleOptions {
            wells: args.wells,
            monastery_flowers_3x3: args.monastery_flowers_3x3,
            festival: !args.no_festival,
            ..Default::default()
        },
        ..Default::default()
    };
    args.village_life.apply(&mut rules);
    args.options.apply(&mut rules);
    let seats = &args.players.0;
    let players = seats.len() as u8;
    let (with, without) = match compare_sets(&tables, &args.sets, &args.compare) {
        Ok(pair) => pair,
        Err(message) => {
            crate::errln!("error: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let opts = SimOptions {
        games: args.games,
        players,
        seats: seats.clone(),
        seed: args.seed,
        sets: with,
        edition: args.edition.clone(),
        rules,
        tiles: args.tiles,
        start: args.start.clone(),
    };
    // Check the options once before fanning out; the rules in play are the same in every game
    // (they follow the sets of the whole bag, not its shuffle).
    let rules = match rules_in_play(&tables, &opts) {
        Ok(rules) => rules,
        Err(e) => {
            crate::errln!("error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    if without.is_some() && args.ab.any() {
        crate::errln!("error: --compare and the --b-… flags are two B sides: give one of them");
        return Ok(ExitCode::from(2));
    }
    let b_side = match without {
        Some(sets) => {
            match ab::without_sets(&tables, &opts, sets, &args.compare, args.ab.resolve()) {
                Ok(b) => Some(b),
                Err(code) => return Ok(code),
            }
        }
        None => match ab::b_side(&args.ab, &args.inputs, &tables, &opts, &rules)? {
            Ok(b) => b,
            Err(code) => return Ok(code),
        },
    };
    if b_side.is_none() && args.ab.resolve().is_some() {
        crate::errln!("error: --resolve needs a B side (--compare SETS or a --b-… flag)");
        return Ok(ExitCode::from(2));
    }
    if let (Some(shard), Some(out)) = (args.shard, &args.out) {
        if b_side.is_some() || !args.bot_study.is_empty() {
            crate::errln!("error: --shard plays one study: a B side or --bot-study is not sharded");
            return Ok(ExitCode::from(2));
        }
        return shard::run(args, (&tileset, &tables), &opts, shard, out);
    }
    if let Some(dir) = &args.report
        && let Err(code) = prepare_report_folder(args, &tileset, dir)?
    {
        return Ok(code);
    }
    let bar = if args.json || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.games * if b_side.is_some() { 2 } else { 1 })
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let reporting = args.report.is_some();
    let new = || {
        (
            SimStats::new(opts.players, tables.kinds.len()),
            reporting.then(|| Tally::new(&tables, opts.players)),
        )
    };
    let (stats, tally, elapsed, comparison) = match b_side {
        None => {
            let (stats, tally) =
                engine::simulate::run_collect(&tables, &opts, &new, &|n| bar.inc(n))
                    .map_err(|e| miette::miette!("{e}"))?;
            (stats, tally, start.elapsed().as_secs_f64(), None)
        }
        Some(b) => {
            let played = ab::play(&tables, &opts, b, &own_sets, &|n| bar.inc(n))?;
            let tally = Some(played.tally);
            (played.stats, tally, played.seconds, Some(played.comparison))
        }
    };
    let report_seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let mut balance = tally.as_ref().map(|t| {
        tilekit_report::Report::new(&tables, run_info(&tables, &opts, &rules, &own_sets), t)
    });
    if args.json {
        let value = SimulateJson::new(&tables, &stats, seats, args.seed, &rules, elapsed)
            .with_compare(comparison.as_ref());
        crate::output::print_json(&value)?;
    } else {
        crate::outln!("rules: {rules}")?;
        let played = Played::of(&tables, &opts, &rules);
        crate::out!("{}", report(&tables, &stats, &played, elapsed))?;
        if let Some(c) = &comparison {
            crate::out!("{}", compare_text(c))?;
        }
    }
    let study_seconds = bots::attach(args, (&tables, &tileset), &opts, &own_sets, &mut balance)?;
    if let (Some(dir), Some(report)) = (&args.report, &mut balance) {
        write_report(
            args,
            &tileset,
            dir,
            report,
            comparison.as_ref(),
            (report_seconds, &study_seconds),
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The sets the report lists first: those asked for (`--focus`), else the author's (not
/// bundled); an unknown one is a usage error, said.
fn own_sets(
    args: &SimulateArgs,
    tileset: &tiledef::TileSet,
) -> miette::Result<Result<Vec<String>, ExitCode>> {
    if let Some(unknown) = (args.focus.iter()).find(|id| !tileset.sets.iter().any(|s| &s.id == *id))
    {
        let known: Vec<&str> = tileset.sets.iter().map(|s| s.id.as_str()).collect();
        crate::errln!(
            "error: --focus {unknown}: no such set (loaded: {})",
            known.join(", ")
        );
        return Ok(Err(ExitCode::from(2)));
    }
    Ok(Ok(if args.focus.is_empty() {
        (tileset.sets.iter())
            .filter(|s| !s.source.ends_with(tiledef::BUNDLED_SUFFIX))
            .map(|s| s.id.clone())
            .collect()
    } else {
        args.focus.clone()
    }))
}

/// The report's folder made before the games, not after a long run (its files checked
/// against the inputs; the charts' names are checked once known).
fn prepare_report_folder(
    args: &SimulateArgs,
    tileset: &tiledef::TileSet,
    dir: &std::path::Path,
) -> miette::Result<Result<(), ExitCode>> {
    let known = ["report.json", "report.html"].map(|name| dir.join(name));
    crate::inputs::guard_outputs(&args.inputs, tileset, &known)?;
    crate::output::check_folder("--report", dir)?;
    if let Err(e) = std::fs::create_dir_all(dir) {
        crate::errln!(
            "error: --report {}: cannot make the folder: {e}",
            dir.display()
        );
        return Ok(Err(ExitCode::from(2)));
    }
    Ok(Ok(()))
}

/// Writes the balance report into `dir`: each tile's picture, the charts, then the page and
/// its data.
fn write_report(
    args: &SimulateArgs,
    tileset: &tiledef::TileSet,
    dir: &std::path::Path,
    report: &mut tilekit_report::Report,
    comparison: Option<&tilekit_report::Comparison>,
    (report_seconds, study_seconds): (f64, &[f64]),
) -> miette::Result<()> {
    // Each row's picture beside it, as the page's previews draw it (96 px).
    let rows: Vec<usize> = (report.tiles.iter())
        .filter_map(|r| tileset.tiles.iter().position(|t| t.id == r.id))
        .collect();
    let drawing = tilekit_render::DrawOptions {
        artwork: true,
        ..Default::default()
    };
    let pictures = tilekit_render::render_pngs(tileset, &rows, 96, &drawing)
        .map_err(|e| miette::miette!("{e}"))?;
    report.tile_pictures = true;
    let mut files =
        tilekit_report::files(report, comparison).map_err(|e| miette::miette!("{e}"))?;
    files.extend((pictures.into_iter()).map(|(id, png)| (format!("tiles/{id}.png"), png)));
    crate::output::check_folder("--report", &dir.join("tiles"))?;
    std::fs::create_dir_all(dir.join("tiles"))
        .map_err(|e| miette::miette!("--report {}: cannot make tiles/: {e}", dir.display()))?;
    let paths: Vec<PathBuf> = files.iter().map(|(name, _)| dir.join(name)).collect();
    crate::inputs::guard_outputs(&args.inputs, tileset, &paths)?;
    // The charts first, the page and its data last: a run stopped half-way (interrupted,
    // a full disk) leaves no report.html that looks complete over charts it lacks.
    let (pages, charts): (Vec<_>, Vec<_>) = files
        .iter()
        .partition(|(name, _)| name.starts_with("report."));
    for (name, bytes) in charts.into_iter().chain(pages) {
        crate::output::write_atomic(&dir.join(name), bytes)?;
    }
    if !args.json {
        crate::outln!(
            "balance report: {} ({} files; {:.2} s of games and report)",
            dir.join("report.html").display(),
            files.len(),
            report_seconds
        )?;
        crate::out!("{}", findings_text(report))?;
        if let Some(study) = &report.bot_study {
            let cost: Vec<String> = (study.bots.iter().zip(study_seconds))
                .map(|(bot, s)| format!("{bot} {s:.1} s"))
                .collect();
            crate::out!("{}", study.text())?;
            crate::outln!(
                "bot study: {} games per bot ({}; {} threads)",
                study.games,
                cost.join(", "),
                rayon::current_num_threads()
            )?;
        }
    }
    Ok(())
}

/// The report's findings, as the text output ends with them (`--report` only).
fn findings_text(report: &tilekit_report::Report) -> String {
    let mut out = String::from("findings (95 % intervals, Holm-corrected per family):\n");
    if report.findings.is_empty() {
        out.push_str("  nothing out of line with confidence\n");
    }
    for f in &report.findings {
        let _ = writeln!(out, "  {}", f.statement);
    }
    out
}

/// The version of what `simulate --json` prints (`SimulateJson`): raised when a field is
/// renamed, removed, or changes its meaning or shape; a field added keeps the version.
pub const JSON_VERSION: u32 = 2;

/// What `simulate --json` prints; its schema, `tilekit schema --of simulate`, is committed as
/// `docs/simulate.schema.json`. Per-kind, per-marker, per-figure and per-tile figures are
/// objects keyed by id; per-seat figures are arrays, seat 1 first, in the order of `seats` (a
/// seat has no id but its place in the turn order, and two seats may play alike).
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[schemars(title = "tilekit simulate --json")]
pub struct SimulateJson {
    /// The version of this document's shape: raised when a field is renamed, removed, or
    /// changes its meaning or shape; a field added keeps it.
    #[schemars(range(min = JSON_VERSION, max = JSON_VERSION))]
    pub version: u32,
    /// Games played.
    pub games: u64,
    /// Players per game.
    pub players: u8,
    /// Who plays each seat (`random`, `greedy`, `mcts:N`), seat 1 first.
    pub seats: Vec<String>,
    /// Run seed: the same seed gives the same figures (timings aside).
    pub seed: u64,
    /// The rules in play, the same in every game (they follow the sets of the whole bag).
    pub rules: engine::Rules,
    /// Threads the games were played on.
    pub threads: usize,
    /// Seconds the games took (the comparison's games excluded).
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
    /// Mean final score by seat.
    pub mean_score: Vec<f64>,
    /// Win rate by seat, 0–1, shared wins split between the winners.
    pub win_rate: Vec<f64>,
    /// Standard deviation of the final score by seat.
    pub stddev_score: Vec<f64>,
    /// Points per game, all players together, by feature kind id (the kinds that score), and
    /// by the name of a rule module's own figure's scorings (`windmill`).
    pub points_per_game: BTreeMap<String, f64>,
    /// Points per game, all players together, by source as the text report names it: a
    /// feature kind's plural (`cities`; base rates), `flowers`, `windmills`, `marketplace
    /// networks`, `<figure> (bonus)`, `<marker> (modifier)`, `<good> (tokens)` (the good's id,
    /// its marker's unless its token names another). They add up to the points scored.
    pub points_per_game_by_source: BTreeMap<String, f64>,
    /// The rule modules' moves made per game, by the registry's name (`return`: a figure the
    /// Festival returned; `donkey`, `windmill`; `reserve`: a reserve tile, the abbey,
    /// placed), for those made at all.
    pub actions_per_game: BTreeMap<String, f64>,
    /// Points per game a module credits to its moves, by the registry's name (`reserve`: what
    /// the turns of reserve tiles scored), for those credited any.
    pub action_points_per_game: BTreeMap<String, f64>,
    /// Tiles set aside (drawn with no legal placement) per game.
    pub tiles_set_aside_per_game: f64,
    /// Times each tile was set aside, by tile id (only tiles set aside at least once).
    pub set_aside_by_tile: BTreeMap<String, u64>,
    /// The run's sums, keyed by id, for figures this document does not work out.
    pub stats: SimSums,
    /// With `--compare` or a `--b-…` flag: every difference between the games with and
    /// without the change (for `--compare`, the compared sets), significant or not (null
    /// without a comparison).
    pub compare: Option<Vec<tilekit_report::Diff>>,
    /// With a comparison: what was compared (`with and without festival`, `with the house
    /// rule \`pig-herd\` vs without`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare_title: Option<String>,
}

impl SimulateJson {
    /// The document of a run's statistics (no comparison).
    fn new(
        tables: &engine::Tables,
        stats: &SimStats,
        seats: &[engine::players::Strategy],
        seed: u64,
        rules: &engine::Rules,
        elapsed: f64,
    ) -> SimulateJson {
        let g = stats.games.max(1) as f64;
        let per_seat = |f: &dyn Fn(usize) -> f64| (0..seats.len()).map(f).collect::<Vec<_>>();
        let by_source = stats.sums.points_by_source(tables).into_iter();
        SimulateJson {
            version: JSON_VERSION,
            games: stats.games,
            players: seats.len() as u8,
            seats: seats.iter().map(ToString::to_string).collect(),
            seed,
            rules: rules.clone(),
            threads: rayon::current_num_threads(),
            seconds: elapsed,
            games_per_second: stats.games as f64 / elapsed.max(1e-9),
            mean_score: per_seat(&|p| stats.mean(p)),
            win_rate: per_seat(&|p| stats.win_rate(p)),
            stddev_score: per_seat(&|p| stats.stddev(p)),
            points_per_game: points_per_game(tables, stats),
            points_per_game_by_source: by_source.map(|(k, v)| (k, v as f64 / g)).collect(),
            actions_per_game: by_action(&stats.sums.actions, g, registry_name),
            action_points_per_game: by_action(&stats.sums.action_points, g, registry_name),
            tiles_set_aside_per_game: stats.sums.set_aside as f64 / g,
            set_aside_by_tile: set_aside(tables, stats).into_iter().collect(),
            stats: stats.keyed(tables),
            compare: None,
            compare_title: None,
        }
    }

    /// The document with a comparison's differences.
    fn with_compare(self, comparison: Option<&tilekit_report::Comparison>) -> SimulateJson {
        SimulateJson {
            compare: comparison.map(|c| c.diffs.clone()),
            compare_title: comparison.map(|c| c.title.clone()),
            ..self
        }
    }
}

/// The JSON Schema of `simulate --json` as committed in `docs/simulate.schema.json`
/// (pretty-printed, with a final newline).
pub fn json_schema_text() -> String {
    // The serialising side's schema: a field left out when empty is not required.
    let schema = (schemars::generate::SchemaSettings::draft2020_12().for_serialize())
        .into_generator()
        .into_root_schema_for::<SimulateJson>();
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// The sets of the main games and, with `--compare`, of the games without the compared sets.
fn compare_sets(
    tables: &engine::Tables,
    sets: &[String],
    compare: &[String],
) -> Result<(Vec<String>, Option<Vec<String>>), String> {
    if compare.is_empty() {
        return Ok((sets.to_vec(), None));
    }
    for id in compare {
        if !tables.sets.contains(id) {
            return Err(format!(
                "--compare: no set `{id}` is loaded (loaded: {})",
                tables.sets.join(", ")
            ));
        }
    }
    let mut with: Vec<String> = if sets.is_empty() {
        tables.sets.clone()
    } else {
        sets.to_vec()
    };
    for id in compare {
        if !with.contains(id) {
            with.push(id.clone());
        }
    }
    let without: Vec<String> = with
        .iter()
        .filter(|id| !compare.contains(id))
        .cloned()
        .collect();
    if without.is_empty() {
        return Err("--compare: no set would be left to play without them".to_string());
    }
    Ok((with, Some(without)))
}

/// The rules the games of a run play (their setup checked on one game).
fn rules_in_play(
    tables: &engine::Tables,
    opts: &SimOptions,
) -> Result<engine::Rules, engine::SetupError> {
    let game = engine::Game::new(
        tables,
        engine::GameOptions {
            sets: opts.sets.clone(),
            edition: opts.edition.clone(),
            players: opts.players,
            rules: opts.rules.clone(),
            draw: engine::Draw::Seed(0),
            tiles: opts.tiles,
            start: opts.start.clone(),
        },
        &mut Vec::new(),
    )?;
    Ok(game.rules().clone())
}

/// What a run's games played, as its text names it.
pub(super) struct Played<'a> {
    /// Who sat where.
    seats: &'a [engine::players::Strategy],
    /// The sets in the bag (`Rules::sets`): a creature's or a figure's moves are named by
    /// those of these sets.
    sets: &'a [String],
    /// By `GameStats::sources`: whether the games could pay from each source
    /// (`Setup::sources_in_play`), so that the text names only those among the sources that paid
    /// nothing.
    in_play: Vec<bool>,
}

impl<'a> Played<'a> {
    /// What the games of `opts` played, with the `rules` in play (every source counted in
    /// play when the setup fails: `rules_in_play` reports that first).
    pub(super) fn of(
        tables: &engine::Tables,
        opts: &'a SimOptions,
        rules: &'a engine::Rules,
    ) -> Played<'a> {
        let in_play = match engine::setup::Setup::new(tables, opts.game_options()) {
            Ok(setup) => setup.sources_in_play(),
            Err(_) => vec![true; engine::game::GameStats::sources(tables).len()],
        };
        Played {
            seats: &opts.seats,
            sets: &rules.sets,
            in_play,
        }
    }
}

/// What a report says was played.
fn run_info(
    tables: &engine::Tables,
    opts: &SimOptions,
    rules: &engine::Rules,
    own_sets: &[String],
) -> RunInfo {
    RunInfo {
        games: opts.games,
        players: opts.players,
        // Who plays each seat (no list: every seat random).
        seats: (0..opts.players as usize)
            .map(|p| {
                opts.seats
                    .get(p)
                    .map_or("random".to_string(), |s| s.to_string())
            })
            .collect(),
        seed: opts.seed,
        sets: if opts.sets.is_empty() {
            tables.sets.clone()
        } else {
            opts.sets.clone()
        },
        tiles: opts.tiles,
        rules: rules.to_string(),
        own_sets: own_sets.to_vec(),
    }
}

/// The A/B summary: the significant differences (the game's, seats' and sources' all, tile
/// types' the first few), then how many were noise.
fn compare_text(c: &tilekit_report::Comparison) -> String {
    const TILE_LINES: usize = 8;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} (same seeds{}; 95 % intervals, Holm-corrected over {} figures):",
        c.title,
        if c.paired {
            ", paired: each game drew the same tiles on both sides"
        } else {
            ""
        },
        c.diffs.len()
    );
    let tiles = c.significant().filter(|d| d.tile).count();
    let shown = c
        .significant()
        .filter(|d| !d.tile)
        .chain(c.significant().filter(|d| d.tile).take(TILE_LINES));
    for d in shown {
        let _ = writeln!(
            out,
            "  {:<40} {:>9.3} → {:>9.3}  difference {:+.3} [{:+.3}, {:+.3}]",
            d.metric, d.without, d.with, d.difference.value, d.difference.lo, d.difference.hi
        );
    }
    if tiles > TILE_LINES {
        let _ = writeln!(
            out,
            "  … and {} more significant tile figures (see the report)",
            tiles - TILE_LINES
        );
    }
    let noise = c.diffs.len() - c.significant().count();
    let _ = writeln!(out, "  {noise} other differences are within the noise");
    resolve_text(&mut out, c);
    out
}

/// How many games a side would resolve each difference within the noise (the game's, seats',
/// sources' and figures'; the tile types' are in `--json` and the report).
fn resolve_text(out: &mut String, c: &tilekit_report::Comparison) {
    let unresolved: Vec<&tilekit_report::Diff> = (c.diffs.iter())
        .filter(|d| !d.significant && !d.tile && d.games_needed.is_some())
        .collect();
    if unresolved.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "games a side that would resolve a difference within the noise (80 % power, two-sided 5 %):"
    );
    let played = c.without.run.games;
    for d in unresolved {
        let needed = d.games_needed.unwrap_or(0);
        // Fewer than were played: Holm's correction over all the figures holds it back.
        let more = match needed.checked_sub(played) {
            Some(more) if more > 0 => format!("{more} more"),
            _ => "Holm's correction holds it back".to_string(),
        };
        let _ = writeln!(
            out,
            "  {:<40} {:>9.3} → {:>9.3}  difference {:+.3} [{:+.3}, {:+.3}]  {needed} games for ±{:.3} ({more})",
            d.metric,
            d.without,
            d.with,
            d.difference.value,
            d.difference.lo,
            d.difference.hi,
            d.resolve_size
        );
    }
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
fn report(tables: &engine::Tables, stats: &SimStats, played: &Played<'_>, elapsed: f64) -> String {
    let players = played.seats.len();
    let mut out = headline(stats, players, elapsed, rayon::current_num_threads());
    let g = stats.games.max(1) as f64;
    let _ = writeln!(
        out,
        "tiles placed per game {:.1}; scorings per game {:.1}",
        stats.tiles_placed as f64 / g,
        stats.scorings as f64 / g
    );
    for (p, seat) in played.seats.iter().enumerate() {
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
    let by_source = stats.sums.points_by_source(tables);
    let total: i64 = by_source.iter().map(|(_, v)| v).sum();
    let _ = writeln!(out, "points per game by source:");
    // Every loaded set's sources are counted, most of them out of the games when a fan set is
    // simulated with the bundled definitions: those that paid nothing go on one line, and of
    // them only those the games could pay from (a finding: in play, yet worth nothing).
    let paid: Vec<_> = by_source.iter().filter(|(_, pts)| *pts != 0).collect();
    let unpaid: Vec<_> = (by_source.iter().zip(&played.in_play))
        .filter(|&(&(_, pts), &plays)| pts == 0 && plays)
        .map(|(source, _)| source)
        .collect();
    for (name, pts) in &paid {
        let _ = writeln!(
            out,
            "  {:<24} {:>6.1}  ({:.1}%)",
            name,
            *pts as f64 / g,
            100.0 * *pts as f64 / total.max(1) as f64
        );
    }
    if !unpaid.is_empty() {
        let names: Vec<&str> = unpaid.iter().map(|(name, _)| name.as_str()).collect();
        let _ = writeln!(out, "  nothing from: {}", names.join(", "));
    }
    let counted: Vec<String> = (engine::rules::COUNTED_MOVES.iter())
        .filter(|&&(a, _)| stats.sums.moves_of(a) > 0)
        .map(|&(a, words)| format!("{:.2} {words}", stats.sums.moves_of(a) as f64 / g))
        .collect();
    if !counted.is_empty() {
        let _ = writeln!(out, "per game: {}", counted.join(", "));
    }
    // In words, a creature's action by the creatures' ids (`serpent`), not the registry's.
    let label = |a: engine::rules::ActionId| a.label(tables, played.sets);
    let actions = by_action(&stats.sums.actions, g, label);
    if !actions.is_empty() {
        let points = by_action(&stats.sums.action_points, g, label);
        let words: Vec<String> = (actions.iter())
            .map(|(name, n)| match points.get(name) {
                Some(p) => format!("{name} {n:.2} (its turns scored {p:.2} points)"),
                None => format!("{name} {n:.2}"),
            })
            .collect();
        let _ = writeln!(out, "rule moves per game: {}", words.join("; "));
    }
    let figures = figures_per_game(tables, stats);
    if !figures.is_empty() {
        let _ = writeln!(out, "figures per game: {}", figures.join("; "));
    }
    let _ = writeln!(
        out,
        "tiles set aside: {} ({:.3} per game)",
        stats.sums.set_aside,
        stats.sums.set_aside as f64 / g
    );
    let rows = set_aside(tables, stats);
    // A column as wide as the longest id: a fan set's ids (`SS-whirlpool`) are longer than
    // the base game's.
    let width = (rows.iter())
        .map(|(id, _)| id.chars().count())
        .max()
        .unwrap_or(0)
        .max(10);
    for (id, n) in rows {
        let times = match n {
            1 => "once".to_string(),
            n => format!("{n} times"),
        };
        let _ = writeln!(out, "  {id:<width$} could not be placed {times}");
    }
    out
}

/// Sums by `ActionId` index, per game, by `name` (those above 0).
fn by_action(
    sums: &[u64],
    games: f64,
    name: impl Fn(engine::rules::ActionId) -> String,
) -> BTreeMap<String, f64> {
    (engine::rules::ActionId::all())
        .filter_map(|a| {
            let n = *sums.get(a.index())?;
            (n > 0).then(|| (name(a), n as f64 / games))
        })
        .collect()
}

/// An action's name in the registry: `--json`'s key, the same for every set.
fn registry_name(action: engine::rules::ActionId) -> String {
    action.info().name.to_string()
}

/// The text report's first line: the games and their timing.
fn headline(stats: &SimStats, players: usize, elapsed: f64, threads: usize) -> String {
    format!(
        "{} games of {players} players in {elapsed:.2} s on {threads} threads: {:.0} games/s\n",
        stats.games,
        stats.games as f64 / elapsed.max(1e-9)
    )
}

/// What each of the sets' figures did per game, for those deployed at all: deployments, and
/// what its power did (recalls, extra tiles, points it paid).
fn figures_per_game(tables: &engine::Tables, stats: &SimStats) -> Vec<String> {
    let g = stats.games.max(1) as f64;
    let sums = &stats.sums;
    let at = |v: &[u64], k: usize| v.get(k).copied().unwrap_or(0) as f64 / g;
    (tables.followers.iter().enumerate())
        .filter(|&(k, _)| at(&sums.deployed, FigureId::set(k).index()) > 0.0)
        .map(|(k, f)| {
            let deployed = at(&sums.deployed, FigureId::set(k).index());
            let mut line = format!("{} {deployed:.2} deployed", f.id);
            match f.power {
                Some(engine::tables::Power::Recall) => {
                    let _ = write!(
                        line,
                        ", {:.2} recalled ({:.2} points)",
                        at(&sums.recalls, k),
                        at(&sums.figure_points, k)
                    );
                }
                Some(engine::tables::Power::ExtraTile) => {
                    let _ = write!(line, ", {:.2} extra tiles", sums.extra_tiles as f64 / g);
                }
                Some(engine::tables::Power::Bonus(_)) => {
                    let _ = write!(line, ", {:.2} bonus points", at(&sums.figure_points, k));
                }
                Some(engine::tables::Power::MoveOn) => {
                    // The moves on of every figure that moves on, counted by their action.
                    let moved = at(&sums.actions, engine::rules::ActionId::WAGON.index());
                    let _ = write!(
                        line,
                        ", {moved:.2} moved on ({:.2} points there)",
                        at(&sums.figure_points, k)
                    );
                }
                None => {}
            }
            line
        })
        .chain(corner_figures_per_game(tables, stats))
        .collect()
}

/// What the figures placed at a corner (the barn) did per game, when placed at all: how
/// often, and the points they paid (arrival, join and end together).
fn corner_figures_per_game(tables: &engine::Tables, stats: &SimStats) -> Vec<String> {
    let g = stats.games.max(1) as f64;
    let sums = &stats.sums;
    let placed = sums
        .actions
        .get(ActionId::BARN.index())
        .copied()
        .unwrap_or(0) as f64
        / g;
    (tables.corner_figures.iter().enumerate())
        .filter(|_| placed > 0.0)
        .map(|(k, f)| {
            let points = sums.corner_points.get(k).copied().unwrap_or(0) as f64 / g;
            format!("{} {placed:.2} placed ({points:.2} points)", f.id)
        })
        .collect()
}

/// Points per game by feature kind id (the kinds that score), and by the name of each rule
/// module's own figure's scorings (the windmills').
fn points_per_game(
    tables: &engine::Tables,
    stats: &SimStats,
) -> std::collections::BTreeMap<String, f64> {
    let kinds = (tables.features.iter().enumerate())
        .filter(|(_, rule)| rule.scores())
        .map(|(k, rule)| {
            (
                rule.id.clone(),
                stats.points_per_game(engine::FeatureKindId(k as u8)),
            )
        });
    let figures = (engine::rules::RuleSource::all()).filter_map(|source| {
        let name = source.info().scored?;
        Some((name.to_string(), stats.rule_points_per_game(source)))
    });
    kinds.chain(figures).collect()
}
