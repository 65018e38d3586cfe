//! The text a record is written in stays what it was: every scenario and example record, read
//! and written again, and seeded random games of every bundled set as `play_random_record`
//! writes them, give the TOML and JSON recorded in `tests/fixtures/written-records.txt`
//! (a 64-bit FNV-1a hash of each text, taken from the writer before turns held the modules'
//! keys in one collection).

mod common;

use engine::record::GameSpec;
use engine::rng::Rng;
use engine::rules::ActionId;
use engine::simulate::play_random_record;
use engine::{Phase, Record, RecordNames, replay};
use std::collections::BTreeSet;
use std::path::Path;

/// FNV-1a, 64 bits: stable across toolchains, unlike `std`'s hasher.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every record file of the repository: the scenarios and the examples, by name.
fn record_files() -> Vec<(String, Record)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        root.join("tests/scenarios"),
        root.join("../examples/records"),
    ] {
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("a record folder")
            .map(|e| e.expect("readable entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("readable record");
            let name = path.file_name().expect("a name").to_string_lossy();
            let record = Record::from_toml_with(&text, &declared_names(&name))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push((name.into_owned(), record));
        }
    }
    out
}

/// The names a record's turns may use besides the registry's keys: those of the example set
/// it plays (`examples/records/<set id>-….toml` plays `examples/<set id>.toml`), none for a
/// scenario.
fn declared_names(record_file: &str) -> RecordNames {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let Some(set) = (std::fs::read_dir(&examples).expect("examples/"))
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .find(|p| {
            let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
            stem.is_some_and(|s| record_file.starts_with(&format!("{s}-")))
        })
    else {
        return RecordNames::default();
    };
    let mut sources = tiledef::bundled();
    sources.extend(tiledef::read_paths(std::slice::from_ref(&set)).expect("the example set reads"));
    let tileset =
        (tiledef::load(sources).tileset).unwrap_or_else(|| panic!("{} is invalid", set.display()));
    RecordNames::of(&engine::compile(&tileset).expect("the example set compiles"))
}

/// Seeded random games of every bundled set, 2 to 4 players, as `simulate --record` writes
/// them, with their final scores.
fn random_games() -> Vec<(String, Record, Vec<u32>)> {
    let tables = common::tables();
    (0..SEEDS)
        .map(|seed| {
            let (record, scores) = random_game(tables, Vec::new(), 2 + (seed % 3) as u8, seed);
            (format!("random-{seed}"), record, scores)
        })
        .collect()
}

/// A seeded random game of `sets` (empty: all) as `simulate --record` writes it, and its final
/// scores.
fn random_game(
    tables: &engine::Tables,
    sets: Vec<String>,
    players: u8,
    seed: u64,
) -> (Record, Vec<u32>) {
    let spec = GameSpec {
        sets,
        edition: None,
        players,
        rules: Default::default(),
        seed: Some(seed),
        draw: None,
        tiles: None,
        start: None,
    };
    let (record, _, scores) =
        play_random_record(tables, spec, &mut Rng::new(seed)).expect("a random game");
    (record, scores)
}

/// The random games' records, by name.
fn random_records() -> Vec<(String, Record)> {
    (random_games().into_iter())
        .map(|(name, record, _)| (name, record))
        .collect()
}

/// Random games written: enough for every record key to appear.
const SEEDS: u64 = 12;

#[test]
fn records_are_written_as_before() {
    let expected_text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/written-records.txt"),
    )
    .expect("the expected hashes");
    let expected: Vec<&str> = expected_text.lines().collect();
    let records: Vec<(String, Record)> =
        record_files().into_iter().chain(random_records()).collect();
    let mut wrong = Vec::new();
    let mut got = Vec::new();
    for (name, record) in &records {
        let (toml, json) = (record.to_toml(), record.to_json());
        let line = format!("{name} {:016x} {:016x}", fnv(&toml), fnv(&json));
        if !expected.contains(&line.as_str()) {
            wrong.push(format!("{line}\n{toml}"));
        }
        got.push(line);
    }
    assert!(
        wrong.is_empty(),
        "{} of {} records are written otherwise:\n{}",
        wrong.len(),
        records.len(),
        wrong.join("\n")
    );
    assert_eq!(got.len(), expected.len(), "records: {}", got.join("\n"));
}

/// The random games write every key a turn may have, each action's in its own form, so the
/// expected text covers them all; read back, TOML and JSON, each replays to the game's end and
/// scores.
#[test]
fn the_random_records_write_every_record_key() {
    let mut written = BTreeSet::new();
    for (name, record, scores) in random_games() {
        for text in [record.to_toml(), record.to_json()] {
            let read = Record::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let replayed =
                replay(common::tables(), &read).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(replayed.game.phase(), Phase::Over, "{name}");
            assert_eq!(replayed.game.scores(), scores, "{name}");
        }
        let text = record.to_toml();
        for line in text.lines() {
            // A table value is written as its own `[turn.KEY]` section.
            let key = (line
                .strip_prefix("[turn.")
                .and_then(|k| k.strip_suffix(']')))
            .or_else(|| line.split_once(" = ").map(|(k, _)| k));
            written.extend(key.map(str::to_string));
        }
    }
    let missing: Vec<&str> = ActionId::moves()
        .filter_map(|a| a.info().record_key)
        .chain(["tile", "at", "rotation", "deploy", "figure"])
        .filter(|k| !written.contains(*k))
        .collect();
    assert!(missing.is_empty(), "never written: {missing:?}");
}

/// A fan's creatures are written under their own ids: the sea serpent's steps as `serpent`,
/// the lighthouse keeper's move as `lighthouse`. Read back with the names the definitions
/// declare, each record replays to its game's scores; read without them, the creature's key is
/// refused by name; written under the registry's keys (`dragon`, `fairy`), as records were
/// before, it replays the same.
#[test]
fn a_creature_s_moves_are_written_under_its_id() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut sources = tiledef::bundled();
    sources.extend(tiledef::read_paths(&[examples.join("serpent.toml")]).expect("readable"));
    let tileset = tiledef::load(sources).tileset.expect("valid");
    let tables = engine::compile(&tileset).expect("compiles");
    let names = RecordNames::of(&tables);
    let mut written = BTreeSet::new();
    for seed in 0..8 {
        let sets = vec!["base".into(), "serpent".into()];
        let (record, scores) = random_game(&tables, sets, 3, seed);
        let keys: BTreeSet<String> = (record.turns.iter())
            .flat_map(|t| t.actions().map(|(k, _)| k.to_string()).collect::<Vec<_>>())
            .collect();
        let toml = record.to_toml();
        let registry_keys = (toml.replace("\nserpent = ", "\ndragon = "))
            .replace("[turn.lighthouse]", "[turn.fairy]")
            .replace("\nlighthouse = ", "\nfairy = ");
        for text in [toml, record.to_json()] {
            let read = Record::parse_with(&text, &names).expect("reads with the names");
            let replayed = replay(&tables, &read).expect("replays");
            assert_eq!(replayed.game.scores(), scores, "seed {seed}");
            if keys.contains("serpent") || keys.contains("lighthouse") {
                let refused = Record::parse(&text).expect_err("no names: refused");
                assert!(refused.to_string().contains("unknown key `"), "{refused}");
            }
        }
        let read = Record::from_toml(&registry_keys).expect("the registry's keys read");
        let replayed = replay(&tables, &read).expect("replays");
        assert_eq!(replayed.game.scores(), scores, "seed {seed}, registry keys");
        written.extend(keys);
    }
    for key in ["serpent", "lighthouse"] {
        assert!(written.contains(key), "never written: {key} ({written:?})");
    }
    assert!(
        !written.contains("dragon") && !written.contains("fairy"),
        "{written:?}"
    );
}

/// A fan set whose pilgrim moves on (`power = "move-on"`) from a completed road to the chapel
/// its tile links it to.
const PILGRIMS: &str = r#"
format = 1

[set]
id = "pilgrims"
name = "Pilgrims"
requires = ["base"]

[[figure]]
id = "pilgrim"
name = "Pilgrim"
count = 2
on = ["road", "monastery"]
power = "move-on"

[[tile]]
id = "PW-chapel"
name = "Chapel on a road"
count = 12
edges = { n = "field", e = "field", s = "road", w = "field" }
monastery = true
roads = [{ ports = ["S"], end = "monastery" }]
fields = [{ ports = ["SSW", "WSW", "WNW", "NNW", "NNE", "ENE", "ESE", "SSE"] }]
moves = [["S", "monastery"]]
"#;

#[test]
fn a_figure_s_moves_on_are_written_under_its_id() {
    let mut sources = tiledef::bundled();
    sources.push(tiledef::Source {
        name: "pilgrims.toml".into(),
        text: PILGRIMS.into(),
    });
    let tileset = tiledef::load(sources).tileset.expect("valid");
    let tables = engine::compile(&tileset).expect("compiles");
    let names = RecordNames::of(&tables);
    let mut written = BTreeSet::new();
    for seed in 0..16 {
        let sets = vec!["base".into(), "pilgrims".into()];
        let (record, scores) = random_game(&tables, sets, 2, seed);
        let keys: BTreeSet<String> = (record.turns.iter())
            .flat_map(|t| t.actions().map(|(k, _)| k.to_string()).collect::<Vec<_>>())
            .collect();
        let toml = record.to_toml();
        for text in [toml.clone(), record.to_json()] {
            let read = Record::parse_with(&text, &names).expect("reads with the names");
            let replayed = replay(&tables, &read).expect("replays");
            assert_eq!(replayed.game.scores(), scores, "seed {seed}");
        }
        let registry_key = (toml.replace("\npilgrim = ", "\nwagon = "))
            .replace("[[turn.pilgrim]]", "[[turn.wagon]]");
        let read = Record::from_toml(&registry_key).expect("the registry's key reads");
        let replayed = replay(&tables, &read).expect("replays");
        assert_eq!(replayed.game.scores(), scores, "seed {seed}, registry key");
        written.extend(keys);
    }
    assert!(written.contains("pilgrim"), "never written ({written:?})");
    assert!(!written.contains("wagon"), "{written:?}");
}
