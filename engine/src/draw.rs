//! The draw: which tile starts a game, and the order the other tiles come out of the bag.
//!
//! A seeded draw is built in phases from the tables' groups: every group drawn `first` (in the
//! tables' group order), then the tiles of no group, then every group drawn `last`; each phase
//! is shuffled on its own, and a group's `held_back` tiles are shuffled after its other tiles
//! (the River's lake comes out last of the river). A fixed draw order (scenarios) is played as
//! written. Nothing here names a set, a group or a tile: it all comes from the tables.

use crate::game::{Draw, GameOptions, SetupError};
use crate::rng::Rng;
use crate::tables::Tables;
use tiledef::{GroupDraw, SpareStarts};

/// The start tile of a game and its draw, before any `tiles` cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The tile kind placed at (0, 0), unrotated.
    pub start: u16,
    /// The tile kinds in draw order.
    pub bag: Vec<u16>,
}

/// Builds the start tile and the draw of a game.
///
/// The start tile is `options.start` when given; else the first start tile of the game's sets
/// in draw order (a group drawn first that holds one wins: the River's spring; a fixed draw's
/// sets are those of its tiles unless `sets` names them); else, when those sets have none, the
/// tables' start tile (the first set's in load order: the base game's D). Start tiles not chosen are drawn with every
/// copy, unless their group leaves its spare starts out.
pub fn plan(tables: &Tables, options: &GameOptions) -> Result<Plan, SetupError> {
    let known = || tables.sets.join(", ");
    let mut sets = Vec::new();
    for id in &options.sets {
        match tables.sets.iter().position(|s| s == id) {
            Some(i) => sets.push(i as u16),
            None => return Err(SetupError::Set(id.clone(), known())),
        }
    }
    let in_game = |k: usize| sets.is_empty() || sets.contains(&tables.kinds[k].set);
    let edition = match &options.edition {
        Some(id) => tables
            .editions
            .iter()
            .position(|e| e == id)
            .ok_or_else(|| SetupError::Edition(id.clone(), tables.editions.join(", ")))?,
        None => tables.editions.len().saturating_sub(1),
    };
    let phases = phases(tables);
    // A fixed draw names its tiles, and so its sets: they choose the start tile.
    let order: Option<Vec<u16>> = match &options.draw {
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
    let mut starts_from = vec![false; tables.sets.len()];
    match &order {
        Some(kinds) if sets.is_empty() => {
            for &k in kinds {
                starts_from[usize::from(tables.kinds[k as usize].set)] = true;
            }
        }
        _ => (0..tables.kinds.len())
            .filter(|&k| in_game(k))
            .for_each(|k| starts_from[usize::from(tables.kinds[k].set)] = true),
    }
    let may_start =
        |k: usize| tables.kinds[k].start && starts_from[usize::from(tables.kinds[k].set)];
    let start = match &options.start {
        Some(id) => tables
            .kind_by_id(id)
            .ok_or_else(|| SetupError::Start(id.clone()))?,
        None => phases
            .iter()
            .find_map(|phase| {
                (0..tables.kinds.len()).find(|&k| phase.holds(tables, k) && may_start(k))
            })
            // Sets without a start tile start from the first set's (the base game's D).
            .map_or(tables.start, |k| k as u16),
    };
    // Copies of each kind in a seeded draw: the start tile's count includes it, and a spare
    // start of a group that leaves them out stays in the box.
    let removed: Vec<u16> = (0..tables.sets.len())
        .filter(|&s| sets.is_empty() || sets.contains(&(s as u16)))
        .flat_map(|s| tables.set_removes.get(s).into_iter().flatten().copied())
        .collect();
    let copies = |k: usize| -> u64 {
        let kind = &tables.kinds[k];
        if !in_game(k) || removed.contains(&(k as u16)) {
            return 0;
        }
        let n = u64::from(kind.counts.get(edition).copied().unwrap_or(0));
        if k == start as usize {
            return n.saturating_sub(1);
        }
        let left_out = kind.start
            && kind
                .group
                .is_some_and(|g| tables.groups[g as usize].spare_starts == SpareStarts::LeaveOut);
        if left_out { 0 } else { n }
    };
    // Refused before the bag is built: a count of billions must not allocate billions.
    let drawn = match &order {
        Some(kinds) => kinds.len() as u64,
        None => (0..tables.kinds.len()).map(copies).sum::<u64>(),
    };
    if drawn + 1 > crate::board::MAX_TILES as u64 {
        return Err(SetupError::TooManyTiles(drawn + 1));
    }
    let bag = match (order, &options.draw) {
        (Some(kinds), _) => kinds,
        (None, Draw::Order(_)) => Vec::new(),
        (None, Draw::Seed(seed)) => {
            let mut rng = Rng::new(*seed);
            let mut bag = Vec::new();
            for phase in &phases {
                for held_back in [false, true] {
                    let from = bag.len();
                    for k in 0..tables.kinds.len() {
                        if phase.holds(tables, k) && tables.kinds[k].held_back == held_back {
                            bag.extend(std::iter::repeat_n(k as u16, copies(k) as usize));
                        }
                    }
                    rng.shuffle(&mut bag[from..]);
                }
            }
            bag
        }
    };
    Ok(Plan { start, bag })
}

/// One phase of a seeded draw: a group, or the tiles of no group.
#[derive(Clone, Copy, Debug)]
enum Phase {
    Group(u16),
    Ungrouped,
}

impl Phase {
    fn holds(self, tables: &Tables, kind: usize) -> bool {
        let group = tables.kinds[kind].group;
        match self {
            Phase::Group(g) => group == Some(g),
            Phase::Ungrouped => group.is_none(),
        }
    }
}

/// The phases in draw order.
fn phases(tables: &Tables) -> Vec<Phase> {
    let side = |draw: GroupDraw| {
        (0..tables.groups.len() as u16).filter(move |&g| tables.groups[g as usize].draw == draw)
    };
    side(GroupDraw::First)
        .map(Phase::Group)
        .chain(std::iter::once(Phase::Ungrouped))
        .chain(side(GroupDraw::Last).map(Phase::Group))
        .collect()
}
