//! A/B: the same seeds played with and without some sets, and what changed. Each difference
//! has its 95 % interval and a p-value; it is called significant only after Holm's correction
//! over every difference of the comparison (see `stats`), so noise says it is noise.

use crate::report::{Report, RunInfo};
use crate::stats::{ALPHA, Estimate, difference, holm};
use crate::tally::Tally;
use engine::Tables;
use serde::Serialize;

/// One figure in both runs.
#[derive(Clone, Debug, Serialize, PartialEq, schemars::JsonSchema)]
pub struct Diff {
    /// What is compared.
    pub metric: String,
    /// Whether it is a tile type's figure (else the game's, a seat's or a source's).
    pub tile: bool,
    /// With the sets.
    pub with: f64,
    /// Without them.
    pub without: f64,
    /// With − without, with its 95 % interval.
    pub difference: Estimate,
    /// Two-sided p-value of "no difference".
    pub p: f64,
    /// Holm-adjusted p-value over the whole comparison.
    pub p_adjusted: f64,
    /// Whether the difference is significant at family error 5 %.
    pub significant: bool,
}

/// A comparison of two runs.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Comparison {
    /// The sets compared.
    pub sets: Vec<String>,
    /// The report of the games without them (the games with them are the main report).
    pub without: Report,
    /// Every difference, significant or not.
    pub diffs: Vec<Diff>,
}

impl Comparison {
    /// Compares the tallies of the games with (`a`) and without (`b`) `sets`.
    pub fn new(
        tables: &Tables,
        sets: Vec<String>,
        a: &Tally,
        b: &Tally,
        b_run: RunInfo,
    ) -> Comparison {
        let mut raw: Vec<(String, Estimate, Estimate)> = vec![
            (
                "points per game".into(),
                a.points.estimate(),
                b.points.estimate(),
            ),
            (
                "tiles placed per game".into(),
                a.tiles_placed.estimate(),
                b.tiles_placed.estimate(),
            ),
            (
                "tiles set aside per game".into(),
                a.set_aside.estimate(),
                b.set_aside.estimate(),
            ),
        ];
        for (p, (sa, sb)) in a.seats.iter().zip(&b.seats).enumerate() {
            let seat = p + 1;
            raw.push((
                format!("seat {seat}: mean score"),
                sa.score.estimate(),
                sb.score.estimate(),
            ));
            raw.push((
                format!("seat {seat}: win rate"),
                sa.win.estimate(),
                sb.win.estimate(),
            ));
        }
        for ((name, ma), (_, mb)) in a.source_points.iter().zip(&b.source_points) {
            let (ea, eb) = (ma.estimate(), mb.estimate());
            if ea.value != 0.0 || eb.value != 0.0 {
                raw.push((format!("points per game from {name}"), ea, eb));
            }
        }
        let game_figures = raw.len();
        for ((kind, ka), kb) in tables.kinds.iter().zip(&a.kinds).zip(&b.kinds) {
            if ka.placed == 0 || kb.placed == 0 {
                continue;
            }
            let id = &kind.id;
            raw.push((
                format!("{id}: points per placement"),
                ka.by_end.estimate(),
                kb.by_end.estimate(),
            ));
            raw.push((
                format!("{id}: completed a feature"),
                ka.completed.estimate(),
                kb.completed.estimate(),
            ));
            raw.push((
                format!("{id}: set-aside rate"),
                ka.set_aside.estimate(),
                kb.set_aside.estimate(),
            ));
        }
        let tests: Vec<(Estimate, f64)> = raw.iter().map(|(_, x, y)| difference(x, y)).collect();
        let p: Vec<f64> = tests.iter().map(|t| t.1).collect();
        let adjusted = holm(&p);
        let diffs = raw
            .into_iter()
            .zip(tests)
            .zip(adjusted)
            .enumerate()
            .map(|(i, (((metric, x, y), (d, p)), adj))| Diff {
                metric,
                tile: i >= game_figures,
                with: x.value,
                without: y.value,
                difference: d,
                p,
                p_adjusted: adj,
                significant: adj <= ALPHA,
            })
            .collect();
        Comparison {
            sets,
            without: Report::new(tables, b_run, b),
            diffs,
        }
    }

    /// The significant differences.
    pub fn significant(&self) -> impl Iterator<Item = &Diff> {
        self.diffs.iter().filter(|d| d.significant)
    }
}
