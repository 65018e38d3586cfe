//! What the rule modules say beside the core's own events, in one shape that every consumer
//! reads: a module's events that are no move of the registry (`ModuleEvent`, carried by
//! `Event::Module`: the tokens'). Their words and their JSON (`play --json`) are written here
//! once, so the core, `play` and the page name none of them.

use serde_json::{Value, json};

/// An event of a rule module that is not a move or an event of the registry (`ACTIONS`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModuleEvent {
    /// The player who completed a road or city took the tokens its markers give (`tokens`).
    Tokens {
        /// The player.
        player: u8,
        /// The good's id: its token's `id`, else the marker kind's id.
        marker: String,
        /// How many.
        count: u32,
    },
    /// A token majority was scored at the end (`tokens`).
    TokenMajority {
        /// The good's id: its token's `id`, else the marker kind's id.
        marker: String,
        /// The players with the most, each scoring `points`.
        players: Vec<u8>,
        /// Tokens by player.
        tokens: Vec<u32>,
        /// Points each of `players` scores.
        points: u32,
    },
}

impl ModuleEvent {
    /// As `play --json` writes it: `{ name: { … } }`, players counted from 1.
    pub fn to_json(&self) -> Value {
        match self {
            ModuleEvent::Tokens {
                player,
                marker,
                count,
            } => json!({
                "tokens": { "player": player + 1, "token": marker, "count": count }
            }),
            ModuleEvent::TokenMajority {
                marker,
                players,
                tokens,
                points,
            } => json!({ "token_majority": {
                "token": marker, "players": players.iter().map(|p| p + 1).collect::<Vec<_>>(),
                "tokens": tokens, "points": points,
            }}),
        }
    }

    /// In words, as `play` and the page's log say it: `P1 takes 2 × cloth`.
    pub fn words(&self) -> String {
        match self {
            ModuleEvent::Tokens {
                player,
                marker,
                count,
            } => format!("P{} takes {count} × {marker}", player + 1),
            ModuleEvent::TokenMajority {
                marker,
                players,
                tokens,
                points,
            } => {
                let who: Vec<String> = players.iter().map(|p| format!("P{}", p + 1)).collect();
                let counts: Vec<String> = (tokens.iter().enumerate())
                    .map(|(p, n)| format!("P{} {n}", p + 1))
                    .collect();
                format!(
                    "final {marker}: {} {} {points} points for the most {marker} ({})",
                    who.join(", "),
                    if who.len() > 1 {
                        "each score"
                    } else {
                        "scores"
                    },
                    counts.join(", ")
                )
            }
        }
    }
}
