//! The feature kinds base declares say the base game's rules: the numbers the engine scores with
//! today (`engine::scoring`; `engine/tests/declared_kinds.rs` holds the engine to them), in the
//! order of a tile's features. A kind declared by two sets alike is one kind, and the keys a kind
//! may not take follow the model's.

use tiledef::{
    Completion, FeatureKind, FeatureKindInfo, KindPoints, RangeDef, Shape, Source, TileSet,
};

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
    let ids: Vec<&str> = ts.feature_kinds.iter().map(|k| k.id.as_str()).collect();
    let order = [
        FeatureKind::City,
        FeatureKind::Road,
        FeatureKind::Field,
        FeatureKind::Monastery,
        FeatureKind::Garden,
    ];
    assert_eq!(ids, order.map(FeatureKind::name));
    let keys: Vec<&str> = ts.feature_kinds.iter().map(|k| k.key.as_str()).collect();
    assert_eq!(keys, ["cities", "roads", "fields", "monastery", "garden"]);
    assert!(ts.feature_kinds.iter().all(|k| ts.sets[k.set].id == "base"));
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
    let jcz: Vec<Option<&str>> = ts.feature_kinds.iter().map(|k| k.jcz.as_deref()).collect();
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
        .next()
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

/// The keys a kind may not take are exactly the keys tiles and features have besides base's
/// kinds' and emblem's keys: so that the lists follow the model when it changes.
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
    let emblem_keys: Vec<String> = (ts.feature_kinds.iter())
        .filter_map(|k| k.emblem.as_ref().map(|e| e.key.clone()))
        .collect();

    let mut tile: Vec<String> = (tiledef::model::FIXED_TILE_KEYS.iter())
        .map(|k| k.to_string())
        .chain(kind_keys.iter().cloned())
        .collect();
    tile.sort();
    let mut model = keys("TileDef");
    model.sort();
    assert_eq!(tile, model);

    let mut feature: Vec<String> = (tiledef::model::FIXED_FEATURE_KEYS.iter())
        .map(|k| k.to_string())
        .chain(emblem_keys)
        .chain(["cities".to_string()]) // a field lists the cities it borders
        .collect();
    feature.sort();
    let mut model: Vec<String> = ["CityDef", "RoadDef", "FieldDef"]
        .iter()
        .flat_map(|d| keys(d))
        .collect();
    model.sort();
    model.dedup();
    assert_eq!(feature, model);
}
