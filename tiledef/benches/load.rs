//! Loading speed: the bundled definitions, and a generated set of 10,000 tile types.
//!
//! Run with `cargo bench -p tiledef --bench load`. Targets (issue 2): the whole `tilekit
//! validate` process on the bundled files under 20 ms; 10,000 tiles under 0.5 s on one core.

// The same allocator as the `tilekit` binary, so the figures are the ones an author sees.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use tiledef::{bundled, load};

mod generated;
#[path = "support/stopwatch.rs"]
mod stopwatch;
use generated::generated_set;

fn main() {
    let files = bundled();
    stopwatch::time("load bundled (every bundled set)", 30, || {
        let report = load(files.clone());
        assert!(report.tileset.is_some());
    });
    let big = vec![files[0].clone(), generated_set(10_000)];
    stopwatch::time("load 10,000 generated tile types", 10, || {
        let report = load(big.clone());
        assert!(!report.has_errors());
    });
}
