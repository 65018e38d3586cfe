//! The set figures' powers that change a turn: `recall` (instead of deploying, a player takes
//! back a figure of theirs with it, and its feature scores at once as at the end, for them
//! alone: the abbot; a ranger from a forest)
//! and `extra-tile` (a tile its owner places that extends its feature gives them one more tile
//! at once, which never gives another: the builder). The third power, `bonus`, is paid at the
//! `scored` hook (`pay_bonuses`). Which figures of a game have which power is the core's
//! `Powers`, their masks; the extra tile's progress through a turn is this module's state.

use crate::ids::PlacedId;
use crate::rules::{ActionId, Bonus, BonusSource, Powered, Scoring, Target};
use crate::state::{Event, FigureKind, Game, IllegalMove};
use crate::tables::Power;

/// A figure's extra tile in a turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum ExtraTurn {
    /// None earned.
    #[default]
    None,
    /// The tile just placed earned one: the same player places the next tile.
    Earned,
    /// This is the extra tile: it earns no other.
    Taking,
}

/// The extra tile's state (`Modules::extra_tile`): in play when a figure of the game has the
/// power `extra-tile`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ExtraTile {
    /// Where the current turn is.
    pub(crate) turn: ExtraTurn,
}

/// How many figures with the power `recall` the current player may take back: theirs on the
/// board.
#[inline]
pub(crate) fn recall_count(game: &Game<'_>) -> usize {
    let core = &game.core;
    if core.powers.recall_kinds == 0 {
        return 0;
    }
    usize::from(core.on_board(core.current, core.powers.recall_kinds))
}

/// The `n`-th recall move's figure, in the order of `Game::figures`.
pub(crate) fn nth_recall(game: &Game<'_>, n: usize) -> Option<Target> {
    let figure = recallable(game).nth(n)?;
    Some(Target::Figure(figure as u16))
}

/// The current player's figures with the power `recall`, by index into `figures`.
fn recallable<'g>(game: &'g Game<'_>) -> impl Iterator<Item = usize> + 'g {
    let core = &game.core;
    let recall = core.powers.recall_kinds;
    (core.figures.iter().enumerate())
        .filter(move |(_, f)| {
            f.owner == core.current
                && f.kind == FigureKind::Follower
                && recall & f.figure.bit() != 0
        })
        .map(|(i, _)| i)
}

/// Takes back figure `figure` of the current player, of the power `recall`, and scores its
/// feature as the end would, for them alone: the other figures there stay (JCZ's abbot), and
/// their figures beside it (a builder, a pig) go home with it when it was their last claim.
pub(crate) fn recall(
    game: &mut Game<'_>,
    figure: u16,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    let i = usize::from(figure);
    if !recallable(game).any(|r| r == i) {
        return Err(IllegalMove::NoRecall(figure));
    }
    let fig = game.core.figures[i];
    let root = game.core.find_mut(fig.node);
    let recalls = &mut game.core.stats.recalls;
    if let Some(n) = fig.figure.set_index().and_then(|k| recalls.get_mut(k)) {
        *n += 1;
    }
    game.score_as(root, false, Some(i), events);
    for lonely in game.return_lonely(fig) {
        events.push(game.returned(&lonely));
    }
    Ok(())
}

/// The `placed` hook: whether the tile just placed extends a feature where the current player
/// has a figure of power `extra-tile`; then they earn one more tile.
pub(crate) fn earn_extra_tile(game: &mut Game<'_>, placed: PlacedId, events: &mut Vec<Event>) {
    let core = &game.core;
    if core.on_board(core.current, core.powers.extra_tile_kinds) == 0 {
        return;
    }
    let p = core.board.placed[placed.index()];
    let features = core.play_orient(placed).features;
    let builder = core.figures.iter().find(|f| {
        f.owner == core.current
            && f.kind == FigureKind::Follower
            && core.powers.extra_tile_kinds & f.figure.bit() != 0
            && {
                let root = core.find(f.node);
                (0..features).any(|i| core.find(p.node(i)) == root)
            }
    });
    if let Some(f) = builder.filter(|f| core.set_figure(f).is_some()) {
        events.push(Event::Action {
            player: core.current,
            action: ActionId::EXTRA_TILE,
            target: Target::Kind(f.figure),
        });
        if let Some(extra) = &mut game.modules.extra_tile {
            extra.turn = ExtraTurn::Earned;
        }
        game.core.stats.extra_tiles += 1;
    }
}

/// The `scored` hook's part of the powers: what the figures taken off a scored feature pay
/// (`Scoring::powered`): a bonus its owner adds when among
/// the winners, at its rates times the feature's `(tiles, emblems, bordered)`; a recall's
/// points, counted.
pub(crate) fn pay_bonuses(game: &mut Game<'_>, s: &Scoring<'_>) -> Vec<Bonus> {
    let (tiles, emblems, bordered) = s.counted;
    let mut bonuses: Vec<Bonus> = Vec::new();
    let mut paid_for: Vec<(u8, usize)> = Vec::new();
    for &Powered {
        owner, figure: k, ..
    } in s.powered
    {
        let info = &game.core.tables.followers[k];
        match info.power {
            // A player's bonus of one figure counts once per feature, however many of those
            // figures they have on it (JCZ's pigs, `Field::getCityPoints`: "do not stack").
            Some(Power::Bonus(_)) if paid_for.contains(&(owner, k)) => {}
            Some(Power::Bonus(rates)) if s.winners.contains(&owner) => {
                paid_for.push((owner, k));
                let counted = [(rates.tile, tiles), (rates.emblem, emblems)];
                let counted = (counted.into_iter().chain([(rates.bordered, bordered)]))
                    .filter(|&(rate, _)| rate > 0)
                    .map(|(_, n)| n)
                    .sum();
                let paid = rates.tile * tiles + rates.emblem * emblems + rates.bordered * bordered;
                game.core.scores[usize::from(owner)] += paid;
                game.core.stats.figure_points[k] += u64::from(paid);
                bonuses.push(Bonus {
                    player: owner,
                    points: paid,
                    source: BonusSource::Figure {
                        figure: info.id.clone(),
                        counted,
                    },
                });
            }
            Some(Power::Recall) if s.winners.contains(&owner) => {
                game.core.stats.figure_points[k] += u64::from(s.points);
            }
            _ => {}
        }
    }
    bonuses
}
