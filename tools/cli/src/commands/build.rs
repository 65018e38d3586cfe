//! `tilekit build`: the main job. Validates the sets and writes everything derived from them
//! into the output folder.

use crate::commands::compile::{TablesFormat, tables_bytes};
use crate::commands::validate::summary_line;
use crate::inputs::{Inputs, load_and_report};
use crate::output::write_atomic;
use clap::Args;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Examples shown by `tilekit build --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit build --out out                       the bundled sets (or ./definitions)
  tilekit build my-set.toml definitions/base.toml --out my-out";

/// Arguments of `tilekit build`.
#[derive(Args)]
pub struct BuildArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// The folder to write into (created if missing).
    #[arg(long, default_value = "out")]
    out: PathBuf,
}

/// Runs `tilekit build`.
pub fn run(args: &BuildArgs) -> miette::Result<ExitCode> {
    let report = load_and_report(&args.inputs)?;
    let mut text = String::new();
    for file in &report.files {
        let _ = writeln!(text, "{}", summary_line(file));
    }
    for d in &report.diagnostics {
        let _ = writeln!(text, "\n{}", d.render_plain());
    }
    let Some(tileset) = report.tileset else {
        write_atomic(&args.out.join("report.txt"), text.as_bytes())?;
        eprintln!(
            "build stopped: the definitions have errors (see {})",
            args.out.join("report.txt").display()
        );
        return Ok(ExitCode::from(1));
    };
    let _ = writeln!(text, "\n{}", crate::commands::list::table(&tileset));

    let tables = engine::compile(&tileset).map_err(|e| miette::miette!("{e}"))?;
    let mut written = Vec::new();
    for (name, format) in [
        ("tables.bin", TablesFormat::Bin),
        ("tables.json", TablesFormat::Json),
    ] {
        let path = args.out.join(name);
        write_atomic(&path, &tables_bytes(&tables, format))?;
        written.push(path);
    }

    let report = args.out.join("report.txt");
    write_atomic(&report, text.as_bytes())?;
    written.push(report);
    for path in written {
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
