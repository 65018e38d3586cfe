//! The contact sheet: every tile type in a grid with its id and counts.

use crate::RenderError;
use crate::draw::{DrawOptions, Label, draw_tile};
use crate::font;
use crate::raster::{draw, rasterise};
use crate::scene::{Align, Rgba, Scene, pt};
use rayon::prelude::*;
use tiledef::{Tile, TileSet};
use tiny_skia::{Color, Pixmap, PixmapPaint, Transform};

/// Contact sheet settings.
#[derive(Clone, Copy, Debug)]
pub struct ContactOptions {
    /// Thumbnail size in pixels.
    pub thumb: u32,
    /// Thumbnails per row.
    pub columns: usize,
    /// Draw each tile with the overlay.
    pub overlay: bool,
    /// Print each tile's id small in its corner too.
    pub labels: bool,
}

impl Default for ContactOptions {
    fn default() -> Self {
        ContactOptions {
            thumb: 160,
            columns: 10,
            overlay: false,
            labels: false,
        }
    }
}

/// The caption under a thumbnail: one count when every edition has the same, else the count
/// of each edition that has the tile (an edition with no copies is left out).
pub fn count_text(set: &TileSet, tile: &Tile) -> String {
    let first = tile.counts.first().copied().unwrap_or(0);
    if tile.counts.iter().all(|c| *c == first) {
        format!("×{first}")
    } else {
        set.editions
            .iter()
            .zip(&tile.counts)
            .filter(|(_, c)| **c > 0)
            .map(|(e, c)| format!("{} ×{c}", e.id))
            .collect::<Vec<_>>()
            .join("  ")
    }
}

/// How a thumbnail's caption is set: the id's text size, and whether the counts go on a line
/// of their own under it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Caption {
    /// The id's size: `size`, or less when the id alone is wider than the thumbnail.
    pub id_size: f32,
    /// The counts do not fit beside the id.
    pub counts_below: bool,
}

/// Sets the caption of a thumbnail `width` wide: the id at `size`, the counts at 0.85 of it,
/// beside each other when they fit with a gap between, else the counts under the id.
pub fn caption_layout(id: &str, counts: &str, width: f32, size: f32) -> Caption {
    let id_width = font::layout(id).1 * size;
    let counts_width = font::layout(counts).1 * size * 0.85;
    Caption {
        id_size: if id_width > width {
            size * width / id_width
        } else {
            size
        },
        counts_below: id_width + size * 0.6 + counts_width > width,
    }
}

/// `n` and the noun, with an `s` unless there is one.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Draws the contact sheet of the given tiles (indices into `set.tiles`).
pub fn contact_sheet(
    set: &TileSet,
    tiles: &[usize],
    options: &ContactOptions,
) -> Result<Pixmap, RenderError> {
    let thumb = options.thumb.max(32);
    let columns = options.columns.clamp(1, tiles.len().max(1));
    let rows = tiles.len().div_ceil(columns).max(1);
    let pad = thumb / 10;
    let caption = (thumb as f32 * 0.2).round() as u32 + 6;
    let header = (thumb as f32 * 0.28).round() as u32 + pad;
    let cell_w = thumb + pad;
    let cell_h = thumb + caption + pad;

    let draw_options = DrawOptions {
        overlay: options.overlay,
        label: if options.labels {
            Label::All
        } else {
            Label::None
        },
        artwork: true,
    };
    let thumbs: Vec<Pixmap> = tiles
        .par_iter()
        .map(|&i| {
            let tile = &set.tiles[i];
            rasterise(&draw_tile(set, tile, &draw_options), thumb, 0.0, &tile.id)
        })
        .collect::<Result<_, _>>()?;

    // Captions and the title are drawn in pixel units.
    let ink = Rgba::rgb(0x2b, 0x22, 0x1a);
    let mut text = Scene::default();
    // The sets of the tiles shown, not every loaded set (required sets may be left out).
    let names: Vec<&str> = set
        .sets
        .iter()
        .enumerate()
        .filter(|(k, _)| tiles.iter().any(|&i| set.tiles[i].set == *k))
        .map(|(_, s)| s.name.as_str())
        .collect();
    let total: u32 = tiles
        .iter()
        .map(|&i| {
            set.tiles[i]
                .counts
                .get(set.default_edition())
                .copied()
                .unwrap_or(0)
        })
        .sum();
    let edition = set
        .editions
        .get(set.default_edition())
        .map(|e| format!(", {} in {}", plural(total as usize, "tile"), e.id))
        .unwrap_or_default();
    let title = format!(
        "{} — {}{edition}",
        names.join(" + "),
        plural(tiles.len(), "tile type")
    );
    let title_size = thumb as f32 * 0.16;
    // The sheet is as wide as its grid, or wider when the title needs it (a set of few tiles).
    let title_width = (font::layout(&title).1 * title_size).ceil() as u32;
    let width = (pad + columns as u32 * cell_w).max(2 * pad + title_width);
    let height = header + rows as u32 * cell_h + pad;
    let mut sheet = Pixmap::new(width, height).ok_or(RenderError::Size(width.max(height)))?;
    sheet.fill(Color::from_rgba8(0xf6, 0xf3, 0xec, 0xff));
    text.text(
        pt(pad as f32, header as f32 * 0.7),
        title_size,
        &title,
        ink,
        Align::Left,
    );
    for (k, &i) in tiles.iter().enumerate() {
        let (c, r) = ((k % columns) as u32, (k / columns) as u32);
        let x = pad + c * cell_w;
        let y = header + r * cell_h;
        // A thin frame marks the tile's cut edge.
        let frame = crate::scene::rect(
            x as f32 - 1.0,
            y as f32 - 1.0,
            thumb as f32 + 2.0,
            thumb as f32 + 2.0,
        );
        text.fill(frame, Rgba::rgb(0x9a, 0x90, 0x80));
        let tile = &set.tiles[i];
        let size = thumb as f32 * 0.1;
        let base = (y + thumb) as f32 + size * 1.35;
        let counts = count_text(set, tile);
        let set_as = caption_layout(&tile.id, &counts, thumb as f32, size);
        text.text(
            pt(x as f32, base),
            set_as.id_size,
            &tile.id,
            ink,
            Align::Left,
        );
        let counts_base = if set_as.counts_below {
            base + size * 1.05
        } else {
            base
        };
        text.text(
            pt((x + thumb) as f32, counts_base),
            size * 0.85,
            &counts,
            Rgba::rgb(0x5a, 0x50, 0x44),
            Align::Right,
        );
    }
    draw(&mut sheet, &text, Transform::identity(), "contact sheet")?;
    for (k, pixmap) in thumbs.iter().enumerate() {
        let (c, r) = ((k % columns) as u32, (k / columns) as u32);
        sheet.draw_pixmap(
            (pad + c * cell_w) as i32,
            (header + r * cell_h) as i32,
            pixmap.as_ref(),
            &PixmapPaint::default(),
            Transform::identity(),
            None,
        );
    }
    Ok(sheet)
}
