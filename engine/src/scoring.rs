//! Scoring a feature: the base rules (tiles, pennants, majority), the flower bonus, and the
//! wells; the score events that say who, what and why.

use crate::options::MAX_PLAYERS;
use crate::state::{Event, FigureKind, Game};
use crate::tables::{FeatureKind, Tables};
use serde::{Deserialize, Serialize};
use std::fmt;
use tiledef::MarkerRule;

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

impl<'t> Game<'t> {
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
            self.wells_on_ring()
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
            flower_bonus(self, node.kind, node.tile, &count[..players])
        };
        for b in &flowers {
            self.scores[b.player as usize] += b.points;
            self.stats.flower_points += u64::from(b.points);
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
            network: Vec::new(),
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

    /// Wells on the members of the last walked ring (a road): markers whose kind has
    /// `rule = "well"`.
    fn wells_on_ring(&self) -> u32 {
        let tables = self.tables;
        let mut wells = 0;
        for &m in self.ring() {
            let n = &self.nodes[m as usize];
            let o = self.orient(n.tile);
            wells += o.features[n.local as usize]
                .markers
                .iter()
                .filter(|&&k| tables.markers[k as usize].rule == Some(MarkerRule::Well))
                .count() as u32;
        }
        wells
    }
}

/// Flower groups of one colour on a tile (on all of its fields).
pub fn tile_groups(tables: &Tables, kind: u16, colour: u8) -> u32 {
    let flowers = &tables.kinds[kind as usize].flowers;
    u32::from(flowers.get(colour as usize).copied().unwrap_or(0))
}

/// The flower bonuses of a scoring whose ring (and distinct tiles) was just walked: every
/// player with a follower on the feature (`count[p] > 0`) gets 3 per group of their colour.
fn flower_bonus(game: &Game<'_>, kind: FeatureKind, tile: u16, count: &[u8]) -> Vec<FlowerBonus> {
    let mut out = Vec::new();
    for (p, &c) in count.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let colour = game.colours[p];
        let groups = match kind {
            FeatureKind::Field => game
                .ring()
                .iter()
                .map(|&m| {
                    let n = &game.nodes[m as usize];
                    let f = &game.orient(n.tile).features[n.local as usize];
                    f.flowers.iter().filter(|&&c| c == colour).count() as u32
                })
                .sum(),
            FeatureKind::Monastery if game.options.rules.monastery_flowers_3x3 => {
                let p = game.board.placed[tile as usize];
                let mut g = 0;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        if let Some(q) = game.board.at(i32::from(p.x) + dx, i32::from(p.y) + dy) {
                            g += tile_groups(
                                game.tables,
                                game.tables.orients[q.orient as usize].kind,
                                colour,
                            );
                        }
                    }
                }
                g
            }
            FeatureKind::Monastery => tile_groups(game.tables, game.orient(tile).kind, colour),
            _ => game
                .ring_tiles
                .iter()
                .map(|&t| tile_groups(game.tables, game.orient(t).kind, colour))
                .sum(),
        };
        if groups > 0 {
            out.push(FlowerBonus {
                player: p as u8,
                colour: game.tables.colours[colour as usize].clone(),
                groups,
                points: 3 * groups,
            });
        }
    }
    out
}
