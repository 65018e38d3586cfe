//! The engine scores as the feature kinds declare: every score of seeded base games, of the
//! scenario records and of games with an author's own kinds (lakes, islands) is the one
//! computed here from the declarations alone (`tiledef`'s resolved kinds, ranges counted on
//! the board), not from the engine's compiled rules.

mod common;

use engine::game::{Draw, Event, Game, GameOptions, Phase, RuleOptions};
use engine::players::{Player, Strategy};
use engine::record::{Record, replay};
use engine::rng::Rng;
use engine::rules::BonusKind;
use engine::{Reason, Score, Scored};
use tiledef::{KindPoints, RangeDef, Shape, TileSet};

fn rate(p: KindPoints, tiles: u32, emblems: u32) -> u32 {
    p.tile * tiles + p.emblem * emblems
}

/// The tiles of a site's range placed on the board around (x, y).
fn placed_in_range(game: &Game<'_>, range: Option<RangeDef>, (x, y): (i16, i16)) -> u32 {
    let (x, y) = (i32::from(x), i32::from(y));
    match range {
        None => 1,
        Some(RangeDef::Square(r)) => {
            let r = r as i32;
            let cells = (-r..=r).flat_map(|dx| (-r..=r).map(move |dy| (dx, dy)));
            cells
                .filter(|(dx, dy)| game.board().at(x + dx, y + dy).is_some())
                .count() as u32
        }
        Some(RangeDef::Plus(r)) => {
            let r = r as i32;
            let cells = (-r..=r)
                .flat_map(|d| [(d, 0), (0, d)])
                .filter(|&c| c != (0, 0));
            1 + cells
                .filter(|(dx, dy)| game.board().at(x + dx, y + dy).is_some())
                .count() as u32
        }
    }
}

/// The tiles of a site's range.
fn range_tiles(range: Option<RangeDef>) -> u32 {
    match range {
        None => 1,
        Some(RangeDef::Square(r)) => (2 * r + 1) * (2 * r + 1),
        Some(RangeDef::Plus(r)) => 4 * r + 1,
    }
}

/// The points the declarations give a score event, or `None` for what they do not cover yet
/// (windmills, marker modifiers, marketplace networks).
fn declared_points(ts: &TileSet, game: &Game<'_>, s: &Score) -> Option<u32> {
    let Scored::Feature(kind) = s.kind else {
        return None;
    };
    if !s.modifiers.is_empty() || s.bonuses.iter().any(|b| b.kind() == BonusKind::Network) {
        return None;
    }
    let k = &ts.feature_kinds[kind.index()];
    let t = s.tiles.len() as u32;
    Some(match (k.shape, s.reason) {
        (_, Reason::Small) => {
            let small = k.small.as_ref().expect("a small feature is declared");
            assert!(t <= small.max_tiles, "a small {} of {t} tiles", k.id);
            rate(small.points, t, s.emblems)
        }
        (Shape::Site, Reason::Completed) => rate(k.complete_rates, range_tiles(k.range), 0),
        (Shape::Site, Reason::Unfinished) => {
            let placed = placed_in_range(game, k.range, (s.at.0, s.at.1));
            rate(k.unfinished_rates, placed, 0)
        }
        // Recalled in play: the range as it was then, no more than the final board's.
        (Shape::Site, Reason::Recalled) => {
            let placed = placed_in_range(game, k.range, (s.at.0, s.at.1));
            assert!(s.range <= placed && s.range >= 1, "a recall of {}", s.range);
            rate(k.unfinished_rates, s.range, 0)
        }
        (Shape::Region, _) => {
            let region = kind.index();
            let paid: u32 = (s.bordered.iter())
                .map(|&(near, n)| {
                    let near = &ts.feature_kinds[near.index()];
                    let rate = near.bordered.iter().find(|(r, _)| *r == region);
                    n * rate.map_or(0, |(_, points)| *points)
                })
                .sum();
            paid + rate(k.unfinished_rates, t, 0)
        }
        (_, Reason::Completed) => rate(k.complete_rates, t, s.emblems),
        (_, Reason::Unfinished | Reason::Recalled) => rate(k.unfinished_rates, t, s.emblems),
    })
}

/// Checks each score event of a finished game against the declarations; returns how many it
/// checked.
fn check_scores<'a>(
    ts: &TileSet,
    game: &Game<'_>,
    events: impl Iterator<Item = &'a Event>,
    what: &str,
) -> usize {
    let mut checked = 0;
    for e in events {
        let Event::Scored(s) = e else { continue };
        // The small-city rates apply only with the option on, and only to small cities.
        if s.reason == Reason::Small {
            assert!(game.options().rules.first_edition_small_city, "{what}");
        }
        if let Some(points) = declared_points(ts, game, s) {
            assert_eq!(s.points, points, "{what}: {s:?}");
            checked += 1;
        }
    }
    checked
}

fn play<'t>(
    tables: &'t engine::Tables,
    edition: &str,
    small_city: bool,
    seed: u64,
) -> (Game<'t>, Vec<Event>) {
    let options = GameOptions {
        sets: vec!["base".to_string()],
        edition: Some(edition.to_string()),
        players: 2 + (seed % 3) as u8,
        rules: RuleOptions {
            first_edition_small_city: small_city,
            ..RuleOptions::default()
        },
        draw: Draw::Seed(seed),
        tiles: None,
        start: None,
    };
    play_out(tables, options, seed)
}

/// A game with these options played to its end by random players seeded with `seed`.
fn play_out(tables: &engine::Tables, options: GameOptions, seed: u64) -> (Game<'_>, Vec<Event>) {
    let mut events = Vec::new();
    let mut game = Game::new(tables, options, &mut events).expect("the game sets up");
    let mut players: Vec<Player> = (0..4).map(|_| Player::new(Strategy::Random)).collect();
    let mut rng = Rng::new(seed);
    while game.phase() != Phase::Over {
        let seat = game.current() as usize;
        let mv = players[seat].choose(&game, &mut rng).expect("a move");
        game.apply(mv, &mut events).expect("a legal move");
    }
    (game, events)
}

#[test]
fn seeded_base_games_score_as_base_declares() {
    let ts = tiledef::load_bundled();
    let tables = common::tables();
    let mut checked = 0;
    let mut small = 0;
    for seed in 0..24 {
        let (edition, small_city) = [("C1", true), ("C2", false), ("C2", true)][seed as usize % 3];
        let (game, events) = play(tables, edition, small_city, seed);
        let what = format!("seed {seed}, {edition}");
        checked += check_scores(&ts, &game, events.iter(), &what);
        small += (events.iter())
            .filter(|e| matches!(e, Event::Scored(s) if s.reason == Reason::Small))
            .count();
    }
    assert!(checked > 500, "only {checked} scores checked");
    assert!(small > 0, "no small city scored");
}

#[test]
fn the_scenario_records_score_as_base_declares() {
    let ts = tiledef::load_bundled();
    let tables = common::scenario_tables();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir)
        .expect("scenario folder exists")
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable scenario");
        // A record that does not read or replay is `scenarios.rs`'s failure to report.
        let Ok(record) = Record::from_toml(&text) else {
            continue;
        };
        let Ok(outcome) = replay(tables, &record) else {
            continue;
        };
        let what = path.display().to_string();
        checked += check_scores(&ts, &outcome.game, outcome.events(), &what);
    }
    assert!(checked >= 40, "only {checked} scores checked");
}

/// An author's own kinds play as they declare: lakes score per tile when closed and nothing
/// unfinished, the island its range, farmers what the lakes pay them.
#[test]
fn an_authors_lakes_score_as_they_declare() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let source = |relative: &str| tiledef::Source {
        name: relative.to_string(),
        text: std::fs::read_to_string(root.join(relative)).expect("the file"),
    };
    let report = tiledef::load(vec![
        source("definitions/base.toml"),
        source("tiledef/tests/fixtures/lakes.toml"),
    ]);
    let ts = report.tileset.expect("the lakes load");
    let tables = engine::tables::compile(&ts).expect("a lake set compiles");
    let lake = tables.feature_kind("lake").expect("lakes are declared");
    let (mut checked, mut lakes) = (0, 0);
    for seed in 0..40 {
        let options = GameOptions {
            sets: vec!["base".to_string(), "lakes".to_string()],
            ..GameOptions::seeded(2 + (seed % 3) as u8, seed)
        };
        let (game, events) = play_out(&tables, options, seed);
        checked += check_scores(&ts, &game, events.iter(), &format!("lakes, seed {seed}"));
        lakes += (events.iter())
            .filter(|e| matches!(e, Event::Scored(s) if s.kind == Scored::Feature(lake)))
            .count();
    }
    assert!(checked > 500, "only {checked} scores checked");
    assert!(lakes > 20, "only {lakes} lakes scored");
}
