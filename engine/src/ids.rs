//! The engine's ids: each index into one list has its own type, so a tile kind cannot be
//! passed where an orientation or a placed tile is meant. They are the integers the lists
//! were indexed by before (`u16`, or `u32` for nodes), so a game's layout and its serialized
//! forms are unchanged: where the compiled tables keep plain integers, code converts at the
//! boundary (`Tables::orient_of`, `PlayTables`).

/// A tile kind: an index into `Tables::kinds`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct KindId(pub u16);

/// A distinct orientation of a tile kind: an index into `Tables::orients`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct OrientId(pub u16);

/// A tile on the board: an index into `Board::placed` (placement order, the start tile first).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PlacedId(pub u16);

/// A feature node: an index into the game's nodes (`Game::nodes`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct NodeId(pub u32);

/// A feature kind: an index into `Tables::features` (at most 32 of them).
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct FeatureKindId(pub u8);

impl FeatureKindId {
    /// As an index into `Tables::features`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// This kind's bit in a mask of kinds.
    #[inline]
    pub const fn bit(self) -> u32 {
        1 << self.0
    }
}

impl KindId {
    /// As an index into `Tables::kinds`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl OrientId {
    /// As an index into `Tables::orients`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl PlacedId {
    /// No tile: what an empty cell holds (`Cell::placed`).
    pub const NONE: PlacedId = PlacedId(u16::MAX);

    /// As an index into `Board::placed`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl NodeId {
    /// No node: a sentinel where an `Option` would double a hot array's size.
    pub const NONE: NodeId = NodeId(u32::MAX);

    /// As an index into the game's nodes.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The node `local` places after this one: local feature `local` of the tile whose
    /// feature 0 this is (`Placed::base`).
    #[inline]
    pub const fn plus(self, local: u8) -> NodeId {
        NodeId(self.0 + local as u32)
    }
}
