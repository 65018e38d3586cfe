//! The MCTS player: UCT (UCB1) over the greedy's best turns, each judged by short random
//! playouts.
//!
//! The arms are the `K` best candidates of the greedy's ranking (`K` = playouts / 100, 2 to 8),
//! one per turn up to the follower kind (a deploy's best kind only: with Inns & Cathedrals'
//! large follower, twins that differ only in the follower took arms and MCTS won 44 % against
//! greedy, over 2 × 200 games of `base,river,inns-and-cathedrals,traders-and-builders`),
//! so the playouts go to moves worth comparing (12 arms for 500 playouts left each arm's mean
//! too noisy: 51.2 % against greedy over 1,000 games, against 59.9 % with 5). Each playout plays
//! on a copy of the game whose undrawn tiles are shuffled anew (a player knows the bag's
//! contents, not its order), makes the arm's moves, then plays `HORIZON` (10) turns of every
//! side at random with the engine's fast playouts; the position it reaches is judged by the
//! greedy estimate of each player's standing (`greedy::standings`; the final scores when the
//! game ended first). Its reward is `1 / (1 + e^(−d / 10))`, `d` the player's standing minus
//! the best other's, so margins count and not only wins. The chosen move is the arm with the
//! best mean reward. (Playing on to the end at random was measured too: random play judges a
//! position so poorly that MCTS then only matched greedy, 50.2 % over 1,000 games with 12
//! arms, at 5× the time.) Everything random comes from the generator passed in: a seed gives
//! the same moves.

use super::{Candidate, Scratch, greedy, random};
use crate::game::{Game, Move, Phase};
use crate::rng::Rng;
use crate::rules::Target;

/// Random turns a playout plays before the greedy estimate judges the position.
const HORIZON: u32 = 10;

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
    let placing = matches!(game.phase(), Phase::Place(_));
    // One arm per turn up to the follower kind (the best kind of each deploy, on the tile or
    // through a portal): arms that differ only in which follower goes down would split the
    // playouts between near twins.
    let twin = |a: &Candidate, b: &Candidate| {
        a.place == b.place
            && match (a.action, b.action) {
                (Move::Deploy { feature: f, .. }, Move::Deploy { feature: g, .. }) => f == g,
                (
                    Move::Action {
                        action: a,
                        target: Target::Deploy { x, y, feature, .. },
                    },
                    Move::Action {
                        action: b,
                        target:
                            Target::Deploy {
                                x: u,
                                y: v,
                                feature: g,
                                ..
                            },
                    },
                ) => a == b && (x, y, feature) == (u, v, g),
                (x, y) => x == y,
            }
    };
    let mut kept = 0;
    for i in 0..scratch.candidates.len() {
        let c = scratch.candidates[i];
        if !scratch.candidates[..kept].iter().any(|k| twin(k, &c)) {
            scratch.candidates[kept] = c;
            kept += 1;
        }
    }
    scratch.candidates.truncate(kept);
    let arms = (playouts as usize / 100)
        .clamp(2, 8)
        .min(scratch.candidates.len());
    if arms <= 1 {
        return scratch.candidates.first().copied();
    }
    let me = game.to_move() as usize;
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
        // A place-step move that places nothing (declining a reserve tile) has no second step.
        let made = (!placing || copy.apply(c.place, &mut scratch.events).is_ok())
            && ((placing && !matches!(copy.phase(), Phase::Act(_)))
                || copy.apply(c.action, &mut scratch.events).is_ok())
            && play_ahead(&mut copy, rng, scratch);
        let reward = if !made {
            0.0
        } else if copy.phase() == Phase::Over {
            reward(&copy.core.scores, me)
        } else {
            let standing = greedy::standings(&copy, &mut scratch.greedy);
            margin(&standing[..copy.options().players as usize], me)
        };
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

/// Plays `HORIZON` random turns on (or to the end); false if the engine refused a move.
fn play_ahead(game: &mut Game<'_>, rng: &mut Rng, scratch: &mut Scratch) -> bool {
    let mut turns = 0;
    while turns < HORIZON {
        if let Some(mv) = random::choose_placement(game, rng) {
            if game.apply(mv, &mut scratch.events).is_err() {
                return false;
            }
            turns += 1;
            continue;
        }
        let Some(mv) = random::choose_action(game, rng, &mut scratch.moves) else {
            return true;
        };
        if game.apply(mv, &mut scratch.events).is_err() {
            return false;
        }
    }
    // Finish the second step of the last turn and its choices, so its scoring counts.
    while let Phase::Act(_) | Phase::Choose { .. } = game.phase()
        && let Some(mv) = random::choose_action(game, rng, &mut scratch.moves)
    {
        if game.apply(mv, &mut scratch.events).is_err() {
            return false;
        }
    }
    true
}

/// A playout's reward to `me` from final scores.
fn reward(scores: &[u32], me: usize) -> f64 {
    let scores: Vec<f64> = scores.iter().map(|&s| f64::from(s)).collect();
    margin(&scores, me)
}

/// The logistic of `me`'s margin over the best other player.
fn margin(values: &[f64], me: usize) -> f64 {
    let best_other = values
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != me)
        .map(|(_, &s)| s)
        .fold(f64::NEG_INFINITY, f64::max);
    let d = if best_other.is_finite() {
        values[me] - best_other
    } else {
        values[me]
    };
    1.0 / (1.0 + (-d / 10.0).exp())
}
