//! `tilekit import jcz`: JCloisterZone tile XML → tilekit definition files, a report of what
//! could not be carried over, and a validation of what was written.

use crate::commands::validate::summary_line;
use crate::inputs::{Inputs, print_diagnostics};
use crate::output::write_atomic;
use clap::{Args, Subcommand};
use miette::{IntoDiagnostic, WrapErr, miette};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tilekit_jcz::import::VOCABULARY_SET;

/// Examples shown by `tilekit import jcz --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit import jcz ~/JCloisterZone/expansions --out imported
  tilekit import jcz basic.xml river.xml --out imported
  tilekit validate imported/*.toml

Exit status: 0 imported and valid, 1 invalid input (or an imported file does not validate),
2 usage or I/O error.";

/// Arguments of `tilekit import`.
#[derive(Args)]
pub struct ImportArgs {
    #[command(subcommand)]
    from: From,
}

/// Formats that can be imported.
#[derive(Subcommand)]
enum From {
    /// JCloisterZone expansion XML (files, or folders of `.xml` files).
    #[command(after_help = EXAMPLES)]
    Jcz(JczArgs),
}

/// Arguments of `tilekit import jcz`.
#[derive(Args)]
struct JczArgs {
    /// JCZ XML files, or folders of them (e.g. a JCloisterZone install's `expansions/`).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The folder to write the definitions, the schema and `import-report.txt` into.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Runs `tilekit import`.
pub fn run(args: &ImportArgs) -> miette::Result<ExitCode> {
    match &args.from {
        From::Jcz(args) => jcz(args),
    }
}

fn same_path(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn xml_files(paths: &[PathBuf]) -> miette::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .into_diagnostic()
                .wrap_err_with(|| format!("cannot read {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "xml"))
                .collect();
            if found.is_empty() {
                return Err(miette!("{} has no .xml file", path.display()));
            }
            found.sort();
            files.extend(found);
        } else if path.exists() {
            // A device or FIFO is refused when read, naming what it is.
            files.push(path.clone());
        } else {
            return Err(miette!("{}: no such file or folder", path.display()));
        }
    }
    Ok(files)
}

fn jcz(args: &JczArgs) -> miette::Result<ExitCode> {
    crate::output::check_folder("--out", &args.out)?;
    if let Some(input) = args.paths.iter().find(|p| same_path(p, &args.out)) {
        return Err(miette!(
            "--out {} is one of the inputs; write the import into a folder of its own",
            input.display()
        ));
    }
    let files = xml_files(&args.paths)?;
    let mut inputs = Vec::new();
    for file in &files {
        let text = tiledef::read_text(file).into_diagnostic()?;
        inputs.push((file.display().to_string(), text));
    }
    let import = match tilekit_jcz::import_texts(&inputs) {
        Ok(import) => import,
        Err(e) => {
            crate::errln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };

    let mut import = import;
    let vocabulary = args.out.join(format!("{VOCABULARY_SET}.toml"));
    if let Some(set) = import
        .sets
        .iter_mut()
        .find(|s| s.set.set.id == VOCABULARY_SET)
        && let Ok(text) = std::fs::read_to_string(&vocabulary)
        && let Ok(old) = toml::from_str::<tiledef::TileSetFile>(&text)
        && old.set.id == VOCABULARY_SET
    {
        tilekit_jcz::import::merge_vocabulary(&mut set.set, &old);
    }
    let schema = args.out.join(tilekit_jcz::import::SCHEMA_FILE);
    let report_path = args.out.join("import-report.txt");
    let mut outputs: Vec<PathBuf> = import
        .sets
        .iter()
        .map(|set| args.out.join(&set.file_name))
        .collect();
    outputs.extend([schema.clone(), report_path.clone()]);
    // An input standing where an output goes (`import jcz out/base.toml --out out`) is kept.
    crate::output::refuse_overwriting(&files, &outputs)?;
    let mut written = Vec::new();
    for (set, path) in import.sets.iter().zip(&outputs) {
        let text = set
            .toml()
            .map_err(|e| miette!("cannot write set `{}` as TOML: {e}", set.set.set.id))?;
        write_atomic(path, text.as_bytes())?;
        written.push(path.clone());
    }
    write_atomic(&schema, tiledef::json_schema_text().as_bytes())?;
    let report = tilekit_jcz::report_text(
        "tilekit import jcz: what could not be carried over",
        "",
        &import.notes,
    );
    write_atomic(&report_path, report.as_bytes())?;

    for (name, _) in &inputs {
        let sets: Vec<&str> = import
            .sets
            .iter()
            .filter(|s| s.from.len() == 1 && &s.from[0] == name)
            .map(|s| s.file_name.as_str())
            .collect();
        let tiles: usize = import
            .sets
            .iter()
            .filter(|s| s.from.len() == 1 && &s.from[0] == name)
            .map(|s| s.set.tiles.len())
            .sum();
        let notes: Vec<&tilekit_jcz::Note> =
            import.notes.iter().filter(|n| &n.file == name).collect();
        let kinds = tilekit_jcz::count_kinds(notes.iter().copied());
        let what = kinds
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        crate::outln!(
            "{name}: {tiles} tile type{} → {}; {} not carried over{}",
            if tiles == 1 { "" } else { "s" },
            if sets.is_empty() {
                "no set".to_string()
            } else {
                sets.join(", ")
            },
            notes.len(),
            if what.is_empty() {
                String::new()
            } else {
                format!(" ({what})")
            }
        )?;
    }
    crate::outln!(
        "wrote {} files and import-report.txt into {}",
        written.len(),
        args.out.display()
    )?;

    // What was written must validate, with the bundled sets it requires.
    let check = Inputs { paths: written };
    let loaded = crate::inputs::load_checked(&check, crate::inputs::Check::Pictures)?;
    print_diagnostics(&loaded);
    if loaded.has_errors() {
        for file in &loaded.files {
            crate::errln!("{}", summary_line(file));
        }
        crate::errln!("error: the imported files do not all validate");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
