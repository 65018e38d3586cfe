//! The warnings that advise an author on files that load: vocabulary no tile uses
//! (`tilekit::unused-vocabulary`) and tiles no game can place (`tilekit::cannot-start`).

use std::path::Path;
use tiledef::{BUNDLED_SUFFIX, Source};

fn source(relative: &str) -> Source {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    Source {
        name: relative.to_string(),
        text: std::fs::read_to_string(root.join(relative)).expect("fixture exists"),
    }
}

/// A set requiring base that declares a colour no tile uses, with one tile of its own.
fn teal_set(name: &str) -> Source {
    Source {
        name: name.to_string(),
        text: r##"format = 1
[set]
id = "teal"
name = "Teal"
requires = ["base"]
[[colour]]
id = "teal"
name = "Teal"
display = "#2a9d8f"
[[tile]]
id = "TE-1"
count = 1
edges = { n = "field", e = "road", s = "field", w = "road" }
roads = [{ ports = ["W", "E"] }]
fields = [{ ports = ["WNW", "NNW", "NNE", "ENE"] }, { ports = ["ESE", "SSE", "SSW", "WSW"] }]
"##
        .to_string(),
    }
}

/// The codes of the diagnostics of loading these sources.
fn codes(sources: Vec<Source>) -> Vec<&'static str> {
    let report = tiledef::load(sources);
    report.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn unused_vocabulary_is_told_to_its_author_only() {
    let base = || source("definitions/base.toml");
    let mine = codes(vec![base(), teal_set("teal.toml")]);
    assert_eq!(mine, ["tilekit::unused-vocabulary"]);
    // The same set loaded as a bundled one: its author is not the reader.
    let bundled = codes(vec![
        base(),
        teal_set(&format!("teal.toml{BUNDLED_SUFFIX}")),
    ]);
    assert!(bundled.is_empty(), "{bundled:?}");
}

#[test]
fn unused_vocabulary_waits_until_the_files_load() {
    // A tile the schema refuses (it is left out), and a tile with an unknown edge kind.
    let broken = [
        ("count = 1", "count = 0", "tilekit::schema"),
        (
            "n = \"field\"",
            "n = \"feild\"",
            "tilekit::unknown-reference",
        ),
    ];
    for (old, new, code) in broken {
        let mut set = teal_set("teal.toml");
        set.text = set.text.replacen(old, new, 1);
        let codes = codes(vec![source("definitions/base.toml"), set]);
        assert!(codes.contains(&code), "{codes:?}");
        assert!(!codes.contains(&"tilekit::unused-vocabulary"), "{codes:?}");
    }
}

#[test]
fn a_path_with_a_start_tile_that_begins_it_can_start() {
    let path = "tests/fixtures/bad/cannot-start-path.toml";
    let stuck = codes(vec![source("definitions/base.toml"), source(path)]);
    assert_eq!(stuck, ["tilekit::cannot-start"]);
    // The pond marked as the start tile begins the creek: every creek tile can follow it.
    let mut sprung = source(path);
    sprung.text = sprung.text.replace(
        "name = \"The creek's pond\"",
        "name = \"The creek's pond\"\nstart = true",
    );
    let fine = codes(vec![source("definitions/base.toml"), sprung]);
    assert!(fine.is_empty(), "{fine:?}");
}

#[test]
fn the_bundled_sets_need_no_advice_alone_or_together() {
    // Named as read from disk (not `… (bundled)`) so that nothing is exempt: each bundled set
    // with what it requires, and all of them, load without a warning.
    let all = tiledef::bundled();
    let is_base = |s: &tiledef::Source| s.name == "definitions/base.toml";
    let Some(base) = all.iter().find(|s| is_base(s)).cloned() else {
        panic!("the base game is bundled");
    };
    for set in all.iter().filter(|s| !is_base(s)) {
        let mut sources = vec![base.clone()];
        let (_, requires) = tiledef::declared_set(&set.text);
        for r in requires.iter().filter(|r| *r != "base") {
            let required = all
                .iter()
                .find(|s| tiledef::declared_set(&s.text).0.as_ref() == Some(r));
            sources.extend(required.cloned());
        }
        sources.push(set.clone());
        let found = codes(sources);
        assert!(found.is_empty(), "{}: {found:?}", set.name);
    }
    assert!(codes(all).is_empty());
}
