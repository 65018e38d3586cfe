//! A definition file as an author could write it, loaded beside the bundled sets it requires:
//! checked (syntax, schema, semantic checks), compiled into tables when valid, and a short
//! random game played on them. Nothing of this may panic, and a valid set must compile and play.
#![no_main]

use engine::rng::Rng;
use engine::{GameOptions, Setup, simulate};
use libfuzzer_sys::fuzz_target;
use tiledef::Source;

/// Tiles of the game played on a valid set: enough to reach every rule, few enough for speed.
const GAME_TILES: usize = 30;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut sources = tiledef::bundled_requirements([text]);
    sources.push(Source {
        name: "fuzz.toml".into(),
        text: text.to_owned(),
    });
    let report = tiledef::load(sources);
    let Some(tileset) = report.tileset else {
        return;
    };
    // A set the checker accepts may still exceed a limit of the tables (a refusal, not a crash).
    let Ok(tables) = engine::compile(&tileset) else {
        return;
    };
    let options = GameOptions {
        tiles: Some(GAME_TILES),
        ..GameOptions::seeded(2, data.len() as u64)
    };
    let Ok(setup) = Setup::new(&tables, options) else {
        return;
    };
    let mut rng = Rng::new(1);
    let (mut moves, mut events) = (Vec::new(), Vec::new());
    if let Err(e) = simulate::play_random(&setup, 1, &mut rng, &mut moves, &mut events) {
        panic!("a valid set's game failed: {e}");
    }
});
