//! Which definition files a command works on, and loading them with diagnostics shown.

use clap::Args;
use miette::{IntoDiagnostic, WrapErr};
use std::io::IsTerminal;
use std::path::PathBuf;
use tiledef::{Report, Source};

/// The definition files or folders a command reads.
#[derive(Args, Clone, Debug, Default)]
pub struct Inputs {
    /// Definition files or folders of them (default: ./definitions if present, else the bundled
    /// sets).
    pub paths: Vec<PathBuf>,
}

impl Inputs {
    /// Reads the sources named (or the defaults), adding the bundled sets they require but
    /// that were not named, so `tilekit validate my-set.toml` works on its own. Without paths,
    /// `./definitions` is read when it is a folder (whatever it holds: an author's folder with
    /// only their own file gets the bundled sets it requires); else the bundled copies are
    /// used. A bundled set is always named `… (bundled)`, never as if read from disk.
    pub fn sources(&self) -> miette::Result<Vec<Source>> {
        if !self.paths.is_empty() {
            let named = tiledef::read_paths(&self.paths).into_diagnostic()?;
            return Ok(with_bundled_requirements(named));
        }
        let local = PathBuf::from(LOCAL);
        if local.is_dir() {
            let named = tiledef::read_paths(&[local])
                .into_diagnostic()
                .wrap_err("reading ./definitions")?;
            Ok(with_bundled_requirements(named))
        } else {
            Ok(tiledef::bundled().into_iter().map(mark_bundled).collect())
        }
    }

    /// The files the sources come from (for the check that no output lands on one of them).
    pub fn files(&self) -> Vec<PathBuf> {
        let paths = if self.paths.is_empty() {
            vec![PathBuf::from(LOCAL)]
        } else {
            self.paths.clone()
        };
        let mut files = Vec::new();
        for path in paths {
            if path.is_dir() {
                files.extend(entries(&path));
            } else {
                files.push(path);
            }
        }
        files
    }
}

/// The folder read when no paths are given.
const LOCAL: &str = "definitions";

fn mark_bundled(mut source: Source) -> Source {
    source.name.push_str(tiledef::BUNDLED_SUFFIX);
    source
}

/// Every file a command with this input reads: the definitions and the tiles' artwork.
pub fn files_read(inputs: &Inputs, tileset: &tiledef::TileSet) -> Vec<PathBuf> {
    let mut files = inputs.files();
    files.extend(tileset.tiles.iter().filter_map(|t| t.artwork.clone()));
    files
}

/// The entries of a folder (none when it cannot be read).
pub fn entries(dir: &std::path::Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|e| e.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

/// Refuses (usage error) outputs that would replace a file the command reads.
pub fn guard_outputs(
    inputs: &Inputs,
    tileset: &tiledef::TileSet,
    outputs: &[PathBuf],
) -> miette::Result<()> {
    crate::output::refuse_overwriting(&files_read(inputs, tileset), outputs)
}

/// What a command checks of the definitions it loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The data alone (commands that draw nothing).
    Data,
    /// The data, then each tile's picture against it (commands that draw or validate).
    Pictures,
}

/// Loads the inputs, printing every diagnostic to stderr.
pub fn load_and_report(inputs: &Inputs, check: Check) -> miette::Result<Report> {
    let report = load_checked(inputs, check)?;
    print_diagnostics(&report);
    Ok(report)
}

/// Loads the inputs and, with `Check::Pictures` and valid inputs, checks every tile's picture
/// against its data: a picture that would say something else is a warning in the report,
/// never a silent preview.
pub fn load_checked(inputs: &Inputs, check: Check) -> miette::Result<Report> {
    let mut report = tiledef::load(inputs.sources()?);
    if check == Check::Pictures {
        tilekit_render::warn_pictures(&mut report);
    }
    Ok(report)
}

/// Prints the diagnostics of a report to stderr, in colour on a terminal. A stderr that cannot
/// be written to is ignored (there is nowhere left to say so); the exit status still tells.
pub fn print_diagnostics(report: &Report) {
    use std::io::Write;
    let mut stderr = std::io::stderr().lock();
    let colour = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    for d in &report.diagnostics {
        if colour {
            let handler = miette::GraphicalReportHandler::new().with_width(100);
            let mut out = String::new();
            if handler.render_report(&mut out, d).is_ok() {
                let _ = writeln!(stderr, "{out}");
                continue;
            }
        }
        let _ = writeln!(stderr, "{}", d.render_plain());
    }
}

/// Loads the inputs and insists that they are valid.
pub fn load_valid(inputs: &Inputs) -> miette::Result<Result<tiledef::TileSet, Report>> {
    load_valid_checked(inputs, Check::Data)
}

/// Loads the inputs with `check` and insists that they are valid.
fn load_valid_checked(
    inputs: &Inputs,
    check: Check,
) -> miette::Result<Result<tiledef::TileSet, Report>> {
    let report = load_and_report(inputs, check)?;
    Ok(match report.tileset {
        Some(tileset) => Ok(tileset),
        None => Err(Report {
            tileset: None,
            ..report
        }),
    })
}

/// Loads the inputs, insisting that they are valid, and resolves `--sets` against them; when
/// either fails (the diagnostics or the error said), the exit status to end with: 1 for
/// invalid definitions, 2 for an unknown set.
pub fn load_printed(
    inputs: &Inputs,
    sets: &SetsArg,
    check: Check,
) -> miette::Result<Result<(tiledef::TileSet, Printed), std::process::ExitCode>> {
    let Ok(tileset) = load_valid_checked(inputs, check)? else {
        return Ok(Err(std::process::ExitCode::from(1)));
    };
    Ok(match sets.resolve(&tileset) {
        Ok(printed) => Ok((tileset, printed)),
        Err(message) => {
            crate::errln!("error: {message}");
            Err(std::process::ExitCode::from(2))
        }
    })
}

/// Puts the bundled sets that the named files require (transitively) in front of them.
fn with_bundled_requirements(named: Vec<Source>) -> Vec<Source> {
    let mut sources = tiledef::bundled_requirements(named.iter().map(|s| s.text.as_str()));
    sources.extend(named);
    sources
}

/// Compiles a checked tile set into the engine's tables (a failure here is a bug, reported).
pub fn compile_tables(tileset: &tiledef::TileSet) -> miette::Result<engine::Tables> {
    engine::compile(tileset).map_err(|e| miette::Report::new(Unplayable(e)))
}

/// Definitions that load but that the engine cannot compile (more tiles than its tables hold,
/// a feature kind it cannot play yet): bad input data, exit status 1.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct Unplayable(pub engine::CompileError);

impl miette::Diagnostic for Unplayable {}

/// The `--sets` option of the commands that print: which loaded sets to print.
#[derive(Args, Clone, Debug, Default)]
pub struct SetsArg {
    /// Print only these sets (comma-separated ids); the sets they require are loaded but not
    /// printed (default: every loaded set).
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub sets: Vec<String>,
}

/// The sets a command prints, resolved against the loaded sets.
#[derive(Clone, Debug)]
pub struct Printed {
    /// Indices into `TileSet::sets`, in load order.
    pub sets: Vec<usize>,
}

impl SetsArg {
    /// The sets to print; an unknown id is an error listing the loaded set ids.
    pub fn resolve(&self, tileset: &tiledef::TileSet) -> Result<Printed, String> {
        if self.sets.is_empty() {
            return Ok(Printed {
                sets: (0..tileset.sets.len()).collect(),
            });
        }
        let mut sets = Vec::new();
        for id in &self.sets {
            let Some(i) = tileset.sets.iter().position(|s| s.id == *id) else {
                let ids: Vec<&str> = tileset.sets.iter().map(|s| s.id.as_str()).collect();
                let known: Vec<String> = ids.iter().map(|id| format!("`{id}`")).collect();
                return Err(format!(
                    "--sets: no set `{id}` is loaded{} (loaded: {})",
                    engine::options::did_you_mean(id, &ids.join(", ")),
                    known.join(", ")
                ));
            };
            if !sets.contains(&i) {
                sets.push(i);
            }
        }
        sets.sort_unstable();
        Ok(Printed { sets })
    }
}

impl Printed {
    /// The tile types of the printed sets (indices into `TileSet::tiles`).
    pub fn tiles(&self, tileset: &tiledef::TileSet) -> Vec<usize> {
        (0..tileset.tiles.len())
            .filter(|&i| self.sets.contains(&tileset.tiles[i].set))
            .collect()
    }

    /// What was printed, for the report line: "8 tile types of `lakeland` (requires `base`,
    /// not printed)".
    pub fn describe(&self, tileset: &tiledef::TileSet, tile_types: usize) -> String {
        let ids: Vec<String> = self
            .sets
            .iter()
            .map(|&i| format!("`{}`", tileset.sets[i].id))
            .collect();
        let noun = if tile_types == 1 {
            "tile type"
        } else {
            "tile types"
        };
        let mut text = format!("{tile_types} {noun} of {}", ids.join(", "));
        // The sets the printed ones require (transitively) that are loaded but not printed.
        let mut required: Vec<usize> = Vec::new();
        let mut todo: Vec<usize> = self.sets.clone();
        while let Some(i) = todo.pop() {
            for id in &tileset.sets[i].requires {
                if let Some(j) = tileset.sets.iter().position(|s| s.id == *id)
                    && !required.contains(&j)
                {
                    required.push(j);
                    todo.push(j);
                }
            }
        }
        required.retain(|j| !self.sets.contains(j));
        required.sort_unstable();
        if !required.is_empty() {
            let names: Vec<String> = required
                .iter()
                .map(|&j| format!("`{}`", tileset.sets[j].id))
                .collect();
            text.push_str(&format!(" (requires {}, not printed)", names.join(", ")));
        }
        text
    }
}

/// `--games`: 1 to a billion (0 games has no statistics; more would run for days).
pub fn games() -> clap::builder::RangedU64ValueParser<u64> {
    clap::builder::RangedU64ValueParser::new().range(1..=1_000_000_000)
}

/// `--players`: 1 to the engine's limit.
pub fn players() -> clap::builder::RangedI64ValueParser<u8> {
    clap::builder::RangedI64ValueParser::new().range(1..=i64::from(engine::game::MAX_PLAYERS))
}

/// `--players` of `simulate`: how each seat plays.
#[derive(Clone, Debug)]
pub struct Seats(pub Vec<engine::players::Strategy>);

/// Parses `--players`: a number N (N random players, 1 to the engine's limit) or one player
/// per seat, comma-separated (`greedy,mcts:500,random`).
pub fn seats(text: &str) -> Result<Seats, String> {
    engine::players::parse_seats(text, engine::game::MAX_PLAYERS).map(Seats)
}

/// `--tiles`: 1 (the start tile alone) to the engine's limit of tiles in a game.
pub fn tiles() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=engine::board::MAX_TILES as u64)
}
