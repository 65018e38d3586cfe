//! The players: every move a bot makes is legal, under every rule of the bundled sets; a seed
//! gives the same games whatever the number of threads; greedy beats random.

mod common;

use engine::game::{Draw, Game, GameOptions, Move, Phase, RuleOptions};
use engine::players::{Player, Strategy, parse_seats};
use engine::rng::Rng;
use engine::rules::ActionId;
use engine::simulate::{SimOptions, run};
use engine::{FigureId, KindId};

/// All bundled sets with every rule on (Festival, donkey, windmills, flowers, wells).
fn all_rules(players: u8, seed: u64, tiles: Option<usize>) -> GameOptions {
    GameOptions {
        sets: Vec::new(),
        edition: None,
        players,
        rules: RuleOptions {
            modules: engine::ModuleOptions {
                wells: true,
                donkey: Some(true),
                windmills: Some(1),
                flower_bonus: Some(true),
                ..Default::default()
            },
            ..RuleOptions::default()
        },
        draw: Draw::Seed(seed),
        tiles,
        start: None,
    }
}

/// Plays a game with these seats, checking each chosen move against the legal list; returns
/// the game and how many second steps of each expansion kind were made (windmills, Festival
/// returns, donkey moves, and a set's follower kind deployed by greedy).
fn play_checked<'t>(
    tables: &'t engine::Tables,
    options: GameOptions,
    seats: &[Strategy],
    seed: u64,
) -> (Game<'t>, [u32; 4]) {
    let mut players: Vec<Player> = seats.iter().map(|&s| Player::new(s)).collect();
    let mut rng = Rng::new(seed);
    let mut events = Vec::new();
    let mut legal = Vec::new();
    let mut game = Game::new(tables, options, &mut events).expect("game sets up");
    let mut used = [0u32; 4];
    while game.phase() != Phase::Over {
        let seat = game.to_move() as usize;
        let mv = players[seat]
            .choose(&game, &mut rng)
            .expect("a move while the game is on");
        game.legal_moves(&mut legal);
        assert!(
            legal.contains(&mv),
            "{:?} chose {mv:?}, not among the {} legal moves (seed {seed})",
            seats[seat],
            legal.len()
        );
        match mv {
            Move::Action {
                action: ActionId::WINDMILL,
                ..
            } => used[0] += 1,
            Move::Action {
                action: ActionId::RETURN,
                ..
            } => used[1] += 1,
            Move::Action {
                action: ActionId::DONKEY,
                ..
            } => used[2] += 1,
            Move::Deploy { figure, .. }
                if figure != FigureId::FOLLOWER && seats[seat] == Strategy::Greedy =>
            {
                used[3] += 1
            }
            _ => {}
        }
        game.apply(mv, &mut events).expect("a legal move applies");
    }
    (game, used)
}

#[test]
fn bots_only_make_legal_moves_under_every_rule() {
    let tables = common::tables();
    let mixes: [&[Strategy]; 4] = [
        &[Strategy::Greedy, Strategy::Random],
        &[Strategy::Random, Strategy::Greedy, Strategy::Greedy],
        &[Strategy::Greedy; 4],
        &[
            Strategy::Greedy,
            Strategy::Random,
            Strategy::Random,
            Strategy::Random,
            Strategy::Greedy,
        ],
    ];
    let mut used = [0u32; 4];
    let games = 1_200u64;
    for seed in 0..games {
        let seats = mixes[(seed % 4) as usize];
        // Short games, and whole ones now and then.
        let tiles = if seed % 10 == 0 { None } else { Some(30) };
        let mut options = all_rules(seats.len() as u8, seed, tiles);
        // Every other game without the rivers, whose 21 tiles come first and would fill the
        // short games.
        if seed % 2 == 1 {
            options.sets = ["base", "festival", "village-life", "inns-and-cathedrals"]
                .into_iter()
                .chain(["traders-and-builders"])
                .map(String::from)
                .collect();
        }
        let (_, u) = play_checked(tables, options, seats, seed);
        for k in 0..4 {
            used[k] += u[k];
        }
    }
    // The greedy player uses the expansions' moves, not only deploys and passes.
    assert!(used[0] > 0, "no windmill placed in {games} games: {used:?}");
    assert!(used[1] > 0, "no Festival return in {games} games: {used:?}");
    assert!(used[2] > 0, "no donkey move in {games} games: {used:?}");
    assert!(
        used[3] > 0,
        "greedy deployed no large follower in {games} games: {used:?}"
    );
}

#[test]
fn mcts_only_makes_legal_moves_under_every_rule() {
    let tables = common::tables();
    for seed in 0..24u64 {
        let seats = [Strategy::Mcts { playouts: 6 }, Strategy::Greedy];
        play_checked(tables, all_rules(2, seed, Some(24)), &seats, seed);
    }
}

fn sim(seats: &[Strategy], games: u64, seed: u64) -> SimOptions {
    SimOptions {
        games,
        players: seats.len() as u8,
        seed,
        sets: vec!["base".into()],
        edition: None,
        rules: RuleOptions::default(),
        tiles: None,
        start: None,
        seats: seats.to_vec(),
    }
}

fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
        .install(f)
}

#[test]
fn a_seed_gives_the_same_games_whatever_the_thread_count() {
    let tables = common::tables();
    let seats = [
        Strategy::Greedy,
        Strategy::Mcts { playouts: 4 },
        Strategy::Random,
    ];
    let opts = sim(&seats, 24, 7);
    let one = with_threads(1, || run(tables, &opts, &|_| {}).expect("games play"));
    let three = with_threads(3, || run(tables, &opts, &|_| {}).expect("games play"));
    assert_eq!(one, three);
    assert_eq!(one.games, 24);
    let shares: u64 = one.win_shares.iter().sum();
    assert_eq!(shares, 24 * engine::simulate::WIN_SHARE, "{one:?}");
    // Another seed plays other games.
    let other = with_threads(2, || {
        run(tables, &sim(&seats, 24, 8), &|_| {}).expect("games play")
    });
    assert_ne!(one.score_sum, other.score_sum);
}

/// The JSON form of a run's sums names every id of the tables and keeps every count.
#[test]
fn keyed_sums_name_every_id_and_keep_every_count() {
    let tables = common::tables();
    let stats = run(tables, &sim(&[Strategy::Random; 2], 30, 5), &|_| {}).expect("games play");
    let keyed = stats.keyed(tables);
    let sums = &stats.sums;
    let total = |v: &[u64]| v.iter().sum::<u64>();
    assert_eq!(keyed.sums.points_by_kind.len(), tables.features.len());
    assert_eq!(keyed.sums.marker_points.len(), tables.markers.len());
    assert_eq!(keyed.sums.deployed.len(), tables.followers.len() + 1);
    assert_eq!(keyed.set_aside_by_kind.len(), tables.kinds.len());
    for (k, rule) in tables.features.iter().enumerate() {
        assert_eq!(keyed.sums.points_by_kind[&rule.id], sums.points_by_kind[k]);
    }
    assert_eq!(keyed.sums.deployed["follower"], sums.deployed[0]);
    assert!(keyed.sums.deployed["follower"] > 0);
    assert_eq!(
        total(&sums.deployed),
        keyed.sums.deployed.values().sum::<u64>()
    );
    assert_eq!(
        total(&stats.set_aside_by_kind),
        keyed.set_aside_by_kind.values().sum::<u64>()
    );
    assert_eq!(keyed.score_sum, stats.score_sum);
}

#[test]
fn greedy_beats_random() {
    let tables = common::tables();
    let stats = run(
        tables,
        &sim(&[Strategy::Greedy, Strategy::Random], 60, 3),
        &|_| {},
    )
    .expect("games play");
    assert!(
        stats.win_rate(0) > 0.8,
        "greedy won {:.2} of its games against random",
        stats.win_rate(0)
    );
    assert!(stats.mean(0) > 1.5 * stats.mean(1), "{stats:?}");
}

#[test]
fn seat_lists_parse_as_documented() {
    assert_eq!(parse_seats("3", 8), Ok(vec![Strategy::Random; 3]));
    assert_eq!(
        parse_seats("greedy,mcts:500,random", 8),
        Ok(vec![
            Strategy::Greedy,
            Strategy::Mcts { playouts: 500 },
            Strategy::Random
        ])
    );
    assert_eq!(
        parse_seats("mcts", 8),
        Ok(vec![Strategy::Mcts { playouts: 500 }])
    );
    for bad in ["0", "9", "greedy,,random", "mcts:0", "mcts:x", "smart", ""] {
        assert!(parse_seats(bad, 8).is_err(), "{bad}");
    }
    assert!(parse_seats(&["greedy"; 9].join(","), 8).is_err());
}

/// Plays a game at random to the end; the tile kinds drawn, in order (placed or set aside).
fn draw_order(game: &mut Game<'_>, rng: &mut Rng) -> Vec<KindId> {
    let (mut moves, mut events) = (Vec::new(), Vec::new());
    while game.phase() != Phase::Over {
        game.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len())];
        game.apply(mv, &mut events).expect("a listed move is legal");
    }
    events
        .iter()
        .filter_map(|e| match e {
            engine::Event::Placed { kind, .. } | engine::Event::SetAside { kind } => Some(*kind),
            _ => None,
        })
        .collect()
}

#[test]
fn a_search_copy_keeps_the_river_first_and_its_lake_last() {
    let tables = common::tables();
    let river = |k: KindId| tables.sets[tables.kind(k).set as usize] == "river";
    let lake = tables.kind_by_id("RI.1-I.e").expect("the River's lake");
    let mut reordered = 0;
    for seed in 0..30u64 {
        let options = GameOptions {
            sets: vec!["base".into(), "river".into()],
            ..GameOptions::seeded(2, seed)
        };
        let mut events = Vec::new();
        let mut game = Game::new(tables, options, &mut events).expect("game sets up");
        let mut rng = Rng::new(seed);
        // A few turns into the river, as a search would copy the game.
        let mut moves = Vec::new();
        while game.board().placed.len() < 1 + (seed % 5) as usize {
            game.legal_moves(&mut moves);
            game.apply(moves[0], &mut events).expect("legal");
        }
        let mut copy = game.clone();
        copy.shuffle_undrawn(&mut rng);
        // The tiles drawn from here on (the one waiting to be placed, if any, first).
        let mine = draw_order(&mut game.clone(), &mut Rng::new(1));
        let theirs = draw_order(&mut copy, &mut Rng::new(1));
        // The same tiles, in another order…
        let (mut a, mut b) = (mine.to_vec(), theirs.to_vec());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "seed {seed}");
        reordered += usize::from(mine != theirs);
        // …the rest of the river first, its lake last of it, then the base game.
        let rivers = theirs.iter().filter(|&&k| river(k)).count();
        assert!(theirs[..rivers].iter().all(|&k| river(k)), "seed {seed}");
        assert_eq!(theirs[rivers - 1], lake, "seed {seed}");
        assert!(theirs[rivers..].iter().all(|&k| !river(k)), "seed {seed}");
    }
    assert!(
        reordered > 25,
        "the copies were not shuffled: {reordered} of 30"
    );
}

#[test]
fn greedy_deploys_a_sets_follower_kind() {
    // Inns & Cathedrals without Village Life or the Festival: every second step greedy takes
    // is chosen with its placement, from its own estimate.
    let tables = common::tables();
    let mut games_with = 0;
    for seed in 0..40u64 {
        let options = GameOptions {
            sets: vec!["base".into(), "inns-and-cathedrals".into()],
            ..GameOptions::seeded(2, seed)
        };
        let (game, used) = play_checked(tables, options, &[Strategy::Greedy; 2], seed);
        assert_eq!(game.phase(), Phase::Over);
        games_with += usize::from(used[3] > 0);
    }
    assert!(
        games_with >= 36,
        "the large follower went down in {games_with} of 40 games"
    );
}

/// A set whose figures count 0 in a majority: one standing where a follower may, one on cities
/// only. Each takes its feature as a follower does.
const WEIGHTLESS: &str = r#"
format = 1

[set]
id = "weightless"
name = "Weightless"
requires = ["base"]

[[figure]]
id = "shade"
name = "Shade"
count = 3
strength = 0

[[figure]]
id = "ghost"
name = "Ghost"
count = 3
on = ["city"]
strength = 0

[[tile]]
id = "WL-cap"
count = 4
edges = { n = "city", e = "field", s = "field", w = "field" }
cities = [{ ports = ["N"] }]
fields = [{ ports = ["WSW", "WNW", "SSE", "SSW", "ENE", "ESE"], cities = ["N"] }]
"#;

#[test]
fn bots_never_deploy_on_a_feature_a_figure_of_strength_0_holds() {
    let mut sources = tiledef::bundled();
    sources.push(tiledef::Source {
        name: "weightless.toml".into(),
        text: WEIGHTLESS.into(),
    });
    let report = tiledef::load(sources);
    let set = (report.tileset)
        .unwrap_or_else(|| panic!("the weightless set is valid: {:#?}", report.diagnostics));
    let tables = engine::compile(&set).expect("compiles");
    let sets = || vec!["base".to_string(), "weightless".to_string()];
    let figure = |id: &str| {
        let k = (tables.followers.iter().position(|f| f.id == id)).expect("declared figure");
        FigureId::set(k).index()
    };
    let (shade, ghost) = (figure("shade"), figure("ghost"));
    let mut deployed = [0u64; 2];
    for seed in 0..24u64 {
        let seats: &[Strategy] = if seed % 3 == 0 {
            &[Strategy::Mcts { playouts: 6 }, Strategy::Greedy]
        } else {
            &[Strategy::Greedy, Strategy::Greedy, Strategy::Random]
        };
        let options = GameOptions {
            sets: sets(),
            ..GameOptions::seeded(seats.len() as u8, seed)
        };
        let (game, _) = play_checked(&tables, options, seats, seed);
        assert_eq!(game.phase(), Phase::Over);
        deployed[0] += game.stats().deployed[shade];
        deployed[1] += game.stats().deployed[ghost];
    }
    // Both figures go down, so the bots meet the features they hold.
    assert!(
        deployed.iter().all(|&n| n > 0),
        "shades and ghosts deployed: {deployed:?}"
    );
}

/// Greedy values a barn, and places it where it pays: with two tiles left (nothing is scored
/// at the end of this turn), P2's barn at the SW corner of AM-R, on E's field bordering one
/// completed city, is worth 4 at the end less a fifth of that kept in the supply, more than a
/// farmer there (3, less its worth in the supply) or the pass.
#[test]
fn greedy_places_a_barn_where_it_pays() {
    let tables = common::tables();
    let text = r#"
        [game]
        players = 2
        draw = ["E", "B", "B", "AM-R", "B", "B"]
        [[turn]]
        tile = "E"
        at = [0, -1]
        rotation = 2
        [[turn]]
        tile = "B"
        at = [0, -2]
        [[turn]]
        tile = "B"
        at = [1, -1]
    "#;
    let record = engine::record::Record::from_toml(text).expect("a record");
    let mut game = engine::record::replay(tables, &record)
        .expect("it replays")
        .game;
    let mut events = Vec::new();
    let place = Move::Place {
        x: 1,
        y: -2,
        rotation: 2,
    };
    game.apply(place, &mut events).expect("AM-R fits at (1,-2)");
    let mut rng = Rng::new(1);
    let chosen = Player::new(Strategy::Greedy).choose(&game, &mut rng);
    let barn = Move::Action {
        action: engine::rules::ActionId::BARN,
        target: engine::rules::Target::Corner(3),
    };
    assert_eq!(chosen, Some(barn));
}

/// Greedy values the princess: with the opponent's knight in the 3-tile city a princess tile
/// extends (where nothing else of the tile is worth as much), it sends that knight home.
#[test]
fn greedy_sends_an_opponents_knight_home_with_the_princess() {
    let tables = common::tables();
    let record = engine::Record::from_toml(
        r#"
        [game]
        players = 2
        draw = ["N", "DG-Cc.p", "K"]
        [[turn]]
        tile = "N"
        at = [0, -1]
        rotation = 2
        deploy = "city"
        "#,
    )
    .expect("record reads");
    let mut game = engine::replay(tables, &record).expect("replays").game;
    let mut events = Vec::new();
    let place = Move::Place {
        x: 1,
        y: -1,
        rotation: 3,
    };
    game.apply(place, &mut events)
        .expect("the princess tile joins the city");
    let chosen = Player::new(Strategy::Greedy).choose(&game, &mut Rng::new(1));
    assert_eq!(
        chosen,
        Some(Move::Action {
            action: ActionId::PRINCESS,
            target: engine::rules::Target::Figure(0),
        })
    );
}

/// After P2's tile completes the road P1's wagon stands on (scenario `wagon-moves-on-to-the-monastery`), P1 chooses: the
/// greedy and MCTS players move the wagon on to a linked monastery, worth points, rather than
/// home.
#[test]
fn greedy_moves_its_wagon_on_when_it_pays() {
    let tables = common::tables();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/scenarios/wagon-moves-on-to-the-monastery.toml"),
    )
    .expect("the scenario");
    let mut record = engine::record::Record::from_toml(&text).expect("a record");
    // The last turn without its choice: the replay stops where P1 must choose.
    record.turns[1].remove_action("wagon");
    let game = engine::record::replay(tables, &record)
        .expect("replays")
        .game;
    let Phase::Choose { player, action, .. } = game.phase() else {
        panic!("no choice asked: {:?}", game.phase());
    };
    assert_eq!((player, action), (0, ActionId::WAGON));
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    assert_eq!(legal.len(), 3, "two monasteries and the pass: {legal:?}");
    for strategy in [Strategy::Greedy, Strategy::Mcts { playouts: 200 }] {
        let mv = Player::new(strategy).choose(&game, &mut Rng::new(7));
        let moved = matches!(
            mv,
            Some(Move::Action {
                action: ActionId::WAGON,
                ..
            })
        );
        assert!(
            moved && legal.contains(&mv.unwrap_or(Move::Pass)),
            "{strategy} chose {mv:?}"
        );
    }
}

/// Every kind of player makes the wagon's move in games of Abbey & Mayor, only legally (each
/// move is held to the legal list by `play_checked`).
#[test]
fn every_player_moves_the_wagon_on() {
    let tables = common::tables();
    for strategy in [Strategy::Random, Strategy::Greedy] {
        let mut moved = 0;
        for seed in 0..30u64 {
            let options = GameOptions {
                sets: vec!["base".into(), "abbey-and-mayor".into()],
                ..GameOptions::seeded(2, seed)
            };
            let (game, _) = play_checked(tables, options, &[strategy; 2], seed);
            assert_eq!(game.phase(), Phase::Over);
            moved += game.stats().actions[ActionId::WAGON.index()];
        }
        assert!(moved > 0, "{strategy}: no wagon moved on in 30 games");
    }
}

/// Scenario `abbey-instead-of-the-drawn-tile`'s board after its sixth turn: a gap at (0,1) closed on four sides, P1's
/// one-tile city and P2's one-tile road ending there, P1 to play with a B drawn.
const ABBEY_GAP: &str = r#"
[game]
players = 2
draw = ["U", "U", "E", "A", "B", "B", "B"]
rules = { reserve = 1 }

[[turn]]
tile = "U"
at = [1, 0]

[[turn]]
tile = "U"
at = [-1, 0]

[[turn]]
tile = "E"
at = [1, 1]
rotation = 3
deploy = "city"

[[turn]]
tile = "A"
at = [-1, 1]
rotation = 3
deploy = "road"

[[turn]]
tile = "B"
at = [1, 2]

[[turn]]
tile = "B"
at = [0, 2]
"#;

#[test]
fn greedy_places_its_abbey_where_it_pays() {
    // The abbey there completes P1's city (2) and puts a monk on a monastery with 7 of its 8
    // neighbours: worth more than any placement of the drawn B. Greedy and MCTS both take it.
    let tables = common::tables();
    let record = engine::record::Record::from_toml(ABBEY_GAP).expect("the record reads");
    let game = engine::record::replay(tables, &record)
        .expect("it replays")
        .game;
    let abbey = Move::Action {
        action: ActionId::ABBEY,
        target: engine::rules::Target::At { x: 0, y: 1 },
    };
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    assert!(
        legal.contains(&abbey),
        "the abbey is not offered: {legal:?}"
    );
    for strategy in [Strategy::Greedy, Strategy::Mcts { playouts: 200 }] {
        let mut rng = Rng::new(7);
        let mv = Player::new(strategy).choose(&game, &mut rng);
        assert_eq!(mv, Some(abbey), "{strategy:?}");
    }
}

#[test]
fn every_player_places_abbeys_and_only_legal_moves() {
    // Abbey & Mayor with the base game: the random player places abbeys (uniform over the
    // placements and the abbey's gaps), greedy and MCTS too; every move is legal, the
    // end-game round's declines included.
    let tables = common::tables();
    let seats: [&[Strategy]; 3] = [
        &[Strategy::Random, Strategy::Random],
        &[Strategy::Greedy, Strategy::Random],
        &[Strategy::Mcts { playouts: 6 }, Strategy::Greedy],
    ];
    for (i, seats) in seats.into_iter().enumerate() {
        let mut abbeys = [0u32; 2];
        let games = if i == 2 { 4 } else { 40 };
        for seed in 0..games {
            let options = GameOptions {
                sets: vec!["base".into(), "abbey-and-mayor".into()],
                ..GameOptions::seeded(2, seed)
            };
            let mut players: Vec<Player> = seats.iter().map(|&s| Player::new(s)).collect();
            let mut rng = Rng::new(seed);
            let (mut events, mut legal) = (Vec::new(), Vec::new());
            let mut game = Game::new(tables, options, &mut events).expect("game sets up");
            while game.phase() != Phase::Over {
                let seat = game.current() as usize;
                let mv = players[seat].choose(&game, &mut rng).expect("a move");
                game.legal_moves(&mut legal);
                assert!(legal.contains(&mv), "{:?}: {mv:?} not legal", seats[seat]);
                if matches!(
                    mv,
                    Move::Action {
                        action: ActionId::ABBEY,
                        ..
                    }
                ) {
                    abbeys[seat] += 1;
                }
                game.apply(mv, &mut events).expect("a legal move applies");
            }
        }
        for seat in 0..2 {
            assert!(abbeys[seat] > 0, "{:?} placed no abbey", seats[seat]);
        }
    }
}
