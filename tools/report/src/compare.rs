//! A/B: the same seeds played on two sides, and what changed. The main games are side A; side
//! B is the same study with one change (`--compare SETS`: without those sets; or another rule
//! option, figure count, tile count, set list or version of a file). Every difference is
//! *with the change − without it*, so `--compare SETS` reads as the sets' effect (the main
//! games hold them) and `--b-option NAME` as the option's. Each difference has its 95 %
//! interval (paired when both sides draw the same tiles: `stats`' module doc) and a p-value;
//! it is called significant only after Holm's correction over every difference of the
//! comparison, so noise says it is noise. A difference within the noise says how many games a
//! side would resolve it (`stats::games_needed`).

use crate::paired::{Group, PairSums, Unit};
use crate::report::{Report, RunInfo};
use crate::stats::{ALPHA, Estimate, Moments, difference, games_needed, holm, paired_difference};
use crate::tally::Tally;
use engine::Tables;
use serde::Serialize;

/// One figure on both sides.
#[derive(Clone, Debug, Serialize, PartialEq, schemars::JsonSchema)]
pub struct Diff {
    /// What is compared.
    pub metric: String,
    /// Whether it is a tile type's figure (else the game's, a seat's, a source's or a
    /// figure's).
    pub tile: bool,
    /// With the change (for `--compare`: with the sets, the main games).
    pub with: f64,
    /// Without it.
    pub without: f64,
    /// With − without, with its 95 % interval.
    pub difference: Estimate,
    /// Two-sided p-value of "no difference".
    pub p: f64,
    /// Holm-adjusted p-value over the whole comparison.
    pub p_adjusted: f64,
    /// Whether the difference is significant at family error 5 %.
    pub significant: bool,
    /// What it describes: `game`, `seat`, `source`, `figure` or `tile`.
    pub group: Group,
    /// What it is measured in: `points`, `rate` or `count`.
    pub unit: Unit,
    /// Whether its interval is that of paired per-game differences (both sides drew the same
    /// tiles, game by game), else that of two independent estimates.
    pub paired: bool,
    /// For a difference within the noise: the games a side that would make a difference of
    /// `resolve_size` significant (two-sided 5 %) with 80 % power; null when significant, or
    /// when no variance was seen.
    pub games_needed: Option<u64>,
    /// The size `games_needed` is for: `--resolve` for a figure in points when given, else
    /// the observed difference's.
    pub resolve_size: f64,
}

/// A comparison of two runs.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Comparison {
    /// The sets compared (`--compare`; empty for another change).
    pub sets: Vec<String>,
    /// What is compared, for headings: `with and without festival`, `with the house rule
    /// \`pig-herd\` vs without`.
    pub title: String,
    /// Short names of the two sides, for table heads: with the change, then without.
    pub labels: [String; 2],
    /// Whether the game's, seats', sources' and figures' differences are paired.
    pub paired: bool,
    /// The report of side B's games (for `--compare`, those without the sets; the main games
    /// are the main report).
    pub without: Report,
    /// Every difference, significant or not.
    pub diffs: Vec<Diff>,
}

/// What a comparison is, beside its games.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The sets compared (`--compare`), else empty.
    pub sets: Vec<String>,
    /// Its heading.
    pub title: String,
    /// Short names of the sides: with the change, then without.
    pub labels: [String; 2],
    /// Whether side B is the one with the change (else the main games are).
    pub b_is_change: bool,
    /// Whether both sides draw the same tiles game by game (`paired::same_draw`).
    pub paired: bool,
    /// The size of difference, in points, that `games_needed` is worked out for (figures in
    /// points only; others, and all without it, use their observed size).
    pub resolve: Option<f64>,
}

/// One side's tally, with the tables it was gathered with.
#[derive(Clone, Copy)]
pub struct Tallied<'a> {
    /// Its tables.
    pub tables: &'a Tables,
    /// Its tally.
    pub tally: &'a Tally,
}

/// A figure before the tests: both sides' estimates and, when paired, the paired difference.
struct Raw {
    metric: String,
    group: Group,
    unit: Unit,
    with: Estimate,
    without: Estimate,
    paired: Option<(Estimate, f64)>,
    games: u64,
}

impl Comparison {
    /// Compares the tallies of the games with (`a`) and without (`b`) `sets`, unpaired (the
    /// bags differ), from the tallies alone.
    pub fn new(
        tables: &Tables,
        sets: Vec<String>,
        a: &Tally,
        b: &Tally,
        b_run: RunInfo,
    ) -> Comparison {
        let mut raw = tally_game_figures(a, b);
        let (a, b) = (Tallied { tables, tally: a }, Tallied { tables, tally: b });
        raw.extend(tile_figures(a, b));
        let spec = Spec {
            title: format!("with and without {}", sets.join(", ")),
            labels: ["with".into(), "without".into()],
            sets,
            b_is_change: false,
            paired: false,
            resolve: None,
        };
        finish(spec, raw, Report::new(b.tables, b_run, b.tally))
    }

    /// Compares side A (the main games) and side B of a paired run (`paired::run_pair`): the
    /// game's, seats', sources' and figures' differences from the per-game sums (paired when
    /// `spec.paired`), the tile types' from the tallies.
    pub fn of_run(
        spec: Spec,
        a: Tallied<'_>,
        b: Tallied<'_>,
        b_run: RunInfo,
        sums: &PairSums,
    ) -> Comparison {
        let mut raw = pair_game_figures(&spec, sums);
        let (with, without) = if spec.b_is_change { (b, a) } else { (a, b) };
        raw.extend(tile_figures(with, without));
        finish(spec, raw, Report::new(b.tables, b_run, b.tally))
    }

    /// The significant differences.
    pub fn significant(&self) -> impl Iterator<Item = &Diff> {
        self.diffs.iter().filter(|d| d.significant)
    }
}

/// The tests, Holm's correction and the games to resolve each difference within the noise.
fn finish(spec: Spec, raw: Vec<Raw>, without: Report) -> Comparison {
    let tests: Vec<(Estimate, f64)> = (raw.iter())
        .map(|r| r.paired.unwrap_or_else(|| difference(&r.with, &r.without)))
        .collect();
    let p: Vec<f64> = tests.iter().map(|t| t.1).collect();
    let adjusted = holm(&p);
    let diffs = (raw.into_iter().zip(tests).zip(adjusted))
        .map(|((r, (d, p)), adj)| {
            let significant = adj <= ALPHA;
            let size = match (spec.resolve, r.unit) {
                (Some(size), Unit::Points) => size,
                _ => d.value.abs(),
            };
            Diff {
                metric: r.metric,
                tile: r.group == Group::Tile,
                with: r.with.value,
                without: r.without.value,
                difference: d,
                p,
                p_adjusted: adj,
                significant,
                group: r.group,
                unit: r.unit,
                paired: r.paired.is_some(),
                games_needed: if significant {
                    None
                } else {
                    games_needed(d.se, r.games, size)
                },
                resolve_size: size,
            }
        })
        .collect();
    Comparison {
        sets: spec.sets,
        title: spec.title,
        labels: spec.labels,
        paired: spec.paired,
        without,
        diffs,
    }
}

/// Whether a figure is listed although both sides have it at 0 (the game's and seats' are
/// always; a source or figure only where it counted).
fn listed(group: Group, with: &Estimate, without: &Estimate) -> bool {
    !matches!(group, Group::Source | Group::Figure) || with.value != 0.0 || without.value != 0.0
}

/// The game's, seats', sources' and figures' figures of a paired run, oriented with − without.
fn pair_game_figures(spec: &Spec, sums: &PairSums) -> Vec<Raw> {
    let flip = |e: Estimate| Estimate::new(-e.value, e.se);
    (0..sums.metrics.len())
        .filter_map(|i| {
            let m = &sums.metrics[i];
            let (a, b) = (sums.a[i].estimate(), sums.b[i].estimate());
            let (with, without) = if spec.b_is_change { (b, a) } else { (a, b) };
            let paired = spec.paired.then(|| {
                let (d, p) = paired_difference(&sums.d[i]);
                (if spec.b_is_change { flip(d) } else { d }, p)
            });
            listed(m.group, &with, &without).then(|| Raw {
                metric: m.name.clone(),
                group: m.group,
                unit: m.unit,
                with,
                without,
                paired,
                games: sums.games(),
            })
        })
        .collect()
}

/// The game's, seats', sources' and figures' deployments from two tallies (unpaired).
fn tally_game_figures(a: &Tally, b: &Tally) -> Vec<Raw> {
    let raw = |metric: String, group, unit, x: &Moments, y: &Moments| Raw {
        metric,
        group,
        unit,
        with: x.estimate(),
        without: y.estimate(),
        paired: None,
        games: x.n.max(y.n),
    };
    let mut out = vec![
        raw(
            "points per game".into(),
            Group::Game,
            Unit::Points,
            &a.points,
            &b.points,
        ),
        raw(
            "tiles placed per game".into(),
            Group::Game,
            Unit::Count,
            &a.tiles_placed,
            &b.tiles_placed,
        ),
        raw(
            "tiles set aside per game".into(),
            Group::Game,
            Unit::Count,
            &a.set_aside,
            &b.set_aside,
        ),
    ];
    for (p, (sa, sb)) in a.seats.iter().zip(&b.seats).enumerate() {
        let seat = p + 1;
        let name = |what: &str| format!("seat {seat}: {what}");
        out.push(raw(
            name("mean score"),
            Group::Seat,
            Unit::Points,
            &sa.score,
            &sb.score,
        ));
        out.push(raw(
            name("win rate"),
            Group::Seat,
            Unit::Rate,
            &sa.win,
            &sb.win,
        ));
    }
    for ((name, ma), (_, mb)) in a.source_points.iter().zip(&b.source_points) {
        let name = format!("points per game from {name}");
        out.push(raw(name, Group::Source, Unit::Points, ma, mb));
    }
    for ((id, ma), (_, mb)) in a.deployments.iter().zip(&b.deployments) {
        let name = format!("{id}: deployed per game");
        out.push(raw(name, Group::Figure, Unit::Count, ma, mb));
    }
    out.retain(|r| listed(r.group, &r.with, &r.without));
    out
}

/// Each tile type's figures that both sides placed (matched by id: the sides' tables may
/// differ), unpaired.
fn tile_figures(with: Tallied<'_>, without: Tallied<'_>) -> Vec<Raw> {
    let mut out = Vec::new();
    let games = with.tally.games.max(without.tally.games);
    for (kind, ka) in with.tables.kinds.iter().zip(&with.tally.kinds) {
        let Some(kb) =
            (without.tables.kind_by_id(&kind.id)).and_then(|k| without.tally.kinds.get(k.index()))
        else {
            continue;
        };
        if ka.placed == 0 || kb.placed == 0 {
            continue;
        }
        let id = &kind.id;
        let mut push = |what: &str, unit, x: &crate::stats::Ratio, y: &crate::stats::Ratio| {
            out.push(Raw {
                metric: format!("{id}: {what}"),
                group: Group::Tile,
                unit,
                with: x.estimate(),
                without: y.estimate(),
                paired: None,
                games,
            })
        };
        push("points per placement", Unit::Points, &ka.by_end, &kb.by_end);
        push(
            "completed a feature",
            Unit::Rate,
            &ka.completed,
            &kb.completed,
        );
        push("set-aside rate", Unit::Rate, &ka.set_aside, &kb.set_aside);
    }
    out
}
