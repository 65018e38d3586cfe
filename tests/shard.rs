//! A study cut into slices (`simulate --shard K/N --out FILE`) and joined again (`merge`) prints
//! what one run prints, byte for byte but for the timings, with random and bot seats and any
//! number of slices up to one per game; an interrupted study resumes from the slices written;
//! slices that are not one whole study are refused, naming the files.

mod common;

use common::{scratch, text, tilekit, untimed_json, untimed_text};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn run_ok(args: &[&str]) -> String {
    let out = tilekit(args);
    assert!(
        out.status.success(),
        "tilekit {args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Plays every slice of a study into `dir`; the slice files.
fn play_slices(study: &[&str], n: u64, dir: &Path) -> Vec<String> {
    (1..=n)
        .map(|k| {
            let file = dir.join(format!("slice-{k}.json")).display().to_string();
            let shard = format!("{k}/{n}");
            let mut args = study.to_vec();
            args.extend(["--shard", &shard, "--out", &file]);
            let out = tilekit(&args);
            assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
            // Not on a terminal: no progress bar; a slice kept is said in one line.
            let err = text(&out.stderr);
            let kept = err.contains("already there: kept");
            assert!(
                err.is_empty() || (kept && err.lines().count() == 1),
                "{err}"
            );
            if !kept {
                assert!(text(&out.stdout).starts_with(&format!("slice {shard}: games ")));
            }
            file
        })
        .collect()
}

fn merge(files: &[String], json: bool) -> std::process::Output {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    if json {
        args.push("--json");
    }
    tilekit(&args)
}

fn assert_merge_is_one_run(study: &[&str], slices: &[u64], name: &str) {
    let mut one = study.to_vec();
    let text_run = run_ok(&one);
    one.push("--json");
    let json_run = run_ok(&one);
    for &n in slices {
        let dir = scratch(&format!("shard-{name}-{n}"));
        let files = play_slices(study, n, &dir);
        let merged = merge(&files, true);
        assert!(merged.status.success(), "{}", text(&merged.stderr));
        let merged = text(&merged.stdout);
        assert_eq!(
            untimed_json(&merged),
            untimed_json(&json_run),
            "{name}, N = {n}"
        );
        // Only the timing lines were left out.
        assert_eq!(merged.lines().count(), json_run.lines().count());
        let merged = merge(&files, false);
        assert!(merged.status.success(), "{}", text(&merged.stderr));
        assert_eq!(untimed_text(&text(&merged.stdout)), untimed_text(&text_run));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn random_seats_merged_from_any_number_of_slices_are_one_run() {
    let study = [
        "simulate", "--sets", "base", "--games", "24", "--seed", "11",
    ];
    assert_merge_is_one_run(&study, &[1, 2, 5, 24], "random");
}

#[test]
fn bot_seats_merged_from_slices_are_one_run() {
    let study = [
        "simulate",
        "--sets",
        "base,festival",
        "--games",
        "10",
        "--players",
        "greedy,random,greedy",
        "--seed",
        "3",
    ];
    assert_merge_is_one_run(&study, &[3, 10], "greedy");
}

#[test]
fn rule_options_are_part_of_the_study() {
    let study = [
        "simulate",
        "--sets",
        "base,village-life",
        "--games",
        "12",
        "--donkey",
        "true",
        "--windmills",
        "1",
        "--wells",
        "--tiles",
        "40",
    ];
    assert_merge_is_one_run(&study, &[4], "options");
}

#[test]
fn own_definitions_given_by_a_relative_path_merge_from_anywhere_until_edited() {
    let dir = scratch("shard-own");
    std::fs::copy(
        common::root().join("examples/forests.toml"),
        dir.join("forests.toml"),
    )
    .expect("copy");
    // The slices are played in the scratch folder, naming the file relatively.
    let play = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tilekit"))
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("the binary runs")
    };
    let study = [
        "simulate",
        "forests.toml",
        "--sets",
        "base,forests",
        "--games",
        "10",
    ];
    for k in 1..=2 {
        let (shard, out) = (format!("{k}/2"), format!("slice-{k}.json"));
        let mut args = study.to_vec();
        args.extend(["--shard", &shard, "--out", &out]);
        let out = play(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let files: Vec<String> = (1..=2)
        .map(|k| dir.join(format!("slice-{k}.json")).display().to_string())
        .collect();
    // Merged from the repository root, where no forests.toml is.
    let merged = merge(&files, true);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let mut one = study.to_vec();
    one.push("--json");
    let run = play(&one);
    assert_eq!(
        untimed_json(&text(&merged.stdout)),
        untimed_json(&text(&run.stdout))
    );
    // The file edited since the slices were played: refused, not merged into other games.
    let mut forests = std::fs::read_to_string(dir.join("forests.toml")).expect("read");
    forests.push_str("# edited\n");
    std::fs::write(dir.join("forests.toml"), forests).expect("write");
    let refused = merge(&files, true);
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("forests.toml"));
    assert!(
        text(&refused.stderr).contains("not those"),
        "{}",
        text(&refused.stderr)
    );
    assert!(refused.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merged_slices_differ_from_another_seed() {
    // The equality above is not that of any two runs.
    let dir = scratch("shard-other-seed");
    let files = play_slices(&["simulate", "--sets", "base", "--games", "8"], 2, &dir);
    let merged = text(&merge(&files, true).stdout);
    let other = run_ok(&[
        "simulate", "--sets", "base", "--games", "8", "--seed", "2", "--json",
    ]);
    assert_ne!(untimed_json(&merged), untimed_json(&other));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_slice_leaves_no_file_and_a_study_resumes_from_the_slices_written() {
    let dir = scratch("shard-resume");
    // A slice killed half-way through its games leaves nothing at --out.
    let killed = dir.join("killed.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(["simulate", "--sets", "base", "--games", "30"])
        .args([
            "--players",
            "mcts:5000,mcts:5000",
            "--shard",
            "1/3",
            "--out",
        ])
        .arg(&killed)
        .current_dir(common::root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        child.try_wait().expect("wait").is_none(),
        "ten MCTS games finished in 1.5 s: the kill proves nothing"
    );
    child.kill().expect("kill");
    let _ = child.wait();
    assert!(!killed.exists());
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 0);

    // Slices 1 and 3 were written before the study stopped; running every slice again plays
    // only slice 2 and keeps the others as they were.
    let study = ["simulate", "--sets", "base", "--games", "30", "--seed", "5"];
    let slice = |k: u64| dir.join(format!("slice-{k}.json"));
    for k in [1, 3] {
        let (shard, out) = (format!("{k}/3"), slice(k).display().to_string());
        let mut args = study.to_vec();
        args.extend(["--shard", &shard, "--out", &out]);
        run_ok(&args);
    }
    let before: Vec<Vec<u8>> = [1, 3]
        .map(|k| std::fs::read(slice(k)).expect("slice"))
        .into();
    let files = play_slices(&study, 3, &dir);
    let after: Vec<Vec<u8>> = [1, 3]
        .map(|k| std::fs::read(slice(k)).expect("slice"))
        .into();
    assert_eq!(before, after, "a slice written was played again");
    let out = tilekit(&[
        "simulate", "--sets", "base", "--games", "30", "--seed", "5", "--shard", "1/3", "--out",
        &files[0],
    ]);
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("already there: kept"),
        "{}",
        text(&out.stderr)
    );
    let merged = text(&merge(&files, true).stdout);
    let mut one = study.to_vec();
    one.push("--json");
    assert_eq!(untimed_json(&merged), untimed_json(&run_ok(&one)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn slices_that_are_not_one_whole_study_are_refused_naming_the_files() {
    let dir = scratch("shard-refused");
    let study = ["simulate", "--sets", "base", "--games", "9", "--seed", "4"];
    let files = play_slices(&study, 3, &dir);
    let other_dir = dir.join("other");
    std::fs::create_dir_all(&other_dir).expect("mkdir");
    let other = play_slices(
        &["simulate", "--sets", "base", "--games", "9", "--seed", "6"],
        3,
        &other_dir,
    );
    let refused = |files: &[&String], code: i32, says: &[&str]| {
        let owned: Vec<String> = files.iter().map(|s| s.to_string()).collect();
        let out = merge(&owned, false);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{err}");
        assert!(out.stdout.is_empty());
        for s in says {
            assert!(err.contains(s), "{s:?} not in {err}");
        }
    };
    refused(&[&files[0], &files[2]], 2, &["missing: 2"]);
    refused(
        &[&files[0], &files[1], &files[1], &files[2]],
        2,
        &["given twice", &files[1]],
    );
    refused(
        &[&files[0], &other[1], &files[2]],
        2,
        &["different studies", "`seed`: 4 and 6", &files[0], &other[1]],
    );
    // A file that is not a slice is invalid data.
    let not_a_slice = dir.join("run.json");
    let run = run_ok(&["simulate", "--sets", "base", "--games", "9", "--json"]);
    std::fs::write(&not_a_slice, run).expect("write");
    let not_a_slice = not_a_slice.display().to_string();
    refused(
        &[&files[0], &not_a_slice],
        1,
        &["not a slice file", &not_a_slice],
    );
    // What is not a regular file is not read (a device would be read for ever).
    let out = merge(&[files[0].clone(), "/dev/zero".to_string()], false);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/dev/zero: not a regular file"));
    // A slice whose sums were edited to overflow is refused, not added up.
    let edited = dir.join("edited.json");
    let mut slice: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&files[1]).expect("slice")).expect("JSON");
    slice["stats"]["tiles_placed"] = serde_json::json!(u64::MAX - 1);
    std::fs::write(&edited, slice.to_string()).expect("write");
    let edited = edited.display().to_string();
    refused(&[&files[0], &edited, &files[2]], 1, &["too large"]);
    // A slice with sums of more corner figures than the definitions declare is refused.
    let mut slice: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&files[1]).expect("slice")).expect("JSON");
    slice["stats"]["sums"]["corner_points"] = serde_json::json!([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let more = dir.join("more-corner-figures.json");
    std::fs::write(&more, slice.to_string()).expect("write");
    let more = more.display().to_string();
    refused(
        &[&files[0], &more, &files[2]],
        1,
        &["not of these definitions"],
    );
    // An --out holding another study's slice is never overwritten.
    let kept = std::fs::read(&other[0]).expect("slice");
    let out = tilekit(&[
        "simulate", "--sets", "base", "--games", "9", "--seed", "4", "--shard", "1/3", "--out",
        &other[0],
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("another study"));
    assert_eq!(std::fs::read(&other[0]).expect("slice"), kept);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_shards_are_usage_errors() {
    for (shard, says) in [
        ("0/3", "K must be from 1"),
        ("4/3", "K must be from 1"),
        ("1/0", "N must be at least 1"),
        ("x/3", "not a whole number"),
        ("3", "expected K/N"),
        ("1/11", "more slices than games"),
    ] {
        let out = tilekit(&[
            "simulate",
            "--sets",
            "base",
            "--games",
            "10",
            "--shard",
            shard,
            "--out",
            "/nonexistent/slice.json",
        ]);
        assert_eq!(out.status.code(), Some(2), "{shard}");
        assert!(
            text(&out.stderr).contains(says),
            "{shard}: {}",
            text(&out.stderr)
        );
    }
    // An --out whose folder cannot be made is refused before the games.
    let dir = scratch("shard-no-folder");
    std::fs::write(dir.join("file"), "").expect("write");
    let out = tilekit(&[
        "simulate",
        "--sets",
        "base",
        "--games",
        "10",
        "--shard",
        "1/2",
        "--out",
        &dir.join("file/slice.json").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot make its folder"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
