//! The players: given a game, choose a move. One plain interface (`Player::choose`) for the
//! simulator and anything else that needs an opponent, over three strategies:
//! - `random`: the engine's fast playouts (`random`), uniform over placements, then over the
//!   kinds of second step;
//! - `greedy`: the best immediate value of each turn, from a documented estimate (`greedy`);
//! - `mcts:N`: UCT over the greedy's best turns with N short random playouts per move (10
//!   turns, then the greedy estimate), on copies whose undrawn tiles are shuffled (`mcts`).
//!
//! Every strategy plays every rule of the game (windmills, Festival returns, the donkey,
//! marketplaces) from the engine's legal moves, and is deterministic for the generator it is
//! given. A turn is two moves; greedy and MCTS choose the whole turn when asked to place and
//! keep the second step as their plan, unless the second step offers more than deploys and the
//! pass (then it is chosen anew, with every option tried on a copy).

pub mod greedy;
pub mod mcts;
pub mod random;

use crate::game::{ActionGroup, Event, Game, Move, Phase};
use crate::rng::Rng;
use crate::rules::{ActionId, Target};
use std::fmt;
use std::str::FromStr;

/// The playouts of `mcts` without a number.
pub const DEFAULT_PLAYOUTS: u32 = 500;
/// The most playouts per move `mcts:N` takes.
pub const MAX_PLAYOUTS: u32 = 1_000_000;

/// How a seat plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Uniformly random legal moves.
    Random,
    /// The best immediate value of each turn.
    Greedy,
    /// UCT with this many random playouts per move.
    Mcts {
        /// Playouts per move.
        playouts: u32,
    },
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Random => write!(f, "random"),
            Strategy::Greedy => write!(f, "greedy"),
            Strategy::Mcts { playouts } => write!(f, "mcts:{playouts}"),
        }
    }
}

impl FromStr for Strategy {
    type Err = String;

    /// `random`, `greedy`, `mcts` (500 playouts) or `mcts:N`.
    fn from_str(text: &str) -> Result<Strategy, String> {
        let text = text.trim();
        match text {
            "random" => return Ok(Strategy::Random),
            "greedy" => return Ok(Strategy::Greedy),
            "mcts" => {
                return Ok(Strategy::Mcts {
                    playouts: DEFAULT_PLAYOUTS,
                });
            }
            _ => {}
        }
        if let Some(n) = text.strip_prefix("mcts:") {
            return match n.parse::<u32>() {
                Ok(playouts) if (1..=MAX_PLAYOUTS).contains(&playouts) => {
                    Ok(Strategy::Mcts { playouts })
                }
                _ => Err(format!(
                    "`{text}`: the playouts of mcts:N are a number from 1 to {MAX_PLAYOUTS}"
                )),
            };
        }
        Err(format!(
            "unknown player `{text}` (players: random, greedy, mcts, mcts:N)"
        ))
    }
}

/// Parses a seat list: a number N (N random players) or one strategy per seat,
/// comma-separated (`greedy,mcts:500,random`).
pub fn parse_seats(text: &str, max: u8) -> Result<Vec<Strategy>, String> {
    let text = text.trim();
    if let Ok(n) = text.parse::<u64>() {
        return if (1..=u64::from(max)).contains(&n) {
            Ok(vec![Strategy::Random; n as usize])
        } else {
            Err(format!("{n} players: a game has 1 to {max}"))
        };
    }
    let seats = text
        .split(',')
        .map(Strategy::from_str)
        .collect::<Result<Vec<_>, _>>()?;
    if seats.len() > usize::from(max) {
        return Err(format!("{} players: a game has 1 to {max}", seats.len()));
    }
    Ok(seats)
}

/// A valued turn: a placement and its second step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The placement.
    pub place: Move,
    /// The second step (deploy, pass, …).
    pub action: Move,
    /// Its value to the player (greedy's estimate).
    pub value: f64,
}

/// Buffers a player reuses from move to move.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) moves: Vec<Move>,
    pub(crate) events: Vec<Event>,
    pub(crate) candidates: Vec<Candidate>,
    pub(crate) greedy: greedy::Board,
}

/// The second step a player chose with its placement.
#[derive(Clone, Copy, Debug)]
struct Plan {
    /// Tiles on the board once the planned placement is made.
    placed: usize,
    /// Where it goes.
    at: (i16, i16),
    /// The second step.
    action: Move,
}

/// A player of one seat: its strategy and its buffers.
#[derive(Debug)]
pub struct Player {
    strategy: Strategy,
    plan: Option<Plan>,
    scratch: Scratch,
}

impl Player {
    /// A player with a strategy.
    pub fn new(strategy: Strategy) -> Player {
        Player {
            strategy,
            plan: None,
            scratch: Scratch::default(),
        }
    }

    /// Its strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The move this player makes now (None when the game is over). Always a legal move.
    pub fn choose(&mut self, game: &Game<'_>, rng: &mut Rng) -> Option<Move> {
        if self.strategy == Strategy::Random {
            return random::choose_placement(game, rng)
                .or_else(|| random::choose_action(game, rng, &mut self.scratch.moves));
        }
        match game.phase() {
            Phase::Over => None,
            Phase::Place(_) => {
                let turn = match self.strategy {
                    Strategy::Mcts { playouts } => {
                        greedy::rank_turns(game, &mut self.scratch);
                        mcts::choose_turn(game, playouts, rng, &mut self.scratch)
                    }
                    _ => {
                        greedy::rank_turns(game, &mut self.scratch);
                        greedy::best(&self.scratch.candidates)
                    }
                };
                let turn = turn?;
                if let Move::Place { x, y, .. } = turn.place {
                    self.plan = Some(Plan {
                        placed: game.core.board.placed.len() + 1,
                        at: (x, y),
                        action: turn.action,
                    });
                }
                Some(turn.place)
            }
            Phase::Act(placed) => {
                let p = game.core.board.placed[placed.index()];
                let plan = self.plan.take().filter(|plan| {
                    plan.placed == game.core.board.placed.len() && plan.at == (p.x, p.y)
                });
                let more = (ActionGroup::ALL.into_iter())
                    .filter(|&g| !matches!(g, ActionGroup::Deploy | ActionGroup::Pass))
                    .any(|g| game.action_count(placed, g) > 0)
                    || game.deploys(placed).special() > 0;
                if let Some(plan) = plan
                    && !more
                {
                    return Some(plan.action);
                }
                let moves = second_steps(game, &mut self.scratch.moves);
                match self.strategy {
                    Strategy::Mcts { playouts } => {
                        greedy::rank_actions(game, &moves, &mut self.scratch);
                        mcts::choose_turn(game, playouts, rng, &mut self.scratch).map(|c| c.action)
                    }
                    _ => {
                        greedy::rank_actions(game, &moves, &mut self.scratch);
                        greedy::best(&self.scratch.candidates).map(|c| c.action)
                    }
                }
                .or(Some(Move::Pass))
            }
            Phase::Choose { .. } => {
                // A choice after the turn: each offered move tried on a copy, for the chooser.
                let mut moves = std::mem::take(&mut self.scratch.moves);
                game.legal_moves(&mut moves);
                greedy::rank_actions(game, &moves, &mut self.scratch);
                let first = moves.first().copied();
                self.scratch.moves = moves;
                match self.strategy {
                    Strategy::Mcts { playouts } => {
                        mcts::choose_turn(game, playouts, rng, &mut self.scratch)
                    }
                    _ => greedy::best(&self.scratch.candidates),
                }
                .map(|c| c.action)
                .or(first)
            }
        }
    }
}

/// The second-step moves worth trying: deploys, windmills, Festival returns, the pass, and the
/// donkey's moves to the tiles that hold figures (where moving it can block or free a feature;
/// the other tiles it may go to are worth no more than passing to the estimate).
fn second_steps(game: &Game<'_>, buf: &mut Vec<Move>) -> Vec<Move> {
    let Phase::Act(placed) = game.phase() else {
        return Vec::new();
    };
    buf.clear();
    game.legal_actions(placed, buf);
    let mut moves = buf.clone();
    if game.action_count(placed, ActionGroup::Module(ActionId::DONKEY)) > 0 {
        let mut tiles: Vec<crate::ids::PlacedId> = game
            .core
            .figures
            .iter()
            .map(|f| f.tile)
            .filter(|&t| Some(t) != game.donkey())
            .collect();
        tiles.sort_unstable();
        tiles.dedup();
        for t in tiles {
            let p = game.core.board.placed[t.index()];
            moves.push(Move::Action {
                action: ActionId::DONKEY,
                target: Target::At { x: p.x, y: p.y },
            });
        }
    }
    portal_steps(game, placed, &mut moves);
    moves
}

/// The portal's deploys worth trying: one per feature and figure (the first spot of each),
/// since a figure anywhere on a feature stands the same to the estimate.
fn portal_steps(game: &Game<'_>, placed: crate::ids::PlacedId, moves: &mut Vec<Move>) {
    if game.action_count(placed, ActionGroup::Module(ActionId::PORTAL)) == 0 {
        return;
    }
    // Listed once: each `nth` would walk the board again.
    let mut all = Vec::new();
    game.legal_moves(&mut all);
    let mut roots = Vec::new();
    for mv in all {
        let Move::Action {
            action: ActionId::PORTAL,
            target:
                Target::Deploy {
                    x,
                    y,
                    feature,
                    figure,
                },
        } = mv
        else {
            continue;
        };
        let cell = game.core.board.cell(i32::from(x), i32::from(y));
        let node = game.core.board.placed[cell.placed.index()].node(feature);
        let root = (game.core.find(node), figure);
        if !roots.contains(&root) {
            roots.push(root);
            moves.push(mv);
        }
    }
}
