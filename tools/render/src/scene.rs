//! Drawing commands as plain data: what a tile looks like, before any pixels exist.
//!
//! Coordinates are tile units: (0, 0) is the north-west corner, (1, 1) the south-east corner,
//! y grows southwards. Shapes that reach an edge run on past it (to -0.1 or 1.1) so that a print
//! with bleed shows the picture continuing beyond the cut line.

use std::fmt;
use std::path::PathBuf;

/// A point in tile units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// West to east, 0 to 1 on the tile.
    pub x: f32,
    /// North to south, 0 to 1 on the tile.
    pub y: f32,
}

/// Shorthand for a point.
pub const fn pt(x: f32, y: f32) -> Point {
    Point { x, y }
}

impl Point {
    /// The point `t` of the way from `self` to `other`.
    pub fn lerp(self, other: Point, t: f32) -> Point {
        pt(
            self.x + (other.x - self.x) * t,
            self.y + (other.y - self.y) * t,
        )
    }

    /// Euclidean distance.
    pub fn dist(self, other: Point) -> f32 {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2)).sqrt()
    }
}

/// A colour with straight (not premultiplied) alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgba(pub [u8; 4]);

impl Rgba {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba([r, g, b, 255])
    }

    /// The same colour with another alpha.
    pub const fn alpha(self, a: u8) -> Rgba {
        Rgba([self.0[0], self.0[1], self.0[2], a])
    }

    /// The colour mixed towards black (`amount` 0..1).
    pub fn darker(self, amount: f32) -> Rgba {
        let k = 1.0 - amount;
        let c = |v: u8| (f32::from(v) * k).round() as u8;
        Rgba([c(self.0[0]), c(self.0[1]), c(self.0[2]), self.0[3]])
    }

    /// The colour mixed towards white (`amount` 0..1).
    pub fn lighter(self, amount: f32) -> Rgba {
        let c = |v: u8| (f32::from(v) + (255.0 - f32::from(v)) * amount).round() as u8;
        Rgba([c(self.0[0]), c(self.0[1]), c(self.0[2]), self.0[3]])
    }

    /// Perceived brightness 0..255, to choose a readable text colour on it.
    pub fn luma(self) -> u32 {
        (299 * u32::from(self.0[0]) + 587 * u32::from(self.0[1]) + 114 * u32::from(self.0[2]))
            / 1000
    }
}

impl From<tiledef::Rgb> for Rgba {
    fn from(c: tiledef::Rgb) -> Rgba {
        Rgba([c.0[0], c.0[1], c.0[2], 255])
    }
}

/// One step of a path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seg {
    /// Start a new contour.
    Move(Point),
    /// A straight line to the point.
    Line(Point),
    /// A quadratic Bézier curve: control, end.
    Quad(Point, Point),
    /// A cubic Bézier curve: two controls, end.
    Cubic(Point, Point, Point),
    /// Close the contour.
    Close,
}

impl Seg {
    /// The same segment with every point moved by `f`.
    pub fn map(self, f: impl Fn(Point) -> Point) -> Seg {
        match self {
            Seg::Move(p) => Seg::Move(f(p)),
            Seg::Line(p) => Seg::Line(f(p)),
            Seg::Quad(c, p) => Seg::Quad(f(c), f(p)),
            Seg::Cubic(c1, c2, p) => Seg::Cubic(f(c1), f(c2), f(p)),
            Seg::Close => Seg::Close,
        }
    }
}

/// A shape to fill and/or stroke.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A general path.
    Path(Vec<Seg>),
    /// A circle.
    Circle {
        /// Its centre.
        centre: Point,
        /// Its radius.
        radius: f32,
    },
}

/// How line ends look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    /// Cut square at the end point.
    Butt,
    /// A half circle beyond the end point.
    Round,
}

/// An outline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// Its colour.
    pub colour: Rgba,
    /// Its width in tile units.
    pub width: f32,
    /// Its line ends (and joins: round caps go with round joins).
    pub cap: Cap,
}

/// Where a text's anchor point sits relative to the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// The anchor is the centre of the text box.
    Centre,
    /// The anchor is the left end of the baseline.
    Left,
    /// The anchor is the right end of the baseline.
    Right,
}

/// One drawing command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Fill and/or stroke a shape.
    Shape {
        /// The shape.
        shape: Shape,
        /// Fill colour, if filled.
        fill: Option<Rgba>,
        /// Outline, if stroked.
        stroke: Option<Stroke>,
    },
    /// A line of text in the embedded font.
    Text {
        /// The anchor point.
        at: Point,
        /// The font size (em height) in tile units.
        size: f32,
        /// The text.
        text: String,
        /// Its colour.
        colour: Rgba,
        /// How the text sits on the anchor.
        align: Align,
        /// A contrasting outline drawn under the text, so it reads on any background.
        halo: Option<Rgba>,
    },
    /// An artwork image stretched over the tile square.
    Image {
        /// The image file.
        path: PathBuf,
    },
    /// An author's picture (PNG or SVG) fitted, its proportions kept, into a square.
    Picture {
        /// The picture file.
        path: PathBuf,
        /// The square's centre.
        centre: Point,
        /// The square's side, in tile units.
        size: f32,
    },
}

/// Everything drawn for one picture, in painting order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// The commands, back to front.
    pub commands: Vec<Command>,
}

impl Scene {
    /// Fills a shape.
    pub fn fill(&mut self, shape: Shape, colour: Rgba) {
        self.commands.push(Command::Shape {
            shape,
            fill: Some(colour),
            stroke: None,
        });
    }

    /// Strokes a shape.
    pub fn stroke(&mut self, shape: Shape, stroke: Stroke) {
        self.commands.push(Command::Shape {
            shape,
            fill: None,
            stroke: Some(stroke),
        });
    }

    /// Fills and strokes a shape.
    pub fn fill_stroke(&mut self, shape: Shape, fill: Rgba, stroke: Stroke) {
        self.commands.push(Command::Shape {
            shape,
            fill: Some(fill),
            stroke: Some(stroke),
        });
    }

    /// Adds a text.
    pub fn text(&mut self, at: Point, size: f32, text: &str, colour: Rgba, align: Align) {
        self.commands.push(Command::Text {
            at,
            size,
            text: text.to_string(),
            colour,
            align,
            halo: None,
        });
    }
}

/// A rectangle path.
pub fn rect(x: f32, y: f32, w: f32, h: f32) -> Shape {
    Shape::Path(vec![
        Seg::Move(pt(x, y)),
        Seg::Line(pt(x + w, y)),
        Seg::Line(pt(x + w, y + h)),
        Seg::Line(pt(x, y + h)),
        Seg::Close,
    ])
}

/// A closed polygon path.
pub fn polygon(points: &[Point]) -> Shape {
    let mut segs = Vec::with_capacity(points.len() + 1);
    for (i, p) in points.iter().enumerate() {
        segs.push(if i == 0 { Seg::Move(*p) } else { Seg::Line(*p) });
    }
    segs.push(Seg::Close);
    Shape::Path(segs)
}

/// An open polyline path.
pub fn polyline(points: &[Point]) -> Shape {
    let mut segs = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        segs.push(if i == 0 { Seg::Move(*p) } else { Seg::Line(*p) });
    }
    Shape::Path(segs)
}

// The snapshot text form: three decimals, so that snapshots are exact and CPU-independent.
struct F(f32);

impl fmt::Display for F {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = (self.0 * 1000.0).round() / 1000.0;
        // Avoid "-0" for values that round to zero.
        let v = if v == 0.0 { 0.0 } else { v };
        write!(f, "{v}")
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", F(self.x), F(self.y))
    }
}

impl fmt::Display for Rgba {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b, a] = self.0;
        if a == 255 {
            write!(f, "#{r:02x}{g:02x}{b:02x}")
        } else {
            write!(f, "#{r:02x}{g:02x}{b:02x}{a:02x}")
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Circle { centre, radius } => write!(f, "circle {centre} r{}", F(*radius)),
            Shape::Path(segs) => {
                f.write_str("path")?;
                for s in segs {
                    match s {
                        Seg::Move(p) => write!(f, " M{p}")?,
                        Seg::Line(p) => write!(f, " L{p}")?,
                        Seg::Quad(c, p) => write!(f, " Q{c} {p}")?,
                        Seg::Cubic(a, b, p) => write!(f, " C{a} {b} {p}")?,
                        Seg::Close => f.write_str(" Z")?,
                    }
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Shape {
                shape,
                fill,
                stroke,
            } => {
                if let Some(c) = fill {
                    write!(f, "fill {c} ")?;
                }
                if let Some(s) = stroke {
                    let cap = match s.cap {
                        Cap::Butt => "butt",
                        Cap::Round => "round",
                    };
                    write!(f, "stroke {} w{} {cap} ", s.colour, F(s.width))?;
                }
                write!(f, "{shape}")
            }
            Command::Text {
                at,
                size,
                text,
                colour,
                align,
                halo,
            } => {
                write!(
                    f,
                    "text {text:?} at {at} size {} {colour} {align:?}",
                    F(*size)
                )?;
                if let Some(h) = halo {
                    write!(f, " halo {h}")?;
                }
                Ok(())
            }
            Command::Image { path } => write!(f, "image {}", path.display()),
            Command::Picture { path, centre, size } => {
                write!(
                    f,
                    "picture {} at {centre} size {}",
                    path.display(),
                    F(*size)
                )
            }
        }
    }
}

impl fmt::Display for Scene {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.commands {
            writeln!(f, "{c}")?;
        }
        Ok(())
    }
}
