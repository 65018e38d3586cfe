//! The board: a dense grid around the start tile that grows when play reaches its border, the
//! placed tiles in placement order, and the open positions (the frontier) with the neighbour
//! pattern of each kept up to date, so legal placements are one index lookup per open position.

/// A grid cell that holds no tile.
pub const EMPTY: u16 = u16::MAX;

/// One cell of the grid.
#[derive(Clone, Copy, Debug)]
pub struct Cell {
    /// Index into `Board::placed`, or `EMPTY`.
    pub placed: u16,
    /// Position in `Board::frontier` when the cell is open, else `EMPTY`.
    pub slot: u16,
}

const BLANK: Cell = Cell {
    placed: EMPTY,
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
    /// Index into `Tables::orients`.
    pub orient: u16,
    /// The feature node of its local feature 0; local feature `i` is node `base + i`.
    pub base: u32,
}

/// The placed tiles and the open positions around them.
#[derive(Clone, Debug)]
pub struct Board {
    side: i32,
    origin: i32,
    cells: Vec<Cell>,
    /// Tiles in placement order (the start tile first).
    pub placed: Vec<Placed>,
    /// Empty positions next to at least one tile, with their neighbour patterns.
    pub frontier: Vec<Open>,
}

impl Board {
    /// An empty board with room for a few tiles in each direction.
    pub fn new(capacity: usize) -> Board {
        let side = 16;
        Board {
            side,
            origin: side / 2,
            cells: vec![BLANK; (side * side) as usize],
            placed: Vec::with_capacity(capacity),
            frontier: Vec::with_capacity(64),
        }
    }

    #[inline]
    fn offset(&self, x: i32, y: i32) -> Option<usize> {
        let (cx, cy) = (x + self.origin, y + self.origin);
        (cx >= 0 && cy >= 0 && cx < self.side && cy < self.side)
            .then(|| (cy * self.side + cx) as usize)
    }

    /// The cell at a position (a blank cell outside the grid).
    #[inline]
    pub fn cell(&self, x: i32, y: i32) -> Cell {
        self.offset(x, y).map_or(BLANK, |i| self.cells[i])
    }

    /// The cells beside a position, north, east, south and west (blank outside the grid).
    #[inline]
    pub fn neighbours(&self, x: i32, y: i32) -> [Cell; 4] {
        let (cx, cy) = (x + self.origin, y + self.origin);
        if cx >= 1 && cy >= 1 && cx < self.side - 1 && cy < self.side - 1 {
            // One offset for all four, away from the border.
            let (i, row) = ((cy * self.side + cx) as usize, self.side as usize);
            [
                self.cells[i - row],
                self.cells[i + 1],
                self.cells[i + row],
                self.cells[i - 1],
            ]
        } else {
            [(0, -1), (1, 0), (0, 1), (-1, 0)].map(|(dx, dy)| self.cell(x + dx, y + dy))
        }
    }

    /// The placed tile at a position.
    #[inline]
    pub fn at(&self, x: i32, y: i32) -> Option<&Placed> {
        let p = self.cell(x, y).placed;
        (p != EMPTY).then(|| &self.placed[p as usize])
    }

    /// Mutable access to a cell, growing the grid so that it and its neighbours fit.
    pub fn cell_mut(&mut self, x: i32, y: i32) -> &mut Cell {
        let need = x.abs().max(y.abs()) + 2;
        if need > self.origin || need >= self.side - self.origin {
            self.grow(need);
        }
        let i = self.offset(x, y).unwrap_or(0);
        &mut self.cells[i]
    }

    fn grow(&mut self, need: i32) {
        let mut side = self.side;
        while side / 2 <= need + 1 {
            side *= 2;
        }
        let origin = side / 2;
        let mut cells = vec![BLANK; (side * side) as usize];
        for y in 0..self.side {
            for x in 0..self.side {
                let (bx, by) = (x - self.origin + origin, y - self.origin + origin);
                cells[(by * side + bx) as usize] = self.cells[(y * self.side + x) as usize];
            }
        }
        self.side = side;
        self.origin = origin;
        self.cells = cells;
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
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                n += u32::from(self.cell(x + dx, y + dy).placed != EMPTY);
            }
        }
        n
    }

    /// Bytes held by the grid and lists (for memory reports).
    pub fn heap_bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<Cell>()
            + self.placed.capacity() * std::mem::size_of::<Placed>()
            + self.frontier.capacity() * std::mem::size_of::<Open>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growing_keeps_cells_and_frontier_slots() {
        let mut b = Board::new(4);
        b.cell_mut(0, 0).placed = 0;
        b.open(1, 0, 1);
        b.open(-1, 0, 2);
        b.open(-1, 0, 3);
        b.cell_mut(40, -30).placed = 1;
        assert_eq!(b.cell(0, 0).placed, 0);
        assert_eq!(b.cell(40, -30).placed, 1);
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
        assert_eq!(b.cell(1000, 1000).placed, EMPTY);
    }
}
