//! The play check of `tilekit validate`: what files say that only playing shows. First what can
//! be decided without playing: a tile no game can reach from a start tile (an error). Then,
//! unless `--no-play`, a few seeded random games of each set named (not a bundled set added
//! for a requirement) with the sets it requires, tallied from their events: a tile type never
//! placed (an error) or set aside in many games (a warning with its share), and figures never
//! deployed, markers' modifiers and tokens, effects and options whose rates never paid
//! (warnings). The seeds are fixed, so the same files give the same findings.
//!
//! The analysis host (`serve`, `lsp`) does not play: its diagnostics are `tiledef`'s alone.

use engine::Tables;
use engine::game::{Event, Game, Reason, RuleOptions, Scored, Setup};
use engine::rules::ModuleEvent;
use engine::simulate::{Collect, SimOptions, collect_serial};
use rayon::prelude::*;
use tiledef::{Declared, Report, Severity, TileSet};

/// Games per set played. A tile set aside in every one of 64 games while placeable in half of
/// them would be a chance of 2⁻⁶⁴; a share of games is known to about ±6 % (one standard
/// error at 50 %), enough beside `SET_ASIDE_WARNING`. The bundled sets and examples (11 sets)
/// add 0.05 s to `validate` so in a release build, 0.1 s in a dev build (2 busy cores).
const GAMES: u64 = 64;

/// The games' run seed: fixed, so the same files give the same diagnostics.
const SEED: u64 = 37;

/// Players per game: who places a tile does not change where it fits.
const PLAYERS: u8 = 2;

/// The share of games at or above which a tile type set aside is a warning. Measured over
/// 2,000 games each, the bundled sets' and examples' tiles are set aside in at most 17 % of
/// their games (the lakes' island; River II's tiles 6 % at most), a grove fitting only beside
/// one other tile in 85 %. A third is 3.7 standard errors of 64 games above the island.
const SET_ASIDE_WARNING: f64 = 1.0 / 3.0;

/// Runs the play check on a valid report, adding its findings to it; `play: false` keeps to
/// what needs no game. An error only when the tables cannot be compiled or a game breaks the
/// engine's own rules (the findings so far are in the report).
pub fn check(report: &mut Report, play: bool) -> miette::Result<()> {
    let Some(tileset) = report.tileset.take() else {
        return Ok(());
    };
    let unreachable = tileset.unreachable_tiles();
    unreachable_errors(report, &tileset, &unreachable);
    let result = if play {
        play_sets(report, &tileset, &unreachable)
    } else {
        Ok(())
    };
    report.tileset = Some(tileset);
    result
}

/// A tile no game can reach is an error at its `edges`.
fn unreachable_errors(report: &mut Report, tileset: &TileSet, unreachable: &[usize]) {
    let reachable = tileset.reachable_edge_kinds(unreachable);
    let in_play: Vec<String> = (reachable.iter())
        .map(|&e| format!("`{}`", tileset.edge_kinds[e].id))
        .collect();
    for &t in unreachable {
        let tile = &tileset.tiles[t];
        let mut kinds: Vec<&str> = (tile.edges.iter())
            .map(|&k| tileset.edge_kinds[k].id.as_str())
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        let message = format!(
            "tile `{}` can be placed in no game: its edges ({}) meet only edges of tiles that cannot be placed either",
            tile.id,
            kinds.join(", ")
        );
        let Some(d) =
            report.tile_diagnostic(t, Severity::Error, "edges", "tilekit::unreachable", message)
        else {
            continue;
        };
        report.push(hinted(d, format!(
            "a game grows from its start tile by sides that meet: say in a `meets` how one of its edge kinds meets an edge the placed tiles have ({})",
            in_play.join(", ")
        )));
    }
}

/// What the games of one set showed.
struct Played {
    /// The set (index into `TileSet::sets`).
    set: usize,
    /// The sets in its games, by id, the set first.
    sets: Vec<String>,
    tally: Tally,
}

/// Plays each named set's games and turns what never happened into diagnostics.
fn play_sets(report: &mut Report, tileset: &TileSet, unreachable: &[usize]) -> miette::Result<()> {
    let tables = crate::inputs::compile_tables(tileset)?;
    let options = declared_options(&tables);
    let named: Vec<usize> = (0..tileset.sets.len())
        .filter(|&s| !tileset.sets[s].source.ends_with(tiledef::BUNDLED_SUFFIX))
        .collect();
    // Each set's games on a core of their own; collected in set order, so the findings do not
    // depend on the number of threads.
    let outcomes: Vec<(usize, Vec<String>, SetGames)> = named
        .into_par_iter()
        .map(|s| {
            let sets = with_requirements(tileset, s);
            let games = play_set(&tables, &sets, &options)?;
            Ok((s, sets, games))
        })
        .collect::<miette::Result<_>>()?;
    let mut played = Vec::new();
    for (set, sets, games) in outcomes {
        match games {
            SetGames::Played(tally) => played.push(Played { set, sets, tally }),
            SetGames::Refused(why) => {
                if let Some(d) = refused_warning(report, tileset, set, &sets, &why) {
                    report.push(d);
                }
            }
            SetGames::None => {}
        }
    }
    if played.is_empty() {
        return Ok(());
    }
    let mut found = Vec::new();
    for p in &played {
        found.extend(tile_findings(report, tileset, unreachable, p));
    }
    let mut all = Tally::new(&tables);
    let games: u64 = played.iter().map(|p| p.tally.games).sum();
    for p in played {
        all.merge(p.tally);
    }
    found.extend(vocabulary_findings(report, tileset, &tables, &all, games));
    for d in found {
        report.push(d);
    }
    Ok(())
}

/// The set's id and those it requires, transitively, in load order after it.
fn with_requirements(tileset: &TileSet, set: usize) -> Vec<String> {
    let mut sets = vec![set];
    let mut todo = vec![set];
    while let Some(s) = todo.pop() {
        for id in &tileset.sets[s].requires {
            if let Some(r) = tileset.sets.iter().position(|x| x.id == *id)
                && !sets.contains(&r)
            {
                sets.push(r);
                todo.push(r);
            }
        }
    }
    sets[1..].sort_unstable();
    sets.into_iter()
        .map(|s| tileset.sets[s].id.clone())
        .collect()
}

/// The options the definitions declare (a modifier's, small rates' or effect's `option`): rates
/// they switch on can pay only in games with them on.
fn declared_options(tables: &Tables) -> Vec<String> {
    let modifiers = (tables.markers.iter()).filter_map(|m| m.scoring.as_ref()?.option.clone());
    let small = (tables.features.iter()).filter_map(|k| k.small.as_ref()?.option.clone());
    let effects = (tables.effects.iter()).filter_map(|e| e.option.clone());
    let mut names: Vec<String> = modifiers.chain(small).chain(effects).collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// What playing a set's games gave.
enum SetGames {
    /// Its games, tallied.
    Played(Tally),
    /// No game: the sets have no start tile among them; nothing is said of them.
    None,
    /// No game: the engine refused to set one up, for this reason.
    Refused(String),
}

/// A warning at the set's first tile that its games with the sets it requires could not be
/// set up, and why: the play check said nothing of such a set before.
fn refused_warning(
    report: &Report,
    tileset: &TileSet,
    set: usize,
    sets: &[String],
    why: &str,
) -> Option<tiledef::Diagnostic> {
    let tile = tileset.tiles.iter().position(|t| t.set == set)?;
    let message = format!(
        "the play check played no game of {}: a game of these sets cannot be set up: {why}",
        games_of(sets)
    );
    let d = report.tile_diagnostic(
        tile,
        Severity::Warning,
        "id",
        "tilekit::play-check-no-game",
        message,
    )?;
    Some(hinted(
        d,
        "the play check draws the tiles of the set and of every set it requires; a game of fewer of them may set up (`tilekit simulate --sets` names the sets drawn)",
    ))
}

/// Plays a set's games: half with the rules' defaults, half with every declared option on
/// (placements do not depend on scoring, so both halves count for tiles and figures).
fn play_set(tables: &Tables, sets: &[String], options: &[String]) -> miette::Result<SetGames> {
    let mut tally = Tally::new(tables);
    let halves = [
        (Vec::new(), 0..GAMES / 2),
        (options.to_vec(), GAMES / 2..GAMES),
    ];
    for (on, range) in halves {
        let opts = SimOptions {
            games: GAMES,
            players: PLAYERS,
            seed: SEED,
            sets: sets.to_vec(),
            rules: RuleOptions {
                on,
                ..RuleOptions::default()
            },
            ..SimOptions::default()
        };
        let setup = match Setup::new(tables, opts.game_options()) {
            Ok(setup) => setup,
            Err(e) if has_start(tables, sets) => return Ok(SetGames::Refused(e.to_string())),
            Err(_) => return Ok(SetGames::None),
        };
        let half = collect_serial(&setup, &opts, range, Tally::new(tables), &|_| {})
            .map_err(|e| miette::miette!("the play check: {e}"))?;
        tally.merge(half);
    }
    Ok(SetGames::Played(tally))
}

/// Whether a tile of these sets is a start tile: a game of them has somewhere to begin.
fn has_start(tables: &Tables, sets: &[String]) -> bool {
    (tables.kinds.iter())
        .any(|k| k.start && (tables.sets.get(usize::from(k.set))).is_some_and(|s| sets.contains(s)))
}

/// What a set's games did, summed over games.
#[derive(Clone, Debug, Default)]
struct Tally {
    games: u64,
    /// Per tile kind: games it was drawn in, games it was set aside in, times placed.
    drawn: Vec<u64>,
    set_aside: Vec<u64>,
    placed: Vec<u64>,
    /// Per set figure (`Tables::followers`): times deployed.
    deployed: Vec<u64>,
    /// Per marker kind: whether its modifier, its tokens changed a score.
    modifier_paid: Vec<bool>,
    tokens_paid: Vec<bool>,
    /// Per effect: whether it changed a score.
    effect_paid: Vec<bool>,
    /// Per feature kind: whether its small rates were paid.
    small_paid: Vec<bool>,
}

impl Tally {
    fn new(tables: &Tables) -> Tally {
        Tally {
            games: 0,
            drawn: vec![0; tables.kinds.len()],
            set_aside: vec![0; tables.kinds.len()],
            placed: vec![0; tables.kinds.len()],
            deployed: vec![0; tables.followers.len()],
            modifier_paid: vec![false; tables.markers.len()],
            tokens_paid: vec![false; tables.markers.len()],
            effect_paid: vec![false; tables.effects.len()],
            small_paid: vec![false; tables.features.len()],
        }
    }

    fn score(&mut self, tables: &Tables, score: &engine::game::Score) {
        for m in score.modifiers.iter().filter(|m| m.points != 0) {
            match &m.effect {
                Some(effect) => {
                    if let Some(e) = tables.effects.iter().position(|e| e.id == *effect) {
                        self.effect_paid[e] = true;
                    }
                }
                None => {
                    if let Some(k) = tables.markers.iter().position(|k| k.id == m.marker) {
                        self.modifier_paid[k] = true;
                    }
                }
            }
        }
        if let (Reason::Small, Scored::Feature(kind)) = (score.reason, score.kind)
            && score.points > 0
            && let Some(paid) = self.small_paid.get_mut(kind.index())
        {
            *paid = true;
        }
    }
}

impl Collect for Tally {
    fn add(&mut self, game: &Game<'_>, events: &[Event]) {
        let tables = game.tables();
        self.games += 1;
        let mut drawn = vec![false; self.drawn.len()];
        let mut aside = vec![false; self.drawn.len()];
        for event in events {
            match event {
                Event::SetAside { kind } => {
                    drawn[kind.index()] = true;
                    aside[kind.index()] = true;
                }
                Event::Placed { kind, .. } => {
                    drawn[kind.index()] = true;
                    self.placed[kind.index()] += 1;
                }
                Event::Deployed { figure, .. } => {
                    if let Some(k) = figure.set_index() {
                        self.deployed[k] += 1;
                    }
                }
                Event::Scored(score) => self.score(tables, score),
                Event::Module(ModuleEvent::TokenMajority { marker, points, .. }) if *points > 0 => {
                    // A good's majority is counted at its slot (its first marker).
                    let gives = |k: usize| tables.markers[k].token.is_some();
                    let good = (0..tables.markers.len())
                        .find(|&k| gives(k) && engine::rules::good(tables, k) == marker);
                    if let Some(k) = good {
                        self.tokens_paid[k] = true;
                    }
                }
                _ => {}
            }
        }
        for (k, (d, a)) in drawn.into_iter().zip(aside).enumerate() {
            self.drawn[k] += u64::from(d);
            self.set_aside[k] += u64::from(a);
        }
    }

    fn merge(&mut self, later: Tally) {
        let add = |a: &mut Vec<u64>, b: Vec<u64>| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        let or = |a: &mut Vec<bool>, b: Vec<bool>| a.iter_mut().zip(b).for_each(|(x, y)| *x |= y);
        self.games += later.games;
        add(&mut self.drawn, later.drawn);
        add(&mut self.set_aside, later.set_aside);
        add(&mut self.placed, later.placed);
        add(&mut self.deployed, later.deployed);
        or(&mut self.modifier_paid, later.modifier_paid);
        or(&mut self.tokens_paid, later.tokens_paid);
        or(&mut self.effect_paid, later.effect_paid);
        or(&mut self.small_paid, later.small_paid);
    }
}

/// "`festival` (with `base`)": the sets of a set's games, for a message.
fn games_of(sets: &[String]) -> String {
    match sets {
        [] => String::new(),
        [only] => format!("`{only}`"),
        [first, rest @ ..] => format!("`{first}` (with `{}`)", rest.join("`, `")),
    }
}

/// The set's own tiles: never placed in its games is an error, set aside in many a warning.
fn tile_findings(
    report: &Report,
    tileset: &TileSet,
    unreachable: &[usize],
    played: &Played,
) -> Vec<tiledef::Diagnostic> {
    let t = &played.tally;
    let of = games_of(&played.sets);
    let mut out = Vec::new();
    for (k, tile) in tileset.tiles.iter().enumerate() {
        let drawn = t.drawn[k];
        if tile.set != played.set || drawn == 0 || unreachable.contains(&k) {
            continue;
        }
        let aside = t.set_aside[k];
        let share = aside as f64 / drawn as f64;
        let (severity, code, message) = if t.placed[k] == 0 {
            let message = format!(
                "tile `{}` was placed in none of the {drawn} games of {of} that drew it: it was set aside in every one",
                tile.id
            );
            (Severity::Error, "tilekit::never-placed", message)
        } else if share >= SET_ASIDE_WARNING {
            let message = format!(
                "tile `{}` was set aside, fitting nowhere, in {:.0} % of the games of {of} that drew it ({aside} of {drawn})",
                tile.id,
                share * 100.0
            );
            (Severity::Warning, "tilekit::often-set-aside", message)
        } else {
            continue;
        };
        let hint = "a tile fits where every side meets its neighbour's: sides of kinds few tiles have fit few places; `tilekit simulate` counts the tiles set aside";
        if let Some(d) = report.tile_diagnostic(k, severity, "id", code, message) {
            out.push(hinted(d, hint));
        }
    }
    out
}

/// Figures never deployed, markers' modifiers and tokens, effects and options never paid,
/// over all the games played.
fn vocabulary_findings(
    report: &Report,
    tileset: &TileSet,
    tables: &Tables,
    all: &Tally,
    games: u64,
) -> Vec<tiledef::Diagnostic> {
    let mut found = Findings {
        report,
        games,
        out: Vec::new(),
    };
    found.figures(tables, all);
    found.markers(tileset, tables, all);
    found.effects_and_options(tables, all);
    found.out
}

/// Warnings about declarations, gathered.
struct Findings<'r> {
    report: &'r Report,
    /// The games played, for the messages.
    games: u64,
    out: Vec<tiledef::Diagnostic>,
}

impl Findings<'_> {
    /// A warning at the `key` of a declaration (the nearest key written), unless the
    /// declaration is in a bundled set.
    fn warn(
        &mut self,
        at: (Declared, &str, &str),
        code: &'static str,
        message: String,
        hint: &str,
    ) {
        let (table, id, key) = at;
        let d =
            (self.report).declaration_diagnostic(table, id, key, Severity::Warning, code, message);
        // A bundled set added for a requirement is not the author's to change.
        let d = d.filter(|d| !d.file().ends_with(tiledef::BUNDLED_SUFFIX));
        self.out.extend(d.map(|d| hinted(d, hint)));
    }

    fn figures(&mut self, tables: &Tables, all: &Tally) {
        let games = self.games;
        for (k, figure) in tables.followers.iter().enumerate() {
            if all.deployed[k] == 0 {
                self.warn(
                    (Declared::Figure, &figure.id, "id"),
                    "tilekit::figure-never-deployed",
                    format!("figure `{}` was never deployed in the {games} games played", figure.id),
                    "a random player deploys a figure wherever it may: check its `on`, `beside` and `dealt`, and that its set's tiles have the kinds it stands on",
                );
            }
        }
    }

    /// Markers carried by no tile are left to `unused-vocabulary`.
    fn markers(&mut self, tileset: &TileSet, tables: &Tables, all: &Tally) {
        let games = self.games;
        let carried = carried_markers(tileset);
        for (m, marker) in tables.markers.iter().enumerate() {
            if !carried[m] {
                continue;
            }
            let option = marker.scoring.as_ref().and_then(|s| s.option.as_deref());
            let with = option.map_or(String::new(), |o| {
                format!(" (half of them with its option `{o}` on)")
            });
            if marker.scoring.is_some() && !all.modifier_paid[m] {
                self.warn(
                    (Declared::Marker, &marker.id, "id"),
                    "tilekit::modifier-never-paid",
                    format!(
                        "the scoring of marker `{}` changed no score in the {games} games played{with}",
                        marker.id
                    ),
                    "its rates apply when a feature carrying the marker is scored for a player: check its `on` and that the rates differ from the kind's own",
                );
            }
            if marker.token.is_some() && !all.tokens_paid[engine::rules::good_slot(tables, m)] {
                self.warn(
                    (Declared::Marker, &marker.id, "token"),
                    "tilekit::tokens-never-paid",
                    format!(
                        "the tokens of marker `{}` won no majority in the {games} games played",
                        marker.id
                    ),
                    "tokens go to who completes a feature carrying the marker: check its `on` and the tiles carrying it",
                );
            }
        }
    }

    fn effects_and_options(&mut self, tables: &Tables, all: &Tally) {
        let games = self.games;
        for (e, effect) in tables.effects.iter().enumerate() {
            if !all.effect_paid[e] {
                self.warn(
                    (Declared::Effect, &effect.id, "id"),
                    "tilekit::effect-never-paid",
                    format!("the effect `{}` changed no score in the {games} games played", effect.id),
                    "it pays when a feature it is `on` is scored with tiles of its marker where it counts: check its `on`, `count` and rates",
                );
            }
        }
        for (k, kind) in tables.features.iter().enumerate() {
            let Some(option) = kind.small.as_ref().and_then(|s| s.option.as_deref()) else {
                continue;
            };
            if !all.small_paid[k] {
                self.warn(
                    (Declared::Feature, &kind.id, "score/small/option"),
                    "tilekit::option-never-paid",
                    format!(
                        "the small rates of `{}` under the option `{option}` were never paid in the {games} games played (half of them with it on)",
                        kind.id
                    ),
                    "they pay a completed feature of at most `max_tiles` tiles: check `max_tiles`",
                );
            }
        }
    }
}

/// Per marker kind: whether a tile or a feature of a tile carries it (a marker on none is
/// `unused-vocabulary`'s to report).
fn carried_markers(tileset: &TileSet) -> Vec<bool> {
    let mut carried = vec![false; tileset.markers.len()];
    for tile in &tileset.tiles {
        let on_features = tile.features.iter().flat_map(|f| &f.markers);
        for &m in tile.markers.iter().chain(on_features) {
            carried[m] = true;
        }
    }
    carried
}

/// The diagnostic with a hint.
fn hinted(mut d: tiledef::Diagnostic, hint: impl Into<String>) -> tiledef::Diagnostic {
    d.hint = Some(hint.into());
    d
}
