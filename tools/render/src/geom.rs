//! Tile geometry: where ports sit, quarter turns, and the outlines of cities and roads.
//!
//! Every city shape is written once in a canonical orientation and turned into place, so a cap,
//! a band, a corner, three sides and all four sides each have one definition. A city may be
//! laid out again against another so that their walls enclose an inner field's pocket.

use crate::scene::{Point, Seg, pt};
use tiledef::{Port, Side};

/// How far shapes that reach an edge run past it, for bleed.
pub const OUTSIDE: f32 = 0.1;
/// The tile's centre.
pub const CENTRE: Point = pt(0.5, 0.5);

/// A point turned clockwise about the centre by `quarter_turns`.
pub fn turn(p: Point, quarter_turns: usize) -> Point {
    let mut q = p;
    for _ in 0..quarter_turns % 4 {
        q = pt(1.0 - q.y, q.x);
    }
    q
}

/// A path turned clockwise about the centre.
pub fn turn_path(segs: &[Seg], quarter_turns: usize) -> Vec<Seg> {
    let t = |p: Point| turn(p, quarter_turns);
    segs.iter()
        .map(|s| match *s {
            Seg::Move(p) => Seg::Move(t(p)),
            Seg::Line(p) => Seg::Line(t(p)),
            Seg::Quad(c, p) => Seg::Quad(t(c), t(p)),
            Seg::Cubic(a, b, p) => Seg::Cubic(t(a), t(b), t(p)),
            Seg::Close => Seg::Close,
        })
        .collect()
}

/// Where a port sits on the tile's boundary.
pub fn port_point(port: Port) -> Point {
    const AT: [Point; 12] = [
        pt(0.25, 0.0),
        pt(0.5, 0.0),
        pt(0.75, 0.0),
        pt(1.0, 0.25),
        pt(1.0, 0.5),
        pt(1.0, 0.75),
        pt(0.75, 1.0),
        pt(0.5, 1.0),
        pt(0.25, 1.0),
        pt(0.0, 0.75),
        pt(0.0, 0.5),
        pt(0.0, 0.25),
    ];
    AT[port.index()]
}

/// The unit vector pointing from a side into the tile.
pub fn inward(side: Side) -> Point {
    match side {
        Side::N => pt(0.0, 1.0),
        Side::E => pt(-1.0, 0.0),
        Side::S => pt(0.0, -1.0),
        Side::W => pt(1.0, 0.0),
    }
}

/// `p + v * k`.
pub fn step(p: Point, v: Point, k: f32) -> Point {
    pt(p.x + v.x * k, p.y + v.y * k)
}

/// The corner shared by two adjacent sides.
pub fn corner(a: Side, b: Side) -> Point {
    let x = if a == Side::E || b == Side::E {
        1.0
    } else {
        0.0
    };
    let y = if a == Side::S || b == Side::S {
        1.0
    } else {
        0.0
    };
    pt(x, y)
}

/// Whether two sides are neighbours around the tile.
pub fn adjacent(a: Side, b: Side) -> bool {
    (a.index() + 1) % 4 == b.index() || (b.index() + 1) % 4 == a.index()
}

/// The outline of one city: its area (running past the edges it joins) and its walls.
#[derive(Clone, Debug)]
pub struct CityOutline {
    /// The city's area.
    pub area: Vec<Seg>,
    /// The walls: the boundary inside the tile, as open contours.
    pub walls: Vec<Seg>,
}

/// The outline of a city joining `sides`; `compact` when it shares the tile with other cities.
pub fn city_outline(sides: &[Side], compact: bool) -> CityOutline {
    let o = OUTSIDE;
    let mut has = [false; 4];
    for s in sides {
        has[s.index()] = true;
    }
    let count = has.iter().filter(|h| **h).count();
    let (area, walls, turns) = match count {
        0 | 4 => (
            vec![
                Seg::Move(pt(-o, -o)),
                Seg::Line(pt(1.0 + o, -o)),
                Seg::Line(pt(1.0 + o, 1.0 + o)),
                Seg::Line(pt(-o, 1.0 + o)),
                Seg::Close,
            ],
            vec![],
            0,
        ),
        1 => {
            let k = if compact { 0.36 } else { 0.55 };
            let side = has.iter().position(|h| *h).unwrap_or(0);
            (
                vec![
                    Seg::Move(pt(-o, -o)),
                    Seg::Line(pt(1.0 + o, -o)),
                    Seg::Line(pt(1.0 + o, 0.0)),
                    Seg::Line(pt(1.0, 0.0)),
                    Seg::Quad(pt(0.5, k), pt(0.0, 0.0)),
                    Seg::Line(pt(-o, 0.0)),
                    Seg::Close,
                ],
                vec![Seg::Move(pt(1.0, 0.0)), Seg::Quad(pt(0.5, k), pt(0.0, 0.0))],
                side,
            )
        }
        2 if has[0] == has[2] => {
            // A band between two opposite edges; canonical west–east.
            let t = if compact { 0.62 } else { 0.5 };
            let turns = if has[0] { 1 } else { 0 };
            (
                vec![
                    Seg::Move(pt(-o, 0.0)),
                    Seg::Line(pt(0.0, 0.0)),
                    Seg::Quad(pt(0.5, t), pt(1.0, 0.0)),
                    Seg::Line(pt(1.0 + o, 0.0)),
                    Seg::Line(pt(1.0 + o, 1.0)),
                    Seg::Line(pt(1.0, 1.0)),
                    Seg::Quad(pt(0.5, 1.0 - t), pt(0.0, 1.0)),
                    Seg::Line(pt(-o, 1.0)),
                    Seg::Close,
                ],
                vec![
                    Seg::Move(pt(0.0, 0.0)),
                    Seg::Quad(pt(0.5, t), pt(1.0, 0.0)),
                    Seg::Move(pt(1.0, 1.0)),
                    Seg::Quad(pt(0.5, 1.0 - t), pt(0.0, 1.0)),
                ],
                turns,
            )
        }
        2 => {
            // A corner; canonical north–east.
            let c = if compact { 0.38 } else { 0.6 };
            let first = (0..4).find(|&i| has[i] && has[(i + 1) % 4]).unwrap_or(0);
            (
                vec![
                    Seg::Move(pt(-o, -o)),
                    Seg::Line(pt(1.0 + o, -o)),
                    Seg::Line(pt(1.0 + o, 1.0 + o)),
                    Seg::Line(pt(1.0, 1.0)),
                    Seg::Quad(pt(1.0 - c, c), pt(0.0, 0.0)),
                    Seg::Close,
                ],
                vec![
                    Seg::Move(pt(1.0, 1.0)),
                    Seg::Quad(pt(1.0 - c, c), pt(0.0, 0.0)),
                ],
                first,
            )
        }
        _ => {
            // Three sides; canonical open to the south.
            let d = if compact { 0.5 } else { 0.4 };
            let missing = has.iter().position(|h| !*h).unwrap_or(2);
            (
                vec![
                    Seg::Move(pt(-o, -o)),
                    Seg::Line(pt(1.0 + o, -o)),
                    Seg::Line(pt(1.0 + o, 1.0)),
                    Seg::Line(pt(1.0, 1.0)),
                    Seg::Quad(pt(0.5, d), pt(0.0, 1.0)),
                    Seg::Line(pt(-o, 1.0)),
                    Seg::Close,
                ],
                vec![Seg::Move(pt(1.0, 1.0)), Seg::Quad(pt(0.5, d), pt(0.0, 1.0))],
                (missing + 2) % 4,
            )
        }
    };
    CityOutline {
        area: turn_path(&area, turns),
        walls: turn_path(&walls, turns),
    }
}

/// How deep the walls of the upper of two crossing cities curve in from the corners: a narrow
/// waist, so the pockets beside it have room.
const CROSSING_BAND: f32 = 0.74;

/// Two cities crossing the tile, `[over, under]`: canonically the first joins N and S and is
/// drawn whole, as a compact band; the second joins W and E and passes beneath it, drawn in two
/// pieces either side. `pockets` (0–4) corners of the second are left as ground for the inner
/// fields: north-west and south-east first, so two fields sit diagonally opposite, then
/// north-east and south-west. The rest of the second's corners stay city, so there are never
/// more pockets than fields to fill them.
pub fn crossing_outlines(pockets: usize) -> [CityOutline; 2] {
    let (o, t) = (OUTSIDE, CROSSING_BAND);
    let over = CityOutline {
        area: vec![
            Seg::Move(pt(0.0, -o)),
            Seg::Line(pt(1.0, -o)),
            Seg::Line(pt(1.0, 0.0)),
            Seg::Quad(pt(1.0 - t, 0.5), pt(1.0, 1.0)),
            Seg::Line(pt(1.0, 1.0 + o)),
            Seg::Line(pt(0.0, 1.0 + o)),
            Seg::Line(pt(0.0, 1.0)),
            Seg::Quad(pt(t, 0.5), pt(0.0, 0.0)),
            Seg::Close,
        ],
        walls: vec![
            Seg::Move(pt(1.0, 0.0)),
            Seg::Quad(pt(1.0 - t, 0.5), pt(1.0, 1.0)),
            Seg::Move(pt(0.0, 1.0)),
            Seg::Quad(pt(t, 0.5), pt(0.0, 0.0)),
        ],
    };
    let [nw, se, ne, sw] = [1, 2, 3, 4].map(|k| pockets >= k);
    let west = under_piece(nw, sw);
    let east = under_piece(ne, se);
    let mirror = |segs: &[Seg]| -> Vec<Seg> {
        let m = |p: Point| pt(1.0 - p.x, p.y);
        segs.iter()
            .map(|s| match *s {
                Seg::Move(p) => Seg::Move(m(p)),
                Seg::Line(p) => Seg::Line(m(p)),
                Seg::Quad(c, p) => Seg::Quad(m(c), m(p)),
                Seg::Cubic(a, b, p) => Seg::Cubic(m(a), m(b), m(p)),
                Seg::Close => Seg::Close,
            })
            .collect()
    };
    let mut under = CityOutline {
        area: west.area,
        walls: west.walls,
    };
    under.area.extend(mirror(&east.area));
    under.walls.extend(mirror(&east.walls));
    [over, under]
}

/// The western piece of the city passing beneath a north–south band: from the west edge to the
/// band's west wall, less a pocket of ground against that wall in its north and its south half
/// where asked. The pockets keep clear of the corners and of the band's waist, where the city
/// passes beneath.
fn under_piece(north_pocket: bool, south_pocket: bool) -> CityOutline {
    // The band's west wall: (0,0) to (0,1) by WALL.
    const WALL: Point = pt(CROSSING_BAND, 0.5);
    // The stretch of that wall a northern pocket lies against, and the bulge of its own wall.
    const FROM: f32 = 0.08;
    const TO: f32 = 0.46;
    const BULGE: Point = pt(-0.04, 0.3);
    let o = OUTSIDE;
    let (top, bottom) = (pt(0.0, 0.0), pt(0.0, 1.0));
    // The band's wall between two of its parameters is a quadratic of its own: its ends and
    // control are the wall's blossom at (u, u), (u, v) and (v, v).
    let blossom = |u: f32, v: f32| {
        let (a, b, c) = ((1.0 - u) * (1.0 - v), (1.0 - u) * v + u * (1.0 - v), u * v);
        pt(
            a * top.x + b * WALL.x + c * bottom.x,
            a * top.y + b * WALL.y + c * bottom.y,
        )
    };
    let wall = |u: f32, v: f32| Seg::Quad(blossom(u, v), blossom(v, v));
    let mut area = vec![Seg::Move(pt(-o, 0.0)), Seg::Line(top)];
    let mut walls = Vec::new();
    let mut at = 0.0;
    let pockets = [
        (north_pocket, FROM, TO, BULGE),
        (
            south_pocket,
            1.0 - TO,
            1.0 - FROM,
            pt(BULGE.x, 1.0 - BULGE.y),
        ),
    ];
    for (wanted, from, to, bulge) in pockets {
        if !wanted {
            continue;
        }
        let round = Seg::Quad(bulge, blossom(to, to));
        area.extend([wall(at, from), round]);
        walls.extend([Seg::Move(blossom(from, from)), round]);
        at = to;
    }
    area.extend([wall(at, 1.0), Seg::Line(pt(-o, 1.0)), Seg::Close]);
    CityOutline { area, walls }
}

/// One wall of a city outline: a single quadratic curve.
#[derive(Clone, Copy, Debug)]
struct Wall {
    from: Point,
    control: Point,
    to: Point,
}

impl Wall {
    /// The point at parameter `t` (0 at `from`, 1 at `to`).
    fn at(&self, t: f32) -> Point {
        let (a, b) = (
            self.from.lerp(self.control, t),
            self.control.lerp(self.to, t),
        );
        a.lerp(b, t)
    }

    /// The same curve run the other way.
    fn reversed(self) -> Wall {
        Wall {
            from: self.to,
            control: self.control,
            to: self.from,
        }
    }

    /// The piece between parameters `u` and `v`, as its control and end (its start is `at(u)`):
    /// the curve's blossom at (u, v) and (v, v).
    fn piece(&self, u: f32, v: f32) -> (Point, Point) {
        let blossom = |u: f32, v: f32| {
            let (a, b, c) = ((1.0 - u) * (1.0 - v), (1.0 - u) * v + u * (1.0 - v), u * v);
            pt(
                a * self.from.x + b * self.control.x + c * self.to.x,
                a * self.from.y + b * self.control.y + c * self.to.y,
            )
        };
        (blossom(u, v), blossom(v, v))
    }
}

/// The walls of an outline that are one curve each, as written.
fn single_walls(outline: &CityOutline) -> Vec<Wall> {
    outline
        .walls
        .windows(2)
        .filter_map(|w| match (w[0], w[1]) {
            (Seg::Move(from), Seg::Quad(control, to)) => Some(Wall { from, control, to }),
            _ => None,
        })
        .collect()
}

/// Where along another city's wall a re-laid wall touches it, as parameters from the point
/// the two walls share: it arrives at the first and leaves again at the second, between them
/// lying over that wall's stroke. The pocket is the ground between the shared point and the
/// second.
const TOUCH: (f32, f32) = (0.55, 0.42);
/// How far the pocket's own wall bows from its chord, as a share of the chord's length.
const POCKET_BOW: f32 = 1.0;
/// How far under the other city's wall the re-laid city reaches, so that the two close the
/// pocket on the grid: less than half that wall's stroke, so nothing of it shows.
const UNDERLAP: f32 = 0.015;

/// Whether two points are one.
fn near(a: Point, b: Point) -> bool {
    a.dist(b) < 1e-3
}

/// A wall of `moved` and a wall of `fixed` that end at one point, the second run from there.
fn meeting_walls(moved: &CityOutline, fixed: &CityOutline) -> Option<(Wall, Wall)> {
    single_walls(moved).into_iter().find_map(|m| {
        single_walls(fixed).into_iter().find_map(|f| {
            let f = if near(f.to, m.from) || near(f.to, m.to) {
                f.reversed()
            } else {
                f
            };
            (near(f.from, m.from) || near(f.from, m.to)).then_some((m, f))
        })
    })
}

/// `moved` laid out again beside `fixed` so the two enclose a pocket of ground: where a wall of
/// each ends at one point, with the ground between them open to the rest of the tile, the
/// wall of `moved` is drawn to touch the wall of `fixed` further along and to come back to the
/// shared point from there, bowed away. None when no wall of one ends where one of the
/// other does, or the walls are not single curves.
pub fn pocket_against(moved: &CityOutline, fixed: &CityOutline) -> Option<CityOutline> {
    if moved.walls.len() != 2 * single_walls(moved).len() {
        return None;
    }
    let (mine, theirs) = meeting_walls(moved, fixed)?;
    let fixed_area = flatten(&fixed.area);
    let in_fixed = |p: Point| fixed_area.iter().any(|poly| inside(poly, p));
    // The normal of the fixed wall at `t` that points into the fixed city.
    let inward_at = |t: f32| {
        let (a, b) = (
            theirs.at((t - 0.01).max(0.0)),
            theirs.at((t + 0.01).min(1.0)),
        );
        let len = a.dist(b).max(1e-6);
        let n = pt(-(b.y - a.y) / len, (b.x - a.x) / len);
        let flip = pt(-n.x, -n.y);
        [n, flip]
            .into_iter()
            .find(|d| in_fixed(step(theirs.at(t), *d, 0.03)))
    };
    let (t1, t2) = TOUCH;
    let (q1, q2, shared) = (theirs.at(t1), theirs.at(t2), theirs.from);
    let pocket_control = {
        let away = inward_at(t2 / 2.0)?;
        let k = q2.dist(shared) * POCKET_BOW;
        step(q2.lerp(shared, 0.5), away, -k)
    };
    // Between `q1` and `q2` the city runs just under the fixed wall, along it.
    let under = inward_at((t1 + t2) / 2.0)?;
    let (along_control, _) = theirs.piece(t1, t2);
    let beneath = |p: Point| step(p, under, UNDERLAP);
    let far = Seg::Quad(mine.control, q1);
    let pocket = Seg::Quad(pocket_control, shared);
    let mut walls = vec![Seg::Move(mine.from), far, Seg::Move(q2), pocket];
    let mut course = vec![
        far,
        Seg::Line(beneath(q1)),
        Seg::Quad(beneath(along_control), beneath(q2)),
        Seg::Line(q2),
        pocket,
    ];
    if near(mine.from, shared) {
        // The wall runs from the shared point: the same course the other way.
        walls = vec![
            Seg::Move(shared),
            Seg::Quad(pocket_control, q2),
            Seg::Move(q1),
            Seg::Quad(mine.control, mine.to),
        ];
        course = vec![
            Seg::Quad(pocket_control, q2),
            Seg::Line(beneath(q2)),
            Seg::Quad(beneath(along_control), beneath(q1)),
            Seg::Line(q1),
            Seg::Quad(mine.control, mine.to),
        ];
    }
    let area = with_wall_replaced(&moved.area, mine, &course)?;
    let others = single_walls(moved).into_iter().filter(|w| {
        !(near(w.from, mine.from) && near(w.control, mine.control) && near(w.to, mine.to))
    });
    Some(CityOutline {
        area,
        walls: others
            .flat_map(|w| [Seg::Move(w.from), Seg::Quad(w.control, w.to)])
            .chain(walls)
            .collect(),
    })
}

/// An area's path with the curve of `wall` replaced by `course`, where it runs as the wall does
/// (every outline here is written so); None when it has no such curve.
fn with_wall_replaced(area: &[Seg], wall: Wall, course: &[Seg]) -> Option<Vec<Seg>> {
    let mut at = pt(0.0, 0.0);
    let mut out = Vec::with_capacity(area.len() + course.len());
    let mut replaced = false;
    for seg in area {
        match *seg {
            Seg::Quad(c, end)
                if !replaced
                    && near(at, wall.from)
                    && near(c, wall.control)
                    && near(end, wall.to) =>
            {
                out.extend_from_slice(course);
                replaced = true;
            }
            other => out.push(other),
        }
        at = match *seg {
            Seg::Move(p) | Seg::Line(p) | Seg::Quad(_, p) | Seg::Cubic(_, _, p) => p,
            Seg::Close => at,
        };
    }
    replaced.then_some(out)
}

/// The path's contours as polylines (curves sampled), for hit tests and placement.
pub fn flatten(segs: &[Seg]) -> Vec<Vec<Point>> {
    const STEPS: usize = 16;
    let mut out: Vec<Vec<Point>> = Vec::new();
    let mut cur: Vec<Point> = Vec::new();
    let mut last = pt(0.0, 0.0);
    for s in segs {
        match *s {
            Seg::Move(p) => {
                if cur.len() > 1 {
                    out.push(std::mem::take(&mut cur));
                }
                cur.clear();
                cur.push(p);
                last = p;
            }
            Seg::Line(p) => {
                cur.push(p);
                last = p;
            }
            Seg::Quad(c, p) => {
                for i in 1..=STEPS {
                    let t = i as f32 / STEPS as f32;
                    let a = last.lerp(c, t);
                    let b = c.lerp(p, t);
                    cur.push(a.lerp(b, t));
                }
                last = p;
            }
            Seg::Cubic(c1, c2, p) => {
                for i in 1..=STEPS {
                    let t = i as f32 / STEPS as f32;
                    let a = last.lerp(c1, t);
                    let b = c1.lerp(c2, t);
                    let c = c2.lerp(p, t);
                    let ab = a.lerp(b, t);
                    let bc = b.lerp(c, t);
                    cur.push(ab.lerp(bc, t));
                }
                last = p;
            }
            Seg::Close => {
                if let Some(&first) = cur.first() {
                    last = first;
                }
            }
        }
    }
    if cur.len() > 1 {
        out.push(cur);
    }
    out
}

/// Whether a point lies inside a polygon (even-odd).
pub fn inside(poly: &[Point], p: Point) -> bool {
    let mut c = false;
    let n = poly.len();
    let mut j = n.wrapping_sub(1);
    for i in 0..n {
        let (a, b) = (poly[i], poly[j]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            c = !c;
        }
        j = i;
    }
    c
}

/// The distance from a point to a polyline.
pub fn distance_to_polyline(line: &[Point], p: Point) -> f32 {
    let mut best = f32::INFINITY;
    for w in line.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len2 = dx * dx + dy * dy;
        let t = if len2 > 0.0 {
            (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        best = best.min(p.dist(pt(a.x + dx * t, a.y + dy * t)));
    }
    if line.len() == 1 {
        best = p.dist(line[0]);
    }
    best
}

/// The point at fraction `t` of a polyline's length.
pub fn along(line: &[Point], t: f32) -> Point {
    let total: f32 = line.windows(2).map(|w| w[0].dist(w[1])).sum();
    let mut left = total * t;
    for w in line.windows(2) {
        let d = w[0].dist(w[1]);
        if d >= left && d > 0.0 {
            return w[0].lerp(w[1], left / d);
        }
        left -= d;
    }
    line.last().copied().unwrap_or(CENTRE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covers(sides: &[Side], compact: bool, p: Point) -> bool {
        flatten(&city_outline(sides, compact).area)
            .iter()
            .any(|poly| inside(poly, p))
    }

    #[test]
    fn each_city_shape_covers_its_edges_and_leaves_the_others() {
        // Cap east.
        assert!(covers(&[Side::E], false, pt(0.95, 0.5)));
        assert!(!covers(&[Side::E], false, pt(0.05, 0.5)));
        // Band north–south leaves east and west.
        assert!(covers(&[Side::N, Side::S], false, pt(0.5, 0.05)));
        assert!(covers(&[Side::N, Side::S], false, pt(0.5, 0.95)));
        assert!(!covers(&[Side::N, Side::S], false, pt(0.05, 0.5)));
        // Corner north–west.
        assert!(covers(&[Side::W, Side::N], false, pt(0.1, 0.1)));
        assert!(!covers(&[Side::W, Side::N], false, pt(0.9, 0.9)));
        // Three sides open to the east.
        assert!(covers(&[Side::N, Side::S, Side::W], false, pt(0.5, 0.5)));
        assert!(!covers(&[Side::N, Side::S, Side::W], false, pt(0.97, 0.5)));
        // All four.
        assert!(covers(&Side::ALL, false, pt(0.5, 0.5)));
        // Two compact corners leave the diagonal between them free.
        assert!(!covers(&[Side::N, Side::W], true, pt(0.5, 0.5)));
        assert!(!covers(&[Side::S, Side::E], true, pt(0.5, 0.5)));
    }

    #[test]
    fn crossing_cities_leave_one_pocket_per_inner_field() {
        let hit = |o: &CityOutline, p: Point| flatten(&o.area).iter().any(|poly| inside(poly, p));
        // Inside each corner's pocket, north-west, south-east, north-east, south-west.
        let pockets = [pt(0.2, 0.28), pt(0.8, 0.72), pt(0.8, 0.28), pt(0.2, 0.72)];
        for k in 0..=4 {
            let [over, under] = crossing_outlines(k);
            assert!(hit(&over, pt(0.5, 0.5)) && !hit(&under, pt(0.5, 0.5)));
            assert!(hit(&under, pt(0.05, 0.5)) && hit(&under, pt(0.95, 0.5)));
            for (i, p) in pockets.iter().enumerate() {
                assert!(!hit(&over, *p));
                assert_eq!(hit(&under, *p), i >= k, "{k} pockets, corner {i}");
            }
        }
    }

    #[test]
    fn a_city_laid_out_against_another_encloses_a_pocket_by_their_shared_end() {
        let hit = |o: &CityOutline, p: Point| flatten(&o.area).iter().any(|poly| inside(poly, p));
        let cap = city_outline(&[Side::N], true);
        let corner = city_outline(&[Side::E, Side::S], true);
        // Drawn as they are, the ground by the north-east corner is open to the west.
        assert!(!hit(&cap, pt(0.5, 0.3)) && !hit(&corner, pt(0.5, 0.3)));
        let moved = pocket_against(&corner, &cap).expect("the walls share the north-east corner");
        // The corner city now reaches the cap's wall, under its stroke ...
        assert!(hit(&moved, pt(0.5, 0.3)) && hit(&moved, pt(0.5, 0.19)));
        assert!(!hit(&moved, pt(0.5, 0.16)));
        // ... and leaves ground between the two by the corner.
        assert!(!hit(&moved, pt(0.8, 0.2)) && !hit(&cap, pt(0.8, 0.2)));
        // It keeps its own edges.
        assert!(hit(&moved, pt(0.95, 0.6)) && hit(&moved, pt(0.5, 0.95)));
        // Walls that share no end give nothing.
        let south = city_outline(&[Side::S], true);
        assert!(pocket_against(&south, &cap).is_none());
    }

    #[test]
    fn turning_four_times_is_identity() {
        for p in [pt(0.1, 0.2), pt(0.5, 0.0), pt(1.0, 1.0)] {
            let q = turn(p, 4);
            assert!((p.x - q.x).abs() < 1e-6 && (p.y - q.y).abs() < 1e-6);
        }
        assert_eq!(turn(pt(0.5, 0.0), 1), pt(1.0, 0.5));
    }
}
