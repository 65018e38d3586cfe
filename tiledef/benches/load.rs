//! Loading speed: the bundled definitions, and a generated set of 10,000 tile types.
//!
//! Run with `cargo bench -p tiledef --bench load`. Targets (issue 2): the whole `tilekit
//! validate` process on the bundled files under 20 ms; 10,000 tiles under 0.5 s on one core.

use criterion::{Criterion, criterion_group, criterion_main};

// The same allocator as the `tilekit` binary, so the figures are the ones an author sees.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::fmt::Write;
use tiledef::{Source, bundled, load};

/// A valid expansion of `n` distinct tile types (base-game shapes with ever more pennants).
fn generated_set(n: usize) -> Source {
    const SHAPES: &[&str] = &[
        "edges = { n = \"city\", e = \"road\", s = \"field\", w = \"road\" }\ncities = [{ ports = [\"N\"], pennants = PEN }]\nroads = [{ ports = [\"W\", \"E\"] }]\nfields = [\n  { ports = [\"ENE\", \"WNW\"], cities = [\"N\"] },\n  { ports = [\"ESE\", \"SSE\", \"SSW\", \"WSW\"] },\n]\n",
        "edges = { n = \"city\", e = \"road\", s = \"road\", w = \"road\" }\ncities = [{ ports = [\"N\"], pennants = PEN }]\nroads = [{ ports = [\"E\"], end = \"junction\" }, { ports = [\"S\"], end = \"junction\" }, { ports = [\"W\"], end = \"junction\" }]\nfields = [\n  { ports = [\"WNW\", \"ENE\"], cities = [\"N\"] },\n  { ports = [\"ESE\", \"SSE\"] },\n  { ports = [\"SSW\", \"WSW\"] },\n]\n",
        "edges = { n = \"city\", e = \"city\", s = \"field\", w = \"city\" }\ncities = [{ ports = [\"N\", \"E\", \"W\"], pennants = PEN }]\nfields = [{ ports = [\"SSE\", \"SSW\"], cities = [\"N\"] }]\n",
    ];
    let mut text = String::from(
        "format = 1\n[set]\nid = \"generated\"\nname = \"Generated\"\nrequires = [\"base\"]\n",
    );
    for i in 0..n {
        // Distinct pennant counts keep the tiles distinct (no rotation-twin warnings).
        let shape = SHAPES[i % SHAPES.len()].replace("PEN", &(i / SHAPES.len()).to_string());
        let _ = write!(
            text,
            "\n[[tile]]\nid = \"GEN-{i}\"\ncount = {}\n{shape}",
            1 + i % 3
        );
    }
    Source {
        name: "generated.toml".to_string(),
        text,
    }
}

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
