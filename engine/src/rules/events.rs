//! What the rule modules say beside the core's own events, each in one shape that every
//! consumer reads: a module's events that are no move of the registry (`ModuleEvent`, carried
//! by `Event::Module`: the tokens') and the bonuses a module pays beside a scoring's own points
//! (`Bonus`, listed in `Score::bonuses`: the flowers', the marketplace networks', a figure's).
//! Their words, their JSON (`play --json`) and a record's keys for them are written here once,
//! so the core, `play` and the page name none of them.

use crate::rules::RuleSource;
use crate::scoring::Score;
use serde_json::{Value, json};
use std::fmt;

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
                    crate::scoring::scores_verb(who.len()),
                    counts.join(", ")
                )
            }
        }
    }
}

/// A bonus one player got beside a scoring's own points, from a rule module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bonus {
    /// The player (0-based).
    pub player: u8,
    /// The points it added.
    pub points: u32,
    /// What paid it, and what it counted.
    pub source: BonusSource,
}

/// What paid a bonus beside a scoring, with what it counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BonusSource {
    /// Flower groups of the player's colour on the scored feature's tiles (`flowers`): 3 each.
    Flowers {
        /// Their flower colour id.
        colour: String,
        /// Matching flower groups.
        groups: u32,
    },
    /// A figure's power `bonus` (the pig's; `powers`), or a guarding creature's (`creatures`).
    Figure {
        /// The figure kind's (or creature's) id.
        figure: String,
        /// What it counted: tiles, emblems and bordered features at its rates (0 for a
        /// guard's points, which are its own).
        counted: u32,
    },
    /// The marketplace network of a scored road (`network`).
    Network {
        /// Tiles of each other road of the marketplaces the road touches.
        roads: Vec<u32>,
    },
}

/// The kinds of bonus (`BonusSource`'s forms), in the order a scoring's words list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BonusKind {
    /// `BonusSource::Flowers`.
    Flowers,
    /// `BonusSource::Figure`.
    Figure,
    /// `BonusSource::Network`.
    Network,
}

impl BonusKind {
    /// Every kind, in the order a scoring's words list their bonuses.
    pub const ALL: [BonusKind; 3] = [BonusKind::Flowers, BonusKind::Figure, BonusKind::Network];

    /// The kinds a record's `[expect] scored` entry may check, in the order its keys are
    /// listed and written.
    pub const RECORDED: [BonusKind; 2] = [BonusKind::Flowers, BonusKind::Network];

    /// `RECORDED`'s keys, in order.
    pub const RECORD_KEYS: [&'static str; BonusKind::RECORDED.len()] = {
        let mut keys = [""; BonusKind::RECORDED.len()];
        let mut i = 0;
        while i < keys.len() {
            keys[i] = match BonusKind::RECORDED[i].record_key() {
                Some(key) => key,
                None => "",
            };
            i += 1;
        }
        keys
    };

    /// The key of its list in a scoring's JSON (`play --json`), present even when empty.
    pub fn json_key(self) -> &'static str {
        match self {
            BonusKind::Flowers => "flowers",
            BonusKind::Figure => "bonuses",
            BonusKind::Network => "network",
        }
    }

    /// Its key in a record's `[expect] scored` entry (`flowers = [[1, 3]]`); None for a kind
    /// a record does not check (a figure's).
    pub const fn record_key(self) -> Option<&'static str> {
        match self {
            BonusKind::Flowers => Some("flowers"),
            BonusKind::Figure => None,
            BonusKind::Network => Some("network"),
        }
    }

    /// The kind a record's key names, if it is one of `RECORDED`'s.
    pub fn by_record_key(key: &str) -> Option<BonusKind> {
        (BonusKind::RECORDED.into_iter()).find(|k| k.record_key() == Some(key))
    }

    /// The registry's source its points are credited to (`GameStats::rule_points`); None for
    /// a figure's, credited to the figure.
    pub fn rule_source(self) -> Option<RuleSource> {
        match self {
            BonusKind::Flowers => Some(RuleSource::FLOWERS),
            BonusKind::Figure => None,
            BonusKind::Network => Some(RuleSource::NETWORKS),
        }
    }
}

impl Bonus {
    /// Its kind.
    pub fn kind(&self) -> BonusKind {
        match self.source {
            BonusSource::Flowers { .. } => BonusKind::Flowers,
            BonusSource::Figure { .. } => BonusKind::Figure,
            BonusSource::Network { .. } => BonusKind::Network,
        }
    }

    /// As `play --json` lists it under its kind's key, the player counted from 1.
    pub fn to_json(&self) -> Value {
        let player = self.player + 1;
        let points = self.points;
        match &self.source {
            BonusSource::Flowers { colour, groups } => json!({
                "player": player, "colour": colour, "groups": groups, "points": points,
            }),
            BonusSource::Figure { figure, counted } => json!({
                "player": player, "figure": figure, "counted": counted, "points": points,
            }),
            BonusSource::Network { roads } => json!({
                "player": player, "roads": roads, "points": points,
            }),
        }
    }
}

impl fmt::Display for Bonus {
    /// As a scoring's words add it: `P1 +6 for flowers (3 × 2 yellow groups)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (player, points) = (self.player + 1, self.points);
        match &self.source {
            BonusSource::Flowers { colour, groups } => write!(
                f,
                "P{player} +{points} for flowers (3 × {groups} {colour} group{})",
                if *groups == 1 { "" } else { "s" }
            ),
            // A guard's points count nothing of the scoring: no "(0 counted)".
            BonusSource::Figure { figure, counted: 0 } => {
                write!(f, "P{player} +{points} for the {figure}")
            }
            BonusSource::Figure { figure, counted } => {
                write!(
                    f,
                    "P{player} +{points} for the {figure} ({counted} counted)"
                )
            }
            BonusSource::Network { roads } => {
                let parts: Vec<String> = roads.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "P{player} +{points} marketplace network (tiles of the other roads: {})",
                    parts.join(" + ")
                )
            }
        }
    }
}

/// A scoring's bonuses in the order its words list them: by kind (`BonusKind::ALL`), each
/// kind's in the order paid.
pub fn in_words_order(bonuses: &[Bonus]) -> impl Iterator<Item = &Bonus> {
    (BonusKind::ALL.into_iter()).flat_map(move |k| bonuses.iter().filter(move |b| b.kind() == k))
}

/// A scoring's bonuses as `play --json` writes them: one list per kind under its key, every
/// kind present.
pub fn bonuses_json(bonuses: &[Bonus]) -> serde_json::Map<String, Value> {
    (BonusKind::ALL.into_iter())
        .map(|k| {
            let listed = (bonuses.iter()).filter(|b| b.kind() == k);
            (
                k.json_key().to_string(),
                listed.map(Bonus::to_json).collect(),
            )
        })
        .collect()
}

/// What a scoring's bonuses credited to `source` paid, all players together.
pub(crate) fn paid_to(score: &Score, source: RuleSource) -> u64 {
    (score.bonuses.iter())
        .filter(|b| b.kind().rule_source() == Some(source))
        .map(|b| u64::from(b.points))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bonus(player: u8, points: u32, source: BonusSource) -> Bonus {
        Bonus {
            player,
            points,
            source,
        }
    }

    /// A guard's points (the fairy's) are its own: its words count nothing.
    #[test]
    fn a_guard_s_bonus_counts_nothing_in_its_words() {
        let fairy = BonusSource::Figure {
            figure: "fairy".into(),
            counted: 0,
        };
        assert_eq!(bonus(0, 3, fairy).to_string(), "P1 +3 for the fairy");
    }

    /// The words list the flowers', then the figures', then the networks' bonuses, whatever
    /// order they were paid in, each as a scoring's text has always said it.
    #[test]
    fn bonuses_are_said_by_kind_in_the_words_order() {
        let network = bonus(0, 5, BonusSource::Network { roads: vec![2, 3] });
        let pig = bonus(
            1,
            6,
            BonusSource::Figure {
                figure: "pig".into(),
                counted: 2,
            },
        );
        let flowers = bonus(
            1,
            3,
            BonusSource::Flowers {
                colour: "white".into(),
                groups: 1,
            },
        );
        let paid = [network, pig, flowers];
        let said: Vec<String> = in_words_order(&paid).map(Bonus::to_string).collect();
        assert_eq!(
            said,
            [
                "P2 +3 for flowers (3 × 1 white group)",
                "P2 +6 for the pig (2 counted)",
                "P1 +5 marketplace network (tiles of the other roads: 2 + 3)",
            ]
        );
        let json = serde_json::Value::Object(bonuses_json(&paid[..1]));
        assert_eq!(
            json.to_string(),
            r#"{"bonuses":[],"flowers":[],"network":[{"player":1,"points":5,"roads":[2,3]}]}"#
        );
    }

    /// A record's keys name the recorded kinds, and only those.
    #[test]
    fn record_keys_name_the_recorded_kinds() {
        assert_eq!(BonusKind::RECORD_KEYS, ["flowers", "network"]);
        for k in BonusKind::RECORDED {
            assert_eq!(
                BonusKind::by_record_key(k.record_key().unwrap_or("")),
                Some(k)
            );
        }
        assert_eq!(BonusKind::by_record_key("bonuses"), None);
    }
}
