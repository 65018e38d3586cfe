//! Games played on the page. A game is its record (options and turns, `engine/RECORDS.md`)
//! and the tables it is played with; every question replays the record through the engine, so
//! the engine alone decides what is legal and what scores, and saving a game is writing its
//! record. Random players choose uniformly among the engine's legal moves.

use engine::record::{FeatureRef, GameSpec, Record, Turn, figure_ref, replay};
use engine::rng::Rng;
use engine::{Event, FigureKind, Move, Phase, Tables};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// The most games kept at once (the oldest is dropped), so a page left reloading cannot fill
/// the memory.
const MAX_GAMES: usize = 64;

/// One game on the page.
pub struct PageGame {
    tables: Arc<Tables>,
    record: Record,
    /// Which players the server plays (randomly).
    bots: Vec<bool>,
    /// The placement made this turn, waiting for its second step.
    pending: Option<(u16, Move)>,
    rng: Rng,
}

/// The games, by id.
#[derive(Default)]
pub struct Games {
    games: HashMap<u64, PageGame>,
    next: u64,
}

/// Why a game request was refused.
pub type GameError = String;

impl Games {
    /// Starts a game; returns its id.
    pub fn start(
        &mut self,
        tables: Arc<Tables>,
        players: u8,
        bots: u8,
        seed: u64,
    ) -> Result<u64, GameError> {
        if !(1..=8).contains(&players) || bots > players {
            return Err(format!(
                "{players} players with {bots} random: a game has 1 to 8 players"
            ));
        }
        let spec = GameSpec {
            sets: Vec::new(),
            edition: None,
            players,
            rules: Default::default(),
            seed: Some(seed),
            draw: None,
            tiles: None,
            start: None,
        };
        let record = Record {
            game: spec,
            turns: Vec::new(),
            expect: None,
        };
        replay(&tables, &record).map_err(|e| e.to_string())?;
        let bots = (0..players).map(|p| p >= players - bots).collect();
        let mut game = PageGame {
            tables,
            record,
            bots,
            pending: None,
            rng: Rng::new(seed ^ 0x5eed),
        };
        game.play_bots()?;
        if self.games.len() >= MAX_GAMES
            && let Some(&oldest) = self.games.keys().min()
        {
            self.games.remove(&oldest);
        }
        self.next += 1;
        self.games.insert(self.next, game);
        Ok(self.next)
    }

    /// A game by id.
    pub fn get(&mut self, id: u64) -> Option<&mut PageGame> {
        self.games.get_mut(&id)
    }
}

impl PageGame {
    /// The game's record as TOML (replayable with `tilekit play`).
    pub fn record_toml(&self) -> String {
        self.record.to_toml()
    }

    fn state(&self) -> Result<(engine::Game<'_>, Vec<Vec<Event>>), GameError> {
        state(&self.tables, &self.record, self.pending)
    }

    /// Makes the `index`-th of the engine's legal moves of this phase.
    pub fn play(&mut self, index: usize) -> Result<(), GameError> {
        let (game, _) = self.state()?;
        if self.bots[game.current() as usize] {
            return Err("it is a random player's turn".into());
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mv = *moves
            .get(index)
            .ok_or_else(|| format!("no legal move {index} (there are {})", moves.len()))?;
        let phase = game.phase();
        drop(game);
        self.make(phase, mv)?;
        self.play_bots()
    }

    fn make(&mut self, phase: Phase, mv: Move) -> Result<(), GameError> {
        match phase {
            Phase::Place(kind) => {
                self.pending = Some((kind, mv));
                Ok(())
            }
            Phase::Act(_) => {
                let Some((kind, Move::Place { x, y, rotation })) = self.pending.take() else {
                    return Err("no placement waits for its second step".into());
                };
                let tables = self.tables.clone();
                let (game, _) = state(
                    &tables,
                    &self.record,
                    Some((kind, Move::Place { x, y, rotation })),
                )?;
                let return_figure = match mv {
                    Move::Return { figure } => figure_ref(&game, figure),
                    _ => None,
                };
                let feature = |m: Move| match m {
                    Move::Deploy { feature, .. } | Move::Windmill { feature } => {
                        Some(FeatureRef::Index(feature))
                    }
                    _ => None,
                };
                // Follower 0 is the base follower; `k + 1` the set's follower kind `k`.
                let figure = match mv {
                    Move::Deploy { follower, .. } if follower > 0 => self
                        .tables
                        .followers
                        .get(usize::from(follower) - 1)
                        .map(|f| f.id.clone()),
                    _ => None,
                };
                let turn = Turn {
                    tile: Some(self.tables.kinds[kind as usize].id.clone()),
                    at: [x, y],
                    rotation,
                    deploy: feature(mv).filter(|_| matches!(mv, Move::Deploy { .. })),
                    windmill: feature(mv).filter(|_| matches!(mv, Move::Windmill { .. })),
                    return_figure,
                    donkey: match mv {
                        Move::Donkey { x, y } => Some([x, y]),
                        _ => None,
                    },
                    figure,
                };
                drop(game);
                self.record.turns.push(turn);
                // The engine is the judge: a turn it refuses is taken back.
                if let Err(e) = replay(&self.tables, &self.record) {
                    self.record.turns.pop();
                    return Err(e.to_string());
                }
                Ok(())
            }
            Phase::Over => Err("the game is over".into()),
        }
    }

    /// Lets the random players move until it is a person's turn or the game is over.
    fn play_bots(&mut self) -> Result<(), GameError> {
        let mut moves = Vec::new();
        loop {
            let (game, _) = self.state()?;
            let phase = game.phase();
            if phase == Phase::Over || !self.bots[game.current() as usize] {
                return Ok(());
            }
            game.legal_moves(&mut moves);
            drop(game);
            if moves.is_empty() {
                return Ok(());
            }
            let mv = moves[self.rng.below(moves.len())];
            self.make(phase, mv)?;
        }
    }

    /// The game as the page draws it: the board, the figures, the drawn tile and its legal
    /// placements, or the choices of the second step; scores; the events in words.
    pub fn view(&self) -> Result<Value, GameError> {
        let (game, turns) = self.state()?;
        let tables = self.tables.as_ref();
        let tile_id = |k: u16| tables.kinds[k as usize].id.clone();
        let board: Vec<Value> = game
            .board
            .placed
            .iter()
            .map(|p| {
                let o = &tables.orients[p.orient as usize];
                json!({ "x": p.x, "y": p.y, "tile": tile_id(o.kind), "rotation": o.rotation })
            })
            .collect();
        let figures: Vec<Value> = game
            .figures
            .iter()
            .map(|f| {
                let p = game.board.placed[f.tile as usize];
                let o = &tables.orients[p.orient as usize];
                let feature = (f.node - p.base) as u8;
                let (fx, fy) = feature_point(o, feature);
                json!({
                    "x": p.x, "y": p.y, "fx": fx, "fy": fy, "player": f.owner,
                    "kind": match f.kind { FigureKind::Follower => "follower", FigureKind::Windmill => "windmill" },
                })
            })
            .collect();
        let donkey = game.donkey.map(|d| {
            let p = game.board.placed[d as usize];
            json!([p.x, p.y])
        });
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let phase = match game.phase() {
            Phase::Place(kind) => json!({
                "place": tile_id(kind),
                "placements": moves.iter().enumerate().filter_map(|(i, m)| match m {
                    Move::Place { x, y, rotation } => Some(json!({ "index": i, "x": x, "y": y, "rotation": rotation })),
                    _ => None,
                }).collect::<Vec<_>>(),
            }),
            Phase::Act(placed) => {
                let o = game.orient(placed);
                let p = game.board.placed[placed as usize];
                json!({
                    "act": tile_id(o.kind), "at": [p.x, p.y],
                    "choices": moves.iter().enumerate().map(|(i, m)| {
                        let (label, point) = match *m {
                            Move::Deploy { feature, follower } => {
                                let who = match usize::from(follower).checked_sub(1).and_then(|k| game.tables().followers.get(k)) {
                                    Some(kind) => kind.name.to_lowercase(),
                                    None => "follower".to_string(),
                                };
                                (format!("{who} on the {}", engine::game::describe_feature(o, feature)), Some(feature_point(o, feature)))
                            }
                            Move::Windmill { feature } => (format!("windmill on the {}", engine::game::describe_feature(o, feature)), Some(feature_point(o, feature))),
                            Move::Return { figure } => {
                                let f = game.figures[figure as usize];
                                let t = game.board.placed[f.tile as usize];
                                (format!("return your {} at ({}, {}) (Festival)", match f.kind { FigureKind::Follower => "follower", FigureKind::Windmill => "windmill" }, t.x, t.y), None)
                            }
                            Move::Donkey { x, y } => (format!("move the donkey to ({x}, {y})"), None),
                            Move::Pass => ("pass (no figure)".to_string(), None),
                            Move::Place { .. } => ("place".to_string(), None),
                        };
                        json!({ "index": i, "label": label, "point": point })
                    }).collect::<Vec<_>>(),
                })
            }
            Phase::Over => json!({ "over": true }),
        };
        let log: Vec<Vec<String>> = turns
            .iter()
            .map(|t| {
                t.iter()
                    .filter_map(|e| crate::commands::play::event_text(tables, e))
                    .map(|l| l.trim().to_string())
                    .collect()
            })
            .collect();
        Ok(json!({
            "players": game.scores.len(),
            "bots": self.bots,
            "current": game.current(),
            "scores": game.scores,
            "supply": game.supply,
            "tiles_left": game.tiles_left(),
            "board": board,
            "figures": figures,
            "donkey": donkey,
            "phase": phase,
            "log": log,
            "rules": game.rules().to_string(),
        }))
    }
}

/// Replays a record, then a pending placement; returns the game and each turn's events (the
/// set-up's with the first turn's).
fn state<'t>(
    tables: &'t Tables,
    record: &Record,
    pending: Option<(u16, Move)>,
) -> Result<(engine::Game<'t>, Vec<Vec<Event>>), GameError> {
    let r = replay(tables, record).map_err(|e| e.to_string())?;
    let mut game = r.game;
    let mut turns = r.turns;
    if let Some((_, mv)) = pending {
        let mut events = Vec::new();
        game.apply(mv, &mut events).map_err(|e| e.to_string())?;
        turns.push(events);
    }
    if let Some(first) = turns.first_mut() {
        let mut setup = r.setup;
        setup.append(first);
        *first = setup;
    } else if !r.setup.is_empty() {
        turns.push(r.setup);
    }
    Ok((game, turns))
}

/// Where to draw a figure on its tile, in tile units ((0, 0) north-west): a little inside the
/// feature's first port, or the centre for a feature without ports.
fn feature_point(o: &engine::tables::Orient, feature: u8) -> (f32, f32) {
    let port = tiledef::Port::ALL
        .into_iter()
        .find(|p| o.ports[p.index()] == feature);
    match port {
        Some(p) => {
            let at = tilekit_render::geom::port_point(p);
            (0.5 + (at.x - 0.5) * 0.7, 0.5 + (at.y - 0.5) * 0.7)
        }
        None => (0.5, 0.5),
    }
}
