//! The feature kinds `definitions/base.toml` declares say what the engine does: every score of
//! seeded base games and of the scenario records is the one the declarations compute, and the
//! engine's kinds close and take followers as declared. The engine does not read the
//! declarations yet; this holds them to it until it does.

mod common;

use engine::game::{Draw, Event, Game, GameOptions, Phase, RuleOptions};
use engine::players::{Player, Strategy};
use engine::record::{Record, replay};
use engine::rng::Rng;
use engine::{FeatureKind, Reason, Score};
use tiledef::{Completion, FeatureKindInfo, KindPoints, RangeDef, TileSet};

fn declared(ts: &TileSet, kind: FeatureKind) -> &FeatureKindInfo {
    (ts.feature_kinds.iter())
        .find(|k| k.id == kind.name())
        .unwrap_or_else(|| panic!("base declares `{}`", kind.name()))
}

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

/// The points the declarations give a score event, or `None` for what they do not cover yet
/// (windmills, marker modifiers, marketplace networks).
fn declared_points(ts: &TileSet, game: &Game<'_>, s: &Score) -> Option<u32> {
    if s.kind == FeatureKind::Windmill || !s.modifiers.is_empty() || !s.network.is_empty() {
        return None;
    }
    let k = declared(ts, s.kind);
    let t = s.tiles.len() as u32;
    let site_tiles = |n: u32| rate(k.unfinished_rates, n, 0);
    Some(match &s.reason {
        Reason::SmallCity => {
            let small = k.small.as_ref().expect("a small city is declared");
            assert!(t <= small.max_tiles, "a small city of {t} tiles");
            rate(small.points, t, s.pennants)
        }
        Reason::CompletedCity | Reason::CompletedRoad => rate(k.complete_rates, t, s.pennants),
        Reason::UnfinishedCity | Reason::UnfinishedRoad => rate(k.unfinished_rates, t, s.pennants),
        Reason::CompletedMonastery => {
            let r = match k.range {
                Some(RangeDef::Square(r)) => 2 * r + 1,
                other => panic!("a monastery's range is a square, not {other:?}"),
            };
            rate(k.complete_rates, r * r, 0)
        }
        Reason::UnfinishedMonastery => site_tiles(placed_in_range(game, k.range, (s.at.0, s.at.1))),
        Reason::Field => {
            let city = declared(ts, FeatureKind::City);
            let field = ts.feature_kinds.iter().position(|f| f.id == "field");
            let per_city = (city.bordered.iter())
                .find(|(r, _)| Some(*r) == field)
                .map_or(0, |(_, points)| *points);
            per_city * s.cities + rate(k.unfinished_rates, t, 0)
        }
        Reason::CompletedWindmill | Reason::UnfinishedWindmill => return None,
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
        if s.reason == Reason::SmallCity {
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
    let mut events = Vec::new();
    let mut game = Game::new(tables, options, &mut events).expect("a base game sets up");
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
            .filter(|e| matches!(e, Event::Scored(s) if s.reason == Reason::SmallCity))
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

#[test]
fn the_engines_kinds_close_and_take_followers_as_declared() {
    let ts = tiledef::load_bundled();
    for kind in &FeatureKind::ALL[..5] {
        let k = declared(&ts, *kind);
        assert_eq!(k.complete == Completion::Closed, kind.closes(), "{k:?}");
        assert_eq!(k.claimable, kind.claimable(), "{k:?}");
    }
}

/// A set's own kind is checked and drawn but not yet played: compiling it is refused with the
/// tile and the kind named, rather than playing a lake as a city.
#[test]
fn a_kind_the_engine_cannot_play_yet_is_refused_by_name() {
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
    let err = engine::tables::compile(&ts).expect_err("a lake is not played yet");
    assert!(
        matches!(&err, engine::tables::CompileError::KindNotPlayable { tile, kind } if tile == "LK-bay" && kind == "lake"),
        "{err}"
    );
}
