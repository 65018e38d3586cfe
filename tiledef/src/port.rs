//! The twelve ports of a tile's boundary and the four sides they sit on.
//!
//! Ports are named clockwise from the west half of the north edge:
//! `NNW N NNE ENE E ESE SSE S SSW WSW W WNW` (indices 0–11). The names are absolute compass
//! names; a quarter turn clockwise maps port `i` to `i + 3 (mod 12)`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the twelve boundary points of a tile: a side's centre or one of its halves.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[rustfmt::skip]
pub enum Port {
    NNW, N, NNE, ENE, E, ESE, SSE, S, SSW, WSW, W, WNW,
}

/// One side of a tile.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// North.
    N,
    /// East.
    E,
    /// South.
    S,
    /// West.
    W,
}

impl Port {
    /// All ports in index order.
    pub const ALL: [Port; 12] = [
        Port::NNW,
        Port::N,
        Port::NNE,
        Port::ENE,
        Port::E,
        Port::ESE,
        Port::SSE,
        Port::S,
        Port::SSW,
        Port::WSW,
        Port::W,
        Port::WNW,
    ];

    /// The port's index, 0 (`NNW`) to 11 (`WNW`).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The port with the given index (taken modulo 12).
    pub const fn from_index(index: usize) -> Port {
        Port::ALL[index % 12]
    }

    /// The port's name as written in definitions.
    pub const fn name(self) -> &'static str {
        const NAMES: [&str; 12] = [
            "NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW",
        ];
        NAMES[self as usize]
    }

    /// Parses a port name (`"NNW"`, `"E"`, …).
    pub fn parse(name: &str) -> Option<Port> {
        Port::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The side this port lies on.
    pub const fn side(self) -> Side {
        Side::ALL[self as usize / 3]
    }

    /// Whether this is a side's centre port (`N`, `E`, `S`, `W`), which carries roads and cities.
    pub const fn is_centre(self) -> bool {
        self as usize % 3 == 1
    }

    /// The port after `quarter_turns` clockwise quarter turns of the tile.
    pub const fn rotated(self, quarter_turns: u8) -> Port {
        Port::from_index(self as usize + 3 * (quarter_turns as usize % 4))
    }

    /// The port of the neighbouring tile that this port touches across its side.
    ///
    /// `NNW` faces the northern neighbour's `SSW`; `ENE` faces the eastern neighbour's `WNW`.
    pub const fn facing(self) -> Port {
        let i = self as usize;
        match self.side() {
            Side::N | Side::S => Port::from_index((20 - i) % 12),
            Side::E | Side::W => Port::from_index((14 + 12 - i) % 12),
        }
    }

    /// The two ports next to this one around the boundary (counter-clockwise, clockwise).
    pub const fn neighbours(self) -> [Port; 2] {
        let i = self as usize;
        [Port::from_index(i + 11), Port::from_index(i + 1)]
    }
}

impl Side {
    /// All sides, clockwise from north.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The side's index, 0 (north) to 3 (west).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side after `quarter_turns` clockwise quarter turns.
    pub const fn rotated(self, quarter_turns: u8) -> Side {
        Side::ALL[(self as usize + quarter_turns as usize) % 4]
    }

    /// The side a neighbour touches us on.
    pub const fn opposite(self) -> Side {
        Side::ALL[(self as usize + 2) % 4]
    }

    /// The three ports of this side, clockwise: half, centre, half.
    pub const fn ports(self) -> [Port; 3] {
        let c = 3 * self as usize + 1;
        [
            Port::from_index(c + 11),
            Port::from_index(c),
            Port::from_index(c + 1),
        ]
    }

    /// The side's centre port.
    pub const fn centre(self) -> Port {
        Port::from_index(3 * self as usize + 1)
    }

    /// The grid step to the neighbour on this side, with y growing southwards.
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Side::N => (0, -1),
            Side::E => (1, 0),
            Side::S => (0, 1),
            Side::W => (-1, 0),
        }
    }

    /// The side's letter as written in definitions (`n`, `e`, `s`, `w`).
    pub const fn name(self) -> &'static str {
        ["n", "e", "s", "w"][self as usize]
    }
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_matches_the_design() {
        assert_eq!(Port::NNW.facing(), Port::SSW);
        assert_eq!(Port::N.facing(), Port::S);
        assert_eq!(Port::NNE.facing(), Port::SSE);
        assert_eq!(Port::ENE.facing(), Port::WNW);
        assert_eq!(Port::E.facing(), Port::W);
        assert_eq!(Port::ESE.facing(), Port::WSW);
        for p in Port::ALL {
            assert_eq!(p.facing().facing(), p);
            assert_eq!(p.facing().side(), p.side().opposite());
        }
    }

    #[test]
    fn rotation_and_sides() {
        assert_eq!(Port::NNW.rotated(1), Port::ENE);
        assert_eq!(Port::W.rotated(1), Port::N);
        for p in Port::ALL {
            assert_eq!(p.rotated(4), p);
            assert_eq!(p.rotated(1).side(), p.side().rotated(1));
            assert!(p.side().ports().contains(&p));
        }
        assert_eq!(Side::W.ports(), [Port::WSW, Port::W, Port::WNW]);
        assert_eq!(Side::N.ports(), [Port::NNW, Port::N, Port::NNE]);
    }
}
