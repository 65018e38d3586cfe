//! End-to-end tests of the `tilekit` binary: exit codes, output forms, files written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tilekit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh empty folder under the target dir.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[test]
fn validate_accepts_the_bundled_definitions() {
    let out = tilekit(&["validate"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for file in ["base.toml", "festival.toml", "village-life.toml"] {
        assert!(
            stdout.contains(&format!("definitions/{file}: ok")),
            "{stdout}"
        );
    }
}

#[test]
fn validate_reports_an_error_with_its_place_and_exits_1() {
    let out = tilekit(&[
        "validate",
        "definitions/base.toml",
        "tests/fixtures/bad/unknown-key-pennant-typo.toml",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("tests/fixtures/bad/unknown-key-pennant-typo.toml:13:28"),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `pennants`?"), "{stderr}");
    assert!(text(&out.stdout).contains("unknown-key-pennant-typo.toml: 1 error"));
}

#[test]
fn validate_json_gives_lines_and_columns() {
    let out = tilekit(&[
        "validate",
        "--format",
        "json",
        "definitions/base.toml",
        "tests/fixtures/bad/port-in-no-feature.toml",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["valid"], false);
    let d = &json["diagnostics"][0];
    assert_eq!(d["file"], "tests/fixtures/bad/port-in-no-feature.toml");
    assert_eq!(d["severity"], "error");
    assert!(d["line"].as_u64().is_some_and(|l| l > 1));
    assert!(d["column"].as_u64().is_some_and(|c| c >= 1));
    assert!(d["message"].as_str().is_some_and(|m| m.contains("WSW")));
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(
        tilekit(&["validate", "no/such/file.toml"]).status.code(),
        Some(2)
    );
    assert_eq!(
        tilekit(&["validate", "--no-such-flag"]).status.code(),
        Some(2)
    );
    assert_eq!(tilekit(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn help_shows_examples() {
    let out = tilekit(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("Examples:"));
    let out = tilekit(&["validate", "--help"]);
    assert!(text(&out.stdout).contains("Exit status"));
}

#[test]
fn schema_prints_the_committed_schema() {
    let out = tilekit(&["schema"]);
    assert_eq!(out.status.code(), Some(0));
    let committed = std::fs::read_to_string(root().join("definitions/schema/tileset.schema.json"))
        .expect("committed schema");
    assert_eq!(text(&out.stdout), committed);
}

#[test]
fn list_prints_a_table_with_totals() {
    let out = tilekit(&["list", "definitions/base.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("D (start)"), "{stdout}");
    assert!(
        stdout.contains("tiles per edition: C1 72, C2 72"),
        "{stdout}"
    );
}

#[test]
fn build_writes_a_report_and_keeps_old_outputs_on_failure() {
    let out_dir = scratch("build");
    let out_arg = out_dir.to_string_lossy().into_owned();
    let out = tilekit(&["build", "--out", &out_arg]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = std::fs::read_to_string(out_dir.join("report.txt")).expect("report written");
    assert!(report.contains("definitions/base.toml: ok"));

    // A failed build rewrites only the report and leaves no temporary files behind.
    let keep = out_dir.join("keep.txt");
    std::fs::write(&keep, "mine").expect("write");
    let out = tilekit(&[
        "build",
        "definitions/base.toml",
        "tests/fixtures/bad/two-start-tiles.toml",
        "--out",
        &out_arg,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&keep).expect("kept"), "mine");
    let leftovers: Vec<_> = std::fs::read_dir(&out_dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty());
}

/// The README's "first tile" walkthrough stays true: the example is valid, and the mistake it
/// shows gives the diagnostic it prints.
#[test]
fn the_readme_first_tile_example_is_true() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let start = readme
        .find("```toml\n#:schema ./definitions")
        .expect("the example")
        + 8;
    let example = &readme[start..start + readme[start..].find("```").expect("block end")];
    let dir = scratch("readme");
    std::fs::write(dir.join("my-set.toml"), example).expect("write");
    let run = |dir: &Path| {
        Command::new(env!("CARGO_BIN_EXE_tilekit"))
            .args(["validate", "my-set.toml"])
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("runs")
    };
    let out = run(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        readme.contains(
            &text(&out.stdout)
                .lines()
                .last()
                .unwrap_or_default()
                .to_string()
        )
    );

    let broken = example.replace("{ ports = [\"ESE\", \"SSE\"] }", "{ ports = [\"ESE\"] }");
    std::fs::write(dir.join("my-set.toml"), broken).expect("write");
    let out = run(&dir);
    assert_eq!(out.status.code(), Some(1));
    for line in text(&out.stderr).lines().filter(|l| !l.trim().is_empty()) {
        assert!(readme.contains(line), "the README does not show `{line}`");
    }
}

/// The compiled form of a tile, as `tilekit inspect` prints it, is pinned: a change to the
/// tables shows up here as a reviewable diff.
#[test]
fn inspect_pins_the_compiled_tables_of_a_tile() {
    for tile in ["D", "FE-CcCc", "VL-20"] {
        let out = tilekit(&["inspect", tile]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        insta::assert_snapshot!(format!("inspect_{tile}"), text(&out.stdout));
    }
}

#[test]
fn printing_commands_take_sets_and_name_what_they_printed() {
    let dir = scratch("sets");
    let previews = dir.join("previews");
    let out = tilekit(&[
        "render",
        "--sets",
        "festival",
        "--out",
        previews.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_dir(&previews).expect("previews").count();
    assert_eq!(written, 10, "only the Festival's tile types");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("printed 10 tile types of `festival` (requires `base`, not printed)"),
        "{stderr}"
    );

    let pdf = dir.join("festival.pdf");
    let out = tilekit(&[
        "sheet",
        "--sets",
        "festival",
        "--labels",
        "--dpi",
        "72",
        "--out",
        pdf.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("of `festival` (requires `base`"),
        "{stderr}"
    );
    assert!(stderr.contains("(10 tiles on 1 A4 pages"), "{stderr}");

    let out = tilekit(&["list", "--sets", "festival"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("10 tile types"), "{stdout}");
    assert!(!stdout.lines().any(|l| l.starts_with("base ")), "{stdout}");

    let build = dir.join("build");
    let out = tilekit(&[
        "build",
        "--sets",
        "festival,village-life",
        "--out",
        build.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = std::fs::read_to_string(build.join("report.txt")).expect("report");
    assert!(
        report.contains(
            "printed 34 tile types of `festival`, `village-life` (requires `base`, not printed)"
        ),
        "{report}"
    );
    let previews = std::fs::read_dir(build.join("previews"))
        .expect("previews")
        .count();
    assert_eq!(previews, 34);
}

#[test]
fn an_unknown_set_is_a_usage_error_listing_the_loaded_sets() {
    for command in ["render", "sheet", "build", "list"] {
        let dir = scratch(&format!("unknown-set-{command}"));
        let target = dir.join("x");
        let target = target.to_str().expect("utf-8");
        let mut args = vec![command, "--sets", "lakeland"];
        match command {
            "render" | "build" | "sheet" => args.extend(["--out", target]),
            _ => {}
        }
        let out = tilekit(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{command}: {}",
            text(&out.stderr)
        );
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(
                "no set `lakeland` is loaded (loaded: `base`, `festival`, `village-life`)"
            ),
            "{command}: {stderr}"
        );
    }
}

#[test]
fn sheet_refuses_options_that_cannot_make_a_usable_sheet() {
    let dir = scratch("sheet-options");
    let pdf = dir.join("x.pdf");
    let pdf = pdf.to_str().expect("utf-8");
    for (option, value, range) in [
        ("--margin-mm", "-50", "0–50 mm"),
        ("--tile-mm", "0.0001", "10–180 mm"),
        ("--tile-mm", "NaN", "10–180 mm"),
        ("--bleed-mm", "-1", "0–10 mm"),
    ] {
        let out = tilekit(&["sheet", &format!("{option}={value}"), "--out", pdf]);
        assert_eq!(out.status.code(), Some(2), "{option} {value}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(option) && stderr.contains(range),
            "{option} {value}: {stderr}"
        );
        assert!(
            !Path::new(pdf).exists(),
            "nothing written for {option} {value}"
        );
    }
}
