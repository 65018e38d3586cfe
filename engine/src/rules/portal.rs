//! Deploying anywhere (Princess & Dragon's magic portal, `deploy = "anywhere"` on a tile
//! marker): after placing a tile carrying such a marker, the player may instead of deploying
//! on it put a base follower on a feature of any other placed tile that a follower may claim,
//! that holds no follower and that is not completed, this turn's completions included (JCZ's
//! `AbstractActionPhase::prepareMeepleActions` lists every placed tile's open features and
//! allows a completed one only on the tile just placed). So a follower deployed this way never
//! stands on a feature the turn scores.

use std::sync::Arc;

use crate::board::Placed;
use crate::ids::{FigureId, NodeId, PlacedId};
use crate::rules::{ActionId, Target};
use crate::state::{Event, Figure, FigureKind, Game, IllegalMove};
use crate::tables::Tables;

/// Which orientations carry a tile marker with `deploy`.
#[derive(Clone, Debug)]
pub(crate) struct Portal {
    /// By orientation: whether its tile carries such a marker.
    marked: Arc<[bool]>,
}

impl Portal {
    /// The module, when a tile kind of the draw (`kinds`, by `KindId`) carries such a marker.
    pub(crate) fn of(tables: &Tables, kinds: &[bool]) -> Option<Portal> {
        let deploys =
            |m: &u8| (tables.markers.get(usize::from(*m))).is_some_and(|m| m.deploy.is_some());
        let kind_marked: Vec<bool> = (tables.kinds.iter())
            .map(|k| k.markers.iter().any(deploys))
            .collect();
        let in_draw = (kind_marked.iter().zip(kinds)).any(|(&m, &used)| m && used);
        let marked = (tables.orients.iter())
            .map(|o| kind_marked.get(usize::from(o.kind)) == Some(&true))
            .collect();
        in_draw.then_some(Portal { marked })
    }
}

/// Whether the current player may deploy through a portal after placing `placed`: the tile
/// carries one and they have a base follower left.
#[inline]
fn open(game: &Game<'_>, placed: PlacedId) -> bool {
    let Some(portal) = &game.modules.portal else {
        return false;
    };
    let orient = game.core.board.placed[placed.index()].orient;
    portal.marked.get(orient.index()) == Some(&true)
        && game.core.supply[usize::from(game.current())] > 0
}

/// Whether a follower may go on local feature `i` of the placed tile `q`: a kind it may
/// claim, no follower on its feature, and not completed (closed, or a site whose range is
/// all placed).
fn free(game: &Game<'_>, q: Placed, i: u8) -> bool {
    let node = q.node(i);
    let kind = game.core.nodes[node.index()].kind;
    if !game.core.play.claimable(kind) {
        return false;
    }
    let root: NodeId = game.core.find(node);
    let n = game.core.nodes[root.index()];
    if n.followers > 0 || n.done || (game.core.closes(kind) && n.open == 0) {
        return false;
    }
    if game.core.play.is_site(kind) {
        let range = game.core.tables.feature(kind).site_range();
        return game
            .core
            .board
            .placed_in(i32::from(q.x), i32::from(q.y), range)
            < range.tiles();
    }
    true
}

/// The features a follower may go on through the portal after placing `placed`, as targets,
/// tile by tile in the order they were placed.
fn spots<'a>(game: &'a Game<'_>, placed: PlacedId) -> impl Iterator<Item = Target> + 'a {
    let tiles = game.core.board.placed.iter().enumerate();
    tiles
        .filter(move |&(t, _)| t != placed.index())
        .flat_map(move |(_, &q)| {
            let features = game.core.tables.orient(q.orient).features.len() as u8;
            (0..features)
                .filter(move |&i| free(game, q, i))
                .map(move |feature| Target::Spot {
                    x: q.x,
                    y: q.y,
                    feature,
                })
        })
}

/// How many features the current player may deploy on through a portal after placing
/// `placed` (0 unless the tile carries one).
// Always inlined, its work out of line: a random playout asks every turn, and only inlined
// does the ask fold to one test in a game without the module.
#[inline(always)]
pub(crate) fn count(game: &Game<'_>, placed: PlacedId) -> usize {
    if game.modules.portal.is_none() {
        return 0;
    }
    count_in_play(game, placed)
}

/// `count` when the module is in play.
#[inline(never)]
fn count_in_play(game: &Game<'_>, placed: PlacedId) -> usize {
    if !open(game, placed) {
        return 0;
    }
    spots(game, placed).count()
}

/// The `n`-th feature a follower may go on through the portal, in the order of `spots`.
pub(crate) fn nth(game: &Game<'_>, placed: PlacedId, n: usize) -> Option<Target> {
    if !open(game, placed) {
        return None;
    }
    spots(game, placed).nth(n)
}

/// Deploys a base follower of the current player on local feature `feature` of the tile at
/// `(x, y)`, through the portal of the tile just placed.
pub(crate) fn deploy(
    game: &mut Game<'_>,
    placed: PlacedId,
    (x, y, feature): (i16, i16, u8),
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    let player = game.current();
    if !open(game, placed) {
        return Err(IllegalMove::NotOffered(format!(
            "a follower may be deployed on another tile only after placing a tile with a portal (`deploy = \"anywhere\"`), with a follower left (player {})",
            player + 1
        )));
    }
    let cell = game.core.board.cell(i32::from(x), i32::from(y));
    if cell.placed == PlacedId::NONE {
        return Err(IllegalMove::NotOffered(format!("no tile at ({x}, {y})")));
    }
    if cell.placed == placed {
        return Err(IllegalMove::NotOffered(
            "the portal deploys on another tile: on the tile just placed, deploy as usual".into(),
        ));
    }
    let q = game.core.board.placed[cell.placed.index()];
    let o = game.core.tables.orient(q.orient);
    let Some(f) = o.features.get(usize::from(feature)) else {
        return Err(IllegalMove::NoFeature {
            tile: game.core.tables.kind(crate::ids::KindId(o.kind)).id.clone(),
            feature: feature.to_string(),
        });
    };
    if !free(game, q, feature) {
        return Err(IllegalMove::NotOffered(format!(
            "the {} at ({x}, {y}) is taken, completed or not for a follower",
            game.core.tables.feature(f.kind).id
        )));
    }
    let node = q.node(feature);
    let root = game.core.find_mut(node);
    let core = &mut game.core;
    core.supply[usize::from(player)] -= 1;
    core.nodes[root.index()].followers += 1;
    if core.play.is_site(f.kind) {
        core.site_followers += 1;
    }
    core.figures.push(Figure {
        kind: FigureKind::Follower,
        owner: player,
        node,
        tile: cell.placed,
        figure: FigureId::FOLLOWER,
    });
    if let Some(n) = core.stats.deployed.get_mut(FigureId::FOLLOWER.index()) {
        *n += 1;
    }
    events.push(Event::Action {
        player,
        action: ActionId::PORTAL,
        target: Target::Spot { x, y, feature },
    });
    Ok(())
}
