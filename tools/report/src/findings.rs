//! What a report finds out of line, computed from its estimates, never by eye: each finding
//! names its subject, its figure with the 95 % interval, the threshold it crosses and one
//! sentence. A finding is stated only *with confidence*: its test against the threshold
//! rejects after Holm's correction over its family (every tile type, every source, every
//! figure, every seat), family-wise error 5 %. Each test is the one its interval inverts
//! (the score test for a Wilson interval, the z test for a normal one), so a stated finding's
//! interval always excludes its threshold; the correction only keeps the one tile in twenty
//! that a plain interval would flag by chance from being stated.
//!
//! The families and their thresholds:
//! - **Tile set aside often**: a tile type with at least one copy set aside in more than
//!   `SET_ASIDE_GAMES` (20 %) of all games.
//! - **Source above / below the others**: a source of points (as `simulate` names them: each
//!   feature kind, figure bonus, flower, windmill, marketplace, marker modifier and token)
//!   whose points per game are more than `SOURCE_HIGH` (2) times, or less than `SOURCE_LOW`
//!   (1/4 of), the median of the sources that scored at all. The median, not the mean, so one
//!   big source does not move the bar; it is taken as known (its own noise is small beside a
//!   factor of two). At least three sources must have scored.
//! - **Figure never deployed**: a figure deployed in fewer than `FIGURE_NEVER` (1 %) of the
//!   games it was dealt in. The report sees finished games, so it counts per game, where
//!   "always" says nothing (any figure is deployed at some point of most games);
//!   `simulate --bot-study` counts per turn in which the figure could have been deployed,
//!   and states both ends there (`FIGURE_NEVER`, `FIGURE_ALWAYS` of those turns).
//! - **Seat advantage / disadvantage**: a seat whose win rate (shared wins split) differs
//!   from an even share, 1 / players. A split win makes the score test conservative.

use crate::report::Report;
use crate::stats::{ALPHA, Estimate, holm, normal_upper_tail};
use serde::Serialize;

/// A tile type is set aside often when some copy is set aside in more than this share of games.
pub const SET_ASIDE_GAMES: f64 = 0.20;
/// A source is above the others at more than this multiple of the sources' median.
pub const SOURCE_HIGH: f64 = 2.0;
/// A source is below the others under this multiple of the sources' median.
pub const SOURCE_LOW: f64 = 0.25;
/// A figure is never deployed below this share of the games it was dealt in (or, in a bot
/// study, of the turns it could have been).
pub const FIGURE_NEVER: f64 = 0.01;
/// A figure is always deployed above this share of the turns it could have been (bot study).
pub const FIGURE_ALWAYS: f64 = 0.99;

/// What kind of finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// A tile type set aside in many games.
    TileSetAsideOften,
    /// A source far above the others.
    SourceAbove,
    /// A source far below the others.
    SourceBelow,
    /// A figure (almost) never deployed.
    FigureNeverDeployed,
    /// A figure (almost) always deployed when it could be (bot study).
    FigureAlwaysDeployed,
    /// A seat that wins more than its share.
    SeatAdvantage,
    /// A seat that wins less than its share.
    SeatDisadvantage,
}

/// One finding.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Finding {
    /// What kind.
    pub kind: FindingKind,
    /// What it is about: a tile id, a source's name, a figure id, `seat N`.
    pub subject: String,
    /// Its figure with the 95 % interval, in `unit`.
    pub value: Estimate,
    /// The threshold its interval excludes, in `unit`.
    pub threshold: f64,
    /// The unit of `value` and `threshold`: `share of games` (0–1) or `points per game`.
    pub unit: &'static str,
    /// The Holm-adjusted p-value of its family.
    pub p_adjusted: f64,
    /// The finding in one sentence.
    pub statement: String,
}

/// A candidate before the correction: the finding and its raw p-value.
struct Candidate {
    finding: Finding,
    p: f64,
}

/// The two-sided p-value of "the proportion is `t`" for `share` of `n`: the score test that
/// the Wilson interval inverts.
fn score_p(share: f64, n: u64, t: f64) -> f64 {
    if n == 0 || t <= 0.0 || t >= 1.0 {
        return 1.0;
    }
    let nf = n as f64;
    let z = (share / nf - t) / (t * (1.0 - t) / nf).sqrt();
    2.0 * normal_upper_tail(z.abs())
}

/// The two-sided p-value of "the mean is `t`" for a normal estimate.
fn normal_p(e: &Estimate, t: f64) -> f64 {
    if e.se > 0.0 {
        2.0 * normal_upper_tail(((e.value - t) / e.se).abs())
    } else if e.value == t {
        1.0
    } else {
        0.0
    }
}

/// The stated findings of a family: those rejected after Holm's correction (and whose
/// interval excludes the threshold), strongest first.
fn stated(family: Vec<Candidate>) -> Vec<Finding> {
    let adjusted = holm(&family.iter().map(|c| c.p).collect::<Vec<_>>());
    let mut out: Vec<Finding> = (family.into_iter().zip(adjusted))
        .filter(|(c, p)| *p <= ALPHA && excludes(&c.finding.value, c.finding.threshold))
        .map(|(mut c, p)| {
            c.finding.p_adjusted = p;
            c.finding
        })
        .collect();
    out.sort_by(|a, b| a.p_adjusted.total_cmp(&b.p_adjusted));
    out
}

fn excludes(e: &Estimate, t: f64) -> bool {
    e.lo > t || e.hi < t
}

fn pct(e: &Estimate) -> String {
    format!(
        "{:.1} % [{:.1}, {:.1}]",
        100.0 * e.value,
        100.0 * e.lo,
        100.0 * e.hi
    )
}

/// Every finding of a report: tiles, sources, figures, seats, in that order.
pub fn findings(r: &Report) -> Vec<Finding> {
    let mut out = stated(tiles(r));
    out.extend(stated(sources(r)));
    out.extend(stated(figures(r)));
    out.extend(stated(seats(r)));
    out
}

/// Tile types set aside in many games.
fn tiles(r: &Report) -> Vec<Candidate> {
    let games = r.run.games;
    (r.tiles.iter().filter(|t| !t.start))
        .filter(|t| t.set_aside_games.value > SET_ASIDE_GAMES)
        .map(|t| {
            let e = t.set_aside_games;
            Candidate {
                p: score_p(e.value * games as f64, games, SET_ASIDE_GAMES),
                finding: Finding {
                    kind: FindingKind::TileSetAsideOften,
                    subject: t.id.clone(),
                    value: e,
                    threshold: SET_ASIDE_GAMES,
                    unit: "share of games",
                    p_adjusted: 1.0,
                    statement: format!(
                        "Tile {} ({}) is set aside, fitting nowhere, in {} of games (more \
                         than {:.0} %).",
                        t.id,
                        t.set,
                        pct(&e),
                        100.0 * SET_ASIDE_GAMES
                    ),
                },
            }
        })
        .collect()
}

/// The median of the points per game of the sources that scored at all (None below three).
pub fn source_median(r: &Report) -> Option<f64> {
    let mut v: Vec<f64> = (r.points_by_source.iter())
        .map(|(_, e)| e.value)
        .filter(|&v| v > 0.0)
        .collect();
    if v.len() < 3 {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// Sources far above or below the others.
fn sources(r: &Report) -> Vec<Candidate> {
    let Some(median) = source_median(r) else {
        return Vec::new();
    };
    let total = r.points_per_game.value.max(1e-9);
    (r.points_by_source.iter())
        .filter(|(_, e)| e.value > 0.0)
        .filter_map(|(name, e)| {
            let (kind, factor, way) = if e.value > SOURCE_HIGH * median {
                (FindingKind::SourceAbove, SOURCE_HIGH, "more than twice")
            } else if e.value < SOURCE_LOW * median {
                (
                    FindingKind::SourceBelow,
                    SOURCE_LOW,
                    "less than a quarter of",
                )
            } else {
                return None;
            };
            let t = factor * median;
            Some(Candidate {
                p: normal_p(e, t),
                finding: Finding {
                    kind,
                    subject: name.clone(),
                    value: *e,
                    threshold: t,
                    unit: "points per game",
                    p_adjusted: 1.0,
                    statement: format!(
                        "Source {name} pays {:.2} [{:.2}, {:.2}] points per game ({:.1} % of \
                         all points), {way} the median source's {median:.2}.",
                        e.value,
                        e.lo,
                        e.hi,
                        100.0 * e.value / total
                    ),
                },
            })
        })
        .collect()
}

/// Figures never or always deployed in the games they were dealt in.
fn figures(r: &Report) -> Vec<Candidate> {
    (r.figures.iter())
        .filter_map(|f| {
            let e = f.deployed_games;
            if e.value >= FIGURE_NEVER {
                return None;
            }
            let t = FIGURE_NEVER;
            Some(Candidate {
                p: score_p(e.value * f.dealt_games as f64, f.dealt_games, t),
                finding: Finding {
                    kind: FindingKind::FigureNeverDeployed,
                    subject: f.id.clone(),
                    value: e,
                    threshold: t,
                    unit: "share of games",
                    p_adjusted: 1.0,
                    statement: format!(
                        "Figure {} is deployed in {} of the {} games it is dealt in (fewer \
                         than {:.0} %).",
                        f.id,
                        pct(&e),
                        f.dealt_games,
                        100.0 * t
                    ),
                },
            })
        })
        .collect()
}

/// Seats that win more or less than an even share.
fn seats(r: &Report) -> Vec<Candidate> {
    let n = r.seats.len();
    if n < 2 {
        return Vec::new();
    }
    let even = 1.0 / n as f64;
    (r.seats.iter())
        .map(|s| {
            let e = s.win_rate;
            let games = s.histogram.iter().sum::<u64>();
            let above = e.value > even;
            Candidate {
                p: score_p(e.value * games as f64, games, even),
                finding: Finding {
                    kind: if above {
                        FindingKind::SeatAdvantage
                    } else {
                        FindingKind::SeatDisadvantage
                    },
                    subject: format!("seat {}", s.seat),
                    value: e,
                    threshold: even,
                    unit: "share of games",
                    p_adjusted: 1.0,
                    statement: format!(
                        "Seat {} ({}) wins {} of games, {} an even share of {:.1} %.",
                        s.seat,
                        s.player,
                        pct(&e),
                        if above { "above" } else { "below" },
                        100.0 * even
                    ),
                },
            }
        })
        .collect()
}
