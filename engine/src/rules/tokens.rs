//! Tokens (Traders & Builders' goods, or any marker kind with a `token`): the player who
//! completes a feature takes one token per token-giving marker on it, whoever scores it; at the
//! end, for each good, the players with the most (at least one) each score its points. Markers
//! giving one good (`Tables::good`) count together, at the first such marker's place
//! (`Tables::good_slot`).

use crate::ids::NodeId;
use crate::state::{Event, Game};

/// The tokens' state: how many each player holds of each marker kind.
#[derive(Clone, Debug)]
pub(crate) struct Tokens {
    /// Tokens by player and marker kind (`player × markers + kind`), a good's at its slot.
    pub(crate) held: Vec<u32>,
}

impl Tokens {
    /// No tokens for `players` players of `markers` marker kinds.
    pub(crate) fn new(players: usize, markers: usize) -> Tokens {
        Tokens {
            held: vec![0; players * markers],
        }
    }
}

/// Gives the current player one token per token-giving marker on the feature `root`, just
/// completed (whoever scores it, and even if nobody does).
pub(crate) fn award(game: &mut Game<'_>, root: NodeId, events: &mut Vec<Event>) {
    game.walk(root);
    let tables = game.core.tables;
    let mut got = game.ring_marker_counts(|k| tables.markers[usize::from(k)].token.is_some());
    got.sort_unstable();
    let player = game.core.current;
    let kinds = tables.markers.len();
    let Some(tokens) = game.modules.tokens.as_mut() else {
        return;
    };
    for (k, count) in got {
        let slot = tables.good_slot(usize::from(k));
        tokens.held[usize::from(player) * kinds + slot] += count;
        events.push(Event::Tokens {
            player,
            marker: tables.good(usize::from(k)).to_string(),
            count,
        });
    }
}

/// The final token scoring: for each good, the players with the most (at least one)
/// each score its points.
pub(crate) fn score_majorities(game: &mut Game<'_>, events: &mut Vec<Event>) {
    let Some(tokens) = game.modules.tokens.as_ref() else {
        return;
    };
    let tables = game.core.tables;
    let kinds = tables.markers.len();
    let players = game.core.options.players as usize;
    let mut majorities = Vec::new();
    for (k, marker) in tables.markers.iter().enumerate() {
        let Some(points) = marker.token else {
            continue;
        };
        if tables.good_slot(k) != k {
            continue;
        }
        let held: Vec<u32> = (0..players).map(|p| tokens.held[p * kinds + k]).collect();
        let best = held.iter().copied().max().unwrap_or(0);
        if best > 0 {
            majorities.push((k, points, held, best));
        }
    }
    for (k, points, held, best) in majorities {
        let winners: Vec<u8> = (0..players as u8)
            .filter(|&p| held[usize::from(p)] == best)
            .collect();
        for &p in &winners {
            game.core.scores[usize::from(p)] += points;
            game.core.stats.good_points[k] += u64::from(points);
        }
        events.push(Event::TokenMajority {
            marker: tables.good(k).to_string(),
            players: winners,
            tokens: held,
            points,
        });
    }
}
