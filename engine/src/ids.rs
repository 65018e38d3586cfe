//! The engine's ids: each index into one list has its own type, so a tile kind cannot be
//! passed where an orientation or a placed tile is meant. They are the integers the lists
//! were indexed by before (`u16`, `u32` for nodes, `u8` for feature kinds and figures), so a
//! game's layout and its serialized forms are unchanged: where the compiled tables keep plain
//! integers, code converts at the boundary (`Tables::orient_of`, `PlayTables`).

use serde::{Deserialize, Serialize};

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

/// Which figure a player deploys: the base game's follower, or a set's figure
/// (`Tables::followers[k]`: the large follower, the abbot, the builder, …).
// The bare `u8` it replaces, 0 the base follower and `k + 1` set figure `k`: figures and moves
// stay as small, and deploys listed in bit order keep their order, so seeded games replay.
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct FigureId(u8);

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

impl FigureId {
    /// The base game's follower.
    pub const FOLLOWER: FigureId = FigureId(0);

    /// Set figure `k` (`Tables::followers[k]`).
    #[inline]
    pub const fn set(k: usize) -> FigureId {
        debug_assert!(k < crate::tables::MAX_FOLLOWER_KINDS);
        FigureId(k as u8 + 1)
    }

    /// The figure of index `index` among all figures: the inverse of `index`, and of the
    /// position of `bit`.
    #[inline]
    pub const fn from_index(index: usize) -> FigureId {
        debug_assert!(index <= crate::tables::MAX_FOLLOWER_KINDS);
        FigureId(index as u8)
    }

    /// Its index into `Tables::followers`, None for the base follower.
    #[inline]
    pub const fn set_index(self) -> Option<usize> {
        (self.0 as usize).checked_sub(1)
    }

    /// Its index among all figures (0 the base follower, `k + 1` set figure `k`), for
    /// per-figure vectors (`GameStats::deployed`).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its bit in a mask of figures (bit 0 the base follower, bit `k + 1` set figure `k`).
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
