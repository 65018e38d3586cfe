//! JCloisterZone's own names for the things on its tiles, and the tilekit marker each becomes:
//! where it is written in JCZ (a tile element, a flag of a feature, a flag of the monastery, a
//! value of an attribute) and the icon the renderer draws for it. This is JCZ's vocabulary: a
//! name not listed here still imports, as a marker drawn as a badge.
//!
//! The second half is what JCZ knows only from its Java rules (its XML names a thing, its code
//! says how it plays): the scoring of an inn or a cathedral, the goods' tokens, the River's tile
//! groups and placement rule, the large follower. Each table is keyed by JCZ's own names, so a
//! tile of another JCZ file with `inn="true"` or `group="river"` plays by the same rules.

use tiledef::model::{
    FigureDef, GroupDef, GroupDraw, HeldDef, MarkerIcon, MarkerRule, PathRule, Rates, ScoringDef,
    SpareStarts, TokenDef,
};

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
#[derive(Clone, Debug)]
pub struct Known {
    /// JCZ's name: the element or attribute as its XML writes it.
    pub jcz: &'static str,
    /// The tilekit marker id (JCZ's name, unless a bundled set names the marker otherwise).
    pub marker: &'static str,
    /// Where tilekit puts the marker, as `on` writes it (`tile`, a base kind's id).
    pub on: &'static str,
    /// Where JCZ writes it.
    pub written: Written,
    /// The icon, where the renderer's library has one.
    pub icon: Option<MarkerIcon>,
    /// The rule module that gives it its meaning in play.
    pub rule: Option<MarkerRule>,
}

const fn k(
    marker: &'static str,
    on: &'static str,
    written: Written,
    icon: Option<MarkerIcon>,
) -> Known {
    Known {
        jcz: marker,
        marker,
        on,
        written,
        icon,
        rule: None,
    }
}

use MarkerIcon as I;
// Where JCZ's names go: its `<city>`, `<road>` and `<field>` are base's kinds of those ids.
const TILE: &str = "tile";
const ROAD: &str = "road";
const CITY: &str = "city";
const FIELD: &str = "field";
use Written::{Element, Flag, Group, MonasteryFlag, Value};

/// Every JCZ name this importer knows, with its marker.
pub const KNOWN: &[Known] = &[
    Known {
        jcz: "festival",
        marker: "festival",
        on: TILE,
        written: Element,
        icon: Some(I::Festival),
        rule: Some(MarkerRule::Festival),
    },
    k("spring", TILE, Group("river-spring"), Some(I::Spring)),
    k("lake", TILE, Group("river-lake"), Some(I::Lake)),
    k("tower", TILE, Element, Some(I::Tower)),
    k("bazaar", TILE, Element, Some(I::Bazaar)),
    k("volcano", TILE, Element, Some(I::Volcano)),
    k("portal", TILE, Element, Some(I::Portal)),
    k("dragon", TILE, Element, Some(I::Dragon)),
    k("circus", TILE, Element, Some(I::Circus)),
    k("acrobats", TILE, Element, Some(I::Acrobats)),
    k("watchtower", TILE, Element, Some(I::Watchtower)),
    k("flying-machine", TILE, Element, Some(I::FlyingMachine)),
    k("hill", TILE, Element, Some(I::Hill)),
    k("vineyard", TILE, Element, Some(I::Vineyard)),
    k("goldmine", TILE, Element, Some(I::Gold)),
    k("mage", TILE, Element, Some(I::Mage)),
    k("ferry", TILE, Element, Some(I::Ferry)),
    k("corn-circle", TILE, Element, Some(I::CornCircle)),
    k("quarter", TILE, Element, Some(I::Quarter)),
    k("yaga-hut", TILE, Element, Some(I::Hut)),
    k("razboynik", TILE, Element, Some(I::Robber)),
    k("vodyanoy", TILE, Element, Some(I::Creature)),
    k("shrine", TILE, MonasteryFlag, Some(I::Shrine)),
    k("church", TILE, MonasteryFlag, None),
    k("special", TILE, MonasteryFlag, None),
    k("inn", ROAD, Flag, Some(I::Inn)),
    k("tunnel", ROAD, Flag, Some(I::Tunnel)),
    k("labyrinth", ROAD, Flag, None),
    // Village Life names its marker `well`; JCZ's and FanCloisterZone's attribute is `wells`.
    Known {
        jcz: "wells",
        ..k("well", ROAD, Flag, Some(I::Well))
    },
    k("cathedral", CITY, Flag, Some(I::Cathedral)),
    k("besieged", CITY, Flag, Some(I::Siege)),
    k("princess", CITY, Flag, Some(I::Princess)),
    k("darmstadtium", CITY, Flag, None),
    k("wine", CITY, Value("resource"), Some(I::Wine)),
    k("grain", CITY, Value("resource"), Some(I::Grain)),
    k("cloth", CITY, Value("resource"), Some(I::Cloth)),
    k("pig-herd", FIELD, Flag, Some(I::PigHerd)),
];

/// A marker's scoring modifier as JCZ's rules give it (`docs/rules-scoring.md`).
struct Modifier {
    /// The JCZ name (the marker id it becomes).
    marker: &'static str,
    complete: Rates,
    unfinished: Rates,
}

const fn rates(tile: u32, pennant: Option<u32>) -> Rates {
    Rates {
        tile: Some(tile),
        pennant,
        marker: None,
        bordered: None,
    }
}

/// JCZ's `InnCapability` and `CathedralCapability` (Inns & Cathedrals): a road with an inn scores
/// 2 per tile complete, 0 unfinished; a city with a cathedral 3 per tile and pennant complete, 0
/// unfinished.
const MODIFIERS: &[Modifier] = &[
    Modifier {
        marker: "inn",
        complete: rates(2, None),
        unfinished: rates(0, None),
    },
    Modifier {
        marker: "cathedral",
        complete: rates(3, Some(3)),
        unfinished: rates(0, Some(0)),
    },
];

/// The scoring modifier JCZ's rules give a marker, if any.
pub fn scoring(marker: &str) -> Option<ScoringDef> {
    MODIFIERS
        .iter()
        .find(|m| m.marker == marker)
        .map(|m| ScoringDef {
            complete: Some(m.complete),
            unfinished: Some(m.unfinished),
            option: None,
        })
}

/// JCZ's `TradeGoodsCapability` (Traders & Builders): one token per good on a completed city to
/// whoever completed it; the most of each good scores 10 at the end.
const TOKENS: &[(&str, u32)] = &[("wine", 10), ("grain", 10), ("cloth", 10)];

/// The token JCZ's rules give a marker, if any.
pub fn token(marker: &str) -> Option<TokenDef> {
    TOKENS
        .iter()
        .find(|(m, _)| *m == marker)
        .map(|&(_, points)| TokenDef {
            id: None,
            name: None,
            points,
        })
}

/// JCZ's `DragonCapability` (Princess & Dragon): the tiles with a dragon are a tile group it
/// deactivates at the start and activates when a volcano is placed.
const HELD: &[(&str, &str)] = &[("dragon", "volcano")];

/// The draw rule JCZ's rules give a marker's tiles, if any: held until a tile with `until`.
pub fn held(marker: &str) -> Option<HeldDef> {
    HELD.iter()
        .find(|(m, _)| *m == marker)
        .map(|&(_, until)| HeldDef {
            until: until.to_string(),
        })
}

/// The figures JCZ's `PrincessCapability` lets a player send home from the marker's city: its
/// followers (`City::getFollowers2`: not the builder or pig).
pub fn removes(marker: &str) -> Option<tiledef::Removes> {
    (marker == "princess").then_some(tiledef::Removes::Follower)
}

/// Where JCZ's `PortalCapability` (`AbstractActionPhase::prepareMeepleActions`) lets the
/// player of a tile with the marker deploy instead: on any placed tile.
pub fn deploy(marker: &str) -> Option<tiledef::DeployWhere> {
    (marker == "portal").then_some(tiledef::DeployWhere::Anywhere)
}

/// What one value of JCZ's `<tile group="…">` means in its `RiverCapability`.
#[derive(Clone, Copy, Debug)]
pub struct TileGroup {
    /// JCZ's group name.
    pub jcz: &'static str,
    /// The tilekit group the tile joins.
    pub group: &'static str,
    /// The tile starts the game (the spring).
    pub start: bool,
    /// The tile is drawn last of its group (the lake).
    pub held_back: bool,
}

/// JCZ's river groups: the spring starts, the fork comes next, the lake ends the river.
pub const TILE_GROUPS: &[TileGroup] = &[
    TileGroup {
        jcz: "river-spring",
        group: "river",
        start: true,
        held_back: false,
    },
    TileGroup {
        jcz: "river",
        group: "river",
        start: false,
        held_back: false,
    },
    TileGroup {
        jcz: "river-lake",
        group: "river",
        start: false,
        held_back: true,
    },
    TileGroup {
        jcz: "river-fork",
        group: "river-fork",
        start: false,
        held_back: false,
    },
];

/// The tilekit groups JCZ's river groups join, as its rules draw them: the river before the land
/// tiles with one spring (a second one, when both rivers play, stays in the box), River II's fork
/// right after the spring, before the other river tiles.
pub fn group_def(id: &str) -> Option<GroupDef> {
    let def = |id: &str, name: &str, before: &[&str], spare_starts| GroupDef {
        id: id.to_string(),
        name: name.to_string(),
        draw: GroupDraw::First,
        after: Vec::new(),
        before: before.iter().map(|b| b.to_string()).collect(),
        spare_starts,
    };
    match id {
        "river" => Some(def("river", "The River", &[], SpareStarts::LeaveOut)),
        "river-fork" => Some(def(
            "river-fork",
            "River II's fork",
            &["river"],
            SpareStarts::Draw,
        )),
        _ => None,
    }
}

/// JCZ's `RiverCapability`: a river tile continues the river and may not turn back on itself.
pub const RIVER_PATH: PathRule = PathRule::NoUTurn;

/// The figures JCZ's rules add with a tile-set family, as `figures.toml` declares them.
const FIGURES: &str = include_str!("figures.toml");

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Figures {
    elements: std::collections::BTreeMap<String, String>,
    #[serde(default)]
    creature_elements: std::collections::BTreeMap<String, String>,
    family: Vec<FamilyFigures>,
}

/// `figures.toml`, parsed.
fn figures_file() -> Figures {
    // Compiled in and parsed by a test (`the_figures_file_parses…`): it cannot fail here.
    toml::from_str(FIGURES).expect("figures.toml is valid")
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct FamilyFigures {
    id: String,
    #[serde(default)]
    figure: Vec<FigureDef>,
    /// Tiles JCZ makes in its Java, not its XML (Abbey & Mayor's abbey).
    #[serde(default)]
    tile: Vec<tiledef::model::TileDef>,
    /// The edge kinds those tiles need.
    #[serde(default)]
    edge_kind: Vec<tiledef::model::EdgeKindDef>,
    #[serde(default)]
    creature: Vec<tiledef::CreatureDef>,
}

/// The creatures JCZ's rules add with a tile-set family (JCZ's family id): Princess & Dragon's
/// dragon and fairy (`figures.toml`).
pub fn creatures(family: &str) -> Vec<tiledef::CreatureDef> {
    (figures_file().family.into_iter())
        .find(|f| f.id == family)
        .map(|f| f.creature)
        .unwrap_or_default()
}

/// The game element of a creature JCZ's rules know (`dragon`, `fairy`), as `figures.toml`
/// names them.
pub fn element_of_creature(creature: &str) -> Option<String> {
    figures_file().creature_elements.remove(creature)
}

/// The figures JCZ's rules add with a tile-set family (JCZ's family id): the abbot, the large
/// follower, the builder and pig, the mayor (`figures.toml`).
pub fn figures(family: &str) -> Vec<FigureDef> {
    (figures_file().family.into_iter())
        .find(|f| f.id == family)
        .map(|f| f.figure)
        .unwrap_or_default()
}

/// The tiles JCZ makes in its Java for a tile-set family (JCZ's family id), and the edge kinds
/// they need: Abbey & Mayor's abbey (`figures.toml`).
pub fn code_tiles(
    family: &str,
) -> (
    Vec<tiledef::model::EdgeKindDef>,
    Vec<tiledef::model::TileDef>,
) {
    (figures_file().family.into_iter())
        .find(|f| f.id == family)
        .map(|f| (f.edge_kind, f.tile))
        .unwrap_or_default()
}

/// The known entry for a marker id.
pub fn by_marker(marker: &str) -> Option<&'static Known> {
    KNOWN.iter().find(|k| k.marker == marker)
}

/// The known JCZ name `name` (an element or attribute as JCZ's XML writes it).
pub fn by_jcz(name: &str) -> Option<&'static Known> {
    KNOWN.iter().find(|k| k.jcz == name)
}

/// The name JCZ writes a marker as: its known JCZ name, else its own id.
pub fn jcz_name(marker: &str) -> &str {
    by_marker(marker).map_or(marker, |k| k.jcz)
}

/// Attributes that JCZ writes but tilekit cannot say (yet): reported, never turned into markers.
/// FanCloisterZone's bushes (`road@bush`) and flowers (`field@flowers`) among them: the import
/// declares no bushes edge kind or flower colours (yet).
pub const REPORTED_ATTRS: &[&str] = &["wagon-move", "castle-base", "bush", "flowers"];

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

/// The tile-set families JCZ 5 ships in its own files (the client's
/// `src/extraResources/expansions/`, July 2023). An add-on must not define them again: JCZ's
/// engine loads its own files and every add-on's, and refuses a tile defined twice.
pub const JCZ_FAMILIES: &[&str] = &[
    "abbey-and-mayor",
    "basic",
    "bridges-castles-and-bazaars",
    "corn-circles/1",
    "corn-circles/2",
    "count",
    "cult/5",
    "cult/6",
    "darmstadt",
    "ferries",
    "festival",
    "flier",
    "goldmines",
    "gq11",
    "gq11/river",
    "hills-and-sheep",
    "inns-and-cathedrals",
    "king-and-robber",
    "labyrinth",
    "mage-and-witch",
    "monasteries",
    "princess-and-dragon",
    "river/1",
    "river/2",
    "russian-promos/2013",
    "russian-promos/2016",
    "siege/besiegers",
    "siege/cathars",
    "spiel-doch",
    "tower",
    "traders-and-builders",
    "tunnel",
    "under-the-big-top",
    "watchtowers",
    "wind-roses",
    "winter",
];

/// The JCZ tile-set family a tilekit set is written as: JCZ's own name for a set made from one
/// of its families (`base` → `basic`, `river-2` → `river/2`, and the bundled River, `river`,
/// → `river/1`), else the set's id.
pub fn family_of_set(set: &str) -> String {
    match set {
        "base" => "basic".to_string(),
        "river" => "river/1".to_string(),
        _ => JCZ_FAMILIES
            .iter()
            .find(|f| slug(f) == set)
            .map_or_else(|| set.to_string(), |f| f.to_string()),
    }
}

/// The game element (JCZ's `GameElement` id) that switches on the rule a marker plays by:
/// a set whose tiles carry the marker implies it, as JCZ's own expansions do.
pub fn element_of_marker(marker: &str) -> Option<&'static str> {
    const ELEMENTS: &[(&str, &str)] = &[
        ("inn", "inn"),
        ("cathedral", "cathedral"),
        ("wine", "traders"),
        ("grain", "traders"),
        ("cloth", "traders"),
        ("princess", "princess"),
        ("besieged", "siege"),
        ("pig-herd", "pig-herd"),
        ("tower", "tower"),
        ("festival", "festival"),
        ("bazaar", "bazaar"),
        ("hill", "hill"),
        ("vineyard", "vineyard"),
        ("shrine", "shrine"),
        ("portal", "portal"),
        ("dragon", "dragon"),
        // JCZ's dragon element plays the volcano too (`DragonCapability`).
        ("volcano", "dragon"),
        ("goldmine", "gold"),
        ("mage", "mage"),
        ("circus", "big-top"),
        ("acrobats", "acrobats"),
        ("ferry", "ferry"),
        ("quarter", "count"),
        ("tunnel", "tunnel"),
    ];
    ELEMENTS.iter().find(|(m, _)| *m == marker).map(|(_, e)| *e)
}

/// The game element of a figure JCZ's rules know (`large-follower` → `big-follower`), as
/// `figures.toml` names them.
pub fn element_of_figure(figure: &str) -> Option<String> {
    figures_file().elements.remove(figure)
}

/// The expansions JCZ 5 defines itself (the client's `models/expansions.js`): a fan expansion
/// of the same name is refused by the client.
pub const JCZ_EXPANSIONS: &[&str] = &[
    "ABBEY_AND_MAYOR",
    "BASIC",
    "BRIDGES_CASTLES_AND_BAZAARS",
    "CORN_CIRCLES",
    "COUNT",
    "CULT",
    "DARMSTADT",
    "FERRIES",
    "FESTIVAL",
    "FLIER",
    "GOLDMINES",
    "GQ11",
    "HILLS_AND_SHEEP",
    "INNS_AND_CATHEDRALS",
    "KING_AND_ROBBER",
    "LABYRINTH",
    "MAGE_AND_WITCH",
    "MONASTERIES",
    "PRINCESS_AND_DRAGON",
    "RIVER",
    "RUSSIAN_PROMOS",
    "SIEGE",
    "SPIEL_DOCH",
    "TOWER",
    "TRADERS_AND_BUILDERS",
    "TUNNEL",
    "UNDER_THE_BIG_TOP",
    "WATCHTOWERS",
    "WIND_ROSES",
    "WINTER",
];

/// The name of the expansion a tilekit set becomes in an add-on: its id in JCZ's style
/// (`village-life` → `VILLAGE_LIFE`), prefixed `TILEKIT_` where JCZ has one of that name.
pub fn expansion_name(set: &str) -> String {
    let name: String = set
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if JCZ_EXPANSIONS.contains(&name.as_str()) {
        format!("TILEKIT_{name}")
    } else {
        name
    }
}

/// FanCloisterZone's flower token (its `FlowersToken`: blue, violet, white, yellow) for a
/// tilekit colour. Village Life's light blue is its blue and its orange group its yellow: the
/// fourth colour FanCloisterZone has (`reference/village-life-fancz.md` pairs its f1-f4 with
/// white, light blue, orange, violet).
pub fn fancz_flowers(colour: &str) -> Option<&'static str> {
    match colour {
        "white" => Some("white"),
        "blue" | "light-blue" => Some("blue"),
        "violet" => Some("violet"),
        "yellow" | "orange" => Some("yellow"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compiled-in figures and creatures parse, and where tilekit bundles the family's set
    /// (JCZ's `basic` is base), they are that set's declarations exactly.
    #[test]
    fn the_figures_file_parses_and_agrees_with_the_bundled_sets() {
        let file: Figures = toml::from_str(FIGURES).expect("figures.toml parses");
        let mut compared = 0;
        for family in &file.family {
            assert!(
                !family.figure.is_empty() || !family.creature.is_empty(),
                "{} declares figures or creatures",
                family.id
            );
            let set = if family.id == "basic" {
                "base"
            } else {
                &family.id
            };
            let Some(source) = tiledef::bundled()
                .into_iter()
                .find(|s| s.name == format!("definitions/{set}.toml"))
            else {
                continue;
            };
            let file: tiledef::model::TileSetFile =
                toml::from_str(&source.text).expect("a bundled file parses");
            assert_eq!(family.figure, file.figures, "the figures of {set}");
            assert_eq!(family.creature, file.creatures, "the creatures of {set}");
            compared += 1;
        }
        assert_eq!(
            compared, 5,
            "base, Inns & Cathedrals, Traders & Builders, Abbey & Mayor, Princess & Dragon"
        );
        assert_eq!(super::figures("abbey-and-mayor")[0].id, "mayor");
        // Every figure the file declares has its JCZ element.
        for figure in file.family.iter().flat_map(|f| &f.figure) {
            assert!(file.elements.contains_key(&figure.id), "{}", figure.id);
        }
        assert!(super::figures("cult").is_empty());
    }
}
