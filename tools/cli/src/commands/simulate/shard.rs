//! `tilekit simulate --shard K/N --out FILE`: one contiguous slice of a seeded study, its sums
//! written as a slice file (`Slice`) that `tilekit merge` joins with the others into what one
//! run prints. Game `i` is seeded from `(seed, i)` alone, so a slice plays exactly the games a
//! single run plays at those indices. A slice names its study (`Study`: every argument that
//! decides the games, and the definitions' content hash), so slices of different studies are
//! never joined, and an `--out` that already holds this slice of this study is kept: an
//! interrupted study resumes from the slices written (each written atomically, at its end).

use super::SimulateArgs;
use engine::simulate::{SimOptions, SimStats};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// What a slice file says it is (`Slice::format`).
pub const FORMAT: &str = "tilekit-slice";

/// The version of the slice file's shape: raised when a field is renamed, removed or changes
/// meaning; `merge` refuses any other.
pub const VERSION: u32 = 2;

/// Slice `index` of `count` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, 1 to `count`.
    pub index: u64,
    /// How many slices the study is cut into.
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` (1 ≤ K ≤ N); that N is at most the games is checked once they are known.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("`{text}`: expected K/N, e.g. 3/40"))?;
        let number = |s: &str, what: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| format!("`{text}`: {what} `{s}` is not a whole number"))
        };
        let (index, count) = (number(k, "K")?, number(n, "N")?);
        if count == 0 {
            return Err(format!("`{text}`: N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(format!("`{text}`: K must be from 1 to N ({count})"));
        }
        Ok(Shard { index, count })
    }

    /// The games of this slice of a study of `games`: contiguous, the slices' sizes differing
    /// by at most one, in order.
    pub fn games(self, games: u64) -> std::ops::Range<u64> {
        let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

/// The arguments that decide a study's games; two slices join only when theirs are equal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// The tilekit version that played it (a new engine may play a seed differently).
    pub tilekit: String,
    /// Games of the whole study.
    pub games: u64,
    /// Who plays each seat (`random`, `greedy`, `mcts:N`), seat 1 first.
    pub seats: Vec<String>,
    /// Run seed.
    pub seed: u64,
    /// The sets in the bag (empty: all loaded).
    pub sets: Vec<String>,
    /// Edition (null: the newest).
    pub edition: Option<String>,
    /// Rule options.
    pub rules: engine::RuleOptions,
    /// Tiles per game (null: the whole bag).
    pub tiles: Option<usize>,
    /// The start tile (null: the sets' own).
    pub start: Option<String>,
    /// The definitions' content hash (`definitions_hash`).
    pub definitions: String,
}

impl Study {
    /// The study a run's options and definitions make.
    pub fn of(opts: &SimOptions, definitions: String) -> Study {
        Study {
            tilekit: env!("CARGO_PKG_VERSION").to_string(),
            games: opts.games,
            seats: opts.seats.iter().map(ToString::to_string).collect(),
            seed: opts.seed,
            sets: opts.sets.clone(),
            edition: opts.edition.clone(),
            rules: opts.rules.clone(),
            tiles: opts.tiles,
            start: opts.start.clone(),
            definitions,
        }
    }

    /// The run options of the study (its seats parsed back).
    pub fn options(&self) -> Result<SimOptions, String> {
        let seats = (self.seats.iter())
            .map(|s| s.parse())
            .collect::<Result<Vec<engine::players::Strategy>, String>>()?;
        Ok(SimOptions {
            games: self.games,
            players: u8::try_from(seats.len()).map_err(|_| "too many seats".to_string())?,
            seats,
            seed: self.seed,
            sets: self.sets.clone(),
            edition: self.edition.clone(),
            rules: self.rules.clone(),
            tiles: self.tiles,
            start: self.start.clone(),
        })
    }
}

/// A slice file: one shard's sums and what study they belong to.
#[derive(Debug, Serialize, Deserialize)]
pub struct Slice {
    /// Always `tilekit-slice`.
    pub format: String,
    /// `VERSION`.
    pub version: u32,
    /// The study.
    pub study: Study,
    /// Which slice.
    pub shard: Shard,
    /// The study's games this slice played (`Shard::games`).
    pub first_game: u64,
    /// The definition files or folders read, absolute (empty: the bundled sets), so `merge`
    /// can load them again wherever it runs on a shared file system.
    pub inputs: Vec<PathBuf>,
    /// Seconds its games took.
    pub seconds: f64,
    /// Threads they were played on.
    pub threads: usize,
    /// Its sums (indices as in the compiled tables).
    pub stats: SimStats,
}

/// The definitions' content hash: FNV-1a (64 bits) over each source's length and text, in load
/// order. It catches a slice joined with definitions edited since, not a forger.
pub fn definitions_hash(sources: &[tiledef::Source]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for source in sources {
        let len = (source.text.len() as u64).to_le_bytes();
        for &b in len.iter().chain(source.text.as_bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("fnv1a64:{h:016x}")
}

/// The inputs to record: the paths given made absolute; with none, `./definitions` when the
/// command read it, else nothing (the bundled sets).
fn recorded_inputs(inputs: &crate::inputs::Inputs) -> Vec<PathBuf> {
    let given = if inputs.paths.is_empty() {
        let local = PathBuf::from("definitions");
        if local.is_dir() {
            vec![local]
        } else {
            Vec::new()
        }
    } else {
        inputs.paths.clone()
    };
    given
        .into_iter()
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
        .collect()
}

/// The sources of recorded inputs (none: the bundled sets, named as `Inputs` names them).
pub fn recorded_sources(inputs: &[PathBuf]) -> miette::Result<Vec<tiledef::Source>> {
    if inputs.is_empty() {
        return Ok((tiledef::bundled().into_iter())
            .map(|mut s| {
                s.name.push_str(tiledef::BUNDLED_SUFFIX);
                s
            })
            .collect());
    }
    crate::inputs::Inputs {
        paths: inputs.to_vec(),
    }
    .sources()
}

/// What reading a slice file gave.
pub enum Read {
    /// A slice.
    Slice(Box<Slice>),
    /// A file that could not be read (I/O), said.
    Unreadable(String),
    /// A file that is not a slice of this version, said.
    Invalid(String),
}

/// Reads a slice file.
pub fn read(path: &Path) -> Read {
    // A regular file of at most 64 MiB, as every input is: never /dev/zero read for ever.
    let text = match tiledef::read_text(path) {
        Ok(text) => text,
        Err(e) => return Read::Unreadable(e.to_string()),
    };
    let value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => return Read::Invalid(format!("{}: not a slice file: {e}", path.display())),
    };
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Read::Invalid(format!(
            "{}: not a slice file (no \"format\": \"{FORMAT}\")",
            path.display()
        ));
    }
    let version = value.get("version").and_then(|v| v.as_u64());
    if version != Some(u64::from(VERSION)) {
        return Read::Invalid(format!(
            "{}: a slice of version {}, this tilekit reads version {VERSION}",
            path.display(),
            version.map_or("?".to_string(), |v| v.to_string())
        ));
    }
    match serde_json::from_value::<Slice>(value) {
        Ok(slice) => Read::Slice(Box::new(slice)),
        Err(e) => Read::Invalid(format!("{}: a broken slice: {e}", path.display())),
    }
}

/// Plays one slice of the study and writes it to `out`, unless `out` holds it already.
pub fn run(
    args: &SimulateArgs,
    (tileset, tables): (&tiledef::TileSet, &engine::Tables),
    opts: &SimOptions,
    shard: Shard,
    out: &Path,
) -> miette::Result<ExitCode> {
    if shard.count > opts.games {
        crate::errln!(
            "error: --shard {}/{}: more slices than games ({})",
            shard.index,
            shard.count,
            opts.games
        );
        return Ok(ExitCode::from(2));
    }
    crate::inputs::guard_outputs(&args.inputs, tileset, &[out.to_path_buf()])?;
    let study = Study::of(opts, definitions_hash(&args.inputs.sources()?));
    if out.exists() {
        return Ok(keep_or_refuse(out, &study, shard));
    }
    // The folder made before the games, so a long slice does not fail at its end.
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty())
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        crate::errln!(
            "error: --out {}: cannot make its folder: {e}",
            out.display()
        );
        return Ok(ExitCode::from(2));
    }
    let range = shard.games(opts.games);
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(range.end - range.start)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let new = || SimStats::new(opts.players, tables.kinds.len());
    let stats =
        engine::simulate::run_collect_range(tables, opts, range.clone(), &new, &|n| bar.inc(n))
            .map_err(|e| miette::miette!("{e}"))?;
    bar.finish_and_clear();
    let slice = Slice {
        format: FORMAT.to_string(),
        version: VERSION,
        study,
        shard,
        first_game: range.start,
        inputs: recorded_inputs(&args.inputs),
        seconds: start.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
        stats,
    };
    let mut text = serde_json::to_string_pretty(&slice).map_err(|e| miette::miette!("{e}"))?;
    text.push('\n');
    crate::output::write_atomic(out, text.as_bytes())?;
    crate::outln!(
        "slice {}/{}: games {}–{} of {} in {:.2} s → {}",
        shard.index,
        shard.count,
        range.start + 1,
        range.end,
        opts.games,
        slice.seconds,
        out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// An `--out` already there: this slice of this study is kept (exit 0, said); anything else
/// is left as it is and refused (exit 2), never overwritten.
fn keep_or_refuse(out: &Path, study: &Study, shard: Shard) -> ExitCode {
    match read(out) {
        Read::Slice(s) if s.study == *study && s.shard == shard => {
            crate::errln!(
                "{}: slice {}/{} of this study is already there: kept, not played again",
                out.display(),
                shard.index,
                shard.count
            );
            ExitCode::SUCCESS
        }
        Read::Slice(s) => {
            crate::errln!(
                "error: {} holds slice {}/{} of {}: not replaced (remove it, or write elsewhere)",
                out.display(),
                s.shard.index,
                s.shard.count,
                if s.study == *study {
                    "this study cut otherwise"
                } else {
                    "another study"
                }
            );
            ExitCode::from(2)
        }
        Read::Unreadable(message) | Read::Invalid(message) => {
            crate::errln!("error: --out {message}; not replaced");
            ExitCode::from(2)
        }
    }
}
