//! The report's charts, each drawn once per backend from the same code: SVG (text as `<text>`,
//! inlined in `report.html`; the font is only used to measure text) and PNG (text through ab_glyph with the
//! renderer's DejaVu Sans Bold, pixels encoded by `image`).

use crate::ChartError;
use crate::compare::Comparison;
use crate::html::capitalised;
use crate::report::Report;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Chart size in pixels.
const SIZE: (u32, u32) = (960, 540);

/// A drawn chart.
pub struct Chart {
    /// File stem (`scores` → `scores.svg`, `scores.png`).
    pub name: &'static str,
    /// What it shows, for the page.
    pub title: String,
    /// The SVG text.
    pub svg: String,
    /// The PNG bytes.
    pub png: Vec<u8>,
}

/// Series colours (Okabe–Ito, told apart with colour blindness), then repeated.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(80, 80, 80),
];

/// Series colour `i`: the palette, then its colours darkened, then lightened, so that up to
/// 24 series (a set's sources, the author's among them) are told apart.
fn colour(i: usize) -> RGBColor {
    let RGBColor(r, g, b) = PALETTE[i % PALETTE.len()];
    let towards = |c: u8, to: u8| ((u16::from(c) + u16::from(to)) / 2) as u8;
    match (i / PALETTE.len()) % 3 {
        0 => RGBColor(r, g, b),
        1 => RGBColor(towards(r, 0), towards(g, 0), towards(b, 0)),
        _ => RGBColor(towards(r, 255), towards(g, 255), towards(b, 255)),
    }
}

/// How far the largest values must stand above the next for `axis_bound` to call them
/// outliers.
const GAP: f64 = 3.0;

/// Where a value axis ends: the largest magnitude of `values`, unless the largest few (at
/// most a tenth of them, at least one) stand more than `GAP` times above the next one: those
/// are outliers, drawn at the edge with their value written, so that one value cannot squash
/// every other to the axis. Never below `floor`.
pub fn axis_bound(values: &[f64], floor: f64) -> f64 {
    let mut v: Vec<f64> = (values.iter())
        .map(|x| x.abs())
        .filter(|x| x.is_finite())
        .collect();
    v.sort_by(|a, b| b.total_cmp(a));
    let Some(&largest) = v.first() else {
        return floor;
    };
    let most = (v.len() / 10).max(1);
    let cut = (0..most.min(v.len().saturating_sub(1))).find(|&k| v[k] > GAP * v[k + 1].max(floor));
    match cut {
        Some(k) => v[k + 1].max(floor),
        None => largest.max(floor),
    }
}

const FONT: &str = "sans-serif";

/// Tick labels without a trailing ".0".
fn tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').to_string()
    }
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Plotters' ab_glyph text keeps its fonts in a process-wide table: one registration.
        for style in [FontStyle::Normal, FontStyle::Bold] {
            let _ = plotters::style::register_font(FONT, style, tilekit_render::font::FONT_DATA);
        }
    });
}

/// Draws one chart on both backends.
fn draw(
    name: &'static str,
    size: (u32, u32),
    title: String,
    f: &dyn for<'b> Fn(&DrawingArea<SVGBackend<'b>, Shift>) -> Drawn<SVGBackend<'b>>,
    g: &dyn for<'b> Fn(&DrawingArea<BitMapBackend<'b>, Shift>) -> Drawn<BitMapBackend<'b>>,
) -> Result<Chart, ChartError> {
    let err = |e: String| ChartError {
        chart: name,
        message: e,
    };
    // Both backends measure text with the registered font.
    register_font();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
        f(&root).map_err(|e| err(e.to_string()))?;
        root.present().map_err(|e| err(e.to_string()))?;
    }
    let mut pixels = vec![0u8; (size.0 * size.1 * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
        g(&root).map_err(|e| err(e.to_string()))?;
        root.present().map_err(|e| err(e.to_string()))?;
    }
    let png = tilekit_render::raster::encode_rgb_png(size.0, size.1, &pixels)
        .map_err(|e| err(e.to_string()))?;
    Ok(Chart {
        name,
        title,
        svg,
        png,
    })
}

/// Every chart of a report (and of its comparison, if any).
pub fn all(report: &Report, comparison: Option<&Comparison>) -> Result<Vec<Chart>, ChartError> {
    let mut out = vec![
        draw(
            "scores",
            SIZE,
            "Final scores per seat".into(),
            &|a| scores(a, report),
            &|a| scores(a, report),
        )?,
        draw(
            "seats",
            SIZE,
            "Win rate per seat".into(),
            &|a| seats(a, report),
            &|a| seats(a, report),
        )?,
        draw(
            "sources",
            (SIZE.0, points_height(report) + SIZE.1),
            "Points per game by source: every source, then per set".into(),
            &|a| both_sources(a, report),
            &|a| both_sources(a, report),
        )?,
        draw(
            "tiles",
            SIZE,
            "Points per placement against set-aside rate, per tile type".into(),
            &|a| tiles(a, report),
            &|a| tiles(a, report),
        )?,
    ];
    if let Some(c) = comparison {
        out.push(draw(
            "compare",
            (SIZE.0, 760),
            format!("{}: relative differences", capitalised(&c.title)),
            &|a| compare(a, c),
            &|a| compare(a, c),
        )?);
    }
    Ok(out)
}

/// The points chart's height: room for every source's row.
fn points_height(r: &Report) -> u32 {
    let rows = r
        .points_by_source
        .iter()
        .filter(|(_, e)| e.value != 0.0)
        .count() as u32;
    (140 + 30 * rows).max(SIZE.1 / 2)
}

/// Share of games by final score, one line per seat, in bins of equal width.
fn scores<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: &Report) -> Drawn<DB> {
    let max = r
        .seats
        .iter()
        .map(|s| s.histogram.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let width = max.div_ceil(60).max(1);
    let games = r.run.games.max(1) as f64;
    let series: Vec<Vec<(f64, f64)>> = r
        .seats
        .iter()
        .map(|s| {
            (0..max.div_ceil(width))
                .map(|b| {
                    let n: u64 = s.histogram.iter().skip(b * width).take(width).sum();
                    (
                        (b * width) as f64 + width as f64 / 2.0,
                        100.0 * n as f64 / games,
                    )
                })
                .collect()
        })
        .collect();
    let top = series
        .iter()
        .flatten()
        .map(|p| p.1)
        .fold(0.0, f64::max)
        .max(1e-9)
        * 1.1;
    let mut chart = ChartBuilder::on(root)
        .caption("Final scores per seat", (FONT, 24))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..max as f64, 0.0..top)?;
    chart
        .configure_mesh()
        .x_desc(if width == 1 {
            "final score".to_string()
        } else {
            format!("final score (bins of {width})")
        })
        .y_desc("% of games")
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .label_style((FONT, 15))
        .draw()?;
    for (i, (s, line)) in r.seats.iter().zip(series).enumerate() {
        let c = colour(i);
        chart
            .draw_series(LineSeries::new(line, c.stroke_width(2)))?
            .label(format!(
                "seat {} ({}): mean {:.1}",
                s.seat, s.player, s.score.value
            ))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FONT, 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// Win rate per seat with its Wilson interval, against an even share.
fn seats<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: &Report) -> Drawn<DB> {
    let n = r.seats.len().max(1);
    let top = r
        .seats
        .iter()
        .map(|s| s.win_rate.hi)
        .fold(0.0, f64::max)
        .max(1.0 / n as f64)
        * 110.0;
    let labels: Vec<String> = r
        .seats
        .iter()
        .map(|s| format!("seat {} ({})", s.seat, s.player))
        .collect();
    let fmt = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            labels.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Win rate per seat (shared wins split; 95 % Wilson interval)",
            (FONT, 22),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..n as f64 - 0.5, 0.0..top.min(100.0))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n + 1)
        .x_label_formatter(&fmt)
        .y_desc("% of games won")
        .y_label_formatter(&tick)
        .label_style((FONT, 15))
        .draw()?;
    for (i, s) in r.seats.iter().enumerate() {
        let x = i as f64;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x - 0.3, 0.0), (x + 0.3, 100.0 * s.win_rate.value)],
            colour(i).filled(),
        )))?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x, 100.0 * s.win_rate.lo), (x, 100.0 * s.win_rate.hi)],
            BLACK.stroke_width(2),
        )))?;
        for y in [s.win_rate.lo, s.win_rate.hi] {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x - 0.08, 100.0 * y), (x + 0.08, 100.0 * y)],
                BLACK.stroke_width(2),
            )))?;
        }
    }
    let even = 100.0 / n as f64;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(-0.5, even), (n as f64 - 0.5, even)],
            BLACK.mix(0.6).stroke_width(1),
        )))?
        .label(format!("even share ({even:.1} %)"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.6)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FONT, 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// Every source above, each set's sources below.
fn both_sources<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: &Report) -> Drawn<DB> {
    let (top, bottom) = root.split_vertically(points_height(r));
    points(&top, r)?;
    sources(&bottom, r)
}

/// Room for row labels: about 9 pixels a character of the longest, at 15 px bold.
fn label_width(labels: &[String]) -> u32 {
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
    (20 + 9 * longest).clamp(80, 320)
}

/// Width of the legend beside a chart whose rows fill the plot.
const LEGEND_W: u32 = 230;

/// Stacked bars: each set's credit per game by source, one row per set (no more: a row
/// without a set would be empty and unlabelled), the legend beside the plot so it covers no
/// bar.
fn sources<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: &Report) -> Drawn<DB> {
    let n = r.sets.len().max(1);
    let right = r
        .sets
        .iter()
        .map(|s| s.total_per_game)
        .fold(0.0, f64::max)
        .max(1e-9)
        * 1.05;
    let labels: Vec<String> = r.sets.iter().map(|s| s.id.clone()).collect();
    let fmt = |y: &f64| {
        let i = y.round();
        if (y - i).abs() < 1e-6 && i >= 0.0 {
            labels.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let (width, _) = root.dim_in_pixel();
    let (plot, legend) = root.split_horizontally(width.saturating_sub(LEGEND_W));
    let mut chart = ChartBuilder::on(&plot)
        .caption("Points per game by source, per set", (FONT, 24))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(label_width(&labels))
        .build_cartesian_2d(0.0..right, -0.5..n as f64 - 0.5)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n + 1)
        .y_label_formatter(&fmt)
        .x_desc("points per game (credit of the set's tiles, all players)")
        .x_label_formatter(&tick)
        .label_style((FONT, 15))
        .draw()?;
    // Sources by their position in each set's `points_per_game` (the same list for every set).
    let sources = r.sets.first().map_or(0, |set| set.points_per_game.len());
    let present: Vec<usize> = (0..sources)
        .filter(|&s| r.sets.iter().any(|set| set.points_per_game[s].1 > 0.0))
        .collect();
    for (ci, &src) in present.iter().enumerate() {
        let c = colour(ci);
        let bars: Vec<Rectangle<(f64, f64)>> = r
            .sets
            .iter()
            .enumerate()
            .map(|(i, set)| {
                let before: f64 = set.points_per_game[..src].iter().map(|p| p.1).sum();
                let here = set.points_per_game[src].1;
                let y = i as f64;
                Rectangle::new([(before, y - 0.35), (before + here, y + 0.35)], c.filled())
            })
            .collect();
        chart.draw_series(bars)?;
    }
    let names: Vec<(String, RGBColor)> = (present.iter().enumerate())
        .map(|(ci, &src)| (r.sets[0].points_per_game[src].0.clone(), colour(ci)))
        .collect();
    side_legend(&legend, &names)
}

/// A legend drawn in its own area: a swatch and a name per series, top down.
fn side_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    names: &[(String, RGBColor)],
) -> Drawn<DB> {
    for (i, (name, c)) in names.iter().enumerate() {
        let y = 60 + 22 * i as i32;
        area.draw(&Rectangle::new([(8, y - 7), (22, y + 7)], c.filled()))?;
        area.draw(&Text::new(
            name.clone(),
            (30, y),
            (FONT, 15)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// Every source of points, as `simulate` names them (each feature kind, the author's
/// included; each figure's bonus; flowers, windmills, marketplaces; each marker kind's
/// modifier and tokens): points per game with its interval, one labelled row each. Sources
/// that never scored are named under the axis; an outlying source is drawn to the edge with
/// its value written.
fn points<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: &Report) -> Drawn<DB> {
    let rows: Vec<&(String, crate::stats::Estimate)> = (r.points_by_source.iter())
        .filter(|(_, e)| e.value != 0.0)
        .collect();
    let never: Vec<&str> = (r.points_by_source.iter())
        .filter(|(_, e)| e.value == 0.0)
        .map(|(name, _)| name.as_str())
        .collect();
    let n = rows.len().max(1);
    let his: Vec<f64> = rows.iter().map(|(_, e)| e.hi).collect();
    let bound = axis_bound(&his, 1.0);
    let right = bound * 1.3;
    let left = rows
        .iter()
        .map(|(_, e)| e.lo)
        .fold(0.0, f64::min)
        .max(-bound);
    let labels: Vec<String> = rows.iter().map(|(name, _)| name.clone()).collect();
    let fmt = |y: &f64| {
        let i = y.round();
        if (y - i).abs() < 1e-6 && i >= 0.0 {
            labels.get(n - 1 - i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let mut chart = ChartBuilder::on(root)
        .caption("Points per game by source (95 % intervals)", (FONT, 22))
        .margin(16)
        .x_label_area_size(if never.is_empty() { 44 } else { 64 })
        .y_label_area_size(200)
        .build_cartesian_2d(left..right, -0.5..n as f64 - 0.5)?;
    let desc = if never.is_empty() {
        "points per game, all players".to_string()
    } else {
        format!(
            "points per game, all players (never scored: {})",
            never.join(", ")
        )
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n + 1)
        .y_label_formatter(&fmt)
        .x_desc(desc)
        .x_label_formatter(&tick)
        .label_style((FONT, 14))
        .draw()?;
    for (i, (_, e)) in rows.iter().enumerate() {
        let y = (n - 1 - i) as f64;
        let c = colour(i);
        let clamp = |v: f64| v.clamp(left, bound);
        chart.draw_series(std::iter::once(Rectangle::new(
            [(0.0, y - 0.3), (clamp(e.value), y + 0.3)],
            c.filled(),
        )))?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(clamp(e.lo), y), (clamp(e.hi), y)],
            BLACK.stroke_width(2),
        )))?;
        let beyond = e.hi > bound;
        let text = if beyond {
            format!("▲ {:.2} [{:.2}, {:.2}]", e.value, e.lo, e.hi)
        } else {
            format!("{:.2}", e.value)
        };
        chart.draw_series(std::iter::once(Text::new(
            text,
            (clamp(e.hi), y),
            (FONT, 13)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        )))?;
    }
    Ok(())
}

/// Which tiles the tiles chart names: where points crowd (many tiles are never set aside),
/// only the first of a crowd, highest first (the table names them all); an outlier always.
fn tiles_named(
    r: &Report,
    at: &dyn Fn(&crate::report::TileRow) -> (f64, f64),
    (right, top): (f64, f64),
    outlier: &dyn Fn(usize) -> bool,
) -> Vec<bool> {
    let (w, h) = (f64::from(SIZE.0) / right, f64::from(SIZE.1) / top);
    let mut order: Vec<usize> = (0..r.tiles.len()).collect();
    order.sort_by(|&a, &b| {
        r.tiles[b]
            .points_by_end
            .value
            .total_cmp(&r.tiles[a].points_by_end.value)
    });
    let mut named: Vec<(f64, f64)> = Vec::new();
    let mut labelled = vec![false; r.tiles.len()];
    for i in order {
        let (x, y) = at(&r.tiles[i]);
        let p = (x * w, y * h);
        if outlier(i)
            || named
                .iter()
                .all(|q| (q.0 - p.0).abs() > 48.0 || (q.1 - p.1).abs() > 14.0)
        {
            named.push(p);
            labelled[i] = true;
        }
    }
    labelled
}

/// Draws a tile type's point on the tiles chart at `at`, named when `named`: a circle, or
/// for a set-aside rate beyond the axis (`bound`) a triangle at the edge with the rate written.
fn tile_point<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    t: &crate::report::TileRow,
    (named, at): (bool, (f64, f64)),
    bound: f64,
    c: RGBColor,
) -> Drawn<DB> {
    let rate = 100.0 * t.set_aside_rate.value;
    let outlier = rate > bound;
    let label = match (named, outlier) {
        (true, true) => format!("{} {rate:.1} %", t.id),
        (true, false) => t.id.clone(),
        _ => String::new(),
    };
    let mark: DynElement<DB, (i32, i32)> = if outlier {
        TriangleMarker::new((0, 0), 6, c.filled()).into_dyn()
    } else {
        Circle::new((0, 0), 4, c.filled()).into_dyn()
    };
    let text_style = (FONT, 13).into_font().color(&c);
    let text = if outlier {
        Text::new(
            label,
            (-8, -22),
            text_style.pos(Pos::new(HPos::Right, VPos::Top)),
        )
    } else {
        Text::new(label, (6, -6), text_style)
    };
    chart.draw_series(std::iter::once(EmptyElement::at(at) + mark + text))?;
    Ok(())
}

/// Each tile type: points per placement (with its interval) against its set-aside rate. An
/// outlying set-aside rate (`axis_bound`) is drawn at the right edge as a triangle with its
/// value written.
fn tiles<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: &Report) -> Drawn<DB> {
    let rates: Vec<f64> = r
        .tiles
        .iter()
        .map(|t| 100.0 * t.set_aside_rate.value)
        .collect();
    let bound = axis_bound(&rates, 0.1);
    let right = bound * 1.15;
    let his: Vec<f64> = r.tiles.iter().map(|t| t.points_by_end.hi).collect();
    let top = axis_bound(&his, 1.0) * 1.1;
    // The legend beside the plot, so that it covers no tile.
    let (width, _) = root.dim_in_pixel();
    let (plot, legend) = root.split_horizontally(width.saturating_sub(LEGEND_W));
    let mut chart = ChartBuilder::on(&plot)
        .caption(
            "Points per placement against set-aside rate, per tile type",
            (FONT, 22),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(-right * 0.03..right, -top * 0.03..top)?;
    let clipped = rates.iter().filter(|&&x| x > bound).count();
    if clipped > 0 {
        // The axis breaks here: what lies right of the line is beyond it.
        let at = bound * 1.04;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(at, -top * 0.03), (at, top)],
            RGBColor(150, 150, 150).stroke_width(1),
        )))?;
    }
    chart
        .configure_mesh()
        .x_desc(if clipped > 0 {
            format!(
                "set aside, % of draws (▲ at the edge: {clipped} beyond the axis, value written)"
            )
        } else {
            "set aside, % of draws".to_string()
        })
        .y_desc("points per placement by the end (credit)")
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .label_style((FONT, 15))
        .draw()?;
    // Where a point lies on the chart: an outlier at the edge.
    let at = |t: &crate::report::TileRow| {
        let rate = 100.0 * t.set_aside_rate.value;
        let x = if rate > bound { bound * 1.08 } else { rate };
        (x, t.points_by_end.value.min(top))
    };
    let labelled = tiles_named(r, &|t| at(t), (right, top), &|i| rates[i] > bound);
    let sets: Vec<&str> = r.sets.iter().map(|s| s.id.as_str()).collect();
    let mut names = Vec::new();
    for (si, set) in sets.iter().enumerate() {
        let c = colour(si);
        let rows: Vec<_> = r
            .tiles
            .iter()
            .zip(&labelled)
            .filter(|(t, _)| t.set == *set)
            .collect();
        if rows.is_empty() {
            continue;
        }
        names.push((set.to_string(), c));
        chart.draw_series(rows.iter().map(|(t, _)| {
            let (x, _) = at(t);
            PathElement::new(
                vec![(x, t.points_by_end.lo), (x, t.points_by_end.hi.min(top))],
                c.mix(0.5).stroke_width(1),
            )
        }))?;
        for (t, named) in &rows {
            tile_point(&mut chart, t, (**named, at(t)), bound, c)?;
        }
    }
    side_legend(&legend, &names)
}

/// The A/B chart's rows: every figure of the game, the seats and the sources (a source new
/// with the sets too), then the tile figures with the smallest p-values.
fn compare_rows(c: &Comparison) -> Vec<&crate::Diff> {
    let mut rows: Vec<_> = (c.diffs.iter())
        .filter(|d| !d.tile && (d.without != 0.0 || d.with != 0.0))
        .collect();
    let mut tiles: Vec<_> = (c.diffs.iter())
        .filter(|d| d.without != 0.0 && d.tile)
        .collect();
    tiles.sort_by(|a, b| a.p.total_cmp(&b.p));
    tiles.truncate(SHOWN.saturating_sub(rows.len()).max(8));
    rows.extend(tiles);
    rows
}

/// One difference of the A/B chart at row `y`: its interval and point, clamped to the axis
/// (`bound`) with the value written where it is beyond; a new source as its points per game.
fn compare_row<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    d: &crate::Diff,
    y: f64,
    bound: f64,
) -> Drawn<DB> {
    let rel = |v: f64| 100.0 * v / d.without.abs();
    let col = if d.significant {
        if d.difference.value > 0.0 {
            colour(2)
        } else {
            colour(5)
        }
    } else {
        RGBColor(150, 150, 150)
    };
    let style = (FONT, 13).into_font().color(&col);
    if d.without == 0.0 {
        // No relative difference from nothing: the new source's points, at the edge.
        chart.draw_series(std::iter::once(
            EmptyElement::at((bound, y))
                + TriangleMarker::new((0, 0), 6, col.filled())
                + Text::new(
                    format!("new: {:+.2} per game", d.difference.value),
                    (-10, -6),
                    style.pos(Pos::new(HPos::Right, VPos::Center)),
                ),
        ))?;
        return Ok(());
    }
    let clamp = |v: f64| v.clamp(-bound, bound);
    chart.draw_series(std::iter::once(PathElement::new(
        vec![
            (clamp(rel(d.difference.lo)), y),
            (clamp(rel(d.difference.hi)), y),
        ],
        col.stroke_width(2),
    )))?;
    let v = rel(d.difference.value);
    if v.abs() > bound {
        let (x, anchor, dx) = if v > 0.0 {
            (bound, HPos::Right, -10)
        } else {
            (-bound, HPos::Left, 10)
        };
        chart.draw_series(std::iter::once(
            EmptyElement::at((x, y))
                + TriangleMarker::new((0, 0), 6, col.filled())
                + Text::new(
                    format!("{v:+.0} %"),
                    (dx, -8),
                    style.pos(Pos::new(anchor, VPos::Center)),
                ),
        ))?;
    } else {
        chart.draw_series(std::iter::once(Circle::new((v, y), 4, col.filled())))?;
    }
    Ok(())
}

/// How many differences the A/B chart shows (the most significant first).
const SHOWN: usize = 30;

/// A/B: each difference relative to the value without the sets, with its interval; the
/// significant ones (after Holm's correction) in colour. Every figure of the game, the seats
/// and the sources is shown (a source new with the sets, 0 without them, as its points per
/// game at the right edge), then the tile figures with the smallest p-values. The axis ends
/// at `axis_bound`: a difference beyond it is drawn at the edge with its value written.
fn compare<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Comparison) -> Drawn<DB> {
    let rows = compare_rows(c);
    let rel = |v: f64, d: &crate::Diff| 100.0 * v / d.without.abs();
    let ends: Vec<f64> = (rows.iter())
        .filter(|d| d.without != 0.0)
        .flat_map(|d| [rel(d.difference.lo, d), rel(d.difference.hi, d)])
        .collect();
    let bound = axis_bound(&ends, 1.0);
    let wide = bound * 1.1;
    let n = rows.len().max(1);
    let labels: Vec<String> = (rows.iter())
        .map(|d| {
            if d.without == 0.0 {
                format!("{} (new)", d.metric)
            } else {
                d.metric.clone()
            }
        })
        .collect();
    let fmt = |y: &f64| {
        let i = y.round();
        if (y - i).abs() < 1e-6 && i >= 0.0 {
            labels.get(n - 1 - i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let mut chart = ChartBuilder::on(root)
        .caption(
            if c.sets.is_empty() {
                format!(
                    "{} − {}, % of the value {} (95 % intervals)",
                    c.labels[0], c.labels[1], c.labels[1]
                )
            } else {
                format!(
                    "With − without {}, % of the value without (95 % intervals)",
                    c.sets.join(", ")
                )
            },
            (FONT, 20),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(300)
        .build_cartesian_2d(-wide..wide, -0.5..n as f64 - 0.5)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n + 1)
        .y_label_formatter(&fmt)
        .x_desc(format!(
            "difference, % (colour: significant, Holm over all {} figures; grey: noise; ▲ beyond the axis)",
            c.diffs.len()
        ))
        .x_label_formatter(&tick)
        .label_style((FONT, 13))
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(0.0, -0.5), (0.0, n as f64 - 0.5)],
        BLACK.stroke_width(1),
    )))?;
    for (i, d) in rows.iter().enumerate() {
        compare_row(&mut chart, d, (n - 1 - i) as f64, bound)?;
    }
    Ok(())
}
