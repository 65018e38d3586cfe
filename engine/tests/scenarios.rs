//! Hand-checked scenario records (`tests/scenarios/*.toml`): each is replayed and must meet its
//! `[expect]` table. The comment at the top of each record explains every expected number.

mod common;

use engine::record::{Record, check_expectations, replay};
use std::path::Path;

#[test]
fn every_scenario_meets_its_expectations() {
    let tables = common::scenario_tables();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("scenario folder exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 20, "only {} scenarios", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("readable scenario");
        let record = match Record::from_toml(&text) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        assert!(
            record.expect.is_some(),
            "{} has no [expect]",
            path.display()
        );
        let outcome = replay(tables, &record);
        for wrong in check_expectations(tables, &record, &outcome) {
            failures.push(format!(
                "{}: {wrong}",
                path.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn a_wrong_expectation_is_reported() {
    let tables = common::tables();
    let text = r#"
        [game]
        players = 2
        [[turn]]
        tile = "E"
        at = [0, -1]
        rotation = 2
        deploy = "city"
        [expect]
        scores = [5, 0]
    "#;
    let record = Record::from_toml(text).unwrap();
    let outcome = replay(tables, &record);
    let wrong = check_expectations(tables, &record, &outcome);
    assert_eq!(
        wrong,
        vec!["scores: expected [5, 0], got [4, 0]".to_string()]
    );
}

#[test]
fn a_wrong_draw_is_reported() {
    let tables = common::tables();
    let record = |runs: &str| {
        let text = format!(
            "[game]\nsets = [\"base\", \"river\"]\nplayers = 2\nseed = 42\n[expect]\ndraw = {runs}\n"
        );
        let record = Record::from_toml(&text).unwrap();
        let outcome = replay(tables, &record);
        check_expectations(tables, &record, &outcome)
    };
    // The base game does not come first.
    let wrong = record(r#"[{ set = "base", tiles = 72 }, { set = "river", tiles = 11 }]"#);
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(
        wrong[0].starts_with("draw: run 1 (72 × set base) expected at draw position 1, got RI."),
        "{wrong:?}"
    );
    // The lake is not drawn among the other river tiles.
    let wrong = record(
        r#"[{ set = "river", tiles = 9 }, { tile = "RI.1-I.e" }, { set = "river" }, { set = "base", tiles = 72 }]"#,
    );
    assert!(
        wrong[0].contains("run 2 (1 × tile RI.1-I.e) expected at draw position 10"),
        "{wrong:?}"
    );
    // Runs must cover the whole draw.
    let wrong = record(r#"[{ set = "river", tiles = 10 }, { tile = "RI.1-I.e" }]"#);
    assert_eq!(wrong, ["draw: the runs cover 11 tiles, the draw has 83"]);
    let wrong = record(r#"[{ tiles = 84 }]"#);
    assert!(
        wrong[0].contains("goes past the end of the draw (83 tiles)"),
        "{wrong:?}"
    );
    // And the right runs pass.
    let right = record(
        r#"[{ set = "river", tiles = 10 }, { tile = "RI.1-I.e" }, { set = "base", tiles = 72 }]"#,
    );
    assert!(right.is_empty(), "{right:?}");
}

/// A wrong bonus is reported with the scorings as the record gives them, each kind of bonus a
/// record checks under its own key (`flowers: Some(…)`, `network: None`).
#[test]
fn a_wrong_bonus_expectation_is_reported_under_its_key() {
    let tables = common::scenario_tables();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/23-flowers-three-features.toml");
    let text = std::fs::read_to_string(path).expect("readable scenario");
    let wrong_text = text.replace("flowers = [[1, 3]] }", "flowers = [[1, 4]] }");
    assert_ne!(
        wrong_text, text,
        "the scenario's city pays P1 one flower group"
    );
    let record = Record::from_toml(&wrong_text).expect("a record");
    let wrong = check_expectations(tables, &record, &replay(tables, &record));
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    let city = |points: u32| {
        format!(
            "ExpectScore {{ turn: Some(16), kind: \"city\", players: [1], points: 6, \
             flowers: Some([[1, {points}]]), network: None, markers: None }}"
        )
    };
    assert!(
        wrong[0].starts_with(&format!("scorings: expected [{}, ", city(4))),
        "{}",
        wrong[0]
    );
    assert!(
        wrong[0].contains(&format!("got [{}, ", city(3))),
        "{}",
        wrong[0]
    );
}

/// An expected scoring's unknown key is refused at the key, naming the keys known (the
/// modules' bonuses among them), in TOML and in JSON.
#[test]
fn an_expected_scoring_refuses_an_unknown_key_at_the_key() {
    let line = r#"scored = [{ kind = "city", players = [1], points = 4, flowrs = [[1, 3]] }]"#;
    let text = format!("[game]\nplayers = 2\n[expect]\n{line}\n");
    let error = Record::from_toml(&text)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    let listed = "unknown field `flowrs`, expected one of `turn`, `kind`, `players`, \
        `points`, `flowers`, `network`, `markers`";
    assert!(error.contains(listed), "{error}");
    let column = line.find("flowrs").map_or(0, |at| at + 1);
    assert!(
        error.contains(&format!("line 4, column {column}")),
        "{error}"
    );
    let json = r#"{ "game": { "players": 2 }, "expect": { "scored": [
        { "kind": "city", "players": [1], "points": 4, "flowrs": [] } ] } }"#;
    let error = Record::from_json(json).map(|_| ()).unwrap_err().to_string();
    assert!(
        error.contains(listed) && error.contains("at line 2 column"),
        "{error}"
    );
    let missing = r#"scored = [{ players = [1], points = 4, flowers = [] }]"#;
    let text = format!("[game]\nplayers = 2\n[expect]\n{missing}\n");
    let error = Record::from_toml(&text)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(error.contains("missing field `kind`"), "{error}");
}

/// The bonuses an expected scoring gives are read under their kinds and written back under
/// the same keys, in TOML and in JSON; a kind not given is not checked.
#[test]
fn expected_bonuses_are_read_and_written_under_their_keys() {
    use engine::rules::BonusKind;
    let text = "[game]\nplayers = 2\n[expect]\nscored = [{ turn = 3, kind = \"road\", \
        players = [1], points = 5, flowers = [[1, 3]], network = [[1, 2], [2, 2]] }, \
        { kind = \"city\", players = [2], points = 2, markers = { inn = 0 } }]\n";
    let record = Record::from_toml(text).expect("a record");
    let scored = (record.expect.as_ref())
        .and_then(|e| e.scored.clone())
        .expect("expected scorings");
    assert_eq!(scored[0].bonuses[&BonusKind::Flowers], [[1, 3]]);
    assert_eq!(scored[0].bonuses[&BonusKind::Network], [[1, 2], [2, 2]]);
    assert!(scored[1].bonuses.is_empty(), "{:?}", scored[1]);
    let toml = record.to_toml();
    assert!(
        toml.contains("flowers = [[1, 3]]") && toml.contains("network = [[1, 2], [2, 2]]"),
        "{toml}"
    );
    assert_eq!(Record::from_toml(&toml).ok().as_ref(), Some(&record));
    let json = record.to_json();
    assert_eq!(Record::from_json(&json).ok().as_ref(), Some(&record));
}
