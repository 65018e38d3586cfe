//! A game: options, state and moves, with the base rules; the expansions' rules live in
//! `crate::rules` and hook in here (second-step moves, scoring parts, the donkey's filter).
//!
//! A turn is two moves: `Move::Place` puts the drawn tile, then one of `Move::Deploy` (a follower
//! on a feature of that tile), `Move::Windmill`, `Move::Return` (Festival), `Move::Donkey` or
//! `Move::Pass` ends the turn; completed features are scored then, and the next tile is drawn
//! (tiles that fit nowhere are set aside).
//!
//! Features are union-find sets over feature nodes (one node per feature of each placed tile)
//! with running aggregates at the root: open ends (and, with the donkey in play, the summed
//! positions they face), pennants, followers, marketplace ends. The members of a set are also
//! linked in a ring, so a scoring can walk them (to count distinct tiles, cities bordering a
//! field, flowers).

use crate::board::{Board, EMPTY, Placed};
use crate::rng::Rng;
use crate::rules;
use crate::tables::{FeatureKind, Orient, Tables};
use serde::{Deserialize, Serialize};
use std::fmt;
use tiledef::{Meeting, Port, RoadEnd, Side};

/// The most players a game can have.
pub const MAX_PLAYERS: u8 = 8;

/// Rule options: variants of the rules, not forks of the code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RuleOptions {
    /// First-edition rule: a completed city of two tiles scores 2 (1 per tile and pennant).
    pub first_edition_small_city: bool,
    /// Followers per player.
    pub followers: u8,
    /// The Festival: after placing a Festival tile a player may return a figure instead.
    pub festival: bool,
    /// The donkey (Village Life); absent: in play when a set of the game brings it (its
    /// `[set] figures`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub donkey: Option<bool>,
    /// What the donkey forbids completing on its tile.
    pub donkey_blocks: DonkeyBlocks,
    /// Windmills per player (Village Life); absent: 1 when a set of the game brings windmills
    /// (its `[set] figures`), else 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub windmills: Option<u8>,
    /// Flower colours and the flower bonus (Village Life); absent: on when a tile of the draw
    /// carries flower groups. Bushes and marketplaces always follow the data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flower_bonus: Option<bool>,
    /// The Wells: +1 per well on a scored road.
    pub wells: bool,
    /// A monastery's flowers are those of its 3×3 range (default: its own tile only).
    pub monastery_flowers_3x3: bool,
    /// Flower colour ids by player (absent: drawn from the tokens, see `rules::flowers`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flowers: Vec<String>,
}

/// What the donkey forbids completing: the features on its tile (a marketplace road's closing
/// included), or, as FanCloisterZone reads it, a marketplace road's closing only when that
/// road's whole network completes with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DonkeyBlocks {
    /// Closing any road or city on the donkey's tile, marketplace roads included.
    #[default]
    Road,
    /// As `Road`, but a marketplace road on its tile may close unless that completes its
    /// network (every marketplace it touches then has all its roads closed).
    Network,
}

impl DonkeyBlocks {
    /// The option's value as written in records and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            DonkeyBlocks::Road => "road",
            DonkeyBlocks::Network => "network",
        }
    }
}

/// The rules a game plays: its options, with the defaults taken from the sets in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rules {
    /// The sets with a tile in the game (the whole draw, before a `tiles` cut, and the start
    /// tile), in load order.
    pub sets: Vec<String>,
    /// Followers per player.
    pub followers: u8,
    /// First-edition small city.
    pub first_edition_small_city: bool,
    /// Festival returns.
    pub festival: bool,
    /// The donkey is in play.
    pub donkey: bool,
    /// What the donkey blocks.
    pub donkey_blocks: DonkeyBlocks,
    /// Windmills per player.
    pub windmills: u8,
    /// Flower colours are dealt and flowers pay.
    pub flower_bonus: bool,
    /// A monastery's flowers are those of its 3×3 range.
    pub monastery_flowers_3x3: bool,
    /// The Wells.
    pub wells: bool,
}

impl fmt::Display for Rules {
    /// One line for report headers: the sets, then every rule on or off.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = |b: bool| if b { "on" } else { "off" };
        write!(
            f,
            "sets {}; {} followers; first-edition small city {}; Festival returns {}; donkey {}",
            self.sets.join(", "),
            self.followers,
            on(self.first_edition_small_city),
            on(self.festival),
            on(self.donkey),
        )?;
        if self.donkey {
            write!(f, " (blocks: {})", self.donkey_blocks.name())?;
        }
        write!(
            f,
            "; windmills {} each; flower bonus {}",
            self.windmills,
            on(self.flower_bonus)
        )?;
        if self.flower_bonus {
            write!(
                f,
                " (monastery: {})",
                if self.monastery_flowers_3x3 {
                    "3×3 range"
                } else {
                    "own tile"
                }
            )?;
        }
        write!(f, "; wells {}", on(self.wells))
    }
}

impl Default for RuleOptions {
    fn default() -> RuleOptions {
        RuleOptions {
            first_edition_small_city: false,
            followers: 7,
            festival: true,
            donkey: None,
            donkey_blocks: DonkeyBlocks::Road,
            windmills: None,
            flower_bonus: None,
            wells: false,
            monastery_flowers_3x3: false,
            flowers: Vec::new(),
        }
    }
}

/// How tiles are drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Draw {
    /// The bag of the chosen sets and edition, shuffled with this seed.
    Seed(u64),
    /// Exactly these tiles (by id), in this order, regardless of counts.
    Order(Vec<String>),
}

/// What a game is played with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOptions {
    /// Ids of the tile sets in the bag (empty: all sets of the tables).
    pub sets: Vec<String>,
    /// Edition id for the counts (None: the newest).
    pub edition: Option<String>,
    /// Number of players, 1 to 8.
    pub players: u8,
    /// Rule options.
    pub rules: RuleOptions,
    /// The draw.
    pub draw: Draw,
    /// Play only the first this many tiles of the draw, the start tile included (None: all),
    /// so that sets of different sizes can be compared at the same game length.
    pub tiles: Option<usize>,
}

impl GameOptions {
    /// A base game of all sets for `players` players with a seeded draw.
    pub fn seeded(players: u8, seed: u64) -> GameOptions {
        GameOptions {
            sets: Vec::new(),
            edition: None,
            players,
            rules: RuleOptions::default(),
            draw: Draw::Seed(seed),
            tiles: None,
        }
    }
}

/// Why a game could not be set up.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SetupError {
    /// Player count out of range.
    #[error("{0} players: a game has 1 to {MAX_PLAYERS}")]
    Players(u8),
    /// Unknown set id.
    #[error("unknown tile set `{0}` (loaded: {1})")]
    Set(String, String),
    /// Unknown edition id.
    #[error("unknown edition `{0}` (known: {1})")]
    Edition(String, String),
    /// Unknown tile id in a fixed draw.
    #[error("unknown tile `{0}` in the draw order")]
    Tile(String),
    /// The flower colours given do not fit the players or the vocabulary.
    #[error("flower colours: {0}")]
    Flowers(String),
    /// More tiles than the board's positions and indices can hold.
    #[error("{0} tiles (the start tile included): a game has at most {max}", max = crate::board::MAX_TILES)]
    TooManyTiles(u64),
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place the drawn tile at a position with clockwise quarter turns.
    Place {
        /// Column.
        x: i16,
        /// Row (south is +1).
        y: i16,
        /// Quarter turns clockwise, 0–3.
        rotation: u8,
    },
    /// Deploy a follower on a local feature of the tile just placed.
    Deploy {
        /// Index into the placed orientation's features.
        feature: u8,
    },
    /// Place a windmill on a field of the tile just placed (Village Life).
    Windmill {
        /// Index into the placed orientation's features (a field).
        feature: u8,
    },
    /// Return one of the player's figures to their supply (after placing a Festival tile).
    Return {
        /// Index into `Game::figures`.
        figure: u16,
    },
    /// Move the donkey to a placed tile (Village Life), deploying and returning nothing.
    Donkey {
        /// Column.
        x: i16,
        /// Row.
        y: i16,
    },
    /// End the turn without deploying.
    Pass,
}

/// The kinds of figure; expansions add theirs (windmill, donkey) here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FigureKind {
    /// A follower (meeple): 7 per player in the base game.
    Follower,
    /// A windmill (Village Life): one per player, on a field, scores its plus-shaped range.
    Windmill,
}

/// A figure on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// What it is.
    pub kind: FigureKind,
    /// The owning player.
    pub owner: u8,
    /// The feature node it stands on.
    pub node: u32,
    /// Index into `Board::placed` of its tile.
    pub tile: u16,
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The current player must place this tile kind.
    Place(u16),
    /// The tile is placed (index into `Board::placed`); deploy or pass.
    Act(u16),
    /// All tiles are drawn and the final scoring is done.
    Over,
}

/// A feature node: one feature of one placed tile, and the aggregates of its set at the root.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Union-find parent (itself at a root).
    pub parent: u32,
    /// The next member in the ring of the set.
    pub next: u32,
    /// Union by rank: an upper bound of the tree's height (at the root).
    pub rank: u8,
    /// Open ends of a road or city (at the root).
    pub open: u32,
    /// Sums of the columns and rows of the empty positions the open ends face (at the root;
    /// kept when the donkey is in play): when all ends face one position, it is their mean,
    /// found without walking the set (the donkey's filter). Ends closed within the placed
    /// tile's own step are never added.
    pub ends_at: (i32, i32),
    /// Pennants (at the root; saturating: kept small so a node fills half a cache line).
    pub pennants: u16,
    /// Followers on the set (at the root).
    pub followers: u16,
    /// Road ends at marketplaces (at the root), for the marketplace rules.
    pub markets: u16,
    /// Index into `Board::placed` of the tile.
    pub tile: u16,
    /// The local feature index on that tile.
    pub local: u8,
    /// What it is.
    pub kind: FeatureKind,
    /// Whether the set has been scored as complete (at the root).
    pub done: bool,
}

/// Why a score was given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "kebab-case")]
pub enum Reason {
    /// Completed road: 1 per tile.
    CompletedRoad,
    /// Completed city: 2 per tile and per pennant.
    CompletedCity,
    /// Completed city of two tiles under the first-edition rule: 1 per tile and pennant.
    SmallCity,
    /// Completed monastery: 9.
    CompletedMonastery,
    /// Unfinished road at the end: 1 per tile.
    UnfinishedRoad,
    /// Unfinished city at the end: 1 per tile and per pennant.
    UnfinishedCity,
    /// Unfinished monastery at the end: 1 + 1 per neighbour.
    UnfinishedMonastery,
    /// Field at the end: 3 per completed city it borders.
    Field,
    /// Windmill whose 9 range tiles are placed: 9.
    CompletedWindmill,
    /// Windmill at the end: 1 per placed tile of its range.
    UnfinishedWindmill,
}

/// A flower bonus of one player in a scoring (Village Life).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlowerBonus {
    /// The player (0-based).
    pub player: u8,
    /// Their flower colour id.
    pub colour: String,
    /// Matching flower groups on the scored feature's tiles.
    pub groups: u32,
    /// 3 × groups.
    pub points: u32,
}

/// A marketplace network bonus of one player (Village Life).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkBonus {
    /// The player (0-based).
    pub player: u8,
    /// Tiles of each other road of the marketplaces the scored road touches.
    pub roads: Vec<u32>,
    /// Their sum.
    pub points: u32,
}

/// One scoring of one feature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// The players who scored (the majority), each getting `points`.
    pub players: Vec<u8>,
    /// The feature's kind.
    pub kind: FeatureKind,
    /// Where the feature was first placed: the tile position and local feature index.
    pub at: (i16, i16, u8),
    /// Positions of its distinct tiles.
    pub tiles: Vec<(i16, i16)>,
    /// Pennants (cities).
    pub pennants: u32,
    /// Completed cities bordered (fields).
    pub cities: u32,
    /// Points each scoring player gets.
    pub points: u32,
    /// The rule applied.
    pub reason: Reason,
    /// Followers returned, per player (index = player).
    pub followers: Vec<u8>,
    /// Wells on a scored road (included in `points` when the wells rule is on).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wells: u32,
    /// Flower bonuses, per player with a figure on the feature.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flowers: Vec<FlowerBonus>,
    /// Marketplace network bonuses, per owner of the road.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub network: Vec<NetworkBonus>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Score {
    /// Everything a player got from this scoring: base points (if among the majority), flower
    /// and network bonuses.
    pub fn points_of(&self, player: u8) -> u32 {
        let base = if self.players.contains(&player) {
            self.points
        } else {
            0
        };
        base + self
            .flowers
            .iter()
            .filter(|b| b.player == player)
            .map(|b| b.points)
            .sum::<u32>()
            + self
                .network
                .iter()
                .filter(|b| b.player == player)
                .map(|b| b.points)
                .sum::<u32>()
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who: Vec<String> = self.players.iter().map(|p| format!("P{}", p + 1)).collect();
        let t = self.tiles.len();
        let why = match self.reason {
            Reason::CompletedRoad => format!("completed road of {t} tiles: 1 × {t}"),
            Reason::CompletedCity => format!(
                "completed city of {t} tiles and {} pennants: 2 × {t} + 2 × {}",
                self.pennants, self.pennants
            ),
            Reason::SmallCity => "completed city of 2 tiles, first-edition rule: 1 × 2".to_string(),
            Reason::CompletedMonastery => "completed monastery: 9".to_string(),
            Reason::UnfinishedRoad => format!("unfinished road of {t} tiles: 1 × {t}"),
            Reason::UnfinishedCity => format!(
                "unfinished city of {t} tiles and {} pennants: {t} + {}",
                self.pennants, self.pennants
            ),
            Reason::UnfinishedMonastery => {
                format!("unfinished monastery: 1 + {} neighbours", self.points - 1)
            }
            Reason::Field => format!(
                "field bordering {} completed cities: 3 × {}",
                self.cities, self.cities
            ),
            Reason::CompletedWindmill => "completed windmill: 9".to_string(),
            Reason::UnfinishedWindmill => {
                format!("unfinished windmill: 1 × {t} placed tiles of its range")
            }
        };
        let wells = match self.wells {
            0 => String::new(),
            w => format!(" + {w} well{}", if w == 1 { "" } else { "s" }),
        };
        if who.is_empty() {
            write!(f, "nobody scores the base points ({why}{wells})")?;
        } else {
            write!(
                f,
                "{} {} {} point{} ({why}{wells})",
                who.join(", "),
                if who.len() > 1 {
                    "each score"
                } else {
                    "scores"
                },
                self.points,
                if self.points == 1 { "" } else { "s" }
            )?;
        }
        for b in &self.flowers {
            write!(
                f,
                "; P{} +{} for flowers (3 × {} {} group{})",
                b.player + 1,
                b.points,
                b.groups,
                b.colour,
                if b.groups == 1 { "" } else { "s" }
            )?;
        }
        for b in &self.network {
            let parts: Vec<String> = b.roads.iter().map(u32::to_string).collect();
            write!(
                f,
                "; P{} +{} marketplace network (tiles of the other roads: {})",
                b.player + 1,
                b.points,
                parts.join(" + ")
            )?;
        }
        Ok(())
    }
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A tile was drawn that fits nowhere and was set aside.
    SetAside {
        /// Its kind.
        kind: u16,
    },
    /// A tile was placed.
    Placed {
        /// The player.
        player: u8,
        /// Its kind.
        kind: u16,
        /// Column.
        x: i16,
        /// Row.
        y: i16,
        /// The distinct rotation it was placed with.
        rotation: u8,
    },
    /// A follower was deployed.
    Deployed {
        /// The player.
        player: u8,
        /// Local feature index on the placed tile.
        feature: u8,
        /// Its kind.
        kind: FeatureKind,
    },
    /// A windmill was placed on a field of the tile just placed.
    WindmillPlaced {
        /// The player.
        player: u8,
        /// Local feature index (a field) on the placed tile.
        feature: u8,
    },
    /// A figure was returned to its owner's supply by the Festival (no scoring).
    Returned {
        /// The player.
        player: u8,
        /// What it was.
        figure: FigureKind,
        /// Its tile's column.
        x: i16,
        /// Its tile's row.
        y: i16,
        /// Its feature (local index on its tile).
        feature: u8,
        /// That feature's kind.
        kind: FeatureKind,
    },
    /// The donkey was moved.
    DonkeyMoved {
        /// The player.
        player: u8,
        /// Column.
        x: i16,
        /// Row.
        y: i16,
    },
    /// A feature was scored.
    Scored(Score),
    /// The final scoring is done.
    GameOver {
        /// Final scores by player.
        scores: Vec<u32>,
    },
}

/// Why a move was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq, Clone)]
pub enum IllegalMove {
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// A placement was expected.
    #[error("a tile must be placed first")]
    PlaceFirst,
    /// A deploy or pass was expected.
    #[error("the tile is already placed: deploy a follower or pass")]
    AlreadyPlaced,
    /// Rotation out of range.
    #[error("rotation {0}: it is 0 to 3 quarter turns")]
    Rotation(u8),
    /// The position holds a tile.
    #[error("({x}, {y}) already holds a tile")]
    Occupied {
        /// Column.
        x: i16,
        /// Row.
        y: i16,
    },
    /// The position touches no tile.
    #[error("({x}, {y}) is not next to any placed tile")]
    NotAdjacent {
        /// Column.
        x: i16,
        /// Row.
        y: i16,
    },
    /// An edge does not match.
    #[error(
        "tile {tile} rotated {rotation} does not fit at ({x}, {y}): its {side} edge ({ours}) may not touch {theirs}"
    )]
    Mismatch {
        /// Tile id.
        tile: String,
        /// Rotation asked for.
        rotation: u8,
        /// Column.
        x: i16,
        /// Row.
        y: i16,
        /// The side that does not match.
        side: String,
        /// Our edge kind.
        ours: String,
        /// The neighbour's edge kind.
        theirs: String,
    },
    /// No such feature on the tile.
    #[error("tile {tile} has no feature {feature}")]
    NoFeature {
        /// Tile id.
        tile: String,
        /// The feature asked for.
        feature: String,
    },
    /// No follower may stand on this kind.
    #[error("no follower may be deployed on a {0}")]
    Unclaimable(&'static str),
    /// The connected feature already has a follower.
    #[error("the {kind} at {feature} is connected to a {kind} that already has a follower")]
    FeatureTaken {
        /// Kind name.
        kind: &'static str,
        /// Which feature.
        feature: String,
    },
    /// The player has no follower left.
    #[error("player {0} has no follower left")]
    NoFollower(u8),
    /// The placement would complete a feature on the donkey's tile.
    #[error(
        "placing there would complete a feature on the donkey's tile ({dx}, {dy}): the donkey blocks it"
    )]
    DonkeyBlocks {
        /// The donkey's column.
        dx: i16,
        /// The donkey's row.
        dy: i16,
    },
    /// The rules module is not in play, or the move is not offered now.
    #[error("{0}")]
    NotOffered(String),
    /// A windmill must stand on a field.
    #[error("a windmill goes on a field, not on a {0}")]
    WindmillNotOnField(&'static str),
    /// The player has no windmill left.
    #[error("player {0} has no windmill left")]
    NoWindmill(u8),
    /// The figure to return is not one of the player's figures.
    #[error("there is no figure {0} of the current player to return")]
    NoSuchFigure(u16),
    /// The donkey may only go to a placed tile other than its own.
    #[error("the donkey cannot move to ({x}, {y}): {why}")]
    DonkeyTarget {
        /// Column.
        x: i16,
        /// Row.
        y: i16,
        /// Why.
        why: &'static str,
    },
}

/// Sums kept while a game runs (for simulation reports).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Base points scored by feature kind (indexed by `FeatureKind::index`; wells included).
    pub points_by_kind: [u64; 6],
    /// Flower bonus points.
    pub flower_points: u64,
    /// Marketplace network bonus points.
    pub network_points: u64,
    /// Points from wells (part of the road points).
    pub well_points: u64,
    /// Figures returned by the Festival.
    pub festival_returns: u32,
    /// Donkey moves.
    pub donkey_moves: u32,
    /// Windmills placed.
    pub windmills_placed: u32,
    /// Tiles set aside.
    pub set_aside: u32,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game<'t> {
    pub(crate) tables: &'t Tables,
    pub(crate) options: GameOptions,
    /// The board.
    pub board: Board,
    pub(crate) nodes: Vec<Node>,
    /// Figures on the board (followers and windmills), in deploy order.
    pub figures: Vec<Figure>,
    /// Followers in each player's supply.
    pub supply: Vec<u8>,
    /// Windmills in each player's supply (Village Life).
    pub windmills: Vec<u8>,
    /// Flower colour (index into `Tables::colours`) of each player (Village Life; else empty).
    pub colours: Vec<u8>,
    /// The tile (index into `Board::placed`) the donkey stands on (Village Life).
    pub donkey: Option<u16>,
    /// Scores by player.
    pub scores: Vec<u32>,
    bag: Vec<u16>,
    next_draw: usize,
    current: u8,
    phase: Phase,
    /// Tile kinds set aside, in order.
    pub set_aside: Vec<u16>,
    /// Running sums.
    pub stats: GameStats,
    pub(crate) rules: Rules,
    monastery_followers: u32,
    pub(crate) stamp: Vec<u32>,
    pub(crate) generation: u32,
    ring: Vec<u32>,
    /// Distinct tiles (indices into `Board::placed`) of the last walked ring.
    pub(crate) ring_tiles: Vec<u16>,
    /// Roads whose open end was closed by a neighbour's edge that carries no road (bushes).
    closed_by_edge: Vec<u32>,
    /// The sets of the roads and cities on the donkey's tile, for its filter.
    pub(crate) donkey_sets: rules::village_life::DonkeySets,
    /// The windmills on the board with their placed range tiles (an index of `figures`).
    pub(crate) mills: Vec<rules::village_life::Mill>,
    masks: Vec<u8>,
    placements: u32,
}

impl<'t> Game<'t> {
    /// Sets up a game: the start tile at (0, 0) unrotated, and the first tile drawn.
    pub fn new(
        tables: &'t Tables,
        options: GameOptions,
        events: &mut Vec<Event>,
    ) -> Result<Game<'t>, SetupError> {
        if options.players == 0 || options.players > MAX_PLAYERS {
            return Err(SetupError::Players(options.players));
        }
        let mut bag = build_bag(tables, &options)?;
        // The rules follow the sets of the whole draw, not of the part a cut plays.
        let (rules, tokens) = rules::village_life::rules_in_play(tables, &options, &bag);
        let colours = if rules.flower_bonus {
            rules::village_life::deal_colours(tables, &options, &tokens)?
        } else {
            Vec::new()
        };
        if let Some(tiles) = options.tiles {
            bag.truncate(tiles.saturating_sub(1));
        }
        let tiles = bag.len() + 1;
        let mut game = Game {
            tables,
            board: Board::new(tiles),
            nodes: Vec::with_capacity(tiles * tables.max_features().max(1)),
            figures: Vec::with_capacity(
                options.players as usize * options.rules.followers as usize,
            ),
            supply: vec![options.rules.followers; options.players as usize],
            windmills: vec![rules.windmills; options.players as usize],
            colours,
            donkey: rules.donkey.then_some(0),
            scores: vec![0; options.players as usize],
            bag,
            next_draw: 0,
            current: 0,
            phase: Phase::Over,
            set_aside: Vec::new(),
            stats: GameStats::default(),
            rules,
            monastery_followers: 0,
            stamp: vec![0; tiles],
            generation: 0,
            ring: Vec::with_capacity(64),
            ring_tiles: Vec::with_capacity(64),
            closed_by_edge: Vec::new(),
            donkey_sets: Default::default(),
            mills: Vec::new(),
            masks: Vec::with_capacity(64),
            placements: 0,
            options,
        };
        let start = tables.orient_of(tables.start, 0);
        game.put(0, 0, start);
        game.draw_next(events);
        Ok(game)
    }

    /// The tables the game is played with.
    pub fn tables(&self) -> &'t Tables {
        self.tables
    }

    /// The options the game was set up with.
    pub fn options(&self) -> &GameOptions {
        &self.options
    }

    /// Where the game is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player whose turn it is.
    pub fn current(&self) -> u8 {
        self.current
    }

    /// The rules the game plays (its options, defaults resolved from the sets in it).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Tiles left to draw.
    pub fn tiles_left(&self) -> usize {
        self.bag.len() - self.next_draw
    }

    /// Shuffles the tiles not yet drawn: a search plays on copies that must not know the draw
    /// order (the players' `mcts`).
    pub fn shuffle_undrawn(&mut self, rng: &mut Rng) {
        rng.shuffle(&mut self.bag[self.next_draw..]);
    }

    /// The feature nodes.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The root node of a feature node's set.
    #[inline]
    pub fn find(&self, mut n: u32) -> u32 {
        while self.nodes[n as usize].parent != n {
            n = self.nodes[n as usize].parent;
        }
        n
    }

    #[inline]
    pub(crate) fn find_mut(&mut self, mut n: u32) -> u32 {
        while self.nodes[n as usize].parent != n {
            let p = self.nodes[n as usize].parent;
            let gp = self.nodes[p as usize].parent;
            self.nodes[n as usize].parent = gp;
            n = gp;
        }
        n
    }

    fn union(&mut self, a: u32, b: u32) {
        let (mut ra, mut rb) = (self.find_mut(a), self.find_mut(b));
        if ra == rb {
            return;
        }
        if self.nodes[ra as usize].rank < self.nodes[rb as usize].rank {
            std::mem::swap(&mut ra, &mut rb);
        }
        let b = self.nodes[rb as usize];
        let a = &mut self.nodes[ra as usize];
        if a.rank == b.rank {
            a.rank += 1;
        }
        a.open += b.open;
        a.ends_at.0 += b.ends_at.0;
        a.ends_at.1 += b.ends_at.1;
        a.pennants = a.pennants.saturating_add(b.pennants);
        a.followers += b.followers;
        a.markets += b.markets;
        a.done |= b.done;
        let an = a.next;
        a.next = b.next;
        self.nodes[rb as usize].next = an;
        self.nodes[rb as usize].parent = ra;
    }

    /// The orientation of a placed tile.
    pub fn orient(&self, placed: u16) -> &'t Orient {
        &self.tables.orients[self.board.placed[placed as usize].orient as usize]
    }

    /// Puts a tile on the board and joins its features to its neighbours'.
    pub(crate) fn put(&mut self, x: i32, y: i32, orient: u16) -> u16 {
        let tables = self.tables;
        let o = &tables.orients[orient as usize];
        let id = self.board.placed.len() as u16;
        let base = self.nodes.len() as u32;
        for (i, f) in o.features.iter().enumerate() {
            let n = base + i as u32;
            self.nodes.push(Node {
                parent: n,
                next: n,
                rank: 0,
                open: u32::from(f.open),
                ends_at: (0, 0),
                pennants: u16::from(f.pennants),
                followers: 0,
                markets: u16::from(f.end == Some(RoadEnd::Marketplace)),
                tile: id,
                local: i as u8,
                kind: f.kind,
                done: false,
            });
        }
        self.board.placed.push(Placed {
            x: x as i16,
            y: y as i16,
            orient,
            base,
        });
        self.board.close(x, y);
        self.board.cell_mut(x, y).placed = id;
        let cells = self.board.neighbours(x, y);
        if self.donkey.is_some() {
            // An end facing an empty cell stays open, and the donkey's filter needs where; added
            // while the new nodes are their own roots. (An end facing a tile closes at once.)
            for side in Side::ALL {
                let f = o.ports[side.centre().index()];
                if cells[side.index()].placed == EMPTY && f != crate::tables::NO_FEATURE {
                    let node = &mut self.nodes[(base + u32::from(f)) as usize];
                    if node.kind.closes() {
                        let (dx, dy) = side.offset();
                        node.ends_at.0 += x + dx;
                        node.ends_at.1 += y + dy;
                    }
                }
            }
        }
        for side in Side::ALL {
            let (dx, dy) = side.offset();
            let (nx, ny) = (x + dx, y + dy);
            let cell = cells[side.index()];
            if cell.placed != EMPTY {
                self.join(id, side, cell.placed);
            } else {
                let w = tables.index.weight(side.opposite().index());
                self.board
                    .open(nx, ny, w * (u32::from(o.edges[side.index()]) + 1));
            }
        }
        id
    }

    /// Joins the features of tile `p` across its `side` to tile `q`.
    fn join(&mut self, p: u16, side: Side, q: u16) {
        let tables = self.tables;
        let (pp, qq) = (self.board.placed[p as usize], self.board.placed[q as usize]);
        let (op, oq) = (
            &tables.orients[pp.orient as usize],
            &tables.orients[qq.orient as usize],
        );
        let meeting = tables.meeting(op.edges[side.index()], oq.edges[side.opposite().index()]);
        let village = self.donkey.is_some();
        for port in side.ports() {
            let f = op.ports[port.index()];
            let g = oq.ports[port.facing().index()];
            let fa = (f != crate::tables::NO_FEATURE).then(|| pp.base + u32::from(f));
            let ga = (g != crate::tables::NO_FEATURE).then(|| qq.base + u32::from(g));
            if port.is_centre() {
                if let Some(a) = fa
                    && self.nodes[a as usize].kind.closes()
                {
                    let r = self.find_mut(a);
                    self.nodes[r as usize].open -= 1;
                }
                let theirs_closes = ga.is_some_and(|g| self.nodes[g as usize].kind.closes());
                if let Some(g) = ga
                    && theirs_closes
                {
                    let r = self.find_mut(g);
                    let root = &mut self.nodes[r as usize];
                    root.open -= 1;
                    // q's end faced our position (ours never counted one: see `put`).
                    if village {
                        root.ends_at.0 -= i32::from(pp.x);
                        root.ends_at.1 -= i32::from(pp.y);
                    }
                }
                if meeting != Meeting::Connect {
                    // A neighbour's road closed by our edge (bushes) is not a feature of the
                    // placed tile: remember it for the completion check of this turn.
                    if let Some(g) = ga
                        && theirs_closes
                    {
                        self.closed_by_edge.push(g);
                    }
                    continue;
                }
            }
            if let (Some(a), Some(b)) = (fa, ga)
                && self.nodes[a as usize].kind == self.nodes[b as usize].kind
            {
                self.union(a, b);
            }
        }
    }

    /// Whether a tile kind fits anywhere on the board.
    pub fn can_place(&self, kind: u16) -> bool {
        self.board
            .frontier
            .iter()
            .any(|open| self.tables.index.fits(open.pattern, kind) != 0)
    }

    /// Fills the rotation mask of each open position for the drawn kind; returns the count.
    fn fill_masks(&mut self, kind: u16) -> u32 {
        let row = self.tables.index.row(kind);
        self.masks.clear();
        let mut count = 0;
        for open in &self.board.frontier {
            let mask = row[open.pattern as usize];
            count += mask.count_ones();
            self.masks.push(mask);
        }
        if let Some(donkey) = self.donkey
            && count > 0
        {
            count -= rules::village_life::donkey_filter(self, kind, donkey);
        }
        self.placements = count;
        count
    }

    /// The rotation masks of the drawn tile by frontier slot (after the donkey's filter).
    pub(crate) fn masks_mut(&mut self) -> &mut Vec<u8> {
        &mut self.masks
    }

    /// Recomputes the drawn tile's legal placements (after changing `donkey` for analysis).
    pub fn recompute_placements(&mut self) {
        if let Phase::Place(kind) = self.phase {
            self.fill_masks(kind);
        }
    }

    /// How many placements the drawn tile has (0 outside the place phase).
    pub fn placement_count(&self) -> u32 {
        match self.phase {
            Phase::Place(_) => self.placements,
            _ => 0,
        }
    }

    /// The `n`-th legal placement of the drawn tile, in the order of `legal_moves`.
    pub fn nth_placement(&self, mut n: u32) -> Option<Move> {
        if !matches!(self.phase, Phase::Place(_)) {
            return None;
        }
        for (slot, &mask) in self.masks.iter().enumerate() {
            let c = mask.count_ones();
            if n < c {
                let mut mask = mask;
                for _ in 0..n {
                    mask &= mask - 1;
                }
                let open = self.board.frontier[slot];
                return Some(Move::Place {
                    x: open.x,
                    y: open.y,
                    rotation: mask.trailing_zeros() as u8,
                });
            }
            n -= c;
        }
        None
    }

    fn draw_next(&mut self, events: &mut Vec<Event>) {
        while self.next_draw < self.bag.len() {
            let kind = self.bag[self.next_draw];
            self.next_draw += 1;
            if self.fill_masks(kind) > 0 {
                self.phase = Phase::Place(kind);
                return;
            }
            self.set_aside.push(kind);
            self.stats.set_aside += 1;
            events.push(Event::SetAside { kind });
        }
        self.final_scoring(events);
        self.phase = Phase::Over;
        events.push(Event::GameOver {
            scores: self.scores.clone(),
        });
    }

    /// Appends the legal moves to `out` (which is cleared first).
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::Place(_) => {
                for (open, &mask) in self.board.frontier.iter().zip(&self.masks) {
                    push_rotations(open.x, open.y, mask, out);
                }
            }
            Phase::Act(placed) => {
                self.legal_actions(placed, out);
                if self.donkey.is_some() {
                    for (i, p) in self.board.placed.iter().enumerate() {
                        if Some(i as u16) != self.donkey {
                            out.push(Move::Donkey { x: p.x, y: p.y });
                        }
                    }
                }
            }
            Phase::Over => {}
        }
    }

    /// Appends the second-step moves except the donkey's, in this order: deploys, windmills,
    /// Festival returns, pass; returns how many of each it appended.
    /// (Simulations choose the donkey separately, so its many targets do not swamp the rest.)
    pub fn legal_actions(&self, placed: u16, out: &mut Vec<Move>) -> [usize; 4] {
        let start = out.len();
        self.legal_deploys(placed, out);
        let deploys = out.len() - start;
        let windmills = self.windmill_count(placed);
        for n in 0..windmills {
            out.extend(self.nth_windmill(placed, n));
        }
        let returns = self.return_count(placed);
        for n in 0..returns {
            out.extend(self.nth_return(n));
        }
        out.push(Move::Pass);
        [deploys, windmills, returns, 1]
    }

    /// How many windmill moves the current player has on the tile just placed: one per field,
    /// while their windmill is in their supply (Village Life).
    pub fn windmill_count(&self, placed: u16) -> usize {
        if self.windmills[self.current as usize] > 0 {
            self.orient(placed).fields.len()
        } else {
            0
        }
    }

    /// The `n`-th windmill move, in the order of `legal_moves`.
    pub fn nth_windmill(&self, placed: u16, n: usize) -> Option<Move> {
        let feature = *self.orient(placed).fields.get(n)?;
        Some(Move::Windmill { feature })
    }

    /// How many Festival returns the current player has: one per figure of theirs on the
    /// board, after placing a Festival tile.
    pub fn return_count(&self, placed: u16) -> usize {
        // Figures on the board are those out of the supply.
        let p = self.current as usize;
        let windmills = self.rules.windmills;
        let out = usize::from(self.options.rules.followers.saturating_sub(self.supply[p]))
            + usize::from(windmills.saturating_sub(self.windmills[p]));
        if out > 0 && rules::festival::may_return(self, placed) {
            out
        } else {
            0
        }
    }

    /// The `n`-th Festival return, in the order of `legal_moves`.
    pub fn nth_return(&self, n: usize) -> Option<Move> {
        let (i, _) = self
            .figures
            .iter()
            .enumerate()
            .filter(|(_, f)| f.owner == self.current)
            .nth(n)?;
        Some(Move::Return { figure: i as u16 })
    }

    /// The feature nodes of a placed tile, by local index.
    fn tile_nodes(&self, placed: u16) -> &[Node] {
        let base = self.board.placed[placed as usize].base as usize;
        &self.nodes[base..base + self.orient(placed).features.len()]
    }

    /// The number of tiles the donkey may move to now (0 without Village Life).
    pub fn donkey_targets(&self) -> usize {
        match (self.phase, self.donkey) {
            (Phase::Act(_), Some(_)) => self.board.placed.len() - 1,
            _ => 0,
        }
    }

    /// The `n`-th donkey move, in the order of `legal_moves`.
    pub fn nth_donkey(&self, n: usize) -> Option<Move> {
        let donkey = self.donkey? as usize;
        let i = if n >= donkey { n + 1 } else { n };
        let p = self.board.placed.get(i)?;
        Some(Move::Donkey { x: p.x, y: p.y })
    }

    /// Appends the placements of any tile kind on the current board (distinct rotations only).
    pub fn legal_placements(&self, kind: u16, out: &mut Vec<Move>) {
        for open in &self.board.frontier {
            let mask = self.tables.index.fits(open.pattern, kind);
            push_rotations(open.x, open.y, mask, out);
        }
    }

    /// Appends the deploy moves on the tile just placed.
    pub fn legal_deploys(&self, placed: u16, out: &mut Vec<Move>) {
        out.extend(
            self.free_features(placed)
                .map(|feature| Move::Deploy { feature }),
        );
    }

    /// Whether the current player may deploy a follower on the tile just placed.
    pub fn can_deploy(&self, placed: u16) -> bool {
        self.free_features(placed).next().is_some()
    }

    /// The local features of the tile just placed that the current player may deploy on.
    fn free_features(&self, placed: u16) -> impl Iterator<Item = u8> + '_ {
        let base = self.board.placed[placed as usize].base;
        let supply = self.supply[self.current as usize];
        self.tile_nodes(placed)
            .iter()
            .enumerate()
            .filter(move |&(i, n)| {
                supply > 0
                    && n.kind.claimable()
                    && self.nodes[self.find(base + i as u32) as usize].followers == 0
            })
            .map(|(i, _)| i as u8)
    }

    /// Applies a move, or says why it is illegal (the game is then unchanged).
    pub fn apply(&mut self, mv: Move, events: &mut Vec<Event>) -> Result<(), IllegalMove> {
        match (self.phase, mv) {
            (Phase::Over, _) => Err(IllegalMove::Over),
            (Phase::Place(kind), Move::Place { x, y, rotation }) => {
                let orient = self.check_place(kind, x, y, rotation)?;
                let id = self.put(i32::from(x), i32::from(y), orient);
                events.push(Event::Placed {
                    player: self.current,
                    kind,
                    x,
                    y,
                    rotation: self.tables.orients[orient as usize].rotation,
                });
                self.phase = Phase::Act(id);
                Ok(())
            }
            (Phase::Place(_), _) => Err(IllegalMove::PlaceFirst),
            (Phase::Act(_), Move::Place { .. }) => Err(IllegalMove::AlreadyPlaced),
            (Phase::Act(placed), Move::Deploy { feature }) => {
                self.deploy(placed, feature, events)?;
                self.end_turn(placed, events);
                Ok(())
            }
            (Phase::Act(placed), Move::Pass) => {
                self.end_turn(placed, events);
                Ok(())
            }
            (Phase::Act(placed), Move::Windmill { feature }) => {
                rules::village_life::place_windmill(self, placed, feature, events)?;
                self.end_turn(placed, events);
                Ok(())
            }
            (Phase::Act(placed), Move::Return { figure }) => {
                rules::festival::return_figure(self, placed, figure, events)?;
                self.end_turn(placed, events);
                Ok(())
            }
            (Phase::Act(placed), Move::Donkey { x, y }) => {
                rules::village_life::move_donkey(self, x, y, events)?;
                self.end_turn(placed, events);
                Ok(())
            }
        }
    }

    /// Takes a figure off the board into its owner's supply (no scoring).
    pub(crate) fn lift(&mut self, index: usize) -> Figure {
        let fig = self.figures.remove(index);
        match fig.kind {
            FigureKind::Follower => {
                let r = self.find_mut(fig.node);
                self.nodes[r as usize].followers -= 1;
                if self.nodes[fig.node as usize].kind == FeatureKind::Monastery {
                    self.monastery_followers -= 1;
                }
                self.supply[fig.owner as usize] += 1;
            }
            FigureKind::Windmill => {
                self.windmills[fig.owner as usize] += 1;
                self.mills.retain(|m| m.tile != fig.tile);
            }
        }
        fig
    }

    fn check_place(&self, kind: u16, x: i16, y: i16, rotation: u8) -> Result<u16, IllegalMove> {
        if rotation > 3 {
            return Err(IllegalMove::Rotation(rotation));
        }
        let cell = self.board.cell(i32::from(x), i32::from(y));
        if cell.placed != EMPTY {
            return Err(IllegalMove::Occupied { x, y });
        }
        if cell.slot == EMPTY {
            return Err(IllegalMove::NotAdjacent { x, y });
        }
        let orient = self.tables.orient_of(kind, rotation);
        let o = &self.tables.orients[orient as usize];
        if self.masks[cell.slot as usize] & (1 << o.rotation) != 0 {
            return Ok(orient);
        }
        let pattern = self.board.frontier[cell.slot as usize].pattern;
        if let Some(d) = self.donkey
            && self.tables.index.fits(pattern, kind) & (1 << o.rotation) != 0
        {
            let p = self.board.placed[d as usize];
            return Err(IllegalMove::DonkeyBlocks { dx: p.x, dy: p.y });
        }
        for side in Side::ALL {
            let (dx, dy) = side.offset();
            if let Some(n) = self.board.at(i32::from(x) + dx, i32::from(y) + dy) {
                let theirs = self.tables.orients[n.orient as usize].edges[side.opposite().index()];
                let ours = o.edges[side.index()];
                if self.tables.meeting(ours, theirs) == Meeting::Forbidden {
                    return Err(IllegalMove::Mismatch {
                        tile: self.tables.kinds[kind as usize].id.clone(),
                        rotation,
                        x,
                        y,
                        side: side.name().to_uppercase(),
                        ours: self.tables.edge_kinds[ours as usize].clone(),
                        theirs: self.tables.edge_kinds[theirs as usize].clone(),
                    });
                }
            }
        }
        // The index and the edge check disagree only if the tables are inconsistent.
        Err(IllegalMove::NotAdjacent { x, y })
    }

    fn deploy(
        &mut self,
        placed: u16,
        feature: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalMove> {
        let o = self.orient(placed);
        let tile = || self.tables.kinds[o.kind as usize].id.clone();
        let Some(f) = o.features.get(feature as usize) else {
            return Err(IllegalMove::NoFeature {
                tile: tile(),
                feature: feature.to_string(),
            });
        };
        if !f.kind.claimable() {
            return Err(IllegalMove::Unclaimable(f.kind.name()));
        }
        let node = self.board.placed[placed as usize].base + u32::from(feature);
        let root = self.find_mut(node);
        if self.nodes[root as usize].followers > 0 {
            return Err(IllegalMove::FeatureTaken {
                kind: f.kind.name(),
                feature: describe_feature(o, feature),
            });
        }
        let player = self.current;
        if self.supply[player as usize] == 0 {
            return Err(IllegalMove::NoFollower(player + 1));
        }
        self.supply[player as usize] -= 1;
        self.nodes[root as usize].followers += 1;
        if f.kind == FeatureKind::Monastery {
            self.monastery_followers += 1;
        }
        self.figures.push(Figure {
            kind: FigureKind::Follower,
            owner: player,
            node,
            tile: placed,
        });
        events.push(Event::Deployed {
            player,
            feature,
            kind: f.kind,
        });
        Ok(())
    }

    fn end_turn(&mut self, placed: u16, events: &mut Vec<Event>) {
        let base = self.board.placed[placed as usize].base;
        let o = self.orient(placed);
        let mut markets = Vec::new();
        for i in 0..o.features.len() as u32 {
            self.check_closed(base + i, &mut markets, events);
        }
        while let Some(n) = self.closed_by_edge.pop() {
            self.check_closed(n, &mut markets, events);
        }
        if !markets.is_empty() {
            rules::village_life::score_marketplaces(self, &markets, events);
        }
        if self.monastery_followers > 0 {
            let p = self.board.placed[placed as usize];
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
                    let Some(&q) = self.board.at(x, y) else {
                        continue;
                    };
                    let Some(m) = self.tables.orients[q.orient as usize].monastery else {
                        continue;
                    };
                    let n = q.base + u32::from(m);
                    let node = self.nodes[n as usize];
                    if node.followers > 0 && !node.done && self.board.placed_around(x, y) == 9 {
                        self.nodes[n as usize].done = true;
                        self.score(n, true, events);
                    }
                }
            }
        }
        if !self.mills.is_empty() {
            rules::village_life::complete_windmills(self, placed, events);
        }
        self.current = (self.current + 1) % self.options.players;
        self.draw_next(events);
    }

    /// Scores a closed road or city if it was not yet; a road touching marketplaces waits
    /// for its marketplaces (collected in `markets`).
    fn check_closed(&mut self, n: u32, markets: &mut Vec<u32>, events: &mut Vec<Event>) {
        // A member has its set's kind: fields and monasteries need no root.
        if !self.nodes[n as usize].kind.closes() {
            return;
        }
        let r = self.find_mut(n);
        let node = self.nodes[r as usize];
        if node.kind.closes() && node.open == 0 && !node.done {
            if node.markets > 0 {
                if !markets.contains(&r) {
                    markets.push(r);
                }
                return;
            }
            self.nodes[r as usize].done = true;
            if node.followers > 0 {
                self.score(r, true, events);
            }
        }
    }

    /// Walks the ring of a set into `self.ring`, and returns its distinct tiles.
    pub(crate) fn members(&mut self, root: u32) -> Vec<(i16, i16)> {
        self.generation += 1;
        self.ring.clear();
        self.ring_tiles.clear();
        let mut tiles = Vec::new();
        let mut m = root;
        loop {
            self.ring.push(m);
            let t = self.nodes[m as usize].tile as usize;
            if self.stamp[t] != self.generation {
                self.stamp[t] = self.generation;
                self.ring_tiles.push(t as u16);
                let p = self.board.placed[t];
                tiles.push((p.x, p.y));
            }
            m = self.nodes[m as usize].next;
            if m == root {
                break;
            }
        }
        tiles
    }

    /// The members of the last walked ring.
    pub(crate) fn ring(&self) -> &[u32] {
        &self.ring
    }

    /// Scores the set at `root` for its majority, then returns its followers.
    pub(crate) fn score(&mut self, root: u32, complete: bool, events: &mut Vec<Event>) {
        let node = self.nodes[root as usize];
        let tiles = self.members(root);
        let t = tiles.len() as u32;
        let pennants = u32::from(node.pennants);
        let mut cities = 0;
        let (mut points, reason) = match (node.kind, complete) {
            (FeatureKind::Road, true) => (t, Reason::CompletedRoad),
            (FeatureKind::Road, false) => (t, Reason::UnfinishedRoad),
            (FeatureKind::City, true) if t == 2 && self.options.rules.first_edition_small_city => {
                (t + pennants, Reason::SmallCity)
            }
            (FeatureKind::City, true) => (2 * (t + pennants), Reason::CompletedCity),
            (FeatureKind::City, false) => (t + pennants, Reason::UnfinishedCity),
            (FeatureKind::Monastery, true) => (9, Reason::CompletedMonastery),
            (FeatureKind::Monastery, false) => {
                let p = self.board.placed[node.tile as usize];
                (
                    self.board.placed_around(i32::from(p.x), i32::from(p.y)),
                    Reason::UnfinishedMonastery,
                )
            }
            (FeatureKind::Field, _) => {
                cities = self.bordered_cities();
                (3 * cities, Reason::Field)
            }
            (FeatureKind::Garden | FeatureKind::Windmill, _) => (0, Reason::UnfinishedMonastery),
        };
        let wells = if self.options.rules.wells && node.kind == FeatureKind::Road {
            rules::wells::on_ring(self)
        } else {
            0
        };
        points += wells;
        let players = self.options.players as usize;
        let mut count = [0u8; MAX_PLAYERS as usize];
        // Stable removal keeps the figures in deploy order (the order of the final scoring).
        let mut kept = 0;
        for i in 0..self.figures.len() {
            let fig = self.figures[i];
            if fig.kind == FigureKind::Follower && self.find_mut(fig.node) == root {
                count[fig.owner as usize] += 1;
                self.supply[fig.owner as usize] += 1;
                if node.kind == FeatureKind::Monastery {
                    self.monastery_followers -= 1;
                }
            } else {
                self.figures[kept] = fig;
                kept += 1;
            }
        }
        self.figures.truncate(kept);
        self.nodes[root as usize].followers = 0;
        let best = count[..players].iter().copied().max().unwrap_or(0);
        let winners: Vec<u8> = (0..players as u8)
            .filter(|&p| best > 0 && count[p as usize] == best)
            .collect();
        for &p in &winners {
            self.scores[p as usize] += points;
            self.stats.points_by_kind[node.kind.index()] += u64::from(points);
            self.stats.well_points += u64::from(wells);
        }
        let flowers = if self.colours.is_empty() {
            Vec::new()
        } else {
            rules::village_life::flower_bonus(self, node.kind, node.tile, &count[..players])
        };
        let network = if complete && node.markets > 0 && !winners.is_empty() {
            rules::village_life::network_bonus(self, root, &winners)
        } else {
            Vec::new()
        };
        for b in &flowers {
            self.scores[b.player as usize] += b.points;
            self.stats.flower_points += u64::from(b.points);
        }
        for b in &network {
            self.scores[b.player as usize] += b.points;
            self.stats.network_points += u64::from(b.points);
        }
        let first = self.board.placed[self.nodes[root as usize].tile as usize];
        let at = self.lowest_member();
        events.push(Event::Scored(Score {
            players: winners,
            kind: node.kind,
            at: at.unwrap_or((first.x, first.y, node.local)),
            tiles,
            pennants: if node.kind == FeatureKind::City {
                pennants
            } else {
                0
            },
            cities,
            points,
            reason,
            followers: count[..players].to_vec(),
            wells,
            flowers,
            network,
        }));
    }

    /// The member (of the last walked ring) on the earliest placed tile.
    fn lowest_member(&self) -> Option<(i16, i16, u8)> {
        let m = self.ring.iter().min_by_key(|&&m| {
            let n = &self.nodes[m as usize];
            (n.tile, n.local)
        })?;
        let n = &self.nodes[*m as usize];
        let p = self.board.placed[n.tile as usize];
        Some((p.x, p.y, n.local))
    }

    /// The completed cities bordered by the field whose members are in `self.ring`.
    fn bordered_cities(&mut self) -> u32 {
        let mut roots: Vec<u32> = Vec::new();
        for k in 0..self.ring.len() {
            let m = self.ring[k];
            let n = self.nodes[m as usize];
            let p = self.board.placed[n.tile as usize];
            let o = &self.tables.orients[p.orient as usize];
            for &c in &o.features[n.local as usize].cities {
                let r = self.find_mut(p.base + u32::from(c));
                let city = self.nodes[r as usize];
                if city.open == 0 && !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        roots.len() as u32
    }

    /// Scores every feature with figures: roads, cities and monasteries first, then fields,
    /// each in the order their first follower was deployed (the order does not change points).
    fn final_scoring(&mut self, events: &mut Vec<Event>) {
        for fields in [false, true] {
            let mut i = 0;
            while i < self.figures.len() {
                let root = self.find_mut(self.figures[i].node);
                if self.figures[i].kind == FigureKind::Follower
                    && (self.nodes[root as usize].kind == FeatureKind::Field) == fields
                {
                    // Scoring removes this figure (and any others on the feature) in place.
                    self.score(root, false, events);
                } else {
                    i += 1;
                }
            }
        }
        rules::village_life::final_windmills(self, events);
    }

    /// Approximate bytes held by the game state (for memory reports).
    pub fn heap_bytes(&self) -> usize {
        self.board.heap_bytes()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.figures.capacity() * std::mem::size_of::<Figure>()
            + self.bag.capacity() * 2
            + self.stamp.capacity() * 4
            + self.ring.capacity() * 4
    }
}

#[inline]
fn push_rotations(x: i16, y: i16, mut mask: u8, out: &mut Vec<Move>) {
    while mask != 0 {
        let rotation = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        out.push(Move::Place { x, y, rotation });
    }
}

/// A readable name for a local feature: its kind and first port.
pub fn describe_feature(o: &Orient, feature: u8) -> String {
    let f = &o.features[feature as usize];
    match Port::ALL.iter().find(|p| f.ports & (1 << p.index()) != 0) {
        Some(p) => format!("{} {p}", f.kind.name()),
        None => f.kind.name().to_string(),
    }
}

fn build_bag(tables: &Tables, options: &GameOptions) -> Result<Vec<u16>, SetupError> {
    let known = || tables.sets.join(", ");
    let mut sets = Vec::new();
    for id in &options.sets {
        match tables.sets.iter().position(|s| s == id) {
            Some(i) => sets.push(i as u16),
            None => return Err(SetupError::Set(id.clone(), known())),
        }
    }
    let edition = match &options.edition {
        Some(id) => tables
            .editions
            .iter()
            .position(|e| e == id)
            .ok_or_else(|| SetupError::Edition(id.clone(), tables.editions.join(", ")))?,
        None => tables.editions.len().saturating_sub(1),
    };
    // Refused before the bag is built: a count of billions must not allocate billions.
    let drawn = match &options.draw {
        Draw::Order(ids) => ids.len() as u64,
        Draw::Seed(_) => tables
            .kinds
            .iter()
            .enumerate()
            .filter(|(_, kind)| sets.is_empty() || sets.contains(&kind.set))
            .map(|(k, kind)| {
                let n = u64::from(kind.counts.get(edition).copied().unwrap_or(0));
                if k == tables.start as usize {
                    n.saturating_sub(1)
                } else {
                    n
                }
            })
            .sum::<u64>(),
    };
    if drawn + 1 > crate::board::MAX_TILES as u64 {
        return Err(SetupError::TooManyTiles(drawn + 1));
    }
    let bag: Vec<u16> = match &options.draw {
        Draw::Order(ids) => ids
            .iter()
            .map(|id| {
                tables
                    .kind_by_id(id)
                    .ok_or_else(|| SetupError::Tile(id.clone()))
            })
            .collect::<Result<_, _>>()?,
        Draw::Seed(seed) => {
            let mut bag = Vec::new();
            for (k, kind) in tables.kinds.iter().enumerate() {
                if !sets.is_empty() && !sets.contains(&kind.set) {
                    continue;
                }
                let mut n = kind.counts.get(edition).copied().unwrap_or(0);
                if k == tables.start as usize {
                    n = n.saturating_sub(1);
                }
                bag.extend(std::iter::repeat_n(k as u16, n as usize));
            }
            Rng::new(*seed).shuffle(&mut bag);
            bag
        }
    };
    Ok(bag)
}
