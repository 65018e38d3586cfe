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
