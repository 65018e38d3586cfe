//! Random playouts as a plain program, for instruction counts under valgrind (criterion's own
//! work would swamp a callgrind profile): `cargo bench -p engine --bench instructions -- ARGS`,
//! or the built binary under `valgrind --tool=callgrind --toggle-collect=…`. See
//! `engine/benches/README.md` for the measurements and their commands.
//!
//! Arguments: `--games N` (default 1000), `--sets a,b` (default base), `--tiles N` (cut each
//! bag), `--copies N` (every tile's count × N: a bigger board from the same tiles), `--wells`,
//! `--players N` (default 2), `--seed N`.

use engine::game::{Draw, GameOptions, RuleOptions, Setup};
use engine::rng::Rng;
use engine::simulate::play_random;
use std::hint::black_box;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut games = 1000u64;
    let mut sets = vec!["base".to_string()];
    let mut tiles = None;
    let mut copies = 1u32;
    let mut wells = false;
    let mut players = 2u8;
    let mut seed = 1u64;
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, what: &str| -> u64 {
        v.and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{what} needs a number"))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--games" => games = number(args.next(), "--games"),
            "--sets" => {
                sets = (args.next().expect("--sets needs a list").split(','))
                    .map(String::from)
                    .collect()
            }
            "--tiles" => tiles = Some(number(args.next(), "--tiles") as usize),
            "--copies" => copies = number(args.next(), "--copies") as u32,
            "--wells" => wells = true,
            "--players" => players = number(args.next(), "--players") as u8,
            "--seed" => seed = number(args.next(), "--seed"),
            // `cargo bench` passes `--bench`.
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    let mut tables = engine::compile(&tiledef::load_bundled()).expect("bundled tables compile");
    for kind in &mut tables.kinds {
        for count in &mut kind.counts {
            *count *= copies;
        }
    }
    let options = |seed: u64| GameOptions {
        sets: sets.clone(),
        edition: None,
        players,
        rules: RuleOptions {
            modules: engine::ModuleOptions {
                wells,
                ..Default::default()
            },
            ..Default::default()
        },
        draw: Draw::Seed(seed),
        tiles,
        start: None,
    };
    // Prepared once, as a simulation run does: each game costs its shuffle, not the setup.
    let setup = Setup::new(&tables, options(0)).expect("the options set up a game");
    let mut rng = Rng::new(seed);
    let mut moves = Vec::with_capacity(256);
    let mut events = Vec::with_capacity(256);
    let mut placed = 0u64;
    let mut points = 0u64;
    for _ in 0..games {
        events.clear();
        let seed = rng.next_u64();
        let game = play_random(&setup, seed, &mut rng, &mut moves, &mut events)
            .expect("random games play");
        placed += game.board().placed.len() as u64;
        points += game.scores().iter().map(|&s| u64::from(s)).sum::<u64>();
        black_box(game.scores());
    }
    println!(
        "{games} games, {:.1} tiles/game, {:.2} points/game",
        placed as f64 / games as f64,
        points as f64 / games as f64
    );
}
