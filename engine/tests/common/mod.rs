//! Shared test helpers: the bundled tables, compiled once per test binary.

use engine::Tables;
use std::sync::OnceLock;

/// The tables of the bundled definitions.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| engine::compile(&tiledef::load_bundled()).expect("bundled data compiles"))
}
