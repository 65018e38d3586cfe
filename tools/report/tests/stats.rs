//! The statistics against known distributions: coins of known bias tossed with our own PCG
//! (`engine::rng::Rng`). A 95 % interval covers the true value in 93–97 % of 1,000 repetitions
//! (the binomial spread of 1,000 trials at 95 % is ±1.4 points); a paired interval too, and
//! the unpaired interval of positively correlated pairs is wider, never narrower; the games
//! `games_needed` names resolve a difference of the given size about 80 % of the time.

use engine::rng::Rng;
use tilekit_report::stats::{Moments, difference, games_needed, paired_difference, wilson};

/// A toss of a coin that shows 1 with probability `p`.
fn toss(rng: &mut Rng, p: f64) -> f64 {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    if u < p { 1.0 } else { 0.0 }
}

const REPEATS: u64 = 1000;

fn assert_covers_95(hits: u64, what: &str) {
    let rate = hits as f64 / REPEATS as f64;
    eprintln!("{what}: covered in {:.1} %", 100.0 * rate);
    assert!(
        (0.93..=0.97).contains(&rate),
        "{what}: the 95 % interval covered the truth in {:.1} % of {REPEATS} repetitions",
        100.0 * rate
    );
}

#[test]
fn a_coins_interval_covers_its_bias_95_times_in_100() {
    let p = 0.3;
    let (mut normal, mut wilsons) = (0, 0);
    for r in 0..REPEATS {
        let mut rng = Rng::for_game(5, r);
        let mut m = Moments::default();
        for _ in 0..400 {
            m.add(toss(&mut rng, p));
        }
        let e = m.estimate();
        normal += u64::from(e.lo <= p && p <= e.hi);
        let w = wilson(m.sum, m.n);
        wilsons += u64::from(w.lo <= p && p <= w.hi);
    }
    assert_covers_95(normal, "normal interval of a mean");
    assert_covers_95(wilsons, "Wilson interval");
}

/// Pairs of correlated coins: `x` shows 1 with probability 0.5; `y` copies `x` 80 % of the
/// time, else is a coin of bias 0.6, so E[x − y] = 0.5 − (0.8 · 0.5 + 0.2 · 0.6) = −0.02.
fn pair(rng: &mut Rng) -> (f64, f64) {
    let x = toss(rng, 0.5);
    let y = if toss(rng, 0.8) == 1.0 {
        x
    } else {
        toss(rng, 0.6)
    };
    (x, y)
}

#[test]
fn a_paired_interval_covers_the_true_difference_and_is_narrower() {
    let truth = -0.02;
    let (mut paired_hits, mut unpaired_hits) = (0, 0);
    let (mut paired_se, mut unpaired_se) = (0.0, 0.0);
    for r in 0..REPEATS {
        let mut rng = Rng::for_game(6, r);
        let (mut a, mut b, mut d) = (Moments::default(), Moments::default(), Moments::default());
        for _ in 0..500 {
            let (x, y) = pair(&mut rng);
            a.add(x);
            b.add(y);
            d.add(x - y);
        }
        let (p, _) = paired_difference(&d);
        let (u, _) = difference(&a.estimate(), &b.estimate());
        assert!(
            (p.value - u.value).abs() < 1e-12,
            "the same mean difference"
        );
        paired_hits += u64::from(p.lo <= truth && truth <= p.hi);
        unpaired_hits += u64::from(u.lo <= truth && truth <= u.hi);
        paired_se += p.se;
        unpaired_se += u.se;
    }
    assert_covers_95(paired_hits, "paired interval");
    // Positive correlation makes the unpaired interval wide: it covers nearly always.
    let unpaired = unpaired_hits as f64 / REPEATS as f64;
    eprintln!(
        "unpaired: covered in {:.1} %; mean se paired {:.4}, unpaired {:.4}",
        100.0 * unpaired,
        paired_se / REPEATS as f64,
        unpaired_se / REPEATS as f64
    );
    assert!(unpaired > 0.99, "unpaired coverage {unpaired}");
    // x − y is 0 whenever y copies x: its variance is well under the sum of the two.
    assert!(
        paired_se < 0.5 * unpaired_se,
        "paired se {paired_se} against unpaired {unpaired_se}"
    );
}

#[test]
fn games_needed_is_the_textbook_sample_size() {
    // σ² = 0.1² · 100 = 1, δ = 0.5: (1.95996 + 0.84162)² · 1 / 0.25 = 31.4 → 32 games.
    assert_eq!(games_needed(0.1, 100, 0.5), Some(32));
    assert_eq!(games_needed(0.1, 100, 0.0), None);
    assert_eq!(games_needed(0.0, 100, 0.5), None);
}

#[test]
fn the_games_needed_resolve_the_difference_80_times_in_100() {
    // Independent coins of bias 0.5 and 0.4: δ = 0.1, σ² = 0.25 + 0.24 = 0.49.
    let (pa, pb): (f64, f64) = (0.5, 0.4);
    let se_one_game = (pa * (1.0 - pa) + pb * (1.0 - pb)).sqrt();
    let n = games_needed(se_one_game, 1, pa - pb).expect("a size");
    assert_eq!(n, 385);
    let mut resolved = 0;
    for r in 0..REPEATS {
        let mut rng = Rng::for_game(7, r);
        let mut d = Moments::default();
        for _ in 0..n {
            d.add(toss(&mut rng, pa) - toss(&mut rng, pb));
        }
        let (_, p) = paired_difference(&d);
        resolved += u64::from(p < 0.05);
    }
    let power = resolved as f64 / REPEATS as f64;
    eprintln!(
        "{n} games a side resolved a difference of 0.1 in {:.1} %",
        100.0 * power
    );
    // 1,000 trials at 80 %: ±2.5 points at 95 %.
    assert!((0.76..=0.84).contains(&power), "power {power}");
}
