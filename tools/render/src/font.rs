//! The embedded label font (DejaVu Sans Bold, see `assets/LICENSE-DejaVu.txt`) and text layout.
//!
//! No system font is read at run time, so every machine draws the same letters.

use crate::scene::{Align, Point, Seg, pt};
use ab_glyph::{Font, FontRef, GlyphId, OutlineCurve};

/// The font file's bytes.
pub static FONT_DATA: &[u8] = include_bytes!("../assets/DejaVuSans-Bold.ttf");

/// The embedded font.
pub fn font() -> FontRef<'static> {
    // The bytes are compiled in and known good: failure here is a build defect, not input.
    FontRef::try_from_slice(FONT_DATA).expect("the embedded DejaVu font parses")
}

/// One placed glyph: its id and its pen position, in em.
#[derive(Clone, Copy, Debug)]
pub struct PlacedGlyph {
    /// The glyph id in the font.
    pub id: u16,
    /// Pen position from the start of the line, in em.
    pub x: f32,
    /// Advance to the next glyph, in em.
    pub advance: f32,
    /// The byte range start of the character in the text.
    pub start: usize,
    /// The byte range end.
    pub end: usize,
}

/// Lays out one line: glyphs with kerning, and the line's width in em.
pub fn layout(text: &str) -> (Vec<PlacedGlyph>, f32) {
    let f = font();
    let upem = f.units_per_em().unwrap_or(2048.0);
    let mut x = 0.0;
    let mut prev: Option<GlyphId> = None;
    let mut out = Vec::new();
    for (start, c) in text.char_indices() {
        let id = f.glyph_id(c);
        if let Some(p) = prev {
            x += f.kern_unscaled(p, id) / upem;
        }
        let advance = f.h_advance_unscaled(id) / upem;
        out.push(PlacedGlyph {
            id: id.0,
            x,
            advance,
            start,
            end: start + c.len_utf8(),
        });
        x += advance;
        prev = Some(id);
    }
    (out, x)
}

/// The baseline start of a line of text of `size` anchored at `at`.
pub fn baseline(at: Point, size: f32, width_em: f32, align: Align) -> Point {
    match align {
        // Cap height of DejaVu is 0.73 em: centre the capitals on the anchor.
        Align::Centre => pt(at.x - width_em * size / 2.0, at.y + 0.365 * size),
        Align::Left => at,
        Align::Right => pt(at.x - width_em * size, at.y),
    }
}

/// The outlines of a line of text as a path, in the caller's units.
pub fn text_path(text: &str, at: Point, size: f32, align: Align) -> Vec<Seg> {
    let (glyphs, width) = layout(text);
    let origin = baseline(at, size, width, align);
    let k = size / units_per_em();
    let mut segs = Vec::new();
    for g in glyphs {
        let ox = origin.x + g.x * size;
        let map = |p: Point| pt(ox + p.x * k, origin.y - p.y * k);
        segs.extend(glyph_outline(g.id).into_iter().map(|seg| seg.map(map)));
    }
    segs
}

/// A glyph's advance, in em.
pub fn advance(id: u16) -> f32 {
    font().h_advance_unscaled(GlyphId(id)) / units_per_em()
}

/// The font's units per em (DejaVu's 2,048).
pub fn units_per_em() -> f32 {
    font().units_per_em().unwrap_or(2048.0)
}

/// A glyph's outline in font units, y up (empty for a space or a missing glyph).
pub fn glyph_outline(id: u16) -> Vec<Seg> {
    let Some(outline) = font().outline(GlyphId(id)) else {
        return Vec::new();
    };
    let point = |p: ab_glyph::Point| pt(p.x, p.y);
    let mut segs = Vec::new();
    let mut last: Option<ab_glyph::Point> = None;
    for curve in &outline.curves {
        let (start, end) = match curve {
            OutlineCurve::Line(a, b) => (*a, *b),
            OutlineCurve::Quad(a, _, b) => (*a, *b),
            OutlineCurve::Cubic(a, _, _, b) => (*a, *b),
        };
        if last != Some(start) {
            if last.is_some() {
                segs.push(Seg::Close);
            }
            segs.push(Seg::Move(point(start)));
        }
        segs.push(match curve {
            OutlineCurve::Line(_, b) => Seg::Line(point(*b)),
            OutlineCurve::Quad(_, c, b) => Seg::Quad(point(*c), point(*b)),
            OutlineCurve::Cubic(_, c1, c2, b) => Seg::Cubic(point(*c1), point(*c2), point(*b)),
        });
        last = Some(end);
    }
    if last.is_some() {
        segs.push(Seg::Close);
    }
    segs
}
