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
use engine::{Phase, Record, replay};
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
            let record =
                Record::from_toml(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let name = path.file_name().expect("a name").to_string_lossy();
            out.push((name.into_owned(), record));
        }
    }
    out
}

/// Seeded random games of every bundled set, 2 to 4 players, as `simulate --record` writes
/// them, with their final scores.
fn random_games() -> Vec<(String, Record, Vec<u32>)> {
    let tables = common::tables();
    (0..SEEDS)
        .map(|seed| {
            let spec = GameSpec {
                sets: Vec::new(),
                edition: None,
                players: 2 + (seed % 3) as u8,
                rules: Default::default(),
                seed: Some(seed),
                draw: None,
                tiles: None,
                start: None,
            };
            let (record, _, scores) =
                play_random_record(tables, spec, &mut Rng::new(seed)).expect("a random game");
            (format!("random-{seed}"), record, scores)
        })
        .collect()
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
