//! A few lines of timing for the wall-clock benches (shared with `engine/benches/playout.rs`):
//! the median and fastest of several samples, each a batch long enough for the clock to resolve.
//! Wall-clock only compares builds on a quiet machine; the project's targets are instruction
//! counts (`engine/benches/instructions.sh`).

use std::time::{Duration, Instant};

/// Times `f` in `samples` batches (after one warm-up batch) and prints the time per call.
pub fn time<T>(name: &str, samples: usize, mut f: impl FnMut() -> T) {
    let started = Instant::now();
    std::hint::black_box(f());
    // A batch of about 20 ms, judged from the first call.
    let once = started.elapsed().max(Duration::from_nanos(1));
    let batch = (Duration::from_millis(20).as_nanos() / once.as_nanos()).clamp(1, 1_000_000) as u32;
    let mut per_call: Vec<Duration> = (0..samples.max(1))
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batch {
                std::hint::black_box(f());
            }
            start.elapsed() / batch
        })
        .collect();
    per_call.sort();
    println!(
        "{name}: median {:?}, fastest {:?} ({} samples of {batch})",
        per_call[per_call.len() / 2],
        per_call[0],
        per_call.len()
    );
}
