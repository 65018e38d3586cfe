//! The tilekit rules engine: compiles a checked `tiledef::TileSet` into lookup tables, plays
//! games on a chunked board with union-find features, scores them with the base rules and the
//! rules of The Festival, Village Life and The Wells and what the sets declare as data (scoring
//! modifiers and tokens of markers, follower kinds: Inns & Cathedrals, Traders & Builders'
//! goods), records and replays them, and simulates random games at speed.
//!
//! - `tables`: `compile(&TileSet) -> Tables` (orientations, port maps, placement index);
//! - `ids`: the typed indices (`KindId`, `OrientId`, `PlacedId`, `NodeId`, `FeatureKindId`,
//!   `FigureId`);
//! - `board`: the grid, placed tiles and the open positions with their neighbour patterns;
//! - `draw`: the start tile and the draw order (tile groups, held-back tiles);
//! - `placement`: placement constraints (paths a tile must continue, the U-turn rule);
//! - `setup`: what a game starts from that its seed does not change, prepared once per run;
//! - `game`: the turn flow: setup, moves, legal move lists, applying them, the draw;
//! - `options`, `state`, `scoring`: setup data; the game's state and the primitives rules
//!   use; scoring (base rules, markers' modifiers and tokens, flowers, follower strengths);
//! - `players`: random, greedy and MCTS players behind one interface (`Player::choose`);
//! - `rules`: the mechanics needing code, one module each behind fixed hooks, called from `game`;
//! - `record`: game records (TOML/JSON) and replay;
//! - `simulate`: random playouts and their statistics;
//! - `rng`: the seedable generator behind every random choice.

pub mod board;
pub mod draw;
pub mod game;
pub mod ids;
pub mod options;
pub mod placement;
pub mod placements;
pub mod players;
pub mod record;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod setup;
pub mod simulate;
pub mod state;
pub mod tables;

pub use record::{Record, RecordNames, Replay, ReplayError, Turn, replay};

pub use game::{
    ActionGroup, Draw, Event, Figure, FigureKind, Game, GameOptions, IllegalMove, Move, Phase,
    Reason, RuleOptions, Rules, Score, Scored, Setup, SetupError,
};

// The rule modules' options, named here rather than in the core.
pub use rules::{DonkeyBlocks, ModuleOptions, ModuleRules, WagonMove};

pub use ids::{FeatureKindId, FigureId, KindId, NodeId, OrientId, PlacedId};
pub use tables::{CompileError, FeatureRule, Tables, compile};
