//! Placement constraints: paths (a river) that a tile must continue and may not turn back on.
//!
//! An edge kind with a `path` rule binds every tile carrying it: at least one of the tile's
//! edges of that kind must meet a placed tile (`extend`: the tile continues the path at an open
//! end), and with `no-u-turn` each edge of that kind the tile leaves open needs room to go on —
//! the cell it faces, the two cells beside that one and the three beyond them are empty
//! (JCloisterZone's reading of "the river may not turn back on itself").
//!
//! `extend` reads only which neighbours are placed, which the open position's pattern says, so
//! it is compiled into the placement index (`Tables::index`): a river tile's row is
//! non-zero only at the river's open ends. The room check reads cells beyond the neighbours, so
//! it is a filter here: a handful of cell reads per rotation the index allows, clearing the
//! drawn tile's rotation masks (as the donkey's filter does), so `legal_moves` and `apply`
//! agree. `fault` says which rule a refused placement breaks, for `apply`'s error.

use crate::board::{Board, EMPTY};
use crate::ids::{KindId, PlacedId};
use crate::placements::Placements;
use crate::state::Core;
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

/// Whether orientation `o` placed at (x, y) breaks a path rule, and how (the index already
/// refuses a detached placement; this names the rule for the error).
pub fn fault(tables: &Tables, board: &Board, o: &Orient, x: i32, y: i32) -> Option<PathFault> {
    let mut placed = 0u8;
    for side in Side::ALL {
        let (dx, dy) = side.offset();
        if board.at(x + dx, y + dy).is_some() {
            placed |= 1 << side.index();
        }
    }
    // Each path kind on the tile (at most four) must meet a placed tile on some side.
    if let Some(&sides) = (tables.path_sides(o).iter()).find(|&&s| s != 0 && s & placed == 0) {
        let edge = o.edges[sides.trailing_zeros() as usize];
        return Some(PathFault::Detached { edge });
    }
    let open = room_sides(tables, o) & !placed;
    Side::ALL
        .into_iter()
        .find(|side| open & (1 << side.index()) != 0 && !has_room(board, x, y, *side))
        .map(|side| PathFault::NoRoom {
            edge: o.edges[side.index()],
            side,
        })
}

/// The sides (bit `Side::index`) of an orientation whose edge is a `no-u-turn` path.
pub(crate) fn room_sides(tables: &Tables, o: &Orient) -> u8 {
    let mut sides = 0;
    for (i, &edge) in o.edges.iter().enumerate() {
        if tables.path(edge) == Some(PathRule::NoUTurn) {
            sides |= 1 << i;
        }
    }
    sides
}

/// Whether a path leaving the tile at (x, y) by `side` has room to go on: the cell it faces,
/// the two beside that cell, and the three beyond them are empty. The facing cell must be
/// empty (the side is open). The frontier answers for most cells: an empty cell is open exactly
/// when a tile is beside it, and (x, y) is empty, so the facing cell is not open exactly when
/// its three other neighbours are empty, and the cell beyond it likewise for its two sides.
fn has_room(board: &Board, x: i32, y: i32, side: Side) -> bool {
    let (dx, dy) = side.offset();
    let (ax, ay) = (x + dx, y + dy);
    board.cell(ax, ay).slot == EMPTY && room_beyond(board, (ax, ay), (dx, dy))
}

/// Whether a path leaving the tile at (x, y) by `side` may: it meets a placed tile there, or it
/// has room (`has_room`). One read of the facing cell says which, where decoding the open
/// position's pattern would take divisions.
fn may_leave(board: &Board, x: i32, y: i32, side: Side) -> bool {
    let (dx, dy) = side.offset();
    let (ax, ay) = (x + dx, y + dy);
    let facing = board.cell(ax, ay);
    facing.placed != PlacedId::NONE
        || (facing.slot == EMPTY && room_beyond(board, (ax, ay), (dx, dy)))
}

/// `has_room` past its facing cell `a`, empty and not open: the cell beyond it is empty (it is
/// beside the facing cell), and when open, a tile is beside it, beyond or on either side: only
/// the sides count.
fn room_beyond(board: &Board, a: (i32, i32), (dx, dy): (i32, i32)) -> bool {
    // Across the direction of travel.
    let (px, py) = (dy, dx);
    let (bx, by) = (a.0 + dx, a.1 + dy);
    board.cell(bx, by).slot == EMPTY
        || [(bx + px, by + py), (bx - px, by - py)]
            .iter()
            .all(|&(cx, cy)| board.at(cx, cy).is_none())
}

/// Removes from the drawn tile's rotation masks the placements that leave a `no-u-turn` path
/// no room; returns how many it removed. Called only for a kind with such an edge: the index
/// has already kept only the rotations that continue the path (`extend`), so most open
/// positions are passed over with their mask read. The masks are listed in the same walk
/// (`Placements::narrow`).
pub(crate) fn filter(core: &Core<'_>, place: &mut Placements, kind: KindId) -> u32 {
    let mut removed = 0;
    // Per rotation, the sides of its `no-u-turn` edges.
    let mut rooms = [0u8; 4];
    for (r, sides) in rooms.iter_mut().enumerate() {
        *sides = core
            .play
            .orient(core.play.orient_of(kind, r as u8))
            .room_sides;
    }
    place.narrow(core, |open, mut mask| {
        let (x, y) = (i32::from(open.x), i32::from(open.y));
        // Per side, whether it was read, and whether a path leaving by it may: it meets the
        // tile there, or it has room (`may_leave`). Rotations share sides.
        let (mut read, mut may) = (0u8, 0u8);
        let mut rest = mask;
        while rest != 0 {
            let r = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut unread = rooms[r] & !read;
            while unread != 0 {
                let side = Side::ALL[unread.trailing_zeros() as usize];
                unread &= unread - 1;
                read |= 1 << side.index();
                may |= u8::from(may_leave(&core.board, x, y, side)) << side.index();
            }
            if rooms[r] & !may != 0 {
                mask &= !(1 << r);
                removed += 1;
            }
        }
        mask
    });
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Placed;
    use crate::rng::Rng;
    use crate::state::Game;

    /// The six cells read one by one, as the rule says.
    fn room_by_cells(board: &Board, x: i32, y: i32, side: Side) -> bool {
        let (dx, dy) = side.offset();
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

    #[test]
    fn a_filter_s_first_cleared_slot_is_kept_aside_and_a_second_lists_the_masks() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        // A game whose drawn tile fits the first two open positions.
        let start = |seed| {
            let options = crate::game::GameOptions {
                sets: vec!["base".into()],
                ..crate::game::GameOptions::seeded(2, seed)
            };
            Game::new(&tables, options, &mut Vec::new()).expect("valid options")
        };
        let fits_first_two = |game: &Game<'_>| {
            game.core.board.frontier.len() >= 2
                && game.place.mask_at(&game.core, 0) != 0
                && game.place.mask_at(&game.core, 1) != 0
        };
        let mut game = (0..100)
            .map(start)
            .find(fits_first_two)
            .expect("some first tile fits the first two open positions");
        let slots = game.core.board.frontier.len();
        let index: Vec<u8> = (0..slots)
            .map(|s| game.place.mask_at(&game.core, s))
            .collect();
        let masks = |game: &Game<'_>| {
            (0..slots)
                .map(|s| game.place.mask_at(&game.core, s))
                .collect::<Vec<_>>()
        };
        let mut want = index.clone();
        want[0] = 0;
        game.place.set_mask(&game.core, 0, 0);
        assert!(!game.place.listed(), "one slot is kept aside");
        assert_eq!(masks(&game), want);
        assert_eq!(
            game.placement_count(),
            want.iter().map(|m| m.count_ones()).sum::<u32>()
        );
        want[1] &= want[1] - 1;
        game.place.set_mask(&game.core, 1, want[1]);
        assert!(game.place.listed(), "a second slot lists the masks");
        assert_eq!(masks(&game), want);
        assert_eq!(
            game.placement_count(),
            want.iter().map(|m| m.count_ones()).sum::<u32>()
        );
    }

    #[test]
    fn room_read_from_the_frontier_is_room_read_cell_by_cell() {
        let mut rng = Rng::new(11);
        let (mut with, mut without) = (0, 0);
        for _ in 0..40 {
            let mut board = Board::new(80);
            for id in 0..80u16 {
                let (x, y) = match board.frontier.len() {
                    0 => (0, 0),
                    n => {
                        let open = board.frontier[rng.below(n)];
                        (i32::from(open.x), i32::from(open.y))
                    }
                };
                board.place(x, y, crate::ids::PlacedId(id), [1; 4]);
                let placed = Placed {
                    x: x as i16,
                    y: y as i16,
                    orient: crate::ids::OrientId(0),
                    base: crate::ids::NodeId(0),
                };
                board.placed.push(placed);
                for open in board.frontier.clone() {
                    let (x, y) = (i32::from(open.x), i32::from(open.y));
                    for side in Side::ALL {
                        let (dx, dy) = side.offset();
                        if board.at(x + dx, y + dy).is_some() {
                            assert!(may_leave(&board, x, y, side), "a side meeting a tile may");
                            continue;
                        }
                        let room = room_by_cells(&board, x, y, side);
                        assert_eq!(has_room(&board, x, y, side), room, "({x}, {y}) {side:?}");
                        assert_eq!(may_leave(&board, x, y, side), room, "({x}, {y}) {side:?}");
                        if room { with += 1 } else { without += 1 }
                    }
                }
            }
        }
        assert!(
            with > 100 && without > 100,
            "{with} with room, {without} without"
        );
    }

    /// The filter, against the rule as `apply` reads it (`fault`), at every river draw of
    /// random games.
    #[test]
    fn a_path_tile_s_masks_are_the_index_s_without_the_faults() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let (mut draws, mut refused, mut few) = (0, 0, 0);
        for seed in 0..100 {
            let options = crate::game::GameOptions {
                sets: vec!["base".into(), "river".into(), "river-2".into()],
                ..crate::game::GameOptions::seeded(2, seed)
            };
            let mut game = Game::new(&tables, options, &mut Vec::new()).expect("valid options");
            let mut rng = Rng::new(seed);
            let mut moves = Vec::new();
            while game.phase() != crate::game::Phase::Over {
                if let crate::game::Phase::Place(kind) = game.phase()
                    && tables.kind(kind).no_u_turn
                {
                    // Every open position read from the index, the rule read placement by
                    // placement (as `apply` reads it).
                    let row = tables.index.row(kind);
                    let mut want_removed = 0;
                    let want: Vec<u8> = (game.core.board.frontier.iter())
                        .map(|open| {
                            let (x, y) = (i32::from(open.x), i32::from(open.y));
                            let mut mask = row.at(open.pattern);
                            for r in 0..4 {
                                let o = tables.orient(tables.orient_of(kind, r));
                                if mask & (1 << r) != 0
                                    && fault(&tables, &game.core.board, o, x, y).is_some()
                                {
                                    mask &= !(1 << r);
                                    want_removed += 1;
                                }
                            }
                            mask
                        })
                        .collect();
                    // The draw listed the masks already: listed again from the index.
                    let mut again = game.clone();
                    again.place.unlist();
                    let removed = filter(&again.core, &mut again.place, kind);
                    assert_eq!(again.place.masks(), want, "seed {seed}");
                    assert_eq!(removed, want_removed, "seed {seed}");
                    draws += 1;
                    refused += want_removed;
                    // Counting and taking the n-th read only the few slots the filter kept,
                    // when it kept few: they agree with a walk of every slot.
                    few += usize::from(game.place.few_known());
                    let mut all = Vec::new();
                    game.legal_moves(&mut all);
                    assert_eq!(game.placement_count() as usize, all.len(), "seed {seed}");
                    for (n, &mv) in all.iter().enumerate() {
                        assert_eq!(game.nth_placement(n as u32), Some(mv), "seed {seed}");
                    }
                    assert_eq!(game.nth_placement(all.len() as u32), None);
                }
                game.legal_moves(&mut moves);
                let mv = moves[rng.below(moves.len())];
                game.apply(mv, &mut Vec::new()).expect("a legal move");
            }
        }
        assert!(
            draws > 1000 && refused > 0 && few * 2 > draws,
            "{draws} river draws, {refused} refused, {few} with few slots"
        );
    }
}
