//! The 23 JCloisterZone reference files of `../shared/reference/jcz/`: every tile imports with
//! the counts per edition its tile-sets give, and the written files validate. Skipped (with a
//! message) where the folder is absent. `TILEKIT_JCZ_REFERENCE=/path/to/jcz` points elsewhere.

mod common;

use common::reference_files::reference;

use std::collections::BTreeMap;
use tiledef::model::Count;
use tilekit_jcz::xml;

#[test]
fn every_reference_tile_imports_with_its_counts() {
    let Some(inputs) = reference() else { return };
    assert_eq!(inputs.len(), 23, "the reference folder has 23 files");
    let import = tilekit_jcz::import_texts(&inputs).expect("the reference files import");
    // Expected counts straight from the XML: (family, JCZ tile id) → edition → count.
    let mut expected: BTreeMap<(String, String), BTreeMap<String, u32>> = BTreeMap::new();
    let mut tiles_defined = 0;
    for (name, text) in &inputs {
        let file = xml::parse(name, text).unwrap();
        tiles_defined += file.tiles.len();
        for set in &file.sets {
            let (family, edition) = match set.id.split_once(':') {
                Some((f, e)) => (f, format!("C{e}")),
                None => (set.id.as_str(), String::new()),
            };
            for (tile, count) in &set.refs {
                *expected
                    .entry((tilekit_jcz::import::family_id(family), tile.clone()))
                    .or_default()
                    .entry(edition.clone())
                    .or_default() += count;
            }
            // The tiles JCZ makes in its Java for the family (the abbey) come with it, once, in
            // each of its editions.
            for tile in tilekit_jcz::vocab::code_tiles(family).1 {
                let jcz = tile.aliases.first().unwrap_or(&tile.id).clone();
                let key = (tilekit_jcz::import::family_id(family), jcz);
                if !expected.contains_key(&key) {
                    tiles_defined += 1;
                }
                if let Count::All(n) = tile.count {
                    expected.entry(key).or_default().insert(edition.clone(), n);
                }
            }
        }
    }
    let mut got: BTreeMap<(String, String), BTreeMap<String, u32>> = BTreeMap::new();
    let mut own = 0;
    for set in &import.sets {
        for tile in &set.set.tiles {
            let jcz = match &tile.like {
                Some(like) => like.clone(),
                None => {
                    own += 1;
                    tile.aliases.first().unwrap_or(&tile.id).clone()
                }
            };
            let counts = match &tile.count {
                Count::All(n)
                    if set
                        .set
                        .tiles
                        .iter()
                        .any(|t| matches!(t.count, Count::PerEdition(_)))
                        || expected
                            .get(&(set.set.set.id.clone(), jcz.clone()))
                            .is_some_and(|e| e.contains_key("C1")) =>
                {
                    BTreeMap::from([("C1".to_string(), *n), ("C2".to_string(), *n)])
                }
                Count::All(n) => BTreeMap::from([(String::new(), *n)]),
                Count::PerEdition(map) => map.clone(),
            };
            got.insert((set.set.set.id.clone(), jcz), counts);
        }
    }
    assert_eq!(own, tiles_defined, "every tile defined is imported once");
    assert_eq!(got, expected, "counts per family, tile and edition");
}

#[test]
fn every_imported_reference_file_validates() {
    let Some(inputs) = reference() else { return };
    let import = tilekit_jcz::import_texts(&inputs).unwrap();
    let errors: Vec<String> = common::errors(&import)
        .into_iter()
        .map(|(e, _)| e)
        .collect();
    assert!(
        errors.is_empty(),
        "{} errors:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn import_export_import_gives_the_same_definitions() {
    let Some(inputs) = reference() else { return };
    let first = tilekit_jcz::import_texts(&inputs).unwrap();
    let second = common::round_trip(&first);
    assert_eq!(common::normalised(&second), common::normalised(&first));
}

/// The README's table of what each reference file imports, built from a real import.
fn readme_table(inputs: &[(String, String)]) -> String {
    let import = tilekit_jcz::import_texts(inputs).unwrap();
    let mut out = String::from(
        "| JCZ file | tilekit sets | tile types | copies | carried over | reported |\n|---|---|---|---|---|---|\n",
    );
    for (name, _) in inputs {
        let sets: Vec<&tiledef::TileSetFile> = import
            .sets
            .iter()
            .filter(|s| s.from.len() == 1 && &s.from[0] == name)
            .map(|s| &s.set)
            .collect();
        let tiles: Vec<&tiledef::model::TileDef> = sets.iter().flat_map(|s| &s.tiles).collect();
        let own = tiles.iter().filter(|t| t.like.is_none()).count();
        let reprints = tiles.len() - own;
        let mut c1 = 0;
        let mut c2 = 0;
        let mut plain = 0;
        let mut editions = false;
        for s in &sets {
            let by_edition = s
                .tiles
                .iter()
                .any(|t| matches!(t.count, Count::PerEdition(_)));
            editions |= by_edition;
            for t in &s.tiles {
                match &t.count {
                    Count::All(n) if by_edition || s.set.id == "base" => {
                        c1 += n;
                        c2 += n;
                    }
                    Count::All(n) => plain += n,
                    Count::PerEdition(m) => {
                        c1 += m.get("C1").copied().unwrap_or(0);
                        c2 += m.get("C2").copied().unwrap_or(0);
                    }
                }
            }
        }
        let copies = if editions {
            format!("C1 {c1}, C2 {c2}")
        } else {
            plain.to_string()
        };
        let mut carried: BTreeMap<String, usize> = BTreeMap::new();
        for t in tiles.iter().filter(|t| t.like.is_none()) {
            *carried.entry("cities".into()).or_default() += t.features_under("cities").len();
            *carried.entry("roads".into()).or_default() += t.features_under("roads").len();
            *carried.entry("fields".into()).or_default() += t.features_under("fields").len();
            *carried.entry("monasteries".into()).or_default() +=
                usize::from(t.has_site("monastery"));
            *carried.entry("gardens".into()).or_default() += usize::from(t.has_site("garden"));
            *carried.entry("river edges".into()).or_default() += t
                .edges
                .iter()
                .flat_map(|e| [&e.n, &e.e, &e.s, &e.w])
                .filter(|k| *k == "river")
                .count();
            *carried.entry("empty ports".into()).or_default() += t.empty.len();
            let markers = t.markers.iter().chain(
                (t.features.keys())
                    .flat_map(|k| t.features_under(k))
                    .flat_map(|f| &f.markers),
            );
            for m in markers {
                *carried.entry(format!("`{m}`")).or_default() += 1;
            }
        }
        if reprints > 0 {
            carried.insert("`like` reprints".into(), reprints);
        }
        let carried = carried
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        let notes: Vec<&tilekit_jcz::Note> =
            import.notes.iter().filter(|n| &n.file == name).collect();
        let reported = tilekit_jcz::count_kinds(notes.iter().copied())
            .into_iter()
            .map(|(k, n)| format!("`{k}` {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        let set_ids = sets
            .iter()
            .map(|s| format!("`{}`", s.set.id))
            .collect::<Vec<_>>()
            .join(", ");
        out.push_str(&format!(
            "| {name} | {set_ids} | {own}{} | {copies} | {carried} | {} |\n",
            if reprints > 0 {
                format!(" + {reprints} reprinted")
            } else {
                String::new()
            },
            if reported.is_empty() {
                "—".to_string()
            } else {
                reported
            },
        ));
    }
    out
}

#[test]
fn the_readme_table_is_what_an_import_gives() {
    let Some(inputs) = reference() else { return };
    let table = readme_table(&inputs);
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    assert!(
        readme.contains(&table),
        "the README's JCZ table is stale; it should read:\n{table}"
    );
}
