//! tilekit sets → one JCZ XML document, with a note for everything JCZ cannot represent.

use crate::Note;
use crate::import::infer_end;
use crate::keys::{Elements, MARKETPLACE};
use crate::vocab::{self, Written};
use crate::xml::{Element, JczFile, JczTile, JczTileSet};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use tiledef::model::{Count, EdgeKindDef, JczEdge, MarkerDef, MarkerRule, TileDef, TileSetFile};
use tiledef::{Port, Side};

/// The JCZ id of a tile: its first alias that looks like one (`BA/RCr`), else its own id.
pub fn jcz_id(tile: &TileDef) -> String {
    tile.aliases
        .iter()
        .find(|a| a.contains('/'))
        .cloned()
        .unwrap_or_else(|| tile.id.clone())
}

/// `sets` with each after the sets whose tiles it reprints (`like`), otherwise in the order
/// given. An import takes a tile's first `<ref>` for the tile itself and later ones for
/// reprints, so River II, which reprints the River's spring, must come after the River.
fn reprints_last(sets: &[TileSetFile]) -> Vec<&TileSetFile> {
    let defines = |set: &TileSetFile, name: &str| {
        (set.tiles.iter())
            .any(|t| t.like.is_none() && (t.id == name || t.aliases.iter().any(|a| a == name)))
    };
    let waits = |set: &TileSetFile, left: &[&TileSetFile]| {
        let likes = set.tiles.iter().filter_map(|t| t.like.as_deref());
        let mut likes = likes.filter(|name| !defines(set, name));
        likes.any(|name| {
            left.iter()
                .any(|l| !std::ptr::eq(*l, set) && defines(l, name))
        })
    };
    let mut out: Vec<&TileSetFile> = Vec::with_capacity(sets.len());
    let mut left: Vec<&TileSetFile> = sets.iter().collect();
    while !left.is_empty() {
        // A loop of reprints (refused by validation) is written in the order given.
        let next = (0..left.len())
            .find(|&i| !waits(left[i], &left))
            .unwrap_or(0);
        out.push(left.remove(next));
    }
    out
}

/// Exports `sets`; `context` are further loaded sets (those required), used to name the tiles
/// that `like` refers to and for the edge kinds and markers they declare; `name` is the
/// output's name (for notes).
pub fn export(sets: &[TileSetFile], context: &[TileSetFile], name: &str) -> Export {
    export_for(sets, context, name, &|_| false)
}

/// `export` for a reader that plays the figures `plays_figure` accepts by their id (an add-on
/// whose expansion switches on JCZ's own abbot, builder, …): those are neither noted nor lost.
pub fn export_for(
    sets: &[TileSetFile],
    context: &[TileSetFile],
    name: &str,
    plays_figure: &dyn Fn(&str) -> bool,
) -> Export {
    // The vocabulary of the required sets counts too: River II's tiles are river because River
    // I declares the edge kind, a fan set's fields are fields because base declares them.
    let kinds: HashMap<&str, &EdgeKindDef> = (context.iter().chain(sets))
        .flat_map(|s| &s.edge_kinds)
        .map(|k| (k.id.as_str(), k))
        .collect();
    let markers: HashMap<&str, &MarkerDef> = (context.iter().chain(sets))
        .flat_map(|s| &s.markers)
        .map(|m| (m.id.as_str(), m))
        .collect();
    // `like` names a tile by id or alias; JCZ refers to it by its JCZ id.
    let mut names: HashMap<&str, String> = HashMap::new();
    for tile in context.iter().chain(sets).flat_map(|s| &s.tiles) {
        let id = jcz_id(tile);
        names.insert(tile.id.as_str(), id.clone());
        for alias in &tile.aliases {
            names.insert(alias.as_str(), id.clone());
        }
    }
    let elements = Elements::of(context.iter().chain(sets));
    let feature_kinds: HashMap<String, &str> = (context.iter().chain(sets))
        .flat_map(|s| &s.features)
        .map(|k| (k.tile_key(), k.id.as_str()))
        .collect();
    let mut out = JczFile {
        name: name.to_string(),
        ..JczFile::default()
    };
    let mut notes = Vec::new();
    let mut losses = Losses::default();
    for set in reprints_last(sets) {
        if set.tiles.is_empty() {
            continue;
        }
        let family = vocab::family_of_set(&set.set.id);
        let by_edition = set
            .tiles
            .iter()
            .any(|t| matches!(t.count, Count::PerEdition(_)));
        let editions: Vec<(String, &str)> = if by_edition {
            vec![(format!("{family}:1"), "C1"), (format!("{family}:2"), "C2")]
        } else {
            vec![(family.clone(), "")]
        };
        let mut tile_sets: Vec<JczTileSet> = editions
            .iter()
            .map(|(id, _)| JczTileSet {
                id: id.clone(),
                ..JczTileSet::default()
            })
            .collect();
        for tile in &set.tiles {
            let mut note = |kind: &str, detail: String| {
                notes.push(Note {
                    file: set.set.id.clone(),
                    tile: Some(tile.id.clone()),
                    kind: kind.to_string(),
                    detail,
                });
            };
            // A tile in each player's reserve is JCZ's abbey, which JCZ makes in its code and
            // deals by its `abbey` element (`addon::expansion` switches it on): no XML tile.
            if tile.reserve.is_some() {
                note(
                    "reserve",
                    format!(
                        "held in each player's reserve: JCZ's `abbey` element deals its own abbey (AM/A, made in its code), not `{}`'s layout",
                        tile.id
                    ),
                );
                continue;
            }
            let id = match &tile.like {
                Some(like) => names.get(like.as_str()).cloned().unwrap_or(like.clone()),
                None => {
                    let id = jcz_id(tile);
                    let vocabulary = Vocabulary {
                        kinds: &kinds,
                        markers: &markers,
                        elements: &elements,
                    };
                    out.tiles.push(tile_xml(tile, &id, &vocabulary, &mut note));
                    losses
                        .kinds
                        .extend(lost_kinds(tile, &vocabulary, &feature_kinds));
                    id
                }
            };
            match &tile.count {
                Count::All(n) => {
                    for ts in &mut tile_sets {
                        ts.refs.push((id.clone(), *n));
                    }
                }
                Count::PerEdition(map) => {
                    for (ed, n) in map {
                        match editions.iter().position(|(_, e)| e == ed) {
                            Some(i) => tile_sets[i].refs.push((id.clone(), *n)),
                            None => note(
                                "count@edition",
                                format!(
                                    "{n} in edition `{ed}`: JCZ has editions :1 (C1) and :2 (C2) only"
                                ),
                            ),
                        }
                    }
                }
            }
        }
        for removed in &set.set.removes {
            let id = names
                .get(removed.as_str())
                .cloned()
                .unwrap_or(removed.clone());
            for ts in &mut tile_sets {
                ts.removes.push(id.clone());
            }
        }
        rules_notes(set, plays_figure, &mut notes, &mut losses);
        out.sets
            .extend(tile_sets.into_iter().filter(|ts| !ts.refs.is_empty()));
    }
    losses.tiles = out.tiles.len();
    for n in notes.iter().filter(|n| n.tile.is_some() && plays(&n.kind)) {
        losses.differ.insert((n.file.clone(), n.tile.clone()));
    }
    out.lost = losses.items();
    Export {
        xml: out,
        notes,
        losses,
    }
}

/// Notes of what of a set's rules JCZ's XML cannot carry: its effects, its markers' options,
/// its figures (the engine's and its own), each also counted in `losses`.
fn rules_notes(
    set: &TileSetFile,
    plays_figure: &dyn Fn(&str) -> bool,
    notes: &mut Vec<Note>,
    losses: &mut Losses,
) {
    for effect in &set.effects {
        notes.push(Note {
            file: set.set.id.clone(),
            tile: None,
            kind: "effect".to_string(),
            detail: format!(
                "`{}`: JCZ has no effects; its tiles' `{}` markers score nothing there",
                effect.id, effect.marker
            ),
        });
        losses.effects.insert(effect.id.clone());
    }
    for (marker, option) in (set.markers.iter())
        .filter(|m| vocab::by_marker(&m.id).is_none())
        .filter_map(|m| Some((&m.id, m.scoring.as_ref()?.option.as_ref()?)))
    {
        notes.push(Note {
            file: set.set.id.clone(),
            tile: None,
            kind: "option".to_string(),
            detail: format!("`{option}` (of the marker `{marker}`): JCZ has no such rule"),
        });
        losses.options.insert(option.clone());
    }
    // JCZ holds back only its own dragon tiles, until a volcano (`DragonCapability`).
    for (marker, held) in (set.markers.iter())
        .filter_map(|m| Some((&m.id, m.held.as_ref()?)))
        .filter(|(m, h)| vocab::held(vocab::jcz_name(m)).as_ref() != Some(*h))
    {
        notes.push(Note {
            file: set.set.id.clone(),
            tile: None,
            kind: "held".to_string(),
            detail: format!(
                "`{marker}` held until `{}`: JCZ draws these tiles at any time",
                held.until
            ),
        });
    }
    // JCZ's princess and portal are its own cities' and tiles' elements, with its reading.
    for m in &set.markers {
        let jcz = vocab::jcz_name(&m.id);
        let declared = m.removes.is_some() || m.deploy.is_some();
        if declared && (m.removes != vocab::removes(jcz) || m.deploy != vocab::deploy(jcz)) {
            notes.push(Note {
                file: set.set.id.clone(),
                tile: None,
                kind: "rule".to_string(),
                detail: format!(
                    "`{}`: its `removes`/`deploy` is not JCZ's reading of `{jcz}`",
                    m.id
                ),
            });
        }
    }
    for figure in &set.set.figures {
        let id = figure.id().to_string();
        notes.push(Note {
            file: set.set.id.clone(),
            tile: None,
            kind: "figure".to_string(),
            detail: format!("`{id}`: JCZ has no such figure"),
        });
        losses.figures.insert(id);
    }
    for figure in set.figures.iter().filter(|f| !plays_figure(&f.id)) {
        losses.figures.insert(figure.id.clone());
        notes.push(Note {
            file: set.set.id.clone(),
            tile: None,
            kind: "figure".to_string(),
            detail: format!(
                "`{}` ({} per player): JCZ's figures come with its expansions, not its XML",
                figure.id, figure.count
            ),
        });
    }
    // JCZ plays only its own dragon and fairy, by their expansion's capabilities.
    for creature in
        (set.creatures.iter()).filter(|c| !vocab::creatures("princess-and-dragon").contains(c))
    {
        losses.figures.insert(creature.id.clone());
        notes.push(Note {
            file: set.set.id.clone(),
            tile: None,
            kind: "creature".to_string(),
            detail: format!(
                "`{}`: JCZ has no such creature (it plays its own dragon and fairy only)",
                creature.id
            ),
        });
    }
}

/// An export: the XML, a note for each thing JCZ cannot represent, and what of the sets' rules
/// JCZ will not play.
#[derive(Clone, Debug)]
pub struct Export {
    /// The XML document.
    pub xml: JczFile,
    /// Everything not carried over, per tile or set.
    pub notes: Vec<Note>,
    /// The rules lost, for the report's first sentence.
    pub losses: Losses,
}

/// What of the exported sets' rules JCZ will not play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Losses {
    /// Edge and feature kinds JCZ has not (the tiles' features of those kinds are lost or
    /// played as JCZ's own).
    pub kinds: BTreeSet<String>,
    /// The sets' figures (JCZ's figures come with its own expansions).
    pub figures: BTreeSet<String>,
    /// The sets' effects.
    pub effects: BTreeSet<String>,
    /// The game options the sets' markers declare.
    pub options: BTreeSet<String>,
    /// The tile types written, each once.
    pub tiles: usize,
    /// The tile types (file, tile) with a note of something that changes play.
    pub differ: BTreeSet<(String, Option<String>)>,
}

impl Losses {
    /// The rules lost, each as `kind lake`, `figure mayor`, `effect vineyards`, `option …`:
    /// what the XML keeps in its `xml::LOST_COMMENT`.
    pub fn items(&self) -> Vec<String> {
        let what = [
            ("kind", &self.kinds),
            ("figure", &self.figures),
            ("effect", &self.effects),
            ("option", &self.options),
        ];
        (what.iter())
            .flat_map(|(what, ids)| ids.iter().map(move |id| format!("{what} {id}")))
            .collect()
    }

    /// One sentence for an author: what JCZ will not play, and how many tile types play
    /// differently there.
    pub fn sentence(&self) -> String {
        let list = |what: &str, ids: &BTreeSet<String>| {
            let plural = if ids.len() == 1 { "" } else { "s" };
            let ids: Vec<String> = ids.iter().map(|id| format!("`{id}`")).collect();
            (!ids.is_empty()).then(|| format!("the {what}{plural} {}", ids.join(", ")))
        };
        let lost: Vec<String> = [
            list("kind", &self.kinds),
            list("figure", &self.figures),
            list("effect", &self.effects),
            list("option", &self.options),
        ]
        .into_iter()
        .flatten()
        .collect();
        let rules = if lost.is_empty() {
            "JCZ plays every kind, figure, effect and option of these sets".to_string()
        } else {
            format!("JCZ will not play {}", lost.join("; "))
        };
        format!(
            "{rules}; {} of {} tile types play differently there.",
            self.differ.len(),
            self.tiles
        )
    }
}

/// The kinds of a tile's edges and features that JCZ 5 does not play: edge kinds that are none
/// of its field, road, city and river (FanCloisterZone's bushes among them), and feature kinds
/// without an element of JCZ's (a marketplace is FanCloisterZone's alone).
fn lost_kinds(
    tile: &TileDef,
    vocabulary: &Vocabulary<'_>,
    feature_kinds: &HashMap<String, &str>,
) -> Vec<String> {
    let played = |kind: &&str| {
        let jcz = vocabulary.kinds.get(kind).and_then(|d| d.jcz);
        matches!(
            jcz,
            Some(JczEdge::Field | JczEdge::Road | JczEdge::City | JczEdge::River)
        )
    };
    let edges = tile.edges.as_ref().into_iter();
    let sides = edges.flat_map(|e| [e.n.as_str(), e.e.as_str(), e.s.as_str(), e.w.as_str()]);
    let features = tile.features.keys().filter_map(|key| {
        let unwritten = !vocabulary.elements.writes(key) || key == MARKETPLACE;
        unwritten.then(|| feature_kinds.get(key).copied().unwrap_or(key.as_str()))
    });
    (sides.filter(|k| !played(k)))
        .chain(features)
        .map(String::from)
        .collect()
}

/// Whether a note's kind changes how a tile plays: a name, drawing hints and a reconstruction
/// mark are labels, not rules, and where a road ends is drawn, not played (JCZ scores a road
/// by its tiles, wherever its ends are).
pub fn plays(kind: &str) -> bool {
    !matches!(kind, "name" | "art" | "reconstructed" | "road end")
}

/// FanCloisterZone's token joining a marketplace and the roads that end at it.
const MARKETPLACE_TOKEN: &str = "1";

/// JCZ's `group` value for a tile of a tilekit group: the river group's spring, lake or plain
/// tile, or the fork (the inverse of `vocab::TILE_GROUPS`).
fn jcz_group(group: &str, start: bool, held_back: bool) -> Option<&'static str> {
    let exact = |g: &&vocab::TileGroup| g.start == start && g.held_back == held_back;
    let of_group = || vocab::TILE_GROUPS.iter().filter(|g| g.group == group);
    of_group()
        .find(exact)
        .or_else(|| of_group().next())
        .map(|g| g.jcz)
}

/// JCZ's name of a side.
pub(crate) fn side_name(side: Side) -> &'static str {
    ["N", "E", "S", "W"][side as usize]
}

fn sides_text(ports: &[Port]) -> String {
    ports
        .iter()
        .map(|p| side_name(p.side()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// JCZ's name of a half port: the side, then `L` or `R` as seen from the centre.
pub(crate) fn half_name(port: Port) -> String {
    let side = port.side();
    let [left, _, _] = side.ports();
    format!(
        "{}{}",
        side_name(side),
        if port == left { "L" } else { "R" }
    )
}

/// A feature's markers as JCZ attributes (flags, or known values like `resource="wine"`).
fn marker_attrs(
    list: &[String],
    markers: &HashMap<&str, &MarkerDef>,
    note: &mut dyn FnMut(&str, String),
) -> Vec<(String, String)> {
    list.iter()
        .map(|m| {
            unknown_marker(m, markers, note);
            let name = vocab::jcz_name(m).to_string();
            match vocab::by_marker(m).map(|k| k.written) {
                Some(Written::Value(attr)) => (attr.to_string(), name),
                _ => (name, "true".to_string()),
            }
        })
        .collect()
}

fn unknown_marker(
    m: &str,
    markers: &HashMap<&str, &MarkerDef>,
    note: &mut dyn FnMut(&str, String),
) {
    if vocab::by_marker(m).is_none() {
        let rule = markers
            .get(m)
            .and_then(|d| d.rule)
            .map_or(String::new(), |r| format!(" (rule {r:?})"));
        note(
            "marker not in JCZ",
            format!("`{m}`{rule} is written under its own name, which JCloisterZone does not know"),
        );
    }
}

/// What a tile's XML is written with: the edge kinds and markers in scope by id, and which tile
/// keys are which JCloisterZone elements.
struct Vocabulary<'a> {
    kinds: &'a HashMap<&'a str, &'a EdgeKindDef>,
    markers: &'a HashMap<&'a str, &'a MarkerDef>,
    elements: &'a Elements,
}

/// One tile's XML, written in phases (its markers and sites, cities, sides, roads, fields, the
/// river, then what only notes say), each noting what JCZ cannot represent in that order.
fn tile_xml(
    tile: &TileDef,
    id: &str,
    vocabulary: &Vocabulary<'_>,
    note: &mut dyn FnMut(&str, String),
) -> JczTile {
    let mut xml = JczTile {
        id: id.to_string(),
        ..JczTile::default()
    };
    let festival = tile_markers(tile, vocabulary, &mut xml, note);
    cities_xml(tile, vocabulary, &mut xml, note);
    let sides = sides_of(tile, vocabulary, note);
    roads_xml(tile, vocabulary, festival, &sides, &mut xml, note);
    fields_xml(tile, vocabulary, &mut xml, note);
    moves_xml(tile, &mut xml, note);
    let river = &sides.river;
    if !river.is_empty() {
        xml.elements.push(Element {
            name: "river".to_string(),
            text: river
                .iter()
                .map(|&s| side_name(s))
                .collect::<Vec<_>>()
                .join(" "),
            ..Element::default()
        });
    }
    tile_notes(tile, vocabulary, &mut xml, note);
    xml
}

/// The tile's `moves` as JCZ's `wagon-move` letters: link `i` is letter `a + i` on each of its
/// features that JCZ writes as a `<city>`, `<road>` or `<monastery>`; any other member (a
/// field, another site) is noted, and a link left with fewer than two members is dropped with it.
fn moves_xml(tile: &TileDef, xml: &mut JczTile, note: &mut dyn FnMut(&str, String)) {
    let element_of = |name: &str| -> Option<usize> {
        let port = Port::parse(name);
        xml.elements.iter().position(|el| match port {
            Some(p) if p.is_centre() && (el.name == "city" || el.name == "road") => {
                el.text.split_whitespace().any(|s| s == side_name(p.side()))
            }
            Some(_) => false,
            None => el.name == "monastery" && name == "monastery",
        })
    };
    let mut letters: Vec<Vec<String>> = vec![Vec::new(); xml.elements.len()];
    for (l, link) in tile.moves.iter().enumerate() {
        let letter = (b'a'..=b'z').nth(l).map(|b| (b as char).to_string());
        let found: Vec<Option<usize>> = link.iter().map(|name| element_of(name)).collect();
        let written: Vec<usize> = found.iter().flatten().copied().collect();
        match letter.filter(|_| written.len() >= 2 && written.len() == link.len()) {
            Some(letter) => (written.iter()).for_each(|&e| letters[e].push(letter.clone())),
            None => note(
                "moves",
                format!(
                    "the link {} of `moves`, which JCZ's `wagon-move` cannot say (it links roads, cities and the monastery, at most 26 links)",
                    link.join(" ")
                ),
            ),
        }
    }
    for (el, letters) in xml.elements.iter_mut().zip(letters) {
        if !letters.is_empty() {
            el.attrs.push(("wagon-move".to_string(), letters.join(" ")));
        }
    }
}

/// What a tile's sides are in JCZ: its river sides, and its bushes (FanCloisterZone's),
/// noting every edge kind JCZ has not.
struct Sides {
    river: Vec<Side>,
    bushes: Vec<Side>,
}

/// The tile's markers (as elements, flags of its monastery or its river group), its group, its
/// monastery and garden; whether it has a Festival place.
fn tile_markers(
    tile: &TileDef,
    vocabulary: &Vocabulary<'_>,
    xml: &mut JczTile,
    note: &mut dyn FnMut(&str, String),
) -> bool {
    let (markers, elements) = (vocabulary.markers, vocabulary.elements);
    let mut monastery = Element {
        name: "monastery".to_string(),
        ..Element::default()
    };
    let mut things = Vec::new();
    let mut festival = false;
    for m in &tile.markers {
        let def = markers.get(m.as_str());
        festival |= def.is_some_and(|d| d.rule == Some(MarkerRule::Festival));
        match vocab::by_marker(m).map(|k| k.written) {
            // Written as the tile's group below, when it has one.
            Some(Written::Group(g)) if tile.group.is_none() => {
                xml.attrs.push(("group".to_string(), g.to_string()));
            }
            Some(Written::Group(_)) => {}
            Some(Written::MonasteryFlag) if elements.has_site(tile, "monastery") => {
                monastery
                    .attrs
                    .push((vocab::jcz_name(m).to_string(), "true".to_string()));
            }
            _ => {
                unknown_marker(m, markers, note);
                things.push(Element {
                    name: vocab::jcz_name(m).to_string(),
                    ..Element::default()
                });
            }
        }
    }
    if let Some(group) = &tile.group {
        match jcz_group(group, tile.start, tile.held_back) {
            Some(g) => xml.attrs.push(("group".to_string(), g.to_string())),
            None => note(
                "group",
                format!("in group `{group}`, which JCZ's river groups cannot say"),
            ),
        }
    }
    if elements.has_site(tile, "monastery") {
        xml.elements.push(monastery);
    }
    if elements.has_site(tile, "garden") {
        xml.elements.push(Element {
            name: "garden".to_string(),
            ..Element::default()
        });
    }
    xml.elements.extend(things);
    festival
}

/// The tile's cities: their sides, pennants and markers.
fn cities_xml(
    tile: &TileDef,
    vocabulary: &Vocabulary<'_>,
    xml: &mut JczTile,
    note: &mut dyn FnMut(&str, String),
) {
    let (markers, elements) = (vocabulary.markers, vocabulary.elements);
    for (city, emblem) in elements.features(tile, "city") {
        let mut attrs = Vec::new();
        let pennants = emblem.map_or(0, |key| city.count(key));
        if pennants > 0 {
            attrs.push(("pennants".to_string(), pennants.to_string()));
        }
        attrs.extend(marker_attrs(&city.markers, markers, note));
        xml.elements.push(Element {
            name: "city".to_string(),
            attrs,
            text: sides_text(&city.ports),
            children: Vec::new(),
        });
    }
}

/// The tile's sides by their edge kinds' `jcz`.
fn sides_of(
    tile: &TileDef,
    vocabulary: &Vocabulary<'_>,
    note: &mut dyn FnMut(&str, String),
) -> Sides {
    let (kinds, elements) = (vocabulary.kinds, vocabulary.elements);
    let edges = tile.edges.as_ref();
    let kind_at = |side: Side| {
        edges.map(|e| match side {
            Side::N => e.n.as_str(),
            Side::E => e.e.as_str(),
            Side::S => e.s.as_str(),
            Side::W => e.w.as_str(),
        })
    };
    let roads = roads_of(tile, elements);
    let mut river = Vec::new();
    let mut bushes = Vec::new();
    for side in Side::ALL {
        let Some(kind) = kind_at(side) else { continue };
        let def = kinds.get(kind);
        let jcz = def.and_then(|d| d.jcz);
        if jcz == Some(JczEdge::River) {
            river.push(side);
        } else if jcz == Some(JczEdge::Bush) && !roads.is_empty() {
            bushes.push(side);
            note(
                "edge kind",
                format!(
                    "side {side} is `{kind}`: written as FanCloisterZone's bush (`bush=\"{side}\"` on a road of the tile); JCZ 5 reads the side as a field",
                    side = side_name(side)
                ),
            );
        } else if !matches!(jcz, Some(JczEdge::Field | JczEdge::Road | JczEdge::City)) {
            // A kind that is a JCZ element of its own (`city`) is written; another is not.
            let written = |kind: &str| elements.is_element(kind);
            let carries = def.map_or("unknown".to_string(), |d| match d.centre.as_str() {
                "none" => {
                    "its features are written as they are (no feature on its centre)".to_string()
                }
                kind if written(kind) => format!("its features are written as they are (a {kind})"),
                kind => format!("it carries a {kind}, which is left out"),
            });
            note(
                "edge kind",
                format!(
                    "side {} is `{kind}`, which JCZ has not; {carries}",
                    side_name(side)
                ),
            );
        }
    }
    Sides { river, bushes }
}

/// The tile's roads: their sides, markers, marketplace and bushes, noting an end JCZ would
/// read back otherwise.
fn roads_xml(
    tile: &TileDef,
    vocabulary: &Vocabulary<'_>,
    festival: bool,
    sides: &Sides,
    xml: &mut JczTile,
    note: &mut dyn FnMut(&str, String),
) {
    let (markers, elements) = (vocabulary.markers, vocabulary.elements);
    let roads = roads_of(tile, elements);
    let (river, bushes) = (&sides.river, &sides.bushes);
    let inferred = infer_end(tile, festival, river.first().copied());
    let bush_road = |side: Side| {
        // The road that ends at the bushes, else the tile's first road: FanCloisterZone ties
        // every bush to a road.
        let own = roads
            .iter()
            .position(|r| r.ports.len() == 1 && r.end.as_deref() == Some(side.centre().name()));
        own.unwrap_or(0)
    };
    // The import reads a tile's only road, of one port, with one bush as running into it.
    let into_bush = match (&roads[..], &bushes[..]) {
        ([road], [side]) if road.ports.len() == 1 => Some(side.centre().name()),
        _ => None,
    };
    let read_back = into_bush.unwrap_or(inferred.name());
    for (r, road) in roads.iter().enumerate() {
        let to_marketplace =
            elements.has_site(tile, "marketplace") && road.end.as_deref() == Some(MARKETPLACE);
        if road.ports.len() == 1
            && let Some(end) = road.end.as_deref()
            && end != read_back
            && !to_marketplace
        {
            note(
                "road end",
                format!(
                    "the road at {} ends at `{end}`; JCZ does not say where a road ends, and it would be read back as `{read_back}`",
                    sides_text(&road.ports),
                ),
            );
        }
        let mut attrs = marker_attrs(&road.markers, markers, note);
        if to_marketplace {
            attrs.push(("marketplace".to_string(), MARKETPLACE_TOKEN.to_string()));
        }
        let tied: Vec<&str> = (bushes.iter())
            .filter(|&&side| bush_road(side) == r)
            .map(|&side| side_name(side))
            .collect();
        if !tied.is_empty() {
            attrs.push(("bush".to_string(), tied.join(" ")));
        }
        xml.elements.push(Element {
            name: "road".to_string(),
            attrs,
            text: sides_text(&road.ports),
            children: Vec::new(),
        });
    }
}

/// The tile's features written as JCZ's `<road>`.
fn roads_of<'t>(tile: &'t TileDef, elements: &'t Elements) -> Vec<&'t tiledef::model::FeatureDef> {
    (elements.features(tile, "road").into_iter())
        .map(|(road, _)| road)
        .collect()
}

/// The tile's fields: their half sides, inner fields, the cities they border, markers and
/// flowers (FanCloisterZone's).
fn fields_xml(
    tile: &TileDef,
    vocabulary: &Vocabulary<'_>,
    xml: &mut JczTile,
    note: &mut dyn FnMut(&str, String),
) {
    let (markers, elements) = (vocabulary.markers, vocabulary.elements);
    let mut inner = 0;
    for (field, _) in elements.features(tile, "field") {
        let mut attrs = Vec::new();
        let cities = elements.ports_under(field, "city");
        if !cities.is_empty() {
            attrs.push(("city".to_string(), sides_text(&cities)));
        }
        attrs.extend(marker_attrs(&field.markers, markers, note));
        let mut text: Vec<String> = field.ports.iter().map(|&p| half_name(p)).collect();
        if field.inner {
            inner += 1;
            text.push("I".repeat(inner));
        }
        if !field.flowers.is_empty() {
            let tokens: Option<Vec<&str>> = field
                .flowers
                .iter()
                .map(|c| vocab::fancz_flowers(c))
                .collect();
            let detail = match tokens {
                Some(tokens) => {
                    let tokens = tokens.join(" ");
                    let detail = format!(
                        "a field's flower groups ({}): written as FanCloisterZone reads them (`flowers=\"{tokens}\"`); JCZ 5 has no flowers",
                        field.flowers.join(", ")
                    );
                    attrs.push(("flowers".to_string(), tokens));
                    detail
                }
                None => format!(
                    "a field's flower groups ({}), in colours FanCloisterZone's flowers (white, blue, violet, yellow) have not",
                    field.flowers.join(", ")
                ),
            };
            note("flowers", detail);
        }
        xml.elements.push(Element {
            name: "field".to_string(),
            attrs,
            text: text.join(" "),
            children: Vec::new(),
        });
    }
}

/// What only notes say of a tile (its name, kinds without an element, its start, drawing
/// hints), and FanCloisterZone's marketplace.
fn tile_notes(
    tile: &TileDef,
    vocabulary: &Vocabulary<'_>,
    xml: &mut JczTile,
    note: &mut dyn FnMut(&str, String),
) {
    let elements = vocabulary.elements;
    if let Some(name) = &tile.name {
        note("name", format!("`{name}` (JCZ tiles have no names)"));
    }
    for key in tile.features.keys() {
        if !elements.writes(key) {
            note(
                "feature kind",
                format!(
                    "its `{key}`: their kind has no JCloisterZone element; exported without them"
                ),
            );
        }
    }
    if elements.has_site(tile, "marketplace") {
        xml.elements.push(Element {
            name: "marketplace".to_string(),
            attrs: vec![("marketplace".to_string(), MARKETPLACE_TOKEN.to_string())],
            ..Element::default()
        });
        note(
            "marketplace",
            format!(
                "a marketplace (Village Life): written as FanCloisterZone reads it (`<marketplace>`, the roads ending there `marketplace=\"{MARKETPLACE_TOKEN}\"`); JCZ 5 has none"
            ),
        );
    }
    if tile.start && tile.group.is_none() {
        note(
            "start",
            "this is the start tile; JCZ's XML does not mark one".to_string(),
        );
    }
    if tile.held_back && tile.group.is_none() {
        note("held_back", "held back in no group".to_string());
    }
    if tile.reconstructed {
        note("reconstructed", "marked as a reconstruction".to_string());
    }
    if let Some(art) = &tile.art {
        let mut what: BTreeMap<&str, usize> = BTreeMap::new();
        if art.image.is_some() {
            what.insert("image", 1);
        }
        if !art.flowers.is_empty() {
            what.insert("flower positions", art.flowers.len());
        }
        if !art.markers.is_empty() {
            what.insert("marker positions", art.markers.len());
        }
        if !what.is_empty() {
            note(
                "art",
                format!(
                    "drawing hints: {}",
                    what.keys().copied().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
}
