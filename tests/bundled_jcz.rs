//! Bundled sets made from JCloisterZone's tiles, held to their JCZ file: the file is imported
//! through `tilekit-jcz`, and every imported tile of the family must have a bundled tile with the
//! same JCZ id (an alias; an imported reprint without one goes by its id) and the same layout
//! and counts, and every bundled tile of the set must be one of them. Skipped with a message
//! where `../shared/reference/jcz` is absent.

#[path = "../tools/jcz/tests/common/reference_files.rs"]
mod reference_files;

use std::collections::BTreeMap;
use tiledef::{Tile, TileSet};

/// A tile's layout and counts in names, not indices, so two tile sets compare.
fn layout(ts: &TileSet, t: &Tile, ignore_markers: &[&str]) -> String {
    let marker = |m: &usize| ts.markers[*m].id.clone();
    let keep = |m: &String| !ignore_markers.contains(&m.as_str());
    let mut features: Vec<String> = t
        .features
        .iter()
        .map(|f| {
            let mut ports: Vec<String> = f.ports.iter().map(|p| p.to_string()).collect();
            ports.sort();
            let cities: Vec<String> = (f.cities.iter())
                .map(|&c| t.features[c].ports.first().map(|p| p.to_string()).unwrap_or_default())
                .collect();
            let flowers: Vec<&str> = f.flowers.iter().map(|&c| ts.colours[c].id.as_str()).collect();
            let markers: Vec<String> = f.markers.iter().map(marker).filter(keep).collect();
            format!(
                "{} {ports:?} pennants {} end {:?} cities {cities:?} flowers {flowers:?} markers {markers:?}",
                f.kind.name(),
                f.pennants,
                f.end
            )
        })
        .collect();
    features.sort();
    let edges: Vec<&str> = t
        .edges
        .iter()
        .map(|&e| ts.edge_kinds[e].id.as_str())
        .collect();
    let counts: BTreeMap<&str, u32> = (ts.editions.iter().zip(&t.counts))
        .filter(|(_, n)| **n > 0)
        .map(|(e, n)| (e.id.as_str(), *n))
        .collect();
    let markers: Vec<String> = t.markers.iter().map(marker).filter(keep).collect();
    format!(
        "edges {edges:?}\n  features {features:#?}\n  marketplace {}\n  markers {markers:?}\n  counts {counts:?}",
        t.marketplace
    )
}

fn of_set<'a>(ts: &'a TileSet, id: &str) -> Vec<&'a Tile> {
    ts.tiles
        .iter()
        .filter(|t| ts.sets[t.set].id == id)
        .collect()
}

/// Holds bundled set `bundled_set` to the tile-set family `jcz_family` of JCZ file `jcz_file`;
/// `ignored` names (JCZ id, marker id) pairs the bundled set leaves out on purpose.
fn assert_matches_jcz(
    bundled_set: &str,
    jcz_file: &str,
    jcz_family: &str,
    ignored: &[(&str, &str)],
) {
    let Some(files) = reference_files::reference() else {
        return;
    };
    let input: Vec<(String, String)> = files.into_iter().filter(|(n, _)| n == jcz_file).collect();
    assert_eq!(input.len(), 1, "{jcz_file} is one of the reference files");
    let import = tilekit_jcz::import_texts(&input).expect("the reference file imports");
    let mut sources: Vec<tiledef::Source> = tiledef::bundled()
        .into_iter()
        .filter(|s| s.name.ends_with("/base.toml"))
        .collect();
    sources.extend(import.sets.iter().map(|s| tiledef::Source {
        name: s.file_name.clone(),
        text: s.toml().expect("an imported set serialises"),
    }));
    let imported = tiledef::load(sources)
        .tileset
        .expect("the import validates");
    let bundled = tiledef::load_bundled();
    let theirs = of_set(&imported, jcz_family);
    let ours = of_set(&bundled, bundled_set);
    assert!(!theirs.is_empty(), "{jcz_file} has a family `{jcz_family}`");
    let mut problems = Vec::new();
    let mut matched = Vec::new();
    for t in &theirs {
        let key = t.aliases.first().unwrap_or(&t.id);
        let Some(b) = ours
            .iter()
            .find(|b| b.aliases.contains(key) || b.id == *key)
        else {
            problems.push(format!(
                "{key}: no bundled `{bundled_set}` tile has this JCZ id"
            ));
            continue;
        };
        matched.push(b.id.clone());
        let ignore: Vec<&str> = (ignored.iter())
            .filter(|(id, _)| id == key)
            .map(|(_, m)| *m)
            .collect();
        let (want, got) = (layout(&imported, t, &ignore), layout(&bundled, b, &[]));
        if want != got {
            problems.push(format!(
                "{key} (bundled {}):\n JCZ {want}\n ours {got}",
                b.id
            ));
        }
    }
    for b in &ours {
        if !matched.contains(&b.id) {
            problems.push(format!(
                "bundled {} is no tile of {jcz_file}'s `{jcz_family}`",
                b.id
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_river_equals_jcz() {
    assert_matches_jcz("river", "river.xml", "river-1", &[]);
}

#[test]
fn the_river_ii_equals_jcz() {
    // The inn on RI.2/RIrI's road is Inns & Cathedrals' marker, which River II does not require.
    assert_matches_jcz("river-2", "river.xml", "river-2", &[("RI.2/RIrI", "inn")]);
}

#[test]
fn inns_and_cathedrals_equal_jcz() {
    assert_matches_jcz(
        "inns-and-cathedrals",
        "inns_and_cathedrals.xml",
        "inns-and-cathedrals",
        &[],
    );
}

#[test]
fn traders_and_builders_equal_jcz() {
    assert_matches_jcz(
        "traders-and-builders",
        "traders_and_builders.xml",
        "traders-and-builders",
        &[],
    );
}
