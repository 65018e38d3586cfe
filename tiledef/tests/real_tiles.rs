//! Real tiles of the kinds earlier checks refused (fields bordering a city across the tile,
//! ports on no feature, roads joining three or four sides, tiles `like` another, new road ends,
//! a marker kind, edge kind or colour declared again by another set) validate, and resolve to
//! what they say.

use std::path::Path;
use tiledef::{Feature, Source, TileSet};

fn source(relative: &str) -> Source {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    Source {
        name: relative.to_string(),
        text: std::fs::read_to_string(root.join(relative)).expect("fixture exists"),
    }
}

/// Whether a feature is of base's kind `id`.
fn is(set: &TileSet, f: &Feature, id: &str) -> bool {
    set.kind_of(f).id == id
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
        .find(|f| is(&set, f, "field"))
        .expect("a field");
    assert_eq!(field.borders.len(), 3);
    // A road joining four sides is one feature.
    let roads = |id: &str| {
        tile(id)
            .features
            .iter()
            .filter(|f| is(&set, f, "road"))
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
        let set = load_clean(sources);
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
            .find(|f| is(&set, f, "road"))
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

/// The hedge fan set's text with one of its `display` values changed.
fn hedge_fan_with(old: &str, new: &str) -> Source {
    let mut fan = source("tiledef/tests/fixtures/hedge-fan.toml");
    assert!(fan.text.contains(old), "the fixture writes {old}");
    fan.text = fan.text.replacen(old, new, 1);
    fan
}

#[test]
fn an_edge_kind_and_a_colour_declared_again_identically_are_one_entry() {
    // Before or after Village Life in load order, the fan's bushes and white are Village
    // Life's: one edge kind, one colour, and white is the fan set's flower token too.
    for fan_first in [false, true] {
        let mut sources = vec![
            source("definitions/base.toml"),
            source("definitions/village-life.toml"),
        ];
        let fan = source("tiledef/tests/fixtures/hedge-fan.toml");
        sources.insert(if fan_first { 1 } else { 2 }, fan);
        let set = load_clean(sources);
        let bushes: Vec<usize> = (0..set.edge_kinds.len())
            .filter(|&k| set.edge_kinds[k].id == "bushes")
            .collect();
        assert_eq!(bushes.len(), 1, "one bushes kind (fan first: {fan_first})");
        let white = (set.colours.iter().position(|c| c.id == "white")).expect("white");
        assert_eq!(set.colours.iter().filter(|c| c.id == "white").count(), 1);
        let fan = (set.sets.iter().find(|s| s.id == "hedge-fan")).expect("the fan set");
        assert!(fan.colours.contains(&white), "{:?}", fan.colours);
        let tile = set.tile("HF-1").expect("the fan's tile");
        assert_eq!(tile.edges[2], bushes[0]);
    }
}

#[test]
fn a_different_redeclaration_blames_the_authors_file_not_the_bundled_one() {
    // The fan's file is read before Village Life's (and so is earlier in load order): the
    // error is still the fan's, at its declaration's `id`, naming Village Life's.
    let sources = vec![
        source("definitions/base.toml"),
        hedge_fan_with("#3f6f2a", "#00ff00"),
        source("definitions/village-life.toml"),
    ];
    let report = tiledef::load(sources);
    let errors: Vec<&tiledef::Diagnostic> = (report.diagnostics.iter())
        .filter(|d| d.code == "tilekit::different-redeclaration")
        .collect();
    assert_eq!(errors.len(), 1, "{:?}", report.diagnostics);
    let d = errors[0];
    assert_eq!(d.file(), "tiledef/tests/fixtures/hedge-fan.toml");
    assert_eq!(d.line_col(), (11, 6));
    let hint = d.hint.clone().unwrap_or_default();
    assert!(
        hint.contains("`display`") && hint.contains("definitions/village-life.toml:56:6"),
        "{hint}"
    );
}

/// Loads the sources, which must give no diagnostic at all.
fn load_clean(sources: Vec<tiledef::Source>) -> tiledef::TileSet {
    let report = tiledef::load(sources);
    let shown: Vec<String> = (report.diagnostics.iter())
        .map(|d| d.render_plain())
        .collect();
    assert!(shown.is_empty(), "{}", shown.join("\n"));
    report.tileset.expect("no errors")
}

#[test]
fn only_the_middle_of_the_city_of_carcassonne_is_reached_by_no_game() {
    // Its walls meet only walls: no game grows to it from a start tile (`tilekit validate`
    // says so; the loading alone does not).
    let set = load();
    let unreachable: Vec<&str> = (set.unreachable_tiles().into_iter())
        .map(|t| set.tiles[t].id.as_str())
        .collect();
    assert_eq!(unreachable, ["CO-6"]);
    let bundled = tiledef::load(tiledef::bundled());
    let bundled = bundled.tileset.expect("the bundled sets are valid");
    assert_eq!(bundled.unreachable_tiles(), Vec::<usize>::new());
}
