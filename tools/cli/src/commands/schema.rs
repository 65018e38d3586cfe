//! `tilekit schema`: the JSON Schema of the format, for editors (Taplo, Even Better TOML).

use crate::output::write_atomic;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `tilekit schema`.
#[derive(Args)]
pub struct SchemaArgs {
    /// Write the schema to this file instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs `tilekit schema`.
pub fn run(args: &SchemaArgs) -> miette::Result<ExitCode> {
    let text = tiledef::json_schema_text();
    match &args.out {
        Some(path) => write_atomic(path, text.as_bytes())?,
        None => crate::out!("{text}")?,
    }
    Ok(ExitCode::SUCCESS)
}
