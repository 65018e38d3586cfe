//! The random player, and the engine's fast playouts built on it: uniform over the placements
//! of the drawn tile (sampled, never listed), then a kind of second-step
//! move uniformly — deploy, a rule module's move (`ActionGroup::ALL`), pass — then uniformly
//! within it.

use crate::game::{ActionGroup, Event, Game, Move, Phase};
use crate::ids::PlacedId;
use crate::rng::Rng;
use crate::rules::{self, ActionId};
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

/// A random second-step move: a group of moves uniformly among those with a move (deploy a
/// follower, a rule module's move, pass: `ActionGroup::ALL`),
/// then uniformly within it, so the donkey's many targets do not swamp the other choices; in a
/// game with no grouped group (`Game::has_grouped_actions`), uniformly over all the moves.
/// None when the game is over.
pub fn choose_action(game: &Game<'_>, rng: &mut Rng, moves: &mut Vec<Move>) -> Option<Move> {
    let placed = match game.phase() {
        Phase::Act(placed) => placed,
        Phase::Choose { action, placed, .. } => return choice(game, placed, action, rng),
        _ => {
            game.legal_moves(moves);
            return (!moves.is_empty()).then(|| moves[rng.below(moves.len())]);
        }
    };
    moves.clear();
    if !game.has_grouped_actions() {
        return flat_action(game, placed, rng);
    }
    // Only the chosen group counted, and only the chosen move made: most of the list would be
    // thrown away, and a group's count can walk the board (the portal's).
    // Written out group by group: each ask folds to its module's one test, where a map over
    // the groups was compiled as a loop matching each group at run time (200 to 330 more
    // instructions a placed tile in the seven sets).
    let has: [bool; ActionGroup::ALL.len()] = [
        has_group(game, placed, 0),
        has_group(game, placed, 1),
        has_group(game, placed, 2),
        has_group(game, placed, 3),
        has_group(game, placed, 4),
        has_group(game, placed, 5),
        has_group(game, placed, 6),
        has_group(game, placed, 7),
        has_group(game, placed, 8),
        has_group(game, placed, 9),
    ];
    let groups = has.iter().filter(|&&h| h).count();
    let chosen = (0..has.len()).filter(|&g| has[g]).nth(rng.below(groups))?;
    match ActionGroup::ALL[chosen] {
        ActionGroup::Deploy => {
            // The n-th of `legal_deploys`, without listing them.
            let deploy = game.deploys(placed);
            game.nth_deploy_of(placed, &deploy, rng.below(deploy.count()))
        }
        group => game.nth_action(placed, group, rng.below(game.action_count(placed, group))),
    }
}

/// A random move of the choice asked in `Phase::Choose`: uniformly over its moves, then the
/// pass when it may be declined (the draw `legal_moves`' list gives), counted: only the chosen
/// one is made. None when there is none.
// Not listed: a dragon's movement asks a choice at each of its steps, and listing them was a
// fortieth of a Princess & Dragon playout.
fn choice(game: &Game<'_>, placed: PlacedId, action: ActionId, rng: &mut Rng) -> Option<Move> {
    let moves = game.module_action_count(placed, action);
    let count = moves + usize::from(game.choice_declinable(action));
    if count == 0 {
        return None;
    }
    let n = rng.below(count);
    if n < moves {
        game.nth_module_action(placed, action, n)
    } else {
        Some(Move::Pass)
    }
}

/// Whether group `g` of `ActionGroup::ALL` has a move (`Game::has_action`).
#[inline(always)]
fn has_group(game: &Game<'_>, placed: PlacedId, g: usize) -> bool {
    game.has_action(placed, ActionGroup::ALL[g])
}

/// A second-step move uniformly over all of them (deploys, the modules' moves listed before
/// the pass, the pass: a game without grouped groups), counted: only the chosen one is made.
#[inline]
fn flat_action(game: &Game<'_>, placed: PlacedId, rng: &mut Rng) -> Option<Move> {
    let deploy = game.deploys(placed);
    let deploys = deploy.count();
    let counts = rules::FLAT.map(|action| game.module_action_count(placed, action));
    let mut n = rng.below(deploys + counts.iter().sum::<usize>() + 1);
    if n < deploys {
        return game.nth_deploy_of(placed, &deploy, n);
    }
    n -= deploys;
    for (action, count) in rules::FLAT.into_iter().zip(counts) {
        if n < count {
            return game.nth_module_action(placed, action, n);
        }
        n -= count;
    }
    Some(Move::Pass)
}

/// Plays a random game of `sets` for each seed (`choose_placement`, else `choose_action`),
/// calling `look` before every move: the walk the rule modules' unit tests check their
/// invariants along.
#[cfg(test)]
pub(crate) fn each_random_position(
    tables: &crate::tables::Tables,
    sets: &[String],
    seeds: std::ops::Range<u64>,
    mut look: impl FnMut(&Game<'_>),
) {
    for seed in seeds {
        let options = crate::game::GameOptions {
            sets: sets.to_vec(),
            ..crate::game::GameOptions::seeded(2, seed)
        };
        let mut game = Game::new(tables, options, &mut Vec::new()).expect("valid options");
        let (mut rng, mut moves, mut events) = (Rng::new(seed), Vec::new(), Vec::new());
        while game.phase() != Phase::Over {
            look(&game);
            let mv = match choose_placement(&game, &mut rng) {
                Some(mv) => mv,
                None => choose_action(&game, &mut rng, &mut moves).expect("a move"),
            };
            game.apply(mv, &mut events).expect("a chosen move is legal");
        }
    }
}
