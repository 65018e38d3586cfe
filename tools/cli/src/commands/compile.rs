//! `tilekit compile`: definitions → the engine's compiled tables, as CBOR binary or JSON.

use crate::inputs::{Inputs, load_valid};
use crate::output::write_atomic;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Examples shown by `tilekit compile --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit compile --out out/tables.bin
  tilekit compile definitions/ --out tables.json --format json";

/// The form of the written tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TablesFormat {
    /// `TKTABLES`, a little-endian u32 version, then CBOR.
    Bin,
    /// Pretty JSON (documented in engine/TABLES.md).
    Json,
}

/// Arguments of `tilekit compile`.
#[derive(Args)]
pub struct CompileArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// The file to write.
    #[arg(long)]
    out: PathBuf,
    /// The form to write (default: from the extension, `.json` → json, else bin).
    #[arg(long, value_enum)]
    format: Option<TablesFormat>,
}

/// Compiles and writes the tables in a form.
pub fn write_tables(
    tileset: &tiledef::TileSet,
    out: &std::path::Path,
    format: TablesFormat,
) -> miette::Result<engine::Tables> {
    let tables = crate::inputs::compile_tables(tileset)?;
    write_atomic(out, &tables_bytes(&tables, format))?;
    Ok(tables)
}

/// The bytes of compiled tables in a form; shared with `tilekit build`.
pub fn tables_bytes(tables: &engine::Tables, format: TablesFormat) -> Vec<u8> {
    match format {
        TablesFormat::Bin => tables.to_bytes(),
        TablesFormat::Json => {
            let mut text = tables.to_json();
            text.push('\n');
            text.into_bytes()
        }
    }
}

/// Runs `tilekit compile`.
pub fn run(args: &CompileArgs) -> miette::Result<ExitCode> {
    let Ok(tileset) = load_valid(&args.inputs)? else {
        return Ok(ExitCode::from(1));
    };
    let format = args.format.unwrap_or_else(|| {
        if args.out.extension().is_some_and(|e| e == "json") {
            TablesFormat::Json
        } else {
            TablesFormat::Bin
        }
    });
    crate::inputs::guard_outputs(&args.inputs, &tileset, std::slice::from_ref(&args.out))?;
    let tables = write_tables(&tileset, &args.out, format)?;
    // On stderr, like `render` and `sheet`: `--out /dev/stdout` gets the tables alone.
    crate::errln!(
        "wrote {} ({} tile kinds, {} orientations, {} edge kinds, index of {} entries)",
        args.out.display(),
        tables.kinds.len(),
        tables.orients.len(),
        tables.edge_kinds.len(),
        tables.index.fits.len()
    );
    Ok(ExitCode::SUCCESS)
}
