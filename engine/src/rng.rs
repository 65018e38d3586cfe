//! A small, fast, seedable random number generator (PCG32, XSH RR), owned here so that a seed
//! means the same draw order in every build and on every platform.

/// PCG32: 64-bit state, 32-bit output.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

const MULTIPLIER: u64 = 6_364_136_223_846_793_005;
const INCREMENT: u64 = 1_442_695_040_888_963_407;

impl Rng {
    /// A generator for a seed.
    pub fn new(seed: u64) -> Rng {
        let mut rng = Rng { state: 0 };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(seed);
        rng.next_u32();
        rng
    }

    /// A generator for game `index` of a run seeded with `seed` (independent of thread order).
    pub fn for_game(seed: u64, index: u64) -> Rng {
        // SplitMix64 of the pair spreads neighbouring indices apart.
        let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng::new(z ^ (z >> 31))
    }

    /// The next 32 random bits.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        xorshifted.rotate_right((old >> 59) as u32)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        (u64::from(self.next_u32()) << 32) | u64::from(self.next_u32())
    }

    /// A number in `0..n` (multiply-shift; `n` must be positive).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        self.draw().below(n)
    }

    /// The draw `below` makes, taken before its bound is known: one number of the stream.
    #[inline]
    pub fn draw(&mut self) -> Draw {
        Draw(self.next_u32())
    }

    /// Shuffles a slice (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.shuffle_prefix(items, items.len());
    }

    /// Shuffles the first `k` places of a slice: they hold what the first `k` of a whole
    /// shuffle would (Fisher–Yates from the front fixes one place per step), so a draw cut to
    /// its first tiles shuffles only those.
    pub fn shuffle_prefix<T>(&mut self, items: &mut [T], k: usize) {
        let n = items.len();
        for i in 0..k.min(n.saturating_sub(1)) {
            let j = i + self.below(n - i);
            items.swap(i, j);
        }
    }
}

/// One number of the stream, to be scaled as `Rng::below` scales it once its bound is known.
#[derive(Clone, Copy, Debug)]
pub struct Draw(u32);

impl Draw {
    /// The number in `0..n` that `below(n)` would have drawn (`n` positive).
    #[inline]
    pub fn below(self, n: usize) -> usize {
        ((u64::from(self.0) * n as u64) >> 32) as usize
    }

    /// The largest `first` for which `below(first + rest)` falls among the last `rest`
    /// (`≥ first`): `u·(first + rest) ≥ first·2³²` is `first ≤ u·rest / (2³² − u)`. A caller
    /// choosing between `first` things and `rest` others need count the first only this far.
    #[inline]
    pub fn most_before(self, rest: usize) -> u64 {
        (u64::from(self.0) * rest as u64) / ((1u64 << 32) - u64::from(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Draw::below` is `Rng::below` on the same stream, and `most_before` is exactly the
    /// largest first part whose draw lands in the rest, for small and large bounds.
    #[test]
    fn a_draw_scaled_later_is_below_and_most_before_splits_it() {
        let (mut a, mut b) = (Rng::new(11), Rng::new(11));
        for i in 0..20_000usize {
            let rest = 1 + i % 5;
            let d = b.draw();
            let most = d.most_before(rest);
            for first in [0, 1, 2, 7, 60, 200, 5_000, 1 << 20] {
                let lands = d.below(first + rest) >= first;
                assert_eq!(
                    lands,
                    first as u64 <= most,
                    "draw {i}, first {first}, rest {rest}"
                );
            }
            assert_eq!(a.below(100 + rest), d.below(100 + rest), "draw {i}");
        }
    }

    #[test]
    fn same_seed_same_stream_and_bounds_hold() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let mut c = Rng::new(8);
        let xs: Vec<u32> = (0..8).map(|_| a.next_u32()).collect();
        let ys: Vec<u32> = (0..8).map(|_| b.next_u32()).collect();
        let zs: Vec<u32> = (0..8).map(|_| c.next_u32()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let v = a.below(5);
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn a_shuffled_prefix_is_the_whole_shuffles_prefix() {
        let whole = |seed| {
            let mut v: Vec<u32> = (0..50).collect();
            Rng::new(seed).shuffle(&mut v);
            v
        };
        for seed in 0..20 {
            for k in [0, 1, 7, 49, 50, 80] {
                let mut v: Vec<u32> = (0..50).collect();
                Rng::new(seed).shuffle_prefix(&mut v, k);
                let k = k.min(50);
                assert_eq!(v[..k], whole(seed)[..k], "seed {seed}, {k} places");
            }
        }
        let mut sorted = whole(3);
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>(), "a permutation");
    }
}
