//! Authors' pictures against hostile files: each is refused with its reason, quickly, within
//! the limits of `tiledef::picture`, and an SVG reads no other file.

use std::time::{Duration, Instant};
use tiledef::picture::{self, MAX_SVG_DEPTH, MAX_SVG_NODES, Picture, PictureError};

/// Far above what each case takes in a debug build (milliseconds), far below a hang.
const QUICK: Duration = Duration::from_secs(10);

fn timed<T>(f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    assert!(start.elapsed() < QUICK, "took {:?}", start.elapsed());
    out
}

fn svg(body: &str) -> Vec<u8> {
    format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{body}</svg>"#)
        .into_bytes()
}

#[test]
fn a_million_elements_are_refused_before_they_are_built() {
    let body = "<g/>".repeat(1_000_000);
    let result = timed(|| picture::parse(svg(&body)));
    assert!(
        matches!(result, Err(PictureError::TooManyNodes)),
        "{result:?}"
    );
    // Just under the limit parses.
    let body = "<g/>".repeat(MAX_SVG_NODES as usize - 10);
    let result = timed(|| picture::parse(svg(&body)));
    assert!(matches!(result, Ok(Picture::Svg(_))), "{result:?}");
}

#[test]
fn deep_nesting_is_refused_without_recursing() {
    // Under the node limit, so that depth is what refuses it.
    let depth = MAX_SVG_NODES as usize - 10;
    let body = format!("{}{}", "<g>".repeat(depth), "</g>".repeat(depth));
    let result = timed(|| picture::parse(svg(&body)));
    assert!(matches!(result, Err(PictureError::TooDeep)), "{result:?}");
    let ok = MAX_SVG_DEPTH - 2;
    let body = format!("{}{}", "<g>".repeat(ok), "</g>".repeat(ok));
    assert!(matches!(picture::parse(svg(&body)), Ok(Picture::Svg(_))));
}

#[test]
fn an_enormous_declared_size_is_refused() {
    let wide = br#"<svg xmlns="http://www.w3.org/2000/svg" width="1e9" height="10"/>"#.to_vec();
    let result = timed(|| picture::parse(wide));
    assert!(
        matches!(result, Err(PictureError::TooWide { width, .. }) if width >= 1e9),
        "{result:?}"
    );
    let boxed = br#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100000 5"/>"#.to_vec();
    assert!(matches!(
        picture::parse(boxed),
        Err(PictureError::TooWide { .. })
    ));
    // A PNG header declaring 100,000 pixels a side, with almost no pixels behind it.
    let mut png = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png, 100_000, 100_000);
        encoder.set_color(png::ColorType::Rgba);
        let mut writer = encoder.write_header().expect("a header");
        writer
            .write_chunk(
                png::chunk::IDAT,
                &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
            )
            .expect("a chunk");
    }
    let result = timed(|| picture::parse(png));
    assert!(
        matches!(result, Err(PictureError::TooWide { .. })),
        "{result:?}"
    );
}

#[test]
fn a_file_over_the_byte_limit_is_not_read_whole() {
    let dir = std::env::temp_dir().join(format!("tiledef-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("huge.svg");
    std::fs::write(&path, svg(&"<g/>".repeat(1_000_000))).expect("written");
    let result = timed(|| picture::read(&path));
    assert!(
        matches!(result, Err(PictureError::TooLarge { limit }) if limit == picture::MAX_PICTURE_BYTES),
        "{result:?}"
    );
    assert_eq!(
        picture::read(&dir.join("absent.svg"))
            .map(|_| ())
            .map_err(|e| matches!(e, PictureError::Io(_))),
        Err(true)
    );
    assert!(matches!(picture::read(&dir), Err(PictureError::NotAFile)));
    std::fs::remove_dir_all(&dir).expect("removed");
}

#[test]
fn an_svg_reads_no_other_file_and_needs_a_size() {
    let port = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/icons/port.png");
    assert!(port.is_file(), "the example's picture exists");
    let body = format!(
        r#"<image href="{}" width="10" height="10"/><image href="data:image/png;base64,iVBORw0KGgo=" width="5" height="5"/>"#,
        port.display()
    );
    let Ok(Picture::Svg(tree)) = picture::parse(svg(&body)) else {
        panic!("an SVG with images parses");
    };
    assert!(!tree.root().has_children(), "no image was read");
    let sizeless = br#"<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>"#.to_vec();
    // usvg's default size stands in for a missing one: drawn, fitted like any picture.
    assert!(picture::parse(sizeless).is_ok());
    let result = picture::parse(b"\x1f\x8b\x08\x00 compressed".to_vec());
    assert!(matches!(result, Err(PictureError::Format)), "{result:?}");
    let html = b"<html><body><svg/></body></html>".to_vec();
    assert!(matches!(picture::parse(html), Err(PictureError::Format)));
}

#[test]
fn the_examples_pictures_parse() {
    let icons = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/icons");
    for name in ["mine.svg", "gem.svg", "prospector.svg", "port.png"] {
        let picture = picture::read(&icons.join(name));
        let (w, h) = picture
            .as_ref()
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .size();
        assert!(w > 0.0 && h > 0.0, "{name}: {w} × {h}");
    }
}
