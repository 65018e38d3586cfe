//! A game record (TOML or JSON) replayed on the bundled sets, its expectations checked: a
//! record is refused with its reason, never a panic.
#![no_main]

use engine::Tables;
use engine::record::{Record, check_expectations, replay};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// The bundled sets' tables, compiled once for the whole run.
fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        engine::compile(&tiledef::load_bundled()).expect("the bundled sets compile")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = Record::parse(text) else {
        return;
    };
    let tables = tables();
    let outcome = replay(tables, &record);
    let _ = check_expectations(tables, &record, &outcome);
});
