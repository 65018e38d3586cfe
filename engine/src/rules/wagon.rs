//! The figures with the power `move-on` (Abbey & Mayor's wagon). When the feature such a figure
//! stands on is completed and scored it goes home with the others (`scored` hook: `free`);
//! after the turn its owner may move it on instead (`Phase::Choose`, the `next_choice` hook),
//! to a feature it may stand on, unoccupied, unfinished and not on a tile barred to deploys:
//! by default one that a tile's `moves` links to the completed feature on any of that
//! feature's tiles, or with `wagon_move = "nearby"` any on its tile or the eight around (JCZ's
//! rule `wagon-move`, C1 and C2: `WagonPhase.getAdjacentFeatures`). The pass leaves it at home.
//! With no such feature it stays home unasked. Several freed in one turn choose one after
//! another in turn order from the current player (`ScoringPhase` queues the wagons from the
//! turn player): docs/decisions.md.

use crate::ids::{FigureId, NodeId, PlacedId};
use crate::rules::{ActionId, Powered, Scoring, Target};
use crate::state::{Core, Event, Figure, FigureKind, Game, IllegalMove};
use crate::tables::{Power, Tables};
use serde::{Deserialize, Serialize};

/// A figure freed by a completed feature, waiting for its owner's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Freed {
    /// Its owner.
    owner: u8,
    /// Its `Tables::followers` index.
    figure: usize,
    /// The completed feature it stood on (its root).
    from: NodeId,
    /// The tile it stood on.
    tile: PlacedId,
}

/// Where a freed figure may move on to: JCZ's two readings of the rule (`Rule.WAGON_MOVE`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum WagonMove {
    /// A feature a tile's `moves` links to the completed one, on any of its tiles (`C1`, the
    /// first edition's, whose links are data).
    #[default]
    Linked,
    /// Any feature on the tile the figure stood on or the eight around it (`C2`, the JCZ
    /// client's default).
    Nearby,
}

impl WagonMove {
    /// Whether it is the default reading (left out of records and JSON).
    pub fn is_linked(&self) -> bool {
        *self == WagonMove::Linked
    }

    /// The reading as written in records and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            WagonMove::Linked => "linked",
            WagonMove::Nearby => "nearby",
        }
    }
}

/// The state of the figures that move on (`Modules::wagons`): in play when a figure of the game
/// has the power `move-on`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Wagons {
    /// Where a freed figure may go.
    reading: WagonMove,
    /// Freed this turn and not asked yet, in the order their features were scored.
    freed: Vec<Freed>,
    /// The figure whose owner chooses now.
    choosing: Option<Freed>,
    /// Where it may go: (tile, local feature), sorted; the order of its moves.
    options: Vec<(PlacedId, u8)>,
    /// The figures on the board that got there by moving on, by owner and figure: what they
    /// score for their owner is counted as what the power paid (`GameStats::figure_points`).
    moved: Vec<(u8, usize)>,
}

impl Wagons {
    /// No figure freed yet; freed figures go where `reading` says.
    pub(crate) fn new(reading: WagonMove) -> Wagons {
        Wagons {
            reading,
            ..Wagons::default()
        }
    }
}

/// The figures of `tables` that move on (`power = "move-on"`).
fn movers(tables: &Tables) -> impl Iterator<Item = &crate::tables::FollowerInfo> {
    (tables.followers.iter()).filter(|f| f.power == Some(Power::MoveOn))
}

/// Those of `movers` declared by the game's `sets` (`rules::of_sets`).
fn movers_of<'t>(
    tables: &'t Tables,
    sets: &'t [String],
) -> impl Iterator<Item = &'t crate::tables::FollowerInfo> {
    movers(tables).filter(move |f| super::of_sets(tables, sets, f.set))
}

/// Each figure that moves on, by its id, with the action that moves it (`WAGON`): a fan's
/// pilgrim is written `pilgrim = [{ at = [0, 1], on = "monastery" }]`.
pub(crate) fn record_names(tables: &Tables) -> Vec<(String, ActionId)> {
    movers(tables)
        .map(|f| (f.id.clone(), ActionId::WAGON))
        .collect()
}

/// The id of the figure whose owner chooses where it moves on now.
pub(crate) fn subject<'t>(game: &Game<'t>) -> Option<&'t str> {
    let freed = game.modules.wagons.as_ref()?.choosing?;
    let tables: &'t Tables = game.core.tables;
    tables.followers.get(freed.figure).map(|f| f.id.as_str())
}

/// What a report calls the moves on: the ids of the figures of the game's `sets` that move
/// on (`pilgrim`; `wagon/pilgrim` for two); None when no figure does.
pub(crate) fn label(tables: &Tables, sets: &[String]) -> Option<String> {
    let ids: Vec<&str> = movers_of(tables, sets).map(|f| f.id.as_str()).collect();
    (!ids.is_empty()).then(|| ids.join("/"))
}

/// `words` with `{mover}` naming the figure that moves on: the one figure of the game's
/// `sets` that does, in lower case, or "figure" when they have several.
pub(crate) fn name_words(tables: &Tables, sets: &[String], words: String) -> String {
    if !words.contains("{mover}") {
        return words;
    }
    let names = movers_of(tables, sets).map(|f| f.name.as_str());
    words.replace("{mover}", &super::the_one_name(names, "figure"))
}

/// The `scored` hook's part: a completed feature took off figures that move on; each waits
/// for its owner's choice after the turn. A figure that had moved on there has paid its points.
pub(crate) fn free(game: &mut Game<'_>, s: &Scoring<'_>) {
    let tables = game.core.tables;
    let Some(wagons) = &mut game.modules.wagons else {
        return;
    };
    for &Powered {
        owner,
        figure: k,
        tile,
    } in s.powered
    {
        if tables.followers[k].power != Some(Power::MoveOn) {
            continue;
        }
        if let Some(i) = wagons.moved.iter().position(|&m| m == (owner, k)) {
            wagons.moved.swap_remove(i);
            if s.winners.contains(&owner) {
                game.core.stats.figure_points[k] += u64::from(s.points);
            }
        }
        if s.complete {
            wagons.freed.push(Freed {
                owner,
                figure: k,
                from: s.root,
                tile,
            });
        }
    }
}

/// The `next_choice` hook's part: the next freed figure, in turn order from the current
/// player, that has somewhere to go; its owner chooses. None when none is left (the others
/// stay home).
pub(crate) fn next_choice(game: &mut Game<'_>) -> Option<(u8, ActionId)> {
    let players = game.core.options.players;
    let current = game.core.current;
    loop {
        let wagons = game.modules.wagons.as_mut()?;
        wagons.choosing = None;
        wagons.options.clear();
        let next = (0..wagons.freed.len())
            .min_by_key(|&i| ((wagons.freed[i].owner + players - current) % players, i))?;
        let freed = wagons.freed.remove(next);
        let options = options(game, freed);
        if !options.is_empty() {
            let wagons = game.modules.wagons.as_mut()?;
            wagons.choosing = Some(freed);
            wagons.options = options;
            return Some((freed.owner, ActionId::WAGON));
        }
    }
}

/// Where a freed figure may go: each feature its reading offers (`linked`, `nearby`) that it
/// may stand on, with no figure, not finished, and on a tile no module bars deploys on (the
/// dragon's: JCZ's `isMeepleDeploymentAllowed`); sorted by tile and local index.
fn options(game: &mut Game<'_>, freed: Freed) -> Vec<(PlacedId, u8)> {
    let kinds = game.core.follower_counts.len();
    if game.core.follower_supply[usize::from(freed.owner) * kinds + freed.figure] == 0 {
        return Vec::new();
    }
    let reading = (game.modules.wagons.as_ref()).map_or(WagonMove::Linked, |w| w.reading);
    let mut out = match reading {
        WagonMove::Linked => linked(game, freed),
        WagonMove::Nearby => nearby(&game.core, freed),
    };
    out.sort_unstable();
    out.dedup();
    let core = &game.core;
    let info = &core.tables.followers[freed.figure];
    out.retain(|&(tile, j)| {
        let n = core.board.placed[tile.index()].node(j);
        let kind = core.nodes[n.index()].kind;
        let root = core.find(n);
        info.stands_on(kind)
            && core.play.claimable(kind)
            && root != core.find(freed.from)
            && core.nodes[root.index()].followers == 0
            && !finished(core, tile, n, root)
            && !game.modules.deploy_forbidden(tile)
    });
    out
}

/// The features a tile's `moves` links to a member of the completed feature on that member's
/// tile (`WagonMove::Linked`).
fn linked(game: &mut Game<'_>, freed: Freed) -> Vec<(PlacedId, u8)> {
    game.walk(freed.from);
    let core = &game.core;
    let mut out = Vec::new();
    for &m in game.ring() {
        let node = &core.nodes[m.index()];
        let links = &core.tables.kind(core.kind_of(node.tile)).moves;
        for &link in links.iter().filter(|&&l| l & 1 << node.local != 0) {
            let mut others = link & !(1 << node.local);
            while others != 0 {
                let j = others.trailing_zeros() as u8;
                others &= others - 1;
                out.push((node.tile, j));
            }
        }
    }
    out
}

/// Every feature of the tile the figure stood on and of the placed tiles among the eight
/// around it (`WagonMove::Nearby`).
fn nearby(core: &Core<'_>, freed: Freed) -> Vec<(PlacedId, u8)> {
    let p = core.board.placed[freed.tile.index()];
    let mut out = Vec::new();
    for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
        let tile = core
            .board
            .cell(i32::from(p.x) + dx, i32::from(p.y) + dy)
            .placed;
        if tile == PlacedId::NONE {
            continue;
        }
        let features = core
            .tables
            .orient(core.board.placed[tile.index()].orient)
            .features
            .len();
        out.extend((0..features as u8).map(|j| (tile, j)));
    }
    out
}

/// Whether a feature is finished: closed (or scored), or a site whose range is all placed.
fn finished(core: &Core<'_>, tile: PlacedId, node: NodeId, root: NodeId) -> bool {
    let kind = core.nodes[node.index()].kind;
    let r = &core.nodes[root.index()];
    if core.closes(kind) {
        return r.done || r.open == 0;
    }
    if core.play.is_site(kind) {
        let p = core.board.placed[tile.index()];
        let range = core.tables.feature(kind).site_range();
        return r.done || core.board.placed_in(p.x.into(), p.y.into(), range) == range.tiles();
    }
    r.done
}

/// How many moves the chooser has: the places the freed figure may go.
#[inline]
pub(crate) fn count(game: &Game<'_>) -> usize {
    game.modules.wagons.as_ref().map_or(0, |w| w.options.len())
}

/// The `n`-th of them.
pub(crate) fn nth(game: &Game<'_>, n: usize) -> Option<Target> {
    let &(tile, feature) = game.modules.wagons.as_ref()?.options.get(n)?;
    let p = game.core.board.placed[tile.index()];
    Some(Target::Spot {
        x: p.x,
        y: p.y,
        feature,
    })
}

/// Moves the freed figure on to the feature `feature` of the tile at (x, y), one of its
/// options.
pub(crate) fn move_on(
    game: &mut Game<'_>,
    (x, y, feature): (i16, i16, u8),
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    let tile = game.core.board.cell(x.into(), y.into()).placed;
    let tables = game.core.tables;
    let Some(wagons) = game.modules.wagons.as_ref() else {
        return Err(IllegalMove::NotOffered(
            "no figure moves on in this game".into(),
        ));
    };
    let Some(freed) = wagons.choosing else {
        return Err(IllegalMove::NotOffered("no figure moves on now".into()));
    };
    if tile == PlacedId::NONE || !wagons.options.contains(&(tile, feature)) {
        // The options leave out a tile barred to deploys: say why.
        if tile != PlacedId::NONE
            && let Some(fault) = game.modules.deploy_fault(tables, tile)
        {
            return Err(fault);
        }
        let name = &tables.followers[freed.figure].name;
        let whither = match wagons.reading {
            WagonMove::Linked => "the tiles' `moves` link to its completed one",
            WagonMove::Nearby => "on the tile it stood on or the eight around it",
        };
        return Err(IllegalMove::NotOffered(format!(
            "the {} cannot move on to feature {feature} of ({x}, {y}): it goes to an unoccupied, unfinished feature {whither}",
            name.to_lowercase()
        )));
    }
    if let Some(wagons) = game.modules.wagons.as_mut() {
        wagons.choosing = None;
        wagons.options.clear();
        wagons.moved.push((freed.owner, freed.figure));
    }
    stand(&mut game.core, freed, tile, feature);
    events.push(Event::Action {
        player: freed.owner,
        action: ActionId::WAGON,
        target: Target::Spot { x, y, feature },
    });
    Ok(())
}

/// Puts the freed figure from its owner's supply on a feature.
fn stand(core: &mut Core<'_>, freed: Freed, tile: PlacedId, feature: u8) {
    let kinds = core.follower_counts.len();
    core.follower_supply[usize::from(freed.owner) * kinds + freed.figure] -= 1;
    let node = core.board.placed[tile.index()].node(feature);
    let root = core.find_mut(node);
    core.nodes[root.index()].followers += 1;
    if core.play.is_site(core.nodes[node.index()].kind) {
        core.site_followers += 1;
    }
    core.figures.push(Figure {
        kind: FigureKind::Follower,
        owner: freed.owner,
        node,
        tile,
        figure: FigureId::set(freed.figure),
    });
}

/// Declines the move: the freed figure stays in its owner's supply.
pub(crate) fn stay_home(game: &mut Game<'_>) {
    if let Some(wagons) = &mut game.modules.wagons {
        wagons.choosing = None;
        wagons.options.clear();
    }
}
