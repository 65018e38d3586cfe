//! The Festival: after placing a tile with the Festival place (a tile marker whose kind has
//! `rule = "festival"`), the player may deploy as usual, or return one of their own figures
//! (follower or windmill) from anywhere on the board to their supply without scoring, or do
//! neither. Never another player's figure, never the neutral donkey. The Festival place is not
//! a feature, so nothing can be deployed on it.

use crate::ids::PlacedId;
use crate::rules::Target;
use crate::state::{Event, Game, IllegalMove};
use crate::tables::Tables;

/// Which orientations carry a Festival place (`Orient::festival`), built once per `Setup`
/// (`ModuleTables`) and shared by its games.
#[derive(Debug)]
pub(crate) struct FestivalTables {
    /// Per orientation: whether a tile marker of it is a Festival place.
    places: Vec<bool>,
}

impl FestivalTables {
    /// The Festival places of the tables.
    pub(crate) fn new(tables: &Tables) -> FestivalTables {
        FestivalTables {
            places: tables.orients.iter().map(|o| o.festival).collect(),
        }
    }
}

/// Whether the tile just placed lets its player return a figure.
pub(crate) fn may_return(game: &Game<'_>, placed: PlacedId) -> bool {
    if !game.core.options.rules.modules.festival {
        return false;
    }
    let orient = game.core.board.placed[placed.index()].orient;
    (game.core.play.modules.festival.places)
        .get(orient.index())
        .copied()
        .unwrap_or(false)
}

/// Returns figure `figure` (index into `Game::figures`) of the current player to their supply.
pub(crate) fn return_figure(
    game: &mut Game<'_>,
    placed: PlacedId,
    figure: u16,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    if !may_return(game, placed) {
        return Err(IllegalMove::NotOffered(
            "a figure may be returned only after placing a Festival tile (with the festival rule on)"
                .into(),
        ));
    }
    let player = game.current();
    match game.core.figures.get(figure as usize) {
        Some(f) if f.owner == player => {}
        _ => return Err(IllegalMove::NoSuchFigure(figure)),
    }
    let fig = game.lift(figure as usize);
    // Its owner's figures beside it (a builder, a pig) go home with it.
    let lonely = game.return_lonely(fig);
    for fig in std::iter::once(fig).chain(lonely) {
        events.push(game.returned(&fig));
    }
    Ok(())
}

/// How many Festival returns the current player has: one per figure of theirs on the board,
/// after placing a Festival tile.
#[inline]
pub(crate) fn return_count(game: &Game<'_>, placed: PlacedId) -> usize {
    // Most tiles have no Festival place: asked first.
    if !may_return(game, placed) {
        return 0;
    }
    // Figures on the board are those out of the supply.
    let core = &game.core;
    let p = core.current as usize;
    let windmills = core.rules.modules.windmills;
    let mut out = usize::from(core.options.rules.followers.saturating_sub(core.supply[p]))
        + usize::from(windmills.saturating_sub(game.windmills().get(p).copied().unwrap_or(0)));
    if core.follower_kinds {
        let kinds = core.follower_counts.len();
        out += (core.follower_counts.iter().enumerate())
            .map(|(k, &n)| usize::from(n - core.follower_supply[p * kinds + k]))
            .sum::<usize>();
    }
    out
}

/// The `n`-th Festival return's figure, in the order of `Game::figures`.
pub(crate) fn nth_return(game: &Game<'_>, n: usize) -> Option<Target> {
    let (i, _) = (game.core.figures.iter().enumerate())
        .filter(|(_, f)| f.owner == game.core.current)
        .nth(n)?;
    Some(Target::Figure(i as u16))
}

#[cfg(test)]
mod tests {
    use super::FestivalTables;

    /// The Festival's table says what the tables say, for every orientation of the bundled
    /// sets, some of which have a Festival place.
    #[test]
    fn the_festival_table_agrees_with_the_tables() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let festival = FestivalTables::new(&tables);
        assert_eq!(festival.places.len(), tables.orients.len());
        for (i, o) in tables.orients.iter().enumerate() {
            assert_eq!(festival.places[i], o.festival);
        }
        assert!(festival.places.iter().any(|&p| p));
    }
}
