//! Paired A/B runs of real games (`paired::run_pair`, `Comparison::of_run`): two identical
//! configurations are called different in at most about 5 % of seeds, figure by figure and
//! family-wise after Holm's correction; a real change (the first-edition small city) is found,
//! and pairing the games narrows its interval.

use engine::simulate::SimOptions;
use engine::{RuleOptions, Tables};
use std::sync::OnceLock;
use tilekit_report::paired::{Group, Side, run_pair, same_draw};
use tilekit_report::{Comparison, RunInfo, Spec, Tallied, Tally};

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| engine::compile(&tiledef::load_bundled()).expect("bundled data compiles"))
}

/// Short games of the base game: 20 tiles, 2 random players.
fn options(seed: u64, games: u64, rules: RuleOptions) -> SimOptions {
    SimOptions {
        games,
        players: 2,
        seed,
        sets: vec!["base".into()],
        rules,
        tiles: Some(20),
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

fn compare(a: &SimOptions, b: &SimOptions, paired: bool) -> Comparison {
    let t = tables();
    let (sa, sb) = (Side { tables: t, opts: a }, Side { tables: t, opts: b });
    let new = || Tally::new(t, 2);
    let run = run_pair(sa, sb, &new, &new, &|_| {}).expect("games play");
    let spec = Spec {
        sets: Vec::new(),
        title: "test".into(),
        labels: ["B".into(), "A".into()],
        b_is_change: true,
        paired,
        resolve: None,
    };
    let (ta, tb) = (
        Tallied {
            tables: t,
            tally: &run.a,
        },
        Tallied {
            tables: t,
            tally: &run.b,
        },
    );
    Comparison::of_run(spec, ta, tb, info(b), &run.sums)
}

/// Identical configurations whose games are independent (B plays other seeds, game i paired
/// with game i): under this null hypothesis a 5 % test flags about 5 % of figures, and Holm's
/// correction keeps the seeds with any figure flagged to about 5 %. Both the paired and the
/// unpaired intervals are tried.
#[test]
fn identical_configurations_differ_in_about_5_percent_of_seeds() {
    const SEEDS: u64 = 100;
    for paired in [true, false] {
        let (mut figures, mut flagged, mut seeds_flagged) = (0u64, 0u64, 0u64);
        for seed in 0..SEEDS {
            let a = options(seed, 200, RuleOptions::default());
            let b = options(seed + 1_000_000, 200, RuleOptions::default());
            let c = compare(&a, &b, paired);
            // The game-level figures: those the pairing is about (tile figures are few
            // placements each in 20-tile games, and never paired).
            // A figure constant in every game (tiles placed, in games cut to 20 tiles) can
            // never differ: left out of the rate.
            let varying =
                |d: &&tilekit_report::Diff| d.group != Group::Tile && d.difference.se > 0.0;
            for d in c.diffs.iter().filter(varying) {
                assert_eq!(d.paired, paired);
                figures += 1;
                flagged += u64::from(d.p < 0.05);
            }
            seeds_flagged += u64::from(c.significant().count() > 0);
        }
        let rate = flagged as f64 / figures as f64;
        eprintln!(
            "paired {paired}: {flagged} of {figures} figures at p < 0.05 ({:.1} %); {seeds_flagged} \
             of {SEEDS} seeds with a significant difference after Holm",
            100.0 * rate
        );
        assert!(
            (0.03..=0.07).contains(&rate),
            "{:.1} % flagged",
            100.0 * rate
        );
        // Family-wise 5 %, plus two binomial standard deviations of 100 seeds (±4.4).
        assert!(seeds_flagged <= 9, "{seeds_flagged} of {SEEDS} seeds");
    }
}

#[test]
fn a_real_change_is_found_and_pairing_narrows_it() {
    let a = options(3, 400, RuleOptions::default());
    let b = options(
        3,
        400,
        RuleOptions {
            on: vec!["first-edition-small-city".into()],
            ..RuleOptions::default()
        },
    );
    let t = tables();
    assert!(same_draw(
        Side {
            tables: t,
            opts: &a
        },
        Side {
            tables: t,
            opts: &b
        }
    ));
    let other_sets = SimOptions {
        sets: vec!["base".into(), "festival".into()],
        ..a.clone()
    };
    assert!(!same_draw(
        Side {
            tables: t,
            opts: &a
        },
        Side {
            tables: t,
            opts: &other_sets
        }
    ));
    let find = |c: &Comparison, metric: &str| {
        (c.diffs.iter().find(|d| d.metric == metric).cloned())
            .unwrap_or_else(|| panic!("no figure {metric}"))
    };
    let paired = find(&compare(&a, &b, true), "points per game from cities");
    let unpaired = find(&compare(&a, &b, false), "points per game from cities");
    eprintln!(
        "cities: paired {:?}, unpaired {:?}",
        paired.difference, unpaired.difference
    );
    // Small cities score 2, not 4: fewer city points, found.
    assert!(paired.significant && paired.difference.hi < 0.0);
    assert!(paired.difference.se < 0.5 * unpaired.difference.se);
    assert!((paired.difference.value - unpaired.difference.value).abs() < 1e-9);
    // With the change's side first: the option's side has fewer points.
    assert!(paired.with < paired.without);
}
