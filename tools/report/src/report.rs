//! The figures of a report, drawn from a `Tally`: per tile type, per set, per seat, with their
//! 95 % intervals (see `stats` for which interval each is). This is what `report.json` holds.

use crate::findings::Finding;
use crate::stats::{Estimate, wilson};
use crate::tally::{KindTally, Source, Tally};
use engine::Tables;
use engine::options::pairs_as_map;
use serde::Serialize;

/// What was played: the part of a run a report states, so that it can be played again.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunInfo {
    /// Games played.
    pub games: u64,
    /// Players per game.
    pub players: u8,
    /// Who plays each seat, as the simulator names them.
    pub seats: Vec<String>,
    /// Run seed.
    pub seed: u64,
    /// Tile sets in the bag.
    pub sets: Vec<String>,
    /// Tiles per game, the start tile included (None: the whole bag).
    pub tiles: Option<usize>,
    /// The rules in play, as the engine states them.
    pub rules: String,
    /// The author's own sets (not bundled with tilekit): their tiles come first in the tile
    /// table.
    pub own_sets: Vec<String>,
}

/// One tile type's figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TileRow {
    /// Tile id.
    pub id: String,
    /// Its set's id.
    pub set: String,
    /// Times drawn (placed or set aside), all games.
    pub drawn: u64,
    /// Times drawn per game.
    pub drawn_per_game: f64,
    /// Set aside per draw.
    pub set_aside_rate: Estimate,
    /// Share of all games in which at least one copy was set aside (Wilson interval).
    pub set_aside_games: Estimate,
    /// Mean credit at once per placement (its share of its own turn's scorings).
    pub points_at_once: Estimate,
    /// Mean credit by the end of the game per placement.
    pub points_by_end: Estimate,
    /// Share of its placements in whose turn a complete feature scored.
    pub completed_rate: Estimate,
    /// Games in which one seat drew more copies of it (placed or set aside) than any other seat.
    pub lead_games: u64,
    /// That seat's win rate in those games (shared wins split; Wilson interval).
    pub lead_win_rate: Estimate,
    /// The start tile: placed before the first turn, by no seat.
    pub start: bool,
    /// `high` or `low` when its points by the end lie more than two standard deviations from
    /// the tile types' mean.
    pub outlier: Option<&'static str>,
    /// The seat that drew most of its copies, with its share, when that is 90 % or more: the
    /// tile is drawn in a fixed order, and its win rate speaks of the seat, not the tile.
    pub one_seat: Option<(usize, f64)>,
}

/// One set's points by source.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SetRow {
    /// Set id.
    pub id: String,
    /// Credit per game of its tiles, by source (in `Source::all` order; in JSON an object
    /// keyed by source).
    #[serde(serialize_with = "pairs_as_map")]
    pub points_per_game: Vec<(String, f64)>,
    /// Their sum.
    pub total_per_game: f64,
    /// Share of all points.
    pub share: f64,
}

/// One seat's figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SeatRow {
    /// Seat number, from 1.
    pub seat: usize,
    /// Who played it.
    pub player: String,
    /// Mean final score (normal interval).
    pub score: Estimate,
    /// Score standard deviation.
    pub score_sd: f64,
    /// Win rate, shared wins split (Wilson interval).
    pub win_rate: Estimate,
    /// Games by final score (index = score).
    pub histogram: Vec<u64>,
}

/// One figure: in how many games it was dealt, and how often it was deployed in them.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FigureRow {
    /// Figure id (`follower`, or a set's figure).
    pub id: String,
    /// Games it was dealt in.
    pub dealt_games: u64,
    /// Share of those games in which some seat deployed it at least once (Wilson interval).
    pub deployed_games: Estimate,
}

/// The player dealt one flower colour: how they did.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ColourRow {
    /// The colour's id.
    pub colour: String,
    /// Games it was dealt in.
    pub games: u64,
    /// Mean final score of its player (normal interval).
    pub score: Estimate,
    /// Its player's win rate, shared wins split (Wilson interval).
    pub win_rate: Estimate,
}

/// A finished report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Report {
    /// What was played.
    pub run: RunInfo,
    /// The credit rule, in words.
    pub credit_rule: &'static str,
    /// Points per game, all players together.
    pub points_per_game: Estimate,
    /// Points per game by source, all sets, as `simulate` prints them (in JSON an object keyed
    /// by source, as `simulate --json` keys them).
    #[serde(serialize_with = "pairs_as_map")]
    pub points_by_source: Vec<(String, Estimate)>,
    /// Figures deployed per game, by figure id (`follower`, then the sets' figures; in JSON
    /// an object keyed by id, as `simulate --json` keys `deployed`).
    #[serde(serialize_with = "pairs_as_map")]
    pub deployments_per_game: Vec<(String, Estimate)>,
    /// The rule modules' moves made per game, by the registry's name, those made at all (the
    /// abbey: `reserve`; in JSON an object keyed by name, as `simulate --json` keys
    /// `actions_per_game`).
    #[serde(serialize_with = "pairs_as_map")]
    pub actions_per_game: Vec<(String, Estimate)>,
    /// Points per game credited to those moves, by name (`reserve`: what its turns scored).
    #[serde(serialize_with = "pairs_as_map")]
    pub action_points_per_game: Vec<(String, Estimate)>,
    /// What the pages call each of those moves, by name: a creature's by the creatures' ids
    /// (`serpent` for a fan set's `dragon` move: `ActionId::label`), another by its name. Not
    /// in the JSON, whose keys are the registry's names for every set.
    #[serde(skip)]
    pub move_labels: Vec<(String, String)>,
    /// Per figure dealt in some game: the share of its games in which it was deployed.
    pub figures: Vec<FigureRow>,
    /// Tiles placed per game.
    pub tiles_placed_per_game: Estimate,
    /// Tiles set aside per game.
    pub set_aside_per_game: Estimate,
    /// Credit per game of the start tile.
    pub start_tile_points_per_game: f64,
    /// Whether every game's credit added up to its points.
    pub credit_balanced: bool,
    /// Per seat.
    pub seats: Vec<SeatRow>,
    /// Per flower colour dealt (Village Life), when colours were dealt.
    pub flower_colours: Vec<ColourRow>,
    /// Per set, in load order.
    pub sets: Vec<SetRow>,
    /// Per tile type drawn at least once, in table order.
    pub tiles: Vec<TileRow>,
    /// What is out of line with confidence, strongest first within each kind (`findings`).
    pub findings: Vec<Finding>,
    /// With `--bot-study`: how each bot uses the author's figures, kinds and markers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot_study: Option<crate::bots::BotStudy>,
    /// Whether the report's folder holds each row's picture as `tiles/<id>.png` (the caller
    /// that has the tile set draws them).
    #[serde(skip)]
    pub tile_pictures: bool,
}

/// The credit rule as the report states it.
pub const CREDIT_RULE: &str = "Every point of a scoring (base points of the majority, flower and \
marketplace-network bonuses) is split equally among the distinct tiles of the scored feature; \
'at once' is a tile's share of the scorings of its own turn, 'by the end' its share of every \
scoring. The credit of a game's tiles, the start tile included, adds up to the game's points.";

/// The tile table: the start tile, then every tile type drawn, the author's own sets first,
/// outliers and tiles drawn by one seat marked.
fn tile_rows(tables: &Tables, run: &RunInfo, tally: &Tally) -> Vec<TileRow> {
    let games = tally.games.max(1) as f64;
    let row = |k: &engine::tables::TileKind, t: &KindTally| TileRow {
        id: k.id.clone(),
        set: tables.sets[k.set as usize].clone(),
        drawn: t.drawn,
        drawn_per_game: t.drawn as f64 / games,
        set_aside_rate: t.set_aside.estimate(),
        set_aside_games: wilson(t.games_set_aside as f64, tally.games),
        points_at_once: t.at_once.estimate(),
        points_by_end: t.by_end.estimate(),
        completed_rate: t.completed.estimate(),
        lead_games: t.lead_games,
        lead_win_rate: wilson(t.lead_wins, t.lead_games),
        start: false,
        outlier: None,
        one_seat: one_seat(&t.by_seat),
    };
    let mut rows: Vec<TileRow> = (tables.kinds.iter().zip(&tally.kinds))
        .filter(|(_, t)| t.drawn > 0)
        .map(|(k, t)| row(k, t))
        .collect();
    mark_outliers(&mut rows);
    // A stable sort keeps load order within the author's sets and within the others.
    rows.sort_by_key(|r| !run.own_sets.contains(&r.set));
    if let Some((kind, credit)) = &tally.start {
        let mut start = row(&tables.kinds[usize::from(*kind)], &KindTally::default());
        start.start = true;
        start.drawn_per_game = 1.0;
        start.points_by_end = credit.estimate();
        rows.insert(0, start);
    }
    rows
}

/// The seat that drew most copies of a tile and its share, when it drew 90 % or more of them
/// (and there are several seats).
fn one_seat(by_seat: &[u64]) -> Option<(usize, f64)> {
    let total: u64 = by_seat.iter().sum();
    let (seat, &most) = by_seat.iter().enumerate().max_by_key(|(_, n)| **n)?;
    let share = most as f64 / total.max(1) as f64;
    (by_seat.len() > 1 && total > 0 && share >= 0.9).then_some((seat + 1, share))
}

/// Marks the rows whose points by the end lie more than two standard deviations from the
/// mean of the rows'.
fn mark_outliers(rows: &mut [TileRow]) {
    let values: Vec<f64> = rows.iter().map(|r| r.points_by_end.value).collect();
    let n = values.len() as f64;
    if n < 3.0 {
        return;
    }
    let mean = values.iter().sum::<f64>() / n;
    let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    for (r, v) in rows.iter_mut().zip(values) {
        if sd > 0.0 && (v - mean).abs() > 2.0 * sd {
            r.outlier = Some(if v > mean { "high" } else { "low" });
        }
    }
}

impl Report {
    /// The report of a tally.
    pub fn new(tables: &Tables, run: RunInfo, tally: &Tally) -> Report {
        let games = tally.games.max(1) as f64;
        let total_points: f64 = tally.set_points.iter().flatten().sum();
        let tiles = tile_rows(tables, &run, tally);
        let sets = tables
            .sets
            .iter()
            .zip(&tally.set_points)
            .map(|(id, pts)| {
                let sum: f64 = pts.iter().sum();
                SetRow {
                    id: id.clone(),
                    points_per_game: (Source::all(tables).into_iter())
                        .map(|s| (s.name(tables).to_string(), pts[s.index()] / games))
                        .collect(),
                    total_per_game: sum / games,
                    share: if total_points > 0.0 {
                        sum / total_points
                    } else {
                        0.0
                    },
                }
            })
            .filter(|s| run.sets.contains(&s.id) || s.total_per_game > 0.0)
            .collect();
        let seats = tally
            .seats
            .iter()
            .enumerate()
            .map(|(p, s)| SeatRow {
                seat: p + 1,
                player: run.seats.get(p).cloned().unwrap_or_default(),
                score: s.score.estimate(),
                score_sd: s.score.variance().sqrt(),
                win_rate: wilson(s.win.sum, s.win.n),
                histogram: s.histogram.clone(),
            })
            .collect();
        let flower_colours = (tables.colours.iter().zip(&tally.colours))
            .filter(|(_, c)| c.win.n > 0)
            .map(|(id, c)| ColourRow {
                colour: id.clone(),
                games: c.win.n,
                score: c.score.estimate(),
                win_rate: wilson(c.win.sum, c.win.n),
            })
            .collect();
        let figures = (tally.deployments.iter().zip(&tally.figure_games))
            .filter(|(_, g)| g.dealt > 0)
            .map(|((id, _), g)| FigureRow {
                id: id.clone(),
                dealt_games: g.dealt,
                deployed_games: wilson(g.deployed as f64, g.dealt),
            })
            .collect();
        let mut report = Report {
            credit_rule: CREDIT_RULE,
            flower_colours,
            points_per_game: tally.points.estimate(),
            points_by_source: (tally.source_points.iter())
                .map(|(name, m)| (name.clone(), m.estimate()))
                .collect(),
            deployments_per_game: (tally.deployments.iter())
                .map(|(id, m)| (id.clone(), m.estimate()))
                .collect(),
            actions_per_game: (tally.actions.iter())
                .filter(|(_, made, _)| made.mean() > 0.0)
                .map(|(name, made, _)| (name.clone(), made.estimate()))
                .collect(),
            action_points_per_game: (tally.actions.iter())
                .filter(|(_, _, paid)| paid.mean() > 0.0)
                .map(|(name, _, paid)| (name.clone(), paid.estimate()))
                .collect(),
            move_labels: (engine::rules::ActionId::all())
                .map(|a| (a.info().name.to_string(), a.label(tables, &run.sets)))
                .collect(),
            tiles_placed_per_game: tally.tiles_placed.estimate(),
            set_aside_per_game: tally.set_aside.estimate(),
            start_tile_points_per_game: tally.start_credit / games,
            credit_balanced: tally.credit_balanced,
            seats,
            sets,
            figures,
            tiles,
            findings: Vec::new(),
            bot_study: None,
            run,
            tile_pictures: false,
        };
        report.findings = crate::findings::findings(&report);
        report
    }
}
