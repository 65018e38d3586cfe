//! `tilekit validate`: check definition files and report every problem.

use crate::inputs::{Check, Inputs, load_checked, print_diagnostics};
use clap::{Args, ValueEnum};
use std::process::ExitCode;

mod play;

/// Examples shown by `tilekit validate --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit validate                                  the bundled definitions (or ./definitions)
  tilekit validate my-set.toml definitions/base.toml  an expansion with the set it requires
  tilekit validate definitions/ --format json       one JSON document on stdout
  tilekit validate my-set.toml --no-play             without the play check's games

Exit status: 0 valid (warnings allowed), 1 invalid, 2 usage or I/O error.";

/// Arguments of `tilekit validate`.
#[derive(Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Skip the play check's games: a few seeded games of each set named, which show tiles
    /// set aside, figures never deployed and rates never paid (what needs no game is still
    /// checked).
    #[arg(long)]
    no_play: bool,
}

/// Output formats.
#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Diagnostics with carets on stderr, a summary line per file on stdout.
    Text,
    /// One JSON document on stdout: files, diagnostics (with line and column), validity.
    Json,
}

/// Runs `tilekit validate`.
pub fn run(args: &ValidateArgs) -> miette::Result<ExitCode> {
    let mut report = load_checked(&args.inputs, Check::Pictures)?;
    // Printed with the diagnostics found before it, whatever stopped it.
    let played = play::check(&mut report, !args.no_play);
    match args.format {
        Format::Text => {
            print_diagnostics(&report);
            for file in &report.files {
                crate::outln!("{}", summary_line(file))?;
            }
        }
        Format::Json => {
            let json = serde_json::json!({
                "valid": !report.has_errors() && played.is_ok(),
                "files": report.files.iter().map(|f| serde_json::json!({
                    "file": f.name,
                    "set": f.set,
                    "tiles": f.tiles,
                    "errors": f.errors,
                    "warnings": f.warnings,
                })).collect::<Vec<_>>(),
                "diagnostics": report.diagnostics.iter().map(|d| d.to_json()).collect::<Vec<_>>(),
            });
            crate::output::print_json(&json)?;
        }
    }
    played?;
    Ok(if report.has_errors() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// One line per file: `path: ok (set `base`, 32 tile types)` or `path: 2 errors, 1 warning`.
pub fn summary_line(file: &tiledef::FileSummary) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let what = match &file.set {
        Some(set) => format!("set `{set}`, {}", plural(file.tiles, "tile type")),
        None => "not read".to_string(),
    };
    match (file.errors, file.warnings) {
        (0, 0) => format!("{}: ok ({what})", file.name),
        (0, w) => format!("{}: ok with {} ({what})", file.name, plural(w, "warning")),
        (e, 0) => format!("{}: {}", file.name, plural(e, "error")),
        (e, w) => format!(
            "{}: {}, {}",
            file.name,
            plural(e, "error"),
            plural(w, "warning")
        ),
    }
}
