//! The expansions' rules as modules. Each mechanic that needs code is one module holding its
//! own state in `Modules` (`None` when the game does not play it) and is called by
//! `crate::game` at a fixed set of hooks, in a fixed order, dispatched here; the modules work
//! on the surface of `crate::state` (and score through `crate::scoring`), never import
//! `crate::game`, and read what the compiled tables say (markers with a rule, flower groups,
//! line ends at hubs, edge meetings), so a new tile needs no code.
//!
//! | hook | when | modules |
//! |---|---|---|
//! | `filter` | a tile is drawn: its placements | donkey |
//! | `placed` | a tile is placed, before the second step | powers (the extra tile) |
//! | second-step moves | after placing: `ActionGroup`s, counted and made by `Game::action_count` and `nth_action` | windmill, festival, donkey, powers (recall) |
//! | `completed` | a feature is completed, scored or not | tokens |
//! | `scored` | a feature is scored: bonuses beside its points | flowers |
//! | completions | roads closed at a hub, waiting for their network (`Game::end_turn`) | network |
//! | `end_turn` | after the completions of a turn | windmill |
//! | `final_scoring` | after the features' final scoring | windmill, tokens |
//! | `plays_again` | the turn ends: whether the same player places the next tile | powers (the extra tile) |
//!
//! - `in_play`: which rules a game plays (the options, else the data of its sets);
//! - `festival`: returning a figure after placing a Festival tile (no state);
//! - `donkey`, `windmill`, `flowers`, `network` (marketplace networks, no state): Village
//!   Life's mechanics (bushes need no code: the `close` meeting of the vocabulary does it in
//!   `Core::join`);
//! - `tokens`: tokens given by completed features' markers, scored by majority at the end;
//! - `powers`: the set figures' `recall` and `extra-tile` (the abbot's, the builder's).

pub(crate) mod donkey;
pub mod festival;
pub(crate) mod flowers;
pub(crate) mod in_play;
pub(crate) mod network;
pub(crate) mod powers;
pub(crate) mod tokens;
pub(crate) mod windmill;

use crate::ids::{KindId, NodeId, PlacedId};
use crate::placements::Placements;
use crate::state::{Core, Event, Game};

/// The rule modules a game plays, each with its own state; a module not in play is `None`,
/// and each of its hooks costs the game one test.
#[derive(Clone, Debug, Default)]
pub(crate) struct Modules {
    /// The donkey (Village Life).
    pub(crate) donkey: Option<donkey::Donkey>,
    /// The windmills (Village Life), when the game deals any.
    pub(crate) windmills: Option<windmill::Windmills>,
    /// The players' flower colours, when flowers pay (Village Life).
    pub(crate) flowers: Option<flowers::Flowers>,
    /// The tokens held, when a marker kind on the game's tiles gives one (goods).
    pub(crate) tokens: Option<tokens::Tokens>,
    /// The extra tile's progress, when a figure of the game has the power `extra-tile`.
    pub(crate) extra_tile: Option<powers::ExtraTile>,
}

impl Modules {
    /// The `filter` hook: clears from the drawn tile's masks the placements a module forbids.
    #[inline]
    pub(crate) fn filter(&mut self, core: &Core<'_>, place: &mut Placements, kind: KindId) {
        if let Some(donkey) = &mut self.donkey {
            donkey.filter(core, place, kind);
        }
    }

    /// Whether a module reads `Node::ends_at` (the donkey's filter), which `put` then keeps.
    #[inline]
    pub(crate) fn wants_ends(&self) -> bool {
        self.donkey.is_some()
    }
}

impl Game<'_> {
    /// The `placed` hook: the tile just placed may earn its player a figure's extra tile (not
    /// while they are placing one).
    #[inline]
    pub(crate) fn placed_modules(&mut self, placed: PlacedId, events: &mut Vec<Event>) {
        if self
            .modules
            .extra_tile
            .is_some_and(|e| e.turn == powers::ExtraTurn::None)
        {
            powers::earn_extra_tile(self, placed, events);
        }
    }

    /// The `plays_again` hook, as a turn ends: whether its player places the next tile too (an
    /// extra tile earned), moving the extra tile on to its next state.
    #[inline]
    pub(crate) fn plays_again(&mut self) -> bool {
        let Some(extra) = &mut self.modules.extra_tile else {
            return false;
        };
        let again = extra.turn == powers::ExtraTurn::Earned;
        extra.turn = if again {
            powers::ExtraTurn::Taking
        } else {
            powers::ExtraTurn::None
        };
        again
    }

    /// The `completed` hook: a feature (its root) was completed this turn, scored or not.
    #[inline]
    pub(crate) fn completed(&mut self, root: NodeId, events: &mut Vec<Event>) {
        if self.modules.tokens.is_some() {
            tokens::award(self, root, events);
        }
    }

    /// The `end_turn` hook, after the turn's completions: the windmills' ranges.
    #[inline]
    pub(crate) fn end_turn_modules(&mut self, placed: PlacedId, events: &mut Vec<Event>) {
        if self
            .modules
            .windmills
            .as_ref()
            .is_some_and(|w| !w.mills.is_empty())
        {
            windmill::complete(self, placed, events);
        }
    }

    /// The `final_scoring` hook, after the features' final scoring: the windmills left on the
    /// board, then the token majorities.
    pub(crate) fn final_scoring_modules(&mut self, events: &mut Vec<Event>) {
        if self.modules.windmills.is_some() {
            windmill::final_scoring(self, events);
        }
        if self.modules.tokens.is_some() {
            tokens::score_majorities(self, events);
        }
    }
}
