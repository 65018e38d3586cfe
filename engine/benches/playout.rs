//! Random playouts on one core — the base game, and base + Festival + Village Life with all
//! their rules, both 72 tiles long so they compare — and the legal placements of one drawn tile.

use engine::game::{Draw, Game, GameOptions, Move, Phase, Setup};
use engine::rng::Rng;
use engine::simulate::play_random;
use std::hint::black_box;

#[path = "../../tiledef/benches/support/stopwatch.rs"]
mod stopwatch;

fn options(players: u8, seed: u64) -> GameOptions {
    GameOptions {
        sets: vec!["base".into()],
        draw: Draw::Seed(seed),
        ..GameOptions::seeded(players, seed)
    }
}

/// Game options for a player count and seed.
type Options = fn(u8, u64) -> GameOptions;

/// All bundled sets and rules, cut to the base game's 72 tiles.
fn expansion_options(players: u8, seed: u64) -> GameOptions {
    GameOptions {
        sets: Vec::new(),
        tiles: Some(72),
        ..GameOptions::seeded(players, seed)
    }
}

fn main() {
    let tables = engine::compile(&tiledef::load_bundled()).expect("bundled tables compile");
    let mut rng = Rng::new(1);
    let mut moves = Vec::with_capacity(256);
    let mut events = Vec::with_capacity(256);
    let cases: [(&str, Options); 2] = [
        ("random 2-player base game", options),
        (
            "random 2-player game, base + Festival + Village Life, 72 tiles",
            expansion_options,
        ),
    ];
    for (name, options) in cases {
        let setup = Setup::new(&tables, options(2, 0)).expect("the options set up a game");
        stopwatch::time(name, 30, || {
            events.clear();
            let seed = rng.next_u64();
            let game = play_random(&setup, seed, &mut rng, &mut moves, &mut events)
                .expect("random games play");
            game.scores()[0]
        });
    }
    // A mid-game position: the legal placements of the drawn tile.
    let mut events = Vec::new();
    let mut game = Game::new(&tables, options(2, 7), &mut events).expect("game sets up");
    for _ in 0..60 {
        game.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len())];
        game.apply(mv, &mut events).expect("legal moves apply");
        if let Phase::Place(_) = game.phase() {
            continue;
        }
    }
    while !matches!(game.phase(), Phase::Place(_)) {
        game.apply(Move::Pass, &mut events).expect("pass is legal");
    }
    let Phase::Place(kind) = game.phase() else {
        return;
    };
    let open = game.board().frontier.len();
    stopwatch::time(
        &format!("legal placements, {open} open positions"),
        30,
        || {
            moves.clear();
            game.legal_placements(black_box(kind), &mut moves);
            moves.len()
        },
    );
}
