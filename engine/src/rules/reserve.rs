//! Tiles held in each player's reserve (a tile with `reserve`: Abbey & Mayor's abbey). Instead
//! of placing the drawn tile, a player may place one of theirs `into` a gap: an open position
//! closed on all four sides by placed tiles, whose edges the reserve tile's meet (the abbey's
//! `end` walls meet every base edge). The drawn tile goes back on top of the draw, as if it had
//! not been drawn (JCZ offers the abbey before the draw, `AbbeyPhase`). After the last tile,
//! each player still holding one is asked once, in turn order from the player after the one
//! who placed the last tile, to place it or decline (`Move::Pass`), before the final scoring
//! (JCZ's `AbbeyEndGamePhase`). The second step after placing it is the usual one: a monk on
//! the abbey, since the tile is a monastery as written.
//!
//! The gaps are kept as tiles are placed (the `placed` hook), so a turn reads a short list,
//! never the frontier.

use crate::board::EMPTY;
use crate::ids::{KindId, OrientId, PlacedId};
use crate::rules::{ActionId, Target};
use crate::state::{Core, Event, Game, IllegalMove, Phase};

/// The reserve tiles in a game: which kind, how many each player holds, where they may go.
#[derive(Clone, Debug)]
pub(crate) struct Reserve {
    /// The reserve tile's kind.
    pub(crate) kind: KindId,
    /// How many each player still holds.
    pub(crate) held: Vec<u8>,
    /// The open positions with a placed tile on each side whose edges the reserve tile
    /// meets, in the order they closed (a closed position's edges never change: checked
    /// once).
    pub(crate) gaps: Vec<(i16, i16)>,
    /// The player who placed the tile before (whose turn the end-game round starts after).
    pub(crate) placer: u8,
    /// After the last tile: the round asking each player once.
    pub(crate) end: Option<EndRound>,
    /// The players' points together when a reserve tile was placed this turn: what the turn
    /// scores is credited to it (`GameStats::action_points`).
    pub(crate) scored_from: Option<u64>,
}

/// The round after the last tile: the seat asked next and how many seats are still to ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EndRound {
    /// The seat to ask next.
    next: u8,
    /// Seats still to ask.
    left: u8,
}

impl Reserve {
    /// `each` reserve tiles of `kind` for each of `players`.
    pub(crate) fn new(kind: KindId, each: u8, players: usize) -> Reserve {
        Reserve {
            kind,
            held: vec![each; players],
            gaps: Vec::new(),
            placer: 0,
            end: None,
            scored_from: None,
        }
    }
}

/// Whether the open position `(x, y)` has a placed tile on each side.
fn closed(game: &Game<'_>, (x, y): (i16, i16)) -> bool {
    let cell = game.core.board.cell(i32::from(x), i32::from(y));
    closed_slot(&game.core, cell.slot)
}

/// Whether the frontier slot `slot` (`EMPTY`: none, a placed cell) is an open position with
/// a placed tile on each side.
fn closed_slot(core: &Core<'_>, slot: u16) -> bool {
    if slot == EMPTY {
        return false;
    }
    // Read off its neighbour pattern, kept up to date as tiles are placed, instead of the four
    // cells: a side's digit is 0 where no tile is.
    let base = core.tables.index.base;
    let mut pattern = core.board.frontier[usize::from(slot)].pattern;
    (0..4).all(|_| {
        let side = pattern % base;
        pattern /= base;
        side != 0
    })
}

/// Whether the reserve tile's edges meet those around the open position in frontier slot
/// `slot`.
fn edges_meet(core: &Core<'_>, kind: KindId, slot: u16) -> bool {
    let pattern = core.board.frontier[usize::from(slot)].pattern;
    core.tables.index.fits(pattern, kind) != 0
}

/// The `placed` hook: the tile at `placed` filled a gap or closed the gaps beside it; its
/// player is remembered for the end-game round.
pub(crate) fn note_placed(game: &mut Game<'_>, placed: PlacedId) {
    let core = &game.core;
    let Some(r) = &mut game.modules.reserve else {
        return;
    };
    r.placer = core.current;
    let p = core.board.placed[placed.index()];
    if let Some(i) = r.gaps.iter().position(|&at| at == (p.x, p.y)) {
        r.gaps.remove(i);
    }
    // A position closes once, when its last side is placed: each gap is pushed once. The
    // cells beside the new tile are read as placing it left them, not again.
    for (side, cell) in core.board.beside.iter().enumerate() {
        if closed_slot(core, cell.slot) && edges_meet(core, r.kind, cell.slot) {
            let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][side];
            r.gaps.push((p.x + dx, p.y + dy));
        }
    }
}

/// Whether the reserve tile fits the gap `(x, y)`: its edges meet the four around it, and the
/// placement filters allow it there as they would a drawn tile.
fn fits(game: &Game<'_>, r: &Reserve, (x, y): (i16, i16)) -> bool {
    let cell = game.core.board.cell(i32::from(x), i32::from(y));
    (game.modules).filtered_mask(&game.core, r.kind, cell.slot) != 0
}

/// The gaps the current player may place a reserve tile into now (none outside the place
/// phase).
fn targets<'a>(game: &'a Game<'_>) -> impl Iterator<Item = (i16, i16)> + 'a {
    let placing = matches!(game.core.phase, Phase::Place(_));
    targets_of(game, game.core.current).filter(move |_| placing)
}

/// Whether the reserve tile fits the gap `at`, whose edges it meets (`Reserve::gaps`): the
/// placement filters are asked only where one could clear a rotation.
fn gap_fits(game: &Game<'_>, r: &Reserve, at: (i16, i16)) -> bool {
    !game.modules.may_filter(&game.core, at) || fits(game, r, at)
}

/// The gaps `seat` could place a reserve tile into (none without one left).
fn targets_of<'a>(game: &'a Game<'_>, seat: u8) -> impl Iterator<Item = (i16, i16)> + 'a {
    let r = (game.modules.reserve.as_ref()).filter(|r| r.held[usize::from(seat)] > 0);
    r.into_iter().flat_map(move |r| {
        r.gaps
            .iter()
            .copied()
            .filter(move |&at| gap_fits(game, r, at))
    })
}

/// How many reserve placements the current player has, and 1 more for declining in the
/// end-game round.
pub(crate) fn count(game: &Game<'_>) -> usize {
    let declining = usize::from(declining(game));
    let seat = usize::from(game.core.current);
    let Some(r) = (game.modules.reserve.as_ref()).filter(|r| r.held[seat] > 0) else {
        return declining;
    };
    if !matches!(game.core.phase, Phase::Place(_)) {
        return declining;
    }
    // Counted every turn a player holds one: without a placement filter every gap fits, and
    // the filtered count is a plain loop (as an iterator chain, the turn's largest cost in
    // Abbey & Mayor after the placements).
    let gaps = match game.modules.filters_placements() {
        false => r.gaps.len(),
        true => (r.gaps.iter()).filter(|&&at| gap_fits(game, r, at)).count(),
    };
    gaps + declining
}

/// The `n`-th reserve placement (`Move::Pass` last, declining, in the end-game round).
pub(crate) fn nth(game: &Game<'_>, n: usize) -> Option<crate::state::Move> {
    match targets(game).nth(n) {
        Some((x, y)) => Some(crate::state::Move::Action {
            action: ActionId::ABBEY,
            target: Target::At { x, y },
        }),
        None => (n == targets(game).count() && declining(game)).then_some(crate::state::Move::Pass),
    }
}

/// Whether the end-game round is on: the player may decline with `Move::Pass`.
pub(crate) fn declining(game: &Game<'_>) -> bool {
    game.modules
        .reserve
        .as_ref()
        .is_some_and(|r| r.end.is_some())
}

/// Places one of the current player's reserve tiles at `(x, y)` instead of the drawn tile,
/// which goes back on top of the draw (none is drawn in the end-game round). Returns the
/// placed tile; the game is unchanged when it is refused.
pub(crate) fn place(
    game: &mut Game<'_>,
    x: i16,
    y: i16,
    events: &mut Vec<Event>,
) -> Result<PlacedId, IllegalMove> {
    let player = game.core.current;
    let Some(r) = game.modules.reserve.as_ref() else {
        return Err(IllegalMove::NotOffered(
            "no tile is held in reserve in this game".into(),
        ));
    };
    let id = game.core.tables.kind(r.kind).id.clone();
    if r.held[usize::from(player)] == 0 {
        return Err(IllegalMove::NotOffered(format!(
            "player {} has no {id} left in reserve",
            player + 1
        )));
    }
    if !closed(game, (x, y)) {
        return Err(IllegalMove::NotOffered(format!(
            "{id} goes into a gap with a tile on all four sides; ({x}, {y}) is not one"
        )));
    }
    if !fits(game, r, (x, y)) {
        let slot = game.core.board.cell(i32::from(x), i32::from(y)).slot;
        let pattern = game
            .core
            .board
            .frontier
            .get(usize::from(slot))
            .map(|o| o.pattern);
        let edges = pattern.is_some_and(|p| game.core.tables.index.fits(p, r.kind) != 0);
        let refused =
            || IllegalMove::NotOffered(format!("{id}'s edges do not meet those around ({x}, {y})"));
        return Err(match edges {
            true => game
                .modules
                .placement_fault(&game.core)
                .unwrap_or_else(refused),
            false => refused(),
        });
    }
    let (kind, in_round) = (r.kind, r.end.is_some());
    let orient = OrientId(game.core.tables.kind(kind).orients[0]);
    if !in_round {
        // The drawn tile was not used: the next player draws it.
        game.core.next_draw -= 1;
    }
    let scored: u64 = game.core.scores.iter().map(|&s| u64::from(s)).sum();
    if let Some(r) = &mut game.modules.reserve {
        r.held[usize::from(player)] -= 1;
        r.scored_from = Some(scored);
    }
    let placed = game.put(i32::from(x), i32::from(y), orient);
    events.push(Event::Placed {
        player,
        kind,
        x,
        y,
        rotation: 0,
    });
    events.push(Event::Action {
        player,
        action: ActionId::ABBEY,
        target: Target::At { x, y },
    });
    Ok(placed)
}

/// The end-game round, once the draw is exhausted: the next seat of the round holding a
/// reserve tile with a gap to place it in becomes the current player, placing that kind;
/// None when the round is over (then the final scoring).
pub(crate) fn next_in_round(game: &mut Game<'_>) -> Option<KindId> {
    let players = game.core.options.players;
    loop {
        let r = game.modules.reserve.as_mut()?;
        let placer = r.placer;
        let round = r.end.get_or_insert(EndRound {
            next: (placer + 1) % players,
            left: players,
        });
        if round.left == 0 {
            return None;
        }
        let seat = round.next;
        round.next = (seat + 1) % players;
        round.left -= 1;
        let kind = r.kind;
        if targets_of(game, seat).next().is_none() {
            continue;
        }
        game.core.current = seat;
        game.core.phase = Phase::Place(kind);
        // No placement of the tile's own: only the reserve moves and declining.
        game.place.reset(kind);
        game.place.narrow(&game.core, |_, _| 0);
        return Some(kind);
    }
}

/// The `end_turn` hook after a reserve tile's turn: what the turn scored, all players
/// together, credited to the reserve tile's move.
pub(crate) fn credit(game: &mut Game<'_>) {
    let Some(from) = game
        .modules
        .reserve
        .as_mut()
        .and_then(|r| r.scored_from.take())
    else {
        return;
    };
    let now: u64 = game.core.scores.iter().map(|&s| u64::from(s)).sum();
    (game.core.stats).credit_action(ActionId::ABBEY.index(), now.saturating_sub(from));
}

#[cfg(test)]
mod tests {
    use crate::ids::PlacedId;
    use crate::players::random::each_random_position;

    /// `closed`, read off the neighbour patterns, agrees with the four cells around every open
    /// position after every placement of random Abbey & Mayor games, and finds some gaps.
    #[test]
    fn a_gap_is_an_open_position_with_a_tile_on_each_side() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let sets = ["base".to_string(), "abbey-and-mayor".to_string()];
        let mut gaps = 0;
        each_random_position(&tables, &sets, 0..4, |game| {
            for open in &game.core.board.frontier {
                let (x, y) = (i32::from(open.x), i32::from(open.y));
                let cells = game.core.board.neighbours(x, y);
                let four = cells.iter().all(|c| c.placed != PlacedId::NONE);
                assert_eq!(super::closed(game, (open.x, open.y)), four, "({x}, {y})");
                gaps += usize::from(four);
            }
        });
        assert!(gaps > 0, "no gap in these games");
    }

    /// The gaps kept as tiles are placed are exactly the open positions with a tile on each
    /// side whose edges the reserve tile meets, after every placement of random games, with
    /// the donkey's sets too (its filter is asked of the gaps, not kept in them).
    #[test]
    fn the_kept_gaps_are_the_closed_positions_the_reserve_tile_meets() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        for sets in [
            &["base", "abbey-and-mayor"][..],
            &["base", "abbey-and-mayor", "village-life", "river"][..],
        ] {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            let mut kept = 0;
            each_random_position(&tables, &sets, 0..6, |game| {
                let r = game
                    .modules
                    .reserve
                    .as_ref()
                    .expect("a reserve tile in play");
                let mut expected: Vec<(i16, i16)> = (game.core.board.frontier.iter())
                    .filter(|o| super::closed(game, (o.x, o.y)))
                    .filter(|o| game.core.tables.index.fits(o.pattern, r.kind) != 0)
                    .map(|o| (o.x, o.y))
                    .collect();
                let mut gaps = r.gaps.clone();
                expected.sort_unstable();
                gaps.sort_unstable();
                assert_eq!(gaps, expected);
                kept += gaps.len();
            });
            assert!(kept > 0, "no gap in the games of {sets:?}");
        }
    }

    /// `Placements::count_to`, which the random player's choice between the placements and
    /// a reserve move counts to, is the count where that is at most its bound, and a number
    /// above the bound (never above the count) where it is not, in every place phase of
    /// random games.
    #[test]
    fn a_count_to_a_bound_stops_past_it() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let sets = ["base".to_string(), "abbey-and-mayor".to_string()];
        each_random_position(&tables, &sets, 0..3, |game| {
            if !matches!(game.phase(), crate::game::Phase::Place(_)) {
                return;
            }
            let count = game.place.count(&game.core);
            for most in [0, 1, 3, 10, 40, 1000] {
                let to = game.place.count_to(&game.core, most);
                match u64::from(count) <= most {
                    true => assert_eq!(to, count, "bound {most}"),
                    false => assert!(u64::from(to) > most && to <= count, "{to} for {most}"),
                }
            }
        });
    }
}
