//! The report's promises: the same seed gives the same report, byte for byte, whatever the
//! thread count; the per-tile credit adds up to each game's points; a set compared against
//! itself shows no significant difference, and a real difference is found.

use engine::rules::{Bonus, BonusKind, ModuleEvent};
use engine::simulate::{SimOptions, play_out, run_collect};
use engine::{Draw, GameOptions, RuleOptions, Tables};
use std::sync::OnceLock;
use tilekit_report::tally::credit;
use tilekit_report::{Comparison, Report, RunInfo, Tally};

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| engine::compile(&tiledef::load_bundled()).expect("bundled data compiles"))
}

fn options(sets: &[&str], games: u64, seed: u64) -> SimOptions {
    SimOptions {
        games,
        players: 3,
        seed,
        sets: sets.iter().map(|s| s.to_string()).collect(),
        edition: None,
        rules: RuleOptions {
            modules: engine::ModuleOptions {
                wells: true,
                ..Default::default()
            },
            ..RuleOptions::default()
        },
        // Whatever else a run may be told (who plays each seat), as the simulator defaults it.
        ..SimOptions::default()
    }
}

fn info(opts: &SimOptions) -> RunInfo {
    RunInfo {
        games: opts.games,
        players: opts.players,
        seats: vec!["random".into(); opts.players as usize],
        seed: opts.seed,
        sets: opts.sets.clone(),
        tiles: opts.tiles,
        rules: String::new(),
        own_sets: Vec::new(),
    }
}

fn tally(opts: &SimOptions) -> Tally {
    let t = tables();
    run_collect(t, opts, &|| Tally::new(t, opts.players), &|_| {}).expect("games play")
}

fn files_on(threads: usize, opts: &SimOptions) -> Vec<(String, Vec<u8>)> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    pool.install(|| {
        let a = tally(opts);
        let without = SimOptions {
            sets: vec!["base".into()],
            ..opts.clone()
        };
        let b = tally(&without);
        let report = Report::new(tables(), info(opts), &a);
        let c = Comparison::new(tables(), vec!["festival".into()], &a, &b, info(&without));
        tilekit_report::files(&report, Some(&c)).expect("charts draw")
    })
}

#[test]
fn the_same_seed_gives_the_same_report_whatever_the_thread_count() {
    // More games than one batch of chunks, so chunks are merged across batches.
    let opts = options(&["base", "festival"], 600, 7);
    let one = files_on(1, &opts);
    let two = files_on(2, &opts);
    assert_eq!(
        one.iter().map(|f| &f.0).collect::<Vec<_>>(),
        [
            "report.json",
            "report.html",
            "scores.svg",
            "scores.png",
            "seats.svg",
            "seats.png",
            "sources.svg",
            "sources.png",
            "tiles.svg",
            "tiles.png",
            "compare.svg",
            "compare.png"
        ]
    );
    for ((name, a), (_, b)) in one.iter().zip(&two) {
        assert!(a == b, "{name} differs between 1 and 2 threads");
        assert!(!a.is_empty(), "{name} is empty");
    }
    // And another seed gives another report (the figures are not constants).
    let other = files_on(2, &options(&["base", "festival"], 600, 8));
    assert_ne!(one[0].1, other[0].1);
    // The PNGs are PNGs, the page holds its charts inline and links nothing outside the folder.
    assert!(one[3].1.starts_with(b"\x89PNG"));
    let html = String::from_utf8(one[1].1.clone()).expect("utf-8");
    assert_eq!(html.matches("<svg").count(), 5);
    assert!(!html.contains("src=\""), "the page loads no external file");
}

#[test]
fn per_tile_credit_adds_up_to_each_games_points() {
    let t = tables();
    let (mut moves, mut events) = (Vec::new(), Vec::new());
    let mut scorings = [0u64; 4];
    for i in 0..300 {
        let mut rng = engine::rng::Rng::for_game(11, i);
        events.clear();
        let options = GameOptions {
            sets: Vec::new(),
            edition: None,
            players: 2 + (i % 3) as u8,
            rules: RuleOptions {
                modules: engine::ModuleOptions {
                    wells: true,
                    ..Default::default()
                },
                ..RuleOptions::default()
            },
            draw: Draw::Seed(rng.next_u64()),
            tiles: None,
            start: None,
        };
        let mut game = engine::Game::new(t, options, &mut events).expect("sets up");
        play_out(&mut game, &mut rng, &mut moves, &mut events).expect("plays");
        let placed = credit(&game, &events);
        let points: u32 = game.scores().iter().sum();
        let by_end: f64 = placed.iter().map(|p| p.by_end).sum();
        let by_source: f64 = placed.iter().flat_map(|p| p.by_source).sum();
        assert!(
            (by_end - f64::from(points)).abs() < 1e-6,
            "game {i}: {by_end} ≠ {points}"
        );
        assert!((by_source - f64::from(points)).abs() < 1e-6, "game {i}");
        for p in &placed {
            assert!(p.at_once <= p.by_end + 1e-9 && p.at_once >= 0.0);
        }
        assert_eq!(placed.len(), game.board().placed.len());
        assert!(placed[0].seat.is_none() && placed[1..].iter().all(|p| p.seat.is_some()));
        // Every kind of points is met, so the sum is not met by leaving some out.
        for e in &events {
            match e {
                engine::Event::Scored(s) => {
                    let flowers = |b: &Bonus| b.kind() == BonusKind::Flowers;
                    scorings[0] += u64::from(s.bonuses.iter().any(flowers));
                    scorings[1] += u64::from(
                        s.kind == engine::Scored::Rule(engine::rules::RuleSource::WINDMILLS),
                    );
                    scorings[2] += u64::from(s.modifiers.iter().any(|m| m.points > 0));
                }
                engine::Event::Module(ModuleEvent::TokenMajority { points, .. }) => {
                    scorings[3] += u64::from(*points > 0)
                }
                _ => {}
            }
        }
    }
    assert!(
        scorings.iter().all(|&n| n > 0),
        "flowers, windmills, marker modifiers, token majorities: {scorings:?}"
    );
    // The tally keeps the same books over a run.
    let t = tally(&options(&[], 300, 3));
    assert!(t.credit_balanced);
    let credit: f64 = t.set_points.iter().flatten().sum();
    assert!((credit - t.points.sum).abs() < 1e-6 * t.points.sum);
}

#[test]
fn a_set_against_itself_shows_no_significant_difference() {
    // The same bag with two independent streams of seeds: any difference is noise.
    for seed in [1, 2, 3] {
        let a = options(&["base", "festival"], 1500, seed);
        let b = options(&["base", "festival"], 1500, seed + 1000);
        let c = Comparison::new(
            tables(),
            vec!["festival".into()],
            &tally(&a),
            &tally(&b),
            info(&b),
        );
        assert!(c.diffs.len() > 50, "{} figures", c.diffs.len());
        let flagged: Vec<_> = c.significant().map(|d| &d.metric).collect();
        assert!(flagged.is_empty(), "seed {seed}: {flagged:?}");
        // Uncorrected, some of the many figures would be flagged by chance now and then; the
        // correction is what keeps them quiet, not intervals too wide to see anything:
        assert!(c.diffs.iter().any(|d| d.p < 0.2));
    }
    // The same seeds: every figure is identical.
    let a = tally(&options(&["base", "festival"], 300, 5));
    let c = Comparison::new(
        tables(),
        vec![],
        &a,
        &a.clone(),
        info(&options(&[], 300, 5)),
    );
    assert!(
        c.diffs
            .iter()
            .all(|d| d.difference.value == 0.0 && !d.significant)
    );
}

#[test]
fn a_real_difference_is_found() {
    let with = options(&["base", "festival"], 1000, 1);
    let without = options(&["base"], 1000, 1);
    let c = Comparison::new(
        tables(),
        vec!["festival".into()],
        &tally(&with),
        &tally(&without),
        info(&without),
    );
    let placed = c
        .diffs
        .iter()
        .find(|d| d.metric == "tiles placed per game")
        .expect("figure");
    assert!(placed.significant, "{placed:?}");
    // The Festival adds 10 tiles, of which the odd one may be set aside.
    assert!(
        (9.5..=10.5).contains(&placed.difference.value),
        "{placed:?}"
    );
    assert!(
        placed.difference.lo <= placed.difference.value
            && placed.difference.value <= placed.difference.hi
    );
}

#[test]
fn the_rules_as_data_sets_hold_the_same_promises() {
    // Inns & Cathedrals and Traders & Builders (modifiers, the large follower, goods), after
    // the River, under greedy players: the same seed gives the same report on 1 and 2 threads…
    let sets = [
        "base",
        "river",
        "inns-and-cathedrals",
        "traders-and-builders",
    ];
    let greedy = SimOptions {
        players: 2,
        seats: vec![engine::players::Strategy::Greedy; 2],
        ..options(&sets, 60, 4)
    };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        let t = pool.install(|| tally(&greedy));
        let report = Report::new(tables(), info(&greedy), &t);
        let files = tilekit_report::files(&report, None).expect("charts draw");
        let json = files
            .into_iter()
            .find(|f| f.0 == "report.json")
            .expect("json");
        (json.1, t)
    };
    let (one, t) = run(1);
    assert!(
        one == run(2).0,
        "report.json differs between 1 and 2 threads"
    );
    // The games paid modifiers and token majorities (so the report is not of the base game).
    // The tile table: the start tile first, then the author's sets; the River's held-back
    // lake, always drawn at the same turn, is said to be one seat's.
    let mut run = info(&greedy);
    run.own_sets = vec!["traders-and-builders".into()];
    let report = Report::new(tables(), run, &t);
    assert!(report.tiles[0].start, "{:?}", report.tiles[0].id);
    assert_eq!(report.tiles[1].set, "traders-and-builders");
    let lake = report
        .tiles
        .iter()
        .find(|r| r.id == "RI.1-I.e")
        .expect("the lake");
    assert!(
        lake.one_seat.is_some_and(|(_, share)| share >= 0.9),
        "{:?}",
        lake.one_seat
    );
    // Tiles shuffled into the bag are drawn by every seat: no false confound.
    let confounded: Vec<&str> = (report.tiles.iter())
        .filter(|r| !r.start && r.set != "river" && r.one_seat.is_some())
        .map(|r| r.id.as_str())
        .collect();
    assert!(confounded.is_empty(), "{confounded:?}");
    // Each marker kind apart, named as `simulate` names it.
    let paid = |name: &str| {
        (t.source_points.iter())
            .find(|(n, _)| n == name)
            .map_or_else(|| panic!("no source {name}"), |(_, m)| m.sum)
    };
    assert!(paid("cloth (tokens)") > 0.0 && paid("inn (modifier)") != 0.0);
    assert!(paid("cathedral (modifier)") != 0.0);
    // Followers were deployed, and large followers where the sets bring them.
    let deployed = |id: &str| {
        t.deployments
            .iter()
            .find(|(n, _)| n == id)
            .map(|(_, m)| m.sum)
    };
    assert!(deployed("follower").is_some_and(|n| n > 0.0));
    assert!(deployed("large-follower").is_some_and(|n| n > 0.0));
    // …and a set compared against itself (two streams of seeds) shows no significant
    // difference.
    let a = options(&sets[..], 1500, 21);
    let b = options(&sets[..], 1500, 1021);
    let c = Comparison::new(
        tables(),
        vec!["traders-and-builders".into()],
        &tally(&a),
        &tally(&b),
        info(&b),
    );
    assert!(c.diffs.len() > 50, "{} figures", c.diffs.len());
    let flagged: Vec<_> = c.significant().map(|d| &d.metric).collect();
    assert!(flagged.is_empty(), "{flagged:?}");
}

/// With Village Life's flowers, the report says how the player of each dealt colour did: every
/// seat of every game is one colour's; without flowers there is no colour table.
#[test]
fn flower_colours_are_reported_where_they_are_dealt() {
    let village = options(&["base", "village-life"], 40, 5);
    let report = Report::new(tables(), info(&village), &tally(&village));
    let dealt: u64 = report.flower_colours.iter().map(|c| c.games).sum();
    assert_eq!(dealt, 40 * u64::from(village.players));
    assert!(
        report
            .flower_colours
            .iter()
            .all(|c| (0.0..=1.0).contains(&c.win_rate.value))
    );
    let base = options(&["base"], 10, 5);
    let report = Report::new(tables(), info(&base), &tally(&base));
    assert!(report.flower_colours.is_empty());
}
