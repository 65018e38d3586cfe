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
