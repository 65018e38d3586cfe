//! The broken-file corpus: every file in `tests/fixtures/bad/` must produce diagnostics in that
//! file, each rendered with `file:line:col` and a caret, pinned by an insta snapshot.
//!
//! A fixture is loaded with `definitions/base.toml` unless its first line says otherwise:
//! `# load-with: definitions/base.toml definitions/village-life.toml`, or `# load-with: -` to
//! load it alone.

use std::path::{Path, PathBuf};
use tiledef::{Severity, Source};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn source(relative: &str) -> Source {
    let text = std::fs::read_to_string(root().join(relative))
        .unwrap_or_else(|e| panic!("cannot read {relative}: {e}"));
    Source {
        name: relative.to_string(),
        text,
    }
}

/// Loads a fixture with its companions; returns the rendered diagnostics of the fixture file.
fn diagnose(relative: &str) -> (Vec<tiledef::Diagnostic>, String) {
    let fixture = source(relative);
    let companions: Vec<String> = match fixture.text.lines().next() {
        Some(line) if line.starts_with("# load-with:") => line["# load-with:".len()..]
            .split_whitespace()
            .filter(|p| *p != "-")
            .map(str::to_string)
            .collect(),
        _ => vec!["definitions/base.toml".to_string()],
    };
    let mut sources: Vec<Source> = companions.iter().map(|c| source(c)).collect();
    sources.push(fixture);
    let report = tiledef::load(sources);
    let mine: Vec<tiledef::Diagnostic> = report
        .diagnostics
        .into_iter()
        .filter(|d| d.file() == relative)
        .collect();
    let rendered = mine
        .iter()
        .map(|d| d.render_plain())
        .collect::<Vec<_>>()
        .join("\n");
    (mine, rendered)
}

#[test]
fn every_broken_file_is_diagnosed_at_a_place() {
    // File names are relative to the repository root, as the CLI's are to its working folder:
    // artwork paths resolve against the fixture's folder from there. (The other tests of this
    // binary use absolute paths.)
    std::env::set_current_dir(root()).expect("the repository root exists");
    let dir = root().join("tests/fixtures/bad");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the corpus folder exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    assert!(names.len() >= 30, "the corpus has {} files", names.len());
    for name in names {
        let relative = format!("tests/fixtures/bad/{name}");
        let (diagnostics, rendered) = diagnose(&relative);
        assert!(!diagnostics.is_empty(), "{relative}: no diagnostic");
        let warning_only = ["rotation-twin", "cannot-start", "unused-vocabulary"]
            .iter()
            .any(|w| name.starts_with(w));
        if !warning_only {
            assert!(
                diagnostics.iter().any(|d| d.severity == Severity::Error),
                "{relative}: no error"
            );
        }
        for d in &diagnostics {
            let (line, col) = d.line_col();
            let place = format!("{relative}:{line}:{col}");
            assert!(rendered.contains(&place), "{relative}: `{place}` not shown");
        }
        let stem = name.trim_end_matches(".toml");
        insta::assert_snapshot!(stem, rendered);
    }
}

#[test]
fn the_bundled_definitions_are_valid_without_warnings() {
    let report = tiledef::load(tiledef::bundled());
    let rendered: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| d.render_plain())
        .collect();
    assert!(rendered.is_empty(), "{}", rendered.join("\n"));
    assert!(report.tileset.is_some());
}

#[test]
fn the_bundled_copy_matches_the_files() {
    for source in tiledef::bundled() {
        let on_disk = std::fs::read_to_string(root().join(&source.name)).expect("file exists");
        assert_eq!(
            on_disk, source.text,
            "{} differs from the compiled-in copy",
            source.name
        );
    }
}

#[test]
fn the_committed_schema_is_the_generated_one() {
    let committed = std::fs::read_to_string(root().join("definitions/schema/tileset.schema.json"))
        .expect("the schema is committed");
    assert!(
        committed == tiledef::json_schema_text(),
        "definitions/schema/tileset.schema.json is stale: run `tilekit schema --out definitions/schema/tileset.schema.json`"
    );
}
