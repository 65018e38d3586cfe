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
//! | place-step moves | instead of placing the drawn tile: counted, made and applied by `place_action_count`, `nth_place_action`, `apply_place_action` (a `Move::Pass` when `may_decline`, said by `decline_place_step`) | reserve |
//! | `placed` | a tile is placed, before the second step | powers (the extra tile), creatures (arriving), reserve (its gaps) |
//! | second-step moves | after placing: the registry's moves (`ACTIONS`, `GROUPS`), counted, made and applied by `module_action_count`, `nth_module_action`, `apply_module_action` | windmill, festival, donkey, powers (recall), barn, princess, portal, creatures (the fairy) |
//! | `completed` | a feature is completed, scored or not | tokens |
//! | `scored` | a feature is scored: bonuses beside its points | powers (`bonus`), creatures (the fairy), flowers, wagon (freed) |
//! | `networks` | roads closed at a hub this turn, waiting for their network | network |
//! | deploy filter | a follower's deploy on a feature (`deploy_refused`, asked only when `Modules::filters_deploys`) | barn |
//! | `end_turn` | after the completions of a turn | windmill, barn, creatures (a guard's follower gone), reserve (what its turn scored) |
//! | `after_last_tile` | the draw is exhausted, before the final scoring: a module may give a player one more placement | reserve (the end-game round) |
//! | `lifted` | a module's figure (`FigureKind::Module`) leaves the board unscored (`Game::lift`): back to its module's supply | windmill |
//! | `final_scoring` | after the features' final scoring | windmill, tokens, barn |
//! | `next_choice` | after `end_turn`, and after each choice made: who must choose a move of which action now (`Phase::Choose`; `None` ends the turn); `choice_declinable`, `decline_choice`: whether the pass declines it, and what declining does | wagon, then creatures (the dragon's steps), as JCZ's phases run (`GameStatePhaseReducer`: `WagonPhase` before an after-scoring `DragonPhase`) |
//! | `plays_again` | the turn ends: whether the same player places the next tile | powers (the extra tile) |
//! | `turn_started` | a player's turn starts (not an extra tile's; not after the last tile) | creatures (the fairy's point) |
//! | `deploy_forbidden` | deploys on the tile just placed: whether a module bars them all | creatures (the dragon's tile) |
//! | `modules_worth` | the greedy estimate of a position: what the modules' pieces on the board are worth to their owners | creatures (a guard), windmill, barn |
//!
//! - `in_play`: which rules a game plays (the options, else the data of its sets);
//! - `festival`: returning a figure after placing a Festival tile (no state);
//! - `donkey`, `windmill`, `flowers`, `network` (marketplace networks, no state): Village
//!   Life's mechanics (bushes need no code: the `close` meeting of the vocabulary does it in
//!   `Core::join`);
//! - `tokens`: tokens given by completed features' markers, scored by majority at the end;
//! - `creatures`: neutral figures declared as data (`[[creature]]`): the dragon, the fairy;
//! - `powers`: the set figures' `recall`, `extra-tile` and `bonus` (the abbot's, the
//!   builder's, the pig's);
//! - `barn`: the figures a set places at a corner (`at = "corner"`: Abbey & Mayor's barn).
//! - `princess`: a feature marker with `removes` sends a figure of the feature its tile
//!   extends home; `portal`: a tile marker with `deploy = "anywhere"` (Princess & Dragon).
//! - `wagon`: the set figures' `move-on` (the wagon), a choice after the turn.
//! - `reserve`: tiles held in each player's reserve and placed instead of the drawn tile (the
//!   abbey).
//!
//! A module's move or event is an entry of `ACTIONS` (its `ActionId`) with a general `Target`:
//! records, `play --json`, the page's words and the players read the entry, not the module.
//! An event that no target says (tokens taken) is a `ModuleEvent` (`Event::Module`), a bonus
//! beside a scoring's points a `Bonus` (`Score::bonuses`); `events` gives each its words and
//! its JSON, and a bonus its record key.
//! What a module pays outside a feature's own scoring (a windmill, a bonus beside a scoring) is
//! credited to an entry of `RULE_SOURCES` (`GameStats::credit_rule_points`), whose name
//! `simulate` and the balance report print.
//! A module's figure that is not a follower is a `FigureKind::Module` of the move that placed
//! it (its word is that entry's name); a move a module refuses is an `IllegalMove::Rule` with
//! the module's message; what a module reads of the tables in play it builds once per setup
//! into `ModuleTables` (the flowers' groups, the Festival's tiles). The core's files reach the
//! modules only through this file and name no mechanic (`engine/tests/layering.rs`).

pub(crate) mod barn;
pub(crate) mod creatures;
pub(crate) mod donkey;
pub(crate) mod events;
pub mod festival;
pub(crate) mod flowers;
pub(crate) mod in_play;
pub(crate) mod module_options;
pub(crate) mod network;
pub(crate) mod portal;
pub(crate) mod powers;
pub(crate) mod princess;
pub(crate) mod reserve;
pub(crate) mod tokens;
pub(crate) mod wagon;
pub(crate) mod windmill;

pub use donkey::DonkeyBlocks;
pub use events::{Bonus, BonusKind, BonusSource, ModuleEvent, bonuses_json, in_words_order};
pub(crate) use in_play::{Colours, rules_in_play};
pub(crate) use module_options::ModuleKey;
pub use module_options::{ModuleOptions, ModuleRules, NAMED as NAMED_OPTIONS, Possible};
pub use tokens::{good, good_slot};
pub use wagon::WagonMove;

use crate::ids::{FigureId, KindId, NodeId, PlacedId};
use crate::options::Rules;
use crate::placements::Placements;
use crate::scoring::Score;
use crate::state::{Core, Event, Game, IllegalMove, Move, Powers};
use crate::tables::Tables;

/// A rule module's move or event kind: an index into `ACTIONS`, the registry every consumer
/// (records, `play --json`, the page's words, the players) reads its name and target from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ActionId(u8);

impl ActionId {
    /// A windmill placed on a region of the tile just placed (`windmill`).
    pub const WINDMILL: ActionId = ActionId(0);
    /// A figure of the player's returned to their supply after a Festival tile (`festival`).
    pub const RETURN: ActionId = ActionId(1);
    /// A figure with the power `recall` taken back, its feature scored (`powers`).
    pub const RECALL: ActionId = ActionId(2);
    /// The donkey moved to a placed tile (`donkey`).
    pub const DONKEY: ActionId = ActionId(3);
    /// An extra tile earned by a figure with the power `extra-tile` (`powers`; an event only).
    pub const EXTRA_TILE: ActionId = ActionId(4);
    /// A figure placed at a corner of the tile just placed: the barn (`barn`).
    pub const BARN: ActionId = ActionId(5);
    /// A figure (anyone's) sent home from the feature a `removes` marker's tile extends
    /// (`princess`).
    pub const PRINCESS: ActionId = ActionId(6);
    /// A figure deployed on another tile's feature after a `deploy = "anywhere"` tile
    /// (`portal`).
    pub const PORTAL: ActionId = ActionId(7);
    /// A figure with the power `move-on` moved on from its completed feature, a choice after
    /// the turn (`wagon`).
    pub const WAGON: ActionId = ActionId(8);
    /// A guarding creature (the fairy) moved beside a follower of the player (`creatures`).
    pub const FAIRY: ActionId = ActionId(9);
    /// A roaming creature (the dragon) moved one tile (`creatures`).
    pub const DRAGON: ActionId = ActionId(10);
    /// A creature came onto the tile just placed, which carries its `arrives` marker
    /// (`creatures`; an event only).
    pub const ARRIVES: ActionId = ActionId(11);
    /// A tile of the player's reserve (the abbey) placed instead of the drawn tile
    /// (`reserve`; a place-step move, `PLACE_STEP`).
    pub const ABBEY: ActionId = ActionId(12);

    /// Its index in the registry (and in `GameStats::actions`).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Its bit in a set of actions (`Modules::actions`).
    pub(crate) const fn bit(self) -> u16 {
        1 << self.0
    }

    /// Every entry of the registry, in order.
    pub fn all() -> impl Iterator<Item = ActionId> {
        (0..ACTIONS.len() as u8).map(ActionId)
    }

    /// Its entry in the registry.
    pub fn info(self) -> &'static Action {
        &ACTIONS[usize::from(self.0)]
    }

    /// The action a game record's turn names by `key` (`windmill = …`).
    pub fn by_record_key(key: &str) -> Option<ActionId> {
        (0..ACTIONS.len())
            .find(|&i| ACTIONS[i].record_key == Some(key))
            .map(|i| ActionId(i as u8))
    }

    /// Whether it is a choice after the turn (`Phase::Choose`), not a second step.
    pub fn is_choice(self) -> bool {
        CHOICES.contains(&self)
    }

    /// Whether its `Target::Figure` may be anyone's figure (the princess's), not only the
    /// player's own: how a record's figure is looked up.
    pub fn targets_anyones_figure(self) -> bool {
        ANYONES_FIGURE.contains(&self)
    }

    /// Its move in words (`Action::move_words`) with `{creature}` and `{mover}` named from
    /// the pieces of the game's `sets` (`of_sets`) and `{figure}` from `target`.
    pub fn move_words(self, tables: &Tables, sets: &[String], target: Target) -> String {
        let words = creatures::name_words(tables, sets, self, self.info().move_words);
        target.name_figure(tables, wagon::name_words(tables, sets, words))
    }

    /// Its event in words (`Action::event_words`) with `{creature}` and `{mover}` named from
    /// the pieces of the game's `sets` (`of_sets`) and `{figure}` from `target`.
    pub fn event_words(self, tables: &Tables, sets: &[String], target: Target) -> String {
        let words = creatures::name_words(tables, sets, self, self.info().event_words);
        target.name_figure(tables, wagon::name_words(tables, sets, words))
    }

    /// What a report calls it: its name, or for a creature's action the ids of the creatures
    /// of the game's `sets` (`of_sets`) that make it (`serpent` for a fan set's roaming sea
    /// serpent), for the moves on the ids of their figures that move on (`pilgrim`).
    pub fn label(self, tables: &Tables, sets: &[String]) -> String {
        let declared = match self {
            ActionId::WAGON => wagon::label(tables, sets),
            _ => creatures::label(tables, sets, self),
        };
        declared.unwrap_or_else(|| self.info().name.to_string())
    }

    /// Whether its move puts a figure on the board that is not a follower
    /// (`FigureKind::Module`, named by this action: the windmill).
    pub fn places_figure(self) -> bool {
        PLACES_FIGURE.contains(&self)
    }

    /// Every action that is a move, in registry order.
    pub fn moves() -> impl Iterator<Item = ActionId> {
        (0..ACTIONS.len() as u8)
            .map(ActionId)
            .filter(|a| a.info().record_key.is_some())
    }
}

/// What a rule module's move or event points at: general targets a new mechanic reuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A feature of the tile just placed (its local index).
    Feature(u8),
    /// A figure on the board (index into `Game::figures`).
    Figure(u16),
    /// A board position.
    At {
        /// Column.
        x: i16,
        /// Row (south is +1).
        y: i16,
    },
    /// A kind of figure (the base follower or a set figure).
    Kind(FigureId),
    /// A corner of the tile just placed: 0 to 3, clockwise from the north-west (`NW`, `NE`,
    /// `SE`, `SW`).
    Corner(u8),
    /// A feature of any placed tile.
    Spot {
        /// Its tile's column.
        x: i16,
        /// Its tile's row (south is +1).
        y: i16,
        /// Its local index on that tile.
        feature: u8,
    },
    /// A kind of figure put on a feature of any placed tile.
    Deploy {
        /// Its tile's column.
        x: i16,
        /// Its tile's row (south is +1).
        y: i16,
        /// Its local index on that tile.
        feature: u8,
        /// Which figure (the base follower or a set figure).
        figure: FigureId,
    },
}

/// Which of `Target`'s forms an action takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    /// `Target::Feature`.
    Feature,
    /// `Target::Figure`.
    Figure,
    /// `Target::At`.
    At,
    /// `Target::Kind`.
    Kind,
    /// `Target::Corner`.
    Corner,
    /// `Target::Spot`.
    Spot,
    /// `Target::Deploy`.
    Deploy,
}

impl Target {
    /// Its form.
    pub fn kind(self) -> TargetKind {
        match self {
            Target::Feature(_) => TargetKind::Feature,
            Target::Figure(_) => TargetKind::Figure,
            Target::At { .. } => TargetKind::At,
            Target::Kind(_) => TargetKind::Kind,
            Target::Corner(_) => TargetKind::Corner,
            Target::Spot { .. } => TargetKind::Spot,
            Target::Deploy { .. } => TargetKind::Deploy,
        }
    }

    /// `words` with `{figure}` standing for the figure it names, with its article (`a mayor`;
    /// `a follower` for a target naming none).
    fn name_figure(self, tables: &Tables, words: String) -> String {
        if !words.contains("{figure}") {
            return words;
        }
        let figure = match self {
            Target::Deploy { figure, .. } | Target::Kind(figure) => figure,
            _ => FigureId::FOLLOWER,
        };
        words.replace("{figure}", &figure_words(tables, figure))
    }

    /// A corner's name (`NE`), the form records and `--json` write it in.
    pub fn corner_name(corner: u8) -> Option<&'static str> {
        barn::CORNER_NAMES.get(usize::from(corner)).copied()
    }

    /// The corner a name (`NE`, any case) says.
    pub fn corner_by_name(name: &str) -> Option<u8> {
        (barn::CORNER_NAMES.iter())
            .position(|c| c.eq_ignore_ascii_case(name))
            .map(|c| c as u8)
    }
}

/// One entry of the registry: a rule module's move or event, as everything outside the module
/// sees it.
#[derive(Clone, Copy, Debug)]
pub struct Action {
    /// Its name: the key of its event in `play --json` (`windmill`, `donkey`, `extra_tile`).
    pub name: &'static str,
    /// Its key in a game record's turn (None: an event, never a move).
    pub record_key: Option<&'static str>,
    /// The form of its target.
    pub target: TargetKind,
    /// How a record's turn writes its moves under `record_key`.
    pub record_form: RecordForm,
    /// Whether its moves are many and alike (a windmill per region, a donkey per tile): a
    /// random player picks such a group first, then a move in it.
    pub grouped: bool,
    /// The move in words, `{target}` standing for its target, `{creature}` for the creature
    /// it moves, `{mover}` for the figure that moves on and `{figure}` for the figure its
    /// target names, with its article (`ActionId::move_words` names those three).
    pub move_words: &'static str,
    /// The event in words, `{player}` for `P1`, `{target}` for its target, `{creature}`,
    /// `{mover}` and `{figure}` as in `move_words` (empty: the move tells of itself by the general events,
    /// `Returned`, `Scored`).
    pub event_words: &'static str,
    /// Declining it in words, `{player}` for `P1` (empty: it is never declined by itself, or
    /// its decline tells of itself by the general events).
    pub decline_words: &'static str,
}

/// How a game record's turn writes an action's moves under its record key: the value's shape
/// is its target's form (`TargetKind`), once, or with `"pass"`, or in a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordForm {
    /// Not written: an event, never a move (no record key).
    None,
    /// The turn's one move after placing, instead of a deploy: its target.
    Step,
    /// Instead of placing the drawn tile (the turn gives no `at`): its target, or `"pass"`
    /// declining it (`PLACE_STEP`).
    InsteadOfPlacing,
    /// The choices made after the turn (`CHOICES`), in the order made: a list of targets and
    /// `"pass"`es.
    Choices,
}

/// The actions a record's turn names, in the order a turn writes their keys: the order
/// records have always been written in (a new one goes last).
pub const RECORD_ORDER: [ActionId; 11] = [
    ActionId::WINDMILL,
    ActionId::RETURN,
    ActionId::RECALL,
    ActionId::DONKEY,
    ActionId::BARN,
    ActionId::WAGON,
    ActionId::FAIRY,
    ActionId::DRAGON,
    ActionId::ABBEY,
    ActionId::PRINCESS,
    ActionId::PORTAL,
];

/// The registry of the rule modules' moves and events, indexed by `ActionId`.
pub static ACTIONS: [Action; 13] = [
    Action {
        name: "windmill",
        record_key: Some("windmill"),
        target: TargetKind::Feature,
        record_form: RecordForm::Step,
        grouped: true,
        move_words: "windmill on the {target}",
        event_words: "{player} places their windmill on the {target}",
        decline_words: "",
    },
    Action {
        name: "return",
        record_key: Some("return"),
        target: TargetKind::Figure,
        record_form: RecordForm::Step,
        grouped: false,
        move_words: "return your {target} (Festival)",
        event_words: "",
        decline_words: "",
    },
    Action {
        name: "recall",
        record_key: Some("recall"),
        target: TargetKind::Figure,
        record_form: RecordForm::Step,
        grouped: false,
        move_words: "take back your {target}, scoring its feature now",
        event_words: "",
        decline_words: "",
    },
    Action {
        name: "donkey",
        record_key: Some("donkey"),
        target: TargetKind::At,
        record_form: RecordForm::Step,
        grouped: true,
        move_words: "move the donkey to {target}",
        event_words: "{player} moves the donkey to {target}",
        decline_words: "",
    },
    Action {
        name: "extra_tile",
        record_key: None,
        target: TargetKind::Kind,
        record_form: RecordForm::None,
        grouped: false,
        move_words: "",
        event_words: "{player}'s {target}: the tile extends its feature, so {player} places one more tile",
        decline_words: "",
    },
    Action {
        name: "barn",
        record_key: Some("barn"),
        target: TargetKind::Corner,
        record_form: RecordForm::Step,
        grouped: false,
        move_words: "barn at the {target} corner",
        event_words: "{player} places their barn at the {target} corner",
        decline_words: "",
    },
    Action {
        name: "princess",
        record_key: Some("princess"),
        target: TargetKind::Figure,
        record_form: RecordForm::Step,
        grouped: false,
        move_words: "send the {target} home (princess)",
        event_words: "",
        decline_words: "",
    },
    Action {
        name: "portal",
        record_key: Some("portal"),
        target: TargetKind::Deploy,
        record_form: RecordForm::Step,
        grouped: true,
        move_words: "deploy {figure} through the portal on the {target}",
        event_words: "{player} deploys {figure} through the portal on the {target}",
        decline_words: "",
    },
    Action {
        name: "wagon",
        record_key: Some("wagon"),
        target: TargetKind::Spot,
        record_form: RecordForm::Choices,
        grouped: false,
        move_words: "move your {mover} on to the {target}",
        event_words: "{player}'s {mover} moves on to the {target}",
        decline_words: "",
    },
    Action {
        name: "fairy",
        record_key: Some("fairy"),
        target: TargetKind::Figure,
        record_form: RecordForm::Step,
        grouped: true,
        move_words: "move the {creature} beside your {target}",
        event_words: "{player} moves the {creature} beside their {target}",
        decline_words: "",
    },
    Action {
        name: "dragon",
        record_key: Some("dragon"),
        target: TargetKind::At,
        record_form: RecordForm::Choices,
        grouped: false,
        move_words: "move the {creature} to {target}",
        event_words: "{player} moves the {creature} to {target}",
        decline_words: "",
    },
    Action {
        name: "arrives",
        record_key: None,
        target: TargetKind::At,
        record_form: RecordForm::None,
        grouped: false,
        move_words: "",
        event_words: "the {creature} comes to {target}, the tile {player} placed",
        decline_words: "",
    },
    Action {
        name: "reserve",
        record_key: Some("reserve"),
        target: TargetKind::At,
        record_form: RecordForm::InsteadOfPlacing,
        grouped: false,
        move_words: "place your reserve tile at {target} instead",
        event_words: "{player} took the tile at {target} from their reserve",
        decline_words: "{player} keeps their reserve tile",
    },
];

/// The modules' moves made instead of placing the drawn tile, not after it: no `GROUPS`
/// entry, offered in `Phase::Place` beside the placements.
pub(crate) const PLACE_STEP: [ActionId; 1] = [ActionId::ABBEY];

/// A group of second-step moves: what a player may do after placing, from the core or one
/// rule module (`ACTIONS`), listed in the order of `ALL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionGroup {
    /// Deploy a follower on a feature of the tile just placed (the core).
    Deploy,
    /// A rule module's move.
    Module(ActionId),
    /// Nothing more.
    Pass,
}

impl ActionGroup {
    /// Every group, in the order of `legal_moves` (the rules' registry orders them).
    pub const ALL: [ActionGroup; 10] = GROUPS;

    /// How many of `ALL` `legal_actions` lists; the rest a simulation chooses apart.
    pub const LISTED: usize = 8;

    /// Whether its moves are many and alike (a windmill per region, a donkey per tile): a
    /// random player picks such a group first, then a move in it, so they do not swamp the
    /// others.
    pub fn grouped(self) -> bool {
        matches!(self, ActionGroup::Module(a) if a.info().grouped)
    }
}

/// The second-step groups in the order a player's moves are listed and a random player picks
/// among them (a seeded game depends on it): deploys, the modules' moves before the pass, the
/// pass, then the modules' moves listed apart (`ActionGroup::LISTED`).
pub(crate) const GROUPS: [ActionGroup; 10] = [
    ActionGroup::Deploy,
    ActionGroup::Module(ActionId::WINDMILL),
    ActionGroup::Module(ActionId::RETURN),
    ActionGroup::Module(ActionId::RECALL),
    ActionGroup::Module(ActionId::BARN),
    ActionGroup::Module(ActionId::PRINCESS),
    ActionGroup::Module(ActionId::FAIRY),
    ActionGroup::Pass,
    ActionGroup::Module(ActionId::DONKEY),
    ActionGroup::Module(ActionId::PORTAL),
];

/// The modules' moves that are not grouped and come before the pass in `GROUPS`, in its
/// order: a game without grouped moves in play (`Modules::has_grouped`) picks uniformly among the
/// deploys, these and the pass.
pub(crate) const FLAT: [ActionId; 4] = [
    ActionId::RETURN,
    ActionId::RECALL,
    ActionId::BARN,
    ActionId::PRINCESS,
];

/// The actions whose move puts a figure of the module's own on the board
/// (`FigureKind::Module`), kept among `Game::figures` beside the followers.
const PLACES_FIGURE: [ActionId; 1] = [ActionId::WINDMILL];

/// The actions whose figure target may be anyone's, not only the player's own.
const ANYONES_FIGURE: [ActionId; 1] = [ActionId::PRINCESS];

/// The actions that are choices after the turn (`Phase::Choose`, asked by `next_choice`), not
/// second steps: they have a record key (a list of the choices made) and no group.
pub(crate) const CHOICES: [ActionId; 2] = [ActionId::WAGON, ActionId::DRAGON];

/// The moves `simulate`'s text report counts on its `per game:` line, in that line's order,
/// each with the words it is counted in there.
pub const COUNTED_MOVES: [(ActionId, &str); 3] = [
    (ActionId::RETURN, "Festival returns"),
    (ActionId::DONKEY, "donkey moves"),
    (ActionId::WINDMILL, "windmills placed"),
];

/// A source of the points a rule module pays outside a feature's own scoring: an index into
/// `RULE_SOURCES`, the registry the statistics (`GameStats::rule_points`), `simulate` and the
/// balance report read its name from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleSource(u8);

impl RuleSource {
    /// The flower bonuses beside a scoring (`flowers`).
    pub const FLOWERS: RuleSource = RuleSource(0);
    /// What the windmills' own scorings paid (`windmill`).
    pub const WINDMILLS: RuleSource = RuleSource(1);
    /// The marketplace network bonuses beside a road's scoring (`network`).
    pub const NETWORKS: RuleSource = RuleSource(2);

    /// Its index in the registry (and in `GameStats::rule_points`).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Every entry of the registry, in order (the reports' order).
    pub fn all() -> impl Iterator<Item = RuleSource> {
        (0..RULE_SOURCES.len() as u8).map(RuleSource)
    }

    /// Its entry in the registry.
    pub fn info(self) -> &'static RuleSourceInfo {
        &RULE_SOURCES[usize::from(self.0)]
    }
}

/// One entry of the registry of rule sources of points.
#[derive(Clone, Copy, Debug)]
pub struct RuleSourceInfo {
    /// Its name among the sources of points, as `simulate` and the report print it.
    pub name: &'static str,
    /// What records and `--json` call a scoring of the module's own figure (`Scored::Rule`),
    /// when its module scores one; None when it pays only beside other scorings.
    pub scored: Option<&'static str>,
    /// What it paid beside a scoring's own points (its bonuses in the `Score`), all players
    /// together.
    pub beside: fn(&Score) -> u64,
    /// Whether a game of these rules can pay from it, its draw holding the tile kinds marked
    /// in `kinds` (by `KindId`).
    pub in_play: fn(&Tables, &crate::options::Rules, &[bool]) -> bool,
}

/// The words after a good's id among the sources of points (`cloth (tokens)`): what the
/// majorities of the tokens module's goods paid.
pub const GOOD_SOURCE: &str = "tokens";

/// The good marker kind `marker` gives, by its id, when it gives one (`tokens`): whose
/// majorities' points `GameStats::good_points` holds.
pub fn good_of(tables: &Tables, marker: usize) -> Option<&str> {
    (tables.markers.get(marker))
        .filter(|m| m.token.is_some())
        .map(|_| good(tables, marker))
}

/// The registry of the rule modules' sources of points, indexed by `RuleSource`, in report
/// order.
pub static RULE_SOURCES: [RuleSourceInfo; 3] = [
    RuleSourceInfo {
        name: "flowers",
        scored: None,
        beside: |s| events::paid_to(s, RuleSource::FLOWERS),
        in_play: |_, rules, _| rules.modules.flower_bonus && rules.modules.possible.flowers,
    },
    RuleSourceInfo {
        name: "windmills",
        scored: Some("windmill"),
        beside: |_| 0,
        in_play: |_, rules, _| rules.modules.windmills > 0,
    },
    RuleSourceInfo {
        name: "marketplace networks",
        scored: None,
        beside: |s| events::paid_to(s, RuleSource::NETWORKS),
        in_play: network::in_play,
    },
];

/// The actions whose modules the `placed` hook calls: a game with none of them in play skips
/// the hook with one test.
const PLACED_HOOK: u16 =
    ActionId::ABBEY.bit() | ActionId::EXTRA_TILE.bit() | ActionId::ARRIVES.bit();

/// `CHOICES` as a set of actions: a game with none of them in play never asks `next_choice`.
const CHOICE_BITS: u16 = ActionId::WAGON.bit() | ActionId::DRAGON.bit();

/// An action's event as JSON, in the one shape every module's event takes:
/// `{ name: { "player": p + 1, target… } }` (`play --json`, the page).
pub fn event_json(
    tables: &Tables,
    player: u8,
    action: ActionId,
    target: Target,
) -> serde_json::Value {
    let mut body = serde_json::Map::new();
    body.insert("player".into(), (player + 1).into());
    let (key, value): (&str, serde_json::Value) = match target {
        Target::Feature(f) => ("feature", f.into()),
        Target::Figure(i) => ("figure", i.into()),
        Target::At { x, y } => ("at", serde_json::json!([x, y])),
        Target::Kind(figure) => ("figure", figure_kind_id(tables, figure).into()),
        Target::Corner(c) => ("corner", Target::corner_name(c).unwrap_or("?").into()),
        Target::Spot { x, y, feature } => {
            body.insert("at".into(), serde_json::json!([x, y]));
            ("feature", feature.into())
        }
        Target::Deploy {
            x,
            y,
            feature,
            figure,
        } => {
            body.insert("at".into(), serde_json::json!([x, y]));
            // Absent for the base follower, as a record's table leaves it out.
            if figure.set_index().is_some() {
                body.insert("figure".into(), figure_kind_id(tables, figure).into());
            }
            ("feature", feature.into())
        }
    };
    body.insert(key.into(), value);
    let mut out = serde_json::Map::new();
    out.insert(action.info().name.into(), body.into());
    out.into()
}

/// A kind of figure in words, with its article: `a follower`, `an abbot`, `a large follower`.
pub fn figure_words(tables: &Tables, figure: FigureId) -> String {
    let name = match figure.set_index().and_then(|k| tables.followers.get(k)) {
        None => "follower".to_string(),
        Some(f) => f.name.to_lowercase(),
    };
    let vowel = name.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// The id of a kind of figure (`follower` for the base follower).
pub fn figure_kind_id(tables: &Tables, figure: FigureId) -> String {
    match figure.set_index().and_then(|k| tables.followers.get(k)) {
        None => "follower".to_string(),
        Some(f) => f.id.clone(),
    }
}

/// A feature just scored, as the `scored` hook sees it (its ring and distinct tiles just walked,
/// its figures taken off).
pub(crate) struct Scoring<'a> {
    /// Its kind's shape.
    pub(crate) shape: tiledef::Shape,
    /// The tile of its root.
    pub(crate) tile: PlacedId,
    /// Each player's figures that stood on it.
    pub(crate) followers: &'a [u8],
    /// The figures with a power taken off it.
    pub(crate) powered: &'a [Powered],
    /// The players who scored its points.
    pub(crate) winners: &'a [u8],
    /// What a bonus counts: its tiles, emblems and the completed features it borders.
    pub(crate) counted: (u32, u32, u32),
    /// The points it scored.
    pub(crate) points: u32,
    /// Its root.
    pub(crate) root: NodeId,
    /// Whether it was scored as completed (not at the end, nor by a recall).
    pub(crate) complete: bool,
}

/// A figure with a power taken off a scored feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Powered {
    /// Its owner.
    pub(crate) owner: u8,
    /// Its `Tables::followers` index.
    pub(crate) figure: usize,
    /// The tile it stood on.
    pub(crate) tile: PlacedId,
}

/// What the rule modules read of the tables during play, built once per `Setup` beside the
/// core's compact tables (`PlayTables::modules`) and shared by its games.
#[derive(Debug)]
pub(crate) struct ModuleTables {
    /// The flower groups of each tile kind and orientation (`flowers`).
    pub(crate) flowers: flowers::FlowerTables,
    /// The orientations with a Festival place (`festival`).
    pub(crate) festival: festival::FestivalTables,
    /// The tile kinds that move a creature (`creatures`).
    pub(crate) creatures: creatures::CreatureTables,
}

impl ModuleTables {
    /// The modules' tables of the tables.
    pub(crate) fn new(tables: &Tables) -> ModuleTables {
        ModuleTables {
            flowers: flowers::FlowerTables::new(tables),
            festival: festival::FestivalTables::new(tables),
            creatures: creatures::CreatureTables::new(tables),
        }
    }
}

/// Whether a rule module counts markers of this kind on the features completed (`tokens`: a
/// marker that gives a token), so a scoring's walk marks the features carrying one.
#[inline]
pub(crate) fn counts_marker(marker: &crate::tables::MarkerInfo) -> bool {
    marker.token.is_some()
}

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
    /// The figures placed at a corner (the barns), when a set of the game declares one.
    pub(crate) barns: Option<barn::Barns>,
    /// The features whose markers send figures home, when a tile of the draw has one.
    pub(crate) princess: Option<princess::Princess>,
    /// The tiles whose markers let their player deploy anywhere, when one is in the draw.
    pub(crate) portal: Option<portal::Portal>,
    /// The figures that move on (the wagon), when a figure of the game has the power `move-on`.
    pub(crate) wagons: Option<wagon::Wagons>,
    /// The creatures (Princess & Dragon's dragon and fairy), when a set of the game has one.
    pub(crate) creatures: Option<creatures::Creatures>,
    /// The tiles held in reserve (the abbey), when the game deals any.
    pub(crate) reserve: Option<reserve::Reserve>,
    /// Bit `a.index()` (`ActionId::bit`) for each action, move or event, whose module is in
    /// play: set once in `new`, so a turn skips an absent module's count or hook with one test.
    pub(crate) actions: u16,
    /// Whether an action with `Action::grouped` is in play (`has_grouped`).
    grouped: bool,
}

/// The rule modules a game's marker kinds bring (`removes`, `deploy`), found once per setup
/// from the tile kinds of its draw and copied into each game's `Modules`.
#[derive(Clone, Debug, Default)]
pub(crate) struct MarkerModules {
    /// `princess`'s, when a tile of the draw carries a marker with `removes`.
    princess: Option<princess::Princess>,
    /// `portal`'s, when a tile of the draw carries a marker with `deploy`.
    portal: Option<portal::Portal>,
}

impl MarkerModules {
    /// What the marker kinds on the draw's tiles (`draw`, with repeats) bring.
    pub(crate) fn of(tables: &Tables, draw: impl Iterator<Item = KindId>) -> MarkerModules {
        let mut kinds = vec![false; tables.kinds.len()];
        for k in draw {
            kinds[k.index()] = true;
        }
        MarkerModules {
            princess: princess::Princess::of(tables, &kinds),
            portal: portal::Portal::of(tables, &kinds),
        }
    }
}

impl Modules {
    /// The modules a game of these rules plays, each in its start state: `colours` the
    /// players' flower colours (empty: no flower bonus), `tokens` the marker kinds when a
    /// marker gives tokens, `powers` the set figures' powers (the extra tile, moving on).
    #[inline]
    pub(crate) fn new(
        tables: &Tables,
        rules: &Rules,
        players: usize,
        colours: Vec<u8>,
        tokens: Option<usize>,
        powers: &Powers,
        markers: &MarkerModules,
    ) -> Modules {
        let mut modules = Modules {
            donkey: rules.modules.donkey.then(donkey::Donkey::new),
            windmills: (rules.modules.windmills > 0)
                .then(|| windmill::Windmills::new(rules.modules.windmills, players)),
            flowers: (!colours.is_empty()).then_some(flowers::Flowers { colours }),
            tokens: tokens.map(|markers| tokens::Tokens::new(players, markers)),
            extra_tile: (powers.extra_tile_kinds != 0).then(powers::ExtraTile::default),
            barns: (rules.corner).map(|(figure, n)| barn::Barns::new(figure, n, players)),
            princess: markers.princess.clone(),
            portal: markers.portal.clone(),
            wagons: (powers.move_on_kinds != 0)
                .then(|| wagon::Wagons::new(rules.modules.wagon_move)),
            creatures: if tables.creatures.is_empty() {
                None
            } else {
                creatures::Creatures::new(tables, &rules.sets)
            },
            reserve: (rules.modules.reserve_kind)
                .filter(|_| rules.modules.reserve > 0)
                .map(|k| reserve::Reserve::new(KindId(k), rules.modules.reserve, players)),
            actions: 0,
            grouped: false,
        };
        // A reserve tile is not in the draw that `possible` reads: its Festival place is
        // not ruled out.
        let returns = rules.modules.festival
            && (rules.modules.possible.festival || rules.modules.reserve_kind.is_some());
        modules.set_actions(returns, powers.recall_kinds != 0);
        modules
    }

    /// Sets `actions` and `grouped` from the modules in play, `returns` whether Festival
    /// returns are and `recall` whether a figure with the power `recall` is (neither has
    /// state here).
    fn set_actions(&mut self, returns: bool, recall: bool) {
        let creatures = self.creatures.as_ref();
        let in_play = [
            (ActionId::WINDMILL, self.windmills.is_some()),
            (ActionId::RETURN, returns),
            (ActionId::RECALL, recall),
            (ActionId::DONKEY, self.donkey.is_some()),
            (ActionId::EXTRA_TILE, self.extra_tile.is_some()),
            (ActionId::BARN, self.barns.is_some()),
            (ActionId::PRINCESS, self.princess.is_some()),
            (ActionId::PORTAL, self.portal.is_some()),
            (ActionId::WAGON, self.wagons.is_some()),
            (
                ActionId::FAIRY,
                creatures.is_some_and(|c| c.guard.is_some()),
            ),
            (ActionId::DRAGON, creatures.is_some()),
            (ActionId::ARRIVES, creatures.is_some()),
            (ActionId::ABBEY, self.reserve.is_some()),
        ];
        self.actions = (in_play.iter())
            .filter(|(_, on)| *on)
            .fold(0, |set, (a, _)| set | a.bit());
        self.grouped = ActionId::all().any(|a| self.plays(a) && a.info().grouped);
    }

    /// Whether the module of `action` is in play.
    #[inline]
    pub(crate) fn plays(&self, action: ActionId) -> bool {
        self.actions & action.bit() != 0
    }

    /// Whether a module refuses some deploys (`Game::deploy_refused`): a region with a barn.
    #[inline]
    pub(crate) fn filters_deploys(&self) -> bool {
        self.barns.as_ref().is_some_and(|b| !b.placed.is_empty())
    }

    /// Puts the donkey on a placed tile, or takes it out of the game (for analysis).
    pub(crate) fn set_donkey(&mut self, tile: Option<PlacedId>) {
        self.donkey = tile.map(|tile| donkey::Donkey {
            tile,
            ..donkey::Donkey::new()
        });
        let (returns, recall) = (self.plays(ActionId::RETURN), self.plays(ActionId::RECALL));
        self.set_actions(returns, recall);
    }

    /// The `filter` hook: clears from the drawn tile's masks the placements a module forbids.
    #[inline]
    pub(crate) fn filter(&mut self, core: &Core<'_>, place: &mut Placements, kind: KindId) {
        if let Some(donkey) = &mut self.donkey {
            donkey.filter(core, place, kind);
        }
    }

    /// Whether a group whose moves are many and alike (`Action::grouped`) is in play at all.
    #[inline]
    pub(crate) fn has_grouped(&self) -> bool {
        self.grouped
    }

    /// Why a placement the edges and path rules allow is refused by a module (the donkey
    /// standing where the tile would close a feature), for the message.
    pub(crate) fn placement_fault(&self, core: &Core<'_>) -> Option<IllegalMove> {
        let d = self.donkey?;
        let p = core.board.placed[d.tile.index()];
        Some(IllegalMove::Rule(format!(
            "placing there would complete a feature on the donkey's tile ({}, {}): the donkey blocks it",
            p.x, p.y
        )))
    }

    /// Whether the `scored` hook pays anything for a scoring that took off the figures with a
    /// power `powered`: most scorings take off none, and most games have no flowers.
    #[inline]
    pub(crate) fn pay_scored(&self, powered: &[Powered]) -> bool {
        !powered.is_empty()
            || self.flowers.is_some()
            || self.creatures.as_ref().is_some_and(|c| c.guarding())
    }

    /// The deploy filter: whether no figure may be deployed on the tile just placed (a creature
    /// with `no_deploy` stands there). One test when no module bars deploys.
    #[inline]
    pub(crate) fn deploy_forbidden(&self, placed: PlacedId) -> bool {
        self.creatures.as_ref().is_some_and(|c| c.forbids(placed))
    }

    /// Whether placing a tile of `kind` brings a creature that bars deploys onto it (the
    /// volcano's dragon): a player's plan for such a tile deploys nothing.
    #[inline]
    pub(crate) fn bars_deploys_on(&self, tables: &Tables, kind: KindId) -> bool {
        self.creatures
            .as_ref()
            .is_some_and(|c| c.bars_on(tables, kind))
    }

    /// Why no figure may be deployed on the tile just placed, for the message.
    pub(crate) fn deploy_fault(&self, tables: &Tables, placed: PlacedId) -> Option<IllegalMove> {
        let name = self.creatures.as_ref()?.forbidding(tables, placed)?;
        Some(IllegalMove::NotOffered(format!(
            "the {name} stands on this tile: no figure may be deployed on it"
        )))
    }

    /// The rotations of tile `kind` at the frontier slot `slot` that the placement index and
    /// the modules' filters allow, as they would for a drawn tile (a reserve tile may not
    /// complete a feature on the donkey's tile either).
    pub(crate) fn filtered_mask(&self, core: &Core<'_>, kind: KindId, slot: u16) -> u8 {
        let Some(open) = core.board.frontier.get(usize::from(slot)) else {
            return 0;
        };
        let mask = core.tables.index.fits(open.pattern, kind);
        if mask == 0 || !self.may_filter(core, (open.x, open.y)) {
            return mask;
        }
        let Some(mut donkey) = self.donkey else {
            return mask;
        };
        let mut place = Placements::new();
        place.reset(kind);
        donkey.filter(core, &mut place, kind);
        place.mask_at(core, usize::from(slot))
    }

    /// Whether a module filters the placements (the donkey): without one, a tile's mask is
    /// the placement index's everywhere.
    #[inline]
    pub(crate) fn filters_placements(&self) -> bool {
        self.donkey.is_some()
    }

    /// Whether a module's placement filter could clear a rotation at the open position `at`
    /// (the donkey's, where a feature on its tile could complete there): elsewhere a tile's
    /// mask is the placement index's alone.
    #[inline]
    pub(crate) fn may_filter(&self, core: &Core<'_>, at: (i16, i16)) -> bool {
        self.donkey.is_some_and(|d| d.may_block(core, at))
    }

    /// Whether a module reads `Node::ends_at` (the donkey's filter), which `put` then keeps.
    #[inline]
    pub(crate) fn wants_ends(&self) -> bool {
        self.donkey.is_some()
    }
}

impl Game<'_> {
    /// How many moves of a module's action the current player has after placing `placed`.
    // Always inlined: the random player counts a constant list of actions every turn, and
    // only inlined does each count fold to its module's early return (a call each cost base
    // C1 playouts 28 instructions a placed tile).
    #[inline(always)]
    pub(crate) fn module_action_count(&self, placed: PlacedId, action: ActionId) -> usize {
        if !self.modules.plays(action) {
            return 0;
        }
        self.count_in_module(placed, action)
    }

    /// Whether the current player has a move of a module's action after placing `placed`:
    /// `module_action_count` above 0, asked of the modules whose count walks the board or the
    /// figures as a walk stopping at the first move (a random player needs the count of the
    /// group it picks only).
    #[inline(always)]
    pub(crate) fn has_module_action(&self, placed: PlacedId, action: ActionId) -> bool {
        if !self.modules.plays(action) {
            return false;
        }
        match action {
            ActionId::PORTAL => portal::any(self, placed),
            ActionId::FAIRY => creatures::any_guard(self),
            _ => self.count_in_module(placed, action) > 0,
        }
    }

    /// `module_action_count` as its module counts, whether or not `Modules::plays` it.
    #[inline(always)]
    fn count_in_module(&self, placed: PlacedId, action: ActionId) -> usize {
        match action {
            ActionId::WINDMILL => windmill::count(self, placed),
            ActionId::RETURN => festival::return_count(self, placed),
            ActionId::RECALL => powers::recall_count(self),
            ActionId::DONKEY => donkey::targets(self),
            ActionId::BARN => barn::count(self, placed),
            ActionId::PRINCESS => princess::count(self, placed),
            ActionId::PORTAL => portal::count(self, placed),
            ActionId::WAGON => wagon::count(self),
            ActionId::FAIRY => creatures::guard_count(self),
            ActionId::DRAGON => creatures::step_count(self),
            _ => 0,
        }
    }

    /// The `n`-th move of a module's action, in the order of `legal_moves`.
    pub(crate) fn nth_module_action(
        &self,
        placed: PlacedId,
        action: ActionId,
        n: usize,
    ) -> Option<Move> {
        let target = match action {
            ActionId::WINDMILL => windmill::nth(self, placed, n),
            ActionId::RETURN => festival::nth_return(self, n),
            ActionId::RECALL => powers::nth_recall(self, n),
            ActionId::DONKEY => donkey::nth_target(self, n),
            ActionId::BARN => barn::nth(self, placed, n),
            ActionId::PRINCESS => princess::nth(self, placed, n),
            ActionId::PORTAL => portal::nth(self, placed, n),
            ActionId::WAGON => wagon::nth(self, n),
            ActionId::FAIRY => creatures::nth_guard(self, n),
            ActionId::DRAGON => creatures::nth_step(self, n),
            _ => None,
        }?;
        Some(Move::Action { action, target })
    }

    /// Makes a module's move (the turn's second step), or says why it is illegal (the game is
    /// then unchanged).
    pub(crate) fn apply_module_action(
        &mut self,
        placed: PlacedId,
        action: ActionId,
        target: Target,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalMove> {
        let info = action.info();
        if info.record_key.is_none() || target.kind() != info.target {
            return Err(IllegalMove::NotOffered(format!(
                "`{}` is not a move with that target",
                info.name
            )));
        }
        let made = match (action, target) {
            (ActionId::WINDMILL, Target::Feature(feature)) => {
                windmill::place_windmill(self, placed, feature, events)
            }
            (ActionId::RETURN, Target::Figure(figure)) => {
                festival::return_figure(self, placed, figure, events)
            }
            (ActionId::RECALL, Target::Figure(figure)) => powers::recall(self, figure, events),
            (ActionId::DONKEY, Target::At { x, y }) => donkey::move_donkey(self, x, y, events),
            (ActionId::BARN, Target::Corner(corner)) => barn::place(self, placed, corner, events),
            (ActionId::PRINCESS, Target::Figure(figure)) => {
                princess::send_home(self, placed, figure, events)
            }
            (
                ActionId::PORTAL,
                Target::Deploy {
                    x,
                    y,
                    feature,
                    figure,
                },
            ) => portal::deploy(self, placed, (x, y, feature), figure, events),
            (ActionId::WAGON, Target::Spot { x, y, feature }) => {
                wagon::move_on(self, (x, y, feature), events)
            }
            (ActionId::FAIRY, Target::Figure(figure)) => {
                creatures::move_guard(self, figure, events)
            }
            (ActionId::DRAGON, Target::At { x, y }) => creatures::step(self, x, y, events),
            _ => Err(IllegalMove::NotOffered(format!(
                "`{}` is not a move",
                info.name
            ))),
        };
        // Counted here, once for a second step and a choice alike.
        if made.is_ok() {
            self.core.stats.count_action(action.index());
        }
        made
    }

    /// The deploy filter: whether a module refuses a follower on the feature at `root` (a
    /// region with a barn). Asked only when `Modules::filters_deploys`.
    pub(crate) fn deploy_refused(&self, root: NodeId) -> bool {
        (self.modules.barns.as_ref()).is_some_and(|b| barn::refuses(&self.core, b, root))
    }

    /// Why a module refuses a follower on the feature at `root`, for the message.
    pub(crate) fn deploy_fault(&self, root: NodeId) -> Option<IllegalMove> {
        let b = self.modules.barns.as_ref()?;
        if !barn::refuses(&self.core, b, root) {
            return None;
        }
        let tables = self.core.tables;
        let name = (tables.corner_figures.get(usize::from(b.figure))).map_or("figure", |f| &f.name);
        let kind = &tables.feature(self.core.nodes[root.index()].kind).id;
        Some(IllegalMove::NotOffered(format!(
            "no follower may be deployed on a {kind} with a {name}"
        )))
    }

    /// The figures placed at corners: owner, tile position, corner, and the figure's id.
    pub fn corner_figures(&self) -> Vec<(u8, i16, i16, u8, &str)> {
        let Some(b) = &self.modules.barns else {
            return Vec::new();
        };
        let tables = self.core.tables;
        let id = (tables.corner_figures.get(usize::from(b.figure))).map_or("", |f| f.id.as_str());
        (b.placed.iter())
            .map(|f| {
                let p = self.core.board.placed[f.tile.index()];
                (f.owner, p.x, p.y, f.corner, id)
            })
            .collect()
    }

    /// Each player's figures to place at corners left (empty when the game has none).
    pub fn corner_supply(&self) -> &[u8] {
        self.modules.barns.as_ref().map_or(&[], |b| &b.supply)
    }

    /// What the modules' pieces on the board are worth to their owners beyond the points they
    /// have paid, for the greedy estimate: a guard beside a follower (`creatures::worth`),
    /// windmills (`windmill::worth`), figures at corners (`barn::worth`). `time` is the share of
    /// the game left; `bordered` counts a field's completed and open cities.
    pub(crate) fn modules_worth(
        &self,
        time: f64,
        bordered: impl FnMut(NodeId) -> (u32, u32),
        out: &mut [f64],
    ) {
        if let Some(c) = &self.modules.creatures {
            creatures::worth(self, c, time, out);
        }
        if let Some(w) = &self.modules.windmills {
            windmill::worth(self, w, time, out);
        }
        if self.modules.barns.is_some() {
            barn::worth(self, time, bordered, out);
        }
    }

    /// Whether the game has place-step moves at all (a tile held in reserve).
    #[inline]
    pub fn has_place_actions(&self) -> bool {
        self.modules.reserve.is_some()
    }

    /// How many place-step moves (`PLACE_STEP`: a reserve tile instead of the drawn one, or
    /// declining in the end-game round) the current player has; 0 outside the place phase.
    #[inline]
    pub fn place_action_count(&self) -> usize {
        if self.modules.reserve.is_none() {
            return 0;
        }
        reserve::count(self)
    }

    /// The `n`-th place-step move, after the placements in the order of `legal_moves`.
    pub fn nth_place_action(&self, n: usize) -> Option<Move> {
        self.modules.reserve.as_ref()?;
        reserve::nth(self, n)
    }

    /// Whether the current player may pass instead of placing (declining the end-game round's
    /// reserve tile).
    #[inline]
    pub(crate) fn may_decline(&self) -> bool {
        self.modules.reserve.is_some() && reserve::declining(self)
    }

    /// The current player declines the place-step moves (`may_decline`): said by an event.
    pub(crate) fn decline_place_step(&mut self, events: &mut Vec<Event>) {
        let player = self.core.current;
        for &action in PLACE_STEP.iter().filter(|&&a| self.modules.plays(a)) {
            events.push(Event::Declined { player, action });
        }
    }

    /// Makes a place-step move, returning the tile it placed, or says why it is illegal (the
    /// game is then unchanged).
    pub(crate) fn apply_place_action(
        &mut self,
        action: ActionId,
        target: Target,
        events: &mut Vec<Event>,
    ) -> Result<PlacedId, IllegalMove> {
        match (action, target) {
            (ActionId::ABBEY, Target::At { x, y }) if PLACE_STEP.contains(&action) => {
                reserve::place(self, x, y, events)
            }
            _ => Err(IllegalMove::PlaceFirst),
        }
    }

    /// The `after_last_tile` hook: the draw is exhausted; the kind the current player (which
    /// the module chose) places before the final scoring, with no placement of its own (only
    /// the place-step moves), or None for the final scoring.
    #[inline]
    pub(crate) fn after_last_tile(&mut self) -> Option<KindId> {
        self.modules.reserve.as_ref()?;
        reserve::next_in_round(self)
    }

    /// The `placed` hook: the tile just placed may earn its player a figure's extra tile (not
    /// while they are placing one), and open or fill a reserve tile's gap.
    #[inline]
    pub(crate) fn placed_modules(&mut self, placed: PlacedId, events: &mut Vec<Event>) {
        if self.modules.actions & PLACED_HOOK != 0 {
            self.placed_in_play(placed, events);
        }
    }

    // Out of line: inlined, the modules' bodies made every placement of a game without them
    // save and restore registers (24 instructions a placed tile of the base game).
    #[inline(never)]
    fn placed_in_play(&mut self, placed: PlacedId, events: &mut Vec<Event>) {
        if self.modules.reserve.is_some() {
            reserve::note_placed(self, placed);
        }
        if self
            .modules
            .extra_tile
            .is_some_and(|e| e.turn == powers::ExtraTurn::None)
        {
            powers::earn_extra_tile(self, placed, events);
        }
        if self.modules.creatures.is_some() {
            creatures::arrive(self, placed, events);
        }
    }

    /// The `turn_started` hook, when a player's turn starts (not an extra tile's, nor after
    /// the last tile): a guarding creature pays its follower's owner.
    #[inline]
    pub(crate) fn turn_started(&mut self, events: &mut Vec<Event>) {
        let player = self.core.current;
        if (self.modules.creatures.as_ref()).is_some_and(|c| c.guarding_for(player)) {
            creatures::turn_started(self, events);
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

    /// The `scored` hook: a feature was scored; the bonuses paid beside its points, the
    /// figures' (`powers`), a guarding creature's (`creatures`), then the flowers' (`flowers`).
    #[inline]
    pub(crate) fn scored(&mut self, s: &Scoring<'_>) -> Vec<Bonus> {
        if !self.modules.pay_scored(s.powered) {
            return Vec::new();
        }
        let mut bonuses = if s.powered.is_empty() {
            Vec::new()
        } else {
            powers::pay_bonuses(self, s)
        };
        if self
            .modules
            .creatures
            .as_ref()
            .is_some_and(|c| c.guarding())
        {
            bonuses.extend(creatures::pay_scored(self, s));
        }
        if self.modules.flowers.is_some() {
            bonuses.extend(flowers::pay(self, s.shape, s.tile, s.followers));
        }
        if self.modules.wagons.is_some() && !s.powered.is_empty() {
            wagon::free(self, s);
        }
        bonuses
    }

    /// The completions hook: roads closed this turn at a hub (`markets`), waiting for their
    /// networks (marketplaces).
    pub(crate) fn networks(&mut self, markets: &[NodeId], events: &mut Vec<Event>) {
        network::score_marketplaces(self, markets, events);
    }

    /// The `completed` hook: a feature (its root) was completed this turn, scored or not.
    #[inline]
    pub(crate) fn completed(&mut self, root: NodeId, events: &mut Vec<Event>) {
        if self.modules.tokens.is_some() {
            tokens::award(self, root, events);
        }
    }

    /// The `end_turn` hook, after the turn's completions: the windmills' ranges; what a reserve
    /// tile's turn scored, credited to it.
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
        if self.modules.barns.is_some() {
            barn::end_turn(self, events);
        }
        if self
            .modules
            .creatures
            .as_ref()
            .is_some_and(|c| c.guarding())
        {
            creatures::forget_gone(self);
        }
        if (self.modules.reserve.as_ref()).is_some_and(|r| r.scored_from.is_some()) {
            reserve::credit(self);
        }
    }

    /// The `next_choice` hook, after the turn's `end_turn` and after each choice made: the
    /// player who must now choose and the action they choose a move of (`Phase::Choose`), or
    /// None when no module asks (the turn ends).
    #[inline]
    pub(crate) fn next_choice(&mut self) -> Option<(u8, ActionId)> {
        if self.modules.actions & CHOICE_BITS == 0 {
            return None;
        }
        self.next_choice_in_play()
    }

    // Out of line for the same reason as `placed_in_play` (45 instructions a placed tile).
    #[inline(never)]
    fn next_choice_in_play(&mut self) -> Option<(u8, ActionId)> {
        if self.modules.wagons.is_some()
            && let Some(choice) = wagon::next_choice(self)
        {
            return Some(choice);
        }
        if self.modules.creatures.is_some() {
            return creatures::next_choice(self);
        }
        None
    }

    /// Whether a choice of `action` may be declined by `Move::Pass` (listed among its moves).
    #[inline]
    pub(crate) fn choice_declinable(&self, action: ActionId) -> bool {
        // The wagon's pass leaves it at home.
        action == ActionId::WAGON
    }

    /// Declines the choice of `action` asked for now (`choice_declinable`).
    pub(crate) fn decline_choice(&mut self, action: ActionId, events: &mut Vec<Event>) {
        let _ = events;
        if action == ActionId::WAGON {
            wagon::stay_home(self);
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
        if self.modules.barns.is_some() {
            barn::final_scoring(self, events);
        }
    }
}

/// Whether a piece declared by set `set` (a `Tables::sets` index) is one of a game of `sets`
/// (`Rules::sets`; empty: of every set of the tables): the pieces the words and reports of
/// the game name, whatever else is loaded beside it.
pub(crate) fn of_sets(tables: &Tables, sets: &[String], set: u16) -> bool {
    sets.is_empty() || declared_in(tables, sets, set)
}

/// Whether set `set` (a `Tables::sets` index) is one of `sets`, by id.
fn declared_in(tables: &Tables, sets: &[String], set: u16) -> bool {
    (tables.sets.get(usize::from(set))).is_some_and(|id| sets.contains(id))
}

/// Whether creature `c` (`Tables::creatures`) is in a game of `sets`: its set is one of them.
pub(crate) fn creature_in_play(tables: &Tables, sets: &[String], c: usize) -> bool {
    (tables.creatures.get(c)).is_some_and(|creature| declared_in(tables, sets, creature.set))
}

/// The one name of `names` in lower case, or `several` when there are none or more than one:
/// what words name a piece by when the game has one such piece.
fn the_one_name<'a>(mut names: impl Iterator<Item = &'a str>, several: &str) -> String {
    match (names.next(), names.next()) {
        (Some(only), None) => only.to_lowercase(),
        _ => several.to_string(),
    }
}

/// The declared names a record may write instead of an action's own key, each with the action
/// it stands for: a creature's id for its moves (`serpent = [[0, 0]]`, a roaming creature's
/// steps; `lighthouse = { at = [1, 0], on = "road" }`, a guard's move), a figure's id for its
/// moves on (`pilgrim = [{ at = [0, 1], on = "monastery" }]`).
pub fn record_names(tables: &Tables) -> Vec<(String, ActionId)> {
    let mut names = creatures::record_names(tables);
    names.extend(wagon::record_names(tables));
    names
}

impl Game<'_> {
    /// The declared name whose move of `action` is asked or made now (the moving creature's
    /// id, the guard's, the id of the figure moving on), which a record writes as the move's
    /// key; None when the action's own key says it.
    pub(crate) fn move_subject(&self, action: ActionId) -> Option<&str> {
        match action {
            ActionId::WAGON => wagon::subject(self),
            _ => creatures::subject(self, action),
        }
    }
}

/// The modules' state as tools read it (`Game`'s accessors of what a module holds).
impl Game<'_> {
    /// The tile the donkey stands on (Village Life).
    pub fn donkey(&self) -> Option<PlacedId> {
        self.modules.donkey.map(|d| d.tile)
    }

    /// The creatures on the board (Princess & Dragon's dragon and fairy, a fan set's): each
    /// one's `Tables::creatures` index and the tile it stands on; empty when the game has none.
    pub fn creatures_on_board(&self) -> Vec<(usize, PlacedId)> {
        (self.modules.creatures.as_ref()).map_or_else(Vec::new, |c| c.on_board())
    }

    /// Puts the donkey on a placed tile, or takes it out of the game (for analysis: then
    /// `recompute_placements`).
    pub fn set_donkey(&mut self, tile: Option<PlacedId>) {
        self.modules.set_donkey(tile);
    }

    /// Windmills in each player's supply (Village Life; empty when the game has none).
    pub fn windmills(&self) -> &[u8] {
        self.modules.windmills.as_ref().map_or(&[], |w| &w.supply)
    }

    /// Flower colour (index into `Tables::colours`) of each player (Village Life; else empty).
    pub fn colours(&self) -> &[u8] {
        self.modules.flowers.as_ref().map_or(&[], |f| &f.colours)
    }

    /// Tokens by player and marker kind (`player × markers + kind`), for marker kinds that
    /// give a token (empty when none does).
    pub fn tokens(&self) -> &[u32] {
        self.modules.tokens.as_ref().map_or(&[], |t| &t.held)
    }
}

impl Game<'_> {
    /// The `lifted` hook: a module's figure (`FigureKind::Module`) left the board unscored; its
    /// module takes it back into its owner's supply.
    pub(crate) fn module_figure_lifted(&mut self, action: ActionId, fig: &crate::state::Figure) {
        if action == ActionId::WINDMILL
            && let Some(windmills) = self.modules.windmills.as_mut()
        {
            windmills.lift(fig.owner, fig.tile);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ActionGroup;
    use super::{ACTIONS, ActionId, CHOICES, FLAT, GROUPS, PLACE_STEP, RECORD_ORDER, RecordForm};
    use crate::game::Phase;
    use crate::players::random::each_random_position;

    /// A module's figure is written as its action's name (`windmill`, as before it was a
    /// module's), a follower as `follower`, and read back; another word is refused, naming the
    /// words known.
    #[test]
    fn figure_kinds_are_written_as_their_words() {
        use crate::state::FigureKind;
        let windmill = FigureKind::Module(ActionId::WINDMILL);
        for (kind, word) in [(FigureKind::Follower, "follower"), (windmill, "windmill")] {
            let json = serde_json::to_string(&kind).expect("a figure kind serialises");
            assert_eq!(json, format!("\"{word}\""));
            let back: FigureKind = serde_json::from_str(&json).expect("and reads back");
            assert_eq!(back, kind);
        }
        let err = serde_json::from_str::<FigureKind>("\"donkey\"")
            .expect_err("the donkey is no figure of a player's");
        assert!(
            err.to_string()
                .contains("unknown figure `donkey`, expected `follower` or `windmill`"),
            "{err}"
        );
    }

    /// An action whose module `Modules::actions` leaves out has no move, at any step of random
    /// games of every bundled set, so skipping its count changes nothing; and the actions
    /// marked in play in those games include every module's.
    #[test]
    fn an_action_left_out_of_play_has_no_move() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let games: [&[&str]; 4] = [
            &["base"],
            &["base", "princess-and-dragon"],
            &["base", "abbey-and-mayor"],
            &[],
        ];
        let mut seen = 0u16;
        for sets in games {
            let sets: Vec<String> = match sets {
                [] => tables.sets.clone(),
                sets => sets.iter().map(|s| s.to_string()).collect(),
            };
            each_random_position(&tables, &sets, 0..4, |game| {
                seen |= game.modules.actions;
                let (Phase::Act(placed) | Phase::Choose { placed, .. }) = game.phase() else {
                    return;
                };
                for action in ActionId::all().filter(|&a| !game.modules.plays(a)) {
                    assert_eq!(game.count_in_module(placed, action), 0, "{action:?}");
                }
            });
        }
        let all = ActionId::all().fold(0, |set, a| set | a.bit());
        assert_eq!(seen, all, "actions never in play: {:b}", all & !seen);
    }

    /// `FLAT` is what it says: the ungrouped modules' moves before the pass, in `GROUPS`'s
    /// order (the random player's flat pick relies on it).
    #[test]
    fn flat_is_the_ungrouped_moves_before_the_pass() {
        let pass = GROUPS.iter().position(|&g| g == ActionGroup::Pass);
        let before: Vec<ActionId> = GROUPS[..pass.unwrap_or(GROUPS.len())]
            .iter()
            .filter_map(|g| match g {
                ActionGroup::Module(a) if !a.info().grouped => Some(*a),
                _ => None,
            })
            .collect();
        assert_eq!(before, FLAT);
    }

    /// Every move of the registry has a group, once, but the choices after the turn
    /// (`CHOICES`) none; the events-only entries none.
    #[test]
    fn every_move_has_one_group() {
        for (i, info) in ACTIONS.iter().enumerate() {
            let action = ActionId(i as u8);
            let groups = (GROUPS.iter())
                .filter(|&&g| g == ActionGroup::Module(action))
                .count();
            let second_step = info.record_key.is_some()
                && !CHOICES.contains(&action)
                && !PLACE_STEP.contains(&action);
            assert_eq!(groups, usize::from(second_step), "{}", info.name);
        }
        for choice in CHOICES {
            assert!(choice.info().record_key.is_some(), "{}", choice.info().name);
        }
    }

    /// Each entry's record form agrees with what it is (an event, a second step, a place-step
    /// move, a choice), and `RECORD_ORDER` holds every action with a record key once.
    #[test]
    fn the_record_forms_and_order_cover_the_moves() {
        for (i, info) in ACTIONS.iter().enumerate() {
            let action = ActionId(i as u8);
            let form = match info.record_key {
                None => RecordForm::None,
                Some(_) if CHOICES.contains(&action) => RecordForm::Choices,
                Some(_) if PLACE_STEP.contains(&action) => RecordForm::InsteadOfPlacing,
                Some(_) => RecordForm::Step,
            };
            assert_eq!(info.record_form, form, "{}", info.name);
            let listed = RECORD_ORDER.iter().filter(|&&a| a == action).count();
            assert_eq!(
                listed,
                usize::from(info.record_key.is_some()),
                "{}",
                info.name
            );
        }
    }
}
