//! Shared test helpers: the bundled tables, compiled once per test binary.

use engine::Tables;
use std::sync::OnceLock;

/// The tables of the bundled definitions.
#[allow(dead_code)]
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| engine::compile(&tiledef::load_bundled()).expect("bundled data compiles"))
}

/// The bundled definitions plus the test-only tiles of `tests/scenarios/tiles/` (shapes the
/// rules' worked examples need and no bundled tile has).
#[allow(dead_code)]
pub fn scenario_tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/tiles");
        let mut sources = tiledef::bundled();
        sources.extend(tiledef::read_paths(&[dir]).expect("test tiles readable"));
        let report = tiledef::load(sources);
        let tileset = report
            .tileset
            .unwrap_or_else(|| panic!("test tiles invalid: {:#?}", report.diagnostics));
        engine::compile(&tileset).expect("test tiles compile")
    })
}

/// The neighbour edge codes of an open position (None = empty), N, E, S, W, read from the board.
#[allow(dead_code)]
pub fn neighbours(game: &engine::Game<'_>, x: i16, y: i16) -> [Option<u8>; 4] {
    let tables = game.tables();
    let mut out = [None; 4];
    for side in tiledef::Side::ALL {
        let (dx, dy) = side.offset();
        if let Some(p) = game.board().at(i32::from(x) + dx, i32::from(y) + dy) {
            out[side.index()] = Some(tables.orient(p.orient).edges[side.opposite().index()]);
        }
    }
    out
}
