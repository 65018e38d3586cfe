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
