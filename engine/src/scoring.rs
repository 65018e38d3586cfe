//! Scoring a feature: the base rules (tiles, pennants, majority), the flower bonus, and the
//! wells; the score events that say who, what and why.

use crate::ids::{KindId, NodeId, OrientId, PlacedId};
use crate::options::MAX_PLAYERS;
use crate::state::{Event, FigureKind, Game};
use crate::tables::{FeatureKind, Tables};
use serde::{Deserialize, Serialize};
use std::fmt;

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
    /// What the markers' scoring modifiers paid (included in `points`), per marker kind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<ModifierPoints>,
    /// Flower bonuses, per player with a figure on the feature.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flowers: Vec<FlowerBonus>,
    /// Marketplace network bonuses, per owner of the road.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub network: Vec<NetworkBonus>,
}

/// What one marker kind's scoring modifier did to a scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModifierPoints {
    /// The marker kind's id.
    pub marker: String,
    /// Its markers on the feature.
    pub count: u32,
    /// The tile rate it set, if it set the one used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<u32>,
    /// The pennant rate it set, if it set the one used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pennant: Option<u32>,
    /// Points per marker it adds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_marker: Option<u32>,
    /// What it changed the points by (negative: an inn's road left unfinished).
    pub points: i64,
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

/// `1 tile`, `2 tiles`: a count with its noun (`noun` the singular, `nouns` the plural).
fn count(n: impl Into<u64>, noun: &str, nouns: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { noun } else { nouns })
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who: Vec<String> = self.players.iter().map(|p| format!("P{}", p + 1)).collect();
        let t = self.tiles.len();
        let p = self.pennants;
        let tiles = count(t as u64, "tile", "tiles");
        let pennants = count(p, "pennant", "pennants");
        // The rates a modifier set, with the marker kinds that set them.
        let rate = |pick: fn(&ModifierPoints) -> Option<u32>, base: u32| {
            self.modifiers
                .iter()
                .find_map(|m| pick(m).map(|r| (r, format!(" ({})", m.marker))))
                .unwrap_or((base, String::new()))
        };
        let full = matches!(self.reason, Reason::CompletedCity);
        let (tr, tm) = rate(|m| m.tile, if full { 2 } else { 1 });
        let (pr, pm) = rate(|m| m.pennant, if full { 2 } else { 1 });
        let why = match self.reason {
            Reason::CompletedRoad => format!("completed road of {tiles}: {tr} × {t}{tm}"),
            Reason::CompletedCity => {
                format!("completed city of {tiles} and {pennants}: {tr} × {t}{tm} + {pr} × {p}{pm}")
            }
            Reason::SmallCity if tm.is_empty() && pm.is_empty() => {
                "completed city of 2 tiles, first-edition rule: 1 × 2".to_string()
            }
            Reason::SmallCity => format!(
                "completed city of 2 tiles, first-edition rule: {tr} × {t}{tm} + {pr} × {p}{pm}"
            ),
            Reason::CompletedMonastery => "completed monastery: 9".to_string(),
            Reason::UnfinishedRoad => format!("unfinished road of {tiles}: {tr} × {t}{tm}"),
            Reason::UnfinishedCity if tm.is_empty() && pm.is_empty() => {
                format!("unfinished city of {tiles} and {pennants}: {t} + {p}")
            }
            Reason::UnfinishedCity => format!(
                "unfinished city of {tiles} and {pennants}: {tr} × {t}{tm} + {pr} × {p}{pm}"
            ),
            Reason::UnfinishedMonastery => {
                let neighbours = count(self.points.saturating_sub(1), "neighbour", "neighbours");
                format!("unfinished monastery: 1 + {neighbours}")
            }
            Reason::Field => format!(
                "field bordering {}: 3 × {}",
                count(self.cities, "completed city", "completed cities"),
                self.cities
            ),
            Reason::CompletedWindmill => "completed windmill: 9".to_string(),
            Reason::UnfinishedWindmill => {
                format!(
                    "unfinished windmill: 1 × {t} placed {} of its range",
                    if t == 1 { "tile" } else { "tiles" }
                )
            }
        };
        let mut wells = String::new();
        for m in &self.modifiers {
            if let Some(r) = m.per_marker {
                wells.push_str(&format!(" + {r} × {} ({})", m.count, m.marker));
            }
        }
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
    pub(crate) fn score(&mut self, root: NodeId, complete: bool, events: &mut Vec<Event>) {
        let node = self.core.nodes[root.index()];
        let tiles = self.members(root);
        let t = tiles.len() as u32;
        let pennants = u32::from(node.pennants);
        let mut cities = 0;
        // Roads and cities: per tile and per pennant, at the base rates or a modifier's.
        let (tile_rate, pennant_rate, reason) = match (node.kind, complete) {
            (FeatureKind::Road, true) => (1, 0, Reason::CompletedRoad),
            (FeatureKind::Road, false) => (1, 0, Reason::UnfinishedRoad),
            (FeatureKind::City, true) if t == 2 && self.core.rules.first_edition_small_city => {
                (1, 1, Reason::SmallCity)
            }
            (FeatureKind::City, true) => (2, 2, Reason::CompletedCity),
            (FeatureKind::City, false) => (1, 1, Reason::UnfinishedCity),
            _ => (0, 0, Reason::Field),
        };
        let mut modifiers = Vec::new();
        let (points, reason) = match (node.kind, complete) {
            (FeatureKind::Road | FeatureKind::City, _) => {
                let base = tile_rate * t + pennant_rate * pennants;
                if self.core.markers.modifiers {
                    let points = self.modify(
                        complete,
                        t,
                        pennants,
                        (tile_rate, pennant_rate),
                        &mut modifiers,
                    );
                    (points, reason)
                } else {
                    (base, reason)
                }
            }
            (FeatureKind::Monastery, true) => (9, Reason::CompletedMonastery),
            (FeatureKind::Monastery, false) => {
                let p = self.core.board.placed[node.tile.index()];
                (
                    self.core
                        .board
                        .placed_around(i32::from(p.x), i32::from(p.y)),
                    Reason::UnfinishedMonastery,
                )
            }
            (FeatureKind::Field, _) => {
                cities = self.bordered_cities();
                (3 * cities, Reason::Field)
            }
            (FeatureKind::Garden | FeatureKind::Windmill, _) => (0, Reason::UnfinishedMonastery),
        };
        let players = self.core.options.players as usize;
        // Majorities weigh each follower by its strength; `count` is the followers returned.
        let mut count = [0u8; MAX_PLAYERS as usize];
        let mut weight = [0u16; MAX_PLAYERS as usize];
        // Stable removal keeps the figures in deploy order (the order of the final scoring). The
        // root counts the set's followers, so the search stops at the last of them.
        let mut left = node.followers;
        let (mut kept, mut i, len) = (0, 0, self.core.figures.len());
        while i < len && left > 0 {
            let fig = self.core.figures[i];
            if fig.kind == FigureKind::Follower && self.core.find_mut(fig.node) == root {
                count[fig.owner as usize] += 1;
                weight[fig.owner as usize] += self.core.strength(&fig);
                self.core.return_to_supply(fig);
                if node.kind == FeatureKind::Monastery {
                    self.core.monastery_followers -= 1;
                }
                left -= 1;
            } else {
                self.core.figures[kept] = fig;
                kept += 1;
            }
            i += 1;
        }
        self.core.figures.copy_within(i..len, kept);
        self.core.figures.truncate(kept + len - i);
        self.core.nodes[root.index()].followers = 0;
        let best = weight[..players].iter().copied().max().unwrap_or(0);
        let winners: Vec<u8> = (0..players as u8)
            .filter(|&p| best > 0 && weight[p as usize] == best)
            .collect();
        for &p in &winners {
            self.core.scores[p as usize] += points;
            self.core.stats.points_by_kind[node.kind.index()] += u64::from(points);
            for m in &modifiers {
                self.core.stats.modifier_points[node.kind.index()] += m.points;
            }
        }
        if !winners.is_empty() {
            for m in &modifiers {
                let k = self.core.tables.marker_index(&m.marker);
                self.core.stats.marker_points[k] += m.points * winners.len() as i64;
            }
        }
        let flowers = if self.modules.colours.is_empty() {
            Vec::new()
        } else {
            flower_bonus(self, node.kind, node.tile, &count[..players])
        };
        for b in &flowers {
            self.core.scores[b.player as usize] += b.points;
            self.core.stats.flower_points += u64::from(b.points);
        }
        let at = self.lowest_member();
        events.push(Event::Scored(Box::new(Score {
            players: winners,
            kind: node.kind,
            at,
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
            modifiers,
            flowers,
            network: Vec::new(),
        })));
    }

    /// The member (of the last walked ring) on the earliest placed tile.
    fn lowest_member(&self) -> (i16, i16, u8) {
        let n = &self.core.nodes[self.scratch.ring_lowest.index()];
        let p = self.core.board.placed[n.tile.index()];
        (p.x, p.y, n.local)
    }

    /// The completed cities bordered by the field whose members are in `self.scratch.ring`.
    fn bordered_cities(&mut self) -> u32 {
        let mut roots: Vec<NodeId> = Vec::new();
        for k in 0..self.scratch.ring.len() {
            let m = self.scratch.ring[k];
            let n = self.core.nodes[m.index()];
            let p = self.core.board.placed[n.tile.index()];
            let o = self.core.tables.orient(p.orient);
            for &c in &o.features[n.local as usize].cities {
                let r = self.core.find_mut(p.node(c));
                let city = self.core.nodes[r.index()];
                if city.open == 0 && !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        roots.len() as u32
    }

    /// Gives the current player one token per token-giving marker on the road or city `root`,
    /// just completed (whoever scores it, and even if nobody does).
    #[inline]
    pub(crate) fn award_tokens(&mut self, root: NodeId, events: &mut Vec<Event>) {
        if !self.modules.tokens.is_empty() {
            self.take_tokens(root, events);
        }
    }

    fn take_tokens(&mut self, root: NodeId, events: &mut Vec<Event>) {
        self.walk(root);
        let tables = self.core.tables;
        let kinds = tables.markers.len();
        let mut got: Vec<(u8, u32)> = Vec::new();
        for &m in self.ring() {
            let n = &self.core.nodes[m.index()];
            let Some(features) = self.marked_features(n) else {
                continue;
            };
            for &k in &features[n.local as usize].markers {
                if tables.markers[usize::from(k)].token.is_some() {
                    match got.iter_mut().find(|(c, _)| *c == k) {
                        Some((_, n)) => *n += 1,
                        None => got.push((k, 1)),
                    }
                }
            }
        }
        got.sort_unstable();
        let player = self.core.current;
        for (k, count) in got {
            self.modules.tokens[usize::from(player) * kinds + usize::from(k)] += count;
            events.push(Event::Tokens {
                player,
                marker: tables.markers[usize::from(k)].id.clone(),
                count,
            });
        }
    }

    /// The final token scoring: for each token kind, the players with the most (at least one)
    /// each score its points.
    pub(crate) fn score_tokens(&mut self, events: &mut Vec<Event>) {
        if self.modules.tokens.is_empty() {
            return;
        }
        let tables = self.core.tables;
        let kinds = tables.markers.len();
        let players = self.core.options.players as usize;
        for (k, marker) in tables.markers.iter().enumerate() {
            let Some(points) = marker.token else {
                continue;
            };
            let tokens: Vec<u32> = (0..players)
                .map(|p| self.modules.tokens[p * kinds + k])
                .collect();
            let best = tokens.iter().copied().max().unwrap_or(0);
            if best == 0 {
                continue;
            }
            let winners: Vec<u8> = (0..players as u8)
                .filter(|&p| tokens[usize::from(p)] == best)
                .collect();
            for &p in &winners {
                self.core.scores[usize::from(p)] += points;
                self.core.stats.token_points[k] += u64::from(points);
            }
            events.push(Event::TokenMajority {
                marker: marker.id.clone(),
                players: winners,
                tokens,
                points,
            });
        }
    }

    /// The features of a member's tile when the member carries a marker in play (see
    /// `MarkersInPlay::marked`), else None without reading them.
    #[inline]
    fn marked_features(&self, n: &crate::state::Node) -> Option<&'t [crate::tables::FeatureRec]> {
        let orient = self.core.board.placed[n.tile.index()].orient;
        (self.core.markers.marked[orient.index()] >> n.local & 1 != 0)
            .then(|| &self.core.tables.orient(orient).features[..])
    }

    /// Applies the scoring modifiers of the markers on the last walked ring (a road or city)
    /// whose base rates per tile and per pennant are `base_rates`; records what each paid in `out`. Rates replace
    /// the base ones (the highest of each rate the kinds present give), per-marker points add.
    fn modify(
        &self,
        complete: bool,
        tiles: u32,
        pennants: u32,
        base_rates: (u32, u32),
        out: &mut Vec<ModifierPoints>,
    ) -> u32 {
        let tables = self.core.tables;
        let mut counts: Vec<(u8, u32)> = Vec::new();
        for &m in self.ring() {
            let n = &self.core.nodes[m.index()];
            let Some(features) = self.marked_features(n) else {
                continue;
            };
            for &k in &features[n.local as usize].markers {
                if !self.core.markers.scoring_on[usize::from(k)] {
                    continue;
                }
                match counts.iter_mut().find(|(c, _)| *c == k) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((k, 1)),
                }
            }
        }
        if counts.is_empty() {
            return base_rates.0 * tiles + base_rates.1 * pennants;
        }
        counts.sort_unstable();
        let rates = |k: u8| {
            let s = tables.markers[usize::from(k)].scoring.as_ref();
            s.and_then(|s| if complete { s.complete } else { s.unfinished })
                .unwrap_or_default()
        };
        let best = |pick: fn(&tiledef::Rates) -> Option<u32>| {
            counts
                .iter()
                .filter_map(|&(k, _)| pick(&rates(k)).map(|r| (r, k)))
                .max_by_key(|&(r, k)| (r, std::cmp::Reverse(k)))
        };
        let tile = best(|r| r.tile);
        let pennant = best(|r| r.pennant);
        let (bt, bp) = base_rates;
        let base = bt * tiles + bp * pennants;
        let mut points = base;
        if tile.is_some() || pennant.is_some() {
            let t = tile.map_or(bt, |(r, _)| r);
            let p = pennant.map_or(bp, |(r, _)| r);
            points = t * tiles + p * pennants;
            // The change is credited to the kind that set the tile rate (else the pennant's).
            let credited = tile.or(pennant).map(|(_, k)| k);
            for &(k, count) in &counts {
                let sets_tile = tile.filter(|&(_, c)| c == k).map(|(r, _)| r);
                let sets_pennant = pennant.filter(|&(_, c)| c == k).map(|(r, _)| r);
                if sets_tile.is_some() || sets_pennant.is_some() {
                    out.push(ModifierPoints {
                        marker: tables.markers[usize::from(k)].id.clone(),
                        count,
                        tile: sets_tile,
                        pennant: sets_pennant,
                        per_marker: None,
                        points: if credited == Some(k) {
                            i64::from(points) - i64::from(base)
                        } else {
                            0
                        },
                    });
                }
            }
        }
        for &(k, count) in &counts {
            if let Some(r) = rates(k).marker {
                points += r * count;
                match out
                    .iter_mut()
                    .find(|m| m.marker == tables.markers[usize::from(k)].id)
                {
                    Some(m) => {
                        m.per_marker = Some(r);
                        m.points += i64::from(r * count);
                    }
                    None => out.push(ModifierPoints {
                        marker: tables.markers[usize::from(k)].id.clone(),
                        count,
                        tile: None,
                        pennant: None,
                        per_marker: Some(r),
                        points: i64::from(r * count),
                    }),
                }
            }
        }
        points
    }
}

/// The flower bonuses of a scoring whose ring (and distinct tiles) was just walked: every
/// player with a follower on the feature (`count[p] > 0`) gets 3 per group of their colour.
fn flower_bonus(
    game: &Game<'_>,
    kind: FeatureKind,
    tile: PlacedId,
    count: &[u8],
) -> Vec<FlowerBonus> {
    let mut out = Vec::new();
    for (p, &c) in count.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let colour = game.modules.colours[p];
        let groups = match kind {
            FeatureKind::Field => (game.ring().iter())
                .map(|&m| {
                    let n = &game.core.nodes[m.index()];
                    let orient = game.core.board.placed[n.tile.index()].orient;
                    // Most fields have no flowers: their lists are not read.
                    if !game.core.play.flowered(orient, n.local) {
                        return 0;
                    }
                    let f = &game.core.tables.orient(orient).features;
                    f[n.local as usize]
                        .flowers
                        .iter()
                        .filter(|&&c| c == colour)
                        .count() as u32
                })
                .sum(),
            FeatureKind::Monastery if game.core.rules.monastery_flowers_3x3 => {
                let p = game.core.board.placed[tile.index()];
                let block = game.core.board.block(i32::from(p.x), i32::from(p.y));
                (block.iter().filter(|c| c.placed != PlacedId::NONE))
                    .map(|c| {
                        game.core
                            .play
                            .flower_groups(game.core.kind_of(c.placed), colour)
                    })
                    .sum()
            }
            FeatureKind::Monastery => game
                .core
                .play
                .flower_groups(game.core.kind_of(tile), colour),
            _ => (game.scratch.ring_tiles.iter())
                .map(|&t| game.core.play.flower_groups(game.core.kind_of(t), colour))
                .sum(),
        };
        if groups > 0 {
            out.push(FlowerBonus {
                player: p as u8,
                colour: game.core.tables.colours[colour as usize].clone(),
                groups,
                points: 3 * groups,
            });
        }
    }
    out
}

/// Which marker kinds' scoring modifiers and tokens a game plays.
#[derive(Clone, Debug, Default)]
pub(crate) struct MarkersInPlay {
    /// Per marker kind: whether its scoring modifier is in play.
    pub scoring_on: Vec<bool>,
    /// Whether any marker kind's scoring modifier is in play (else scoring skips the walk).
    pub modifiers: bool,
    /// Whether any marker kind on the draw's tiles gives a token.
    pub tokens: bool,
    /// Per orientation: bit `i` when its local feature `i` carries a marker whose modifier or
    /// token is in play. A scoring's walk tests this bit, beside the tile's orientation it
    /// reads anyway, and reads a member's marker list only when it is set: most members have
    /// none, and the lists are cold when many kinds are in the bag.
    pub marked: Vec<u64>,
}

/// The marker kinds in play for the tile kinds of a draw: a modifier is in play when it names no
/// option or `rules` switch its option on. Only the marker kinds on the draw's tiles count, so a
/// game without them pays nothing for them.
pub(crate) fn markers_in_play(
    tables: &Tables,
    rules: &crate::options::Rules,
    draw: impl Iterator<Item = KindId>,
) -> MarkersInPlay {
    let markers = &tables.markers;
    let mut seen = vec![false; tables.kinds.len()];
    let mut used = vec![false; markers.len()];
    for k in draw {
        if std::mem::replace(&mut seen[k.index()], true) {
            continue;
        }
        let o = tables.orient(OrientId(tables.kind(k).orients[0]));
        for f in &o.features {
            for &m in &f.markers {
                used[usize::from(m)] = true;
            }
        }
    }
    let scoring_on: Vec<bool> = (markers.iter().zip(&used))
        .map(|(m, &used)| {
            used && m
                .scoring
                .as_ref()
                .is_some_and(|s| s.option.as_deref().is_none_or(|o| rules.is_on(o)))
        })
        .collect();
    let in_play = |k: u8| scoring_on[usize::from(k)] || markers[usize::from(k)].token.is_some();
    let marked = (tables.orients.iter())
        .map(|o| {
            (o.features.iter().enumerate())
                .filter(|(_, f)| f.markers.iter().any(|&k| in_play(k)))
                .fold(0u64, |mask, (i, _)| mask | 1 << i)
        })
        .collect();
    MarkersInPlay {
        tokens: (markers.iter().zip(&used)).any(|(m, &used)| used && m.token.is_some()),
        modifiers: scoring_on.contains(&true),
        scoring_on,
        marked,
    }
}
