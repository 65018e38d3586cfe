//! Creatures (`[[creature]]`, Princess & Dragon's dragon and fairy): neutral figures, one of
//! each in a game of their set, nobody's. What each does is its compiled `CreatureRule`:
//!
//! - `arrives`: placing a tile with that marker moves it there (the `placed` hook);
//! - `no_deploy`: no figure may be deployed on its tile (`deploy_forbidden`);
//! - `moves`, `eats`, `avoids`: after a tile with the `moves` marker, it moves tile by tile,
//!   eating the figures it `eats` on each tile it enters, never onto a tile it entered in that
//!   movement nor onto an avoided creature's tile;
//! - `guards`: instead of deploying, a player may move it beside one of their followers (the
//!   `FAIRY` move); the follower's owner scores `turn` at the start of each of their turns
//!   (the `turn_started` hook, as JCZ's `FairyPhase` does before the tile is drawn) and
//!   `scored` when the follower's feature is scored (the `scored` hook). It stays on its tile
//!   when the follower leaves.

use crate::ids::{KindId, PlacedId};
use crate::rules::{ActionId, Bonus, BonusSource, Scoring, Target};
use crate::scoring::{Reason, Score, Scored};
use crate::state::{Event, Figure, FigureKind, Game, IllegalMove, Phase};
use crate::tables::Rates;
use crate::tables::Tables;

/// `words` with `{creature}` naming the creature `action` moves: the one creature of the
/// game's `sets` (`rules::of_sets`) that moves so (roaming for its steps and its arrival,
/// guarding for the `FAIRY` move), in lower case, or "creature" when they have several.
pub(crate) fn name_words(
    tables: &Tables,
    sets: &[String],
    action: ActionId,
    words: &str,
) -> String {
    if !words.contains("{creature}") {
        return words.to_string();
    }
    let moved = |c: &&crate::tables::CreatureRule| {
        makes(c, action) != Some(false) && super::of_sets(tables, sets, c.set)
    };
    let names = tables
        .creatures
        .iter()
        .filter(moved)
        .map(|c| c.name.as_str());
    words.replace("{creature}", &super::the_one_name(names, "creature"))
}

/// Each creature's id with the action that moves it: `DRAGON` for a roaming creature's steps,
/// `FAIRY` for a guard's move (a creature doing both has two).
pub(crate) fn record_names(tables: &Tables) -> Vec<(String, ActionId)> {
    let mut out = Vec::new();
    for c in &tables.creatures {
        if c.moves.is_some() {
            out.push((c.id.clone(), ActionId::DRAGON));
        }
        if c.guards.is_some() {
            out.push((c.id.clone(), ActionId::FAIRY));
        }
    }
    out
}

/// The id of the creature whose move of `action` is asked or made now: the moving creature's
/// for `DRAGON`, the guard's for `FAIRY`.
pub(crate) fn subject<'t>(game: &Game<'t>, action: ActionId) -> Option<&'t str> {
    let creatures = game.modules.creatures.as_ref()?;
    let c = match action {
        ActionId::DRAGON => creatures.moving.as_ref()?.0,
        ActionId::FAIRY => creatures.guard?,
        _ => return None,
    };
    game.core.tables.creatures.get(c).map(|c| c.id.as_str())
}

/// Whether creature `c` makes `action` (guards for `FAIRY`, arrives for `ARRIVES`, roams for
/// `DRAGON`); None when `action` is no creature's.
fn makes(c: &crate::tables::CreatureRule, action: ActionId) -> Option<bool> {
    match action {
        ActionId::FAIRY => Some(c.guards.is_some()),
        ActionId::ARRIVES => Some(c.arrives.is_some()),
        ActionId::DRAGON => Some(c.moves.is_some()),
        _ => None,
    }
}

/// What a report calls a creature's action: the ids of the creatures of the game's `sets`
/// that make it (`serpent`, `dragon/serpent`), and for their arrival `arrives` after them;
/// None for an action none of them makes.
pub(crate) fn label(tables: &Tables, sets: &[String], action: ActionId) -> Option<String> {
    let ids: Vec<&str> = (tables.creatures.iter())
        .filter(|c| makes(c, action) == Some(true) && super::of_sets(tables, sets, c.set))
        .map(|c| c.id.as_str())
        .collect();
    if ids.is_empty() {
        return None;
    }
    let ids = ids.join("/");
    Some(match action {
        ActionId::ARRIVES => format!("{ids} {}", action.info().name),
        _ => ids,
    })
}

/// What the creatures read of the tables each turn, built once per set-up.
#[derive(Debug)]
pub(crate) struct CreatureTables {
    /// By tile kind: bit `c` when it carries the marker that moves `Tables::creatures[c]`.
    moves: Vec<u32>,
    /// By tile kind: bit `c` when it carries the marker `Tables::creatures[c]` arrives by.
    arrives: Vec<u32>,
}

impl CreatureTables {
    /// The creatures' markers of the tables' tile kinds.
    pub(crate) fn new(tables: &Tables) -> CreatureTables {
        let by_kind = |marker: &dyn Fn(&crate::tables::CreatureRule) -> Option<u8>| -> Vec<u32> {
            (tables.kinds.iter())
                .map(|kind| {
                    (tables.creatures.iter().enumerate())
                        .filter(|(_, c)| marker(c).is_some_and(|m| kind.markers.contains(&m)))
                        .fold(0u32, |bits, (c, _)| bits | 1 << c)
                })
                .collect()
        };
        CreatureTables {
            moves: by_kind(&|c| c.moves.map(|(m, _)| m)),
            arrives: by_kind(&|c| c.arrives),
        }
    }
}

/// The creatures of a game: where each stands and whom a guard stands beside.
#[derive(Clone, Debug)]
pub(crate) struct Creatures {
    /// Bit `c` when `Tables::creatures[c]` is in this game.
    pub(crate) in_play: u32,
    /// Bit `c` for the creatures in play with `no_deploy`.
    pub(crate) no_deploy: u32,
    /// The first guarding creature in play (the one the `FAIRY` move moves).
    pub(crate) guard: Option<usize>,
    /// Where each creature stands (`PlacedId::NONE`: not on the board), by `Tables::creatures`.
    pub(crate) at: Vec<PlacedId>,
    /// The follower the guard stands beside (None: nobody, or no guard).
    pub(crate) beside: Option<Figure>,
    /// The turn whose movements are under way or done: its tile, and bit `c` for each
    /// creature that has moved after it.
    pub(crate) turn: (PlacedId, u32),
    /// The movement under way: the creature, and the tiles it stood on in it (never entered
    /// again).
    pub(crate) moving: Option<(usize, Vec<PlacedId>)>,
    /// The moving creature's `steps` when `next_choice` last asked for one: what the
    /// `DRAGON` choice it asked offers (the board and the creatures do not change before it is
    /// made), so listing and making a step do not look at the board again.
    offered: Steps,
}

impl Creatures {
    /// The creatures of the sets `sets` (the game's, by id), off the board; None when the game
    /// has none.
    pub(crate) fn new(tables: &Tables, sets: &[String]) -> Option<Creatures> {
        let in_play = (0..tables.creatures.len())
            .filter(|&c| super::creature_in_play(tables, sets, c))
            .fold(0u32, |m, c| m | 1 << c);
        if in_play == 0 {
            return None;
        }
        let creatures = &tables.creatures;
        let no_deploy = (0..creatures.len())
            .filter(|&c| creatures[c].no_deploy)
            .fold(0, |m, c| m | 1 << c)
            & in_play;
        let guard =
            (0..creatures.len()).find(|&c| in_play >> c & 1 != 0 && creatures[c].guards.is_some());
        Some(Creatures {
            in_play,
            no_deploy,
            guard,
            at: vec![PlacedId::NONE; creatures.len()],
            beside: None,
            turn: (PlacedId::NONE, 0),
            moving: None,
            offered: Steps::NONE,
        })
    }

    /// The creatures on the board, each as its `Tables::creatures` index and its tile.
    pub(crate) fn on_board(&self) -> Vec<(usize, PlacedId)> {
        (self.at.iter().enumerate())
            .filter(|&(c, &t)| self.in_play >> c & 1 != 0 && t != PlacedId::NONE)
            .map(|(c, &t)| (c, t))
            .collect()
    }

    /// Whether a creature barring deploys stands on `placed`.
    #[inline]
    pub(crate) fn forbids(&self, placed: PlacedId) -> bool {
        let mut bits = self.no_deploy;
        while bits != 0 {
            let c = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.at[c] == placed {
                return true;
            }
        }
        false
    }

    /// Whether placing a tile of `kind` brings a creature barring deploys onto it.
    pub(crate) fn bars_on(&self, tables: &Tables, kind: KindId) -> bool {
        let markers = &tables.kind(kind).markers;
        (0..self.at.len()).any(|c| {
            self.no_deploy >> c & 1 != 0
                && (tables.creatures[c].arrives).is_some_and(|m| markers.contains(&m))
        })
    }

    /// The creature barring deploys on `placed`, for the message.
    pub(crate) fn forbidding(&self, tables: &Tables, placed: PlacedId) -> Option<String> {
        (0..self.at.len())
            .find(|&c| self.no_deploy >> c & 1 != 0 && self.at[c] == placed)
            .map(|c| tables.creatures[c].name.clone())
    }

    /// Whether a guard stands beside a follower (the `scored` hook then has work).
    #[inline]
    pub(crate) fn guarding(&self) -> bool {
        self.beside.is_some()
    }

    /// Whether a guard stands beside a follower of `player` (the `turn_started` hook then
    /// pays): asked at every turn's start, so the other players' turns cost one test.
    #[inline]
    pub(crate) fn guarding_for(&self, player: u8) -> bool {
        self.beside.is_some_and(|f| f.owner == player)
    }
}

/// The `placed` hook: each creature in play whose `arrives` marker the tile carries moves onto
/// it.
// Asked at every placement: most tiles bring no creature, one test of the tables' bits.
pub(crate) fn arrive(game: &mut Game<'_>, placed: PlacedId, events: &mut Vec<Event>) {
    let kind = game.core.kind_of(placed);
    let in_play = (game.modules.creatures.as_ref()).map_or(0, |c| c.in_play);
    let mut arriving = (game.core.play.modules.creatures.arrives.get(kind.index()))
        .map_or(0, |&bits| bits & in_play);
    let p = game.core.board.placed[placed.index()];
    let player = game.core.current;
    while arriving != 0 {
        let c = arriving.trailing_zeros() as usize;
        arriving &= arriving - 1;
        if let Some(at) = (game.modules.creatures.as_mut()).and_then(|k| k.at.get_mut(c)) {
            *at = placed;
        }
        add_stats(game, ActionId::ARRIVES);
        events.push(Event::Action {
            player,
            action: ActionId::ARRIVES,
            target: Target::At { x: p.x, y: p.y },
        });
    }
}

/// Whether the current player's figure `fig` is a follower a guard may stand beside: a figure
/// that claims (not the builder or pig beside its owner's), and not the one it stands beside.
fn guardable(game: &Game<'_>, creatures: &Creatures, fig: &Figure) -> bool {
    fig.owner == game.core.current
        && fig.kind == FigureKind::Follower
        && game.core.claims(fig)
        && creatures.beside != Some(*fig)
}

/// How many `FAIRY` moves the current player has: one per follower of theirs on the board the
/// guard may stand beside.
pub(crate) fn guard_count(game: &Game<'_>) -> usize {
    let Some(creatures) = &game.modules.creatures else {
        return 0;
    };
    if creatures.guard.is_none() {
        return 0;
    }
    (game.core.figures.iter())
        .filter(|f| guardable(game, creatures, f))
        .count()
}

/// Whether the current player has a `FAIRY` move (`guard_count` above 0).
// Out of line: the random player asks it every turn of a game with a guard, and its walk of
// the figures is seldom short.
#[inline(never)]
pub(crate) fn any_guard(game: &Game<'_>) -> bool {
    let Some(creatures) = &game.modules.creatures else {
        return false;
    };
    creatures.guard.is_some() && (game.core.figures.iter()).any(|f| guardable(game, creatures, f))
}

/// The `n`-th `FAIRY` move, in the order of the figures.
pub(crate) fn nth_guard(game: &Game<'_>, n: usize) -> Option<Target> {
    let creatures = game.modules.creatures.as_ref()?;
    creatures.guard?;
    let (i, _) = (game.core.figures.iter().enumerate())
        .filter(|(_, f)| guardable(game, creatures, f))
        .nth(n)?;
    Some(Target::Figure(i as u16))
}

/// Moves the guard beside the current player's follower `figure` (index into `figures`).
pub(crate) fn move_guard(
    game: &mut Game<'_>,
    figure: u16,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    let Some(creatures) = &game.modules.creatures else {
        return Err(IllegalMove::NotOffered(
            "no creature of this game guards a follower".into(),
        ));
    };
    let Some(c) = creatures.guard else {
        return Err(IllegalMove::NotOffered(
            "no creature of this game guards a follower".into(),
        ));
    };
    let Some(&fig) = game.core.figures.get(usize::from(figure)) else {
        return Err(IllegalMove::NoSuchFigure(figure));
    };
    if !guardable(game, creatures, &fig) {
        let name = &game.core.tables.creatures[c].name;
        return Err(IllegalMove::NotOffered(format!(
            "the {name} may stand only beside a follower of player {} that it is not beside yet (figure {figure})",
            game.core.current + 1
        )));
    }
    let player = game.core.current;
    if let Some(creatures) = game.modules.creatures.as_mut() {
        creatures.at[c] = fig.tile;
        creatures.beside = Some(fig);
    }
    events.push(Event::Action {
        player,
        action: ActionId::FAIRY,
        target: Target::Figure(figure),
    });
    Ok(())
}

/// How many of its owner's turns a guard beside a follower is expected to pay for before
/// another player moves it.
const GUARD_TURNS: f64 = 2.0;

/// What a guard beside a follower is worth to the follower's owner, for the greedy estimate:
/// the points it paid on arriving and its points a turn for `GUARD_TURNS` turns of `time`.
pub(crate) fn worth(game: &Game<'_>, creatures: &Creatures, time: f64, out: &mut [f64]) {
    let (Some(c), Some(fig)) = (creatures.guard, creatures.beside) else {
        return;
    };
    let Some((turn, scored)) = game.core.tables.creatures[c].guards else {
        return;
    };
    if game.core.figures.contains(&fig) {
        out[usize::from(fig.owner)] += f64::from(scored) + f64::from(turn) * GUARD_TURNS * time;
    }
}

/// The `turn_started` hook: the guard pays its `turn` points to the current player when it
/// stands beside their follower.
// Out of line: inlined into the end of every turn, its body made that end save and restore
// registers in games without a guard.
#[inline(never)]
pub(crate) fn turn_started(game: &mut Game<'_>, events: &mut Vec<Event>) {
    let Some(creatures) = &game.modules.creatures else {
        return;
    };
    let (Some(c), Some(fig)) = (creatures.guard, creatures.beside) else {
        return;
    };
    let player = game.core.current;
    let Some((turn, _)) = game.core.tables.creatures[c].guards else {
        return;
    };
    if fig.owner != player || turn == 0 {
        return;
    }
    if !game.core.figures.contains(&fig) {
        return;
    }
    game.core.scores[usize::from(player)] += turn;
    add_points(game, c, turn);
    let p = game.core.board.placed[fig.tile.index()];
    let local = game.core.nodes[fig.node.index()].local;
    events.push(Event::Scored(Box::new(Score {
        players: vec![player],
        kind: Scored::Creature(c as u8),
        at: (p.x, p.y, local),
        tiles: Vec::new(),
        emblems: 0,
        range: 0,
        bordered: Vec::new(),
        points: turn,
        reason: Reason::Completed,
        rates: Rates::default(),
        followers: vec![0; usize::from(game.core.options.players)],
        strength: Vec::new(),
        modifiers: Vec::new(),
        bonuses: Vec::new(),
    })));
}

/// The `scored` hook: when the follower the guard stands beside left with the feature just
/// scored, its owner scores the guard's `scored` points (whoever won the feature, as JCZ's
/// `FairyCapability.appendFiguresBonusPoints` pays), and the guard stays beside nobody.
pub(crate) fn pay_scored(game: &mut Game<'_>, s: &Scoring<'_>) -> Option<Bonus> {
    let creatures = game.modules.creatures.as_ref()?;
    let (c, fig) = (creatures.guard?, creatures.beside?);
    if game.core.find(fig.node) != s.root || game.core.figures.contains(&fig) {
        return None;
    }
    let rule = &game.core.tables.creatures[c];
    let points = rule.guards.map_or(0, |(_, scored)| scored);
    let id = rule.id.clone();
    if let Some(creatures) = game.modules.creatures.as_mut() {
        creatures.beside = None;
    }
    game.core.scores[usize::from(fig.owner)] += points;
    add_points(game, c, points);
    Some(Bonus {
        player: fig.owner,
        points,
        source: BonusSource::Figure {
            figure: id,
            // Its points are its own, not a rate times what the scoring counted.
            counted: 0,
        },
    })
}

/// The `end_turn` hook: a guard whose follower left the board otherwise (eaten, returned)
/// stands beside nobody from now on.
pub(crate) fn forget_gone(game: &mut Game<'_>) {
    let figures = &game.core.figures;
    if let Some(creatures) = game.modules.creatures.as_mut()
        && let Some(fig) = creatures.beside
        && !figures.contains(&fig)
    {
        creatures.beside = None;
    }
}

/// Counts an event-only action (an arrival) in the game's statistics; the moves are counted
/// where every module's move is made (`Game::apply_module_action`).
fn add_stats(game: &mut Game<'_>, action: ActionId) {
    game.core.stats.count_action(action.index());
}

/// Adds what creature `c` paid to the game's statistics.
fn add_points(game: &mut Game<'_>, c: usize, points: u32) {
    let stats = &mut game.core.stats;
    if stats.creature_points.len() <= c {
        stats.creature_points.resize(c + 1, 0);
    }
    stats.creature_points[c] += u64::from(points);
}

/// The tiles the moving creature may enter now: the placed tiles beside it that it has not
/// stood on in this movement and where no creature it avoids stands, in the order north, east,
/// south, west. Empty when no creature is moving or its steps are spent.
// A fixed array, not a `Vec`: listing a random dragon step asks this several times, and the
// allocations were a tenth of a Princess & Dragon playout.
fn steps(game: &Game<'_>) -> Steps {
    let mut out = Steps::NONE;
    let Some(creatures) = &game.modules.creatures else {
        return out;
    };
    let Some((c, visited)) = &creatures.moving else {
        return out;
    };
    let rule = &game.core.tables.creatures[*c];
    let most = rule.moves.map_or(0, |(_, steps)| usize::from(steps));
    let from = creatures.at[*c];
    if visited.len() >= most || from == PlacedId::NONE {
        return out;
    }
    let p = game.core.board.placed[from.index()];
    let avoided = |t: PlacedId| {
        (0..creatures.at.len()).any(|o| {
            rule.avoids >> o & 1 != 0 && creatures.in_play >> o & 1 != 0 && creatures.at[o] == t
        })
    };
    let cells = (game.core.board).neighbours(i32::from(p.x), i32::from(p.y));
    for t in cells.map(|cell| cell.placed) {
        if t != PlacedId::NONE && !visited.contains(&t) && !avoided(t) {
            out.tiles[out.len] = t;
            out.len += 1;
        }
    }
    out
}

/// The tiles a creature may step to: at most the four beside it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Steps {
    /// The first `len` are the tiles.
    tiles: [PlacedId; 4],
    /// How many there are.
    len: usize,
}

impl Steps {
    /// None.
    const NONE: Steps = Steps {
        tiles: [PlacedId::NONE; 4],
        len: 0,
    };
}

impl std::ops::Deref for Steps {
    type Target = [PlacedId];

    fn deref(&self) -> &[PlacedId] {
        &self.tiles[..self.len]
    }
}

/// The `next_choice` hook: after the turn of a tile carrying a roaming creature's `moves`
/// marker, the step of its movement asked now, of the player `steps taken` places after the
/// current one in turn order (JCZ's `DragonMovePhase.enter`); None when no creature moves.
pub(crate) fn next_choice(game: &mut Game<'_>) -> Option<(u8, ActionId)> {
    let placed = match game.core.phase {
        Phase::Act(p) | Phase::Choose { placed: p, .. } => p,
        _ => return None,
    };
    let tables = game.core.tables;
    let moved_here = (game.core.play.modules.creatures.moves)
        .get(game.core.kind_of(placed).index())
        .copied()
        .unwrap_or(0);
    // Most tiles move no creature: one test, before the turn's bookkeeping.
    if (game.modules.creatures.as_ref())
        .is_none_or(|c| c.moving.is_none() && moved_here & c.in_play == 0)
    {
        return None;
    }
    let players = game.core.options.players;
    let current = game.core.current;
    loop {
        let creatures = game.modules.creatures.as_mut()?;
        if creatures.turn.0 != placed {
            creatures.turn = (placed, 0);
            creatures.moving = None;
        }
        if let Some((c, visited)) = &creatures.moving {
            let (c, taken) = (*c, visited.len());
            let offered = steps(game);
            let creatures = game.modules.creatures.as_mut()?;
            if !offered.is_empty() {
                creatures.offered = offered;
                let player = ((usize::from(current) + taken) % usize::from(players)) as u8;
                return Some((player, ActionId::DRAGON));
            }
            creatures.moving = None;
            creatures.turn.1 |= 1 << c;
            continue;
        }
        let next = (0..tables.creatures.len()).find(|&c| {
            (moved_here & creatures.in_play & !creatures.turn.1) >> c & 1 != 0
                && creatures.at[c] != PlacedId::NONE
        })?;
        creatures.moving = Some((next, Vec::new()));
    }
}

/// The steps the moving creature may take now: those offered in `Phase::Choose` of `DRAGON`,
/// else none.
fn offered<'a>(game: &'a Game<'_>) -> &'a [PlacedId] {
    match (game.core.phase, &game.modules.creatures) {
        (
            Phase::Choose {
                action: ActionId::DRAGON,
                ..
            },
            Some(creatures),
        ) => &creatures.offered,
        _ => &[],
    }
}

/// How many steps the moving creature may take now (`Phase::Choose` of `DRAGON` only).
pub(crate) fn step_count(game: &Game<'_>) -> usize {
    offered(game).len()
}

/// The `n`-th step the moving creature may take, in the order of `steps`.
pub(crate) fn nth_step(game: &Game<'_>, n: usize) -> Option<Target> {
    let t = *offered(game).get(n)?;
    let p = game.core.board.placed[t.index()];
    Some(Target::At { x: p.x, y: p.y })
}

/// Why creature `c` may not step to `at`: where it may go, and the creatures in play whose
/// tiles it avoids, by their names.
fn step_refused(game: &Game<'_>, c: usize, (x, y): (i16, i16)) -> String {
    let creatures = &game.core.tables.creatures;
    let in_play = game.modules.creatures.as_ref().map_or(0, |k| k.in_play);
    let avoided: Vec<String> = (0..creatures.len())
        .filter(|&o| (creatures[c].avoids & in_play) >> o & 1 != 0)
        .map(|o| format!("the {}'s", creatures[o].name.to_lowercase()))
        .collect();
    let avoid = match avoided.is_empty() {
        true => String::new(),
        false => format!(", and not onto {}", avoided.join(" or ")),
    };
    format!(
        "the {} cannot move to ({x}, {y}): it moves to a placed tile beside it that it has not stood on in this movement{avoid}",
        creatures[c].name.to_lowercase()
    )
}

/// Moves the moving creature to the tile at `(x, y)`, one of `steps`, eating the figures there
/// it eats.
pub(crate) fn step(
    game: &mut Game<'_>,
    x: i16,
    y: i16,
    events: &mut Vec<Event>,
) -> Result<(), IllegalMove> {
    let player = game.to_move();
    let Some(c) = (game.modules.creatures.as_ref())
        .and_then(|k| k.moving.as_ref())
        .map(|&(c, _)| c)
    else {
        return Err(IllegalMove::NotOffered(
            "no creature is moving now: it moves after its tile's turn".into(),
        ));
    };
    let to = game.core.board.cell(i32::from(x), i32::from(y)).placed;
    if !offered(game).contains(&to) {
        return Err(IllegalMove::NotOffered(step_refused(game, c, (x, y))));
    }
    if let Some(creatures) = game.modules.creatures.as_mut()
        && let Some((_, visited)) = creatures.moving.as_mut()
    {
        visited.push(creatures.at[c]);
        creatures.at[c] = to;
    }
    events.push(Event::Action {
        player,
        action: ActionId::DRAGON,
        target: Target::At { x, y },
    });
    eat(game, c, to, events);
    Ok(())
}

/// The figures on `tile` that creature `c` eats go home unscored (their owners' figures beside
/// them, the builder and the pig, with them); a guard beside one of them stays beside nobody.
fn eat(game: &mut Game<'_>, c: usize, tile: PlacedId, events: &mut Vec<Event>) {
    let eats = game.core.tables.creatures[c].eats;
    while let Some(i) = (game.core.figures.iter()).position(|f| {
        f.tile == tile && f.kind == FigureKind::Follower && eats & f.figure.bit() != 0
    }) {
        let fig = game.lift(i);
        let lonely = game.return_lonely(fig);
        for fig in std::iter::once(fig).chain(lonely) {
            if let Some(creatures) = game.modules.creatures.as_mut()
                && creatures.beside == Some(fig)
            {
                creatures.beside = None;
            }
            events.push(game.returned(&fig));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Phase;
    use crate::players::{Scratch, greedy, random};
    use crate::rules::{ActionGroup, ActionId};
    use crate::state::{Game, Move};

    /// Plays random games of base and Princess & Dragon, calling `look` before every move.
    fn each_position(games: u64, look: impl FnMut(&Game<'_>)) {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let sets = ["base".to_string(), "princess-and-dragon".to_string()];
        random::each_random_position(&tables, &sets, 0..games, look);
    }

    /// The greedy estimate values the fairy: moving it beside one's own follower is worth more
    /// than passing whenever it is not beside one of theirs already.
    #[test]
    fn greedy_values_moving_the_fairy_beside_its_follower() {
        let mut tried = 0;
        each_position(6, |game| {
            let Phase::Act(placed) = game.phase() else {
                return;
            };
            let beside_own = (game.modules.creatures.as_ref())
                .and_then(|c| c.beside)
                .is_some_and(|f| f.owner == game.current());
            let fairy = ActionGroup::Module(ActionId::FAIRY);
            if beside_own || game.action_count(placed, fairy) == 0 {
                return;
            }
            let moves = [
                game.nth_action(placed, fairy, 0).expect("a fairy move"),
                Move::Pass,
            ];
            let mut scratch = Scratch::default();
            greedy::rank_actions(game, &moves, &mut scratch);
            let [fairy, pass] = [0, 1].map(|i| scratch.candidates[i].value);
            assert!(fairy > pass, "fairy {fairy} ≤ pass {pass}");
            tried += 1;
        });
        assert!(tried > 20, "only {tried} positions tried");
    }

    /// The steps a `DRAGON` choice offers are the board's at every step of a movement (kept
    /// when asked, not looked at again), and some are.
    #[test]
    fn the_offered_steps_are_the_board_s() {
        let mut asked = 0;
        each_position(6, |game| {
            if let Phase::Choose {
                action: ActionId::DRAGON,
                ..
            } = game.phase()
            {
                assert_eq!(super::offered(game), &*super::steps(game));
                assert!(super::step_count(game) > 0);
                asked += 1;
            }
        });
        assert!(asked > 20, "only {asked} dragon steps");
    }

    /// Nothing is ever deployed on the tile the dragon stands on, and the deploys listed there
    /// are none.
    #[test]
    fn no_deploy_is_listed_on_the_dragon_s_tile() {
        let mut volcanoes = 0;
        each_position(6, |game| {
            let Phase::Act(placed) = game.phase() else {
                return;
            };
            if game.modules.deploy_forbidden(placed) {
                volcanoes += 1;
                assert_eq!(game.deploy_count(placed), 0);
                assert!(!game.can_deploy(placed));
            }
        });
        assert!(volcanoes > 0, "no volcano placed");
    }
}
