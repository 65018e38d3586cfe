//! From a tile's definition to its drawing commands: the picture and the author's overlay.
//!
//! Layout first (where every city, road, icon, pennant and flower group goes), painting second,
//! so the overlay shows exactly the shapes the picture uses.

use crate::geom::{
    self, CENTRE, CityOutline, OUTSIDE, adjacent, along, city_outline, corner, flatten, inward,
    port_point, step,
};
use crate::regions::{Cell, Obstacles, Regions};
use crate::scene::{
    Align, Cap, Command, Point, Rgba, Scene, Seg, Shape, Stroke, polygon, polyline, pt, rect,
};
use tiledef::{FeatureKind, MarkerRule, Meeting, PortCarries, RoadEnd, Side, Tile, TileSet};

/// What to draw besides the picture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawOptions {
    /// Tint each feature in its own colour with its id, and name the ports.
    pub overlay: bool,
    /// Write the tile's id in a corner.
    pub label: bool,
    /// Draw the tile's artwork image (when it names one) instead of the generated picture.
    pub artwork: bool,
}

const FIELD: Rgba = Rgba::rgb(0x7f, 0xb3, 0x56);
const CITY: Rgba = Rgba::rgb(0xc8, 0x93, 0x4f);
const ROAD: Rgba = Rgba::rgb(0xf1, 0xea, 0xd8);
const HEDGE: Rgba = Rgba::rgb(0x3d, 0x6b, 0x2c);
const INK: Rgba = Rgba::rgb(0x2b, 0x22, 0x1a);
const WHITE: Rgba = Rgba::rgb(0xff, 0xff, 0xff);
const ROOF: Rgba = Rgba::rgb(0xa8, 0x4a, 0x32);
const GENERIC_MARKER: Rgba = Rgba::rgb(0x9a, 0x8c, 0x7a);
const FESTIVAL: Rgba = Rgba::rgb(0xf4, 0xc4, 0x30);
const PENNANT: Rgba = Rgba::rgb(0x2f, 0x5f, 0xb3);

/// The road's half width including its border.
const ROAD_HALF: f32 = 0.058;

/// Distinct tints for the overlay, by feature index.
const PALETTE: [Rgba; 12] = [
    Rgba::rgb(0xe6, 0x19, 0x4b),
    Rgba::rgb(0x43, 0x63, 0xd8),
    Rgba::rgb(0xf5, 0x82, 0x31),
    Rgba::rgb(0x91, 0x1e, 0xb4),
    Rgba::rgb(0x42, 0xd4, 0xf4),
    Rgba::rgb(0xf0, 0x32, 0xe6),
    Rgba::rgb(0xbf, 0xef, 0x45),
    Rgba::rgb(0x46, 0x99, 0x90),
    Rgba::rgb(0x9a, 0x63, 0x24),
    Rgba::rgb(0x00, 0x00, 0x75),
    Rgba::rgb(0xff, 0xe1, 0x19),
    Rgba::rgb(0x80, 0x00, 0x00),
];

/// How a road ends inside the tile, resolved to a drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stop {
    /// It leaves by a second port.
    Through,
    /// A village in the open.
    Village(Point),
    /// The road runs into a city: a gate.
    Gate(Point),
    /// Under an icon that is drawn anyway (monastery, marketplace, Festival place).
    Icon,
    /// Before the tile's own hedge.
    Hedge,
}

struct Road {
    feature: usize,
    path: Vec<Seg>,
    line: Vec<Point>,
    stop: Stop,
}

struct City {
    feature: usize,
    outline: CityOutline,
    colour: Rgba,
    pennants: Vec<Point>,
}

struct Plan {
    field: Rgba,
    cities: Vec<City>,
    roads: Vec<(Road, Rgba)>,
    hedges: Vec<(Side, Rgba)>,
    monastery: Option<Point>,
    marketplace: Option<Point>,
    festival: Option<(Point, Rgba)>,
    garden: Option<Point>,
    /// Markers drawn as icons: position, marker kind index.
    markers: Vec<(Point, usize)>,
    /// Flower groups: position, colour.
    flowers: Vec<(Point, Rgba)>,
    roofs: Vec<Point>,
    regions: Regions,
}

/// The drawing commands for one tile.
pub fn draw_tile(set: &TileSet, tile: &Tile, options: &DrawOptions) -> Scene {
    let plan = plan(set, tile);
    let mut scene = Scene::default();
    let artwork = options.artwork.then_some(tile.artwork.as_ref()).flatten();
    match artwork {
        Some(path) => scene.commands.push(Command::Image { path: path.clone() }),
        None => paint(&mut scene, set, &plan),
    }
    if options.overlay {
        overlay(&mut scene, tile, &plan);
    }
    if options.label {
        // With the overlay the corner row holds port names: the id moves up and shrinks.
        let (at, size) = if options.overlay {
            (pt(0.965, 0.875), 0.055)
        } else {
            (pt(0.965, 0.965), 0.075)
        };
        scene.commands.push(Command::Text {
            at,
            size,
            text: tile.id.clone(),
            colour: INK,
            align: Align::Right,
            halo: Some(WHITE.alpha(230)),
        });
    }
    scene
}

fn edge_colour(set: &TileSet, tile: &Tile, side: Side, fallback: Rgba) -> Rgba {
    set.edge_kinds[tile.edge(side)]
        .display
        .map_or(fallback, Rgba::from)
}

/// An edge kind whose centre carries nothing but which closes roads: bushes and the like.
fn is_barrier(set: &TileSet, kind: usize) -> bool {
    let k = &set.edge_kinds[kind];
    k.centre == PortCarries::None && k.meets.contains(&Meeting::Close)
}

fn field_colour(set: &TileSet) -> Rgba {
    set.edge_kinds
        .iter()
        .enumerate()
        .find(|(i, k)| {
            k.centre == PortCarries::None && k.halves == PortCarries::Field && !is_barrier(set, *i)
        })
        .and_then(|(_, k)| k.display)
        .map_or(FIELD, Rgba::from)
}

fn marker_position(tile: &Tile, id: &str) -> Option<Point> {
    tile.art.markers.get(id).map(|[x, y]| pt(*x, *y))
}

fn plan(set: &TileSet, tile: &Tile) -> Plan {
    let city_count = tile
        .features
        .iter()
        .filter(|f| f.kind == FeatureKind::City)
        .count();
    let mut cities = Vec::new();
    for (i, f) in tile.features.iter().enumerate() {
        if f.kind != FeatureKind::City {
            continue;
        }
        let sides: Vec<Side> = f.ports.iter().map(|p| p.side()).collect();
        let colour = sides
            .first()
            .map_or(CITY, |s| edge_colour(set, tile, *s, CITY));
        cities.push(City {
            feature: i,
            outline: city_outline(&sides, city_count > 1),
            colour,
            pennants: Vec::new(),
        });
    }
    let city_polys: Vec<(usize, Vec<Vec<Point>>)> = cities
        .iter()
        .map(|c| (c.feature, flatten(&c.outline.area)))
        .collect();
    let in_city = |p: Point| {
        city_polys
            .iter()
            .any(|(_, polys)| polys.iter().any(|poly| geom::inside(poly, p)))
    };

    let festival_kind = tile
        .markers
        .iter()
        .copied()
        .find(|&m| set.markers[m].rule == Some(MarkerRule::Festival));
    let festival = festival_kind.map(|m| {
        let kind = &set.markers[m];
        (
            marker_position(tile, &kind.id).unwrap_or(CENTRE),
            kind.display.map_or(FESTIVAL, Rgba::from),
        )
    });
    let monastery = tile.has(FeatureKind::Monastery).then_some(CENTRE);
    let marketplace = tile.marketplace.then_some(CENTRE);

    let mut roads = Vec::new();
    for (i, f) in tile.features.iter().enumerate() {
        if f.kind != FeatureKind::Road || f.ports.is_empty() {
            continue;
        }
        let a = f.ports[0];
        let sa = a.side();
        let pa = port_point(a);
        let out_a = step(pa, inward(sa), -OUTSIDE);
        let colour = edge_colour(set, tile, sa, ROAD);
        let curve_to = |sb: Side, end: Point| -> Vec<Seg> {
            if adjacent(sa, sb) {
                let ctrl = CENTRE.lerp(corner(sa, sb), 0.2);
                vec![Seg::Move(out_a), Seg::Line(pa), Seg::Quad(ctrl, end)]
            } else {
                vec![Seg::Move(out_a), Seg::Line(pa), Seg::Line(end)]
            }
        };
        let (path, stop) = if let Some(&b) = f.ports.get(1) {
            let pb = port_point(b);
            let mut path = curve_to(b.side(), pb);
            path.push(Seg::Line(step(pb, inward(b.side()), -OUTSIDE)));
            (path, Stop::Through)
        } else {
            match f.end {
                Some(RoadEnd::N | RoadEnd::E | RoadEnd::S | RoadEnd::W) => {
                    let side = match f.end {
                        Some(RoadEnd::N) => Side::N,
                        Some(RoadEnd::E) => Side::E,
                        Some(RoadEnd::S) => Side::S,
                        _ => Side::W,
                    };
                    let end = step(port_point(side.centre()), inward(side), 0.07);
                    (curve_to(side, end), Stop::Hedge)
                }
                Some(RoadEnd::Monastery) => (
                    vec![Seg::Move(out_a), Seg::Line(pa), Seg::Line(CENTRE)],
                    Stop::Icon,
                ),
                Some(RoadEnd::Marketplace) => (
                    vec![
                        Seg::Move(out_a),
                        Seg::Line(pa),
                        Seg::Line(marketplace.unwrap_or(CENTRE)),
                    ],
                    Stop::Icon,
                ),
                Some(RoadEnd::Festival) if festival.is_some() => {
                    let at = festival.map_or(CENTRE, |(p, _)| p);
                    (
                        vec![Seg::Move(out_a), Seg::Line(pa), Seg::Line(at)],
                        Stop::Icon,
                    )
                }
                _ => {
                    // A junction: at the centre, or at the city wall when a city covers it.
                    let mut hub = pa;
                    let mut gate = false;
                    for k in 1..=50 {
                        let p = pa.lerp(CENTRE, k as f32 / 50.0);
                        if in_city(p) {
                            gate = true;
                            break;
                        }
                        hub = p;
                    }
                    let stop = if gate {
                        Stop::Gate(hub)
                    } else {
                        Stop::Village(CENTRE)
                    };
                    (vec![Seg::Move(out_a), Seg::Line(pa), Seg::Line(hub)], stop)
                }
            }
        };
        let line = flatten(&path).into_iter().next().unwrap_or_default();
        roads.push((
            Road {
                feature: i,
                path,
                line,
                stop,
            },
            colour,
        ));
    }

    let hedges: Vec<(Side, Rgba)> = Side::ALL
        .into_iter()
        .filter(|s| is_barrier(set, tile.edge(*s)))
        .map(|s| (s, edge_colour(set, tile, s, HEDGE)))
        .collect();

    // Obstacles for the region grid.
    let road_lines: Vec<(Vec<Point>, f32)> = roads
        .iter()
        .map(|(r, _)| (r.line.clone(), ROAD_HALF + 0.01))
        .collect();
    let hedge_lines: Vec<(Vec<Point>, f32)> = hedges
        .iter()
        .map(|(s, _)| (hedge_line(*s), 0.085))
        .collect();
    let mut icons: Vec<(Point, f32)> = Vec::new();
    if let Some(p) = monastery {
        icons.push((p, 0.2));
    }
    if let Some(p) = marketplace {
        icons.push((p, 0.18));
    }
    if let Some((p, _)) = festival {
        icons.push((p, 0.19));
    }
    for (r, _) in &roads {
        match r.stop {
            Stop::Village(p) => icons.push((p, 0.1)),
            Stop::Gate(p) => icons.push((p, 0.05)),
            _ => {}
        }
    }
    let fields: Vec<(usize, &[tiledef::Port])> = tile
        .features
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FeatureKind::Field && !f.ports.is_empty())
        .map(|(i, f)| (i, f.ports.as_slice()))
        .collect();
    let inner: Vec<usize> = tile
        .features
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FeatureKind::Field && f.ports.is_empty())
        .map(|(i, _)| i)
        .collect();
    let mut regions = Regions::build(
        &Obstacles {
            cities: &city_polys,
            roads: &road_lines,
            icons: &icons,
            hedges: &hedge_lines,
        },
        &fields,
        &inner,
    );
    for (p, r) in &icons {
        regions.take(*p, *r);
    }
    let is_field =
        |c: Cell| matches!(c, Cell::Feature(i) if tile.features[i].kind == FeatureKind::Field);

    // Garden, then tile-level markers, then wells, then flower groups: each keeps clear of the last.
    let garden = tile.has(FeatureKind::Garden).then(|| {
        let p = regions.spot(is_field, 0.11, pt(0.5, 0.6)).unwrap_or(CENTRE);
        regions.take(p, 0.13);
        p
    });
    let mut markers = Vec::new();
    for &m in &tile.markers {
        if Some(m) == festival_kind {
            continue;
        }
        let p = marker_position(tile, &set.markers[m].id)
            .or_else(|| regions.spot(is_field, 0.08, pt(0.5, 0.65)))
            .unwrap_or(pt(0.2, 0.8));
        regions.take(p, 0.09);
        markers.push((p, m));
    }
    for (road, _) in &roads {
        let list = &tile.features[road.feature].markers;
        for (k, &m) in list.iter().enumerate() {
            let at = marker_position(tile, &set.markers[m].id).unwrap_or_else(|| {
                let t = (k + 1) as f32 / (list.len() + 1) as f32;
                let t = 0.2 + 0.6 * t;
                let mid = along(&road.line, t);
                let ahead = along(&road.line, (t + 0.05).min(1.0));
                let (dx, dy) = (ahead.x - mid.x, ahead.y - mid.y);
                let len = (dx * dx + dy * dy).sqrt().max(1e-6);
                let normal = pt(-dy / len, dx / len);
                let sides = [step(mid, normal, 0.11), step(mid, normal, -0.11)];
                sides
                    .into_iter()
                    .find(|p| {
                        (0.06..0.94).contains(&p.x) && (0.06..0.94).contains(&p.y) && !in_city(*p)
                    })
                    .unwrap_or(sides[0])
            });
            regions.take(at, 0.07);
            markers.push((at, m));
        }
    }
    for (i, f) in tile.features.iter().enumerate() {
        if f.kind == FeatureKind::City {
            continue;
        }
        if matches!(f.kind, FeatureKind::Road) {
            continue;
        }
        for &m in &f.markers {
            let p = marker_position(tile, &set.markers[m].id)
                .or_else(|| regions.spot(|c| c == Cell::Feature(i), 0.08, pt(0.5, 0.5)))
                .unwrap_or(CENTRE);
            regions.take(p, 0.09);
            markers.push((p, m));
        }
    }
    let mut flowers = Vec::new();
    let mut written = 0;
    for (i, f) in tile.features.iter().enumerate() {
        for &colour in &f.flowers {
            let hint = tile.art.flowers.get(written).map(|[x, y]| pt(*x, *y));
            written += 1;
            let prefer = regions.centroid(i).unwrap_or(CENTRE);
            let p = hint
                .or_else(|| regions.spot(|c| c == Cell::Feature(i), 0.075, prefer))
                .or_else(|| regions.spot(is_field, 0.075, prefer))
                .unwrap_or(CENTRE);
            regions.take(p, 0.1);
            flowers.push((p, Rgba::from(set.colours[colour].display)));
        }
    }
    for city in &mut cities {
        let f = &tile.features[city.feature];
        for m in &f.markers {
            let id = city.feature;
            let p = marker_position(tile, &set.markers[*m].id)
                .or_else(|| regions.spot(|c| c == Cell::Feature(id), 0.07, CENTRE))
                .unwrap_or(CENTRE);
            regions.take(p, 0.08);
            markers.push((p, *m));
        }
        for _ in 0..f.pennants {
            let id = city.feature;
            let prefer = regions.centroid(id).unwrap_or(CENTRE);
            if let Some(p) = regions.spot(|c| c == Cell::Feature(id), 0.06, prefer) {
                regions.take(p, 0.075);
                city.pennants.push(p);
            }
        }
    }
    // A few roofs inside each city, on a fixed lattice, where there is room.
    let mut roofs = Vec::new();
    let size = Regions::cell_size();
    for (i, c) in regions.cells().iter().enumerate() {
        let (x, y) = (i % crate::regions::N, i / crate::regions::N);
        let staggered = if (y / 7) % 2 == 0 { 3 } else { 0 };
        if x % 6 != staggered || y % 7 != 3 {
            continue;
        }
        if !matches!(c, Cell::Feature(f) if tile.features[*f].kind == FeatureKind::City) {
            continue;
        }
        let p = pt(x as f32 * size + size / 2.0, y as f32 * size + size / 2.0);
        let clear = [
            pt(-0.045, -0.035),
            pt(0.045, -0.035),
            pt(-0.045, 0.035),
            pt(0.045, 0.035),
        ]
        .iter()
        .all(|d| {
            let q = pt(p.x + d.x, p.y + d.y);
            (0.02..0.98).contains(&q.x) && (0.02..0.98).contains(&q.y) && {
                let idx = (q.y * crate::regions::N as f32) as usize * crate::regions::N
                    + (q.x * crate::regions::N as f32) as usize;
                regions.cells()[idx] == *c
            }
        });
        let near_pennant = cities
            .iter()
            .flat_map(|c| c.pennants.iter())
            .any(|q| q.dist(p) < 0.09);
        if clear && !near_pennant {
            roofs.push(p);
        }
    }

    Plan {
        field: field_colour(set),
        cities,
        roads,
        hedges,
        monastery,
        marketplace,
        festival,
        garden,
        markers,
        flowers,
        roofs,
        regions,
    }
}

fn hedge_line(side: Side) -> Vec<Point> {
    let o = OUTSIDE;
    let line = [pt(-o, 0.035), pt(1.0 + o, 0.035)];
    line.iter().map(|p| geom::turn(*p, side.index())).collect()
}

fn paint(scene: &mut Scene, set: &TileSet, plan: &Plan) {
    let o = OUTSIDE;
    scene.fill(rect(-o, -o, 1.0 + 2.0 * o, 1.0 + 2.0 * o), plan.field);
    // Light furrows give the field some texture without suggesting features.
    for k in 0..5 {
        let y = 0.1 + 0.2 * k as f32;
        scene.stroke(
            Shape::Path(vec![
                Seg::Move(pt(-o, y)),
                Seg::Quad(pt(0.5, y + 0.04), pt(1.0 + o, y)),
            ]),
            Stroke {
                colour: plan.field.lighter(0.12),
                width: 0.012,
                cap: Cap::Butt,
            },
        );
    }
    for city in &plan.cities {
        scene.fill(Shape::Path(city.outline.area.clone()), city.colour);
    }
    for p in &plan.roofs {
        house(scene, *p, 1.0);
    }
    for city in &plan.cities {
        if city.outline.walls.is_empty() {
            continue;
        }
        let walls = Shape::Path(city.outline.walls.clone());
        scene.stroke(
            walls.clone(),
            Stroke {
                colour: city.colour.darker(0.55),
                width: 0.045,
                cap: Cap::Round,
            },
        );
        scene.stroke(
            walls,
            Stroke {
                colour: city.colour.lighter(0.35),
                width: 0.018,
                cap: Cap::Round,
            },
        );
    }
    for (road, colour) in &plan.roads {
        scene.stroke(
            Shape::Path(road.path.clone()),
            Stroke {
                colour: colour.darker(0.55),
                width: 2.0 * ROAD_HALF,
                cap: Cap::Round,
            },
        );
    }
    for (road, colour) in &plan.roads {
        scene.stroke(
            Shape::Path(road.path.clone()),
            Stroke {
                colour: *colour,
                width: 2.0 * ROAD_HALF - 0.03,
                cap: Cap::Round,
            },
        );
    }
    for (side, colour) in &plan.hedges {
        hedge(scene, *side, *colour);
    }
    for (road, _) in &plan.roads {
        match road.stop {
            Stop::Village(p) => house(scene, p, 1.6),
            Stop::Gate(p) => gate(scene, p),
            Stop::Through | Stop::Icon | Stop::Hedge => {}
        }
    }
    if let Some((p, colour)) = plan.festival {
        starburst(scene, p, colour);
    }
    if let Some(p) = plan.monastery {
        monastery(scene, p);
    }
    if let Some(p) = plan.marketplace {
        marketplace(scene, p);
    }
    if let Some(p) = plan.garden {
        garden(scene, p);
    }
    for &(p, m) in &plan.markers {
        marker(scene, set, p, m);
    }
    for city in &plan.cities {
        for p in &city.pennants {
            pennant(scene, *p);
        }
    }
    for &(p, colour) in &plan.flowers {
        flower_group(scene, p, colour);
    }
}

fn hedge(scene: &mut Scene, side: Side, colour: Rgba) {
    let count = 13;
    for k in 0..count {
        let x = -0.06 + 1.12 * k as f32 / (count - 1) as f32;
        let y = if k % 2 == 0 { 0.03 } else { 0.045 };
        let c = geom::turn(pt(x, y), side.index());
        scene.fill_stroke(
            Shape::Circle {
                centre: c,
                radius: 0.05,
            },
            colour,
            Stroke {
                colour: colour.darker(0.4),
                width: 0.008,
                cap: Cap::Round,
            },
        );
    }
    for k in 0..count - 1 {
        let x = -0.02 + 1.12 * k as f32 / (count - 1) as f32;
        let c = geom::turn(pt(x, 0.03), side.index());
        scene.fill(
            Shape::Circle {
                centre: c,
                radius: 0.016,
            },
            colour.lighter(0.3),
        );
    }
}

/// A small house; `scale` 1 is about 0.06 wide.
fn house(scene: &mut Scene, p: Point, scale: f32) {
    let w = 0.03 * scale;
    let h = 0.022 * scale;
    let ink = Stroke {
        colour: INK,
        width: 0.006 * scale.min(1.2),
        cap: Cap::Round,
    };
    scene.fill_stroke(
        rect(p.x - w, p.y - h * 0.2, 2.0 * w, h * 1.4),
        Rgba::rgb(0xef, 0xe4, 0xcc),
        ink,
    );
    scene.fill_stroke(
        polygon(&[
            pt(p.x - w * 1.2, p.y - h * 0.2),
            pt(p.x - w * 0.7, p.y - h * 1.3),
            pt(p.x + w * 0.7, p.y - h * 1.3),
            pt(p.x + w * 1.2, p.y - h * 0.2),
        ]),
        ROOF,
        ink,
    );
}

fn gate(scene: &mut Scene, p: Point) {
    scene.fill_stroke(
        Shape::Circle {
            centre: p,
            radius: 0.04,
        },
        Rgba::rgb(0x3d, 0x2b, 0x1f),
        Stroke {
            colour: Rgba::rgb(0x8a, 0x7a, 0x66),
            width: 0.014,
            cap: Cap::Round,
        },
    );
}

fn starburst(scene: &mut Scene, c: Point, colour: Rgba) {
    let rays = 16;
    let mut points = Vec::with_capacity(rays * 2);
    for k in 0..rays * 2 {
        let a = std::f32::consts::PI * k as f32 / rays as f32;
        let r = if k % 2 == 0 { 0.18 } else { 0.1 };
        points.push(pt(c.x + r * a.sin(), c.y - r * a.cos()));
    }
    scene.fill_stroke(
        polygon(&points),
        colour,
        Stroke {
            colour: colour.darker(0.5),
            width: 0.01,
            cap: Cap::Round,
        },
    );
    scene.fill_stroke(
        Shape::Circle {
            centre: c,
            radius: 0.065,
        },
        Rgba::rgb(0xd9, 0x34, 0x2b),
        Stroke {
            colour: WHITE,
            width: 0.012,
            cap: Cap::Round,
        },
    );
    scene.fill(
        Shape::Circle {
            centre: c,
            radius: 0.022,
        },
        colour.lighter(0.4),
    );
}

fn monastery(scene: &mut Scene, c: Point) {
    let ink = Stroke {
        colour: INK,
        width: 0.01,
        cap: Cap::Round,
    };
    scene.fill_stroke(
        Shape::Circle {
            centre: pt(c.x, c.y + 0.02),
            radius: 0.17,
        },
        Rgba::rgb(0xe6, 0xdc, 0xc3),
        Stroke {
            colour: Rgba::rgb(0x9c, 0x8f, 0x70),
            width: 0.01,
            cap: Cap::Round,
        },
    );
    scene.fill_stroke(
        rect(c.x - 0.09, c.y - 0.04, 0.18, 0.15),
        Rgba::rgb(0xf3, 0xec, 0xd9),
        ink,
    );
    scene.fill_stroke(
        polygon(&[
            pt(c.x - 0.115, c.y - 0.035),
            pt(c.x, c.y - 0.135),
            pt(c.x + 0.115, c.y - 0.035),
        ]),
        Rgba::rgb(0xb5, 0x43, 0x2f),
        ink,
    );
    scene.fill(rect(c.x - 0.022, c.y + 0.04, 0.044, 0.07), INK);
    scene.stroke(
        Shape::Path(vec![
            Seg::Move(pt(c.x, c.y - 0.135)),
            Seg::Line(pt(c.x, c.y - 0.2)),
            Seg::Move(pt(c.x - 0.025, c.y - 0.175)),
            Seg::Line(pt(c.x + 0.025, c.y - 0.175)),
        ]),
        Stroke {
            colour: INK,
            width: 0.014,
            cap: Cap::Butt,
        },
    );
}

fn marketplace(scene: &mut Scene, c: Point) {
    scene.fill_stroke(
        Shape::Circle {
            centre: c,
            radius: 0.16,
        },
        Rgba::rgb(0xe3, 0xd3, 0xae),
        Stroke {
            colour: Rgba::rgb(0x7a, 0x64, 0x40),
            width: 0.014,
            cap: Cap::Round,
        },
    );
    let stalls = [
        (pt(-0.075, -0.06), Rgba::rgb(0xd9, 0x34, 0x2b)),
        (pt(0.075, -0.06), Rgba::rgb(0x2f, 0x5f, 0xb3)),
        (pt(-0.075, 0.07), Rgba::rgb(0xe8, 0xb0, 0x20)),
        (pt(0.075, 0.07), Rgba::rgb(0x3c, 0x8d, 0x3c)),
    ];
    for (d, colour) in stalls {
        let p = pt(c.x + d.x, c.y + d.y);
        scene.fill_stroke(
            rect(p.x - 0.035, p.y - 0.025, 0.07, 0.05),
            colour,
            Stroke {
                colour: INK,
                width: 0.007,
                cap: Cap::Round,
            },
        );
        scene.fill(
            rect(p.x - 0.012, p.y - 0.025, 0.024, 0.05),
            WHITE.alpha(200),
        );
    }
    scene.fill_stroke(
        Shape::Circle {
            centre: c,
            radius: 0.028,
        },
        Rgba::rgb(0x4a, 0x90, 0xd9),
        Stroke {
            colour: Rgba::rgb(0x80, 0x80, 0x80),
            width: 0.01,
            cap: Cap::Round,
        },
    );
}

fn garden(scene: &mut Scene, c: Point) {
    let s = 0.09;
    scene.fill_stroke(
        rect(c.x - s, c.y - s, 2.0 * s, 2.0 * s),
        Rgba::rgb(0xa8, 0xd8, 0x7e),
        Stroke {
            colour: HEDGE,
            width: 0.02,
            cap: Cap::Round,
        },
    );
    for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
        scene.fill_stroke(
            Shape::Circle {
                centre: pt(c.x + dx * 0.045, c.y + dy * 0.045),
                radius: 0.028,
            },
            Rgba::rgb(0x2f, 0x7a, 0x2a),
            Stroke {
                colour: HEDGE.darker(0.4),
                width: 0.006,
                cap: Cap::Round,
            },
        );
    }
    scene.fill(
        Shape::Circle {
            centre: c,
            radius: 0.018,
        },
        Rgba::rgb(0xe0, 0x4f, 0x8a),
    );
}

fn marker(scene: &mut Scene, set: &TileSet, p: Point, m: usize) {
    let kind = &set.markers[m];
    let colour = kind.display.map_or(GENERIC_MARKER, Rgba::from);
    if kind.rule == Some(MarkerRule::Well) {
        scene.fill_stroke(
            Shape::Circle {
                centre: p,
                radius: 0.045,
            },
            Rgba::rgb(0x3f, 0x86, 0xd6),
            Stroke {
                colour: Rgba::rgb(0x8c, 0x86, 0x7c),
                width: 0.022,
                cap: Cap::Round,
            },
        );
        scene.fill(
            Shape::Circle {
                centre: pt(p.x - 0.012, p.y - 0.012),
                radius: 0.012,
            },
            WHITE.alpha(170),
        );
        return;
    }
    // Every other marker, known or new: a badge in its colour with its initial.
    scene.fill_stroke(
        Shape::Circle {
            centre: p,
            radius: 0.06,
        },
        colour,
        Stroke {
            colour: colour.darker(0.6),
            width: 0.012,
            cap: Cap::Round,
        },
    );
    let initial: String = kind
        .name
        .chars()
        .next()
        .or_else(|| kind.id.chars().next())
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    let text = if colour.luma() > 140 { INK } else { WHITE };
    scene.text(p, 0.075, &initial, text, Align::Centre);
}

fn pennant(scene: &mut Scene, p: Point) {
    let (w, h) = (0.042, 0.055);
    let shield = Shape::Path(vec![
        Seg::Move(pt(p.x - w, p.y - h)),
        Seg::Line(pt(p.x + w, p.y - h)),
        Seg::Line(pt(p.x + w, p.y)),
        Seg::Quad(pt(p.x + w, p.y + h * 0.7), pt(p.x, p.y + h)),
        Seg::Quad(pt(p.x - w, p.y + h * 0.7), pt(p.x - w, p.y)),
        Seg::Close,
    ]);
    scene.fill_stroke(
        shield,
        PENNANT,
        Stroke {
            colour: WHITE,
            width: 0.012,
            cap: Cap::Round,
        },
    );
    scene.stroke(
        polyline(&[
            pt(p.x - w * 0.6, p.y - h * 0.35),
            pt(p.x, p.y + h * 0.15),
            pt(p.x + w * 0.6, p.y - h * 0.35),
        ]),
        Stroke {
            colour: WHITE,
            width: 0.01,
            cap: Cap::Round,
        },
    );
}

fn flower_group(scene: &mut Scene, c: Point, colour: Rgba) {
    let heart = if colour.luma() > 200 {
        Rgba::rgb(0xe8, 0xb0, 0x20)
    } else {
        Rgba::rgb(0xf7, 0xe0, 0x6a)
    };
    for (dx, dy) in [(-0.037, 0.022), (0.037, 0.022), (0.0, -0.037)] {
        let f = pt(c.x + dx, c.y + dy);
        for k in 0..5 {
            let a = std::f32::consts::TAU * k as f32 / 5.0;
            scene.fill_stroke(
                Shape::Circle {
                    centre: pt(f.x + 0.017 * a.sin(), f.y - 0.017 * a.cos()),
                    radius: 0.0135,
                },
                colour,
                Stroke {
                    colour: colour.darker(0.45),
                    width: 0.003,
                    cap: Cap::Round,
                },
            );
        }
        scene.fill(
            Shape::Circle {
                centre: f,
                radius: 0.009,
            },
            heart,
        );
    }
}

/// The overlay's short name for a feature: kind and ordinal among its kind, in written order.
pub fn feature_label(tile: &Tile, index: usize) -> String {
    let kind = tile.features[index].kind;
    let n = tile.features[..=index]
        .iter()
        .filter(|f| f.kind == kind)
        .count();
    let total = tile.features.iter().filter(|f| f.kind == kind).count();
    if total == 1 {
        kind.name().to_string()
    } else {
        format!("{} {n}", kind.name())
    }
}

fn overlay(scene: &mut Scene, tile: &Tile, plan: &Plan) {
    let tint = |i: usize| PALETTE[i % PALETTE.len()];
    // Fields: the grid cells each field flooded, merged into runs.
    let size = Regions::cell_size();
    let n = crate::regions::N;
    let cells = plan.regions.cells();
    for y in 0..n {
        let mut x = 0;
        while x < n {
            let c = cells[y * n + x];
            let mut end = x + 1;
            while end < n && cells[y * n + end] == c {
                end += 1;
            }
            if let Cell::Feature(i) = c
                && tile.features[i].kind == FeatureKind::Field
            {
                scene.fill(
                    rect(
                        x as f32 * size,
                        y as f32 * size,
                        (end - x) as f32 * size,
                        size,
                    ),
                    tint(i).alpha(95),
                );
            }
            x = end;
        }
    }
    for city in &plan.cities {
        scene.fill_stroke(
            Shape::Path(city.outline.area.clone()),
            tint(city.feature).alpha(110),
            Stroke {
                colour: tint(city.feature),
                width: 0.012,
                cap: Cap::Round,
            },
        );
    }
    for (road, _) in &plan.roads {
        scene.stroke(
            Shape::Path(road.path.clone()),
            Stroke {
                colour: tint(road.feature).alpha(200),
                width: 0.07,
                cap: Cap::Round,
            },
        );
    }
    let mut labels: Vec<(Point, String, Rgba)> = Vec::new();
    for (i, f) in tile.features.iter().enumerate() {
        let at = match f.kind {
            FeatureKind::Road => plan
                .roads
                .iter()
                .find(|(r, _)| r.feature == i)
                .map(|(r, _)| along(&r.line, 0.3)),
            FeatureKind::Monastery => plan.monastery.map(|p| pt(p.x, p.y + 0.14)),
            FeatureKind::Garden => plan.garden,
            FeatureKind::City | FeatureKind::Field => {
                let prefer = plan.regions.centroid(i).unwrap_or(CENTRE);
                plan.regions.spot(|c| c == Cell::Feature(i), 0.05, prefer)
            }
        };
        if let Some(p) = at {
            labels.push((p, feature_label(tile, i), tint(i)));
        }
        if matches!(f.kind, FeatureKind::Monastery | FeatureKind::Garden)
            && let Some(p) = if f.kind == FeatureKind::Monastery {
                plan.monastery
            } else {
                plan.garden
            }
        {
            scene.fill(
                Shape::Circle {
                    centre: p,
                    radius: 0.13,
                },
                tint(i).alpha(110),
            );
        }
    }
    // Ports: a dot on the edge in the owner's tint (grey for an edge-owned port), and the name.
    for port in tiledef::Port::ALL {
        let owner = tile.feature_at(port);
        let colour = owner.map_or(Rgba::rgb(0x80, 0x80, 0x80), tint);
        let p = port_point(port);
        scene.fill_stroke(
            Shape::Circle {
                centre: p,
                radius: 0.018,
            },
            colour,
            Stroke {
                colour: WHITE,
                width: 0.006,
                cap: Cap::Round,
            },
        );
        // Names sit inside the tile, clear of the edge, whatever their length.
        let (at, align) = match port.side() {
            Side::N => (pt(p.x, 0.065), Align::Centre),
            Side::S => (pt(p.x, 0.935), Align::Centre),
            Side::W => (pt(0.035, p.y + 0.014), Align::Left),
            Side::E => (pt(0.965, p.y + 0.014), Align::Right),
        };
        scene.commands.push(Command::Text {
            at,
            size: 0.04,
            text: port.name().to_string(),
            colour: INK,
            align,
            halo: Some(WHITE.alpha(220)),
        });
    }
    for (p, text, colour) in labels {
        scene.commands.push(Command::Text {
            at: p,
            size: 0.052,
            text,
            colour: colour.darker(0.35),
            align: Align::Centre,
            halo: Some(WHITE.alpha(235)),
        });
    }
}
