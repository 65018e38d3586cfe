//! The MCTS player: UCT (UCB1) over the greedy's best turns, each judged by random playouts to
//! the end of the game.
//!
//! The arms are the `K` best candidates of the greedy's ranking (`K` = playouts / 40, 2 to 16),
//! so the playouts go to moves worth comparing. Each playout plays on a copy of the game whose
//! undrawn tiles are shuffled anew (a player knows the bag's contents, not its order), makes
//! the arm's moves, then plays both sides at random with the engine's fast playouts
//! (`random::play_out`) to the final scoring. Its reward is `1 / (1 + e^(−d / 10))`, `d` the
//! player's final score minus the best other score, so margins count and not only wins. The
//! chosen move is the arm with the best mean reward. Everything random comes from the
//! generator passed in: a seed gives the same moves.

use super::{Candidate, Scratch, random};
use crate::game::{Game, Phase};
use crate::rng::Rng;

/// UCB1's exploration constant (rewards lie in 0–1 and differ by a few hundredths).
const EXPLORE: f64 = 0.35;

/// Picks one of `scratch.candidates` by UCT with `playouts` playouts.
pub(crate) fn choose_turn(
    game: &Game<'_>,
    playouts: u32,
    rng: &mut Rng,
    scratch: &mut Scratch,
) -> Option<Candidate> {
    // Best first; a stable sort keeps the legal moves' order among equals (deterministic).
    scratch
        .candidates
        .sort_by(|a, b| b.value.total_cmp(&a.value));
    let arms = (playouts as usize / 40)
        .clamp(2, 16)
        .min(scratch.candidates.len());
    if arms <= 1 {
        return scratch.candidates.first().copied();
    }
    let placing = matches!(game.phase(), Phase::Place(_));
    let me = game.current() as usize;
    let mut visits = vec![0u32; arms];
    let mut total = vec![0.0f64; arms];
    for t in 0..playouts as usize {
        let arm = if t < arms {
            t
        } else {
            let ln = (t as f64).ln();
            (0..arms)
                .max_by(|&a, &b| {
                    let ucb = |i: usize| {
                        total[i] / f64::from(visits[i])
                            + EXPLORE * (ln / f64::from(visits[i])).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b)).then(b.cmp(&a))
                })
                .unwrap_or(0)
        };
        let c = scratch.candidates[arm];
        let mut copy = game.clone();
        copy.shuffle_undrawn(rng);
        scratch.events.clear();
        let made = (!placing || copy.apply(c.place, &mut scratch.events).is_ok())
            && copy.apply(c.action, &mut scratch.events).is_ok()
            && random::play_out(&mut copy, rng, &mut scratch.moves, &mut scratch.events).is_ok();
        let reward = if made { reward(&copy.scores, me) } else { 0.0 };
        visits[arm] += 1;
        total[arm] += reward;
    }
    let best = (0..arms)
        .max_by(|&a, &b| {
            let mean = |i: usize| total[i] / f64::from(visits[i].max(1));
            mean(a).total_cmp(&mean(b)).then(b.cmp(&a))
        })
        .unwrap_or(0);
    Some(scratch.candidates[best])
}

/// A playout's reward to `me`: the logistic of their margin over the best other player.
fn reward(scores: &[u32], me: usize) -> f64 {
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != me)
        .map(|(_, &s)| s)
        .max()
        .unwrap_or(0);
    let d = f64::from(scores[me]) - f64::from(best_other);
    1.0 / (1.0 + (-d / 10.0).exp())
}
