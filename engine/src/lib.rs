//! The tilekit rules engine: compiles a checked `tiledef::TileSet` into lookup tables, plays
//! games on a dense board with union-find features, scores them with the base rules and the
//! rules of The Festival, Village Life and The Wells, records and replays them, and simulates
//! random games at speed.
//!
//! - `tables`: `compile(&TileSet) -> Tables` (orientations, port maps, placement index);
//! - `board`: the grid, placed tiles and the open positions with their neighbour patterns;
//! - `game`: options, moves, legal move lists, scoring events (base rules);
//! - `players`: random, greedy and MCTS players behind one interface (`Player::choose`);
//! - `rules`: the expansions' rules (`festival`, `village_life`, `wells`), hooked into `game`;
//! - `record`: game records (TOML/JSON) and replay;
//! - `simulate`: random playouts and their statistics;
//! - `rng`: the seedable generator behind every random choice.

pub mod board;
pub mod game;
pub mod players;
pub mod record;
pub mod rng;
pub mod rules;
pub mod simulate;
pub mod tables;

pub use record::{Record, Replay, ReplayError, Turn, replay};

pub use game::{
    DonkeyBlocks, Draw, Event, Figure, FigureKind, Game, GameOptions, IllegalMove, Move, Phase,
    Reason, RuleOptions, Rules, Score, SetupError,
};

pub use tables::{CompileError, FeatureKind, Tables, compile};
