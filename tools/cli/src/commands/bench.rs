//! `tilekit bench`: single-core speed of the engine: random playouts per second, the time to
//! list the legal placements of a drawn tile per open position, and the memory of a game state;
//! with `--bots`, the players' speed too: greedy-against-greedy games per second, the time of
//! one MCTS move, and the cost of copying a game state for search.

use crate::inputs::{Inputs, load_valid};
use clap::Args;
use engine::game::{Draw, Game, GameOptions, Phase, Setup};
use engine::rng::Rng;
use engine::simulate::play_random;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `tilekit bench`.
#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// Games to play (on one thread; 1 to a billion).
    #[arg(long, default_value_t = 20_000, value_parser = crate::inputs::games())]
    games: u64,
    /// Players per game (1–8).
    #[arg(long, default_value_t = 2, value_parser = crate::inputs::players())]
    players: u8,
    /// Tile sets in the bag (comma-separated; default: base).
    #[arg(long, value_delimiter = ',', default_value = "base")]
    sets: Vec<String>,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Edition id for the counts (default: the newest; `--edition C1` plays the base game
    /// without its gardens).
    #[arg(long)]
    edition: Option<String>,
    /// The Wells on (the Festival and Village Life rules follow the sets unless flags say
    /// otherwise).
    #[arg(long)]
    wells: bool,
    #[command(flatten)]
    options: crate::rules::OptionArgs,
    #[command(flatten)]
    village_life: crate::rules::VillageLifeArgs,
    /// Play only this many tiles of each shuffled bag (the start tile included), so sets of
    /// different sizes compare at the same game length.
    #[arg(long, value_parser = crate::inputs::tiles())]
    tiles: Option<usize>,
    /// The start tile's id (default: the first start tile of the sets in draw order).
    #[arg(long, value_name = "TILE")]
    start: Option<String>,
    /// Also time the players: greedy games, MCTS moves (`--playouts` each), copying a state.
    #[arg(long)]
    bots: bool,
    /// Playouts of the timed MCTS moves.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    playouts: u32,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
}

/// The players' speed on one thread.
#[derive(serde::Serialize)]
struct BotFigures {
    greedy_games: u64,
    greedy_games_per_second: f64,
    mcts_playouts: u32,
    mcts_moves: u64,
    mcts_move_ms_mean: f64,
    mcts_move_ms_max: f64,
    clone_ns_mid_game: f64,
    clone_ns_late_game: f64,
}

/// Times greedy-against-greedy games, MCTS moves and copies of game states.
fn bench_bots(setup: &Setup<'_>, players: u8, playouts: u32) -> miette::Result<BotFigures> {
    use engine::players::{Player, Strategy};
    let seats = |s: Strategy| -> Vec<Player> { (0..players).map(|_| Player::new(s)).collect() };
    let err = |e: engine::simulate::SimError| miette::miette!("{e}");
    // Greedy against greedy, for about a second.
    let start = Instant::now();
    let mut greedy_games = 0u64;
    let mut events = Vec::new();
    let mut rng = Rng::new(1);
    while greedy_games < 20 || start.elapsed().as_secs_f64() < 1.0 {
        events.clear();
        let mut bots = seats(Strategy::Greedy);
        let game =
            engine::simulate::play_seats(setup, greedy_games, &mut bots, &mut rng, &mut events)
                .map_err(err)?;
        black_box(game.scores());
        greedy_games += 1;
    }
    let greedy_secs = start.elapsed().as_secs_f64();
    // MCTS moves: the placements of greedy games at every eighth turn, from early to late.
    let mut mcts = Player::new(Strategy::Mcts { playouts });
    let mut times = Vec::new();
    let mut mid = None;
    let mut late = None;
    for g in 0..3u64 {
        let mut game = setup.game(1000 + g, &mut events);
        let mut bots = seats(Strategy::Greedy);
        let mut turn = 0;
        while game.phase() != Phase::Over {
            if matches!(game.phase(), Phase::Place(_)) {
                turn += 1;
                if turn % 8 == 1 {
                    let t = Instant::now();
                    black_box(mcts.choose(&game, &mut rng));
                    times.push(t.elapsed().as_secs_f64() * 1e3);
                }
                if game.tiles_left() <= game.board().placed.len() && mid.is_none() {
                    mid = Some(game.clone());
                }
                if game.tiles_left() < 4 && late.is_none() {
                    late = Some(game.clone());
                }
            }
            let seat = game.to_move() as usize % bots.len();
            let Some(mv) = bots[seat].choose(&game, &mut rng) else {
                break;
            };
            game.apply(mv, &mut events)
                .map_err(|e| miette::miette!("{e}"))?;
        }
    }
    let clone_ns = |state: &Option<Game<'_>>| -> f64 {
        let Some(state) = state else { return 0.0 };
        let n = 20_000;
        let t = Instant::now();
        for _ in 0..n {
            black_box(state.clone());
        }
        t.elapsed().as_secs_f64() * 1e9 / n as f64
    };
    Ok(BotFigures {
        greedy_games,
        greedy_games_per_second: greedy_games as f64 / greedy_secs.max(1e-9),
        mcts_playouts: playouts,
        mcts_moves: times.len() as u64,
        mcts_move_ms_mean: times.iter().sum::<f64>() / times.len().max(1) as f64,
        mcts_move_ms_max: times.iter().copied().fold(0.0, f64::max),
        clone_ns_mid_game: clone_ns(&mid),
        clone_ns_late_game: clone_ns(&late),
    })
}

/// Runs `tilekit bench`.
pub fn run(args: &BenchArgs) -> miette::Result<ExitCode> {
    let Ok(tileset) = load_valid(&args.inputs)? else {
        return Ok(ExitCode::from(1));
    };
    let start = Instant::now();
    let tables = crate::inputs::compile_tables(&tileset)?;
    let compile_ms = start.elapsed().as_secs_f64() * 1e3;
    let mut rules = engine::RuleOptions {
        modules: engine::ModuleOptions {
            wells: args.wells,
            ..Default::default()
        },
        ..Default::default()
    };
    args.village_life.apply(&mut rules);
    args.options.apply(&mut rules);
    let options = |seed: u64| GameOptions {
        sets: args.sets.clone(),
        edition: args.edition.clone(),
        players: args.players,
        rules: rules.clone(),
        draw: Draw::Seed(seed),
        tiles: args.tiles,
        start: args.start.clone(),
    };
    // Prepared once, as `simulate` does: each game costs its shuffle, not the setup.
    let setup = match Setup::new(&tables, options(0)) {
        Ok(setup) => setup,
        Err(e) => {
            crate::errln!("error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let rules = setup.rules().clone();
    let mut rng = Rng::new(args.seed);
    let mut moves = Vec::with_capacity(256);
    let mut events = Vec::with_capacity(256);
    // Playouts.
    let mut tiles = 0u64;
    let mut bytes = 0usize;
    let start = Instant::now();
    for _ in 0..args.games {
        events.clear();
        let seed = rng.next_u64();
        let game = play_random(&setup, seed, &mut rng, &mut moves, &mut events)
            .map_err(|e| miette::miette!("{e}"))?;
        tiles += game.board().placed.len() as u64;
        bytes = bytes.max(game.heap_bytes() + std::mem::size_of::<Game<'_>>());
        black_box(game.scores());
    }
    let secs = start.elapsed().as_secs_f64();
    let rate = args.games as f64 / secs.max(1e-9);
    // Legal placements: every drawn tile of some games, timed over all open positions.
    let (positions, lists, list_time) = time_placements(&tables, options, args.seed, &mut moves)?;
    let bots = if args.bots {
        Some(bench_bots(&setup, args.players, args.playouts)?)
    } else {
        None
    };
    let ns_per_position = list_time * 1e9 / positions.max(1) as f64;
    let ns_per_list = list_time * 1e9 / lists.max(1) as f64;
    if args.json {
        let value = serde_json::json!({
            "games": args.games, "players": args.players, "sets": args.sets, "rules": rules,
            "seconds": secs, "games_per_second": rate,
            "microseconds_per_game": secs * 1e6 / args.games.max(1) as f64,
            "tiles_per_game": tiles as f64 / args.games.max(1) as f64,
            "nanoseconds_per_tile": secs * 1e9 / tiles.max(1) as f64,
            "legal_placements_ns_per_open_position": ns_per_position,
            "legal_placements_ns_per_tile": ns_per_list,
            "max_game_state_bytes": bytes,
            "compile_ms": compile_ms,
            "bots": bots,
        });
        crate::output::print_json(&value)?;
    } else {
        crate::outln!("rules: {rules}")?;
        crate::outln!(
            "{} random {}-player games ({}) on one thread: {secs:.2} s, {rate:.0} games/s, {:.1} µs/game, {:.1} tiles/game",
            args.games,
            args.players,
            args.sets.join("+"),
            secs * 1e6 / args.games.max(1) as f64,
            tiles as f64 / args.games.max(1) as f64
        )?;
        crate::outln!(
            "{:.0} ns per placed tile (compare sets by this: games differ in length)",
            secs * 1e9 / tiles.max(1) as f64
        )?;
        crate::outln!(
            "legal placements of a drawn tile: {ns_per_list:.0} ns per tile, {ns_per_position:.1} ns per open position"
        )?;
        crate::outln!(
            "largest game state: {bytes} bytes; compiling the tables: {compile_ms:.1} ms"
        )?;
        if let Some(b) = bots {
            crate::outln!(
                "greedy against greedy on one thread: {:.0} games/s ({} games)",
                b.greedy_games_per_second,
                b.greedy_games
            )?;
            crate::outln!(
                "an MCTS move with {} playouts: {:.1} ms mean, {:.1} ms at most ({} moves, early to late)",
                b.mcts_playouts,
                b.mcts_move_ms_mean,
                b.mcts_move_ms_max,
                b.mcts_moves
            )?;
            crate::outln!(
                "copying a game state: {:.0} ns mid-game, {:.0} ns late",
                b.clone_ns_mid_game,
                b.clone_ns_late_game
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Lists the legal placements of every drawn tile of 200 games, 16 times each, playing each turn
/// on at random: the open positions and lists timed, and the seconds. Its own generator, so this
/// part is the same work whatever `--games` is (instruction counts of two runs subtract
/// exactly: `engine/benches/instructions.sh`).
fn time_placements(
    tables: &engine::Tables,
    options: impl Fn(u64) -> GameOptions,
    seed: u64,
    moves: &mut Vec<engine::Move>,
) -> miette::Result<(u64, u64, f64)> {
    let mut rng = Rng::new(seed ^ 0x11_57ed);
    let mut positions = 0u64;
    let mut lists = 0u64;
    let mut list_time = 0.0;
    for g in 0..200u64 {
        let mut ev = Vec::new();
        let Ok(mut game) = Game::new(tables, options(g), &mut ev) else {
            break;
        };
        while let Phase::Place(kind) = game.phase() {
            let t = Instant::now();
            for _ in 0..16 {
                moves.clear();
                game.legal_placements(black_box(kind), moves);
            }
            list_time += t.elapsed().as_secs_f64();
            positions += 16 * game.board().frontier.len() as u64;
            lists += 16;
            // The index's list ignores the filters (a river's room, the donkey): play from the legal moves.
            game.legal_moves(moves);
            let n = moves.len();
            let mv = moves[rng.below(n)];
            game.apply(mv, &mut ev)
                .map_err(|e| miette::miette!("{e}"))?;
            // The rest of the turn: the second step, then any choices after it (the wagon's,
            // the dragon's); none after declining a reserve tile at the end.
            while !matches!(game.phase(), Phase::Place(_) | Phase::Over) {
                game.legal_moves(moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                game.apply(mv, &mut ev)
                    .map_err(|e| miette::miette!("{e}"))?;
            }
        }
    }
    Ok((positions, lists, list_time))
}
