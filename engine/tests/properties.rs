//! Properties over many random games of the bundled sets: followers are conserved, scores never
//! fall, every applied move was legal, the playouts' placement sampler gives each listed placement and
//! nothing else, records replay to identical events and the score events add up to the scores
//! (whoever plays, with any sets beside the base game), the placement index
//! agrees with an edge-by-edge check, and four quarter turns are the identity.

mod common;

use engine::DonkeyBlocks;
use engine::game::{
    ActionGroup, Event, FigureKind, Game, GameOptions, Move, Phase, RuleOptions, Scored,
};
use engine::players::{Player, Strategy};
use engine::record::{GameSpec, Record, Turn, replay};
use engine::rng::Rng;
use engine::rules::{ACTIONS, ActionId, ModuleEvent, RULE_SOURCES, RuleSource, Target};
use engine::simulate::play_random_record;
use engine::tables::{Orient, Tables};
use engine::{FigureId, KindId, NodeId, PlacedId};
use proptest::prelude::*;
use tiledef::{Port, Side};

/// Random games per property: fewer in unoptimised builds, which are ~20× slower.
const GAMES: u32 = if cfg!(debug_assertions) { 1000 } else { 5000 };

fn options(players: u8, seed: u64, base_only: bool) -> GameOptions {
    GameOptions {
        sets: if base_only {
            vec!["base".into()]
        } else {
            Vec::new()
        },
        ..GameOptions::seeded(players, seed)
    }
}

/// Plays a random game, checking the invariants after every move.
fn check_game(tables: &Tables, players: u8, seed: u64, base_only: bool) {
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut events = Vec::new();
    let mut game = Game::new(tables, options(players, seed, base_only), &mut events).unwrap();
    let followers = game.options().rules.followers;
    let windmills = game.windmills().to_vec();
    let mut moves = Vec::new();
    let mut last = game.scores().to_vec();
    while game.phase() != Phase::Over {
        game.legal_moves(&mut moves);
        assert!(
            !moves.is_empty(),
            "no legal move in phase {:?}",
            game.phase()
        );
        if let Phase::Place(_) = game.phase() {
            // The fast enumeration agrees with the list.
            assert_eq!(game.placement_count() as usize, moves.len());
            for (i, m) in moves.iter().enumerate() {
                assert_eq!(game.nth_placement(i as u32), Some(*m));
            }
            // The playouts' sampler gives only listed placements, and (every 16th turn, on
            // 40 samples per placement: a placement missed with probability < e^-40) each.
            let mut sampler = Rng::new(seed ^ game.board().placed.len() as u64);
            let tries = if game.board().placed.len().is_multiple_of(16) {
                40 * moves.len()
            } else {
                4
            };
            let mut hit = vec![false; moves.len()];
            for _ in 0..tries {
                let m = game.sample_placement(&mut sampler).expect("a placement");
                let i = moves.iter().position(|l| *l == m);
                let i = i.unwrap_or_else(|| panic!("sampled {m:?} is not listed"));
                hit[i] = true;
            }
            if tries > 4 {
                assert!(hit.iter().all(|&h| h), "some placement never sampled");
            }
        }
        if let Phase::Act(placed) = game.phase() {
            // The playouts' counted deploys agree with the list.
            let mut deploys = Vec::new();
            game.legal_deploys(placed, &mut deploys);
            assert_eq!(game.deploy_count(placed), deploys.len());
            for (i, m) in deploys.iter().enumerate() {
                assert_eq!(game.nth_deploy(placed, i), Some(*m));
            }
        }
        if let Phase::Choose { player, action, .. } = game.phase() {
            assert!(!base_only, "a base game asked for a choice after the turn");
            check_choice(&game, player, action, &moves);
        }
        let mv = moves[rng.below(moves.len())];
        game.apply(mv, &mut events)
            .unwrap_or_else(|e| panic!("listed move {mv:?} refused: {e}"));
        for p in 0..players {
            let on_board = |kind| {
                game.figures()
                    .iter()
                    .filter(|f| f.owner == p && f.kind == kind && f.figure == FigureId::FOLLOWER)
                    .count()
            };
            assert_eq!(
                game.supply()[p as usize] as usize + on_board(FigureKind::Follower),
                followers as usize,
                "player {p} followers not conserved"
            );
            // Each of the sets' follower kinds (the large follower) is conserved too.
            let kinds = game.follower_counts().len();
            for (k, &count) in game.follower_counts().iter().enumerate() {
                let out = game
                    .figures()
                    .iter()
                    .filter(|f| f.owner == p && f.figure == FigureId::set(k))
                    .count();
                assert_eq!(
                    game.follower_supply()[p as usize * kinds + k] as usize + out,
                    count as usize,
                    "player {p} follower kind {k} not conserved"
                );
            }
            assert_eq!(
                game.windmills().get(p as usize).map_or(0, |&n| n as usize)
                    + on_board(FigureKind::Module(engine::rules::ActionId::WINDMILL)),
                windmills.get(p as usize).map_or(0, |&n| n as usize),
                "player {p} windmills not conserved"
            );
        }
        if let Some(d) = game.donkey() {
            assert!(
                d.index() < game.board().placed.len(),
                "donkey off the board"
            );
        }
        if seed.is_multiple_of(16) {
            check_frontier(&game);
            if game.donkey().is_some() {
                check_open_ends(&game);
            }
        }
        for (a, b) in last.iter().zip(game.scores()) {
            assert!(b >= a, "a score fell: {last:?} -> {:?}", game.scores());
        }
        last.clone_from_slice(game.scores());
    }
    assert!(
        game.figures().is_empty(),
        "figures left after the final scoring"
    );
    assert_eq!(
        points_of_events(&events, players),
        game.scores(),
        "score events do not add up to the scores"
    );
}

/// A choice after the turn is held to its legal list: the chooser moves, only moves of the
/// asked action (and the pass) are listed, each applies, and what is not listed is refused.
fn check_choice(game: &Game<'_>, player: u8, action: ActionId, moves: &[Move]) {
    assert_eq!(game.to_move(), player);
    for &m in moves {
        assert!(
            m == Move::Pass || matches!(m, Move::Action { action: a, .. } if a == action),
            "{m:?} listed for a choice of {}",
            action.info().name
        );
        assert!(
            game.clone().apply(m, &mut Vec::new()).is_ok(),
            "{m:?} refused"
        );
    }
    let mut refused = vec![Move::Place {
        x: 0,
        y: 0,
        rotation: 0,
    }];
    if !moves.contains(&Move::Pass) {
        refused.push(Move::Pass);
    }
    // A target of the asked action that is not listed: a spot or position far off the board.
    refused.push(Move::Action {
        action,
        target: Target::Spot {
            x: i16::MAX,
            y: i16::MAX,
            feature: 0,
        },
    });
    refused.push(Move::Action {
        action,
        target: Target::At {
            x: i16::MAX,
            y: i16::MAX,
        },
    });
    for m in refused {
        let mut copy = game.clone();
        assert!(copy.apply(m, &mut Vec::new()).is_err(), "{m:?} accepted");
        assert_eq!(copy.phase(), game.phase(), "{m:?} refused, the phase moved");
    }
}

/// Each player's points summed over the scoring events (scorings and token majorities).
fn points_of_events(events: &[Event], players: u8) -> Vec<u32> {
    (0..players)
        .map(|p| {
            events
                .iter()
                .filter_map(|e| match e {
                    Event::Scored(s) => Some(s.points_of(p)),
                    Event::Module(ModuleEvent::TokenMajority {
                        players, points, ..
                    }) => Some(if players.contains(&p) { *points } else { 0 }),
                    _ => None,
                })
                .sum()
        })
        .collect()
}

/// Plays a game with these seats, writing its record as `play_random_record` does: the record,
/// every event (setup included) and the final scores.
fn play_seats_record(
    tables: &Tables,
    spec: GameSpec,
    seats: &[Strategy],
    rng: &mut Rng,
) -> (Record, Vec<Event>, Vec<u32>) {
    let record = Record {
        game: spec,
        turns: Vec::new(),
        expect: None,
    };
    let mut players: Vec<Player> = seats.iter().map(|&s| Player::new(s)).collect();
    let mut events = Vec::new();
    let mut game = Game::new(tables, record.options().unwrap(), &mut events).unwrap();
    let mut turns = Vec::new();
    while let Phase::Place(kind) = game.phase() {
        let seat = usize::from(game.current());
        let place = players[seat].choose(&game, rng).expect("a placement");
        game.apply(place, &mut events)
            .unwrap_or_else(|e| panic!("{:?} chose {place:?}, refused: {e}", seats[seat]));
        // A reserve tile (the abbey) instead of the drawn one, or declining it at the end.
        let reserve = match place {
            Move::Place { .. } => None,
            Move::Action {
                target: Target::At { x, y },
                ..
            } => Some([x, y]),
            Move::Pass => {
                turns.push(Turn::of_reserve(&game, None, Move::Pass));
                continue;
            }
            _ => panic!("{:?} chose {place:?} to place a tile", seats[seat]),
        };
        let second = players[seat].choose(&game, rng).expect("a second step");
        let mut turn = match place {
            Move::Place { x, y, rotation } => Turn::of(&game, kind, (x, y, rotation), second),
            _ => Turn::of_reserve(&game, reserve, second),
        };
        game.apply(second, &mut events)
            .unwrap_or_else(|e| panic!("{:?} chose {second:?}, refused: {e}", seats[seat]));
        while let Phase::Choose { .. } = game.phase() {
            let seat = usize::from(game.to_move());
            let choice = players[seat].choose(&game, rng).expect("a choice");
            let mut legal = Vec::new();
            game.legal_moves(&mut legal);
            assert!(
                legal.contains(&choice),
                "{:?} chose {choice:?}",
                seats[seat]
            );
            assert!(turn.add_choice(&game, choice), "{choice:?} not recorded");
            game.apply(choice, &mut events)
                .unwrap_or_else(|e| panic!("{:?} chose {choice:?}, refused: {e}", seats[seat]));
        }
        turns.push(turn);
    }
    let scores = game.scores().to_vec();
    (Record { turns, ..record }, events, scores)
}

/// Each open road's or city's `open` and `ends_at` are the count and the summed positions of
/// the empty cells its members' ends face (the donkey's filter relies on them).
fn check_open_ends(game: &Game<'_>) {
    let mut brute: std::collections::BTreeMap<NodeId, (u32, (i32, i32))> = Default::default();
    for (t, p) in game.board().placed.iter().enumerate() {
        let o = game.orient(PlacedId(t as u16));
        for side in Side::ALL {
            let Some(f) = o.feature_at(side.centre()) else {
                continue;
            };
            let node = p.node(f);
            let (dx, dy) = side.offset();
            let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
            if game
                .tables()
                .feature(game.nodes()[node.index()].kind)
                .closes()
                && game.board().at(x, y).is_none()
            {
                let e = brute.entry(game.find(node)).or_default();
                e.0 += 1;
                e.1.0 += x;
                e.1.1 += y;
            }
        }
    }
    for (r, n) in game.nodes().iter().enumerate() {
        if n.parent == NodeId(r as u32) && game.tables().feature(n.kind).closes() {
            let (open, at) = brute.get(&NodeId(r as u32)).copied().unwrap_or_default();
            assert_eq!((n.open, n.ends_at), (open, at), "open ends of set {r}");
        }
    }
}

/// The frontier is exactly the empty cells next to a placed tile.
fn check_frontier(game: &Game<'_>) {
    let mut expected = std::collections::BTreeSet::new();
    for p in &game.board().placed {
        for side in Side::ALL {
            let (dx, dy) = side.offset();
            let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
            if game.board().at(x, y).is_none() {
                expected.insert((x as i16, y as i16));
            }
        }
    }
    let got: std::collections::BTreeSet<_> =
        game.board().frontier.iter().map(|o| (o.x, o.y)).collect();
    assert_eq!(got, expected, "frontier differs from the empty neighbours");
    assert_eq!(
        got.len(),
        game.board().frontier.len(),
        "frontier has duplicates"
    );
}

#[test]
fn invariants_hold_in_random_base_games() {
    let tables = common::tables();
    for seed in 0..u64::from(GAMES) {
        check_game(tables, 2 + (seed % 4) as u8, seed, true);
    }
}

#[test]
fn invariants_hold_with_all_bundled_tiles() {
    let tables = common::tables();
    for seed in 0..u64::from(GAMES / 3) {
        check_game(tables, 2 + (seed % 5) as u8, seed, false);
    }
}

#[test]
fn expansion_games_use_every_rule() {
    // The all-set games above exercise the expansions only if their moves really happen.
    let tables = common::tables();
    let (mut returns, mut donkey, mut windmills, mut flowers, mut network) = (0, 0, 0, 0, 0);
    let (mut large, mut tokens, mut majorities, mut modified) = (0, 0, 0, 0);
    for seed in 0..200 {
        let mut rng = Rng::new(seed);
        let mut events = Vec::new();
        let mut game = Game::new(
            tables,
            options(2 + (seed % 3) as u8, seed, false),
            &mut events,
        )
        .unwrap();
        engine::simulate::play_out(&mut game, &mut rng, &mut Vec::new(), &mut events).unwrap();
        let rules = game.rules();
        assert!(
            rules.modules.donkey && rules.modules.windmills == 1 && rules.modules.flower_bonus,
            "Village Life's figures and flowers come with its set: {rules:?}"
        );
        returns += game.stats().moves_of(ActionId::RETURN);
        donkey += game.stats().moves_of(ActionId::DONKEY);
        windmills += game.stats().moves_of(ActionId::WINDMILL);
        flowers += game.stats().points_of(RuleSource::FLOWERS);
        network += game.stats().points_of(RuleSource::NETWORKS);
        for e in &events {
            match e {
                Event::Deployed { figure, .. } if *figure != FigureId::FOLLOWER => large += 1,
                Event::Module(ModuleEvent::Tokens { .. }) => tokens += 1,
                Event::Module(ModuleEvent::TokenMajority { .. }) => majorities += 1,
                _ => {}
            }
        }
        modified += game
            .stats()
            .marker_points
            .iter()
            .filter(|&&p| p != 0)
            .count();
    }
    assert!(returns > 0 && donkey > 0 && windmills > 0 && flowers > 0 && network > 0);
    // Inns & Cathedrals and Traders & Builders' rules happen too.
    assert!(large > 0 && tokens > 0 && majorities > 0 && modified > 0);
}

/// Plays `games` games of every set by uniformly random legal moves, giving `visit` each
/// finished game, its events and how many moves of each action were made (by
/// `ActionId::index`).
fn play_every_move(games: u64, mut visit: impl FnMut(&Game<'_>, &[Event], &[u64])) {
    let tables = common::tables();
    for seed in 0..games {
        let mut rng = Rng::new(seed ^ 0xc0de);
        let (mut events, mut moves) = (Vec::new(), Vec::new());
        let players = 2 + (seed % 3) as u8;
        let mut game = Game::new(tables, options(players, seed, false), &mut events).unwrap();
        let mut made = vec![0u64; ACTIONS.len()];
        while game.phase() != Phase::Over {
            game.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            game.apply(mv, &mut events).unwrap();
            if let Move::Action { action, .. } = mv {
                made[action.index()] += 1;
            }
        }
        visit(&game, &events, &made);
    }
}

/// Every rule module's move made is counted once in `GameStats::actions`, whether a second
/// step, a choice after the turn or a place-step move.
#[test]
fn stats_count_each_module_move_once() {
    let (mut made, mut counted) = (vec![0u64; ACTIONS.len()], vec![0u64; ACTIONS.len()]);
    play_every_move(60, |game, _, moves| {
        for a in 0..ACTIONS.len() {
            made[a] += moves[a];
            counted[a] += game.stats().actions.get(a).copied().unwrap_or(0);
        }
    });
    for a in ActionId::moves() {
        assert_eq!(counted[a.index()], made[a.index()], "{}", a.info().name);
    }
    let moved = |a: ActionId| made[a.index()];
    assert!(moved(ActionId::WINDMILL) > 0 && moved(ActionId::RETURN) > 0);
    assert!(moved(ActionId::DONKEY) > 0 && moved(ActionId::FAIRY) > 0);
    assert!(moved(ActionId::DRAGON) > 0 && moved(ActionId::ABBEY) > 0);
}

/// What each rule source paid is credited to it (`GameStats::rule_points`), as the score
/// events tell it: its own scorings (`Scored::Rule`) and its bonuses beside others'.
#[test]
fn stats_credit_each_rule_source_what_the_events_paid() {
    let (mut paid, mut credited) = (vec![0u64; RULE_SOURCES.len()], vec![0; RULE_SOURCES.len()]);
    play_every_move(60, |game, events, _| {
        for source in RuleSource::all() {
            credited[source.index()] += game.stats().points_of(source);
        }
        for e in events {
            if let Event::Scored(s) = e {
                for source in RuleSource::all() {
                    let own = u64::from(s.kind == Scored::Rule(source)) * u64::from(s.points);
                    paid[source.index()] += own + (source.info().beside)(s);
                }
            }
        }
    });
    assert_eq!(credited, paid);
    assert!(paid.iter().all(|&p| p > 0), "every source pays: {paid:?}");
}

#[test]
fn recorded_games_replay_to_identical_events() {
    let tables = common::tables();
    for seed in 0..u64::from(GAMES / 3) {
        let spec = GameSpec {
            sets: if seed % 2 == 0 {
                vec!["base".into()]
            } else {
                Vec::new()
            },
            edition: None,
            players: 2 + (seed % 3) as u8,
            rules: Default::default(),
            seed: Some(seed),
            draw: None,
            tiles: None,
            start: None,
        };
        let (record, events, scores) =
            play_random_record(tables, spec, &mut Rng::new(seed)).unwrap();
        // Through both file forms.
        for text in [record.to_toml(), record.to_json()] {
            let parsed = engine::Record::parse(&text).unwrap();
            assert_eq!(parsed, record);
            let replayed = replay(tables, &parsed).unwrap();
            let again: Vec<Event> = replayed.events().cloned().collect();
            assert_eq!(again, events, "seed {seed}: replay differs");
            assert_eq!(replayed.game.scores(), scores);
        }
    }
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let tables = common::tables();
    let mut rng = Rng::new(99);
    for seed in 0..u64::from(GAMES / 10) {
        let mut events = Vec::new();
        // Odd seeds: all sets, so the expansions' moves are tried too.
        let mut game = Game::new(tables, options(2, seed, seed % 2 == 0), &mut events).unwrap();
        let mut moves = Vec::new();
        while game.phase() != Phase::Over {
            game.legal_moves(&mut moves);
            let wild = match (game.phase(), rng.below(4)) {
                (Phase::Place(_), _) => Move::Place {
                    x: rng.below(9) as i16 - 4,
                    y: rng.below(9) as i16 - 4,
                    rotation: rng.below(4) as u8,
                },
                (_, 0) => Move::Deploy {
                    feature: rng.below(10) as u8,
                    figure: FigureId::from_index(rng.below(3)),
                },
                (_, 1) => Move::Action {
                    action: ActionId::WINDMILL,
                    target: Target::Feature(rng.below(10) as u8),
                },
                (_, 2) => Move::Action {
                    action: ActionId::RETURN,
                    target: Target::Figure(rng.below(10) as u16),
                },
                _ => Move::Action {
                    action: ActionId::DONKEY,
                    target: Target::At {
                        x: rng.below(9) as i16 - 4,
                        y: rng.below(9) as i16 - 4,
                    },
                },
            };
            let canonical = match wild {
                Move::Place { x, y, rotation } => {
                    let Phase::Place(kind) = game.phase() else {
                        unreachable!()
                    };
                    let o = tables.orient_of(kind, rotation);
                    Move::Place {
                        x,
                        y,
                        rotation: tables.orient(o).rotation,
                    }
                }
                m => m,
            };
            if !moves.contains(&canonical) {
                let before = (
                    game.scores().to_vec(),
                    game.board().placed.len(),
                    game.figures().len(),
                    game.donkey(),
                    game.windmills().to_vec(),
                );
                let n = events.len();
                assert!(game.apply(wild, &mut events).is_err(), "{wild:?} accepted");
                assert_eq!(
                    before,
                    (
                        game.scores().to_vec(),
                        game.board().placed.len(),
                        game.figures().len(),
                        game.donkey(),
                        game.windmills().to_vec(),
                    )
                );
                assert_eq!(events.len(), n);
            }
            let mv = moves[rng.below(moves.len())];
            game.apply(mv, &mut events).unwrap();
        }
    }
}

#[test]
fn placement_index_agrees_with_edge_checks() {
    let tables = common::tables();
    for seed in 0..u64::from(GAMES / 30).max(5) {
        let mut rng = Rng::new(seed);
        let mut events = Vec::new();
        let mut game = Game::new(tables, options(3, seed, false), &mut events).unwrap();
        let mut moves = Vec::new();
        while game.phase() != Phase::Over {
            if let Phase::Place(_) = game.phase() {
                for open in &game.board().frontier {
                    let around = common::neighbours(&game, open.x, open.y);
                    for (k, kind) in tables.kinds.iter().enumerate() {
                        let mask = tables.index.fits(open.pattern, KindId(k as u16));
                        for &o in &kind.orients {
                            let orient = &tables.orients[o as usize];
                            let brute = tables.fits_brute_force(orient, around);
                            assert_eq!(
                                mask & (1 << orient.rotation) != 0,
                                brute,
                                "{} r{} at ({}, {})",
                                kind.id,
                                orient.rotation,
                                open.x,
                                open.y
                            );
                        }
                    }
                }
            }
            game.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            game.apply(mv, &mut events).unwrap();
        }
    }
}

/// The roots of the roads and cities with a member on a placed tile.
fn sets_on(game: &Game<'_>, tile: PlacedId) -> Vec<NodeId> {
    let p = game.board().placed[tile.index()];
    let o = game.orient(tile);
    let mut roots: Vec<NodeId> = (0..o.features.len() as u8)
        .map(|i| game.find(p.node(i)))
        .filter(|&r| game.tables().feature(game.nodes()[r.index()].kind).closes())
        .collect();
    roots.dedup();
    roots
}

#[test]
fn donkey_filter_agrees_with_trial_placements() {
    check_donkey_filter(DonkeyBlocks::Road);
}

#[test]
fn donkey_network_filter_agrees_with_trial_placements() {
    check_donkey_filter(DonkeyBlocks::Network);
}

/// Every placement the donkey's filter removes completes a feature on its tile when tried
/// without the donkey; every one it keeps does not. Completing is: closing an open road or city
/// (under `network`, for a marketplace road: its network completing, the road then scored), or
/// a monastery's 9th tile.
fn check_donkey_filter(blocks: DonkeyBlocks) {
    let tables = common::tables();
    let (mut kept, mut blocked, mut networks) = (0, 0, 0);
    for seed in 0..u64::from(GAMES / 100).max(6) {
        let mut rng = Rng::new(seed);
        let mut events = Vec::new();
        let mut options = options(2, seed, false);
        options.rules.modules.donkey_blocks = blocks;
        let mut game = Game::new(tables, options, &mut events).unwrap();
        let mut moves = Vec::new();
        while game.phase() != Phase::Over {
            if let (Phase::Place(_), Some(donkey)) = (game.phase(), game.donkey()) {
                let mut free = game.clone();
                free.set_donkey(None);
                free.recompute_placements();
                let mut all = Vec::new();
                free.legal_moves(&mut all);
                game.legal_moves(&mut moves);
                let monastery = game.orient(donkey).site.is_some() && {
                    let p = game.board().placed[donkey.index()];
                    game.board().placed_around(i32::from(p.x), i32::from(p.y)) == 8
                };
                let sets = sets_on(&free, donkey);
                for mv in &all {
                    let mut trial = free.clone();
                    trial.apply(*mv, &mut Vec::new()).unwrap();
                    let mut ended = trial.clone();
                    ended.apply(Move::Pass, &mut Vec::new()).unwrap();
                    let completes_set = |r: NodeId| {
                        let before = free.nodes()[r.index()];
                        if blocks == DonkeyBlocks::Network && before.hub_ends > 0 {
                            // Scored (or, unclaimed, marked done) at the end of this turn.
                            !before.done && ended.nodes()[ended.find(r).index()].done
                        } else {
                            before.open > 0 && trial.nodes()[trial.find(r).index()].open == 0
                        }
                    };
                    let network = sets
                        .iter()
                        .any(|&r| free.nodes()[r.index()].hub_ends > 0 && completes_set(r));
                    let closed = sets.iter().any(|&r| completes_set(r));
                    // A reserve tile (the abbey) goes where its target says.
                    let (x, y) = match *mv {
                        Move::Place { x, y, .. } => (x, y),
                        Move::Action {
                            target: Target::At { x, y },
                            ..
                        } => (x, y),
                        _ => unreachable!(),
                    };
                    let p = game.board().placed[donkey.index()];
                    let near = (i32::from(x - p.x)).abs() <= 1 && (i32::from(y - p.y)).abs() <= 1;
                    let completes = closed || (monastery && near);
                    assert_eq!(
                        !moves.contains(mv),
                        completes,
                        "seed {seed}, {blocks:?}: {mv:?} with the donkey at {:?}",
                        (p.x, p.y)
                    );
                    if completes {
                        blocked += 1;
                        networks += u32::from(network);
                    } else {
                        kept += 1;
                    }
                }
            }
            game.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            game.apply(mv, &mut events).unwrap();
        }
    }
    assert!(
        blocked > 0 && kept > blocked,
        "kept {kept}, blocked {blocked}"
    );
    if blocks == DonkeyBlocks::Network {
        assert!(networks > 0, "no network was blocked in these games");
    }
}

/// An orientation turned one more quarter, as (edges, feature port masks).
fn turned(o: &Orient) -> ([u8; 4], Vec<u16>) {
    let mut edges = [0; 4];
    for side in Side::ALL {
        edges[side.rotated(1).index()] = o.edges[side.index()];
    }
    let masks = o
        .features
        .iter()
        .map(|f| {
            Port::ALL
                .iter()
                .filter(|p| f.ports & (1 << p.index()) != 0)
                .fold(0u16, |m, p| m | 1 << p.rotated(1).index())
        })
        .collect();
    (edges, masks)
}

#[test]
fn four_quarter_turns_are_the_identity() {
    let tables = common::tables();
    for kind in &tables.kinds {
        let first = &tables.orients[kind.rotation_orient[0] as usize];
        let mut state = (
            first.edges,
            first.features.iter().map(|f| f.ports).collect::<Vec<_>>(),
        );
        for r in 1..=4u8 {
            let o = Orient {
                edges: state.0,
                features: first
                    .features
                    .iter()
                    .zip(&state.1)
                    .map(|(f, &ports)| engine::tables::FeatureRec { ports, ..f.clone() })
                    .collect(),
                ..first.clone()
            };
            state = turned(&o);
            if r < 4 {
                // The compiled orientation of rotation r has the same edges.
                let compiled = &tables.orients[kind.rotation_orient[r as usize] as usize];
                assert_eq!(compiled.edges, state.0, "{} rotation {r}", kind.id);
            }
        }
        assert_eq!(state.0, first.edges, "{}", kind.id);
        assert_eq!(
            state.1,
            first.features.iter().map(|f| f.ports).collect::<Vec<_>>(),
            "{}",
            kind.id
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 24 } else { 200 }))]

    /// Same seed, same game; the draw order is a permutation of the bag.
    #[test]
    fn games_are_deterministic_for_a_seed(seed in any::<u64>(), players in 1u8..=8) {
        let tables = common::tables();
        let play = || {
            let spec = GameSpec {
                sets: vec![], edition: None, players, rules: Default::default(),
                seed: Some(seed), draw: None, tiles: None, start: None,
            };
            play_random_record(tables, spec, &mut Rng::new(seed)).unwrap()
        };
        let (a, ea, sa) = play();
        let (b, eb, sb) = play();
        prop_assert_eq!(a, b);
        prop_assert_eq!(ea, eb);
        prop_assert_eq!(sa, sb);
    }
}

proptest! {
    // A game takes milliseconds: more cases than the block above.
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 96 } else { 500 }))]

    /// Any game, whoever plays it (random, greedy, MCTS seats) and with any of the bundled sets
    /// beside the base game, replays from its record to the same events and scores, and its
    /// scores are the sum of its scoring events.
    #[test]
    fn any_game_replays_from_its_record_and_its_score_events_add_up(
        seed in any::<u64>(),
        others in 0u8..64,
        seats in prop::collection::vec(0u8..8, 1..=5),
        tiles in prop::option::of(12usize..60),
        wells in any::<bool>(),
        first_edition_small_city in any::<bool>(),
    ) {
        let tables = common::tables();
        let mut sets = vec!["base".to_string()];
        let expansions = tables.sets.iter().filter(|s| *s != "base");
        sets.extend((expansions.enumerate()).filter(|(i, _)| others & 1 << i != 0).map(|(_, s)| s.clone()));
        // Mostly greedy and random seats; now and then a small MCTS.
        let seats: Vec<Strategy> = (seats.iter())
            .map(|&s| match s {
                0..=3 => Strategy::Greedy,
                4..=6 => Strategy::Random,
                _ => Strategy::Mcts { playouts: 4 },
            })
            .collect();
        let spec = GameSpec {
            sets, edition: None, players: seats.len() as u8,
            rules: RuleOptions {
                modules: engine::ModuleOptions { wells, ..Default::default() },
                first_edition_small_city,
                ..RuleOptions::default()
            },
            seed: Some(seed), draw: None, tiles, start: None,
        };
        let (record, events, scores) =
            play_seats_record(tables, spec, &seats, &mut Rng::new(seed));
        prop_assert_eq!(points_of_events(&events, seats.len() as u8), scores.clone());
        for text in [record.to_toml(), record.to_json()] {
            let parsed = engine::Record::parse(&text).unwrap();
            prop_assert_eq!(&parsed, &record);
            let replayed = replay(tables, &parsed).unwrap();
            let again: Vec<Event> = replayed.events().cloned().collect();
            prop_assert_eq!(&again, &events);
            prop_assert_eq!(replayed.game.scores(), &scores[..]);
        }
    }
}

#[test]
fn action_counts_and_nth_moves_agree_with_the_list() {
    // The random player counts second-step moves and makes only the chosen one: counts and
    // `nth_*` must describe exactly the listed moves.
    let tables = common::tables();
    for seed in 0..u64::from(GAMES / 50).max(20) {
        let mut rng = Rng::new(seed);
        let mut events = Vec::new();
        let mut game = Game::new(
            tables,
            options(2 + (seed % 3) as u8, seed, false),
            &mut events,
        )
        .unwrap();
        let mut moves = Vec::new();
        while game.phase() != Phase::Over {
            if let Phase::Act(placed) = game.phase() {
                let mut listed = Vec::new();
                let [
                    deploys,
                    windmills,
                    returns,
                    recalls,
                    barns,
                    princesses,
                    fairies,
                    pass,
                ] = game.legal_actions(placed, &mut listed);
                assert_eq!(
                    deploys + windmills + returns + recalls + barns + princesses + fairies + pass,
                    listed.len()
                );
                assert_eq!(deploys > 0, game.can_deploy(placed));
                assert_eq!(
                    windmills,
                    game.action_count(placed, ActionGroup::Module(ActionId::WINDMILL))
                );
                assert_eq!(
                    returns,
                    game.action_count(placed, ActionGroup::Module(ActionId::RETURN))
                );
                assert_eq!(
                    recalls,
                    game.action_count(placed, ActionGroup::Module(ActionId::RECALL))
                );
                assert_eq!(
                    barns,
                    game.action_count(placed, ActionGroup::Module(ActionId::BARN))
                );
                assert_eq!(
                    princesses,
                    game.action_count(placed, ActionGroup::Module(ActionId::PRINCESS))
                );
                assert_eq!(
                    fairies,
                    game.action_count(placed, ActionGroup::Module(ActionId::FAIRY))
                );
                assert_eq!(pass, game.action_count(placed, ActionGroup::Pass));
                // The random player asks whether a group has a move before it counts one.
                for group in ActionGroup::ALL {
                    assert_eq!(
                        game.has_action(placed, group),
                        game.action_count(placed, group) > 0,
                        "{group:?}"
                    );
                }
                let game = &game;
                let made: Vec<Move> = (ActionGroup::ALL[..ActionGroup::LISTED].iter())
                    .flat_map(|&g| {
                        let n = game.action_count(placed, g);
                        (0..n).filter_map(move |k| game.nth_action(placed, g, k))
                    })
                    .collect();
                assert_eq!(made, listed);
            }
            game.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            game.apply(mv, &mut events).unwrap();
        }
    }
}

#[test]
fn a_game_cut_to_n_tiles_draws_the_first_n_minus_one_of_its_bag() {
    // The start tile counts: `tiles = 20` draws 19 tiles, from the front of the same shuffle.
    let tables = common::tables();
    for seed in 0..20 {
        let cut = GameOptions {
            tiles: Some(20),
            ..options(2, seed, false)
        };
        let first = |options| match Game::new(tables, options, &mut Vec::new()).unwrap().phase() {
            Phase::Place(kind) => Some(kind),
            _ => None,
        };
        assert_eq!(first(cut.clone()), first(options(2, seed, false)));
        let mut rng = Rng::new(seed);
        let (mut events, mut moves) = (Vec::new(), Vec::new());
        let mut game = Game::new(tables, cut, &mut events).unwrap();
        engine::simulate::play_out(&mut game, &mut rng, &mut moves, &mut events).unwrap();
        assert_eq!(game.board().placed.len() + game.set_aside().len(), 20);
    }
}
