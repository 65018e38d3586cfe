//! The barn (Abbey & Mayor), and any figure a set places at a corner (`[[figure]]` with
//! `at = "corner"`, `Tables::corner_figures`): instead of deploying, a player puts theirs at a
//! corner of the tile just placed where four placed tiles meet and the four quarters there
//! are one region of the figure's kind that holds no such figure yet. It claims nothing and
//! never goes home. It pays its three rates (`CornerInfo`): `arrival`, to the majority of the
//! followers on its region, scored at the end of that turn (after the turn's completions, as
//! JCZ's `ScoringPhase` does), who go home; `join`, to the followers a later tile joins to its
//! region, who go home (no follower may be deployed on its region, so followers found there
//! at the end of a turn came by a join: each figure's region root is looked at in `end_turn`);
//! `end`, to its owner at the end, once per owner and region.

use crate::ids::{NodeId, PlacedId};
use crate::rules::{ActionId, Target};
use crate::scoring::CornerPaid;
use crate::state::{Core, Event, Game, IllegalMove};
use crate::tables::NO_FEATURE;

/// The corners of a tile as `Target::Corner` numbers them, clockwise from the north-west.
pub const CORNER_NAMES: [&str; 4] = ["NW", "NE", "SE", "SW"];

/// Per corner of a tile: the four tiles that meet there, as the offset from that tile and
/// the corner of each that touches it (the tile itself first).
const MEETING: [[(i32, i32, u8); 4]; 4] = [
    [(0, 0, 0), (-1, 0, 1), (-1, -1, 2), (0, -1, 3)],
    [(0, 0, 1), (1, 0, 0), (1, -1, 3), (0, -1, 2)],
    [(0, 0, 2), (1, 0, 3), (1, 1, 0), (0, 1, 1)],
    [(0, 0, 3), (-1, 0, 2), (-1, 1, 1), (0, 1, 0)],
];

/// The figures at corners of a game: the one kind it plays, each player's supply, those placed.
#[derive(Clone, Debug)]
pub(crate) struct Barns {
    /// Index into `Tables::corner_figures` of the figure this game plays.
    pub(crate) figure: u8,
    /// How many each player has left.
    pub(crate) supply: Vec<u8>,
    /// Those on the board, in the order placed.
    pub(crate) placed: Vec<Barn>,
    /// The one placed this turn, whose arrival `end_turn` scores.
    pub(crate) arrived: Option<usize>,
}

impl Barns {
    /// `count` of figure `figure` for each of `players` players, none placed.
    pub(crate) fn new(figure: u8, count: u8, players: usize) -> Barns {
        Barns {
            figure,
            supply: vec![count; players],
            placed: Vec::new(),
            arrived: None,
        }
    }
}

/// A figure at a corner on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Barn {
    /// Its owner.
    pub(crate) owner: u8,
    /// The tile it was placed with.
    pub(crate) tile: PlacedId,
    /// The corner of that tile (`CORNER_NAMES`).
    pub(crate) corner: u8,
    /// The node of that tile's quarter at the corner: its region is `find(node)`.
    pub(crate) node: NodeId,
}

/// The local feature of `orient`'s quarter at `corner` when one region of kind `on` owns both
/// ports beside that corner.
fn quarter(core: &Core<'_>, orient: crate::ids::OrientId, corner: u8, on: u8) -> Option<u8> {
    let o = core.tables.orient(orient);
    let c = usize::from(corner);
    let (a, b) = (o.ports[(3 * c + 11) % 12], o.ports[3 * c]);
    let kind = o.features.get(usize::from(a))?.kind;
    (a != NO_FEATURE && a == b && kind.0 == on).then_some(a)
}

/// The region a figure may stand at, at `corner` of the tile `placed`: the four tiles there
/// placed, their quarters one region of the figure's kind, holding no such figure yet; with
/// the placed tile's local feature there.
fn corner_region(game: &Game<'_>, barns: &Barns, placed: PlacedId, corner: u8) -> Option<u8> {
    let core = &game.core;
    let on = core
        .tables
        .corner_figures
        .get(usize::from(barns.figure))?
        .on
        .0;
    let p = core.board.placed[placed.index()];
    let mut root = NodeId::NONE;
    let mut local = NO_FEATURE;
    for &(dx, dy, c) in &MEETING[usize::from(corner & 3)] {
        let q = core.board.at(i32::from(p.x) + dx, i32::from(p.y) + dy)?;
        let f = quarter(core, q.orient, c, on)?;
        let r = core.find(q.node(f));
        if root == NodeId::NONE {
            (root, local) = (r, f);
        } else if r != root {
            return None;
        }
    }
    let taken = (barns.placed.iter()).any(|b| core.find(b.node) == root);
    (!taken).then_some(local)
}

/// How many corners of the tile just placed the current player may put their figure at.
#[inline]
pub(crate) fn count(game: &Game<'_>, placed: PlacedId) -> usize {
    match &game.modules.barns {
        None => 0,
        Some(barns) => count_corners(game, barns, placed),
    }
}

// Out of line: inlined into the random player's count of every turn's moves, the corners'
// walk cost base games (no barn) 36 instructions a placed tile.
#[inline(never)]
fn count_corners(game: &Game<'_>, barns: &Barns, placed: PlacedId) -> usize {
    if barns.supply[usize::from(game.core.current)] == 0 {
        return 0;
    }
    // A corner needs the tiles on both sides it joins: for the tile placed last, the cells
    // beside it as placing it left them say so for most tiles, before the block is read.
    let board = &game.core.board;
    if placed.index() + 1 == board.placed.len() {
        let [n, e, s, w] = board.beside.map(|c| c.placed != PlacedId::NONE);
        if !((n || s) && (e || w)) {
            return 0;
        }
    }
    // Most corners of a tile just placed lack one of the three other tiles: one read of the
    // block around it rules them out before any region is looked at.
    let p = game.core.board.placed[placed.index()];
    let block = game.core.board.block(i32::from(p.x), i32::from(p.y));
    let meet = |c: u8| {
        MEETING[usize::from(c)][1..]
            .iter()
            .all(|&(dx, dy, _)| block[((dy + 1) * 3 + dx + 1) as usize].placed != PlacedId::NONE)
    };
    (0..4)
        .filter(|&c| meet(c) && corner_region(game, barns, placed, c).is_some())
        .count()
}

/// The `n`-th corner the current player may put their figure at, clockwise from the north-west.
pub(crate) fn nth(game: &Game<'_>, placed: PlacedId, n: usize) -> Option<Target> {
    let barns = game.modules.barns.as_ref()?;
    if barns.supply[usize::from(game.core.current)] == 0 {
        return None;
    }
    (0..4)
        .filter(|&c| corner_region(game, barns, placed, c).is_some())
        .nth(n)
        .map(Target::Corner)
}

/// Puts the current player's figure at `corner` of the tile just placed; its arrival is
/// scored at the end of the turn.
pub(crate) fn place(
    game: &mut Game<'_>,
    placed: PlacedId,
    corner: u8,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    let player = game.core.current;
    let Some(barns) = &game.modules.barns else {
        return Err(IllegalMove::NotOffered(
            "there is no figure to place at a corner in this game (no set in it declares one, or its count is 0)"
                .into(),
        ));
    };
    let name = (game
        .core
        .tables
        .corner_figures
        .get(usize::from(barns.figure)))
    .map_or("figure", |f| f.name.as_str());
    let Some(&corner_name) = CORNER_NAMES.get(usize::from(corner)) else {
        return Err(IllegalMove::NotOffered(format!(
            "corner {corner} is not a corner: the corners are 0 to 3 (NW, NE, SE, SW)"
        )));
    };
    if barns.supply[usize::from(player)] == 0 {
        return Err(IllegalMove::NotOffered(format!(
            "player {} has no {name} left",
            player + 1
        )));
    }
    let Some(local) = corner_region(game, barns, placed, corner) else {
        return Err(IllegalMove::NotOffered(format!(
            "the {name} cannot go at the {corner_name} corner: four placed tiles must meet there, their four quarters one {} without a {name}",
            (game
                .core
                .tables
                .corner_figures
                .get(usize::from(barns.figure)))
            .map_or("region", |f| game.core.tables.feature(f.on).id.as_str())
        )));
    };
    let node = game.core.board.placed[placed.index()].node(local);
    let Some(barns) = &mut game.modules.barns else {
        return Ok(());
    };
    barns.supply[usize::from(player)] -= 1;
    barns.arrived = Some(barns.placed.len());
    barns.placed.push(Barn {
        owner: player,
        tile: placed,
        corner,
        node,
    });
    events.push(Event::Action {
        player,
        action: ActionId::BARN,
        target: Target::Corner(corner),
    });
    Ok(())
}

/// The `end_turn` hook: the arrival of a figure placed this turn, then the followers a tile
/// joined to a figure's region, each scored at its rate and sent home.
pub(crate) fn end_turn(game: &mut Game<'_>, events: &mut Vec<Event>) {
    let Some(barns) = &mut game.modules.barns else {
        return;
    };
    let figure = barns.figure;
    if let Some(i) = barns.arrived.take() {
        let node = barns.placed[i].node;
        let root = game.core.find_mut(node);
        if game.core.nodes[root.index()].followers > 0 {
            game.score_corner(root, (figure, CornerPaid::Arrival), None, events);
        }
    }
    let mut i = 0;
    while let Some(b) = game.modules.barns.as_ref().and_then(|b| b.placed.get(i)) {
        let root = game.core.find_mut(b.node);
        if game.core.nodes[root.index()].followers > 0 {
            game.score_corner(root, (figure, CornerPaid::Join), None, events);
        }
        i += 1;
    }
}

/// The `final_scoring` hook: each region with figures at corners pays its `end` rate to each
/// of their owners once.
pub(crate) fn final_scoring(game: &mut Game<'_>, events: &mut Vec<Event>) {
    let Some(barns) = &game.modules.barns else {
        return;
    };
    let figure = barns.figure;
    let placed = barns.placed.clone();
    let mut paid: Vec<(NodeId, u8)> = Vec::new();
    for b in placed {
        let root = game.core.find_mut(b.node);
        if paid.contains(&(root, b.owner)) {
            continue;
        }
        paid.push((root, b.owner));
        game.score_corner(root, (figure, CornerPaid::End), Some(b.owner), events);
    }
}

/// Whether a follower may not be deployed on the region at `root`: a figure at a corner is on
/// it.
#[inline]
pub(crate) fn refuses(core: &Core<'_>, barns: &Barns, root: NodeId) -> bool {
    // A feature of another kind holds none: its kind is one read, each figure's region a walk.
    let on = (core.tables.corner_figures.get(usize::from(barns.figure))).map(|f| f.on.0);
    on == Some(core.nodes[root.index()].kind.0)
        && (barns.placed.iter()).any(|b| core.find(b.node) == root)
}

/// What the figures at corners are worth to their owners for the greedy estimate: the `end`
/// rate on their region's completed bordered features, and a third of it on the open ones
/// times `time` (1 early, falling to 0 as the bag empties); `bordered` says how many of each a
/// region has. One in the supply is worth its `end` rate once times `time`: a better corner
/// may come, so it goes down early only where it pays more than one city.
pub(crate) fn worth(
    game: &Game<'_>,
    time: f64,
    mut bordered: impl FnMut(NodeId) -> (u32, u32),
    out: &mut [f64],
) {
    let Some(barns) = &game.modules.barns else {
        return;
    };
    let Some(info) = game
        .core
        .tables
        .corner_figures
        .get(usize::from(barns.figure))
    else {
        return;
    };
    for (o, &n) in out.iter_mut().zip(&barns.supply) {
        *o += f64::from(n) * f64::from(info.end.bordered) * time;
    }
    let mut seen: Vec<(NodeId, u8)> = Vec::new();
    for b in &barns.placed {
        let root = game.core.find(b.node);
        if seen.contains(&(root, b.owner)) {
            continue;
        }
        seen.push((root, b.owner));
        let (done, open) = bordered(root);
        if let Some(o) = out.get_mut(usize::from(b.owner)) {
            *o += f64::from(info.end.bordered) * (f64::from(done) + f64::from(open) * time / 3.0);
        }
    }
}
