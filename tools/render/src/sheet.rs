//! Print sheets: every tile repeated by its count, at exact physical size with bleed, crop marks
//! outside the tiles, a footer, optional mirrored backs; as a PDF (`pdf`) or PNG pages.
//!
//! The layout is plain data in millimetres (`SheetLayout`); the PDF and PNG writers only draw it.
//! Each tile's picture is rasterised once at the print resolution and embedded once in the PDF,
//! then placed as many times as the tile's count. The PDF is streamed: pictures are made
//! `PICTURES_AT_ONCE` at a time and written out before the next, so a sheet of any number of
//! tile types needs the memory of a few pictures and a page.

use crate::RenderError;
use crate::draw::{DrawOptions, Label, draw_tile};
use crate::font;
use crate::pdf;
use crate::raster::{draw, rasterise, rgb_bytes};
use crate::scene::{Align, Rgba, Scene, Seg, Shape, pt, rect};
use rayon::prelude::*;
use std::sync::Arc;
use tiledef::TileSet;
use tiny_skia::{Color, Pixmap, PixmapPaint, Transform};

const MM_PER_INCH: f32 = 25.4;
/// Space for the footer line above the bottom margin.
const FOOTER_MM: f32 = 6.0;
/// Crop marks keep this far from the tiles' bleed.
const MARK_GAP_MM: f32 = 1.0;
/// Crop marks are at least this long, or a row or column is dropped to make room.
const MARK_MIN_MM: f32 = 3.0;
/// Crop mark line width.
const MARK_WIDTH_MM: f32 = 0.15;
/// Footer text size.
const FOOTER_TEXT_MM: f32 = 2.8;

/// A paper size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

impl Paper {
    /// Width and height in millimetres (portrait).
    pub fn size_mm(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// The paper's name.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "Letter",
        }
    }
}

/// Print sheet settings.
#[derive(Clone, Debug)]
pub struct SheetOptions {
    /// The paper.
    pub paper: Paper,
    /// The edition (index into `TileSet::editions`) whose counts are printed.
    pub edition: usize,
    /// The tile's cut size.
    pub tile_mm: f32,
    /// Picture beyond the cut line on every side.
    pub bleed_mm: f32,
    /// Unprinted margin around the page.
    pub margin_mm: f32,
    /// Add a back page after each front page, mirrored for long-edge duplex printing.
    pub backs: bool,
    /// What the backs show.
    pub back: Back,
    /// Resolution of the tile pictures (and of PNG pages).
    pub dpi: u32,
    /// Print only the tiles of these sets (indices into `TileSet::sets`); `None`: every set.
    pub sets: Option<Vec<usize>>,
    /// Print each tile's id small in its corner.
    pub labels: bool,
}

/// The tile sizes a sheet accepts, in mm: smaller cannot be cut or read, larger fits no paper.
pub const TILE_MM: std::ops::RangeInclusive<f32> = 10.0..=180.0;
/// The bleeds a sheet accepts, in mm.
pub const BLEED_MM: std::ops::RangeInclusive<f32> = 0.0..=10.0;
/// The margins a sheet accepts, in mm: a printer needs some, and a negative one is off the paper.
pub const MARGIN_MM: std::ops::RangeInclusive<f32> = 0.0..=50.0;
/// The resolutions a sheet accepts.
pub const DPI: std::ops::RangeInclusive<u32> = 36..=1200;

impl SheetOptions {
    /// Refuses settings that cannot make a usable sheet, naming the option and its range.
    pub fn check(&self) -> Result<(), RenderError> {
        let bad = |option: &'static str, value: String, range: String| RenderError::Option {
            option,
            value,
            range,
        };
        let mm = |r: &std::ops::RangeInclusive<f32>| format!("{}–{} mm", r.start(), r.end());
        for (option, value, range) in [
            ("--tile-mm", self.tile_mm, TILE_MM),
            ("--bleed-mm", self.bleed_mm, BLEED_MM),
            ("--margin-mm", self.margin_mm, MARGIN_MM),
        ] {
            if !range.contains(&value) {
                return Err(bad(option, value.to_string(), mm(&range)));
            }
        }
        if !DPI.contains(&self.dpi) {
            return Err(bad(
                "--dpi",
                self.dpi.to_string(),
                format!("{}–{}", DPI.start(), DPI.end()),
            ));
        }
        Ok(())
    }
}

impl Default for SheetOptions {
    fn default() -> Self {
        SheetOptions {
            paper: Paper::A4,
            edition: 0,
            tile_mm: 45.0,
            bleed_mm: 3.0,
            margin_mm: 5.0,
            backs: false,
            back: Back::Plain,
            dpi: 300,
            sets: None,
            labels: false,
        }
    }
}

/// One tile picture placed on a page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Index into `TileSet::tiles`.
    pub tile: usize,
    /// Whether this is the tile's back.
    pub back: bool,
    /// Left of the cut square, mm from the page's left.
    pub x_mm: f32,
    /// Top of the cut square, mm from the page's top.
    pub y_mm: f32,
}

/// One page.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// The pictures on it.
    pub placements: Vec<Placement>,
    /// Crop marks as line segments ((x1, y1), (x2, y2)) in mm.
    pub marks: Vec<[(f32, f32); 2]>,
    /// Footer text, left side.
    pub footer_left: String,
    /// Footer text, right side.
    pub footer_right: String,
}

/// The whole print run, in millimetres.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetLayout {
    /// Page width.
    pub width_mm: f32,
    /// Page height.
    pub height_mm: f32,
    /// Tiles per row.
    pub columns: usize,
    /// Rows per page.
    pub rows: usize,
    /// The pages, fronts (each followed by its back when backs are asked for).
    pub pages: Vec<Page>,
    /// Tile copies placed on fronts.
    pub tiles_placed: usize,
}

/// Whether the printed tiles' counts differ between editions, so that naming the edition
/// says something (a set whose counts are plain numbers prints the same in every edition).
pub fn edition_matters(set: &TileSet, options: &SheetOptions) -> bool {
    (set.tiles.iter())
        .filter(|t| printed(options, t.set))
        .any(|t| t.counts.windows(2).any(|pair| pair[0] != pair[1]))
}

/// Lays out every tile of the edition, repeated by its count.
pub fn layout(set: &TileSet, options: &SheetOptions) -> Result<SheetLayout, RenderError> {
    options.check()?;
    let (w, h) = options.paper.size_mm();
    let pitch = options.tile_mm + 2.0 * options.bleed_mm;
    let reserve = 2.0 * (MARK_GAP_MM + MARK_MIN_MM);
    let usable_w = w - 2.0 * options.margin_mm - reserve;
    let usable_h = h - 2.0 * options.margin_mm - FOOTER_MM - reserve;
    let columns = (usable_w / pitch).floor().max(0.0) as usize;
    let rows = (usable_h / pitch).floor().max(0.0) as usize;
    if columns == 0 || rows == 0 || options.tile_mm <= 0.0 || options.bleed_mm < 0.0 {
        return Err(RenderError::DoesNotFit {
            paper: options.paper.name(),
            tile_mm: options.tile_mm,
            bleed_mm: options.bleed_mm,
            margin_mm: options.margin_mm,
        });
    }
    let copies: Vec<usize> = set
        .tiles
        .iter()
        .enumerate()
        .filter(|(_, t)| printed(options, t.set))
        .flat_map(|(i, t)| {
            let n = t.counts.get(options.edition).copied().unwrap_or(0);
            std::iter::repeat_n(i, n as usize)
        })
        .collect();
    let per_page = columns * rows;
    let front_pages = copies.len().div_ceil(per_page).max(1);
    let total_pages = if options.backs {
        2 * front_pages
    } else {
        front_pages
    };
    let grid_w = columns as f32 * pitch;
    let grid_h = rows as f32 * pitch;
    let left = (w - grid_w) / 2.0;
    let top = options.margin_mm + (h - 2.0 * options.margin_mm - FOOTER_MM - grid_h) / 2.0;
    let title = sheet_title(set, options, copies.len());
    // The footer's left text is cut to leave room for the page number on the right.
    let widest_number = format!("page {total_pages}/{total_pages} · backs");
    let room = w - 2.0 * options.margin_mm - text_mm(&widest_number) - 4.0;
    let footer = |text: String| fit(text, room);

    let grid = Grid {
        columns,
        pitch,
        left,
        top,
        width: w,
        height: h,
        margin: options.margin_mm,
        bleed: options.bleed_mm,
    };
    let mut pages = Vec::new();
    for (p, chunk) in copies.chunks(per_page.max(1)).enumerate() {
        let number = if options.backs { 2 * p + 1 } else { p + 1 };
        pages.push(Page {
            placements: grid.placements(chunk, false),
            marks: grid.crop_marks(chunk.len(), false),
            footer_left: footer(title.clone()),
            footer_right: format!("page {number}/{total_pages}"),
        });
        if options.backs {
            pages.push(Page {
                placements: grid.placements(chunk, true),
                marks: grid.crop_marks(chunk.len(), true),
                footer_left: footer(format!("{title} · backs")),
                footer_right: format!("page {}/{total_pages}", number + 1),
            });
        }
    }
    if pages.is_empty() {
        pages.push(Page {
            placements: Vec::new(),
            marks: Vec::new(),
            footer_left: footer(title),
            footer_right: format!("page 1/{total_pages}"),
        });
    }
    Ok(SheetLayout {
        width_mm: w,
        height_mm: h,
        columns,
        rows,
        pages,
        tiles_placed: copies.len(),
    })
}

/// The footer's title: the printed sets' names, the edition where it matters, the tiles and
/// their size.
fn sheet_title(set: &TileSet, options: &SheetOptions, tiles: usize) -> String {
    let names: Vec<&str> = set
        .sets
        .iter()
        .enumerate()
        .filter(|(i, _)| printed(options, *i))
        .map(|(_, s)| s.name.as_str())
        .collect();
    let edition = (set.editions.get(options.edition))
        .filter(|_| edition_matters(set, options))
        .map(|e| format!(" · edition {}", e.id))
        .unwrap_or_default();
    format!(
        "{}{edition} · {} tiles · {} mm",
        names.join(" + "),
        tiles,
        fmt_mm(options.tile_mm)
    )
}

/// Where a page's tiles go: the grid's columns and pitch, its top-left corner, the paper, the
/// margin and the bleed, in mm.
struct Grid {
    columns: usize,
    pitch: f32,
    left: f32,
    top: f32,
    width: f32,
    height: f32,
    margin: f32,
    bleed: f32,
}

impl Grid {
    /// The `k`-th tile's top-left corner (inside its bleed); a back page's columns mirrored.
    fn place(&self, k: usize, mirrored: bool) -> (f32, f32) {
        let (r, c) = (k / self.columns, k % self.columns);
        let c = if mirrored { self.columns - 1 - c } else { c };
        (
            self.left + c as f32 * self.pitch + self.bleed,
            self.top + r as f32 * self.pitch + self.bleed,
        )
    }

    /// A page's pictures: its tiles, front or back.
    fn placements(&self, chunk: &[usize], back: bool) -> Vec<Placement> {
        (chunk.iter().enumerate())
            .map(|(k, &tile)| {
                let (x_mm, y_mm) = self.place(k, back);
                Placement {
                    tile,
                    back,
                    x_mm,
                    y_mm,
                }
            })
            .collect()
    }

    /// The crop marks of a page of `tiles` tiles, outside the grid, at every cut line.
    fn crop_marks(&self, tiles: usize, mirrored: bool) -> Vec<[(f32, f32); 2]> {
        let (columns, pitch, left, top) = (self.columns, self.pitch, self.left, self.top);
        let (w, h, margin, bleed) = (self.width, self.height, self.margin, self.bleed);
        let used_rows = tiles.div_ceil(columns);
        let used_cols = tiles.min(columns);
        let mut marks = Vec::new();
        let cols: Vec<usize> = (0..used_cols)
            .map(|c| if mirrored { columns - 1 - c } else { c })
            .collect();
        let (lo_c, hi_c) = (
            *cols.iter().min().unwrap_or(&0),
            *cols.iter().max().unwrap_or(&0),
        );
        let grid_left = left + lo_c as f32 * pitch;
        let grid_right = left + (hi_c + 1) as f32 * pitch;
        let grid_bottom = top + used_rows as f32 * pitch;
        for &c in &cols {
            for x in [
                left + c as f32 * pitch + bleed,
                left + (c + 1) as f32 * pitch - bleed,
            ] {
                marks.push([(x, margin), (x, top - MARK_GAP_MM)]);
                marks.push([(x, grid_bottom + MARK_GAP_MM), (x, h - margin - FOOTER_MM)]);
            }
        }
        for r in 0..used_rows {
            for y in [
                top + r as f32 * pitch + bleed,
                top + (r + 1) as f32 * pitch - bleed,
            ] {
                marks.push([(margin, y), (grid_left - MARK_GAP_MM, y)]);
                marks.push([(grid_right + MARK_GAP_MM, y), (w - margin, y)]);
            }
        }
        marks
    }
}

fn printed(options: &SheetOptions, set: usize) -> bool {
    options.sets.as_ref().is_none_or(|sets| sets.contains(&set))
}

/// The width of footer text in mm.
pub fn text_mm(text: &str) -> f32 {
    font::layout(text).1 * FOOTER_TEXT_MM
}

/// The text, cut with an ellipsis to at most `room` mm.
fn fit(text: String, room: f32) -> String {
    if text_mm(&text) <= room {
        return text;
    }
    let chars: Vec<char> = text.chars().collect();
    // Binary search on the number of characters kept.
    let (mut lo, mut hi) = (0, chars.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        let candidate: String = chars[..mid].iter().collect::<String>() + "…";
        if text_mm(&candidate) <= room {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    chars[..lo]
        .iter()
        .collect::<String>()
        .trim_end()
        .to_string()
        + "…"
}

fn fmt_mm(v: f32) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{r:.0}")
    } else {
        format!("{r}")
    }
}

/// The picture size in pixels of a tile with its bleed.
fn picture_px(options: &SheetOptions) -> u32 {
    let mm = options.tile_mm + 2.0 * options.bleed_mm;
    (mm / MM_PER_INCH * options.dpi as f32).round().max(1.0) as u32
}

/// What the backs of the tiles show.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Back {
    /// The same lattice on every tile: no tile can be told face down.
    #[default]
    Plain,
    /// The lattice with the tile's set's name, for sorting sets apart.
    SetName,
    /// The author's own picture (a PNG), on every tile.
    Image(std::path::PathBuf),
}

/// The back pictures a sheet needs, and for each set (index into `TileSet::sets`) which of
/// them its tiles get: one for all unless the backs name the set.
fn back_scenes(set: &TileSet, back: &Back) -> (Vec<Scene>, Vec<usize>) {
    match back {
        Back::Plain => (vec![back_scene(None)], vec![0; set.sets.len()]),
        Back::Image(path) => {
            let mut scene = Scene::default();
            scene
                .commands
                .push(crate::scene::Command::Image { path: path.clone() });
            (vec![scene], vec![0; set.sets.len()])
        }
        Back::SetName => (
            set.sets.iter().map(|s| back_scene(Some(&s.name))).collect(),
            (0..set.sets.len()).collect(),
        ),
    }
}

/// The back of a set's tiles: a plain field with a light lattice, and the set's name if given.
pub fn back_scene(set_name: Option<&str>) -> Scene {
    let mut s = Scene::default();
    let ground = Rgba::rgb(0x5d, 0x7f, 0x3e);
    s.fill(rect(-0.2, -0.2, 1.4, 1.4), ground);
    for k in -6..=6 {
        let d = k as f32 * 0.2;
        for (a, b) in [
            (pt(d - 0.2, -0.2), pt(d + 1.2, 1.2)),
            (pt(d + 1.2, -0.2), pt(d - 0.2, 1.2)),
        ] {
            s.stroke(
                Shape::Path(vec![Seg::Move(a), Seg::Line(b)]),
                crate::scene::Stroke {
                    colour: ground.lighter(0.15),
                    width: 0.01,
                    cap: crate::scene::Cap::Butt,
                },
            );
        }
    }
    let Some(set_name) = set_name else {
        return s;
    };
    let size = (0.9 / font::layout(set_name).1.max(1.0)).min(0.1);
    s.commands.push(crate::scene::Command::Text {
        at: pt(0.5, 0.5),
        size,
        text: set_name.to_string(),
        colour: ground.lighter(0.75),
        align: Align::Centre,
        halo: None,
    });
    s
}

/// Rasterised pictures: each tile's front (and back) once.
struct Pictures {
    fronts: Vec<Option<Arc<Pixmap>>>,
    backs: Vec<Option<Arc<Pixmap>>>,
}

/// The pictures of the tiles placed on `pages`.
fn pictures(
    set: &TileSet,
    pages: &[Page],
    options: &SheetOptions,
) -> Result<Pictures, RenderError> {
    let px = picture_px(options);
    let bleed = options.bleed_mm / options.tile_mm;
    let mut used = vec![false; set.tiles.len()];
    for p in pages.iter().flat_map(|p| &p.placements) {
        used[p.tile] = true;
    }
    let draw_options = DrawOptions {
        overlay: false,
        label: if options.labels {
            Label::All
        } else {
            Label::None
        },
        artwork: true,
    };
    let fronts: Vec<Option<Arc<Pixmap>>> = (0..set.tiles.len())
        .into_par_iter()
        .map(|i| {
            if !used[i] {
                return Ok(None);
            }
            let tile = &set.tiles[i];
            let scene = draw_tile(set, tile, &draw_options);
            rasterise(&scene, px, bleed, &tile.id).map(|p| Some(Arc::new(p)))
        })
        .collect::<Result<_, RenderError>>()?;
    let backs = if options.backs {
        let (scenes, of_set) = back_scenes(set, &options.back);
        let drawn: Vec<Arc<Pixmap>> = scenes
            .par_iter()
            .map(|scene| rasterise(scene, px, bleed, "back").map(Arc::new))
            .collect::<Result<_, _>>()?;
        (0..set.tiles.len())
            .map(|i| used[i].then(|| drawn[of_set[set.tiles[i].set]].clone()))
            .collect()
    } else {
        vec![None; set.tiles.len()]
    };
    Ok(Pictures { fronts, backs })
}

/// Writes the sheet as a PDF, into memory (for a few pages: `write_pdf_with_progress` streams).
pub fn write_pdf(
    set: &TileSet,
    sheet: &SheetLayout,
    options: &SheetOptions,
) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::new();
    write_pdf_with_progress(set, sheet, options, &|_, _| {}, &mut out)?;
    Ok(out)
}

/// Tile pictures rasterised at once while writing a PDF: enough to keep both cores busy, few
/// enough that memory stays bounded whatever the number of tile types.
pub const PICTURES_AT_ONCE: usize = 8;

/// Writes the sheet as a PDF to `out`, calling `progress(done, total)` as tile pictures are
/// made. Pictures are rasterised `PICTURES_AT_ONCE` at a time, compressed, and written out
/// before the next are made, so memory holds a few pictures, never the set's.
pub fn write_pdf_with_progress(
    set: &TileSet,
    sheet: &SheetLayout,
    options: &SheetOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
    out: &mut dyn std::io::Write,
) -> Result<(), RenderError> {
    let px = picture_px(options);
    let bleed = options.bleed_mm / options.tile_mm;
    let mut used = vec![false; set.tiles.len()];
    for p in sheet.pages.iter().flat_map(|p| &p.placements) {
        used[p.tile] = true;
    }
    let draw_options = DrawOptions {
        overlay: false,
        label: if options.labels {
            Label::All
        } else {
            Label::None
        },
        artwork: true,
    };
    let picture = |pixmap: &Pixmap| pdf::Picture::new(&rgb_bytes(pixmap), px);

    // Which picture each tile places: the fronts in tile order, then the backs.
    let wanted: Vec<usize> = (0..set.tiles.len()).filter(|&i| used[i]).collect();
    let mut fronts: Vec<Option<usize>> = vec![None; set.tiles.len()];
    for (k, &i) in wanted.iter().enumerate() {
        fronts[i] = Some(k);
    }
    let (back_scenes, of_set) = if options.backs {
        back_scenes(set, &options.back)
    } else {
        (Vec::new(), Vec::new())
    };
    let backs: Vec<Option<usize>> = (0..set.tiles.len())
        .map(|i| {
            let back = of_set.get(set.tiles[i].set)?;
            used[i].then_some(wanted.len() + back)
        })
        .collect();

    // The pictures, made a few at a time as the writer takes them.
    let mut done = 0;
    let made_fronts = wanted.chunks(PICTURES_AT_ONCE).flat_map(|chunk| {
        let made: Vec<Result<pdf::Picture, RenderError>> = chunk
            .par_iter()
            .map(|&i| {
                let tile = &set.tiles[i];
                let pixmap = rasterise(&draw_tile(set, tile, &draw_options), px, bleed, &tile.id)?;
                Ok(picture(&pixmap))
            })
            .collect();
        done += chunk.len();
        progress(done, wanted.len());
        made
    });
    let made_backs = (back_scenes.iter())
        .map(|scene| rasterise(scene, px, bleed, "back").map(|pixmap| picture(&pixmap)));
    let document = pdf::Sheet {
        layout: sheet,
        pictures: wanted.len() + back_scenes.len(),
        fronts: &fronts,
        backs: &backs,
        picture_mm: options.tile_mm + 2.0 * options.bleed_mm,
        bleed_mm: options.bleed_mm,
        footer_baseline_mm: sheet.height_mm - options.margin_mm - 1.0,
        footer_x_mm: (options.margin_mm, sheet.width_mm - options.margin_mm),
        footer_text_mm: FOOTER_TEXT_MM,
        mark_width_mm: MARK_WIDTH_MM,
    };
    pdf::write(&document, made_fronts.chain(made_backs), out)
}

/// Draws the sheet's pages as pixmaps at the sheet's dpi (all at once: for a few pages).
pub fn page_pixmaps(
    set: &TileSet,
    sheet: &SheetLayout,
    options: &SheetOptions,
) -> Result<Vec<Pixmap>, RenderError> {
    let pics = pictures(set, &sheet.pages, options)?;
    sheet
        .pages
        .par_iter()
        .map(|page| draw_page(&pics, sheet, page, options))
        .collect()
}

/// Draws one page (index into `sheet.pages`) as a pixmap, rasterising only its own tiles, so
/// that writing page after page keeps memory bounded.
pub fn page_pixmap(
    set: &TileSet,
    sheet: &SheetLayout,
    options: &SheetOptions,
    page: usize,
) -> Result<Pixmap, RenderError> {
    let page = &sheet.pages[page];
    let pics = pictures(set, std::slice::from_ref(page), options)?;
    draw_page(&pics, sheet, page, options)
}

fn draw_page(
    pics: &Pictures,
    sheet: &SheetLayout,
    page: &Page,
    options: &SheetOptions,
) -> Result<Pixmap, RenderError> {
    let px_per_mm = options.dpi as f32 / MM_PER_INCH;
    let (w, h) = (
        (sheet.width_mm * px_per_mm).round() as u32,
        (sheet.height_mm * px_per_mm).round() as u32,
    );
    let mut pixmap = Pixmap::new(w, h).ok_or(RenderError::Size(w.max(h)))?;
    pixmap.fill(Color::WHITE);
    for p in &page.placements {
        let list = if p.back { &pics.backs } else { &pics.fronts };
        let Some(picture) = &list[p.tile] else {
            continue;
        };
        pixmap.draw_pixmap(
            ((p.x_mm - options.bleed_mm) * px_per_mm).round() as i32,
            ((p.y_mm - options.bleed_mm) * px_per_mm).round() as i32,
            picture.as_ref().as_ref(),
            &PixmapPaint::default(),
            Transform::identity(),
            None,
        );
    }
    let mut lines = Scene::default();
    let ink = Rgba::rgb(0, 0, 0);
    for [(x1, y1), (x2, y2)] in &page.marks {
        lines.stroke(
            Shape::Path(vec![Seg::Move(pt(*x1, *y1)), Seg::Line(pt(*x2, *y2))]),
            crate::scene::Stroke {
                colour: ink,
                width: MARK_WIDTH_MM,
                cap: crate::scene::Cap::Butt,
            },
        );
    }
    let baseline = sheet.height_mm - options.margin_mm - 1.0;
    lines.text(
        pt(options.margin_mm, baseline),
        FOOTER_TEXT_MM,
        &page.footer_left,
        ink,
        Align::Left,
    );
    lines.text(
        pt(sheet.width_mm - options.margin_mm, baseline),
        FOOTER_TEXT_MM,
        &page.footer_right,
        ink,
        Align::Right,
    );
    draw(
        &mut pixmap,
        &lines,
        Transform::from_scale(px_per_mm, px_per_mm),
        "sheet",
    )?;
    Ok(pixmap)
}
