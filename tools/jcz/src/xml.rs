//! JCloisterZone tile XML as plain data: reading it (with `roxmltree`, keeping line numbers for
//! messages) and writing it back. Nothing here knows what the elements mean.

use crate::Error;
use std::fmt::Write;

/// One XML file of tiles and tile-sets (a JCZ `<defs>` document).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JczFile {
    /// The file's name, for messages and the report.
    pub name: String,
    /// The tiles, in file order.
    pub tiles: Vec<JczTile>,
    /// The tile-sets, in file order.
    pub sets: Vec<JczTileSet>,
    /// Top-level elements other than tiles and sets (`feature-modifier`, …), with their line.
    pub others: Vec<(Element, u32)>,
    /// What the tilekit export that wrote the file could not carry (`kind lake`, `figure
    /// mayor`), kept in a comment JCZ ignores (`LOST_COMMENT`) so that an import says it.
    pub lost: Vec<String>,
}

/// The start of the comment that lists what a tilekit export lost.
pub const LOST_COMMENT: &str = "tilekit-lost:";

/// An element with its attributes and text, as written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Element {
    /// The tag name, e.g. `road`.
    pub name: String,
    /// The attributes in file order.
    pub attrs: Vec<(String, String)>,
    /// The text content, trimmed (a feature's locations).
    pub text: String,
    /// Child elements (none in any JCZ feature; kept so that nothing is dropped in silence).
    pub children: Vec<Element>,
}

impl Element {
    /// The value of an attribute.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A `<tile>`: its id, other attributes, and its elements (features and things on it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JczTile {
    /// The JCZ id, e.g. `BA/RCr`.
    pub id: String,
    /// Attributes other than `id` (`group`, `max`, `wind-rose`, …).
    pub attrs: Vec<(String, String)>,
    /// The elements inside the tile, in file order.
    pub elements: Vec<Element>,
    /// The line of the `<tile>` tag.
    pub line: u32,
}

/// A `<tile-set>`: which tiles, how many of each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JczTileSet {
    /// The id, e.g. `river/1:2`.
    pub id: String,
    /// Attributes other than `id` (`max`, …).
    pub attrs: Vec<(String, String)>,
    /// `<ref count tile>` in file order.
    pub refs: Vec<(String, u32)>,
    /// `<remove tile>`: tiles of another set dropped when both are played.
    pub removes: Vec<String>,
    /// Other elements inside the tile-set.
    pub others: Vec<Element>,
    /// The line of the `<tile-set>` tag.
    pub line: u32,
}

/// Reads a JCZ XML document; `name` is used in messages.
pub fn parse(name: &str, text: &str) -> Result<JczFile, Error> {
    let doc = roxmltree::Document::parse(text).map_err(|e| {
        let pos = e.pos();
        Error::Xml {
            file: name.to_string(),
            line: pos.row,
            col: pos.col,
            message: e.to_string(),
        }
    })?;
    check_depth(name, &doc)?;
    // Lines are looked up in an index: roxmltree counts them from the start of the text on each
    // call, which a file of many tiles would pay once per tile.
    let newlines: Vec<usize> = (text.bytes().enumerate())
        .filter(|(_, b)| *b == b'\n')
        .map(|(i, _)| i)
        .collect();
    let line_of = |node: roxmltree::Node| {
        let before = newlines.partition_point(|&at| at < node.range().start);
        u32::try_from(before + 1).unwrap_or(u32::MAX)
    };
    let root = doc.root_element();
    if root.tag_name().name() != "defs" {
        return Err(Error::Structure {
            file: name.to_string(),
            line: line_of(root),
            message: format!(
                "the root element is <{}>; a JCZ tile file has <defs>",
                root.tag_name().name()
            ),
        });
    }
    let mut file = JczFile {
        name: name.to_string(),
        lost: lost_comment(&doc),
        ..JczFile::default()
    };
    // Tiles and tile-sets may sit in <tiles>/<sets> wrappers or directly in <defs> (Festival).
    let mut pending: Vec<roxmltree::Node> = root.children().filter(|n| n.is_element()).collect();
    pending.reverse();
    while let Some(node) = pending.pop() {
        match node.tag_name().name() {
            "tiles" | "sets" => {
                let mut inner: Vec<roxmltree::Node> =
                    node.children().filter(|n| n.is_element()).collect();
                inner.reverse();
                pending.extend(inner);
            }
            "tile" => {
                let el = element(node);
                let Some(id) = el.attr("id").map(str::to_string) else {
                    return Err(Error::Structure {
                        file: name.to_string(),
                        line: line_of(node),
                        message: "a <tile> without an `id`".to_string(),
                    });
                };
                file.tiles.push(JczTile {
                    id,
                    attrs: el.attrs.into_iter().filter(|(k, _)| k != "id").collect(),
                    elements: el.children,
                    line: line_of(node),
                });
            }
            "tile-set" => file.sets.push(tile_set(name, node, line_of(node))?),
            _ => file.others.push((element(node), line_of(node))),
        }
    }
    Ok(file)
}

/// How deeply elements may nest. JCZ's own files nest four levels (`defs`, `tiles`, `tile`, a
/// feature); reading an element, and dropping it, recurses once per level, so a hostile file
/// nested thousands deep would overflow the stack. 64 leaves room for anything a JCZ file holds.
pub const MAX_DEPTH: usize = 64;

/// Refuses a document nested deeper than `MAX_DEPTH`, at the first element too deep.
fn check_depth(name: &str, doc: &roxmltree::Document) -> Result<(), Error> {
    // Depths by node id: in document order a node's parent comes before it.
    let mut depths: Vec<usize> = Vec::new();
    for node in doc.root().descendants() {
        let parent =
            (node.parent()).map_or(0, |p| depths.get(p.id().get_usize()).copied().unwrap_or(0));
        let depth = parent + usize::from(node.is_element());
        if depth > MAX_DEPTH {
            let pos = doc.text_pos_at(node.range().start);
            return Err(Error::TooDeep {
                file: name.to_string(),
                line: pos.row,
                col: pos.col,
                limit: MAX_DEPTH,
            });
        }
        let id = node.id().get_usize();
        if depths.len() <= id {
            depths.resize(id + 1, 0);
        }
        depths[id] = depth;
    }
    Ok(())
}

fn tile_set(name: &str, node: roxmltree::Node, line: u32) -> Result<JczTileSet, Error> {
    let el = element(node);
    let mut set = JczTileSet {
        id: el.attr("id").unwrap_or_default().to_string(),
        attrs: el
            .attrs
            .iter()
            .filter(|(k, _)| k != "id")
            .cloned()
            .collect(),
        line,
        ..JczTileSet::default()
    };
    for child in el.children {
        match (child.name.as_str(), child.attr("tile")) {
            ("ref", Some(tile)) => {
                let count = match child.attr("count") {
                    None => 1,
                    Some(c) => c.trim().parse().map_err(|_| Error::Structure {
                        file: name.to_string(),
                        line,
                        message: format!(
                            "tile-set `{}`: the count `{c}` of tile `{tile}` is not a whole number",
                            set.id
                        ),
                    })?,
                };
                set.refs.push((tile.to_string(), count));
            }
            ("remove", Some(tile)) => set.removes.push(tile.to_string()),
            _ => set.others.push(child),
        }
    }
    Ok(set)
}

fn element(node: roxmltree::Node) -> Element {
    Element {
        name: node.tag_name().name().to_string(),
        attrs: node
            .attributes()
            .map(|a| (a.name().to_string(), a.value().to_string()))
            .collect(),
        text: node
            .children()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect::<String>()
            .trim()
            .to_string(),
        children: node
            .children()
            .filter(|n| n.is_element())
            .map(element)
            .collect(),
    }
}

/// The items of a `LOST_COMMENT` comment outside the root element, if any.
fn lost_comment(doc: &roxmltree::Document) -> Vec<String> {
    let comments = doc.root().children().filter(|n| n.is_comment());
    let texts = comments.filter_map(|n| n.text()?.trim().strip_prefix(LOST_COMMENT));
    texts
        .flat_map(|t| t.split(','))
        .map(|item| item.trim().to_string())
        .filter(|item| !item.is_empty())
        .collect()
}

/// Writes a JCZ XML document (tiles in `<tiles>`, tile-sets in `<sets>`), indented by two.
pub fn write(file: &JczFile, comment: &str) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    if !comment.is_empty() {
        let _ = writeln!(out, "<!-- {} -->", comment.replace("--", "- -"));
    }
    if !file.lost.is_empty() {
        let lost = file.lost.join(", ").replace("--", "- -");
        let _ = writeln!(out, "<!-- {LOST_COMMENT} {lost} -->");
    }
    out.push_str("<defs>\n");
    for (el, _) in &file.others {
        write_element(&mut out, el, 1);
    }
    out.push_str("  <tiles>\n");
    for tile in &file.tiles {
        let _ = write!(out, "    <tile id=\"{}\"", escape(&tile.id));
        write_attrs(&mut out, &tile.attrs);
        out.push_str(">\n");
        for el in &tile.elements {
            write_element(&mut out, el, 3);
        }
        out.push_str("    </tile>\n");
    }
    out.push_str("  </tiles>\n  <sets>\n");
    for set in &file.sets {
        let _ = write!(out, "    <tile-set id=\"{}\"", escape(&set.id));
        write_attrs(&mut out, &set.attrs);
        out.push_str(">\n");
        for tile in &set.removes {
            let _ = writeln!(out, "      <remove tile=\"{}\" />", escape(tile));
        }
        for (tile, count) in &set.refs {
            let _ = writeln!(
                out,
                "      <ref count=\"{count}\" tile=\"{}\" />",
                escape(tile)
            );
        }
        for el in &set.others {
            write_element(&mut out, el, 3);
        }
        out.push_str("    </tile-set>\n");
    }
    out.push_str("  </sets>\n</defs>\n");
    out
}

fn write_attrs(out: &mut String, attrs: &[(String, String)]) {
    for (k, v) in attrs {
        let _ = write!(out, " {k}=\"{}\"", escape(v));
    }
}

fn write_element(out: &mut String, el: &Element, depth: usize) {
    let indent = "  ".repeat(depth);
    let _ = write!(out, "{indent}<{}", el.name);
    write_attrs(out, &el.attrs);
    if el.text.is_empty() && el.children.is_empty() {
        out.push_str(" />\n");
        return;
    }
    out.push('>');
    out.push_str(&escape(&el.text));
    if !el.children.is_empty() {
        out.push('\n');
        for child in &el.children {
            write_element(out, child, depth + 1);
        }
        out.push_str(&indent);
    }
    let _ = writeln!(out, "</{}>", el.name);
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
