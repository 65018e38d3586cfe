//! The board: the placed tiles in placement order, the open positions (the frontier) with the
//! neighbour pattern of each kept up to date, so legal placements are one index lookup per open
//! position, and a two-level grid from positions to both: a directory over the board's bounding
//! box in chunks of 16 × 16 cells, each chunk allocated only when a cell in it is written. Its
//! memory grows with the tiles placed (1 KiB per chunk touched, 4 bytes of directory per
//! 16 × 16 area of the bounding box), not with the square of the span as a dense grid's would:
//! a 16,400-tile straight road takes about 1 MiB, not gigabytes.

use crate::ids::{NodeId, OrientId, PlacedId};

/// A cell that is no open position (its `slot`).
pub const EMPTY: u16 = u16::MAX;

/// One cell of the grid.
#[derive(Clone, Copy, Debug)]
pub struct Cell {
    /// The tile there, or `PlacedId::NONE`.
    pub placed: PlacedId,
    /// Position in `Board::frontier` when the cell is open, else `EMPTY`.
    pub slot: u16,
}

const BLANK: Cell = Cell {
    placed: PlacedId::NONE,
    slot: EMPTY,
};

/// An open position: empty, next to at least one tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Open {
    /// Column.
    pub x: i16,
    /// Row.
    pub y: i16,
    /// Its neighbour pattern (see `PlacementIndex`), kept up to date as neighbours are placed.
    pub pattern: u32,
}

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Column (x grows eastwards).
    pub x: i16,
    /// Row (y grows southwards).
    pub y: i16,
    /// Its orientation.
    pub orient: OrientId,
    /// The feature node of its local feature 0; local feature `i` is node `base + i` (`node`).
    pub base: NodeId,
}

impl Placed {
    /// The feature node of its local feature `local`.
    #[inline]
    pub const fn node(&self, local: u8) -> NodeId {
        self.base.plus(local)
    }
}

/// The most tiles a game may have, the start tile included. Positions are `i16` and frontier
/// slots `u16`: a straight line of n tiles reaches n cells from the start and has 2n + 2 open
/// positions, so 32,000 keeps both in range (and tile indices under `PlacedId::NONE`).
pub const MAX_TILES: usize = 32_000;

/// Cells per chunk side, as a power of two.
const CHUNK_BITS: i32 = 4;
/// Cells per chunk side.
const CHUNK: i32 = 1 << CHUNK_BITS;
/// A directory entry with no chunk.
const NO_CHUNK: u32 = u32::MAX;
/// Positions are shifted so the start tile sits mid-chunk, away from the chunk borders where
/// `neighbours` takes its slower path.
const SHIFT: i32 = CHUNK / 2;

type Chunk = [Cell; (CHUNK * CHUNK) as usize];

/// The placed tiles and the open positions around them.
#[derive(Clone, Debug)]
pub struct Board {
    /// The chunk coordinates of the directory's first column and row.
    x0: i32,
    y0: i32,
    /// The directory's columns and rows.
    width: i32,
    height: i32,
    /// Row-major over the bounding box: an index into `chunks`, or `NO_CHUNK`.
    directory: Vec<u32>,
    chunks: Vec<Chunk>,
    /// Tiles in placement order (the start tile first).
    pub placed: Vec<Placed>,
    /// Empty positions next to at least one tile, with their neighbour patterns.
    pub frontier: Vec<Open>,
    /// The cells beside the tile placed last (N, E, S, W) as `place` returned them: a
    /// neighbour open before it keeps its slot, one it opened shows none.
    pub beside: [Cell; 4],
}

impl Board {
    /// An empty board with room for a few tiles in each direction.
    pub fn new(capacity: usize) -> Board {
        let mut board = Board {
            x0: -1,
            y0: -1,
            width: 3,
            height: 3,
            directory: vec![NO_CHUNK; 9],
            chunks: Vec::with_capacity(9),
            placed: Vec::with_capacity(capacity),
            frontier: Vec::with_capacity(64),
            beside: [BLANK; 4],
        };
        // The start tile's chunk is needed at once.
        board.new_chunk(0, 0);
        board
    }

    /// The directory slot of a chunk, if the chunk lies inside the directory.
    #[inline]
    fn slot_of(&self, cx: i32, cy: i32) -> Option<usize> {
        // Unsigned, a chunk left of or above the directory is past its width or height: one
        // test per axis.
        let (dx, dy) = ((cx - self.x0) as u32, (cy - self.y0) as u32);
        ((dx < self.width as u32) & (dy < self.height as u32))
            .then(|| (dy * self.width as u32 + dx) as usize)
    }

    /// The chunk holding a cell (shifted coordinates), if it was ever written.
    #[inline]
    fn chunk(&self, u: i32, v: i32) -> Option<&Chunk> {
        let slot = self.slot_of(u >> CHUNK_BITS, v >> CHUNK_BITS)?;
        let c = self.directory[slot];
        (c != NO_CHUNK).then(|| &self.chunks[c as usize])
    }

    #[inline]
    fn within(u: i32, v: i32) -> usize {
        (((v & (CHUNK - 1)) << CHUNK_BITS) | (u & (CHUNK - 1))) as usize
    }

    /// The cell at a position (a blank cell where nothing was written).
    #[inline]
    pub fn cell(&self, x: i32, y: i32) -> Cell {
        let (u, v) = (x + SHIFT, y + SHIFT);
        self.chunk(u, v).map_or(BLANK, |c| c[Board::within(u, v)])
    }

    /// For a position away from its chunk's borders, its chunk (None if never written) and its
    /// index there: all cells around it are then in that chunk. None near a border.
    #[inline]
    fn inside_chunk(&self, x: i32, y: i32) -> Option<(Option<&Chunk>, usize)> {
        let (u, v) = (x + SHIFT, y + SHIFT);
        let (lu, lv) = (u & (CHUNK - 1), v & (CHUNK - 1));
        (lu >= 1 && lv >= 1 && lu < CHUNK - 1 && lv < CHUNK - 1)
            .then(|| (self.chunk(u, v), Board::within(u, v)))
    }

    /// The cells beside a position, north, east, south and west (blank where nothing was
    /// written).
    #[inline]
    pub fn neighbours(&self, x: i32, y: i32) -> [Cell; 4] {
        let row = CHUNK as usize;
        match self.inside_chunk(x, y) {
            // All four in the position's own chunk: one lookup.
            Some((Some(c), i)) => [c[i - row], c[i + 1], c[i + row], c[i - 1]],
            Some((None, _)) => [BLANK; 4],
            None => [(0, -1), (1, 0), (0, 1), (-1, 0)].map(|(dx, dy)| self.cell(x + dx, y + dy)),
        }
    }

    /// The 3 × 3 cells centred on a position, row by row from the north-west (blank where
    /// nothing was written): one chunk lookup away from chunk borders.
    #[inline]
    pub fn block(&self, x: i32, y: i32) -> [Cell; 9] {
        let row = CHUNK as usize;
        match self.inside_chunk(x, y) {
            Some((Some(c), i)) => std::array::from_fn(|k| c[i + (k / 3) * row + k % 3 - row - 1]),
            Some((None, _)) => [BLANK; 9],
            None => {
                std::array::from_fn(|k| self.cell(x + (k % 3) as i32 - 1, y + (k / 3) as i32 - 1))
            }
        }
    }

    /// The placed tile at a position.
    #[inline]
    pub fn at(&self, x: i32, y: i32) -> Option<&Placed> {
        let p = self.cell(x, y).placed;
        (p != PlacedId::NONE).then(|| &self.placed[p.index()])
    }

    /// Mutable access to a cell, allocating its chunk (and widening the directory) if needed.
    #[inline]
    pub fn cell_mut(&mut self, x: i32, y: i32) -> &mut Cell {
        let (u, v) = (x + SHIFT, y + SHIFT);
        let (cx, cy) = (u >> CHUNK_BITS, v >> CHUNK_BITS);
        let c = match self.slot_of(cx, cy).map(|slot| self.directory[slot]) {
            Some(c) if c != NO_CHUNK => c as usize,
            _ => self.new_chunk(cx, cy),
        };
        &mut self.chunks[c][Board::within(u, v)]
    }

    /// Allocates a chunk (widening the directory if needed); returns its index.
    #[cold]
    #[inline(never)]
    fn new_chunk(&mut self, cx: i32, cy: i32) -> usize {
        let slot = match self.slot_of(cx, cy) {
            Some(slot) => slot,
            None => {
                self.widen(cx, cy);
                self.slot_of(cx, cy).unwrap_or(0)
            }
        };
        if self.directory[slot] == NO_CHUNK {
            self.directory[slot] = self.chunks.len() as u32;
            self.chunks.push([BLANK; (CHUNK * CHUNK) as usize]);
        }
        self.directory[slot] as usize
    }

    /// Widens the directory to take in a chunk, doubling the side it grows on (so a long line
    /// of tiles widens it a logarithmic number of times); chunks themselves never move.
    fn widen(&mut self, cx: i32, cy: i32) {
        let grow = |lo: i32, len: i32, c: i32| -> (i32, i32) {
            if c < lo {
                let add = (lo - c).max(len);
                (lo - add, len + add)
            } else if c >= lo + len {
                let add = (c - (lo + len) + 1).max(len);
                (lo, len + add)
            } else {
                (lo, len)
            }
        };
        let (x0, width) = grow(self.x0, self.width, cx);
        let (y0, height) = grow(self.y0, self.height, cy);
        let mut directory = vec![NO_CHUNK; (width * height) as usize];
        for row in 0..self.height {
            let from = (row * self.width) as usize;
            let to = ((row + self.y0 - y0) * width + (self.x0 - x0)) as usize;
            directory[to..to + self.width as usize]
                .copy_from_slice(&self.directory[from..from + self.width as usize]);
        }
        (self.x0, self.y0, self.width, self.height) = (x0, y0, width, height);
        self.directory = directory;
    }

    /// Adds `weight` to the pattern of an empty position, opening it if needed.
    pub fn open(&mut self, x: i32, y: i32, weight: u32) {
        let slot = self.frontier.len() as u16;
        let cell = self.cell_mut(x, y);
        if cell.slot == EMPTY {
            cell.slot = slot;
            self.frontier.push(Open {
                x: x as i16,
                y: y as i16,
                pattern: weight,
            });
        } else {
            let slot = cell.slot;
            self.frontier[slot as usize].pattern += weight;
        }
    }

    /// Puts tile `id` (an index into `placed`) at a position: takes it off the frontier, adds
    /// `weights[side]` to the pattern of each empty cell beside it, N, E, S, W (opening it if
    /// new), and returns the cells beside it (N, E, S, W). Away from chunk borders all of it is
    /// done in the position's own chunk, found once.
    #[inline]
    pub fn place(&mut self, x: i32, y: i32, id: PlacedId, weights: [u32; 4]) -> [Cell; 4] {
        let (u, v) = (x + SHIFT, y + SHIFT);
        let (lu, lv) = (u & (CHUNK - 1), v & (CHUNK - 1));
        let interior = lu >= 1 && lv >= 1 && lu < CHUNK - 1 && lv < CHUNK - 1;
        let c = (self.slot_of(u >> CHUNK_BITS, v >> CHUNK_BITS))
            .map(|slot| self.directory[slot])
            .filter(|&c| c != NO_CHUNK);
        let (Some(c), true) = (c, interior) else {
            self.close(x, y);
            self.cell_mut(x, y).placed = id;
            let cells = self.neighbours(x, y);
            for (side, (dx, dy)) in [(0, -1), (1, 0), (0, 1), (-1, 0)].into_iter().enumerate() {
                if cells[side].placed == PlacedId::NONE {
                    self.open(x + dx, y + dy, weights[side]);
                }
            }
            self.beside = cells;
            return cells;
        };
        let i = Board::within(u, v);
        let slot = self.chunks[c as usize][i].slot;
        self.chunks[c as usize][i] = Cell {
            placed: id,
            slot: EMPTY,
        };
        if slot != EMPTY {
            // As `close`: the last open position takes the freed slot.
            self.frontier.swap_remove(slot as usize);
            if let Some(&Open { x, y, .. }) = self.frontier.get(slot as usize) {
                self.cell_mut(i32::from(x), i32::from(y)).slot = slot;
            }
        }
        let chunk = &mut self.chunks[c as usize];
        let row = CHUNK as usize;
        let beside = [i - row, i + 1, i + row, i - 1];
        let cells = beside.map(|j| chunk[j]);
        for (side, (dx, dy)) in [(0, -1), (1, 0), (0, 1), (-1, 0)].into_iter().enumerate() {
            if cells[side].placed != PlacedId::NONE {
                continue;
            }
            let cell = &mut chunk[beside[side]];
            if cell.slot == EMPTY {
                cell.slot = self.frontier.len() as u16;
                self.frontier.push(Open {
                    x: (x + dx) as i16,
                    y: (y + dy) as i16,
                    pattern: weights[side],
                });
            } else {
                self.frontier[cell.slot as usize].pattern += weights[side];
            }
        }
        self.beside = cells;
        cells
    }

    /// Removes a position from the frontier.
    pub fn close(&mut self, x: i32, y: i32) {
        let cell = self.cell_mut(x, y);
        let slot = cell.slot;
        if slot == EMPTY {
            return;
        }
        cell.slot = EMPTY;
        self.frontier.swap_remove(slot as usize);
        if let Some(&Open { x, y, .. }) = self.frontier.get(slot as usize) {
            self.cell_mut(i32::from(x), i32::from(y)).slot = slot;
        }
    }

    /// How many of the 3×3 cells centred on a position hold tiles.
    pub fn placed_around(&self, x: i32, y: i32) -> u32 {
        (self.block(x, y).iter())
            .map(|c| u32::from(c.placed != PlacedId::NONE))
            .sum()
    }

    /// How many tiles of a site's range around a position are placed.
    pub fn placed_in(&self, x: i32, y: i32, range: crate::tables::SiteRange) -> u32 {
        if range == crate::tables::SiteRange::Square(1) {
            return self.placed_around(x, y);
        }
        let r = i32::from(range.reach());
        let mut placed = 0;
        for dy in -r..=r {
            for dx in -r..=r {
                if range.contains(dx, dy) && self.cell(x + dx, y + dy).placed != PlacedId::NONE {
                    placed += 1;
                }
            }
        }
        placed
    }

    /// Bytes held by the grid and lists (for memory reports).
    pub fn heap_bytes(&self) -> usize {
        self.directory.capacity() * 4
            + self.chunks.capacity() * std::mem::size_of::<Chunk>()
            + self.placed.capacity() * std::mem::size_of::<Placed>()
            + self.frontier.capacity() * std::mem::size_of::<Open>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::PlacedId as P;

    #[test]
    fn growing_keeps_cells_and_frontier_slots() {
        let mut b = Board::new(4);
        b.cell_mut(0, 0).placed = P(0);
        b.open(1, 0, 1);
        b.open(-1, 0, 2);
        b.open(-1, 0, 3);
        b.cell_mut(40, -30).placed = P(1);
        assert_eq!(b.cell(0, 0).placed, P(0));
        assert_eq!(b.cell(40, -30).placed, P(1));
        assert_eq!(b.cell(1, 0).slot, 0);
        b.close(1, 0);
        assert_eq!(
            b.frontier,
            vec![Open {
                x: -1,
                y: 0,
                pattern: 5
            }]
        );
        assert_eq!(b.cell(-1, 0).slot, 0);
        assert_eq!(b.cell(1000, 1000).placed, P::NONE);
    }

    #[test]
    fn a_long_line_takes_memory_by_the_tile_not_by_the_square_of_its_span() {
        let mut b = Board::new(16_400);
        for x in 0..16_400 {
            b.cell_mut(x, 0).placed = P((x % 1000) as u16);
            b.open(x, -1, 1);
        }
        assert_eq!(b.cell(16_399, 0).placed, P(399));
        assert_eq!(b.neighbours(16_398, 0)[1].placed, P(399));
        assert_eq!(b.cell(16_400, 0).placed, P::NONE);
        assert_eq!(b.cell(-40_000, 40_000).placed, P::NONE);
        assert_eq!(b.frontier.len(), 16_400);
        // A dense grid doubling around the start would be 32,768² cells; this is ~1,000 chunks.
        assert!(b.heap_bytes() < 4 << 20, "{} bytes", b.heap_bytes());

        // A staircase spans both ways: the directory grows with the area, by 4 bytes per
        // 16 × 16 cells, the chunks with the tiles.
        let mut b = Board::new(16_400);
        for i in 0..16_400 {
            b.cell_mut(i / 2 + i % 2, -(i / 2)).placed = P(1);
        }
        assert_eq!(b.cell(4_100, -4_099).placed, P(1));
        assert!(b.heap_bytes() < 8 << 20, "{} bytes", b.heap_bytes());
    }

    #[test]
    fn neighbours_and_blocks_agree_with_cells_on_and_off_chunk_borders() {
        let mut b = Board::new(64);
        for (i, (x, y)) in (-20..20)
            .flat_map(|x| (-20..20).map(move |y| (x, y)))
            .enumerate()
        {
            if (x * 7 + y * 3) % 5 != 0 {
                b.cell_mut(x, y).placed = P(i as u16);
            }
        }
        for x in -22..22 {
            for y in -22..22 {
                let block = b.block(x, y);
                for (k, cell) in block.iter().enumerate() {
                    let (dx, dy) = ((k % 3) as i32 - 1, (k / 3) as i32 - 1);
                    assert_eq!(cell.placed, b.cell(x + dx, y + dy).placed, "({x}, {y}) {k}");
                }
                let n = b.neighbours(x, y);
                for (k, (dx, dy)) in [(0, -1), (1, 0), (0, 1), (-1, 0)].into_iter().enumerate() {
                    assert_eq!(
                        n[k].placed,
                        b.cell(x + dx, y + dy).placed,
                        "({x}, {y}) side {k}"
                    );
                }
            }
        }
    }
}
