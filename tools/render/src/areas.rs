//! Where each feature lies on its tile's picture, as another program needs it to let players
//! pick a feature: an outline (for highlighting and clicking) and a point inside it (where a
//! follower stands). Both come from the drawing's own layout, so they match the picture:
//! an area (a city) or a region (a field) is its cells of the region grid (`regions`), a line
//! (a road) the cells it blocks there, a site (a monastery, a garden) the cells under its icon.

use crate::draw::{self, Plan, shape, site_spot};
use crate::regions::{Cell, N, Regions};
use crate::scene::{Point, pt};
use tiledef::{Shape, Tile, TileSet};

/// One feature's area on the picture, in tile units (0 to 1, y southwards).
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureArea {
    /// The feature (index into `Tile::features`).
    pub feature: usize,
    /// Closed outlines along grid lines: outer ones clockwise on screen, holes anticlockwise,
    /// so that the nonzero rule fills exactly the feature's cells.
    pub outline: Vec<Vec<Point>>,
    /// A point well inside the area, the centre of one of its cells.
    pub point: Point,
}

/// The area of every feature of a tile that owns ground on its picture, in feature order.
pub fn feature_areas(set: &TileSet, tile: &Tile) -> Vec<FeatureArea> {
    let layout = draw::plan(set, tile);
    (0..tile.features.len())
        .filter_map(|i| {
            let (mask, prefer) = cells_of(set, tile, &layout, i);
            // A follower on a field or a road keeps off the icons, pennants and flowers on it.
            let icon = shape(set, &tile.features[i]) == Shape::Site;
            let clear = |p: Point| icon || layout.regions.is_clear(p, 0.0);
            let point = inner_point(&mask, prefer, &clear)
                .or_else(|| inner_point(&mask, prefer, &|_| true))?;
            Some(FeatureArea {
                feature: i,
                outline: outline(&mask),
                point,
            })
        })
        .collect()
}

/// The grid cells of feature `i` and the point its follower should stand near.
fn cells_of(set: &TileSet, tile: &Tile, layout: &Plan, i: usize) -> (Vec<bool>, Point) {
    let cells = layout.regions.cells();
    let centre = pt(0.5, 0.5);
    let feature = &tile.features[i];
    match shape(set, feature) {
        Shape::Area | Shape::Region => {
            let mask: Vec<bool> = cells.iter().map(|c| *c == Cell::Feature(i)).collect();
            (mask, layout.regions.centroid(i).unwrap_or(centre))
        }
        Shape::Line => {
            let lines = layout.road_lines(i);
            let near = |p: Point| {
                lines
                    .iter()
                    .any(|l| crate::geom::distance_to_polyline(l, p) < draw::ROAD_HALF + 0.01)
            };
            // The cells the road blocks; where a city was there first (a gate), the road's
            // own line still counts, so a road always has ground.
            let blocked: Vec<bool> = (0..N * N)
                .map(|c| !matches!(cells[c], Cell::Feature(_)) && near(cell_centre(c)))
                .collect();
            let mask = if blocked.contains(&true) {
                blocked
            } else {
                (0..N * N).map(|c| near(cell_centre(c))).collect()
            };
            let prefer = lines.first().map_or(centre, |l| crate::geom::along(l, 0.5));
            (mask, prefer)
        }
        Shape::Site => {
            let (at, radius) = site_spot(set, feature)
                .and_then(|spot| layout.icon_of(spot))
                .unwrap_or((centre, 0.15));
            let mask = (0..N * N)
                .map(|c| cell_centre(c).dist(at) < radius)
                .collect();
            (mask, at)
        }
    }
}

fn cell_centre(c: usize) -> Point {
    let size = Regions::cell_size();
    pt(
        (c % N) as f32 * size + size / 2.0,
        (c / N) as f32 * size + size / 2.0,
    )
}

/// The centre of the cell of `mask` nearest to `prefer` among the deepest ones that `clear`
/// accepts (up to three cells from the area's edge): a follower there stands clear of the
/// outline.
fn inner_point(mask: &[bool], prefer: Point, clear: &dyn Fn(Point) -> bool) -> Option<Point> {
    let depth = depths(mask);
    let candidates: Vec<usize> = (0..N * N)
        .filter(|&c| depth[c] > 0 && clear(cell_centre(c)))
        .collect();
    let deepest = candidates.iter().map(|&c| depth[c]).max()?;
    let wanted = deepest.min(3);
    candidates
        .into_iter()
        .filter(|&c| depth[c] >= wanted)
        .map(cell_centre)
        .min_by(|a, b| a.dist(prefer).total_cmp(&b.dist(prefer)))
}

/// For each cell: 0 outside the mask, else how many steps (4-neighbour) to the nearest cell
/// outside it or the tile's edge.
fn depths(mask: &[bool]) -> Vec<u32> {
    let mut depth: Vec<u32> = mask.iter().map(|&m| if m { u32::MAX } else { 0 }).collect();
    let mut frontier: Vec<usize> = (0..N * N)
        .filter(|&c| mask[c] && neighbours(c).iter().any(|n| n.is_none_or(|n| !mask[n])))
        .collect();
    for &c in &frontier {
        depth[c] = 1;
    }
    let mut level = 1;
    while !frontier.is_empty() {
        level += 1;
        let mut next = Vec::new();
        for c in frontier {
            for n in neighbours(c).into_iter().flatten() {
                if depth[n] == u32::MAX {
                    depth[n] = level;
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    depth
}

fn neighbours(c: usize) -> [Option<usize>; 4] {
    let (x, y) = (c % N, c / N);
    [
        (y > 0).then(|| c - N),
        (x + 1 < N).then(|| c + 1),
        (y + 1 < N).then(|| c + N),
        (x > 0).then(|| c - 1),
    ]
}

/// The boundary of the cells of `mask` as closed loops of grid corners, in tile units. Each
/// cell side between the mask and the rest is an edge with the mask on its right (screen
/// coordinates, y down); edges are chained into loops and straight runs merged.
fn outline(mask: &[bool]) -> Vec<Vec<Point>> {
    let inside = |x: i32, y: i32| {
        (0..N as i32).contains(&x)
            && (0..N as i32).contains(&y)
            && mask[y as usize * N + x as usize]
    };
    // Edges from corner to corner; corners numbered y * (N + 1) + x.
    let corner = |x: i32, y: i32| (y as usize) * (N + 1) + x as usize;
    let mut from: Vec<Vec<usize>> = vec![Vec::new(); (N + 1) * (N + 1)];
    for y in 0..N as i32 {
        for x in 0..N as i32 {
            if !inside(x, y) {
                continue;
            }
            if !inside(x, y - 1) {
                from[corner(x, y)].push(corner(x + 1, y));
            }
            if !inside(x + 1, y) {
                from[corner(x + 1, y)].push(corner(x + 1, y + 1));
            }
            if !inside(x, y + 1) {
                from[corner(x + 1, y + 1)].push(corner(x, y + 1));
            }
            if !inside(x - 1, y) {
                from[corner(x, y + 1)].push(corner(x, y));
            }
        }
    }
    let mut loops = Vec::new();
    for start in 0..from.len() {
        while let Some(mut next) = from[start].pop() {
            // Where two loops touch at a corner, either way round fills the same cells.
            let mut chain = vec![start];
            while next != start {
                chain.push(next);
                match from[next].pop() {
                    Some(n) => next = n,
                    None => break,
                }
            }
            loops.push(straighten(&chain));
        }
    }
    loops
}

/// Corner numbers to points, leaving out the corners where the loop goes straight on.
fn straighten(chain: &[usize]) -> Vec<Point> {
    let size = Regions::cell_size();
    let at = |c: usize| ((c % (N + 1)) as i32, (c / (N + 1)) as i32);
    let n = chain.len();
    (0..n)
        .filter(|&k| {
            let (a, b, c) = (
                at(chain[(k + n - 1) % n]),
                at(chain[k]),
                at(chain[(k + 1) % n]),
            );
            (b.0 - a.0, b.1 - a.1) != (c.0 - b.0, c.1 - b.1)
        })
        .map(|k| {
            let (x, y) = at(chain[k]);
            pt(x as f32 * size, y as f32 * size)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nonzero winding number of the outlines around a point.
    fn winding(outline: &[Vec<Point>], p: Point) -> i32 {
        let mut w = 0;
        for ring in outline {
            for k in 0..ring.len() {
                let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
                if (a.y <= p.y) != (b.y <= p.y) {
                    let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                    if x > p.x {
                        w += if b.y > a.y { 1 } else { -1 };
                    }
                }
            }
        }
        w
    }

    fn mask_of(cells: &[(usize, usize)]) -> Vec<bool> {
        let mut mask = vec![false; N * N];
        for &(x, y) in cells {
            mask[y * N + x] = true;
        }
        mask
    }

    #[test]
    fn a_ring_of_cells_is_an_outline_with_a_hole() {
        let mut cells = Vec::new();
        for y in 10..15 {
            for x in 10..15 {
                if (x, y) != (12, 12) {
                    cells.push((x, y));
                }
            }
        }
        let mask = mask_of(&cells);
        let outline = outline(&mask);
        assert_eq!(outline.len(), 2, "{outline:?}");
        // Four corners each: straight runs are merged.
        assert!(outline.iter().all(|r| r.len() == 4), "{outline:?}");
        for (c, &owned) in mask.iter().enumerate() {
            let inside = winding(&outline, cell_centre(c)) != 0;
            assert_eq!(inside, owned, "cell {c}");
        }
        // The deepest cell nearest the hole's corner, not the hole itself.
        let p = inner_point(&mask, cell_centre(12 * N + 12), &|_| true).unwrap();
        assert!(winding(&outline, p) != 0);
    }

    #[test]
    fn cells_touching_at_a_corner_fill_exactly_themselves() {
        let mask = mask_of(&[(0, 0), (1, 1), (39, 39)]);
        let outline = outline(&mask);
        for (c, &owned) in mask.iter().enumerate() {
            assert_eq!(winding(&outline, cell_centre(c)) != 0, owned, "cell {c}");
        }
    }

    #[test]
    fn every_feature_of_the_bundled_tiles_has_an_area_around_its_point() {
        let set = tiledef::load_bundled();
        for tile in &set.tiles {
            let areas = feature_areas(&set, tile);
            let features: Vec<usize> = areas.iter().map(|a| a.feature).collect();
            assert_eq!(
                features,
                (0..tile.features.len()).collect::<Vec<_>>(),
                "{}",
                tile.id
            );
            for a in &areas {
                let on_tile = |p: &Point| (0.0..=1.0).contains(&p.x) && (0.0..=1.0).contains(&p.y);
                assert!(
                    a.outline.iter().flatten().all(on_tile),
                    "{} {}",
                    tile.id,
                    a.feature
                );
                assert!(
                    winding(&a.outline, a.point) != 0,
                    "{} {}",
                    tile.id,
                    a.feature
                );
            }
        }
    }
}
