//! Village Life: flower colours and bonuses, the donkey, windmills and marketplace networks.
//! Bushes need no code here: an edge kind that `close`s a road ends it, and its half ports
//! join the facing fields pairwise (see `Core::join`).
//!
//! - Flowers: each player gets a colour (one token set of all colours for up to as many
//!   players as colours, two sets beyond). A scored non-field feature gives each player with a
//!   follower on it +3 per group of their colour on its tiles (a monastery: its own tile, or
//!   its 3×3 range by option); a field at the end counts the groups inside that field.
//! - Which of these a game has: `rules_in_play`, from the options, else from the data of the
//!   sets in the game (`[set] figures` for the donkey and windmills, flower groups on the tiles
//!   for the flower bonus).
//! - Donkey: starts on the start tile; placements that would complete a road, city or
//!   monastery on its tile are filtered out of the drawn tile's candidates (under the `network`
//!   reading, a marketplace road's closing only when its network would complete).
//! - Windmill: on any field of the placed tile; its range is the plus of its tile and two
//!   tiles each way; 9 + flowers when all 9 are placed, else 1 per placed tile at the end.
//! - Marketplace: a road ending at a marketplace waits until it is closed and every
//!   marketplace it touches has all its roads closed; its owners then also get the tiles of
//!   the other roads of each of those marketplaces.

use crate::board::EMPTY;
use crate::ids::{KindId, NodeId, OrientId, PlacedId};
use crate::options::{
    DonkeyBlocks, FIRST_EDITION_SMALL_CITY, GameOptions, Possible, Rules, SetupError,
};
use crate::placements::Placements;
use crate::rng::Rng;
use crate::scoring::{FlowerBonus, NetworkBonus, Reason, Score, Scored};
use crate::state::{Core, DonkeySets, Event, Figure, FigureKind, Game, IllegalMove, Mill};
use crate::tables::{Rates, SiteRange, Tables};
use tiledef::{RoadEnd, SetFigure, Side};

/// The windmill's range: its tile and two tiles in each direction.
pub const WINDMILL_RANGE: [(i32, i32); 9] = [
    (0, 0),
    (0, -1),
    (0, -2),
    (1, 0),
    (2, 0),
    (0, 1),
    (0, 2),
    (-1, 0),
    (-2, 0),
];

/// The rules a game plays, and the colours of its flower tokens (see `deal_colours`). What the
/// options leave open follows the data of the sets with a tile in the game (the draw and the
/// start tile): the donkey and windmills come with a set whose `[set] figures` name them, the
/// flower bonus with a tile that carries flower groups.
pub(crate) fn rules_in_play(
    tables: &Tables,
    options: &GameOptions,
    start: KindId,
    bag: &[KindId],
) -> (Rules, Vec<u8>) {
    // One pass over the draw: the sets it holds and the colours on its tiles.
    let mut in_game = vec![false; tables.sets.len()];
    let mut colours = vec![false; tables.colours.len()];
    for &k in std::iter::once(&start).chain(bag) {
        let kind = &tables.kind(k);
        in_game[usize::from(kind.set)] = true;
        for (c, &groups) in kind.flowers.iter().enumerate() {
            colours[c] |= groups > 0;
        }
    }
    let flowers = colours.contains(&true);
    let (festival, wells) = festival_and_wells(tables, std::iter::once(&start).chain(bag));
    let brings = |figure: SetFigure| {
        in_game
            .iter()
            .zip(&tables.set_figures)
            .any(|(&used, figures)| used && figures.contains(&figure))
    };
    let o = &options.rules;
    let named = |name: &str| o.on.iter().any(|n| n == name);
    let first_edition_small_city = o.first_edition_small_city || named(FIRST_EDITION_SMALL_CITY);
    // The option switch `first_edition_small_city` names the built-in option too.
    let small_on = |option: &str| {
        named(option) || (option == FIRST_EDITION_SMALL_CITY && first_edition_small_city)
    };
    let small_kinds = (tables.features.iter().enumerate())
        .filter(|(_, k)| {
            (k.small.as_ref()).is_some_and(|s| s.option.as_deref().is_none_or(small_on))
        })
        .fold(0u32, |bits, (k, _)| bits | 1 << k);
    let rules = Rules {
        sets: tables
            .sets
            .iter()
            .zip(&in_game)
            .filter(|(_, used)| **used)
            .map(|(id, _)| id.clone())
            .collect(),
        followers: o.followers,
        first_edition_small_city,
        small_kinds,
        festival: o.festival,
        donkey: o.donkey.unwrap_or_else(|| brings(SetFigure::Donkey)),
        donkey_blocks: o.donkey_blocks,
        windmills: o
            .windmills
            .unwrap_or_else(|| u8::from(brings(SetFigure::Windmill))),
        flower_bonus: o.flower_bonus.unwrap_or(flowers),
        monastery_flowers_3x3: o.monastery_flowers_3x3 || named("monastery-flowers-3x3"),
        wells: o.wells || named("wells"),
        on: {
            let mut on = o.on.clone();
            if o.wells {
                on.push("wells".to_string());
            }
            on.sort_unstable();
            on.dedup();
            on
        },
        possible: Possible {
            festival,
            donkey: brings(SetFigure::Donkey),
            windmills: brings(SetFigure::Windmill),
            flowers,
            wells,
        },
    };
    if !rules.flower_bonus {
        return (rules, Vec::new());
    }
    // The tokens: the colours the sets in the game declare, and any other on its tiles (a set
    // may use a colour of a set it requires), in vocabulary order.
    for (set, _) in in_game.iter().enumerate().filter(|(_, used)| **used) {
        for &c in &tables.set_colours[set] {
            colours[usize::from(c)] = true;
        }
    }
    let tokens = (0..colours.len() as u8)
        .filter(|&c| colours[usize::from(c)])
        .collect();
    (rules, tokens)
}

/// Whether a tile kind of the draw has a Festival place, and whether one carries a marker whose
/// modifier is the `wells` option's (each kind looked at once).
fn festival_and_wells<'a>(tables: &Tables, draw: impl Iterator<Item = &'a KindId>) -> (bool, bool) {
    let mut seen = vec![false; tables.kinds.len()];
    let (mut festival, mut wells) = (false, false);
    let is_well = |m: &u8| {
        let scoring = tables.markers[usize::from(*m)].scoring.as_ref();
        scoring.is_some_and(|s| s.option.as_deref() == Some("wells"))
    };
    for &k in draw {
        if std::mem::replace(&mut seen[k.index()], true) {
            continue;
        }
        let orient = tables.orient(OrientId(tables.kind(k).orients[0]));
        festival |= orient.festival;
        wells |= orient
            .features
            .iter()
            .any(|f| f.markers.iter().any(is_well));
    }
    (festival, wells)
}

/// The players' flower colours as the options name them (checked: one known colour per
/// player), or None when they are to be dealt (`deal_colours`).
pub(crate) fn named_colours(
    tables: &Tables,
    options: &GameOptions,
) -> Result<Option<Vec<u8>>, SetupError> {
    let players = options.players as usize;
    let named = &options.rules.flowers;
    if named.is_empty() {
        return Ok(None);
    }
    if named.len() != players {
        return Err(SetupError::Flowers(format!(
            "{} colours named for {players} players",
            named.len()
        )));
    }
    named
        .iter()
        .map(|id| {
            tables
                .colours
                .iter()
                .position(|c| c == id)
                .map(|i| i as u8)
                .ok_or_else(|| {
                    SetupError::Flowers(format!(
                        "unknown colour `{id}` (known: {})",
                        tables.colours.join(", ")
                    ))
                })
        })
        .collect::<Result<_, _>>()
        .map(Some)
}

/// The players' flower colours drawn from the token sets (one set of the game's `colours`,
/// from `rules_in_play`, and a second set when there are more players than colours) with the
/// seed of the draw, or dealt in vocabulary order for a fixed draw (no seed).
pub(crate) fn deal_colours(colours: &[u8], players: usize, seed: Option<u64>) -> Vec<u8> {
    if colours.is_empty() {
        return Vec::new();
    }
    let sets = players.div_ceil(colours.len());
    let mut tokens: Vec<u8> = (0..sets).flat_map(|_| colours.iter().copied()).collect();
    if let Some(seed) = seed {
        // A stream of its own, so the bag's shuffle is the same with or without Village Life.
        Rng::new(seed ^ 0xf10e_75f1_0e75_f10e).shuffle(&mut tokens);
    }
    tokens.truncate(players);
    tokens
}

// ----------------------------------------------------------------------------------------
// Donkey

/// Clears from the drawn tile's masks every rotation whose placement would complete a feature
/// on the donkey's tile.
///
/// A placement closes only the ends facing it, and joining only adds ends, so a road or city
/// can be completed only where all its open ends face one position: their mean, which its
/// root keeps (`Node::ends_at`). So each draw costs a few reads per set on the donkey's tile,
/// and a closer look only where such a position can take the drawn tile. While the masks are
/// not listed, that look waits until the position's mask is read (`Placements::defer`).
pub(crate) fn donkey_filter(
    core: &Core<'_>,
    place: &mut Placements,
    sets: &mut DonkeySets,
    kind: KindId,
    donkey: PlacedId,
) {
    // Moving the donkey takes its sets; this catches a donkey put elsewhere by hand.
    if sets.tile != donkey {
        *sets = DonkeySets::of(core, donkey);
    }
    let DonkeySets {
        roots, len, site, ..
    } = *sets;
    if let Some((x, y, range)) = site {
        block_site(core, place, x, y, range);
    }
    let network_reading = core.rules.donkey_blocks == DonkeyBlocks::Network;
    for (i, &set) in roots[..usize::from(len)].iter().enumerate() {
        let root = core.find(set);
        sets.roots[i] = root;
        let node = &core.nodes[root.index()];
        let Some((x, y)) = mean_position(node.ends_at, node.open) else {
            if node.open == 0 && node.markets > 0 && !node.done && network_reading {
                block_network(core, place, kind, root);
            }
            continue;
        };
        // Placed cells have no slot: this is an open position.
        let slot = core.board.cell(x, y).slot;
        if slot == EMPTY {
            continue;
        }
        // A marketplace road under the `network` reading needs a trial game: checked now.
        let network = network_reading && node.markets > 0;
        if (network || !place.defer(core, slot, i, root))
            && place.mask_at(core, usize::from(slot)) != 0
        {
            block_completing(core, place, kind, (x, y), slot, root, network);
        }
    }
}

impl DonkeySets {
    fn of(core: &Core<'_>, tile: PlacedId) -> DonkeySets {
        let mut sets = DonkeySets {
            tile,
            ..DonkeySets::default()
        };
        let p = core.board.placed[tile.index()];
        let o = core.play.orient(p.orient);
        sets.site = (o.site != crate::tables::NO_FEATURE).then(|| {
            let kind = core.tables.orient(p.orient).features[usize::from(o.site)].kind;
            let range = core.tables.feature(kind).range;
            (p.x, p.y, range.unwrap_or(SiteRange::Square(0)))
        });
        // A road or city with ends owns a centre port; `links` says which sides share one, and
        // each is taken at its first side. Branch-free: the links vary from tile to tile.
        for side in Side::ALL {
            let first = o.links[side.index()].trailing_zeros() as usize == side.index();
            let f = o.ports[side.centre().index()];
            // `len` ≤ this side's index: the write is in range, and kept only for a first side.
            sets.roots[usize::from(sets.len)] = p.node(f);
            sets.len += u8::from(first);
        }
        sets
    }
}

/// A site on the donkey's tile with all of its range placed but one tile (a monastery: 8 of
/// 9): that last cell is blocked whole.
#[inline(never)]
fn block_site(core: &Core<'_>, place: &mut Placements, x: i16, y: i16, range: SiteRange) {
    let (x, y) = (i32::from(x), i32::from(y));
    // Two empty cells beside it leave two of its range empty: one lookup says so for most draws.
    let beside = core.board.neighbours(x, y);
    if (range.reach() > 0 && beside.iter().filter(|c| c.placed == PlacedId::NONE).count() > 1)
        || core.board.placed_in(x, y, range) + 1 != range.tiles()
    {
        return;
    }
    let r = i32::from(range.reach());
    for dy in -r..=r {
        for dx in -r..=r {
            let slot = core.board.cell(x + dx, y + dy).slot;
            if range.contains(dx, dy)
                && slot != EMPTY
                && place.mask_at(core, usize::from(slot)) != 0
            {
                place.set_mask(core, slot, 0);
            }
        }
    }
}

/// Clears the rotations of the drawn tile at the open position `at` (frontier `slot`) that
/// would complete the set `root` (with `network`, a marketplace road under the `network`
/// reading: only those that complete its network).
#[inline(never)]
fn block_completing(
    core: &Core<'_>,
    place: &mut Placements,
    kind: KindId,
    at: (i32, i32),
    slot: u16,
    root: NodeId,
    network: bool,
) {
    let mask = place.mask_at(core, usize::from(slot));
    let mut closing = core.closing_rotations(kind, at, mask, root);
    if network {
        closing = only_completing_networks(core, kind, at, closing, root);
    }
    if closing != 0 {
        place.set_mask(core, slot, mask & !closing);
    }
}

/// The rotations among `closing` (placed at `at`, each closing a marketplace road) that would
/// also complete the network of the marketplace road `root`.
fn only_completing_networks(
    core: &Core<'_>,
    kind: KindId,
    at: (i32, i32),
    closing: u8,
    root: NodeId,
) -> u8 {
    let mut kept = 0;
    let mut bits = closing;
    while bits != 0 {
        let rotation = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        if completes_network(core, at, core.play.orient_of(kind, rotation), root) {
            kept |= 1 << rotation;
        }
    }
    kept
}

/// The `network` reading, for a closed marketplace road on the donkey's tile that waits for its
/// marketplaces: clears the placements that would close the last open roads of those
/// marketplaces (completing its network).
#[inline(never)]
fn block_network(core: &Core<'_>, place: &mut Placements, kind: KindId, waiting: NodeId) {
    let mut markets = Vec::new();
    markets_of(core, waiting, &mut markets);
    let mut open = Vec::new();
    let mut roads = Vec::new();
    for &m in &markets {
        market_roads(core, m, &mut roads);
        open.extend((roads.iter().copied()).filter(|&r| core.nodes[r.index()].open > 0));
    }
    for r in open {
        let node = &core.nodes[r.index()];
        let Some(at) = mean_position(node.ends_at, node.open) else {
            continue;
        };
        let slot = core.board.cell(at.0, at.1).slot;
        if slot == EMPTY {
            continue;
        }
        let mask = place.mask_at(core, usize::from(slot));
        let closing = core.closing_rotations(kind, at, mask, r);
        let blocked = only_completing_networks(core, kind, at, closing, waiting);
        if blocked != 0 {
            place.set_mask(core, slot, mask & !blocked);
        }
    }
}

/// Whether putting `orient` at `at` completes the network of the marketplace road `root`: the
/// road, closed, is then scored, as every marketplace it touches has all its roads closed.
/// Tried on a copy of the game's core: only the `network` reading of the donkey asks, and only
/// when the drawn tile could close a marketplace road on the donkey's tile, or the last roads
/// of the marketplaces of one waiting there.
#[inline(never)]
fn completes_network(core: &Core<'_>, at: (i32, i32), orient: OrientId, root: NodeId) -> bool {
    let mut trial = core.clone();
    // (A road closed by an edge matters to the turn's scoring, not to this question.)
    trial.put(at.0, at.1, orient, true, &mut Vec::new());
    let road = trial.find_mut(root);
    let mut markets = Vec::new();
    markets_of(&trial, road, &mut markets);
    trial.nodes[road.index()].open == 0 && markets.iter().all(|&m| market_complete(&trial, m))
}

/// The position all of a set's open ends face, if they can all face one: 1 to 4 ends (a tile
/// has four sides, so a set with more stays open whatever is placed) whose summed positions
/// divide evenly.
fn mean_position(sum: (i32, i32), open: u32) -> Option<(i32, i32)> {
    // Constant divisors (multiplications), not `sum / open`: a division by a variable takes
    // tens of cycles, and this runs for each set on the donkey's tile at every draw.
    let (x, y) = match open {
        1 => return Some(sum),
        2 => (sum.0 / 2, sum.1 / 2),
        3 => (sum.0 / 3, sum.1 / 3),
        4 => (sum.0 / 4, sum.1 / 4),
        _ => return None,
    };
    let k = open as i32;
    // `&`, not `&&`: one branch instead of two unpredictable ones.
    ((x * k == sum.0) & (y * k == sum.1)).then_some((x, y))
}

/// Moves the donkey to the placed tile at (x, y).
pub(crate) fn move_donkey(
    game: &mut Game<'_>,
    x: i16,
    y: i16,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    let Some(current) = game.modules.donkey else {
        return Err(IllegalMove::NotOffered(
            "there is no donkey in this game (no set in it brings one, or the option `donkey` is false)"
                .into(),
        ));
    };
    let cell = game.core.board.cell(i32::from(x), i32::from(y));
    if cell.placed == PlacedId::NONE {
        return Err(IllegalMove::DonkeyTarget {
            x,
            y,
            why: "no tile is placed there",
        });
    }
    if cell.placed == current {
        return Err(IllegalMove::DonkeyTarget {
            x,
            y,
            why: "it already stands there",
        });
    }
    game.modules.donkey = Some(cell.placed);
    // Taken now rather than at the next draw, where the branch would be a coin toss.
    game.modules.donkey_sets = DonkeySets::of(&game.core, cell.placed);
    game.core.stats.donkey_moves += 1;
    events.push(Event::DonkeyMoved {
        player: game.current(),
        x,
        y,
    });
    Ok(())
}

// ----------------------------------------------------------------------------------------
// Windmills

/// Puts the current player's windmill on a field of the tile just placed.
pub(crate) fn place_windmill(
    game: &mut Game<'_>,
    placed: PlacedId,
    feature: u8,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    if game.core.rules.windmills == 0 {
        return Err(IllegalMove::NotOffered(
            "there are no windmills in this game (no set in it brings them, or the option `windmills` is 0)"
                .into(),
        ));
    }
    let o = game.orient(placed);
    let Some(f) = o.features.get(feature as usize) else {
        return Err(IllegalMove::NoFeature {
            tile: game.core.tables.kind(KindId(o.kind)).id.clone(),
            feature: feature.to_string(),
        });
    };
    let kind = game.core.tables.feature(f.kind);
    if !kind.is_region() {
        return Err(IllegalMove::WindmillNotOnField(kind.id.clone()));
    }
    let player = game.current();
    if game.modules.windmills[player as usize] == 0 {
        return Err(IllegalMove::NoWindmill(player + 1));
    }
    game.modules.windmills[player as usize] -= 1;
    game.core.figures.push(Figure {
        kind: FigureKind::Windmill,
        owner: player,
        node: game.core.board.placed[placed.index()].node(feature),
        tile: placed,
        follower: 0,
    });
    let in_range = range_tiles(game, placed).1 as u8;
    let p = game.core.board.placed[placed.index()];
    game.modules.mills.push(Mill {
        tile: placed,
        at: (p.x, p.y),
        placed: in_range,
    });
    game.core.stats.windmills_placed += 1;
    events.push(Event::WindmillPlaced { player, feature });
    Ok(())
}

/// Counts the tile just placed into the ranges of the windmills it is in, and scores those it
/// completed.
pub(crate) fn complete_windmills(game: &mut Game<'_>, placed: PlacedId, events: &mut Vec<Event>) {
    let p = game.core.board.placed[placed.index()];
    let mut complete = false;
    for mill in &mut game.modules.mills {
        // A windmill put on this very tile counted it when it was placed. (Branch-free: the
        // outcome is random, so branches here would mostly be mispredicted.)
        let (dx, dy) = (p.x.abs_diff(mill.at.0), p.y.abs_diff(mill.at.1));
        // On the windmill's row or column, at most two away.
        let in_range = (dx.min(dy) == 0) & (dx.max(dy) <= 2);
        mill.placed += u8::from(in_range & (mill.tile != placed));
        complete |= usize::from(mill.placed) == WINDMILL_RANGE.len();
    }
    if complete {
        score_complete_windmills(game, events);
    }
}

/// Scores the windmills whose range is all placed, in the order of `mills`. (Scoring one
/// changes no other's count, so counting them all first scores the same ones.)
#[cold]
#[inline(never)]
fn score_complete_windmills(game: &mut Game<'_>, events: &mut Vec<Event>) {
    let mut i = 0;
    while i < game.modules.mills.len() {
        let mill = game.modules.mills[i];
        if usize::from(mill.placed) == WINDMILL_RANGE.len()
            && let Some(index) = (game.core.figures.iter())
                .position(|f| f.kind == FigureKind::Windmill && f.tile == mill.tile)
        {
            // Scoring lifts the windmill, which drops it from `mills`.
            score_windmill(game, index, true, events);
            continue;
        }
        i += 1;
    }
}

/// Scores every windmill still on the board (the final scoring).
pub(crate) fn final_windmills(game: &mut Game<'_>, events: &mut Vec<Event>) {
    while let Some(i) = game
        .core
        .figures
        .iter()
        .position(|f| f.kind == FigureKind::Windmill)
    {
        score_windmill(game, i, false, events);
    }
}

/// The placed tiles of a windmill's range, in `WINDMILL_RANGE` order (a list on the stack:
/// it is read once and dropped), and how many there are.
fn range_tiles(game: &Game<'_>, tile: PlacedId) -> ([PlacedId; WINDMILL_RANGE.len()], usize) {
    let w = game.core.board.placed[tile.index()];
    let mut tiles = [PlacedId(0); WINDMILL_RANGE.len()];
    let mut n = 0;
    for &(dx, dy) in &WINDMILL_RANGE {
        let c = game
            .core
            .board
            .cell(i32::from(w.x) + dx, i32::from(w.y) + dy);
        if c.placed != PlacedId::NONE {
            tiles[n] = c.placed;
            n += 1;
        }
    }
    (tiles, n)
}

// Out of line: rare, and inlined it would weigh on the check run every turn.
#[inline(never)]
fn score_windmill(game: &mut Game<'_>, index: usize, complete: bool, events: &mut Vec<Event>) {
    let fig = game.lift(index);
    let (range, n) = range_tiles(game, fig.tile);
    let tiles = &range[..n];
    let points = if complete { 9 } else { tiles.len() as u32 };
    let owner = fig.owner;
    let mut flowers = Vec::new();
    if let Some(&colour) = game.modules.colours.get(owner as usize) {
        let groups: u32 = tiles
            .iter()
            .map(|&t| game.core.play.flower_groups(game.core.kind_of(t), colour))
            .sum();
        if groups > 0 {
            flowers.push(FlowerBonus {
                player: owner,
                colour: game.core.tables.colours[colour as usize].clone(),
                groups,
                points: 3 * groups,
            });
        }
    }
    game.core.scores[owner as usize] += points;
    game.core.stats.windmill_points += u64::from(points);
    for b in &flowers {
        game.core.scores[owner as usize] += b.points;
        game.core.stats.flower_points += u64::from(b.points);
    }
    let w = game.core.board.placed[fig.tile.index()];
    let local = game.core.nodes[fig.node.index()].local;
    events.push(Event::Scored(Box::new(Score {
        players: vec![owner],
        kind: Scored::Windmill,
        at: (w.x, w.y, local),
        tiles: tiles
            .iter()
            .map(|&t| {
                let p = game.core.board.placed[t.index()];
                (p.x, p.y)
            })
            .collect(),
        emblems: 0,
        range: tiles.len() as u32,
        bordered: Vec::new(),
        points,
        reason: if complete {
            Reason::Completed
        } else {
            Reason::Unfinished
        },
        rates: Rates {
            tile: 1,
            ..Rates::default()
        },
        followers: vec![0; game.core.options.players as usize],
        modifiers: Vec::new(),
        flowers,
        network: Vec::new(),
    })));
}

// ----------------------------------------------------------------------------------------
// Marketplaces

/// The marketplace tiles a road set touches (its members that end at a marketplace).
fn markets_of(core: &Core<'_>, root: NodeId, out: &mut Vec<PlacedId>) {
    let mut m = root;
    loop {
        let n = &core.nodes[m.index()];
        if core.orient(n.tile).features[n.local as usize].end == Some(RoadEnd::Marketplace)
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
fn market_roads(core: &Core<'_>, tile: PlacedId, out: &mut Vec<NodeId>) {
    out.clear();
    let p = core.board.placed[tile.index()];
    let o = core.orient(tile);
    for (i, f) in o.features.iter().enumerate() {
        if f.end == Some(RoadEnd::Marketplace) {
            let r = core.find(p.node(i as u8));
            if !out.contains(&r) {
                out.push(r);
            }
        }
    }
}

fn market_complete(core: &Core<'_>, tile: PlacedId) -> bool {
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
                game.award_tokens(r, events);
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
        game.core.stats.network_points += u64::from(b.points);
    }
    score.network = network;
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
fn network_bonus(game: &mut Game<'_>, root: NodeId, owners: &[u8]) -> Vec<NetworkBonus> {
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
        .map(|&player| NetworkBonus {
            player,
            roads: counts.clone(),
            points,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::mean_position;
    use crate::game::{GameOptions, Phase};
    use crate::placements::Kept;
    use crate::players::random::choose_placement;
    use crate::rng::Rng;
    use crate::state::Game;

    /// A slot the donkey's filter leaves to check when read reads the same whether read on its
    /// own (`mask_at`, as sampling reads it), listed with the rest (`masks_mut`) or after
    /// another slot changed, and the check it waits for does block placements. (That the
    /// masks are the right ones, the property tests check against trial placements.)
    #[test]
    fn the_donkey_s_pending_slot_reads_as_when_listed() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let (mut draws, mut pending, mut blocking, mut listed_by_a_second) = (0, 0, 0, 0);
        for seed in 0..60 {
            let options = GameOptions {
                sets: vec!["base".into(), "village-life".into()],
                ..GameOptions::seeded(2, seed)
            };
            let mut game = Game::new(&tables, options, &mut Vec::new()).expect("valid options");
            let mut rng = Rng::new(seed);
            let mut moves = Vec::new();
            while let Phase::Place(kind) = game.phase() {
                draws += 1;
                if let Some((slot, Kept::Pending(_))) = game.place.kept() {
                    pending += 1;
                    let read: Vec<u8> = (0..game.core.board.frontier.len())
                        .map(|s| game.place.mask_at(&game.core, s))
                        .collect();
                    let mut listed = game.clone();
                    assert_eq!(*listed.place.masks_mut(&listed.core), read, "seed {seed}");
                    let open = game.core.board.frontier[usize::from(slot)];
                    let blocks = read[usize::from(slot)] != tables.index.fits(open.pattern, kind);
                    blocking += usize::from(blocks);
                    // Another filter changing another slot checks the pending one first; only
                    // if that changed it are two slots changed and the masks listed (as the
                    // filter checking it at once would have done: sampling reads listed masks
                    // another way, so seeded games depend on it).
                    let other = (0..read.len()).find(|&s| s != usize::from(slot) && read[s] != 0);
                    if let Some(other) = other {
                        let mut changed = game.clone();
                        let mask = read[other] & (read[other] - 1);
                        changed.place.set_mask(&changed.core, other as u16, mask);
                        assert_eq!(changed.place.listed(), blocks, "seed {seed}");
                        let pending = matches!(changed.place.kept(), Some((_, Kept::Pending(_))));
                        assert!(!pending, "seed {seed}");
                        let mut want = read.clone();
                        want[other] = mask;
                        let after: Vec<u8> = (0..read.len())
                            .map(|s| changed.place.mask_at(&changed.core, s))
                            .collect();
                        assert_eq!(after, want, "seed {seed}");
                        listed_by_a_second += usize::from(blocks);
                    }
                }
                let placement = choose_placement(&game, &mut rng).expect("a placement");
                game.apply(placement, &mut Vec::new()).expect("legal");
                let action = crate::players::random::choose_action(&game, &mut rng, &mut moves);
                let Some(action) = action else { break };
                game.apply(action, &mut Vec::new()).expect("legal");
            }
        }
        assert!(
            pending * 10 > draws,
            "{pending} of {draws} draws left a slot pending"
        );
        // (About a quarter of the draws, and half of those blocked something, at this writing.)
        assert!(
            blocking * 4 > pending,
            "{blocking} of {pending} pending slots blocked"
        );
        assert!(listed_by_a_second > 0);
    }

    #[test]
    fn the_mean_position_is_the_exact_mean_of_one_to_four_ends() {
        for open in 0..7u32 {
            for sx in -30..=30 {
                for sy in [-13, -8, -3, 0, 4, 9, 12] {
                    let n = open as i32;
                    let want = ((1..=4).contains(&open) && sx % n == 0 && sy % n == 0)
                        .then(|| (sx / n, sy / n));
                    assert_eq!(
                        mean_position((sx, sy), open),
                        want,
                        "{open} ends at ({sx}, {sy})"
                    );
                }
            }
        }
    }
}
