//! Bot or rule? (`simulate --bot-study BOTS`): the same seeds played with each bot in every
//! seat, and how each bot uses the author's own figures, feature kinds and markers (the
//! `--focus` sets', else those not bundled), side by side, so that a figure no bot deploys
//! can be told from one a single bot misjudges.
//!
//! Per subject and bot:
//! - *uses per game*: a figure's deploys, a feature kind's deploys on it, a marker's scorings
//!   it changed (and token majorities it paid);
//! - for a figure, *deployed when it could be*: the share of the turns in which a deploy of it
//!   was legal that deployed it (turns of one game are not independent: the interval is a
//!   guide, not a test);
//! - *points per game*: what a figure's power paid (a bonus, a recall's scoring), a kind's
//!   points at its base rates, a marker's modifier and tokens;
//! - *win rate with and without*: the win rate (shared wins split) of the seats that used it
//!   in a game (deployed the figure, deployed on or scored from the kind, scored the marker's
//!   points) against the seats that did not. It says how its users fared, not that using it
//!   made them win: a seat ahead may simply have more chances to use it.
//!
//! Every move kind a rule brings (deploy, windmill, Festival return, recall, pass, donkey) is
//! counted too, per bot: in how many turns it was legal and how often it was chosen, so a
//! mechanic a bot never plays shows.

use crate::findings::{FIGURE_ALWAYS, FIGURE_NEVER};
use crate::stats::{ALPHA, Estimate, Moments, holm, wilson};
use serde::Serialize;
use std::fmt::Write;

/// What a subject is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SubjectKind {
    /// A set's figure.
    Figure,
    /// A declared feature kind.
    FeatureKind,
    /// A marker kind that pays (a modifier, an effect's marker, a token).
    Marker,
}

impl SubjectKind {
    fn word(self) -> &'static str {
        match self {
            SubjectKind::Figure => "figure",
            SubjectKind::FeatureKind => "feature kind",
            SubjectKind::Marker => "marker",
        }
    }
}

/// Running sums of one subject under one bot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UseSums {
    /// Uses per game.
    pub uses: Moments,
    /// Points per game.
    pub points: Moments,
    /// Turns in which a deploy of the figure was legal (figures only).
    pub could: u64,
    /// Those of them that deployed it.
    pub did: u64,
    /// Win share per seat and game, of the seats that used it.
    pub with: Moments,
    /// Win share per seat and game, of the seats that did not.
    pub without: Moments,
}

impl UseSums {
    /// Adds the later games' sums.
    pub fn merge(&mut self, o: &UseSums) {
        self.uses.merge(&o.uses);
        self.points.merge(&o.points);
        self.could += o.could;
        self.did += o.did;
        self.with.merge(&o.with);
        self.without.merge(&o.without);
    }
}

/// One subject under one bot.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BotUse {
    /// The bot, as `--players` names it.
    pub bot: String,
    /// Uses per game.
    pub uses_per_game: Estimate,
    /// A figure: the share of the turns it could be deployed in that deployed it.
    pub deployed_when_possible: Option<Estimate>,
    /// Turns in which it could be deployed (figures).
    pub possible_turns: u64,
    /// Points per game.
    pub points_per_game: Estimate,
    /// Win rate of the seats that used it (Wilson).
    pub win_with: Estimate,
    /// Seat-games that used it.
    pub seats_with: u64,
    /// Win rate of the seats that did not (Wilson).
    pub win_without: Estimate,
    /// Seat-games that did not.
    pub seats_without: u64,
}

/// One subject, per bot.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Subject {
    /// What it is.
    pub kind: SubjectKind,
    /// Its id.
    pub id: String,
    /// Per bot, in the study's order.
    pub bots: Vec<BotUse>,
}

/// One move kind, per bot: turns it was legal in and times chosen, per game.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Mechanic {
    /// The move kind: `deploy`, `pass`, or a rule module's action by its registry name (`windmill`,
    /// `return`, `recall`, `donkey`).
    pub name: String,
    /// What the words and the page call it: `name`, or for a creature's move the creatures'
    /// ids (`lighthouse` for a fan set's guard: `ActionId::label`). Not in the JSON, whose
    /// names are the registry's for every set.
    #[serde(skip)]
    pub label: String,
    /// Per bot: turns per game in which it was legal.
    pub legal_per_game: Vec<f64>,
    /// Per bot: times per game it was chosen.
    pub chosen_per_game: Vec<f64>,
}

/// The study.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BotStudy {
    /// Games per bot (the run's first seeds).
    pub games: u64,
    /// The bots, as `--players` names them.
    pub bots: Vec<String>,
    /// The author's figures, kinds and markers.
    pub subjects: Vec<Subject>,
    /// Every move kind that was legal under some bot.
    pub mechanics: Vec<Mechanic>,
    /// Figures never or always deployed when they could be, per bot (Holm over all figures
    /// and bots), in words.
    pub findings: Vec<String>,
}

impl BotUse {
    /// The row of a subject's sums under a bot.
    pub fn new(bot: &str, s: &UseSums, figure: bool) -> BotUse {
        BotUse {
            bot: bot.to_string(),
            uses_per_game: s.uses.estimate(),
            deployed_when_possible: figure.then(|| wilson(s.did as f64, s.could)),
            possible_turns: s.could,
            points_per_game: s.points.estimate(),
            win_with: wilson(s.with.sum, s.with.n),
            seats_with: s.with.n,
            win_without: wilson(s.without.sum, s.without.n),
            seats_without: s.without.n,
        }
    }
}

/// The two-sided score-test p-value of "the share is `t`".
fn score_p(did: u64, n: u64, t: f64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let nf = n as f64;
    let z = (did as f64 / nf - t) / (t * (1.0 - t) / nf).sqrt();
    2.0 * crate::stats::normal_upper_tail(z.abs())
}

impl BotStudy {
    /// The study of these subjects, with its findings: a figure deployed in fewer than
    /// `FIGURE_NEVER` or more than `FIGURE_ALWAYS` of the turns it could be, by a bot (Holm
    /// over every figure and bot; turns of a game are not independent, so this is a guide).
    pub fn new(
        games: u64,
        bots: Vec<String>,
        subjects: Vec<Subject>,
        mechanics: Vec<Mechanic>,
    ) -> BotStudy {
        let mut tests: Vec<(String, f64)> = Vec::new();
        for s in subjects.iter().filter(|s| s.kind == SubjectKind::Figure) {
            for b in &s.bots {
                let Some(e) = b.deployed_when_possible else {
                    continue;
                };
                let did = (e.value * b.possible_turns as f64).round() as u64;
                let (t, way) = if e.value < FIGURE_NEVER {
                    (FIGURE_NEVER, "fewer")
                } else if e.value > FIGURE_ALWAYS {
                    (FIGURE_ALWAYS, "more")
                } else {
                    continue;
                };
                if e.lo > t || e.hi < t {
                    tests.push((
                        format!(
                            "{} deploys figure {} in {:.1} % [{:.1}, {:.1}] of the {} turns it \
                             could ({way} than {:.0} %).",
                            b.bot,
                            s.id,
                            100.0 * e.value,
                            100.0 * e.lo,
                            100.0 * e.hi,
                            b.possible_turns,
                            100.0 * t
                        ),
                        score_p(did, b.possible_turns, t),
                    ));
                }
            }
        }
        let adjusted = holm(&tests.iter().map(|t| t.1).collect::<Vec<_>>());
        let findings = (tests.into_iter().zip(adjusted))
            .filter(|(_, p)| *p <= ALPHA)
            .map(|((text, _), _)| text)
            .collect();
        BotStudy {
            games,
            bots,
            subjects,
            mechanics,
            findings,
        }
    }

    /// The study as `simulate` prints it.
    pub fn text(&self) -> String {
        let mut out = format!(
            "bot or rule? ({} games per bot, each bot in every seat):\n",
            self.games
        );
        for f in &self.findings {
            let _ = writeln!(out, "  {f}");
        }
        for s in &self.subjects {
            let _ = writeln!(out, "  {} {}:", s.kind.word(), s.id);
            for b in &s.bots {
                let when = b.deployed_when_possible.map_or(String::new(), |e| {
                    format!(", {:.1} % of the turns it could", 100.0 * e.value)
                });
                let rate = |e: &Estimate, n: u64| {
                    if n == 0 {
                        "–".to_string()
                    } else {
                        format!("{:.1} %", 100.0 * e.value)
                    }
                };
                let _ = writeln!(
                    out,
                    "    {:<10} {:.2} uses/game{when}, {:.2} points/game, win rate {} with, {} without",
                    b.bot,
                    b.uses_per_game.value,
                    b.points_per_game.value,
                    rate(&b.win_with, b.seats_with),
                    rate(&b.win_without, b.seats_without)
                );
            }
        }
        let _ = writeln!(out, "  moves chosen per game / turns legal per game:");
        for m in &self.mechanics {
            let cells: Vec<String> = (self.bots.iter().enumerate())
                .map(|(i, b)| {
                    format!(
                        "{b} {:.2} / {:.2}",
                        m.chosen_per_game[i], m.legal_per_game[i]
                    )
                })
                .collect();
            let _ = writeln!(out, "    {:<16} {}", m.label, cells.join("; "));
        }
        out
    }

    /// The study's section of `report.html`.
    pub fn html(&self) -> String {
        let esc = crate::html::esc;
        let mut h = format!(
            "<h2>Bot or rule?</h2>\n<p>The first {} seeds played again with each bot in every \
             seat ({}). A figure, kind or marker that every bot leaves unused is weak by the \
             rules; one that a single bot leaves unused may be misjudged by that bot. 'With' and \
             'without' are the win rates of the seats that used it in a game and of those that \
             did not: how its users fared, not proof that it made them win. A figure's points \
             are what its power paid (a bonus, a recall's scoring); its features' points are \
             their kinds'.</p>\n",
            self.games,
            esc(&self.bots.join(", "))
        );
        if !self.findings.is_empty() {
            h.push_str("<ul>\n");
            for f in &self.findings {
                let _ = writeln!(h, "<li>{}</li>", esc(f));
            }
            h.push_str("</ul>\n");
        }
        h.push_str(
            "<table><tr><th>subject</th><th>bot</th><th>uses per game</th>\
             <th>deployed when it could be</th><th>points per game</th>\
             <th>win rate with</th><th>win rate without</th></tr>\n",
        );
        let ci = |e: &Estimate, d: usize| {
            format!(
                "{:.d$} <small>[{:.d$}, {:.d$}]</small>",
                e.value,
                e.lo,
                e.hi,
                d = d
            )
        };
        let pct = |e: &Estimate, n: u64| {
            if n == 0 {
                return "– <small>no seat</small>".to_string();
            }
            format!(
                "{:.1} % <small>[{:.1}, {:.1}] of {n}</small>",
                100.0 * e.value,
                100.0 * e.lo,
                100.0 * e.hi
            )
        };
        for s in &self.subjects {
            for (i, b) in s.bots.iter().enumerate() {
                let name = if i == 0 {
                    format!("{} <small>{}</small>", esc(&s.id), s.kind.word())
                } else {
                    String::new()
                };
                let when = b
                    .deployed_when_possible
                    .map_or("–".to_string(), |e| pct(&e, b.possible_turns));
                let _ = writeln!(
                    h,
                    "<tr><td>{name}</td><td>{}</td><td>{}</td><td>{when}</td><td>{}</td>\
                     <td>{}</td><td>{}</td></tr>",
                    esc(&b.bot),
                    ci(&b.uses_per_game, 2),
                    ci(&b.points_per_game, 2),
                    pct(&b.win_with, b.seats_with),
                    pct(&b.win_without, b.seats_without),
                );
            }
        }
        h.push_str("</table>\n<h3>Moves per game: chosen / legal</h3>\n<table><tr><th>move</th>");
        for b in &self.bots {
            let _ = write!(h, "<th>{}</th>", esc(b));
        }
        h.push_str("</tr>\n");
        for m in &self.mechanics {
            let _ = write!(h, "<tr><td>{}</td>", esc(&m.label));
            for (c, l) in m.chosen_per_game.iter().zip(&m.legal_per_game) {
                let _ = write!(h, "<td>{c:.2} / {l:.2}</td>");
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</table>\n");
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(id: &str, did: u64, could: u64) -> Subject {
        let mut s = UseSums {
            could,
            did,
            ..UseSums::default()
        };
        s.uses.add(did as f64);
        Subject {
            kind: SubjectKind::Figure,
            id: id.to_string(),
            bots: vec![BotUse::new("greedy", &s, true)],
        }
    }

    #[test]
    fn a_figure_never_or_always_deployed_is_found_and_a_middling_one_is_not() {
        let study = BotStudy::new(
            10,
            vec!["greedy".into()],
            vec![
                figure("ranger", 0, 2000),
                figure("knight", 1000, 2000),
                figure("merchant", 1999, 2000),
                // Too few turns to tell.
                figure("hermit", 0, 50),
            ],
            Vec::new(),
        );
        assert_eq!(study.findings.len(), 2, "{:#?}", study.findings);
        assert!(study.findings[0].contains("figure ranger") && study.findings[0].contains("fewer"));
        assert!(
            study.findings[1].contains("figure merchant") && study.findings[1].contains("more")
        );
        assert!(study.text().contains("figure knight:"));
        assert!(study.html().contains("<h2>Bot or rule?</h2>"));
    }
}
