//! The greedy player: every turn (a placement and its second step) valued by what it changes in
//! an estimate of each player's standing, the best taken.
//!
//! A player's standing is their score, plus what each feature they hold the majority on is
//! expected to be worth, plus what their figures and tokens are worth:
//! - a completed road, city or monastery is worth the points it scores now (so "points scored
//!   now" is part of the value of the turn that completes it);
//! - an open road its tiles; an open city its unfinished value (tiles + pennants) plus the
//!   completion bonus (as much again) times a completion chance `p = 0.55^open ends`; an open
//!   monastery its neighbours + 1 plus the missing points times `0.8^missing`;
//! - a road or city carrying markers with scoring modifiers in play (the compiled tables' rates:
//!   an inn, a cathedral, a well) is worth its unfinished points plus (complete − unfinished
//!   points) × `p`, both at the rates the markers set: an inn road of `t` tiles `2t × p`, so an
//!   inn with many open ends late in the game is worth little, and nothing once no tile is left;
//! - a field 3 per completed city it borders plus 1 per open one;
//! - a windmill its placed range tiles plus the missing ones times `0.8^missing`;
//! - a figure placed at a corner (the barn) its `end` rate per completed city its field
//!   borders plus a third of it per open one times the time left (`rules::barn::worth`);
//! - the majority is weighed by each figure's strength (a set's follower kind, `[[figure]]`: the
//!   large follower counts 2); a figure of strength `s` is worth `s × w` in the supply and
//!   `s × w × p` on a feature (the chance it comes back: 0 on a field), `w` being 3 points while
//!   10 or more tiles per player are left, falling linearly to 0 at the end; every follower
//!   kind in the supply is tried on every free feature;
//! - tokens (Traders & Builders' goods: a marker kind's `token`) a placement completes go to
//!   its player; each kind's tokens are worth its points to the players with the most once no
//!   tile is left, before that a share by the logistic of the lead over the best other player,
//!   `1 / (1 + e^(−lead / (0.5 + time)))`, `time` the scale below;
//! - a guarding creature (the fairy) beside a follower its `scored` points plus its `turn`
//!   points for two of the owner's turns (others soon move it away), times `time` (the
//!   `scored` points come with the follower's feature, the turn points only while tiles are
//!   left).
//!
//! Every chance is scaled down as the bag empties (`min(1, tiles left / 10)`), and is 0 when
//! no tile is left; an open road or city on the donkey's tile has its chance scaled by 0.3. A
//! turn is worth the change of its player's standing minus the mean change of the others' (so
//! feeding an opponent's city counts against it). What was measured in choosing the estimate:
//! `docs/decisions.md`, "The greedy estimate".
//!
//! Placements with a deploy or pass are valued from the board without playing them: the
//! features each placement would join are merged in a small union-find over the placed tile's
//! features and its neighbours' sets, as the core's meetings across each side say
//! (`PlayTables::meetings`, which `Core::join` applies to the nodes), so closures, points and
//! majorities are the engine's; flowers and marketplace bonuses are left out of the estimate.
//! The other second steps (windmills, Festival returns, the donkey) are tried on a copy of the
//! game and the whole board valued after each. Nothing here names a marker, a figure or a set:
//! modifiers, strengths and tokens come from the tables.

// Standings are arrays by seat and groups by item: indexing them by number reads better here.
#![allow(clippy::needless_range_loop)]

use super::{Candidate, Scratch};
use crate::board::Placed;
use crate::game::{FigureKind, Game, MAX_PLAYERS, Move, Phase};
use crate::ids::{FeatureKindId, FigureId, NodeId, PlacedId};
use crate::state::Meetings;
use crate::tables::{NO_FEATURE, Orient, Power, Rates, Tables};
use tiledef::{Shape, Side};

const P: usize = MAX_PLAYERS as usize;
/// An item that is a feature of the tile being placed, not a set already on the board.
const LOCAL: NodeId = NodeId::NONE;

/// Token kinds the estimate follows (the first ones of the tables; more are left out).
const TOKENS: usize = 6;

/// The scoring modifiers of the markers on a road or city, merged as the engine applies them:
/// each rate the highest a marker sets (0 = none, else the rate + 1), the per-marker points
/// summed. Indices: complete tile, complete pennant, unfinished tile, unfinished pennant.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Mods {
    rates: [u16; 4],
    /// Points added by markers when complete, and when unfinished.
    adds: [u16; 2],
}

impl Mods {
    fn merge(&mut self, other: &Mods) {
        for i in 0..4 {
            self.rates[i] = self.rates[i].max(other.rates[i]);
        }
        for i in 0..2 {
            self.adds[i] = self.adds[i].saturating_add(other.adds[i]);
        }
    }

    /// The points of a road or city of `t` tiles and `pn` pennants at base rates `(tile,
    /// pennant)`, complete or not.
    fn points(&self, complete: bool, t: f64, pn: f64, base: (f64, f64)) -> f64 {
        let i = if complete { 0 } else { 2 };
        let rate = |r: u16, b: f64| if r == 0 { b } else { f64::from(r - 1) };
        rate(self.rates[i], base.0) * t
            + rate(self.rates[i + 1], base.1) * pn
            + f64::from(self.adds[i / 2])
    }
}

/// What one marker kind does for the estimate (`Board::marks`, by marker kind).
#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    /// Its scoring modifier, when in play.
    mods: Mods,
    /// Its token's slot (below `TOKENS`), or `u8::MAX`.
    token: u8,
}

/// What the estimate knows about a feature (a set on the board, or one a placement would make).
#[derive(Clone, Copy, Debug, Default)]
struct Standing {
    kind: Option<FeatureKindId>,
    tiles: u32,
    emblems: u32,
    open: i32,
    /// Majority weight by player: the strengths of their followers on it (what they are
    /// worth back in the supply, in followers, too).
    owners: [u8; P],
    /// Whether a figure stands on it: as the engine decides a deploy, by the figures there and
    /// not their strength (a figure of strength 0 takes a feature and weighs nothing).
    taken: bool,
    /// Roads and cities: their markers' scoring modifiers, and the tokens they give.
    mods: Mods,
    tokens: [u8; TOKENS],
    /// Regions: what the completed features they border pay them, and a third of what the
    /// open ones would (a field: 3 a completed city, 1 an open one).
    bordered_done: f64,
    bordered_open: f64,
    /// Sites: placed tiles of the range (its own included).
    around: u32,
    /// Completion chance scale (the donkey standing on it lowers it).
    hold: f64,
}

/// The constants of one turn's estimate.
#[derive(Clone, Copy, Debug)]
struct Weights<'t> {
    /// The feature kinds' rules.
    tables: &'t Tables,
    players: usize,
    /// Scale of every chance: tiles left / 10, at most 1.
    time: f64,
    /// A follower in the supply.
    follower: f64,
    /// `Rules::small_kinds`: the kinds whose small rates apply.
    small_kinds: u32,
}

impl<'t> Weights<'t> {
    fn of(game: &Game<'t>) -> Weights<'t> {
        let left = game.tiles_left() as f64;
        let players = game.core.options.players as usize;
        Weights {
            tables: game.core.tables,
            players,
            time: (left / 10.0).min(1.0),
            follower: 3.0 * (left / players as f64 / 10.0).min(1.0),
            small_kinds: game.core.rules.small_kinds,
        }
    }
}

/// What a feature adds to each player's standing.
fn worth(s: &Standing, w: &Weights<'_>, out: &mut [f64; P]) {
    let Some(kind) = s.kind else { return };
    let (value, chance) = value(s, kind, w);
    let best = s.owners[..w.players].iter().copied().max().unwrap_or(0);
    for p in 0..w.players {
        let n = s.owners[p];
        if n == 0 {
            continue;
        }
        if n == best {
            out[p] += value;
        }
        out[p] += f64::from(n) * w.follower * chance;
    }
}

/// What a feature is worth to its majority, by its kind's shape and rates, and the chance its
/// followers come back before the end.
fn value(s: &Standing, kind: FeatureKindId, w: &Weights<'_>) -> (f64, f64) {
    let rule = w.tables.feature(kind);
    let t = f64::from(s.tiles);
    let pn = f64::from(s.emblems);
    let rates = |r: Rates| (f64::from(r.tile), f64::from(r.emblem));
    match rule.shape {
        Shape::Area | Shape::Line if rule.closes() => {
            // Unfinished points plus the completion bonus times its chance, at the rates the
            // markers set: an inn's road is worth 2 per tile times its chance and nothing more.
            let small = (rule.small.as_ref())
                .filter(|small| s.tiles <= small.max_tiles && w.small_kinds & kind.bit() != 0);
            let complete = rates(small.map_or(rule.complete_rates, |small| small.rates));
            if s.open <= 0 {
                return (s.mods.points(true, t, pn, complete), 1.0);
            }
            let p = 0.55f64.powi(s.open) * w.time * s.hold;
            let unfinished = s.mods.points(false, t, pn, rates(rule.unfinished_rates));
            let complete = s.mods.points(true, t, pn, rates(rule.complete_rates));
            (unfinished + (complete - unfinished) * p, p)
        }
        Shape::Area | Shape::Line => (
            s.mods.points(false, t, pn, rates(rule.unfinished_rates)),
            0.0,
        ),
        Shape::Site => {
            let range = rule.site_range().tiles();
            let complete = f64::from(rule.complete_rates.tile * range);
            if s.around >= range {
                return (complete, 1.0);
            }
            let missing = (range - s.around) as i32;
            let p = 0.8f64.powi(missing) * w.time * s.hold;
            let unfinished = f64::from(rule.unfinished_rates.tile * s.around);
            (unfinished + (complete - unfinished) * p, p)
        }
        Shape::Region => {
            let own = f64::from(rule.unfinished_rates.tile) * t;
            (own + s.bordered_done + s.bordered_open * w.time, 0.0)
        }
    }
}

/// Adds a feature of kind `kind` bordering a region of kind `region` to the region's standing:
/// its rate when it is completed, a third of it when it may still be.
fn add_bordered(
    s: &mut Standing,
    tables: &Tables,
    kind: FeatureKindId,
    region: FeatureKindId,
    done: bool,
) {
    let rate = f64::from(tables.feature(kind).pays(region));
    if done {
        s.bordered_done += rate;
    } else {
        s.bordered_open += rate / 3.0;
    }
}

/// What an extra tile is worth to its player while tiles are left: about what a placement
/// earns (a base game pays some 0.8 points a placed tile) plus the tempo of a second figure.
const EXTRA_TILE: f64 = 2.0;

/// What the powers of the figures on the board add to their owners' standings: a bonus (the
/// pig) its rates on what its feature counts now, a completed bordered feature in full and an
/// open one at a third times the time left, while its owner is among the majority; a figure
/// of power `extra-tile` (the builder) an extra tile while its feature is open. A recall (the
/// abbot) needs nothing here: a copy of the game values taking it back (`rank_actions`).
fn powers_worth(game: &Game<'_>, est: &Board, w: &Weights<'_>, out: &mut [f64; P]) {
    for f in &game.core.figures {
        let Some(info) = game.core.set_figure(f) else {
            continue;
        };
        let root = game.find(f.node);
        let owner = usize::from(f.owner);
        match info.power {
            Some(Power::Bonus(rates)) => {
                let Some(c) = est.claimed.iter().find(|c| c.root == root) else {
                    continue;
                };
                let best = c.standing.owners[..w.players]
                    .iter()
                    .max()
                    .copied()
                    .unwrap_or(0);
                if c.standing.owners[owner] < best {
                    continue;
                }
                let nodes = game.nodes();
                let (done, open) =
                    (c.cities.iter()).fold((0.0, 0.0), |(d, o), r| match nodes[r.index()].open {
                        0 => (d + 1.0, o),
                        _ => (d, o + 1.0),
                    });
                out[owner] += f64::from(rates.bordered) * (done + open * w.time / 3.0)
                    + f64::from(rates.tile) * f64::from(c.standing.tiles)
                    + f64::from(rates.emblem) * f64::from(c.standing.emblems);
            }
            Some(Power::ExtraTile) if game.nodes()[root.index()].open > 0 => {
                out[owner] += EXTRA_TILE * w.time;
            }
            _ => {}
        }
    }
}

/// The strength set figure `k` is valued at off the board: its own, or per emblem as if on
/// one emblem.
fn nominal_strength(game: &Game<'_>, k: usize) -> u8 {
    let strength = game.core.tables.followers[k].strength_with(1);
    strength.min(u32::from(u8::MAX)) as u8
}

/// What a figure of this strength is worth in the supply: as many followers.
fn figure_worth(strength: u8, w: &Weights<'_>) -> f64 {
    f64::from(strength) * w.follower
}

/// What each player's tokens of one kind (`counts`) are worth: its `points` to the players with
/// the most (at least one) once no tile is left; before, a share of them by the logistic of the
/// player's lead over the best other, flatter while many tiles are left
/// (`1 / (1 + e^(−lead / (0.5 + time)))`).
fn token_worth(counts: &[u32; P], points: f64, w: &Weights<'_>, out: &mut [f64; P]) {
    for p in 0..w.players {
        let other = (0..w.players)
            .filter(|&q| q != p)
            .map(|q| counts[q])
            .max()
            .unwrap_or(0);
        let lead = f64::from(counts[p]) - f64::from(other);
        let share = if w.time <= 0.0 {
            f64::from(u8::from(counts[p] > 0 && lead >= 0.0))
        } else {
            1.0 / (1.0 + (-lead / (0.5 + w.time)).exp())
        };
        out[p] += points * share;
    }
}

/// The tokens of the marker kind `kind` each player holds.
fn tokens_held(game: &Game<'_>, kind: u8) -> [u32; P] {
    let mut out = [0; P];
    let kinds = game.core.tables.markers.len();
    for p in 0..game.core.options.players as usize {
        out[p] = game.tokens()[p * kinds + usize::from(kind)];
    }
    out
}

/// The value of a change of standings to `me`: their change minus the others' mean change.
fn relative(delta: &[f64; P], me: usize, players: usize) -> f64 {
    if players < 2 {
        return delta[me];
    }
    let others: f64 = (0..players).filter(|&p| p != me).map(|p| delta[p]).sum();
    delta[me] - others / (players - 1) as f64
}

/// A feature of the tile being placed or a set beside it, in the placement's union-find.
#[derive(Clone, Copy, Debug)]
struct Item {
    /// The set's root, or `LOCAL`.
    root: NodeId,
    kind: FeatureKindId,
    open: i32,
    emblems: u32,
    parent: u16,
    /// Index into `Board::claimed`, or `NONE`.
    claimed: u16,
}

/// No claimed set.
const NONE: u16 = u16::MAX;

/// A claimed set of the board (a follower on it), with what the estimate needs.
#[derive(Clone, Debug)]
struct Claimed {
    root: NodeId,
    standing: Standing,
    /// Regions: the roots of the features they border that pay them (a field's cities).
    cities: Vec<NodeId>,
    /// Sites: where.
    at: (i32, i32),
}

/// The per-turn state of the greedy estimate: the claimed sets and caches.
#[derive(Debug, Default)]
pub(crate) struct Board {
    claimed: Vec<Claimed>,
    items: Vec<Item>,
    tile_stamp: Vec<u32>,
    generation: u32,
    cities: Vec<NodeId>,
    groups: Vec<Standing>,
    members: Vec<NodeId>,
    /// Unclaimed fields' bordered cities, by root (for this turn).
    field_cache: Vec<(NodeId, Vec<NodeId>)>,
    /// Cities a field borders after a placement: (id, done).
    seen: Vec<(usize, bool, FeatureKindId)>,
    /// Per marker kind: its modifier and token slot in this game.
    marks: Vec<Mark>,
    /// Whether some marker kind has a modifier in play or a token (else walks skip markers).
    marks_on: bool,
    /// Per token slot: its marker kind and points.
    token_kinds: Vec<(u8, f64)>,
    /// The current player's figures in supply: (figure, strength, worth in supply).
    figures: Vec<(FigureId, u8, f64)>,
}

impl Board {
    /// Reads what the game's marker kinds do: scoring modifiers in play, tokens.
    fn read_marks(&mut self, game: &Game<'_>) {
        self.marks.clear();
        self.token_kinds.clear();
        let rate = |r: Option<u32>| r.map_or(0, |r| r.min(u32::from(u16::MAX) - 1) as u16 + 1);
        let add = |r: Option<u32>| r.map_or(0, |r| r.min(u32::from(u16::MAX)) as u16);
        for (k, m) in game.core.tables.markers.iter().enumerate() {
            let mut mark = Mark {
                token: u8::MAX,
                ..Mark::default()
            };
            if game.core.markers.scoring_on.get(k) == Some(&true)
                && let Some(sc) = &m.scoring
            {
                if let Some(c) = &sc.complete {
                    mark.mods.rates[0] = rate(c.tile);
                    mark.mods.rates[1] = rate(c.pennant);
                    mark.mods.adds[0] = add(c.marker);
                }
                if let Some(u) = &sc.unfinished {
                    mark.mods.rates[2] = rate(u.tile);
                    mark.mods.rates[3] = rate(u.pennant);
                    mark.mods.adds[1] = add(u.marker);
                }
            }
            if game.modules.tokens.is_some()
                && let Some(points) = m.token
            {
                // Markers sharing a good share its count, at the good's slot.
                let slot = crate::rules::good_slot(game.core.tables, k) as u8;
                if let Some(j) = self.token_kinds.iter().position(|t| t.0 == slot) {
                    mark.token = j as u8;
                } else if self.token_kinds.len() < TOKENS {
                    mark.token = self.token_kinds.len() as u8;
                    self.token_kinds.push((slot, f64::from(points)));
                }
            }
            self.marks.push(mark);
        }
        self.marks_on =
            (self.marks.iter()).any(|m| m.mods != Mods::default() || m.token != u8::MAX);
    }

    /// Adds what these markers do to a standing.
    fn add_marks(&self, s: &mut Standing, markers: &[u8]) {
        for &k in markers {
            let m = &self.marks[usize::from(k)];
            s.mods.merge(&m.mods);
            if let Some(t) = s.tokens.get_mut(usize::from(m.token)) {
                *t = t.saturating_add(1);
            }
        }
    }

    /// Adds the distinct tiles of the sets with these roots (walking their rings) and, when
    /// markers matter, their markers to a standing.
    fn walk(&mut self, game: &Game<'_>, roots: &[NodeId], s: &mut Standing) {
        s.tiles += self.tiles(game, roots);
        if !self.marks_on {
            return;
        }
        let nodes = game.nodes();
        for &root in roots {
            let mut m = root;
            loop {
                let n = &nodes[m.index()];
                let o = game
                    .core
                    .tables
                    .orient(game.core.board.placed[n.tile.index()].orient);
                self.add_marks(s, &o.features[n.local as usize].markers);
                m = n.next;
                if m == root {
                    break;
                }
            }
        }
    }

    /// Distinct tiles of the sets with these roots (walking their rings).
    fn tiles(&mut self, game: &Game<'_>, roots: &[NodeId]) -> u32 {
        let placed = game.core.board.placed.len();
        if self.tile_stamp.len() < placed {
            self.tile_stamp.resize(placed, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.tile_stamp.fill(0);
            self.generation = 1;
        }
        let nodes = game.nodes();
        let mut n = 0;
        for &root in roots {
            let mut m = root;
            loop {
                let t = nodes[m.index()].tile.index();
                if self.tile_stamp[t] != self.generation {
                    self.tile_stamp[t] = self.generation;
                    n += 1;
                }
                m = nodes[m.index()].next;
                if m == root {
                    break;
                }
            }
        }
        n
    }

    /// The roots of the features the region with this root borders that pay it (a field's
    /// cities), into `self.cities`.
    fn field_cities(&mut self, game: &Game<'_>, root: NodeId) {
        self.cities.clear();
        let nodes = game.nodes();
        let tables = game.core.tables;
        let region = nodes[root.index()].kind;
        let mut m = root;
        loop {
            let n = nodes[m.index()];
            let p = game.core.board.placed[n.tile.index()];
            let o = tables.orient(p.orient);
            for &c in &o.features[n.local as usize].borders {
                let r = game.find(p.node(c));
                if tables.feature(nodes[r.index()].kind).pays(region) > 0
                    && !self.cities.contains(&r)
                {
                    self.cities.push(r);
                }
            }
            m = n.next;
            if m == root {
                break;
            }
        }
    }

    /// The index in `field_cache` of an unclaimed field's bordered cities (walked once a turn).
    fn cached_field(&mut self, game: &Game<'_>, root: NodeId) -> usize {
        if let Some(j) = self.field_cache.iter().position(|(r, _)| *r == root) {
            return j;
        }
        self.field_cities(game, root);
        self.field_cache.push((root, self.cities.clone()));
        self.field_cache.len() - 1
    }

    /// The standing of a set on the board.
    fn standing(&mut self, game: &Game<'_>, root: NodeId, owners: [u8; P]) -> Standing {
        let node = game.nodes()[root.index()];
        let mut s = Standing {
            kind: Some(node.kind),
            emblems: u32::from(node.emblems),
            open: node.open as i32,
            owners,
            hold: 1.0,
            ..Standing::default()
        };
        let rule = game.core.tables.feature(node.kind);
        match rule.shape {
            Shape::Region => {
                self.field_cities(game, root);
                let tables = game.core.tables;
                for &c in &self.cities {
                    let city = game.nodes()[c.index()];
                    add_bordered(&mut s, tables, city.kind, node.kind, city.open == 0);
                }
                if rule.unfinished_rates.tile > 0 {
                    s.tiles = self.tiles(game, &[root]);
                }
            }
            Shape::Site => {
                let p = game.core.board.placed[node.tile.index()];
                let range = rule.site_range();
                s.around = (game.core.board).placed_in(i32::from(p.x), i32::from(p.y), range);
            }
            _ => self.walk(game, &[root], &mut s),
        }
        if rule.closes()
            && let Some(d) = game.donkey()
            && node.open > 0
            && self.on_tile(game, root, d)
        {
            s.hold = 0.3;
        }
        s
    }

    /// Whether a set has a member on a tile.
    fn on_tile(&self, game: &Game<'_>, root: NodeId, tile: PlacedId) -> bool {
        let nodes = game.nodes();
        let mut m = root;
        loop {
            if nodes[m.index()].tile == tile {
                return true;
            }
            m = nodes[m.index()].next;
            if m == root {
                return false;
            }
        }
    }

    /// Reads the claimed sets of the board (once per turn).
    fn survey(&mut self, game: &Game<'_>) {
        self.claimed.clear();
        self.field_cache.clear();
        self.read_marks(game);
        let mut owners: Vec<(NodeId, [u8; P])> = Vec::new();
        for f in &game.core.figures {
            if f.kind != FigureKind::Follower {
                continue;
            }
            let r = game.find(f.node);
            let emblems = u32::from(game.core.nodes[r.index()].emblems);
            let strength = game.core.strength(f, emblems).min(u16::from(u8::MAX)) as u8;
            match owners.iter_mut().find(|(root, _)| *root == r) {
                Some((_, o)) => o[f.owner as usize] += strength,
                None => {
                    let mut o = [0; P];
                    o[f.owner as usize] = strength;
                    owners.push((r, o));
                }
            }
        }
        for (root, o) in owners {
            let standing = self.standing(game, root, o);
            let node = game.nodes()[root.index()];
            let p = game.core.board.placed[node.tile.index()];
            let cities = if game.core.tables.feature(node.kind).is_region() {
                self.cities.clone()
            } else {
                Vec::new()
            };
            self.claimed.push(Claimed {
                root,
                standing,
                cities,
                at: (i32::from(p.x), i32::from(p.y)),
            });
        }
    }

    fn item_of(&mut self, game: &Game<'_>, root: NodeId) -> usize {
        if let Some(i) = self.items.iter().position(|it| it.root == root) {
            return i;
        }
        let n = game.nodes()[root.index()];
        let claimed = self
            .claimed
            .iter()
            .position(|c| c.root == root)
            .map_or(NONE, |k| k as u16);
        self.items.push(Item {
            root,
            kind: n.kind,
            open: n.open as i32,
            emblems: u32::from(n.emblems),
            parent: self.items.len() as u16,
            claimed,
        });
        self.items.len() - 1
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.items[i].parent as usize != i {
            let p = self.items[i].parent as usize;
            self.items[i].parent = self.items[p].parent;
            i = p;
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.items[b].parent = a as u16;
        }
    }

    /// Applies the meetings across one side of the placed tile to the items, as `Core::join`
    /// applies them to the nodes: the neighbour `q`'s features at the side become items (in
    /// port order), the ends that close there are taken off, the facing features that join
    /// are merged.
    fn meet(&mut self, game: &Game<'_>, m: Meetings, q: Placed) {
        let theirs = m.theirs.map(|g| match g {
            NO_FEATURE => usize::MAX,
            g => self.item_of(game, game.find(q.node(g))),
        });
        if let Some(f) = m.closes_ours() {
            self.items[usize::from(f)].open -= 1;
        }
        if m.closes_theirs().is_some() {
            self.items[theirs[Meetings::CENTRE]].open -= 1;
        }
        for k in m.joins() {
            self.union(usize::from(m.ours[k]), theirs[k]);
        }
    }
}

/// Values every placement of the drawn tile with each of its deploys and the pass, into
/// `scratch.candidates` (in the order of `legal_moves`).
pub(crate) fn rank_turns(game: &Game<'_>, scratch: &mut Scratch) {
    scratch.candidates.clear();
    let Phase::Place(kind) = game.phase() else {
        return;
    };
    let w = Weights::of(game);
    let me = game.current() as usize;
    let est = &mut scratch.greedy;
    est.survey(game);
    figures_to_try(game, est, &w, me);
    // A rule module may refuse a follower on a set of the board (a field with a barn).
    let filters = game.modules.filters_deploys();
    game.legal_moves(&mut scratch.moves);
    let tables = game.core.tables;
    // A creature arriving with the tile may bar deploys on it (the volcano's dragon).
    let barred = game.modules.bars_deploys_on(tables, kind);
    for &mv in &scratch.moves {
        let Move::Place { x, y, rotation } = mv else {
            continue;
        };
        let (x, y) = (i32::from(x), i32::from(y));
        let orient = tables.orient_of(kind, rotation);
        let o = tables.orient(orient);
        est.items.clear();
        for (i, f) in o.features.iter().enumerate() {
            est.items.push(Item {
                root: LOCAL,
                kind: f.kind,
                open: i32::from(f.open),
                emblems: u32::from(f.emblems),
                parent: i as u16,
                claimed: NONE,
            });
        }
        let cells = game.core.board.neighbours(x, y);
        for side in Side::ALL {
            let cell = cells[side.index()];
            if cell.placed != PlacedId::NONE {
                let q = game.core.board.placed[cell.placed.index()];
                est.meet(game, game.core.play.meetings(orient, side, q.orient), q);
            }
        }
        // The groups the placement makes, by their union-find root item.
        let n = est.items.len();
        // Each item's parent becomes its group: the group of item i is `gid(i)`.
        for i in 0..n {
            let g = est.find(i);
            est.items[i].parent = g as u16;
        }
        let gid = |est: &Board, i: usize| est.items[i].parent as usize;
        let mut before = [0.0; P];
        let mut after = [0.0; P];
        let mut groups = std::mem::take(&mut est.groups);
        groups.clear();
        groups.resize(n, Standing::default());
        for i in 0..n {
            let it = est.items[i];
            let s = &mut groups[gid(est, i)];
            s.kind = Some(it.kind);
            s.open += it.open;
            s.emblems += it.emblems;
            s.hold = 1.0;
            if it.root == LOCAL {
                s.tiles += 1;
                if est.marks_on {
                    est.add_marks(s, &o.features[i].markers);
                }
            }
        }
        // Sets on the board: their standing before, their followers into the group.
        for i in 0..n {
            let it = est.items[i];
            if it.root == LOCAL {
                continue;
            }
            let g = &mut groups[gid(est, i)];
            g.taken |= game.nodes()[it.root.index()].followers > 0
                || (filters && game.deploy_refused(it.root));
            if it.claimed != NONE {
                let c = &est.claimed[it.claimed as usize];
                worth(&c.standing, &w, &mut before);
                for p in 0..P {
                    g.owners[p] += c.standing.owners[p];
                }
            }
        }
        // Tiles of the merged roads and cities (distinct, walking the sets joined).
        let mut members = std::mem::take(&mut est.members);
        for g in 0..n {
            if gid(est, g) != g || !tables.feature(est.items[g].kind).closes() {
                continue;
            }
            members.clear();
            members.extend(
                (0..n)
                    .filter(|&i| est.items[i].root != LOCAL && gid(est, i) == g)
                    .map(|i| est.items[i].root),
            );
            if !members.is_empty() {
                est.walk(game, &members, &mut groups[g]);
            }
        }
        est.members = members;
        // Sites: the tile's own, and claimed ones whose range it is in.
        if let Some(m) = o.site {
            let range = tables.feature(o.features[usize::from(m)].kind).site_range();
            groups[gid(est, m as usize)].around = game.core.board.placed_in(x, y, range) + 1;
        }
        for c in &est.claimed {
            let range = c.standing.kind.and_then(|k| tables.feature(k).range);
            if range.is_some_and(|r| r.contains(x - c.at.0, y - c.at.1)) {
                worth(&c.standing, &w, &mut before);
                let mut s = c.standing;
                s.around += 1;
                worth(&s, &w, &mut after);
            }
        }
        let mut seen = std::mem::take(&mut est.seen);
        placed_regions(game, est, o, &mut groups, &mut seen);
        claimed_regions(game, est, &groups, &w, &mut seen, (&mut before, &mut after));
        est.seen = seen;
        for g in 0..n {
            if gid(est, g) == g {
                worth(&groups[g], &w, &mut after);
            }
        }
        completed_tokens(game, est, &groups, &w, (&mut before, &mut after));
        let mut delta = [0.0; P];
        for p in 0..P {
            delta[p] = after[p] - before[p];
        }
        let pass = relative(&delta, me, w.players);
        scratch.candidates.push(Candidate {
            place: mv,
            action: Move::Pass,
            value: pass,
        });
        if !barred {
            push_deploys(&mut scratch.candidates, est, o, &groups, (mv, pass, me), &w);
        }
        est.groups = groups;
    }
    rank_place_steps(game, scratch);
}

/// Values the place-step moves (a reserve tile instead of the drawn one; declining it after
/// the last tile) into `scratch.candidates`: each tried on a copy with each second step after
/// it, and the whole board valued, as `rank_actions` values a second step. A reserve tile
/// kept is worth nothing to the estimate, so one is placed as soon as placing it pays.
fn rank_place_steps(game: &Game<'_>, scratch: &mut Scratch) {
    let n = game.place_action_count();
    if n == 0 {
        return;
    }
    let me = game.current() as usize;
    let players = game.core.options.players as usize;
    let base = standings(game, &mut scratch.greedy);
    let mut seconds = Vec::new();
    for k in 0..n {
        let Some(mv) = game.nth_place_action(k) else {
            continue;
        };
        let mut copy = game.clone();
        scratch.events.clear();
        if copy.apply(mv, &mut scratch.events).is_err() {
            continue;
        }
        seconds.clear();
        match copy.phase() {
            Phase::Act(placed) => {
                copy.legal_actions(placed, &mut seconds);
            }
            _ => seconds.push(mv),
        }
        for &second in &seconds {
            let mut after = copy.clone();
            if second != mv && after.apply(second, &mut scratch.events).is_err() {
                continue;
            }
            let now = standings(&after, &mut scratch.greedy);
            let mut delta = [0.0; P];
            for q in 0..P {
                delta[q] = now[q] - base[q];
            }
            scratch.candidates.push(Candidate {
                place: mv,
                action: second,
                value: relative(&delta, me, players),
            });
        }
    }
}

/// The figures a deploy may be tried with, each with its strength and worth in the supply:
/// the base follower and the set figures deployed as a follower is (the large follower).
fn figures_to_try(game: &Game<'_>, est: &mut Board, w: &Weights<'_>, me: usize) {
    est.figures.clear();
    if game.core.supply[me] > 0 {
        est.figures.push((FigureId::FOLLOWER, 1, w.follower));
    }
    // The set figures deployed as a follower is (the large follower); the others, with their
    // own `on`, `beside` or power, are tried on a copy of the game (`rank_actions`).
    let kinds = game.core.follower_counts.len();
    for k in 0..kinds {
        let figure = FigureId::set(k);
        if game.core.follower_supply[me * kinds + k] > 0
            && game.core.powers.plain & figure.bit() != 0
        {
            est.figures.push((figure, nominal_strength(game, k), 0.0));
        }
    }
    for f in &mut est.figures {
        f.2 = figure_worth(f.1, w);
    }
}

/// A bordered feature after the placement: whether it is done, an id (its group, or its root
/// beyond `1 << 40`), and its kind.
fn bordered_after(
    game: &Game<'_>,
    est: &Board,
    groups: &[Standing],
    r: NodeId,
) -> (bool, usize, FeatureKindId) {
    let kind = game.nodes()[r.index()].kind;
    match est.items.iter().position(|it| it.root == r) {
        Some(i) => {
            let g = est.items[i].parent as usize;
            (groups[g].open <= 0, g, kind)
        }
        None => (
            game.nodes()[r.index()].open == 0,
            (1 << 40) + r.index(),
            kind,
        ),
    }
}

/// The regions of the placed tile: the features paying them that they border after the
/// placement, into each region's group.
fn placed_regions(
    game: &Game<'_>,
    est: &mut Board,
    o: &Orient,
    groups: &mut [Standing],
    seen: &mut Vec<(usize, bool, FeatureKindId)>,
) {
    let tables = game.core.tables;
    let n = est.items.len();
    let gid = |est: &Board, i: usize| est.items[i].parent as usize;
    for g in 0..n {
        let region = est.items[g].kind;
        if gid(est, g) != g || !tables.feature(region).is_region() {
            continue;
        }
        seen.clear();
        for i in 0..n {
            if gid(est, i) != g {
                continue;
            }
            let it = est.items[i];
            if it.root == LOCAL {
                for &c in &o.features[i].borders {
                    let id = gid(est, c as usize);
                    let kind = est.items[id].kind;
                    if tables.feature(kind).pays(region) > 0 && !seen.iter().any(|&(s, ..)| s == id)
                    {
                        seen.push((id, groups[id].open <= 0, kind));
                    }
                }
                continue;
            }
            let list: &[NodeId] = if it.claimed != NONE {
                &est.claimed[it.claimed as usize].cities
            } else {
                let j = est.cached_field(game, it.root);
                &est.field_cache[j].1
            };
            for &r in list {
                let (d, id, kind) = bordered_after(game, est, groups, r);
                if !seen.iter().any(|&(s, ..)| s == id) {
                    seen.push((id, d, kind));
                }
            }
        }
        let s = &mut groups[g];
        (s.bordered_done, s.bordered_open) = (0.0, 0.0);
        for &(_, done, kind) in seen.iter() {
            add_bordered(s, tables, kind, region, done);
        }
    }
}

/// Claimed regions elsewhere whose bordered features this placement completes: their worth
/// before and after.
fn claimed_regions(
    game: &Game<'_>,
    est: &Board,
    groups: &[Standing],
    w: &Weights<'_>,
    seen: &mut Vec<(usize, bool, FeatureKindId)>,
    (before, after): (&mut [f64; P], &mut [f64; P]),
) {
    let tables = game.core.tables;
    let n = est.items.len();
    let gid = |est: &Board, i: usize| est.items[i].parent as usize;
    let completes_bordered = (0..n).any(|g| {
        let rule = tables.feature(est.items[g].kind);
        gid(est, g) == g && rule.closes() && !rule.bordered.is_empty() && groups[g].open <= 0
    });
    for c in est.claimed.iter().filter(|_| completes_bordered) {
        let Some(region) = c.standing.kind.filter(|&k| tables.feature(k).is_region()) else {
            continue;
        };
        if est.items.iter().any(|it| it.root == c.root) {
            continue;
        }
        seen.clear();
        for &r in &c.cities {
            let (d, id, kind) = bordered_after(game, est, groups, r);
            if !seen.iter().any(|&(s, ..)| s == id) {
                seen.push((id, d, kind));
            }
        }
        let mut s = c.standing;
        (s.bordered_done, s.bordered_open) = (0.0, 0.0);
        for &(_, done, kind) in seen.iter() {
            add_bordered(&mut s, tables, kind, region, done);
        }
        if s.bordered_done != c.standing.bordered_done {
            worth(&c.standing, w, before);
            worth(&s, w, after);
        }
    }
}

/// Tokens of the roads and cities the placement completes, to its player, towards the
/// majorities: their worth before and after.
fn completed_tokens(
    game: &Game<'_>,
    est: &Board,
    groups: &[Standing],
    w: &Weights<'_>,
    (before, after): (&mut [f64; P], &mut [f64; P]),
) {
    let tables = game.core.tables;
    let me = game.current() as usize;
    let n = est.items.len();
    let gid = |est: &Board, i: usize| est.items[i].parent as usize;
    if !est.token_kinds.is_empty() {
        let mut gained = [0u32; TOKENS];
        for g in 0..n {
            if gid(est, g) == g && groups[g].open <= 0 && tables.feature(est.items[g].kind).closes()
            {
                for j in 0..TOKENS {
                    gained[j] += u32::from(groups[g].tokens[j]);
                }
            }
        }
        for (j, &(kind, points)) in est.token_kinds.iter().enumerate() {
            if gained[j] > 0 {
                let mut held = tokens_held(game, kind);
                token_worth(&held, points, w, before);
                held[me] += gained[j];
                token_worth(&held, points, w, after);
            }
        }
    }
}

/// A candidate per claimable feature of the placed tile not yet taken and figure to try, each
/// valued as the pass plus what the figure adds there.
fn push_deploys(
    candidates: &mut Vec<Candidate>,
    est: &Board,
    o: &Orient,
    groups: &[Standing],
    (mv, pass, me): (Move, f64, usize),
    w: &Weights<'_>,
) {
    let tables = w.tables;
    let gid = |est: &Board, i: usize| est.items[i].parent as usize;
    for (i, f) in o.features.iter().enumerate() {
        let s = groups[gid(est, i)];
        if !tables.feature(f.kind).claimable || s.taken {
            continue;
        }
        for &(figure, strength, cost) in &est.figures {
            let mut with = [0.0; P];
            let mut mine = s;
            mine.owners[me] = strength;
            worth(&mine, w, &mut with);
            let mut d = [0.0; P];
            d[me] = with[me] - cost;
            candidates.push(Candidate {
                place: mv,
                action: Move::Deploy {
                    feature: i as u8,
                    figure,
                },
                value: pass + relative(&d, me, w.players),
            });
        }
    }
}

/// The first of the best candidates (the order breaks ties, so choices are deterministic).
pub(crate) fn best(candidates: &[Candidate]) -> Option<Candidate> {
    candidates
        .iter()
        .copied()
        .reduce(|best, c| if c.value > best.value { c } else { best })
}

/// The whole board's standing of each player (scores, claimed sets, followers, and what the
/// modules' pieces on the board are worth: `Game::modules_worth`).
pub(crate) fn standings(game: &Game<'_>, est: &mut Board) -> [f64; P] {
    let w = Weights::of(game);
    est.survey(game);
    let mut out = [0.0; P];
    for (p, &s) in game.core.scores.iter().enumerate() {
        out[p] += f64::from(s);
    }
    let kinds = game.core.follower_counts.len();
    for p in 0..w.players {
        out[p] += f64::from(game.core.supply[p]) * w.follower;
        for k in 0..kinds {
            let n = game.core.follower_supply[p * kinds + k];
            if n > 0 {
                out[p] += f64::from(n) * figure_worth(nominal_strength(game, k), &w);
            }
        }
    }
    for c in &est.claimed {
        worth(&c.standing, &w, &mut out);
    }
    for &(kind, points) in &est.token_kinds {
        token_worth(&tokens_held(game, kind), points, &w, &mut out);
    }
    if game.core.powers.special != 0 {
        powers_worth(game, est, &w, &mut out);
    }
    let nodes = game.nodes();
    let bordered = |root: NodeId| {
        est.field_cities(game, root);
        (est.cities.iter()).fold((0, 0), |(d, o), r| match nodes[r.index()].open {
            0 => (d + 1, o),
            _ => (d, o + 1),
        })
    };
    game.modules_worth(w.time, bordered, &mut out);
    out
}

/// The value to the player who moves of each second-step move (or choice after the turn) in
/// `moves`, each tried on a copy.
pub(crate) fn rank_actions(game: &Game<'_>, moves: &[Move], scratch: &mut Scratch) {
    scratch.candidates.clear();
    let (Phase::Act(placed) | Phase::Choose { placed, .. }) = game.phase() else {
        return;
    };
    let me = game.to_move() as usize;
    let players = game.core.options.players as usize;
    let p = game.core.board.placed[placed.index()];
    let place = Move::Place {
        x: p.x,
        y: p.y,
        rotation: game.core.tables.orient(p.orient).rotation,
    };
    let base = standings(game, &mut scratch.greedy);
    for &mv in moves {
        let mut copy = game.clone();
        scratch.events.clear();
        if copy.apply(mv, &mut scratch.events).is_err() {
            continue;
        }
        let now = standings(&copy, &mut scratch.greedy);
        let mut delta = [0.0; P];
        for q in 0..P {
            delta[q] = now[q] - base[q];
        }
        scratch.candidates.push(Candidate {
            place,
            action: mv,
            value: relative(&delta, me, players),
        });
    }
}
