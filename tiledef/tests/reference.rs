//! The bundled definitions hold to the facts of the reference (`fixtures/reference-tiles.md` and
//! `fixtures/village-life-fancz.md`, verbatim copies of `../shared/reference/`), tile by tile.
//! Every expected value is read from the reference's markdown tables and prose, never written
//! here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use tiledef::{Feature, LineEnd, MarkerRule, Port, Side, Tile, TileSet};

const REFERENCE: &str = include_str!("fixtures/reference-tiles.md");

/// FanCloisterZone's ids of the Village Life tiles, matched to the rules page's rows (a verbatim
/// copy of `../shared/reference/village-life-fancz.md`).
const FANCZ: &str = include_str!("fixtures/village-life-fancz.md");

/// One `## ` section of the reference: its heading, its prose, its table.
struct Section {
    title: String,
    prose: String,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Section {
    /// The cell of `row` under the column named `column`.
    fn cell<'a>(&self, row: &'a [String], column: &str) -> &'a str {
        let index = self
            .header
            .iter()
            .position(|h| h == column)
            .unwrap_or_else(|| panic!("section `{}` has no column `{column}`", self.title));
        row.get(index).map(String::as_str).unwrap_or("")
    }

    /// The number before " tiles" in the heading, e.g. 10 for "The Festival (10 tiles, …)".
    fn tiles_in_heading(&self) -> usize {
        let words: Vec<&str> = self.title.split_whitespace().collect();
        words
            .windows(2)
            .find(|w| w[1].trim_matches(|c: char| !c.is_alphanumeric()) == "tiles")
            .and_then(|w| w[0].trim_start_matches('(').parse().ok())
            .unwrap_or_else(|| panic!("heading `{}` names no tile count", self.title))
    }
}

fn sections(markdown: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for line in markdown.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            out.push(Section {
                title: title.trim().to_string(),
                prose: String::new(),
                header: Vec::new(),
                rows: Vec::new(),
            });
            continue;
        }
        let Some(section) = out.last_mut() else {
            continue;
        };
        let trimmed = line.trim();
        if !trimmed.starts_with('|') {
            section.prose.push_str(trimmed);
            section.prose.push(' ');
            continue;
        }
        let cells: Vec<String> = trimmed
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect();
        let separator = cells
            .iter()
            .all(|c| !c.is_empty() && c.chars().all(|ch| ch == '-' || ch == ':'));
        if separator {
            // The row before a separator is the table's header.
            section.header = section.rows.pop().unwrap_or_default();
        } else {
            section.rows.push(cells);
        }
    }
    out
}

fn section<'a>(all: &'a [Section], prefix: &str) -> &'a Section {
    all.iter()
        .find(|s| s.title.starts_with(prefix))
        .unwrap_or_else(|| panic!("the reference has no section `{prefix}…`"))
}

/// A feature as the reference states it, comparable independent of order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Shape {
    City {
        ports: BTreeSet<Port>,
        pennants: u32,
    },
    Road {
        ports: BTreeSet<Port>,
    },
    /// A field; no ports means an inner field. Bordered cities are named by their port sets.
    Field {
        ports: BTreeSet<Port>,
        cities: BTreeSet<BTreeSet<Port>>,
    },
    Monastery,
    Garden,
    Festival,
}

fn port(name: &str) -> Port {
    Port::parse(name).unwrap_or_else(|| panic!("the reference names an unknown port `{name}`"))
}

/// Parses a features cell such as `road[W E]; city[N]; field[ENE WNW] borders city at N`.
fn reference_shapes(cell: &str) -> Vec<Shape> {
    let mut shapes = Vec::new();
    let mut borders: Vec<(usize, Vec<Port>)> = Vec::new();
    for item in cell.split(';').map(str::trim).filter(|i| !i.is_empty()) {
        match item {
            "monastery" => shapes.push(Shape::Monastery),
            "garden" => shapes.push(Shape::Garden),
            "festival" => shapes.push(Shape::Festival),
            _ => {
                let (kind, rest) = item
                    .split_once('[')
                    .unwrap_or_else(|| panic!("cannot read feature `{item}`"));
                let (inside, after) = rest
                    .split_once(']')
                    .unwrap_or_else(|| panic!("unclosed `[` in `{item}`"));
                let inner = inside.split_whitespace().any(|p| p == "inner");
                let ports: BTreeSet<Port> = inside
                    .split_whitespace()
                    .filter(|p| *p != "inner")
                    .map(port)
                    .collect();
                assert!(!inner || ports.is_empty(), "`{item}`: inner with ports");
                let after = after.trim();
                match kind {
                    "city" => {
                        let pennants = after.split_whitespace().filter(|w| *w == "pennant").count();
                        assert_eq!(
                            pennants,
                            after.split_whitespace().count(),
                            "cannot read `{after}` in `{item}`"
                        );
                        shapes.push(Shape::City {
                            ports,
                            pennants: pennants as u32,
                        });
                    }
                    "road" => {
                        assert!(after.is_empty(), "cannot read `{after}` in `{item}`");
                        shapes.push(Shape::Road { ports });
                    }
                    "field" => {
                        if !after.is_empty() {
                            let named = after
                                .strip_prefix("borders city at")
                                .unwrap_or_else(|| panic!("cannot read `{after}` in `{item}`"));
                            borders.push((
                                shapes.len(),
                                named.split(',').map(|p| port(p.trim())).collect(),
                            ));
                        }
                        shapes.push(Shape::Field {
                            ports,
                            cities: BTreeSet::new(),
                        });
                    }
                    other => panic!("unknown feature kind `{other}` in `{item}`"),
                }
            }
        }
    }
    // "borders city at N" names the city that owns port N.
    for (index, named) in borders {
        let resolved: BTreeSet<BTreeSet<Port>> = named
            .iter()
            .map(|p| {
                shapes
                    .iter()
                    .find_map(|s| match s {
                        Shape::City { ports, .. } if ports.contains(p) => Some(ports.clone()),
                        _ => None,
                    })
                    .unwrap_or_else(|| panic!("`{cell}`: no city at {p:?}"))
            })
            .collect();
        if let Shape::Field { cities, .. } = &mut shapes[index] {
            *cities = resolved;
        }
    }
    shapes.sort();
    shapes
}

/// The id of a feature's kind: the reference speaks of the bundled kinds by name.
fn kind<'a>(set: &'a TileSet, f: &Feature) -> &'a str {
    &set.kind_of(f).id
}

/// Whether a tile has a feature of the kind `id`.
fn has(set: &TileSet, tile: &Tile, id: &str) -> bool {
    tile.features.iter().any(|f| kind(set, f) == id)
}

/// The features of a loaded tile, in the reference's terms.
fn tile_shapes(set: &TileSet, tile: &Tile) -> Vec<Shape> {
    let ports = |i: usize| -> BTreeSet<Port> { tile.features[i].ports.iter().copied().collect() };
    let mut shapes: Vec<Shape> = tile
        .features
        .iter()
        .enumerate()
        .map(|(i, f)| match kind(set, f) {
            "city" => Shape::City {
                ports: ports(i),
                pennants: f.emblems,
            },
            "road" => Shape::Road { ports: ports(i) },
            "field" => Shape::Field {
                ports: ports(i),
                cities: f.borders.iter().map(|&c| ports(c)).collect(),
            },
            "monastery" => Shape::Monastery,
            "garden" => Shape::Garden,
            other => panic!("{}: a `{other}`, which the reference has not", tile.id),
        })
        .collect();
    if set.has_rule(tile, MarkerRule::Festival) {
        shapes.push(Shape::Festival);
    }
    shapes.sort();
    shapes
}

/// Parses a counts cell such as `C1: 5, C2: 4`.
fn reference_counts(cell: &str) -> BTreeMap<String, u32> {
    cell.split(',')
        .map(|part| {
            let (edition, n) = part
                .split_once(':')
                .unwrap_or_else(|| panic!("cannot read count `{part}`"));
            let n = n
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("cannot read count `{part}`"));
            (edition.trim().to_string(), n)
        })
        .collect()
}

fn set_tiles<'a>(set: &'a TileSet, id: &str) -> Vec<&'a Tile> {
    set.tiles
        .iter()
        .filter(|t| set.sets[t.set].id == id)
        .collect()
}

/// The tile of `set_id` whose aliases hold `alias`; exactly one must.
fn tile_by_alias<'a>(set: &'a TileSet, set_id: &str, alias: &str) -> Result<&'a Tile, String> {
    let found: Vec<&Tile> = set_tiles(set, set_id)
        .into_iter()
        .filter(|t| t.aliases.iter().any(|a| a == alias))
        .collect();
    match found.as_slice() {
        [tile] => Ok(tile),
        [] => Err(format!("no {set_id} tile has alias `{alias}`")),
        many => Err(format!(
            "{} {set_id} tiles have alias `{alias}`",
            many.len()
        )),
    }
}

fn assert_no_problems(what: &str, problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{what}: {} problem(s):\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

#[test]
fn fixtures_are_verbatim_copies_of_the_shared_reference() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tiledef lies inside the workspace");
    for (name, copy, fixture) in [
        ("tiles.md", REFERENCE, "reference-tiles.md"),
        ("village-life-fancz.md", FANCZ, "village-life-fancz.md"),
    ] {
        let shared = repository.join("../shared/reference").join(name);
        if shared.exists() {
            let text = std::fs::read_to_string(&shared).expect("the shared reference is readable");
            assert!(
                text == copy,
                "tiledef/tests/fixtures/{fixture} differs from {}: copy it again",
                shared.display()
            );
        }
    }
}

#[test]
fn base_tiles_match_the_reference_tile_by_tile() {
    let set = tiledef::load_bundled();
    let all = sections(REFERENCE);
    let base = section(&all, "Base game");
    assert!(!base.rows.is_empty(), "the base table has rows");
    let mut problems = Vec::new();
    for row in &base.rows {
        let id = base.cell(row, "reference id");
        let tile = match tile_by_alias(&set, "base", id) {
            Ok(tile) => tile,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        let expected = reference_shapes(base.cell(row, "features"));
        let actual = tile_shapes(&set, tile);
        if expected != actual {
            problems.push(format!(
                "{id} (tile {}): features\n    expected {expected:?}\n    found    {actual:?}",
                tile.id
            ));
        }
        let counts = reference_counts(base.cell(row, "counts"));
        for edition in counts.keys() {
            if set.edition(edition).is_none() {
                problems.push(format!("{id}: edition `{edition}` is not declared"));
            }
        }
        for (e, edition) in set.editions.iter().enumerate() {
            let want = counts.get(&edition.id).copied().unwrap_or(0);
            if tile.counts[e] != want {
                problems.push(format!(
                    "{id} (tile {}): {} count {} but the reference says {want}",
                    tile.id, edition.id, tile.counts[e]
                ));
            }
        }
    }
    let tiles = set_tiles(&set, "base").len();
    if tiles != base.rows.len() {
        problems.push(format!(
            "base has {tiles} tile types, the reference {}",
            base.rows.len()
        ));
    }
    assert_no_problems("base game", &problems);
}

/// `Totals: C1 has 72 tiles and 10 pennants. C2 has …` as edition → noun → number.
fn reference_totals(prose: &str) -> BTreeMap<String, BTreeMap<String, u32>> {
    let start = prose
        .find("Totals:")
        .expect("the base section states its totals")
        + 7;
    let text = &prose[start..];
    let text = &text[..text.find('(').unwrap_or(text.len())];
    let mut totals = BTreeMap::new();
    for sentence in text.split('.') {
        let words: Vec<&str> = sentence
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .collect();
        let Some(has) = words.iter().position(|w| *w == "has") else {
            continue;
        };
        let Some(edition) = has.checked_sub(1).map(|i| words[i].to_string()) else {
            continue;
        };
        let entry: &mut BTreeMap<String, u32> = totals.entry(edition).or_default();
        for pair in words[has..].windows(2) {
            if let Ok(n) = pair[0].parse() {
                entry.insert(pair[1].to_string(), n);
            }
        }
    }
    assert!(!totals.is_empty(), "no totals could be read");
    totals
}

#[test]
fn base_totals_and_start_tile_match_the_reference() {
    let set = tiledef::load_bundled();
    let all = sections(REFERENCE);
    let base = section(&all, "Base game");
    let totals = reference_totals(&base.prose);
    let tiles = set_tiles(&set, "base");
    let mut problems = Vec::new();
    for (edition_id, stated) in &totals {
        let Some(e) = set.edition(edition_id) else {
            problems.push(format!("edition `{edition_id}` is not declared"));
            continue;
        };
        // The reference table itself must add up to its totals, and so must the data.
        let mut from_table: BTreeMap<&str, u32> = BTreeMap::new();
        for row in &base.rows {
            let n = reference_counts(base.cell(row, "counts"))
                .get(edition_id)
                .copied()
                .unwrap_or(0);
            let shapes = reference_shapes(base.cell(row, "features"));
            *from_table.entry("tiles").or_default() += n;
            for shape in &shapes {
                match shape {
                    Shape::City { pennants, .. } => {
                        *from_table.entry("pennants").or_default() += n * pennants
                    }
                    Shape::Garden => *from_table.entry("gardens").or_default() += n,
                    _ => {}
                }
            }
        }
        let mut from_data: BTreeMap<&str, u32> = BTreeMap::new();
        for tile in &tiles {
            let n = tile.counts[e];
            *from_data.entry("tiles").or_default() += n;
            for f in &tile.features {
                *from_data.entry("pennants").or_default() += n * f.emblems;
                if kind(&set, f) == "garden" {
                    *from_data.entry("gardens").or_default() += n;
                }
            }
        }
        for (noun, &want) in stated {
            let table = from_table.get(noun.as_str()).copied();
            let data = from_data.get(noun.as_str()).copied();
            if table != Some(want) {
                problems.push(format!(
                    "{edition_id}: the reference table sums to {table:?} {noun}, its totals say {want}"
                ));
            }
            if data != Some(want) {
                problems.push(format!(
                    "{edition_id}: the data has {data:?} {noun}, the reference says {want}"
                ));
            }
        }
    }
    // "The start tile is one of the D tiles": the start tile is that letter's row.
    let marker = "start tile is one of the ";
    let at = base
        .prose
        .find(marker)
        .expect("the reference names the start tile")
        + marker.len();
    let letter = base.prose[at..].split_whitespace().next().unwrap_or("");
    let row = base
        .rows
        .iter()
        .find(|r| base.cell(r, "letter") == letter)
        .unwrap_or_else(|| panic!("no base row with letter `{letter}`"));
    let start_id = base.cell(row, "reference id");
    let starts: Vec<&Tile> = set_tiles(&set, "base")
        .into_iter()
        .filter(|t| t.start)
        .collect();
    if starts.len() != 1 {
        problems.push(format!("{} base start tiles, not 1", starts.len()));
    }
    let start = &set.tiles[set.start_tile];
    if !start.aliases.iter().any(|a| a == start_id) {
        problems.push(format!(
            "the start tile is {} ({:?}), the reference says {start_id}",
            start.id, start.aliases
        ));
    }
    assert_no_problems("base totals", &problems);
}

#[test]
fn festival_tiles_match_the_reference_tile_by_tile() {
    let set = tiledef::load_bundled();
    let all = sections(REFERENCE);
    let festival = section(&all, "The Festival");
    assert!(festival.title.contains("one of each"));
    let mut problems = Vec::new();
    if festival.rows.len() != festival.tiles_in_heading() {
        problems.push(format!(
            "the reference table has {} rows, its heading says {}",
            festival.rows.len(),
            festival.tiles_in_heading()
        ));
    }
    for row in &festival.rows {
        let id = festival.cell(row, "reference id");
        let tile = match tile_by_alias(&set, "festival", id) {
            Ok(tile) => tile,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        let expected = reference_shapes(festival.cell(row, "features"));
        let actual = tile_shapes(&set, tile);
        if expected != actual {
            problems.push(format!(
                "{id} (tile {}): features\n    expected {expected:?}\n    found    {actual:?}",
                tile.id
            ));
        }
        if tile.counts.iter().any(|&n| n != 1) {
            problems.push(format!("{id}: counts {:?}, not one of each", tile.counts));
        }
    }
    let tiles = set_tiles(&set, "festival").len();
    if tiles != festival.rows.len() {
        problems.push(format!(
            "festival has {tiles} tile types, the reference {}",
            festival.rows.len()
        ));
    }
    assert_no_problems("The Festival", &problems);
}

/// What a Village Life row says a tile carries.
#[derive(Debug, Default, PartialEq, Eq)]
struct Carries {
    flowers: Vec<String>,
    bushes: bool,
    wells: usize,
    monastery: bool,
    garden: bool,
    marketplace: bool,
    continuous_road: bool,
    illustrations: BTreeSet<String>,
}

/// The id of a name in the reference: `light blue` → `light-blue`.
fn id_of(name: &str) -> String {
    name.trim().replace(' ', "-")
}

/// Parses a cell such as `violet + orange flowers, bushes, well, highwaymen`.
fn reference_carries(cell: &str) -> Carries {
    let mut carries = Carries::default();
    for item in cell.split(',').map(str::trim) {
        if let Some(colours) = item.strip_suffix(" flowers") {
            carries.flowers.extend(colours.split('+').map(id_of));
        } else if item == "bushes" {
            carries.bushes = true;
        } else if item == "well" {
            carries.wells += 1;
        } else if item.starts_with("monastery") {
            carries.monastery = true;
        } else if item == "garden" {
            carries.garden = true;
        } else if item == "marketplace" {
            carries.marketplace = true;
        } else if item == "continuous road" {
            carries.continuous_road = true;
        } else {
            carries.illustrations.insert(id_of(item));
        }
    }
    carries.flowers.sort();
    carries
}

fn tile_carries(set: &TileSet, tile: &Tile) -> Carries {
    let mut flowers: Vec<String> = tile.flowers().map(|c| set.colours[c].id.clone()).collect();
    flowers.sort();
    let roads: Vec<_> = tile
        .features
        .iter()
        .filter(|f| kind(set, f) == "road")
        .collect();
    Carries {
        flowers,
        bushes: tile.edges.iter().any(|&k| set.edge_kinds[k].id == "bushes"),
        wells: tile
            .features
            .iter()
            .map(|f| {
                f.markers
                    .iter()
                    .filter(|&&m| set.markers[m].id == "well")
                    .count()
            })
            .sum(),
        monastery: has(set, tile, "monastery"),
        garden: has(set, tile, "garden"),
        marketplace: tile.marketplace,
        // A continuous road runs through the tile and no road stops at a junction.
        continuous_road: roads.iter().any(|r| r.ports.len() == 2)
            && roads.iter().all(|r| r.end != Some(LineEnd::Junction)),
        illustrations: tile
            .markers
            .iter()
            .filter(|&&m| set.markers[m].rule.is_none())
            .map(|&m| set.markers[m].id.clone())
            .collect(),
    }
}

/// The Village Life tile of row `number`: `VL-01` … `VL-24`.
fn village_life_id(number: &str) -> String {
    let n: u32 = number
        .parse()
        .unwrap_or_else(|_| panic!("row number `{number}`"));
    format!("VL-{n:02}")
}

#[test]
fn village_life_tiles_carry_what_the_reference_lists() {
    let set = tiledef::load_bundled();
    let all = sections(REFERENCE);
    let vl = section(&all, "Village Life");
    assert!(vl.title.contains("one of each"));
    let mut problems = Vec::new();
    if vl.rows.len() != vl.tiles_in_heading() {
        problems.push(format!(
            "the reference table has {} rows, its heading says {}",
            vl.rows.len(),
            vl.tiles_in_heading()
        ));
    }
    let tiles = set_tiles(&set, "village-life");
    if tiles.len() != vl.rows.len() {
        problems.push(format!(
            "village-life has {} tile types, the reference {}",
            tiles.len(),
            vl.rows.len()
        ));
    }
    for row in &vl.rows {
        let id = village_life_id(vl.cell(row, "#"));
        let Some(tile) = tiles.iter().find(|t| t.id == id) else {
            problems.push(format!("no tile {id}"));
            continue;
        };
        let expected = reference_carries(vl.cell(row, "carries"));
        let mut actual = tile_carries(&set, tile);
        // "Continuous road" is only stated where it sets a tile apart; elsewhere it is free.
        if !expected.continuous_road {
            actual.continuous_road = false;
        }
        if expected != actual {
            problems.push(format!(
                "{id}: carries\n    expected {expected:?}\n    found    {actual:?}"
            ));
        }
        if set.has_rule(tile, MarkerRule::Festival) {
            problems.push(format!("{id}: carries the Festival place"));
        }
        if tile.counts.iter().any(|&n| n != 1) {
            problems.push(format!("{id}: counts {:?}, not one of each", tile.counts));
        }
    }
    // "Every tile can be placed in a base game": some edge meets an edge of a base tile.
    let base_kinds: BTreeSet<usize> = set_tiles(&set, "base")
        .iter()
        .flat_map(|t| t.edges)
        .collect();
    for tile in &tiles {
        let placeable = tile.edges.iter().any(|&k| {
            base_kinds
                .iter()
                .any(|&b| set.meeting(k, b) != tiledef::Meeting::Forbidden)
        });
        if !placeable {
            problems.push(format!("{}: no edge meets a base-game edge", tile.id));
        }
    }
    // "Four flower colours: white, orange, violet, light blue."
    let marker = "flower colours:";
    let at = vl
        .prose
        .find(marker)
        .expect("the reference names the colours")
        + marker.len();
    let list = &vl.prose[at..];
    let list = &list[..list.find('.').unwrap_or(list.len())];
    let colours: BTreeSet<String> = list.split(',').map(id_of).collect();
    for colour in &colours {
        if !set.colours.iter().any(|c| &c.id == colour) {
            problems.push(format!("colour `{colour}` is not declared"));
        }
    }
    for tile in &tiles {
        for c in tile.flowers() {
            if !colours.contains(&set.colours[c].id) {
                problems.push(format!(
                    "{}: colour `{}` is not a Village Life colour",
                    tile.id, set.colours[c].id
                ));
            }
        }
    }
    assert_no_problems("Village Life", &problems);
}

/// Bushes edges whose two halves may share a field, with why (tile id, side, reason). Each entry
/// must still be undivided, so a fixed tile cannot keep its excuse.
const UNDIVIDED_BUSHES: &[(&str, Side, &str)] = &[];

/// "Two bushes edges divide the fields on either side, as two roads do": across an edge facing
/// halves join pairwise, so the division must lie in the tiles' own fields. Every bushes edge's
/// centre belongs to no feature and its halves to two different fields of the tile.
#[test]
fn village_life_bushes_edges_have_their_halves_in_different_fields() {
    let set = tiledef::load_bundled();
    let all = sections(REFERENCE);
    let vl = section(&all, "Village Life");
    let tiles = set_tiles(&set, "village-life");
    let mut problems = Vec::new();
    let mut undivided = BTreeSet::new();
    let mut edges = 0;
    for tile in &tiles {
        for side in Side::ALL {
            if set.edge_kinds[tile.edge(side)].id != "bushes" {
                continue;
            }
            edges += 1;
            let [first, centre, second] = side.ports();
            if let Some(f) = tile.feature_at(centre) {
                problems.push(format!(
                    "{}: the bushes centre `{centre}` is in a {}",
                    tile.id,
                    kind(&set, &tile.features[f])
                ));
            }
            let field = |port: Port| {
                tile.feature_at(port)
                    .filter(|&f| kind(&set, &tile.features[f]) == "field")
            };
            match (field(first), field(second)) {
                (Some(a), Some(b)) if a != b => {}
                (Some(_), Some(_)) => {
                    undivided.insert((tile.id.clone(), side));
                }
                _ => problems.push(format!(
                    "{}: the halves `{first}` and `{second}` of its bushes edge are not both fields",
                    tile.id
                )),
            }
        }
    }
    for &(id, side, why) in UNDIVIDED_BUSHES {
        assert!(
            !why.trim().is_empty(),
            "{id}: an exception needs its reason"
        );
        if !undivided.remove(&(id.to_string(), side)) {
            problems.push(format!(
                "{id}: listed as an undivided bushes edge ({}), but it is divided or not bushes",
                side.name()
            ));
        }
    }
    for (id, side) in &undivided {
        problems.push(format!(
            "{id}: both halves of the bushes edge `{}` are in one field",
            side.name()
        ));
    }
    // Every row that carries bushes has at least one bushes edge.
    let rows = vl
        .rows
        .iter()
        .filter(|row| reference_carries(vl.cell(row, "carries")).bushes)
        .count();
    assert!(
        rows > 0 && edges >= rows,
        "{edges} bushes edges for {rows} rows with bushes"
    );
    assert_no_problems("Village Life bushes", &problems);
}

/// A FanCloisterZone id such as `rrbr.wf2f3`, read.
struct Pattern {
    id: String,
    edges: Vec<char>,
    marketplace: bool,
    garden: bool,
    wells: usize,
    groups: Vec<u32>,
}

fn pattern(id: &str) -> Option<Pattern> {
    let (edges, extras) = id.split_once('.')?;
    let edges: Vec<char> = edges.chars().collect();
    if edges.len() != 4 {
        return None;
    }
    let mut p = Pattern {
        id: id.to_string(),
        edges,
        marketplace: false,
        garden: false,
        wells: 0,
        groups: Vec::new(),
    };
    let mut chars = extras.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            'm' => p.marketplace = true,
            'g' => p.garden = true,
            'w' => p.wells += 1,
            'f' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                p.groups.push(digits.parse().ok()?);
            }
            _ => return None,
        }
    }
    Some(p)
}

/// Every injective assignment of group numbers to colours under which each pattern's groups are
/// exactly its tile's flowers.
fn colour_assignments(
    numbers: &[u32],
    colours: &[String],
    tiles: &[(Vec<u32>, Vec<String>)],
) -> Vec<BTreeMap<u32, String>> {
    fn extend(
        numbers: &[u32],
        colours: &[String],
        chosen: &mut BTreeMap<u32, String>,
        tiles: &[(Vec<u32>, Vec<String>)],
        out: &mut Vec<BTreeMap<u32, String>>,
    ) {
        let Some((&n, rest)) = numbers.split_first() else {
            let fits = tiles.iter().all(|(groups, flowers)| {
                let mut mapped: Vec<String> = groups.iter().map(|g| chosen[g].clone()).collect();
                mapped.sort();
                &mapped == flowers
            });
            if fits {
                out.push(chosen.clone());
            }
            return;
        };
        for colour in colours {
            if chosen.values().any(|c| c == colour) {
                continue;
            }
            chosen.insert(n, colour.clone());
            extend(rest, colours, chosen, tiles, out);
            chosen.remove(&n);
        }
    }
    let mut out = Vec::new();
    extend(numbers, colours, &mut BTreeMap::new(), tiles, &mut out);
    out
}

#[test]
fn known_fancloisterzone_layouts_are_kept_and_the_rest_are_reconstructed() {
    let set = tiledef::load_bundled();
    let all = sections(REFERENCE);
    let vl = section(&all, "Village Life");
    let prose = &vl.prose;
    // The legend "(edges N E S W; c city, r road, f field, b bushes; …)" gives the edge kinds.
    let legend_at = prose
        .find("edges N E S W;")
        .expect("the reference explains the ids")
        + 14;
    let legend = &prose[legend_at..];
    let legend = &legend[..legend.find(';').unwrap_or(legend.len())];
    let kinds: BTreeMap<char, String> = legend
        .split(',')
        .filter_map(|pair| {
            let (letter, kind) = pair.trim().split_once(' ')?;
            Some((letter.chars().next()?, kind.trim().to_string()))
        })
        .collect();
    assert!(kinds.len() >= 4, "edge legend read: {kinds:?}");
    let patterns: Vec<Pattern> = prose
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(pattern)
        .filter(|p| p.edges.iter().all(|c| kinds.contains_key(c)))
        .collect();
    assert!(
        !patterns.is_empty(),
        "no FanCloisterZone ids in the reference"
    );

    let tiles = set_tiles(&set, "village-life");
    let mut problems = Vec::new();
    let mut known = BTreeSet::new();
    let mut grouped = Vec::new();
    for p in &patterns {
        let tile = match tile_by_alias(&set, "village-life", &p.id) {
            Ok(tile) => tile,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        known.insert(tile.id.clone());
        if tile.reconstructed {
            problems.push(format!(
                "{} ({}) is known, not reconstructed",
                tile.id, p.id
            ));
        }
        let edges: Vec<&str> = tile
            .edges
            .iter()
            .map(|&k| set.edge_kinds[k].id.as_str())
            .collect();
        let want: Vec<&str> = p.edges.iter().map(|c| kinds[c].as_str()).collect();
        if edges != want {
            problems.push(format!(
                "{} ({}): edges {edges:?}, not {want:?}",
                tile.id, p.id
            ));
        }
        let carries = tile_carries(&set, tile);
        if (carries.marketplace, carries.garden, carries.wells)
            != (p.marketplace, p.garden, p.wells)
        {
            problems.push(format!(
                "{} ({}): marketplace {}, garden {}, wells {}",
                tile.id, p.id, carries.marketplace, carries.garden, carries.wells
            ));
        }
        if carries.flowers.len() != p.groups.len() {
            problems.push(format!(
                "{} ({}): {} flower groups, not {}",
                tile.id,
                p.id,
                carries.flowers.len(),
                p.groups.len()
            ));
        }
        grouped.push((p.groups.clone(), carries.flowers));
    }
    for tile in &tiles {
        if !known.contains(&tile.id) && !tile.reconstructed {
            problems.push(format!(
                "{} has no known layout but is not marked reconstructed",
                tile.id
            ));
        }
    }
    // Each group number fN stands for one colour across all known layouts.
    let numbers: BTreeSet<u32> = grouped
        .iter()
        .flat_map(|(g, _)| g.iter().copied())
        .collect();
    let numbers: Vec<u32> = numbers.into_iter().collect();
    let colours: Vec<String> = set.colours.iter().map(|c| c.id.clone()).collect();
    let assignments = colour_assignments(&numbers, &colours, &grouped);
    if assignments.len() != 1 {
        problems.push(format!(
            "the known layouts should fix one colour per group number; found {assignments:?}"
        ));
    }
    assert_no_problems("FanCloisterZone layouts", &problems);
}

#[test]
fn the_reference_reader_understands_every_row() {
    let all = sections(REFERENCE);
    for prefix in ["Base game", "The Festival"] {
        let s = section(&all, prefix);
        for row in &s.rows {
            let shapes = reference_shapes(s.cell(row, "features"));
            assert!(!shapes.is_empty(), "{prefix}: empty row {row:?}");
        }
    }
    let vl = section(&all, "Village Life");
    for row in &vl.rows {
        let carries = reference_carries(vl.cell(row, "carries"));
        assert!(
            !carries.flowers.is_empty(),
            "every Village Life tile has flowers: {row:?}"
        );
    }
    assert_eq!(
        reference_shapes("city[N W] pennant; field[inner] borders city at W"),
        vec![
            Shape::City {
                ports: [Port::N, Port::W].into(),
                pennants: 1
            },
            Shape::Field {
                ports: BTreeSet::new(),
                cities: [BTreeSet::from([Port::N, Port::W])].into()
            },
        ]
    );
}

#[test]
fn bundled_definitions_load_without_warnings() {
    let report = tiledef::load(tiledef::bundled());
    let messages: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| format!("{:?} {}: {}", d.severity, d.code, d.message))
        .collect();
    assert_no_problems("bundled definitions", &messages);
    assert!(report.tileset.is_some());
}

/// The codes a legend of the FanCloisterZone page explains, e.g. "`c` city, `r` road" or "`w` a
/// well": code → name (the last explanation of a code wins, so "`f1` … `f4` a flower group
/// (`f1` white, …)" gives f1 → white).
fn legend(text: &str) -> BTreeMap<String, String> {
    let pieces: Vec<&str> = text.split('`').collect();
    let mut out = BTreeMap::new();
    for pair in pieces[1..].chunks(2) {
        let [code, after] = pair else { continue };
        let name = after
            .split([',', ';', '(', '\u{2014}', '\u{2026}', '.'])
            .next()
            .unwrap_or("")
            .trim();
        let name = name.strip_prefix("a ").unwrap_or(name).trim();
        if !name.is_empty() {
            out.insert(code.to_string(), name.to_string());
        }
    }
    out
}

/// What a FanCloisterZone id such as `fcrc.f3+` says of a tile, in the bundled data's terms.
#[derive(Debug, PartialEq, Eq)]
struct FanczTile {
    edges: Vec<String>,
    flowers: Vec<String>,
    wells: usize,
    pennants: u32,
    monastery: bool,
    garden: bool,
    marketplace: bool,
}

fn read_fancz_id(
    id: &str,
    edges: &BTreeMap<String, String>,
    contents: &BTreeMap<String, String>,
) -> FanczTile {
    let (edge_codes, extras) = id
        .split_once('.')
        .unwrap_or_else(|| panic!("FanCZ id `{id}` has no `.`"));
    let edges: Vec<String> = edge_codes
        .chars()
        .map(|c| {
            edges
                .get(&c.to_string())
                .unwrap_or_else(|| panic!("`{id}`: edge code `{c}` is not in the legend"))
                .clone()
        })
        .collect();
    assert_eq!(edges.len(), 4, "`{id}`: four edges");
    let mut tile = FanczTile {
        edges,
        flowers: Vec::new(),
        wells: 0,
        pennants: 0,
        monastery: false,
        garden: false,
        marketplace: false,
    };
    let mut chars = extras.chars().peekable();
    while let Some(c) = chars.next() {
        let mut code = c.to_string();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            code.push(*d);
            chars.next();
        }
        let meaning = contents
            .get(&code)
            .unwrap_or_else(|| panic!("`{id}`: content code `{code}` is not in the legend"));
        match meaning.as_str() {
            "well" => tile.wells += 1,
            "pennant" => tile.pennants += 1,
            "cloister" => tile.monastery = true,
            "garden" => tile.garden = true,
            "marketplace" => tile.marketplace = true,
            colour => tile.flowers.push(id_of(colour)),
        }
    }
    tile.flowers.sort();
    tile
}

fn fancz_of(set: &TileSet, tile: &Tile) -> FanczTile {
    let carries = tile_carries(set, tile);
    FanczTile {
        edges: tile
            .edges
            .iter()
            .map(|&k| set.edge_kinds[k].id.clone())
            .collect(),
        flowers: carries.flowers,
        wells: carries.wells,
        pennants: tile.features.iter().map(|f| f.emblems).sum(),
        monastery: carries.monastery,
        garden: carries.garden,
        marketplace: carries.marketplace,
    }
}

/// Every Village Life tile has the edges and contents of its FanCloisterZone id, which it keeps
/// as an alias; where the page gives a row two candidates, the rows share them one to one.
#[test]
fn village_life_tiles_have_fancloisterzone_edges_and_contents() {
    let set = tiledef::load_bundled();
    let all = sections(&format!("## FanCloisterZone\n{FANCZ}"));
    let page = &all[0];
    let prose = &page.prose;
    let edges_at = prose.find("edges, in the order").expect("an edge legend");
    let contents_at = prose.find("contents:").expect("a contents legend");
    let edge_legend = legend(&prose[edges_at..contents_at]);
    let contents_end = prose[contents_at..]
        .find("This edge reading")
        .map_or(prose.len(), |i| contents_at + i);
    let content_legend = legend(&prose[contents_at..contents_end]);
    assert!(edge_legend.len() >= 4, "edge legend read: {edge_legend:?}");
    assert!(
        content_legend.len() >= 9,
        "contents legend read: {content_legend:?}"
    );
    assert!(!page.rows.is_empty(), "the FanCZ table has rows");
    let tiles = set_tiles(&set, "village-life");
    let mut problems = Vec::new();
    let mut candidates_all = BTreeSet::new();
    let mut chosen_all = Vec::new();
    for row in &page.rows {
        let id = village_life_id(page.cell(row, "#"));
        let candidates: Vec<&str> = page
            .cell(row, "FanCZ id")
            .split(" or ")
            .map(str::trim)
            .collect();
        candidates_all.extend(candidates.iter().map(|c| c.to_string()));
        let Some(tile) = tiles.iter().find(|t| t.id == id) else {
            problems.push(format!("no tile {id}"));
            continue;
        };
        let chosen: Vec<&str> = candidates
            .iter()
            .copied()
            .filter(|c| tile.aliases.iter().any(|a| a == c))
            .collect();
        let [fancz_id] = chosen.as_slice() else {
            problems.push(format!(
                "{id}: aliases {:?} should hold exactly one of {candidates:?}",
                tile.aliases
            ));
            continue;
        };
        chosen_all.push(fancz_id.to_string());
        let want = read_fancz_id(fancz_id, &edge_legend, &content_legend);
        let found = fancz_of(&set, tile);
        if want != found {
            problems.push(format!(
                "{id} ({fancz_id}):\n    expected {want:?}\n    found    {found:?}"
            ));
        }
    }
    let chosen_set: BTreeSet<String> = chosen_all.iter().cloned().collect();
    if chosen_set.len() != chosen_all.len() {
        problems.push(format!("a FanCZ id is taken by two tiles: {chosen_all:?}"));
    }
    if chosen_set != candidates_all {
        let unused: Vec<&String> = candidates_all.difference(&chosen_set).collect();
        problems.push(format!("FanCZ ids no tile takes: {unused:?}"));
    }
    if page.rows.len() != tiles.len() {
        problems.push(format!(
            "the FanCZ table has {} rows, village-life {} tiles",
            page.rows.len(),
            tiles.len()
        ));
    }
    assert_no_problems("FanCloisterZone ids", &problems);
}
