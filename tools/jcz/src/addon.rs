//! A JCloisterZone add-on (`.jca`), as JCZ 5's client installs it (its `plugins/addons.js`,
//! `plugins/tiles.js` and `plugins/artwork-loader/`): a zip holding one folder, named by the
//! add-on's id, with
//! - `jcz-addon.json`: `title`, an integer `version`, `minimumJczVersion`, `expansions` (XML
//!   files) and `artworks` (folders);
//! - the expansion XML: tiles, tile-sets and one `<expansion id>` per set, whose `<title>`,
//!   `<ref tile-set>` and `<implies>`/`<enforces element>` the client reads (the engine skips
//!   the element);
//! - an artwork folder: `artwork.json` (title, `tileSize`, `perspective`, `tilesInclude`) and a
//!   tiles file giving each tile its `image` and, per feature, keyed `Type/Location` as JCZ's
//!   engine names it (`City/NW`, `Field/EL.WR`, `Monastery/I`), a `clip` (an SVG path in the
//!   artwork's tile units) and a `point` (where a follower stands).
//!
//! The pictures and shapes are drawn elsewhere (tilekit-render) and given here as plain data;
//! this module only lays them out. Same input, same bytes.

use crate::Note;
use crate::export::{half_name, side_name};
use crate::keys::{FIELDS, MARKETPLACE};
use crate::vocab;
use crate::xml::{Element, JczFile};
use crate::zip::{self, Entry, Method, ZipError};
use serde_json::{Map, Value, json};
use std::fmt::Write as _;
use tiledef::model::{JczEdge, TileDef, TileSetFile};
use tiledef::{Port, Shape};

/// The oldest client whose add-ons have expansions and this artwork format (the version JCZ's
/// own bundled add-on declares).
pub const MINIMUM_JCZ: &str = "5.10.0";
/// The expansion file's name in the add-on.
pub const XML_FILE: &str = "tiles.xml";
/// The artwork folder's name in the add-on.
pub const ARTWORK_DIR: &str = "artwork";
/// The tiles file of the artwork.
const TILES_FILE: &str = "tiles.json";

/// What cannot be made into an add-on.
#[derive(Debug, thiserror::Error)]
pub enum AddonError {
    /// An add-on id JCZ cannot install under.
    #[error(
        "`{0}` cannot be an add-on's id: use letters, digits, `-`, `_` and `.`, not starting with `.`, and not `jcz` or `classic` (JCZ's own)"
    )]
    Id(String),
    /// The archive could not be written.
    #[error(transparent)]
    Zip(#[from] ZipError),
}

/// The add-on's name and version, as `jcz-addon.json` gives them.
#[derive(Clone, Debug)]
pub struct Meta {
    /// The id: the folder's name, unique among the player's add-ons.
    pub id: String,
    /// The title shown in JCZ's settings.
    pub title: String,
    /// The version, a whole number; JCZ compares it to tell a newer add-on.
    pub version: u32,
}

/// One tile's picture and feature areas, drawn by the caller.
#[derive(Clone, Debug)]
pub struct TileArt {
    /// The JCZ id of the tile (as in the XML).
    pub jcz_id: String,
    /// The picture's file name without `.png` (a tilekit tile id: a safe file name).
    pub file_stem: String,
    /// The picture, a PNG of the artwork's tile size.
    pub png: Vec<u8>,
    /// The areas of its features.
    pub features: Vec<FeatureArt>,
}

/// Where a feature lies on its tile's picture, in tile units (0 to 1, y southwards).
#[derive(Clone, Debug)]
pub struct FeatureArt {
    /// Its kind's JCloisterZone element (`city`, `monastery`): what the artwork key names.
    pub element: String,
    /// How its kind lies on a tile: what the artwork key's location is made of.
    pub shape: Shape,
    /// The ports it leaves the tile by (none for a monastery, a garden or an inner field).
    pub ports: Vec<Port>,
    /// Closed outlines, filled by the nonzero rule.
    pub outline: Vec<Vec<[f32; 2]>>,
    /// Where a follower stands, inside the outline.
    pub point: [f32; 2],
}

/// The `<expansion>` element of a set: its title, its tile-sets, and the game elements its
/// tiles need (a marker's rule is implied, a river enforced, as JCZ's own expansions do;
/// FanCloisterZone's `flowers` and `marketplace` for Village Life's; `abbey` for a reserve
/// tile).
pub fn expansion(set: &TileSetFile, tile_sets: &[String]) -> Element {
    let child = |name: &str, attr: &str, value: &str| Element {
        name: name.to_string(),
        attrs: vec![(attr.to_string(), value.to_string())],
        ..Element::default()
    };
    let mut children = vec![Element {
        name: "title".to_string(),
        text: set.set.name.clone(),
        ..Element::default()
    }];
    children.extend(tile_sets.iter().map(|id| child("ref", "tile-set", id)));
    for element in implied(set) {
        children.push(child("implies", "element", &element));
    }
    let river = set.edge_kinds.iter().any(|k| k.jcz == Some(JczEdge::River));
    if river {
        children.push(child("enforces", "element", "river"));
    }
    Element {
        name: "expansion".to_string(),
        attrs: vec![("id".to_string(), vocab::expansion_name(&set.set.id))],
        text: String::new(),
        children,
    }
}

/// The game elements a set's markers and figures need switched on, each once, sorted.
fn implied(set: &TileSetFile) -> Vec<String> {
    let mut markers: Vec<&str> = Vec::new();
    for tile in &set.tiles {
        markers.extend(tile.markers.iter().map(String::as_str));
        let features = (tile.features.keys()).flat_map(|key| tile.features_under(key));
        markers.extend(features.flat_map(|f| &f.markers).map(String::as_str));
    }
    let mut elements: Vec<String> = markers
        .into_iter()
        .filter_map(vocab::element_of_marker)
        .map(str::to_string)
        .chain(
            set.figures
                .iter()
                .filter_map(|f| vocab::element_of_figure(&f.id)),
        )
        .chain((set.creatures.iter()).filter_map(|c| vocab::element_of_creature(&c.id)))
        .collect();
    // A marker declared with the portal's or the princess's rule needs JCZ's element for it,
    // whatever its id.
    for m in &set.markers {
        if m.deploy.is_some() {
            elements.push("portal".to_string());
        }
        if m.removes.is_some() {
            elements.push("princess".to_string());
        }
    }
    // FanCloisterZone's Village Life rules.
    let flowers = |t: &TileDef| (t.features_under(FIELDS).iter()).any(|f| !f.flowers.is_empty());
    if set.tiles.iter().any(flowers) {
        elements.push("flowers".to_string());
    }
    if set.tiles.iter().any(|t| t.has_site(MARKETPLACE)) {
        elements.push("marketplace".to_string());
    }
    // A tile in each player's reserve: JCZ's abbey (`AbbeyCapability`).
    if set.tiles.iter().any(|t| t.reserve.is_some()) {
        elements.push("abbey".to_string());
    }
    elements.sort_unstable();
    elements.dedup();
    elements
}

/// The add-on as zip bytes, and a note for each feature of the XML that has no artwork.
/// `xml` holds the tiles JCZ does not ship (with their `<expansion>`s); `art` every tile to
/// draw, those of `xml` and any others (JCZ's own tiles, drawn in tilekit's style).
pub fn package(
    meta: &Meta,
    xml: &JczFile,
    comment: &str,
    art: &[TileArt],
    tile_size: u32,
) -> Result<(Vec<u8>, Vec<Note>), AddonError> {
    check_id(&meta.id)?;
    let root = &meta.id;
    let tiles = tiles_json(art, tile_size);
    let notes = missing_art(xml, &tiles);
    let mut entries = vec![
        text_entry(format!("{root}/jcz-addon.json"), &addon_json(meta, xml)),
        Entry {
            path: format!("{root}/{XML_FILE}"),
            bytes: crate::xml::write(xml, comment).into_bytes(),
            method: Method::Deflated,
        },
        text_entry(
            format!("{root}/{ARTWORK_DIR}/artwork.json"),
            &artwork_json(meta, tile_size),
        ),
        text_entry(
            format!("{root}/{ARTWORK_DIR}/{TILES_FILE}"),
            &Value::Object(tiles),
        ),
    ];
    for tile in art {
        entries.push(Entry {
            path: format!("{root}/{ARTWORK_DIR}/{}", image_path(tile)),
            bytes: tile.png.clone(),
            method: Method::Stored,
        });
    }
    Ok((zip::write(&entries)?, notes))
}

/// Refuses an id JCZ cannot install an add-on under (it names the add-on's folder).
pub fn check_id(id: &str) -> Result<(), AddonError> {
    let ok = !id.is_empty()
        && !id.starts_with('.')
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !matches!(id, "jcz" | "classic");
    if ok {
        Ok(())
    } else {
        Err(AddonError::Id(id.to_string()))
    }
}

fn text_entry(path: String, value: &Value) -> Entry {
    // A `Value` built here always serialises.
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    Entry {
        path,
        bytes: text.into_bytes(),
        method: Method::Deflated,
    }
}

fn addon_json(meta: &Meta, xml: &JczFile) -> Value {
    // An add-on of JCZ's own tiles only has art and no expansion file to load.
    let expansions: Vec<&str> = if xml.tiles.is_empty() && xml.sets.is_empty() {
        Vec::new()
    } else {
        vec![XML_FILE]
    };
    json!({
        "title": meta.title,
        "version": meta.version,
        "minimumJczVersion": MINIMUM_JCZ,
        "expansions": expansions,
        "artworks": [ARTWORK_DIR],
    })
}

fn artwork_json(meta: &Meta, tile_size: u32) -> Value {
    json!({
        "title": meta.title,
        "description": "Tiles drawn by tilekit from their definitions",
        "perspective": "rotate",
        "tileSize": tile_size,
        "tilesInclude": [TILES_FILE],
    })
}

fn image_path(tile: &TileArt) -> String {
    format!("tiles/{}.png", tile.file_stem)
}

/// The artwork's tiles: each JCZ id with its image and its features' clips and points.
fn tiles_json(art: &[TileArt], tile_size: u32) -> Map<String, Value> {
    let scale = tile_size as f32;
    let mut tiles = Map::new();
    for tile in art {
        let mut features = Map::new();
        let mut inner = 0;
        for f in &tile.features {
            if f.shape == Shape::Region && f.ports.is_empty() {
                inner += 1;
            }
            let point = f.point.map(|v| (v * scale).round() as i64);
            features.insert(
                art_key(f, inner),
                json!({ "clip": clip(&f.outline, scale), "point": point }),
            );
        }
        tiles.insert(
            tile.jcz_id.clone(),
            json!({ "image": image_path(tile), "features": features }),
        );
    }
    tiles
}

/// An outline as an SVG path of its corners; straight runs along the grid as `H`/`V`.
fn clip(outline: &[Vec<[f32; 2]>], scale: f32) -> String {
    let mut d = String::new();
    for ring in outline {
        let Some(first) = ring.first() else { continue };
        let at = |p: &[f32; 2]| p.map(|v| number(v * scale));
        let [x, y] = at(first);
        let _ = write!(d, "M{x} {y}");
        let mut last = *first;
        for p in &ring[1..] {
            let [x, y] = at(p);
            if p[1] == last[1] {
                let _ = write!(d, "H{x}");
            } else if p[0] == last[0] {
                let _ = write!(d, "V{y}");
            } else {
                let _ = write!(d, "L{x} {y}");
            }
            last = *p;
        }
        d.push('Z');
    }
    d
}

/// A coordinate with at most two decimals, none when whole.
fn number(v: f32) -> String {
    let rounded = (v * 100.0).round() / 100.0;
    if rounded.fract() == 0.0 {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

/// The artwork key of a feature drawn by tilekit; `inner` counts the inner fields so far.
fn art_key(f: &FeatureArt, inner: usize) -> String {
    let tokens: Vec<String> = match f.shape {
        Shape::Region if f.ports.is_empty() => vec!["I".repeat(inner)],
        Shape::Region => f.ports.iter().map(|&p| half_name(p)).collect(),
        Shape::Area | Shape::Line => f
            .ports
            .iter()
            .map(|p| side_name(p.side()).to_string())
            .collect(),
        Shape::Site => Vec::new(),
    };
    key(&f.element, &tokens)
}

/// The artwork key of a feature element of the XML, if followers can stand on it.
fn xml_key(el: &Element) -> Option<String> {
    matches!(
        el.name.as_str(),
        "city" | "road" | "field" | "monastery" | "garden"
    )
    .then(|| {
        let tokens: Vec<String> = el.text.split_whitespace().map(str::to_string).collect();
        key(&el.name, &tokens)
    })
}

/// `Type/Location` as JCZ's client looks a feature up: the type capitalised, the location by
/// JCZ's names (sides `N`, `NE`, `WE`, `_S`, `NWSE`; field halves joined in JCZ's order
/// `NL.NR.EL.ER.SL.SR.WL.WR`; `I` for what stands inside the tile).
fn key(kind: &str, tokens: &[String]) -> String {
    let mut name = kind.to_string();
    if let Some(first) = name.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    format!("{name}/{}", location(tokens))
}

const HALVES: [&str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];

fn location(tokens: &[String]) -> String {
    let side = |t: &str| ["N", "E", "S", "W"].iter().position(|s| *s == t);
    if !tokens.is_empty() && tokens.iter().all(|t| side(t).is_some()) {
        let mask = tokens
            .iter()
            .filter_map(|t| side(t))
            .fold(0usize, |m, s| m | 1 << s);
        return SIDE_NAMES[mask].to_string();
    }
    if !tokens.is_empty() && tokens.iter().all(|t| HALVES.contains(&t.as_str())) {
        let halves: Vec<&str> = HALVES
            .into_iter()
            .filter(|h| tokens.iter().any(|t| t == h))
            .collect();
        return halves.join(".");
    }
    if tokens.is_empty() {
        "I".to_string()
    } else {
        tokens.join(".")
    }
}

/// JCZ's names of a set of sides, by mask (N 1, E 2, S 4, W 8).
const SIDE_NAMES: [&str; 16] = [
    "", "N", "E", "NE", "S", "NS", "SE", "_W", "W", "NW", "WE", "_S", "SW", "_E", "_N", "NWSE",
];

/// A note for each follower place of the XML's tiles that the artwork does not draw.
fn missing_art(xml: &JczFile, tiles: &Map<String, Value>) -> Vec<Note> {
    let mut notes = Vec::new();
    for tile in &xml.tiles {
        let features = tiles.get(&tile.id).and_then(|t| t.get("features"));
        for key in tile.elements.iter().filter_map(xml_key) {
            if features.and_then(|f| f.get(&key)).is_none() {
                notes.push(Note {
                    file: ARTWORK_DIR.to_string(),
                    tile: Some(tile.id.clone()),
                    kind: "no artwork".to_string(),
                    detail: format!("`{key}` has no clip or point: JCZ cannot show it"),
                });
            }
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn locations_are_named_as_jcz_names_them() {
        for (text, name) in [
            ("N", "N"),
            ("W E", "WE"),
            ("E N", "NE"),
            ("N E W", "_S"),
            ("N E S W", "NWSE"),
            ("S W", "SW"),
            ("WR EL", "EL.WR"),
            ("SR SL ER WL", "ER.SL.SR.WL"),
            ("", "I"),
            ("II", "II"),
        ] {
            assert_eq!(location(&tokens(text)), name, "{text}");
        }
        assert_eq!(key("monastery", &[]), "Monastery/I");
    }

    #[test]
    fn clips_are_svg_paths_in_tile_units() {
        let square = vec![vec![[0.0, 0.0], [0.5, 0.0], [0.5, 0.25], [0.0, 0.25]]];
        assert_eq!(clip(&square, 1000.0), "M0 0H500V250H0Z");
        assert_eq!(number(0.025 * 900.0), "22.5");
    }

    /// Abbey & Mayor's expansion switches on JCZ's `abbey` (its reserve tile's), `barn`,
    /// `mayor` and `wagon` (its figures' elements) beside its tunnel marker's.
    #[test]
    fn a_set_with_a_barn_implies_the_barn() {
        let source = (tiledef::bundled().into_iter())
            .find(|s| s.name == "definitions/abbey-and-mayor.toml")
            .expect("Abbey & Mayor is bundled");
        let set: TileSetFile = toml::from_str(&source.text).expect("it parses");
        assert_eq!(implied(&set), ["abbey", "barn", "mayor", "tunnel", "wagon"]);
    }

    #[test]
    fn ids_jcz_cannot_install_under_are_refused() {
        for id in ["", ".hidden", "a/b", "jcz", "classic", "sp ace"] {
            assert!(check_id(id).is_err(), "{id}");
        }
        assert!(check_id("village-life_2.0").is_ok());
    }
}
