//! tilekit-render owns drawing: every tile type drawn from its definition alone (preview PNGs),
//! the author's feature overlay, contact sheets, and print-ready tile sheets (PDF and PNG pages).
//!
//! A tile becomes plain drawing commands first (`draw::draw_tile` → `scene::Scene`, in tile
//! units), which tests pin exactly; `raster` turns commands into pixels with tiny-skia; `sheet`
//! lays tiles out on paper and `pdf` writes them with pdf-writer. Same input, same bytes. It depends on
//! `tiledef` only.

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

pub use draw::{DrawOptions, check_regions, draw_tile};
pub use scene::Scene;

use rayon::prelude::*;
use std::path::PathBuf;
use tiledef::{Tile, TileSet};

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
