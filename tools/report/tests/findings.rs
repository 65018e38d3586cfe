//! Findings on synthetic tallies whose truth is known: what is out of line is found, and what
//! is not is not flagged beyond the error rate the findings promise.

use engine::Tables;
use engine::rng::Rng;
use std::sync::OnceLock;
use tilekit_report::findings::FindingKind;
use tilekit_report::{Report, RunInfo, Tally};

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| engine::compile(&tiledef::load_bundled()).expect("bundled data compiles"))
}

fn info(games: u64, players: u8) -> RunInfo {
    RunInfo {
        games,
        players,
        seats: vec!["random".into(); players as usize],
        seed: 1,
        sets: vec!["base".into()],
        tiles: None,
        rules: String::new(),
        own_sets: Vec::new(),
    }
}

/// A tally of `games` games where tile kinds are drawn once a game, seats win by `win(rng,
/// seat)` (a share of the win), and kind `aside` has a copy set aside with probability
/// `p_aside` per game.
fn synthetic(
    games: u64,
    players: u8,
    seed: u64,
    aside: usize,
    p_aside: f64,
    win: &dyn Fn(&mut Rng) -> usize,
) -> Tally {
    let t = tables();
    let mut tally = Tally::new(t, players);
    let mut rng = Rng::new(seed);
    let unit = |rng: &mut Rng| f64::from(rng.next_u32()) / (f64::from(u32::MAX) + 1.0);
    for _ in 0..games {
        tally.games += 1;
        let winner = win(&mut rng);
        for (p, s) in tally.seats.iter_mut().enumerate() {
            s.win.add(f64::from(u8::from(p == winner)));
            s.score.add(10.0);
            s.histogram.resize(11, 0);
            s.histogram[10] += 1;
        }
        for (k, kind) in tally.kinds.iter_mut().enumerate().take(10) {
            let set_aside = k == aside && unit(&mut rng) < p_aside;
            kind.drawn += 1;
            kind.set_aside.add(f64::from(u8::from(set_aside)), 1.0);
            kind.games_set_aside += u64::from(set_aside);
            kind.by_end.add(1.0, 1.0 - f64::from(u8::from(set_aside)));
        }
        tally.points.add(20.0);
    }
    tally
}

fn uniform(players: u64) -> impl Fn(&mut Rng) -> usize {
    move |rng: &mut Rng| (rng.next_u32() as u64 % players) as usize
}

#[test]
fn a_tile_set_aside_in_every_game_is_found() {
    let t = tables();
    let tally = synthetic(400, 2, 7, 3, 1.0, &uniform(2));
    let report = Report::new(t, info(400, 2), &tally);
    let found: Vec<_> = (report.findings.iter())
        .filter(|f| f.kind == FindingKind::TileSetAsideOften)
        .collect();
    assert_eq!(found.len(), 1, "{:#?}", report.findings);
    assert_eq!(found[0].subject, t.kinds[3].id);
    assert!(found[0].value.lo > 0.2, "{:?}", found[0].value);
    assert!(found[0].statement.contains(&t.kinds[3].id));
}

#[test]
fn a_tile_set_aside_at_the_threshold_is_not_found() {
    let t = tables();
    let tally = synthetic(400, 2, 8, 3, 0.2, &uniform(2));
    let report = Report::new(t, info(400, 2), &tally);
    assert!(
        !(report.findings.iter()).any(|f| f.kind == FindingKind::TileSetAsideOften),
        "{:#?}",
        report.findings
    );
}

#[test]
fn fair_seats_are_flagged_in_at_most_about_five_percent_of_seeds() {
    let t = tables();
    let runs = 200;
    let flagged = (0..runs)
        .filter(|&seed| {
            let tally = synthetic(300, 3, 1000 + seed, 0, 0.0, &uniform(3));
            let report = Report::new(t, info(300, 3), &tally);
            (report.findings.iter()).any(|f| {
                matches!(
                    f.kind,
                    FindingKind::SeatAdvantage | FindingKind::SeatDisadvantage
                )
            })
        })
        .count();
    // Holm keeps the family-wise error at 5 %: 10 of 200 expected at most; 20 would be a
    // four-standard-deviation excess.
    assert!(
        flagged <= 20,
        "{flagged} of {runs} fair runs flagged a seat"
    );
}

#[test]
fn a_seat_that_wins_more_is_found() {
    let t = tables();
    // Seat 1 wins 70 % of games.
    let biased = |rng: &mut Rng| usize::from(rng.next_u32() % 10 >= 7);
    let tally = synthetic(500, 2, 3, 0, 0.0, &biased);
    let report = Report::new(t, info(500, 2), &tally);
    let seats: Vec<_> = (report.findings.iter())
        .filter(|f| f.kind == FindingKind::SeatAdvantage)
        .collect();
    assert_eq!(seats.len(), 1, "{:#?}", report.findings);
    assert_eq!(seats[0].subject, "seat 1");
    assert!(seats[0].value.lo > 0.5);
}

#[test]
fn a_figure_never_deployed_and_a_source_far_above_are_found() {
    let t = tables();
    let mut tally = synthetic(600, 2, 5, 0, 0.0, &uniform(2));
    // The base follower dealt in every game and never deployed (0 of 600: the interval is
    // below 1 %).
    tally.figure_games[0].dealt = 600;
    tally.figure_games[0].deployed = 0;
    // Sources: the first pays 30 a game, the next three about 5, the rest nothing.
    for g in 0..300 {
        let jitter = f64::from(g % 3);
        for (i, (_, m)) in tally.source_points.iter_mut().enumerate() {
            m.add(match i {
                0 => 30.0 + jitter,
                1..=3 => 5.0 + jitter,
                _ => 0.0,
            });
        }
    }
    let report = Report::new(t, info(600, 2), &tally);
    let kinds: Vec<_> = report.findings.iter().map(|f| f.kind).collect();
    assert!(
        kinds.contains(&FindingKind::FigureNeverDeployed),
        "{kinds:?}"
    );
    let above: Vec<_> = (report.findings.iter())
        .filter(|f| f.kind == FindingKind::SourceAbove)
        .collect();
    assert_eq!(above.len(), 1, "{:#?}", report.findings);
    assert_eq!(above[0].subject, tally.source_points[0].0);
    assert!(
        !kinds.contains(&FindingKind::SourceBelow),
        "{:#?}",
        report.findings
    );
}
