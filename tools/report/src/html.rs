//! `report.html`: one self-contained page (charts inlined as SVG, no script, no external file),
//! so it opens from disk and can be mailed.

use crate::charts::Chart;
use crate::compare::Comparison;
use crate::findings::{Finding, FindingKind};
use crate::report::{Report, TileRow};
use crate::stats::Estimate;
use std::fmt::Write;

/// The text escaped for HTML.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn ci(e: &Estimate, digits: usize) -> String {
    format!(
        "{:.d$} <small>[{:.d$}, {:.d$}]</small>",
        e.value,
        e.lo,
        e.hi,
        d = digits
    )
}

fn pct(e: &Estimate) -> String {
    format!(
        "{:.1} % <small>[{:.1}, {:.1}]</small>",
        100.0 * e.value,
        100.0 * e.lo,
        100.0 * e.hi
    )
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1000px;\
color:#222}table{border-collapse:collapse;margin:1em 0}td,th{padding:2px 8px;border-bottom:1px \
solid #ddd;text-align:right}th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}\
small{color:#777}.sig{font-weight:bold;color:#a40}figure{margin:1em 0}svg{max-width:100%;\
height:auto}p.note{color:#555;font-size:90%}.strip{display:inline-block;position:relative;\
width:180px;height:16px}.strip span{position:absolute}.strip .axis{left:0;right:0;top:12px;\
border-top:1px solid #bbb}.strip .thr{top:0;height:16px;border-left:2px dashed #c00}.strip .ci{\
top:7px;height:2px;background:#000}.strip .dot{top:5px;width:6px;height:6px;margin-left:-3px;\
border-radius:3px;background:#000}.findings td{text-align:left}";

/// The page.
pub fn page(r: &Report, comparison: Option<&Comparison>, charts: &[Chart]) -> String {
    let mut h = String::new();
    let run = &r.run;
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>tilekit balance report</title><style>{STYLE}</style></head><body>\n\
         <h1>Balance report</h1>\n<p>{} games of {} players ({}), seed {}, sets {}{}.<br>\
         Rules: {}.</p>\n",
        run.games,
        run.players,
        esc(&run.seats.join(", ")),
        run.seed,
        esc(&run.sets.join(", ")),
        run.tiles
            .map(|t| format!(", {t} tiles per game"))
            .unwrap_or_default(),
        esc(&run.rules)
    );
    let _ = writeln!(
        h,
        "<p>Points per game {}; tiles placed per game {}; set aside per game {}. All intervals \
         are 95 %.</p>",
        ci(&r.points_per_game, 1),
        ci(&r.tiles_placed_per_game, 1),
        ci(&r.set_aside_per_game, 3)
    );
    let chart = |h: &mut String, name: &str| {
        if let Some(c) = charts.iter().find(|c| c.name == name) {
            let svg = c
                .svg
                .trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
            let _ = writeln!(
                h,
                "<figure>{svg}<figcaption>{} (<a href=\"{}.png\">PNG</a>, <a href=\"{}.svg\">SVG</a>)</figcaption></figure>",
                esc(&c.title),
                c.name,
                c.name
            );
        }
    };
    findings_section(&mut h, r);
    if let Some(study) = &r.bot_study {
        h.push_str(&study.html());
    }
    if let Some(c) = comparison {
        h.push_str(&compare_section(c));
        chart(&mut h, "compare");
    }
    seats_section(&mut h, r);
    chart(&mut h, "seats");
    chart(&mut h, "scores");
    sources_section(&mut h, r);
    chart(&mut h, "sources");
    tiles_section(&mut h, r);
    chart(&mut h, "tiles");
    h.push_str("</body></html>\n");
    h
}

/// What the report finds out of line, first: each finding's sentence, a strip of its
/// interval against its threshold, and the tile's picture for a tile.
fn findings_section(h: &mut String, r: &Report) {
    h.push_str("<h2>Findings</h2>\n");
    if r.findings.is_empty() {
        h.push_str(
            "<p>Nothing is out of line with confidence: no tile type set aside in more than \
             20 % of games, no source far from the others, no figure never or always \
             deployed, no seat winning more or less than its share.</p>\n",
        );
    } else {
        h.push_str("<table class=\"findings\">\n");
        for f in &r.findings {
            let picture = match f.kind {
                FindingKind::TileSetAsideOften if r.tile_pictures => format!(
                    "<img src=\"tiles/{}.png\" width=\"40\" height=\"40\" alt=\"\">",
                    esc(&f.subject)
                ),
                _ => String::new(),
            };
            let _ = writeln!(
                h,
                "<tr><td>{picture}</td><td>{}</td><td>{}</td></tr>",
                esc(&f.statement),
                strip(f)
            );
        }
        h.push_str("</table>\n");
    }
    h.push_str(
        "<p class=\"note\">A finding is stated only when its 95 % interval excludes its \
         threshold after Holm's correction over its family (all tile types, all sources, all \
         figures, all seats). The strip shows the interval (black) against the threshold (red); \
         a source's bar is two times, or a quarter of, the median source.</p>\n",
    );
}

/// A small inline picture of a finding: its interval and value on an axis from 0, the
/// threshold marked. Plain HTML (the page's `<svg>` elements are its charts).
fn strip(f: &Finding) -> String {
    let top = if f.unit == "share of games" {
        1.0
    } else {
        f.value.hi.max(f.threshold).max(1e-9) * 1.1
    };
    let at = |v: f64| 100.0 * (v / top).clamp(0.0, 1.0);
    let (lo, hi) = (at(f.value.lo), at(f.value.hi));
    format!(
        "<span class=\"strip\" title=\"interval (black) against the threshold (red)\">\
         <span class=\"axis\"></span><span class=\"thr\" style=\"left:{:.1}%\"></span>\
         <span class=\"ci\" style=\"left:{lo:.1}%;width:{:.1}%\"></span>\
         <span class=\"dot\" style=\"left:{:.1}%\"></span></span>",
        at(f.threshold),
        (hi - lo).max(0.5),
        at(f.value.value),
    )
}

/// The seats' table, and the flower colours' when colours are dealt.
fn seats_section(h: &mut String, r: &Report) {
    h.push_str("<h2>Seats</h2>\n<table><tr><th>seat</th><th>player</th><th>mean score</th><th>sd</th><th>win rate (Wilson)</th></tr>\n");
    for s in &r.seats {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{}</td></tr>",
            s.seat,
            esc(&s.player),
            ci(&s.score, 1),
            s.score_sd,
            pct(&s.win_rate)
        );
    }
    h.push_str("</table>\n");
    if !r.flower_colours.is_empty() {
        h.push_str(
            "<h3>By flower colour</h3>\n<p class=\"note\">Colours are dealt at random, so every \
             colour's player should fare alike; one whose win rate stands apart pays more (its \
             flowers are on more tiles, or on tiles that score more).</p>\n<table><tr>\
             <th>colour</th><th>games</th><th>mean score</th><th>win rate (Wilson)</th></tr>\n",
        );
        for c in &r.flower_colours {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&c.colour),
                c.games,
                ci(&c.score, 1),
                pct(&c.win_rate)
            );
        }
        h.push_str("</table>\n");
    }
}

/// Points by source, figures deployed, and the credit by set.
fn sources_section(h: &mut String, r: &Report) {
    h.push_str(
        "<h2>Points by source</h2>\n<table><tr><th>source</th><th>points per game</th></tr>\n",
    );
    for (name, e) in &r.points_by_source {
        if e.value != 0.0 {
            let _ = writeln!(h, "<tr><td>{}</td><td>{}</td></tr>", esc(name), ci(e, 2));
        }
    }
    h.push_str("</table>\n");
    if !r.actions_per_game.is_empty() {
        h.push_str(
            "<h2>Rule moves</h2>\n<table><tr><th>move</th><th>per game</th>\
             <th>points its turns scored, per game</th></tr>\n",
        );
        for (name, e) in &r.actions_per_game {
            let paid = (r.action_points_per_game.iter())
                .find(|(n, _)| n == name)
                .map_or_else(|| "–".to_string(), |(_, p)| ci(p, 2));
            let label = (r.move_labels.iter())
                .find(|(n, _)| n == name)
                .map_or(name, |(_, label)| label);
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{paid}</td></tr>",
                esc(label),
                ci(e, 2)
            );
        }
        h.push_str("</table>\n");
    }
    if r.deployments_per_game.iter().any(|(_, e)| e.value > 0.0) {
        h.push_str(
            "<h2>Figures deployed</h2>\n<table><tr><th>figure</th><th>per game</th>\
             <th>deployed at least once, % of the games it is dealt in</th></tr>\n",
        );
        for (id, e) in &r.deployments_per_game {
            let games = match r.figures.iter().find(|f| &f.id == id) {
                Some(f) => format!(
                    "{} <small>of {} games</small>",
                    pct(&f.deployed_games),
                    f.dealt_games
                ),
                None => "– <small>never dealt</small>".to_string(),
            };
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{games}</td></tr>",
                esc(id),
                ci(e, 2)
            );
        }
        h.push_str("</table>\n");
    }
    // The credit by set splits points by the credit rule's own, coarser sources.
    h.push_str("<table><tr><th>set</th>");
    let credit_sources: &[(String, f64)] = r.sets.first().map_or(&[], |s| &s.points_per_game);
    let present: Vec<usize> = (0..credit_sources.len())
        .filter(|&i| r.sets.iter().any(|s| s.points_per_game[i].1 > 0.0))
        .collect();
    for &i in &present {
        let _ = write!(h, "<th>{}</th>", esc(&credit_sources[i].0));
    }
    h.push_str("<th>total</th><th>share</th></tr>\n");
    for s in &r.sets {
        let _ = write!(h, "<tr><td>{}</td>", esc(&s.id));
        for &i in &present {
            let _ = write!(h, "<td>{:.2}</td>", s.points_per_game[i].1);
        }
        let _ = writeln!(
            h,
            "<td>{:.2}</td><td>{:.1} %</td></tr>",
            s.total_per_game,
            100.0 * s.share
        );
    }
    let _ = write!(
        h,
        "</table>\n<p class=\"note\">A set's points are the credit of its tiles (the start \
         tile's {:.2} per game included in its set). {}</p>\n",
        r.start_tile_points_per_game,
        esc(r.credit_rule)
    );
}

/// The tile types' table and its note.
fn tiles_section(h: &mut String, r: &Report) {
    h.push_str(
        "<h2>Tile types</h2>\n<table><tr><th>tile</th><th>set</th><th>drawn per game</th>\
         <th>set aside</th><th>points at once</th><th>points by the end</th>\
         <th>completed a feature</th><th>win rate of the seat that drew most</th></tr>\n",
    );
    for t in &r.tiles {
        tile_row(h, r, t);
    }
    h.push_str(
        "</table>\n<p class=\"note\">Points per placement are credit (see above); \
         'completed a feature' counts the placements in whose turn a complete feature scored \
         (a feature closed with no follower on it scores nothing and is not seen). The last \
         column is, over the games in which one seat drew more copies of the tile than any \
         other (placed or set aside), that seat's win rate (shared wins split).</p>\n",
    );
}

/// One tile type's row.
fn tile_row(h: &mut String, r: &Report, t: &TileRow) {
    let mut id = esc(&t.id);
    if r.tile_pictures {
        id = format!(
            "<img src=\"tiles/{}.png\" width=\"48\" height=\"48\" alt=\"\" style=\"vertical-align: middle\"> {id}",
            esc(&t.id)
        );
    }
    if t.start {
        id.push_str(" <small>(start tile, placed before the first turn)</small>");
    }
    if let Some(way) = t.outlier {
        let _ = write!(
            id,
            " <strong title=\"more than two standard deviations from the tile types' mean\">{} {way}</strong>",
            if way == "high" { "▲" } else { "▼" }
        );
    }
    let lead = match t.one_seat {
        _ if t.start => "–".to_string(),
        Some((seat, share)) => format!(
            "{} <small>of {} games; seat {seat} drew {:.0} % of its copies: drawn in a fixed order, this says more about the seat than the tile</small>",
            pct(&t.lead_win_rate),
            t.lead_games,
            100.0 * share
        ),
        None => format!(
            "{} <small>of {} games</small>",
            pct(&t.lead_win_rate),
            t.lead_games
        ),
    };
    let drawn = if t.start {
        "–".to_string()
    } else {
        format!("{:.2}", t.drawn_per_game)
    };
    let (aside, at_once, done) = if t.start {
        ("–".to_string(), "–".to_string(), "–".to_string())
    } else {
        (
            pct(&t.set_aside_rate),
            ci(&t.points_at_once, 2),
            pct(&t.completed_rate),
        )
    };
    let _ = writeln!(
        h,
        "<tr><td>{id}</td><td>{}</td><td>{drawn}</td><td>{aside}</td><td>{at_once}</td><td>{}</td><td>{done}</td><td>{lead}</td></tr>",
        esc(&t.set),
        ci(&t.points_by_end, 2),
    );
}

fn compare_section(c: &Comparison) -> String {
    let mut h = String::new();
    let sig = c.significant().count();
    let _ = writeln!(
        h,
        "<h2>{}</h2>\n<p>The same seeds played {}{}: {sig} of {} \
         differences are significant (Holm's correction over all of them, family error 5 %); \
         the others are within the noise of {} games.</p>",
        esc(&capitalised(&c.title)),
        if c.sets.is_empty() {
            "on both sides".to_string()
        } else {
            format!("without {}", esc(&c.sets.join(", ")))
        },
        if c.paired {
            ", each game drawing the same tiles on both (paired intervals, but for tile types)"
        } else {
            ""
        },
        c.diffs.len(),
        c.without.run.games,
    );
    let table = |h: &mut String, significant: bool| {
        let _ = writeln!(
            h,
            "<table><tr><th>figure</th><th>{}</th><th>{}</th>\
             <th>difference [95 %]</th><th>p (Holm)</th>{}</tr>",
            esc(&c.labels[0]),
            esc(&c.labels[1]),
            if significant {
                ""
            } else {
                "<th>games to resolve it</th>"
            },
        );
        for d in c.diffs.iter().filter(|d| d.significant == significant) {
            let resolve = match (significant, d.games_needed) {
                (true, _) => String::new(),
                (false, Some(n)) => format!("<td>{n} (for ±{:.3})</td>", d.resolve_size),
                (false, None) => "<td>–</td>".to_string(),
            };
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{:.3}</td><td>{:.3}</td><td>{}</td><td>{}</td>{resolve}</tr>",
                esc(&d.metric),
                d.with,
                d.without,
                ci(&d.difference, 3),
                if d.p_adjusted < 0.001 {
                    "&lt; 0.001".to_string()
                } else {
                    format!("{:.3}", d.p_adjusted)
                },
            );
        }
        h.push_str("</table>\n");
    };
    if sig > 0 {
        table(&mut h, true);
    }
    let _ = writeln!(
        h,
        "<details><summary>The {} differences within the noise</summary>",
        c.diffs.len() - sig
    );
    table(&mut h, false);
    h.push_str("</details>\n");
    h
}

/// A heading's text: its first letter upper-case.
pub(crate) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
