//! The donkey (Village Life): a neutral figure that starts on the start tile; placements that
//! would complete a road, city or site on its tile are filtered out of the drawn tile's
//! candidates (under the `network` reading, a marketplace road's closing only when its network
//! would complete). Moving it to another placed tile is a whole second step.

use crate::board::EMPTY;
use crate::ids::{KindId, NodeId, OrientId, PlacedId};
use crate::placements::Placements;
use crate::rules::network::{market_complete, market_roads, markets_of};
use crate::rules::{ActionId, Target};
use crate::state::{Core, Event, Game, IllegalMove, Phase};
use crate::tables::SiteRange;
use serde::{Deserialize, Serialize};
use tiledef::Side;

/// What the donkey forbids completing: the features on its tile (a marketplace road's closing
/// included), or, as FanCloisterZone reads it, a marketplace road's closing only when that
/// road's whole network completes with it.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum DonkeyBlocks {
    /// Closing any road or city on the donkey's tile, marketplace roads included.
    #[default]
    Road,
    /// As `Road`, but a marketplace road on its tile may close unless that completes its
    /// network (every marketplace it touches then has all its roads closed).
    Network,
}

impl DonkeyBlocks {
    /// The option's value as written in records and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            DonkeyBlocks::Road => "road",
            DonkeyBlocks::Network => "network",
        }
    }
}

/// The donkey's state: the tile it stands on, and the sets there its filter watches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Donkey {
    /// The tile the donkey stands on.
    pub(crate) tile: PlacedId,
    /// The sets of the roads and cities on that tile.
    pub(crate) sets: DonkeySets,
}

impl Donkey {
    /// The donkey on the start tile.
    pub(crate) fn new() -> Donkey {
        Donkey {
            tile: PlacedId(0),
            sets: DonkeySets::default(),
        }
    }

    /// The `filter` hook: see `donkey_filter`.
    #[inline]
    pub(crate) fn filter(&mut self, core: &Core<'_>, place: &mut Placements, kind: KindId) {
        donkey_filter(core, place, &mut self.sets, kind, self.tile);
    }

    /// Whether the filter could clear a rotation at the open position `at`: it lies in the
    /// range of the site on the donkey's tile, or all the open ends of a road or city there
    /// face it (`donkey_filter`'s two tests); under the `network` reading, always. A reserve
    /// tile's gap (`Modules::filtered_mask`) is seldom one, so its check skips the filter.
    pub(crate) fn may_block(&self, core: &Core<'_>, at: (i16, i16)) -> bool {
        if core.rules.modules.donkey_blocks == DonkeyBlocks::Network {
            return true;
        }
        let sets = match self.sets.tile == self.tile {
            true => self.sets,
            false => DonkeySets::of(core, self.tile),
        };
        let at = (i32::from(at.0), i32::from(at.1));
        let in_site = sets
            .site
            .is_some_and(|(x, y, range)| range.contains(at.0 - i32::from(x), at.1 - i32::from(y)));
        in_site
            || sets.roots[..usize::from(sets.len)].iter().any(|&set| {
                let node = &core.nodes[core.find(set).index()];
                mean_position(node.ends_at, node.open) == Some(at)
            })
    }
}

/// The sets of the roads and cities on the donkey's tile (roots as last found, refreshed at
/// each draw: a root changes only when its set is joined to another).
#[derive(Clone, Copy, Debug)]
pub(crate) struct DonkeySets {
    /// The donkey's tile they were taken from (`PlacedId::NONE`: none yet).
    pub(crate) tile: PlacedId,
    /// The roots; a road or city with ends owns a centre port, so a tile has at most four.
    pub(crate) roots: [NodeId; 4],
    /// How many of `roots` are in use.
    pub(crate) len: u8,
    /// Where the tile is and its site's range, if it has a site (a monastery).
    pub(crate) site: Option<(i16, i16, crate::tables::SiteRange)>,
}

impl Default for DonkeySets {
    fn default() -> DonkeySets {
        DonkeySets {
            tile: PlacedId::NONE,
            roots: [NodeId(0); 4],
            len: 0,
            site: None,
        }
    }
}

/// Clears from the drawn tile's masks every rotation whose placement would complete a feature
/// on the donkey's tile.
///
/// A placement closes only the ends facing it, and joining only adds ends, so a road or city
/// can be completed only where all its open ends face one position: their mean, which its
/// root keeps (`Node::ends_at`). So each draw costs a few reads per set on the donkey's tile,
/// and a closer look only where such a position can take the drawn tile. While the masks are
/// not listed, that look waits until the position's mask is read (`Placements::defer`).
fn donkey_filter(
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
    let network_reading = core.rules.modules.donkey_blocks == DonkeyBlocks::Network;
    for (i, &set) in roots[..usize::from(len)].iter().enumerate() {
        let root = core.find(set);
        sets.roots[i] = root;
        let node = &core.nodes[root.index()];
        let Some((x, y)) = mean_position(node.ends_at, node.open) else {
            if node.open == 0 && node.hub_ends > 0 && !node.done && network_reading {
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
        let network = network_reading && node.hub_ends > 0;
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
            (p.x, p.y, core.tables.feature(kind).site_range())
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

/// Why the donkey may not move to (x, y).
fn target_fault(x: i16, y: i16, why: &str) -> IllegalMove {
    IllegalMove::Rule(format!("the donkey cannot move to ({x}, {y}): {why}"))
}

/// Moves the donkey to the placed tile at (x, y).
pub(crate) fn move_donkey(
    game: &mut Game<'_>,
    x: i16,
    y: i16,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    let Some(current) = game.modules.donkey.map(|d| d.tile) else {
        return Err(IllegalMove::NotOffered(
            "there is no donkey in this game (no set in it brings one, or the option `donkey` is false)"
                .into(),
        ));
    };
    let cell = game.core.board.cell(i32::from(x), i32::from(y));
    if cell.placed == PlacedId::NONE {
        return Err(target_fault(x, y, "no tile is placed there"));
    }
    if cell.placed == current {
        return Err(target_fault(x, y, "it already stands there"));
    }
    // The sets are taken now rather than at the next draw, where the branch would be a coin
    // toss.
    game.modules.donkey = Some(Donkey {
        tile: cell.placed,
        sets: DonkeySets::of(&game.core, cell.placed),
    });
    events.push(Event::Action {
        player: game.current(),
        action: ActionId::DONKEY,
        target: Target::At { x, y },
    });
    Ok(())
}

/// The number of tiles the donkey may move to now (0 without it).
#[inline]
pub(crate) fn targets(game: &Game<'_>) -> usize {
    match (game.core.phase, game.modules.donkey) {
        (Phase::Act(_), Some(_)) => game.core.board.placed.len() - 1,
        _ => 0,
    }
}

/// The `n`-th tile the donkey may move to, in the order of placing, its own skipped.
pub(crate) fn nth_target(game: &Game<'_>, n: usize) -> Option<Target> {
    let donkey = game.modules.donkey?.tile.index();
    let i = if n >= donkey { n + 1 } else { n };
    let p = game.core.board.placed.get(i)?;
    Some(Target::At { x: p.x, y: p.y })
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

    /// Wherever the filter cleared a rotation of the drawn tile, `may_block` says it could (a
    /// reserve tile's gaps are asked of the filter only there), under both readings, in
    /// random games.
    #[test]
    fn may_block_holds_every_position_the_filter_narrows() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let mut narrowed = 0;
        let readings = [super::DonkeyBlocks::Road, super::DonkeyBlocks::Network];
        for (seed, blocks) in (0..40).zip(readings.repeat(20)) {
            let mut options = GameOptions {
                sets: vec!["base".into(), "village-life".into()],
                ..GameOptions::seeded(2, seed)
            };
            options.rules.modules.donkey_blocks = blocks;
            let mut game = Game::new(&tables, options, &mut Vec::new()).expect("valid options");
            let mut rng = Rng::new(seed);
            let mut moves = Vec::new();
            while let Phase::Place(kind) = game.phase() {
                let donkey = game.modules.donkey.expect("the donkey in play");
                for (slot, open) in game.core.board.frontier.iter().enumerate() {
                    let mask = game.place.mask_at(&game.core, slot);
                    if mask != tables.index.fits(open.pattern, kind) {
                        narrowed += 1;
                        assert!(
                            donkey.may_block(&game.core, (open.x, open.y)),
                            "seed {seed}"
                        );
                    }
                }
                let placement = choose_placement(&game, &mut rng).expect("a placement");
                game.apply(placement, &mut Vec::new()).expect("legal");
                let action = crate::players::random::choose_action(&game, &mut rng, &mut moves);
                let Some(action) = action else { break };
                game.apply(action, &mut Vec::new()).expect("legal");
            }
        }
        assert!(narrowed > 0, "the filter narrowed no position");
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
