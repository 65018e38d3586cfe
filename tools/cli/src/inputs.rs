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
    /// base game, Festival and Village Life).
    pub paths: Vec<PathBuf>,
}

impl Inputs {
    /// Reads the sources named (or the defaults).
    pub fn sources(&self) -> miette::Result<Vec<Source>> {
        if !self.paths.is_empty() {
            return tiledef::read_paths(&self.paths).into_diagnostic();
        }
        let local = PathBuf::from("definitions");
        if local.join("base.toml").is_file() {
            tiledef::read_paths(&[local])
                .into_diagnostic()
                .wrap_err("reading ./definitions")
        } else {
            Ok(tiledef::bundled())
        }
    }
}

/// Loads the inputs, printing every diagnostic to stderr.
pub fn load_and_report(inputs: &Inputs) -> miette::Result<Report> {
    let report = tiledef::load(inputs.sources()?);
    print_diagnostics(&report);
    Ok(report)
}

/// Prints the diagnostics of a report to stderr, in colour on a terminal.
pub fn print_diagnostics(report: &Report) {
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    for d in &report.diagnostics {
        if colour {
            let handler = miette::GraphicalReportHandler::new().with_width(100);
            let mut out = String::new();
            if handler.render_report(&mut out, d).is_ok() {
                eprintln!("{out}");
                continue;
            }
        }
        eprintln!("{}", d.render_plain());
    }
}

/// Loads the inputs and insists that they are valid.
pub fn load_valid(inputs: &Inputs) -> miette::Result<Result<tiledef::TileSet, Report>> {
    let report = load_and_report(inputs)?;
    Ok(match report.tileset {
        Some(tileset) => Ok(tileset),
        None => Err(Report {
            tileset: None,
            ..report
        }),
    })
}
