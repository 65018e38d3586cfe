//! Loading speed: the bundled definitions, and a generated set of 10,000 tile types.
//!
//! Run with `cargo bench -p tiledef --features bench --bench load`. Targets (issue 2): the whole `tilekit
//! validate` process on the bundled files under 20 ms; 10,000 tiles under 0.5 s on one core.

use criterion::{Criterion, criterion_group, criterion_main};

// The same allocator as the `tilekit` binary, so the figures are the ones an author sees.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use tiledef::{bundled, load};

mod generated;
use generated::generated_set;

fn benches(c: &mut Criterion) {
    let files = bundled();
    c.bench_function("load bundled (base + festival + village life)", |b| {
        b.iter(|| {
            let report = load(files.clone());
            assert!(report.tileset.is_some());
        })
    });
    let mut big = vec![files[0].clone(), generated_set(10_000)];
    let mut group = c.benchmark_group("large");
    group.sample_size(10);
    group.bench_function("load 10,000 generated tile types", |b| {
        b.iter(|| {
            let report = load(big.clone());
            assert!(!report.has_errors());
        })
    });
    group.finish();
    big.clear();
}

criterion_group!(load_benches, benches);
criterion_main!(load_benches);
