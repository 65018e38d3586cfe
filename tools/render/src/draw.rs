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
use tiledef::{
    EdgeStyle, Feature, LineEnd, MarkerIcon, MarkerKind, MarkerRule, Port, Shape as KindShape,
    Side, Tile, TileSet,
};

/// What to draw besides the picture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawOptions {
    /// Tint each feature in its own colour with its id, and name the ports.
    pub overlay: bool,
    /// Which tiles get their id written in a corner.
    pub label: Label,
    /// Draw the tile's artwork image (when it names one) instead of the generated picture.
    pub artwork: bool,
}

/// Which tiles a drawing writes its id on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Label {
    /// None.
    #[default]
    None,
    /// Only tiles drawn from their data: an author's own artwork is left as painted.
    Drawn,
    /// Every tile, its artwork too.
    All,
}

/// How a feature lies on its tile, by its declared kind: what its layout follows.
pub(crate) fn shape(set: &TileSet, f: &Feature) -> KindShape {
    set.kind_of(f).shape
}

/// Whether feature `i` of a tile is a region (a field): ground the region grid floods.
fn is_region(set: &TileSet, tile: &Tile, i: usize) -> bool {
    shape(set, &tile.features[i]) == KindShape::Region
}

/// Where a site stands on its tile's picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spot {
    /// At the centre, in a cloister's room: a monastery, an island's hut.
    Centre,
    /// On open ground of a field, in a garden's smaller room.
    Garden,
}

/// Where a feature stands if it is a site: on a field when it looks like a garden, else at the
/// centre. A kind without a look is placed as base's would be: a garden when no follower may
/// claim it.
pub(crate) fn site_spot(set: &TileSet, f: &Feature) -> Option<Spot> {
    let kind = set.kind_of(f);
    let garden =
        (kind.look.as_ref()).map_or(!kind.claimable, |l| l.style == tiledef::LookStyle::Garden);
    match (kind.shape, garden) {
        (KindShape::Site, true) => Some(Spot::Garden),
        (KindShape::Site, false) => Some(Spot::Centre),
        _ => None,
    }
}

/// Whether a tile has a site standing at `spot`.
fn has_site(set: &TileSet, tile: &Tile, spot: Spot) -> bool {
    tile.features
        .iter()
        .any(|f| site_spot(set, f) == Some(spot))
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
const WATER: Rgba = Rgba::rgb(0x4a, 0x90, 0xd9);
const STONE: Rgba = Rgba::rgb(0x9a, 0x94, 0x88);
/// Ground that belongs to no feature: paving.
const UNOWNED: Rgba = Rgba::rgb(0xd2, 0xc8, 0xb4);

/// The road's half width including its border.
pub(crate) const ROAD_HALF: f32 = 0.058;
/// A river's (or a band's) half width including its banks.
const CHANNEL_HALF: f32 = 0.075;
/// The room a monastery's icon takes on the region grid.
const MONASTERY_ROOM: f32 = 0.2;
/// The room a garden's icon takes on the region grid.
const GARDEN_ROOM: f32 = 0.13;
/// The radius of a lake at a river's end.
const LAKE_RADIUS: f32 = 0.17;

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
    /// It leaves by other ports (two, three or four: one road, no junction).
    Through,
    /// A village in the open.
    Village(Point),
    /// The road runs into a city: a gate.
    Gate(Point),
    /// Under an icon that is drawn anyway (monastery, marketplace, Festival place, a marker).
    Icon,
    /// Before the tile's own hedge.
    Hedge,
    /// At the water's edge: a landing stage.
    Bank(Point),
}

struct Road {
    feature: usize,
    path: Vec<Seg>,
    /// The path as polylines: one per port for a road of three or four ports.
    lines: Vec<Vec<Point>>,
    stop: Stop,
}

impl Road {
    fn line(&self) -> &[Point] {
        self.lines.first().map_or(&[], Vec::as_slice)
    }
}

/// Water or a band drawn from edge centres into the tile, joined through the centre.
struct Channel {
    style: EdgeStyle,
    path: Vec<Seg>,
    lines: Vec<Vec<Point>>,
    colour: Rgba,
    /// Where a channel of one edge ends inside the tile.
    end: Option<Point>,
}

struct City {
    feature: usize,
    outline: CityOutline,
    /// Drawn over a city it crosses, with a shadow along its walls.
    raised: bool,
    colour: Rgba,
    /// Its walls' colour, when its kind's look gives its border one (a lake's shore).
    border: Option<Rgba>,
    /// How its kind looks (`city` without a look): what is drawn in it, houses or trees.
    style: tiledef::LookStyle,
    pennants: Vec<Point>,
    /// The author's picture its kind's emblem is drawn as, in place of a pennant.
    emblem_picture: Option<std::path::PathBuf>,
}

/// A line from a centre icon to a city or a road that keeps two fields apart (the Festival place
/// of `FE-CRCR` reaching the cities), drawn as a low stone wall.
struct Separator {
    line: Vec<Point>,
    /// The fill of the ground of its own kind it bounds, drawn as that ground's edge rather
    /// than as stone.
    edge_of: Option<Rgba>,
}

/// Where everything of a tile goes, worked out before anything is painted.
pub(crate) struct Plan {
    /// The ground's fill: the field's, or paving on a tile with no field (an abbey behind
    /// its walls), so that grass is drawn only where the data has a field.
    field: Rgba,
    /// Whether the tile has a field: only then is the ground furrowed.
    has_field: bool,
    cities: Vec<City>,
    roads: Vec<(Road, Rgba)>,
    channels: Vec<Channel>,
    /// Hedges: from an edge's centre inward to the road or icon beside it (or the centre).
    hedges: Vec<(Vec<Point>, Rgba)>,
    walls: Vec<(Side, Rgba)>,
    separators: Vec<Separator>,
    /// Where a road crosses water: the crossing and the road's direction there.
    bridges: Vec<(Point, Point)>,
    /// Where two lines cross without meeting: the one passing over (an index into `roads`),
    /// the crossing and its direction there.
    overpasses: Vec<(usize, Point, Point)>,
    /// Where a site at the centre (`Spot::Centre`: a monastery, an island's hut) is drawn.
    monastery: Option<Point>,
    marketplace: Option<Point>,
    festival: Option<(Point, Rgba)>,
    /// Where a site drawn as a garden (`Spot::Garden`) stands, on a field.
    garden: Option<Point>,
    /// How the sites at `monastery` and `garden` look: their kinds' declared looks.
    site_looks: [Option<tiledef::Look>; 2],
    /// Markers drawn as icons: position, marker kind index.
    markers: Vec<(Point, usize)>,
    /// Flower groups: position, colour.
    flowers: Vec<(Point, Rgba)>,
    /// What is drawn inside areas, on a fixed lattice: houses in a city, tree crowns in a
    /// forest, peaks on rock, ripples on water; with the area's colour.
    roofs: Vec<(Point, tiledef::LookStyle, Rgba)>,
    /// Grid cells of ground that belongs to no feature, reached from the ports of none.
    unowned: Vec<usize>,
    /// The grid cells of each region drawn in a fill of its own (not the ground's kind).
    grounds: Vec<(Rgba, Vec<usize>)>,
    pub(crate) regions: Regions,
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
        overlay(&mut scene, set, tile, &plan);
    }
    let labelled = match options.label {
        Label::None => false,
        Label::Drawn => artwork.is_none(),
        Label::All => true,
    };
    if labelled {
        let (at, size) = id_label(options.overlay);
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

/// Where a tile's id is written (right-aligned, on its baseline) and its size. With the overlay
/// the corner row holds port names: the id moves up and shrinks.
fn id_label(overlay: bool) -> (Point, f32) {
    if overlay {
        (pt(0.965, 0.875), 0.055)
    } else {
        (pt(0.965, 0.965), 0.075)
    }
}

/// The box a tile's id takes when written, its halo included: north-west and south-east.
fn id_label_box(tile: &Tile, overlay: bool) -> (Point, Point) {
    let (at, size) = id_label(overlay);
    text_box(&tile.id, at, size, Align::Right)
}

/// The box a line of text takes when written at `at`, its halo included: north-west and
/// south-east.
fn text_box(text: &str, at: Point, size: f32, align: Align) -> (Point, Point) {
    let (_, width_em) = crate::font::layout(text);
    let width = width_em * size;
    // DejaVu's capitals stand 0.73 em, its descenders 0.24 em; the halo is 0.22 em wide.
    let halo = 0.11 * size;
    let (left, baseline) = match align {
        Align::Left => (at.x, at.y),
        Align::Right => (at.x - width, at.y),
        Align::Centre => (at.x - width / 2.0, at.y + 0.365 * size),
    };
    (
        pt(left - halo, baseline - 0.73 * size - halo),
        pt(left + width + halo, baseline + 0.24 * size + halo),
    )
}

/// Whether two boxes (north-west and south-east corners) overlap.
fn overlap(a: (Point, Point), b: (Point, Point)) -> bool {
    a.0.x < b.1.x && b.0.x < a.1.x && a.0.y < b.1.y && b.0.y < a.1.y
}

/// Where the overlay writes a port's name: inside the tile, clear of the edge, whatever its
/// length.
fn port_name_at(port: Port) -> (Point, Align) {
    let p = port_point(port);
    match port.side() {
        Side::N => (pt(p.x, 0.065), Align::Centre),
        Side::S => (pt(p.x, 0.935), Align::Centre),
        Side::W => (pt(0.035, p.y + 0.014), Align::Left),
        Side::E => (pt(0.965, p.y + 0.014), Align::Right),
    }
}

fn edge_colour(set: &TileSet, tile: &Tile, side: Side, fallback: Rgba) -> Rgba {
    set.edge_kinds[tile.edge(side)]
        .display
        .map_or(fallback, Rgba::from)
}

/// How an edge kind is drawn (the checker resolves an undeclared style from what its ports carry).
pub fn edge_style(set: &TileSet, kind: usize) -> EdgeStyle {
    set.edge_kinds[kind].style
}

/// Whether an edge kind is drawn as a channel from its centre inward: water, or a band whose
/// centre is no road (a road band is drawn by its road).
fn is_channel(set: &TileSet, kind: usize) -> bool {
    match edge_style(set, kind) {
        EdgeStyle::River => true,
        EdgeStyle::Band => set.edge_kinds[kind].centre != Some(KindShape::Line),
        _ => false,
    }
}

/// The edge kind that is the ground itself: the first plain kind whose halves carry field.
fn ground_kind(set: &TileSet) -> Option<usize> {
    set.edge_kinds.iter().enumerate().position(|(i, k)| {
        k.centre.is_none()
            && k.halves == Some(KindShape::Region)
            && edge_style(set, i) == EdgeStyle::Plain
    })
}

fn field_colour(set: &TileSet) -> Rgba {
    ground_kind(set)
        .and_then(|k| set.edge_kinds[k].display)
        .map_or(FIELD, Rgba::from)
}

/// Whether a plain edge kind other than the ground keeps apart the features of its two halves
/// on this side (an author's lake shore between two fields): then something must be drawn
/// there to divide them, a band in its colour from its centre inward.
fn divides(set: &TileSet, tile: &Tile, side: Side) -> bool {
    let k = tile.edge(side);
    let [left, _, right] = side.ports().map(|p| tile.feature_at(p));
    edge_style(set, k) == EdgeStyle::Plain
        && Some(k) != ground_kind(set)
        && set.edge_kinds[k].centre.is_none()
        && left.is_some()
        && right.is_some()
        && left != right
}

/// Whether this side of the tile is drawn as a channel: its kind is one, or it divides.
fn channel_side(set: &TileSet, tile: &Tile, side: Side) -> bool {
    is_channel(set, tile.edge(side)) || divides(set, tile, side)
}

fn marker_position(tile: &Tile, id: &str) -> Option<Point> {
    tile.art.markers.get(id).map(|[x, y]| pt(*x, *y))
}

/// The icon a marker kind is drawn as: its own, else the one its rule suggests, else a badge
/// (also the place of an author's picture, which takes no icon's special drawing).
pub fn marker_icon(kind: &MarkerKind) -> MarkerIcon {
    if kind.picture.is_some() {
        return MarkerIcon::Badge;
    }
    kind.icon.unwrap_or(match kind.rule {
        Some(MarkerRule::Festival) => MarkerIcon::Festival,
        Some(MarkerRule::Well) => MarkerIcon::Well,
        None => MarkerIcon::Badge,
    })
}

/// What a one-port line runs to, by what its `end` names: a side of its tile, a site, an area
/// (its kind), the Festival place, another marker, or a junction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EndAt {
    Side(Side),
    Site,
    Area(tiledef::FeatureKindId),
    Festival,
    Marker,
    Junction,
}

fn end_at(set: &TileSet, end: Option<LineEnd>) -> Option<EndAt> {
    Some(match end? {
        LineEnd::Junction => EndAt::Junction,
        LineEnd::Side(side) => EndAt::Side(side),
        LineEnd::Kind(k) if set.feature_kinds[k.index()].shape == KindShape::Site => EndAt::Site,
        LineEnd::Kind(k) => EndAt::Area(k),
        LineEnd::Marker => EndAt::Marker,
        LineEnd::MarkerKind(m) if set.markers[m].rule == Some(MarkerRule::Festival) => {
            EndAt::Festival
        }
        LineEnd::MarkerKind(_) => EndAt::Marker,
    })
}

/// The outside point, the port point and the path of a channel or road arm between sides.
fn arm(side: Side) -> (Point, Point) {
    let p = port_point(side.centre());
    (step(p, inward(side), -OUTSIDE), p)
}

/// A network from the centres of `sides` through the tile: an end, a bend, a straight, a fork.
fn network(sides: &[Side]) -> Vec<Seg> {
    match sides {
        [a] => {
            let (out, p) = arm(*a);
            vec![Seg::Move(out), Seg::Line(p), Seg::Line(CENTRE)]
        }
        [a, b] => {
            let (out_a, pa) = arm(*a);
            let (out_b, pb) = arm(*b);
            let mut path = vec![Seg::Move(out_a), Seg::Line(pa)];
            if adjacent(*a, *b) {
                path.push(Seg::Quad(CENTRE.lerp(corner(*a, *b), 0.2), pb));
            } else {
                path.push(Seg::Line(pb));
            }
            path.push(Seg::Line(out_b));
            path
        }
        _ => sides
            .iter()
            .flat_map(|s| {
                let (out, p) = arm(*s);
                [Seg::Move(out), Seg::Line(p), Seg::Line(CENTRE)]
            })
            .collect(),
    }
}

/// A road's polyline (outside point, port, on inward) with each step inside the tile longer
/// than `longer` cut into steps of at most `most`; the steps of a flattened curve stay as
/// they are.
fn densify(line: &[Point], longer: f32, most: f32) -> Vec<Point> {
    let mut out: Vec<Point> = line.iter().take(2).copied().collect();
    for w in line.windows(2).skip(1) {
        let length = w[0].dist(w[1]);
        let steps = if length > longer {
            (length / most).ceil() as usize
        } else {
            1
        };
        out.extend((1..=steps).map(|k| w[0].lerp(w[1], k as f32 / steps as f32)));
    }
    out
}

/// Where two segments cross, if they do.
fn crossing(a: Point, b: Point, c: Point, d: Point) -> Option<Point> {
    let r = pt(b.x - a.x, b.y - a.y);
    let s = pt(d.x - c.x, d.y - c.y);
    let den = r.x * s.y - r.y * s.x;
    if den.abs() < 1e-9 {
        return None;
    }
    let t = ((c.x - a.x) * s.y - (c.y - a.y) * s.x) / den;
    let u = ((c.x - a.x) * r.y - (c.y - a.y) * r.x) / den;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then(|| a.lerp(b, t))
}

/// Where a marker on a road stands: beside it, a fraction `t` along it, on the side clear of
/// what is already placed (a garden) where its icon fits on the tile, clear of the tile's id
/// and of cities; else a little further along or back; else on the side clear of what is
/// placed, else on any open side.
fn beside_road(
    line: &[Point],
    t: f32,
    regions: &Regions,
    in_city: &dyn Fn(Point) -> bool,
) -> Point {
    let sides_at = |t: f32| {
        let mid = along(line, t);
        let ahead = along(line, (t + 0.05).min(1.0));
        let (dx, dy) = (ahead.x - mid.x, ahead.y - mid.y);
        let len = (dx * dx + dy * dy).sqrt().max(1e-6);
        let normal = pt(-dy / len, dx / len);
        [step(mid, normal, 0.11), step(mid, normal, -0.11)]
    };
    let open =
        |p: &Point| (0.06..0.94).contains(&p.x) && (0.06..0.94).contains(&p.y) && !in_city(*p);
    let clear = |p: &Point| open(p) && regions.is_clear(*p, 0.05);
    // The icon's plate (0.065 round its centre) off every city and its wall (half 0.0225), with
    // a little room between.
    let whole = |p: &Point| {
        (0..16).all(|k| {
            let a = k as f32 * std::f32::consts::TAU / 16.0;
            !in_city(step(*p, pt(a.cos(), a.sin()), 0.1))
        })
    };
    let sides = sides_at(t);
    [0.0, -0.1, 0.1, -0.2, 0.2]
        .into_iter()
        .filter(|d| (0.05..=0.95).contains(&(t + d)))
        .flat_map(|d| sides_at(t + d))
        .find(|p| clear(p) && whole(p) && regions.fits(*p, 0.07))
        .or_else(|| sides.into_iter().find(clear))
        .or_else(|| sides.into_iter().find(open))
        .unwrap_or(sides[0])
}

/// Where two lines of different features cross inside the tile, away from their ends (lines
/// that meet at a junction end there): they cross without meeting, and the first listed
/// passes over the other on a bridge. Each crossing with the index of the road passing over
/// and its direction there.
fn overpasses(roads: &[(Road, Rgba)]) -> Vec<(usize, Point, Point)> {
    let clear_of_ends = |line: &[Point], p: Point| {
        [line.first(), line.last()]
            .into_iter()
            .flatten()
            .all(|end| end.dist(p) > 2.0 * ROAD_HALF)
    };
    let mut out: Vec<(usize, Point, Point)> = Vec::new();
    for (a, (over, _)) in roads.iter().enumerate() {
        for (under, _) in roads[a + 1..]
            .iter()
            .filter(|(r, _)| r.feature != over.feature)
        {
            for la in &over.lines {
                for lb in &under.lines {
                    for (sa, sb) in la
                        .windows(2)
                        .flat_map(|sa| lb.windows(2).map(move |sb| (sa, sb)))
                    {
                        let Some(p) = crossing(sa[0], sa[1], sb[0], sb[1]) else {
                            continue;
                        };
                        let fresh = out.iter().all(|(_, q, _)| q.dist(p) > 0.05);
                        if fresh && clear_of_ends(la, p) && clear_of_ends(lb, p) {
                            let len = sa[0].dist(sa[1]).max(1e-6);
                            let dir = pt((sa[1].x - sa[0].x) / len, (sa[1].y - sa[0].y) / len);
                            out.push((a, p, dir));
                        }
                    }
                }
            }
        }
    }
    out
}

/// A polyline as a path.
fn polyline_path(points: &[Point]) -> Vec<Seg> {
    let mut path = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        path.push(if i == 0 { Seg::Move(*p) } else { Seg::Line(*p) });
    }
    path
}

/// The outlines of a tile's two cities when they cross it, one N–S and one W–E, in the order
/// the tile lists them: the first is drawn over the second, and the second's corners leave as
/// many pockets of ground as the tile has inner fields.
fn crossing_cities(set: &TileSet, tile: &Tile) -> Option<[CityOutline; 2]> {
    let sides = |f: &tiledef::Feature| {
        let mut has = [false; 4];
        for p in &f.ports {
            has[p.side().index()] = true;
        }
        has
    };
    let cities: Vec<[bool; 4]> = tile
        .features
        .iter()
        .filter(|f| shape(set, f) == KindShape::Area)
        .map(sides)
        .collect();
    let north_south = [true, false, true, false];
    let west_east = [false, true, false, true];
    let turns = match cities.as_slice() {
        [a, b] if *a == north_south && *b == west_east => 0,
        [a, b] if *a == west_east && *b == north_south => 1,
        _ => return None,
    };
    let pockets = tile
        .features
        .iter()
        .filter(|f| shape(set, f) == KindShape::Region && f.ports.is_empty())
        .count();
    Some(geom::crossing_outlines(pockets).map(|o| CityOutline {
        area: geom::turn_path(&o.area, turns),
        walls: geom::turn_path(&o.walls, turns),
    }))
}

/// Lays a tile out: every city, road, icon, pennant and flower group, and the region grid.
/// An inner field the layout leaves without ground gets a pocket between two cities it borders
/// (`pocketed`).
pub(crate) fn plan(set: &TileSet, tile: &Tile) -> Plan {
    let first = lay_out(set, tile, &[]);
    pocketed(set, tile, first)
}

/// Whether an inner field (a region of no ports) has no ground on the plan's grid.
fn groundless(set: &TileSet, tile: &Tile, plan: &Plan, i: usize) -> bool {
    let f = &tile.features[i];
    is_region(set, tile, i) && f.ports.is_empty() && plan.regions.centroid(i).is_none()
}

/// The plan laid out again while an inner field has no ground: for each such field, each
/// two cities it borders whose walls meet at one end are tried, the one with the longer wall
/// there re-laid against the other (`geom::pocket_against`), until one arrangement gives the
/// field ground. Tiles whose fields all have ground are left as they were.
fn pocketed(set: &TileSet, tile: &Tile, first: Plan) -> Plan {
    let mut plan = first;
    let mut reshaped: Vec<(usize, CityOutline)> = Vec::new();
    for i in 0..tile.features.len() {
        if !groundless(set, tile, &plan, i) {
            continue;
        }
        let outline = |plan: &Plan, f: usize| {
            plan.cities
                .iter()
                .find(|c| c.feature == f)
                .map(|c| c.outline.clone())
        };
        let borders = &tile.features[i].borders;
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for (k, &a) in borders.iter().enumerate() {
            for &b in &borders[k + 1..] {
                pairs.push((a, b));
            }
        }
        'pairs: for (a, b) in pairs {
            let (Some(oa), Some(ob)) = (outline(&plan, a), outline(&plan, b)) else {
                continue;
            };
            let wall_length = |o: &CityOutline| -> f32 {
                flatten(&o.walls)
                    .iter()
                    .flat_map(|l| l.windows(2).map(|w| w[0].dist(w[1])))
                    .sum()
            };
            let tries = if wall_length(&oa) > wall_length(&ob) {
                [(a, &oa, &ob), (b, &ob, &oa)]
            } else {
                [(b, &ob, &oa), (a, &oa, &ob)]
            };
            for (moved, mine, theirs) in tries {
                let Some(new) = geom::pocket_against(mine, theirs) else {
                    continue;
                };
                let mut trial = reshaped.clone();
                trial.retain(|(f, _)| *f != moved);
                trial.push((moved, new));
                let laid = lay_out(set, tile, &trial);
                if !groundless(set, tile, &laid, i) {
                    plan = laid;
                    reshaped = trial;
                    break 'pairs;
                }
            }
        }
    }
    plan
}

/// `plan` with the cities of `reshaped` (by feature index) drawn with the outlines given.
fn lay_out(set: &TileSet, tile: &Tile, reshaped: &[(usize, CityOutline)]) -> Plan {
    let mut cities = lay_out_cities(set, tile, reshaped);
    let city_polys: Vec<(usize, Vec<Vec<Point>>)> = cities
        .iter()
        .map(|c| (c.feature, flatten(&c.outline.area)))
        .collect();
    let in_city = |p: Point| inside_any(&city_polys, p);

    let channels = lay_out_channels(set, tile);
    let water_lines: Vec<&Vec<Point>> = channels.iter().flat_map(|c| c.lines.iter()).collect();

    let ends = road_ends(set, tile);
    let festival = ends.festival;

    let monastery = has_site(set, tile, Spot::Centre).then_some(CENTRE);
    let marketplace = tile.marketplace.then_some(CENTRE);

    let roads: Vec<(Road, Rgba)> = (tile.features.iter().enumerate())
        .filter(|(_, f)| shape(set, f) == KindShape::Line && !f.ports.is_empty())
        .map(|feature| lay_out_road(set, tile, feature, &city_polys, &water_lines, &ends))
        .collect();

    let bridges = bridges(&channels, &roads);

    let overpasses = overpasses(&roads);
    let hedges = hedges(
        set,
        tile,
        &roads,
        [monastery, marketplace, festival.map(|(p, _)| p)],
        &in_city,
    );
    let walls: Vec<(Side, Rgba)> = Side::ALL
        .into_iter()
        .filter(|s| edge_style(set, tile.edge(*s)) == EdgeStyle::Wall)
        .map(|s| (s, edge_colour(set, tile, s, STONE)))
        .collect();

    let lines = obstacle_lines(&roads, &channels, &hedges, &walls);
    let (icons, water_end, source_marker) = icon_rooms(
        set,
        tile,
        &roads,
        &channels,
        [monastery, marketplace],
        &ends,
    );
    let (mut regions, separators, unowned) = region_grid(set, tile, &city_polys, &lines);
    for (p, r) in &icons {
        regions.take(*p, *r);
    }
    // Nothing is put where the tile's id may be written, with the overlay or without.
    for overlay in [false, true] {
        let (from, to) = id_label_box(tile, overlay);
        regions.keep_out(from, to);
    }

    let SmallThings {
        garden,
        markers,
        flowers,
    } = place_small_things(
        set,
        tile,
        &mut regions,
        (&mut cities, &city_polys),
        &roads,
        &ends,
        (source_marker, water_end),
    );
    let unowned = unowned_ground(&regions, &unowned);
    let grounds = tile
        .features
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let fill = region_fill(set, f)?;
            let cells = regions.cells().iter().enumerate();
            let mine = cells
                .filter(|(_, c)| **c == Cell::Feature(i))
                .map(|(c, _)| c);
            Some((fill, mine.collect()))
        })
        .collect();
    let roofs = roofs(&regions, &cities);

    let has_field = (0..tile.features.len()).any(|i| is_region(set, tile, i));
    Plan {
        field: if has_field {
            field_colour(set)
        } else {
            UNOWNED
        },
        has_field,
        cities,
        roads,
        channels,
        hedges,
        walls,
        separators,
        bridges,
        overpasses,
        monastery,
        marketplace,
        festival,
        garden,
        site_looks: [Spot::Centre, Spot::Garden].map(|spot| {
            let site = tile
                .features
                .iter()
                .find(|f| site_spot(set, f) == Some(spot))?;
            set.kind_of(site).look.clone()
        }),
        markers,
        flowers,
        roofs,
        unowned,
        grounds,
        regions,
    }
}

/// The tile's areas, drawn as cities are, each in its kind's look (`reshaped`: outlines given
/// by feature index).
fn lay_out_cities(set: &TileSet, tile: &Tile, reshaped: &[(usize, CityOutline)]) -> Vec<City> {
    let city_count = tile
        .features
        .iter()
        .filter(|f| shape(set, f) == KindShape::Area)
        .count();
    let crossing_outlines = crossing_cities(set, tile);
    let raised_first = crossing_outlines.is_some();
    let mut crossed = crossing_outlines.into_iter().flatten();
    let mut cities = Vec::new();
    for (i, f) in tile.features.iter().enumerate() {
        if shape(set, f) != KindShape::Area {
            continue;
        }
        let sides: Vec<Side> = f.ports.iter().map(|p| p.side()).collect();
        // An area is drawn as a city is, in its kind's look: its fill and border colours, and
        // houses only in a city (other area styles are drawn as their own later).
        let look = set.kind_of(f).look.as_ref();
        let fill = look.and_then(|l| l.fill).map_or(CITY, Rgba::from);
        let colour = sides
            .first()
            .map_or(fill, |s| edge_colour(set, tile, *s, fill));
        cities.push(City {
            feature: i,
            outline: {
                let drawn = crossed
                    .next()
                    .unwrap_or_else(|| city_outline(&sides, city_count > 1));
                reshaped
                    .iter()
                    .find(|(f, _)| *f == i)
                    .map_or(drawn, |(_, o)| o.clone())
            },
            raised: raised_first && cities.is_empty(),
            colour,
            border: look.and_then(|l| l.border_colour).map(Rgba::from),
            style: look.map_or(tiledef::LookStyle::City, |l| l.style),
            pennants: Vec::new(),
            emblem_picture: (set.kind_of(f).emblem.as_ref()).and_then(|e| e.picture.clone()),
        });
    }
    cities
}

/// The channels (rivers, bands that are no road), one network per edge kind.
fn lay_out_channels(set: &TileSet, tile: &Tile) -> Vec<Channel> {
    let mut channel_kinds: Vec<usize> = Vec::new();
    for side in Side::ALL {
        let k = tile.edge(side);
        if channel_side(set, tile, side) && !channel_kinds.contains(&k) {
            channel_kinds.push(k);
        }
    }
    channel_kinds
        .iter()
        .map(|&k| {
            let sides: Vec<Side> = Side::ALL
                .into_iter()
                .filter(|s| tile.edge(*s) == k && channel_side(set, tile, *s))
                .collect();
            // A plain kind that divides is drawn as a band.
            let style = match edge_style(set, k) {
                EdgeStyle::Plain => EdgeStyle::Band,
                style => style,
            };
            let fallback = if style == EdgeStyle::River {
                WATER
            } else {
                ROAD
            };
            let path = network(&sides);
            Channel {
                style,
                lines: flatten(&path),
                path,
                colour: set.edge_kinds[k].display.map_or(fallback, Rgba::from),
                end: (sides.len() == 1).then_some(CENTRE),
            }
        })
        .collect()
}

/// Where the tile's roads may end besides its sites: the Festival place and the hub marker.
#[derive(Clone, Copy)]
struct RoadEnds {
    /// The Festival place's marker kind.
    festival_kind: Option<usize>,
    /// The Festival place and its colour.
    festival: Option<(Point, Rgba)>,
    /// The marker roads end at.
    hub_marker: Option<usize>,
    /// Where that marker stands.
    hub_at: Option<Point>,
}

/// The tile's `RoadEnds`.
fn road_ends(set: &TileSet, tile: &Tile) -> RoadEnds {
    let festival_kind = tile
        .markers
        .iter()
        .copied()
        .find(|&m| marker_icon(&set.markers[m]) == MarkerIcon::Festival);
    let festival = festival_kind.map(|m| {
        let kind = &set.markers[m];
        (
            marker_position(tile, &kind.id).unwrap_or(CENTRE),
            kind.display.map_or(FESTIVAL, Rgba::from),
        )
    });
    // A road may end at a marker: the tile's first marker other than the Festival place (or
    // the road's own), placed where the art says or at the centre.
    let hub_marker: Option<usize> = tile
        .features
        .iter()
        .any(|f| end_at(set, f.end) == Some(EndAt::Marker))
        .then(|| {
            tile.markers
                .iter()
                .copied()
                .find(|&m| Some(m) != festival_kind)
                .or_else(|| {
                    tile.features
                        .iter()
                        .find(|f| end_at(set, f.end) == Some(EndAt::Marker))
                        .and_then(|f| f.markers.first().copied())
                })
        })
        .flatten();
    let hub_at = hub_marker.map(|m| marker_position(tile, &set.markers[m].id).unwrap_or(CENTRE));
    RoadEnds {
        festival_kind,
        festival,
        hub_marker,
        hub_at,
    }
}

/// A road of the tile (`f`, feature `i`): its path from its ports, where it stops, its colour.
fn lay_out_road(
    set: &TileSet,
    tile: &Tile,
    (i, f): (usize, &Feature),
    city_polys: &CityPolys,
    water_lines: &[&Vec<Point>],
    ends: &RoadEnds,
) -> (Road, Rgba) {
    let arm = Arm::new(f.ports[0]);
    // A line in its kind's fill (a road's is base's `#f1ead8`), unless its edge says.
    let fill = (set.kind_of(f).look.as_ref())
        .and_then(|l| l.fill)
        .map_or(ROAD, Rgba::from);
    let colour = edge_colour(set, tile, arm.side, fill);
    let (path, stop) = if f.ports.len() == 2 {
        let b = f.ports[1];
        let pb = port_point(b);
        let mut path = arm.curve_to(b.side(), pb);
        path.push(Seg::Line(step(pb, inward(b.side()), -OUTSIDE)));
        (path, Stop::Through)
    } else if f.ports.len() > 2 {
        // One road joining three or four sides: arms meeting at the centre, no junction.
        let path = f
            .ports
            .iter()
            .flat_map(|p| {
                let at = port_point(*p);
                [
                    Seg::Move(step(at, inward(p.side()), -OUTSIDE)),
                    Seg::Line(at),
                    Seg::Line(CENTRE),
                ]
            })
            .collect();
        (path, Stop::Through)
    } else {
        one_port_road(set, tile, f, &arm, city_polys, water_lines, ends)
    };
    let lines = flatten(&path);
    (
        Road {
            feature: i,
            path,
            lines,
            stop,
        },
        colour,
    )
}

/// The path and stop of a road with one port, by where it ends.
fn one_port_road(
    set: &TileSet,
    tile: &Tile,
    f: &Feature,
    arm: &Arm,
    city_polys: &CityPolys,
    water_lines: &[&Vec<Point>],
    ends: &RoadEnds,
) -> (Vec<Seg>, Stop) {
    let in_city = |p: Point| inside_any(city_polys, p);
    let near_water = |p: Point| {
        water_lines
            .iter()
            .any(|l| geom::distance_to_polyline(l, p) < CHANNEL_HALF + 0.012)
    };
    match end_at(set, f.end) {
        Some(EndAt::Side(side)) => {
            let target = step(port_point(side.centre()), inward(side), 0.07);
            if channel_side(set, tile, side) {
                // A river bank: the road runs to the water and stops there. The line
                // is walked in short steps from its port: a straight road is only its
                // two ends.
                let line = flatten(&arm.curve_to(side, target))
                    .into_iter()
                    .next()
                    .map(|l| densify(&l, 0.06, 0.02))
                    .unwrap_or_default();
                let cut = line
                    .iter()
                    .position(|p| near_water(*p))
                    .unwrap_or(line.len());
                let kept = &line[..cut.max(2).min(line.len())];
                let at = kept.last().copied().unwrap_or(arm.at);
                let mut path = vec![Seg::Move(arm.out)];
                path.extend(kept.iter().map(|p| Seg::Line(*p)));
                (path, Stop::Bank(at))
            } else if edge_style(set, tile.edge(side)) != EdgeStyle::Hedge
                && one_field_beside(set, tile, side.centre())
            {
                // Open ground of one field by that side: the road stops short of it
                // at a house, so the field passes between its end and the edge.
                let hub = step(port_point(side.centre()), inward(side), 0.22);
                (arm.curve_to(side, hub), Stop::Village(hub))
            } else {
                (arm.curve_to(side, target), Stop::Hedge)
            }
        }
        // A site (a monastery, a marketplace) stands at the centre.
        Some(EndAt::Site) => (arm.to(CENTRE), Stop::Icon),
        Some(EndAt::Festival) if ends.festival.is_some() => {
            (arm.to(ends.festival.map_or(CENTRE, |(p, _)| p)), Stop::Icon)
        }
        Some(EndAt::Marker) if ends.hub_at.is_some() => {
            let at = ends.hub_at.unwrap_or(CENTRE);
            (arm.to(at), Stop::Icon)
        }
        Some(EndAt::Area(kind)) if !city_polys.is_empty() => {
            // To the edge of the nearest area of that kind (any area when the tile has
            // none of it): a gate in a city wall, a landing on a lake's shore.
            let of_kind = |&&(i, _): &&(usize, Vec<Vec<Point>>)| tile.features[i].kind == kind;
            let any_of_kind = city_polys.iter().any(|c| of_kind(&c));
            let target = city_polys
                .iter()
                .filter(|c| !any_of_kind || of_kind(c))
                .filter_map(|(_, polys)| polys.first())
                .map(|poly| {
                    let inside: Vec<Point> = poly
                        .iter()
                        .map(|p| pt(p.x.clamp(0.0, 1.0), p.y.clamp(0.0, 1.0)))
                        .collect();
                    let n = inside.len().max(1) as f32;
                    pt(
                        inside.iter().map(|p| p.x).sum::<f32>() / n,
                        inside.iter().map(|p| p.y).sum::<f32>() / n,
                    )
                })
                .min_by(|x, y| x.dist(arm.at).total_cmp(&y.dist(arm.at)))
                .unwrap_or(CENTRE);
            let (hub, _) = arm.walk(target, &in_city);
            // At water (a lake's shore) a landing, at a wall a gate.
            let water = (set.feature_kinds[kind.index()].look.as_ref())
                .is_some_and(|l| l.style == tiledef::LookStyle::Water);
            let stop = if water {
                Stop::Bank(hub)
            } else {
                Stop::Gate(hub)
            };
            (arm.to(hub), stop)
        }
        _ if one_field_beside(set, tile, arm.port) => {
            // The same field on both sides: a short stub with its house near the
            // edge, so the field passes round its end.
            let hub = step(arm.at, inward(arm.side), 0.2);
            (arm.to(hub), Stop::Village(hub))
        }
        _ => {
            // A junction: at the centre, or at the city wall when a city covers it.
            let (hub, gate) = arm.walk(CENTRE, &in_city);
            let stop = if gate {
                Stop::Gate(hub)
            } else {
                Stop::Village(CENTRE)
            };
            (arm.to(hub), stop)
        }
    }
}

/// Where a road leaves its first port: the port, its side, its point and the point just
/// outside the tile the road's path starts from.
struct Arm {
    port: Port,
    side: Side,
    at: Point,
    out: Point,
}

impl Arm {
    fn new(port: Port) -> Arm {
        let side = port.side();
        let at = port_point(port);
        Arm {
            port,
            side,
            at,
            out: step(at, inward(side), -OUTSIDE),
        }
    }

    /// From outside the tile through the port to `end` on side `sb`'s way (curved to an
    /// adjacent side).
    fn curve_to(&self, sb: Side, end: Point) -> Vec<Seg> {
        if adjacent(self.side, sb) {
            let ctrl = CENTRE.lerp(corner(self.side, sb), 0.2);
            vec![
                Seg::Move(self.out),
                Seg::Line(self.at),
                Seg::Quad(ctrl, end),
            ]
        } else {
            vec![Seg::Move(self.out), Seg::Line(self.at), Seg::Line(end)]
        }
    }

    /// Walks from the port towards `target`; stops before the first point `stop` accepts.
    fn walk(&self, target: Point, stop: &dyn Fn(Point) -> bool) -> (Point, bool) {
        let mut last = self.at;
        for k in 1..=50 {
            let p = self.at.lerp(target, k as f32 / 50.0);
            if stop(p) {
                return (last, true);
            }
            last = p;
        }
        (last, false)
    }

    /// From outside the tile through the port straight to `p`.
    fn to(&self, p: Point) -> Vec<Seg> {
        vec![Seg::Move(self.out), Seg::Line(self.at), Seg::Line(p)]
    }
}

/// Each city's feature index and its outline as polygons.
type CityPolys = [(usize, Vec<Vec<Point>>)];

/// Whether `p` is inside one of the cities' polygons.
fn inside_any(city_polys: &CityPolys, p: Point) -> bool {
    city_polys
        .iter()
        .any(|(_, polys)| polys.iter().any(|poly| geom::inside(poly, p)))
}

/// The bridges: where a road line crosses a river's line (each point and the road's direction).
fn bridges(channels: &[Channel], roads: &[(Road, Rgba)]) -> Vec<(Point, Point)> {
    let mut bridges = Vec::new();
    for channel in channels.iter().filter(|c| c.style == EdgeStyle::River) {
        for (road, _) in roads {
            for rl in &road.lines {
                for r in rl.windows(2) {
                    for wl in &channel.lines {
                        for w in wl.windows(2) {
                            if let Some(p) = crossing(r[0], r[1], w[0], w[1])
                                && bridges
                                    .iter()
                                    .all(|(q, _): &(Point, Point)| q.dist(p) > 0.05)
                            {
                                let len = r[0].dist(r[1]).max(1e-6);
                                let dir = pt((r[1].x - r[0].x) / len, (r[1].y - r[0].y) / len);
                                bridges.push((p, dir));
                            }
                        }
                    }
                }
            }
        }
    }
    bridges
}

/// The hedges: from each hedge edge's centre inward, like a road arm, until the road, the
/// site or the city beside it.
fn hedges(
    set: &TileSet,
    tile: &Tile,
    roads: &[(Road, Rgba)],
    sites: [Option<Point>; 3],
    in_city: &dyn Fn(Point) -> bool,
) -> Vec<(Vec<Point>, Rgba)> {
    let road_lines: Vec<&Vec<Point>> = roads.iter().flat_map(|(r, _)| r.lines.iter()).collect();
    Side::ALL
        .into_iter()
        .filter(|s| edge_style(set, tile.edge(*s)) == EdgeStyle::Hedge)
        .map(|s| {
            // Like a road arm: from the edge centre inward, until the road or icon beside it.
            let (out, p) = arm(s);
            let mut line = vec![out, p];
            for k in 1..=40 {
                let q = p.lerp(CENTRE, k as f32 / 40.0);
                let blocked = road_lines
                    .iter()
                    .any(|l| geom::distance_to_polyline(l, q) < ROAD_HALF)
                    || sites.into_iter().flatten().any(|c| c.dist(q) < 0.02)
                    || in_city(q);
                line.push(q);
                if blocked {
                    break;
                }
            }
            (line, edge_colour(set, tile, s, HEDGE))
        })
        .collect()
}

/// Obstacles for the region grid: everything drawn as a line divides the ground (each line
/// with its half width).
fn obstacle_lines(
    roads: &[(Road, Rgba)],
    channels: &[Channel],
    hedges: &[(Vec<Point>, Rgba)],
    walls: &[(Side, Rgba)],
) -> Vec<(Vec<Point>, f32)> {
    let mut lines: Vec<(Vec<Point>, f32)> = Vec::new();
    for (r, _) in roads {
        for l in &r.lines {
            lines.push((l.clone(), ROAD_HALF + 0.01));
        }
    }
    for c in channels {
        for l in &c.lines {
            lines.push((l.clone(), CHANNEL_HALF + 0.01));
        }
    }
    for (l, _) in hedges {
        lines.push((l.clone(), 0.06));
    }
    for (s, _) in walls {
        lines.push((edge_line(*s), 0.07));
    }
    lines
}

/// The room the icons take from the region grid (each point and radius): the centre sites, the
/// Festival place, the hub marker, the roads' houses and gates, and the spring or lake at the
/// end of a river of one edge (that end, and its marker).
fn icon_rooms(
    set: &TileSet,
    tile: &Tile,
    roads: &[(Road, Rgba)],
    channels: &[Channel],
    centre: [Option<Point>; 2],
    ends: &RoadEnds,
) -> (Vec<(Point, f32)>, Option<Point>, Option<usize>) {
    let mut icons: Vec<(Point, f32)> = Vec::new();
    let [monastery, marketplace] = centre;
    if let Some(p) = monastery {
        icons.push((p, MONASTERY_ROOM));
    }
    if let Some(p) = marketplace {
        icons.push((p, 0.18));
    }
    if let Some((p, _)) = ends.festival {
        icons.push((p, 0.19));
    }
    if let Some(p) = ends.hub_at {
        icons.push((p, 0.09));
    }
    for (r, _) in roads {
        match r.stop {
            Stop::Village(p) => icons.push((p, 0.1)),
            Stop::Gate(p) => icons.push((p, 0.05)),
            _ => {}
        }
    }
    // A river of one edge ends in a spring or a lake, at the end of its water.
    let water_end = channels
        .iter()
        .find(|c| c.style == EdgeStyle::River)
        .and_then(|c| c.end);
    let mut source_marker: Option<usize> = None;
    if let Some(end) = water_end
        && let Some(m) = tile.markers.iter().copied().find(|&m| {
            matches!(
                marker_icon(&set.markers[m]),
                MarkerIcon::Spring | MarkerIcon::Lake
            )
        })
    {
        let r = if marker_icon(&set.markers[m]) == MarkerIcon::Lake {
            LAKE_RADIUS
        } else {
            0.07
        };
        icons.push((end, r + 0.01));
        source_marker = Some(m);
    }
    (icons, water_end, source_marker)
}

/// The region grid flooded between the lines, with the separators that keep apart the regions
/// the data keeps apart, and the ports no feature owns.
fn region_grid(
    set: &TileSet,
    tile: &Tile,
    city_polys: &CityPolys,
    lines: &[(Vec<Point>, f32)],
) -> (Regions, Vec<Separator>, Vec<Port>) {
    let in_city = |p: Point| inside_any(city_polys, p);
    let fields: Vec<(usize, &[tiledef::Port])> = tile
        .features
        .iter()
        .enumerate()
        .filter(|(_, f)| shape(set, f) == KindShape::Region && !f.ports.is_empty())
        .map(|(i, f)| (i, f.ports.as_slice()))
        .collect();
    let inner: Vec<usize> = tile
        .features
        .iter()
        .enumerate()
        .filter(|(_, f)| shape(set, f) == KindShape::Region && f.ports.is_empty())
        .map(|(i, _)| i)
        .collect();
    let unowned = unowned_ports(set, tile);
    // Regions of two kinds sharing ground, fields the data keeps apart but the drawing joins
    // (a centre icon that does not reach a city), or a field that floods ground of no feature:
    // add a low wall from the centre to what lies between them on the edge, and again.
    let mut separators: Vec<Separator> = Vec::new();
    let mut tried: Vec<Point> = Vec::new();
    let regions = loop {
        let mut all = lines.to_vec();
        all.extend(separators.iter().map(|s| (s.line.clone(), 0.03)));
        let regions = Regions::build(
            &Obstacles {
                cities: city_polys,
                lines: &all,
            },
            &fields,
            &inner,
        );
        if separators.len() >= 4 {
            break regions;
        }
        let untried = |p: &Point| tried.iter().all(|q| q.dist(*p) > 1e-3);
        let covered = |q: Point| {
            in_city(q)
                || all
                    .iter()
                    .any(|(l, half)| geom::distance_to_polyline(l, q) < *half)
        };
        let stretch = |(a, b): (Point, Point), edge_of: Option<Rgba>| {
            [(a, Some(b), edge_of), (b, Some(a), edge_of)]
                .into_iter()
                .find(|(p, _, _)| untried(p))
        };
        let next = joined_kinds(set, tile, &regions)
            .and_then(|(ends, f)| stretch(ends, region_fill(set, f)))
            .or_else(|| {
                joined_fields(set, tile, &regions)
                    .into_iter()
                    .find(untried)
                    .map(|p| (p, None, None))
            })
            .or_else(|| stretch(joined_unowned(set, tile, &unowned, &regions)?, None));
        match next {
            Some((between, across, edge_of)) => {
                tried.push(between);
                // Ground of no feature is walled off from one end of its stretch of edge to
                // the other when nothing stands in the way; else like two fields.
                let clear = |l: &Vec<Point>| {
                    l.windows(2)
                        .all(|w| (1..20).all(|k| !covered(w[0].lerp(w[1], k as f32 / 20.0))))
                };
                // The edge of a region of its own kind curves as a city's wall does.
                let straight = across
                    .map(|b| (b, wall_across(between, b)))
                    .map(|(b, l)| (b, if edge_of.is_some() { rounded(&l) } else { l }))
                    .filter(|(_, l)| clear(l));
                let line = match straight {
                    Some((b, line)) => {
                        // It closes the stretch at both ends.
                        tried.push(b);
                        Some(line)
                    }
                    None => separator_line(between, &covered),
                };
                if let Some(line) = line {
                    separators.push(Separator { line, edge_of });
                }
            }
            None => break regions,
        }
    };
    (regions, separators, unowned)
}

/// What `place_small_things` places on the region grid.
struct SmallThings {
    /// The garden's icon.
    garden: Option<Point>,
    /// Markers: each point and marker kind.
    markers: Vec<(Point, usize)>,
    /// Flower groups: each point and colour.
    flowers: Vec<(Point, Rgba)>,
}

/// Garden, then tile-level markers, then wells, then flower groups, then each city's markers and
/// pennants: each keeps clear of the last (`source`: the river's end marker and that end).
fn place_small_things(
    set: &TileSet,
    tile: &Tile,
    regions: &mut Regions,
    (cities, city_polys): (&mut [City], &CityPolys),
    roads: &[(Road, Rgba)],
    ends: &RoadEnds,
    (source_marker, water_end): (Option<usize>, Option<Point>),
) -> SmallThings {
    let in_city = |p: Point| inside_any(city_polys, p);
    let is_field = |c: Cell| matches!(c, Cell::Feature(i) if is_region(set, tile, i));
    // Garden, then tile-level markers, then wells, then flower groups: each keeps clear of the last.
    let garden = has_site(set, tile, Spot::Garden).then(|| {
        let p = regions.spot(is_field, 0.11, pt(0.5, 0.6)).unwrap_or(CENTRE);
        regions.take(p, GARDEN_ROOM);
        p
    });
    let mut markers = Vec::new();
    for &m in &tile.markers {
        if Some(m) == ends.festival_kind {
            continue;
        }
        let p = if Some(m) == source_marker {
            water_end
        } else if Some(m) == ends.hub_marker {
            ends.hub_at
        } else {
            None
        };
        let p = p
            .or_else(|| marker_position(tile, &set.markers[m].id))
            .or_else(|| regions.spot(is_field, 0.08, pt(0.5, 0.65)))
            .unwrap_or(pt(0.2, 0.8));
        regions.take(p, 0.09);
        markers.push((p, m));
    }
    for (road, _) in roads {
        let list = &tile.features[road.feature].markers;
        for (k, &m) in list.iter().enumerate() {
            if Some(m) == ends.hub_marker && !tile.markers.contains(&m) {
                // The marker this road ends at.
                let at = ends.hub_at.unwrap_or(CENTRE);
                regions.take(at, 0.07);
                markers.push((at, m));
                continue;
            }
            let at = marker_position(tile, &set.markers[m].id).unwrap_or_else(|| {
                let t = (k + 1) as f32 / (list.len() + 1) as f32;
                beside_road(road.line(), 0.2 + 0.6 * t, regions, &in_city)
            });
            regions.take(at, 0.07);
            markers.push((at, m));
        }
    }
    for (i, f) in tile.features.iter().enumerate() {
        // An area's markers are placed with its pennants, a line's along it.
        if matches!(shape(set, f), KindShape::Area | KindShape::Line) {
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
    for city in cities.iter_mut() {
        let f = &tile.features[city.feature];
        for m in &f.markers {
            let id = city.feature;
            let p = marker_position(tile, &set.markers[*m].id)
                .or_else(|| regions.spot(|c| c == Cell::Feature(id), 0.07, CENTRE))
                .unwrap_or(CENTRE);
            regions.take(p, 0.08);
            markers.push((p, *m));
        }
        for _ in 0..f.emblems {
            let id = city.feature;
            let prefer = regions.centroid(id).unwrap_or(CENTRE);
            if let Some(p) = regions.spot(|c| c == Cell::Feature(id), 0.06, prefer) {
                regions.take(p, 0.075);
                city.pennants.push(p);
            }
        }
    }
    SmallThings {
        garden,
        markers,
        flowers,
    }
}

/// A few roofs inside each city, on a fixed lattice, where there is room.
fn roofs(regions: &Regions, cities: &[City]) -> Vec<(Point, tiledef::LookStyle, Rgba)> {
    let mut roofs = Vec::new();
    let size = Regions::cell_size();
    for (i, c) in regions.cells().iter().enumerate() {
        let (x, y) = (i % crate::regions::N, i / crate::regions::N);
        let staggered = if (y / 7) % 2 == 0 { 3 } else { 0 };
        if x % 6 != staggered || y % 7 != 3 {
            continue;
        }
        let textured = |f: usize| {
            let area = cities.iter().find(|c| c.feature == f)?;
            has_texture(area.style).then_some((area.style, area.colour))
        };
        let Some((style, colour)) = (match c {
            Cell::Feature(f) => textured(*f),
            _ => None,
        }) else {
            continue;
        };
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
            roofs.push((p, style, colour));
        }
    }
    roofs
}

impl Plan {
    /// The lines a road is drawn along (one per port for a road of three or four ports).
    pub(crate) fn road_lines(&self, feature: usize) -> Vec<Vec<Point>> {
        self.roads
            .iter()
            .filter(|(r, _)| r.feature == feature)
            .flat_map(|(r, _)| r.lines.iter().cloned())
            .collect()
    }

    /// Where the icon of the site at `spot` stands, with the room it takes on the grid.
    pub(crate) fn icon_of(&self, spot: Spot) -> Option<(Point, f32)> {
        match spot {
            Spot::Centre => self.monastery.map(|p| (p, MONASTERY_ROOM)),
            Spot::Garden => self.garden.map(|p| (p, GARDEN_ROOM)),
        }
    }
}

/// Two fields of the data that share one region: the points on the edge between them to which
/// a separator could reach, best first. Between is what lies on the edge from a port of one to
/// the nearest port of the other (a city's, a road's or a port on no feature), or the point
/// where two of their ports meet when nothing does. The narrower gap first, its middle first,
/// and a road's ports last: a road that lies between them and still lets them meet runs beside
/// the way through, not across it.
fn joined_fields(set: &TileSet, tile: &Tile, regions: &Regions) -> Vec<Point> {
    for (f, feature) in tile.features.iter().enumerate() {
        if !is_region(set, tile, f) {
            continue;
        }
        for &p in &feature.ports {
            let Cell::Feature(g) = regions.at_port(p) else {
                continue;
            };
            if g == f || !is_region(set, tile, g) {
                continue;
            }
            let owner = |x: Port| tile.feature_at(x);
            // Each way round the edge from `p` to the first port of `g`, counted from the last
            // port of `f` on the way.
            let mut gaps: Vec<(Port, Vec<Port>, Port)> = Vec::new();
            for dir in [1, 11] {
                let mut last = p;
                let mut between = Vec::new();
                let mut i = (p.index() + dir) % 12;
                while i != p.index() {
                    let x = Port::ALL[i];
                    match owner(x) {
                        Some(h) if h == f => {
                            last = x;
                            between.clear();
                        }
                        Some(h) if h == g => {
                            gaps.push((last, between, x));
                            break;
                        }
                        _ => between.push(x),
                    }
                    i = (i + dir) % 12;
                }
            }
            gaps.sort_by_key(|(_, b, _)| b.len());
            let on_road = |x: Port| {
                owner(x).is_some_and(|h| shape(set, &tile.features[h]) == KindShape::Line)
            };
            let mut candidates: Vec<(bool, usize, usize, Point)> = Vec::new();
            for (w, (from, way, to)) in gaps.iter().enumerate() {
                if way.is_empty() {
                    candidates.push((false, w, 0, meeting_point(*from, *to)));
                }
                let mid = way.len() / 2;
                for (k, &x) in way.iter().enumerate() {
                    candidates.push((on_road(x), w, k.abs_diff(mid), port_point(x)));
                }
            }
            candidates.sort_by_key(|a| (a.0, a.1, a.2));
            let mut out: Vec<Point> = Vec::new();
            for (_, _, _, x) in candidates {
                if out.iter().all(|q| q.dist(x) > 1e-3) {
                    out.push(x);
                }
            }
            if !out.is_empty() {
                return out;
            }
        }
    }
    Vec::new()
}

/// The fill a region is painted in when it is not the ground's kind: its kind's look's.
fn region_fill(set: &TileSet, f: &Feature) -> Option<Rgba> {
    let ground = ground_kind(set).and_then(|k| set.edge_kinds[k].halves_kind);
    let kind = set.kind_of(f);
    (kind.shape == KindShape::Region && Some(f.kind) != ground)
        .then_some(kind.look.as_ref()?.fill.map(Rgba::from))
        .flatten()
}

/// Two regions of different kinds sharing ground on the grid: the two points on the edge that
/// bound the stretch of the one whose port the other floods (its ports and ports of nothing),
/// and the region of the two drawn in a fill of its own, if any.
fn joined_kinds<'t>(
    set: &TileSet,
    tile: &'t Tile,
    regions: &Regions,
) -> Option<((Point, Point), &'t Feature)> {
    for (f, feature) in tile.features.iter().enumerate() {
        if !is_region(set, tile, f) {
            continue;
        }
        for &p in &feature.ports {
            let Cell::Feature(g) = regions.at_port(p) else {
                continue;
            };
            let other = &tile.features[g];
            if g == f || !is_region(set, tile, g) || other.kind == feature.kind {
                continue;
            }
            let stops = |i: usize| tile.feature_at(Port::ALL[i]).is_some_and(|h| h != f);
            // Each way round the edge to the first port of another feature.
            let end = |dir: usize| stretch_end(p, dir, stops);
            let painted = if region_fill(set, feature).is_some() {
                feature
            } else {
                other
            };
            return Some(((end(11)?, end(1)?), painted));
        }
    }
    None
}

/// The ports whose edge carries a field there but that the data gives to no feature (Count's
/// City of Carcassonne quarters).
fn unowned_ports(set: &TileSet, tile: &Tile) -> Vec<Port> {
    Port::ALL
        .into_iter()
        .filter(|&p| {
            set.edge_kinds[tile.edge(p.side())].carries(p) == Some(KindShape::Region)
                && tile.feature_at(p).is_none()
        })
        .collect()
}

/// Where a field floods the ground by a port of no feature: the two points on the edge that
/// bound that port's stretch of unowned ports (where it meets the ports of features).
fn joined_unowned(
    set: &TileSet,
    tile: &Tile,
    unowned: &[Port],
    regions: &Regions,
) -> Option<(Point, Point)> {
    let flooded = unowned
        .iter()
        .copied()
        .find(|&p| matches!(regions.at_port(p), Cell::Feature(f) if is_region(set, tile, f)))?;
    let owned = |i: usize| tile.feature_at(Port::ALL[i % 12]).is_some();
    // Each way round the edge to the first port some feature owns.
    let end = |dir: usize| stretch_end(flooded, dir, owned);
    Some((end(11)?, end(1)?))
}

/// Walking round the tile's edge from `from` one way (`dir` 1 clockwise, 11 the other), the
/// point where the last port passed meets the first that `stops` accepts (by index).
fn stretch_end(from: Port, dir: usize, stops: impl Fn(usize) -> bool) -> Option<Point> {
    let mut i = from.index();
    for _ in 0..12 {
        let next = (i + dir) % 12;
        if stops(next) {
            return Some(meeting_point(Port::ALL[i], Port::ALL[next]));
        }
        i = next;
    }
    None
}

/// A wall between two points of the edge: straight across when they lie on different sides,
/// else bowed inward, so it closes off the ground between them.
fn wall_across(a: Point, b: Point) -> Vec<Point> {
    let on = |v: f32, edge: f32| (v - edge).abs() < 1e-3;
    let same_side = [0.0, 1.0]
        .into_iter()
        .any(|e| (on(a.x, e) && on(b.x, e)) || (on(a.y, e) && on(b.y, e)));
    if same_side {
        let mid = a.lerp(b, 0.5);
        vec![a, mid.lerp(CENTRE, 0.5), b]
    } else {
        vec![a, b]
    }
}

/// A line of three points as the curve from the first to the last through the middle one.
fn rounded(line: &[Point]) -> Vec<Point> {
    let &[a, m, b] = line else {
        return line.to_vec();
    };
    let chord = a.lerp(b, 0.5);
    let control = pt(2.0 * m.x - chord.x, 2.0 * m.y - chord.y);
    flatten(&[Seg::Move(a), Seg::Quad(control, b)])
        .into_iter()
        .next()
        .unwrap_or_else(|| line.to_vec())
}

/// The cells beside cell `c` of an `n` × `n` grid, west, east, north and south (None off the grid).
fn grid_neighbours(c: usize, n: usize) -> [Option<usize>; 4] {
    let (x, y) = (c % n, c / n);
    [
        (x > 0).then(|| c - 1),
        (x + 1 < n).then(|| c + 1),
        (y > 0).then(|| c - n),
        (y + 1 < n).then(|| c + n),
    ]
}

/// The free cells reached from the ports of no feature, in grid order.
fn unowned_ground(regions: &Regions, ports: &[Port]) -> Vec<usize> {
    let n = crate::regions::N;
    let cells = regions.cells();
    let mut seen = vec![false; n * n];
    let mut stack: Vec<usize> = ports
        .iter()
        .filter_map(|p| regions.port_cell(*p))
        .filter(|&c| cells[c] == Cell::Free)
        .collect();
    while let Some(c) = stack.pop() {
        if seen[c] {
            continue;
        }
        seen[c] = true;
        stack.extend(
            grid_neighbours(c, n)
                .into_iter()
                .flatten()
                .filter(|&d| !seen[d] && cells[d] == Cell::Free),
        );
    }
    (0..n * n).filter(|&c| seen[c]).collect()
}

/// A separator from `from` on the edge inward: from where the ground begins to the first thing
/// that already divides it (a city, a road, a river, a hedge, another separator); when nothing
/// does by the centre, on from the centre to the nearest such thing. A wall always ends at
/// something that divides the ground — walls meeting in the open would be a channel drawn
/// wrong — so with nothing to reach there is no wall.
fn separator_line(from: Point, covered: &dyn Fn(Point) -> bool) -> Option<Vec<Point>> {
    let walk: Vec<Point> = (0..=40)
        .map(|k| from.lerp(CENTRE, k as f32 / 40.0))
        .collect();
    let start = walk.iter().position(|q| !covered(*q))?;
    if let Some(end) = walk[start..].iter().copied().find(|q| covered(*q)) {
        return Some(vec![walk[start], end]);
    }
    let on_tile = |q: &Point| (0.0..=1.0).contains(&q.x) && (0.0..=1.0).contains(&q.y);
    let nearest = (0..72)
        .filter_map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 72.0;
            let dir = pt(a.cos(), a.sin());
            (1..=50)
                .map(|k| step(CENTRE, dir, k as f32 * 0.01))
                .take_while(on_tile)
                .find(|q| covered(*q))
        })
        .min_by(|a, b| a.dist(CENTRE).total_cmp(&b.dist(CENTRE)))?;
    Some(vec![walk[start], CENTRE, nearest])
}

/// Whether the ports either side of `port` belong to one field: a road ending there does not
/// divide it.
fn one_field_beside(set: &TileSet, tile: &Tile, port: Port) -> bool {
    let left = tile.feature_at(Port::ALL[(port.index() + 11) % 12]);
    let right = tile.feature_at(Port::ALL[(port.index() + 1) % 12]);
    matches!((left, right), (Some(l), Some(r)) if l == r && is_region(set, tile, l))
}

/// Whether two features' ports alternate around the edge (one of each, then one of each again),
/// so that drawn as one area each they would have to cross.
fn interleave(a: &[Port], b: &[Port]) -> bool {
    let runs: Vec<bool> = Port::ALL
        .iter()
        .filter_map(|p| {
            if a.contains(p) {
                Some(true)
            } else if b.contains(p) {
                Some(false)
            } else {
                None
            }
        })
        .fold(Vec::new(), |mut runs, x| {
            if runs.last() != Some(&x) {
                runs.push(x);
            }
            runs
        });
    // Around the circle the first and last run are one when they are of the same feature.
    let n = runs.len() - usize::from(runs.len() > 1 && runs.first() == runs.last());
    n >= 4
}

/// The point on the edge where two neighbouring ports meet: the corner between two sides, or
/// halfway between them on one side.
fn meeting_point(a: Port, b: Port) -> Point {
    let (sa, sb) = (a.side(), b.side());
    if sa == sb {
        port_point(a).lerp(port_point(b), 0.5)
    } else {
        corner(sa, sb)
    }
}

/// A line along a side, just inside the edge.
fn edge_line(side: Side) -> Vec<Point> {
    let o = OUTSIDE;
    let line = [pt(-o, 0.035), pt(1.0 + o, 0.035)];
    line.iter().map(|p| geom::turn(*p, side.index())).collect()
}

fn paint(scene: &mut Scene, set: &TileSet, plan: &Plan) {
    let o = OUTSIDE;
    scene.fill(rect(-o, -o, 1.0 + 2.0 * o, 1.0 + 2.0 * o), plan.field);
    // Light furrows give the field some texture without suggesting features.
    for k in (0..5).filter(|_| plan.has_field) {
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
    // Regions of a kind of their own in its fill, and ground of no feature paved.
    for (fill, cells) in &plan.grounds {
        paint_cells(scene, cells, *fill);
    }
    paint_cells(scene, &plan.unowned, UNOWNED);
    for channel in &plan.channels {
        paint_channel(scene, channel);
    }
    for city in plan.cities.iter().filter(|c| !c.raised) {
        scene.fill(Shape::Path(city.outline.area.clone()), city.colour);
    }
    for city in plan.cities.iter().filter(|c| c.raised) {
        // The shadow it casts on what lies beside it says it passes over.
        scene.stroke(
            Shape::Path(city.outline.walls.clone()),
            Stroke {
                colour: INK.alpha(110),
                width: 0.1,
                cap: Cap::Round,
            },
        );
        scene.fill(Shape::Path(city.outline.area.clone()), city.colour);
    }
    for &(p, style, colour) in &plan.roofs {
        texture(scene, p, style, colour);
    }
    for city in &plan.cities {
        if city.outline.walls.is_empty() {
            continue;
        }
        let walls = Shape::Path(city.outline.walls.clone());
        let (outer, inner) = match city.border {
            Some(border) => (border.darker(0.3), border),
            None => (city.colour.darker(0.55), city.colour.lighter(0.35)),
        };
        scene.stroke(
            walls.clone(),
            Stroke {
                colour: outer,
                width: 0.045,
                cap: Cap::Round,
            },
        );
        scene.stroke(
            walls,
            Stroke {
                colour: inner,
                width: 0.018,
                cap: Cap::Round,
            },
        );
    }
    // Roads passing over others are painted after them, over their own shadow.
    let is_over = |i: usize| plan.overpasses.iter().any(|(o, _, _)| *o == i);
    let (over, under): (Vec<_>, Vec<_>) =
        (plan.roads.iter().enumerate()).partition(|(i, _)| is_over(*i));
    paint_roads(scene, under.iter().map(|(_, r)| *r));
    for &(_, at, dir) in &plan.overpasses {
        let half = ROAD_HALF + 0.05;
        scene.stroke(
            polyline(&[step(at, dir, -half), step(at, dir, half)]),
            Stroke {
                colour: INK.alpha(110),
                width: 2.0 * ROAD_HALF + 0.05,
                cap: Cap::Round,
            },
        );
    }
    paint_roads(scene, over.iter().map(|(_, r)| *r));
    for &(_, at, dir) in &plan.overpasses {
        parapets(scene, at, dir, ROAD_HALF + 0.025);
    }
    for &(at, dir) in &plan.bridges {
        bridge(scene, at, dir);
    }
    for (line, colour) in &plan.hedges {
        hedge(scene, line, *colour);
    }
    for (side, colour) in &plan.walls {
        wall(scene, &edge_line(*side), *colour, 0.08);
    }
    for s in &plan.separators {
        match s.edge_of {
            // The edge of a region of its own kind: its fill, bordered darker.
            Some(fill) => wall(scene, &s.line, fill, 0.045),
            None => wall(scene, &s.line, STONE, 0.03),
        }
    }
    for (road, _) in &plan.roads {
        match road.stop {
            Stop::Village(p) => house(scene, p, 1.6),
            Stop::Gate(p) => gate(scene, p),
            Stop::Bank(p) => landing(scene, p),
            Stop::Through | Stop::Icon | Stop::Hedge => {}
        }
    }
    if let Some((p, colour)) = plan.festival {
        starburst(scene, p, colour);
    }
    if let Some(p) = plan.monastery {
        site(scene, p, plan.site_looks[0].as_ref(), monastery);
    }
    if let Some(p) = plan.marketplace {
        marketplace(scene, p);
    }
    if let Some(p) = plan.garden {
        site(scene, p, plan.site_looks[1].as_ref(), garden);
    }
    for &(p, m) in &plan.markers {
        marker(scene, set, p, m);
    }
    for city in &plan.cities {
        for p in &city.pennants {
            match &city.emblem_picture {
                Some(path) => picture(scene, path, *p, EMBLEM_PICTURE),
                None => pennant(scene, *p),
            }
        }
    }
    for &(p, colour) in &plan.flowers {
        flower_group(scene, p, colour);
    }
}

/// Grid cells in one colour, each a little larger so that the walls around them cover the
/// steps; cells on the edge run on into the bleed.
fn paint_cells(scene: &mut Scene, cells: &[usize], colour: Rgba) {
    let (o, size, n) = (OUTSIDE, Regions::cell_size(), crate::regions::N);
    for &c in cells {
        let (x, y) = (c % n, c / n);
        let grow = 0.8 * size;
        let lo = |i: usize| if i == 0 { -o } else { i as f32 * size - grow };
        let hi = |i: usize| {
            if i + 1 == n {
                1.0 + o
            } else {
                (i + 1) as f32 * size + grow
            }
        };
        scene.fill(rect(lo(x), lo(y), hi(x) - lo(x), hi(y) - lo(y)), colour);
    }
}

/// Roads: every border, then every fill, so that roads meeting at a junction run into one.
fn paint_roads<'p>(scene: &mut Scene, roads: impl Iterator<Item = &'p (Road, Rgba)> + Clone) {
    for (road, colour) in roads.clone() {
        scene.stroke(
            Shape::Path(road.path.clone()),
            Stroke {
                colour: colour.darker(0.55),
                width: 2.0 * ROAD_HALF,
                cap: Cap::Round,
            },
        );
    }
    for (road, colour) in roads {
        scene.stroke(
            Shape::Path(road.path.clone()),
            Stroke {
                colour: *colour,
                width: 2.0 * ROAD_HALF - 0.03,
                cap: Cap::Round,
            },
        );
    }
}

fn paint_channel(scene: &mut Scene, channel: &Channel) {
    let c = channel.colour;
    let (bank, inner) = if channel.style == EdgeStyle::River {
        (c.darker(0.35), c)
    } else {
        (c.darker(0.55), c)
    };
    scene.stroke(
        Shape::Path(channel.path.clone()),
        Stroke {
            colour: bank,
            width: 2.0 * CHANNEL_HALF,
            cap: Cap::Round,
        },
    );
    scene.stroke(
        Shape::Path(channel.path.clone()),
        Stroke {
            colour: inner,
            width: 2.0 * CHANNEL_HALF - 0.03,
            cap: Cap::Round,
        },
    );
    if channel.style == EdgeStyle::River {
        // A light ripple down the middle says "water" at a glance.
        scene.stroke(
            Shape::Path(channel.path.clone()),
            Stroke {
                colour: c.lighter(0.35),
                width: 0.012,
                cap: Cap::Round,
            },
        );
    }
}

/// Parapets on both sides of a road where it crosses water.
fn bridge(scene: &mut Scene, at: Point, dir: Point) {
    parapets(scene, at, dir, CHANNEL_HALF + 0.02);
}

/// Parapets on both sides of a road at `at`, `half` long each way along `dir`.
fn parapets(scene: &mut Scene, at: Point, dir: Point, half: f32) {
    let normal = pt(-dir.y, dir.x);
    for k in [-1.0, 1.0] {
        let side = step(at, normal, k * (ROAD_HALF + 0.005));
        scene.stroke(
            polyline(&[step(side, dir, -half), step(side, dir, half)]),
            Stroke {
                colour: STONE.darker(0.3),
                width: 0.02,
                cap: Cap::Butt,
            },
        );
    }
}

/// A wall of stone blocks along a line.
fn wall(scene: &mut Scene, line: &[Point], colour: Rgba, width: f32) {
    let path = Shape::Path(polyline_path(line));
    scene.stroke(
        path.clone(),
        Stroke {
            colour: colour.darker(0.5),
            width,
            cap: Cap::Butt,
        },
    );
    scene.stroke(
        path,
        Stroke {
            colour,
            width: width * 0.6,
            cap: Cap::Butt,
        },
    );
}

/// A small landing stage where a road meets the water.
fn landing(scene: &mut Scene, p: Point) {
    scene.fill_stroke(
        Shape::Circle {
            centre: p,
            radius: 0.035,
        },
        Rgba::rgb(0x9c, 0x6b, 0x3c),
        Stroke {
            colour: INK,
            width: 0.006,
            cap: Cap::Round,
        },
    );
}

/// Bushes along a line: overlapping round shrubs with light tops.
fn hedge(scene: &mut Scene, line: &[Point], colour: Rgba) {
    let total: f32 = line.windows(2).map(|w| w[0].dist(w[1])).sum();
    let count = ((total / 0.06).ceil() as usize).max(2);
    for k in 0..=count {
        let c = along(line, k as f32 / count as f32);
        let r = if k % 2 == 0 { 0.05 } else { 0.043 };
        scene.fill_stroke(
            Shape::Circle {
                centre: c,
                radius: r,
            },
            colour,
            Stroke {
                colour: colour.darker(0.4),
                width: 0.008,
                cap: Cap::Round,
            },
        );
    }
    for k in 0..count {
        let c = along(line, (k as f32 + 0.5) / count as f32);
        scene.fill(
            Shape::Circle {
                centre: pt(c.x - 0.01, c.y - 0.01),
                radius: 0.016,
            },
            colour.lighter(0.3),
        );
    }
}

/// A small house; `scale` 1 is about 0.06 wide.
/// Whether areas of a style have something drawn inside them.
fn has_texture(style: tiledef::LookStyle) -> bool {
    use tiledef::LookStyle::{City, Forest, Rock, Water};
    matches!(style, City | Forest | Rock | Water)
}

/// One mark of an area's texture at `p`: a house, a tree crown, a peak or a ripple.
fn texture(scene: &mut Scene, p: Point, style: tiledef::LookStyle, colour: Rgba) {
    use tiledef::LookStyle;
    let line = |colour: Rgba| Stroke {
        colour,
        width: 0.008,
        cap: Cap::Round,
    };
    match style {
        LookStyle::Forest => {
            for (dx, dy, r) in [
                (-0.018, 0.008, 0.022),
                (0.018, 0.008, 0.022),
                (0.0, -0.014, 0.026),
            ] {
                let crown = Shape::Circle {
                    centre: pt(p.x + dx, p.y + dy),
                    radius: r,
                };
                scene.fill_stroke(crown, colour.lighter(0.18), line(colour.darker(0.45)));
            }
        }
        LookStyle::Rock => {
            let peak = polygon(&[
                pt(p.x - 0.035, p.y + 0.02),
                pt(p.x, p.y - 0.03),
                pt(p.x + 0.035, p.y + 0.02),
            ]);
            scene.fill_stroke(peak, colour.lighter(0.2), line(colour.darker(0.5)));
        }
        LookStyle::Water => {
            for dy in [-0.01, 0.012] {
                let ripple = Shape::Path(vec![
                    Seg::Move(pt(p.x - 0.03, p.y + dy)),
                    Seg::Quad(pt(p.x - 0.015, p.y + dy - 0.012), pt(p.x, p.y + dy)),
                    Seg::Quad(pt(p.x + 0.015, p.y + dy + 0.012), pt(p.x + 0.03, p.y + dy)),
                ]);
                scene.stroke(ripple, line(colour.lighter(0.35)));
            }
        }
        _ => house(scene, p, 1.0),
    }
}

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

/// A site in its kind's look: a cloister, a garden, a market, an icon of the library or the
/// author's picture; `otherwise` without a look.
fn site(
    scene: &mut Scene,
    c: Point,
    look: Option<&tiledef::Look>,
    otherwise: fn(&mut Scene, Point),
) {
    use tiledef::LookStyle;
    match look.map(|l| (l.style, l.icon, l.fill, l.picture.as_ref())) {
        Some((LookStyle::Cloister, ..)) => monastery(scene, c),
        Some((LookStyle::Garden, ..)) => garden(scene, c),
        Some((LookStyle::Market, ..)) => marketplace(scene, c),
        Some((LookStyle::Icon, _, _, Some(path))) => picture(scene, path, c, SITE_PICTURE),
        Some((LookStyle::Icon, Some(icon), fill, None)) => {
            let colour = fill.map_or(INK, Rgba::from);
            crate::icons::draw_icon(scene, icon, c, colour, "");
        }
        _ => otherwise(scene, c),
    }
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

/// The side of the square an author's marker picture is fitted into: about a library icon's
/// reach (its plate is 0.12 across, the Festival's rays 0.18).
const MARKER_PICTURE: f32 = 0.14;
/// The side of the square an emblem's picture is fitted into: a pennant's height.
const EMBLEM_PICTURE: f32 = 0.11;
/// The side of the square a site's picture is fitted into: about a cloister's grounds (0.34
/// across), so the site reads as the tile's centrepiece.
const SITE_PICTURE: f32 = 0.3;

fn picture(scene: &mut Scene, path: &std::path::Path, centre: Point, size: f32) {
    scene.commands.push(Command::Picture {
        path: path.to_path_buf(),
        centre,
        size,
    });
}

fn marker(scene: &mut Scene, set: &TileSet, p: Point, m: usize) {
    let kind = &set.markers[m];
    if let Some(path) = &kind.picture {
        return picture(scene, path, p, MARKER_PICTURE);
    }
    let icon = marker_icon(kind);
    let fallback = if icon == MarkerIcon::Badge {
        GENERIC_MARKER
    } else {
        crate::icons::default_colour(icon)
    };
    let colour = kind.display.map_or(fallback, Rgba::from);
    let initial: String = kind
        .name
        .chars()
        .next()
        .or_else(|| kind.id.chars().next())
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    crate::icons::draw_icon(scene, icon, p, colour, &initial);
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

/// The size of the overlay's port names.
const PORT_NAME: f32 = 0.04;
/// The size of the overlay's feature labels.
const FEATURE_LABEL: f32 = 0.052;

/// The overlay's short name for a feature: kind and ordinal among its kind, in written order.
pub fn feature_label(set: &TileSet, tile: &Tile, index: usize) -> String {
    let kind = tile.features[index].kind;
    let name = &set.feature_kinds[kind.index()].id;
    let n = tile.features[..=index]
        .iter()
        .filter(|f| f.kind == kind)
        .count();
    let total = tile.features.iter().filter(|f| f.kind == kind).count();
    if total == 1 {
        name.clone()
    } else {
        format!("{name} {n}")
    }
}

fn overlay(scene: &mut Scene, set: &TileSet, tile: &Tile, plan: &Plan) {
    let tint = |i: usize| PALETTE[i % PALETTE.len()];
    tint_regions(scene, set, tile, plan, &tint);
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
    let port_names: Vec<(Point, Point)> = Port::ALL
        .into_iter()
        .map(|port| {
            let (at, align) = port_name_at(port);
            text_box(port.name(), at, PORT_NAME, align)
        })
        .collect();
    let mut labels: Vec<(Point, String, Rgba)> = Vec::new();
    let mut label_at: Vec<Option<Point>> = vec![None; tile.features.len()];
    let id_boxes = [false, true].map(|overlay| id_label_box(tile, overlay));
    // A label's box on the tile and clear of the ports' names and of the tile's id.
    let readable = |text: &str, c: Point| {
        let b = text_box(text, c, FEATURE_LABEL, Align::Centre);
        let on_tile = b.0.x >= 0.0 && b.0.y >= 0.0 && b.1.x <= 1.0 && b.1.y <= 1.0;
        on_tile && port_names.iter().chain(&id_boxes).all(|n| !overlap(b, *n))
    };
    for (i, f) in tile.features.iter().enumerate() {
        let spot = site_spot(set, f);
        let text = feature_label(set, tile, i);
        let at = match shape(set, f) {
            // Along the road, where the label can be read.
            KindShape::Line => plan
                .roads
                .iter()
                .find(|(r, _)| r.feature == i)
                .map(|(r, _)| {
                    // A stub's line is short and starts beyond the edge: moved onto the tile.
                    let onto = |p: Point| {
                        let (a, b) = text_box(&text, p, FEATURE_LABEL, Align::Centre);
                        let shift = |lo: f32, hi: f32| (-lo).max(0.0) - (hi - 1.0).max(0.0);
                        pt(p.x + shift(a.x, b.x), p.y + shift(a.y, b.y))
                    };
                    let along_it =
                        [0.3, 0.4, 0.5, 0.6, 0.2, 0.7, 0.8, 0.9].map(|t| along(r.line(), t));
                    (along_it.into_iter())
                        .chain(along_it.map(onto))
                        .find(|p| readable(&text, *p))
                        .unwrap_or_else(|| onto(along(r.line(), 0.3)))
                }),
            // Below a centre site's tall icon; on a garden's small one.
            KindShape::Site if spot == Some(Spot::Centre) => {
                plan.monastery.map(|p| pt(p.x, p.y + 0.14))
            }
            KindShape::Site => plan.garden,
            KindShape::Area | KindShape::Region => {
                let prefer = plan.regions.centroid(i).unwrap_or(CENTRE);
                let whole = |c: Point| readable(&text, c);
                (plan.regions).spot_where(|c| c == Cell::Feature(i), 0.05, prefer, whole)
            }
        };
        if let Some(p) = at {
            labels.push((p, text, tint(i)));
        }
        label_at[i] = at;
        if let Some((p, _)) = spot.and_then(|s| plan.icon_of(s)) {
            scene.fill(
                Shape::Circle {
                    centre: p,
                    radius: 0.13,
                },
                tint(i).alpha(110),
            );
        }
    }
    moves_links(scene, tile, &label_at);
    mark_ports(scene, tile, &tint);
    for (p, text, colour) in labels {
        scene.commands.push(Command::Text {
            at: p,
            size: FEATURE_LABEL,
            text,
            colour: colour.darker(0.35),
            align: Align::Centre,
            halo: Some(WHITE.alpha(235)),
        });
    }
}

/// The overlay's `moves` links (where a figure that moves on may go): a line through each
/// link's features, label to label, under the labels. No other picture shows them.
fn moves_links(scene: &mut Scene, tile: &Tile, label_at: &[Option<Point>]) {
    for link in &tile.moves {
        let points: Vec<Point> = (link.iter())
            .filter_map(|&f| label_at.get(f).copied().flatten())
            .collect();
        let Some((&first, rest)) = points.split_first() else {
            continue;
        };
        if rest.is_empty() {
            continue;
        }
        let path = std::iter::once(Seg::Move(first))
            .chain(rest.iter().map(|&p| Seg::Line(p)))
            .collect();
        scene.stroke(
            Shape::Path(path),
            Stroke {
                colour: INK.alpha(170),
                width: 0.022,
                cap: Cap::Round,
            },
        );
    }
}

/// The overlay's fields: the grid cells each region flooded, merged into runs, in its tint.
fn tint_regions(
    scene: &mut Scene,
    set: &TileSet,
    tile: &Tile,
    plan: &Plan,
    tint: &impl Fn(usize) -> Rgba,
) {
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
                && is_region(set, tile, i)
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
}

/// The overlay's ports: a dot on the edge in the owner's tint (grey for an edge-owned port), and
/// the name.
fn mark_ports(scene: &mut Scene, tile: &Tile, tint: &impl Fn(usize) -> Rgba) {
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
        let (at, align) = port_name_at(port);
        scene.commands.push(Command::Text {
            at,
            size: PORT_NAME,
            text: port.name().to_string(),
            colour: INK,
            align,
            halo: Some(WHITE.alpha(220)),
        });
    }
}

/// Whether the picture says what the data says: each city and field is one connected region of
/// the grid of its own, reaching each of its ports; no two fields touch with nothing between
/// them; each road's drawing leaves by each of its ports; the ground by a port of no feature is
/// no field's. The message names the tile, the feature and the port.
pub fn check_regions(set: &TileSet, tile: &Tile) -> Result<(), String> {
    let plan = plan(set, tile);
    let regions = &plan.regions;
    let n = crate::regions::N;
    let cells = regions.cells();
    let name = |i: usize| feature_label(set, tile, i);
    for (i, f) in tile.features.iter().enumerate() {
        match shape(set, f) {
            KindShape::Area | KindShape::Region => {}
            KindShape::Line => {
                for &p in &f.ports {
                    let at = port_point(p);
                    let (road, _) = plan
                        .roads
                        .iter()
                        .find(|(r, _)| r.feature == i)
                        .ok_or_else(|| format!("tile {}: {} is not drawn", tile.id, name(i)))?;
                    if !road.lines.iter().flatten().any(|q| q.dist(at) < 1e-3) {
                        return Err(format!(
                            "tile {}: {} is not drawn to its port {}",
                            tile.id,
                            name(i),
                            p.name()
                        ));
                    }
                }
                continue;
            }
            KindShape::Site => continue,
        }
        for &p in &f.ports {
            let at = regions.at_port(p);
            if at != Cell::Feature(i) {
                let what = match at {
                    Cell::Feature(g) => format!("the ground there is {}", name(g)),
                    Cell::Free => "the ground there belongs to nothing".to_string(),
                    Cell::Blocked => "it is covered".to_string(),
                };
                return Err(format!(
                    "tile {}: {} does not reach its port {}: {what}",
                    tile.id,
                    name(i),
                    p.name()
                ));
            }
        }
        // One connected region.
        let mine: Vec<usize> = (0..n * n)
            .filter(|&c| cells[c] == Cell::Feature(i))
            .collect();
        let Some(&first) = mine.first() else {
            return Err(format!("tile {}: {} has no ground", tile.id, name(i)));
        };
        // A feature whose ports interleave around the edge with another's cannot be one area
        // on a flat tile (the two would cross): it may be drawn in pieces, each reaching one of
        // its ports.
        let crossed = tile
            .features
            .iter()
            .enumerate()
            .any(|(j, g)| j != i && interleave(&f.ports, &g.ports));
        let mut stack: Vec<usize> = if crossed {
            f.ports
                .iter()
                .filter_map(|p| regions.port_cell(*p))
                .collect()
        } else {
            vec![first]
        };
        stack.retain(|&c| cells[c] == Cell::Feature(i));
        let mut seen = vec![false; n * n];
        for &c in &stack {
            seen[c] = true;
        }
        let mut reached = 0;
        while let Some(c) = stack.pop() {
            reached += 1;
            for d in grid_neighbours(c, n).into_iter().flatten() {
                if !seen[d] && cells[d] == Cell::Feature(i) {
                    seen[d] = true;
                    stack.push(d);
                }
            }
        }
        if reached != mine.len() && crossed {
            return Err(format!(
                "tile {}: a piece of {} reaches none of its ports",
                tile.id,
                name(i)
            ));
        }
        if reached != mine.len() {
            return Err(format!(
                "tile {}: {} is drawn as {} separate areas",
                tile.id,
                name(i),
                if reached * 2 > mine.len() {
                    "two or more"
                } else {
                    "several"
                }
            ));
        }
    }
    // Ground by a port the data gives to no feature must not be drawn as a field's.
    for p in unowned_ports(set, tile) {
        if let Cell::Feature(g) = regions.at_port(p)
            && is_region(set, tile, g)
        {
            return Err(format!(
                "tile {}: the ground by {}, on no feature, is drawn as {}",
                tile.id,
                p.name(),
                name(g)
            ));
        }
    }
    // Two fields side by side with nothing between them would read as one.
    for c in 0..n * n {
        let (x, y) = (c % n, c / n);
        for d in [(x + 1 < n).then(|| c + 1), (y + 1 < n).then(|| c + n)]
            .into_iter()
            .flatten()
        {
            if let (Cell::Feature(a), Cell::Feature(b)) = (cells[c], cells[d])
                && a != b
                && is_region(set, tile, a)
                && is_region(set, tile, b)
            {
                return Err(format!(
                    "tile {}: {} and {} touch with nothing between them",
                    tile.id,
                    name(a),
                    name(b)
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_that_alternate_around_the_edge_interleave() {
        use Port::*;
        // A city W–E and a field on both of its banks, north and south.
        assert!(interleave(&[W, E], &[NNE, SSE]));
        // A road N–S and a field either side of its south end.
        assert!(interleave(&[SSE, SSW], &[N, S]));
        // Side by side, or one inside the other's gap: no crossing.
        assert!(!interleave(&[NNW, NNE], &[N]));
        assert!(!interleave(&[W, N], &[E, S]));
        assert!(!interleave(&[], &[E, S]));
    }
}
