//! The marker icon library: one small vector picture per `MarkerIcon`, drawn about 0.12 tile
//! units across in the marker's colour (each has a default colour when the marker declares none).
//! Simple shapes on a round light plate, so every icon reads on any ground.

use crate::scene::{
    Align, Cap, Point, Rgba, Scene, Seg, Shape, Stroke, polygon, polyline, pt, rect,
};
use tiledef::MarkerIcon;

const INK: Rgba = Rgba::rgb(0x2b, 0x22, 0x1a);
const PLATE: Rgba = Rgba::rgb(0xf4, 0xee, 0xe0);
const WHITE: Rgba = Rgba::rgb(0xff, 0xff, 0xff);
const WATER: Rgba = Rgba::rgb(0x3f, 0x86, 0xd6);

/// The colour an icon is drawn in when its marker declares none.
pub fn default_colour(icon: MarkerIcon) -> Rgba {
    use MarkerIcon::*;
    match icon {
        Festival => Rgba::rgb(0xf4, 0xc4, 0x30),
        Well | Spring | Lake | Ferry | Creature => WATER,
        Volcano | Dragon => Rgba::rgb(0xc8, 0x3a, 0x22),
        Wine | Vineyard => Rgba::rgb(0x7b, 0x2d, 0x5a),
        Grain | Gold | CornCircle => Rgba::rgb(0xd9, 0xa4, 0x1e),
        Cloth | Circus | Acrobats | Princess => Rgba::rgb(0xc2, 0x3b, 0x6e),
        Portal | Mage => Rgba::rgb(0x6a, 0x3f, 0xb5),
        Hill | PigHerd => Rgba::rgb(0x8a, 0x6a, 0x3c),
        _ => Rgba::rgb(0x8c, 0x86, 0x7c),
    }
}

fn ink(width: f32) -> Stroke {
    Stroke {
        colour: INK,
        width,
        cap: Cap::Round,
    }
}

fn circle(c: Point, r: f32) -> Shape {
    Shape::Circle {
        centre: c,
        radius: r,
    }
}

fn at(p: Point, dx: f32, dy: f32) -> Point {
    pt(p.x + dx, p.y + dy)
}

fn poly(p: Point, points: &[(f32, f32)]) -> Shape {
    let pts: Vec<Point> = points.iter().map(|(x, y)| at(p, *x, *y)).collect();
    polygon(&pts)
}

/// A house-like block with a pitched roof (tower, inn, hut, castle, cathedral, shrine).
fn building(s: &mut Scene, p: Point, w: f32, h: f32, roof: f32, colour: Rgba) {
    s.fill_stroke(rect(p.x - w, p.y - h * 0.3, 2.0 * w, h), PLATE, ink(0.006));
    s.fill_stroke(
        poly(
            p,
            &[
                (-w * 1.2, -h * 0.3),
                (0.0, -h * 0.3 - roof),
                (w * 1.2, -h * 0.3),
            ],
        ),
        colour,
        ink(0.006),
    );
}

/// Draws `icon` centred on `p` in `colour`; `initial` is the badge's letter.
pub fn draw_icon(s: &mut Scene, icon: MarkerIcon, p: Point, colour: Rgba, initial: &str) {
    use MarkerIcon::*;
    let r = 0.06;
    if !matches!(icon, Lake | Spring | Festival | Badge | Well) {
        s.fill_stroke(circle(p, r), PLATE.alpha(235), ink(0.006));
    }
    match icon {
        Badge | Festival | Well | Spring | Lake | Volcano => {
            landmark_icon(s, icon, p, colour, initial)
        }
        Inn | Cathedral | Wine | Grain | Vineyard | Cloth | Tower | Watchtower | Bazaar
        | Circus => goods_icon(s, icon, p, colour),
        Dragon | Creature | Portal | Princess | Mage | PigHerd | Shrine | Acrobats
        | FlyingMachine => figures_icon(s, icon, p, colour),
        Hill | Gold | Ferry | CornCircle | Tunnel | Siege | Castle | Hut | Robber | Quarter => {
            places_icon(s, icon, p, colour)
        }
    }
}

/// The badge, the Festival, a well, a spring, a lake and a volcano.
fn landmark_icon(s: &mut Scene, icon: MarkerIcon, p: Point, colour: Rgba, initial: &str) {
    use MarkerIcon::*;
    let r = 0.06;
    match icon {
        Badge => {
            s.fill_stroke(
                circle(p, r),
                colour,
                Stroke {
                    colour: colour.darker(0.6),
                    width: 0.012,
                    cap: Cap::Round,
                },
            );
            let text = if colour.luma() > 140 { INK } else { WHITE };
            s.text(p, 0.075, initial, text, Align::Centre);
        }
        Festival => {
            let rays = 16;
            let points: Vec<Point> = (0..rays * 2)
                .map(|k| {
                    let a = std::f32::consts::PI * k as f32 / rays as f32;
                    let rr = if k % 2 == 0 { 0.09 } else { 0.05 };
                    pt(p.x + rr * a.sin(), p.y - rr * a.cos())
                })
                .collect();
            s.fill_stroke(polygon(&points), colour, ink(0.006));
            s.fill(circle(p, 0.03), Rgba::rgb(0xd9, 0x34, 0x2b));
        }
        Well => {
            s.fill_stroke(
                circle(p, 0.045),
                WATER,
                Stroke {
                    colour: Rgba::rgb(0x8c, 0x86, 0x7c),
                    width: 0.022,
                    cap: Cap::Round,
                },
            );
            s.fill(circle(at(p, -0.012, -0.012), 0.012), WHITE.alpha(170));
        }
        Spring => {
            s.fill_stroke(circle(p, 0.055), colour, ink(0.006));
            for k in 0..3 {
                s.stroke(
                    circle(p, 0.015 + 0.013 * k as f32),
                    Stroke {
                        colour: colour.lighter(0.5),
                        width: 0.005,
                        cap: Cap::Round,
                    },
                );
            }
        }
        Lake => {
            s.fill_stroke(
                Shape::Path(vec![
                    Seg::Move(at(p, -0.17, 0.0)),
                    Seg::Quad(at(p, -0.16, -0.15), at(p, 0.0, -0.14)),
                    Seg::Quad(at(p, 0.17, -0.13), at(p, 0.16, 0.02)),
                    Seg::Quad(at(p, 0.15, 0.16), at(p, -0.02, 0.14)),
                    Seg::Quad(at(p, -0.18, 0.13), at(p, -0.17, 0.0)),
                    Seg::Close,
                ]),
                colour,
                Stroke {
                    colour: colour.darker(0.35),
                    width: 0.012,
                    cap: Cap::Round,
                },
            );
            wave(s, at(p, -0.06, -0.03), colour.lighter(0.45));
            wave(s, at(p, 0.03, 0.05), colour.lighter(0.45));
        }
        Volcano => {
            s.fill_stroke(
                poly(
                    p,
                    &[
                        (-0.05, 0.035),
                        (-0.015, -0.025),
                        (0.015, -0.025),
                        (0.05, 0.035),
                    ],
                ),
                Rgba::rgb(0x6b, 0x4a, 0x32),
                ink(0.006),
            );
            s.fill(
                poly(p, &[(-0.02, -0.025), (0.0, -0.06), (0.02, -0.025)]),
                colour,
            );
        }
        _ => {}
    }
}

/// Inns, cathedrals, goods and the buildings of towers and fairs.
fn goods_icon(s: &mut Scene, icon: MarkerIcon, p: Point, colour: Rgba) {
    use MarkerIcon::*;
    match icon {
        Inn => {
            building(s, p, 0.03, 0.05, 0.025, colour);
            s.fill(rect(p.x + 0.03, p.y - 0.02, 0.015, 0.012), colour);
        }
        Cathedral => {
            building(s, at(p, 0.008, 0.01), 0.03, 0.04, 0.02, colour);
            s.fill_stroke(rect(p.x - 0.04, p.y - 0.05, 0.018, 0.08), PLATE, ink(0.006));
            s.fill(
                poly(p, &[(-0.043, -0.05), (-0.031, -0.075), (-0.019, -0.05)]),
                colour,
            );
        }
        Wine => {
            s.fill_stroke(
                Shape::Path(vec![
                    Seg::Move(at(p, -0.025, -0.04)),
                    Seg::Quad(at(p, -0.045, 0.0), at(p, -0.025, 0.04)),
                    Seg::Line(at(p, 0.025, 0.04)),
                    Seg::Quad(at(p, 0.045, 0.0), at(p, 0.025, -0.04)),
                    Seg::Close,
                ]),
                colour,
                ink(0.006),
            );
            for y in [-0.018, 0.018] {
                s.stroke(polyline(&[at(p, -0.036, y), at(p, 0.036, y)]), ink(0.005));
            }
        }
        Grain | Vineyard => {
            for dx in [-0.02, 0.0, 0.02] {
                s.stroke(
                    polyline(&[at(p, dx * 0.5, 0.04), at(p, dx, -0.02)]),
                    Stroke {
                        colour: colour.darker(0.3),
                        width: 0.006,
                        cap: Cap::Round,
                    },
                );
                let head = if icon == Grain { 0.012 } else { 0.014 };
                s.fill_stroke(circle(at(p, dx, -0.03), head), colour, ink(0.004));
            }
        }
        Cloth => {
            s.fill_stroke(
                rect(p.x - 0.04, p.y - 0.025, 0.08, 0.05),
                colour,
                ink(0.006),
            );
            s.fill_stroke(
                circle(at(p, 0.04, 0.0), 0.025),
                colour.darker(0.2),
                ink(0.006),
            );
        }
        Tower | Watchtower => {
            let w = if icon == Tower { 0.022 } else { 0.015 };
            s.fill_stroke(rect(p.x - w, p.y - 0.035, 2.0 * w, 0.08), PLATE, ink(0.006));
            for k in [-1.0, 0.0, 1.0] {
                s.fill_stroke(
                    rect(p.x + k * w * 0.8 - 0.006, p.y - 0.05, 0.012, 0.015),
                    colour,
                    ink(0.004),
                );
            }
        }
        Bazaar | Circus => {
            s.fill_stroke(
                poly(
                    p,
                    &[
                        (-0.05, 0.035),
                        (-0.05, -0.005),
                        (0.0, -0.05),
                        (0.05, -0.005),
                        (0.05, 0.035),
                    ],
                ),
                colour,
                ink(0.006),
            );
            s.fill(rect(p.x - 0.01, p.y + 0.0, 0.02, 0.035), PLATE);
        }
        _ => {}
    }
}

/// Creatures, portals, people, herds, shrines, acrobats and flying machines.
fn figures_icon(s: &mut Scene, icon: MarkerIcon, p: Point, colour: Rgba) {
    use MarkerIcon::*;
    match icon {
        Dragon | Creature => {
            s.fill_stroke(
                Shape::Path(vec![
                    Seg::Move(at(p, -0.05, 0.02)),
                    Seg::Quad(at(p, -0.02, -0.04), at(p, 0.0, 0.01)),
                    Seg::Quad(at(p, 0.02, 0.05), at(p, 0.05, -0.02)),
                    Seg::Line(at(p, 0.03, 0.03)),
                    Seg::Quad(at(p, 0.0, 0.05), at(p, -0.05, 0.02)),
                    Seg::Close,
                ]),
                colour,
                ink(0.006),
            );
        }
        Portal => {
            s.stroke(
                circle(p, 0.04),
                Stroke {
                    colour,
                    width: 0.014,
                    cap: Cap::Round,
                },
            );
            s.fill(circle(p, 0.018), colour.lighter(0.5));
        }
        Princess | Mage => {
            s.fill_stroke(
                poly(p, &[(-0.03, 0.045), (0.0, -0.02), (0.03, 0.045)]),
                colour,
                ink(0.006),
            );
            s.fill_stroke(circle(at(p, 0.0, -0.03), 0.015), PLATE, ink(0.005));
            if icon == Mage {
                s.fill(
                    poly(p, &[(-0.02, -0.04), (0.0, -0.075), (0.02, -0.04)]),
                    colour,
                );
            } else {
                s.fill(
                    poly(
                        p,
                        &[
                            (-0.015, -0.045),
                            (-0.008, -0.06),
                            (0.0, -0.05),
                            (0.008, -0.06),
                            (0.015, -0.045),
                        ],
                    ),
                    Rgba::rgb(0xe8, 0xb0, 0x20),
                );
            }
        }
        PigHerd => {
            s.fill_stroke(
                circle(at(p, 0.005, 0.005), 0.032),
                Rgba::rgb(0xf0, 0xa8, 0xb0),
                ink(0.006),
            );
            s.fill_stroke(
                circle(at(p, -0.03, 0.0), 0.012),
                Rgba::rgb(0xe8, 0x90, 0x9c),
                ink(0.004),
            );
        }
        Shrine => {
            building(s, p, 0.028, 0.045, 0.02, colour);
            s.stroke(
                polyline(&[at(p, 0.0, -0.07), at(p, 0.0, -0.045)]),
                ink(0.006),
            );
        }
        Acrobats => {
            for k in 0..3 {
                s.fill_stroke(
                    circle(at(p, 0.0, 0.03 - 0.028 * k as f32), 0.013),
                    colour,
                    ink(0.004),
                );
            }
        }
        FlyingMachine => {
            s.fill_stroke(
                poly(p, &[(-0.05, 0.0), (0.0, -0.03), (0.05, 0.0), (0.0, 0.012)]),
                colour,
                ink(0.006),
            );
        }
        _ => {}
    }
}

/// Hills, gold, ferries, corn circles, tunnels, sieges, castles, huts, robbers and quarters.
fn places_icon(s: &mut Scene, icon: MarkerIcon, p: Point, colour: Rgba) {
    use MarkerIcon::*;
    match icon {
        Hill => {
            s.fill_stroke(
                Shape::Path(vec![
                    Seg::Move(at(p, -0.05, 0.03)),
                    Seg::Quad(at(p, 0.0, -0.07), at(p, 0.05, 0.03)),
                    Seg::Close,
                ]),
                colour,
                ink(0.006),
            );
        }
        Gold => {
            for (dx, dy) in [(-0.018, 0.012), (0.018, 0.012), (0.0, -0.015)] {
                s.fill_stroke(circle(at(p, dx, dy), 0.017), colour, ink(0.004));
            }
        }
        Ferry => {
            s.fill_stroke(
                poly(
                    p,
                    &[(-0.05, 0.0), (0.05, 0.0), (0.035, 0.025), (-0.035, 0.025)],
                ),
                colour,
                ink(0.006),
            );
            wave(s, at(p, -0.03, 0.04), WATER);
        }
        CornCircle => {
            for rr in [0.04, 0.022] {
                s.stroke(
                    circle(p, rr),
                    Stroke {
                        colour,
                        width: 0.008,
                        cap: Cap::Round,
                    },
                );
            }
        }
        Tunnel => {
            s.fill_stroke(
                Shape::Path(vec![
                    Seg::Move(at(p, -0.035, 0.03)),
                    Seg::Line(at(p, -0.035, 0.0)),
                    Seg::Quad(at(p, 0.0, -0.05), at(p, 0.035, 0.0)),
                    Seg::Line(at(p, 0.035, 0.03)),
                    Seg::Close,
                ]),
                INK,
                Stroke {
                    colour,
                    width: 0.01,
                    cap: Cap::Round,
                },
            );
        }
        Siege => {
            s.fill_stroke(
                Shape::Path(vec![
                    Seg::Move(at(p, -0.035, -0.04)),
                    Seg::Line(at(p, 0.035, -0.04)),
                    Seg::Line(at(p, 0.035, 0.0)),
                    Seg::Quad(at(p, 0.035, 0.03), at(p, 0.0, 0.045)),
                    Seg::Quad(at(p, -0.035, 0.03), at(p, -0.035, 0.0)),
                    Seg::Close,
                ]),
                colour,
                ink(0.006),
            );
            s.stroke(
                polyline(&[at(p, -0.02, -0.02), at(p, 0.02, 0.02)]),
                ink(0.006),
            );
            s.stroke(
                polyline(&[at(p, 0.02, -0.02), at(p, -0.02, 0.02)]),
                ink(0.006),
            );
        }
        Castle => {
            s.fill_stroke(
                rect(p.x - 0.045, p.y - 0.02, 0.09, 0.055),
                PLATE,
                ink(0.006),
            );
            for k in [-1.0, 1.0] {
                s.fill_stroke(
                    rect(p.x + k * 0.035 - 0.012, p.y - 0.045, 0.024, 0.08),
                    colour,
                    ink(0.005),
                );
            }
        }
        Hut => building(s, p, 0.03, 0.04, 0.03, colour),
        Robber => {
            s.fill_stroke(circle(at(p, 0.0, -0.02), 0.02), PLATE, ink(0.005));
            s.fill(rect(p.x - 0.022, p.y - 0.027, 0.044, 0.01), colour);
            s.fill_stroke(
                poly(p, &[(-0.03, 0.045), (0.0, 0.0), (0.03, 0.045)]),
                colour,
                ink(0.005),
            );
        }
        Quarter => {
            s.fill_stroke(rect(p.x - 0.04, p.y - 0.04, 0.08, 0.08), colour, ink(0.006));
            s.stroke(polyline(&[at(p, 0.0, -0.04), at(p, 0.0, 0.04)]), ink(0.005));
            s.stroke(polyline(&[at(p, -0.04, 0.0), at(p, 0.04, 0.0)]), ink(0.005));
        }
        _ => {}
    }
}

fn wave(s: &mut Scene, p: Point, colour: Rgba) {
    s.stroke(
        Shape::Path(vec![
            Seg::Move(p),
            Seg::Quad(at(p, 0.015, -0.015), at(p, 0.03, 0.0)),
            Seg::Quad(at(p, 0.045, 0.015), at(p, 0.06, 0.0)),
        ]),
        Stroke {
            colour,
            width: 0.008,
            cap: Cap::Round,
        },
    );
}
