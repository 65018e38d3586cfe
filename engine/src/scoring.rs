//! Scoring a feature: the base rules (tiles, pennants, majority) and the wells, the rules'
//! bonuses beside them asked of the `scored` hook (`crate::rules`); the score events that say
//! who, what and why.

use crate::ids::{FeatureKindId, KindId, NodeId, OrientId, PlacedId};
use crate::options::MAX_PLAYERS;
use crate::rules::{Bonus, Powered};
use crate::state::{Event, FigureKind, Game};
use crate::tables::{EffectRule, Rates, SiteRange, Tables};
use serde::{Deserialize, Serialize};
use std::fmt;
use tiledef::EffectCount;
use tiledef::Shape;

/// The figures leaving a scored feature, per player: how many, their strength in the majority,
/// and the figures with a power among them.
type Leaving = (
    [u8; MAX_PLAYERS as usize],
    [u16; MAX_PLAYERS as usize],
    Vec<Powered>,
);

/// What scored: a feature of a declared kind, a rule module's own figure (a windmill's range),
/// a creature, or the region of a figure placed at a corner, at one of its rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scored {
    /// A feature of this kind (`Tables::features`).
    Feature(FeatureKindId),
    /// A rule module's own figure (the windmill's range), its points credited to this source
    /// (`crate::rules::RULE_SOURCES`, which names the scoring).
    Rule(crate::rules::RuleSource),
    /// A creature's points outside a feature's scoring (the fairy's at the start of its
    /// follower's owner's turn), by `Tables::creatures` index.
    Creature(u8),
    /// The region of a figure placed at a corner (`Tables::corner_figures[figure]`), paying
    /// one of its rates.
    Corner {
        /// Index into `Tables::corner_figures`.
        figure: u8,
        /// Which of its rates.
        paid: CornerPaid,
    },
}

/// Which rate of a figure placed at a corner a scoring paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CornerPaid {
    /// To the followers on its region when it was placed.
    Arrival,
    /// To the followers a tile joined to its region.
    Join,
    /// To its owner at the end of the game.
    End,
}

impl CornerPaid {
    /// Its name in words and records: `arrival`, `join`, `end`.
    pub fn name(self) -> &'static str {
        match self {
            CornerPaid::Arrival => "arrival",
            CornerPaid::Join => "join",
            CornerPaid::End => "end",
        }
    }
}

impl Scored {
    /// Its name in records and reports: the kind's id, the rule source's name for its scorings
    /// (`windmill`), the creature's or the corner figure's id.
    pub fn name(self, tables: &Tables) -> &str {
        match self {
            Scored::Feature(kind) => &tables.feature(kind).id,
            Scored::Rule(source) => {
                let info = source.info();
                info.scored.unwrap_or(info.name)
            }
            Scored::Corner { figure, .. } => (tables.corner_figures.get(usize::from(figure)))
                .map_or("corner figure", |c| c.id.as_str()),
            Scored::Creature(c) => {
                (tables.creatures.get(usize::from(c))).map_or("creature", |r| &r.id)
            }
        }
    }
}

/// Why a score was given: the state of what scored, its kind saying the rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Completed in play: the kind's `complete` rates (a site: all its range placed).
    Completed,
    /// Completed, small: the kind's `small` rates (the first edition's city of two tiles).
    Small,
    /// Scored at the end of the game, unfinished: the kind's `unfinished` rates (a region:
    /// what it borders).
    Unfinished,
    /// Scored in play as at the end, its figure taken back (the abbot's recall): the kind's
    /// `unfinished` rates.
    Recalled,
}

/// The verb of `n` players scoring alike: "scores" for one, "each score" for several.
pub(crate) fn scores_verb(n: usize) -> &'static str {
    if n > 1 { "each score" } else { "scores" }
}

/// One scoring of one feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// The players who scored (the majority), each getting `points`.
    pub players: Vec<u8>,
    /// What scored.
    pub kind: Scored,
    /// Where the feature was first placed: the tile position and local feature index.
    pub at: (i16, i16, u8),
    /// Positions of its distinct tiles (a windmill: the placed tiles of its range).
    pub tiles: Vec<(i16, i16)>,
    /// Its kind's emblems on it (a city's pennants).
    pub emblems: u32,
    /// The placed tiles of a site's range it scored (0 for other shapes).
    pub range: u32,
    /// A region's completed neighbours it scored for, by kind (a field's cities).
    pub bordered: Vec<(FeatureKindId, u32)>,
    /// Points each scoring player gets.
    pub points: u32,
    /// The state it scored in.
    pub reason: Reason,
    /// The rates it scored at before markers' modifiers (per tile, per emblem, per marker).
    pub rates: Rates,
    /// Followers returned, per player (index = player).
    pub followers: Vec<u8>,
    /// The majority by strength, per player, when it is not the follower count (a large
    /// follower, a mayor, a builder beside its owner's follower); empty when it is.
    pub strength: Vec<u16>,
    /// What the markers' scoring modifiers and the effects paid (included in `points`), per
    /// marker kind (an effect's entry names it).
    pub modifiers: Vec<ModifierPoints>,
    /// The rule modules' bonuses beside its points, each to one player (the flowers', a
    /// marketplace network's, a figure's: `crate::rules::BonusSource`), in the order paid.
    pub bonuses: Vec<Bonus>,
}

/// What one marker kind's scoring modifier, or one effect counting a marker kind, did to a
/// scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModifierPoints {
    /// The marker kind's id.
    pub marker: String,
    /// The effect that counted it (`vineyards`); absent for a marker's own modifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// Its markers on the feature (an effect: the tiles it counted).
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
    /// Points per marker and completed bordered feature it adds to a region (a pig farm's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_bordered: Option<u32>,
    /// What it changed the points by (negative: an inn's road left unfinished).
    pub points: i64,
}

impl Score {
    /// Everything a player got from this scoring: base points (if among the majority) and
    /// the rule modules' bonuses.
    pub fn points_of(&self, player: u8) -> u32 {
        let base = if self.players.contains(&player) {
            self.points
        } else {
            0
        };
        base + (self.bonuses.iter())
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

impl Score {
    /// The rule applied, as records and `--json` name it: `completed-road`, `small-city`,
    /// `unfinished-monastery`; a region by its kind alone (`field`).
    pub fn rule(&self, tables: &Tables) -> String {
        let name = self.kind.name(tables);
        match (self.kind, self.reason) {
            (Scored::Corner { paid, .. }, _) => format!("{name}-{}", paid.name()),
            (Scored::Feature(k), _) if tables.feature(k).is_region() => name.to_string(),
            (_, Reason::Completed) => format!("completed-{name}"),
            (_, Reason::Small) => format!("small-{name}"),
            (_, Reason::Unfinished) => format!("unfinished-{name}"),
            (_, Reason::Recalled) => format!("recalled-{name}"),
        }
    }

    /// Whether this is a scoring of the end of the game (unfinished features, regions).
    pub fn is_final(&self) -> bool {
        self.reason == Reason::Unfinished
    }

    /// The scoring in words, its kind's names read from `tables`: who scores what, and why.
    pub fn describe<'a>(&'a self, tables: &'a Tables) -> impl fmt::Display + 'a {
        Described {
            score: self,
            tables,
        }
    }
}

/// A scoring in words (`Score::describe`).
struct Described<'a> {
    score: &'a Score,
    tables: &'a Tables,
}

impl Described<'_> {
    /// Why the points: the counts times the rates (`completed road of 4 tiles: 1 × 4`).
    fn why(&self) -> String {
        let (s, tables) = (self.score, self.tables);
        let t = s.tiles.len() as u32;
        let state = match s.reason {
            Reason::Completed => "completed",
            Reason::Small => "small",
            Reason::Unfinished => "unfinished",
            Reason::Recalled => "recalled",
        };
        if let Scored::Corner { figure, paid } = s.kind {
            return corner_why(s, tables, figure, paid);
        }
        if let Scored::Creature(_) = s.kind {
            let name = s.kind.name(tables);
            return format!(
                "the {name} beside their follower at the start of their turn: {}",
                s.points
            );
        }
        let Scored::Feature(kind) = s.kind else {
            // A rule module's figure pays its range's placed tiles, or its points once complete.
            let name = s.kind.name(tables);
            return match s.reason {
                Reason::Unfinished => format!(
                    "unfinished {name}: {} × {t} placed {} of its range",
                    s.rates.tile,
                    if t == 1 { "tile" } else { "tiles" }
                ),
                _ => format!("completed {name}: {}", s.points),
            };
        };
        let rule = tables.feature(kind);
        let id = &rule.id;
        // The rates a modifier set, with the marker kinds that set them.
        let rate = |pick: fn(&ModifierPoints) -> Option<u32>, base: u32| {
            (s.modifiers.iter())
                .find_map(|m| pick(m).map(|r| (r, format!(" ({})", m.marker))))
                .unwrap_or((base, String::new()))
        };
        let (tr, tm) = rate(|m| m.tile, s.rates.tile);
        match rule.shape {
            tiledef::Shape::Site => {
                let placed = count(s.range, "placed tile", "placed tiles");
                format!("{state} {id}: {tr} × {placed} of its range{tm}")
            }
            tiledef::Shape::Region => {
                // The kinds it scored for; none: those that would pay it, at 0.
                let paying = (tables.features.iter().enumerate())
                    .filter(|(_, k)| k.bordered.iter().any(|(r, _)| *r == kind))
                    .map(|(k, _)| (FeatureKindId(k as u8), 0));
                let listed: Vec<(FeatureKindId, u32)> = if s.bordered.is_empty() {
                    paying.collect()
                } else {
                    s.bordered.clone()
                };
                let parts: Vec<String> = (listed.iter())
                    .map(|&(near, n)| {
                        let k = tables.feature(near);
                        let what = count(
                            n,
                            &format!("completed {}", k.id),
                            &format!("completed {}", k.plural),
                        );
                        format!("{what}: {} × {n}", tables.feature(near).pays(kind))
                    })
                    .collect();
                let mut why = format!("{id} bordering {}", parts.join(", "));
                if parts.is_empty() {
                    why = format!("{id} bordering nothing that pays it");
                }
                if tr > 0 {
                    why.push_str(&format!(" + {tr} × {}{tm}", count(t, "tile", "tiles")));
                }
                why
            }
            _ => {
                let tiles = count(t, "tile", "tiles");
                match &tables.feature(kind).emblem {
                    Some(emblem) => {
                        let (pr, pm) = rate(|m| m.pennant, s.rates.emblem);
                        let p = s.emblems;
                        let emblems = count(p, &emblem.id, &emblem.plural);
                        format!(
                            "{state} {id} of {tiles} and {emblems}: {tr} × {t}{tm} + {pr} × {p}{pm}"
                        )
                    }
                    None => format!("{state} {id} of {tiles}: {tr} × {t}{tm}"),
                }
            }
        }
    }
}

/// The rates of a corner figure's payment.
fn corner_rates(info: &crate::tables::CornerInfo, paid: CornerPaid) -> crate::tables::BonusRates {
    match paid {
        CornerPaid::Arrival => info.arrival,
        CornerPaid::Join => info.join,
        CornerPaid::End => info.end,
    }
}

/// The players with the greatest strength `weight` (none when it is 0).
fn majority(weight: &[u16]) -> Vec<u8> {
    let best = weight.iter().copied().max().unwrap_or(0);
    (0..weight.len() as u8)
        .filter(|&p| best > 0 && weight[usize::from(p)] == best)
        .collect()
}

/// The strength per player when it is not the figure count (`Score::strength`), else empty.
fn strength_apart(weight: &[u16], count: &[u8]) -> Vec<u16> {
    if (weight.iter().zip(count)).any(|(&w, &c)| w != u16::from(c)) {
        weight.to_vec()
    } else {
        Vec::new()
    }
}

/// Why a corner figure's region scored what it did: its rate times what it counts.
fn corner_why(s: &Score, tables: &Tables, figure: u8, paid: CornerPaid) -> String {
    let Some(info) = tables.corner_figures.get(usize::from(figure)) else {
        return String::new();
    };
    let rates = corner_rates(info, paid);
    let region = tables.feature(info.on);
    let t = s.tiles.len() as u32;
    let what = match paid {
        CornerPaid::Arrival => format!("the {}'s {} on its arrival", info.id, region.id),
        CornerPaid::Join => format!("a {} joined to the {}'s", region.id, info.id),
        CornerPaid::End => format!("the {}'s {} at the end", info.id, region.id),
    };
    let mut parts: Vec<String> = (s.bordered.iter())
        .filter(|&&(k, _)| tables.feature(k).pays(info.on) > 0)
        .map(|&(k, n)| {
            let k = tables.feature(k);
            let what = count(
                n,
                &format!("completed {}", k.id),
                &format!("completed {}", k.plural),
            );
            format!("{} × {what}", rates.bordered)
        })
        .collect();
    if parts.is_empty() {
        parts.push(format!("{} × 0 completed features", rates.bordered));
    }
    if rates.tile > 0 {
        parts.push(format!("{} × {}", rates.tile, count(t, "tile", "tiles")));
    }
    if rates.emblem > 0 {
        parts.push(format!("{} × {} emblems", rates.emblem, s.emblems));
    }
    format!("{what}: {}", parts.join(" + "))
}

/// How many of a region's completed bordered features pay it (by kind, `bordered`): what a
/// pig's bonus and a pig farm's rate count.
fn paying(tables: &Tables, region: FeatureKindId, bordered: &[(FeatureKindId, u32)]) -> u32 {
    (bordered.iter())
        .filter(|&&(k, _)| tables.feature(k).pays(region) > 0)
        .map(|&(_, n)| n)
        .sum()
}

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.score;
        let who: Vec<String> = s.players.iter().map(|p| format!("P{}", p + 1)).collect();
        let why = self.why();
        let mut extra = String::new();
        let paying = match s.kind {
            Scored::Feature(kind) => paying(self.tables, kind, &s.bordered),
            Scored::Rule(_) | Scored::Corner { .. } | Scored::Creature(_) => 0,
        };
        for m in &s.modifiers {
            if let Some(r) = m.per_bordered {
                // Once however many markers the region holds.
                extra.push_str(&format!(" + {r} × {paying} bordered ({})", m.marker));
            }
            match (m.per_marker, &m.effect) {
                (Some(r), Some(effect)) => extra.push_str(&format!(
                    " + {r} × {} ({effect})",
                    count(
                        m.count,
                        &format!("{} tile", m.marker),
                        &format!("{} tiles", m.marker)
                    )
                )),
                (Some(r), None) => extra.push_str(&format!(" + {r} × {} ({})", m.count, m.marker)),
                (None, _) => {}
            }
        }
        if who.is_empty() {
            write!(f, "nobody scores the base points ({why}{extra})")?;
        } else {
            write!(
                f,
                "{} {} {} point{} ({why}{extra})",
                who.join(", "),
                scores_verb(who.len()),
                s.points,
                if s.points == 1 { "" } else { "s" }
            )?;
        }
        if !s.strength.is_empty() {
            // Why these players won the majority, when figures counted otherwise than one each.
            let by: Vec<String> = (s.strength.iter().enumerate())
                .filter(|&(p, &w)| w > 0 || s.followers.get(p).is_some_and(|&n| n > 0))
                .map(|(p, w)| format!("P{} {w}", p + 1))
                .collect();
            write!(f, "; majority by strength: {}", by.join(", "))?;
        }
        for b in crate::rules::in_words_order(&s.bonuses) {
            write!(f, "; {b}")?;
        }
        Ok(())
    }
}

impl<'t> Game<'t> {
    /// Scores the set at `root` for its majority at its kind's rates, then returns its
    /// followers.
    pub(crate) fn score(&mut self, root: NodeId, complete: bool, events: &mut Vec<Event>) {
        self.score_as(root, complete, None, events);
    }

    /// Scores the set at `root` as `score` does; `recalled`: unfinished, in play, for the figure
    /// of that index into `figures` alone, which alone is taken back (the abbot's recall; the
    /// other figures there stay, as JCZ's `ReturnFollower` leaves them).
    pub(crate) fn score_as(
        &mut self,
        root: NodeId,
        complete: bool,
        recalled: Option<usize>,
        events: &mut Vec<Event>,
    ) {
        let node = self.core.nodes[root.index()];
        let tables = self.core.tables;
        let rule = tables.feature(node.kind);
        let tiles = self.members(root);
        let t = tiles.len() as u32;
        let emblems = u32::from(node.emblems);
        let (mut reason, rates) = self.rates(node.kind, complete, t);
        if recalled.is_some() {
            reason = Reason::Recalled;
        }
        let mut modifiers = Vec::new();
        let mut bordered = Vec::new();
        let mut range = 0;
        // What the rates count: a site's range tiles (its emblems unscored), else its tiles and
        // emblems; a region also scores the completed features it borders.
        let mut paid = 0;
        let (counted, counted_emblems) = match rule.shape {
            Shape::Site => {
                range = self.range_tiles(node.tile, rule.site_range(), complete);
                (range, 0)
            }
            Shape::Region => {
                bordered = self.bordered(node.kind);
                paid = (bordered.iter())
                    .map(|&(k, n)| n * tables.feature(k).pays(node.kind))
                    .sum();
                (t, emblems)
            }
            Shape::Area | Shape::Line => (t, emblems),
        };
        let paying = paying(tables, node.kind, &bordered);
        let mut points = paid
            + if self.core.markers.modifiers {
                let base = (rates.tile, rates.emblem);
                let counted = (counted, counted_emblems, paying);
                self.modify(complete, counted, base, &mut modifiers)
            } else {
                rates.tile * counted + rates.emblem * counted_emblems
            };
        if rates.marker > 0 {
            points += rates.marker * self.ring_markers();
        }
        if !tables.effects.is_empty() {
            points += self.effects(node.kind, node.tile, &tiles, complete, &mut modifiers);
        }
        let (count, weight, powered) = match recalled {
            Some(i) => self.return_recalled(i, emblems),
            None => self.return_followers(root, node.kind, emblems),
        };
        let players = self.core.options.players as usize;
        let best = weight[..players].iter().copied().max().unwrap_or(0);
        let winners: Vec<u8> = (0..players as u8)
            .filter(|&p| best > 0 && weight[p as usize] == best)
            .collect();
        let k = node.kind.index();
        for &p in &winners {
            self.core.scores[p as usize] += points;
            self.core.stats.points_by_kind[k] += u64::from(points);
            for m in &modifiers {
                self.core.stats.modifier_points[k] += m.points;
            }
        }
        if !winners.is_empty() {
            for m in &modifiers {
                let k = self.core.tables.marker_index(&m.marker);
                self.core.stats.marker_points[k] += m.points * winners.len() as i64;
            }
        }
        let bonuses = self.scored(&crate::rules::Scoring {
            shape: rule.shape,
            tile: node.tile,
            followers: &count[..players],
            powered: &powered,
            winners: &winners,
            counted: (t, emblems, paying),
            points,
            root,
            complete,
        });
        let at = self.lowest_member();
        events.push(Event::Scored(Box::new(Score {
            players: winners,
            kind: Scored::Feature(node.kind),
            at,
            tiles,
            emblems,
            range,
            bordered,
            points,
            reason,
            rates,
            followers: count[..players].to_vec(),
            strength: strength_apart(&weight[..players], &count[..players]),
            modifiers,
            bonuses,
        })));
    }

    /// Scores the region at `root` at one rate of corner figure `figure`: to the majority of its
    /// followers, who go home (`to` None; nothing when none is there), or to player `to` alone,
    /// no figure moving. The points go to `GameStats::corner_points`.
    pub(crate) fn score_corner(
        &mut self,
        root: NodeId,
        (figure, paid): (u8, CornerPaid),
        to: Option<u8>,
        events: &mut Vec<Event>,
    ) {
        let node = self.core.nodes[root.index()];
        let tables = self.core.tables;
        let Some(info) = tables.corner_figures.get(usize::from(figure)) else {
            return;
        };
        let rates = corner_rates(info, paid);
        let tiles = self.members(root);
        let t = tiles.len() as u32;
        let emblems = u32::from(node.emblems);
        let bordered = self.bordered(node.kind);
        let paying = paying(tables, node.kind, &bordered);
        let points = rates.tile * t + rates.emblem * emblems + rates.bordered * paying;
        let players = self.core.options.players as usize;
        let (count, weight, powered) = match to {
            None => self.return_followers(root, node.kind, emblems),
            Some(_) => Default::default(),
        };
        let winners: Vec<u8> = match to {
            Some(p) => vec![p],
            None => majority(&weight[..players]),
        };
        for &p in &winners {
            self.core.scores[p as usize] += points;
            if let Some(n) = self.core.stats.corner_points.get_mut(usize::from(figure)) {
                *n += u64::from(points);
            }
        }
        let bonuses = self.scored(&crate::rules::Scoring {
            shape: Shape::Region,
            tile: node.tile,
            followers: &count[..players],
            powered: &powered,
            winners: &winners,
            counted: (t, emblems, paying),
            points,
            root,
            // A barn's scoring completes nothing: no figure on its field moves on.
            complete: false,
        });
        let at = self.lowest_member();
        events.push(Event::Scored(Box::new(Score {
            players: winners,
            kind: Scored::Corner { figure, paid },
            at,
            tiles,
            emblems,
            range: 0,
            bordered,
            points,
            reason: match paid {
                CornerPaid::End => Reason::Unfinished,
                _ => Reason::Completed,
            },
            rates: Rates {
                tile: rates.tile,
                emblem: rates.emblem,
                marker: 0,
            },
            followers: count[..players].to_vec(),
            strength: strength_apart(&weight[..players], &count[..players]),
            modifiers: Vec::new(),
            bonuses,
        })));
    }

    /// The rates a feature of `kind` of `tiles` tiles scores at: unfinished, small (its kind's
    /// small rule on in this game) or completed.
    fn rates(&self, kind: FeatureKindId, complete: bool, tiles: u32) -> (Reason, Rates) {
        let rule = self.core.tables.feature(kind);
        if !complete {
            return (Reason::Unfinished, rule.unfinished_rates);
        }
        match &rule.small {
            Some(small)
                if tiles <= small.max_tiles && self.core.rules.small_kinds & kind.bit() != 0 =>
            {
                (Reason::Small, small.rates)
            }
            _ => (Reason::Completed, rule.complete_rates),
        }
    }

    /// The tiles of a site's range a scoring counts: all of them when it is completed, else
    /// those placed.
    fn range_tiles(&self, tile: PlacedId, range: SiteRange, complete: bool) -> u32 {
        if complete {
            return range.tiles();
        }
        let p = self.core.board.placed[tile.index()];
        self.core
            .board
            .placed_in(i32::from(p.x), i32::from(p.y), range)
    }

    /// Takes the figures off the set `root` (of `kind`, with `emblems` emblems) back to their
    /// supplies: how many each player had there, their strength in the majority, and the set
    /// figures with a power among them (owner, `Tables::followers` index).
    fn return_followers(&mut self, root: NodeId, kind: FeatureKindId, emblems: u32) -> Leaving {
        let mut count = [0u8; MAX_PLAYERS as usize];
        let mut weight = [0u16; MAX_PLAYERS as usize];
        let mut powered = Vec::new();
        let site = self.core.play.is_site(kind);
        // Stable removal keeps the figures in deploy order (the order of the final scoring). The
        // root counts the set's followers, so the search stops at the last of them.
        let mut left = self.core.nodes[root.index()].followers;
        let (mut kept, mut i, len) = (0, 0, self.core.figures.len());
        while i < len && left > 0 {
            let fig = self.core.figures[i];
            if fig.kind == FigureKind::Follower && self.core.find_mut(fig.node) == root {
                count[fig.owner as usize] += 1;
                weight[fig.owner as usize] += self.core.strength(&fig, emblems);
                if let Some(k) = fig.figure.set_index()
                    && self.core.powers.special & fig.figure.bit() != 0
                {
                    powered.push(Powered {
                        owner: fig.owner,
                        figure: k,
                        tile: fig.tile,
                    });
                }
                self.core.return_to_supply(fig);
                if site {
                    self.core.site_followers -= 1;
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
        (count, weight, powered)
    }

    /// Takes the recalled figure `i` (index into `figures`) back alone: its owner's count,
    /// weight and power, as `return_followers` gives them for every figure.
    fn return_recalled(&mut self, i: usize, emblems: u32) -> Leaving {
        let mut count = [0u8; MAX_PLAYERS as usize];
        let mut weight = [0u16; MAX_PLAYERS as usize];
        let mut powered = Vec::new();
        let fig = self.lift(i);
        count[fig.owner as usize] = 1;
        weight[fig.owner as usize] = self.core.strength(&fig, emblems);
        if let Some(k) = fig.figure.set_index()
            && self.core.powers.special & fig.figure.bit() != 0
        {
            powered.push(Powered {
                owner: fig.owner,
                figure: k,
                tile: fig.tile,
            });
        }
        (count, weight, powered)
    }

    /// The markers on the features of the last walked ring.
    fn ring_markers(&self) -> u32 {
        (self.ring().iter())
            .map(|&m| {
                let n = &self.core.nodes[m.index()];
                let o = self.core.orient(n.tile);
                o.features[n.local as usize].markers.len() as u32
            })
            .sum()
    }

    /// The member (of the last walked ring) on the earliest placed tile.
    fn lowest_member(&self) -> (i16, i16, u8) {
        let n = &self.core.nodes[self.scratch.ring_lowest.index()];
        let p = self.core.board.placed[n.tile.index()];
        (p.x, p.y, n.local)
    }

    /// The completed features the region of `kind` whose members are in `self.scratch.ring`
    /// borders, counted by kind, each once: only kinds that pay such a region (`bordered`).
    fn bordered(&mut self, kind: FeatureKindId) -> Vec<(FeatureKindId, u32)> {
        let tables = self.core.tables;
        let mut roots: Vec<NodeId> = Vec::new();
        let mut out: Vec<(FeatureKindId, u32)> = Vec::new();
        for k in 0..self.scratch.ring.len() {
            let m = self.scratch.ring[k];
            let n = self.core.nodes[m.index()];
            let p = self.core.board.placed[n.tile.index()];
            let o = tables.orient(p.orient);
            for &c in &o.features[n.local as usize].borders {
                let r = self.core.find_mut(p.node(c));
                let near = self.core.nodes[r.index()];
                let completed = if self.core.play.closes(near.kind) {
                    near.open == 0
                } else {
                    self.site_complete(near)
                };
                if completed && !roots.contains(&r) && tables.feature(near.kind).pays(kind) > 0 {
                    roots.push(r);
                    match out.iter_mut().find(|(k, _)| *k == near.kind) {
                        Some((_, n)) => *n += 1,
                        None => out.push((near.kind, 1)),
                    }
                }
            }
        }
        out
    }

    /// Whether `node` is a site whose range is all placed (a region bordering it is paid).
    fn site_complete(&self, node: crate::state::Node) -> bool {
        if !self.core.play.is_site(node.kind) {
            return false;
        }
        let range = self.core.tables.feature(node.kind).site_range();
        let p = self.core.board.placed[node.tile.index()];
        let (x, y) = (i32::from(p.x), i32::from(p.y));
        self.core.board.placed_in(x, y, range) == range.tiles()
    }

    /// How many markers of each kind that `keep` keeps the last walked ring's features carry
    /// (only the members marked in play are read: `marked_features`), by kind, in first-seen
    /// order.
    pub(crate) fn ring_marker_counts(&self, keep: impl Fn(u8) -> bool) -> Vec<(u8, u32)> {
        let mut counts: Vec<(u8, u32)> = Vec::new();
        for &m in self.ring() {
            let n = &self.core.nodes[m.index()];
            let Some(features) = self.marked_features(n) else {
                continue;
            };
            for &k in features[n.local as usize]
                .markers
                .iter()
                .filter(|&&k| keep(k))
            {
                match counts.iter_mut().find(|(c, _)| *c == k) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((k, 1)),
                }
            }
        }
        counts
    }

    /// The features of a member's tile when the member carries a marker in play (see
    /// `MarkersInPlay::marked`), else None without reading them.
    #[inline]
    pub(crate) fn marked_features(
        &self,
        n: &crate::state::Node,
    ) -> Option<&'t [crate::tables::FeatureRec]> {
        let orient = self.core.board.placed[n.tile.index()].orient;
        (self.core.markers.marked[orient.index()] >> n.local & 1 != 0)
            .then(|| &self.core.tables.orient(orient).features[..])
    }

    /// Applies the effects on `kind` to a scoring of a feature of that kind (its site on
    /// `site`, its tiles `tiles`): each pays its rate per tile carrying its marker, in the
    /// site's range or among the feature's tiles; each that counted a tile is recorded in `out`
    /// (at 0 points when its rate for the state is 0: a vineyard by an unfinished monastery).
    fn effects(
        &self,
        kind: FeatureKindId,
        site: PlacedId,
        tiles: &[(i16, i16)],
        complete: bool,
        out: &mut Vec<ModifierPoints>,
    ) -> u32 {
        let tables = self.core.tables;
        let board = &self.core.board;
        let mut points = 0;
        let rules = &self.core.rules;
        let switched_on = |e: &&EffectRule| e.option.as_deref().is_none_or(|o| rules.is_on(o));
        for e in (tables.effects.iter())
            .filter(|e| e.on.contains(&kind))
            .filter(switched_on)
        {
            let marked = |x: i32, y: i32| {
                board.at(x, y).is_some_and(|p| {
                    let k = usize::from(tables.orient(p.orient).kind);
                    tables.kinds[k].markers.contains(&e.marker)
                })
            };
            let count = match e.count {
                EffectCount::Range => {
                    let p = board.placed[site.index()];
                    let (x, y) = (i32::from(p.x), i32::from(p.y));
                    let range = tables.feature(kind).site_range();
                    let r = i32::from(range.reach());
                    let around = (-r..=r).flat_map(|dy| (-r..=r).map(move |dx| (dx, dy)));
                    around
                        .filter(|&(dx, dy)| range.contains(dx, dy) && marked(x + dx, y + dy))
                        .count() as u32
                }
                EffectCount::Tiles => (tiles.iter())
                    .filter(|&&(x, y)| marked(i32::from(x), i32::from(y)))
                    .count() as u32,
            };
            if count == 0 {
                continue;
            }
            let rate = if complete { e.complete } else { e.unfinished };
            points += rate * count;
            out.push(ModifierPoints {
                marker: tables.markers[usize::from(e.marker)].id.clone(),
                effect: Some(e.id.clone()),
                count,
                tile: None,
                pennant: None,
                per_marker: Some(rate),
                per_bordered: None,
                points: i64::from(rate * count),
            });
        }
        points
    }

    /// Applies the scoring modifiers of the markers on the last walked ring (a feature of any
    /// kind) whose base rates per counted tile (a site: per range tile) and per emblem are
    /// `base_rates`; records what each paid in `out`. Rates replace the base ones (the highest
    /// of each rate the kinds present give), per-marker points add.
    fn modify(
        &self,
        complete: bool,
        (tiles, pennants, bordered): (u32, u32, u32),
        base_rates: (u32, u32),
        out: &mut Vec<ModifierPoints>,
    ) -> u32 {
        let tables = self.core.tables;
        let mut counts = self.ring_marker_counts(|k| self.core.markers.scoring_on[usize::from(k)]);
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
                        effect: None,
                        count,
                        tile: sets_tile,
                        pennant: sets_pennant,
                        per_marker: None,
                        per_bordered: None,
                        points: if credited == Some(k) {
                            i64::from(points) - i64::from(base)
                        } else {
                            0
                        },
                    });
                }
            }
        }
        // Added points: per marker, and on a region per paying bordered feature however many
        // markers the region holds (JCZ's pig-herd, `Field::getCityPoints`: "do not stack").
        for &(k, count) in &counts {
            let r = rates(k);
            if r.marker.is_none() && r.bordered.is_none() {
                continue;
            }
            let added = r.marker.map_or(0, |r| r * count) + r.bordered.map_or(0, |r| r * bordered);
            points += added;
            let id = &tables.markers[usize::from(k)].id;
            let at = match (out.iter()).position(|m| m.marker == *id && m.effect.is_none()) {
                Some(at) => at,
                None => {
                    out.push(ModifierPoints {
                        marker: id.clone(),
                        effect: None,
                        count,
                        tile: None,
                        pennant: None,
                        per_marker: None,
                        per_bordered: None,
                        points: 0,
                    });
                    out.len() - 1
                }
            };
            let m = &mut out[at];
            m.per_marker = m.per_marker.or(r.marker);
            m.per_bordered = r.bordered;
            m.points += i64::from(added);
        }
        points
    }
}

/// Which marker kinds' scoring modifiers, and which marker kinds a rule module counts (the
/// tokens), a game plays.
#[derive(Clone, Debug, Default)]
pub(crate) struct MarkersInPlay {
    /// Per marker kind: whether its scoring modifier is in play.
    pub scoring_on: Vec<bool>,
    /// Whether any marker kind's scoring modifier is in play (else scoring skips the walk).
    pub modifiers: bool,
    /// Whether any marker kind on the draw's tiles is one a rule module counts
    /// (`rules::counts_marker`: the tokens'), so the game plays that module.
    pub counted: bool,
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
    let counted = crate::rules::counts_marker;
    let in_play = |k: u8| scoring_on[usize::from(k)] || counted(&markers[usize::from(k)]);
    let marked = (tables.orients.iter())
        .map(|o| {
            (o.features.iter().enumerate())
                .filter(|(_, f)| f.markers.iter().any(|&k| in_play(k)))
                .fold(0u64, |mask, (i, _)| mask | 1 << i)
        })
        .collect();
    MarkersInPlay {
        counted: (markers.iter().zip(&used)).any(|(m, &used)| used && counted(m)),
        modifiers: scoring_on.contains(&true),
        scoring_on,
        marked,
    }
}
