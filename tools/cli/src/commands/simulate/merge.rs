//! `tilekit merge SLICE...`: joins the slice files of one study (`simulate --shard K/N`) into
//! what `tilekit simulate` with the study's arguments prints, text or `--json`, byte for byte
//! but for the timings: `seconds` is the slices' seconds added up (the games' time, not the
//! wall clock's), `games_per_second` the games over it, and `threads` the most any slice used.
//! Every sum is an integer, so the slices' order of adding cannot change a figure. Refused,
//! naming the files: a file that is not a slice (exit 1), slices of different studies, a
//! slice given twice, one missing, or definitions that changed since (exit 2).

use super::shard::{self, Read, Slice};
use clap::Args;
use engine::simulate::SimStats;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `tilekit merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// The slice files of one study (`simulate --shard K/N --out FILE`), every K once, in any
    /// order.
    #[arg(required = true, value_name = "SLICE")]
    slices: Vec<PathBuf>,
    /// Print the study as JSON (what `simulate --json` prints).
    #[arg(long)]
    json: bool,
}

/// Examples shown by `tilekit merge --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit merge study/slice-*.json
  tilekit merge study/slice-*.json --json > study.json";

/// Runs `tilekit merge`.
pub fn run(args: &MergeArgs) -> miette::Result<ExitCode> {
    let slices = match read_all(&args.slices) {
        Ok(slices) => slices,
        Err(code) => return Ok(code),
    };
    let Some((first_path, first)) = slices.first() else {
        return Ok(ExitCode::from(2));
    };
    let study = &first.study;
    let sources = shard::recorded_sources(&first.inputs)?;
    if shard::definitions_hash(&sources) != study.definitions {
        crate::errln!(
            "error: the definitions at {} are not those {} was played with (edited since?)",
            inputs_text(&first.inputs),
            first_path.display()
        );
        return Ok(ExitCode::from(2));
    }
    let report = tiledef::load(sources);
    crate::inputs::print_diagnostics(&report);
    let Some(tileset) = report.tileset else {
        return Ok(ExitCode::from(1));
    };
    let tables = crate::inputs::compile_tables(&tileset)?;
    let opts = match study.options() {
        Ok(opts) => opts,
        Err(e) => {
            crate::errln!("error: {}: {e}", first_path.display());
            return Ok(ExitCode::from(1));
        }
    };
    let rules = match super::rules_in_play(&tables, &opts) {
        Ok(rules) => rules,
        Err(e) => {
            crate::errln!("error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    if magnitude(&slices) >= 1 << 63 {
        crate::errln!("error: the slices' sums are too large to add up (edited by hand?)");
        return Ok(ExitCode::from(1));
    }
    let mut stats = SimStats::new(opts.players, tables.kinds.len());
    for (path, slice) in &slices {
        if let Err(e) = fits(&slice.stats, &tables, opts.players) {
            crate::errln!("error: {}: {e}", path.display());
            return Ok(ExitCode::from(1));
        }
        engine::simulate::Collect::merge(&mut stats, slice.stats.clone());
    }
    let seconds: f64 = slices.iter().map(|(_, s)| s.seconds).sum();
    let threads = slices.iter().map(|(_, s)| s.threads).max().unwrap_or(1);
    print(args, (&tables, &rules), &stats, &opts, (seconds, threads))?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the joined study as `simulate` prints one run.
fn print(
    args: &MergeArgs,
    (tables, rules): (&engine::Tables, &engine::Rules),
    stats: &SimStats,
    opts: &engine::simulate::SimOptions,
    (seconds, threads): (f64, usize),
) -> miette::Result<()> {
    let seats = &opts.seats;
    if args.json {
        let value = super::SimulateJson {
            threads,
            ..super::SimulateJson::new(tables, stats, seats, opts.seed, rules, seconds)
        };
        crate::output::print_json(&value)?;
        return Ok(());
    }
    crate::outln!("rules: {rules}")?;
    let played = super::Played::of(tables, opts, rules);
    let text = super::report(tables, stats, &played, seconds);
    let rest = text.split_once('\n').map_or("", |(_, rest)| rest);
    let head = super::headline(stats, seats.len(), seconds, threads);
    crate::out!("{head}{rest}")?;
    Ok(())
}

/// Reads every slice, then checks that together they are one whole study: the same study,
/// every slice once. On a problem, every one found is said and the exit status returned.
fn read_all(paths: &[PathBuf]) -> Result<Vec<(PathBuf, Slice)>, ExitCode> {
    let mut slices = Vec::new();
    let (mut unreadable, mut invalid) = (false, false);
    for path in paths {
        match shard::read(path) {
            Read::Slice(slice) => slices.push((path.clone(), *slice)),
            Read::Unreadable(message) => {
                crate::errln!("error: {message}");
                unreadable = true;
            }
            Read::Invalid(message) => {
                crate::errln!("error: {message}");
                invalid = true;
            }
        }
    }
    if unreadable {
        return Err(ExitCode::from(2));
    }
    for (path, slice) in &slices {
        if let Err(e) = played_as_cut(slice) {
            crate::errln!("error: {}: {e}", path.display());
            invalid = true;
        }
    }
    if invalid {
        return Err(ExitCode::from(1));
    }
    slices.sort_by_key(|(_, s)| s.shard.index);
    if let Err(message) = one_whole_study(&slices) {
        crate::errln!("error: {message}");
        return Err(ExitCode::from(2));
    }
    Ok(slices)
}

/// A slice's games are those its shard names.
fn played_as_cut(slice: &Slice) -> Result<(), String> {
    let shard = slice.shard;
    if shard.count == 0 || shard.index == 0 || shard.index > shard.count {
        return Err(format!("no such slice {}/{}", shard.index, shard.count));
    }
    let range = shard.games(slice.study.games);
    if slice.first_game != range.start || slice.stats.games != range.end - range.start {
        return Err(format!(
            "slice {}/{} should hold games {}–{} of {}, it holds {} games from {}",
            shard.index,
            shard.count,
            range.start + 1,
            range.end,
            slice.study.games,
            slice.stats.games,
            slice.first_game + 1
        ));
    }
    Ok(())
}

/// The slices (sorted by index) are of one study, each slice once, none missing.
fn one_whole_study(slices: &[(PathBuf, Slice)]) -> Result<(), String> {
    let Some((first_path, first)) = slices.first() else {
        return Err("no slice files given".to_string());
    };
    for (path, slice) in slices {
        if slice.study != first.study || slice.shard.count != first.shard.count {
            return Err(format!(
                "{} and {} are slices of different studies ({}): not merged",
                first_path.display(),
                path.display(),
                difference(first, slice)
            ));
        }
    }
    for pair in slices.windows(2) {
        if pair[0].1.shard.index == pair[1].1.shard.index {
            return Err(format!(
                "slice {}/{} is given twice: {} and {}",
                pair[0].1.shard.index,
                first.shard.count,
                pair[0].0.display(),
                pair[1].0.display()
            ));
        }
    }
    let missing: Vec<String> = (1..=first.shard.count)
        .filter(|k| {
            slices
                .binary_search_by_key(k, |(_, s)| s.shard.index)
                .is_err()
        })
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        const SHOWN: usize = 20;
        let more = missing.len().saturating_sub(SHOWN);
        return Err(format!(
            "{} of the {} slices missing: {}{} (play each with simulate --shard K/{})",
            missing.len(),
            first.shard.count,
            missing[..missing.len().min(SHOWN)].join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            },
            first.shard.count
        ));
    }
    Ok(())
}

/// What differs between two slices' studies: the first field that does, named.
fn difference(a: &Slice, b: &Slice) -> String {
    if a.shard.count != b.shard.count {
        return format!("cut into {} and {} slices", a.shard.count, b.shard.count);
    }
    let (x, y) = (
        serde_json::to_value(&a.study).unwrap_or_default(),
        serde_json::to_value(&b.study).unwrap_or_default(),
    );
    let field = (x.as_object().zip(y.as_object()))
        .and_then(|(x, y)| x.iter().find(|(k, v)| y.get(*k) != Some(v)))
        .map(|(k, v)| {
            format!(
                "`{k}`: {v} and {}",
                y.get(k).unwrap_or(&serde_json::Value::Null)
            )
        });
    field.unwrap_or_else(|| "their studies differ".to_string())
}

/// The recorded inputs, for a message.
fn inputs_text(inputs: &[PathBuf]) -> String {
    if inputs.is_empty() {
        return "the bundled sets".to_string();
    }
    let paths: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    paths.join(", ")
}

/// A slice's sums fit the tables and seats of its study (a file edited by hand cannot make
/// the merge index out of bounds or overflow: every sum of every slice together stays below
/// 2⁶³).
fn fits(stats: &SimStats, tables: &engine::Tables, players: u8) -> Result<(), String> {
    let seats = players as usize;
    let per_seat = [
        &stats.score_sum,
        &stats.score_sq_sum,
        &stats.wins,
        &stats.win_shares,
    ];
    if per_seat.iter().any(|v| v.len() != seats) {
        return Err(format!("its sums are not of {seats} seats"));
    }
    if stats.set_aside_by_kind.len() != tables.kinds.len() {
        return Err("its sums are not of these definitions' tiles".to_string());
    }
    let s = &stats.sums;
    let (kinds, markers, figures) = (
        tables.features.len(),
        tables.markers.len(),
        tables.followers.len(),
    );
    let lengths = [
        (s.points_by_kind.len(), kinds),
        (s.modifier_points.len(), kinds),
        (s.marker_points.len(), markers),
        (s.good_points.len(), markers),
        (s.deployed.len(), figures + 1),
        (s.figure_points.len(), figures),
        (s.recalls.len(), figures),
        (s.actions.len(), engine::rules::ACTIONS.len()),
        (s.rule_points.len(), engine::rules::RULE_SOURCES.len()),
        (s.action_points.len(), engine::rules::ACTIONS.len()),
        (s.corner_points.len(), tables.corner_figures.len()),
        (s.creature_points.len(), tables.creatures.len()),
    ];
    if lengths.iter().any(|&(n, most)| n > most) {
        return Err(
            "its sums are not of these definitions' kinds, markers and figures".to_string(),
        );
    }
    Ok(())
}

/// Every number of the slices' sums, added up as magnitudes: below 2⁶³, no sum of the merge
/// can overflow.
fn magnitude(slices: &[(PathBuf, Slice)]) -> u128 {
    fn walk(v: &serde_json::Value) -> u128 {
        match v {
            serde_json::Value::Number(n) => n
                .as_u64()
                .map(u128::from)
                .or_else(|| n.as_i64().map(|i| u128::from(i.unsigned_abs())))
                .unwrap_or(0),
            serde_json::Value::Array(a) => a.iter().map(walk).sum(),
            serde_json::Value::Object(o) => o.values().map(walk).sum(),
            _ => 0,
        }
    }
    slices
        .iter()
        .map(|(_, s)| {
            let mut stats = s.stats.clone();
            // Extremes are taken, not added.
            stats.score_min = 0;
            stats.score_max = 0;
            walk(&serde_json::to_value(&stats).unwrap_or_default())
        })
        .sum()
}
