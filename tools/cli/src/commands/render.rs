//! `tilekit render`: one preview PNG per tile type, optionally with the feature overlay, and the
//! contact sheet of all tile types.

use crate::inputs::{Check, Inputs, SetsArg, load_printed};
use crate::output::write_atomic;
use clap::Args;
use miette::{IntoDiagnostic, WrapErr, miette};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tiledef::TileSet;
use tilekit_render::contact::{ContactOptions, contact_sheet};
use tilekit_render::{DrawOptions, Label, RenderError};

/// Examples shown under `tilekit render --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit render --out previews                      every bundled tile type at 512 px
  tilekit render my-set.toml definitions/base.toml --out previews --tile MY-01 --overlay
  tilekit render --contact-sheet contact-sheet.png   all tile types in one picture
  tilekit render lakeland.toml --sets lakeland --out previews   only your set, not what it requires";

/// Arguments of `tilekit render`.
#[derive(Args)]
pub struct RenderArgs {
    #[command(flatten)]
    inputs: Inputs,
    #[command(flatten)]
    sets: SetsArg,
    /// Folder for the tile PNGs (one `<id>.png` per tile type).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Picture size in pixels.
    #[arg(long, value_name = "PX", default_value_t = 512, value_parser = clap::value_parser!(u32).range(16..=8192))]
    size: u32,
    /// Only these tile types (by id or alias); repeat for several.
    #[arg(long = "tile", value_name = "ID")]
    tiles: Vec<String>,
    /// Tint each feature with its id, name the ports and draw the `moves` links (a line through
    /// each link's features), over the picture or the artwork.
    #[arg(long)]
    overlay: bool,
    /// Also write a contact sheet of the chosen tile types to this PNG file.
    #[arg(long, value_name = "FILE.png")]
    contact_sheet: Option<PathBuf>,
    /// Print each tile's id small in the contact sheet too, and on the previews of tiles with
    /// their own artwork (drawn tiles' previews always have it).
    #[arg(long)]
    labels: bool,
}

/// Runs `tilekit render`.
pub fn run(args: &RenderArgs) -> Result<ExitCode, miette::Report> {
    if args.out.is_none() && args.contact_sheet.is_none() {
        crate::errln!("error: say where to write: --out DIR and/or --contact-sheet FILE.png");
        return Ok(ExitCode::from(2));
    }
    if let Some(dir) = &args.out {
        crate::output::check_folder("--out", dir)?;
    }
    let (tileset, printed) = match load_printed(&args.inputs, &args.sets, Check::Pictures)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let chosen = if args.tiles.is_empty() {
        printed.tiles(&tileset)
    } else {
        match choose(&tileset, &args.tiles) {
            Ok(chosen) => chosen,
            Err(message) => {
                crate::errln!("error: {message}");
                return Ok(ExitCode::from(2));
            }
        }
    };
    let what = if args.tiles.is_empty() {
        printed.describe(&tileset, chosen.len())
    } else {
        match chosen.len() {
            1 => "1 tile type".to_string(),
            n => format!("{n} tile types"),
        }
    };
    let mut outputs: Vec<PathBuf> = args.contact_sheet.iter().cloned().collect();
    if let Some(dir) = &args.out {
        outputs.extend(preview_paths(&tileset, &chosen, dir));
    }
    crate::inputs::guard_outputs(&args.inputs, &tileset, &outputs)?;
    let options = DrawOptions {
        overlay: args.overlay,
        label: if args.labels {
            Label::All
        } else {
            Label::Drawn
        },
        artwork: true,
    };
    let result = (|| -> Result<(), Failure> {
        if let Some(dir) = &args.out {
            write_previews(&tileset, &chosen, dir, args.size, &options)?;
            crate::errln!("printed {what} to {}", dir.display());
        }
        if let Some(file) = &args.contact_sheet {
            write_contact_sheet(&tileset, &chosen, file, args.overlay, args.labels)?;
            crate::errln!("printed {what} on the contact sheet {}", file.display());
        }
        Ok(())
    })();
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(Failure::Input(e)) => {
            // A missing or broken artwork file is a problem of the definitions: exit 1.
            crate::errln!("error: {e}");
            Ok(ExitCode::from(1))
        }
        Err(Failure::Other(report)) => Err(report),
    }
}

/// Why writing pictures failed: the input's fault, or the machine's.
pub enum Failure {
    /// The definitions point at something unusable (an artwork file).
    Input(RenderError),
    /// Writing or encoding failed.
    Other(miette::Report),
}

impl From<RenderError> for Failure {
    fn from(e: RenderError) -> Failure {
        match e {
            RenderError::Artwork { .. } | RenderError::Picture { .. } => Failure::Input(e),
            other => Failure::Other(miette!("{other}")),
        }
    }
}

impl From<miette::Report> for Failure {
    fn from(e: miette::Report) -> Failure {
        Failure::Other(e)
    }
}

/// The indices of the tile types asked for (all when none are named).
pub fn choose(tileset: &TileSet, ids: &[String]) -> Result<Vec<usize>, String> {
    if ids.is_empty() {
        return Ok((0..tileset.tiles.len()).collect());
    }
    ids.iter()
        .map(|id| {
            tileset
                .tiles
                .iter()
                .position(|t| t.id == *id || t.aliases.iter().any(|a| a == id))
                .ok_or_else(|| format!("no tile type `{id}` in the loaded sets"))
        })
        .collect()
}

/// Writes `<id>.png` for each chosen tile into `dir`; returns how many.
pub fn write_previews(
    tileset: &TileSet,
    chosen: &[usize],
    dir: &Path,
    size: u32,
    options: &DrawOptions,
) -> Result<usize, Failure> {
    std::fs::create_dir_all(dir)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot create {}", dir.display()))?;
    let pictures = tilekit_render::render_pngs(tileset, chosen, size, options)?;
    for (id, bytes) in &pictures {
        write_atomic(&preview_path(dir, id), bytes)?;
    }
    Ok(pictures.len())
}

/// Where the preview of a tile type goes.
fn preview_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.png"))
}

/// The previews `write_previews` would write.
pub fn preview_paths(tileset: &TileSet, chosen: &[usize], dir: &Path) -> Vec<PathBuf> {
    chosen
        .iter()
        .map(|&t| preview_path(dir, &tileset.tiles[t].id))
        .collect()
}

/// Writes the contact sheet of the chosen tiles.
pub fn write_contact_sheet(
    tileset: &TileSet,
    chosen: &[usize],
    file: &Path,
    overlay: bool,
    labels: bool,
) -> Result<(), Failure> {
    let sheet = contact_sheet(
        tileset,
        chosen,
        &ContactOptions {
            overlay,
            labels,
            ..ContactOptions::default()
        },
    )?;
    write_atomic(file, &tilekit_render::raster::encode_png(&sheet)?)?;
    Ok(())
}
