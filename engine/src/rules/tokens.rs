//! Tokens (Traders & Builders' goods, or any marker kind with a `token`): the player who
//! completes a feature takes one token per token-giving marker on it, whoever scores it; at the
//! end, for each good, the players with the most (at least one) each score its points. Markers
//! giving one good (`good`) count together, at the first such marker's place (`good_slot`).

use crate::ids::NodeId;
use crate::rules::ModuleEvent;
use crate::state::{Event, Game};
use crate::tables::Tables;

/// The id of the good marker kind `marker`'s token is: its token's id, else its own.
pub fn good(tables: &Tables, marker: usize) -> &str {
    (tables.markers.get(marker)).map_or("", |m| m.token_id.as_deref().unwrap_or(m.id.as_str()))
}

/// The first marker kind giving the same good as `marker`: where that good's tokens and
/// points are counted, so that markers sharing a good share one majority.
pub fn good_slot(tables: &Tables, marker: usize) -> usize {
    let good = good(tables, marker);
    (tables.markers.iter().enumerate())
        .position(|(k, m)| m.token.is_some() && self::good(tables, k) == good)
        .unwrap_or(marker)
}

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
        let slot = good_slot(tables, usize::from(k));
        tokens.held[usize::from(player) * kinds + slot] += count;
        events.push(Event::Module(ModuleEvent::Tokens {
            player,
            marker: good(tables, usize::from(k)).to_string(),
            count,
        }));
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
        if good_slot(tables, k) != k {
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
        events.push(Event::Module(ModuleEvent::TokenMajority {
            marker: good(tables, k).to_string(),
            players: winners,
            tokens: held,
            points,
        }));
    }
}
