//! End-to-end tests of the rules: Village Life's mechanics switch one by one, the rules in play
//! head the reports of `simulate` (text and JSON), `bench` and `play`, and the fan sets of
//! `examples/` play as their records explain.

mod common;

use common::tilekit;
use std::process::Output;

/// `tilekit play` of a record and definition files, which must succeed: what it printed.
fn played(paths: &[&std::path::Path]) -> String {
    let mut args = vec!["play"];
    args.extend(paths.iter().map(|p| p.to_str().expect("a UTF-8 path")));
    let out = tilekit(&args);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}{err}");
    text
}

fn json(out: &Output) -> serde_json::Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

#[test]
fn simulate_json_says_which_rules_follow_from_the_sets() {
    let args = ["simulate", "--games", "40", "--json", "--sets"];
    let vl = json(&tilekit(&[&args[..], &["base,village-life"]].concat()));
    let rules = &vl["rules"];
    assert_eq!(rules["sets"], serde_json::json!(["base", "village-life"]));
    assert_eq!(rules["donkey"], true);
    assert_eq!(rules["windmills"], 1);
    assert_eq!(rules["flower_bonus"], true);
    assert_eq!(rules["donkey_blocks"], "road");
    let base = json(&tilekit(&[&args[..], &["base"]].concat()));
    assert_eq!(base["rules"]["donkey"], false);
    assert_eq!(base["rules"]["windmills"], 0);
    assert_eq!(base["rules"]["flower_bonus"], false);
    // Only the moves made are listed: no donkey move.
    assert_eq!(base["actions_per_game"].get("donkey"), None);
}

#[test]
fn simulate_flags_switch_each_mechanic_on_its_own() {
    let out = json(&tilekit(&[
        "simulate",
        "--games",
        "60",
        "--json",
        "--sets",
        "base,village-life",
        "--donkey",
        "false",
        "--flower-bonus",
        "false",
        "--windmills",
        "2",
        "--donkey-blocks",
        "network",
    ]));
    let rules = &out["rules"];
    assert_eq!(rules["donkey"], false);
    assert_eq!(rules["flower_bonus"], false);
    assert_eq!(rules["windmills"], 2);
    assert_eq!(rules["donkey_blocks"], "network");
    assert_eq!(out["actions_per_game"].get("donkey"), None);
    assert_eq!(out["points_per_game_by_source"]["flowers"], 0.0);
    assert!(out["actions_per_game"]["windmill"].as_f64().unwrap_or(0.0) > 0.0);
}

#[test]
fn simulate_text_and_play_start_with_the_rules() {
    let out = tilekit(&["simulate", "--games", "20", "--sets", "base"]);
    assert_eq!(out.status.code(), Some(0));
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    // Only rules a base game can meet: no Festival, donkey, windmills, flowers or wells; the
    // abbot, as the draw has gardens.
    assert_eq!(
        first,
        "rules: sets base; 7 followers; first-edition small city off; abbot 1 each"
    );
    let out = tilekit(&["simulate", "--games", "2", "--sets", "base,village-life"]);
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(
        first.contains("donkey on") && first.contains("wells off"),
        "{first}"
    );
    let out = tilekit(&[
        "play",
        "engine/tests/scenarios/25-farmers-with-flowers.toml",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(
        first.starts_with("rules: sets base, village-life;")
            && first.contains("donkey off")
            && first.contains("windmills 1 each")
            && first.contains("flower bonus on"),
        "{first}"
    );
}

#[test]
fn a_bad_donkey_reading_is_a_usage_error() {
    let out = tilekit(&["simulate", "--games", "1", "--donkey-blocks", "city"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn simulate_names_what_each_modifier_and_token_paid() {
    let args = ["simulate", "--games", "60", "--sets"];
    let sets = "base,inns-and-cathedrals,traders-and-builders";
    let out = json(&tilekit(&[&args[..], &[sets, "--json"]].concat()));
    let by_source = &out["points_per_game_by_source"];
    for key in ["inn (modifier)", "cathedral (modifier)"] {
        // Random games leave inns and cathedrals unfinished as often as not: never nothing.
        let v = by_source[key].as_f64().unwrap_or(0.0);
        assert!(v != 0.0, "{key}: {by_source}");
    }
    for key in ["wine (tokens)", "grain (tokens)", "cloth (tokens)"] {
        assert!(
            by_source[key].as_f64().unwrap_or(0.0) > 0.0,
            "{key}: {by_source}"
        );
    }
    // A base game has no inn: its modifier pays nothing there.
    let base = json(&tilekit(&[&args[..], &["base", "--json"]].concat()));
    assert_eq!(base["points_per_game_by_source"]["inn (modifier)"], 0.0);
    let text = tilekit(&[&args[..], &[sets]].concat());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("inn (modifier)") && text.contains("wine (tokens)"),
        "{text}"
    );
    let play = tilekit(&["play", "engine/tests/scenarios/inns-road-completed.toml"]);
    let play = String::from_utf8_lossy(&play.stdout);
    assert!(
        play.contains("P1 scores 8 points (completed road of 4 tiles: 2 × 4 (inn))"),
        "{play}"
    );
}

/// A figure another set declares again, identically, is in the games of either set: a fan set
/// that brings Inns & Cathedrals' large follower gives it to games without Inns & Cathedrals.
#[test]
fn a_figure_declared_again_is_in_the_games_of_either_set() {
    let dir = common::scratch("figure-again");
    let fan = dir.join("fan.toml");
    std::fs::write(
        &fan,
        "format = 1\n[set]\nid = \"fan\"\nname = \"Fan\"\nrequires = [\"base\"]\n\n\
         [[figure]]\nid = \"large-follower\"\nname = \"Large follower\"\ncount = 1\nstrength = 2\n\n\
         [[tile]]\nid = \"FAN-U\"\ncount = 1\nlike = \"U\"\n",
    )
    .unwrap();
    let record = dir.join("game.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = 2\nsets = [\"base\", \"fan\"]\n\n[[turn]]\ntile = \"FAN-U\"\nat = [1, 0]\n\
         deploy = \"road\"\nfigure = \"large-follower\"\n",
    )
    .unwrap();
    let out = tilekit(&[
        "play",
        record.to_str().unwrap(),
        // Inns & Cathedrals first: it declares the large follower, the fan declares it again.
        "definitions/base.toml",
        "definitions/inns-and-cathedrals.toml",
        fan.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("deploys a large follower"));
}

/// A token on a set's own kind that closes (a lake) is awarded to whoever closes it, as goods
/// are for a city: the checker no longer limits tokens to roads and cities by name.
#[test]
fn a_token_on_a_lake_goes_to_whoever_closes_it() {
    let dir = common::scratch("lake-token");
    let fish = dir.join("fish.toml");
    std::fs::write(
        &fish,
        "format = 1\n[set]\nid = \"fish\"\nname = \"Fish\"\nrequires = [\"lakes\"]\n\n\
         [[marker]]\nid = \"fish\"\nname = \"Fish\"\non = \"lake\"\ntoken = { points = 5 }\n\n\
         [[tile]]\nid = \"FI-bay\"\ncount = 1\nedges = { n = \"lake\", e = \"field\", s = \"road\", w = \"field\" }\n\
         lakes = [{ ports = [\"N\"], markers = [\"fish\"] }]\nroads = [{ ports = [\"S\"], end = \"lake\" }]\n\
         fields = [\n  { ports = [\"WNW\", \"WSW\", \"SSW\"], lakes = [\"N\"] },\n  \
         { ports = [\"SSE\", \"ESE\", \"ENE\"], lakes = [\"N\"] },\n]\n",
    )
    .unwrap();
    // P1 stands on the fish bay's lake; P2 closes it with a plain bay: 2 × 2 = 4 for P1, and
    // P2 takes the fish, the only one: 5 at the end.
    let record = dir.join("game.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = 2\nsets = [\"base\", \"lakes\", \"fish\"]\n\n\
         [[turn]]\ntile = \"FI-bay\"\nat = [1, 0]\nrotation = 1\ndeploy = \"lake\"\n\n\
         [[turn]]\ntile = \"LK-bay\"\nat = [2, 0]\nrotation = 3\n\n\
         [expect]\nscores = [4, 5]\nover = true\n",
    )
    .unwrap();
    let lakes = common::root().join("examples/lakes.toml");
    let text = played(&[&record, &lakes, &fish]);
    assert!(text.contains("fish"), "{text}");
}

/// Each fan set in `examples/` validates without a warning, and each of its records
/// (`examples/records/<set id>-*.toml`) replays with every expectation holding.
#[test]
fn the_example_sets_play_as_their_records_explain() {
    let examples = common::root().join("examples");
    let mut sets: Vec<std::path::PathBuf> = std::fs::read_dir(&examples)
        .expect("examples/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    sets.sort();
    assert!(sets.len() >= 2, "{sets:?}");
    let mut replayed = 0;
    for set in &sets {
        let set = set.to_string_lossy().into_owned();
        let out = tilekit(&["validate", &set]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(0), "{set}: {stderr}{stdout}");
        assert!(
            !stdout.contains("warning") && !stderr.contains("warning"),
            "{set}: {stdout}"
        );
        let id = std::path::Path::new(&set)
            .file_stem()
            .expect("a name")
            .to_string_lossy();
        let mut records: Vec<std::path::PathBuf> = std::fs::read_dir(examples.join("records"))
            .expect("examples/records/")
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                (p.file_name()).is_some_and(|n| n.to_string_lossy().starts_with(&format!("{id}-")))
            })
            .collect();
        records.sort();
        assert!(!records.is_empty(), "{set} has no record");
        for record in records {
            let record = record.to_string_lossy().into_owned();
            let out = tilekit(&["play", &record, &set]);
            let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{record}: {stdout}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                stdout.contains("all expectations of the record hold"),
                "{record}: {stdout}"
            );
            replayed += 1;
        }
    }
    assert!(replayed >= 4, "only {replayed} records replayed");
}

/// Where figures count otherwise than one each (the mayor's pennants), a scoring says the
/// majority by strength, in words and in `--json`; where they do not, it says nothing more.
#[test]
fn a_scoring_says_the_majority_by_strength_when_figures_count_otherwise() {
    let mayor = common::root().join("examples/mayor.toml");
    let record = |name: &str| common::root().join(format!("examples/records/{name}.toml"));
    let three = record("mayor-three-pennants-beat-two-followers");
    let out = tilekit(&["play", three.to_str().unwrap(), mayor.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("; majority by strength: P1 3, P2 2"),
        "{text}"
    );
    let out = json(&tilekit(&[
        "play",
        three.to_str().unwrap(),
        mayor.to_str().unwrap(),
        "--json",
    ]));
    let scored: Vec<&serde_json::Value> = (out["turns"].as_array().unwrap().iter())
        .flat_map(|t| t.as_array().unwrap())
        .filter_map(|e| e.get("scored"))
        .collect();
    assert_eq!(scored[0]["strength"], serde_json::json!([3, 2]));
    // One pennant: the mayor counts 1, as a follower does.
    let tie = record("mayor-one-pennant-ties");
    let out = tilekit(&["play", tie.to_str().unwrap(), mayor.to_str().unwrap()]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("by strength"));
}

/// A fan set in `dir` with `count` copies of a city cap whose field has a pigsty: a marker
/// whose `bordered` rate adds 1 a completed city to the field's farmers.
fn pigsty_set(dir: &std::path::Path, count: u32) -> std::path::PathBuf {
    let set = dir.join("pigsty.toml");
    std::fs::write(
        &set,
        format!(
            "format = 1\n[set]\nid = \"pigsty\"\nname = \"Pigsty\"\nrequires = [\"base\"]\n\n\
             [[marker]]\nid = \"pigsty\"\nname = \"Pigsty\"\non = \"field\"\n\
             scoring = {{ unfinished = {{ bordered = 1 }} }}\n\n\
             [[tile]]\nid = \"PS-cap\"\ncount = {count}\nedges = {{ n = \"city\", e = \"field\", s = \"field\", w = \"field\" }}\n\
             cities = [{{ ports = [\"N\"] }}]\n\
             fields = [{{ ports = [\"WSW\", \"WNW\", \"SSE\", \"SSW\", \"ENE\", \"ESE\"], cities = [\"N\"], markers = [\"pigsty\"] }}]\n"
        ),
    )
    .unwrap();
    set
}

/// A marker's `bordered` rate on a field (River II's pig farm, here a fan set's pigsty) adds to
/// its farmers per completed city the field borders: 3 + 1 for one city.
#[test]
fn a_pigsty_adds_to_its_farmers_per_completed_city() {
    let dir = common::scratch("pigsty");
    let set = pigsty_set(&dir, 1);
    // The cap closes D's city from the north (nobody on it); P1's farmer on its field scores
    // at the end 3 for the city and 1 for the pigsty.
    let record = dir.join("game.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = 2\nsets = [\"base\", \"pigsty\"]\n\n\
         [[turn]]\ntile = \"PS-cap\"\nat = [0, -1]\nrotation = 2\ndeploy = \"field\"\n\n\
         [expect]\nscores = [4, 0]\nover = true\n",
    )
    .unwrap();
    let text = played(&[&record, &set]);
    assert!(text.contains("3 × 1 + 1 × 1 bordered (pigsty)"), "{text}");
}

/// A region's `bordered` rate pays once however many of the markers it holds (JCloisterZone's
/// reading of two pig farms on one field, `Field::getCityPoints`: "do not stack"): 3 + 1.
#[test]
fn two_pigsties_on_one_field_pay_once() {
    let dir = common::scratch("pigsties");
    let set = pigsty_set(&dir, 2);
    // The first cap closes D's city from the north (nobody in it), P1's farmer on its field; the
    // second, east of it and turned the same way, joins its field (its own city stays open).
    // At the end the field borders one completed city: 3, and its two pigsties add 1 × 1 once.
    let record = dir.join("game.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = 2\nsets = [\"base\", \"pigsty\"]\n\n\
         [[turn]]\ntile = \"PS-cap\"\nat = [0, -1]\nrotation = 2\ndeploy = \"field\"\n\n\
         [[turn]]\ntile = \"PS-cap\"\nat = [1, -1]\nrotation = 2\n\n\
         [expect]\nscores = [4, 0]\nover = true\n",
    )
    .unwrap();
    let text = played(&[&record, &set]);
    assert!(text.contains("3 × 1 + 1 × 1 bordered (pigsty)"), "{text}");
}

/// A figure's count given by a game is held to what a set may declare (20): on the command line
/// a usage error, in a record an error naming the figure.
#[test]
fn a_figure_count_above_the_formats_limit_is_refused() {
    let out = tilekit(&["simulate", "--games", "1", "--figure", "abbot=21"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("from 0 to 20"));
    let dir = common::scratch("figure-count");
    let record = dir.join("game.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = 2\nrules = { figures = { abbot = 99 } }\n",
    )
    .unwrap();
    let out = tilekit(&["play", record.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("figure `abbot`: 99 each is more than 20"),
        "{err}"
    );
}

/// A good given by markers of two sets, one requiring the other, is one good: the tokens of
/// both count together for one majority, named by the good's id.
#[test]
fn a_good_given_by_two_sets_is_one_majority() {
    let dir = common::scratch("shared-good");
    let boats = dir.join("boats.toml");
    std::fs::write(
        &boats,
        "format = 1\n[set]\nid = \"boats\"\nname = \"Boats\"\nrequires = [\"harbour\"]\n\n\
         [[marker]]\nid = \"boat\"\nname = \"Boat\"\non = \"road\"\n\
         token = { id = \"fish\", points = 10 }\n\n\
         [[tile]]\nid = \"BT-boat\"\ncount = 2\nedges = { n = \"field\", e = \"field\", s = \"field\", w = \"road\" }\n\
         roads = [{ ports = [\"W\"], end = \"junction\", markers = [\"boat\"] }]\n\
         fields = [{ ports = [\"NNW\", \"NNE\", \"ENE\", \"ESE\", \"SSE\", \"SSW\", \"WSW\", \"WNW\"] }]\n",
    )
    .unwrap();
    // P2 closes the road of two boats (2 fish), P1 the city with a port (1 fish, from the
    // other set's marker). Counted by marker each would have a majority (10 each); as one
    // good, P2 has the most fish: 10 for P2 alone.
    let record = dir.join("game.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = 2\nsets = [\"base\", \"harbour\", \"boats\"]\n\n\
         [[turn]]\ntile = \"BT-boat\"\nat = [1, 0]\n\n\
         [[turn]]\ntile = \"BT-boat\"\nat = [-1, 0]\nrotation = 2\n\n\
         [[turn]]\ntile = \"HB-port\"\nat = [0, -1]\nrotation = 2\n\n\
         [expect]\nscores = [0, 10]\nover = true\n",
    )
    .unwrap();
    let harbour = common::root().join("examples/harbour.toml");
    let text = played(&[&record, &harbour, &boats]);
    assert!(text.contains("P2 takes 2 × fish"), "{text}");
    assert!(text.contains("P1 takes 1 × fish"), "{text}");
    assert!(
        text.contains("final fish: P2 scores 10 points for the most fish (P1 1, P2 2)"),
        "{text}"
    );
    let out = json(&tilekit(&[
        "play",
        record.to_str().unwrap(),
        harbour.to_str().unwrap(),
        boats.to_str().unwrap(),
        "--json",
    ]));
    let text = out.to_string();
    assert!(text.contains(r#""token":"fish""#), "{text}");
    assert!(!text.contains(r#""token":"boat""#), "{text}");
}

/// An effect with an `option` is a house rule: off unless the game names it, and `--option`
/// accepts its name.
#[test]
fn an_effect_with_an_option_pays_only_when_switched_on() {
    let highland = common::root().join("examples/highland.toml");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "simulate",
            highland.to_str().unwrap(),
            "--sets",
            "base,highland",
            "--games",
            "40",
            "--json",
        ];
        args.extend(extra);
        json(&tilekit(&args))
    };
    let huts = |v: &serde_json::Value| v["stats"]["marker_points"]["hut"].as_i64().unwrap();
    assert_eq!(huts(&run(&[])), 0);
    assert!(huts(&run(&["--option", "shepherds"])) > 0);
    let out = tilekit(&[
        "simulate",
        highland.to_str().unwrap(),
        "--sets",
        "base,highland",
        "--games",
        "4",
        "--option",
        "shepherd",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("shepherds"), "{err}");
}
