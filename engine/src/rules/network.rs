//! Marketplace networks (Village Life): a road ending at a marketplace waits until it is closed
//! and every marketplace it touches has all its roads closed; its owners then also get the
//! tiles of the other roads of each of those marketplaces.

use crate::ids::{NodeId, PlacedId};
use crate::rules::{Bonus, BonusSource, RuleSource};
use crate::state::{Core, Event, Game};
use crate::tables::Tables;

/// Whether a draw holding the tile kinds marked in `kinds` (by `KindId`) has a road that ends
/// at a marketplace: the networks' `in_play` (`RULE_SOURCES`).
pub(crate) fn in_play(tables: &Tables, _: &crate::options::Rules, kinds: &[bool]) -> bool {
    (tables.kinds.iter().zip(kinds))
        .filter(|&(_, &used)| used)
        .any(|(kind, _)| {
            let first = &tables.orients[usize::from(kind.orients[0])];
            first.features.iter().any(|f| tables.ends_at_hub(f))
        })
}

/// The marketplace tiles a road set touches (its members that end at a marketplace).
pub(crate) fn markets_of(core: &Core<'_>, root: NodeId, out: &mut Vec<PlacedId>) {
    let mut m = root;
    loop {
        let n = &core.nodes[m.index()];
        if core
            .tables
            .ends_at_hub(&core.orient(n.tile).features[n.local as usize])
            && !out.contains(&n.tile)
        {
            out.push(n.tile);
        }
        m = n.next;
        if m == root {
            break;
        }
    }
}

/// The roots of the roads of a marketplace tile, each once.
pub(crate) fn market_roads(core: &Core<'_>, tile: PlacedId, out: &mut Vec<NodeId>) {
    out.clear();
    let p = core.board.placed[tile.index()];
    let o = core.orient(tile);
    for (i, f) in o.features.iter().enumerate() {
        if core.tables.ends_at_hub(f) {
            let r = core.find(p.node(i as u8));
            if !out.contains(&r) {
                out.push(r);
            }
        }
    }
}

pub(crate) fn market_complete(core: &Core<'_>, tile: PlacedId) -> bool {
    let mut roads = Vec::new();
    market_roads(core, tile, &mut roads);
    roads.iter().all(|&r| core.nodes[r.index()].open == 0)
}

/// Scores the closed roads of every complete marketplace touched by the roads `closed` (closed
/// this turn, waiting for their marketplaces), when all their marketplaces are complete.
pub(crate) fn score_marketplaces(game: &mut Game<'_>, closed: &[NodeId], events: &mut Vec<Event>) {
    let mut markets = Vec::new();
    for &r in closed {
        markets_of(&game.core, r, &mut markets);
    }
    let mut roads = Vec::new();
    let mut theirs = Vec::new();
    for &m in &markets {
        if !market_complete(&game.core, m) {
            continue;
        }
        market_roads(&game.core, m, &mut roads);
        for &r in &roads {
            let node = game.core.nodes[r.index()];
            if node.done || node.open > 0 {
                continue;
            }
            theirs.clear();
            markets_of(&game.core, r, &mut theirs);
            if theirs.iter().all(|&t| market_complete(&game.core, t)) {
                game.core.nodes[r.index()].done = true;
                game.completed(r, events);
                if node.followers > 0 {
                    game.score(r, true, events);
                    add_network_bonus(game, r, events);
                }
            }
        }
    }
}

/// Adds the network bonus to the scoring of the road `root` just pushed: its majority gets it.
fn add_network_bonus(game: &mut Game<'_>, root: NodeId, events: &mut [Event]) {
    let Some(Event::Scored(score)) = events.last_mut() else {
        return;
    };
    if score.players.is_empty() {
        return;
    }
    let network = network_bonus(game, root, &score.players);
    for b in &network {
        game.core.scores[b.player as usize] += b.points;
        (game.core.stats).credit_rule_points(RuleSource::NETWORKS, b.points);
    }
    score.bonuses.extend(network);
}

/// Distinct tiles of a set.
fn tile_count(game: &mut Game<'_>, root: NodeId) -> u32 {
    game.scratch.generation += 1;
    let generation = game.scratch.generation;
    let mut count = 0;
    let mut m = root;
    loop {
        let n = game.core.nodes[m.index()];
        if game.scratch.stamp[n.tile.index()] != generation {
            game.scratch.stamp[n.tile.index()] = generation;
            count += 1;
        }
        m = n.next;
        if m == root {
            break;
        }
    }
    count
}

/// The network bonus of a completed marketplace road: for each marketplace it touches, the
/// tiles of that marketplace's other roads, to each of the road's owners.
fn network_bonus(game: &mut Game<'_>, root: NodeId, owners: &[u8]) -> Vec<Bonus> {
    let mut markets = Vec::new();
    markets_of(&game.core, root, &mut markets);
    let mut counts = Vec::new();
    let mut roads = Vec::new();
    for &m in &markets {
        market_roads(&game.core, m, &mut roads);
        for &r in &roads {
            if r != root {
                counts.push(tile_count(game, r));
            }
        }
    }
    let points = counts.iter().sum();
    if points == 0 {
        return Vec::new();
    }
    owners
        .iter()
        .map(|&player| Bonus {
            player,
            points,
            source: BonusSource::Network {
                roads: counts.clone(),
            },
        })
        .collect()
}
