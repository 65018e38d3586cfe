//! The draw: which tile starts a game, and the order the other tiles come out of the bag.
//!
//! A seeded draw is built in phases from the tables' groups: every group drawn `first` (in the
//! tables' group order), then the tiles of no group, then every group drawn `last`; each phase
//! is shuffled on its own, and a group's `held_back` tiles are shuffled after its other tiles
//! (the River's lake comes out last of the river). A fixed draw order (scenarios) is played as
//! written. Nothing here names a set, a group or a tile: it all comes from the tables.
//!
//! A marker kind with `held_until` holds the tiles carrying it out of the draw until a tile
//! carrying the other marker has been placed (the dragon's until a volcano). A seeded draw
//! moves each held tile shuffled before the first such tile to a random place after it
//! (`hold_back`, after the shuffle: JCZ's reading, in docs/decisions.md); in play, `hold`
//! defers a held tile drawn while nothing lets it go (the releasing tile was set aside, a fixed
//! draw, a search's reshuffle) to just after the next releasing tile, or sets it aside when none
//! is left. A draw without such markers is the plain shuffle, unchanged.

use crate::ids::KindId;
use crate::options::{Draw, GameOptions, SetupError};
use crate::rng::Rng;
use crate::tables::Tables;
use tiledef::{GroupDraw, SpareStarts};

/// The start tile of a game and its draw, before any `tiles` cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The tile kind placed at (0, 0), unrotated.
    pub start: KindId,
    /// The tile kinds in draw order.
    pub bag: Vec<KindId>,
}

/// The start tile of a game and its draw before the shuffle: all that a game's seed does not
/// change, prepared once for the many games of a simulation run (`crate::setup::Setup`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// The tile kind placed at (0, 0), unrotated.
    pub start: KindId,
    /// The tile kinds: a seeded draw's segments in draw order, each in kind order; a fixed
    /// draw as written.
    pub bag: Vec<KindId>,
    /// The sizes of the segments a seeded draw shuffles each on its own (none for a fixed draw).
    segments: Vec<usize>,
    /// Per tile kind, the draw rules holding it back and those it lets go (`TileKind::held`,
    /// `releases`); empty when no tile of the draw is held back.
    holds: Vec<(u32, u32)>,
}

impl Prepared {
    /// The draw for a seed: each segment shuffled on its own, in order, by one generator (a
    /// fixed draw is returned as written); only its first `cut` tiles when given (they are
    /// those of the whole shuffle: `Rng::shuffle_prefix`), the rest left out.
    pub fn shuffled(&self, seed: u64, cut: Option<usize>) -> Vec<KindId> {
        let cut = cut.unwrap_or(usize::MAX).min(self.bag.len());
        let mut bag = self.bag.clone();
        let mut rng = Rng::new(seed);
        // Held tiles may move anywhere after their releasing tile: the whole bag is shuffled
        // before the cut, so a cut game still plays the uncut draw's first tiles.
        let shuffle_to = if self.holds.is_empty() {
            cut
        } else {
            bag.len()
        };
        let mut from = 0;
        for &n in &self.segments {
            if from >= shuffle_to {
                break;
            }
            rng.shuffle_prefix(&mut bag[from..from + n], shuffle_to - from);
            from += n;
        }
        if !self.holds.is_empty() && !self.segments.is_empty() {
            hold_back(&mut bag, &self.holds, &mut rng);
        }
        bag.truncate(cut);
        bag
    }
}

/// Moves each tile shuffled before the first tile that lets it go to a uniformly random place
/// after that tile (one draw rule after another, in order), as if it had been set aside and
/// shuffled back into the rest of the draw. The tiles before stay in their shuffled order.
fn hold_back(bag: &mut Vec<KindId>, holds: &[(u32, u32)], rng: &mut Rng) {
    let all = holds.iter().fold(0u32, |bits, &(held, _)| bits | held);
    for h in (0..32).filter(|h| all >> h & 1 == 1) {
        let bit = 1u32 << h;
        let of = |k: &KindId| holds.get(k.index()).copied().unwrap_or_default();
        let Some(first) = bag.iter().position(|k| of(k).1 & bit != 0) else {
            continue;
        };
        let early: Vec<KindId> = (bag[..first].iter().copied())
            .filter(|k| of(k).0 & bit != 0)
            .collect();
        if early.is_empty() {
            continue;
        }
        let mut kept: Vec<KindId> = (bag[..first].iter().copied())
            .filter(|k| of(k).0 & bit == 0)
            .collect();
        let trigger = kept.len();
        kept.extend_from_slice(&bag[first..]);
        for k in early {
            let after = kept.len() - trigger - 1;
            kept.insert(trigger + 1 + rng.below(after + 1), k);
        }
        *bag = kept;
    }
}

/// What the draw does with a held tile drawn in play (`Game::draw_next`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Held {
    /// Nothing holds it back: it is drawn.
    Draw,
    /// It went back into the bag just after the next tile that lets it go.
    Later,
    /// No tile left in the bag lets it go: it is set aside.
    Out,
}

/// Whether the tile at `at` of the bag is drawn now, given the kinds placed so far; a tile
/// still held back goes just after the next tile of the bag that lets it go (a rotation of
/// the bag from `at`), else out of the game.
pub(crate) fn hold(
    tables: &Tables,
    placed: impl Iterator<Item = KindId>,
    bag: &mut [KindId],
    at: usize,
) -> Held {
    let held = tables.kind(bag[at]).held;
    let mut released = 0;
    for k in placed {
        released |= tables.kind(k).releases & held;
        if released == held {
            return Held::Draw;
        }
    }
    let waiting = held & !released;
    let next = (bag[at + 1..].iter()).position(|&k| tables.kind(k).releases & waiting != 0);
    match next {
        Some(j) => {
            bag[at..=at + 1 + j].rotate_left(1);
            Held::Later
        }
        None => Held::Out,
    }
}

impl Prepared {}

/// Builds the start tile and the draw of a game (`prepare`, then the shuffle for the options'
/// seed).
pub fn plan(tables: &Tables, options: &GameOptions) -> Result<Plan, SetupError> {
    let prepared = prepare(tables, options)?;
    Ok(Plan {
        start: prepared.start,
        bag: prepared.shuffled(options.draw.seed(), None),
    })
}

/// Chooses the start tile and lays out the draw before its shuffle (the options' seed is not
/// read).
///
/// The start tile is `options.start` when given; else the first start tile of the game's sets
/// in draw order (a group drawn first that holds one wins: the River's spring; a fixed draw's
/// sets are those of its tiles unless `sets` names them); else, when those sets have none, the
/// tables' start tile (the first set's in load order: the base game's D). Start tiles not chosen are drawn with every
/// copy, unless their group leaves its spare starts out.
pub fn prepare(tables: &Tables, options: &GameOptions) -> Result<Prepared, SetupError> {
    let known = || tables.sets.join(", ");
    let mut sets = Vec::new();
    for id in &options.sets {
        match tables.sets.iter().position(|s| s == id) {
            Some(i) => sets.push(i as u16),
            None => return Err(SetupError::Set(id.clone(), known())),
        }
    }
    // The tile kinds of a set, so a game walks only its own sets' kinds.
    let kinds_of = |s: usize| -> &[u16] { tables.set_kinds.get(s).map_or(&[], Vec::as_slice) };
    let game_sets: Vec<bool> = (0..tables.sets.len())
        .map(|s| sets.is_empty() || sets.contains(&(s as u16)))
        .collect();
    let edition = match &options.edition {
        Some(id) => tables
            .editions
            .iter()
            .position(|e| e == id)
            .ok_or_else(|| SetupError::Edition(id.clone(), tables.editions.join(", ")))?,
        None => tables.editions.len().saturating_sub(1),
    };
    let phase_of = phases(tables);
    let order: Option<Vec<KindId>> = match &options.draw {
        Draw::Order(ids) => Some(
            ids.iter()
                .map(|id| {
                    tables
                        .kind_by_id(id)
                        .ok_or_else(|| SetupError::Tile(id.clone()))
                })
                .collect::<Result<_, _>>()?,
        ),
        Draw::Seed(_) => None,
    };
    // A fixed draw names its tiles, and so its sets: they choose the start tile.
    let mut starts_from = game_sets.clone();
    if let Some(kinds) = order.as_ref().filter(|_| sets.is_empty()) {
        starts_from.fill(false);
        for &k in kinds {
            starts_from[usize::from(tables.kind(k).set)] = true;
        }
    }
    let start = match &options.start {
        Some(id) => tables
            .kind_by_id(id)
            .ok_or_else(|| SetupError::Start(id.clone()))?,
        None => first_start(tables, &starts_from, &phase_of),
    };
    // Copies of each kind in a seeded draw: the start tile's count includes it, and a spare
    // start of a group that leaves them out stays in the box, as do the kinds a set in the
    // game removes (marked by kind: one read per kind, not a search of a list).
    let mut removed = vec![false; tables.kinds.len()];
    for s in (0..tables.sets.len()).filter(|&s| game_sets[s]) {
        for &k in tables.set_removes.get(s).into_iter().flatten() {
            if let Some(r) = removed.get_mut(usize::from(k)) {
                *r = true;
            }
        }
    }
    let copies = |k: usize| -> usize {
        let kind = &tables.kinds[k];
        if !game_sets[usize::from(kind.set)] || removed[k] || kind.reserve.is_some() {
            return 0;
        }
        let n = kind.counts.get(edition).copied().unwrap_or(0) as usize;
        if k == start.index() {
            return n.saturating_sub(1);
        }
        let left_out = kind.start
            && kind
                .group
                .is_some_and(|g| tables.groups[g as usize].spare_starts == SpareStarts::LeaveOut);
        if left_out { 0 } else { n }
    };
    if let Some(bag) = order {
        if bag.len() + 1 > crate::board::MAX_TILES {
            return Err(SetupError::TooManyTiles(bag.len() as u64 + 1));
        }
        let holds = holds_of(tables, &bag);
        return Ok(Prepared {
            start,
            bag,
            segments: Vec::new(),
            holds,
        });
    }
    // The size of each phase's segments (its tiles, then its held-back tiles) and the kinds in
    // the draw, in kind order; then the kinds written in place, each segment shuffled in order.
    let segment = segments(tables);
    let mut sizes = vec![0usize; 2 * (tables.groups.len() + 1)];
    let mut drawn: Vec<(KindId, usize, usize)> = Vec::with_capacity(
        (game_sets.iter().enumerate())
            .filter(|&(_, &used)| used)
            .map(|(s, _)| kinds_of(s).len())
            .sum(),
    );
    for (s, _) in game_sets.iter().enumerate().filter(|&(_, &used)| used) {
        for &k in kinds_of(s) {
            let k = KindId(k);
            let n = copies(k.index());
            if n > 0 {
                let seg = segment(k);
                sizes[seg] += n;
                drawn.push((k, seg, n));
            }
        }
    }
    // Kind order, as if every kind were walked (sets' kinds may interleave).
    if !drawn.is_sorted_by_key(|d| d.0) {
        drawn.sort_unstable_by_key(|d| d.0);
    }
    // Refused before the bag is built: a count of billions must not allocate billions.
    let total: usize = sizes.iter().sum();
    if total + 1 > crate::board::MAX_TILES {
        return Err(SetupError::TooManyTiles(total as u64 + 1));
    }
    let mut at: Vec<usize> = sizes
        .iter()
        .scan(0, |end, &n| {
            *end += n;
            Some(*end - n)
        })
        .collect();
    let mut bag = vec![KindId(0); total];
    for (k, seg, n) in drawn {
        // Most kinds have one copy or a few: a plain loop, not a call to `fill`.
        for tile in &mut bag[at[seg]..at[seg] + n] {
            *tile = k;
        }
        at[seg] += n;
    }
    let holds = holds_of(tables, &bag);
    Ok(Prepared {
        start,
        bag,
        segments: sizes,
        holds,
    })
}

/// The start tile of a game whose sets are `starts_from`: their first start tile by phase, then
/// kind; sets without one start from the first set's (the base game's D).
fn first_start(
    tables: &Tables,
    starts_from: &[bool],
    phase_of: &impl Fn(KindId) -> usize,
) -> KindId {
    let mut first: Option<(usize, KindId)> = None;
    for (s, _) in starts_from.iter().enumerate().filter(|&(_, &from)| from) {
        for &k in tables.set_kinds.get(s).map_or(&[][..], Vec::as_slice) {
            let k = KindId(k);
            if tables.kind(k).start && first.is_none_or(|f| (phase_of(k), k) < f) {
                first = Some((phase_of(k), k));
            }
        }
    }
    first.map_or(KindId(tables.start), |(_, k)| k)
}

/// Each kind's draw rules (held, lets go), when a kind of the bag is held back; else none.
fn holds_of(tables: &Tables, bag: &[KindId]) -> Vec<(u32, u32)> {
    if bag.iter().all(|&k| tables.kind(k).held == 0) {
        return Vec::new();
    }
    (tables.kinds.iter())
        .map(|k| (k.held, k.releases))
        .collect()
}

/// The phase of the draw a tile kind is in: one per group and one for the tiles of no group,
/// in draw order (groups drawn first, the tiles of no group, groups drawn last).
fn phases(tables: &Tables) -> impl Fn(KindId) -> usize + '_ {
    let firsts = tables
        .groups
        .iter()
        .take_while(|g| g.draw == GroupDraw::First)
        .count();
    move |k| match tables.kind(k).group {
        Some(g) if usize::from(g) < firsts => usize::from(g),
        Some(g) => usize::from(g) + 1,
        None => firsts,
    }
}

/// The segment of a seeded draw a tile kind is shuffled in: its phase's tiles, then its
/// phase's held-back tiles. A seeded bag holds the segments in increasing order, so a segment
/// is a run of tiles with the same number (what `Game::shuffle_undrawn` keeps apart).
pub(crate) fn segments(tables: &Tables) -> impl Fn(KindId) -> usize + '_ {
    let phase_of = phases(tables);
    move |k| 2 * phase_of(k) + usize::from(tables.kind(k).held_back)
}
