//! Placement constraints: paths (a river) that a tile must continue and may not turn back on.
//!
//! An edge kind with a `path` rule binds every tile carrying it: at least one of the tile's
//! edges of that kind must meet a placed tile (`extend`: the tile continues the path at an open
//! end), and with `no-u-turn` each edge of that kind the tile leaves open needs room to go on —
//! the cell it faces, the two cells beside that one and the three beyond them are empty
//! (JCloisterZone's reading of "the river may not turn back on itself"). Both are local: a
//! handful of cell reads per rotation, no walk of the board. They filter the drawn tile's
//! rotation masks (as the donkey's filter does), so `legal_moves` and `apply` agree.

use crate::board::Board;
use crate::state::Game;
use crate::tables::{Orient, Tables};
use tiledef::{PathRule, Side};

/// Why a placement breaks a path rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathFault {
    /// No edge of this path kind (edge code) meets a placed tile.
    Detached {
        /// The path's edge code.
        edge: u8,
    },
    /// The edge of this path kind on this side would have no room to go on.
    NoRoom {
        /// The path's edge code.
        edge: u8,
        /// The side of the placed tile.
        side: Side,
    },
}

/// Whether orientation `o` placed at (x, y) breaks a path rule, and how.
pub fn fault(tables: &Tables, board: &Board, o: &Orient, x: i32, y: i32) -> Option<PathFault> {
    let mut occupied = 0u8;
    for side in Side::ALL {
        let (dx, dy) = side.offset();
        if board.at(x + dx, y + dy).is_some() {
            occupied |= 1 << side.index();
        }
    }
    fault_beside(tables, board, o, (x, y), occupied)
}

/// As `fault`, with the sides whose neighbour cell holds a tile given (bit `Side::index`), as
/// the open position's pattern says: a detached placement is refused without reading a cell.
fn fault_beside(
    tables: &Tables,
    board: &Board,
    o: &Orient,
    (x, y): (i32, i32),
    occupied: u8,
) -> Option<PathFault> {
    // Each path kind on the tile (at most four) must meet a placed tile on some side.
    let mut kinds = [(0u8, false); 4];
    let mut len = 0;
    for side in Side::ALL {
        let edge = o.edges[side.index()];
        if tables.paths.get(edge as usize).copied().flatten().is_none() {
            continue;
        }
        let meets = occupied & (1 << side.index()) != 0;
        match kinds[..len].iter_mut().find(|(e, _)| *e == edge) {
            Some(entry) => entry.1 |= meets,
            None => {
                kinds[len] = (edge, meets);
                len += 1;
            }
        }
    }
    if let Some(&(edge, _)) = kinds[..len].iter().find(|(_, meets)| !meets) {
        return Some(PathFault::Detached { edge });
    }
    for side in Side::ALL {
        let edge = o.edges[side.index()];
        let open = occupied & (1 << side.index()) == 0;
        if open
            && tables.paths.get(edge as usize).copied().flatten() == Some(PathRule::NoUTurn)
            && !has_room(board, x, y, side)
        {
            return Some(PathFault::NoRoom { edge, side });
        }
    }
    None
}

/// The sides (bit `Side::index`) of an orientation whose edge is a path kind.
fn path_sides_of(tables: &Tables, o: &Orient) -> u8 {
    let mut sides = 0;
    for (i, &edge) in o.edges.iter().enumerate() {
        if tables.paths.get(edge as usize).copied().flatten().is_some() {
            sides |= 1 << i;
        }
    }
    sides
}

/// Whether a path leaving the tile at (x, y) by `side` has room to go on: the cell it faces,
/// the two beside that cell, and the three beyond them are empty.
fn has_room(board: &Board, x: i32, y: i32, side: Side) -> bool {
    let (dx, dy) = side.offset();
    // Across the direction of travel.
    let (px, py) = (dy, dx);
    let (ax, ay) = (x + dx, y + dy);
    let (bx, by) = (ax + dx, ay + dy);
    [
        (ax + px, ay + py),
        (ax - px, ay - py),
        (bx, by),
        (bx + px, by + py),
        (bx - px, by - py),
    ]
    .iter()
    .all(|&(cx, cy)| board.at(cx, cy).is_none())
}

/// Removes from the drawn tile's rotation masks the placements that break a path rule;
/// returns how many it removed. Called only for a kind with a path edge.
pub(crate) fn filter(game: &mut Game<'_>, kind: u16) -> u32 {
    let tables = game.tables;
    let mut masks = std::mem::take(game.masks_mut());
    let mut removed = 0;
    let base = tables.index.base;
    // Per rotation, the sides of its path edges.
    let mut path_sides = [0u8; 4];
    for (r, sides) in path_sides.iter_mut().enumerate() {
        *sides = path_sides_of(
            tables,
            &tables.orients[tables.orient_of(kind, r as u8) as usize],
        );
    }
    for (slot, mask) in masks.iter_mut().enumerate() {
        if *mask == 0 {
            continue;
        }
        let open = game.board.frontier[slot];
        // The pattern's digit per side is 0 where the neighbour cell is empty.
        let mut occupied = 0u8;
        let mut pattern = open.pattern;
        for side in 0..4 {
            let digit = pattern % base;
            occupied |= u8::from(digit > 0) << side;
            pattern /= base;
        }
        let mut rest = *mask;
        while rest != 0 {
            let r = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let o = &tables.orients[tables.orient_of(kind, r) as usize];
            let at = (i32::from(open.x), i32::from(open.y));
            // Most open positions touch no path: a placement there with no path edge beside a
            // tile is detached, refused without the full check.
            if path_sides[usize::from(r)] & occupied == 0
                || fault_beside(tables, &game.board, o, at, occupied).is_some()
            {
                *mask &= !(1 << r);
                removed += 1;
            }
        }
    }
    *game.masks_mut() = masks;
    removed
}
