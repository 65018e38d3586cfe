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
    let quay = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/icons/quay.png");
    assert!(quay.is_file(), "the example's picture exists");
    let body = format!(
        r#"<image href="{}" width="10" height="10"/><image href="data:image/png;base64,iVBORw0KGgo=" width="5" height="5"/>"#,
        quay.display()
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
    for name in ["mine.svg", "gem.svg", "prospector.svg", "quay.png"] {
        let picture = picture::read(&icons.join(name));
        let (w, h) = picture
            .as_ref()
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .size();
        assert!(w > 0.0 && h > 0.0, "{name}: {w} × {h}");
    }
}

/// What references repeat is counted before usvg builds it: a `<use>` chain doubling 30 times
/// (a billion rectangles), a pattern of 2,000 shapes filling 5,000 paths, a loop.
#[test]
fn repetition_by_reference_is_counted_before_it_is_built() {
    let chain: String = (1..=30)
        .map(|k| {
            format!(
                r##"<g id="g{k}"><use href="#g{}"/><use href="#g{}"/></g>"##,
                k - 1,
                k - 1
            )
        })
        .collect();
    let body =
        format!(r##"<defs><rect id="g0" width="1" height="1"/>{chain}</defs><use href="#g30"/>"##);
    let result = timed(|| picture::parse(svg(&body)));
    assert!(
        matches!(result, Err(PictureError::TooMuchDrawing)),
        "{result:?}"
    );

    let shapes = r#"<rect width="1" height="1"/>"#.repeat(2_000);
    let fills = r#"<rect width="9" height="9" fill="url(#p)"/>"#.repeat(5_000);
    let body =
        format!(r#"<defs><pattern id="p" width="3" height="3">{shapes}</pattern></defs>{fills}"#);
    let result = timed(|| picture::parse(svg(&body)));
    assert!(
        matches!(result, Err(PictureError::TooMuchDrawing)),
        "{result:?}"
    );

    let body = r##"<g id="a"><use href="#b"/></g><g id="b"><use xlink:href="#a" xmlns:xlink="http://www.w3.org/1999/xlink"/></g>"##;
    let result = picture::parse(svg(body));
    assert!(
        matches!(result, Err(PictureError::ReferenceLoop)),
        "{result:?}"
    );

    // A few uses of a small symbol are what icons do: fine.
    let body =
        r##"<defs><circle id="c" r="1"/></defs><use href="#c" x="2"/><use href="#c" x="5"/>"##;
    assert!(picture::parse(svg(body)).is_ok());
}

/// Filters are layers of their own: at most `MAX_SVG_FILTERS`. Markers (repeated at every
/// vertex) and references from a style sheet (to any number of elements) are refused.
#[test]
fn filters_markers_and_style_sheet_references_are_bounded() {
    let blur = r#"<defs><filter id="b"><feGaussianBlur stdDeviation="500"/></filter></defs>"#;
    let blurred = |n: usize| format!("{blur}{}", r#"<circle r="4" filter="url(#b)"/>"#.repeat(n));
    assert!(picture::parse(svg(&blurred(picture::MAX_SVG_FILTERS))).is_ok());
    let result = picture::parse(svg(&blurred(picture::MAX_SVG_FILTERS + 1)));
    assert!(
        matches!(result, Err(PictureError::TooManyFilters)),
        "{result:?}"
    );

    let marker = r#"<defs><marker id="m"><circle r="1"/></marker></defs><path marker-mid="url(#m)" d="M0 0 L1 1 L2 0"/>"#;
    let result = picture::parse(svg(marker));
    assert!(matches!(result, Err(PictureError::Markers)), "{result:?}");

    let sheet = r#"<style>rect { fill: url(#p) }</style><rect width="1" height="1"/>"#;
    let result = picture::parse(svg(sheet));
    assert!(matches!(result, Err(PictureError::StyleUrl)), "{result:?}");
    let plain_sheet = r#"<style>rect { fill: #c00 }</style><rect width="1" height="1"/>"#;
    assert!(picture::parse(svg(plain_sheet)).is_ok());
}
