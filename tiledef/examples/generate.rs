//! Writes a generated expansion of N distinct tile types (default 10,000) to stdout, for timing
//! the whole `tilekit validate` process on a large set:
//!
//! ```sh
//! cargo run --release -p tiledef --example generate -- 10000 > /tmp/generated.toml
//! hyperfine -N 'target/release/tilekit validate /tmp/generated.toml'
//! ```

#[path = "../benches/generated.rs"]
mod generated;

fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    print!("{}", generated::generated_set(n).text);
}
