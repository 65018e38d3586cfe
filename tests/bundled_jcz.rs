//! Bundled sets made from JCloisterZone's tiles, held to their JCZ file: the file is imported
//! through `tilekit-jcz`, and every imported tile of the family must have a bundled tile with the
//! same JCZ id (an alias; an imported reprint without one goes by its id) and the same layout,
//! counts and rules (group, start, held back, the path rule of its edges, the scoring and token
//! of its markers, the links of `moves`), and every bundled tile of the set must be one of them; and the set's own
//! rules (removes, follower kinds, its groups in draw order) must be the imported family's.
//! Skipped with a message where `../shared/reference/jcz` is absent.

#[path = "../tools/jcz/tests/common/reference_files.rs"]
mod reference_files;

use std::collections::BTreeMap;
use tiledef::{Tile, TileSet};

/// A tile's layout and counts in names, not indices, so two tile sets compare.
fn layout(ts: &TileSet, t: &Tile) -> String {
    // A marker with its rules: an imported inn must score as the bundled one.
    let marker = |m: &usize| {
        let k = &ts.markers[*m];
        format!(
            "{} on {:?} scoring {:?} token {:?}",
            k.id, k.on, k.scoring, k.token
        )
    };
    let mut features: Vec<String> = t
        .features
        .iter()
        .map(|f| {
            let mut ports: Vec<String> = f.ports.iter().map(|p| p.to_string()).collect();
            ports.sort();
            let cities: Vec<String> = (f.borders.iter())
                .map(|&c| t.features[c].ports.first().map(|p| p.to_string()).unwrap_or_default())
                .collect();
            let flowers: Vec<&str> = f.flowers.iter().map(|&c| ts.colours[c].id.as_str()).collect();
            let markers: Vec<String> = f.markers.iter().map(marker).collect();
            format!(
                "{} {ports:?} pennants {} end {:?} cities {cities:?} flowers {flowers:?} markers {markers:?}",
                ts.kind_of(f).id,
                f.emblems,
                f.end.map(|e| ts.end_name(e))
            )
        })
        .collect();
    features.sort();
    let edges: Vec<String> = t
        .edges
        .iter()
        .map(|&e| format!("{} path {:?}", ts.edge_kinds[e].id, ts.edge_kinds[e].path))
        .collect();
    let counts: BTreeMap<&str, u32> = (ts.editions.iter().zip(&t.counts))
        .filter(|(_, n)| **n > 0)
        .map(|(e, n)| (e.id.as_str(), *n))
        .collect();
    let markers: Vec<String> = t.markers.iter().map(marker).collect();
    let group = t.group.map(|g| ts.groups[g].id.as_str());
    // The links a moving figure follows, each feature named by its kind and ports.
    let name = |x: usize| {
        let f = &t.features[x];
        format!("{} {:?}", ts.kind_of(f).id, f.ports)
    };
    let moves: Vec<Vec<String>> = (t.moves.iter())
        .map(|link| link.iter().map(|&x| name(x)).collect())
        .collect();
    format!(
        "edges {edges:?}\n  features {features:#?}\n  marketplace {}\n  markers {markers:?}\n  counts {counts:?}\n  group {group:?} start {} held back {}\n  moves {moves:?}",
        t.marketplace, t.start, t.held_back
    )
}

/// A tile's JCZ id: its first alias, else its id (a reprint).
fn jcz_id(t: &Tile) -> &str {
    t.aliases.first().unwrap_or(&t.id)
}

/// What a set says about the game beyond its tiles: the tiles it removes (by JCZ id), its
/// follower kinds, and the groups its tiles join, in draw order, with how each is drawn.
fn set_rules(ts: &TileSet, id: &str) -> String {
    let Some(s) = ts.sets.iter().position(|s| s.id == id) else {
        return format!("no set `{id}`");
    };
    let mut removes: Vec<&str> = ts.sets[s]
        .removes
        .iter()
        .map(|&t| jcz_id(&ts.tiles[t]))
        .collect();
    removes.sort();
    let followers: Vec<String> = (ts.followers.iter())
        .filter(|f| f.set == s)
        .map(|f| format!("{} count {} strength {:?}", f.id, f.count, f.strength))
        .collect();
    let used: Vec<usize> = of_set(ts, id).iter().filter_map(|t| t.group).collect();
    let groups: Vec<String> = (ts.groups.iter().enumerate())
        .filter(|(g, _)| used.contains(g))
        .map(|(_, g)| format!("{} {:?} spare starts {:?}", g.id, g.draw, g.spare_starts))
        .collect();
    // By names: the indices differ between the two loads.
    let marker = |m: Option<usize>| m.map(|m| ts.markers[m].id.clone());
    let creatures: Vec<String> = (ts.creatures.iter())
        .filter(|c| c.set == s)
        .map(|c| {
            let avoids: Vec<&str> = c
                .avoids
                .iter()
                .map(|&a| ts.creatures[a].id.as_str())
                .collect();
            format!(
                "{} arrives {:?} moves {:?} eats {:?} no_deploy {} avoids {avoids:?} guards {:?}",
                c.id,
                marker(c.arrives),
                c.moves.map(|(m, steps)| (marker(Some(m)), steps)),
                c.eats,
                c.no_deploy,
                c.guards
            )
        })
        .collect();
    format!(
        "removes {removes:?}\nfollowers {followers:?}\ngroups in draw order {groups:?}\ncreatures {creatures:?}"
    )
}

fn of_set<'a>(ts: &'a TileSet, id: &str) -> Vec<&'a Tile> {
    ts.tiles
        .iter()
        .filter(|t| ts.sets[t.set].id == id)
        .collect()
}

/// Holds bundled set `bundled_set` to the tile-set family `jcz_family` of JCZ file `jcz_file`.
fn assert_matches_jcz(bundled_set: &str, jcz_file: &str, jcz_family: &str) {
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
        let key = jcz_id(t);
        let Some(b) = ours
            .iter()
            .find(|b| b.aliases.iter().any(|a| a == key) || b.id == key)
        else {
            problems.push(format!(
                "{key}: no bundled `{bundled_set}` tile has this JCZ id"
            ));
            continue;
        };
        matched.push(b.id.clone());
        let (want, got) = (layout(&imported, t), layout(&bundled, b));
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
    let (want, got) = (
        set_rules(&imported, jcz_family),
        set_rules(&bundled, bundled_set),
    );
    if want != got {
        problems.push(format!("the set's rules:\n JCZ {want}\n ours {got}"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_river_equals_jcz() {
    assert_matches_jcz("river", "river.xml", "river-1");
}

#[test]
fn the_river_ii_equals_jcz() {
    assert_matches_jcz("river-2", "river.xml", "river-2");
}

#[test]
fn inns_and_cathedrals_equal_jcz() {
    assert_matches_jcz(
        "inns-and-cathedrals",
        "inns_and_cathedrals.xml",
        "inns-and-cathedrals",
    );
}

#[test]
fn traders_and_builders_equal_jcz() {
    assert_matches_jcz(
        "traders-and-builders",
        "traders_and_builders.xml",
        "traders-and-builders",
    );
}

#[test]
fn abbey_and_mayor_equal_jcz() {
    assert_matches_jcz("abbey-and-mayor", "abbey_and_mayor.xml", "abbey-and-mayor");
}

#[test]
fn princess_and_dragon_equal_jcz() {
    assert_matches_jcz(
        "princess-and-dragon",
        "princess_and_dragon.xml",
        "princess-and-dragon",
    );
}
