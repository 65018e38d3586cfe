//! Authors' pictures: the PNG or SVG file a marker kind, a figure or an emblem names with
//! `picture`. Read and parsed here, with limits, by the checker (so a broken picture is an error
//! at load time, at the key that names it) and again by the renderer, which draws what this
//! returns. Also the bounded file reading the renderer's tile artwork shares.
//!
//! An SVG is parsed by usvg without text, fonts or images: a `<text>` is not drawn, and an
//! `<image>` (a file or a data URL) is never read, so a picture reads no file but its own.

use std::io::Read;
use std::path::Path;

/// The largest picture file, in bytes (1 MB): an icon, not an artwork.
pub const MAX_PICTURE_BYTES: u64 = 1_000_000;
/// The largest width or height a picture may declare, in pixels.
pub const MAX_PICTURE_SIDE: u32 = 4096;
/// The most XML nodes (elements, text, comments) an SVG picture may have, and the most nodes
/// its drawing may have once each `<use>`, clip path, mask and pattern is counted where drawn.
pub const MAX_SVG_NODES: u32 = 10_000;
/// The most filtered groups (blurs, shadows) an SVG picture may draw: each is a layer of its own.
pub const MAX_SVG_FILTERS: usize = 16;
/// The deepest an SVG picture's elements may nest (usvg walks the tree recursively).
pub const MAX_SVG_DEPTH: usize = 128;

/// A picture, parsed: ready to draw.
#[derive(Debug)]
pub enum Picture {
    /// A PNG file: its bytes and the size its header declares.
    Png {
        /// The file's bytes, decoded by the renderer.
        bytes: Vec<u8>,
        /// Its width in pixels.
        width: u32,
        /// Its height in pixels.
        height: u32,
    },
    /// An SVG file, parsed.
    Svg(Box<usvg::Tree>),
}

impl Picture {
    /// Its width and height, in its own pixels.
    pub fn size(&self) -> (f32, f32) {
        match self {
            Picture::Png { width, height, .. } => (*width as f32, *height as f32),
            Picture::Svg(tree) => (tree.size().width(), tree.size().height()),
        }
    }
}

/// Why a picture (or an artwork file) cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The path names nothing, or cannot be read.
    #[error("{0}")]
    Io(String),
    /// A device, FIFO or socket, which could be read forever.
    #[error("not a regular file")]
    NotAFile,
    /// Over the size limit.
    #[error("larger than {} MB", .limit / 1_000_000)]
    TooLarge {
        /// The limit it is over, in bytes.
        limit: u64,
    },
    /// Neither a PNG nor an SVG.
    #[error("not a PNG or an SVG file (a compressed .svgz is not read)")]
    Format,
    /// A PNG whose header does not read.
    #[error("the PNG does not read: {0}")]
    Png(String),
    /// An SVG that does not parse.
    #[error("the SVG does not parse: {0}")]
    Svg(String),
    /// An SVG too large to parse safely.
    #[error("the SVG has more than {MAX_SVG_NODES} nodes")]
    TooManyNodes,
    /// An SVG whose drawing repeats too much (`<use>`, patterns, masks).
    #[error(
        "the SVG draws more than {MAX_SVG_NODES} nodes once `<use>`, clip paths, masks and patterns are counted where drawn"
    )]
    TooMuchDrawing,
    /// An SVG with `<marker>`s, which repeat at every vertex of a path.
    #[error("the SVG has a `<marker>`, which pictures do not draw: draw the arrowheads as paths")]
    Markers,
    /// An SVG whose style sheet refers to other elements, for any number of elements.
    #[error("the SVG's `<style>` names a `url(…)`: write it in the elements' attributes")]
    StyleUrl,
    /// An SVG whose references come back to themselves.
    #[error("the SVG's `<use>` or `url(…)` references come back to where they start")]
    ReferenceLoop,
    /// An SVG with too many filters.
    #[error("the SVG has more than {MAX_SVG_FILTERS} filtered elements")]
    TooManyFilters,
    /// An SVG nested too deep.
    #[error("the SVG's elements nest more than {MAX_SVG_DEPTH} deep")]
    TooDeep,
    /// A picture declaring a size over `MAX_PICTURE_SIDE`.
    #[error("it declares {width} × {height} pixels, more than {MAX_PICTURE_SIDE} a side")]
    TooWide {
        /// Its declared width.
        width: f64,
        /// Its declared height.
        height: f64,
    },
}

/// A file's bytes: a regular file (a device or a FIFO would be read forever) of at most
/// `limit` bytes, a limit that holds even for a file growing while it is read.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, PictureError> {
    let meta = std::fs::metadata(path).map_err(|e| PictureError::Io(e.to_string()))?;
    if !meta.is_file() {
        return Err(PictureError::NotAFile);
    }
    if meta.len() > limit {
        return Err(PictureError::TooLarge { limit });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    let file = std::fs::File::open(path).map_err(|e| PictureError::Io(e.to_string()))?;
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| PictureError::Io(e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(PictureError::TooLarge { limit });
    }
    Ok(bytes)
}

/// Reads and parses the picture at `path`.
pub fn read(path: &Path) -> Result<Picture, PictureError> {
    parse(read_bytes(path, MAX_PICTURE_BYTES)?)
}

/// Parses a picture's bytes: a PNG by its signature, else an SVG document.
pub fn parse(bytes: Vec<u8>) -> Result<Picture, PictureError> {
    const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.starts_with(PNG_SIGNATURE) {
        return png_header(bytes);
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| PictureError::Format)?;
    if !text.contains("<svg") {
        return Err(PictureError::Format);
    }
    svg(text).map(|tree| Picture::Svg(Box::new(tree)))
}

/// A PNG's declared size, from its header; its pixels are decoded by the renderer.
fn png_header(bytes: Vec<u8>) -> Result<Picture, PictureError> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes.as_slice()));
    let reader = decoder
        .read_info()
        .map_err(|e| PictureError::Png(e.to_string()))?;
    let (width, height) = (reader.info().width, reader.info().height);
    if width > MAX_PICTURE_SIDE || height > MAX_PICTURE_SIDE {
        return Err(PictureError::TooWide {
            width: f64::from(width),
            height: f64::from(height),
        });
    }
    drop(reader);
    Ok(Picture::Png {
        bytes,
        width,
        height,
    })
}

/// Parses an SVG within the limits: nodes and depth first (usvg has neither limit of its own
/// below a million elements, and recurses), then usvg with no access to other files.
fn svg(text: &str) -> Result<usvg::Tree, PictureError> {
    let options = usvg::roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_SVG_NODES,
        ..usvg::roxmltree::ParsingOptions::default()
    };
    let doc =
        usvg::roxmltree::Document::parse_with_options(text, options).map_err(|e| match e {
            usvg::roxmltree::Error::NodesLimitReached => PictureError::TooManyNodes,
            e => PictureError::Svg(e.to_string()),
        })?;
    if doc.root_element().tag_name().name() != "svg" {
        return Err(PictureError::Format);
    }
    // Nodes come in document order, each after its parent: one pass gives every depth.
    let mut depth = vec![0usize; doc.descendants().count()];
    for node in doc.descendants() {
        if let Some(parent) = node.parent() {
            let d = depth[parent.id().get_usize()] + 1;
            if d > MAX_SVG_DEPTH {
                return Err(PictureError::TooDeep);
            }
            depth[node.id().get_usize()] = d;
        }
    }
    references_within_limits(&doc)?;
    let options = usvg::Options {
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_xmltree(&doc, &options).map_err(|e| match e {
        usvg::Error::InvalidSize => {
            PictureError::Svg("it has no size: give it `width` and `height`, or a `viewBox`".into())
        }
        e => PictureError::Svg(e.to_string()),
    })?;
    drawing_within_limits(&tree)?;
    let size = tree.size();
    let (width, height) = (f64::from(size.width()), f64::from(size.height()));
    if width > f64::from(MAX_PICTURE_SIDE) || height > f64::from(MAX_PICTURE_SIDE) {
        return Err(PictureError::TooWide { width, height });
    }
    Ok(tree)
}

/// Counts what drawing the tree costs: every node where it is drawn (a clip path, a mask or a
/// pattern again at each use) and every filtered group, stopping at the first limit passed.
fn drawing_within_limits(tree: &usvg::Tree) -> Result<(), PictureError> {
    let (mut nodes, mut filters) = (0u32, 0usize);
    let mut groups: Vec<&usvg::Group> = vec![tree.root()];
    while let Some(group) = groups.pop() {
        if !group.filters().is_empty() {
            filters += 1;
        }
        if let Some(clip) = group.clip_path() {
            groups.push(clip.root());
            groups.extend(clip.clip_path().map(usvg::ClipPath::root));
        }
        if let Some(mask) = group.mask() {
            groups.push(mask.root());
            groups.extend(mask.mask().map(usvg::Mask::root));
        }
        for node in group.children() {
            nodes += 1;
            match node {
                usvg::Node::Group(g) => groups.push(g),
                usvg::Node::Path(path) => {
                    let paints = [
                        path.fill().map(|f| f.paint()),
                        path.stroke().map(|s| s.paint()),
                    ];
                    for paint in paints.into_iter().flatten() {
                        if let usvg::Paint::Pattern(pattern) = paint {
                            groups.push(pattern.root());
                        }
                    }
                }
                usvg::Node::Image(_) | usvg::Node::Text(_) => {}
            }
        }
        if nodes > MAX_SVG_NODES {
            return Err(PictureError::TooMuchDrawing);
        }
        if filters > MAX_SVG_FILTERS {
            return Err(PictureError::TooManyFilters);
        }
    }
    Ok(())
}

/// Bounds what the references of an SVG repeat before usvg builds it: every element costs 1
/// plus the size of what each of its references (`href="#id"`, `url(#id)`) shows, counted
/// again inside what they show. Markers (repeated per vertex) and references from a style
/// sheet (for any number of elements) cannot be counted so, and are refused.
fn references_within_limits(doc: &usvg::roxmltree::Document) -> Result<(), PictureError> {
    let mut by_id = std::collections::HashMap::new();
    for node in doc.descendants().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "marker" => return Err(PictureError::Markers),
            "style" if node.text().is_some_and(|t| t.contains("url(")) => {
                return Err(PictureError::StyleUrl);
            }
            _ => {}
        }
        if let Some(id) = node.attribute("id") {
            by_id.insert(id, node);
        }
    }
    let mut sizes = Sizes {
        by_id,
        done: std::collections::HashMap::new(),
        visiting: Vec::new(),
    };
    let total = sizes.subtree(doc.root(), 0)?;
    if total > u64::from(MAX_SVG_NODES) * 2 {
        return Err(PictureError::TooMuchDrawing);
    }
    Ok(())
}

/// What each referenced element shows, counted once (`done`), with the chain being counted
/// (`visiting`) to find loops.
struct Sizes<'a, 'input> {
    by_id: std::collections::HashMap<&'a str, usvg::roxmltree::Node<'a, 'input>>,
    done: std::collections::HashMap<&'a str, u64>,
    visiting: Vec<&'a str>,
}

impl<'a, 'input> Sizes<'a, 'input> {
    /// The cost of `top`'s subtree: each element 1, plus what its references show. `depth`
    /// counts references followed, bounded as nesting is.
    fn subtree(
        &mut self,
        top: usvg::roxmltree::Node<'a, 'input>,
        depth: usize,
    ) -> Result<u64, PictureError> {
        let limit = u64::from(MAX_SVG_NODES) * 2;
        let mut total = 0u64;
        for node in top.descendants().filter(|n| n.is_element()) {
            total += 1;
            for id in references(node) {
                total = total.saturating_add(self.shown(id, depth + 1)?);
            }
            if total > limit {
                return Err(PictureError::TooMuchDrawing);
            }
        }
        Ok(total)
    }

    /// The cost of what a reference to `id` shows (nothing when no element has that id).
    fn shown(&mut self, id: &'a str, depth: usize) -> Result<u64, PictureError> {
        if let Some(&size) = self.done.get(id) {
            return Ok(size);
        }
        let Some(&target) = self.by_id.get(id) else {
            return Ok(0);
        };
        if self.visiting.contains(&id) {
            return Err(PictureError::ReferenceLoop);
        }
        if depth > MAX_SVG_DEPTH {
            return Err(PictureError::TooDeep);
        }
        self.visiting.push(id);
        let size = self.subtree(target, depth)?;
        self.visiting.pop();
        self.done.insert(id, size);
        Ok(size)
    }
}

/// The ids an element refers to: `href="#id"` (any namespace) and each `url(#id)` of its
/// attributes (`style` too).
fn references<'a>(node: usvg::roxmltree::Node<'a, '_>) -> Vec<&'a str> {
    let mut ids = Vec::new();
    for attribute in node.attributes() {
        let value = attribute.value();
        if attribute.name() == "href" {
            ids.extend(value.trim().strip_prefix('#'));
        }
        let mut rest = value;
        while let Some(at) = rest.find("url(") {
            rest = &rest[at + "url(".len()..];
            let inside = rest.split(')').next().unwrap_or_default();
            let inside = inside.trim().trim_matches(['"', '\'']).trim();
            ids.extend(inside.strip_prefix('#'));
        }
    }
    ids
}
