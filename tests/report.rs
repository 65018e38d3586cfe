//! `tilekit simulate --report DIR [--compare SETS]`: the folder it writes, the A/B summary it
//! prints, and the usage errors of `--compare`. (The report's figures are tested in
//! `tools/report/tests/report.rs`.)

mod common;
use common::{scratch, text, tilekit};

#[test]
fn report_folder_with_a_comparison() {
    // 300 seeded games of base and Festival, and the same seeds without Festival.
    let report_into = |dir: &std::path::Path| {
        tilekit(&[
            "simulate",
            "--sets",
            "base",
            "--games",
            "300",
            "--compare",
            "festival",
            "--report",
            dir.to_str().expect("utf-8 path"),
        ])
    };
    let dir = scratch("report-compare");
    let out = report_into(&dir);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("with and without festival"), "{stdout}");
    assert!(stdout.contains("tiles placed per game"), "{stdout}");
    assert!(stdout.contains("balance report: "), "{stdout}");
    for name in [
        "report.html",
        "report.json",
        "compare.svg",
        "compare.png",
        "tiles.png",
        "tiles/D.png",
        "tiles/FE-CRCR.png",
    ] {
        let meta = std::fs::metadata(dir.join(name)).unwrap_or_else(|_| panic!("{name}"));
        assert!(meta.len() > 0, "{name} is empty");
    }
    // Every row of the tile table has its picture beside it.
    let html = std::fs::read_to_string(dir.join("report.html")).expect("report.html");
    for src in html.split("<img src=\"").skip(1) {
        let src = src.split('"').next().unwrap_or_default();
        assert!(dir.join(src).is_file(), "{src} is named but missing");
    }
    assert!(html.contains("<img src=\"tiles/D.png\""));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).expect("report.json"))
            .expect("JSON");
    // The main games hold both sets, the comparison's games base alone.
    assert_eq!(
        json["report"]["run"]["sets"],
        serde_json::json!(["base", "festival"])
    );
    assert_eq!(
        json["compare"]["without"]["run"]["sets"],
        serde_json::json!(["base"])
    );
    let placed = json["compare"]["diffs"]
        .as_array()
        .expect("diffs")
        .iter()
        .find(|d| d["metric"] == "tiles placed per game")
        .expect("figure");
    assert_eq!(placed["significant"], true);
    assert!(json["report"]["credit_balanced"].as_bool().expect("bool"));
    let tiles = json["report"]["tiles"].as_array().expect("tiles");
    assert!(tiles.iter().any(|t| t["id"] == "FE-CcCc"));
    // Keyed as `simulate --json` keys them: deployments by figure id, points by source.
    let report = &json["report"];
    assert!(report["deployments_per_game"]["follower"]["value"].as_f64() > Some(0.0));
    assert!(report["points_by_source"]["cities"]["value"].as_f64() > Some(0.0));
    assert!(report["sets"][0]["points_per_game"]["cities"].as_f64() > Some(0.0));
    // A second run with the same seed writes the same report.
    let again = scratch("report-compare-again");
    let out = report_into(&again);
    assert!(out.status.success());
    for name in ["report.json", "report.html", "compare.png"] {
        assert!(
            std::fs::read(dir.join(name)).ok() == std::fs::read(again.join(name)).ok(),
            "{name} differs"
        );
    }
}

#[test]
fn compare_usage_errors() {
    let out = tilekit(&["simulate", "--games", "1", "--compare", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("no set `nope`") && err.contains("base"),
        "{err}"
    );
    let out = tilekit(&[
        "simulate",
        "--sets",
        "base",
        "--games",
        "1",
        "--compare",
        "base",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no set would be left"));
    // A report folder that is a file is refused before any game is played.
    let out = tilekit(&["simulate", "--games", "1", "--report", "README.md"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--report README.md"),
        "{}",
        text(&out.stderr)
    );
}

/// `--focus SETS` puts those sets' tiles first in the report's tile table (after the start
/// tile); an id no loaded set has is refused.
#[test]
fn focus_puts_a_sets_tiles_first() {
    let focus_dir = scratch("report-focus");
    // --focus puts a set's tiles first; an unknown one is refused.
    let focus = tilekit(&[
        "simulate",
        "--games",
        "3",
        "--sets",
        "base,festival",
        "--report",
        focus_dir.to_str().unwrap(),
        "--focus",
        "festival",
    ]);
    assert!(focus.status.success(), "{}", text(&focus.stderr));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(focus_dir.join("report.json")).expect("report.json"))
            .expect("JSON");
    let tiles = json["report"]["tiles"].as_array().expect("tiles");
    assert!(
        tiles[0]["start"] == true && tiles[1]["set"] == "festival",
        "{}",
        tiles[1]
    );
    let unknown = tilekit(&[
        "simulate",
        "--games",
        "1",
        "--report",
        focus_dir.to_str().unwrap(),
        "--focus",
        "lakes",
    ]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("--focus lakes: no such set"));
}

/// A/B of a house rule: the same seeds with `pig-herd` on, paired (both sides draw the same
/// tiles), in the text, `--json` and the report, with the games that would resolve what is
/// within the noise.
#[test]
fn a_house_rule_compared_on_the_same_seeds() {
    let dir = scratch("report-ab-option");
    let args = [
        "simulate",
        "--sets",
        "base,river-2",
        "--games",
        "200",
        "--b-option",
        "pig-herd",
        "--resolve",
        "0.5",
    ];
    let out = tilekit(&args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("with the house rule `pig-herd` vs without (same seeds, paired"),
        "{stdout}"
    );
    assert!(
        stdout.contains("games a side that would resolve"),
        "{stdout}"
    );
    let json_out = tilekit(&[&args[..], &["--json"]].concat());
    assert!(json_out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&json_out.stdout).expect("JSON");
    assert_eq!(
        json["compare_title"],
        "with the house rule `pig-herd` vs without"
    );
    let diffs = json["compare"].as_array().expect("diffs");
    let herd = (diffs.iter())
        .find(|d| d["metric"] == "points per game from pig-herd (modifier)")
        .expect("the house rule's own source");
    // Without the rule its modifier pays nothing; with it, something, and that is no noise.
    assert_eq!(herd["without"], 0.0);
    assert!(herd["with"].as_f64() > Some(0.0) && herd["significant"] == true);
    assert_eq!(herd["paired"], true);
    let seat = (diffs.iter())
        .find(|d| d["metric"] == "seat 1: win rate")
        .expect("a seat");
    assert_eq!(seat["group"], "seat");
    let tile = diffs.iter().find(|d| d["tile"] == true).expect("a tile");
    assert_eq!(tile["paired"], false);
    // Each difference in points within the noise says what would resolve one of 0.5.
    let unresolved: Vec<&serde_json::Value> = (diffs.iter())
        .filter(|d| d["significant"] == false && d["unit"] == "points")
        .filter(|d| d["games_needed"].is_u64())
        .collect();
    assert!(!unresolved.is_empty());
    for d in unresolved {
        assert_eq!(d["resolve_size"], 0.5, "{d}");
    }
    let report = tilekit(&[&args[..], &["--report", dir.to_str().expect("utf-8")]].concat());
    assert!(report.status.success(), "{}", text(&report.stderr));
    let html = std::fs::read_to_string(dir.join("report.html")).expect("report.html");
    assert!(
        html.contains("<h2>With the house rule `pig-herd` vs without</h2>"),
        "{html}"
    );
    assert!(html.contains("games to resolve it"));
}

/// A/B of a tile count and of another version of a file: their bags differ, so unpaired; the
/// B side's definitions are checked (exit 1 with their diagnostics), and the flags' mistakes
/// are usage errors (exit 2) that say what is wrong.
#[test]
fn other_counts_and_versions_and_their_errors() {
    let out = tilekit(&[
        "simulate", "--sets", "base", "--games", "40", "--b-tile", "A=6", "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["compare_title"], "with 6 × tile `A` vs with 2");
    let placed = (json["compare"].as_array().expect("diffs").iter())
        .find(|d| d["metric"] == "tiles placed per game")
        .expect("figure");
    assert_eq!(placed["paired"], false);
    // Four more tiles, less those set aside.
    let more = placed["difference"]["value"].as_f64().expect("a number");
    assert!((3.5..=4.0).contains(&more), "{more}");
    // Another version of a set file: a copy of the example with one more lake tile.
    let dir = scratch("ab-versions");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let lakes = std::fs::read_to_string(common::root().join("examples/lakes.toml")).expect("lakes");
    let (a, b) = (dir.join("lakes.toml"), dir.join("lakes-v2.toml"));
    std::fs::write(&a, &lakes).expect("write");
    std::fs::write(&b, lakes.replacen("count = 2\n", "count = 3\n", 1)).expect("write");
    let path = |p: &std::path::Path| p.to_str().expect("utf-8").to_string();
    let out = tilekit(&[
        "simulate",
        &path(&a),
        "--sets",
        "base,lakes",
        "--games",
        "40",
        "--b-definitions",
        &path(&b),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("lakes-v2.toml vs as loaded"),
        "{}",
        text(&out.stdout)
    );
    // An invalid B side: its diagnostics, exit 1.
    let bad = dir.join("lakes-bad.toml");
    std::fs::write(&bad, lakes.replacen("count = 2\n", "count = -2\n", 1)).expect("write");
    let out = tilekit(&[
        "simulate",
        &path(&a),
        "--games",
        "3",
        "--b-definitions",
        &path(&bad),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("lakes-bad.toml"),
        "{}",
        text(&out.stderr)
    );
    // Outside a git repository, --b-rev says so.
    let out = tilekit(&["simulate", &path(&a), "--games", "3", "--b-rev", "HEAD"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--b-rev HEAD: cannot read"),
        "{}",
        text(&out.stderr)
    );
    // Usage errors.
    for (args, said) in [
        (&["--b-tile", "Q9=2"][..], "no tile type `Q9`"),
        (&["--b-no-option", "wells"], "not on in the main games"),
        (&["--b-option", "nope"], "unknown rule option `nope`"),
        (
            &["--b-option", "wells", "--compare", "festival"],
            "give one of them",
        ),
        (&["--resolve", "0.5"], "--resolve needs a B side"),
        (&["--b-definitions", "README.md"], "declares no set"),
    ] {
        let out = tilekit(&[&["simulate", "--games", "2"][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(said),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// `--b-rev`: a file at a git revision (here the committed `base.toml`, the same as on disk
/// unless it is being edited): the same tiles, so paired, and the same rules, so every game
/// comes out the same on both sides. Skipped outside a git checkout.
#[test]
fn a_file_at_a_git_revision() {
    if !common::root().join(".git").exists() {
        return;
    }
    let out = tilekit(&[
        "simulate",
        "definitions/base.toml",
        "--games",
        "30",
        "--b-rev",
        "HEAD",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        json["compare_title"],
        "with definitions/base.toml at HEAD vs as on disk"
    );
    let diffs = json["compare"].as_array().expect("diffs");
    let clean = std::process::Command::new("git")
        .args(["diff", "--quiet", "HEAD", "--", "definitions/base.toml"])
        .current_dir(common::root())
        .status()
        .is_ok_and(|s| s.success());
    if clean {
        assert!(diffs.iter().all(|d| d["difference"]["value"] == 0.0));
        assert!(diffs.iter().all(|d| d["significant"] == false));
        assert!((diffs.iter()).any(|d| d["paired"] == true));
    }
}

/// `--bot-study` plays each bot in every seat and follows the author's own figures (the
/// examples' mayor), kinds and markers; the text ends with the findings and the study, and
/// plain `simulate` prints neither.
#[test]
fn a_bot_study_follows_the_authors_figures_under_each_bot() {
    let dir = scratch("report-bots");
    let args = |extra: &[&str]| {
        let mut a = vec![
            "simulate",
            "examples/mayor.toml",
            "--sets",
            "base,mayor",
            "--games",
            "20",
        ];
        a.extend_from_slice(extra);
        tilekit(&a)
    };
    let out = args(&[
        "--report",
        dir.to_str().unwrap(),
        "--bot-study",
        "greedy,mcts:4",
        "--bot-games",
        "3",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("findings ("), "{stdout}");
    assert!(stdout.contains("bot or rule? (3 games per bot"), "{stdout}");
    assert!(stdout.contains("figure mayor:"), "{stdout}");
    assert!(
        stdout.contains("bot study: 3 games per bot (greedy"),
        "{stdout}"
    );
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).expect("report.json"))
            .expect("JSON");
    let study = &json["report"]["bot_study"];
    assert_eq!(study["bots"], serde_json::json!(["greedy", "mcts:4"]));
    let mayor = &study["subjects"][0];
    assert_eq!(mayor["id"], "mayor");
    for bot in mayor["bots"].as_array().expect("bots") {
        // Every game deals the mayor, so some turn could deploy it.
        assert!(bot["possible_turns"].as_u64() > Some(0), "{bot}");
    }
    let deploy = &study["mechanics"][0];
    assert_eq!(deploy["name"], "deploy");
    assert!(deploy["chosen_per_game"][0].as_f64() > Some(0.0));
    let html = std::fs::read_to_string(dir.join("report.html")).expect("report.html");
    assert!(html.contains("<h2>Findings</h2>") && html.contains("<h2>Bot or rule?</h2>"));
    // Without --report: no findings, no study.
    let plain = args(&[]);
    assert!(plain.status.success());
    assert!(!text(&plain.stdout).contains("findings"));
    // `random` is no bot to study: a usage error.
    let random = args(&["--report", dir.to_str().unwrap(), "--bot-study", "random"]);
    assert_eq!(random.status.code(), Some(2));
}

#[test]
fn simulate_and_the_report_count_the_abbeys_and_what_they_paid() {
    // Abbey & Mayor's abbey is a rule module's move (`reserve`): `simulate --json` counts it
    // per game with the points its turns scored, and the report keys it the same way.
    let dir = scratch("report-abbey");
    let out = tilekit(&[
        "simulate",
        "--sets",
        "base,abbey-and-mayor",
        "--games",
        "60",
        "--json",
        "--report",
        dir.to_str().expect("utf-8 path"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let made = json["actions_per_game"]["reserve"]
        .as_f64()
        .expect("abbeys per game");
    let paid = json["action_points_per_game"]["reserve"]
        .as_f64()
        .expect("their points");
    assert!(made > 0.5 && paid > made, "abbeys {made}, points {paid}");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).expect("report.json"))
            .expect("JSON");
    let r = &report["report"];
    assert_eq!(
        r["actions_per_game"]["reserve"]["value"].as_f64(),
        Some(made)
    );
    assert_eq!(
        r["action_points_per_game"]["reserve"]["value"].as_f64(),
        Some(paid)
    );
    let html = std::fs::read_to_string(dir.join("report.html")).expect("report.html");
    assert!(html.contains("<h2>Rule moves</h2>"), "no rule moves table");
    let _ = std::fs::remove_dir_all(&dir);
}
