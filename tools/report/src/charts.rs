//! The report's charts, each drawn once per backend from the same code: SVG (text as `<text>`,
//! inlined in `report.html`; the font is only used to measure text) and PNG (text through ab_glyph with the
//! renderer's DejaVu Sans Bold, pixels encoded by `image`).

use crate::ChartError;
use crate::compare::Comparison;
use crate::html::capitalised;
use crate::report::Report;
use plotters::coord::Shift;
use plotters::prelude::*;

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

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
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
            SIZE,
            "Points per game by source, per set".into(),
            &|a| sources(a, report),
            &|a| sources(a, report),
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

/// Stacked bars: each set's credit per game by source.
fn sources<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: &Report) -> Drawn<DB> {
    let n = r.sets.len().max(1);
    let right = r
        .sets
        .iter()
        .map(|s| s.total_per_game)
        .fold(0.0, f64::max)
        .max(1e-9)
        * 1.35;
    let labels: Vec<String> = r.sets.iter().map(|s| s.id.clone()).collect();
    let fmt = |y: &f64| {
        let i = y.round();
        if (y - i).abs() < 1e-6 && i >= 0.0 {
            labels.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let mut chart = ChartBuilder::on(root)
        .caption("Points per game by source, per set", (FONT, 24))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(120)
        .build_cartesian_2d(0.0..right, -0.5..n.max(3) as f64 - 0.5)?;
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
        chart
            .draw_series(bars)?
            .label(r.sets[0].points_per_game[src].0.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
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

/// Each tile type: points per placement (with its interval) against its set-aside rate.
fn tiles<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: &Report) -> Drawn<DB> {
    let right = r
        .tiles
        .iter()
        .map(|t| 100.0 * t.set_aside_rate.value)
        .fold(0.0, f64::max)
        .max(0.1)
        * 1.15;
    let top = r
        .tiles
        .iter()
        .map(|t| t.points_by_end.hi)
        .fold(0.0, f64::max)
        .max(1.0)
        * 1.1;
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Points per placement against set-aside rate, per tile type",
            (FONT, 22),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(-right * 0.03..right, 0.0..top)?;
    chart
        .configure_mesh()
        .x_desc("set aside, % of draws")
        .y_desc("points per placement by the end (credit)")
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .label_style((FONT, 15))
        .draw()?;
    // Where points crowd (many tiles are never set aside), only the first of a crowd is
    // named, highest first: the table names them all.
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
        let t = &r.tiles[i];
        let at = (
            100.0 * t.set_aside_rate.value * w,
            t.points_by_end.value * h,
        );
        if named
            .iter()
            .all(|p| (p.0 - at.0).abs() > 48.0 || (p.1 - at.1).abs() > 14.0)
        {
            named.push(at);
            labelled[i] = true;
        }
    }
    let sets: Vec<&str> = r.sets.iter().map(|s| s.id.as_str()).collect();
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
        chart.draw_series(rows.iter().map(|(t, _)| {
            let x = 100.0 * t.set_aside_rate.value;
            PathElement::new(
                vec![(x, t.points_by_end.lo), (x, t.points_by_end.hi)],
                c.mix(0.5).stroke_width(1),
            )
        }))?;
        chart
            .draw_series(rows.iter().map(|(t, named)| {
                let x = 100.0 * t.set_aside_rate.value;
                let label = if **named { t.id.as_str() } else { "" };
                EmptyElement::at((x, t.points_by_end.value))
                    + Circle::new((0, 0), 4, c.filled())
                    + Text::new(label.to_string(), (6, -6), (FONT, 13).into_font().color(&c))
            }))?
            .label(*set)
            .legend(move |(x, y)| Circle::new((x + 7, y), 4, c.filled()));
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

/// How many differences the A/B chart shows (the most significant first).
const SHOWN: usize = 30;

/// A/B: each difference relative to the value without the sets, with its interval; the
/// significant ones (after Holm's correction) in colour. Every figure of the game, the seats
/// and the sources is shown, then the tile figures with the smallest p-values.
fn compare<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Comparison) -> Drawn<DB> {
    let mut rows: Vec<_> = c
        .diffs
        .iter()
        .filter(|d| d.without != 0.0 && !d.tile)
        .collect();
    let mut tiles: Vec<_> = c
        .diffs
        .iter()
        .filter(|d| d.without != 0.0 && d.tile)
        .collect();
    tiles.sort_by(|a, b| a.p.total_cmp(&b.p));
    tiles.truncate(SHOWN.saturating_sub(rows.len()).max(8));
    rows.extend(tiles);
    let rel = |v: f64, d: &crate::Diff| 100.0 * v / d.without.abs();
    let wide = rows
        .iter()
        .flat_map(|d| [rel(d.difference.lo, d).abs(), rel(d.difference.hi, d).abs()])
        .fold(1.0, f64::max)
        * 1.1;
    let n = rows.len().max(1);
    let labels: Vec<String> = rows.iter().map(|d| d.metric.clone()).collect();
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
            "difference, % (colour: significant after Holm's correction over all {} figures; grey: noise)",
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
        let y = (n - 1 - i) as f64;
        let col = if d.significant {
            if d.difference.value > 0.0 {
                colour(2)
            } else {
                colour(5)
            }
        } else {
            RGBColor(150, 150, 150)
        };
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(rel(d.difference.lo, d), y), (rel(d.difference.hi, d), y)],
            col.stroke_width(2),
        )))?;
        chart.draw_series(std::iter::once(Circle::new(
            (rel(d.difference.value, d), y),
            4,
            col.filled(),
        )))?;
    }
    Ok(())
}
