//! `tilekit build`: the main job. Validates the sets and writes everything derived from them
//! into the output folder.

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
    write_atomic(&args.out.join("report.txt"), text.as_bytes())?;
    println!("wrote {}", args.out.join("report.txt").display());
    Ok(ExitCode::SUCCESS)
}
