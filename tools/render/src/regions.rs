//! A coarse grid over the tile that says which feature owns each spot, so that flowers land in
//! the field they belong to, pennants inside their city, and icons on free ground.
//!
//! Cities are hit-tested against their outlines; roads, rivers, bands, hedges, walls and
//! separators block the grid; each field is flood-filled from its ports, and inner fields take
//! the leftover pockets. Icons (the Festival place, a monastery) stand on their field rather than
//! divide it: they are only marked as taken, so nothing else is put on them. A spot is found on
//! the tile and outside the boxes kept out (where the tile's id is written) where it can be.

use crate::geom::{distance_to_polyline, inside, inward, port_point, step};
use crate::scene::{Point, pt};
use std::cmp::Ordering;
use std::collections::HashSet;
use tiledef::Port;

/// Cells per side.
pub const N: usize = 40;
const CELL: f32 = 1.0 / N as f32;
/// Pockets of fewer cells are slivers, not ground of an inner field.
const MIN_POCKET: usize = 12;

/// What occupies a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing yet: ground no field reached.
    Free,
    /// A road, a river, a hedge, a wall or an icon.
    Blocked,
    /// The feature with this index (a city or a field).
    Feature(usize),
}

/// The labelled grid.
#[derive(Clone, Debug)]
pub struct Regions {
    cells: Vec<Cell>,
    /// The distinct areas marked as used: a tile may place thousands of markers on the one
    /// fallback spot, and every check below would otherwise walk each copy.
    taken: Vec<(Point, f32)>,
    /// The bit patterns of `taken`, to find a repeated area without walking the list.
    taken_keys: HashSet<[u32; 3]>,
    /// Per cell, whether its centre lies inside a used area: kept up to date by `take`, so that
    /// finding a spot costs the grid once rather than the grid times the areas used so far.
    covered: Vec<bool>,
    /// Boxes (north-west and south-east corners) that nothing placed may reach into: where
    /// the tile's id is written.
    keep_out: Vec<(Point, Point)>,
}

/// How far a placed thing's centre keeps from the tile's edge at most, whatever room it asks
/// for: an icon's plate (0.06) and its outline.
const EDGE_MARGIN: f32 = 0.07;

/// What blocks the grid, gathered by the drawing code.
pub struct Obstacles<'a> {
    /// City areas (flattened) with their feature index.
    pub cities: &'a [(usize, Vec<Vec<Point>>)],
    /// Lines that divide the ground (roads, rivers, hedges, walls) with their half width.
    pub lines: &'a [(Vec<Point>, f32)],
}

fn centre_of(i: usize) -> Point {
    pt(
        (i % N) as f32 * CELL + CELL / 2.0,
        (i / N) as f32 * CELL + CELL / 2.0,
    )
}

fn index_of(p: Point) -> Option<usize> {
    if !(0.0..1.0).contains(&p.x) || !(0.0..1.0).contains(&p.y) {
        return None;
    }
    Some((p.y * N as f32) as usize * N + (p.x * N as f32) as usize)
}

impl Regions {
    /// Labels the grid: cities, obstacles, then fields flooded from their ports (in order),
    /// then inner fields (largest pocket first).
    pub fn build(obstacles: &Obstacles<'_>, fields: &[(usize, &[Port])], inner: &[usize]) -> Self {
        let mut cells = vec![Cell::Free; N * N];
        for (i, cell) in cells.iter_mut().enumerate() {
            let c = centre_of(i);
            if let Some((f, _)) = obstacles
                .cities
                .iter()
                .find(|(_, polys)| polys.iter().any(|poly| inside(poly, c)))
            {
                *cell = Cell::Feature(*f);
            }
        }
        // Lines block the cells near each segment: only the cells around it are measured.
        for (line, half) in obstacles.lines {
            let pairs: Vec<[Point; 2]> = if line.len() == 1 {
                vec![[line[0], line[0]]]
            } else {
                line.windows(2).map(|w| [w[0], w[1]]).collect()
            };
            for [a, b] in pairs {
                let span = |lo: f32, hi: f32| {
                    let from = ((lo - half) * N as f32).floor().max(0.0) as usize;
                    let to = (((hi + half) * N as f32).ceil().max(0.0) as usize).min(N);
                    from..to
                };
                for y in span(a.y.min(b.y), a.y.max(b.y)) {
                    for x in span(a.x.min(b.x), a.x.max(b.x)) {
                        let i = y * N + x;
                        if cells[i] == Cell::Free
                            && distance_to_polyline(&[a, b], centre_of(i)) < *half
                        {
                            cells[i] = Cell::Blocked;
                        }
                    }
                }
            }
        }
        let mut regions = Regions {
            cells,
            taken: Vec::new(),
            taken_keys: HashSet::new(),
            covered: vec![false; N * N],
            keep_out: Vec::new(),
        };
        for &(feature, ports) in fields {
            for &port in ports {
                // Walk inwards until free ground: a hedge may cover the edge itself.
                let seed = probe(port).find(|&i| regions.cells[i] != Cell::Blocked);
                if let Some(i) = seed
                    && regions.cells[i] == Cell::Free
                {
                    regions.flood(i, Cell::Feature(feature));
                }
            }
        }
        // Inner fields take the leftover pockets, largest first; when there are more pockets
        // than inner fields, the rest belong to the last one. Slivers where two city outlines
        // nearly meet are too small to read as ground of their own: they stay free.
        let mut pockets: Vec<(usize, usize)> = Vec::new();
        let mut seen = regions.cells.clone();
        for i in 0..N * N {
            if seen[i] == Cell::Free {
                let size = flood_into(&mut seen, i, Cell::Blocked);
                if size >= MIN_POCKET {
                    pockets.push((i, size));
                }
            }
        }
        pockets.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (k, (start, _)) in pockets.into_iter().enumerate() {
            let Some(&feature) = inner.get(k).or(inner.last()) else {
                break;
            };
            regions.flood(start, Cell::Feature(feature));
        }
        regions
    }

    /// What owns the ground by a port: the first cell inward from it that nothing blocks.
    pub fn at_port(&self, port: Port) -> Cell {
        probe(port)
            .map(|i| self.cells[i])
            .find(|c| *c != Cell::Blocked)
            .unwrap_or(Cell::Blocked)
    }

    /// The cell by a port whose owner `at_port` names, if any.
    pub fn port_cell(&self, port: Port) -> Option<usize> {
        probe(port).find(|&i| self.cells[i] != Cell::Blocked)
    }

    fn flood(&mut self, start: usize, label: Cell) {
        flood_into(&mut self.cells, start, label);
    }

    /// The label of each cell, row by row from the north-west.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The side of a cell in tile units.
    pub const fn cell_size() -> f32 {
        CELL
    }

    /// Marks a round area as used, so later spots keep clear of it.
    pub fn take(&mut self, at: Point, radius: f32) {
        if !self
            .taken_keys
            .insert([at.x.to_bits(), at.y.to_bits(), radius.to_bits()])
        {
            return;
        }
        self.taken.push((at, radius));
        for (i, covered) in self.covered.iter_mut().enumerate() {
            // Not `>= radius`, as the spots' test was written (a NaN distance covers the cell).
            let clear = at.dist(centre_of(i)).partial_cmp(&radius);
            *covered |= !matches!(clear, Some(Ordering::Greater | Ordering::Equal));
        }
    }

    /// Marks a box (its north-west and south-east corners) that nothing placed later reaches
    /// into, where another spot is to be had.
    pub fn keep_out(&mut self, from: Point, to: Point) {
        self.keep_out.push((from, to));
    }

    /// Whether something of `radius` at `at` lies wholly on the tile (up to `EDGE_MARGIN`
    /// from its edge) and clear of every box kept out.
    pub fn fits(&self, at: Point, radius: f32) -> bool {
        let m = radius.min(EDGE_MARGIN);
        let on_tile = (m..=1.0 - m).contains(&at.x) && (m..=1.0 - m).contains(&at.y);
        on_tile
            && self.keep_out.iter().all(|(a, b)| {
                let dx = (a.x - at.x).max(at.x - b.x).max(0.0);
                let dy = (a.y - at.y).max(at.y - b.y).max(0.0);
                (dx * dx + dy * dy).sqrt() >= radius
            })
    }

    /// Whether something of `radius` at `at` keeps clear of every area marked as used.
    pub fn is_clear(&self, at: Point, radius: f32) -> bool {
        self.taken.iter().all(|(t, r)| t.dist(at) >= r + radius)
    }

    /// The mean position of a feature's cells.
    pub fn centroid(&self, feature: usize) -> Option<Point> {
        let mut n = 0.0;
        let (mut x, mut y) = (0.0, 0.0);
        for (i, c) in self.cells.iter().enumerate() {
            if *c == Cell::Feature(feature) {
                let p = centre_of(i);
                x += p.x;
                y += p.y;
                n += 1.0;
            }
        }
        (n > 0.0).then(|| pt(x / n, y / n))
    }

    /// A spot for something of `radius` inside the cells that `wanted` accepts: as close to
    /// `prefer` as possible among spots with room, else the roomiest spot; among the spots
    /// where it `fits` (on the tile, clear of the boxes kept out) when there are any.
    pub fn spot(&self, wanted: impl Fn(Cell) -> bool, radius: f32, prefer: Point) -> Option<Point> {
        self.spot_where(wanted, radius, prefer, |_| true)
    }

    /// `spot`, where fitting also asks `also` of the spot (a label's box clear of others).
    pub fn spot_where(
        &self,
        wanted: impl Fn(Cell) -> bool,
        radius: f32,
        prefer: Point,
        also: impl Fn(Point) -> bool,
    ) -> Option<Point> {
        let room = self.room(&wanted);
        let best = |fitting: bool| {
            let mut best: Option<(f32, usize)> = None;
            for (i, r) in room.iter().enumerate() {
                let c = centre_of(i);
                if *r <= 0.0 || (fitting && !(self.fits(c, radius) && also(c))) {
                    continue;
                }
                // Enough room counts fully; less room is penalised, so tight spots lose.
                let score = r.min(radius) * 4.0 - c.dist(prefer);
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, i));
                }
            }
            best.map(|(_, i)| centre_of(i))
        };
        best(true).or_else(|| best(false))
    }

    // For each accepted cell: the distance to the nearest unaccepted, taken or outside cell.
    fn room(&self, wanted: &impl Fn(Cell) -> bool) -> Vec<f32> {
        let big = 10.0;
        let mut d: Vec<f32> = self
            .cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let free = wanted(*c) && !self.covered[i];
                if free { big } else { 0.0 }
            })
            .collect();
        let diag = std::f32::consts::SQRT_2;
        let at = |d: &Vec<f32>, x: isize, y: isize| -> f32 {
            if x < 0 || y < 0 || x >= N as isize || y >= N as isize {
                0.0
            } else {
                d[y as usize * N + x as usize]
            }
        };
        for y in 0..N as isize {
            for x in 0..N as isize {
                let i = y as usize * N + x as usize;
                if d[i] == 0.0 {
                    continue;
                }
                let v = (at(&d, x - 1, y) + 1.0)
                    .min(at(&d, x, y - 1) + 1.0)
                    .min(at(&d, x - 1, y - 1) + diag)
                    .min(at(&d, x + 1, y - 1) + diag);
                d[i] = d[i].min(v);
            }
        }
        for y in (0..N as isize).rev() {
            for x in (0..N as isize).rev() {
                let i = y as usize * N + x as usize;
                if d[i] == 0.0 {
                    continue;
                }
                let v = (at(&d, x + 1, y) + 1.0)
                    .min(at(&d, x, y + 1) + 1.0)
                    .min(at(&d, x + 1, y + 1) + diag)
                    .min(at(&d, x - 1, y + 1) + diag);
                d[i] = d[i].min(v);
            }
        }
        // Cells to tile units, measured from the cell centre to the obstacle's near side.
        d.iter().map(|v| (v - 0.5).max(0.0) * CELL).collect()
    }
}

/// The cells inward from a port, nearest first.
fn probe(port: Port) -> impl Iterator<Item = usize> {
    let dir = inward(port.side());
    (1..12)
        .map(move |k| step(port_point(port), dir, 0.012 + k as f32 * 0.02))
        .filter_map(index_of)
}

fn flood_into(cells: &mut [Cell], start: usize, label: Cell) -> usize {
    if cells[start] != Cell::Free {
        return 0;
    }
    let mut stack = vec![start];
    cells[start] = label;
    let mut count = 0;
    while let Some(i) = stack.pop() {
        count += 1;
        let (x, y) = (i % N, i / N);
        let mut push = |j: usize, cells: &mut [Cell]| {
            if cells[j] == Cell::Free {
                cells[j] = label;
                stack.push(j);
            }
        };
        if x > 0 {
            push(i - 1, cells);
        }
        if x + 1 < N {
            push(i + 1, cells);
        }
        if y > 0 {
            push(i - N, cells);
        }
        if y + 1 < N {
            push(i + N, cells);
        }
    }
    count
}
