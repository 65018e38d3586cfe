//! `tilekit schema`: the JSON Schema of the format, for editors (Taplo, Even Better TOML), or
//! with `--of simulate` of what `tilekit simulate --json` prints, for programs that read it.

use crate::output::write_atomic;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `tilekit schema`.
#[derive(Args)]
pub struct SchemaArgs {
    /// Which document's schema.
    #[arg(long, value_enum, value_name = "DOCUMENT", default_value_t = Of::Format)]
    of: Of,
    /// Write the schema to this file instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The documents `tilekit schema` describes.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Of {
    /// Definition files (committed as definitions/schema/tileset.schema.json).
    Format,
    /// What `tilekit simulate --json` prints (committed as docs/simulate.schema.json).
    Simulate,
}

/// Runs `tilekit schema`.
pub fn run(args: &SchemaArgs) -> miette::Result<ExitCode> {
    let text = match args.of {
        Of::Format => tiledef::json_schema_text(),
        Of::Simulate => crate::commands::simulate::json_schema_text(),
    };
    match &args.out {
        Some(path) => write_atomic(path, text.as_bytes())?,
        None => crate::out!("{text}")?,
    }
    Ok(ExitCode::SUCCESS)
}
