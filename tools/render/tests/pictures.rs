//! Authors' pictures: `examples/mines.toml` draws its markers and its emblem with its own SVG
//! and PNG files. Each is found in the rendered pixels where the scene puts it, and is gone
//! when the picture is taken away; a picture missing at render time names the tile and path.

use std::path::{Path, PathBuf};
use tiledef::{Source, TileSet};
use tilekit_render::scene::{Command, Point};
use tilekit_render::{DrawOptions, RenderError, draw_tile, render_picture_png, render_tile};

const PX: u32 = 256;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The mines example with the base game it requires, named by absolute paths so that its
/// pictures resolve from any working folder.
fn mines() -> TileSet {
    let sources = ["definitions/base.toml", "examples/mines.toml"].map(|name| {
        let path = root().join(name);
        Source {
            name: path.display().to_string(),
            text: std::fs::read_to_string(&path).expect("the example is readable"),
        }
    });
    let report = tiledef::load(sources.to_vec());
    report.tileset.expect("the mines example loads")
}

fn tile_index(set: &TileSet, id: &str) -> usize {
    set.tiles
        .iter()
        .position(|t| t.id == id)
        .unwrap_or_else(|| panic!("no tile {id}"))
}

/// The pictures the scene of a tile places: file name, centre and size.
fn placed(set: &TileSet, id: &str) -> Vec<(String, Point, f32)> {
    let scene = draw_tile(
        set,
        &set.tiles[tile_index(set, id)],
        &DrawOptions::default(),
    );
    scene
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Picture { path, centre, size } => Some((
                path.file_name()?.to_string_lossy().into_owned(),
                *centre,
                *size,
            )),
            _ => None,
        })
        .collect()
}

/// The pixels within 3 of `rgb` a channel, and their centre in tile units.
fn pixels_of(set: &TileSet, id: &str, rgb: [u8; 3]) -> (usize, Option<(f32, f32)>) {
    let pixmap = render_tile(
        set,
        &set.tiles[tile_index(set, id)],
        PX,
        &DrawOptions::default(),
    )
    .expect("the tile renders");
    let (mut n, mut sx, mut sy) = (0, 0.0, 0.0);
    for (i, px) in pixmap.pixels().iter().enumerate() {
        let c = px.demultiply();
        let close = [c.red(), c.green(), c.blue()]
            .iter()
            .zip(rgb)
            .all(|(a, b)| a.abs_diff(b) <= 3);
        if close && c.alpha() == 255 {
            n += 1;
            sx += (i as u32 % PX) as f32 + 0.5;
            sy += (i as u32 / PX) as f32 + 0.5;
        }
    }
    let centre = (n > 0).then(|| (sx / n as f32 / PX as f32, sy / n as f32 / PX as f32));
    (n, centre)
}

/// Each picture's own colour is drawn around the centre the scene gives it, and only there.
#[test]
fn the_example_pictures_are_drawn_where_their_markers_and_emblems_are() {
    let set = mines();
    // The mine's hill (SVG marker), the anchor (PNG marker), the gem (SVG emblem, twice).
    for (tile, file, rgb, count) in [
        ("MN-peak", "mine.svg", [0x8a, 0x6a, 0x3c], 1),
        ("MN-harbour", "quay.png", [0x1f, 0x3a, 0x6e], 1),
        ("MN-ridge", "gem.svg", [0x2f, 0xb8, 0xa0], 2),
    ] {
        let pictures = placed(&set, tile);
        let mine: Vec<_> = pictures.iter().filter(|(f, ..)| f == file).collect();
        assert_eq!(mine.len(), count, "{tile}: {pictures:?}");
        let (n, centre) = pixels_of(&set, tile, rgb);
        assert!(n >= 20 * count, "{tile}: {n} pixels of {file}'s colour");
        let (cx, cy) = centre.expect("some pixels");
        let (ex, ey) = mine.iter().fold((0.0, 0.0), |(x, y), (_, c, _)| {
            (x + c.x / count as f32, y + c.y / count as f32)
        });
        assert!(
            (cx - ex).abs() < 0.04 && (cy - ey).abs() < 0.04,
            "{tile}: {file} drawn about ({cx}, {cy}), placed at ({ex}, {ey})"
        );
    }
}

/// Without their pictures the same tiles show none of those colours: the pixels above are the
/// pictures', and the generic forms (a badge, a pennant) come back.
#[test]
fn without_the_pictures_the_generic_forms_come_back() {
    let mut set = mines();
    for m in &mut set.markers {
        m.picture = None;
    }
    for k in &mut set.feature_kinds {
        if let Some(e) = &mut k.emblem {
            e.picture = None;
        }
    }
    for (tile, rgb) in [
        ("MN-peak", [0x8a, 0x6a, 0x3c]),
        ("MN-harbour", [0x1f, 0x3a, 0x6e]),
        ("MN-ridge", [0x2f, 0xb8, 0xa0]),
    ] {
        assert!(placed(&set, tile).is_empty(), "{tile}");
        assert_eq!(pixels_of(&set, tile, rgb).0, 0, "{tile}");
    }
}

#[test]
fn a_picture_gone_at_render_time_names_the_tile_and_the_path() {
    let mut set = mines();
    let gone = root().join("examples/icons/gone.svg");
    for m in &mut set.markers {
        m.picture = Some(gone.clone());
    }
    let tile = &set.tiles[tile_index(&set, "MN-peak")];
    match render_tile(&set, tile, 64, &DrawOptions::default()) {
        Err(e @ RenderError::Picture { .. }) => {
            let text = e.to_string();
            assert!(text.contains("tile MN-peak"), "{text}");
            assert!(text.contains("gone.svg"), "{text}");
        }
        other => panic!("expected a picture error, got {:?}", other.map(|_| ())),
    }
}

/// A figure's picture alone, as the live page shows it: transparent around, drawn inside.
#[test]
fn a_figure_picture_renders_alone_on_a_transparent_ground() {
    let set = mines();
    let prospector = set.followers.iter().find(|f| f.id == "prospector");
    let path = prospector
        .and_then(|f| f.picture.clone())
        .expect("a picture");
    let png = render_picture_png(&path, 64, "figure prospector").expect("drawn");
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!(
        (info.width, info.height, info.color_type),
        (64, 64, png::ColorType::Rgba)
    );
    let alpha = |x: usize, y: usize| buf[(y * 64 + x) * 4 + 3];
    assert_eq!(alpha(0, 0), 0, "the corner is transparent");
    assert_eq!(alpha(32, 24), 255, "the face is drawn");
}

/// The heaviest SVG the checker lets through (every filter a huge blur, the rest of its nodes
/// large circles) draws in a few seconds: its layers are its own box's size, not the tile's
/// (drawn straight onto the tile, as first written, it took 161 s at this size, 4 s so).
#[test]
fn the_heaviest_picture_allowed_draws_in_bounded_time() {
    use tiledef::picture::{MAX_SVG_FILTERS, MAX_SVG_NODES};
    let blur = r#"<defs><filter id="b" x="-50" y="-50" width="100" height="100"><feGaussianBlur stdDeviation="500"/></filter></defs>"#;
    let blurred = r##"<circle cx="50" cy="50" r="60" fill="#804080" filter="url(#b)"/>"##;
    let circles = r##"<circle cx="50" cy="50" r="60" fill="#408040"/>"##;
    let body = format!(
        "{blur}{}{}",
        blurred.repeat(MAX_SVG_FILTERS),
        circles.repeat(MAX_SVG_NODES as usize - MAX_SVG_FILTERS - 100)
    );
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000" viewBox="0 0 100 100">{body}</svg>"#
    );
    let dir = std::env::temp_dir().join(format!("render-heavy-picture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("heavy.svg");
    std::fs::write(&path, svg).expect("written");
    assert!(
        tiledef::picture::read(&path).is_ok(),
        "within the checker's limits"
    );
    let mut set = mines();
    for m in &mut set.markers {
        m.picture = Some(path.clone());
    }
    let tile = &set.tiles[tile_index(&set, "MN-peak")];
    let start = std::time::Instant::now();
    render_tile(&set, tile, 1024, &DrawOptions::default()).expect("drawn");
    let took = start.elapsed();
    std::fs::remove_dir_all(&dir).expect("removed");
    assert!(took < std::time::Duration::from_secs(30), "took {took:?}");
}
