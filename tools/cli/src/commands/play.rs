//! `tilekit play RECORD`: replays a game record, printing each turn's score events and the
//! final scores; stops with a clear error at the first illegal move.

use crate::inputs::{Inputs, load_valid};
use clap::Args;
use engine::record::{NamedFigure, Record, RecordNames, check_expectations, replay};
use engine::rules::Target;
use engine::{Event, FigureId, KindId, Phase, Tables};
use miette::IntoDiagnostic;
use std::path::PathBuf;
use std::process::ExitCode;

/// Examples shown by `tilekit play --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit play game.toml
  tilekit play game.json --json
  tilekit play my-game.toml my-set.toml definitions/base.toml   (with other definitions)";

/// Arguments of `tilekit play`.
#[derive(Args)]
pub struct PlayArgs {
    /// The game record (TOML, or JSON when it starts with `{`; see engine/RECORDS.md).
    record: PathBuf,
    #[command(flatten)]
    inputs: Inputs,
    /// Rule options on top of the record's own `[game.rules]` (its `[expect]` may then no
    /// longer hold: the scores say what the option changes).
    #[command(flatten)]
    options: crate::rules::OptionArgs,
    /// Print the events and scores as JSON.
    #[arg(long)]
    json: bool,
}

/// The id of a deployed figure (`follower` for the base follower).
fn figure_id(tables: &Tables, figure: FigureId) -> String {
    engine::rules::figure_kind_id(tables, figure)
}

/// One event as JSON; `named`, the figure its turn's move named, adds where that figure stood
/// (`at`, `feature`) to the move's event, whose `figure` is the game's internal number.
fn event_json(tables: &Tables, e: &Event, named: Option<&NamedFigure>) -> serde_json::Value {
    let tile = |k: KindId| tables.kind(k).id.clone();
    match e {
        Event::SetAside { kind } => serde_json::json!({ "set_aside": tile(*kind) }),
        Event::Placed {
            player,
            kind,
            x,
            y,
            rotation,
        } => serde_json::json!({
            "placed": { "player": player + 1, "tile": tile(*kind), "at": [x, y], "rotation": rotation }
        }),
        Event::Deployed {
            player,
            feature,
            kind,
            figure,
        } => serde_json::json!({
            "deployed": { "player": player + 1, "feature": feature, "kind": tables.feature(*kind).id,
                "figure": figure_id(tables, *figure) }
        }),
        Event::Scored(s) => scored_json(
            s,
            serde_json::json!({ "scored": {
                "players": s.players.iter().map(|p| p + 1).collect::<Vec<_>>(),
                "kind": s.kind.name(tables), "at": [s.at.0, s.at.1], "feature": s.at.2,
                "tiles": s.tiles.iter().map(|t| [t.0, t.1]).collect::<Vec<_>>(),
                "pennants": s.emblems, "cities": s.bordered.iter().map(|b| b.1).sum::<u32>(),
                "points": s.points, "reason": { "rule": s.rule(tables) }, "modifiers": s.modifiers,
                "why": s.describe(tables).to_string(),
            }}),
        ),
        Event::Returned {
            player,
            figure,
            follower,
            x,
            y,
            feature,
            kind,
        } => serde_json::json!({
            "returned": { "player": player + 1, "figure": match figure {
                    engine::game::FigureKind::Follower => figure_id(tables, *follower),
                    other => other.name().to_string(),
                }, "at": [x, y], "feature": feature, "kind": tables.feature(*kind).id }
        }),
        Event::Action {
            player,
            action,
            target,
        } => {
            let mut json = engine::rules::event_json(tables, *player, *action, *target);
            if let (Target::Figure(_), Some(n)) = (target, named)
                && let Some(body) = json
                    .get_mut(action.info().name)
                    .and_then(|b| b.as_object_mut())
            {
                body.insert("at".into(), serde_json::json!(n.at));
                body.insert("feature".into(), n.feature.into());
            }
            json
        }
        Event::Declined { player, action } => serde_json::json!({
            "declined": { "player": player + 1, "move": action.info().name }
        }),
        Event::Module(event) => event.to_json(),
        Event::GameOver { scores } => serde_json::json!({ "game_over": { "scores": scores } }),
    }
}

/// A turn's events in words (the analysis host's, which the page's log shows too).
use tilekit_analysis::game::turn_text;

/// The sets a record's `[game] sets` names that the tables lack, read leniently from a record
/// that did not parse: a fan set's record read without its file fails first at a key its file
/// declares (a creature's id), and the missing file is the thing to say.
fn sets_not_loaded(text: &str, tables: &Tables) -> Vec<String> {
    let Ok(value) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let sets = (value.get("game"))
        .and_then(|g| g.get("sets"))
        .and_then(|s| s.as_array());
    (sets.into_iter().flatten())
        .filter_map(|s| s.as_str())
        .filter(|id| !tables.sets.iter().any(|t| t == id))
        .map(str::to_string)
        .collect()
}

/// Runs `tilekit play`.
pub fn run(args: &PlayArgs) -> miette::Result<ExitCode> {
    let text = tiledef::read_text(&args.record).into_diagnostic()?;
    let Ok(tileset) = load_valid(&args.inputs)? else {
        return Ok(ExitCode::from(1));
    };
    let tables = crate::inputs::compile_tables(&tileset)?;
    // The definitions first: a turn's key may be a name they declare (a creature's id).
    let mut record = match Record::parse_with(&text, &RecordNames::of(&tables)) {
        Ok(r) => r,
        Err(e) => {
            crate::errln!("error: {}: {e}", args.record.display());
            for id in sets_not_loaded(&text, &tables) {
                crate::errln!(
                    "help: the record plays the set `{id}`, which no loaded file declares: give the file declaring it after the record (`tilekit play RECORD FILE.toml`)"
                );
            }
            return Ok(ExitCode::from(1));
        }
    };
    // What the command line switches on is checked apart from the record's own rules: a name
    // mistyped there is a usage error, not the record's.
    let mut given = engine::RuleOptions::default();
    args.options.apply(&mut given);
    if let Err(e) = engine::setup::check_rule_names(&tables, &given) {
        crate::errln!("error: {e}");
        return Ok(ExitCode::from(2));
    }
    args.options.apply(&mut record.game.rules);
    // The rules the record plays, said first (also when a later turn is illegal).
    let rules = record
        .options()
        .ok()
        .and_then(|o| engine::Game::new(&tables, o, &mut Vec::new()).ok())
        .map(|g| g.rules().clone());
    let outcome = replay(&tables, &record);
    let wrong = check_expectations(&tables, &record, &outcome);
    let expected_error = record
        .expect
        .as_ref()
        .and_then(|e| e.error.as_ref())
        .is_some();
    let mut code = ExitCode::SUCCESS;
    match &outcome {
        Ok(r) => {
            let over = r.game.phase() == Phase::Over;
            if args.json {
                let turns: Vec<Vec<serde_json::Value>> = r
                    .turns
                    .iter()
                    .zip(&r.named)
                    .map(|(t, n)| {
                        t.iter()
                            .map(|e| event_json(&tables, e, n.as_ref()))
                            .collect()
                    })
                    .collect();
                let value = serde_json::json!({
                    "rules": rules,
                    "setup": r.setup.iter().map(|e| event_json(&tables, e, None)).collect::<Vec<_>>(),
                    "turns": turns,
                    "scores": r.game.scores(),
                    "over": over,
                    "tiles_left": r.game.tiles_left(),
                    "expectations": { "checked": record.expect.is_some(), "failed": wrong },
                });
                crate::output::print_json(&value)?;
            } else {
                if let Some(rules) = &rules {
                    crate::outln!("rules: {rules}")?;
                }
                for line in turn_text(&r.game, &r.setup, None) {
                    crate::outln!("{line}")?;
                }
                for (i, t) in r.turns.iter().enumerate() {
                    crate::out!("{:>3}. ", i + 1)?;
                    let lines = turn_text(&r.game, t, r.named.get(i).and_then(Option::as_ref));
                    for (j, line) in lines.iter().enumerate() {
                        if j == 0 {
                            crate::outln!("{line}")?;
                        } else {
                            crate::outln!("     {line}")?;
                        }
                    }
                }
                let scores: Vec<String> = r
                    .game
                    .scores()
                    .iter()
                    .enumerate()
                    .map(|(p, s)| format!("P{} {s}", p + 1))
                    .collect();
                if over {
                    crate::outln!("final scores: {}", scores.join(", "))?;
                } else {
                    crate::outln!(
                        "scores after the last turn: {} ({} tiles left to draw: the record ends before the game)",
                        scores.join(", "),
                        r.game.tiles_left()
                    )?;
                }
            }
        }
        Err(e) => {
            if args.json {
                let value = serde_json::json!({
                    "rules": rules,
                    "error": { "turn": e.turn(), "message": e.to_string() },
                    "expectations": { "checked": record.expect.is_some(), "failed": wrong },
                });
                crate::output::print_json(&value)?;
            } else if expected_error {
                crate::outln!("stopped as expected: {e}")?;
            } else {
                crate::errln!("error: {}: {e}", args.record.display());
            }
            if !expected_error {
                code = ExitCode::from(1);
            }
        }
    }
    // A replay that failed unexpectedly was said above; its one "expectation", that the
    // replay succeed, would only say it again.
    let said = outcome.is_err() && !expected_error && !args.json;
    if !wrong.is_empty() {
        if !said {
            for w in &wrong {
                crate::errln!("expectation failed: {w}");
            }
        }
        code = ExitCode::from(1);
    } else if record.expect.is_some() && !args.json {
        crate::outln!("all expectations of the record hold")?;
    }
    Ok(code)
}

/// A scoring's JSON with the rule modules' bonuses (a list per kind, in the engine's one shape)
/// and the majority by strength, per player, where figures counted otherwise than one each
/// (absent otherwise, as before figures had strengths).
fn scored_json(s: &engine::Score, mut json: serde_json::Value) -> serde_json::Value {
    if let Some(scored) = json["scored"].as_object_mut() {
        scored.extend(engine::rules::bonuses_json(&s.bonuses));
    }
    if !s.strength.is_empty() {
        json["scored"]["strength"] = serde_json::json!(s.strength);
    }
    json
}
