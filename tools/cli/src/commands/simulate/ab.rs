//! The B side of `tilekit simulate`: the same study with one change, played on the same seeds
//! as the main games (side A) and compared with them (`tilekit_report::compare`). A change is a
//! rule option switched on or off, a figure count, a tile type left out or given another count,
//! another list of sets, or another version of a set file (a file on disk, or a file's content
//! at a git revision, read with `git show`). `--compare SETS` is the special case "without
//! these sets", whose change is the sets the main games hold. B's definitions are checked as
//! A's are: their diagnostics printed, exit 1 when invalid.

use super::rules_in_play;
use crate::inputs::Inputs;
use clap::Args;
use engine::simulate::SimOptions;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tiledef::Source;
use tilekit_report::Spec;

/// The flags of a B side (each is one change; several make one B side).
#[derive(Args, Clone, Debug, Default)]
pub struct AbArgs {
    /// A/B: also play the same seeds with this rule option switched on (a house rule a set
    /// declares, or `wells`, `first-edition-small-city`, `monastery-flowers-3x3`) and report
    /// what it changes. Repeat it, or separate names with commas.
    #[arg(long = "b-option", value_name = "NAME", value_delimiter = ',')]
    b_option: Vec<String>,
    /// A/B: … with this rule option (on in the main games) switched off.
    #[arg(long = "b-no-option", value_name = "NAME", value_delimiter = ',')]
    b_no_option: Vec<String>,
    /// A/B: … with this many of a set's figures per player, as `ID=N` (`pig=2`).
    #[arg(long = "b-figure", value_name = "ID=N", value_delimiter = ',',
          value_parser = crate::rules::figure_count)]
    b_figure: Vec<(String, u8)>,
    /// A/B: … without this tile type in the bag (the start tile still starts).
    #[arg(long = "b-without-tile", value_name = "TILE", value_delimiter = ',')]
    b_without_tile: Vec<String>,
    /// A/B: … with this many copies of a tile type, as `ID=N` (`--b-tile A=4`).
    #[arg(long = "b-tile", value_name = "TILE=N", value_delimiter = ',', value_parser = tile_count)]
    b_tile: Vec<(String, u32)>,
    /// A/B: … with these sets in the bag instead (comma-separated ids).
    #[arg(long = "b-sets", value_name = "SETS", value_delimiter = ',')]
    b_sets: Vec<String>,
    /// A/B: … with another version of a set file: it replaces the loaded file that declares
    /// the same set id (an older copy, a variant). With `--b-rev`, the file's content at that
    /// git revision.
    #[arg(long = "b-definitions", value_name = "FILE")]
    b_definitions: Vec<PathBuf>,
    /// A/B: … with the definition files at a git revision (`HEAD~3`, a tag, a commit), read
    /// with `git show REV:FILE`: the files named by `--b-definitions`, else every file the main
    /// games read from disk.
    #[arg(long = "b-rev", value_name = "GIT_REV")]
    b_rev: Option<String>,
    /// A/B and `--compare`: the size of difference, in points, to say how many games would
    /// resolve (for each difference in points within the noise; default: its observed size).
    #[arg(long, value_name = "POINTS", value_parser = positive)]
    resolve: Option<f64>,
}

/// `A=4` as a tile id and a count.
fn tile_count(text: &str) -> Result<(String, u32), String> {
    let (id, n) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: write a tile id and a count, as `A=4`"))?;
    let max = tiledef::model::MAX_COUNT;
    let n = (n.trim().parse::<u32>().ok())
        .filter(|&n| n <= max)
        .ok_or_else(|| {
            format!("`{text}`: the count of `{id}` must be a whole number from 0 to {max}")
        })?;
    Ok((id.trim().to_string(), n))
}

/// `--resolve`: a size above 0.
fn positive(text: &str) -> Result<f64, String> {
    (text.trim().parse::<f64>().ok())
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or_else(|| format!("`{text}`: give a size in points above 0, as `0.5`"))
}

impl AbArgs {
    /// Whether any B-side change is asked for.
    pub fn any(&self) -> bool {
        !(self.b_option.is_empty()
            && self.b_no_option.is_empty()
            && self.b_figure.is_empty()
            && self.b_without_tile.is_empty()
            && self.b_tile.is_empty()
            && self.b_sets.is_empty()
            && self.b_definitions.is_empty()
            && self.b_rev.is_none())
    }

    /// `--resolve`, if given.
    pub fn resolve(&self) -> Option<f64> {
        self.resolve
    }
}

/// A B side ready to play.
pub struct BSide {
    /// Its own tables, when its data differ from A's (another file, another tile count).
    pub tables: Option<engine::Tables>,
    /// Its games.
    pub opts: SimOptions,
    /// The rules they play.
    pub rules: engine::Rules,
    /// What it is (its `paired` is worked out once both sides are known).
    pub spec: Spec,
}

/// A usage error, said: exit 2.
fn usage(message: String) -> ExitCode {
    crate::errln!("error: {message}");
    ExitCode::from(2)
}

/// The side without `sets` (`--compare`): the main games hold the change.
pub fn without_sets(
    tables: &engine::Tables,
    a: &SimOptions,
    sets: Vec<String>,
    compared: &[String],
    resolve: Option<f64>,
) -> Result<BSide, ExitCode> {
    let opts = SimOptions { sets, ..a.clone() };
    match rules_in_play(tables, &opts) {
        Ok(rules) => Ok(BSide {
            tables: None,
            opts,
            rules,
            spec: Spec {
                sets: compared.to_vec(),
                title: format!("with and without {}", compared.join(", ")),
                labels: ["with".into(), "without".into()],
                b_is_change: false,
                paired: false,
                resolve,
            },
        }),
        Err(e) => Err(usage(format!("without {}: {e}", compared.join(", ")))),
    }
}

/// The B side the flags ask for (None without any), its data checked and its options set up
/// on one game; a diagnostic or an error said, and the exit status to end with.
pub fn b_side(
    args: &AbArgs,
    inputs: &Inputs,
    a_tables: &engine::Tables,
    a: &SimOptions,
    a_rules: &engine::Rules,
) -> miette::Result<Result<Option<BSide>, ExitCode>> {
    if !args.any() {
        return Ok(Ok(None));
    }
    // Phase 1: the data (another file, another tile count).
    let mut changes: Vec<(String, String)> = Vec::new();
    let mut tables = match other_definitions(args, inputs, &mut changes)? {
        Ok(tables) => tables,
        Err(code) => return Ok(Err(code)),
    };
    if !(args.b_without_tile.is_empty() && args.b_tile.is_empty()) {
        let mut t = tables.take().unwrap_or_else(|| a_tables.clone());
        if let Err(code) = recount(args, &mut t, a_tables, a, &mut changes) {
            return Ok(Err(code));
        }
        tables = Some(t);
    }
    // Phase 2: the options.
    let mut opts = a.clone();
    if let Err(code) = options(args, &mut opts, a_rules, &mut changes) {
        return Ok(Err(code));
    }
    let b_tables = tables.as_ref().unwrap_or(a_tables);
    let rules = match rules_in_play(b_tables, &opts) {
        Ok(rules) => rules,
        Err(e) => return Ok(Err(usage(format!("the B side: {e}")))),
    };
    // Phase 3: what it is called.
    let (title, labels) = match changes.as_slice() {
        [(change, base)] => (
            format!("{change} vs {base}"),
            [change.clone(), base.clone()],
        ),
        _ => {
            let all: Vec<&str> = changes.iter().map(|c| c.0.as_str()).collect();
            let title = format!("{} vs the main games", all.join("; "));
            (title, ["B side".to_string(), "main games".to_string()])
        }
    };
    Ok(Ok(Some(BSide {
        tables,
        opts,
        rules,
        spec: Spec {
            sets: Vec::new(),
            title,
            labels,
            b_is_change: true,
            paired: false,
            resolve: args.resolve,
        },
    })))
}

/// The rule options, figure counts and sets of the B side.
fn options(
    args: &AbArgs,
    opts: &mut SimOptions,
    a_rules: &engine::Rules,
    changes: &mut Vec<(String, String)>,
) -> Result<(), ExitCode> {
    let kind = |name: &str| {
        if engine::options::BUILT_IN_OPTIONS.contains(&name) {
            "rule option"
        } else {
            "house rule"
        }
    };
    for name in &args.b_option {
        if a_rules.is_on(name) {
            return Err(usage(format!(
                "--b-option {name}: it is on in the main games already (--b-no-option {name} \
                 compares without it)"
            )));
        }
        if !opts.rules.on.contains(name) {
            opts.rules.on.push(name.clone());
        }
        changes.push((
            format!("with the {} `{name}`", kind(name)),
            "without".into(),
        ));
    }
    for name in &args.b_no_option {
        if !a_rules.is_on(name) {
            let on = if a_rules.on.is_empty() {
                "none".to_string()
            } else {
                a_rules.on.join(", ")
            };
            return Err(usage(format!(
                "--b-no-option {name}: it is not on in the main games (on: {on}; --b-option \
                 {name} compares with it)"
            )));
        }
        let rules = &mut opts.rules;
        rules.on.retain(|o| o != name);
        // A built-in option's own switch goes off with it.
        rules.modules.switch_off(name);
        if name == engine::options::FIRST_EDITION_SMALL_CITY {
            rules.first_edition_small_city = false;
        }
        changes.push((
            format!("without the {} `{name}`", kind(name)),
            "with".into(),
        ));
    }
    for (id, n) in &args.b_figure {
        let had = (a_rules.figures.iter())
            .find(|f| &f.0 == id)
            .map_or(0, |f| f.1);
        opts.rules.figures.insert(id.clone(), *n);
        changes.push((format!("with {n} `{id}` each"), format!("with {had}")));
    }
    if !args.b_sets.is_empty() {
        let a_sets = a_rules.sets.join(", ");
        opts.sets = args.b_sets.clone();
        changes.push((
            format!("with sets {}", args.b_sets.join(", ")),
            format!("with {a_sets}"),
        ));
    }
    Ok(())
}

/// Tile types left out or given another count, in the B side's tables.
fn recount(
    args: &AbArgs,
    tables: &mut engine::Tables,
    a_tables: &engine::Tables,
    a: &SimOptions,
    changes: &mut Vec<(String, String)>,
) -> Result<(), ExitCode> {
    let edition = (a.edition.as_ref())
        .and_then(|e| a_tables.editions.iter().position(|x| x == e))
        .unwrap_or(a_tables.editions.len().saturating_sub(1));
    let asked = (args.b_without_tile.iter().map(|id| (id, 0, true)))
        .chain(args.b_tile.iter().map(|(id, n)| (id, *n, false)));
    for (id, n, without) in asked {
        let Some(k) = tables.kind_by_id(id) else {
            let ids: Vec<&str> = tables.kinds.iter().map(|k| k.id.as_str()).collect();
            let flag = if without {
                "--b-without-tile"
            } else {
                "--b-tile"
            };
            return Err(usage(format!(
                "{flag} {id}: no tile type `{id}` is loaded{}",
                engine::options::did_you_mean(id, &ids.join(", "))
            )));
        };
        let counts = &mut tables.kinds[k.index()].counts;
        let had = counts.get(edition).copied().unwrap_or(0);
        // Every edition alike: the count holds whichever edition the games use.
        counts.iter_mut().for_each(|c| *c = n);
        changes.push(if without {
            (format!("without tile `{id}`"), format!("with its {had}"))
        } else {
            (format!("with {n} × tile `{id}`"), format!("with {had}"))
        });
    }
    Ok(())
}

/// The B side's tables when its definitions differ from A's (`--b-definitions`, `--b-rev`):
/// A's sources with the other versions in place, loaded, checked and compiled.
fn other_definitions(
    args: &AbArgs,
    inputs: &Inputs,
    changes: &mut Vec<(String, String)>,
) -> miette::Result<Result<Option<engine::Tables>, ExitCode>> {
    if args.b_definitions.is_empty() && args.b_rev.is_none() {
        return Ok(Ok(None));
    }
    let mut sources = inputs.sources()?;
    let rev = args.b_rev.as_deref();
    let files: Vec<PathBuf> = if args.b_definitions.is_empty() {
        (sources.iter())
            .filter(|s| !s.name.ends_with(tiledef::BUNDLED_SUFFIX))
            .map(|s| PathBuf::from(&s.name))
            .collect()
    } else {
        args.b_definitions.clone()
    };
    if files.is_empty() {
        return Ok(Err(usage(
            "--b-rev: the main games read no file from disk, only bundled sets (name the \
             files, or --b-definitions FILE)"
                .into(),
        )));
    }
    for file in &files {
        let (name, text) = match read_version(file, rev) {
            Ok(found) => found,
            Err(message) => return Ok(Err(usage(message))),
        };
        if let Err(message) = replace(&mut sources, name.clone(), text) {
            return Ok(Err(usage(format!("{}: {message}", file.display()))));
        }
        let base = if rev.is_some() {
            "as on disk"
        } else {
            "as loaded"
        };
        changes.push((format!("with {name}"), base.into()));
    }
    let report = tiledef::load(sources);
    crate::inputs::print_diagnostics(&report);
    let Some(tileset) = report.tileset else {
        crate::errln!("error: the B side's definitions are invalid (see above)");
        return Ok(Err(ExitCode::from(1)));
    };
    Ok(Ok(Some(crate::inputs::compile_tables(&tileset)?)))
}

/// A file's name (as diagnostics show it) and text: from disk, or at a git revision.
fn read_version(file: &Path, rev: Option<&str>) -> Result<(String, String), String> {
    match rev {
        None => tiledef::read_text(file)
            .map(|text| (file.display().to_string(), text))
            .map_err(|e| format!("--b-definitions: {e}")),
        Some(rev) => git_show(rev, file).map(|text| (format!("{} at {rev}", file.display()), text)),
    }
}

/// A file's content at a git revision (`git show REV:./FILE`, run in the file's folder so any
/// working directory will do).
fn git_show(rev: &str, file: &Path) -> Result<String, String> {
    if rev.starts_with('-') || rev.contains(':') {
        return Err(format!(
            "--b-rev {rev}: not a revision (write a commit, a tag, a branch or `HEAD~N`)"
        ));
    }
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .arg("show")
        .arg(format!("{rev}:./{name}"))
        .output()
        .map_err(|e| format!("--b-rev: cannot run git: {e}"))?;
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stderr);
        let said = said.lines().next().unwrap_or("").trim();
        let said = said.strip_prefix("fatal: ").unwrap_or(said);
        return Err(format!(
            "--b-rev {rev}: cannot read {} at {rev}: {said}",
            file.display()
        ));
    }
    if out.stdout.len() as u64 > tiledef::MAX_FILE_BYTES {
        return Err(format!(
            "--b-rev {rev}: {} is over {} MiB at {rev}",
            file.display(),
            tiledef::MAX_FILE_BYTES >> 20
        ));
    }
    String::from_utf8(out.stdout)
        .map_err(|_| format!("--b-rev {rev}: {} is not UTF-8 at {rev}", file.display()))
}

/// Puts `text` in place of the source declaring the same set.
fn replace(sources: &mut [Source], name: String, text: String) -> Result<(), String> {
    let Some(id) = tiledef::declared_set(&text).0 else {
        return Err("it declares no set (`[set] id`), so no loaded file can be replaced".into());
    };
    let declares = |s: &Source| tiledef::declared_set(&s.text).0.as_deref() == Some(id.as_str());
    let Some(at) = sources.iter().position(declares) else {
        let loaded: Vec<String> = (sources.iter())
            .filter_map(|s| tiledef::declared_set(&s.text).0)
            .collect();
        return Err(format!(
            "it declares set `{id}`, which the main games do not load (loaded: {})",
            loaded.join(", ")
        ));
    };
    sources[at] = Source { name, text };
    Ok(())
}

/// What the main games and a B side gathered.
pub struct Played {
    /// The main games' statistics.
    pub stats: engine::simulate::SimStats,
    /// The main games' tally.
    pub tally: tilekit_report::Tally,
    /// Seconds the main games took (B's excluded).
    pub seconds: f64,
    /// The comparison.
    pub comparison: tilekit_report::Comparison,
}

/// Plays the main games and the B side on the same seeds, game i of each paired, and compares
/// them (paired intervals when both sides draw the same tiles).
pub fn play(
    tables: &engine::Tables,
    opts: &SimOptions,
    b: BSide,
    own_sets: &[String],
    progress: &(dyn Fn(u64) + Sync),
) -> miette::Result<Played> {
    use tilekit_report::paired::{Side, run_pair, same_draw};
    use tilekit_report::{Tallied, Tally};
    let b_tables = b.tables.as_ref().unwrap_or(tables);
    let side_a = Side { tables, opts };
    let side_b = Side {
        tables: b_tables,
        opts: &b.opts,
    };
    let new_a = || {
        (
            engine::simulate::SimStats::new(opts.players, tables.kinds.len()),
            Tally::new(tables, opts.players),
        )
    };
    let new_b = || Tally::new(b_tables, b.opts.players);
    let run =
        run_pair(side_a, side_b, &new_a, &new_b, progress).map_err(|e| miette::miette!("{e}"))?;
    let spec = Spec {
        paired: same_draw(side_a, side_b),
        ..b.spec
    };
    let (stats, tally) = run.a;
    let comparison = tilekit_report::Comparison::of_run(
        spec,
        Tallied {
            tables,
            tally: &tally,
        },
        Tallied {
            tables: b_tables,
            tally: &run.b,
        },
        super::run_info(b_tables, &b.opts, &b.rules, own_sets),
        &run.sums,
    );
    Ok(Played {
        stats,
        tally,
        seconds: run.a_seconds,
        comparison,
    })
}
