//! Helpers shared by the importer's tests.

pub mod reference_files;

use tiledef::model::TileSetFile;
use tilekit_jcz::import::Import;

/// The sources of an import, as written, with the bundled sets they require but it lacks.
pub fn sources(import: &Import) -> Vec<tiledef::Source> {
    let mut out: Vec<tiledef::Source> = import
        .sets
        .iter()
        .map(|s| tiledef::Source {
            name: s.file_name.clone(),
            text: s.toml().unwrap(),
        })
        .collect();
    let have: Vec<&str> = import.sets.iter().map(|s| s.set.set.id.as_str()).collect();
    let wanted: Vec<&String> = import
        .sets
        .iter()
        .flat_map(|s| &s.set.set.requires)
        .collect();
    for source in tiledef::bundled() {
        let file: TileSetFile = toml::from_str(&source.text).unwrap();
        if !have.contains(&file.set.id.as_str()) && wanted.contains(&&file.set.id) {
            out.insert(0, source);
        }
    }
    out
}

/// The errors of validating an import, one line each: `file: message [code]`.
pub fn errors(import: &Import) -> Vec<(String, &'static str)> {
    tiledef::load(sources(import))
        .diagnostics
        .iter()
        .filter(|d| d.severity == tiledef::Severity::Error)
        .map(|d| (format!("{}: {} [{}]", d.file(), d.message, d.code), d.code))
        .collect()
}

/// Each set as TOML without its description, marker lists sorted (their order carries no
/// meaning): what import → export → import must keep.
pub fn normalised(import: &Import) -> Vec<(String, String)> {
    import
        .sets
        .iter()
        .map(|s| {
            let mut file = s.set.clone();
            file.set.description = None;
            for t in &mut file.tiles {
                t.markers.sort();
            }
            (
                s.file_name.clone(),
                tilekit_jcz::write::to_toml(&file, "x", &[]).unwrap(),
            )
        })
        .collect()
}

/// Import → export → import.
pub fn round_trip(first: &Import) -> Import {
    let sets: Vec<TileSetFile> = first.sets.iter().map(|s| s.set.clone()).collect();
    let xml = tilekit_jcz::export::export(&sets, &[], "round.xml").xml;
    let text = tilekit_jcz::xml::write(&xml, "");
    tilekit_jcz::import_texts(&[("round.xml".to_string(), text)]).unwrap()
}
