//! Windmills (Village Life): one per player, on any region of the tile just placed, occupied or
//! not; its range is the plus of its tile and two tiles each way; 9 + flowers when all 9 are
//! placed, else 1 per placed tile at the end.

use crate::ids::{FigureId, KindId, PlacedId};
use crate::rules::{ActionId, Bonus, BonusSource, RuleSource, Target};
use crate::scoring::{Reason, Score, Scored};
use crate::state::{Event, Figure, FigureKind, Game, IllegalMove};
use crate::tables::Rates;

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

/// The windmills' state: each player's supply, and those on the board.
#[derive(Clone, Debug)]
pub(crate) struct Windmills {
    /// Windmills in each player's supply.
    pub(crate) supply: Vec<u8>,
    /// The windmills on the board with their placed range tiles.
    pub(crate) mills: Vec<Mill>,
}

impl Windmills {
    /// `count` windmills for each of `players` players, none on the board.
    pub(crate) fn new(count: u8, players: usize) -> Windmills {
        Windmills {
            supply: vec![count; players],
            mills: Vec::new(),
        }
    }

    /// A windmill taken off its tile back to its owner's supply (no scoring).
    pub(crate) fn lift(&mut self, owner: u8, tile: PlacedId) {
        self.supply[usize::from(owner)] += 1;
        self.mills.retain(|m| m.tile != tile);
    }
}

/// A windmill on the board: where, and how many tiles of its range are placed, so that a
/// placement checks it in constant time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mill {
    /// Its tile (one windmill per tile: it goes on the tile just placed).
    pub tile: PlacedId,
    /// Its tile's position.
    pub at: (i16, i16),
    /// Placed tiles of its range, its own included.
    pub placed: u8,
}

/// What the windmills on the board are worth to their owners, for the greedy estimate: each
/// its placed range tiles, and the missing ones times `0.8^missing` of `time`, the share of
/// the game left (the nearer its range is to full, the likelier it fills).
pub(crate) fn worth(game: &Game<'_>, windmills: &Windmills, time: f64, out: &mut [f64]) {
    for m in &windmills.mills {
        let Some(f) = (game.core.figures.iter())
            .find(|f| f.kind == FigureKind::Module(ActionId::WINDMILL) && f.tile == m.tile)
        else {
            continue;
        };
        let missing = WINDMILL_RANGE.len() as i32 - i32::from(m.placed);
        out[usize::from(f.owner)] +=
            f64::from(m.placed) + f64::from(missing) * 0.8f64.powi(missing) * time;
    }
}

/// The refusal of a windmill to a player (0-based) with none left.
fn no_windmill(player: u8) -> IllegalMove {
    IllegalMove::Rule(format!("player {} has no windmill left", player + 1))
}

/// Puts the current player's windmill on a field of the tile just placed.
pub(crate) fn place_windmill(
    game: &mut Game<'_>,
    placed: PlacedId,
    feature: u8,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    if game.modules.windmills.is_none() {
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
        return Err(IllegalMove::Rule(format!(
            "a windmill goes on a field, not on a {}",
            kind.id
        )));
    }
    let player = game.current();
    let in_range = range_tiles(game, placed).1 as u8;
    let p = game.core.board.placed[placed.index()];
    let Some(windmills) = game.modules.windmills.as_mut() else {
        return Err(no_windmill(player));
    };
    if windmills.supply[usize::from(player)] == 0 {
        return Err(no_windmill(player));
    }
    windmills.supply[usize::from(player)] -= 1;
    windmills.mills.push(Mill {
        tile: placed,
        at: (p.x, p.y),
        placed: in_range,
    });
    game.core.figures.push(Figure {
        kind: FigureKind::Module(ActionId::WINDMILL),
        owner: player,
        node: game.core.board.placed[placed.index()].node(feature),
        tile: placed,
        figure: FigureId::FOLLOWER,
    });
    events.push(Event::Action {
        player,
        action: ActionId::WINDMILL,
        target: Target::Feature(feature),
    });
    Ok(())
}

/// Counts the tile just placed into the ranges of the windmills it is in, and scores those it
/// completed.
pub(crate) fn complete(game: &mut Game<'_>, placed: PlacedId, events: &mut Vec<Event>) {
    let p = game.core.board.placed[placed.index()];
    let Some(windmills) = game.modules.windmills.as_mut() else {
        return;
    };
    let mut complete = false;
    for mill in &mut windmills.mills {
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
    while let Some(&mill) = (game.modules.windmills.as_ref()).and_then(|w| w.mills.get(i)) {
        if usize::from(mill.placed) == WINDMILL_RANGE.len()
            && let Some(index) = (game.core.figures.iter()).position(|f| {
                f.kind == FigureKind::Module(ActionId::WINDMILL) && f.tile == mill.tile
            })
        {
            // Scoring lifts the windmill, which drops it from `mills`.
            score_windmill(game, index, true, events);
            continue;
        }
        i += 1;
    }
}

/// Scores every windmill still on the board (the final scoring).
pub(crate) fn final_scoring(game: &mut Game<'_>, events: &mut Vec<Event>) {
    while let Some(i) = game
        .core
        .figures
        .iter()
        .position(|f| f.kind == FigureKind::Module(ActionId::WINDMILL))
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
    if let Some(&colour) =
        (game.modules.flowers.as_ref()).and_then(|f| f.colours.get(owner as usize))
    {
        let groups: u32 = tiles
            .iter()
            .map(|&t| super::flowers::groups_on(game, t, colour))
            .sum();
        if groups > 0 {
            flowers.push(Bonus {
                player: owner,
                points: 3 * groups,
                source: BonusSource::Flowers {
                    colour: game.core.tables.colours[colour as usize].clone(),
                    groups,
                },
            });
        }
    }
    game.core.scores[owner as usize] += points;
    (game.core.stats).credit_rule_points(RuleSource::WINDMILLS, points);
    for b in &flowers {
        game.core.scores[owner as usize] += b.points;
        (game.core.stats).credit_rule_points(RuleSource::FLOWERS, b.points);
    }
    let w = game.core.board.placed[fig.tile.index()];
    let local = game.core.nodes[fig.node.index()].local;
    events.push(Event::Scored(Box::new(Score {
        players: vec![owner],
        kind: Scored::Rule(RuleSource::WINDMILLS),
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
        strength: Vec::new(),
        modifiers: Vec::new(),
        bonuses: flowers,
    })));
}

/// How many windmill moves the current player has on the tile just placed: one per region,
/// while their windmill is in their supply.
#[inline]
pub(crate) fn count(game: &Game<'_>, placed: PlacedId) -> usize {
    let p = usize::from(game.core.current);
    if game
        .modules
        .windmills
        .as_ref()
        .is_some_and(|w| w.supply[p] > 0)
    {
        usize::from(game.core.play_orient(placed).fields)
    } else {
        0
    }
}

/// The `n`-th windmill move's region, in local order.
pub(crate) fn nth(game: &Game<'_>, placed: PlacedId, n: usize) -> Option<Target> {
    let feature = *game.orient(placed).fields.get(n)?;
    Some(Target::Feature(feature))
}
