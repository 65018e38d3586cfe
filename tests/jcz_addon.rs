//! End-to-end tests of `tilekit export jcz-addon`: the package as JCZ's client reads it (one
//! folder, every path it names present, every tile and feature drawn, each clip on its tile
//! around its point), its XML imported back to the same tiles, and the refusals.

mod common;

use common::{root, scratch, text, tilekit};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tilekit_jcz::xml::{Element, JczFile};
use tilekit_jcz::zip;

const FAN: &str = "tests/fixtures/jcz-addon/fan.toml";

/// The archive's files by path.
fn unpack(path: &Path) -> BTreeMap<String, Vec<u8>> {
    let bytes = std::fs::read(path).expect("the add-on was written");
    let entries = zip::read(&bytes).expect("the add-on is a zip archive");
    entries.into_iter().map(|e| (e.path, e.bytes)).collect()
}

fn json(files: &BTreeMap<String, Vec<u8>>, path: &str) -> Value {
    let bytes = files
        .get(path)
        .unwrap_or_else(|| panic!("{path} is in the add-on"));
    serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Exports `args` to `<scratch>/<name>.jca` and returns the add-on's path.
fn export(dir: &Path, name: &str, args: &[&str]) -> std::path::PathBuf {
    let out = dir.join(format!("{name}.jca"));
    let mut all = vec!["export", "jcz-addon"];
    all.extend_from_slice(args);
    all.extend(["--out", out.to_str().unwrap()]);
    let run = tilekit(&all);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    out
}

/// JCZ's name of a follower place of the XML: `City/NW`, `Field/EL.WR`, `Monastery/I`.
fn jcz_key(el: &Element) -> Option<String> {
    let kind = match el.name.as_str() {
        "city" => "City",
        "road" => "Road",
        "field" => "Field",
        "monastery" => "Monastery",
        "garden" => "Garden",
        _ => return None,
    };
    let tokens: Vec<&str> = el.text.split_whitespace().collect();
    let sides = ["N", "E", "S", "W"];
    let halves = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];
    // JCZ's `Location` names, by mask of N 1, E 2, S 4, W 8.
    let names = [
        "", "N", "E", "NE", "S", "NS", "SE", "_W", "W", "NW", "WE", "_S", "SW", "_E", "_N", "NWSE",
    ];
    let location = if tokens.is_empty() {
        "I".to_string()
    } else if tokens.iter().all(|t| sides.contains(t)) {
        let mask = tokens
            .iter()
            .map(|t| 1 << sides.iter().position(|s| s == t).unwrap())
            .fold(0, |m, b| m | b);
        names[mask].to_string()
    } else if tokens.iter().all(|t| halves.contains(t)) {
        let ordered: Vec<&str> = halves.into_iter().filter(|h| tokens.contains(h)).collect();
        ordered.join(".")
    } else {
        tokens.join(".")
    };
    Some(format!("{kind}/{location}"))
}

/// The closed rings of an SVG path of `M`, `H`, `V`, `L` and `Z`.
fn rings(d: &str) -> Vec<Vec<(f64, f64)>> {
    let mut spaced = String::new();
    for c in d.chars() {
        if c.is_ascii_alphabetic() {
            spaced.push_str(&format!(" {c} "));
        } else {
            spaced.push(c);
        }
    }
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    let num = |k: usize| -> f64 { tokens[k].parse().unwrap() };
    let (mut rings, mut ring) = (Vec::new(), Vec::new());
    let (mut x, mut y, mut k) = (0.0, 0.0, 0);
    while k < tokens.len() {
        match tokens[k] {
            "M" | "L" => {
                (x, y, k) = (num(k + 1), num(k + 2), k + 3);
                if tokens[k - 3] == "M" {
                    ring.clear();
                }
            }
            "H" => (x, k) = (num(k + 1), k + 2),
            "V" => (y, k) = (num(k + 1), k + 2),
            "Z" => {
                rings.push(std::mem::take(&mut ring));
                k += 1;
                continue;
            }
            other => panic!("unexpected `{other}` in {d}"),
        }
        ring.push((x, y));
    }
    rings
}

/// The nonzero winding number of the rings around a point.
fn winding(rings: &[Vec<(f64, f64)>], (px, py): (f64, f64)) -> i32 {
    let mut w = 0;
    for ring in rings {
        for k in 0..ring.len() {
            let ((ax, ay), (bx, by)) = (ring[k], ring[(k + 1) % ring.len()]);
            if (ay <= py) != (by <= py) && ax + (py - ay) / (by - ay) * (bx - ax) > px {
                w += if by > ay { 1 } else { -1 };
            }
        }
    }
    w
}

/// Checks what JCZ's client reads; returns the add-on's folder and its XML.
fn check_package(files: &BTreeMap<String, Vec<u8>>, id: &str) -> JczFile {
    // One folder, named by the id.
    assert!(
        files.keys().all(|p| p.starts_with(&format!("{id}/"))),
        "{:?}",
        files.keys()
    );
    let addon = json(files, &format!("{id}/jcz-addon.json"));
    assert!(addon["title"].is_string(), "{addon}");
    assert!(addon["version"].is_u64(), "an integer version: {addon}");
    assert!(addon["minimumJczVersion"].is_string(), "{addon}");
    let expansions = addon["expansions"].as_array().unwrap();
    let artworks = addon["artworks"].as_array().unwrap();
    assert_eq!((expansions.len(), artworks.len()), (1, 1), "{addon}");
    let xml_path = format!("{id}/{}", expansions[0].as_str().unwrap());
    let xml_text = String::from_utf8(files[&xml_path].clone()).unwrap();
    let xml = tilekit_jcz::xml::parse(&xml_path, &xml_text).expect("the XML reads");
    let art_dir = format!("{id}/{}", artworks[0].as_str().unwrap());
    let artwork = json(files, &format!("{art_dir}/artwork.json"));
    let size = artwork["tileSize"].as_u64().unwrap();
    let mut tiles = serde_json::Map::new();
    for include in artwork["tilesInclude"].as_array().unwrap() {
        let path = format!("{art_dir}/{}", include.as_str().unwrap());
        tiles.extend(json(files, &path).as_object().unwrap().clone());
    }
    for (tile, art) in &tiles {
        let image = format!("{art_dir}/{}", art["image"].as_str().unwrap());
        let png = files
            .get(&image)
            .unwrap_or_else(|| panic!("{tile}: {image}"));
        // The PNG's width and height (IHDR) are the artwork's tile size.
        let wh = |at: usize| u64::from(u32::from_be_bytes(png[at..at + 4].try_into().unwrap()));
        assert_eq!((wh(16), wh(20)), (size, size), "{tile}");
        for (key, feature) in art["features"].as_object().unwrap() {
            let rings = rings(feature["clip"].as_str().unwrap());
            let on_tile = |&(x, y): &(f64, f64)| {
                (0.0..=size as f64).contains(&x) && (0.0..=size as f64).contains(&y)
            };
            assert!(
                rings.iter().flatten().all(on_tile),
                "{tile} {key}: clip off the tile"
            );
            let point = feature["point"].as_array().unwrap();
            let point = (point[0].as_f64().unwrap(), point[1].as_f64().unwrap());
            assert!(
                winding(&rings, point) != 0,
                "{tile} {key}: point outside its clip"
            );
        }
    }
    // Every tile of the XML has its picture and every follower place its clip and point.
    for tile in &xml.tiles {
        let features = tiles[&tile.id]["features"].as_object().unwrap();
        let keys: Vec<String> = tile.elements.iter().filter_map(jcz_key).collect();
        for key in &keys {
            assert!(
                features.contains_key(key),
                "{} {key}: {features:?}",
                tile.id
            );
        }
        assert_eq!(keys.len(), features.len(), "{}", tile.id);
    }
    xml
}

#[test]
fn the_bundled_sets_make_an_addon_jcz_installs() {
    let dir = scratch("jcz-addon-bundled");
    let out = export(&dir, "tilekit-sets", &["definitions"]);
    let files = unpack(&out);
    let xml = check_package(&files, "tilekit-sets");
    // Titled after every set it carries, not the one JCZ lacks.
    let title = json(&files, "tilekit-sets/jcz-addon.json")["title"].to_string();
    for name in [
        "Village Life",
        "Carcassonne",
        "The River II",
        "Traders & Builders",
    ] {
        assert!(title.contains(name), "{title}");
    }
    // JCZ ships base, the Rivers, Inns & Cathedrals, Traders & Builders and the Festival: only
    // Village Life is defined, but every tile is drawn.
    assert!(
        xml.tiles.iter().all(|t| t.id.starts_with("VL-")),
        "{:?}",
        xml.tiles
    );
    let tiles = json(&files, "tilekit-sets/artwork/tiles.json");
    let base = &tiles["BA/RCr"]["features"];
    // Named as JCZ's own artwork names them.
    let keys: Vec<&String> = base.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["City/N", "Field/EL.WR", "Field/ER.SL.SR.WL", "Road/WE"]
    );
    let expansion = &xml.others[0].0;
    assert_eq!(expansion.name, "expansion");
    assert_eq!(expansion.attr("id"), Some("VILLAGE_LIFE"));
    // FanCloisterZone's Village Life rules are switched on.
    let implied: Vec<Option<&str>> = (expansion.children.iter())
        .filter(|c| c.name == "implies")
        .map(|c| c.attr("element"))
        .collect();
    assert_eq!(implied, [Some("flowers"), Some("marketplace")]);
    assert!(tiles.as_object().unwrap().len() > 100);
    // Village Life's XML imports back: its 24 tiles, named as its expansion.
    let back = import_back(&dir, "village-life", &files["tilekit-sets/tiles.xml"]);
    let vl = std::fs::read_to_string(back.join("village-life.toml")).unwrap();
    assert!(vl.contains("name = \"Village Life\""), "{vl}");
    assert_eq!(vl.matches("[[tile]]").count(), 24);
    // Same input, same bytes.
    let again = export(&dir, "tilekit-sets-again", &["definitions"]);
    let (a, b) = (unpack(&out), unpack(&again));
    let strip = |m: BTreeMap<String, Vec<u8>>| -> Vec<Vec<u8>> { m.into_values().collect() };
    assert_eq!(strip(a), strip(b));
}

/// A tile's layout in names, so that two loads compare: features, edges, counts, markers.
fn layouts(ts: &tiledef::TileSet, set: &str) -> BTreeMap<String, String> {
    let marker = |m: &usize| ts.markers[*m].id.clone();
    let mut out = BTreeMap::new();
    for t in ts.tiles.iter().filter(|t| ts.sets[t.set].id == set) {
        let mut features: Vec<String> = (t.features.iter())
            .map(|f| {
                let mut ports: Vec<String> = f.ports.iter().map(|p| p.to_string()).collect();
                ports.sort();
                let markers: Vec<String> = f.markers.iter().map(marker).collect();
                let cities: Vec<String> = (f.borders.iter())
                    .map(|&c| t.features[c].ports[0].to_string())
                    .collect();
                format!(
                    "{} {ports:?} pennants {} end {:?} cities {cities:?} markers {markers:?}",
                    ts.kind_of(f).id,
                    f.emblems,
                    f.end.map(|e| ts.end_name(e))
                )
            })
            .collect();
        features.sort();
        let edges: Vec<&str> = t
            .edges
            .iter()
            .map(|&e| ts.edge_kinds[e].id.as_str())
            .collect();
        let markers: Vec<String> = t.markers.iter().map(marker).collect();
        let layout = format!(
            "{edges:?} {features:#?} markers {markers:?} counts {:?}",
            t.counts
        );
        out.insert(t.id.clone(), layout);
    }
    out
}

fn load(paths: &[&Path]) -> tiledef::TileSet {
    let named: Vec<std::path::PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
    let named = tiledef::read_paths(&named).expect("the files read");
    let mut sources = tiledef::bundled_requirements(named.iter().map(|s| s.text.as_str()));
    sources.extend(named);
    tiledef::load(sources).tileset.expect("the sets validate")
}

#[test]
fn a_fan_sets_addon_imports_back_to_the_same_tiles() {
    let dir = scratch("jcz-addon-fan");
    let out = export(
        &dir,
        "fan",
        &[FAN, "--title", "A Fan Set", "--addon-version", "3"],
    );
    let files = unpack(&out);
    let xml = check_package(&files, "fan");
    let addon = json(&files, "fan/jcz-addon.json");
    assert_eq!(
        (&addon["title"], &addon["version"]),
        (&Value::from("A Fan Set"), &Value::from(3))
    );
    // The expansion switches on the inn, the cathedral and the goods.
    let expansion = &xml.others[0].0;
    let children: Vec<String> = (expansion.children.iter())
        .map(|c| format!("{} {:?} {}", c.name, c.attrs, c.text))
        .collect();
    for want in [
        "title [] A Fan Set",
        r#"ref [("tile-set", "fan")] "#,
        r#"implies [("element", "cathedral")] "#,
        r#"implies [("element", "inn")] "#,
        r#"implies [("element", "traders")] "#,
    ] {
        assert!(children.iter().any(|c| c == want), "{want}: {children:#?}");
    }
    // Only the fan set's tiles: base and the expansions it requires are JCZ's.
    assert_eq!(xml.tiles.len(), 5);
    // The XML imports back to the same tiles, under the expansion's title.
    let back = import_back(&dir, "fan", &files["fan/tiles.xml"]);
    let imported = std::fs::read_to_string(back.join("fan.toml")).unwrap();
    assert!(imported.contains("name = \"A Fan Set\""), "{imported}");
    let theirs = load(&[&back]);
    let ours = load(&[&root().join(FAN)]);
    assert_eq!(layouts(&theirs, "fan"), layouts(&ours, "fan"));
}

#[test]
fn outputs_that_cannot_be_an_addon_are_refused() {
    let dir = scratch("jcz-addon-refused");
    let run = |out: &str, extra: &[&str]| {
        let mut args = vec!["export", "jcz-addon", FAN, "--out", out];
        args.extend_from_slice(extra);
        tilekit(&args)
    };
    // A folder, an input, JCZ's own add-on's id, an unknown set: usage errors, nothing written.
    let folder = run(dir.to_str().unwrap(), &[]);
    assert_eq!(folder.status.code(), Some(2), "{}", text(&folder.stderr));
    let input = run(FAN, &[]);
    assert_eq!(input.status.code(), Some(2), "{}", text(&input.stderr));
    assert!(
        text(&input.stderr).contains("refusing to write"),
        "{}",
        text(&input.stderr)
    );
    let own = run(dir.join("jcz.jca").to_str().unwrap(), &[]);
    assert_eq!(own.status.code(), Some(2), "{}", text(&own.stderr));
    assert!(
        text(&own.stderr).contains("add-on's id"),
        "{}",
        text(&own.stderr)
    );
    let unknown = run(dir.join("x.jca").to_str().unwrap(), &["--sets", "nope"]);
    assert_eq!(unknown.status.code(), Some(2), "{}", text(&unknown.stderr));
    assert!(
        text(&unknown.stderr).contains("no set `nope`"),
        "{}",
        text(&unknown.stderr)
    );
    // A reprint of a tile JCZ would not have.
    let reprint = "tests/fixtures/jcz-addon/reprint.toml";
    let out = dir.join("reprint.jca");
    let alone = tilekit(&[
        "export",
        "jcz-addon",
        FAN,
        reprint,
        "--sets",
        "reprint",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(alone.status.code(), Some(2), "{}", text(&alone.stderr));
    assert!(
        text(&alone.stderr).contains("`FAN-1`"),
        "{}",
        text(&alone.stderr)
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let both = export(&dir, "both", &[FAN, reprint]);
    let xml = check_package(&unpack(&both), "both");
    assert_eq!(xml.sets.len(), 2);
}

/// Writes an add-on's XML as `<dir>/<name>.xml` and imports it into `<dir>/back` with
/// `tilekit import jcz`, which must succeed; the folder it wrote.
fn import_back(dir: &Path, name: &str, xml: &[u8]) -> PathBuf {
    let xml_file = dir.join(format!("{name}.xml"));
    std::fs::write(&xml_file, xml).unwrap();
    let back = dir.join("back");
    let import = tilekit(&[
        "import",
        "jcz",
        xml_file.to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert_eq!(import.status.code(), Some(0), "{}", text(&import.stderr));
    back
}

/// A kind JCZ has not (the fixture's lakes and island) is left out of the XML and of the
/// artwork alike: every follower place of the artwork is one of the XML.
#[test]
fn a_kind_jcz_has_not_gets_no_follower_place() {
    let dir = scratch("jcz-addon-lakes");
    let out = export(
        &dir,
        "lakes",
        &["definitions/base.toml", "tiledef/tests/fixtures/lakes.toml"],
    );
    let files = unpack(&out);
    let xml = check_package(&files, "lakes");
    let bay = (xml.tiles.iter())
        .find(|t| t.id == "LK-bay")
        .expect("the bay");
    let keys: Vec<String> = bay.elements.iter().filter_map(jcz_key).collect();
    assert!(keys.iter().all(|k| !k.starts_with("City")), "{keys:?}");
    // What the export lost is said again when its XML is imported back.
    assert_eq!(xml.lost, ["kind island", "kind lake"]);
    let back = import_back(&dir, "lakes", &files["lakes/tiles.xml"]);
    let report = std::fs::read_to_string(back.join("import-report.txt")).unwrap();
    assert!(!report.contains("Everything was carried over"), "{report}");
    assert!(
        report.contains("lost by the export: kind lake: tilekit's export"),
        "{report}"
    );
}

/// A fan set's figure that JCZ's rules know (the mayor) is switched on by its expansion, as
/// JCZ's own Abbey & Mayor implies it.
#[test]
fn a_known_figure_is_implied_by_the_expansion() {
    let dir = scratch("jcz-addon-mayor");
    let mayor = root().join("examples/mayor.toml");
    let out = export(&dir, "mayor", &[mayor.to_str().unwrap()]);
    let files = unpack(&out);
    let xml = check_package(&files, "mayor");
    let implied: Vec<Option<&str>> = (xml.others[0].0.children.iter())
        .filter(|c| c.name == "implies")
        .map(|c| c.attr("element"))
        .collect();
    assert_eq!(implied, [Some("mayor")]);
}

/// A fan set's volcano, dragon, portal and princess markers switch on JCZ's elements that play
/// them (its dragon element plays the volcano too), and the XML writes them as JCZ does.
#[test]
fn princess_and_dragon_markers_are_implied_and_written_as_jcz_does() {
    let dir = scratch("jcz-addon-dragon");
    let fan = dir.join("lairs.toml");
    std::fs::write(
        &fan,
        r#"format = 1
[set]
id = "lairs"
name = "Lairs"
requires = ["base"]

[[marker]]
id = "volcano"
name = "Volcano"
on = "tile"
icon = "volcano"

[[marker]]
id = "dragon"
name = "Dragon"
on = "tile"
icon = "dragon"
held = { until = "volcano" }

[[marker]]
id = "portal"
name = "Portal"
on = "tile"
icon = "portal"

[[marker]]
id = "princess"
name = "Princess"
on = "city"
icon = "princess"

[[tile]]
id = "LA-1"
count = 1
edges = { n = "field", e = "field", s = "field", w = "field" }
fields = [{ ports = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"] }]
markers = ["volcano"]

[[tile]]
id = "LA-2"
count = 1
edges = { n = "city", e = "field", s = "field", w = "field" }
cities = [{ ports = ["N"], markers = ["princess"] }]
fields = [{ ports = ["ENE", "ESE", "SSE", "SSW", "WSW", "WNW"], cities = ["N"] }]
markers = ["dragon", "portal"]
"#,
    )
    .unwrap();
    let out = export(&dir, "lairs", &[fan.to_str().unwrap()]);
    let files = unpack(&out);
    let xml = check_package(&files, "lairs");
    let implied: Vec<Option<&str>> = (xml.others[0].0.children.iter())
        .filter(|c| c.name == "implies")
        .map(|c| c.attr("element"))
        .collect();
    assert_eq!(implied, [Some("dragon"), Some("portal"), Some("princess")]);
    let names = |t: usize| -> Vec<String> {
        (xml.tiles[t].elements.iter())
            .map(|e| {
                let attrs: Vec<String> = e.attrs.iter().map(|(k, v)| format!("{k}={v}")).collect();
                format!("{} {}", e.name, attrs.join(" "))
            })
            .collect()
    };
    assert!(names(0).contains(&"volcano ".to_string()), "{:?}", names(0));
    let second = names(1);
    for element in ["dragon ", "portal ", "city princess=true"] {
        assert!(second.contains(&element.to_string()), "{second:?}");
    }
}

/// A marker declared with the portal's or the princess's rule (`deploy`, `removes`) switches on
/// JCZ's element for it whatever its id: a fan's gate and witch need JCZ's portal and princess.
#[test]
fn a_markers_rule_implies_jczs_element_whatever_its_id() {
    let dir = scratch("jcz-addon-rules");
    let fan = dir.join("gates.toml");
    std::fs::write(
        &fan,
        r#"format = 1
[set]
id = "gates"
name = "Gates"
requires = ["base"]

[[marker]]
id = "gate"
name = "Gate"
on = "tile"
deploy = "anywhere"

[[marker]]
id = "witch"
name = "Witch"
on = "city"
removes = "follower"

[[tile]]
id = "GA-1"
count = 1
edges = { n = "city", e = "field", s = "field", w = "field" }
cities = [{ ports = ["N"], markers = ["witch"] }]
fields = [{ ports = ["ENE", "ESE", "SSE", "SSW", "WSW", "WNW"], cities = ["N"] }]
markers = ["gate"]
"#,
    )
    .unwrap();
    let out = export(&dir, "gates", &[fan.to_str().unwrap()]);
    let files = unpack(&out);
    let xml = check_package(&files, "gates");
    let implied: Vec<Option<&str>> = (xml.others[0].0.children.iter())
        .filter(|c| c.name == "implies")
        .map(|c| c.attr("element"))
        .collect();
    assert_eq!(implied, [Some("portal"), Some("princess")]);
}

/// A fan set's figure that moves on (its id JCZ's `wagon`) switches on JCZ's wagon by its
/// expansion, and its tiles' `moves` are written as JCZ's `wagon-move` letters.
#[test]
fn a_wagon_is_implied_and_its_moves_written_as_jcz_does() {
    let dir = scratch("jcz-addon-wagon");
    let fan = dir.join("carts.toml");
    std::fs::write(
        &fan,
        r#"format = 1
[set]
id = "carts"
name = "Carts"
requires = ["base"]

[[figure]]
id = "wagon"
name = "Wagon"
count = 1
on = ["road", "city", "monastery"]
power = "move-on"

[[tile]]
id = "CA-1"
count = 1
edges = { n = "city", e = "field", s = "road", w = "field" }
cities = [{ ports = ["N"] }]
roads = [{ ports = ["S"], end = "city" }]
fields = [{ ports = ["ENE", "ESE", "SSE", "SSW", "WSW", "WNW"], cities = ["N"] }]
moves = [["N", "S"]]
"#,
    )
    .unwrap();
    let out = export(&dir, "carts", &[fan.to_str().unwrap()]);
    let files = unpack(&out);
    let xml = check_package(&files, "carts");
    let implied: Vec<Option<&str>> = (xml.others[0].0.children.iter())
        .filter(|c| c.name == "implies")
        .map(|c| c.attr("element"))
        .collect();
    assert_eq!(implied, [Some("wagon")]);
    let linked: Vec<String> = (xml.tiles[0].elements.iter())
        .filter_map(|e| e.attrs.iter().find(|(k, _)| k == "wagon-move"))
        .map(|(_, v)| v.clone())
        .collect();
    assert_eq!(linked, ["a", "a"], "{:?}", xml.tiles[0].elements);
}

/// A fan set's creatures JCZ plays (its dragon and fairy, declared as Princess & Dragon
/// declares them) switch on JCZ's dragon and fairy elements; the export notes a creature of
/// the set's own (the serpent example's) as one JCZ has not.
#[test]
fn creatures_jcz_plays_are_implied_by_the_expansion() {
    let dir = scratch("jcz-addon-creatures");
    let fan = dir.join("roost.toml");
    std::fs::write(
        &fan,
        r#"format = 1
[set]
id = "roost"
name = "Roost"
requires = ["base"]

[[creature]]
id = "fairy"
name = "Fairy"
guards = { turn = 1, scored = 3 }

[[tile]]
id = "RO-1"
count = 1
edges = { n = "field", e = "field", s = "field", w = "field" }
fields = [{ ports = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"] }]
"#,
    )
    .unwrap();
    let out = export(&dir, "roost", &[fan.to_str().unwrap()]);
    let files = unpack(&out);
    let xml = check_package(&files, "roost");
    let implied: Vec<Option<&str>> = (xml.others[0].0.children.iter())
        .filter(|c| c.name == "implies")
        .map(|c| c.attr("element"))
        .collect();
    assert_eq!(implied, [Some("fairy")]);
    let serpent = root().join("examples/serpent.toml");
    let xml_out = dir.join("serpent.xml");
    let run = tilekit(&[
        "export",
        "jcz",
        serpent.to_str().unwrap(),
        "--out",
        xml_out.to_str().unwrap(),
    ]);
    let said =
        String::from_utf8_lossy(&run.stdout).into_owned() + &String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("`serpent`: JCZ has no such creature"),
        "{said}"
    );
}
