//! `simulate --bot-study BOTS`: the run's first `--bot-games` seeds played again with each bot
//! in every seat, following the author's own figures, feature kinds and markers (the
//! `--focus` sets', else those not bundled) and every move kind; the figures are
//! `tilekit_report::bots`. Each game is seeded as `simulate` seeds it, so a bot's games here
//! are those of `simulate --players BOT,BOT,…`.

use engine::game::{ActionGroup, Event, Move, Phase, Scored};
use engine::players::{Player, Strategy};
use engine::rng::Rng;
use engine::rules::ModuleEvent;
use engine::setup::Setup;
use engine::simulate::{SimError, SimOptions};
use engine::{FeatureKindId, FigureId, Tables};
use rayon::prelude::*;
use std::time::Instant;
use tilekit_report::bots::{BotStudy, BotUse, Mechanic, Subject, SubjectKind, UseSums};
use tilekit_report::tally::win_shares;

/// The playouts of `mcts` without a number in a bot study: small, so that a study of 100
/// games of the base game takes minutes, not hours.
pub const STUDY_PLAYOUTS: u32 = 50;

/// A bot of `--bot-study`: `greedy`, `mcts` (`mcts:50` here) or `mcts:N`.
pub fn study_bot(text: &str) -> Result<Strategy, String> {
    match text.trim() {
        "mcts" => Ok(Strategy::Mcts {
            playouts: STUDY_PLAYOUTS,
        }),
        "random" => Err("--bot-study: `random` is no bot to study (greedy, mcts, mcts:N)".into()),
        other => other.parse(),
    }
}

/// What a subject is, in the tables.
#[derive(Clone, Copy, Debug)]
enum Key {
    /// A figure by `FigureId::index`.
    Figure(usize),
    /// A feature kind.
    Kind(FeatureKindId),
    /// A marker kind by index into `Tables::markers`.
    Marker(usize),
}

/// A subject the study follows.
struct Followed {
    kind: SubjectKind,
    id: String,
    key: Key,
}

/// The author's figures, kinds and markers (those of `own_sets`) that can do anything: every
/// figure, every kind a figure may stand on, every marker that pays.
fn followed(tables: &Tables, tileset: &tiledef::TileSet, own_sets: &[String]) -> Vec<Followed> {
    let own = |set: usize| own_sets.contains(&tables.sets[set]);
    let mut out: Vec<Followed> = (tables.followers.iter().enumerate())
        .filter(|(_, f)| own(usize::from(f.set)) || f.also.iter().any(|&s| own(usize::from(s))))
        .map(|(k, f)| Followed {
            kind: SubjectKind::Figure,
            id: f.id.clone(),
            key: Key::Figure(FigureId::set(k).index()),
        })
        .collect();
    let takeable = tables.takeable();
    for kind in tileset.feature_kinds.iter().filter(|k| {
        tileset
            .sets
            .get(k.set)
            .is_some_and(|s| own_sets.contains(&s.id))
    }) {
        if let Some(k) = tables.features.iter().position(|f| f.id == kind.id)
            && takeable >> k & 1 != 0
        {
            out.push(Followed {
                kind: SubjectKind::FeatureKind,
                id: kind.id.clone(),
                key: Key::Kind(FeatureKindId(k as u8)),
            });
        }
    }
    let mut markers: Vec<usize> = (tileset.tiles.iter())
        .filter(|t| {
            tileset
                .sets
                .get(t.set)
                .is_some_and(|s| own_sets.contains(&s.id))
        })
        .flat_map(|t| {
            (t.markers.iter().copied()).chain(t.features.iter().flat_map(|f| f.markers.clone()))
        })
        .collect();
    markers.sort_unstable();
    markers.dedup();
    for m in markers {
        let Some(id) = tileset.markers.get(m).map(|m| m.id.clone()) else {
            continue;
        };
        if let Some(i) = tables.markers.iter().position(|x| x.id == id)
            && (tables.marker_pays(i) || tables.markers[i].token.is_some())
        {
            out.push(Followed {
                kind: SubjectKind::Marker,
                id,
                key: Key::Marker(i),
            });
        }
    }
    out
}

/// One game's counts for one subject.
#[derive(Clone, Default)]
struct Use {
    uses: f64,
    points: f64,
    by_seat: Vec<bool>,
    could: u64,
    did: u64,
}

/// One game's counts: per subject, the win shares, and per move kind (`ActionGroup::ALL`
/// order) the turns it was legal in and the times chosen.
struct GameUse {
    subjects: Vec<Use>,
    wins: Vec<f64>,
    moves: [(u64, u64); ActionGroup::ALL.len()],
}

/// A move kind's name: `deploy`, `pass`, or the rule module's action as the registry names it.
fn group_name(group: ActionGroup) -> &'static str {
    match group {
        ActionGroup::Deploy => "deploy",
        ActionGroup::Module(action) => action.info().name,
        ActionGroup::Pass => "pass",
    }
}

/// A move kind as the words say it: its name, a creature's move by the creature's id (among
/// `sets`, the sets in the bag).
fn group_label(tables: &Tables, sets: &[String], group: ActionGroup) -> String {
    match group {
        ActionGroup::Module(action) => action.label(tables, sets),
        _ => group_name(group).to_string(),
    }
}

fn group_of(mv: Move) -> Option<usize> {
    let g = match mv {
        Move::Deploy { .. } => ActionGroup::Deploy,
        Move::Action { action, .. } => ActionGroup::Module(action),
        Move::Pass => ActionGroup::Pass,
        _ => return None,
    };
    ActionGroup::ALL.iter().position(|&a| a == g)
}

/// Plays game `i` of the run with `bot` in every seat, as `simulate` plays it, counting the
/// turns each followed figure could be deployed in and each move kind was legal in.
fn play(
    setup: &Setup<'_>,
    opts: &SimOptions,
    i: u64,
    bot: Strategy,
    followed: &[Followed],
) -> Result<GameUse, SimError> {
    let players = usize::from(opts.players);
    let mut rng = Rng::for_game(opts.seed, i);
    let mut events = Vec::new();
    let seed = rng.next_u64();
    let mut game = setup.game(seed, &mut events);
    let mut seats: Vec<Player> = (0..players).map(|_| Player::new(bot)).collect();
    let mut subjects = vec![
        Use {
            by_seat: vec![false; players],
            ..Use::default()
        };
        followed.len()
    ];
    let mut moves = [(0u64, 0u64); ActionGroup::ALL.len()];
    let mut buf = Vec::new();
    while game.phase() != Phase::Over {
        let seat = game.to_move() as usize % players;
        let Some(mv) = seats[seat].choose(&game, &mut rng) else {
            break;
        };
        if let Phase::Act(placed) = game.phase() {
            for (g, group) in ActionGroup::ALL.iter().enumerate() {
                moves[g].0 += u64::from(game.action_count(placed, *group) > 0);
            }
            if let Some(g) = group_of(mv) {
                moves[g].1 += 1;
            }
            buf.clear();
            game.legal_deploys(placed, &mut buf);
            for (f, u) in followed.iter().zip(subjects.iter_mut()) {
                let Key::Figure(index) = f.key else { continue };
                let is =
                    |m: &Move| matches!(m, Move::Deploy { figure, .. } if figure.index() == index);
                if buf.iter().any(is) {
                    u.could += 1;
                    u.did += u64::from(is(&mv));
                }
            }
        }
        game.apply(mv, &mut events).map_err(SimError::Refused)?;
    }
    for (f, u) in followed.iter().zip(subjects.iter_mut()) {
        count_uses(&game, &events, f.key, u);
    }
    Ok(GameUse {
        subjects,
        wins: win_shares(game.scores()),
        moves,
    })
}

/// A subject's uses, points and users in a finished game, read from its events and sums.
fn count_uses(game: &engine::Game<'_>, events: &[Event], key: Key, u: &mut Use) {
    let tables = game.tables();
    let stats = game.stats();
    let mut used = |p: u8| {
        if let Some(s) = u.by_seat.get_mut(usize::from(p)) {
            *s = true;
        }
    };
    match key {
        Key::Figure(index) => {
            for e in events {
                if let Event::Deployed { player, figure, .. } = e
                    && figure.index() == index
                {
                    u.uses += 1.0;
                    used(*player);
                }
            }
            let k = index.saturating_sub(1);
            u.points = stats.figure_points.get(k).copied().unwrap_or(0) as f64;
        }
        Key::Kind(kind) => {
            for e in events {
                match e {
                    Event::Deployed {
                        player, kind: k, ..
                    } if *k == kind => {
                        u.uses += 1.0;
                        used(*player);
                    }
                    Event::Scored(s) if s.kind == Scored::Feature(kind) && s.points > 0 => {
                        s.players.iter().for_each(|&p| used(p));
                    }
                    _ => {}
                }
            }
            let k = kind.index();
            let base = stats.points_by_kind.get(k).copied().unwrap_or(0) as i64;
            u.points = (base - stats.modifier_points.get(k).copied().unwrap_or(0)) as f64;
        }
        Key::Marker(m) => {
            let id = &tables.markers[m].id;
            for e in events {
                match e {
                    Event::Scored(s)
                        if s.modifiers.iter().any(|x| &x.marker == id && x.points != 0) =>
                    {
                        u.uses += 1.0;
                        s.players.iter().for_each(|&p| used(p));
                    }
                    Event::Module(ModuleEvent::TokenMajority {
                        marker, players, ..
                    }) if marker == id => {
                        u.uses += 1.0;
                        players.iter().for_each(|&p| used(p));
                    }
                    _ => {}
                }
            }
            let modifier = stats.marker_points.get(m).copied().unwrap_or(0);
            let tokens = stats.good_points.get(m).copied().unwrap_or(0) as i64;
            u.points = (modifier + tokens) as f64;
        }
    }
}

/// The study: each bot's games (in parallel, summed in game order so the figures do not
/// depend on the thread count), and the seconds each bot took.
pub fn study(
    tables: &Tables,
    tileset: &tiledef::TileSet,
    opts: &SimOptions,
    bots: &[Strategy],
    games: u64,
    own_sets: &[String],
) -> miette::Result<(BotStudy, Vec<f64>)> {
    let followed = followed(tables, tileset, own_sets);
    let setup = Setup::new(tables, opts.game_options()).map_err(|e| miette::miette!("{e}"))?;
    let mut sums = vec![vec![UseSums::default(); followed.len()]; bots.len()];
    let mut moves = vec![[(0u64, 0u64); ActionGroup::ALL.len()]; bots.len()];
    let mut seconds = Vec::new();
    for (b, &bot) in bots.iter().enumerate() {
        let start = Instant::now();
        let played: Vec<GameUse> = (0..games)
            .into_par_iter()
            .map(|i| play(&setup, opts, i, bot, &followed))
            .collect::<Result<_, _>>()
            .map_err(|e| miette::miette!("{e}"))?;
        seconds.push(start.elapsed().as_secs_f64());
        for g in &played {
            for (s, u) in sums[b].iter_mut().zip(&g.subjects) {
                s.uses.add(u.uses);
                s.points.add(u.points);
                s.could += u.could;
                s.did += u.did;
                for (&on, &win) in u.by_seat.iter().zip(&g.wins) {
                    if on { &mut s.with } else { &mut s.without }.add(win);
                }
            }
            for (a, m) in moves[b].iter_mut().zip(&g.moves) {
                a.0 += m.0;
                a.1 += m.1;
            }
        }
    }
    let names: Vec<String> = bots.iter().map(ToString::to_string).collect();
    let subjects = (followed.iter().enumerate())
        .map(|(i, f)| Subject {
            kind: f.kind,
            id: f.id.clone(),
            bots: (names.iter().zip(&sums))
                .map(|(name, s)| BotUse::new(name, &s[i], matches!(f.key, Key::Figure(_))))
                .collect(),
        })
        .collect();
    let g = games.max(1) as f64;
    let mechanics = (ActionGroup::ALL.iter().enumerate())
        .filter(|(m, _)| moves.iter().any(|b| b[*m].0 > 0))
        .map(|(m, &group)| Mechanic {
            name: group_name(group).to_string(),
            label: group_label(tables, &setup.rules().sets, group),
            legal_per_game: moves.iter().map(|b| b[m].0 as f64 / g).collect(),
            chosen_per_game: moves.iter().map(|b| b[m].1 as f64 / g).collect(),
        })
        .collect();
    Ok((BotStudy::new(games, names, subjects, mechanics), seconds))
}

/// With `--bot-study`, runs the study and puts it in the report; the seconds each bot took.
pub fn attach(
    args: &super::SimulateArgs,
    (tables, tileset): (&Tables, &tiledef::TileSet),
    opts: &SimOptions,
    own_sets: &[String],
    report: &mut Option<tilekit_report::Report>,
) -> miette::Result<Vec<f64>> {
    let Some(report) = report else {
        return Ok(Vec::new());
    };
    if args.bot_study.is_empty() {
        return Ok(Vec::new());
    }
    let (study, seconds) = study(
        tables,
        tileset,
        opts,
        &args.bot_study,
        args.bot_games,
        own_sets,
    )?;
    report.bot_study = Some(study);
    Ok(seconds)
}
