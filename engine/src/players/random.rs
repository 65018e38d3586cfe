//! The random player, and the engine's fast playouts built on it: uniform over the placements
//! of the drawn tile (sampled, never listed), then a kind of second-step
//! move uniformly — deploy, windmill, Festival return, pass, donkey — then uniformly within it.

use crate::game::{Event, Game, Move, Phase};
use crate::rng::Rng;
use crate::simulate::SimError;

/// A uniformly random placement of the drawn tile (None outside the place phase).
#[inline]
pub fn choose_placement(game: &Game<'_>, rng: &mut Rng) -> Option<Move> {
    game.sample_placement(rng)
}

/// Plays a game on to its end with random moves; `events` collects every event.
pub fn play_out(
    game: &mut Game<'_>,
    rng: &mut Rng,
    moves: &mut Vec<Move>,
    events: &mut Vec<Event>,
) -> Result<(), SimError> {
    loop {
        if let Some(mv) = choose_placement(game, rng) {
            game.apply(mv, events).map_err(SimError::Refused)?;
            continue;
        }
        let Some(mv) = choose_action(game, rng, moves) else {
            return Ok(());
        };
        game.apply(mv, events).map_err(SimError::Refused)?;
    }
}

/// A random second-step move: a kind of action uniformly among those available (deploy a
/// follower, place a windmill, return a figure, move the donkey, pass), then uniformly within
/// it, so the donkey's many targets do not swamp the other choices. None when the game is over.
pub fn choose_action(game: &Game<'_>, rng: &mut Rng, moves: &mut Vec<Move>) -> Option<Move> {
    let Phase::Act(placed) = game.phase() else {
        game.legal_moves(moves);
        return (!moves.is_empty()).then(|| moves[rng.below(moves.len())]);
    };
    moves.clear();
    let donkey = game.donkey_targets();
    // Fast path of the base game: deploys and pass only.
    if donkey == 0 && game.rules().windmills == 0 {
        // As `legal_actions` lists them (deploys, Festival returns, pass), counted: only the
        // chosen one is made.
        let deploy = game.deploys(placed);
        let deploys = deploy.count();
        let returns = game.return_count(placed);
        let n = rng.below(deploys + returns + 1);
        return if n < deploys {
            deploy.nth(n)
        } else if n - deploys < returns {
            game.nth_return(n - deploys)
        } else {
            Some(Move::Pass)
        };
    }
    // Counted, and only the chosen move made: most of the list would be thrown away. (Deploys
    // are listed only when chosen; until then it is enough to know there is one.)
    // Whether a deploy exists is enough until one is chosen.
    let count = [
        usize::from(game.can_deploy(placed)),
        game.windmill_count(placed),
        game.return_count(placed),
        1,
        donkey,
    ];
    let kinds = count.iter().filter(|&&n| n > 0).count();
    let chosen = (0..5).filter(|&g| count[g] > 0).nth(rng.below(kinds))?;
    if chosen == 0 {
        // The n-th of `legal_deploys`, without listing them.
        let deploy = game.deploys(placed);
        return deploy.nth(rng.below(deploy.count()));
    }
    let pick = rng.below(count[chosen]);
    match chosen {
        1 => game.nth_windmill(placed, pick),
        2 => game.nth_return(pick),
        3 => Some(Move::Pass),
        _ => game.nth_donkey(pick),
    }
}
