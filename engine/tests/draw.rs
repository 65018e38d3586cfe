//! The draw and the placement constraints, from the bundled River sets: the start tile each
//! game chooses, the order of its groups (the River first, its lake last, River II's fork right
//! after the spring), and the path rule's filter of the rotation masks held to a brute-force
//! check of every empty cell.

mod common;

use engine::KindId;
use engine::game::{Draw, Event, Game, GameOptions, IllegalMove, Move, Phase};
use engine::rng::Rng;
use engine::tables::Tables;
use std::collections::HashSet;
use tiledef::{Meeting, PathRule, Side};

fn options(sets: &[&str], seed: u64) -> GameOptions {
    GameOptions {
        sets: sets.iter().map(|s| s.to_string()).collect(),
        ..GameOptions::seeded(2, seed)
    }
}

fn id(tables: &Tables, kind: KindId) -> &str {
    &tables.kind(kind).id
}

fn set_of(tables: &Tables, kind: KindId) -> &str {
    &tables.sets[tables.kind(kind).set as usize]
}

/// Plays a random game; returns the start tile and the tiles drawn, in order (placed or set
/// aside).
fn drawn(tables: &Tables, options: GameOptions, seed: u64) -> (String, Vec<String>) {
    let mut events = Vec::new();
    let mut game = Game::new(tables, options, &mut events).expect("the options are valid");
    let start = id(tables, game.start()).to_string();
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    while game.phase() != Phase::Over {
        game.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len())];
        game.apply(mv, &mut events).expect("a listed move is legal");
    }
    let order = events
        .iter()
        .filter_map(|e| match e {
            Event::Placed { kind, .. } | Event::SetAside { kind } => {
                Some(id(tables, *kind).to_string())
            }
            _ => None,
        })
        .collect();
    (start, order)
}

#[test]
fn the_river_is_drawn_first_and_its_lake_last_of_it() {
    let tables = common::tables();
    for seed in 0..40 {
        let (start, order) = drawn(tables, options(&["base", "river"], seed), seed);
        // The spring starts; the 10 other river tiles (second edition) come first, the lake
        // 11th, then the 72 base tiles, D's 4 copies all among them.
        assert_eq!(start, "RI-s");
        assert_eq!(order.len(), 10 + 1 + 72, "seed {seed}");
        let river = |t: &String| tables.kind_by_id(t).map(|k| set_of(tables, k)) == Some("river");
        assert!(order[..10].iter().all(river), "seed {seed}: {order:?}");
        assert!(!order[..10].contains(&"RI.1-I.e".to_string()));
        assert_eq!(order[10], "RI.1-I.e", "seed {seed}");
        assert!(order[11..].iter().all(|t| !river(t)), "seed {seed}");
        assert_eq!(order.iter().filter(|t| *t == "D").count(), 4);
    }
}

#[test]
fn river_ii_draws_its_fork_right_after_its_spring() {
    let tables = common::tables();
    for seed in 0..40 {
        let (start, order) = drawn(tables, options(&["base", "river-2"], seed), seed);
        // River II alone: its own spring (the River's is not in the game), the fork first, the
        // volcano lake last of its 10 other river tiles.
        assert_eq!(start, "RI.2-RI-s");
        assert_eq!(order[0], "RI.2-III", "seed {seed}");
        assert_eq!(order[10], "RI.2-I.v", "seed {seed}");
        assert_eq!(order.len(), 11 + 72);
    }
}

#[test]
fn both_rivers_share_one_spring_and_the_fork_leads() {
    let tables = common::tables();
    for seed in 0..40 {
        let (start, order) = drawn(tables, options(&["base", "river", "river-2"], seed), seed);
        // One spring (the River's, first in load order; River II's is left out by the group's
        // `spare_starts`), the fork right after it, the River's lake left out (River II
        // `removes` it), the volcano lake last of the 21 river tiles.
        assert_eq!(start, "RI-s");
        assert_eq!(order[0], "RI.2-III", "seed {seed}");
        assert_eq!(order[20], "RI.2-I.v", "seed {seed}");
        assert!(!order.contains(&"RI.2-RI-s".to_string()));
        assert!(!order.contains(&"RI.1-I.e".to_string()));
        assert_eq!(order.len(), 21 + 72);
    }
}

#[test]
fn a_chosen_start_tile_wins_and_the_base_game_keeps_d() {
    let tables = common::tables();
    let (start, order) = drawn(tables, options(&["base"], 3), 3);
    assert_eq!(start, "D");
    assert_eq!(order.iter().filter(|t| *t == "D").count(), 3);
    // D chosen with the River: the spring is left out, and the river tiles have no river to
    // continue, so each is set aside when drawn.
    let chosen = GameOptions {
        start: Some("D".into()),
        ..options(&["base", "river"], 3)
    };
    let mut events = Vec::new();
    let game = Game::new(tables, chosen.clone(), &mut events).unwrap();
    assert_eq!(id(tables, game.start()), "D");
    let (_, order) = drawn(tables, chosen, 3);
    assert!(!order.contains(&"RI-s".to_string()));
    let aside = events
        .iter()
        .filter(|e| matches!(e, Event::SetAside { .. }))
        .count();
    assert_eq!(aside, 11, "the 11 river tiles drawn first fit nowhere");
    let unknown = GameOptions {
        start: Some("nope".into()),
        ..options(&["base"], 3)
    };
    assert!(Game::new(tables, unknown, &mut Vec::new()).is_err());
}

#[test]
fn a_fixed_draw_starts_from_the_sets_of_its_tiles() {
    let tables = common::tables();
    let game = |ids: &[&str]| {
        let o = GameOptions {
            sets: Vec::new(),
            draw: Draw::Order(ids.iter().map(|s| s.to_string()).collect()),
            ..GameOptions::seeded(2, 0)
        };
        let g = Game::new(tables, o, &mut Vec::new()).unwrap();
        id(tables, g.start()).to_string()
    };
    assert_eq!(game(&["U", "E"]), "D");
    assert_eq!(
        game(&["FE-CCc"]),
        "D",
        "a set without a start tile starts from D"
    );
    assert_eq!(game(&["RI.1-IFI", "E"]), "RI-s");
    assert_eq!(game(&["RI.2-III"]), "RI.2-RI-s");
}

/// The legal placements of a kind by brute force: every empty cell next to a tile, every
/// rotation, edges checked pair by pair and the path rules read off the definitions' edge
/// kinds over a set of placed positions.
fn brute_force(tables: &Tables, game: &Game<'_>, kind: KindId) -> HashSet<(i16, i16, u8)> {
    let placed: HashSet<(i32, i32)> = game
        .board()
        .placed
        .iter()
        .map(|p| (i32::from(p.x), i32::from(p.y)))
        .collect();
    let edge_at = |x: i32, y: i32, side: Side| {
        let p = game.board().at(x, y)?;
        Some(tables.orient(p.orient).edges[side.index()])
    };
    let mut out = HashSet::new();
    let cells: HashSet<(i32, i32)> = placed
        .iter()
        .flat_map(|&(x, y)| Side::ALL.map(|s| (x + s.offset().0, y + s.offset().1)))
        .filter(|c| !placed.contains(c))
        .collect();
    for &(x, y) in &cells {
        for &o in &tables.kind(kind).orients {
            let orient = &tables.orients[o as usize];
            let around = Side::ALL.map(|s| {
                let (dx, dy) = s.offset();
                edge_at(x + dx, y + dy, s.opposite())
            });
            if !tables.fits_brute_force(orient, around) {
                continue;
            }
            let mut ok = true;
            for side in Side::ALL {
                let edge = orient.edges[side.index()];
                let Some(rule) = tables.paths[edge as usize] else {
                    continue;
                };
                let same: Vec<Side> = Side::ALL
                    .into_iter()
                    .filter(|s| orient.edges[s.index()] == edge)
                    .collect();
                let touches = |s: &Side| around[s.index()].is_some();
                ok &= same.iter().any(touches);
                if rule == PathRule::NoUTurn && around[side.index()].is_none() {
                    let (dx, dy) = side.offset();
                    for step in 1..=2 {
                        for across in -1..=1 {
                            if step == 1 && across == 0 {
                                continue;
                            }
                            let c = (x + dx * step + dy * across, y + dy * step + dx * across);
                            ok &= !placed.contains(&c);
                        }
                    }
                }
            }
            if ok {
                out.insert((x as i16, y as i16, orient.rotation));
            }
        }
    }
    out
}

#[test]
fn path_placements_equal_a_brute_force_check_and_apply_agrees() {
    let tables = common::tables();
    assert_eq!(
        tables.meeting(0, 0),
        Meeting::Connect,
        "field meets field (sanity)"
    );
    let refused = check_path_placements(tables);
    assert!(refused.detached > 0 && refused.no_room > 0, "{refused:?}");
}

/// The River's sets with their river read as `extend` (no room rule): the placement index alone
/// is the rule, no filter runs, and U-turns are legal.
#[test]
fn an_extend_path_is_the_placement_index_alone() {
    let sources = tiledef::bundled()
        .into_iter()
        .map(|mut source| {
            source.text = source
                .text
                .replace("path = \"no-u-turn\"", "path = \"extend\"");
            source
        })
        .collect();
    let ts = tiledef::load(sources)
        .tileset
        .expect("the bundled sets validate");
    let tables = engine::compile(&ts).expect("compiles");
    let river = tables.edge_kinds.iter().position(|e| e == "river").unwrap();
    assert_eq!(tables.paths[river], Some(PathRule::Extend));
    let refused = check_path_placements(&tables);
    assert!(refused.detached > 0, "{refused:?}");
    assert_eq!(refused.no_room, 0, "{refused:?}");
}

/// How many refused placements of a fitting edge pattern `apply` gave each path reason.
#[derive(Debug, Default)]
struct Refused {
    detached: usize,
    no_room: usize,
}

/// Plays random games of the River sets; at each river draw, holds the listed placements to the
/// brute force and `apply`'s refusal of every other rotation at an open position to the rule
/// it breaks (edges first, then the path). Returns the path refusals seen.
fn check_path_placements(tables: &Tables) -> Refused {
    let mut refused = Refused::default();
    let mut checked = 0;
    for seed in 0..60 {
        let sets: &[&str] = match seed % 3 {
            0 => &["base", "river"],
            1 => &["base", "river-2"],
            _ => &["base", "river", "river-2"],
        };
        let mut events = Vec::new();
        let mut game = Game::new(tables, options(sets, seed), &mut events).unwrap();
        let mut rng = Rng::new(seed);
        let mut moves = Vec::new();
        while let Phase::Place(kind) = game.phase() {
            game.legal_moves(&mut moves);
            if tables.kind(kind).path {
                let listed: HashSet<(i16, i16, u8)> = moves
                    .iter()
                    .map(|m| match *m {
                        Move::Place { x, y, rotation } => (x, y, rotation),
                        _ => unreachable!("only placements in the place phase"),
                    })
                    .collect();
                assert_eq!(listed, brute_force(tables, &game, kind), "seed {seed}");
                // Every other rotation is refused by apply too, with the rule it breaks.
                for &(x, y) in game
                    .board()
                    .frontier
                    .iter()
                    .map(|o| (o.x, o.y))
                    .collect::<Vec<_>>()
                    .iter()
                {
                    for rotation in 0..4 {
                        let orient = tables.orient_of(kind, rotation);
                        let o = tables.orient(orient);
                        if listed.contains(&(x, y, o.rotation)) {
                            continue;
                        }
                        let around = common::neighbours(&game, x, y);
                        let edges_meet = (0..4).all(|d| {
                            around[d]
                                .is_none_or(|c| tables.meeting(o.edges[d], c) != Meeting::Forbidden)
                        });
                        let mut copy = game.clone();
                        let mv = Move::Place { x, y, rotation };
                        match copy.apply(mv, &mut Vec::new()) {
                            Err(IllegalMove::Mismatch { .. }) => assert!(!edges_meet),
                            Err(IllegalMove::PathDetached { .. }) => {
                                assert!(edges_meet);
                                refused.detached += 1;
                            }
                            Err(IllegalMove::PathNoRoom { .. }) => {
                                assert!(edges_meet);
                                refused.no_room += 1;
                            }
                            other => panic!("seed {seed}: ({x}, {y}) r{rotation}: {other:?}"),
                        }
                    }
                }
                checked += 1;
            }
            let mv = moves[rng.below(moves.len())];
            game.apply(mv, &mut events).unwrap();
            game.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            game.apply(mv, &mut events).unwrap();
        }
    }
    assert!(checked > 600, "{checked} river draws checked");
    refused
}

/// The bag of a seeded game of the test-only set `test-held` (`tests/scenarios/tiles/`), as
/// tile ids, with its draw rule (`held`) or, from a copy of the tables without it, the plain
/// shuffle.
fn held_bag(tables: &Tables, seed: u64) -> Vec<String> {
    let plan = engine::draw::plan(tables, &options(&["test-held"], seed)).expect("a draw");
    plan.bag
        .iter()
        .map(|&k| id(tables, k).to_string())
        .collect()
}

/// Tiles held until a marker's tile is placed never come before the first such tile; the
/// other tiles keep the plain shuffle's order, and in some seeds a held tile did move.
#[test]
fn held_tiles_come_after_the_first_tile_that_lets_them_go() {
    let tables = common::scenario_tables();
    let mut plain = tables.clone();
    for kind in &mut plain.kinds {
        kind.held = 0;
        kind.releases = 0;
    }
    let mut moved = 0;
    for seed in 0..300 {
        let bag = held_bag(tables, seed);
        let unheld = held_bag(&plain, seed);
        let first_fire = bag.iter().position(|t| t == "TH-F").expect("a fire tile");
        assert!(
            !bag[..first_fire].contains(&"TH-S".to_string()),
            "seed {seed}: {bag:?}"
        );
        let mut sorted = bag.clone();
        sorted.sort();
        let mut sorted_unheld = unheld.clone();
        sorted_unheld.sort();
        assert_eq!(sorted, sorted_unheld, "seed {seed}: the same tiles");
        let others =
            |b: &[String]| -> Vec<String> { b.iter().filter(|t| *t != "TH-S").cloned().collect() };
        assert_eq!(others(&bag), others(&unheld), "seed {seed}");
        moved += usize::from(bag != unheld);
    }
    // Four sleepers among nine tiles: most shuffles put one before both fires.
    assert!(moved > 100, "{moved} of 300 draws moved a held tile");
}

/// A game cut to `tiles` plays the first tiles of the uncut draw, held tiles moved included.
#[test]
fn a_cut_draw_with_held_tiles_is_the_uncut_draw_s_first_tiles() {
    let tables = common::scenario_tables();
    for seed in 0..50 {
        let whole = held_bag(tables, seed);
        let cut = GameOptions {
            tiles: Some(5),
            ..options(&["test-held"], seed)
        };
        let (_, order) = drawn(tables, cut, seed);
        assert_eq!(order, whole[..4], "seed {seed}");
    }
}

/// Princess & Dragon's dragon tiles wait for the first volcano, with the base game and with
/// River II, whose volcano lake (drawn last of the river) lets them go before the land tiles.
#[test]
fn the_dragon_tiles_come_after_the_first_volcano() {
    let tables = common::tables();
    let has = |k: KindId, marker: &str| {
        let m = tables.markers.iter().position(|m| m.id == marker);
        m.is_some_and(|m| {
            let kind = tables.kind(k);
            kind.markers.contains(&(m as u8))
        })
    };
    for sets in [
        &["base", "princess-and-dragon"][..],
        &["base", "river-2", "princess-and-dragon"],
    ] {
        for seed in 0..100 {
            let plan = engine::draw::plan(tables, &options(sets, seed)).expect("a draw");
            let volcano = plan.bag.iter().position(|&k| has(k, "volcano"));
            let volcano = volcano.expect("a volcano in the draw");
            let dragons = plan.bag.iter().filter(|&&k| has(k, "dragon")).count();
            assert_eq!(dragons, 12, "{sets:?} seed {seed}");
            assert!(
                !plan.bag[..volcano].iter().any(|&k| has(k, "dragon")),
                "{sets:?} seed {seed}"
            );
        }
    }
}
