//! `tilekit sheet`: print-ready tile sheets, as a PDF (and optionally PNG pages).

use crate::commands::render::Failure;
use crate::inputs::{Check, Inputs, SetsArg, load_printed};
use crate::output::{write_atomic, write_atomic_with};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use miette::{IntoDiagnostic, WrapErr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tiledef::TileSet;
use tilekit_render::RenderError;
use tilekit_render::sheet::{
    Back, Paper, SheetLayout, SheetOptions, layout, page_pixmap, write_pdf_with_progress,
};

/// Examples shown under `tilekit sheet --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit sheet --out tiles.pdf                          the bundled sets on A4, 45 mm tiles
  tilekit sheet definitions/base.toml --out base.pdf --paper letter --edition C1
  tilekit sheet my-set.toml definitions/base.toml --out my.pdf --backs --png-dir pages --dpi 150
  tilekit sheet my-set.toml --out my.pdf --backs my-back.png        your own back on every tile
  tilekit sheet lakeland.toml --sets lakeland --labels --out lakeland.pdf   only your set, ids on";

/// Paper sizes.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PaperArg {
    /// ISO A4 (210 × 297 mm).
    A4,
    /// US Letter (8.5 × 11 in).
    Letter,
}

/// Arguments of `tilekit sheet`.
#[derive(Args)]
pub struct SheetArgs {
    #[command(flatten)]
    inputs: Inputs,
    #[command(flatten)]
    sets: SetsArg,
    /// The PDF to write.
    #[arg(long, value_name = "FILE.pdf")]
    out: PathBuf,
    /// Paper size.
    #[arg(long, value_enum, default_value = "a4")]
    paper: PaperArg,
    /// Whose counts to print (an edition id such as C1); default: the newest edition.
    #[arg(long, value_name = "ID")]
    edition: Option<String>,
    /// Tile size (the cut square) in millimetres (10–180).
    #[arg(long, value_name = "MM", default_value_t = 45.0)]
    tile_mm: f32,
    /// Picture beyond the cut line on every side, in millimetres (0–10).
    #[arg(long, value_name = "MM", default_value_t = 3.0)]
    bleed_mm: f32,
    /// Unprinted page margin in millimetres (0–50).
    #[arg(long, value_name = "MM", default_value_t = 5.0)]
    margin_mm: f32,
    /// Add mirrored back pages for long-edge duplex printing: `plain` (the same back on every
    /// tile, the default), `set` (the set's name on each back, for sorting sets apart) or the
    /// path of your own back picture (a PNG).
    #[arg(long, value_name = "plain|set|FILE.png", num_args = 0..=1, default_missing_value = "plain")]
    backs: Option<String>,
    /// Also write every page as a PNG into this folder.
    #[arg(long, value_name = "DIR")]
    png_dir: Option<PathBuf>,
    /// Resolution of tile pictures and PNG pages.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(36..=1200))]
    dpi: u32,
    /// Print each tile's id small in its corner.
    #[arg(long)]
    labels: bool,
}

/// Runs `tilekit sheet`.
pub fn run(args: &SheetArgs) -> Result<ExitCode, miette::Report> {
    let mut options = SheetOptions {
        paper: match args.paper {
            PaperArg::A4 => Paper::A4,
            PaperArg::Letter => Paper::Letter,
        },
        edition: 0,
        tile_mm: args.tile_mm,
        bleed_mm: args.bleed_mm,
        margin_mm: args.margin_mm,
        backs: args.backs.is_some(),
        back: match args.backs.as_deref() {
            None | Some("plain") => Back::Plain,
            Some("set") => Back::SetName,
            Some(path) => Back::Image(PathBuf::from(path)),
        },
        dpi: args.dpi,
        sets: None,
        labels: args.labels,
    };
    // Options that cannot make a usable sheet are refused before anything is read.
    if let Err(e) = options.check() {
        crate::errln!("error: {e}");
        return Ok(ExitCode::from(2));
    }
    if let Back::Image(path) = &options.back {
        // `--backs my-set.toml` took the definitions for the back: say how to write both.
        if path.is_dir() || path.extension().is_some_and(|e| e == "toml") {
            crate::errln!(
                "error: --backs {}: a back is `plain`, `set` or a PNG picture (to name definitions after it, write `--backs plain`)",
                path.display()
            );
            return Ok(ExitCode::from(2));
        }
        if let Err(e) = tilekit_render::raster::load_artwork(path, "back") {
            let why = match e {
                tilekit_render::RenderError::Artwork { reason, .. } => reason,
                other => other.to_string(),
            };
            crate::errln!("error: --backs {}: {why}", path.display());
            return Ok(ExitCode::from(2));
        }
    }
    let (tileset, printed) = match load_printed(&args.inputs, &args.sets, Check::Pictures)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    options.sets = Some(printed.sets.clone());
    let edition = match &args.edition {
        None => tileset.default_edition(),
        Some(id) => match tileset.edition(id) {
            Some(e) => e,
            None => {
                let known: Vec<&str> = tileset.editions.iter().map(|e| e.id.as_str()).collect();
                crate::errln!(
                    "error: no edition `{id}` in the loaded sets (known: {})",
                    known.join(", ")
                );
                return Ok(ExitCode::from(2));
            }
        },
    };
    options.edition = edition;
    let mut outputs = vec![args.out.clone()];
    if let Some(dir) = &args.png_dir {
        // Pages are `<stem>-NN.png`; any such file there now could be replaced.
        let stem = page_stem(&args.out);
        outputs.extend(crate::inputs::entries(dir).into_iter().filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{stem}-")) && n.ends_with(".png"))
        }));
    }
    crate::inputs::guard_outputs(&args.inputs, &tileset, &outputs)?;
    if let Back::Image(path) = &options.back {
        crate::output::refuse_overwriting(std::slice::from_ref(path), &outputs)?;
    }
    match write_sheet(&tileset, &options, &args.out, args.png_dir.as_deref()) {
        Ok(sheet) => {
            let pages = sheet.pages.len();
            crate::errln!(
                "printed {} to {} ({} tiles on {pages} {} {}, {}×{} per page)",
                printed.describe(&tileset, printed.tiles(&tileset).len()),
                args.out.display(),
                sheet.tiles_placed,
                options.paper.name(),
                if pages == 1 { "page" } else { "pages" },
                sheet.columns,
                sheet.rows
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(Failure::Input(e)) => {
            crate::errln!("error: {e}");
            Ok(ExitCode::from(1))
        }
        Err(Failure::Other(report)) => Err(report),
    }
}

/// Lays out and writes the PDF (and PNG pages when a folder is given).
pub fn write_sheet(
    tileset: &TileSet,
    options: &SheetOptions,
    pdf: &Path,
    png_dir: Option<&Path>,
) -> Result<SheetLayout, Failure> {
    let sheet = match layout(tileset, options) {
        Ok(sheet) => sheet,
        // Sizes that cannot fit are a usage problem, reported as such.
        Err(e) => return Err(Failure::Other(miette::miette!("{e}"))),
    };
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} tile pictures") {
        bar.set_style(style);
    }
    let progress = |done: usize, total: usize| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    };
    // Streamed: the file is written as its pictures are made, and replaces any old one only
    // when complete.
    let written = write_atomic_with(pdf, |out| {
        write_pdf_with_progress(tileset, &sheet, options, &progress, out).map_err(|e| match e {
            RenderError::Pdf(why) => {
                Failure::Other(miette::miette!("cannot write {}: {why}", pdf.display()))
            }
            other => Failure::from(other),
        })
    });
    bar.finish_and_clear();
    written?;
    if let Some(dir) = png_dir {
        std::fs::create_dir_all(dir)
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot create {}", dir.display()))?;
        let stem = page_stem(pdf);
        // Page by page: a page's pixels are dropped once it is written.
        for i in 0..sheet.pages.len() {
            let page = page_pixmap(tileset, &sheet, options, i)?;
            let png = tilekit_render::raster::encode_png(&page)?;
            write_atomic(&dir.join(format!("{stem}-{:02}.png", i + 1)), &png)?;
        }
    }
    Ok(sheet)
}

/// The start of the PNG pages' names: the PDF's name without its extension.
fn page_stem(pdf: &Path) -> String {
    pdf.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "sheet".into())
}
