//! The charts' promises: an outlier does not set the axis, the points-by-source chart has a
//! row for every set and no other, and every source of points is plotted.

use engine::Tables;
use std::sync::OnceLock;
use tilekit_report::charts::{all, axis_bound};
use tilekit_report::tally::Source;
use tilekit_report::{Report, RunInfo, Tally};

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| engine::compile(&tiledef::load_bundled()).expect("bundled data compiles"))
}

#[test]
fn an_outlier_does_not_set_the_axis() {
    // One tile set aside +3,200 %, the others within ±40 %.
    let mut values: Vec<f64> = (0..30).map(|i| f64::from(i % 9) * 10.0 - 40.0).collect();
    values.push(3200.0);
    let bound = axis_bound(&values, 1.0);
    assert!(bound < 100.0, "{bound}");
    assert!(
        bound >= 40.0,
        "{bound}: a value that is no outlier must stay on the axis"
    );
}

#[test]
fn values_without_an_outlier_keep_their_largest() {
    let values = [1.0, 2.0, 2.5, 3.0, 4.0, 6.0];
    assert_eq!(axis_bound(&values, 0.1), 6.0);
    assert_eq!(axis_bound(&[], 0.5), 0.5);
    // Mostly zeros (tiles never set aside) and one far above the rest.
    let mut rates = vec![0.0; 40];
    rates.extend([0.2, 0.5, 1.0, 17.9]);
    assert_eq!(axis_bound(&rates, 0.1), 1.0);
}

fn report(sets: &[&str]) -> Report {
    let t = tables();
    let mut tally = Tally::new(t, 2);
    for g in 0..50 {
        tally.games += 1;
        tally.points.add(40.0);
        for (i, (_, m)) in tally.source_points.iter_mut().enumerate() {
            m.add(if i % 2 == 0 {
                0.0
            } else {
                1.0 + f64::from(g % 3)
            });
        }
    }
    for set in sets {
        let s = t.sets.iter().position(|id| id == set).expect("bundled set");
        for src in Source::all(t) {
            tally.set_points[s][src.index()] += 50.0;
        }
    }
    let run = RunInfo {
        games: 50,
        players: 2,
        seats: vec!["random".into(); 2],
        seed: 1,
        sets: sets.iter().map(|s| s.to_string()).collect(),
        tiles: None,
        rules: String::new(),
        own_sets: Vec::new(),
    };
    Report::new(t, run, &tally)
}

/// The tallest filled bar of an SVG chart (rectangles narrower than the chart: not the
/// background).
fn tallest_bar(svg: &str) -> f64 {
    let attr = |rect: &str, name: &str| -> Option<f64> {
        let at = rect.find(&format!(" {name}=\""))? + name.len() + 3;
        rect[at..].split('"').next()?.parse().ok()
    };
    (svg.split("<rect").skip(1))
        .filter(|r| attr(r, "width").is_some_and(|w| w < 700.0))
        .filter_map(|r| attr(r, "height"))
        .fold(0.0, f64::max)
}

#[test]
fn the_source_chart_has_a_row_per_set_and_no_empty_row() {
    for sets in [&["base"][..], &["base", "festival"][..]] {
        let r = report(sets);
        assert_eq!(r.sets.len(), sets.len());
        let charts = all(&r, None).expect("charts draw");
        let chart = charts
            .iter()
            .find(|c| c.name == "sources")
            .expect("sources");
        // A bar fills 70 % of its row: with a row per set, over 420 px of plot, a bar is
        // taller than 0.7 × 420 / sets; an empty row would make every bar shorter.
        let tallest = tallest_bar(&chart.svg);
        let row = 420.0 / sets.len() as f64;
        assert!(
            tallest > 0.6 * row,
            "{sets:?}: bars {tallest:.0} px high, rows {row:.0} px"
        );
        for set in sets {
            // Plotters writes each text on a line of its own.
            assert!(
                chart.svg.lines().any(|l| l.trim() == *set),
                "{set} unlabelled"
            );
        }
    }
}

#[test]
fn every_source_is_plotted() {
    let r = report(&["base"]);
    let charts = all(&r, None).expect("charts draw");
    let chart = charts
        .iter()
        .find(|c| c.name == "sources")
        .expect("sources");
    for (name, e) in &r.points_by_source {
        assert!(
            chart.svg.contains(&name.replace('&', "&amp;")),
            "{name} ({}) is not on the chart",
            e.value
        );
    }
}
