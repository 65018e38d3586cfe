//! The feature kinds base declares say the base game's rules: the numbers the engine scores with
//! today (`engine::scoring`; `engine/tests/declared_kinds.rs` holds the engine to them), in the
//! order of a tile's features. A kind declared by two sets alike is one kind, and the keys a kind
//! may not take follow the model's.

use tiledef::{Completion, FeatureKindInfo, KindPoints, RangeDef, Shape, Source, TileSet};

fn points(tile: u32, emblem: u32) -> KindPoints {
    KindPoints {
        tile,
        emblem,
        marker: 0,
    }
}

fn kind<'a>(ts: &'a TileSet, id: &str) -> &'a FeatureKindInfo {
    (ts.feature_kinds.iter())
        .find(|k| k.id == id)
        .unwrap_or_else(|| panic!("base declares `{id}`"))
}

#[test]
fn base_declares_its_five_kinds_in_the_order_of_a_tiles_features() {
    let ts = tiledef::load_bundled();
    let base: Vec<_> = (ts.feature_kinds.iter())
        .take_while(|k| ts.sets[k.set].id == "base")
        .collect();
    let ids: Vec<&str> = base.iter().map(|k| k.id.as_str()).collect();
    assert_eq!(ids, ["city", "road", "field", "monastery", "garden"]);
    let keys: Vec<&str> = base.iter().map(|k| k.key.as_str()).collect();
    assert_eq!(keys, ["cities", "roads", "fields", "monastery", "garden"]);
    let others = (ts.feature_kinds.iter()).filter(|k| ts.sets[k.set].id != "base");
    assert!(others.map(|k| k.id.as_str()).eq(["marketplace"]));
}

#[test]
fn base_kinds_say_todays_scoring() {
    let ts = tiledef::load_bundled();
    let city = kind(&ts, "city");
    assert_eq!(
        (city.shape, city.complete),
        (Shape::Area, Completion::Closed)
    );
    let pennant = city.emblem.as_ref().expect("a city has pennants");
    assert_eq!(
        (pennant.id.as_str(), pennant.key.as_str()),
        ("pennant", "pennants")
    );
    assert_eq!(pennant.max, tiledef::model::MAX_PENNANTS);
    assert_eq!(city.complete_rates, points(2, 2));
    assert_eq!(city.unfinished_rates, points(1, 1));
    let small = city.small.as_ref().expect("the first edition's small city");
    assert_eq!(small.max_tiles, 2);
    assert_eq!(small.points, points(1, 1));
    assert_eq!(small.option.as_deref(), Some("first-edition-small-city"));

    let road = kind(&ts, "road");
    assert_eq!(
        (road.shape, road.complete),
        (Shape::Line, Completion::Closed)
    );
    assert_eq!(road.complete_rates, points(1, 0));
    assert_eq!(road.unfinished_rates, points(1, 0));
    assert!(road.emblem.is_none() && road.small.is_none());

    // Farmers: 3 per completed city a field borders, the rate on the city.
    let field = ts.feature_kinds.iter().position(|k| k.id == "field");
    assert_eq!(city.bordered, [(field.expect("declared"), 3)]);
    let field = kind(&ts, "field");
    assert_eq!(
        (field.shape, field.complete),
        (Shape::Region, Completion::Never)
    );
    assert_eq!(field.unfinished_rates, KindPoints::default());

    for id in ["monastery", "garden"] {
        let site = kind(&ts, id);
        assert_eq!(
            (site.shape, site.complete),
            (Shape::Site, Completion::Range)
        );
        assert_eq!(site.range, Some(RangeDef::Square(1)), "{id}");
        // 9 when its 3 × 3 range is placed; 1 per placed range tile at the end.
        assert_eq!(site.complete_rates, points(1, 0), "{id}");
        assert_eq!(site.unfinished_rates, points(1, 0), "{id}");
    }
    assert!(kind(&ts, "monastery").claimable);
    assert!(
        !kind(&ts, "garden").claimable,
        "no follower stands on a garden"
    );
    let others = ["city", "road", "field"];
    assert!(others.iter().all(|id| kind(&ts, id).claimable));
    let jcz: Vec<Option<&str>> = (ts.feature_kinds.iter())
        .filter(|k| ts.sets[k.set].id == "base")
        .map(|k| k.jcz.as_deref())
        .collect();
    assert_eq!(
        jcz,
        [
            Some("city"),
            Some("road"),
            Some("field"),
            Some("monastery"),
            Some("garden")
        ]
    );
}

/// A set declaring a kind of base's again, every key the same, is one kind usable from either
/// set, as a marker kind is.
#[test]
fn a_kind_declared_again_alike_is_one_kind() {
    let base = tiledef::bundled()
        .into_iter()
        .find(|s| s.name == "definitions/base.toml")
        .expect("base is bundled");
    let again = Source {
        name: "again.toml".to_string(),
        text: r##"
format = 1
[set]
id = "again"
name = "Again"

[[feature]]
id = "road"
name = "Road"
shape = "line"
key = "roads"
complete = "closed"
score.complete = { tile = 1 }
score.unfinished = { tile = 1 }
look = { style = "road", fill = "#f1ead8" }
jcz = "road"
"##
        .to_string(),
    };
    let report = tiledef::load(vec![base, again]);
    let ts = report
        .tileset
        .unwrap_or_else(|| panic!("{:#?}", report.diagnostics));
    assert_eq!(ts.feature_kinds.len(), 5);
}

/// The keys a kind may not take are exactly the keys tiles and features have besides the bundled
/// kinds' keys: so that the lists follow the model when it changes.
#[test]
fn the_fixed_keys_are_the_models_keys_besides_base_kinds() {
    let schema = tiledef::json_schema();
    let keys = |def: &str| -> Vec<String> {
        let properties = &schema["$defs"][def]["properties"];
        let properties = properties.as_object().expect("a table of properties");
        properties.keys().cloned().collect()
    };
    let ts = tiledef::load_bundled();
    let kind_keys: Vec<String> = ts.feature_kinds.iter().map(|k| k.key.clone()).collect();

    let mut tile: Vec<String> = (tiledef::model::FIXED_TILE_KEYS.iter())
        .map(|k| k.to_string())
        .chain(kind_keys.iter().cloned())
        .collect();
    tile.sort();
    let mut model = keys("TileDef");
    model.sort();
    assert_eq!(tile, model);

    // A feature of a set's own kind takes the fixed keys, and any other key for its emblem
    // and the areas a region borders (checked against the vocabulary, not the schema).
    let mut feature: Vec<String> = (tiledef::model::FIXED_FEATURE_KEYS.iter())
        .map(|k| k.to_string())
        .collect();
    feature.sort();
    let mut model = keys("FeatureDef");
    model.sort();
    assert_eq!(feature, model);
    // A bundled kind's feature takes its shape's fixed keys, its emblem's, and on a region the
    // bundled areas'.
    let mut city = keys("feature-city");
    city.sort();
    assert_eq!(city, ["markers", "pennants", "ports"]);
    let mut field = keys("feature-field");
    field.sort();
    assert_eq!(field, ["cities", "flowers", "inner", "markers", "ports"]);
}

/// The base game with `tests/fixtures/lakes.toml`, which must load without a diagnostic.
fn with_lakes() -> TileSet {
    let base = tiledef::bundled()
        .into_iter()
        .find(|s| s.name == "definitions/base.toml")
        .expect("base is bundled");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lakes.toml");
    let lakes = Source {
        name: "lakes.toml".to_string(),
        text: std::fs::read_to_string(path).expect("the fixture"),
    };
    let report = tiledef::load(vec![base, lakes]);
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    report.tileset.expect("no diagnostic, so a tile set")
}

/// A set's own kinds are written under their keys and resolved like base's: a tile's features
/// come kind by kind in vocabulary order, a field borders a lake, a road ends at it.
#[test]
fn a_set_of_lakes_writes_its_kinds_under_their_keys() {
    let ts = with_lakes();
    let lake = ts.kind_id("lake").expect("the set declares `lake`");
    let bay = ts.tile("LK-bay").expect("the bay");
    let kinds: Vec<&str> = bay
        .features
        .iter()
        .map(|f| ts.kind_of(f).id.as_str())
        .collect();
    assert_eq!(kinds, ["road", "field", "field", "lake"]);
    assert_eq!(bay.features[0].end, Some(tiledef::LineEnd::Kind(lake)));
    assert!(bay.features[1..3].iter().all(|f| f.borders == [3]));
    let island = ts.tile("LK-island").expect("the island");
    let kinds: Vec<&str> = island
        .features
        .iter()
        .map(|f| ts.kind_of(f).id.as_str())
        .collect();
    assert_eq!(kinds, ["lake", "island"]);
    assert!(island.features[1].ports.is_empty());
    // The lake edge carries the lake on its centre and halves: an area, as a city edge is.
    let edge = &ts.edge_kinds[bay.edges[0]];
    assert_eq!(
        (edge.centre_kind, edge.halves_kind),
        (Some(lake), Some(lake))
    );
    assert_eq!(ts.feature_kinds[lake.index()].shape, Shape::Area);
}

/// A file written before feature kinds were declared keeps loading: a set with the id of a
/// bundled set and no `[[feature]]` of its own (an older `import jcz`'s `base.toml`) gets the
/// bundled set's kinds, and a vocabulary set naming `field` in an edge kind without requiring
/// base resolves it; each says so once, as a warning.
#[test]
fn files_written_before_feature_kinds_still_load() {
    let bundled = tiledef::bundled()
        .into_iter()
        .find(|s| s.name == "definitions/base.toml")
        .expect("base is bundled");
    // Base as an older tilekit wrote it: no `[[feature]]` tables.
    let mut text = String::new();
    let mut skipping = false;
    for line in bundled.text.lines() {
        if line.starts_with("[[") {
            skipping = line == "[[feature]]";
        }
        if !skipping {
            text.push_str(line);
            text.push('\n');
        }
    }
    assert!(!text.contains("[[feature]]"));
    let older = Source {
        name: "older/base.toml".to_string(),
        text,
    };
    let vocabulary = Source {
        name: "older/jcz.toml".to_string(),
        text: "format = 1\n[set]\nid = \"jcz\"\nname = \"JCZ\"\n\n[[edge_kind]]\nid = \"river\"\nname = \"River\"\ncentre = \"none\"\nhalves = \"field\"\nmeets = { river = \"connect\" }\n\n\
               [[marker]]\nid = \"inn\"\nname = \"Inn\"\non = \"road\"\n".to_string(),
    };
    let report = tiledef::load(vec![older, vocabulary]);
    // (The river no tile uses is the author's own unused vocabulary.)
    let codes: Vec<&str> = (report.diagnostics.iter())
        .map(|d| d.code)
        .filter(|&c| c != "tilekit::unused-vocabulary")
        .collect();
    assert_eq!(
        codes,
        ["tilekit::kinds-inherited", "tilekit::kind-not-required"]
    );
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| d.severity == tiledef::Severity::Warning)
    );
    let ts = report.tileset.expect("the older files load");
    let d = ts.tile("D").expect("base's D");
    let kinds: Vec<&str> = d
        .features
        .iter()
        .map(|f| ts.kind_of(f).id.as_str())
        .collect();
    assert_eq!(kinds, ["city", "road", "field", "field"]);
}
