//! tilekit-render owns drawing: every tile type drawn from its definition alone (preview PNGs),
//! the author's feature overlay, contact sheets, and print-ready tile sheets (PDF and PNG pages).
//!
//! A tile becomes plain drawing commands first (`draw::draw_tile` → `scene::Scene`, in tile
//! units), which tests pin exactly; `raster` turns commands into pixels with tiny-skia; `sheet`
//! lays tiles out on paper and `pdf` writes them with pdf-writer. Same input, same bytes. It depends on
//! `tiledef` only.

pub mod areas;
pub mod contact;
pub mod draw;
pub mod font;
pub mod geom;
pub mod icons;
pub mod pdf;
pub mod raster;
pub mod regions;
pub mod scene;
pub mod sheet;

pub use areas::{FeatureArea, feature_areas};
pub use draw::{DrawOptions, Label, check_regions, draw_tile};
pub use scene::Scene;

use rayon::prelude::*;
use std::path::PathBuf;
use tiledef::{Diagnostic, Report, Tile, TileSet};

/// The code of the warning for a tile whose picture does not say its data.
pub const PICTURE_CODE: &str = "tilekit::picture-contradicts-data";

/// Why drawing or writing failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A tile's artwork image could not be read or decoded.
    #[error("tile {tile}: cannot use artwork {path}: {reason}")]
    Artwork {
        /// The tile's id.
        tile: String,
        /// The artwork path as resolved.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// An author's picture (of a marker, an emblem) could not be read or drawn.
    #[error("{of}: cannot use the picture {path}: {reason}")]
    Picture {
        /// What it is drawn for: `tile A`, `figure prospector`.
        of: String,
        /// The picture path as resolved.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// A picture size that cannot be drawn.
    #[error("cannot draw a picture of {0} pixels")]
    Size(u32),
    /// PNG encoding failed.
    #[error("cannot encode PNG: {0}")]
    Encode(String),
    /// PDF writing failed.
    #[error("cannot write PDF: {0}")]
    Pdf(String),
    /// A sheet option outside the range that makes a usable sheet.
    #[error("{option} {value} cannot make a usable sheet: allowed {range}")]
    Option {
        /// The option's name as the CLI spells it.
        option: &'static str,
        /// The value given.
        value: String,
        /// The allowed range.
        range: String,
    },
    /// The paper is too small for one tile with its bleed and crop marks.
    #[error(
        "a {tile_mm} mm tile with {bleed_mm} mm bleed does not fit on {paper} paper with {margin_mm} mm margins"
    )]
    DoesNotFit {
        /// The paper's name.
        paper: &'static str,
        /// Tile size.
        tile_mm: f32,
        /// Bleed.
        bleed_mm: f32,
        /// Margin.
        margin_mm: f32,
    },
}

/// Draws one tile into a pixmap `px` pixels square.
pub fn render_tile(
    set: &TileSet,
    tile: &Tile,
    px: u32,
    options: &DrawOptions,
) -> Result<tiny_skia::Pixmap, RenderError> {
    raster::rasterise(&draw_tile(set, tile, options), px, 0.0, &tile.id)
}

/// Draws one tile as PNG bytes.
pub fn render_tile_png(
    set: &TileSet,
    tile: &Tile,
    px: u32,
    options: &DrawOptions,
) -> Result<Vec<u8>, RenderError> {
    raster::encode_png(&render_tile(set, tile, px, options)?)
}

/// Draws an author's picture (a figure's) alone, fitted into `px` pixels square on a
/// transparent ground, as RGBA PNG bytes. `name` says what it is the picture of in errors
/// (`figure prospector`).
pub fn render_picture_png(
    path: &std::path::Path,
    px: u32,
    name: &str,
) -> Result<Vec<u8>, RenderError> {
    let mut pixmap = tiny_skia::Pixmap::new(px.max(1), px.max(1)).ok_or(RenderError::Size(px))?;
    let mut scene = Scene::default();
    scene.commands.push(scene::Command::Picture {
        path: path.to_path_buf(),
        centre: scene::pt(0.5, 0.5),
        size: 1.0,
    });
    let scale = px.max(1) as f32;
    let transform = tiny_skia::Transform::from_scale(scale, scale);
    raster::draw(&mut pixmap, &scene, transform, name).map_err(|e| match e {
        RenderError::Picture { path, reason, .. } => RenderError::Picture {
            of: name.to_string(),
            path,
            reason,
        },
        other => other,
    })?;
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Encode(e.to_string()))
}

/// Draws the given tiles (indices into `set.tiles`) as PNGs, in parallel; results in order.
pub fn render_pngs(
    set: &TileSet,
    tiles: &[usize],
    px: u32,
    options: &DrawOptions,
) -> Result<Vec<(String, Vec<u8>)>, RenderError> {
    tiles
        .par_iter()
        .map(|&i| {
            let tile = &set.tiles[i];
            Ok((tile.id.clone(), render_tile_png(set, tile, px, options)?))
        })
        .collect()
}

/// The file name of a tile's preview.
pub fn preview_name(tile: &Tile) -> String {
    format!("{}.png", tile.id)
}

/// The tiles (indices into `set.tiles`) whose generated picture does not say their data, each
/// with why (`check_regions`), checked in parallel. Tiles with their own artwork are not
/// checked: their picture is the author's.
pub fn check_pictures(set: &TileSet) -> Vec<(usize, String)> {
    let mut wrong: Vec<(usize, String)> = (0..set.tiles.len())
        .into_par_iter()
        .filter(|&t| set.tiles[t].artwork.is_none())
        .filter_map(|t| check_regions(set, &set.tiles[t]).err().map(|why| (t, why)))
        .collect();
    wrong.sort_by_key(|(t, _)| *t);
    wrong
}

/// The warning for tile `tile` of a report's tile set, whose picture does not say its data
/// for the reason `why` (a message of `check_regions`), at the tile's `id`.
pub fn picture_warning(report: &Report, tile: usize, why: &str) -> Option<Diagnostic> {
    let id = &report.tileset.as_ref()?.tiles.get(tile)?.id;
    // `check_regions` names the tile first; the diagnostic says it its own way.
    let why = why.strip_prefix(&format!("tile {id}: ")).unwrap_or(why);
    let message = format!("the picture of tile `{id}` does not say its data: {why}");
    let d = report.tile_warning(tile, PICTURE_CODE, message)?;
    let hint = format!(
        "the data may be right, but previews and print sheets would show the tile otherwise: \
         look at `tilekit render {} --tile {id} --overlay`; if the layout is what you mean, \
         give the tile its own picture (`art.image`)",
        d.file().trim_end_matches(tiledef::BUNDLED_SUFFIX)
    );
    Some(d.hint(hint))
}

/// Checks the picture of every tile of a valid report (`check_pictures`) and adds a warning
/// for each that does not say its data; returns how many were added.
pub fn warn_pictures(report: &mut Report) -> usize {
    let Some(set) = &report.tileset else {
        return 0;
    };
    let wrong = check_pictures(set);
    let warnings: Vec<Diagnostic> = wrong
        .iter()
        .filter_map(|(t, why)| picture_warning(report, *t, why))
        .collect();
    let added = warnings.len();
    for d in warnings {
        report.push(d);
    }
    added
}
