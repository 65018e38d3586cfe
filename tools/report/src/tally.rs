//! What a report gathers from each game, read from the game's events (`Placed`, `SetAside`,
//! `Scored`), its final scores and its own sums (`Game::stats`: points by source, figures
//! deployed, tiles set aside, the sums `simulate` adds up and prints, so the two never reckon
//! apart): the engine's rules stay the engine's, and any player the simulator plays is
//! reported the same way.
//!
//! **The credit rule.** Every point of a scoring (the majority's base points, each flower and
//! marketplace-network bonus) is split equally among the distinct tiles of the scored feature,
//! as the engine lists them in `Score::tiles` (a road's or city's tiles, a field's tiles, a
//! monastery's own tile, a windmill's placed range tiles); a token majority's points go to the
//! placements that took the scoring player's tokens of that kind, by count. A tile's credit *at once* is what
//! it earns from the scorings of its own turn; its credit *by the end* is everything it earns,
//! in later turns and in the final scoring included. Summed over the tiles of a game (the
//! start tile included), the credit is the game's points. A placement *completed a feature*
//! when a complete feature (road, city, monastery, windmill) scored in its turn: features that
//! close with no follower on them do not score and leave no event, so they are not counted.
//! A tile is *drawn* by the seat whose turn it is, whether it is placed or set aside.

use crate::stats::{Moments, Ratio};
use engine::rules::{BonusKind, ModuleEvent, RULE_SOURCES, RuleSource};
use engine::simulate::Collect;
use engine::tables::MAX_FEATURE_KINDS;
use engine::{Event, FeatureKindId, Game, Score, Scored, Tables};

/// Where points come from: a feature kind's base points, or a bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The base points of a feature kind (wells taken out).
    Kind(FeatureKindId),
    /// What a rule module paid outside a feature's own scoring (`engine::rules::RULE_SOURCES`:
    /// flowers, windmills, marketplace networks).
    Rule(RuleSource),
    /// What markers' scoring modifiers added (wells, inns, cathedrals, an author's own).
    Modifiers,
    /// Token majorities at the end (Traders & Builders' goods).
    Tokens,
    /// What figures' bonuses added (the pig's).
    Figures,
}

/// How many sources a credit array holds: one per possible feature kind, the figures'
/// bonuses, one per rule source, the modifiers and the tokens.
pub const SOURCES: usize = MAX_FEATURE_KINDS + RULE_SOURCES.len() + 3;

impl Source {
    /// Every source of these tables, in report order: the kinds a figure may stand on (in
    /// declaration order), then the bonuses: the figures', the rule sources' (in the
    /// registry's order), the modifiers', the tokens'.
    pub fn all(tables: &Tables) -> Vec<Source> {
        let takeable = tables.takeable();
        (tables.features.iter().enumerate())
            .filter(|(k, _)| takeable >> k & 1 != 0)
            .map(|(k, _)| Source::Kind(FeatureKindId(k as u8)))
            .chain([Source::Figures])
            .chain(RuleSource::all().map(Source::Rule))
            .chain([Source::Modifiers, Source::Tokens])
            .collect()
    }

    /// Its slot in a credit array (`[f64; SOURCES]`).
    pub fn index(self) -> usize {
        let rules = MAX_FEATURE_KINDS + 1;
        match self {
            Source::Kind(k) => k.index(),
            Source::Figures => MAX_FEATURE_KINDS,
            Source::Rule(source) => rules + source.index(),
            Source::Modifiers => rules + RULE_SOURCES.len(),
            Source::Tokens => rules + RULE_SOURCES.len() + 1,
        }
    }

    /// Its name in reports: a kind's plural (`cities`), or the bonus.
    pub fn name(self, tables: &Tables) -> &str {
        match self {
            Source::Kind(k) => &tables.feature(k).plural,
            Source::Rule(source) => source.info().name,
            Source::Modifiers => "marker modifiers",
            Source::Tokens => "token majorities",
            Source::Figures => "figure bonuses",
        }
    }

    fn of(scored: Scored) -> Source {
        match scored {
            Scored::Feature(k) => Source::Kind(k),
            Scored::Rule(source) => Source::Rule(source),
            // What a figure at a corner pays (the barn) is a figure's bonus.
            Scored::Corner { .. } => Source::Figures,
            Scored::Creature(_) => Source::Figures,
        }
    }
}

/// A scoring's points by source, all players together. What markers' modifiers added goes to
/// `Modifiers`; what they took away (an inn's road left unfinished) is simply not scored, so the
/// feature's own source keeps the points it paid, never less than nothing.
pub fn points_by_source(s: &Score) -> [u64; SOURCES] {
    let mut out = [0u64; SOURCES];
    let winners = s.players.len() as u64;
    let added: u64 = s.modifiers.iter().map(|m| m.points.max(0) as u64).sum();
    let added = added.min(u64::from(s.points)) * winners;
    let base = u64::from(s.points) * winners;
    out[Source::of(s.kind).index()] += base - added;
    out[Source::Modifiers.index()] += added;
    for source in RuleSource::all() {
        out[Source::Rule(source).index()] += (source.info().beside)(s);
    }
    out[Source::Figures.index()] += (s.bonuses.iter())
        .filter(|b| b.kind() == BonusKind::Figure)
        .map(|b| u64::from(b.points))
        .sum::<u64>();
    out
}

/// One placed tile of a game, with its credit.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedCredit {
    /// Its tile kind (index into `Tables::kinds`).
    pub kind: u16,
    /// The seat that placed it (None: the start tile).
    pub seat: Option<u8>,
    /// Credit from the scorings of its own turn.
    pub at_once: f64,
    /// All its credit by the end of the game.
    pub by_end: f64,
    /// Its credit by source.
    pub by_source: [f64; SOURCES],
    /// Whether a complete feature scored in its turn.
    pub completed: bool,
}

/// The credit of every placed tile of a finished game (index = `Board::placed` index, 0 the
/// start tile), by the credit rule of this module.
pub fn credit(game: &Game<'_>, events: &[Event]) -> Vec<PlacedCredit> {
    let tables = game.tables();
    let mut placed: Vec<PlacedCredit> = game
        .board()
        .placed
        .iter()
        .map(|p| PlacedCredit {
            kind: tables.orient(p.orient).kind,
            seat: None,
            at_once: 0.0,
            by_end: 0.0,
            by_source: [0.0; SOURCES],
            completed: false,
        })
        .collect();
    let mut turn = 0usize;
    // Who took which tokens in which turn: (marker, player, turn, count).
    let mut awards: Vec<(&str, u8, usize, u32)> = Vec::new();
    for e in events {
        match e {
            Event::Module(ModuleEvent::Tokens {
                player,
                marker,
                count,
            }) => awards.push((marker, *player, turn, *count)),
            Event::Module(ModuleEvent::TokenMajority {
                marker,
                players,
                points,
                ..
            }) => {
                // A majority's points go to the placements that took its tokens, by count.
                for &p in players {
                    let mine: Vec<(usize, u32)> = awards
                        .iter()
                        .filter(|a| a.0 == marker && a.1 == p)
                        .map(|a| (a.2, a.3))
                        .collect();
                    let n: u32 = mine.iter().map(|a| a.1).sum();
                    for (t, c) in mine {
                        if let Some(tile) = placed.get_mut(t) {
                            let got = f64::from(*points) * f64::from(c) / f64::from(n.max(1));
                            tile.by_end += got;
                            tile.by_source[Source::Tokens.index()] += got;
                        }
                    }
                }
            }
            Event::Placed { player, .. } => {
                turn += 1;
                if let Some(p) = placed.get_mut(turn) {
                    p.seat = Some(*player);
                }
            }
            Event::Scored(s) => {
                let parts = points_by_source(s);
                let total: u64 = parts.iter().sum();
                let in_play = !s.is_final();
                if in_play && let Some(p) = placed.get_mut(turn) {
                    p.completed = true;
                }
                if total == 0 {
                    continue;
                }
                let tiles: Vec<usize> = s
                    .tiles
                    .iter()
                    .filter_map(|&(x, y)| index_at(game, x, y))
                    .collect();
                // A scoring with no tile listed (none does today) is credited where it is.
                let tiles = if tiles.is_empty() {
                    index_at(game, s.at.0, s.at.1).into_iter().collect()
                } else {
                    tiles
                };
                let share = 1.0 / tiles.len().max(1) as f64;
                for &t in &tiles {
                    let p = &mut placed[t];
                    let got = total as f64 * share;
                    p.by_end += got;
                    if in_play && t == turn {
                        p.at_once += got;
                    }
                    for (a, &b) in p.by_source.iter_mut().zip(&parts) {
                        *a += b as f64 * share;
                    }
                }
            }
            _ => {}
        }
    }
    placed
}

fn index_at(game: &Game<'_>, x: i16, y: i16) -> Option<usize> {
    let cell = game.board().cell(i32::from(x), i32::from(y));
    (cell.placed != engine::PlacedId::NONE).then_some(cell.placed.index())
}

/// Each seat's share of the win: 1 / winners for each seat with the best score, else 0.
pub fn win_shares(scores: &[u32]) -> Vec<f64> {
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners = scores.iter().filter(|&&s| s == best).count().max(1);
    scores
        .iter()
        .map(|&s| if s == best { 1.0 / winners as f64 } else { 0.0 })
        .collect()
}

/// Sums per tile kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KindTally {
    /// Times drawn (placed or set aside).
    pub drawn: u64,
    /// Times placed.
    pub placed: u64,
    /// Set aside per draw, per game.
    pub set_aside: Ratio,
    /// Credit at once per placement, per game.
    pub at_once: Ratio,
    /// Credit by the end per placement, per game.
    pub by_end: Ratio,
    /// Completions per placement, per game.
    pub completed: Ratio,
    /// Games in which one seat drew more copies (placed or set aside) than any other.
    pub lead_games: u64,
    /// That seat's win shares in those games.
    pub lead_wins: f64,
    /// Copies drawn by each seat, all games (a tile drawn in a fixed order goes to one seat).
    pub by_seat: Vec<u64>,
    /// Games in which at least one copy was set aside.
    pub games_set_aside: u64,
}

/// Sums per seat.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatTally {
    /// Final score per game.
    pub score: Moments,
    /// Win share per game (shared wins split).
    pub win: Moments,
    /// Games by final score (index = score).
    pub histogram: Vec<u64>,
}

/// Everything a report gathers, game by game (see the module doc for the credit rule).
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Per tile kind (indexed like `Tables::kinds`).
    pub kinds: Vec<KindTally>,
    /// Per seat.
    pub seats: Vec<SeatTally>,
    /// Credit per set (indexed like `Tables::sets`) and source, all games.
    pub set_points: Vec<[f64; SOURCES]>,
    /// Credit of the start tile, all games (also in `set_points`).
    pub start_credit: f64,
    /// The start tile's kind, and its credit by the end per game.
    pub start: Option<(u16, Moments)>,
    /// Points per game, all players together.
    pub points: Moments,
    /// Points per game by source (all sets), named and reckoned as `simulate` prints them
    /// (`engine::GameStats::points_by_source`): each marker kind's modifier and tokens apart.
    pub source_points: Vec<(String, Moments)>,
    /// Figures deployed per game, by figure id (`Tables::figure_id`, in `engine::FigureId::index`
    /// order: `follower`, then the sets' figures), from `GameStats::deployed`.
    pub deployments: Vec<(String, Moments)>,
    /// Per figure (indexed like `deployments`): the games it was dealt in, and those of them
    /// in which some seat deployed it at least once.
    pub figure_games: Vec<FigureGames>,
    /// The rule modules' moves per game and the points credited to them, by the registry's
    /// name (`engine::rules::ACTIONS` order), from `GameStats::actions` and `action_points`.
    pub actions: Vec<(String, Moments, Moments)>,
    /// Per flower colour (indexed like `Tables::colours`): the final score and win share of
    /// the player dealt it, per game it was dealt in (Village Life's flower bonus).
    pub colours: Vec<SeatTally>,
    /// Tiles placed per game (start tile excluded).
    pub tiles_placed: Moments,
    /// Tiles set aside per game.
    pub set_aside: Moments,
    /// Whether every game's credit added up to its points (a defect of the credit rule if not).
    pub credit_balanced: bool,
}

/// In how many games a figure was dealt, and deployed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FigureGames {
    /// Games in which each player had it (its set has a tile in the game).
    pub dealt: u64,
    /// Those of them in which it was deployed at least once.
    pub deployed: u64,
}

/// One game's sums for one tile kind.
#[derive(Clone, Default)]
struct GameKind {
    set_aside: f64,
    drawn: f64,
    at_once: f64,
    by_end: f64,
    completed: f64,
    by_seat: [u32; engine::game::MAX_PLAYERS as usize],
}

impl Tally {
    /// An empty tally for games of `players` players with these tables.
    pub fn new(tables: &Tables, players: u8) -> Tally {
        Tally {
            games: 0,
            kinds: vec![KindTally::default(); tables.kinds.len()],
            seats: vec![SeatTally::default(); players as usize],
            set_points: vec![[0.0; SOURCES]; tables.sets.len()],
            start_credit: 0.0,
            start: None,
            points: Moments::default(),
            source_points: (engine::game::GameStats::default().points_by_source(tables))
                .into_iter()
                .map(|(name, _)| (name, Moments::default()))
                .collect(),
            colours: vec![SeatTally::default(); tables.colours.len()],
            deployments: (0..=tables.followers.len())
                .map(|i| {
                    tables
                        .figure_id(engine::FigureId::from_index(i))
                        .to_string()
                })
                .map(|id| (id, Moments::default()))
                .collect(),
            figure_games: vec![FigureGames::default(); tables.followers.len() + 1],
            actions: (engine::rules::ActionId::all())
                .map(|a| {
                    (
                        a.info().name.to_string(),
                        Moments::default(),
                        Moments::default(),
                    )
                })
                .collect(),
            tiles_placed: Moments::default(),
            set_aside: Moments::default(),
            credit_balanced: true,
        }
    }
}

impl Collect for Tally {
    fn add(&mut self, game: &Game<'_>, events: &[Event]) {
        let tables = game.tables();
        self.games += 1;
        let placed = credit(game, events);
        let mut here = vec![GameKind::default(); tables.kinds.len()];
        // A tile set aside was drawn by the seat whose turn it is: the next one to place a
        // tile (read backwards), or after the last placer when no tile follows.
        let players = game.scores().len().max(1);
        let mut next_seat = events
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::Placed { player, .. } => Some((*player as usize + 1) % players),
                _ => None,
            })
            .unwrap_or(0);
        for e in events.iter().rev() {
            match e {
                Event::Placed { player, .. } => next_seat = *player as usize,
                Event::SetAside { kind } => {
                    let k = &mut here[kind.index()];
                    k.set_aside += 1.0;
                    k.drawn += 1.0;
                    k.by_seat[next_seat] += 1;
                }
                _ => {}
            }
        }
        let mut credit_sum = 0.0;
        for (i, p) in placed.iter().enumerate() {
            credit_sum += p.by_end;
            let set = tables.kinds[p.kind as usize].set as usize;
            for (a, b) in self.set_points[set].iter_mut().zip(&p.by_source) {
                *a += b;
            }
            let Some(seat) = p.seat else {
                if i == 0 {
                    self.start_credit += p.by_end;
                    let (_, credit) = self.start.get_or_insert((p.kind, Moments::default()));
                    credit.add(p.by_end);
                }
                continue;
            };
            let k = &mut here[p.kind as usize];
            k.drawn += 1.0;
            k.at_once += p.at_once;
            k.by_end += p.by_end;
            k.completed += f64::from(u8::from(p.completed));
            k.by_seat[seat as usize] += 1;
        }
        let wins = win_shares(game.scores());
        for (t, k) in self.kinds.iter_mut().zip(&here) {
            let copies = k.drawn - k.set_aside;
            t.drawn += k.drawn as u64;
            t.placed += copies as u64;
            t.set_aside.add(k.set_aside, k.drawn);
            t.games_set_aside += u64::from(k.set_aside > 0.0);
            t.at_once.add(k.at_once, copies);
            t.by_end.add(k.by_end, copies);
            t.completed.add(k.completed, copies);
            if k.drawn > 0.0 {
                t.by_seat.resize(wins.len(), 0);
                for (a, &b) in t.by_seat.iter_mut().zip(&k.by_seat) {
                    *a += u64::from(b);
                }
            }
            let most = k.by_seat.iter().copied().max().unwrap_or(0);
            let leaders: Vec<usize> = (0..wins.len()).filter(|&p| k.by_seat[p] == most).collect();
            if most > 0 && leaders.len() == 1 {
                t.lead_games += 1;
                t.lead_wins += wins[leaders[0]];
            }
        }
        for (&colour, (&score, &win)) in game.colours().iter().zip(game.scores().iter().zip(&wins))
        {
            if let Some(c) = self.colours.get_mut(usize::from(colour)) {
                c.score.add(f64::from(score));
                c.win.add(win);
            }
        }
        let mut total = 0u64;
        for (p, &score) in game.scores().iter().enumerate() {
            let seat = &mut self.seats[p];
            seat.score.add(f64::from(score));
            seat.win.add(wins[p]);
            let s = score as usize;
            if seat.histogram.len() <= s {
                seat.histogram.resize(s + 1, 0);
            }
            seat.histogram[s] += 1;
            total += u64::from(score);
        }
        let by_source = game.stats().source_points(tables);
        for ((_, m), v) in self.source_points.iter_mut().zip(by_source) {
            m.add(v as f64);
        }
        // The game's own counts, the sums `simulate` prints: one reckoning for both.
        let deployed = &game.stats().deployed;
        for (i, (_, m)) in self.deployments.iter_mut().enumerate() {
            m.add(deployed.get(i).copied().unwrap_or(0) as f64);
        }
        let stats = game.stats();
        for (i, (_, made, paid)) in self.actions.iter_mut().enumerate() {
            made.add(stats.actions.get(i).copied().unwrap_or(0) as f64);
            paid.add(stats.action_points.get(i).copied().unwrap_or(0) as f64);
        }
        let counts = game.follower_counts();
        for (i, g) in self.figure_games.iter_mut().enumerate() {
            // Index 0 is the base follower, dealt in every game; set figure k is index k + 1.
            let dealt = i == 0 || counts.get(i - 1).is_some_and(|&n| n > 0);
            if dealt {
                g.dealt += 1;
                g.deployed += u64::from(deployed.get(i).is_some_and(|&n| n > 0));
            }
        }
        self.points.add(total as f64);
        self.tiles_placed.add((placed.len() - 1) as f64);
        self.set_aside.add(game.stats().set_aside as f64);
        if (credit_sum - total as f64).abs() > 1e-6 * (1.0 + total as f64) {
            self.credit_balanced = false;
        }
    }

    fn merge(&mut self, later: Tally) {
        self.games += later.games;
        for (a, b) in self.kinds.iter_mut().zip(&later.kinds) {
            a.drawn += b.drawn;
            a.placed += b.placed;
            a.set_aside.merge(&b.set_aside);
            a.at_once.merge(&b.at_once);
            a.by_end.merge(&b.by_end);
            a.completed.merge(&b.completed);
            a.lead_games += b.lead_games;
            a.lead_wins += b.lead_wins;
            a.games_set_aside += b.games_set_aside;
            if a.by_seat.len() < b.by_seat.len() {
                a.by_seat.resize(b.by_seat.len(), 0);
            }
            for (x, y) in a.by_seat.iter_mut().zip(&b.by_seat) {
                *x += y;
            }
        }
        for (a, b) in self.seats.iter_mut().zip(&later.seats) {
            a.score.merge(&b.score);
            a.win.merge(&b.win);
            if a.histogram.len() < b.histogram.len() {
                a.histogram.resize(b.histogram.len(), 0);
            }
            for (x, y) in a.histogram.iter_mut().zip(&b.histogram) {
                *x += y;
            }
        }
        for (a, b) in self.set_points.iter_mut().zip(&later.set_points) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.start_credit += later.start_credit;
        match (&mut self.start, later.start) {
            (Some((_, a)), Some((_, b))) => a.merge(&b),
            (start @ None, later) => *start = later,
            (Some(_), None) => {}
        }
        self.points.merge(&later.points);
        for ((_, a), (_, b)) in self.source_points.iter_mut().zip(&later.source_points) {
            a.merge(b);
        }
        for ((_, a), (_, b)) in self.deployments.iter_mut().zip(&later.deployments) {
            a.merge(b);
        }
        for ((_, a, c), (_, b, d)) in self.actions.iter_mut().zip(&later.actions) {
            a.merge(b);
            c.merge(d);
        }
        for (a, b) in self.figure_games.iter_mut().zip(&later.figure_games) {
            a.dealt += b.dealt;
            a.deployed += b.deployed;
        }
        for (a, b) in self.colours.iter_mut().zip(&later.colours) {
            a.score.merge(&b.score);
            a.win.merge(&b.win);
        }
        self.tiles_placed.merge(&later.tiles_placed);
        self.set_aside.merge(&later.set_aside);
        self.credit_balanced &= later.credit_balanced;
    }
}
