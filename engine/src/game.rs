//! The turn flow of a game: setting it up, the legal moves, applying them, the end of a turn
//! (completions, the rules' end-of-turn parts) and the draw. The state and its primitives live
//! in `crate::state`, the drawn tile's placements in `crate::placements`, scoring in
//! `crate::scoring`, the expansions' rules in `crate::rules`; this module calls them at fixed
//! hooks (placement filters, second-step moves, end of turn) and they never call back into it.
//!
//! A turn is two moves: `Move::Place` puts the drawn tile, then one of `Move::Deploy` (a follower
//! on a feature of that tile), `Move::Action` (a rule module's move, `rules::ACTIONS`) or
//! `Move::Pass` ends the turn; completed features are scored then. A rule module may then ask a
//! player for choices (`Phase::Choose`, `Game::next_choice`: the wagon moving on), each a move
//! of its action or, when it may be declined, the pass; then the next tile is drawn (tiles that
//! fit nowhere are set aside).

use crate::board::EMPTY;
use crate::ids::{FigureId, KindId, NodeId, OrientId, PlacedId};
pub use crate::rules::ActionGroup;
use crate::rules::ActionId;
pub use crate::setup::Setup;
use crate::tables::{Orient, Tables};
use tiledef::{Meeting, Port, Side};

pub use crate::options::{Draw, GameOptions, MAX_PLAYERS, RuleOptions, Rules, SetupError};
use crate::placements::nth_bit;
pub use crate::scoring::{CornerPaid, Reason, Score, Scored};
pub use crate::state::{
    Event, Figure, FigureKind, Game, GameStats, IllegalMove, Move, Node, Phase,
};

/// The deploy moves on a tile just placed: first each free local feature (bit `i`: local
/// feature `i`, unclaimed and claimable) with each figure the player has left that deploys
/// as a follower does (`FigureId::bit`), features first, in local order; then `special` moves
/// of the set figures with their own `on`, `beside` or power (`Game::nth_deploy` makes those).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deploys {
    features: u64,
    figures: u32,
    special: u32,
    /// How many figures `figures` holds, and the deploys as a follower does: counted once
    /// here (no `popcnt` on the baseline x86-64 target), read at each count and `nth`.
    kinds: u32,
    plain: u32,
}

impl Deploys {
    /// The deploys on `features` of `figures`, and `special` more.
    fn new(features: u64, figures: u32, special: u32) -> Deploys {
        let kinds = figures.count_ones();
        Deploys {
            features,
            figures,
            special,
            kinds,
            plain: features.count_ones() * kinds,
        }
    }

    /// How many deploy moves there are.
    pub fn count(&self) -> usize {
        self.plain() + self.special as usize
    }

    /// How many of them are the set figures' with their own `on`, `beside` or power.
    pub fn special(&self) -> usize {
        self.special as usize
    }

    /// How many of them deploy as a follower does.
    fn plain(&self) -> usize {
        self.plain as usize
    }

    /// The `n`-th deploy move of those deploying as a follower does (None from `plain` on).
    fn nth_plain(&self, n: usize) -> Option<Move> {
        let kinds = self.kinds as usize;
        if n >= self.plain() {
            return None;
        }
        let feature = nth_bit(self.features, n / kinds);
        let figure = FigureId::from_index(usize::from(nth_bit(u64::from(self.figures), n % kinds)));
        Some(Move::Deploy { feature, figure })
    }
}

/// Why a set's figure may not stand on a feature (`Game::stand_fault`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StandFault {
    /// Its kind is not among the figure's `on`.
    NotOn,
    /// The figure goes beside its owner's, who has no claiming figure there.
    NotBesideOwn,
    /// The feature already has a figure.
    Taken,
    /// A rule module refuses a follower there (the deploy filter hook).
    Refused,
    /// The figure goes beside its owner's, on a feature the tile just completed (JCZ's
    /// builder: it would go home at once).
    Completed,
}

impl<'t> Game<'t> {
    /// Sets up a game: the start tile at (0, 0) unrotated, and the first tile drawn
    /// (`Setup::new`, then `Setup::game` with the options' seed).
    pub fn new(
        tables: &'t Tables,
        options: GameOptions,
        events: &mut Vec<Event>,
    ) -> Result<Game<'t>, SetupError> {
        let seed = options.draw.seed();
        Ok(Setup::new(tables, options)?.game(seed, events))
    }

    /// The tables the game is played with.
    pub fn tables(&self) -> &'t Tables {
        self.core.tables
    }

    /// The options the game was set up with.
    pub fn options(&self) -> &GameOptions {
        &self.core.options
    }

    /// The tile kind the game started from (placed at (0, 0), unrotated).
    pub fn start(&self) -> KindId {
        self.core.start
    }

    /// Where the game is.
    pub fn phase(&self) -> Phase {
        self.core.phase
    }

    /// The rules the game plays (its options, defaults resolved from the sets in it).
    pub fn rules(&self) -> &Rules {
        &self.core.rules
    }

    /// Tiles left to draw.
    pub fn tiles_left(&self) -> usize {
        self.core.bag.len() - self.core.next_draw
    }

    /// Shuffles the tiles not yet drawn: a search plays on copies that must not know the draw
    /// order (the players' `mcts`). Each segment of the draw (`draw::segments`: a group drawn
    /// first, the tiles of no group, a group's held-back tiles, …) is shuffled on its own, so a
    /// copy still draws the River before the other tiles and its lake last.
    pub fn shuffle_undrawn(&mut self, rng: &mut crate::rng::Rng) {
        let segment = crate::draw::segments(self.core.tables);
        let rest = &mut self.core.bag[self.core.next_draw..];
        let mut from = 0;
        while from < rest.len() {
            let seg = segment(rest[from]);
            let run = rest[from..]
                .iter()
                .take_while(|&&k| segment(k) == seg)
                .count();
            rng.shuffle(&mut rest[from..from + run]);
            from += run;
        }
    }

    /// Whether a tile kind fits anywhere on the board, as the placement index says (edges, and
    /// a path continued): the room and donkey filters, which only the drawn tile gets, aside.
    pub fn can_place(&self, kind: KindId) -> bool {
        self.core
            .board
            .frontier
            .iter()
            .any(|open| self.core.tables.index.fits(open.pattern, kind) != 0)
    }

    /// Prepares the drawn kind's placements: the placement index gives each open position's
    /// rotations (edges, and a path continued), the placement filters (a path's room, the
    /// donkey) clear those the rules forbid.
    /// Returns whether the kind can be placed somewhere (`Placements::any`).
    fn fill_masks(&mut self, kind: KindId) -> bool {
        self.place.reset(kind);
        if self.core.play.kind(kind).no_u_turn {
            crate::placement::filter(&self.core, &mut self.place, kind);
        }
        self.modules.filter(&self.core, &mut self.place, kind);
        self.place.any(&self.core)
    }

    /// Recomputes the drawn tile's legal placements (after changing `donkey` for analysis).
    pub fn recompute_placements(&mut self) {
        if let Phase::Place(kind) = self.core.phase {
            self.fill_masks(kind);
        }
    }

    /// How many moves the place phase has: the drawn tile's placements, then the rules'
    /// place-step moves (`rules::PLACE_STEP`: a reserve tile instead); 0 outside the phase.
    pub fn placement_count(&self) -> u32 {
        match self.core.phase {
            Phase::Place(_) => self.place.count(&self.core) + self.place_action_count() as u32,
            _ => 0,
        }
    }

    /// The `n`-th move of the place phase, in the order of `legal_moves`.
    pub fn nth_placement(&self, n: u32) -> Option<Move> {
        let Phase::Place(_) = self.core.phase else {
            return None;
        };
        self.place.nth(&self.core, n).or_else(|| {
            let placements = self.place.count(&self.core);
            self.nth_place_action(n.checked_sub(placements)? as usize)
        })
    }

    /// A move of the place phase drawn uniformly at random (None outside the phase), reading
    /// a few open positions, not the whole frontier (`Placements::sample`); with place-step
    /// moves in play, uniform over the placements and those.
    pub fn sample_placement(&self, rng: &mut crate::rng::Rng) -> Option<Move> {
        let Phase::Place(_) = self.core.phase else {
            return None;
        };
        if self.has_place_actions() {
            // `below(placements + actions)` takes one number of the stream whatever its bound
            // (without a place-step move, the draw among the placements alone): taken first,
            // it says how few placements the place-step moves need to be picked
            // (`Draw::most_before`), and the placements are counted only that far, most turns
            // stopping at the first few positions: the same games.
            let draw = rng.draw();
            let actions = self.place_action_count();
            if actions > 0 {
                let most = draw.most_before(actions);
                let placements = self.place.count_to(&self.core, most);
                if u64::from(placements) <= most {
                    let placements = placements as usize;
                    let n = draw.below(placements + actions);
                    return self.nth_place_action(n - placements);
                }
            }
        }
        self.place.sample(&self.core, rng)
    }

    pub(crate) fn draw_next(&mut self, events: &mut Vec<Event>) {
        while self.core.next_draw < self.core.bag.len() {
            let kind = self.core.bag[self.core.next_draw];
            if self.core.tables.kind(kind).held != 0 && self.held_back(events) {
                continue;
            }
            self.core.next_draw += 1;
            if self.fill_masks(kind) {
                self.core.phase = Phase::Place(kind);
                return;
            }
            self.core.set_aside.push(kind);
            self.core.stats.set_aside += 1;
            events.push(Event::SetAside { kind });
        }
        if self.after_last_tile().is_some() {
            return;
        }
        self.final_scoring(events);
        self.core.phase = Phase::Over;
        events.push(Event::GameOver {
            scores: self.core.scores.clone(),
        });
    }

    /// Whether the held tile about to be drawn waits for a later turn (`draw::hold`): moved
    /// behind the next tile that lets it go, or set aside when none is left.
    fn held_back(&mut self, events: &mut Vec<Event>) -> bool {
        let core = &mut self.core;
        let tables = core.tables;
        let placed =
            (core.board.placed.iter()).map(|p| KindId(tables.orients[p.orient.index()].kind));
        match crate::draw::hold(tables, placed, &mut core.bag, core.next_draw) {
            crate::draw::Held::Draw => false,
            crate::draw::Held::Later => true,
            crate::draw::Held::Out => {
                let kind = core.bag[core.next_draw];
                core.next_draw += 1;
                core.set_aside.push(kind);
                core.stats.set_aside += 1;
                events.push(Event::SetAside { kind });
                true
            }
        }
    }

    /// Appends the legal moves to `out` (which is cleared first).
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.core.phase {
            Phase::Place(_) => {
                for (slot, open) in self.core.board.frontier.iter().enumerate() {
                    push_rotations(open.x, open.y, self.place.mask_at(&self.core, slot), out);
                }
                let n = self.place_action_count();
                out.extend((0..n).filter_map(|k| self.nth_place_action(k)));
            }
            Phase::Act(placed) => {
                self.legal_actions(placed, out);
                for group in &ActionGroup::ALL[ActionGroup::LISTED..] {
                    let n = self.action_count(placed, *group);
                    out.extend((0..n).filter_map(|k| self.nth_action(placed, *group, k)));
                }
            }
            Phase::Choose { action, placed, .. } => {
                let n = self.module_action_count(placed, action);
                out.extend((0..n).filter_map(|k| self.nth_module_action(placed, action, k)));
                if self.choice_declinable(action) {
                    out.push(Move::Pass);
                }
            }
            Phase::Over => {}
        }
    }

    /// Appends the second-step moves of the first `ActionGroup::LISTED` groups, in the order
    /// of `ActionGroup::ALL` (deploys, windmills, Festival returns, recalls, barns, figures sent
    /// home, the fairy, pass); returns how many of each it appended. (Simulations choose the
    /// donkey and the portal separately, so their many targets do not swamp the rest.)
    pub fn legal_actions(
        &self,
        placed: PlacedId,
        out: &mut Vec<Move>,
    ) -> [usize; ActionGroup::LISTED] {
        let start = out.len();
        self.legal_deploys(placed, out);
        let mut counts = [0; ActionGroup::LISTED];
        counts[0] = out.len() - start;
        for (i, group) in ActionGroup::ALL[1..ActionGroup::LISTED].iter().enumerate() {
            let n = self.action_count(placed, *group);
            out.extend((0..n).filter_map(|k| self.nth_action(placed, *group, k)));
            counts[i + 1] = n;
        }
        counts
    }

    /// How many moves of a group the current player has after placing `placed` (deploys
    /// counted as `deploys` does).
    #[inline]
    pub fn action_count(&self, placed: PlacedId, group: ActionGroup) -> usize {
        match group {
            ActionGroup::Deploy => self.deploys(placed).count(),
            ActionGroup::Module(action) => self.module_action_count(placed, action),
            ActionGroup::Pass => 1,
        }
    }

    /// Whether the current player has a move of a group after placing `placed`
    /// (`action_count` above 0, found without counting where a count walks the board).
    // Always inlined: the random player asks a constant list of groups every turn, and only
    // inlined does each ask fold to its module's test (else each is a match at run time).
    #[inline(always)]
    pub fn has_action(&self, placed: PlacedId, group: ActionGroup) -> bool {
        match group {
            ActionGroup::Deploy => self.can_deploy(placed),
            ActionGroup::Module(action) => self.has_module_action(placed, action),
            ActionGroup::Pass => true,
        }
    }

    /// The `n`-th move of a group, in the order of `legal_moves`.
    pub fn nth_action(&self, placed: PlacedId, group: ActionGroup, n: usize) -> Option<Move> {
        match group {
            ActionGroup::Deploy => self.nth_deploy(placed, n),
            ActionGroup::Module(action) => self.nth_module_action(placed, action, n),
            ActionGroup::Pass => (n == 0).then_some(Move::Pass),
        }
    }

    /// Whether the game has a group whose moves are many and alike (`ActionGroup::grouped`)
    /// in play at all: without one, a random second step is flat over all moves.
    #[inline]
    pub fn has_grouped_actions(&self) -> bool {
        self.modules.has_grouped()
    }

    /// Appends the placements of any tile kind on the current board as the placement index
    /// gives them (edges, and a path continued; distinct rotations only): the drawn tile's,
    /// after the room and donkey filters, are `legal_moves`.
    pub fn legal_placements(&self, kind: KindId, out: &mut Vec<Move>) {
        for open in &self.core.board.frontier {
            let mask = self.core.tables.index.fits(open.pattern, kind);
            push_rotations(open.x, open.y, mask, out);
        }
    }

    /// Appends the deploy moves on the tile just placed.
    /// (Per feature: the base follower, then each of the set's follower kinds the player has.)
    pub fn legal_deploys(&self, placed: PlacedId, out: &mut Vec<Move>) {
        let deploys = self.deploys(placed);
        out.extend((0..deploys.plain()).filter_map(|n| deploys.nth_plain(n)));
        if deploys.special > 0 {
            out.extend(
                (self.special_deploys(placed))
                    .map(|(feature, figure)| Move::Deploy { feature, figure }),
            );
        }
    }

    /// The deploy moves on the tile just placed, counted but not listed (a random second step
    /// makes only the chosen one, with `nth_deploy`).
    pub fn deploys(&self, placed: PlacedId) -> Deploys {
        if self.modules.deploy_forbidden(placed) {
            return Deploys::default();
        }
        let special = if self.core.powers.special != 0 {
            self.special_count(placed)
        } else {
            0
        };
        let figures = self.deployable();
        if figures == 0 {
            return Deploys::new(0, 0, special);
        }
        let mut features = (self.free_features(placed)).fold(0, |set, i| set | 1 << i);
        if self.modules.filters_deploys() {
            features &= !self.refused_features(placed, features);
        }
        Deploys::new(features, figures, special)
    }

    /// The local features of a tile just placed that a follower could claim: claimable, and
    /// no follower on their feature yet.
    fn free_features(&self, placed: PlacedId) -> impl Iterator<Item = usize> + '_ {
        let p = self.core.board.placed[placed.index()];
        (self.core.tile_nodes(placed).iter().enumerate())
            .filter(move |&(i, n)| {
                self.core.play.claimable(n.kind)
                    && self.core.nodes[self.find(p.node(i as u8)).index()].followers == 0
            })
            .map(|(i, _)| i)
    }

    /// The local features among `asked` (bit `i`: local feature `i`) of a tile just placed on
    /// which a rule module refuses a follower (the deploy filter hook).
    fn refused_features(&self, placed: PlacedId, asked: u64) -> u64 {
        let p = self.core.board.placed[placed.index()];
        let mut refused = 0;
        let mut rest = asked;
        while rest != 0 {
            let i = rest.trailing_zeros();
            rest &= rest - 1;
            if self.deploy_refused(self.find(p.node(i as u8))) {
                refused |= 1 << i;
            }
        }
        refused
    }

    /// The figures deployed as a follower is (a mask of `FigureId::bit`) the current player
    /// has left to deploy.
    fn deployable(&self) -> u32 {
        let p = self.core.current as usize;
        let mut mask = u32::from(self.core.supply[p] > 0) << FigureId::FOLLOWER.index();
        // The base follower alone: no set figure in play deploys as a follower does.
        if self.core.powers.plain != FigureId::FOLLOWER.bit() {
            let kinds = self.core.follower_counts.len();
            for (k, &n) in self.core.follower_supply[p * kinds..(p + 1) * kinds]
                .iter()
                .enumerate()
            {
                mask |= u32::from(n > 0) << FigureId::set(k).index();
            }
            mask &= self.core.powers.plain;
        }
        mask
    }

    /// The deploys of the set figures with their own `on`, `beside` or power that the current
    /// player has left, as `(feature, figure)`: by figure, then local feature.
    fn special_deploys(&self, placed: PlacedId) -> impl Iterator<Item = (u8, FigureId)> + '_ {
        let features = self.core.play_orient(placed).features;
        let mut kinds = self.special_kinds(placed);
        let mut kind = kinds.next();
        let mut feature = 0;
        // A loop rather than `flat_map`: asked every turn (`can_deploy`), it is hot.
        std::iter::from_fn(move || {
            while let Some(k) = kind {
                while feature < features {
                    let i = feature;
                    feature += 1;
                    if self.stand_fault(placed, i, k).is_none() {
                        return Some((i, FigureId::set(k)));
                    }
                }
                kind = kinds.next();
                feature = 0;
            }
            None
        })
    }

    /// How many `special_deploys` there are. Counted every turn, so a plain loop: counting the
    /// iterator costs the base game with the abbot 0.2 % more.
    fn special_count(&self, placed: PlacedId) -> u32 {
        let orient = self.core.board.placed[placed.index()].orient;
        if self.core.play.kinds_on(orient) & self.core.powers.special_on == 0 {
            return 0;
        }
        let nodes = self.core.tile_nodes(placed);
        let mut n = 0;
        for k in self.special_kinds(placed) {
            // Only the features of a kind the figure stands on ask `stand_fault` (whose first
            // test that is): most of a tile's are not.
            let on = self.core.tables.followers[k].on;
            for (i, node) in nodes.iter().enumerate() {
                if on & node.kind.bit() != 0 {
                    n += u32::from(self.stand_fault(placed, i as u8, k).is_none());
                }
            }
        }
        n
    }

    /// The set figures with their own `on`, `beside` or power the current player has left
    /// that stand on a kind the tile just placed has (`Tables::followers` indices).
    #[inline]
    fn special_kinds(&self, placed: PlacedId) -> impl Iterator<Item = usize> + '_ {
        let core = &self.core;
        let kinds = core.follower_counts.len();
        let p = usize::from(core.current);
        let on_tile = core.play.kinds_on(core.board.placed[placed.index()].orient);
        // Bit `k` for set figure `k`: shifted once here, not per figure (a turn asks this).
        let mut bits = core.powers.special >> FigureId::set(0).index();
        std::iter::from_fn(move || {
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if core.follower_supply[p * kinds + k] > 0
                    && core.tables.followers[k].on & on_tile != 0
                {
                    return Some(k);
                }
            }
            None
        })
    }

    /// Why set figure `k` (`Tables::followers[k]`) of the current player may not stand on
    /// local feature `feature` of the tile just placed (None: it may): a kind it does not
    /// name, or its feature taken (or, beside its owner's, not claimed by them). Counting
    /// deploys asks this of every feature, so it builds no message.
    #[inline]
    fn stand_fault(&self, placed: PlacedId, feature: u8, k: usize) -> Option<StandFault> {
        let core = &self.core;
        let info = &core.tables.followers[k];
        let node = core.board.placed[placed.index()].node(feature);
        if !info.stands_on(core.nodes[node.index()].kind) {
            return Some(StandFault::NotOn);
        }
        let root = core.find(node);
        if info.beside_own {
            // A feature without followers has no claim of anyone's: no walk of the figures.
            let node = &core.nodes[root.index()];
            if node.followers == 0 || !core.has_claim(core.current, root) {
                return Some(StandFault::NotBesideOwn);
            }
            (core.closes(node.kind) && node.open == 0).then_some(StandFault::Completed)
        } else if core.nodes[root.index()].followers > 0 {
            Some(StandFault::Taken)
        } else {
            (self.modules.filters_deploys() && self.deploy_refused(root))
                .then_some(StandFault::Refused)
        }
    }

    /// `stand_fault` as the move's error.
    fn may_stand(&self, placed: PlacedId, feature: u8, k: usize) -> Result<(), IllegalMove> {
        let Some(fault) = self.stand_fault(placed, feature, k) else {
            return Ok(());
        };
        let core = &self.core;
        let figure = core.tables.followers[k].name.clone();
        let node = core.board.placed[placed.index()].node(feature);
        let kind = core
            .tables
            .feature(core.nodes[node.index()].kind)
            .id
            .clone();
        Err(match fault {
            StandFault::NotOn => IllegalMove::FigureNotOn { figure, kind },
            StandFault::NotBesideOwn => IllegalMove::NotBesideOwn {
                figure,
                kind,
                player: core.current + 1,
            },
            StandFault::Completed => IllegalMove::BesideCompleted { figure, kind },
            StandFault::Taken => IllegalMove::FeatureTaken {
                kind,
                feature: describe_feature(core.tables, self.orient(placed), feature),
            },
            StandFault::Refused => match self.deploy_fault(core.find(node)) {
                Some(fault) => fault,
                None => IllegalMove::NotOffered(format!("no {figure} may go on this {kind}")),
            },
        })
    }

    /// How many deploy moves `legal_deploys` appends.
    pub fn deploy_count(&self, placed: PlacedId) -> usize {
        self.deploys(placed).count()
    }

    /// The `n`-th deploy move, in the order of `legal_deploys`.
    pub fn nth_deploy(&self, placed: PlacedId, n: usize) -> Option<Move> {
        self.nth_deploy_of(placed, &self.deploys(placed), n)
    }

    /// The `n`-th of `deploys` (the deploy moves on `placed`, as `deploys` counted them).
    pub fn nth_deploy_of(&self, placed: PlacedId, deploys: &Deploys, n: usize) -> Option<Move> {
        match n.checked_sub(deploys.plain()) {
            None => deploys.nth_plain(n),
            Some(n) => {
                let (feature, figure) = self.special_deploys(placed).nth(n)?;
                Some(Move::Deploy { feature, figure })
            }
        }
    }

    /// Whether the current player may deploy a figure on the tile just placed (stops at the
    /// first free feature).
    pub fn can_deploy(&self, placed: PlacedId) -> bool {
        if self.modules.deploy_forbidden(placed) {
            return false;
        }
        // A module refusing followers on some features (`filters_deploys`) is asked of each
        // free feature until one is not refused, not of all of them as `deploys` counts.
        let filters = self.modules.filters_deploys();
        let p = self.core.board.placed[placed.index()];
        let mut free = self.free_features(placed);
        (self.deployable() != 0
            && free.any(|i| !filters || !self.deploy_refused(self.find(p.node(i as u8)))))
            || (self.core.powers.special != 0 && self.special_deploys(placed).next().is_some())
    }

    /// Applies a move, or says why it is illegal (the game is then unchanged).
    pub fn apply(&mut self, mv: Move, events: &mut Vec<Event>) -> Result<(), IllegalMove> {
        match (self.core.phase, mv) {
            (Phase::Over, _) => Err(IllegalMove::Over),
            (Phase::Place(kind), Move::Place { x, y, rotation }) => {
                let orient = self.check_place(kind, x, y, rotation)?;
                let id = self.put(i32::from(x), i32::from(y), orient);
                events.push(Event::Placed {
                    player: self.core.current,
                    kind,
                    x,
                    y,
                    rotation: self.core.play.orient(orient).rotation,
                });
                self.placed_modules(id, events);
                self.core.phase = Phase::Act(id);
                Ok(())
            }
            (Phase::Place(_), Move::Action { action, target }) => {
                let id = self.apply_place_action(action, target, events)?;
                self.core.stats.count_action(action.index());
                self.placed_modules(id, events);
                self.core.phase = Phase::Act(id);
                Ok(())
            }
            (Phase::Place(_), Move::Pass) if self.may_decline() => {
                self.decline_place_step(events);
                self.draw_next(events);
                Ok(())
            }
            (Phase::Place(_), _) => Err(IllegalMove::PlaceFirst),
            (Phase::Act(_), Move::Place { .. }) => Err(IllegalMove::AlreadyPlaced),
            (Phase::Act(placed), Move::Deploy { feature, figure }) => {
                self.deploy(placed, feature, figure, events)?;
                self.end_turn(placed, events);
                Ok(())
            }
            (Phase::Act(placed), Move::Pass) => {
                self.end_turn(placed, events);
                Ok(())
            }
            (Phase::Act(placed), Move::Action { action, target }) => {
                self.apply_module_action(placed, action, target, events)?;
                self.end_turn(placed, events);
                Ok(())
            }
            (Phase::Choose { action, placed, .. }, mv) => {
                self.apply_choice(action, placed, mv, events)
            }
        }
    }

    /// Makes the choice asked for in `Phase::Choose` (a move of `action`, or the pass when the
    /// module lets it be declined), then asks for the next choice or finishes the turn.
    fn apply_choice(
        &mut self,
        asked: ActionId,
        placed: PlacedId,
        mv: Move,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalMove> {
        match mv {
            Move::Action { action, target } if action == asked => {
                self.apply_module_action(placed, action, target, events)?;
            }
            Move::Pass if self.choice_declinable(asked) => self.decline_choice(asked, events),
            _ => {
                return Err(IllegalMove::NotOffered(format!(
                    "player {} must first choose: {}",
                    self.to_move() + 1,
                    asked.info().name
                )));
            }
        }
        self.choose_or_finish(placed, events);
        Ok(())
    }

    fn check_place(
        &self,
        kind: KindId,
        x: i16,
        y: i16,
        rotation: u8,
    ) -> Result<OrientId, IllegalMove> {
        if rotation > 3 {
            return Err(IllegalMove::Rotation(rotation));
        }
        let cell = self.core.board.cell(i32::from(x), i32::from(y));
        if cell.placed != PlacedId::NONE {
            return Err(IllegalMove::Occupied { x, y });
        }
        if cell.slot == EMPTY {
            return Err(IllegalMove::NotAdjacent { x, y });
        }
        let orient = self.core.play.orient_of(kind, rotation);
        if self.place.mask_at(&self.core, cell.slot as usize)
            & (1 << self.core.play.orient(orient).rotation)
            != 0
        {
            return Ok(orient);
        }
        let o = self.core.tables.orient(orient);
        // The index refuses a detached path too, so why is read off the rules in their order:
        // the edges, then the path rules, then the donkey.
        for side in Side::ALL {
            let (dx, dy) = side.offset();
            if let Some(n) = self.core.board.at(i32::from(x) + dx, i32::from(y) + dy) {
                let theirs = self.core.tables.orient(n.orient).edges[side.opposite().index()];
                let ours = o.edges[side.index()];
                if self.core.tables.meeting(ours, theirs) == Meeting::Forbidden {
                    return Err(IllegalMove::Mismatch {
                        tile: self.core.tables.kind(kind).id.clone(),
                        rotation,
                        x,
                        y,
                        side: side.name().to_uppercase(),
                        ours: self.core.tables.edge_kinds[ours as usize].clone(),
                        theirs: self.core.tables.edge_kinds[theirs as usize].clone(),
                    });
                }
            }
        }
        if let Some(fault) =
            crate::placement::fault(self.core.tables, &self.core.board, o, x.into(), y.into())
        {
            let tile = self.core.tables.kind(kind).id.clone();
            let name = |edge: u8| self.core.tables.edge_kinds[edge as usize].clone();
            return Err(match fault {
                crate::placement::PathFault::Detached { edge } => IllegalMove::PathDetached {
                    tile,
                    rotation,
                    x,
                    y,
                    edge: name(edge),
                },
                crate::placement::PathFault::NoRoom { edge, side } => IllegalMove::PathNoRoom {
                    tile,
                    rotation,
                    x,
                    y,
                    edge: name(edge),
                    side: side.name().to_uppercase(),
                },
            });
        }
        if let Some(fault) = self.modules.placement_fault(&self.core) {
            return Err(fault);
        }
        // The edges meet and the rules allow it, so the masks should have: the tables are
        // inconsistent.
        Err(IllegalMove::NotAdjacent { x, y })
    }

    /// How many of `figure` the current player has left.
    #[inline]
    fn left(&self, figure: FigureId) -> u8 {
        let p = self.core.current as usize;
        match figure.set_index() {
            None => self.core.supply[p],
            Some(k) => {
                let kinds = self.core.follower_counts.len();
                if k < kinds {
                    self.core.follower_supply[p * kinds + k]
                } else {
                    0
                }
            }
        }
    }

    fn deploy(
        &mut self,
        placed: PlacedId,
        feature: u8,
        figure: FigureId,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalMove> {
        let o = self.orient(placed);
        let tile = || self.core.tables.kind(KindId(o.kind)).id.clone();
        let Some(f) = o.features.get(feature as usize) else {
            return Err(IllegalMove::NoFeature {
                tile: tile(),
                feature: feature.to_string(),
            });
        };
        if let Some(fault) = self.modules.deploy_fault(self.core.tables, placed) {
            return Err(fault);
        }
        let kind = self.core.tables.feature(f.kind);
        let node = self.core.board.placed[placed.index()].node(feature);
        let root = self.core.find_mut(node);
        let player = self.core.current;
        // A set's figure not in this game (not dealt, or switched off) is named as such.
        if let Some(k) = figure.set_index()
            && self.left(figure) == 0
        {
            let name =
                (self.core.tables.followers.get(k)).map_or("such follower", |f| f.name.as_str());
            return Err(IllegalMove::NotOffered(format!(
                "player {} has no {name} left",
                player + 1
            )));
        }
        if let Some(k) = figure.set_index()
            && self.core.powers.special & figure.bit() != 0
        {
            self.may_stand(placed, feature, k)?;
        } else {
            if !kind.claimable {
                return Err(IllegalMove::Unclaimable(kind.id.clone()));
            }
            if self.core.nodes[root.index()].followers > 0 {
                return Err(IllegalMove::FeatureTaken {
                    kind: kind.id.clone(),
                    feature: describe_feature(self.core.tables, o, feature),
                });
            }
            if self.modules.filters_deploys()
                && let Some(fault) = self.deploy_fault(root)
            {
                return Err(fault);
            }
        }
        if self.left(figure) == 0 {
            return Err(IllegalMove::NoFollower(player + 1));
        }
        match figure.set_index() {
            None => self.core.supply[player as usize] -= 1,
            Some(k) => {
                let kinds = self.core.follower_counts.len();
                self.core.follower_supply[player as usize * kinds + k] -= 1;
            }
        }
        self.core.nodes[root.index()].followers += 1;
        if self.core.play.is_site(f.kind) {
            self.core.site_followers += 1;
        }
        self.core.figures.push(Figure {
            kind: FigureKind::Follower,
            owner: player,
            node,
            tile: placed,
            figure,
        });
        if let Some(n) = self.core.stats.deployed.get_mut(figure.index()) {
            *n += 1;
        }
        events.push(Event::Deployed {
            player,
            feature,
            kind: f.kind,
            figure,
        });
        Ok(())
    }

    fn end_turn(&mut self, placed: PlacedId, events: &mut Vec<Event>) {
        let p = self.core.board.placed[placed.index()];
        let features = self.core.play_orient(placed).features;
        let mut hubs = Vec::new();
        for i in 0..features {
            self.check_closed(p.node(i), &mut hubs, events);
        }
        while let Some(n) = self.scratch.closed_by_edge.pop() {
            self.check_closed(n, &mut hubs, events);
        }
        if !hubs.is_empty() {
            self.networks(&hubs, events);
        }
        if self.core.site_followers > 0 {
            self.complete_sites(p.x, p.y, events);
        }
        self.end_turn_modules(placed, events);
        self.choose_or_finish(placed, events);
    }

    /// Asks the rule modules whether a player must choose something now (`Phase::Choose`);
    /// when none asks, the turn is over.
    // Always inlined, as `finish_turn`: out of line (as the fairy's turn-start test tipped
    // them), every turn's end paid a call and its spills, 11 instructions a placed tile in the
    // base game.
    #[inline(always)]
    fn choose_or_finish(&mut self, placed: PlacedId, events: &mut Vec<Event>) {
        match self.next_choice() {
            Some((player, action)) => {
                self.core.phase = Phase::Choose {
                    player,
                    action,
                    placed,
                };
            }
            None => self.finish_turn(events),
        }
    }

    /// The end of a turn after its choices: the next player (unless the same one plays again)
    /// draws.
    #[inline(always)]
    fn finish_turn(&mut self, events: &mut Vec<Event>) {
        let next_player = !self.plays_again();
        if next_player {
            self.core.current = (self.core.current + 1) % self.core.options.players;
        }
        self.draw_next(events);
        if next_player && self.core.phase != Phase::Over {
            self.turn_started(events);
        }
    }

    /// Scores the sites with followers whose range the tile just placed at `(x, y)` completed.
    fn complete_sites(&mut self, x: i16, y: i16, events: &mut Vec<Event>) {
        let (x, y) = (i32::from(x), i32::from(y));
        let reach = i32::from(self.core.play.site_reach);
        if reach == 1 {
            // The monastery's range: one read of the block around the tile.
            for (k, cell) in self.core.board.block(x, y).into_iter().enumerate() {
                if let Some((q, site)) = self.site_on(cell.placed) {
                    let (dx, dy) = ((k % 3) as i32 - 1, (k / 3) as i32 - 1);
                    self.complete_site(q, site, (-dx, -dy), events);
                }
            }
            return;
        }
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                let placed = self.core.board.cell(x + dx, y + dy).placed;
                if let Some((q, site)) = self.site_on(placed) {
                    self.complete_site(q, site, (-dx, -dy), events);
                }
            }
        }
    }

    /// The tile `placed` and its site, if a tile is there and has one.
    #[inline]
    fn site_on(&self, placed: PlacedId) -> Option<(crate::board::Placed, u8)> {
        if placed == PlacedId::NONE {
            return None;
        }
        let q = self.core.board.placed[placed.index()];
        let site = self.core.play.orient(q.orient).site;
        (site != crate::tables::NO_FEATURE).then_some((q, site))
    }

    /// Scores the site `site` of the tile `q` when it has followers and its range, which holds
    /// the tile `offset` away, is all placed.
    fn complete_site(
        &mut self,
        q: crate::board::Placed,
        site: u8,
        offset: (i32, i32),
        events: &mut Vec<Event>,
    ) {
        let n = q.node(site);
        let node = self.core.nodes[n.index()];
        if node.followers == 0 || node.done {
            return;
        }
        let range = self.core.tables.feature(node.kind).site_range();
        let (x, y) = (i32::from(q.x), i32::from(q.y));
        if range.contains(offset.0, offset.1)
            && self.core.board.placed_in(x, y, range) == range.tiles()
        {
            self.core.nodes[n.index()].done = true;
            self.score(n, true, events);
        }
    }

    /// Scores a closed road or city if it was not yet; a set with ends at a hub waits for the
    /// `networks` hook (collected in `hubs`).
    fn check_closed(&mut self, n: NodeId, hubs: &mut Vec<NodeId>, events: &mut Vec<Event>) {
        // A member has its set's kind: regions and sites need no root.
        if !self.core.closes(self.core.nodes[n.index()].kind) {
            return;
        }
        let r = self.core.find_mut(n);
        let node = self.core.nodes[r.index()];
        if node.open == 0 && !node.done {
            if node.hub_ends > 0 {
                if !hubs.contains(&r) {
                    hubs.push(r);
                }
                return;
            }
            self.core.nodes[r.index()].done = true;
            self.completed(r, events);
            if node.followers > 0 {
                self.score(r, true, events);
            }
        }
    }

    /// Scores every feature with figures: roads, cities and sites first, then regions (fields),
    /// each in the order their first follower was deployed (the order does not change points).
    fn final_scoring(&mut self, events: &mut Vec<Event>) {
        for fields in [false, true] {
            let mut i = 0;
            while i < self.core.figures.len() {
                let root = self.core.find_mut(self.core.figures[i].node);
                if self.core.figures[i].kind == FigureKind::Follower
                    && self
                        .core
                        .tables
                        .feature(self.core.nodes[root.index()].kind)
                        .is_region()
                        == fields
                {
                    // Scoring removes this figure (and any others on the feature) in place.
                    self.score(root, false, events);
                } else {
                    i += 1;
                }
            }
        }
        self.final_scoring_modules(events);
    }

    /// Approximate bytes held by the game state (for memory reports).
    pub fn heap_bytes(&self) -> usize {
        self.core.board.heap_bytes()
            + self.core.nodes.capacity() * std::mem::size_of::<Node>()
            + self.core.figures.capacity() * std::mem::size_of::<Figure>()
            + self.core.bag.capacity() * std::mem::size_of::<KindId>()
            + self.scratch.stamp.capacity() * 4
            + self.scratch.ring.capacity() * std::mem::size_of::<NodeId>()
    }
}

#[inline]
fn push_rotations(x: i16, y: i16, mut mask: u8, out: &mut Vec<Move>) {
    while mask != 0 {
        let rotation = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        out.push(Move::Place { x, y, rotation });
    }
}

/// A readable name for a local feature of a placed orientation: its kind and where it is, a
/// side it covers by its letter (both halves, or the centre of a road or city) and a lone half
/// port by its name: `field NNE E SSE`, `city N`, `road S`, `monastery`.
pub fn describe_feature(tables: &Tables, o: &Orient, feature: u8) -> String {
    let f = &o.features[feature as usize];
    let owns = |p: Port| f.ports & (1 << p.index()) != 0;
    let mut at: Vec<&str> = Vec::new();
    for side in tiledef::Side::ALL {
        let [left, centre, right] = side.ports();
        if (owns(left) && owns(right)) || owns(centre) {
            at.push(centre.name());
        } else {
            at.extend(
                [left, right]
                    .into_iter()
                    .filter(|&p| owns(p))
                    .map(Port::name),
            );
        }
    }
    let kind = &tables.feature(f.kind).id;
    if at.is_empty() {
        kind.clone()
    } else {
        format!("{kind} {}", at.join(" "))
    }
}
