//! Deploying anywhere (Princess & Dragon's magic portal, `deploy = "anywhere"` on a tile
//! marker): after placing a tile carrying such a marker, the player may instead of deploying
//! on it put a figure from their supply on a feature of any other placed tile that the figure
//! may stand on (a base follower: a kind a follower may claim; a set figure: its `on`), that
//! holds no follower and that is not completed, this turn's completions included (JCZ's
//! `AbstractActionPhase::prepareMeepleActions` lists every placed tile's open features for
//! each meeple in supply and allows a completed one only on the tile just placed). So a figure
//! deployed this way never stands on a feature the turn scores. A figure that goes beside its
//! owner's (`beside = "own"`: the builder, the pig) stays on the tile just placed, as JCZ's
//! `Special` meeples do: it needs its owner's claim there.

use std::sync::Arc;

use crate::board::Placed;
use crate::ids::{FeatureKindId, FigureId, NodeId, PlacedId};
use crate::rules::{ActionId, Target};
use crate::state::{Event, Figure, FigureKind, Game, IllegalMove};
use crate::tables::FollowerInfo;
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

/// The figures the current player may send through a portal, in the order their moves are
/// listed: the base follower when they have one left, then each set figure they hold that
/// claims its feature (not one going beside its owner's).
fn senders<'a>(game: &'a Game<'_>) -> impl Iterator<Item = FigureId> + 'a {
    let core = &game.core;
    let p = usize::from(game.current());
    let kinds = core.follower_counts.len();
    let base = (core.supply[p] > 0).then_some(FigureId::FOLLOWER);
    let set = (0..kinds)
        .filter(move |&k| {
            core.follower_supply[p * kinds + k] > 0
                && core.tables.followers.get(k).is_some_and(|f| !f.beside_own)
        })
        .map(FigureId::set);
    base.into_iter().chain(set)
}

/// Whether the tile `placed` carries a portal.
#[inline]
fn marked(game: &Game<'_>, placed: PlacedId) -> bool {
    let Some(portal) = &game.modules.portal else {
        return false;
    };
    let orient = game.core.board.placed[placed.index()].orient;
    portal.marked.get(orient.index()) == Some(&true)
}

/// The set figure `figure` is, None for the base follower.
fn set_figure<'t>(game: &Game<'t>, figure: FigureId) -> Option<&'t FollowerInfo> {
    let tables: &'t Tables = game.core.tables;
    figure.set_index().and_then(|k| tables.followers.get(k))
}

/// The feature kinds `figure` may stand on, bit `k` for kind `k`: a base follower's are the
/// kinds a follower may claim, a set figure's its `on`.
fn stands_on(game: &Game<'_>, figure: FigureId) -> u32 {
    match set_figure(game, figure) {
        None => game.core.play.claimable,
        Some(f) => f.on,
    }
}

/// Whether `figure` may go on local feature `i` of the placed tile `q`: a kind it may stand
/// on, and open to any figure (`open_kind`).
fn free(game: &Game<'_>, q: Placed, i: u8, figure: FigureId) -> bool {
    let kind = game.core.nodes[q.node(i).index()].kind;
    stands_on(game, figure) & kind.bit() != 0 && open_kind(game, q, i).is_some()
}

/// The kind of local feature `i` of the placed tile `q` when a figure standing on that kind
/// may go there: no follower on its feature, not completed (closed, or a site whose range is
/// all placed), and no module refusing a follower there (a barn's field, as a deploy's).
fn open_kind(game: &Game<'_>, q: Placed, i: u8) -> Option<FeatureKindId> {
    let node = q.node(i);
    let kind = game.core.nodes[node.index()].kind;
    let root: NodeId = game.core.find(node);
    let n = game.core.nodes[root.index()];
    if n.followers > 0 || n.done || (game.core.closes(kind) && n.open == 0) {
        return None;
    }
    if game.modules.barns.is_some() && refused(game, root) {
        return None;
    }
    if game.core.play.is_site(kind) {
        let range = game.core.tables.feature(kind).site_range();
        let placed = (game.core.board).placed_in(i32::from(q.x), i32::from(q.y), range);
        return (placed < range.tiles()).then_some(kind);
    }
    Some(kind)
}

/// Whether the deploy filter refuses a follower at `root` (a barn's field), out of line: only
/// a game with barns asks.
#[inline(never)]
fn refused(game: &Game<'_>, root: NodeId) -> bool {
    game.modules.filters_deploys() && game.deploy_refused(root)
}

/// Whether the portal of `placed` may send a figure to the placed tile `t`: another tile, and
/// not one barred to deploys (the dragon's: JCZ's `isMeepleDeploymentAllowed` of every
/// capability, asked of each tile `AbstractActionPhase` lists).
#[inline]
fn reaches(game: &Game<'_>, placed: PlacedId, t: usize) -> bool {
    t != placed.index() && !game.modules.deploy_forbidden(PlacedId(t as u16))
}

/// How many open features (`open_kind`) of the placed tiles other than `placed` each feature
/// kind has, by kind index: one walk of the board serves every figure's count.
fn open_by_kind(game: &Game<'_>, placed: PlacedId) -> [u32; 32] {
    let mut open = [0; 32];
    for (t, &q) in game.core.board.placed.iter().enumerate() {
        if !reaches(game, placed, t) {
            continue;
        }
        let features = game.core.tables.orient(q.orient).features.len() as u8;
        for i in 0..features {
            if let Some(kind) = open_kind(game, q, i) {
                open[usize::from(kind.0) % 32] += 1;
            }
        }
    }
    open
}

/// How many of `open` (`open_by_kind`) `figure` may go on.
fn count_of(game: &Game<'_>, figure: FigureId, open: &[u32; 32]) -> usize {
    let mut kinds = stands_on(game, figure);
    let mut n = 0;
    while kinds != 0 {
        n += open[kinds.trailing_zeros() as usize] as usize;
        kinds &= kinds - 1;
    }
    n
}

/// The features `figure` may go on through the portal after placing `placed`, as targets,
/// tile by tile in the order they were placed: the list `count` and `nth` are tested against.
#[cfg(test)]
fn spots_of<'a>(
    game: &'a Game<'_>,
    placed: PlacedId,
    figure: FigureId,
) -> impl Iterator<Item = Target> + 'a {
    let tiles = game.core.board.placed.iter().enumerate();
    tiles
        .filter(move |&(t, _)| reaches(game, placed, t))
        .flat_map(move |(_, &q)| {
            let features = game.core.tables.orient(q.orient).features.len() as u8;
            (0..features)
                .filter(move |&i| free(game, q, i, figure))
                .map(move |feature| Target::Deploy {
                    x: q.x,
                    y: q.y,
                    feature,
                    figure,
                })
        })
}

/// How many features the current player may deploy on through a portal after placing
/// `placed`, each figure counted apart (0 unless the tile carries one).
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
    if !marked(game, placed) {
        return 0;
    }
    let open = open_by_kind(game, placed);
    senders(game)
        .map(|figure| count_of(game, figure, &open))
        .sum()
}

/// Whether the current player may deploy through a portal after placing `placed` (`count`
/// above 0): the walk stops at the first open feature a figure they hold may go on.
#[inline(always)]
pub(crate) fn any(game: &Game<'_>, placed: PlacedId) -> bool {
    // The tile's mark tested here, inline: asked every turn, most tiles carry no portal.
    marked(game, placed) && any_in_play(game, placed)
}

/// `any` after a tile with a portal.
#[inline(never)]
fn any_in_play(game: &Game<'_>, placed: PlacedId) -> bool {
    let kinds = senders(game).fold(0, |kinds, figure| kinds | stands_on(game, figure));
    let tiles = game.core.board.placed.iter().enumerate();
    kinds != 0
        && tiles
            .filter(|&(t, _)| reaches(game, placed, t))
            .any(|(_, &q)| {
                let features = game.core.tables.orient(q.orient).features.len() as u8;
                (0..features).any(|i| {
                    let kind = game.core.nodes[q.node(i).index()].kind;
                    kinds & kind.bit() != 0 && open_kind(game, q, i).is_some()
                })
            })
}

/// The `n`-th move through the portal: figure by figure (`senders`), each figure's features
/// in the order of `spots_of` (walked only as far as the `n`-th: no count first).
// Plain loops, not `spots_of`'s adapters: a random portal move walks most of the board, and
// the flattened iterators' closures cost more than the tests they ran.
pub(crate) fn nth(game: &Game<'_>, placed: PlacedId, mut n: usize) -> Option<Target> {
    if !marked(game, placed) {
        return None;
    }
    for figure in senders(game) {
        let kinds = stands_on(game, figure);
        for (t, &q) in game.core.board.placed.iter().enumerate() {
            if !reaches(game, placed, t) {
                continue;
            }
            let features = game.core.tables.orient(q.orient).features.len() as u8;
            for feature in 0..features {
                let kind = game.core.nodes[q.node(feature).index()].kind;
                if kinds & kind.bit() == 0 || open_kind(game, q, feature).is_none() {
                    continue;
                }
                if n == 0 {
                    return Some(Target::Deploy {
                        x: q.x,
                        y: q.y,
                        feature,
                        figure,
                    });
                }
                n -= 1;
            }
        }
    }
    None
}

/// Why the current player may not send `figure` through the portal of `placed` (None: they
/// may, onto a feature `free` allows): no portal, a figure that needs its owner's claim, or
/// none of it left.
fn sender_fault(game: &Game<'_>, placed: PlacedId, figure: FigureId) -> Option<IllegalMove> {
    let player = game.current();
    if !marked(game, placed) {
        return Some(IllegalMove::NotOffered(
            "a figure may be deployed on another tile only after placing a tile with a portal (`deploy = \"anywhere\"`)".into(),
        ));
    }
    let info = set_figure(game, figure);
    if let Some(f) = info.filter(|f| f.beside_own) {
        return Some(IllegalMove::NotOffered(format!(
            "a {} goes only beside its owner's figure on the tile just placed: it may not go through the portal",
            f.name.to_lowercase()
        )));
    }
    if senders(game).any(|s| s == figure) {
        return None;
    }
    Some(match info {
        None => IllegalMove::NoFollower(player + 1),
        Some(f) => IllegalMove::NotOffered(format!(
            "player {} has no {} left",
            player + 1,
            f.name.to_lowercase()
        )),
    })
}

/// Deploys `figure` of the current player on local feature `feature` of the tile at
/// `(x, y)`, through the portal of the tile just placed.
pub(crate) fn deploy(
    game: &mut Game<'_>,
    placed: PlacedId,
    (x, y, feature): (i16, i16, u8),
    figure: FigureId,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    let player = game.current();
    if let Some(fault) = sender_fault(game, placed, figure) {
        return Err(fault);
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
    if let Some(fault) = game.modules.deploy_fault(game.core.tables, cell.placed) {
        return Err(fault);
    }
    let q = game.core.board.placed[cell.placed.index()];
    let o = game.core.tables.orient(q.orient);
    let Some(f) = o.features.get(usize::from(feature)) else {
        return Err(IllegalMove::NoFeature {
            tile: game.core.tables.kind(crate::ids::KindId(o.kind)).id.clone(),
            feature: feature.to_string(),
        });
    };
    let kind = &game.core.tables.feature(f.kind).id;
    if let Some(info) = set_figure(game, figure).filter(|i| !i.stands_on(f.kind)) {
        return Err(IllegalMove::FigureNotOn {
            figure: info.name.clone(),
            kind: kind.clone(),
        });
    }
    if game.modules.filters_deploys()
        && let Some(fault) = game.deploy_fault(game.core.find(q.node(feature)))
    {
        return Err(fault);
    }
    if !free(game, q, feature, figure) {
        return Err(IllegalMove::NotOffered(format!(
            "the {kind} at ({x}, {y}) is taken, completed or not for a follower"
        )));
    }
    let node = q.node(feature);
    let root = game.core.find_mut(node);
    let core = &mut game.core;
    match figure.set_index() {
        None => core.supply[usize::from(player)] -= 1,
        Some(k) => {
            let kinds = core.follower_counts.len();
            core.follower_supply[usize::from(player) * kinds + k] -= 1;
        }
    }
    core.nodes[root.index()].followers += 1;
    if core.play.is_site(f.kind) {
        core.site_followers += 1;
    }
    core.figures.push(Figure {
        kind: FigureKind::Follower,
        owner: player,
        node,
        tile: cell.placed,
        figure,
    });
    if let Some(n) = core.stats.deployed.get_mut(figure.index()) {
        *n += 1;
    }
    events.push(Event::Action {
        player,
        action: ActionId::PORTAL,
        target: Target::Deploy {
            x,
            y,
            feature,
            figure,
        },
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{count, nth, senders, spots_of};
    use crate::game::Phase;
    use crate::players::random::each_random_position;

    /// The portal's count (one walk of the board for every figure) and its `n`-th move are
    /// those of listing every figure's spots in turn, at each portal turn of random games of
    /// every bundled set (barns, set figures and sites among them).
    #[test]
    fn the_count_and_the_nth_move_are_the_listed_spots() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let mut portal_turns = 0;
        each_random_position(&tables, &tables.sets, 0..8, |game| {
            let Phase::Act(placed) = game.phase() else {
                return;
            };
            if count(game, placed) == 0 {
                return;
            }
            let listed: Vec<_> = senders(game)
                .flat_map(|figure| spots_of(game, placed, figure))
                .collect();
            assert_eq!(count(game, placed), listed.len());
            for (n, &target) in listed.iter().enumerate() {
                assert_eq!(nth(game, placed, n), Some(target));
            }
            assert_eq!(nth(game, placed, listed.len()), None);
            portal_turns += 1;
        });
        assert!(portal_turns > 5, "only {portal_turns} portal turns");
    }
}
