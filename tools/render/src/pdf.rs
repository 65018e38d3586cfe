//! Print sheets as PDF, written with pdf-writer: pages of placed pictures, crop marks and a
//! footer line. Each distinct picture is one image object, placed as often as the layout says.
//! The document goes to its destination an object at a time (the pictures first, as they are
//! made); only each object's offset is kept, for the cross-reference table at the end.
//!
//! The footer is text in a Type 3 font made of the outlines of the glyphs it uses (the embedded
//! font's shapes, as the PNG pages draw them), with a `ToUnicode` map so a viewer can select and
//! search it: no TrueType program is embedded, so no font subsetter is needed.

use crate::RenderError;
use crate::font;
use crate::scene::{Align, Point, Seg, pt};
use crate::sheet::{Page, SheetLayout};
use pdf_writer::types::LineCapStyle;
use pdf_writer::types::{SystemInfo, UnicodeCmap};
use pdf_writer::{Chunk, Content, Filter, Finish, Name, Rect, Ref, Settings, Str};
use std::fmt::Write as _;
use std::io::{BufWriter, Write};

const PT_PER_MM: f32 = 72.0 / 25.4;
/// Deflate level for pictures and page content: zlib's default, the balance of size and time.
const DEFLATE_LEVEL: u8 = 6;

/// An RGB picture, 8 bits a channel, square, already deflated.
pub struct Picture {
    /// The zlib stream of the RGB samples, row by row.
    pub deflated: Vec<u8>,
    /// The side in pixels.
    pub px: u32,
}

impl Picture {
    /// Compresses RGB samples of a `px` × `px` picture.
    pub fn new(rgb: &[u8], px: u32) -> Picture {
        Picture {
            deflated: miniz_oxide::deflate::compress_to_vec_zlib(rgb, DEFLATE_LEVEL),
            px,
        }
    }
}

/// What to draw: the layout, and for each tile the index of its front and back picture.
pub struct Sheet<'a> {
    /// Pages, crop marks and footers, in millimetres from the top left.
    pub layout: &'a SheetLayout,
    /// How many distinct pictures there are; each is embedded once, in the order `write` is
    /// given them.
    pub pictures: usize,
    /// Per tile index: its front picture, if placed.
    pub fronts: &'a [Option<usize>],
    /// Per tile index: its back picture, if backs are printed.
    pub backs: &'a [Option<usize>],
    /// A placement's picture side in mm (the cut tile plus bleed on both sides).
    pub picture_mm: f32,
    /// How far a picture reaches past its tile's cut square, in mm.
    pub bleed_mm: f32,
    /// The footer's baseline, in mm from the top.
    pub footer_baseline_mm: f32,
    /// The footer's left and right ends, in mm from the left.
    pub footer_x_mm: (f32, f32),
    /// The footer's letter size, in mm.
    pub footer_text_mm: f32,
    /// The crop marks' line width, in mm.
    pub mark_width_mm: f32,
}

/// pdf-writer's settings: compact dictionaries.
const SETTINGS: Settings = Settings { pretty: false };

/// Writes the whole document to `out`, object by object, taking the pictures one at a time
/// from `pictures` (which makes them): only one picture is held here at once, so memory does
/// not grow with their number. The same input gives the same bytes, those pdf-writer's `Pdf`
/// would give for the same objects.
pub fn write(
    sheet: &Sheet<'_>,
    pictures: impl IntoIterator<Item = Result<Picture, RenderError>>,
    out: &mut dyn Write,
) -> Result<(), RenderError> {
    let mut out = Objects::new(out);
    // Objects are numbered in the order they are written, every number used.
    let mut next = 0;
    let mut new_ref = || {
        next += 1;
        Ref::new(next)
    };
    let (catalog, tree) = (new_ref(), new_ref());
    let picture_refs: Vec<Ref> = (0..sheet.pictures).map(|_| new_ref()).collect();
    // Each page is two objects: its dictionary and its content stream.
    let page_refs: Vec<(Ref, Ref)> = sheet
        .layout
        .pages
        .iter()
        .map(|_| (new_ref(), new_ref()))
        .collect();
    let font = FooterFont::new(sheet.layout).map(|glyphs| (new_ref(), glyphs));

    // The catalog and the page tree.
    out.put(catalog, |c| {
        c.indirect(catalog)
            .start::<pdf_writer::writers::Catalog>()
            .pages(tree);
    })?;
    out.put(tree, |c| {
        c.pages(tree)
            .kids(page_refs.iter().map(|&(page, _)| page))
            .count(page_refs.len() as i32);
    })?;

    // The pictures, each written as soon as it is made.
    let mut pictures = pictures.into_iter();
    for &id in &picture_refs {
        let picture = pictures
            .next()
            .ok_or_else(|| RenderError::Pdf("fewer pictures than the sheet places".into()))??;
        out.put(id, |c| {
            let mut image = c.image_xobject(id, &picture.deflated);
            image.filter(Filter::FlateDecode);
            image.width(picture.px as i32).height(picture.px as i32);
            image.color_space().device_rgb();
            image.bits_per_component(8);
            image.interpolate(true);
        })?;
    }
    if pictures.next().is_some() {
        return Err(RenderError::Pdf(
            "more pictures than the sheet places".into(),
        ));
    }

    // The pages.
    for (page, &refs) in sheet.layout.pages.iter().zip(&page_refs) {
        write_page(&mut out, sheet, page, refs, (tree, &picture_refs), &font)?;
    }

    // The footer font and the document's info.
    if let Some((font_ref, glyphs)) = &font {
        glyphs.write(&mut out, *font_ref, &mut new_ref)?;
    }
    let info = new_ref();
    out.put(info, |c| {
        c.indirect(info)
            .start::<pdf_writer::writers::DocumentInfo>()
            .producer(pdf_writer::TextStr("tilekit"));
    })?;
    out.finish(catalog, info)
}

/// Writes a page's dictionary and its content stream.
fn write_page(
    out: &mut Objects<'_>,
    sheet: &Sheet<'_>,
    page: &Page,
    (page_ref, content_ref): (Ref, Ref),
    (tree, picture_refs): (Ref, &[Ref]),
    font: &Option<(Ref, FooterFont)>,
) -> Result<(), RenderError> {
    let size = (
        sheet.layout.width_mm * PT_PER_MM,
        sheet.layout.height_mm * PT_PER_MM,
    );
    let glyphs = font.as_ref().map(|(_, glyphs)| glyphs);
    let content = miniz_oxide::deflate::compress_to_vec_zlib(
        &page_content(sheet, page, glyphs).finish(),
        DEFLATE_LEVEL,
    );
    out.put(page_ref, |c| {
        let mut dict = c.page(page_ref);
        dict.parent(tree)
            .media_box(Rect::new(0.0, 0.0, size.0, size.1))
            .contents(content_ref);
        let mut resources = dict.resources();
        let mut objects = resources.x_objects();
        for i in pictures_on(sheet, page) {
            if let Some(&id) = picture_refs.get(i) {
                objects.pair(Name(image_name(i).as_bytes()), id);
            }
        }
        objects.finish();
        if let Some((font_ref, _)) = font {
            resources.fonts().pair(FOOTER_FONT, *font_ref);
        }
    })?;
    out.put(content_ref, |c| {
        c.stream(content_ref, &content).filter(Filter::FlateDecode);
    })
}

/// The document's header, as pdf-writer's `Pdf` writes it.
const HEADER: &[u8] = b"%PDF-1.7\n%\x80\x80\x80\x80\n\n";

/// A PDF written to its destination an object at a time, with each object's offset kept for
/// the cross-reference table (a few bytes an object, not the object).
struct Objects<'w> {
    out: BufWriter<&'w mut dyn Write>,
    /// Bytes written so far.
    at: usize,
    /// Each object's number and offset, in the order written.
    offsets: Vec<(Ref, usize)>,
}

impl<'w> Objects<'w> {
    fn new(out: &'w mut dyn Write) -> Objects<'w> {
        Objects {
            out: BufWriter::new(out),
            at: 0,
            offsets: Vec::new(),
        }
    }

    fn raw(&mut self, bytes: &[u8]) -> Result<(), RenderError> {
        self.out.write_all(bytes).map_err(io_error)?;
        self.at += bytes.len();
        Ok(())
    }

    /// Writes the object `id`, which `write` adds to an empty chunk.
    fn put(&mut self, id: Ref, write: impl FnOnce(&mut Chunk)) -> Result<(), RenderError> {
        if self.at == 0 {
            self.raw(HEADER)?;
        }
        let mut chunk = Chunk::with_settings(SETTINGS);
        write(&mut chunk);
        self.offsets.push((id, self.at));
        self.raw(chunk.as_bytes())
    }

    /// Writes the cross-reference table and the trailer, as pdf-writer's `Pdf::finish` does
    /// for objects numbered from 1 without a gap (the free list is object 0 alone).
    fn finish(mut self, catalog: Ref, info: Ref) -> Result<(), RenderError> {
        let xref_at = self.at;
        let mut offsets = std::mem::take(&mut self.offsets);
        offsets.sort();
        if (offsets.iter().zip(1..)).any(|(&(id, _), n)| id.get() != n) {
            return Err(RenderError::Pdf("object numbers with a gap".into()));
        }
        let size = offsets.len() + 1;
        let mut table = format!("xref\n0 {size}\n0000000000 65535 f\r\n");
        for (_, offset) in &offsets {
            let _ = write!(table, "{offset:010} 00000 n\r\n");
        }
        let _ = write!(
            table,
            "trailer\n<</Size {size}/Root {} 0 R/Info {} 0 R>>\nstartxref\n{xref_at}\n%%EOF",
            catalog.get(),
            info.get()
        );
        self.raw(table.as_bytes())?;
        self.out.flush().map_err(io_error)
    }
}

fn io_error(e: std::io::Error) -> RenderError {
    RenderError::Pdf(e.to_string())
}

/// The footer font's resource name.
const FOOTER_FONT: Name<'static> = Name(b"F0");

/// The glyphs the footers use, each with its one-byte code in the footer's Type 3 font (codes
/// from 1, in the order first used) and the character it shows.
struct FooterFont {
    glyphs: Vec<(u16, char)>,
}

impl FooterFont {
    /// The footers' glyphs, or `None` where they are too many for one-byte codes (the footers
    /// are then drawn as outlines).
    fn new(layout: &SheetLayout) -> Option<FooterFont> {
        let mut glyphs: Vec<(u16, char)> = Vec::new();
        for page in &layout.pages {
            for text in [&page.footer_left, &page.footer_right] {
                let (placed, _) = font::layout(text);
                for g in placed {
                    if !glyphs.iter().any(|&(id, _)| id == g.id) {
                        let c = text[g.start..g.end].chars().next().unwrap_or(' ');
                        glyphs.push((g.id, c));
                    }
                }
            }
        }
        (glyphs.len() <= usize::from(u8::MAX)).then_some(FooterFont { glyphs })
    }

    /// A glyph's code, if the font has it.
    fn code(&self, glyph: u16) -> Option<u8> {
        let i = self.glyphs.iter().position(|&(id, _)| id == glyph)?;
        u8::try_from(i + 1).ok()
    }

    /// Writes the font, its glyph procedures and its `ToUnicode` map.
    fn write(
        &self,
        out: &mut Objects<'_>,
        id: Ref,
        new_ref: &mut impl FnMut() -> Ref,
    ) -> Result<(), RenderError> {
        let upem = font::units_per_em();
        let names: Vec<String> = (1..=self.glyphs.len()).map(|c| format!("g{c}")).collect();
        let procs: Vec<Ref> = self.glyphs.iter().map(|_| new_ref()).collect();
        let cmap_ref = new_ref();
        let advances: Vec<f32> = self
            .glyphs
            .iter()
            .map(|&(glyph, _)| font::advance(glyph) * upem)
            .collect();
        out.put(id, |c| {
            let mut font = c.type3_font(id);
            font.bbox(Rect::new(0.0, 0.0, 0.0, 0.0))
                .matrix([1.0 / upem, 0.0, 0.0, 1.0 / upem, 0.0, 0.0])
                .first_char(1)
                .last_char(self.glyphs.len() as u8)
                .widths(advances.iter().copied())
                .to_unicode(cmap_ref);
            font.encoding_custom()
                .differences()
                .consecutive(1, names.iter().map(|n| Name(n.as_bytes())));
            let mut char_procs = font.char_procs();
            for (name, &proc_ref) in names.iter().zip(&procs) {
                char_procs.pair(Name(name.as_bytes()), proc_ref);
            }
        })?;
        for ((&(glyph, _), &proc_ref), &advance) in self.glyphs.iter().zip(&procs).zip(&advances) {
            let mut glyph_content = Content::new();
            glyph_content.start_color_glyph(advance);
            if trace(&mut glyph_content, &font::glyph_outline(glyph), &|p| {
                (p.x, p.y)
            }) {
                glyph_content.fill_nonzero();
            }
            let glyph_content = glyph_content.finish();
            out.put(proc_ref, |c| {
                c.stream(proc_ref, &glyph_content);
            })?;
        }
        let info = SystemInfo {
            registry: Str(b"Adobe"),
            ordering: Str(b"Identity"),
            supplement: 0,
        };
        let mut cmap = UnicodeCmap::<u8>::new(Name(b"Custom"), info);
        for (code, &(_, c)) in (1u8..).zip(&self.glyphs) {
            cmap.pair(code, c);
        }
        let cmap = cmap.finish();
        out.put(cmap_ref, |c| {
            c.stream(cmap_ref, &cmap);
        })
    }
}

/// The pictures a page places, each once, in order.
fn pictures_on(sheet: &Sheet<'_>, page: &Page) -> Vec<usize> {
    let mut used: Vec<usize> = page
        .placements
        .iter()
        .filter_map(|p| {
            if p.back {
                sheet.backs[p.tile]
            } else {
                sheet.fronts[p.tile]
            }
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    used
}

/// A picture's resource name on a page.
fn image_name(picture: usize) -> String {
    format!("Im{picture}")
}

/// The page's drawing: the pictures, then the crop marks, then the footer.
fn page_content(sheet: &Sheet<'_>, page: &Page, glyphs: Option<&FooterFont>) -> Content {
    let height = sheet.layout.height_mm;
    // Millimetres from the top left to points from the bottom left.
    let to_pt = |x: f32, y: f32| (x * PT_PER_MM, (height - y) * PT_PER_MM);
    let mut content = Content::new();
    let side = sheet.picture_mm * PT_PER_MM;
    for p in &page.placements {
        let picture = if p.back {
            sheet.backs[p.tile]
        } else {
            sheet.fronts[p.tile]
        };
        let Some(picture) = picture else { continue };
        let (x, y) = to_pt(
            p.x_mm - sheet.bleed_mm,
            p.y_mm - sheet.bleed_mm + sheet.picture_mm,
        );
        content.save_state();
        content.transform([side, 0.0, 0.0, side, x, y]);
        content.x_object(Name(image_name(picture).as_bytes()));
        content.restore_state();
    }
    if !page.marks.is_empty() {
        content.set_line_width(sheet.mark_width_mm * PT_PER_MM);
        content.set_line_cap(LineCapStyle::ButtCap);
        for [(x1, y1), (x2, y2)] in &page.marks {
            let (a, b) = (to_pt(*x1, *y1), to_pt(*x2, *y2));
            content.move_to(a.0, a.1);
            content.line_to(b.0, b.1);
        }
        content.stroke();
    }
    let (left, right) = sheet.footer_x_mm;
    for (text, x, align) in [
        (&page.footer_left, left, Align::Left),
        (&page.footer_right, right, Align::Right),
    ] {
        let at = pt(x, sheet.footer_baseline_mm);
        match glyphs {
            Some(glyphs) => show(
                &mut content,
                glyphs,
                text,
                at,
                sheet.footer_text_mm,
                align,
                &to_pt,
            ),
            None => {
                let segs = font::text_path(text, at, sheet.footer_text_mm, align);
                if trace(&mut content, &segs, &|p: Point| to_pt(p.x, p.y)) {
                    content.fill_nonzero();
                }
            }
        }
    }
    content
}

/// Shows a line of text in the footer font, kerned as `font::layout` places its glyphs.
fn show(
    content: &mut Content,
    glyphs: &FooterFont,
    text: &str,
    at: Point,
    size_mm: f32,
    align: Align,
    to_pt: &dyn Fn(f32, f32) -> (f32, f32),
) {
    let (placed, width) = font::layout(text);
    let origin = font::baseline(at, size_mm, width, align);
    let (x, y) = to_pt(origin.x, origin.y);
    content.begin_text();
    content.set_font(FOOTER_FONT, size_mm * PT_PER_MM);
    content.next_line(x, y);
    {
        let mut positioned = content.show_positioned();
        let mut items = positioned.items();
        let mut pen = 0.0;
        for g in placed {
            let Some(code) = glyphs.code(g.id) else {
                continue;
            };
            // TJ moves the pen back by thousandths of an em: kerning is a negative move.
            let kern = g.x - pen;
            if kern.abs() > 1e-6 {
                items.adjust(-kern * 1000.0);
            }
            items.show(Str(&[code]));
            pen = g.x + g.advance;
        }
    }
    content.end_text();
}

/// Adds a path to the content; returns whether it drew anything. Quadratic curves (the
/// font's) become the cubic curves PDF has.
fn trace(content: &mut Content, segs: &[Seg], to_pt: &dyn Fn(Point) -> (f32, f32)) -> bool {
    let mut current = (0.0, 0.0);
    for seg in segs {
        match *seg {
            Seg::Move(p) => {
                current = to_pt(p);
                content.move_to(current.0, current.1);
            }
            Seg::Line(p) => {
                current = to_pt(p);
                content.line_to(current.0, current.1);
            }
            Seg::Quad(c, p) => {
                let (c, end) = (to_pt(c), to_pt(p));
                let two_thirds = |from: (f32, f32)| {
                    (
                        from.0 + 2.0 / 3.0 * (c.0 - from.0),
                        from.1 + 2.0 / 3.0 * (c.1 - from.1),
                    )
                };
                let (c1, c2) = (two_thirds(current), two_thirds(end));
                content.cubic_to(c1.0, c1.1, c2.0, c2.1, end.0, end.1);
                current = end;
            }
            Seg::Cubic(c1, c2, p) => {
                let (c1, c2, end) = (to_pt(c1), to_pt(c2), to_pt(p));
                content.cubic_to(c1.0, c1.1, c2.0, c2.1, end.0, end.1);
                current = end;
            }
            Seg::Close => {
                content.close_path();
            }
        }
    }
    !segs.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdf_writer::Pdf;

    #[test]
    fn objects_written_one_at_a_time_are_the_bytes_pdf_writer_gives() {
        let [catalog, tree, page, content, info] = [1, 2, 3, 4, 5].map(Ref::new);
        let mut streamed = Vec::new();
        let mut out = Objects::new(&mut streamed);
        out.put(catalog, |c| {
            c.indirect(catalog)
                .start::<pdf_writer::writers::Catalog>()
                .pages(tree);
        })
        .expect("writes");
        out.put(tree, |c| {
            c.pages(tree).kids([page]).count(1);
        })
        .expect("writes");
        out.put(page, |c| {
            c.page(page).parent(tree).contents(content);
        })
        .expect("writes");
        out.put(content, |c| {
            c.stream(content, b"0 0 m 1 1 l S");
        })
        .expect("writes");
        out.put(info, |c| {
            c.indirect(info)
                .start::<pdf_writer::writers::DocumentInfo>()
                .producer(pdf_writer::TextStr("tilekit"));
        })
        .expect("writes");
        out.finish(catalog, info).expect("writes");

        let mut pdf = Pdf::with_settings(SETTINGS);
        pdf.catalog(catalog).pages(tree);
        pdf.pages(tree).kids([page]).count(1);
        pdf.page(page).parent(tree).contents(content);
        pdf.stream(content, b"0 0 m 1 1 l S");
        pdf.document_info(info)
            .producer(pdf_writer::TextStr("tilekit"));
        assert_eq!(
            String::from_utf8_lossy(&streamed),
            String::from_utf8_lossy(&pdf.finish())
        );
    }
}
