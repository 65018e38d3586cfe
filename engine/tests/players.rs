//! The players: every move a bot makes is legal, under every rule of the bundled sets; a seed
//! gives the same games whatever the number of threads; greedy beats random.

mod common;

use engine::game::{Draw, Game, GameOptions, Move, Phase, RuleOptions};
use engine::players::{Player, Strategy, parse_seats};
use engine::rng::Rng;
use engine::simulate::{SimOptions, run};

/// All bundled sets with every rule on (Festival, donkey, windmills, flowers, wells).
fn all_rules(players: u8, seed: u64, tiles: Option<usize>) -> GameOptions {
    GameOptions {
        sets: Vec::new(),
        edition: None,
        players,
        rules: RuleOptions {
            wells: true,
            donkey: Some(true),
            windmills: Some(1),
            flower_bonus: Some(true),
            ..RuleOptions::default()
        },
        draw: Draw::Seed(seed),
        tiles,
        start: None,
    }
}

/// Plays a game with these seats, checking each chosen move against the legal list; returns
/// the game and how many second steps of each expansion kind were made.
fn play_checked<'t>(
    tables: &'t engine::Tables,
    options: GameOptions,
    seats: &[Strategy],
    seed: u64,
) -> (Game<'t>, [u32; 3]) {
    let mut players: Vec<Player> = seats.iter().map(|&s| Player::new(s)).collect();
    let mut rng = Rng::new(seed);
    let mut events = Vec::new();
    let mut legal = Vec::new();
    let mut game = Game::new(tables, options, &mut events).expect("game sets up");
    let mut used = [0u32; 3];
    while game.phase() != Phase::Over {
        let seat = game.current() as usize;
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
            Move::Windmill { .. } => used[0] += 1,
            Move::Return { .. } => used[1] += 1,
            Move::Donkey { .. } => used[2] += 1,
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
    let mut used = [0u32; 3];
    let games = 1_200u64;
    for seed in 0..games {
        let seats = mixes[(seed % 4) as usize];
        // Short games, and whole ones now and then.
        let tiles = if seed % 10 == 0 { None } else { Some(30) };
        let (_, u) = play_checked(
            tables,
            all_rules(seats.len() as u8, seed, tiles),
            seats,
            seed,
        );
        for k in 0..3 {
            used[k] += u[k];
        }
    }
    // The greedy player uses the expansions' moves, not only deploys and passes.
    assert!(used[0] > 0, "no windmill placed in {games} games: {used:?}");
    assert!(used[1] > 0, "no Festival return in {games} games: {used:?}");
    assert!(used[2] > 0, "no donkey move in {games} games: {used:?}");
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
