//! `export jcz` then `import jcz` gives back every bundled tile's edges and features, but for
//! the road ends the export reports it cannot write (and then as the report says): all the
//! bundled sets at once, and (a proptest) random choices of sets, their sets and tiles written
//! in random orders.

#[allow(dead_code)] // the importer tests' helpers this file does not use
mod common;

use std::collections::BTreeMap;
use tiledef::model::TileSetFile;
use tiledef::{Tile, TileSet};
use tilekit_jcz::Note;

/// The bundled definition files, as written.
fn bundled_files() -> Vec<TileSetFile> {
    tiledef::bundled()
        .iter()
        .map(|s| toml::from_str(&s.text).expect("a bundled file parses"))
        .collect()
}

/// A tile's edges and features in names, not indices, so that two tile sets compare: each
/// feature's kind, ports (sorted), emblems, end, the cities it borders (by their first port)
/// and flowers, sorted. `read_back` gives, by port, the end a one-port road is expected to
/// have instead of its own (what the export said it would be read back as).
fn edges_and_features(ts: &TileSet, t: &Tile, read_back: &BTreeMap<String, String>) -> String {
    let edges: Vec<&str> = t
        .edges
        .iter()
        .map(|&e| ts.edge_kinds[e].id.as_str())
        .collect();
    let mut features: Vec<String> = t
        .features
        .iter()
        .map(|f| {
            let mut ports: Vec<String> = f.ports.iter().map(|p| p.to_string()).collect();
            ports.sort();
            let mut borders: Vec<String> = (f.borders.iter())
                .filter_map(|&c| t.features[c].ports.first().map(|p| p.to_string()))
                .collect();
            borders.sort();
            let mut flowers: Vec<&str> = f
                .flowers
                .iter()
                .map(|&c| ts.colours[c].id.as_str())
                .collect();
            flowers.sort();
            let end = match &ports[..] {
                [port] if read_back.contains_key(port) => read_back.get(port).cloned(),
                _ => f.end.map(|e| ts.end_name(e)),
            };
            format!(
                "{} {ports:?} emblems {} end {end:?} borders {borders:?} flowers {flowers:?}",
                ts.kind_of(f).id,
                f.emblems,
            )
        })
        .collect();
    features.sort();
    format!(
        "edges {edges:?}\nfeatures {features:#?}\nmarketplace {}",
        t.marketplace
    )
}

/// The road ends the export says it cannot write, by tile id: the road's port and the end it
/// says the import will read instead.
fn road_ends_read_back(notes: &[Note]) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for note in notes.iter().filter(|n| n.kind == "road end") {
        // "the road at S ends at `x`; … it would be read back as `y`"
        let port = note
            .detail
            .strip_prefix("the road at ")
            .and_then(|r| r.split(' ').next());
        let read_back = note.detail.rsplit('`').nth(1);
        let (Some(tile), Some(port), Some(read_back)) = (&note.tile, port, read_back) else {
            panic!("a road end note of an unexpected form: {note:?}");
        };
        (out.entry(tile.clone()).or_default()).insert(port.to_string(), read_back.to_string());
    }
    out
}

/// Exports `sets` (with `context` for the tiles they reprint), imports the XML back, and loads
/// the import with the bundled sets it requires. Gives the loaded import, its tiles by JCZ id,
/// and the export's notes.
fn round_trip(
    sets: &[TileSetFile],
    context: &[TileSetFile],
) -> (TileSet, BTreeMap<String, usize>, Vec<Note>) {
    let tilekit_jcz::export::Export { xml, notes, .. } =
        tilekit_jcz::export::export(sets, context, "round.xml");
    let text = tilekit_jcz::xml::write(&xml, "");
    let import =
        tilekit_jcz::import_texts(&[("round.xml".to_string(), text)]).expect("the export imports");
    let report = tiledef::load(common::sources(&import));
    let errors: Vec<String> = (report.diagnostics.iter())
        .filter(|d| d.severity == tiledef::Severity::Error)
        .map(|d| d.render_plain())
        .collect();
    let ts = report
        .tileset
        .unwrap_or_else(|| panic!("{}", errors.join("\n")));
    let by_jcz = (ts.tiles.iter().enumerate())
        .map(|(i, t)| (t.aliases.first().unwrap_or(&t.id).clone(), i))
        .collect();
    (ts, by_jcz, notes)
}

/// The tiles of `files` whose edges and features do not come back from `theirs` as `ours` has
/// them (the road ends the export reported aside), each with both versions.
fn differences(
    files: &[TileSetFile],
    ours: &TileSet,
    (theirs, by_jcz, notes): &(TileSet, BTreeMap<String, usize>, Vec<Note>),
) -> Vec<String> {
    let read_back = road_ends_read_back(notes);
    let none = BTreeMap::new();
    let mut differ = Vec::new();
    for (file, t) in files
        .iter()
        .flat_map(|f| f.tiles.iter().map(move |t| (f, t)))
    {
        let id = tilekit_jcz::export::jcz_id(t);
        let mine = ours.tiles.iter().find(|o| o.id == t.id).expect("loaded");
        let Some(&i) = by_jcz.get(&id) else {
            differ.push(format!("{} {}: no tile `{id}` imported", file.set.id, t.id));
            continue;
        };
        let expected = edges_and_features(ours, mine, read_back.get(&t.id).unwrap_or(&none));
        let got = edges_and_features(theirs, &theirs.tiles[i], &none);
        if expected != got {
            differ.push(format!(
                "{} {}:\n{expected}\n--- imported ---\n{got}",
                file.set.id, t.id
            ));
        }
    }
    differ
}

#[test]
fn export_then_import_gives_back_every_bundled_tiles_edges_and_features() {
    let files = bundled_files();
    let ours = tiledef::load_bundled();
    let differ = differences(&files, &ours, &round_trip(&files, &[]));
    assert!(
        differ.is_empty(),
        "{} tiles differ:\n{}",
        differ.len(),
        differ.join("\n\n")
    );
}

/// `files` with those `chosen` and the sets they require (transitively), in the order of
/// `set_keys`, each set's tiles in the order of `tile_keys`.
fn choose(
    files: &[TileSetFile],
    chosen: &[bool],
    set_keys: &[u32],
    tile_keys: &[u32],
) -> Vec<TileSetFile> {
    let mut wanted: Vec<bool> = chosen.to_vec();
    // The base game's start tile is the game's: it is always in.
    wanted[0] = true;
    loop {
        let required: Vec<usize> = (0..files.len())
            .filter(|&i| wanted[i])
            .flat_map(|i| &files[i].set.requires)
            .filter_map(|r| files.iter().position(|f| f.set.id == *r))
            .filter(|&j| !wanted[j])
            .collect();
        if required.is_empty() {
            break;
        }
        for j in required {
            wanted[j] = true;
        }
    }
    let mut order: Vec<usize> = (0..files.len()).filter(|&i| wanted[i]).collect();
    order.sort_by_key(|&i| set_keys[i]);
    let mut key = tile_keys.iter().cycle();
    order
        .into_iter()
        .map(|i| {
            let mut file = files[i].clone();
            let mut keyed: Vec<(u32, tiledef::model::TileDef)> = file
                .tiles
                .drain(..)
                .map(|t| (*key.next().unwrap_or(&0), t))
                .collect();
            keyed.sort_by_key(|(k, _)| *k);
            file.tiles = keyed.into_iter().map(|(_, t)| t).collect();
            file
        })
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Which sets are exported together, and in what order their sets and tiles are written,
    /// changes nothing of what comes back.
    #[test]
    fn any_choice_and_order_of_the_bundled_sets_comes_back(
        chosen in proptest::collection::vec(proptest::bool::ANY, 9),
        set_keys in proptest::collection::vec(proptest::num::u32::ANY, 9),
        tile_keys in proptest::collection::vec(proptest::num::u32::ANY, 1..200),
    ) {
        let files = bundled_files();
        proptest::prop_assert_eq!(files.len(), 9);
        let ours = tiledef::load_bundled();
        let sets = choose(&files, &chosen, &set_keys, &tile_keys);
        let differ = differences(&sets, &ours, &round_trip(&sets, &[]));
        proptest::prop_assert!(differ.is_empty(), "{} tiles differ:\n{}", differ.len(), differ.join("\n\n"));
    }
}
