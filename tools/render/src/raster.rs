//! Drawing commands to pixels with tiny-skia, and pixels to PNG bytes.

use crate::RenderError;
use crate::font::text_path;
use crate::scene::{Cap, Command, Rgba, Scene, Seg, Shape};
use tiledef::picture::Picture;
use tiny_skia::{
    Color, FillRule, FilterQuality, LineCap, LineJoin, Paint, PathBuilder, Pixmap, PixmapPaint,
    Transform,
};

/// The background under everything: what a transparent corner would otherwise show.
const PAPER: Color = Color::WHITE;

/// Draws a scene into a new pixmap `px` pixels square; `bleed` tile units are added on every
/// side (the pixmap then shows `1 + 2 * bleed` tile units). `tile` names the tile in errors.
pub fn rasterise(scene: &Scene, px: u32, bleed: f32, tile: &str) -> Result<Pixmap, RenderError> {
    let mut pixmap = Pixmap::new(px.max(1), px.max(1)).ok_or(RenderError::Size(px))?;
    pixmap.fill(PAPER);
    let scale = px as f32 / (1.0 + 2.0 * bleed);
    let transform = Transform::from_row(scale, 0.0, 0.0, scale, bleed * scale, bleed * scale);
    draw(&mut pixmap, scene, transform, tile)?;
    Ok(pixmap)
}

fn colour(c: Rgba) -> Color {
    let [r, g, b, a] = c.0;
    Color::from_rgba8(r, g, b, a)
}

fn paint(c: Rgba) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(colour(c));
    p.anti_alias = true;
    p
}

fn build(shape: &Shape) -> Option<tiny_skia::Path> {
    match shape {
        Shape::Circle { centre, radius } => PathBuilder::from_circle(centre.x, centre.y, *radius),
        Shape::Path(segs) => build_segs(segs),
    }
}

fn build_segs(segs: &[Seg]) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    for s in segs {
        match *s {
            Seg::Move(p) => pb.move_to(p.x, p.y),
            Seg::Line(p) => pb.line_to(p.x, p.y),
            Seg::Quad(c, p) => pb.quad_to(c.x, c.y, p.x, p.y),
            Seg::Cubic(a, b, p) => pb.cubic_to(a.x, a.y, b.x, b.y, p.x, p.y),
            Seg::Close => pb.close(),
        }
    }
    pb.finish()
}

fn stroke_style(width: f32, cap: Cap) -> tiny_skia::Stroke {
    tiny_skia::Stroke {
        width,
        line_cap: match cap {
            Cap::Butt => LineCap::Butt,
            Cap::Round => LineCap::Round,
        },
        line_join: match cap {
            Cap::Butt => LineJoin::Miter,
            Cap::Round => LineJoin::Round,
        },
        ..tiny_skia::Stroke::default()
    }
}

/// Draws a scene onto a pixmap with a tile-units-to-pixels transform.
pub fn draw(
    pixmap: &mut Pixmap,
    scene: &Scene,
    transform: Transform,
    tile: &str,
) -> Result<(), RenderError> {
    for command in &scene.commands {
        match command {
            Command::Shape {
                shape,
                fill,
                stroke,
            } => {
                let Some(path) = build(shape) else { continue };
                if let Some(c) = fill {
                    pixmap.fill_path(&path, &paint(*c), FillRule::Winding, transform, None);
                }
                if let Some(s) = stroke {
                    pixmap.stroke_path(
                        &path,
                        &paint(s.colour),
                        &stroke_style(s.width, s.cap),
                        transform,
                        None,
                    );
                }
            }
            Command::Text {
                at,
                size,
                text,
                colour,
                align,
                halo,
            } => {
                let Some(path) = build_segs(&text_path(text, *at, *size, *align)) else {
                    continue;
                };
                if let Some(h) = halo {
                    pixmap.stroke_path(
                        &path,
                        &paint(*h),
                        &stroke_style(size * 0.22, Cap::Round),
                        transform,
                        None,
                    );
                }
                pixmap.fill_path(&path, &paint(*colour), FillRule::Winding, transform, None);
            }
            Command::Image { path } => {
                let art = load_artwork(path, tile)?;
                let (w, h) = (art.width() as f32, art.height() as f32);
                let t = transform.pre_scale(1.0 / w, 1.0 / h);
                pixmap.draw_pixmap(
                    0,
                    0,
                    art.as_ref(),
                    &PixmapPaint {
                        quality: FilterQuality::Bicubic,
                        ..PixmapPaint::default()
                    },
                    t,
                    None,
                );
            }
            Command::Picture { path, centre, size } => {
                picture(pixmap, path, (*centre, *size), transform).map_err(|reason| {
                    RenderError::Picture {
                        of: format!("tile {tile}"),
                        path: path.clone(),
                        reason,
                    }
                })?;
            }
        }
    }
    Ok(())
}

/// Draws the picture at `path` fitted into the square `(centre, size)`, its proportions kept.
fn picture(
    pixmap: &mut Pixmap,
    path: &std::path::Path,
    (centre, size): (crate::scene::Point, f32),
    transform: Transform,
) -> Result<(), String> {
    let picture = tiledef::picture::read(path).map_err(|e| e.to_string())?;
    let (w, h) = picture.size();
    let scale = size / w.max(h).max(f32::EPSILON);
    let placed = transform
        .pre_translate(centre.x - w * scale / 2.0, centre.y - h * scale / 2.0)
        .pre_scale(scale, scale);
    match picture {
        Picture::Svg(tree) => {
            let corner = (centre.x - w * scale / 2.0, centre.y - h * scale / 2.0);
            svg_in_its_box(pixmap, &tree, corner, scale, transform)?;
        }
        Picture::Png { bytes, .. } => {
            let art = premultiplied(&bytes).map_err(|e| e.to_string())?;
            let quality = PixmapPaint {
                quality: FilterQuality::Bicubic,
                ..PixmapPaint::default()
            };
            pixmap.draw_pixmap(0, 0, art.as_ref(), &quality, placed, None);
        }
    }
    Ok(())
}

/// Draws an SVG with its top-left corner at `corner` (tile units), `scale` tile units a pixel of
/// its own, into a pixmap of its own size first: its filters' and masks' layers are then the
/// picture's size, not the canvas's (a blur over a print page's tile costs a page of pixels).
/// The layer is drawn on whole pixels, so the picture is not resampled.
fn svg_in_its_box(
    pixmap: &mut Pixmap,
    tree: &resvg::usvg::Tree,
    corner: (f32, f32),
    scale: f32,
    transform: Transform,
) -> Result<(), String> {
    let device = scale * transform.sx;
    let (ox, oy) = (
        transform.sx * corner.0 + transform.tx,
        transform.sy * corner.1 + transform.ty,
    );
    let (x0, y0) = (ox.floor(), oy.floor());
    let side = |n: f32| (n * device + 2.0).ceil().clamp(1.0, 8192.0) as u32;
    let size = tree.size();
    let mut layer = Pixmap::new(side(size.width()), side(size.height()))
        .ok_or("the picture's size cannot be drawn")?;
    let inside = Transform::from_translate(ox - x0, oy - y0).pre_scale(device, device);
    resvg::render(tree, inside, &mut layer.as_mut());
    let paint = PixmapPaint::default();
    pixmap.draw_pixmap(
        x0 as i32,
        y0 as i32,
        layer.as_ref(),
        &paint,
        Transform::identity(),
        None,
    );
    Ok(())
}

/// The most memory a decoded artwork may take: what `image` allowed before us, far above any
/// print resolution (45 mm at 1,200 dpi is 2,126 px square, 18 MB).
const ARTWORK_LIMIT_BYTES: usize = 512 * 1024 * 1024;

/// Reads an artwork PNG into a premultiplied pixmap.
pub fn load_artwork(path: &std::path::Path, tile: &str) -> Result<Pixmap, RenderError> {
    let fail = |reason: String| RenderError::Artwork {
        tile: tile.to_string(),
        path: path.to_path_buf(),
        reason,
    };
    // A regular file (a device or a FIFO would be read forever) within the limit the checker
    // holds tiles' artwork to; read as the checker reads pictures.
    let bytes = tiledef::picture::read_bytes(path, tiledef::model::MAX_ARTWORK_BYTES)
        .map_err(|e| fail(e.to_string()))?;
    premultiplied(&bytes).map_err(fail)
}

/// Decodes a PNG into a premultiplied pixmap.
fn premultiplied(bytes: &[u8]) -> Result<Pixmap, String> {
    let (w, h, mut data) = decode_rgba8(bytes).map_err(|e| e.to_string())?;
    for px in data.chunks_exact_mut(4) {
        let a = u16::from(px[3]);
        for c in &mut px[..3] {
            *c = ((u16::from(*c) * a + 127) / 255) as u8;
        }
    }
    let size = tiny_skia::IntSize::from_wh(w, h).ok_or("the image is empty")?;
    Pixmap::from_vec(data, size).ok_or_else(|| "the image has an unusable size".into())
}

/// Decodes any PNG (palette, grey, 16-bit, interlaced) to straight RGBA, 8 bits a channel.
fn decode_rgba8(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), png::DecodingError> {
    let mut decoder = png::Decoder::new_with_limits(
        std::io::Cursor::new(bytes),
        png::Limits {
            bytes: ARTWORK_LIMIT_BYTES,
        },
    );
    // Palette and low-depth grey expanded, transparency to alpha; 16-bit kept, rounded below.
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info()?;
    let size = reader
        .output_buffer_size()
        .filter(|&size| size <= ARTWORK_LIMIT_BYTES)
        .ok_or(png::DecodingError::LimitsExceeded)?;
    let mut buf = vec![0; size];
    let frame = reader.next_frame(&mut buf)?;
    buf.truncate(frame.buffer_size());
    let samples: Vec<u8> = match frame.bit_depth {
        // The nearest 8-bit value, as `image` rounds: (v + 128) / 257.
        png::BitDepth::Sixteen => buf
            .chunks_exact(2)
            .map(|v| ((u32::from(u16::from_be_bytes([v[0], v[1]])) + 128) / 257) as u8)
            .collect(),
        _ => buf,
    };
    let pixels = (frame.width as usize) * (frame.height as usize);
    let mut rgba = Vec::with_capacity(pixels * 4);
    match frame.color_type {
        png::ColorType::Rgba => rgba = samples,
        png::ColorType::Rgb => {
            for p in samples.chunks_exact(3) {
                rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
            }
        }
        png::ColorType::GrayscaleAlpha => {
            for p in samples.chunks_exact(2) {
                rgba.extend_from_slice(&[p[0], p[0], p[0], p[1]]);
            }
        }
        // Indexed never reaches here: EXPAND turns a palette into RGB or RGBA.
        png::ColorType::Grayscale | png::ColorType::Indexed => {
            for &g in &samples {
                rgba.extend_from_slice(&[g, g, g, 255]);
            }
        }
    }
    Ok((frame.width, frame.height, rgba))
}

/// The pixmap's colours without alpha (drawn on opaque paper, so alpha is 255 throughout).
pub fn rgb_bytes(pixmap: &Pixmap) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixmap.width() as usize * pixmap.height() as usize * 3);
    for px in pixmap.data().chunks_exact(4) {
        let a = u16::from(px[3]);
        if a == 255 || a == 0 {
            out.extend_from_slice(&px[..3]);
        } else {
            for c in &px[..3] {
                out.push(((u16::from(*c) * 255 + a / 2) / a).min(255) as u8);
            }
        }
    }
    out
}

/// Encodes a pixmap as an RGB PNG.
pub fn encode_png(pixmap: &Pixmap) -> Result<Vec<u8>, RenderError> {
    encode_rgb_png(pixmap.width(), pixmap.height(), &rgb_bytes(pixmap))
}

/// Encodes 8-bit RGB pixels, row by row, as a PNG: fast compression, each row's filter chosen
/// by the encoder (small files in a fraction of the best compression's time).
pub fn encode_rgb_png(width: u32, height: u32, rgb: &[u8]) -> Result<Vec<u8>, RenderError> {
    let fail = |e: png::EncodingError| RenderError::Encode(e.to_string());
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::Filter::Adaptive);
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(rgb).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}
