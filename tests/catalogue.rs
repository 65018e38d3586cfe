//! The whole catalogue at once: JCloisterZone's reference files imported, validated together,
//! and every tile's drawing checked against its data (each feature one region of its own,
//! touching exactly its ports), beside the bundled sets. Skipped with a message where
//! `../shared/reference/jcz` is absent; the bundled sets are checked everywhere.

#[path = "../tools/jcz/tests/common/reference_files.rs"]
mod reference_files;

use reference_files::reference;

/// The tiles the renderer cannot yet draw as their data says, and why. Kept exact both ways:
/// a new fault fails the test, and so does a listed tile that starts passing (remove it then).
const NOT_YET_DRAWN: &[(&str, &str)] = &[];

/// Every tile of `tileset` whose drawing disagrees with its data, as (id, fault).
fn region_faults(tileset: &tiledef::TileSet) -> Vec<(String, String)> {
    tileset
        .tiles
        .iter()
        .filter_map(|tile| {
            let fault = tilekit_render::check_regions(tileset, tile).err()?;
            Some((tile.id.clone(), fault))
        })
        .collect()
}

#[test]
fn every_bundled_tile_is_drawn_as_its_data_says() {
    let report = tiledef::load(tiledef::bundled());
    let tileset = report.tileset.expect("the bundled sets are valid");
    let faults = region_faults(&tileset);
    let lines: Vec<&str> = faults.iter().map(|(_, f)| f.as_str()).collect();
    assert!(faults.is_empty(), "{}", lines.join("\n"));
}

#[test]
fn every_imported_reference_tile_validates_and_is_drawn_as_its_data_says() {
    let Some(inputs) = reference() else { return };
    let import = tilekit_jcz::import_texts(&inputs).expect("the reference files import");
    let sources: Vec<tiledef::Source> = import
        .sets
        .iter()
        .map(|s| tiledef::Source {
            name: s.file_name.clone(),
            text: s.toml().expect("an imported set serialises"),
        })
        .collect();
    let report = tiledef::load(sources);
    let errors: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == tiledef::Severity::Error)
        .map(|d| format!("{}: {}", d.file(), d.message))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let tileset = report.tileset.expect("no errors, so a tile set");
    // The field/city rule is exercised by every `field@city` of the real tiles (263 of them).
    let borders: usize = tileset
        .tiles
        .iter()
        .flat_map(|t| &t.features)
        .map(|f| f.borders.len())
        .sum();
    assert!(borders >= 263, "{borders} field–city borders");
    assert!(
        tileset.tiles.len() >= 250,
        "{} tile types",
        tileset.tiles.len()
    );
    let faults = region_faults(&tileset);
    let unexpected: Vec<&str> = faults
        .iter()
        .filter(|(id, _)| !NOT_YET_DRAWN.iter().any(|(known, _)| known == id))
        .map(|(_, fault)| fault.as_str())
        .collect();
    assert!(
        unexpected.is_empty(),
        "{} of {} tiles:\n{}",
        unexpected.len(),
        tileset.tiles.len(),
        unexpected.join("\n")
    );
    let now_right: Vec<&str> = NOT_YET_DRAWN
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| !faults.iter().any(|(f, _)| f == id))
        .collect();
    assert!(
        now_right.is_empty(),
        "drawn right now, take them off NOT_YET_DRAWN: {now_right:?}"
    );
}
