//! Creatures (`[[creature]]`, Princess & Dragon's dragon and fairy): neutral figures, one of
//! each in a game of their set, nobody's. What each does is its compiled `CreatureRule`:
//!
//! - `arrives`: placing a tile with that marker moves it there (the `placed` hook);
//! - `no_deploy`: no figure may be deployed on its tile (`deploy_forbidden`);
//! - `moves`, `eats`, `avoids`: after a tile with the `moves` marker, it moves tile by tile,
//!   eating the figures it `eats` on each tile it enters, never onto a tile it entered in that
//!   movement nor onto an avoided creature's tile;
//! - `guards`: instead of deploying, a player may move it beside one of their followers (the
//!   `FAIRY` move); the follower's owner scores `turn` at the start of each of their turns
//!   (the `turn_started` hook, as JCZ's `FairyPhase` does before the tile is drawn) and
//!   `scored` when the follower's feature is scored (the `scored` hook). It stays on its tile
//!   when the follower leaves.

use crate::ids::PlacedId;
use crate::rules::{ActionId, Scoring, Target};
use crate::scoring::FigureBonus;
use crate::state::{Event, Figure, FigureKind, Game, IllegalMove};
use crate::tables::Tables;

/// The creatures of a game: where each stands and whom a guard stands beside.
#[derive(Clone, Debug)]
pub(crate) struct Creatures {
    /// Bit `c` when `Tables::creatures[c]` is in this game.
    pub(crate) in_play: u32,
    /// Bit `c` for the creatures in play with `no_deploy`.
    pub(crate) no_deploy: u32,
    /// The first guarding creature in play (the one the `FAIRY` move moves).
    pub(crate) guard: Option<usize>,
    /// Where each creature stands (`PlacedId::NONE`: not on the board), by `Tables::creatures`.
    pub(crate) at: Vec<PlacedId>,
    /// The follower the guard stands beside (None: nobody, or no guard).
    pub(crate) beside: Option<Figure>,
}

impl Creatures {
    /// The creatures of the sets `sets` (the game's, by id), off the board; None when the game
    /// has none.
    pub(crate) fn new(tables: &Tables, sets: &[String]) -> Option<Creatures> {
        let in_play = (tables.creatures.iter().enumerate())
            .filter(|(_, c)| {
                (tables.sets.get(usize::from(c.set))).is_some_and(|id| sets.contains(id))
            })
            .fold(0u32, |m, (c, _)| m | 1 << c);
        if in_play == 0 {
            return None;
        }
        let creatures = &tables.creatures;
        let no_deploy = (0..creatures.len())
            .filter(|&c| creatures[c].no_deploy)
            .fold(0, |m, c| m | 1 << c)
            & in_play;
        let guard =
            (0..creatures.len()).find(|&c| in_play >> c & 1 != 0 && creatures[c].guards.is_some());
        Some(Creatures {
            in_play,
            no_deploy,
            guard,
            at: vec![PlacedId::NONE; creatures.len()],
            beside: None,
        })
    }

    /// Whether a creature barring deploys stands on `placed`.
    #[inline]
    pub(crate) fn forbids(&self, placed: PlacedId) -> bool {
        let mut bits = self.no_deploy;
        while bits != 0 {
            let c = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.at[c] == placed {
                return true;
            }
        }
        false
    }

    /// The creature barring deploys on `placed`, for the message.
    pub(crate) fn forbidding(&self, tables: &Tables, placed: PlacedId) -> Option<String> {
        (0..self.at.len())
            .find(|&c| self.no_deploy >> c & 1 != 0 && self.at[c] == placed)
            .map(|c| tables.creatures[c].name.clone())
    }

    /// Whether a guard stands beside a follower (the `scored` hook then has work).
    #[inline]
    pub(crate) fn guarding(&self) -> bool {
        self.beside.is_some()
    }
}

/// The `placed` hook: each creature in play whose `arrives` marker the tile carries moves onto
/// it.
pub(crate) fn arrive(game: &mut Game<'_>, placed: PlacedId, events: &mut Vec<Event>) {
    let tables = game.core.tables;
    let kind = game.core.kind_of(placed);
    let markers = &tables.kind(kind).markers;
    let p = game.core.board.placed[placed.index()];
    let player = game.core.current;
    for (c, rule) in tables.creatures.iter().enumerate() {
        let Some(creatures) = game.modules.creatures.as_mut() else {
            return;
        };
        if creatures.in_play >> c & 1 != 0 && rule.arrives.is_some_and(|m| markers.contains(&m)) {
            creatures.at[c] = placed;
            add_stats(game, ActionId::ARRIVES, (c, 0));
            events.push(Event::Action {
                player,
                action: ActionId::ARRIVES,
                target: Target::At { x: p.x, y: p.y },
            });
        }
    }
}

/// Whether the current player's figure `fig` is a follower a guard may stand beside: a figure
/// that claims (not the builder or pig beside its owner's), and not the one it stands beside.
fn guardable(game: &Game<'_>, creatures: &Creatures, fig: &Figure) -> bool {
    fig.owner == game.core.current
        && fig.kind == FigureKind::Follower
        && game.core.claims(fig)
        && creatures.beside != Some(*fig)
}

/// How many `FAIRY` moves the current player has: one per follower of theirs on the board the
/// guard may stand beside.
pub(crate) fn guard_count(game: &Game<'_>) -> usize {
    let Some(creatures) = &game.modules.creatures else {
        return 0;
    };
    if creatures.guard.is_none() {
        return 0;
    }
    (game.core.figures.iter())
        .filter(|f| guardable(game, creatures, f))
        .count()
}

/// The `n`-th `FAIRY` move, in the order of the figures.
pub(crate) fn nth_guard(game: &Game<'_>, n: usize) -> Option<Target> {
    let creatures = game.modules.creatures.as_ref()?;
    creatures.guard?;
    let (i, _) = (game.core.figures.iter().enumerate())
        .filter(|(_, f)| guardable(game, creatures, f))
        .nth(n)?;
    Some(Target::Figure(i as u16))
}

/// Moves the guard beside the current player's follower `figure` (index into `figures`).
pub(crate) fn move_guard(
    game: &mut Game<'_>,
    figure: u16,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    let Some(creatures) = &game.modules.creatures else {
        return Err(IllegalMove::NotOffered(
            "no creature of this game guards a follower".into(),
        ));
    };
    let Some(c) = creatures.guard else {
        return Err(IllegalMove::NotOffered(
            "no creature of this game guards a follower".into(),
        ));
    };
    let Some(&fig) = game.core.figures.get(usize::from(figure)) else {
        return Err(IllegalMove::NoSuchFigure(figure));
    };
    if !guardable(game, creatures, &fig) {
        let name = &game.core.tables.creatures[c].name;
        return Err(IllegalMove::NotOffered(format!(
            "the {name} may stand only beside a follower of player {} that it is not beside yet (figure {figure})",
            game.core.current + 1
        )));
    }
    let player = game.core.current;
    if let Some(creatures) = game.modules.creatures.as_mut() {
        creatures.at[c] = fig.tile;
        creatures.beside = Some(fig);
    }
    add_stats(game, ActionId::FAIRY, (c, 0));
    events.push(Event::Action {
        player,
        action: ActionId::FAIRY,
        target: Target::Figure(figure),
    });
    Ok(())
}

/// The `turn_started` hook: the guard pays its `turn` points to the current player when it
/// stands beside their follower.
pub(crate) fn turn_started(game: &mut Game<'_>, events: &mut Vec<Event>) {
    let Some(creatures) = &game.modules.creatures else {
        return;
    };
    let (Some(c), Some(fig)) = (creatures.guard, creatures.beside) else {
        return;
    };
    let player = game.core.current;
    let Some((turn, _)) = game.core.tables.creatures[c].guards else {
        return;
    };
    if fig.owner != player || turn == 0 {
        return;
    }
    let Some(i) = game.core.figures.iter().position(|f| *f == fig) else {
        return;
    };
    game.core.scores[usize::from(player)] += turn;
    add_stats(game, ActionId::GUARD_PAID, (c, turn));
    events.push(Event::Action {
        player,
        action: ActionId::GUARD_PAID,
        target: Target::Figure(i as u16),
    });
}

/// The `scored` hook: when the follower the guard stands beside left with the feature just
/// scored, its owner scores the guard's `scored` points (whoever won the feature, as JCZ's
/// `FairyCapability.appendFiguresBonusPoints` pays), and the guard stays beside nobody.
pub(crate) fn pay_scored(game: &mut Game<'_>, s: &Scoring<'_>) -> Option<FigureBonus> {
    let creatures = game.modules.creatures.as_ref()?;
    let (c, fig) = (creatures.guard?, creatures.beside?);
    if game.core.find(fig.node) != s.root || game.core.figures.contains(&fig) {
        return None;
    }
    let rule = &game.core.tables.creatures[c];
    let points = rule.guards.map_or(0, |(_, scored)| scored);
    let id = rule.id.clone();
    if let Some(creatures) = game.modules.creatures.as_mut() {
        creatures.beside = None;
    }
    game.core.scores[usize::from(fig.owner)] += points;
    add_stats(game, ActionId::GUARD_PAID, (c, points));
    Some(FigureBonus {
        player: fig.owner,
        figure: id,
        counted: 1,
        points,
    })
}

/// The `end_turn` hook: a guard whose follower left the board otherwise (eaten, returned)
/// stands beside nobody from now on.
pub(crate) fn forget_gone(game: &mut Game<'_>) {
    let figures = &game.core.figures;
    if let Some(creatures) = game.modules.creatures.as_mut()
        && let Some(fig) = creatures.beside
        && !figures.contains(&fig)
    {
        creatures.beside = None;
    }
}

/// Counts an action in the game's statistics, and what creature `c` paid by it.
pub(crate) fn add_stats(game: &mut Game<'_>, action: ActionId, (c, points): (usize, u32)) {
    let stats = &mut game.core.stats;
    let a = action.index();
    if stats.actions.len() <= a {
        stats.actions.resize(a + 1, 0);
    }
    stats.actions[a] += 1;
    if points > 0 {
        if stats.creature_points.len() <= c {
            stats.creature_points.resize(c + 1, 0);
        }
        stats.creature_points[c] += u64::from(points);
    }
}
