//! End-to-end tests of the `tilekit` binary: exit codes, output forms, files written.

mod common;

use common::{root, scratch, text, tilekit};
use std::path::Path;
use std::process::{Command, Output};

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

/// A tile whose picture cannot say its data is a warning at its `file:line:col`, never a
/// silent picture: `validate` (still valid), `render`, `sheet` and `build`'s report.txt; the
/// bundled tiles have none.
#[test]
fn a_picture_that_cannot_say_its_data_is_a_warning() {
    let file = "tests/fixtures/picture-cannot-say.toml";
    let out = tilekit(&["validate", file]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("tilekit::picture-contradicts-data"),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("{file}:12:6")), "{stderr}");
    assert!(stderr.contains("tile `PX-1`"), "{stderr}");
    assert!(text(&out.stdout).contains("picture-cannot-say.toml: ok with 1 warning"));
    let out = tilekit(&["validate"]);
    assert!(!text(&out.stderr).contains("picture-contradicts-data"));

    let dir = scratch("picture-warning");
    let previews = dir.join("previews").to_string_lossy().into_owned();
    let out = tilekit(&[
        "render",
        file,
        "--sets",
        "picture-cannot-say",
        "--out",
        &previews,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("tile `PX-1`"));
    let pdf = dir.join("sheet.pdf").to_string_lossy().into_owned();
    let out = tilekit(&["sheet", file, "--sets", "picture-cannot-say", "--out", &pdf]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("tile `PX-1`"));
    let built = dir.join("build").to_string_lossy().into_owned();
    let out = tilekit(&[
        "build",
        file,
        "--sets",
        "picture-cannot-say",
        "--out",
        &built,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = std::fs::read_to_string(dir.join("build/report.txt")).expect("report");
    assert!(
        report.contains("the picture of tile `PX-1` does not say its data"),
        "{report}"
    );
}

/// The README's "first tile" walkthrough stays true: the example is valid, and the mistake it
/// shows gives the diagnostic it prints.
#[test]
fn the_readme_first_tile_example_is_true() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let start = readme.find(README_EXAMPLE).expect("the example") + README_EXAMPLE.len();
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
    // Every line it prints, the bundled base set's included, in the order printed.
    let printed = text(&out.stdout);
    assert!(printed.lines().count() >= 2, "{printed}");
    assert!(
        readme.contains(&format!("$ tilekit validate my-set.toml\n{printed}```")),
        "the README does not show:\n{printed}"
    );

    let broken = example.replace("{ ports = [\"ESE\", \"SSE\"] }", "{ ports = [\"ESE\"] }");
    std::fs::write(dir.join("my-set.toml"), broken).expect("write");
    let out = run(&dir);
    assert_eq!(out.status.code(), Some(1));
    for line in text(&out.stderr).lines().filter(|l| !l.trim().is_empty()) {
        assert!(readme.contains(line), "the README does not show `{line}`");
    }
}

/// The README's mayor example shows what `tilekit play` prints for that record: each line it
/// shows (the elided turns aside) is a line of the output, in order.
#[test]
fn the_readme_mayor_example_is_true() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let command = "$ tilekit play examples/records/mayor-three-pennants-beat-two-followers.toml examples/mayor.toml\n";
    let start = readme.find(command).expect("the mayor example") + command.len();
    let shown = &readme[start..start + readme[start..].find("```").expect("block end")];
    let out = tilekit(&[
        "play",
        "examples/records/mayor-three-pennants-beat-two-followers.toml",
        "examples/mayor.toml",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    let mut lines = printed.lines();
    for want in shown.lines().filter(|l| *l != "…") {
        assert!(
            lines.any(|l| l == want),
            "the README shows `{want}`, which play does not print (in that order):\n{printed}"
        );
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
    assert!(stderr.contains("(10 tiles on 1 A4 page,"), "{stderr}");

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
                "no set `lakeland` is loaded (loaded: `base`, `abbey-and-mayor`, `festival`, `inns-and-cathedrals`, `princess-and-dragon`, `river`, `river-2`, `traders-and-builders`, `village-life`)"
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

// ---- robustness: outputs, pipes, inputs, limits, exit codes ---------------------------------

/// Runs the binary in `dir` with stdout and stderr captured.
fn tilekit_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

#[cfg(unix)]
#[test]
fn an_output_through_a_symlink_to_a_device_is_written_through_never_replaced() {
    use std::os::unix::fs::symlink;
    let dir = scratch("out-device");
    // `/dev/full` itself is never at risk here: the link is what an old tilekit replaced.
    let full = dir.join("full");
    symlink("/dev/full", &full).expect("symlink");
    let out = tilekit(&["compile", "--out", &full.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("No space left"),
        "{}",
        text(&out.stderr)
    );
    assert!(is_symlink(&full), "the link was replaced by a file");

    let stdout = dir.join("stdout");
    symlink("/dev/stdout", &stdout).expect("symlink");
    let out = tilekit(&[
        "compile",
        "--format",
        "json",
        "--out",
        &stdout.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with('{'), "{}", text(&out.stdout));
    assert!(is_symlink(&stdout));
    assert!(
        !std::fs::read_dir(&dir)
            .expect("dir")
            .flatten()
            .any(|e| e.file_name().to_string_lossy().contains(".tmp-"))
    );
}

#[cfg(unix)]
#[test]
fn an_output_through_a_symlink_to_a_file_replaces_the_file_and_keeps_the_link() {
    let dir = scratch("out-link");
    let target = dir.join("tables.json");
    std::fs::write(&target, "old").expect("write");
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let out = tilekit(&["compile", "--out", &link.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(is_symlink(&link));
    assert!(
        std::fs::read_to_string(&target)
            .expect("target")
            .starts_with('{')
    );
}

#[cfg(unix)]
#[test]
fn dev_stdout_redirected_to_a_file_gets_the_tables_alone() {
    let dir = scratch("dev-stdout");
    let path = dir.join("captured.json");
    let file = std::fs::File::create(&path).expect("create");
    let out = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(["compile", "--format", "json", "--out", "/dev/stdout"])
        .current_dir(root())
        .stdout(file)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let captured = std::fs::read(&path).expect("captured");
    // The tables alone (the summary goes to stderr), as a file written with --out would be.
    let json: serde_json::Value = serde_json::from_slice(&captured).expect("only the tables");
    assert!(json.is_object());
    assert!(text(&out.stderr).contains("wrote /dev/stdout"));
}

#[cfg(unix)]
#[test]
fn outputs_are_readable_by_others_like_any_new_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("out-mode");
    let path = dir.join("tables.bin");
    let out = tilekit(&["compile", "--out", &path.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mode = std::fs::metadata(&path)
        .expect("written")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o644);
    // A replaced file keeps its mode.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let out = tilekit(&["compile", "--out", &path.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0));
    let mode = std::fs::metadata(&path)
        .expect("written")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn an_output_never_replaces_a_file_the_command_reads() {
    let dir = scratch("out-input");
    let own = dir.join("own.toml");
    let example = readme_example();
    std::fs::write(&own, &example).expect("write");
    for args in [
        vec!["sheet", "own.toml", "--out", "own.toml"],
        vec!["compile", "own.toml", "--out", "own.toml"],
        vec!["render", "own.toml", "--contact-sheet", "own.toml"],
    ] {
        let out = tilekit_in(&dir, &args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("refusing to write"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(
            std::fs::read_to_string(&own).expect("kept"),
            example,
            "{args:?}"
        );
    }
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    use std::process::Stdio;
    for args in [
        vec!["list"],
        vec!["validate"],
        vec!["schema"],
        vec!["inspect", "D"],
        vec![
            "play",
            "engine/tests/scenarios/01-small-city.toml",
            "--json",
        ],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tilekit"))
            .args(&args)
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        // The reader goes away before the first byte is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("waits");
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[cfg(unix)]
#[test]
fn a_full_stdout_is_an_error_with_exit_2() {
    for args in [
        vec!["validate"],
        vec!["list"],
        vec!["schema"],
        vec!["inspect", "D"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = Command::new(env!("CARGO_BIN_EXE_tilekit"))
            .args(&args)
            .current_dir(root())
            .stdout(full)
            .output()
            .expect("runs");
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to stdout"),
            "{args:?}: {stderr}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_full_stderr_does_not_change_the_exit_status() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args([
            "validate",
            "definitions/base.toml",
            "tests/fixtures/bad/two-start-tiles.toml",
        ])
        .current_dir(root())
        .stderr(full)
        .output()
        .expect("runs");
    // A panic would exit 101; its message is lost in /dev/full.
    assert_eq!(out.status.code(), Some(1));
}

#[cfg(unix)]
#[test]
fn devices_and_oversized_files_are_refused_not_read() {
    let out = tilekit(&["validate", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
    let out = tilekit(&["play", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );

    let dir = scratch("too-large");
    let big = dir.join("big.toml");
    let file = std::fs::File::create(&big).expect("create");
    file.set_len(65 << 20).expect("sparse file");
    for command in ["validate", "play"] {
        let out = tilekit(&[command, &big.to_string_lossy()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("64 MiB"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[cfg(unix)]
#[test]
fn a_dangling_or_looping_symlink_in_a_folder_is_reported() {
    let dir = scratch("dangling");
    let defs = dir.join("defs");
    std::fs::create_dir_all(&defs).expect("dir");
    std::fs::write(defs.join("my-set.toml"), readme_example()).expect("write");
    std::os::unix::fs::symlink("nowhere.toml", defs.join("gone.toml")).expect("symlink");
    let out = tilekit_in(&dir, &["validate", "defs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("gone.toml"),
        "{}",
        text(&out.stderr)
    );

    std::fs::remove_file(defs.join("gone.toml")).expect("remove");
    std::os::unix::fs::symlink("loop.toml", defs.join("loop.toml")).expect("symlink");
    let out = tilekit_in(&dir, &["validate", "defs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("loop.toml"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_definitions_folder_without_the_base_set_is_read_and_bundled_sets_say_so() {
    let dir = scratch("own-definitions");
    std::fs::create_dir_all(dir.join("definitions")).expect("dir");
    std::fs::write(dir.join("definitions/my-set.toml"), readme_example()).expect("write");
    let out = tilekit_in(&dir, &["validate"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "definitions/base.toml (bundled): ok (set `base`, 32 tile types)\n\
         definitions/my-set.toml: ok (set `my-set`, 1 tile type)\n"
    );
    let out = tilekit_in(&dir, &["list"]);
    assert!(text(&out.stdout).contains("MY-1"), "{}", text(&out.stdout));

    // No ./definitions at all: the bundled sets, named as such.
    let empty = scratch("no-definitions");
    let out = tilekit_in(&empty, &["validate"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for line in text(&out.stdout).lines() {
        assert!(line.contains(" (bundled): ok"), "{line}");
    }
}

#[test]
fn simulate_plays_a_player_per_seat_and_gives_their_win_rates() {
    let args = [
        "simulate",
        "--games",
        "8",
        "--sets",
        "base",
        "--players",
        "greedy,random",
        "--json",
    ];
    let out = tilekit(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["seats"], serde_json::json!(["greedy", "random"]));
    let rates: Vec<f64> = json["win_rate"]
        .as_array()
        .expect("win_rate per seat")
        .iter()
        .filter_map(serde_json::Value::as_f64)
        .collect();
    assert_eq!(rates.len(), 2);
    assert!((rates[0] + rates[1] - 1.0).abs() < 1e-9, "{rates:?}");
    assert!(rates[0] > rates[1], "greedy lost to random: {rates:?}");
    // The text report names each seat's player and win rate.
    let out = tilekit(&args[..args.len() - 1]);
    assert!(
        text(&out.stdout).contains("seat 1 (greedy): mean score"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("win rate"));
    for bad in ["greedy,smart", "mcts:0", "0"] {
        let out = tilekit(&["simulate", "--games", "1", "--players", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(text(&out.stderr).contains("invalid value"), "{bad}");
    }
}

#[test]
fn game_sizes_and_counts_have_clear_limits() {
    for args in [
        vec!["simulate", "--games", "0"],
        vec!["simulate", "--players", "0"],
        vec!["simulate", "--players", "9"],
        vec!["simulate", "--games", "1000000000000"],
        vec!["simulate", "--tiles", "0"],
        vec!["bench", "--games", "0"],
    ] {
        let out = tilekit(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("invalid value"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// A record of a straight road of `n` tiles east of the start tile (all `U`, rotation 0).
fn straight_road(n: usize) -> String {
    let mut record = String::from("[game]\nsets = [\"base\"]\nplayers = 2\ndraw = [");
    record.push_str(&vec!["\"U\""; n].join(", "));
    record.push_str("]\n");
    for x in 1..=n {
        record.push_str(&format!("\n[[turn]]\nat = [{x}, 0]\nrotation = 0\n"));
    }
    record
}

#[test]
fn a_16400_tile_straight_road_replays() {
    let dir = scratch("long-road");
    let record = dir.join("road.toml");
    std::fs::write(&record, straight_road(16_399)).expect("write");
    let out = tilekit(&["play", &record.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("P1 places U at (16399, 0)"));
    assert!(text(&out.stdout).contains("final scores"));
}

#[test]
fn a_game_beyond_the_board_limit_is_refused_before_it_starts() {
    let dir = scratch("huge-game");
    let record = dir.join("huge.toml");
    let mut text_ = String::from("[game]\nsets = [\"base\"]\nplayers = 2\ndraw = [");
    text_.push_str(&vec!["\"U\""; 32_000].join(", "));
    text_.push_str("]\n\n[[turn]]\nat = [1, 0]\nrotation = 0\n");
    std::fs::write(&record, text_).expect("write");
    let out = tilekit(&["play", &record.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("32001 tiles"), "{stderr}");
    assert!(stderr.contains("at most 32000"), "{stderr}");
}

#[test]
fn build_writes_what_it_can_and_reports_what_failed() {
    let dir = scratch("build-partial");
    // A folder where one preview goes: that file cannot be written.
    std::fs::create_dir_all(dir.join("previews/D.png")).expect("dir");
    // A temp file of a process that no longer runs (pids stay under 2^22).
    let stale = dir.join(".tables.bin.tmp-4194399.abc123");
    std::fs::write(&stale, "left by kill -9").expect("write");
    let out = tilekit(&["build", "--out", &dir.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let report = std::fs::read_to_string(dir.join("report.txt")).expect("report written");
    assert!(report.contains("FAILED"), "{report}");
    assert!(report.contains("D.png"), "{report}");
    for written in [
        "tables.bin",
        "tables.json",
        "contact-sheet.png",
        "sheets-a4.pdf",
    ] {
        assert!(dir.join(written).is_file(), "{written} missing");
        assert!(report.contains(&format!("wrote {}", dir.join(written).display())));
    }
    assert!(!stale.exists(), "the stale temp file is still there");
}

/// A set with kinds of its own (lakes, an island) builds whole: tables, previews and sheets, and
/// its games play.
#[test]
fn build_of_a_set_with_its_own_kinds_writes_everything() {
    let dir = scratch("build-lakes");
    let lakes = "tiledef/tests/fixtures/lakes.toml";
    let out = tilekit(&[
        "build",
        "definitions/base.toml",
        lakes,
        "--sets",
        "lakes",
        "--out",
        &dir.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for written in [
        "tables.bin",
        "tables.json",
        "previews/LK-bay.png",
        "contact-sheet.png",
        "sheets-a4.pdf",
        "sheets-letter.pdf",
    ] {
        assert!(dir.join(written).is_file(), "{written} missing");
    }
    let out = tilekit(&[
        "simulate",
        "definitions/base.toml",
        lakes,
        "--sets",
        "base,lakes",
        "--games",
        "200",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let lakes = json["points_per_game_by_source"]["lakes"]
        .as_f64()
        .unwrap_or(0.0);
    assert!(lakes > 0.0, "lakes scored nothing: {json}");
}

/// Writes a set into `dir` that validates but that the engine's tables cannot hold: a tile of
/// 65 features (a field round its edges and 64 inner ones).
fn too_many_features(dir: &Path) -> std::path::PathBuf {
    let inner = vec!["{ inner = true }"; 64].join(", ");
    let many = dir.join("many.toml");
    let text_of_set = format!(
        "format = 1\n[set]\nid = \"many\"\nname = \"Many\"\nrequires = [\"base\"]\n\n\
         [[tile]]\nid = \"MANY\"\ncount = 1\n\
         edges = {{ n = \"field\", e = \"field\", s = \"field\", w = \"field\" }}\n\
         fields = [{{ ports = [\"NNW\", \"NNE\", \"ENE\", \"ESE\", \"SSE\", \"SSW\", \"WSW\", \"WNW\"] }}, {inner}]\n"
    );
    std::fs::write(&many, text_of_set).expect("write the set");
    many
}

/// A set that validates but that the engine's tables cannot hold (a tile of 65 features) is
/// still drawn and printed; only the tables are not written, and the build says why and exits 1.
#[test]
fn build_of_a_set_the_engine_cannot_hold_still_prints_it() {
    let dir = scratch("build-many");
    let many = too_many_features(&dir);
    let out_dir = dir.join("out");
    let out = tilekit(&[
        "build",
        "definitions/base.toml",
        &many.to_string_lossy(),
        "--sets",
        "many",
        "--out",
        &out_dir.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("tables.bin and tables.json not written: tile MANY has 65 features"),
        "{stderr}"
    );
    for written in ["previews/MANY.png", "contact-sheet.png", "sheets-a4.pdf"] {
        assert!(out_dir.join(written).is_file(), "{written} missing");
    }
    assert!(!out_dir.join("tables.bin").exists());
    let report = std::fs::read_to_string(out_dir.join("report.txt")).expect("report written");
    assert!(
        report.contains("NOT WRITTEN tables.bin and tables.json"),
        "{report}"
    );
}

/// A valid record of the base game.
const RECORD: &str = "engine/tests/scenarios/abbot-off.toml";

/// A name mistyped on the command line is refused as the user's mistake (exit 2, not the
/// record's), with the nearest existing name.
#[test]
fn mistyped_names_on_the_command_line_say_the_nearest_one() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["play", RECORD, "--option", "wels"],
            "did you mean `wells`?",
        ),
        (
            &["play", RECORD, "--figure", "abot=0"],
            "did you mean `abbot`?",
        ),
        (
            &[
                "simulate",
                "--games",
                "1",
                "--option",
                "first-edition-small-cty",
            ],
            "did you mean `first-edition-small-city`?",
        ),
        (
            &["simulate", "--games", "1", "--figure", "larg-follower=1"],
            "did you mean `large-follower`?",
        ),
        (
            &["simulate", "--games", "1", "--sets", "base,festivl"],
            "did you mean `festival`?",
        ),
        (
            &["bench", "--games", "1", "--sets", "bse"],
            "did you mean `base`?",
        ),
        (&["list", "--sets", "rivr"], "did you mean `river`?"),
        // Nothing near: no guess, the list alone.
        (&["play", RECORD, "--option", "nope"], "(known: "),
    ];
    for (args, says) in cases {
        let out = tilekit(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(
            !stderr.contains(RECORD),
            "{args:?} blames the record: {stderr}"
        );
    }
    let out = tilekit(&["play", RECORD, "--option", "nope"]);
    assert!(!text(&out.stderr).contains("did you mean"));
}

/// The exit status table of the README, command by command: 1 for invalid input data, 2 for a
/// usage or I/O error (an unknown id on the command line is a usage error).
#[test]
fn every_command_follows_the_exit_status_table() {
    let bad = "tests/fixtures/bad/two-start-tiles.toml";
    let dir = scratch("exit-codes");
    let x = dir.join("x").to_string_lossy().into_owned();
    let xbin = dir.join("x.bin").to_string_lossy().into_owned();
    let xpdf = dir.join("x.pdf").to_string_lossy().into_owned();
    let many = too_many_features(&dir).to_string_lossy().into_owned();
    let cases: Vec<(Vec<&str>, i32)> = vec![
        (vec!["validate", "definitions/base.toml", bad], 1),
        (vec!["validate", "no/such.toml"], 2),
        // Valid definitions the engine's tables cannot hold are input data.
        (vec!["simulate", "definitions/base.toml", &many], 1),
        (vec!["list", "definitions/base.toml", bad], 1),
        (vec!["list", "no/such.toml"], 2),
        (
            vec!["compile", "definitions/base.toml", bad, "--out", &xbin],
            1,
        ),
        (vec!["compile", "--out", "tests"], 2),
        (vec!["inspect", "NOPE"], 2),
        (vec!["inspect", "D", "definitions/base.toml", bad], 1),
        (vec!["play", "no/such.toml"], 2),
        (vec!["play", "tests/fixtures/bad/two-start-tiles.toml"], 1),
        // A mistake on the command line is a usage error, whatever the record holds.
        (vec!["play", RECORD, "--option", "nope"], 2),
        (vec!["play", RECORD, "--figure", "nope=1"], 2),
        (vec!["simulate", "--sets", "NOPE", "--games", "1"], 2),
        (vec!["simulate", "--edition", "NOPE", "--games", "1"], 2),
        (vec!["simulate", "definitions/base.toml", bad], 1),
        (vec!["bench", "--sets", "NOPE", "--games", "1"], 2),
        (vec!["bench", "definitions/base.toml", bad], 1),
        (vec!["render", "--tile", "NOPE", "--out", &x], 2),
        (vec!["render", "definitions/base.toml", bad, "--out", &x], 1),
        (vec!["sheet", "--edition", "NOPE", "--out", &xpdf], 2),
        (
            vec!["sheet", "definitions/base.toml", bad, "--out", &xpdf],
            1,
        ),
        (vec!["build", "definitions/base.toml", bad, "--out", &x], 1),
        (vec!["build", "no/such.toml", "--out", &x], 2),
        (vec!["schema", "--out", "tests"], 2),
        (vec!["nope"], 2),
    ];
    for (args, code) in cases {
        let out = tilekit(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// The opening fence of the README's first tile (the docs test writes it to `my-set.toml`).
const README_EXAMPLE: &str = "```toml file=my-set.toml\n";

fn readme_example() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let start = readme.find(README_EXAMPLE).expect("the example") + README_EXAMPLE.len();
    readme[start..start + readme[start..].find("```").expect("block end")].to_string()
}

#[test]
fn render_of_one_tile_says_one_tile_type() {
    let dir = scratch("render-one");
    let out = tilekit(&[
        "render",
        "--tile",
        "D",
        "--out",
        dir.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("printed 1 tile type to "), "{stderr}");
}

#[test]
fn simulate_json_stats_keep_their_fields() {
    let out = tilekit(&["simulate", "--games", "3", "--tiles", "20", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let stats = json["stats"].as_object().expect("stats");
    let keys: Vec<&str> = stats.keys().map(String::as_str).collect();
    // The run's own sums and the games' (`GameStats`, flattened) side by side, as before
    // `SimStats` was built from `GameStats`.
    assert_eq!(
        keys,
        [
            "actions",
            "corner_points",
            "creature_points",
            "deployed",
            "extra_tiles",
            "figure_points",
            "games",
            "good_points",
            "marker_points",
            "modifier_points",
            "points_by_kind",
            "recalls",
            "rule_points",
            "score_max",
            "score_min",
            "score_sq_sum",
            "score_sum",
            "scorings",
            "set_aside",
            "set_aside_by_kind",
            "ties",
            "tiles_placed",
            "win_shares",
            "wins",
        ]
    );
    assert_eq!(stats["games"], 3);
    // Keyed by feature kind id since the output has a version (it was a bare array of 6).
    assert_eq!(
        stats["points_by_kind"].as_object().map(|m| m.len()),
        Some(6)
    );
}

#[test]
fn the_committed_simulate_schema_is_the_generated_one() {
    let out = tilekit(&["schema", "--of", "simulate"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let committed = std::fs::read_to_string(root().join("docs/simulate.schema.json"))
        .expect("committed schema");
    assert_eq!(
        text(&out.stdout),
        committed,
        "run `tilekit schema --of simulate --out docs/simulate.schema.json`"
    );
}

/// `simulate --json` of sets with figures, markers and tokens, and a comparison: every figure
/// keyed by id, and the whole document valid under its generated schema.
#[test]
fn simulate_json_is_keyed_by_id_and_valid_under_its_schema() {
    let schema = tilekit(&["schema", "--of", "simulate"]);
    let schema: serde_json::Value = serde_json::from_slice(&schema.stdout).expect("schema");
    let validator = tiledef::schema::Validator::new(&schema).expect("the validator takes it");
    let out = tilekit(&[
        "simulate",
        "--games",
        "6",
        "--tiles",
        "40",
        "--seed",
        "3",
        "--json",
        "--sets",
        "base,inns-and-cathedrals,traders-and-builders",
        "--compare",
        "traders-and-builders",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let errors: Vec<String> = (validator.errors(&json).iter())
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(json["version"], 2);
    assert!(json["compare"].as_array().is_some_and(|d| !d.is_empty()));
    let stats = &json["stats"];
    for (field, id) in [
        ("points_by_kind", "city"),
        ("modifier_points", "road"),
        ("marker_points", "inn"),
        ("good_points", "cloth"),
        ("deployed", "follower"),
        ("deployed", "large-follower"),
        ("figure_points", "pig"),
        ("recalls", "abbot"),
        ("set_aside_by_kind", "D"),
    ] {
        assert!(
            stats[field][id].is_u64() || stats[field][id].is_i64(),
            "{field}.{id}"
        );
    }
    assert_eq!(json["rules"]["figures"]["abbot"], 1);
    // Seats stay arrays, in the order of `seats`.
    assert_eq!(json["mean_score"].as_array().map(Vec::len), Some(2));
    // The schema refuses the old shape: a bare array where an object keyed by id belongs.
    let mut old = json.clone();
    old["stats"]["deployed"] = serde_json::json!([1, 2, 3]);
    assert!(!validator.is_valid(&old));
}

// ---- stderr closed or full, outputs that are inputs, devices --------------------------------

/// Runs the binary in the repository root with stderr going to `stderr`.
fn tilekit_with_stderr(args: &[&str], stderr: std::process::Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(args)
        .current_dir(root())
        .stderr(stderr)
        .output()
        .expect("the binary runs")
}

/// Commands that say what they did on stderr, with the status they end with, and what they
/// write (into `dir`).
fn stderr_talkers(dir: &Path) -> Vec<(Vec<String>, i32, Option<std::path::PathBuf>)> {
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let previews = dir.join("previews");
    let tables = dir.join("tables.bin");
    let xml = dir.join("basic.xml");
    let case = |args: &[&str], code, written: Option<&Path>| {
        (
            args.iter().map(|a| a.to_string()).collect(),
            code,
            written.map(Path::to_path_buf),
        )
    };
    vec![
        case(
            &["render", "--tile", "D", "--out", &s(&previews)],
            0,
            Some(&previews.join("D.png")),
        ),
        case(&["compile", "--out", &s(&tables)], 0, Some(&tables)),
        case(
            &["export", "jcz", "definitions/base.toml", "--out", &s(&xml)],
            0,
            Some(&xml),
        ),
        case(&["render", "--tile", "D"], 2, None),
        case(&["inspect", "NOPE"], 2, None),
        case(&["simulate", "--games", "1", "--sets", "NOPE"], 2, None),
    ]
}

#[cfg(unix)]
#[test]
fn a_full_stderr_never_panics_and_the_work_is_done() {
    let dir = scratch("stderr-full");
    for (args, code, written) in stderr_talkers(&dir) {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = tilekit_with_stderr(&args, full.into());
        // A panic exits 101 (its message lost in /dev/full).
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        if let Some(path) = written {
            assert!(path.is_file(), "{args:?}: {} not written", path.display());
        }
    }
}

#[test]
fn a_closed_stderr_pipe_never_panics_and_the_work_is_done() {
    let dir = scratch("stderr-closed");
    for (args, code, written) in stderr_talkers(&dir) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tilekit"))
            .args(&args)
            .current_dir(root())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("runs");
        // The reader of stderr goes away before the first byte is written.
        drop(child.stderr.take());
        let out = child.wait_with_output().expect("waits");
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        if let Some(path) = written {
            assert!(path.is_file(), "{args:?}: {} not written", path.display());
        }
    }
}

#[cfg(unix)]
#[test]
fn simulate_into_a_closed_pipe_or_a_full_disk() {
    let args = ["simulate", "--games", "2", "--tiles", "10"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(args)
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("waits");
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");

    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(args)
        .arg("--json")
        .current_dir(root())
        .stdout(full)
        .output()
        .expect("runs");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot write to stdout"), "{stderr}");
    assert!(stderr.contains("No space left"), "{stderr}");
}

/// A folder `defs` holding the README's example set, whose tile has the artwork `art`.
fn definitions_with_art(dir: &Path, art: &str) -> String {
    let defs = dir.join("defs");
    std::fs::create_dir_all(&defs).expect("defs");
    let own = readme_example().replace(
        "count = 2\n",
        &format!("count = 2\nart = {{ image = \"{art}\" }}\n"),
    );
    assert!(own.contains("art = "), "the example changed: {own}");
    std::fs::write(defs.join("own.toml"), &own).expect("write");
    std::fs::write(defs.join(art), b"the author's picture").expect("art");
    own
}

#[test]
fn a_sheet_that_fails_while_streaming_keeps_the_old_pdf() {
    // The PDF is written as its pictures are made; an artwork that cannot be decoded is found
    // after the file has begun, and the file it would replace must stay as it was.
    let dir = scratch("sheet-fails-midway");
    definitions_with_art(&dir, "picture.png");
    let pdf = dir.join("own.pdf");
    std::fs::write(&pdf, "the old sheet").expect("write");
    let defs = dir.join("defs").to_string_lossy().into_owned();
    let out = tilekit(&["sheet", &defs, "--out", pdf.to_str().expect("utf-8")]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("picture.png"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&pdf).expect("kept"),
        "the old sheet"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn export_never_writes_over_a_file_it_reads() {
    let dir = scratch("export-over-input");
    let own = definitions_with_art(&dir, "picture.png");
    // The default input (./definitions), a folder, and the file itself.
    std::fs::rename(dir.join("defs"), dir.join("definitions")).expect("rename");
    for args in [
        vec!["export", "jcz", "--out", "definitions/own.toml"],
        vec![
            "export",
            "jcz",
            "definitions",
            "--out",
            "definitions/own.toml",
        ],
        vec![
            "export",
            "jcz",
            "definitions/own.toml",
            "--out",
            "definitions/./own.toml",
        ],
    ] {
        let out = tilekit_in(&dir, &args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("refusing to write"), "{args:?}: {stderr}");
        assert_eq!(
            std::fs::read_to_string(dir.join("definitions/own.toml")).expect("kept"),
            own,
            "{args:?}"
        );
    }
}

#[test]
fn import_never_writes_over_a_file_it_reads_and_refuses_devices() {
    let dir = scratch("import-over-input");
    // An XML file that happens to stand where the import writes `base.toml`.
    let xml = std::fs::read_to_string(root().join("tools/jcz/tests/fixtures/mini-basic.xml"))
        .expect("fixture");
    let input = dir.join("base.toml");
    std::fs::write(&input, &xml).expect("write");
    let out = tilekit_in(&dir, &["import", "jcz", "base.toml", "--out", "."]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("refusing to write"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&input).expect("kept"), xml);
    assert!(
        !dir.join("import-report.txt").exists(),
        "nothing is written"
    );

    #[cfg(unix)]
    {
        let out = tilekit_in(&dir, &["import", "jcz", "/dev/zero", "--out", "imported"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("not a regular file"), "{stderr}");
        assert!(!dir.join("imported").exists());
    }
}

#[test]
fn a_balance_report_never_writes_over_a_file_the_games_read() {
    let dir = scratch("report-over-input");
    definitions_with_art(&dir, "scores.png");
    let args = ["simulate", "defs", "--games", "2", "--tiles", "5"];
    let out = tilekit_in(&dir, &[&args[..], &["--report", "defs"]].concat());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("refusing to write"), "{stderr}");
    assert_eq!(
        std::fs::read(dir.join("defs/scores.png")).expect("kept"),
        b"the author's picture"
    );
    assert!(!dir.join("defs/report.html").exists(), "a report in part");

    // A file where the folder goes is said so, and kept.
    let out = tilekit_in(&dir, &[&args[..], &["--report", "defs/own.toml"]].concat());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is a file; it must be a folder"),
        "{stderr}"
    );
    assert!(dir.join("defs/own.toml").is_file());
}

#[test]
fn a_folder_option_naming_a_file_is_refused_before_any_work() {
    let dir = scratch("folder-is-file");
    let file = dir.join("notes.txt");
    std::fs::write(&file, "mine").expect("write");
    let f = file.to_string_lossy().into_owned();
    for args in [
        vec!["build", "--out", &f],
        vec!["render", "--tile", "D", "--out", &f],
        vec!["simulate", "--games", "1", "--report", &f],
        vec![
            "import",
            "jcz",
            "tools/jcz/tests/fixtures/mini-basic.xml",
            "--out",
            &f,
        ],
    ] {
        let out = tilekit(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        // miette wraps long lines (with a `│` margin).
        let flat: Vec<&str> = stderr.split_whitespace().filter(|w| *w != "│").collect();
        assert!(
            flat.join(" ")
                .contains(&format!("{f} is a file; it must be a folder")),
            "{args:?}: {stderr}"
        );
        assert_eq!(std::fs::read_to_string(&file).expect("kept"), "mine");
    }
}

#[test]
fn a_balance_report_that_fails_half_way_leaves_no_page_that_looks_complete() {
    let dir = scratch("report-half-way");
    let report = dir.join("report");
    // A folder where a chart goes: that chart cannot be written.
    std::fs::create_dir_all(report.join("scores.svg")).expect("dir");
    let out = tilekit(&[
        "simulate",
        "--sets",
        "base",
        "--games",
        "2",
        "--tiles",
        "10",
        "--report",
        &report.to_string_lossy(),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("scores.svg"), "{stderr}");
    // The page and its data come last, once every chart they show is in place.
    assert!(
        !report.join("report.html").exists(),
        "a page without its charts"
    );
    assert!(!report.join("report.json").exists());
}

/// A house rule declared in the data is switched on by name on `simulate`, `bench` and `play`,
/// and a name no loaded set declares is refused with the list of those that exist.
#[test]
fn rule_options_are_switched_on_by_name_and_unknown_ones_refused() {
    let fixture = "tests/fixtures/house-rule.toml";
    let simulate = |extra: &[&str]| {
        let mut args = vec![
            "simulate",
            fixture,
            "definitions/base.toml",
            "--games",
            "40",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = tilekit(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("valid JSON")
    };
    let off = simulate(&[]);
    let on = simulate(&["--option", "charters"]);
    assert_eq!(on["rules"]["on"], serde_json::json!(["charters"]));
    assert!(off["rules"].get("on").is_none(), "{}", off["rules"]);
    // Same seeds, same games; only the charter cities pay more.
    let mean = |v: &serde_json::Value| -> f64 {
        let seats = v["mean_score"].as_array().expect("mean_score per seat");
        seats.iter().filter_map(serde_json::Value::as_f64).sum()
    };
    assert!(mean(&on) > mean(&off), "{} vs {}", mean(&on), mean(&off));
    // The engine's own options go by name too: the same as their flags.
    assert_eq!(
        simulate(&["--option", "first-edition-small-city"])["mean_score"],
        simulate(&["--first-edition-small-city"])["mean_score"]
    );

    for command in [
        &["simulate", "--games", "1"][..],
        &["bench", "--games", "1"][..],
    ] {
        let mut args = command.to_vec();
        args.extend([fixture, "definitions/base.toml", "--option", "charter"]);
        let out = tilekit(&args);
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("unknown rule option `charter`"), "{stderr}");
        assert!(stderr.contains("charters"), "{stderr}");
    }

    // In a record too.
    let dir = scratch("house-rule");
    let record = dir.join("game.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = 2\nrules = { on = [\"charter\"] }\n\n[[turn]]\ntile = \"HR-charter\"\nat = [0, 1]\n",
    )
    .expect("write the record");
    let record = record.to_string_lossy().into_owned();
    let out = tilekit(&["play", &record, fixture, "definitions/base.toml"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("unknown rule option `charter`"), "{stderr}");
    let out = tilekit(&[
        "play",
        &record,
        fixture,
        "definitions/base.toml",
        "--option",
        "charters",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the record's own option is still wrong"
    );
}

/// A game record saved in a definitions folder is left out with a note, not read as a broken
/// tile set: the folder still validates and plays.
#[test]
fn a_game_record_in_a_definitions_folder_is_left_out_with_a_note() {
    let dir = scratch("record-in-folder");
    std::fs::copy(
        root().join("tests/fixtures/house-rule.toml"),
        dir.join("house-rule.toml"),
    )
    .expect("copy the fixture");
    std::fs::write(
        dir.join("game-1.toml"),
        "[game]\nplayers = 2\nseed = 3\n\n[[turn]]\ntile = \"HR-charter\"\nat = [0, -1]\n",
    )
    .expect("write the record");
    let folder = dir.to_string_lossy().into_owned();
    let out = tilekit(&["validate", &folder]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("game-1.toml` is a game record"), "{stderr}");
    assert!(stderr.contains("tilekit play"), "{stderr}");
    let out = tilekit(&["simulate", &folder, "--games", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// `--backs` prints the same back on every tile unless asked for the set's name or given a
/// picture; a picture that cannot be read, or definitions taken for it, are refused.
#[test]
fn sheet_backs_are_plain_by_set_or_the_authors_picture() {
    let dir = scratch("backs");
    let art = dir.join("back.png");
    let red = tilekit_render::raster::encode_rgb_png(8, 8, &[200, 30, 30].repeat(64)).expect("png");
    std::fs::write(&art, red).expect("write the back");
    let art = art.to_string_lossy().into_owned();
    let sheet = |backs: &[&str], name: &str| {
        let pages = dir.join(name);
        let pdf = dir.join(format!("{name}.pdf"));
        let mut args = vec!["sheet", "--sets", "festival", "--dpi", "36"];
        args.extend_from_slice(backs);
        let (pdf, pages) = (
            pdf.to_string_lossy().into_owned(),
            pages.to_string_lossy().into_owned(),
        );
        args.extend(["--out", &pdf, "--png-dir", &pages]);
        let out = tilekit(&args);
        (out, dir.join(name).join(format!("{name}-02.png")))
    };
    let (out, plain) = sheet(&["--backs"], "plain");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (out, named) = sheet(&["--backs", "set"], "named");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (out, own) = sheet(&["--backs", &art], "own");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let read = |p: &Path| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let (plain, named, own) = (read(&plain), read(&named), read(&own));
    assert_ne!(plain, named, "the set's name is on the named backs only");
    assert_ne!(plain, own);
    for bad in [
        "missing.png",
        "definitions/base.toml",
        "/dev/zero",
        "README.md",
    ] {
        let (out, _) = sheet(&["--backs", bad], "bad");
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            text(&out.stderr).contains("--backs"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// The play check's findings in `--format json`: (code, severity, message) of each diagnostic.
fn play_findings(args: &[&str]) -> (Option<i32>, Vec<(String, String, String)>) {
    let mut all = vec!["validate", "--format", "json"];
    all.extend_from_slice(args);
    let out = tilekit(&all);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let found = json["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| {
            let field = |k: &str| d[k].as_str().unwrap_or_default().to_string();
            (field("code"), field("severity"), field("message"))
        })
        .collect();
    (out.status.code(), found)
}

/// A set whose games with the sets it requires cannot be set up (two guarding creatures) is
/// not passed over in silence by the play check: a warning says why no game was played.
#[test]
fn the_play_check_says_when_it_could_set_up_no_game() {
    let (code, found) = play_findings(&["tests/fixtures/play/guard-beside-the-fairy.toml"]);
    assert_eq!(code, Some(0), "{found:?}");
    let warning = (found.iter())
        .find(|(c, _, _)| c == "tilekit::play-check-no-game")
        .unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(warning.1, "warning", "{found:?}");
    for part in ["`lamps`", "guarding creatures", "lamplighter", "fairy"] {
        assert!(warning.2.contains(part), "{part}: {found:?}");
    }
}

#[test]
fn the_play_check_warns_of_a_tile_set_aside_in_many_games_with_its_share() {
    let (code, found) = play_findings(&["tests/fixtures/play/often-set-aside.toml"]);
    assert_eq!(code, Some(0), "{found:?}");
    assert_eq!(found.len(), 1, "{found:?}");
    let (c, severity, message) = &found[0];
    assert_eq!(
        (c.as_str(), severity.as_str()),
        ("tilekit::often-set-aside", "warning")
    );
    assert!(
        message.contains("`GR-all`") && message.contains(" % of the games"),
        "{message}"
    );
    // The same files give the same findings.
    assert_eq!(
        play_findings(&["tests/fixtures/play/often-set-aside.toml"]).1,
        found
    );
}

#[test]
fn the_play_check_warns_of_a_figure_never_deployed_and_a_modifier_never_paid() {
    let out = tilekit(&["validate", "tests/fixtures/play/never-used.toml"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("tilekit::figure-never-deployed"),
        "{stderr}"
    );
    assert!(
        stderr.contains("never-used.toml:19:6"),
        "at the figure's id: {stderr}"
    );
    assert!(stderr.contains("tilekit::modifier-never-paid"), "{stderr}");
    assert!(
        stderr.contains("never-used.toml:25:6"),
        "at the marker's id: {stderr}"
    );
    assert!(text(&out.stdout).contains("never-used.toml: ok with 2 warnings"));
}

#[test]
fn the_play_check_tries_an_option_on_and_warns_when_its_rates_never_paid() {
    let (code, found) = play_findings(&["tests/fixtures/play/option-never-paid.toml"]);
    assert_eq!(code, Some(0), "{found:?}");
    let codes: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(codes, ["tilekit::option-never-paid"]);
    assert!(found[0].2.contains("`tiny-ponds`"), "{found:?}");
}

#[test]
fn the_play_check_warns_of_an_effect_never_paid_at_its_id() {
    let out = tilekit(&["validate", "tests/fixtures/play/effect-never-paid.toml"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("tilekit::effect-never-paid"), "{stderr}");
    assert!(
        stderr.contains("the effect `vines` changed no score"),
        "{stderr}"
    );
    assert!(stderr.contains("effect-never-paid.toml:17:6"), "{stderr}");
}

#[test]
fn a_tile_no_game_places_is_an_error() {
    // Decided without playing: its edges meet only its own kind.
    for extra in [None, Some("--no-play")] {
        let mut args = vec!["tests/fixtures/play/unreachable.toml"];
        args.extend(extra);
        let (code, found) = play_findings(&args);
        assert_eq!(code, Some(1), "{found:?}");
        let codes: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(codes, ["tilekit::unreachable"], "{extra:?}");
    }
    // Found by playing: reachable only with a set that requires its own, never in its games.
    let files = [
        "tests/fixtures/play/never-placed.toml",
        "tests/fixtures/play/lava-flow.toml",
    ];
    let (code, found) = play_findings(&files);
    assert_eq!(code, Some(1), "{found:?}");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "tilekit::never-placed");
    assert!(found[0].2.contains("`VO-crater`"), "{found:?}");
}

#[test]
fn no_play_skips_the_games() {
    let (code, found) = play_findings(&["tests/fixtures/play/often-set-aside.toml", "--no-play"]);
    assert_eq!(code, Some(0));
    assert!(found.is_empty(), "{found:?}");
    let files = [
        "tests/fixtures/play/never-placed.toml",
        "tests/fixtures/play/lava-flow.toml",
        "--no-play",
    ];
    assert_eq!(play_findings(&files), (Some(0), Vec::new()));
}

#[test]
fn the_bundled_sets_and_examples_get_no_play_finding() {
    let (code, found) = play_findings(&["definitions", "examples"]);
    assert_eq!(code, Some(0), "{found:?}");
    assert!(found.is_empty(), "{found:?}");
    // Each example with the bundled sets it requires, which are not played.
    for entry in std::fs::read_dir(root().join("examples")).expect("examples") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "toml") {
            let name = format!(
                "examples/{}",
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            let (code, found) = play_findings(&[&name]);
            assert_eq!(code, Some(0), "{name}: {found:?}");
            assert!(found.is_empty(), "{name}: {found:?}");
        }
    }
}

/// `bench` plays every bundled set to the end, the turns' steps after placing included: the
/// choices after a turn (the wagon's, the dragon's) and the abbeys declined after the last tile
/// (its placement-listing part once took a second move for granted and panicked there).
#[test]
fn bench_plays_every_bundled_set_to_the_end() {
    let out = tilekit(&[
        "bench",
        "--sets",
        "base,abbey-and-mayor,princess-and-dragon,festival,village-life,inns-and-cathedrals,traders-and-builders,river,river-2",
        "--games",
        "20",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// `play` names a fan's creature by its own name, and a feature of another tile by that
/// tile's feature words, not "the dragon" and "feature N".
#[test]
fn play_names_a_fan_creature_and_a_feature_of_another_tile() {
    let record = root().join("examples/records/serpent-eats-only-followers-in-three-steps.toml");
    let set = root().join("examples/serpent.toml");
    let out = tilekit(&["play", &record.to_string_lossy(), &set.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for line in [
        "the sea serpent comes to (0, 1), the tile P1 placed",
        "P2 moves the sea serpent to (0, 0)",
        "P1 moves the sea serpent to (1, 0)",
    ] {
        assert!(stdout.contains(line), "{line:?} missing:\n{stdout}");
    }
    assert!(!stdout.contains("dragon"), "{stdout}");

    let portal = root().join("engine/tests/scenarios/61-portal-deploys-on-another-tile.toml");
    let out = tilekit(&["play", &portal.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = "P2 deploys a follower through the portal on the city N at (0, 0)";
    assert!(stdout.contains(line), "{line:?} missing:\n{stdout}");

    // A set figure through the portal is named, in the text and in `--json`.
    let large = root().join("engine/tests/scenarios/64-portal-sends-a-large-follower.toml");
    let out = tilekit(&["play", &large.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = "P2 deploys a large follower through the portal on the city N at (0, 0)";
    assert!(stdout.contains(line), "{line:?} missing:\n{stdout}");
    let out = tilekit(&["play", "--json", &large.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        json["turns"][1][1]["portal"],
        serde_json::json!({ "player": 2, "at": [0, 0], "feature": 0, "figure": "large-follower" })
    );
}

/// Keeping a reserve tile in the end-game round is said, by the player who kept it, in the
/// text and in `--json` (it was an empty turn in both).
#[test]
fn play_says_who_kept_their_reserve_tile() {
    let record = root().join("engine/tests/scenarios/abbey-after-the-last-tile.toml");
    let out = tilekit(&["play", &record.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("  7. P1 keeps their reserve tile\n"),
        "{stdout}"
    );
    let out = tilekit(&["play", "--json", &record.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        json["turns"][6],
        serde_json::json!([{ "declined": { "player": 1, "move": "reserve" } }])
    );
}

/// `--wagon-move nearby` plays JCZ's C2 reading, said on the rules line; a reading it does not
/// know is a usage error listing the two.
#[test]
fn simulate_takes_the_wagon_s_reading() {
    let out = tilekit(&[
        "simulate",
        "--sets",
        "base,abbey-and-mayor",
        "--wagon-move",
        "nearby",
        "--games",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("; wagons move on nearby;"),
        "{}",
        text(&out.stdout)
    );
    let out = tilekit(&["simulate", "--wagon-move", "far", "--games", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("[possible values: linked, nearby]"),
        "{}",
        text(&out.stderr)
    );
}

/// A fan creature's moves are read under its id when `play` is given its definitions, and a
/// misspelt id is refused at its line, naming the key and suggesting the creature's.
#[test]
fn play_reads_a_creature_s_moves_under_its_id() {
    let set = root().join("examples/serpent.toml");
    let good = root().join("examples/records/serpent-eats-only-followers-in-three-steps.toml");
    let text_of_good = std::fs::read_to_string(&good).expect("the example record");
    assert!(text_of_good.contains("\nserpent = [[0, 0], [1, 0], [2, 0]]\n"));
    let out = tilekit(&["play", &good.to_string_lossy(), &set.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("all expectations of the record hold"));

    let dir = scratch("creature-key");
    let record = dir.join("misspelt.toml");
    let misspelt = text_of_good.replace("\nserpent = ", "\nserpnt = ");
    std::fs::write(&record, misspelt).expect("write");
    let out = tilekit(&["play", &record.to_string_lossy(), &set.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    for part in [
        "line 40",
        "unknown key `serpnt` in a turn: did you mean `serpent`?",
    ] {
        assert!(stderr.contains(part), "{stderr}");
    }
}

/// `simulate`'s words and its balance report's page name a fan creature's moves by its id, as
/// its record does, and the words put the sources that paid nothing on one line; `--json` and
/// `report.json` keep the registry's names, the same keys for every set.
#[test]
fn simulate_names_a_creature_s_moves_by_its_id() {
    let (base, set) = (
        root().join("definitions/base.toml"),
        root().join("examples/serpent.toml"),
    );
    let args = ["simulate", "--sets", "base,serpent", "--games", "20"];
    let inputs = [base.to_string_lossy(), set.to_string_lossy()];
    let all: Vec<&str> = args
        .iter()
        .copied()
        .chain(inputs.iter().map(|s| &**s))
        .collect();
    let out = tilekit(&all);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = (stdout.lines())
        .find(|l| l.starts_with("rule moves per game: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    for part in ["lighthouse ", "serpent ", "serpent arrives "] {
        assert!(line.contains(part), "{line}");
    }
    assert!(
        !line.contains("dragon") && !line.contains("fairy"),
        "{line}"
    );
    // The sources of the bundled sets out of these games are named nowhere: not a row of
    // 0.0, not among those that paid nothing.
    assert!(stdout.contains("\n  lighthouse (bonus) "), "{stdout}");
    for source in [
        "flowers",
        "windmills",
        "marketplace networks",
        "pig",
        "fairy",
    ] {
        assert!(!stdout.contains(source), "{stdout}");
    }
    assert!(!stdout.contains("per game: 0.00"), "{stdout}");
    let json: Vec<&str> = all.iter().copied().chain(["--json"]).collect();
    let out = tilekit(&json);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let actions = &value["actions_per_game"];
    assert!(
        actions["dragon"].as_f64().is_some_and(|n| n > 0.0),
        "{actions}"
    );

    // The balance report's page says the same words; its JSON keeps the registry's names.
    let dir = scratch("creature-report");
    let report_dir = dir.join("report");
    let report_arg = report_dir.to_string_lossy().into_owned();
    let with_report: Vec<&str> = all
        .iter()
        .copied()
        .chain(["--report", &report_arg])
        .collect();
    let out = tilekit(&with_report);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(report_dir.join("report.html")).expect("the page");
    assert!(page.contains("<tr><td>serpent arrives</td>"), "{page}");
    assert!(!page.contains("<tr><td>dragon</td>"), "{page}");
    let json = std::fs::read_to_string(report_dir.join("report.json")).expect("the JSON");
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let moves = &json["report"]["actions_per_game"];
    assert!(
        moves.get("dragon").is_some() && moves.get("serpent").is_none(),
        "{moves}"
    );
}

#[test]
fn simulate_says_once_for_a_tile_set_aside_once() {
    // Seed 3's 500 games set tile X aside once and B seven times (and C three).
    let out = tilekit(&[
        "simulate",
        "--sets",
        "base,princess-and-dragon",
        "--games",
        "500",
        "--seed",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = (stdout.lines())
        .filter(|l| l.contains("could not be placed"))
        .collect();
    assert!(lines.iter().any(|l| l.ends_with(" once")), "{stdout}");
    assert!(lines.iter().any(|l| l.ends_with(" 7 times")), "{stdout}");
    assert!(!stdout.contains(" 1 times"), "{stdout}");
}

#[test]
fn simulate_names_only_sources_in_play_that_paid_nothing() {
    // Seed 5's one game of Inns & Cathedrals had an inn on a scored road and no cathedral
    // scored; the sources of the other bundled sets were not in it.
    let out = tilekit(&[
        "simulate",
        "--sets",
        "base,inns-and-cathedrals",
        "--games",
        "1",
        "--seed",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\n  inn (modifier) "), "{stdout}");
    let nothing = (stdout.lines())
        .find(|l| l.starts_with("  nothing from: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(nothing, "  nothing from: cathedral (modifier)");
}

/// `--bot-study` names a fan creature's moves by its id in its words and on the report's page,
/// as the rest of `simulate` does; `report.json` keeps the registry's names.
#[test]
fn the_bot_study_names_a_creature_s_moves_by_its_id() {
    let (base, set) = (
        root().join("definitions/base.toml"),
        root().join("examples/serpent.toml"),
    );
    let dir = scratch("creature-bot-study");
    let report_dir = dir.join("report");
    let out = tilekit(&[
        "simulate",
        &base.to_string_lossy(),
        &set.to_string_lossy(),
        "--sets",
        "base,serpent",
        "--games",
        "4",
        "--report",
        &report_dir.to_string_lossy(),
        "--bot-study",
        "greedy",
        "--bot-games",
        "4",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let study = (stdout.split_once("bot or rule?"))
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(study.contains("\n    lighthouse "), "{study}");
    assert!(
        !study.contains("fairy") && !study.contains("dragon"),
        "{study}"
    );
    let page = std::fs::read_to_string(report_dir.join("report.html")).expect("the page");
    let section = (page.split_once("<h2>Bot or rule?</h2>"))
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("{page}"));
    assert!(section.contains("<tr><td>lighthouse</td>"), "{section}");
    assert!(!section.contains("<td>fairy</td>"), "{section}");
    let json = std::fs::read_to_string(report_dir.join("report.json")).expect("the JSON");
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let names: Vec<&str> = (json["report"]["bot_study"]["mechanics"].as_array())
        .unwrap_or_else(|| panic!("{json}"))
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    assert!(
        names.contains(&"fairy") && !names.contains(&"lighthouse"),
        "{names:?}"
    );
}

/// A guard's move names the follower it goes beside by where that follower stands, in `play`'s
/// words and in `--json`, not by the game's internal figure number ("their figure 0").
#[test]
fn play_names_the_follower_a_guard_goes_beside() {
    let record = root().join("examples/records/serpent-lighthouse-keeper-pays-its-own-points.toml");
    let set = root().join("examples/serpent.toml");
    let out = tilekit(&["play", &record.to_string_lossy(), &set.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = "P1 moves the lighthouse keeper beside their follower on the road E W at (1, 0)";
    assert!(stdout.contains(line), "{line:?} missing:\n{stdout}");
    assert!(!stdout.contains("figure 0"), "{stdout}");

    let out = tilekit(&[
        "play",
        "--json",
        &record.to_string_lossy(),
        &set.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let deployed = &json["turns"][0][1]["deployed"];
    let guard = &json["turns"][2][1]["fairy"];
    assert_eq!(guard["at"], serde_json::json!([1, 0]), "{json}");
    assert_eq!(guard["feature"], deployed["feature"], "{json}");
}

/// A fan set's figure that moves on (`power = "move-on"`) is named by its own name in `play`'s
/// words and by its id in `simulate`'s, as a fan creature is, not as Abbey & Mayor's wagon.
#[test]
fn a_fan_figure_that_moves_on_is_named_by_its_own_name() {
    let set = root().join("tests/fixtures/fan/pilgrims.toml");
    let record = root().join("tests/fixtures/fan/pilgrims-way.toml");
    let out = tilekit(&["play", &record.to_string_lossy(), &set.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = "P1's pilgrim moves on to the monastery at (0, 1)";
    assert!(stdout.contains(line), "{line:?} missing:\n{stdout}");
    assert!(!stdout.contains("wagon"), "{stdout}");

    let out = tilekit(&[
        "simulate",
        &set.to_string_lossy(),
        "--sets",
        "base,pilgrims",
        "--games",
        "200",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = (stdout.lines())
        .find(|l| l.starts_with("rule moves per game: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.contains("pilgrim "), "{line}");
    assert!(!line.contains("wagon"), "{line}");
}

/// A fan creature keeps its name when Princess & Dragon is loaded but not played (a clone's
/// `./definitions` loads every bundled set): `play` and `simulate` name the creatures of the
/// game's sets, not "the creature" and `serpent/dragon` for every creature loaded.
#[test]
fn a_fan_creature_keeps_its_name_beside_a_loaded_set_not_played() {
    let record = root().join("examples/records/serpent-eats-only-followers-in-three-steps.toml");
    let set = root().join("examples/serpent.toml");
    let dragon = root().join("definitions/princess-and-dragon.toml");
    let out = tilekit(&[
        "play",
        &record.to_string_lossy(),
        &set.to_string_lossy(),
        &dragon.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = "the sea serpent comes to (0, 1), the tile P1 placed";
    assert!(stdout.contains(line), "{line:?} missing:\n{stdout}");

    let out = tilekit(&[
        "simulate",
        &set.to_string_lossy(),
        &dragon.to_string_lossy(),
        "--sets",
        "base,serpent",
        "--games",
        "20",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = (stdout.lines())
        .find(|l| l.starts_with("rule moves per game: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        !line.contains("dragon") && !line.contains("fairy"),
        "{line}"
    );
}

/// `simulate`'s tiles set aside are a table: a fan set's longer tile ids keep the column.
#[test]
fn simulate_s_tiles_set_aside_keep_their_column_for_long_ids() {
    let set = root().join("examples/serpent.toml");
    let out = tilekit(&[
        "simulate",
        &set.to_string_lossy(),
        "--sets",
        "base,serpent",
        "--games",
        "1000",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let rows: Vec<&str> = (stdout.lines())
        .filter(|l| l.contains(" could not be placed "))
        .collect();
    assert!(
        rows.iter().any(|r| r.contains("SS-whirlpool")) && rows.len() > 1,
        "{stdout}"
    );
    let columns: Vec<Option<usize>> = rows.iter().map(|r| r.find("could not")).collect();
    assert!(columns.windows(2).all(|w| w[0] == w[1]), "{stdout}");
}

/// A fan creature's refused step names what it avoids, not Princess & Dragon's fairy, and
/// the creature by its name as the other words do ("the sea serpent").
#[test]
fn a_refused_creature_step_names_what_it_avoids() {
    let set = root().join("examples/serpent.toml");
    let good = root().join("examples/records/serpent-eats-only-followers-in-three-steps.toml");
    let text_of_good = std::fs::read_to_string(&good).expect("the example record");
    let dir = scratch("creature-step");
    let record = dir.join("far-step.toml");
    let far = text_of_good.replace(
        "\nserpent = [[0, 0], [1, 0], [2, 0]]\n",
        "\nserpent = [[0, 0], [1, 0], [9, 9]]\n",
    );
    assert_ne!(far, text_of_good);
    std::fs::write(&record, far).expect("write");
    let out = tilekit(&["play", &record.to_string_lossy(), &set.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the sea serpent cannot move to (9, 9)"),
        "{stderr}"
    );
    assert!(!stderr.contains("fairy"), "{stderr}");
}

/// A fan set's record played without its definitions says which set is missing and how to
/// give it, beside the key it could not read (a creature's id is a key only its file declares).
#[test]
fn play_without_a_fan_set_s_file_says_which_set_is_missing() {
    let record = root().join("examples/records/serpent-eats-only-followers-in-three-steps.toml");
    let out = tilekit(&["play", &record.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    for part in [
        "unknown key `serpent` in a turn",
        "the record plays the set `serpent`, which no loaded file declares",
    ] {
        assert!(stderr.contains(part), "{part:?} missing:\n{stderr}");
    }
}

/// `inspect` shows what a tile's `moves` and `reserve` compiled to: the links by the features'
/// numbers it lists, and the reserve each player holds.
#[test]
fn inspect_shows_a_tile_s_moves_and_reserve() {
    let set = root().join("tests/fixtures/fan/pilgrims.toml");
    let out = tilekit(&["inspect", "PW-chapel", &set.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // The chapel's road is feature 0, its monastery 2 (as its rotations list them).
    assert!(stdout.contains("  0: road [S]"), "{stdout}");
    assert!(stdout.contains("  2: monastery"), "{stdout}");
    assert!(
        stdout.contains("\nmoves (where a figure moving on may go): 0–2\n"),
        "{stdout}"
    );
    let out = tilekit(&["inspect", "PW-hermitage", &set.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(", held in reserve: 2 each, into a closed gap"),
        "{stdout}"
    );
}

/// A record whose replay fails says so once: its `[expect]` adds no second copy of the error.
#[test]
fn play_says_a_failed_replay_once() {
    let set = root().join("examples/serpent.toml");
    let good = root().join("examples/records/serpent-eats-only-followers-in-three-steps.toml");
    let text_of_good = std::fs::read_to_string(&good).expect("the example record");
    assert!(text_of_good.contains("\n[expect]\n"));
    let dir = scratch("failed-replay-once");
    let record = dir.join("far-step.toml");
    let far = text_of_good.replace(
        "\nserpent = [[0, 0], [1, 0], [2, 0]]\n",
        "\nserpent = [[0, 0], [1, 0], [9, 9]]\n",
    );
    std::fs::write(&record, far).expect("write");
    let out = tilekit(&["play", &record.to_string_lossy(), &set.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.matches("cannot move to (9, 9)").count(),
        1,
        "{stderr}"
    );
}
