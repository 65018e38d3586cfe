//! The statistics behind every figure of a report: running sums that games are added to one at
//! a time (so a report over a million games holds sums, never the games), and the intervals and
//! tests drawn from them. All intervals are 95 %.
//!
//! - A mean over games (a seat's score): the normal interval, mean ± 1.96 · s / √n.
//! - A proportion (a seat's win rate, shared wins split): the Wilson score interval. A split
//!   win makes a game's value a fraction, whose variance is at most the Bernoulli variance
//!   p (1 − p) Wilson assumes, so the interval is, if anything, wide.
//! - A ratio of sums over games (a tile's points per placement: points of its copies in a game
//!   over its copies in that game, summed over games): the delta-method interval with the game
//!   as the unit, so copies of a tile in one game, which are not independent, are not counted
//!   as independent observations.
//! - A difference between two runs (A/B) whose bags differ (`--compare SETS`, another tile
//!   count, `--b-sets`): the normal interval of the difference of two independent estimates,
//!   √(se_A² + se_B²). The runs play the same seeds, but game i does not draw the same tiles
//!   on both sides, so little of the seed's luck is shared; what correlation is left is
//!   positive and makes this interval wider, never narrower.
//! - A difference between two runs with the same bag (a rule option, a figure count, a file
//!   version that keeps the tiles; `paired::same_draw` says which): game i draws the same tiles
//!   on both sides, so the games are paired and the interval is that of the mean of the
//!   per-game differences, d̄ ± 1.96 · s_d / √n. The luck of the draw cancels out of each
//!   difference, so s_d is far below √(s_A² + s_B²) (`paired_difference`). Per-tile ratios
//!   keep the unpaired interval even then (pairing them would need the cross sums of four
//!   per-game totals; the game-level figures are the ones a change is judged by).
//! - How many games would resolve a difference that is not significant: for a two-sided 5 %
//!   test with 80 % power, n ≈ (z₀.₉₇₅ + z₀.₈)² · σ² / δ² games a side, where σ² is the
//!   variance of one game's difference (paired) or the sum of both sides' per-game variances
//!   (unpaired), read off the interval as se² · n, and δ the size to resolve
//!   (`games_needed`). Holm's correction over many figures asks for somewhat more.
//! - Many differences at once: a difference is called significant only after Holm's step-down
//!   correction over all differences of the comparison (family-wise error ≤ 5 %), so among 100
//!   tile figures the five that a plain 95 % interval would flag by chance are not.

use serde::Serialize;

/// The normal quantile of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The normal quantile of 80 % power (one-sided).
pub const Z80: f64 = 0.841_621_233_572_914_3;

/// The family-wise error rate of a comparison.
pub const ALPHA: f64 = 0.05;

/// Running sums of one value per game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moments {
    /// Games.
    pub n: u64,
    /// Sum of the values.
    pub sum: f64,
    /// Sum of their squares.
    pub sq: f64,
}

impl Moments {
    /// Adds one game's value.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sq += x * x;
    }

    /// Adds the sums of later games.
    pub fn merge(&mut self, o: &Moments) {
        self.n += o.n;
        self.sum += o.sum;
        self.sq += o.sq;
    }

    /// The mean (0 without games).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum / self.n as f64
        }
    }

    /// The sample variance (0 below two games).
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        ((self.sq - self.sum * self.sum / n) / (n - 1.0)).max(0.0)
    }

    /// The mean with its standard error.
    pub fn estimate(&self) -> Estimate {
        Estimate::new(self.mean(), (self.variance() / self.n.max(1) as f64).sqrt())
    }
}

/// Running sums of a ratio of two per-game totals: `x` (say, points of a tile's copies) over
/// `m` (its copies), per game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ratio {
    /// Games.
    pub n: u64,
    /// Sum of x.
    pub x: f64,
    /// Sum of m.
    pub m: f64,
    /// Sum of x².
    pub xx: f64,
    /// Sum of m².
    pub mm: f64,
    /// Sum of x · m.
    pub xm: f64,
}

impl Ratio {
    /// Adds one game's totals (games where `m` is 0 count too: they hold the unit's weight).
    pub fn add(&mut self, x: f64, m: f64) {
        self.n += 1;
        self.x += x;
        self.m += m;
        self.xx += x * x;
        self.mm += m * m;
        self.xm += x * m;
    }

    /// Adds the sums of later games.
    pub fn merge(&mut self, o: &Ratio) {
        self.n += o.n;
        self.x += o.x;
        self.m += o.m;
        self.xx += o.xx;
        self.mm += o.mm;
        self.xm += o.xm;
    }

    /// Σx / Σm (0 when Σm is 0).
    pub fn value(&self) -> f64 {
        if self.m == 0.0 { 0.0 } else { self.x / self.m }
    }

    /// The ratio with its delta-method standard error, the game as the unit:
    /// Var(R) ≈ Σ (x − R m)² / (Σm)² · n / (n − 1).
    pub fn estimate(&self) -> Estimate {
        let r = self.value();
        if self.n < 2 || self.m == 0.0 {
            return Estimate::new(r, 0.0);
        }
        let resid = (self.xx - 2.0 * r * self.xm + r * r * self.mm).max(0.0);
        let n = self.n as f64;
        Estimate::new(r, (resid * n / (n - 1.0)).sqrt() / self.m)
    }
}

/// A figure with its standard error and 95 % interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Estimate {
    /// The figure.
    pub value: f64,
    /// Its standard error.
    pub se: f64,
    /// Lower end of the 95 % interval.
    pub lo: f64,
    /// Upper end of the 95 % interval.
    pub hi: f64,
}

impl Estimate {
    /// A figure with the normal interval of its standard error.
    pub fn new(value: f64, se: f64) -> Estimate {
        Estimate {
            value,
            se,
            lo: value - Z95 * se,
            hi: value + Z95 * se,
        }
    }
}

/// A proportion (`share` of `n` trials) with the Wilson score interval.
pub fn wilson(share: f64, n: u64) -> Estimate {
    if n == 0 {
        return Estimate::default();
    }
    let n = n as f64;
    let p = share / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).max(0.0).sqrt();
    Estimate {
        value: p,
        se: (p * (1.0 - p) / n).max(0.0).sqrt(),
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    }
}

/// The difference a − b of two independent estimates, with its two-sided p-value under "no
/// difference".
pub fn difference(a: &Estimate, b: &Estimate) -> (Estimate, f64) {
    let d = a.value - b.value;
    let se = (a.se * a.se + b.se * b.se).sqrt();
    (Estimate::new(d, se), p_value(d, se))
}

/// The mean of paired per-game differences (`d` holds a_i − b_i of game i on both sides),
/// with its two-sided p-value under "no difference".
pub fn paired_difference(d: &Moments) -> (Estimate, f64) {
    let e = d.estimate();
    (e, p_value(e.value, e.se))
}

/// The two-sided p-value of a normal estimate `d` with standard error `se` under "zero".
fn p_value(d: f64, se: f64) -> f64 {
    if se > 0.0 {
        2.0 * normal_upper_tail((d / se).abs())
    } else if d == 0.0 {
        1.0
    } else {
        0.0
    }
}

/// Games a side for a difference of `size` to be significant (two-sided 5 %) with 80 % power,
/// given the standard error `se` of a difference measured over `games` games a side: the
/// variance of one game's difference is se² · games. None when `size` is 0 or no variance was
/// seen (no number of games is then the answer).
pub fn games_needed(se: f64, games: u64, size: f64) -> Option<u64> {
    let var = se * se * games as f64;
    if size == 0.0 || var <= 0.0 || !size.is_finite() {
        return None;
    }
    let n = (Z95 + Z80).powi(2) * var / (size * size);
    // Beyond u64 is "never" in any run tilekit can play.
    (n < 1e18).then(|| n.ceil().max(2.0) as u64)
}

/// P(Z > z) for a standard normal Z: erfc by the Numerical Recipes Chebyshev fit (relative
/// error below 1.2e-7, far finer than any decision made from it).
pub fn normal_upper_tail(z: f64) -> f64 {
    let x = z / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    let erfc = if x >= 0.0 { erfc } else { 2.0 - erfc };
    erfc / 2.0
}

/// Holm's step-down adjusted p-values (same order as `p`): a hypothesis is rejected at family
/// error `ALPHA` when its adjusted p-value is at most `ALPHA`.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut adjusted = vec![1.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_give_the_sample_mean_and_variance() {
        let mut m = Moments::default();
        for x in [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] {
            m.add(x);
        }
        assert_eq!(m.mean(), 5.0);
        assert!((m.variance() - 32.0 / 7.0).abs() < 1e-12);
    }

    #[test]
    fn a_ratio_with_one_copy_per_game_is_a_mean() {
        let (mut r, mut m) = (Ratio::default(), Moments::default());
        for x in [1.0, 3.0, 8.0, 0.0] {
            r.add(x, 1.0);
            m.add(x);
        }
        let (a, b) = (r.estimate(), m.estimate());
        assert!((a.value - b.value).abs() < 1e-12 && (a.se - b.se).abs() < 1e-12);
    }

    #[test]
    fn wilson_matches_a_published_value() {
        // Newcombe (1998), "Two-sided confidence intervals for the single proportion", 81/263.
        let e = wilson(81.0, 263);
        assert!((e.lo - 0.2553).abs() < 5e-4, "{e:?}");
        assert!((e.hi - 0.3662).abs() < 5e-4, "{e:?}");
    }

    #[test]
    fn the_normal_tail_is_right_at_known_points() {
        assert!((normal_upper_tail(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_upper_tail(Z95) - 0.025).abs() < 1e-7);
        assert!((normal_upper_tail(-1.0) - 0.841_344_746).abs() < 1e-7);
    }

    #[test]
    fn holm_adjusts_step_down() {
        let adj = holm(&[0.01, 0.04, 0.03, 0.005]);
        // Sorted: 0.005×4 = 0.02, 0.01×3 = 0.03, 0.03×2 = 0.06, 0.04×1 = 0.04 → max so far 0.06.
        assert_eq!(adj, vec![0.03, 0.06, 0.06, 0.02]);
    }
}
