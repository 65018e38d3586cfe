//! Sending a figure home (Princess & Dragon's princess, `removes` on a feature marker): after
//! placing a tile whose feature carries a marker with `removes`, when that feature (as the
//! placement joined it) holds figures, the player may instead of deploying send one of them
//! home to its owner without scoring: anyone's, a figure that claims the feature (JCZ's
//! `PrincessCapability` offers the city's followers, `City::getFollowers2`: not a builder or
//! pig, which go home with their owner's last claiming figure there, as JCZ's
//! `UndeployMeeple` does).

use std::sync::Arc;

use crate::ids::PlacedId;
use crate::rules::Target;
use crate::state::{Event, Game, IllegalMove};
use crate::tables::Tables;

/// Which features of each orientation carry a marker with `removes`.
#[derive(Clone, Debug)]
pub(crate) struct Princess {
    /// By orientation: bit `i` when its local feature `i` carries such a marker.
    marked: Arc<[u64]>,
}

impl Princess {
    /// The module, when a tile kind of the draw (`kinds`, by `KindId`) carries such a marker.
    pub(crate) fn of(tables: &Tables, kinds: &[bool]) -> Option<Princess> {
        let removes =
            |m: &u8| (tables.markers.get(usize::from(*m))).is_some_and(|m| m.removes.is_some());
        let marked: Arc<[u64]> = (tables.orients.iter())
            .map(|o| {
                (o.features.iter().enumerate())
                    .filter(|(_, f)| f.markers.iter().any(removes))
                    .fold(0u64, |mask, (i, _)| mask | 1 << i)
            })
            .collect();
        let in_draw = (tables.orients.iter().zip(marked.iter()))
            .any(|(o, &mask)| mask != 0 && kinds.get(usize::from(o.kind)) == Some(&true));
        in_draw.then_some(Princess { marked })
    }
}

/// The roots of the features with a `removes` marker on the tile just placed that hold
/// figures (at most 64, usually none: most tiles carry no such marker).
fn marked_roots(game: &Game<'_>, placed: PlacedId) -> Vec<crate::ids::NodeId> {
    let Some(princess) = &game.modules.princess else {
        return Vec::new();
    };
    let p = game.core.board.placed[placed.index()];
    let mut mask = princess.marked.get(p.orient.index()).copied().unwrap_or(0);
    let mut roots = Vec::new();
    while mask != 0 {
        let i = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        let root = game.core.find(p.node(i));
        if game.core.nodes[root.index()].followers > 0 && !roots.contains(&root) {
            roots.push(root);
        }
    }
    roots
}

/// The figures (indices into `Game::figures`) the current player may send home after placing
/// `placed`, in the order of `Game::figures`.
fn targets<'a>(game: &'a Game<'_>, placed: PlacedId) -> impl Iterator<Item = usize> + 'a {
    let roots = marked_roots(game, placed);
    (game.core.figures.iter().enumerate())
        .filter(move |(_, f)| {
            !roots.is_empty() && game.core.claims(f) && roots.contains(&game.core.find(f.node))
        })
        .map(|(i, _)| i)
}

/// How many figures the current player may send home after placing `placed`.
// Always inlined, its work out of line: a random playout asks every turn, and only inlined
// does the ask fold to one test in a game without the module.
#[inline(always)]
pub(crate) fn count(game: &Game<'_>, placed: PlacedId) -> usize {
    match &game.modules.princess {
        None => 0,
        Some(princess) => count_in_play(game, princess, placed),
    }
}

/// `count` when the module is in play: most tiles carry no such marker, asked first.
#[inline(never)]
fn count_in_play(game: &Game<'_>, princess: &Princess, placed: PlacedId) -> usize {
    let orient = game.core.board.placed[placed.index()].orient;
    if princess.marked.get(orient.index()).is_none_or(|&m| m == 0) {
        return 0;
    }
    targets(game, placed).count()
}

/// The `n`-th figure that may be sent home, in the order of `Game::figures`.
pub(crate) fn nth(game: &Game<'_>, placed: PlacedId, n: usize) -> Option<Target> {
    if count(game, placed) == 0 {
        return None;
    }
    let i = targets(game, placed).nth(n)?;
    Some(Target::Figure(i as u16))
}

/// Sends figure `figure` (index into `Game::figures`) home, with its owner's figures beside it
/// that claim nothing without it.
pub(crate) fn send_home(
    game: &mut Game<'_>,
    placed: PlacedId,
    figure: u16,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    if count(game, placed) == 0 {
        return Err(IllegalMove::NotOffered(
            "a figure may be sent home only after placing a tile whose marked feature (`removes`, the princess) extends a feature holding figures"
                .into(),
        ));
    }
    if !targets(game, placed).any(|i| i == usize::from(figure)) {
        return Err(IllegalMove::NotOffered(
            "that figure is not on the feature the tile's `removes` marker (the princess) extends"
                .into(),
        ));
    }
    // The move tells of itself by the `Returned` events (the figure's index means nothing
    // once it is off the board), each naming the figure's owner.
    let fig = game.lift(usize::from(figure));
    let lonely = game.return_lonely(fig);
    for fig in std::iter::once(fig).chain(lonely) {
        events.push(game.returned(&fig));
    }
    Ok(())
}
