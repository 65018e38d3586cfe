//! Real tiles of the kinds earlier checks refused (fields bordering a city across the tile,
//! ports on no feature, roads joining three or four sides, tiles `like` another, new road ends,
//! a marker kind declared again by another set) validate, and resolve to what they say.

use std::path::Path;
use tiledef::{FeatureKind, Source};

fn source(relative: &str) -> Source {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    Source {
        name: relative.to_string(),
        text: std::fs::read_to_string(root.join(relative)).expect("fixture exists"),
    }
}

fn load() -> tiledef::TileSet {
    let report = tiledef::load(vec![
        source("definitions/base.toml"),
        source("tiledef/tests/fixtures/real-tiles.toml"),
    ]);
    let shown: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| d.render_plain())
        .collect();
    assert!(shown.is_empty(), "{}", shown.join("\n"));
    report.tileset.expect("no errors, so a tile set")
}

#[test]
fn every_real_tile_validates() {
    let set = load();
    let tile = |id: &str| set.tile(id).unwrap_or_else(|| panic!("tile {id}"));
    // The field of IC/CCC borders the three caps.
    let ccc = tile("IC/CCC");
    let field = ccc
        .features
        .iter()
        .find(|f| f.kind == FeatureKind::Field)
        .expect("a field");
    assert_eq!(field.cities.len(), 3);
    // A road joining four sides is one feature.
    let roads = |id: &str| {
        tile(id)
            .features
            .iter()
            .filter(|f| f.kind == FeatureKind::Road)
            .count()
    };
    assert_eq!(roads("LA/Rrrr"), 1);
    assert_eq!(roads("AM/Rrr"), 1);
    assert_eq!(roads("RU/RRrr"), 2);
    // Empty ports belong to no feature.
    assert_eq!(tile("CO/12").feature_at(tiledef::Port::NNW), None);
    assert!(tile("CO/6").features.is_empty());
}

#[test]
fn a_tile_like_another_copies_its_layout_and_keeps_its_own_counts() {
    let set = load();
    let original = set.tile("BA/L").expect("base has BA/L");
    for id in ["WI-L", "WI-L2"] {
        let copy = set.tile(id).expect("the copy");
        assert_eq!(copy.edges, original.edges);
        assert_eq!(copy.features, original.features);
        assert_eq!(copy.markers, original.markers);
        assert_ne!(copy.set, original.set);
    }
    let winter = set.tile("WI-L").expect("the copy");
    assert_eq!(winter.name.as_deref(), Some("Winter cloister"));
    assert!(winter.counts.iter().all(|&c| c == 4));
}

#[test]
fn a_marker_kind_declared_again_identically_is_one_kind() {
    // River II declares Inns & Cathedrals' inn as that set does: with or without that set, its
    // river road carries the one `inn` kind, with its scoring.
    for with_inns in [false, true] {
        let mut sources = vec![
            source("definitions/base.toml"),
            source("definitions/river.toml"),
            source("definitions/river-2.toml"),
        ];
        if with_inns {
            sources.insert(1, source("definitions/inns-and-cathedrals.toml"));
        }
        let report = tiledef::load(sources);
        let shown: Vec<String> = (report.diagnostics.iter())
            .map(|d| d.render_plain())
            .collect();
        assert!(shown.is_empty(), "{}", shown.join("\n"));
        let set = report.tileset.expect("no errors");
        let inns: Vec<usize> = (0..set.markers.len())
            .filter(|&m| set.markers[m].id == "inn")
            .collect();
        assert_eq!(
            inns.len(),
            1,
            "one kind (with Inns & Cathedrals: {with_inns})"
        );
        assert!(set.markers[inns[0]].scoring.is_some());
        let road = set
            .tile("RI.2/RIrI")
            .expect("River II's inn tile")
            .features
            .iter()
            .find(|f| f.kind == FeatureKind::Road)
            .expect("its road");
        assert_eq!(road.markers, inns);
    }
    // The same file declaring it twice is still an error.
    let twice = Source {
        name: "twice.toml".to_string(),
        text: r#"format = 1
[set]
id = "twice"
name = "Twice"
requires = ["base"]
[[marker]]
id = "inn"
name = "Inn"
on = "road"
[[marker]]
id = "inn"
name = "Inn"
on = "road"
"#
        .to_string(),
    };
    let report = tiledef::load(vec![source("definitions/base.toml"), twice]);
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.code == "tilekit::duplicate-vocabulary"),
        "{:?}",
        report.diagnostics
    );
}
