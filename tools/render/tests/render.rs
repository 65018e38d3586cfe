//! Tests of the renderer against the bundled sets: geometry snapshots, golden pictures, the
//! generic forms of new vocabulary, artwork errors, and the PDF read back.

use std::path::{Path, PathBuf};
use tiledef::{Colour, MarkerKind, MarkerPlace, Port, Rgb, Side, TileSet};
use tilekit_render::scene::{Command, Shape};
use tilekit_render::sheet::{
    PICTURES_AT_ONCE, Paper, SheetOptions, layout, write_pdf, write_pdf_with_progress,
};
use tilekit_render::{DrawOptions, Label, RenderError, draw_tile, render_tile, render_tile_png};

fn bundled() -> TileSet {
    tiledef::load_bundled()
}

fn index(set: &TileSet, id: &str) -> usize {
    set.tiles
        .iter()
        .position(|t| t.id == id)
        .unwrap_or_else(|| panic!("no tile {id}"))
}

fn scene_text(set: &TileSet, id: &str, options: DrawOptions) -> String {
    let tile = &set.tiles[index(set, id)];
    draw_tile(set, tile, &options).to_string()
}

/// The drawing commands of a handful of tiles: one of each city shape, roads and their ends,
/// the Festival place, bushes, flowers, wells, a marketplace, a garden, an illustration.
#[test]
fn geometry_snapshots() {
    let set = bundled();
    for id in [
        "C", "D", "E", "F", "H", "I", "L", "M", "R", "T", "A", "FE-CcCc", "FE-CRCR", "VL-06",
        "VL-07", "VL-12", "VL-13", "VL-20",
    ] {
        if set.tile(id).is_none() {
            continue;
        }
        let plain = scene_text(&set, id, DrawOptions::default());
        insta::assert_snapshot!(format!("scene_{id}"), plain);
    }
    let overlay = scene_text(
        &set,
        "D",
        DrawOptions {
            overlay: true,
            label: Label::All,
            artwork: true,
        },
    );
    insta::assert_snapshot!("overlay_D", overlay);
}

#[test]
fn every_bundled_tile_renders_and_is_deterministic() {
    let set = bundled();
    for tile in &set.tiles {
        for overlay in [false, true] {
            let options = DrawOptions {
                overlay,
                label: Label::All,
                artwork: true,
            };
            let a = render_tile_png(&set, tile, 96, &options).expect("renders");
            let b = render_tile_png(&set, tile, 96, &options).expect("renders");
            assert_eq!(a, b, "tile {} is not drawn the same twice", tile.id);
            let image = tiny_skia::Pixmap::decode_png(&a).expect("a valid PNG");
            assert_eq!((image.width(), image.height()), (96, 96));
        }
    }
}

/// Each feature leaves a mark: cities their colour in their area, roads theirs on the path.
#[test]
fn features_appear_where_they_belong() {
    let set = bundled();
    let px = 200;
    let at = |id: &str, x: f32, y: f32| {
        let tile = &set.tiles[index(&set, id)];
        let pixmap = render_tile(&set, tile, px, &DrawOptions::default()).expect("renders");
        let p = pixmap
            .pixel((x * px as f32) as u32, (y * px as f32) as u32)
            .expect("inside");
        [p.red(), p.green(), p.blue()]
    };
    let city = [0xc8, 0x93, 0x4f];
    let road = [0xf1, 0xea, 0xd8];
    let close = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 12);
    // E: a city cap at the north, field in the south.
    assert!(close(at("E", 0.3, 0.08), city));
    assert!(!close(at("E", 0.5, 0.8), city));
    // U: a straight road west–east.
    assert!(close(at("U", 0.2, 0.5), road));
    assert!(!close(at("U", 0.5, 0.2), road));
    // C: all city.
    assert!(close(at("C", 0.2, 0.8), city));
    // F: a band west–east, field at north and south.
    assert!(close(at("F", 0.12, 0.5), city));
    assert!(!close(at("F", 0.5, 0.06), city));
}

fn with_new_vocabulary() -> (TileSet, usize) {
    let mut set = bundled();
    set.colours.push(Colour {
        id: "crimson".into(),
        name: "Crimson".into(),
        display: Rgb([0xdc, 0x14, 0x3c]),
    });
    set.markers.push(MarkerKind {
        id: "zeppelin".into(),
        name: "Zeppelin".into(),
        on: MarkerPlace::Tile,
        rule: None,
        display: Some(Rgb([0x12, 0x34, 0x56])),
        icon: None,
        picture: None,
        scoring: None,
        token: None,
        token_id: None,
        token_name: None,
        held_until: None,
        removes: None,
        deploy: None,
    });
    let colour = set.colours.len() - 1;
    let marker = set.markers.len() - 1;
    let i = index(&set, "E");
    let field_kind = kind(&set, "field");
    let tile = &mut set.tiles[i];
    tile.markers.push(marker);
    let field = tile
        .features
        .iter()
        .position(|f| f.kind == field_kind)
        .expect("E has a field");
    tile.features[field].flowers.push(colour);
    (set, i)
}

#[test]
fn unknown_marker_and_colour_render_in_their_generic_form() {
    let (set, i) = with_new_vocabulary();
    let scene = draw_tile(&set, &set.tiles[i], &DrawOptions::default());
    let badge = scene.commands.iter().any(|c| {
        matches!(c, Command::Shape { shape: Shape::Circle { .. }, fill: Some(f), .. }
            if f.0 == [0x12, 0x34, 0x56, 255])
    });
    assert!(badge, "the new marker is drawn as a badge in its colour");
    let initial = scene
        .commands
        .iter()
        .any(|c| matches!(c, Command::Text { text, .. } if text == "Z"));
    assert!(initial, "the badge carries the marker's initial");
    let petals = scene
        .commands
        .iter()
        .filter(
            |c| matches!(c, Command::Shape { fill: Some(f), .. } if f.0 == [0xdc, 0x14, 0x3c, 255]),
        )
        .count();
    assert_eq!(petals, 15, "one flower group: three flowers of five petals");
    render_tile_png(&set, &set.tiles[i], 64, &DrawOptions::default()).expect("renders");
}

/// A marker on a road goes to the side of the road the garden leaves free (IC-RFr.iG).
#[test]
fn a_road_marker_keeps_clear_of_the_garden() {
    let (mut set, _) = with_new_vocabulary();
    let marker = set.markers.len() - 1;
    set.markers[marker].on = MarkerPlace::named("road");
    let i = index(&set, "U");
    let garden = new_feature(&set, "garden");
    let road_kind = kind(&set, "road");
    let tile = &mut set.tiles[i];
    tile.features.push(garden);
    let road = tile
        .features
        .iter()
        .position(|f| f.kind == road_kind)
        .expect("U has a road");
    tile.features[road].markers.push(marker);
    let scene = draw_tile(&set, &set.tiles[i], &DrawOptions::default());
    let centre_of = |rgba: [u8; 4]| {
        scene.commands.iter().find_map(|c| match c {
            Command::Shape {
                shape: Shape::Circle { centre, .. },
                fill: Some(f),
                ..
            } if f.0 == rgba => Some(*centre),
            _ => None,
        })
    };
    let badge = centre_of([0x12, 0x34, 0x56, 255]).expect("the marker's badge");
    let garden = centre_of([0xe0, 0x4f, 0x8a, 255]).expect("the garden's centre");
    assert!(
        badge.dist(garden) > 0.16,
        "{badge:?} by the garden at {garden:?}"
    );
}

#[test]
fn a_missing_artwork_names_the_tile_and_the_path() {
    let mut set = bundled();
    let i = index(&set, "B");
    let missing = PathBuf::from("/nonexistent/art/monastery.png");
    set.tiles[i].artwork = Some(missing.clone());
    let options = DrawOptions {
        artwork: true,
        ..DrawOptions::default()
    };
    let err = render_tile(&set, &set.tiles[i], 64, &options).expect_err("the file is missing");
    assert!(
        matches!(&err, RenderError::Artwork { tile, path, .. } if tile == "B" && *path == missing)
    );
    let text = err.to_string();
    assert!(
        text.contains("tile B") && text.contains("/nonexistent/art/monastery.png"),
        "{text}"
    );
}

#[test]
fn artwork_is_drawn_under_the_overlay() {
    let mut set = bundled();
    let i = index(&set, "B");
    let dir = std::env::temp_dir().join(format!("tilekit-render-art-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let art = dir.join("solid.png");
    let solid = tilekit_render::raster::encode_rgb_png(8, 8, &[200, 30, 30].repeat(64))
        .expect("encode art");
    std::fs::write(&art, solid).expect("write art");
    set.tiles[i].artwork = Some(art);
    let options = DrawOptions {
        artwork: true,
        overlay: false,
        label: Label::None,
    };
    let pixmap = render_tile(&set, &set.tiles[i], 64, &options).expect("renders");
    let p = pixmap.pixel(32, 32).expect("inside");
    assert_eq!([p.red(), p.green(), p.blue()], [200, 30, 30]);
    let with_overlay = DrawOptions {
        overlay: true,
        ..options
    };
    let pixmap = render_tile(&set, &set.tiles[i], 64, &with_overlay).expect("renders");
    let p = pixmap.pixel(5, 20).expect("inside");
    assert_ne!(
        [p.red(), p.green(), p.blue()],
        [200, 30, 30],
        "the overlay tints the field"
    );
    // Previews label the tiles drawn from data, not an author's own artwork (unless asked).
    let texts = |tile: &tiledef::Tile, label: Label| {
        let scene = draw_tile(&set, tile, &DrawOptions { label, ..options });
        scene
            .to_string()
            .lines()
            .filter(|l| l.trim_start().starts_with("text "))
            .count()
    };
    let drawn = &set.tiles[index(&set, "D")];
    assert_eq!(texts(&set.tiles[i], Label::Drawn), 0);
    assert_eq!(texts(&set.tiles[i], Label::All), 1);
    assert_eq!(texts(drawn, Label::Drawn), 1);
    assert_eq!(texts(drawn, Label::None), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- golden pictures ------------------------------------------------------------------------

/// Compares against `tests/golden/NAME.png` with a small per-channel tolerance; on failure writes
/// the actual picture and a diff image next to the target dir and fails. `UPDATE_GOLDEN=1`
/// rewrites the goldens.
fn check_golden(name: &str, png: &[u8]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let path = dir.join(format!("{name}.png"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(&dir).expect("golden dir");
        std::fs::write(&path, png).expect("write golden");
        return;
    }
    let expected = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "missing golden {} ({e}); run with UPDATE_GOLDEN=1",
            path.display()
        )
    });
    let expected = tiny_skia::Pixmap::decode_png(&expected).expect("valid golden PNG");
    let actual = tiny_skia::Pixmap::decode_png(png).expect("valid PNG");
    assert_eq!(
        (expected.width(), expected.height()),
        (actual.width(), actual.height()),
        "{name}: size differs"
    );
    const TOLERANCE: u8 = 24;
    let rgb = |p: tiny_skia::PremultipliedColorU8| {
        let c = p.demultiply();
        [c.red(), c.green(), c.blue()]
    };
    let mut diff = Vec::with_capacity(actual.data().len() / 4 * 3);
    let mut bad = 0usize;
    for (a, e) in actual.pixels().iter().zip(expected.pixels()) {
        let (a, e) = (rgb(*a), rgb(*e));
        let d = a
            .iter()
            .zip(e)
            .map(|(p, q)| p.abs_diff(q))
            .max()
            .unwrap_or(0);
        if d > TOLERANCE {
            bad += 1;
            diff.extend_from_slice(&[255, 0, 255]);
        } else {
            let g = ((a[0] as u16 + a[1] as u16 + a[2] as u16) / 6) as u8;
            diff.extend_from_slice(&[g, g, g]);
        }
    }
    // A few pixels may differ on anti-aliased edges; more means the picture changed.
    let allowed = (actual.width() * actual.height()) as usize / 500;
    if bad > allowed {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let actual_path = out.join(format!("{name}.actual.png"));
        let diff_path = out.join(format!("{name}.diff.png"));
        std::fs::write(&actual_path, png).expect("write actual");
        let diff = tilekit_render::raster::encode_rgb_png(actual.width(), actual.height(), &diff)
            .expect("encode diff");
        std::fs::write(&diff_path, diff).expect("write diff");
        panic!(
            "{name}: {bad} pixels differ (allowed {allowed}); see {} and {}",
            actual_path.display(),
            diff_path.display()
        );
    }
}

#[test]
fn golden_pictures() {
    let set = bundled();
    for id in ["D", "M", "FE-CFR", "VL-14"] {
        let Some(tile) = set.tile(id) else { continue };
        let png = render_tile_png(
            &set,
            tile,
            128,
            &DrawOptions {
                label: Label::All,
                ..DrawOptions::default()
            },
        )
        .expect("renders");
        check_golden(&format!("tile_{id}"), &png);
    }
    let tile = set.tile("L").expect("L");
    let png = render_tile_png(
        &set,
        tile,
        192,
        &DrawOptions {
            overlay: true,
            label: Label::All,
            artwork: true,
        },
    )
    .expect("renders");
    check_golden("overlay_L", &png);
}

// ---- sheets ---------------------------------------------------------------------------------

fn base_only() -> TileSet {
    let report = tiledef::load(
        tiledef::bundled()
            .into_iter()
            .filter(|s| s.name.ends_with("base.toml"))
            .collect(),
    );
    report.tileset.expect("the base set loads alone")
}

/// The bytes a writer has been given, shared with the progress callback.
struct Shared<'a>(&'a std::sync::Mutex<Vec<u8>>);

impl std::io::Write for Shared<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_pdf_streams_its_pictures_out_a_few_at_a_time() {
    // Memory must not grow with the tile types: each batch of pictures reaches the writer
    // before the next is made, so at every step the pictures made but not yet written are at
    // most two batches (one being made, one in the writer's buffer).
    let set = base_only();
    let options = SheetOptions {
        edition: set.default_edition(),
        dpi: 60,
        ..SheetOptions::default()
    };
    let sheet = layout(&set, &options).expect("fits");
    let written = std::sync::Mutex::new(Vec::new());
    let steps = std::sync::Mutex::new(Vec::new());
    let progress = |made: usize, _: usize| {
        let bytes = written.lock().expect("not poisoned");
        let images = String::from_utf8_lossy(&bytes)
            .matches("/Subtype/Image")
            .count();
        steps.lock().expect("not poisoned").push((made, images));
    };
    write_pdf_with_progress(&set, &sheet, &options, &progress, &mut Shared(&written))
        .expect("writes");
    let steps = steps.into_inner().expect("not poisoned");
    let types = set
        .tiles
        .iter()
        .filter(|t| t.counts[options.edition] > 0)
        .count();
    assert!(types > 3 * PICTURES_AT_ONCE, "{types} tile types");
    assert_eq!(steps.last().map(|s| s.0), Some(types), "{steps:?}");
    for &(made, images) in &steps {
        assert!(made <= images + 2 * PICTURES_AT_ONCE, "{steps:?}");
    }
    // Streaming gives the bytes the in-memory writer gives.
    let streamed = written.into_inner().expect("not poisoned");
    assert_eq!(streamed, write_pdf(&set, &sheet, &options).expect("writes"));
}

#[test]
fn base_game_pages_on_a4_and_letter() {
    let set = base_only();
    let edition = set.default_edition();
    let a4 = layout(
        &set,
        &SheetOptions {
            paper: Paper::A4,
            edition,
            ..SheetOptions::default()
        },
    )
    .expect("fits");
    let letter = layout(
        &set,
        &SheetOptions {
            paper: Paper::Letter,
            edition,
            ..SheetOptions::default()
        },
    )
    .expect("fits");
    assert_eq!(a4.tiles_placed, 72);
    assert_eq!((a4.columns, a4.rows, a4.pages.len()), (3, 5, 5));
    assert_eq!((letter.columns, letter.rows, letter.pages.len()), (3, 5, 5));
    // Every cut square lies inside the margins, and no two overlap.
    for page in &a4.pages {
        for p in &page.placements {
            assert!(p.x_mm - 3.0 >= 5.0 && p.x_mm + 48.0 <= 205.0);
            assert!(p.y_mm - 3.0 >= 5.0 && p.y_mm + 48.0 <= 292.0);
        }
        for [(x1, y1), (x2, y2)] in &page.marks {
            // Crop marks stay outside every tile's picture (cut square plus bleed).
            for p in &page.placements {
                let (l, t, r, b) = (p.x_mm - 3.0, p.y_mm - 3.0, p.x_mm + 48.0, p.y_mm + 48.0);
                let crosses =
                    x1.min(*x2) < r && x1.max(*x2) > l && y1.min(*y2) < b && y1.max(*y2) > t;
                assert!(!crosses, "a crop mark runs over a tile");
            }
        }
    }
}

fn inflate_streams(pdf: &[u8]) -> Vec<String> {
    use std::io::Read;
    let mut out = Vec::new();
    let mut rest = pdf;
    while let Some(i) = find(rest, b">>\nstream\n") {
        let start = i + b">>\nstream\n".len();
        let Some(len) = find(&rest[start..], b"endstream") else {
            break;
        };
        let data = &rest[start..start + len];
        let mut text = Vec::new();
        if flate2::read::ZlibDecoder::new(data)
            .read_to_end(&mut text)
            .is_ok()
        {
            out.push(String::from_utf8_lossy(&text).into_owned());
        } else {
            out.push(String::from_utf8_lossy(data).into_owned());
        }
        rest = &rest[start + len + b"endstream".len()..];
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[test]
fn pdf_read_back_has_the_pages_the_size_and_every_tile() {
    let set = base_only();
    let options = SheetOptions {
        paper: Paper::A4,
        edition: set.default_edition(),
        dpi: 60,
        ..SheetOptions::default()
    };
    let sheet = layout(&set, &options).expect("fits");
    let pdf = write_pdf(&set, &sheet, &options).expect("writes");
    let text = String::from_utf8_lossy(&pdf);
    let page_dicts: Vec<&str> = text.split("/Type/Page/").skip(1).collect();
    assert_eq!(page_dicts.len(), 5, "five A4 pages");
    for dict in &page_dicts {
        let boxed = dict
            .split("/MediaBox[")
            .nth(1)
            .and_then(|rest| rest.split(']').next())
            .expect("each page has a MediaBox");
        let numbers: Vec<f32> = boxed
            .split_whitespace()
            .map(|n| n.parse().expect("a number"))
            .collect();
        assert_eq!(numbers.len(), 4);
        // A4 in points: 210 mm and 297 mm at 72/25.4.
        assert!((numbers[2] - 595.2756).abs() < 0.01, "width {}", numbers[2]);
        assert!(
            (numbers[3] - 841.8898).abs() < 0.01,
            "height {}",
            numbers[3]
        );
    }
    let streams = inflate_streams(&pdf);
    let placed: usize = streams.iter().map(|s| s.matches(" Do").count()).sum();
    assert_eq!(placed, 72, "every copy placed once");
    let distinct_images = text.matches("/Subtype/Image").count();
    let types_in_edition = set
        .tiles
        .iter()
        .filter(|t| t.counts[options.edition] > 0)
        .count();
    assert_eq!(
        distinct_images, types_in_edition,
        "each tile's picture embedded once"
    );
    // The footer is text (one Type 3 font of its glyphs, mapped to Unicode), shown on every page.
    assert_eq!(text.matches("/Subtype/Type3").count(), 1, "one footer font");
    assert!(
        streams.iter().any(|s| s.contains("beginbfchar")),
        "a ToUnicode map"
    );
    let shown: usize = streams.iter().map(|s| s.matches("TJ").count()).sum();
    assert_eq!(shown, 2 * page_dicts.len(), "two footer lines a page");
    // The same input gives the same bytes.
    assert_eq!(pdf, write_pdf(&set, &sheet, &options).expect("writes"));
}

#[test]
fn backs_mirror_their_fronts() {
    let set = base_only();
    let options = SheetOptions {
        edition: set.default_edition(),
        backs: true,
        ..SheetOptions::default()
    };
    let sheet = layout(&set, &options).expect("fits");
    assert_eq!(sheet.pages.len(), 10);
    let (front, back) = (&sheet.pages[0], &sheet.pages[1]);
    for (f, b) in front.placements.iter().zip(&back.placements) {
        assert!(b.back && !f.back);
        assert_eq!(f.tile, b.tile);
        assert!((f.x_mm + 45.0 / 2.0 + b.x_mm + 45.0 / 2.0 - sheet.width_mm).abs() < 1e-3);
        assert_eq!(f.y_mm, b.y_mm);
    }
    assert!(front.footer_right.ends_with("1/10") && back.footer_right.ends_with("2/10"));
}

#[test]
fn contact_sheet_holds_every_tile_type() {
    let set = bundled();
    let all: Vec<usize> = (0..set.tiles.len()).collect();
    let options = tilekit_render::contact::ContactOptions {
        thumb: 64,
        columns: 10,
        overlay: false,
        labels: false,
    };
    let sheet = tilekit_render::contact::contact_sheet(&set, &all, &options).expect("draws");
    let rows = all.len().div_ceil(10) as u32;
    let pad = 6;
    let caption = (64.0_f32 * 0.2).round() as u32 + 6;
    // Ten columns wide, or wider when the title (the names of the sets) needs it.
    assert!(sheet.width() >= pad + 10 * (64 + pad));
    assert!(sheet.height() > rows * (64 + caption));
    // Counts differ by edition for E: the caption names both.
    let e = &set.tiles[index(&set, "E")];
    assert_eq!(tilekit_render::contact::count_text(&set, e), "C1 ×5  C2 ×4");
    let u = &set.tiles[index(&set, "B")];
    assert_eq!(tilekit_render::contact::count_text(&set, u), "×4");
    // An edition without the tile is left out, not shown as ×0.
    let mut only_c2 = e.clone();
    only_c2.counts = vec![0, 2];
    assert_eq!(tilekit_render::contact::count_text(&set, &only_c2), "C2 ×2");
}

/// A sheet of one tile is widened to hold its title rather than cutting it off.
#[test]
fn a_contact_sheet_of_few_tiles_is_as_wide_as_its_title() {
    let set = bundled();
    let options = tilekit_render::contact::ContactOptions {
        thumb: 64,
        ..Default::default()
    };
    let one = [index(&set, "B")];
    let sheet = tilekit_render::contact::contact_sheet(&set, &one, &options).expect("draws");
    let title = "Carcassonne — 1 tile type, 4 tiles in C1";
    let width = tilekit_render::font::layout(title).1 * 64.0 * 0.16;
    assert!(sheet.width() as f32 >= width + 12.0, "{} px", sheet.width());
    assert!(sheet.width() > 6 + 70, "wider than its one column");
}

#[test]
fn contact_captions_put_counts_that_do_not_fit_under_the_id() {
    use tilekit_render::contact::caption_layout;
    let short = caption_layout("E", "C1 ×5  C2 ×4", 160.0, 16.0);
    assert!(!short.counts_below && short.id_size == 16.0, "{short:?}");
    let long = caption_layout("TB-CcRR.wG", "C2 ×1", 160.0, 16.0);
    assert!(long.counts_below && long.id_size == 16.0, "{long:?}");
    // An id wider than the thumbnail is set smaller, to its width.
    let wide = caption_layout("RUSSIAN-PROMOS-2016-X", "×1", 160.0, 16.0);
    assert!(wide.counts_below && wide.id_size < 16.0, "{wide:?}");
    let width = tilekit_render::font::layout("RUSSIAN-PROMOS-2016-X").1 * wide.id_size;
    assert!((width - 160.0).abs() < 0.5, "{width}");
}

#[test]
fn page_pngs_match_the_paper_at_the_dpi() {
    let set = base_only();
    let options = SheetOptions {
        paper: Paper::Letter,
        edition: set.default_edition(),
        dpi: 50,
        ..SheetOptions::default()
    };
    let sheet = layout(&set, &options).expect("fits");
    let pages = tilekit_render::sheet::page_pixmaps(&set, &sheet, &options).expect("draws");
    assert_eq!(pages.len(), sheet.pages.len());
    // 8.5 × 11 in at 50 dpi.
    assert_eq!((pages[0].width(), pages[0].height()), (425, 550));
}

/// The picture says what the data says, for every bundled tile.
#[test]
fn every_bundled_tile_draws_its_features_as_their_own_regions() {
    let set = bundled();
    let failures: Vec<String> = set
        .tiles
        .iter()
        .filter_map(|t| tilekit_render::check_regions(&set, t).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- fixtures: rivers, forks, springs, lakes, bridges, gates, walls, new road ends ----------

/// The base game plus `tests/fixtures/rivers.toml`, with what today's checker does not read yet
/// added in code: a city-gate end, a river-bank end, roads ending at a marker, 3- and 4-port
/// roads, ports on no feature.
fn fixtures() -> TileSet {
    let mut set = load_fixture(&["/base.toml"], "rivers.toml");
    let edge = |set: &TileSet, id: &str| {
        set.edge_kinds
            .iter()
            .position(|k| k.id == id)
            .unwrap_or_else(|| panic!("no edge kind {id}"))
    };
    let i = index(&set, "RV-gate");
    let city = kind(&set, "city");
    set.tiles[i].features[1].end = Some(tiledef::LineEnd::Kind(city));
    let i = index(&set, "RV-bank");
    set.tiles[i].features[0].end = Some(tiledef::LineEnd::Side(Side::S));
    let i = index(&set, "RV-ferry");
    let road_kind = kind(&set, "road");
    for f in &mut set.tiles[i].features {
        if f.kind == road_kind {
            f.end = Some(tiledef::LineEnd::Marker);
        }
    }
    // One road joining four sides, and one joining three (west is field).
    let mut four = set.tiles[i].clone();
    four.id = "RV-road4".into();
    four.markers.clear();
    four.features.retain(|f| f.kind != road_kind);
    let mut road = new_feature(&set, "road");
    road.ports = vec![Port::N, Port::E, Port::S, Port::W];
    four.features.insert(0, road.clone());
    let mut three = four.clone();
    three.id = "RV-road3".into();
    three.edges[Side::W.index()] = edge(&set, "field");
    three.features[0].ports = vec![Port::N, Port::E, Port::S];
    three.features.truncate(3);
    let mut west = new_feature(&set, "field");
    west.ports = vec![Port::SSW, Port::WSW, Port::WNW, Port::NNW];
    three.features.push(west);
    // Ports on no feature: the wall tile's north edge as plain field edge.
    let mut empty = set.tiles[index(&set, "RV-wall")].clone();
    empty.id = "RV-empty".into();
    empty.edges[Side::N.index()] = edge(&set, "field");
    set.tiles.extend([four, three, empty]);
    set
}

const FIXTURE_IDS: [&str; 16] = [
    "RV-straight",
    "RV-bend",
    "RV-fork",
    "RV-spring",
    "RV-lake",
    "RV-bridge",
    "RV-gate",
    "RV-bank",
    "RV-wall",
    "RV-ferry",
    "RV-road4",
    "RV-road3",
    "RV-empty",
    "RV-cross2",
    "RV-cross1",
    "RV-cross4",
];

#[test]
fn fixtures_draw_their_features_as_their_own_regions() {
    let set = fixtures();
    for id in FIXTURE_IDS {
        let tile = &set.tiles[index(&set, id)];
        tilekit_render::check_regions(&set, tile).unwrap_or_else(|e| panic!("{e}"));
        // The pictures, to look at: target/tmp/fixtures/.
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixtures");
        std::fs::create_dir_all(&dir).expect("tmp dir");
        for (name, overlay) in [
            (format!("{id}.png"), false),
            (format!("{id}.overlay.png"), true),
        ] {
            let options = DrawOptions {
                overlay,
                label: Label::All,
                artwork: false,
            };
            let png = render_tile_png(&set, tile, 256, &options).expect("renders");
            std::fs::write(dir.join(name), png).expect("write");
        }
    }
}

/// Makes edge kind `id` the ground (the first plain kind, drawn as nothing) by swapping it
/// with the base game's `field`, as the renderer drew any plain kind before it drew a plain
/// kind that divides fields as a band.
fn as_ground(set: &mut TileSet, id: &str) {
    let find = |set: &TileSet, id: &str| {
        set.edge_kinds
            .iter()
            .position(|k| k.id == id)
            .unwrap_or_else(|| panic!("no edge kind {id}"))
    };
    let (kind, field) = (find(set, id), find(set, "field"));
    set.edge_kinds[kind].style = tiledef::EdgeStyle::Plain;
    set.edge_kinds.swap(kind, field);
    for tile in &mut set.tiles {
        for e in &mut tile.edges {
            if *e == kind {
                *e = field;
            } else if *e == field {
                *e = kind;
            }
        }
    }
}

/// The check can fail: a river drawn as plain ground joins the fields on its two banks.
#[test]
fn a_river_drawn_as_plain_ground_fails_the_check() {
    let mut set = fixtures();
    as_ground(&mut set, "river");
    let tile = &set.tiles[index(&set, "RV-straight")];
    let err = tilekit_render::check_regions(&set, tile).expect_err("two fields drawn as one");
    assert!(err.contains("RV-straight"), "{err}");
}

fn has_fill(scene: &tilekit_render::Scene, rgb: [u8; 3]) -> bool {
    scene.commands.iter().any(|c| {
        matches!(c, Command::Shape { fill: Some(f), .. } if f.0[..3] == rgb)
            || matches!(c, Command::Shape { stroke: Some(s), .. } if s.colour.0[..3] == rgb)
    })
}

#[test]
fn rivers_walls_and_markers_are_drawn_in_their_colours() {
    let set = fixtures();
    let draw = |id: &str| draw_tile(&set, &set.tiles[index(&set, id)], &DrawOptions::default());
    // The river's display colour, the rampart's, the ferry marker's.
    assert!(has_fill(&draw("RV-straight"), [0x3b, 0x82, 0xc4]));
    assert!(!has_fill(&draw("RV-gate"), [0x3b, 0x82, 0xc4]));
    assert!(has_fill(&draw("RV-wall"), [0x8d, 0x86, 0x77]));
    assert!(has_fill(&draw("RV-ferry"), [0x7a, 0x4b, 0x2a]));
    // Ground of no feature is paved, walled off from the field.
    assert!(has_fill(&draw("RV-empty"), [0xd2, 0xc8, 0xb4]));
    assert!(!has_fill(&draw("RV-wall"), [0xd2, 0xc8, 0xb4]));
    // A bridge adds parapets to the bridge tile and to no other river tile.
    let parapets = |id: &str| draw(id).to_string().matches("w0.02 butt").count();
    assert!(parapets("RV-bridge") >= 2);
    assert_eq!(parapets("RV-straight"), 0);
}

#[test]
fn fixture_geometry_snapshots() {
    let set = fixtures();
    for id in [
        "RV-straight",
        "RV-fork",
        "RV-spring",
        "RV-lake",
        "RV-bridge",
        "RV-gate",
        "RV-wall",
        "RV-bank",
        "RV-road3",
        "RV-cross2",
    ] {
        insta::assert_snapshot!(
            format!("scene_{id}"),
            scene_text(&set, id, DrawOptions::default())
        );
    }
}

#[test]
fn a_long_set_name_is_cut_before_the_page_number() {
    let mut set = base_only();
    set.sets[0].name = "A set whose name goes on and on ".repeat(8);
    let options = SheetOptions {
        edition: set.default_edition(),
        ..SheetOptions::default()
    };
    let sheet = layout(&set, &options).expect("lays out");
    for page in &sheet.pages {
        let left = tilekit_render::sheet::text_mm(&page.footer_left);
        let right = tilekit_render::sheet::text_mm(&page.footer_right);
        assert!(page.footer_left.ends_with('…'), "{}", page.footer_left);
        assert!(
            options.margin_mm + left + 2.0 < sheet.width_mm - options.margin_mm - right,
            "footer overprints the page number: {}",
            page.footer_left
        );
    }
}

#[test]
fn sheets_refuse_sizes_that_put_tiles_off_the_paper() {
    let set = base_only();
    for options in [
        SheetOptions {
            margin_mm: -50.0,
            ..SheetOptions::default()
        },
        SheetOptions {
            tile_mm: 0.0001,
            ..SheetOptions::default()
        },
        SheetOptions {
            bleed_mm: f32::NAN,
            ..SheetOptions::default()
        },
    ] {
        let err = layout(&set, &options).expect_err("refused");
        assert!(matches!(err, RenderError::Option { .. }), "{err}");
    }
    // Only the chosen sets are printed.
    let all = bundled();
    let festival = all
        .sets
        .iter()
        .position(|s| s.id == "festival")
        .expect("festival");
    let sheet = layout(
        &all,
        &SheetOptions {
            sets: Some(vec![festival]),
            edition: all.default_edition(),
            ..SheetOptions::default()
        },
    )
    .expect("lays out");
    assert_eq!(sheet.tiles_placed, 10);
    assert!(
        sheet.pages[0].footer_left.starts_with("The Festival ·"),
        "{}",
        sheet.pages[0].footer_left
    );
}

/// Every icon of the library draws something of its own (and the sheet of all of them is
/// written to target/tmp/icons.png, to look at).
#[test]
fn every_marker_icon_has_its_own_picture() {
    let icons = tiledef::MarkerIcon::ALL;
    let mut all = tilekit_render::Scene::default();
    let mut seen: Vec<String> = Vec::new();
    for (k, icon) in icons.into_iter().enumerate() {
        let at =
            tilekit_render::scene::pt(0.1 + 0.16 * (k % 6) as f32, 0.1 + 0.16 * (k / 6) as f32);
        let colour = tilekit_render::icons::default_colour(icon);
        let mut one = tilekit_render::Scene::default();
        tilekit_render::icons::draw_icon(
            &mut one,
            icon,
            tilekit_render::scene::pt(0.5, 0.5),
            colour,
            "Z",
        );
        let text = one.to_string();
        assert!(!one.commands.is_empty(), "{icon:?} draws nothing");
        assert!(!seen.contains(&text), "{icon:?} looks like another icon");
        seen.push(text);
        tilekit_render::icons::draw_icon(&mut all, icon, at, colour, "Z");
    }
    let pixmap = tilekit_render::raster::rasterise(&all, 480, 0.0, "icons").expect("draws");
    let png = tilekit_render::raster::encode_png(&pixmap).expect("encodes");
    std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("icons.png"),
        png,
    )
    .expect("write");
}

#[test]
fn a_page_drawn_alone_equals_the_page_drawn_with_the_others() {
    let set = base_only();
    let options = SheetOptions {
        edition: set.default_edition(),
        dpi: 36,
        backs: true,
        ..SheetOptions::default()
    };
    let sheet = layout(&set, &options).expect("lays out");
    let all = tilekit_render::sheet::page_pixmaps(&set, &sheet, &options).expect("pages");
    for i in [0, 1, sheet.pages.len() - 1] {
        let one = tilekit_render::sheet::page_pixmap(&set, &sheet, &options, i).expect("page");
        assert!(one.data() == all[i].data(), "page {i} differs");
    }
}

/// The Festival's `FE-CRCR` has four corner fields: the overlay labels all four.
#[test]
fn the_overlay_labels_every_field_of_fe_crcr() {
    let set = bundled();
    let Some(tile) = set.tile("FE-CRCR") else {
        return;
    };
    let scene = draw_tile(
        &set,
        tile,
        &DrawOptions {
            overlay: true,
            ..DrawOptions::default()
        },
    );
    for k in 1..=4 {
        let label = format!("field {k}");
        assert!(
            scene
                .commands
                .iter()
                .any(|c| matches!(c, Command::Text { text, .. } if *text == label)),
            "no `{label}` in the overlay"
        );
    }
}

// ---- pictures that once contradicted their data: tests/fixtures/pictures.toml ----------------

/// The base game, the River and `tests/fixtures/pictures.toml`.
fn pictures() -> TileSet {
    load_fixture(&["/base.toml", "/river.toml"], "pictures.toml")
}

/// The bundled files whose names end so, and `tests/fixtures/<fixture>`, loaded together.
fn load_fixture(bundled: &[&str], fixture: &str) -> TileSet {
    let mut sources: Vec<tiledef::Source> = tiledef::bundled()
        .into_iter()
        .filter(|s| bundled.iter().any(|end| s.name.ends_with(end)))
        .collect();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(fixture);
    sources.push(tiledef::Source {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("fixture"),
    });
    let report = tiledef::load(sources);
    report.tileset.unwrap_or_else(|| {
        let d: Vec<String> = report
            .diagnostics
            .iter()
            .map(|d| d.render_plain())
            .collect();
        panic!("{fixture} does not validate:\n{}", d.join("\n"))
    })
}

/// The colour of the picture of tile `id` at (x, y) in tile units.
fn pixel_at(set: &TileSet, id: &str, x: f32, y: f32) -> [u8; 3] {
    let px = 200;
    let tile = &set.tiles[index(set, id)];
    let pixmap = render_tile(set, tile, px, &DrawOptions::default()).expect("renders");
    let p = pixmap
        .pixel((x * px as f32) as u32, (y * px as f32) as u32)
        .expect("inside");
    [p.red(), p.green(), p.blue()]
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 12)
}

/// An author's edge kind with a `display` colour and no `style` that keeps two fields apart
/// is drawn as a band in its colour between them (it was drawn as nothing: one field).
#[test]
fn a_dividing_edge_kind_without_a_style_is_a_band_in_its_colour() {
    let set = pictures();
    let tile = &set.tiles[index(&set, "PC-lake")];
    tilekit_render::check_regions(&set, tile).unwrap_or_else(|e| panic!("{e}"));
    let scene = draw_tile(&set, tile, &DrawOptions::default());
    assert!(has_fill(&scene, [0x3a, 0x7b, 0xd5]), "the lake's colour");
    assert!(close(
        pixel_at(&set, "PC-lake", 0.5, 0.5),
        [0x3a, 0x7b, 0xd5]
    ));
    // The base game's own field edges stay plain ground.
    let field = pixel_at(&set, "PC-lake", 0.2, 0.5);
    assert!(!close(field, [0x3a, 0x7b, 0xd5]), "{field:?}");
}

/// The check catches the old picture: the lake shore drawn as plain ground joins its fields.
#[test]
fn a_dividing_edge_kind_drawn_as_ground_fails_the_check() {
    let mut set = pictures();
    as_ground(&mut set, "lake");
    let tile = &set.tiles[index(&set, "PC-lake")];
    let err = tilekit_render::check_regions(&set, tile).expect_err("two fields drawn as one");
    assert!(err.contains("PC-lake"), "{err}");
}

/// A road ending at the river on the opposite edge runs to the water (it was a stub at its
/// port).
#[test]
fn a_road_ending_at_the_water_across_the_tile_reaches_it() {
    let set = pictures();
    let tile = &set.tiles[index(&set, "PC-bank")];
    tilekit_render::check_regions(&set, tile).unwrap_or_else(|e| panic!("{e}"));
    let road = [0xf1, 0xea, 0xd8];
    for y in [0.85, 0.7, 0.55] {
        let p = pixel_at(&set, "PC-bank", 0.5, y);
        assert!(close(p, road), "no road at y = {y}: {p:?}");
    }
}

/// A road over a bridge ending at a side whose strip is one field stops short of the edge, so
/// the strip stays one field (it ran to the edge and cut the strip in two).
#[test]
fn a_road_ending_in_a_strip_of_one_field_leaves_it_whole() {
    let set = pictures();
    let tile = &set.tiles[index(&set, "PC-strip")];
    tilekit_render::check_regions(&set, tile).unwrap_or_else(|e| panic!("{e}"));
    let road = [0xf1, 0xea, 0xd8];
    assert!(close(pixel_at(&set, "PC-strip", 0.5, 0.7), road));
    let by_edge = pixel_at(&set, "PC-strip", 0.5, 0.06);
    assert!(
        !close(by_edge, road),
        "the road reaches the edge: {by_edge:?}"
    );
    // It still crosses the river on a bridge.
    let scene = draw_tile(&set, tile, &DrawOptions::default());
    assert!(scene.to_string().matches("w0.02 butt").count() >= 2);
}

/// An inner field bordering two cities whose walls meet at one end only, with the ground
/// between them open to another field, gets a pocket of its own: the cities are laid out again
/// so that their walls enclose it (it had no ground at all). JCloisterZone's DG/CCc+.p, the
/// same layout turned, and two caps on neighbouring sides.
#[test]
fn an_inner_field_between_two_cities_gets_a_pocket_of_its_own() {
    let set = pictures();
    let field = kind(&set, "field");
    for id in ["PC-pocket", "PC-pocket-turned", "PC-pocket-caps"] {
        let tile = &set.tiles[index(&set, id)];
        tilekit_render::check_regions(&set, tile).unwrap_or_else(|e| panic!("{e}"));
        let inner = tile
            .features
            .iter()
            .position(|f| f.kind == field && f.ports.is_empty())
            .expect("an inner field");
        let area = tilekit_render::feature_areas(&set, tile)
            .into_iter()
            .find(|a| a.feature == inner)
            .unwrap_or_else(|| panic!("{id}: the inner field has no ground"));
        let at = pixel_at(&set, id, area.point.x, area.point.y);
        assert!(
            close(at, [0x7f, 0xb3, 0x56]),
            "{id}: {at:?} at {:?}",
            area.point
        );
    }
}

/// A region of a kind of its own is drawn in its look's fill, and where it meets the field the
/// two are kept apart by its edge: the fixture's woods were drawn as field, and a wood beside a
/// field was one ground with it.
#[test]
fn a_second_region_kind_is_drawn_in_its_own_fill() {
    let set = load_fixture(&["/base.toml"], "woods.toml");
    let (wood, field) = ([0x2f, 0x5d, 0x2a], [0x7f, 0xb3, 0x56]);
    for tile in set.tiles.iter().filter(|t| t.id.starts_with("WD-")) {
        tilekit_render::check_regions(&set, tile).unwrap_or_else(|e| panic!("{e}"));
    }
    for (id, x, y, colour) in [
        ("WD-deep", 0.5, 0.5, wood),
        ("WD-city", 0.5, 0.8, wood),
        ("WD-edge", 0.5, 0.1, wood),
        ("WD-edge", 0.3, 0.7, field),
        ("WD-cap", 0.5, 0.1, wood),
        ("WD-cap", 0.5, 0.6, field),
        ("WD-half", 0.85, 0.2, wood),
        ("WD-half", 0.2, 0.85, field),
        ("WD-road", 0.5, 0.08, wood),
        ("WD-road", 0.2, 0.3, field),
        ("WD-road", 0.5, 0.8, field),
        ("WD-inner", 0.5, 0.5, wood),
    ] {
        let at = pixel_at(&set, id, x, y);
        assert!(close(at, colour), "{id} at ({x}, {y}): {at:?}");
    }
}

/// Two lines crossing without meeting (two features whose ports alternate round the edge) are
/// drawn over and under: the first listed passes over the other on a bridge, the other runs
/// beneath (they were drawn as a junction). Roads meeting at a junction stay as they were.
#[test]
fn two_lines_crossing_without_meeting_pass_over_and_under() {
    let bundled = bundled();
    let tracks = load_fixture(&["/base.toml"], "tracks.toml");
    let road = [0xf1, 0xea, 0xd8];
    for (set, id, under) in [
        (&bundled, "TB-RRrr", road),
        (&tracks, "TR-over", [0x8a, 0x5a, 0x2b]),
    ] {
        let tile = &set.tiles[index(set, id)];
        tilekit_render::check_regions(set, tile).unwrap_or_else(|e| panic!("{e}"));
        // The west–east line is the one beneath: whole away from the crossing, cut beside the
        // north–south one, which is whole across it.
        assert!(close(pixel_at(set, id, 0.3, 0.5), under), "{id}");
        let beside = pixel_at(set, id, 0.43, 0.5);
        assert!(!close(beside, under), "{id}: the lines meet: {beside:?}");
        assert!(close(pixel_at(set, id, 0.5, 0.5), road), "{id}");
        let parapets = scene_text(set, id, DrawOptions::default())
            .matches("w0.02 butt")
            .count();
        assert_eq!(parapets, 2, "{id}");
    }
    // A crossroads is four roads meeting at a village: no bridge.
    let crossroads = scene_text(&bundled, "X", DrawOptions::default());
    assert_eq!(crossroads.matches("w0.02 butt").count(), 0);
}

/// Where a drawing's marker icons stand: the centres of their round plates (0.06 across, in the
/// icon library's plate colour).
fn icon_plates(scene: &tilekit_render::Scene) -> Vec<tilekit_render::scene::Point> {
    scene
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Shape {
                shape: Shape::Circle { centre, radius },
                fill: Some(f),
                ..
            } if (*radius - 0.06).abs() < 1e-6 && f.0 == [0xf4, 0xee, 0xe0, 235] => Some(*centre),
            _ => None,
        })
        .collect()
}

/// What is wrong with where tile `id`'s icons stand: a plate off the tile, or reaching into
/// the box of the tile's id written in its corner.
fn icon_faults(set: &TileSet, id: &str) -> Vec<String> {
    let tile = &set.tiles[index(set, id)];
    let options = DrawOptions {
        overlay: false,
        label: Label::All,
        artwork: false,
    };
    let (_, width_em) = tilekit_render::font::layout(&tile.id);
    // Right-aligned at (0.965, 0.965), 0.075 high: its capitals from 0.73 em above.
    let (size, r) = (0.075, 0.06);
    let (x0, y0) = (0.965 - width_em * size, 0.965 - 0.73 * size);
    icon_plates(&draw_tile(set, tile, &options))
        .into_iter()
        .filter_map(|p| {
            let on_tile = (r..=1.0 - r).contains(&p.x) && (r..=1.0 - r).contains(&p.y);
            let (dx, dy) = ((x0 - p.x).max(0.0), (y0 - p.y).max(0.0));
            let clear_of_id = (dx * dx + dy * dy).sqrt() >= r;
            (!on_tile || !clear_of_id).then(|| format!("{id}: an icon at {p:?}"))
        })
        .collect()
}

/// A small city opposite a sea edge has little room: its goods' icons sat on the tile's edge,
/// under the tile's id. No icon of a bundled tile or of the fixture leaves the tile or reaches
/// under its id.
#[test]
fn marker_icons_stay_on_the_tile_and_clear_of_its_id() {
    let seas = load_fixture(&["/base.toml"], "seas.toml");
    let tile = &seas.tiles[index(&seas, "SE-port")];
    tilekit_render::check_regions(&seas, tile).unwrap_or_else(|e| panic!("{e}"));
    let options = DrawOptions {
        overlay: false,
        label: Label::All,
        artwork: false,
    };
    assert_eq!(icon_plates(&draw_tile(&seas, tile, &options)).len(), 2);
    let mut faults = icon_faults(&seas, "SE-port");
    let set = bundled();
    for tile in &set.tiles {
        faults.extend(icon_faults(&set, &tile.id));
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The box a line of text of a drawing takes, its halo included, as the font lays it out.
fn text_box(
    text: &str,
    at: tilekit_render::scene::Point,
    size: f32,
    align: tilekit_render::scene::Align,
) -> [f32; 4] {
    use tilekit_render::scene::Align;
    let width = tilekit_render::font::layout(text).1 * size;
    let halo = 0.11 * size;
    let (left, baseline) = match align {
        Align::Left => (at.x, at.y),
        Align::Right => (at.x - width, at.y),
        Align::Centre => (at.x - width / 2.0, at.y + 0.365 * size),
    };
    [
        left - halo,
        baseline - 0.73 * size - halo,
        left + width + halo,
        baseline + 0.24 * size + halo,
    ]
}

/// With the overlay, no feature's label leaves the tile or covers a port's name or the tile's
/// id, on any bundled tile (the labels of cities, fields and roads once covered port names).
#[test]
fn overlay_labels_stay_on_the_tile_and_clear_of_other_text() {
    let set = bundled();
    let options = DrawOptions {
        overlay: true,
        label: Label::All,
        artwork: false,
    };
    let mut faults = Vec::new();
    for tile in &set.tiles {
        let texts: Vec<(String, f32, [f32; 4])> = draw_tile(&set, tile, &options)
            .commands
            .iter()
            .filter_map(|c| match c {
                Command::Text {
                    at,
                    size,
                    text,
                    align,
                    ..
                } => Some((text.clone(), *size, text_box(text, *at, *size, *align))),
                _ => None,
            })
            .collect();
        for (text, size, b) in texts.iter().filter(|t| (t.1 - 0.052).abs() < 1e-6) {
            let _ = size;
            if b[0] < 0.0 || b[1] < 0.0 || b[2] > 1.0 || b[3] > 1.0 {
                faults.push(format!("{}: `{text}` leaves the tile: {b:?}", tile.id));
            }
            for (other, _, o) in texts.iter().filter(|t| (t.1 - 0.052).abs() >= 1e-6) {
                if b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3] {
                    faults.push(format!("{}: `{text}` covers `{other}`", tile.id));
                }
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The base game's feature kind `id`.
fn kind(set: &TileSet, id: &str) -> tiledef::FeatureKindId {
    set.kind_id(id).expect("base declares its kinds")
}

/// A feature of the base game's kind `id`, as the checker makes one.
fn new_feature(set: &TileSet, id: &str) -> tiledef::Feature {
    tiledef::Feature::new(kind(set, id))
}

/// An area of a set's own kind is drawn in its look's colours, without a city's houses: the
/// fixture's lake is blue within a sandy shore.
#[test]
fn a_lake_is_drawn_in_its_looks_colours() {
    let set = load_fixture(
        &["/base.toml"],
        "../../../../tiledef/tests/fixtures/lakes.toml",
    );
    let text = scene_text(&set, "LK-bay", DrawOptions::default());
    let lake = scene_text(&set, "LK-strait", DrawOptions::default());
    for scene in [&text, &lake] {
        assert!(scene.contains("#4f8fd0"), "the lake's fill: {scene}");
        assert!(scene.contains("#d9c48a"), "the shore: {scene}");
    }
    let city = scene_text(&set, "E", DrawOptions::default());
    assert!(!city.contains("#4f8fd0"));
    // The bay's road ends at a landing on the shore (#9c6b3c), not at a city gate (#3d2b1f).
    assert!(
        text.contains("#9c6b3c") && !text.contains("#3d2b1f"),
        "{text}"
    );
}

/// A line of a set's own kind is drawn in its look's fill: the fixture's track is brown.
#[test]
fn a_track_is_drawn_in_its_looks_fill() {
    let set = load_fixture(&["/base.toml"], "tracks.toml");
    let scene = scene_text(&set, "TR-1", DrawOptions::default());
    assert!(scene.contains("#8a5a2b"), "{scene}");
    assert_eq!(pixel_at(&set, "TR-1", 0.5, 0.3), [0x8a, 0x5a, 0x2b]);
}

/// An area's look draws its texture: tree crowns in a forest (three circles each), peaks on a
/// mountain, and no houses in either.
#[test]
fn a_forest_has_trees_and_a_mountain_peaks() {
    let set = load_fixture(&["/base.toml"], "forests.toml");
    let scene = scene_text(&set, "FO-edge", DrawOptions::default());
    let plain = {
        let mut plain = set.clone();
        let own = |k: &tiledef::FeatureKindInfo| k.id == "forest" || k.id == "mountain";
        for kind in plain.feature_kinds.iter_mut().filter(|k| own(k)) {
            if let Some(look) = &mut kind.look {
                look.style = tiledef::LookStyle::Plain;
            }
        }
        scene_text(&plain, "FO-edge", DrawOptions::default())
    };
    let circles = |s: &str| s.matches("circle").count();
    assert!(circles(&scene) >= circles(&plain) + 3, "{scene}");
    let peaks = |s: &str| {
        s.lines()
            .filter(|l| l.contains("polygon") || l.contains("path"))
            .count()
    };
    assert!(peaks(&scene) > peaks(&plain), "{scene}");
}

/// A tile with no field (the abbey behind its walls) is paved inside, not grass: grass is
/// drawn only where the data has a field. A monastery tile with its field stays green.
#[test]
fn a_tile_without_a_field_is_paved_not_grass() {
    let set = bundled();
    let grass = pixel_at(&set, "B", 0.2, 0.2);
    let courtyard = pixel_at(&set, "AM-A", 0.2, 0.2);
    assert!(
        grass[1] > grass[0] && grass[1] > grass[2],
        "B's field is green: {grass:?}"
    );
    assert!(
        close(courtyard, [0xd2, 0xc8, 0xb4]),
        "the abbey's courtyard is paving, not grass: {courtyard:?}"
    );
}

/// The overlay draws each of a tile's `moves` links (Abbey & Mayor's wagon; a fan's own figure
/// that moves on), which no other picture shows: one line through the linked features, on the
/// tile; the plain preview is unchanged.
#[test]
fn the_overlay_draws_a_tile_s_moves_links() {
    let set = bundled();
    let tile = &set.tiles[index(&set, "AM-CCRR")];
    assert_eq!(tile.moves.len(), 2);
    let mut unlinked = tile.clone();
    unlinked.moves.clear();
    let overlay = DrawOptions {
        overlay: true,
        label: Label::All,
        artwork: true,
    };
    let with = draw_tile(&set, tile, &overlay);
    let without = draw_tile(&set, &unlinked, &overlay);
    let added: Vec<&Command> = (with.commands.iter())
        .filter(|c| !without.commands.contains(c))
        .collect();
    let lines: Vec<&Vec<tilekit_render::scene::Seg>> = (added.iter())
        .filter_map(|c| match c {
            Command::Shape {
                shape: Shape::Path(path),
                stroke: Some(_),
                ..
            } => Some(path),
            _ => None,
        })
        .collect();
    assert_eq!(lines.len(), tile.moves.len(), "{added:?}");
    for path in lines {
        assert_eq!(path.len(), 2, "{path:?}");
        for seg in path {
            let p = match seg {
                tilekit_render::scene::Seg::Move(p) | tilekit_render::scene::Seg::Line(p) => *p,
                other => panic!("{other:?}"),
            };
            assert!(
                (0.0..=1.0).contains(&p.x) && (0.0..=1.0).contains(&p.y),
                "{p:?}"
            );
        }
    }
    let plain = DrawOptions::default();
    assert_eq!(
        draw_tile(&set, tile, &plain),
        draw_tile(&set, &unlinked, &plain)
    );
}
