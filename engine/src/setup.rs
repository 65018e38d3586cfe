//! A game's setup: the start tile, the draw before its shuffle, the rules, marker kinds and
//! follower kinds in play — everything a game's start needs that its seed does not change.
//!
//! A simulation run prepares it once and starts each game from it with that game's seed
//! (`Setup::game`): a game's start then costs its shuffle and its first tile, not a walk of the
//! sets' tile kinds. `Game::new` is the two steps in one. What is in play follows the whole
//! draw, not the part a `tiles` cut plays, so it is the same for every seed.

use crate::draw::Prepared;
use crate::ids::KindId;
use crate::options::{Draw, GameOptions, MAX_PLAYERS, Rules, SetupError};
use crate::placements::Placements;
use crate::rules::{Colours, MarkerModules, Modules, rules_in_play};
use crate::scoring::{MarkersInPlay, markers_in_play};
use crate::state::{Core, Event, Game, GameStats, Phase, PlayTables, Powers, Scratch, Source};
use crate::tables::Tables;
use std::sync::Arc;

/// What every game of one set of options starts from, whatever its seed.
#[derive(Clone, Debug)]
pub struct Setup<'t> {
    tables: &'t Tables,
    options: GameOptions,
    draw: Prepared,
    rules: Arc<Rules>,
    colours: Colours,
    markers: Arc<MarkersInPlay>,
    /// The rule modules the marker kinds of the draw bring.
    marker_modules: MarkerModules,
    /// Per follower kind of the tables: how many each player has (0 when its set has no tile
    /// in the game).
    follower_counts: Vec<u8>,
    /// Feature nodes a game needs at most (its tiles' features).
    nodes: usize,
    play: Arc<PlayTables>,
}

impl<'t> Setup<'t> {
    /// Prepares the games of `options` (its seed, if any, is not read: each game gives its own).
    pub fn new(tables: &'t Tables, options: GameOptions) -> Result<Setup<'t>, SetupError> {
        if options.players == 0 || options.players > MAX_PLAYERS {
            return Err(SetupError::Players(options.players));
        }
        check_rule_options(tables, &options.rules)?;
        let draw = crate::draw::prepare(tables, &options)?;
        let whole = || std::iter::once(draw.start).chain(draw.bag.iter().copied());
        let (rules, dealt) = rules_in_play(tables, &options, draw.start, &draw.bag);
        let colours = Colours::of(tables, &options, &rules, dealt)?;
        let markers = markers_in_play(tables, &rules, whole());
        let marker_modules = MarkerModules::of(tables, whole());
        let follower_counts = figures_dealt(tables, &options, &rules, whole())?;
        let mut rules = rules;
        rules.figures = (tables.followers.iter().zip(&follower_counts))
            .filter(|&(_, &n)| n > 0)
            .map(|(f, &n)| (f.id.clone(), n))
            .collect();
        one_per_game(tables, &rules)?;
        rules.corner = corner_dealt(tables, &options, &rules);
        if let Some((k, n)) = rules.corner {
            let id = tables.corner_figures[usize::from(k)].id.clone();
            rules.figures.push((id, n));
        }
        // Every orientation of a kind has its features; a cut plays at most its number of tiles.
        let features = |k: KindId| {
            let first = tables.kind(k).orients[0];
            tables.orients[usize::from(first)].features.len()
        };
        let mut nodes: usize = whole().map(features).sum();
        if let Some(tiles) = options.tiles {
            nodes = nodes.min(tiles.max(1) * whole().map(features).max().unwrap_or(0));
        }
        Ok(Setup {
            tables,
            options,
            draw,
            rules: Arc::new(rules),
            colours,
            markers: Arc::new(markers),
            marker_modules,
            follower_counts,
            nodes,
            play: Arc::new(PlayTables::new(tables)),
        })
    }

    /// The options, with the seed (if any) they were given.
    pub fn options(&self) -> &GameOptions {
        &self.options
    }

    /// The rules every game of this setup plays.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// By `GameStats::sources`: whether a game of this setup can pay from each source (a
    /// feature kind or a good on a tile of the whole draw, a figure or creature dealt, a rule
    /// module in play, a marker kind's modifier in play). `simulate` names the sources that
    /// paid nothing among these only.
    pub fn sources_in_play(&self) -> Vec<bool> {
        let kinds = self.kinds_in_draw();
        (GameStats::sources(self.tables).into_iter())
            .map(|source| self.plays(source, &kinds))
            .collect()
    }

    /// Whether a game of this setup can pay from `source`, its whole draw holding the tile
    /// kinds marked in `kinds` (`kinds_in_draw`).
    fn plays(&self, source: Source, kinds: &[bool]) -> bool {
        let tables = self.tables;
        let features = || {
            (tables.kinds.iter().zip(kinds))
                .filter(|&(_, &used)| used)
                .flat_map(|(kind, _)| &tables.orients[usize::from(kind.orients[0])].features)
        };
        match source {
            Source::Kind(kind) => features().any(|f| f.kind == kind),
            Source::Figure(k) => self.follower_counts.get(k).is_some_and(|&n| n > 0),
            Source::Corner(k) => (self.rules.corner).is_some_and(|(c, _)| usize::from(c) == k),
            Source::Creature(c) => crate::rules::creature_in_play(tables, &self.rules.sets, c),
            Source::Rule(rule) => (rule.info().in_play)(tables, &self.rules, kinds),
            Source::Modifier(m) => self.markers.scoring_on.get(m) == Some(&true),
            Source::Good(m) => features().any(|f| {
                (f.markers.iter()).any(|&k| {
                    let k = usize::from(k);
                    crate::rules::good_of(tables, k).is_some()
                        && crate::rules::good_slot(tables, k) == m
                })
            }),
        }
    }

    /// By `KindId`: whether the tile kind is in the whole draw (the start tile, the bag before
    /// a `tiles` cut, the tile held in reserve).
    fn kinds_in_draw(&self) -> Vec<bool> {
        let mut kinds = vec![false; self.tables.kinds.len()];
        let reserve = (self.rules.modules.reserve_kind).filter(|_| self.rules.modules.reserve > 0);
        let whole = std::iter::once(self.draw.start).chain(self.draw.bag.iter().copied());
        for k in whole.chain(reserve.map(KindId)) {
            kinds[k.index()] = true;
        }
        kinds
    }

    /// Starts a game: the draw shuffled with `seed` (a fixed draw order is played as written
    /// and ignores it), the start tile placed and the first tile drawn.
    pub fn game(&self, seed: u64, events: &mut Vec<Event>) -> Game<'t> {
        let tables = self.tables;
        let mut options = self.options.clone();
        let seeded = match options.draw {
            Draw::Seed(_) => {
                options.draw = Draw::Seed(seed);
                Some(seed)
            }
            Draw::Order(_) => None,
        };
        let cut = options.tiles.map(|tiles| tiles.saturating_sub(1));
        let bag = self.draw.shuffled(seed, cut);
        let players = options.players as usize;
        // The draw, the start tile and the tiles the players hold in reserve.
        let tiles = bag.len() + 1 + usize::from(self.rules.modules.reserve) * players;
        let colours = self.colours.for_game(players, seeded);
        let markers = self.tables.markers.len();
        let follower_kinds = self.follower_counts.iter().any(|&n| n > 0);
        let powers = Powers::new(tables, &self.follower_counts);
        // One expression, built in place: parts bound first would each be copied into it.
        let mut game = Game {
            core: Core {
                tables,
                play: Arc::clone(&self.play),
                closes: self.play.closes,
                board: crate::board::Board::new(tiles),
                nodes: Vec::with_capacity(self.nodes),
                figures: Vec::with_capacity(players * options.rules.followers as usize),
                supply: vec![options.rules.followers; players],
                follower_supply: (0..players)
                    .flat_map(|_| self.follower_counts.iter().copied())
                    .collect(),
                follower_counts: self.follower_counts.clone(),
                follower_kinds,
                powers,
                scores: vec![0; players],
                bag,
                next_draw: 0,
                current: 0,
                phase: Phase::Over,
                set_aside: Vec::new(),
                stats: GameStats {
                    points_by_kind: vec![0; self.tables.features.len()],
                    rule_points: vec![0; crate::rules::RULE_SOURCES.len()],
                    modifier_points: vec![0; self.tables.features.len()],
                    marker_points: vec![0; markers],
                    good_points: vec![0; markers],
                    // By `FigureId::index`: the base follower, then each set figure.
                    deployed: vec![0; self.tables.followers.len() + 1],
                    figure_points: vec![0; self.tables.followers.len()],
                    recalls: vec![0; self.tables.followers.len()],
                    actions: vec![0; crate::rules::ACTIONS.len()],
                    corner_points: vec![0; self.tables.corner_figures.len()],
                    ..GameStats::default()
                },
                rules: Arc::clone(&self.rules),
                site_followers: 0,
                markers: Arc::clone(&self.markers),
                start: self.draw.start,
                options,
            },
            scratch: Scratch::new(tiles),
            place: Placements::new(),
            modules: Modules::new(
                self.tables,
                &self.rules,
                players,
                colours,
                self.markers.counted.then_some(markers),
                &powers,
                &self.marker_modules,
            ),
        };
        game.put(0, 0, tables.orient_of(self.draw.start, 0));
        game.draw_next(events);
        game
    }
}

/// How many of each set figure every player has: the options' count for it if they give one;
/// else its count when a set that declares it has a tile in the game and, for a figure dealt
/// with a feature kind (the abbot with gardens), a tile of the draw has such a feature; else 0.
fn figures_dealt(
    tables: &Tables,
    options: &GameOptions,
    rules: &Rules,
    draw: impl Iterator<Item = KindId>,
) -> Result<Vec<u8>, SetupError> {
    check_figures(tables, &options.rules)?;
    // The feature kinds on the draw's tiles (a kind's orientations share their features).
    let mut kinds_drawn = 0u32;
    if tables.followers.iter().any(|f| f.dealt_with.is_some()) {
        for k in draw {
            let first = tables.kind(k).orients[0];
            for f in &tables.orients[usize::from(first)].features {
                kinds_drawn |= f.kind.bit();
            }
        }
    }
    Ok((tables.followers.iter())
        .map(|f| {
            let in_game = |s: &u16| rules.sets.contains(&tables.sets[usize::from(*s)]);
            let mut declared = std::iter::once(&f.set).chain(&f.also);
            // A count the options give deals the figure whatever the draw holds.
            if let Some(&n) = options.rules.figures.get(&f.id) {
                return n;
            }
            let dealt = f.dealt_with.is_none_or(|k| kinds_drawn & k.bit() != 0);
            if declared.any(in_game) && dealt {
                f.count
            } else {
                0
            }
        })
        .collect())
}

/// The figure placed at a corner a game plays (`Tables::corner_figures` index) and how many
/// each player has: the first declared by a set of the game, its count as the options give it;
/// None when there is none or its count is 0.
fn corner_dealt(tables: &Tables, options: &GameOptions, rules: &Rules) -> Option<(u8, u8)> {
    let in_game: Vec<bool> = (tables.sets.iter())
        .map(|s| rules.sets.contains(s))
        .collect();
    let (k, f) = (tables.corner_figures.iter().enumerate()).find(|(_, f)| f.in_game(&in_game))?;
    let n = options.rules.figures.get(&f.id).copied().unwrap_or(f.count);
    (n > 0).then_some((k as u8, n))
}

/// Refuses a game whose sets declare two of what a game plays one of (a figure placed at a
/// corner, a reserve tile, a guarding creature), rather than playing the first and leaving
/// the other out unsaid.
fn one_per_game(tables: &Tables, rules: &Rules) -> Result<(), SetupError> {
    let in_game: Vec<bool> = (tables.sets.iter())
        .map(|s| rules.sets.contains(s))
        .collect();
    let set_in_game = |set: u16| in_game.get(usize::from(set)).copied().unwrap_or(false);
    let corner = (tables.corner_figures.iter())
        .filter(|f| f.in_game(&in_game))
        .map(|f| f.id.as_str());
    let reserve = (tables.kinds.iter())
        .filter(|k| k.reserve.is_some() && set_in_game(k.set))
        .map(|k| k.id.as_str());
    let guards = (tables.creatures.iter())
        .filter(|c| c.guards.is_some() && set_in_game(c.set))
        .map(|c| c.id.as_str());
    let kinds: [(&'static str, Vec<&str>); 3] = [
        ("figures placed at a corner", corner.collect()),
        ("reserve tiles", reserve.collect()),
        ("guarding creatures", guards.collect()),
    ];
    match kinds.into_iter().find(|(_, ids)| ids.len() > 1) {
        Some((what, ids)) => Err(SetupError::OnePerGame {
            what,
            count: ids.len(),
            ids: ids.join(", "),
        }),
        None => Ok(()),
    }
}

/// Refuses a figure count given for a figure the tables do not declare, or above what a set
/// may declare.
fn check_figures(tables: &Tables, rules: &crate::options::RuleOptions) -> Result<(), SetupError> {
    let known = || {
        let followers = tables.followers.iter().map(|f| f.id.as_str());
        followers.chain(tables.corner_figures.iter().map(|f| f.id.as_str()))
    };
    if let Some(name) = (rules.figures.keys()).find(|name| !known().any(|id| id == name.as_str())) {
        let known: Vec<&str> = known().collect();
        return Err(SetupError::UnknownFigure {
            name: name.clone(),
            known: known.join(", "),
        });
    }
    if let Some((name, &count)) =
        (rules.figures.iter()).find(|&(_, &n)| u32::from(n) > tiledef::model::MAX_FIGURES)
    {
        return Err(SetupError::FigureCount {
            name: name.clone(),
            count,
        });
    }
    Ok(())
}

/// The names in rule options that setup refuses, checked alone: options switched on and figure
/// counts the tables do not know. An edge checks what a person typed with it apart from a
/// record's own rules, to say whose mistake it is.
pub fn check_rule_names(
    tables: &Tables,
    rules: &crate::options::RuleOptions,
) -> Result<(), SetupError> {
    check_rule_options(tables, rules)?;
    check_figures(tables, rules)
}

/// Refuses a rule option switched on by a name the tables do not know: a misspelt house rule
/// would otherwise be silently off.
fn check_rule_options(
    tables: &Tables,
    rules: &crate::options::RuleOptions,
) -> Result<(), SetupError> {
    let known = tables.rule_options();
    match rules.on.iter().find(|name| !known.contains(&name.as_str())) {
        Some(name) => Err(SetupError::UnknownOption {
            name: name.clone(),
            known: known.join(", "),
        }),
        None => Ok(()),
    }
}
