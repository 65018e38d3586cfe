//! JCloisterZone's own names for the things on its tiles, and the tilekit marker each becomes:
//! where it is written in JCZ (a tile element, a flag of a feature, a flag of the monastery, a
//! value of an attribute) and the icon the renderer draws for it. This is JCZ's vocabulary, not
//! game rules: a name not listed here still imports, as a marker drawn as a badge.

use tiledef::model::{MarkerIcon, MarkerPlace, MarkerRule};

/// Where a JCZ name is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// An element of the tile: `<tower/>`.
    Element,
    /// A flag of a feature: `<road inn="true">`.
    Flag,
    /// A flag of the monastery: `<monastery shrine="true"/>` (a tile marker in tilekit).
    MonasteryFlag,
    /// The value of a feature's attribute: `<city resource="wine">` (attribute name given).
    Value(&'static str),
    /// The value of the tile's `group` attribute: `<tile group="river-spring">`.
    Group(&'static str),
}

/// One known JCZ name.
#[derive(Clone, Copy, Debug)]
pub struct Known {
    /// The tilekit marker id.
    pub marker: &'static str,
    /// Where tilekit puts the marker.
    pub on: MarkerPlace,
    /// Where JCZ writes it.
    pub written: Written,
    /// The icon, where the renderer's library has one.
    pub icon: Option<MarkerIcon>,
    /// The rule module that gives it its meaning in play.
    pub rule: Option<MarkerRule>,
}

const fn k(
    marker: &'static str,
    on: MarkerPlace,
    written: Written,
    icon: Option<MarkerIcon>,
) -> Known {
    Known {
        marker,
        on,
        written,
        icon,
        rule: None,
    }
}

use MarkerIcon as I;
use MarkerPlace::{City, Field, Road, Tile};
use Written::{Element, Flag, Group, MonasteryFlag, Value};

/// Every JCZ name this importer knows, with its marker.
pub const KNOWN: &[Known] = &[
    Known {
        marker: "festival",
        on: Tile,
        written: Element,
        icon: Some(I::Festival),
        rule: Some(MarkerRule::Festival),
    },
    k("spring", Tile, Group("river-spring"), Some(I::Spring)),
    k("lake", Tile, Group("river-lake"), Some(I::Lake)),
    k("tower", Tile, Element, Some(I::Tower)),
    k("bazaar", Tile, Element, Some(I::Bazaar)),
    k("volcano", Tile, Element, Some(I::Volcano)),
    k("portal", Tile, Element, Some(I::Portal)),
    k("dragon", Tile, Element, Some(I::Dragon)),
    k("circus", Tile, Element, Some(I::Circus)),
    k("acrobats", Tile, Element, Some(I::Acrobats)),
    k("watchtower", Tile, Element, Some(I::Watchtower)),
    k("flying-machine", Tile, Element, Some(I::FlyingMachine)),
    k("hill", Tile, Element, Some(I::Hill)),
    k("vineyard", Tile, Element, Some(I::Vineyard)),
    k("goldmine", Tile, Element, Some(I::Gold)),
    k("mage", Tile, Element, Some(I::Mage)),
    k("ferry", Tile, Element, Some(I::Ferry)),
    k("corn-circle", Tile, Element, Some(I::CornCircle)),
    k("quarter", Tile, Element, Some(I::Quarter)),
    k("yaga-hut", Tile, Element, Some(I::Hut)),
    k("razboynik", Tile, Element, Some(I::Robber)),
    k("vodyanoy", Tile, Element, Some(I::Creature)),
    k("shrine", Tile, MonasteryFlag, Some(I::Shrine)),
    k("church", Tile, MonasteryFlag, None),
    k("special", Tile, MonasteryFlag, None),
    k("inn", Road, Flag, Some(I::Inn)),
    k("tunnel", Road, Flag, Some(I::Tunnel)),
    k("labyrinth", Road, Flag, None),
    k("wells", Road, Flag, Some(I::Well)),
    k("cathedral", City, Flag, Some(I::Cathedral)),
    k("besieged", City, Flag, Some(I::Siege)),
    k("princess", City, Flag, Some(I::Princess)),
    k("darmstadtium", City, Flag, None),
    k("wine", City, Value("resource"), Some(I::Wine)),
    k("grain", City, Value("resource"), Some(I::Grain)),
    k("cloth", City, Value("resource"), Some(I::Cloth)),
    k("pig-herd", Field, Flag, Some(I::PigHerd)),
];

/// The known entry for a marker id.
pub fn by_marker(marker: &str) -> Option<&'static Known> {
    KNOWN.iter().find(|k| k.marker == marker)
}

/// Attributes that JCZ writes but tilekit cannot say (yet): reported, never turned into markers.
pub const REPORTED_ATTRS: &[&str] = &["wagon-move", "castle-base"];

/// A readable name for a marker id: `pig-herd` → `Pig herd`.
pub fn readable(id: &str) -> String {
    let words = id.replace('-', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A JCZ name in lower case with every character outside `[a-z0-9-]` made a `-`.
pub fn slug(name: &str) -> String {
    name.to_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// A marker id made from a JCZ name: lower case, `[a-z0-9-]`, starting with a letter.
pub fn marker_id(name: &str) -> String {
    let mut id = slug(name);
    if !id.starts_with(|c: char| c.is_ascii_lowercase()) {
        id.insert_str(0, "m-");
    }
    id
}
