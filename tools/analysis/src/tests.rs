use super::*;

const BASE: &str = include_str!("../../../definitions/base.toml");

fn host_with_base() -> AnalysisHost {
    let mut host = AnalysisHost::new();
    assert!(host.apply_change("definitions/base.toml", Some(BASE.to_string())));
    host
}

#[test]
fn a_valid_file_gives_a_fresh_tile_set_and_tables() {
    let mut host = host_with_base();
    let a = host.analysis();
    assert!(
        a.diagnostics.iter().all(|d| !is_error(d)),
        "{:?}",
        a.diagnostics
    );
    let good = a.good.as_ref().expect("base is valid");
    assert!(!a.stale);
    assert_eq!(good.tileset.tiles.len(), good.tile_keys.len());
    let tables = host.tables().expect("base compiles");
    assert_eq!(tables.kinds.len(), good.tileset.tiles.len());
}

/// A game record saved into the served folder (the page's "save the record") is left out
/// with a note, and the tile set stays good and fresh.
#[test]
fn a_game_record_beside_the_definitions_is_left_out_with_a_note() {
    let mut host = host_with_base();
    let record = "[game]\nplayers = 2\nseed = 3\n\n[[turn]]\ntile = \"D\"\nat = [0, -1]\n";
    assert!(host.apply_change("definitions/game-1.toml", Some(record.to_string())));
    let a = host.analysis();
    assert!(!a.stale);
    assert!(a.good.is_some());
    let note = (a.diagnostics.iter())
        .find(|d| d.code == "tilekit::game-record")
        .expect("a note on the record");
    assert!(!is_error(note));
    assert!(
        note.message.contains("game-1.toml` is a game record"),
        "{}",
        note.message
    );
}

#[test]
fn the_same_text_again_is_no_change() {
    let mut host = host_with_base();
    let before = host.revision();
    assert!(!host.apply_change("definitions/base.toml", Some(BASE.to_string())));
    assert_eq!(host.revision(), before);
    assert!(!host.apply_change("nowhere.toml", None));
}

#[test]
fn a_broken_file_keeps_the_last_good_set_marked_stale() {
    let mut host = host_with_base();
    let good = host.analysis().good.clone().unwrap();
    let broken = BASE.replacen("pennants = 1", "penants = 1", 1);
    assert!(host.apply_change("definitions/base.toml", Some(broken)));
    let a = host.analysis();
    assert!(a.stale);
    assert!(Arc::ptr_eq(a.good.as_ref().unwrap(), &good));
    let d = a
        .diagnostics
        .iter()
        .find(|d| is_error(d))
        .expect("an error");
    let at = host.locate(d);
    assert_eq!(at.file, "definitions/base.toml");
    let line = BASE.lines().nth(at.start.0 - 1).unwrap();
    assert!(line.contains("pennants"), "{line}");
    assert!(at.tile.is_some(), "linked to its tile");
    // Pictures still come, from the last good set.
    assert!(host.tile_png("D", 64, false).is_ok());
    // Fixed again: fresh.
    host.apply_change("definitions/base.toml", Some(BASE.to_string()));
    assert!(!host.analysis().stale);
}

#[test]
fn a_deleted_file_is_gone_from_the_analysis() {
    let mut host = host_with_base();
    host.apply_change("definitions/base.toml", None);
    assert!(host.file_names().is_empty());
    assert!(
        host.analysis()
            .diagnostics
            .iter()
            .all(|d| d.file() != "definitions/base.toml")
    );
}

#[test]
fn pictures_are_redrawn_only_for_tiles_that_changed() {
    let mut host = host_with_base();
    let all = host.render_missing(32, false).unwrap();
    assert_eq!(
        all,
        host.analysis().good.as_ref().unwrap().tileset.tiles.len()
    );
    assert_eq!(host.render_missing(32, false).unwrap(), 0);
    // One tile's count changes: its key (count is content) changes, the others' do not.
    let at = BASE.find("id = \"D\"").unwrap();
    let count = at + BASE[at..].find("count").unwrap();
    let line_end = count + BASE[count..].find('\n').unwrap();
    let mut edited = BASE.to_string();
    edited.replace_range(count..line_end, "count = 9");
    host.apply_change("definitions/base.toml", Some(edited));
    assert!(!host.analysis().stale, "{:?}", host.analysis().diagnostics);
    assert_eq!(host.render_missing(32, false).unwrap(), 1);
}

#[test]
fn unknown_tiles_and_pages_are_errors_not_panics() {
    let mut host = host_with_base();
    assert_eq!(
        host.tile_png("nope", 64, false),
        Err(AnalysisError::UnknownTile("nope".into()))
    );
    let (_, layout, _) = host.sheet(None).unwrap();
    let pages = layout.pages.len();
    assert!(pages > 0);
    assert!(matches!(
        host.sheet_page_png(None, pages, 36),
        Err(AnalysisError::UnknownPage(..))
    ));
    let png = host.sheet_page_png(None, 0, 36).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    // One set's sheet: its own pages; an unknown set is an error naming it.
    let (_, base, _) = host.sheet(Some("base")).unwrap();
    assert_eq!(base.pages.len(), pages, "base is the only set");
    assert_eq!(host.sheet_page_png(Some("base"), 0, 36).unwrap(), png);
    assert_eq!(
        host.sheet(Some("lakes")).err(),
        Some(AnalysisError::UnknownSet("lakes".into()))
    );
    assert!(AnalysisHost::new().tile_png("D", 64, false) == Err(AnalysisError::NoTileSet));
}

#[test]
fn symbols_come_from_every_parsed_file() {
    let mut host = AnalysisHost::new();
    for s in tiledef::bundled() {
        host.apply_change(&s.name, Some(s.text));
    }
    let s = host.symbols();
    assert!(s.ports.contains(&"NNW"));
    assert!(s.edge_kinds.iter().any(|k| k == "city"));
    assert!(s.sets.iter().any(|k| k == "village-life"));
    assert!(s.markers.iter().any(|k| k == "festival"));
    assert!(!s.colours.is_empty());
    assert!(s.tiles.iter().any(|t| t == "D"));
}

#[test]
fn key_docs_come_from_the_schema() {
    let doc = key_doc(&["tile"]).unwrap();
    assert!(doc.contains("tiles of this set"), "{doc}");
    assert!(key_doc(&["tile", "cities", "pennants"]).is_some());
    assert!(key_doc(&["tile", "roads", "end"]).is_some());
    assert!(key_doc(&["set", "requires"]).is_some());
    assert_eq!(key_doc(&["set", "no-such-key"]), None);
    // Any other key of a tile is a set's own kind.
    let own = key_doc(&["tile", "lakes"]).unwrap_or_default();
    assert!(own.contains("feature kind's key"), "{own}");
}

#[test]
fn picture_sizes_are_few() {
    assert_eq!(picture_px(0), 32);
    assert_eq!(picture_px(33), 64);
    assert_eq!(picture_px(192), 192);
    assert_eq!(picture_px(u32::MAX), MAX_PICTURE_PX);
}

#[test]
fn the_schema_names_the_keys_of_a_road_and_the_ends_it_may_have() {
    let keys: Vec<String> = keys_of(&["tile", "roads"])
        .into_iter()
        .map(|k| k.name)
        .collect();
    assert_eq!(keys, ["end", "markers", "ports"]);
    let top = keys_of(&[]);
    let shape = |name: &str| top.iter().find(|k| k.name == name).map(|k| k.shape);
    assert_eq!(shape("tile"), Some(KeyShape::Tables));
    assert_eq!(shape("set"), Some(KeyShape::Table));
    assert_eq!(shape("format"), Some(KeyShape::Value));
    let ends = values_of(&["tile", "roads", "end"]);
    let junction = ends
        .iter()
        .find(|(v, _)| v == "junction")
        .expect("junction");
    assert!(junction.1.as_deref().unwrap_or("").contains("junction"));
    assert!(ends.iter().any(|(v, _)| v == "W"));
    let ports: Vec<String> = values_of(&["tile", "cities", "ports"])
        .into_iter()
        .map(|(v, _)| v)
        .collect();
    assert_eq!(ports.len(), 12);
    assert_eq!(ports[0], "NNW");
    assert_eq!(values_of(&["tile", "start"]).len(), 2);
    let meetings: Vec<String> = values_of(&["edge_kind", "meets", "road"])
        .into_iter()
        .map(|(v, _)| v)
        .collect();
    assert!(meetings.contains(&"connect".to_string()), "{meetings:?}");
    assert!(keys_of(&["set", "nowhere"]).is_empty());
    // Any other key of a tile is a set's own kind (`lakes`): its features take the fixed keys.
    let own: Vec<String> = keys_of(&["tile", "lakes"])
        .into_iter()
        .map(|k| k.name)
        .collect();
    assert_eq!(own, ["end", "flowers", "inner", "markers", "ports"]);
}

#[test]
fn the_bundled_sets_a_file_requires_follow_its_requires() {
    let mut host = AnalysisHost::new();
    let mine = "format = 1\n[set]\nid = \"mine\"\nname = \"Mine\"\nrequires = [\"festival\"]\n";
    host.apply_change("mine.toml", Some(mine.to_string()));
    assert!(host.sync_bundled());
    // Festival requires the base game: both come, named as bundled, before the file.
    let names = host.file_names();
    assert_eq!(
        names,
        [
            "definitions/base.toml (bundled)",
            "definitions/festival.toml (bundled)",
            "mine.toml"
        ]
    );
    assert!(!host.sync_bundled(), "already in step");
    // The author's own base game wins over the bundled one.
    host.apply_change("base.toml", Some(BASE.to_string()));
    assert!(host.sync_bundled());
    assert!(host.text("definitions/base.toml (bundled)").is_none());
    host.apply_change("mine.toml", Some(mine.replace("\"festival\"", "")));
    assert!(host.sync_bundled());
    assert_eq!(host.file_names(), ["mine.toml", "base.toml"]);
}

mod games {
    use super::*;
    use crate::game::{GameChoice, GameError, Seat, Session};
    use engine::players::Strategy;

    fn person_against_greedy(host: &mut AnalysisHost) -> Session {
        host.start_game(
            vec![Seat::Person, Seat::Bot(Strategy::Greedy)],
            7,
            GameChoice::default(),
        )
        .expect("a game on the base tables")
    }

    #[test]
    fn a_person_and_a_bot_play_a_whole_game_the_engine_replays() {
        let mut host = host_with_base();
        let mut game = person_against_greedy(&mut host);
        let mut turns = 0;
        loop {
            match game.bot_to_move().unwrap() {
                Some(seat) => {
                    assert_eq!(seat, 1);
                    // A person may not move in the bot's seat.
                    assert!(matches!(
                        game.play(0),
                        Err(GameError::NotYourTurn { seat: 2, .. })
                    ));
                    game.bot_turn().unwrap();
                }
                None => {
                    let view = game.view().unwrap();
                    if let crate::game::PhaseView::Over { .. } = view.phase {
                        break;
                    }
                    assert_eq!(view.current, 0);
                    // The bot does not move in a person's seat.
                    assert!(matches!(
                        game.bot_turn(),
                        Err(GameError::NotYourTurn { seat: 1, .. })
                    ));
                    // The last legal move, then the second step's first.
                    let count = match &view.phase {
                        crate::game::PhaseView::Place { placements, .. } => placements.len(),
                        other => panic!("a person's turn starts with a placement: {other:?}"),
                    };
                    assert!(matches!(
                        game.play(count),
                        Err(GameError::NoMove { index, count: c }) if index == count && c == count
                    ));
                    game.play(count - 1).unwrap();
                    game.play(0).unwrap();
                    turns += 1;
                }
            }
            assert!(turns < 200, "the game ends");
        }
        assert!(turns > 10);
        let view = game.view().unwrap();
        assert!(
            view.log
                .iter()
                .flatten()
                .any(|l| l.starts_with("P2 places"))
        );
        // The record is the game: replayed alone, it gives the same scores.
        let tables = game.tables().clone();
        let replayed = engine::replay(&tables, game.record()).expect("the record replays");
        assert_eq!(replayed.game.scores(), view.scores);
        assert_eq!(game.play(0), Err(GameError::Over));
    }

    /// The page offers a set's figures by name: the base game's abbot on a monastery or a
    /// garden, and, while it is out, taking it back.
    #[test]
    fn the_abbot_is_offered_and_taken_back() {
        let mut host = host_with_base();
        let mut game = person_against_greedy(&mut host);
        let (mut deployed, mut recalled) = (false, false);
        for _ in 0..200 {
            if game.bot_to_move().unwrap().is_some() {
                game.bot_turn().unwrap();
                continue;
            }
            let view = game.view().unwrap();
            match &view.phase {
                crate::game::PhaseView::Over { .. } => break,
                crate::game::PhaseView::Place { .. } | crate::game::PhaseView::Choose { .. } => {
                    game.play(0).unwrap();
                }
                crate::game::PhaseView::Act { choices, .. } => {
                    let pick = |prefix: &str| choices.iter().find(|c| c.label.starts_with(prefix));
                    let choice = if let Some(c) = pick("take back your abbot") {
                        recalled = true;
                        c
                    } else if let Some(c) = pick("abbot on the") {
                        assert!(c.point.is_some(), "the abbot stands somewhere: {c:?}");
                        deployed = true;
                        c
                    } else {
                        choices.last().expect("a pass at least")
                    };
                    game.play(choice.index).unwrap();
                }
            }
        }
        assert!(
            deployed && recalled,
            "deployed {deployed}, recalled {recalled}"
        );
    }

    /// The page offers the wagon's move on by the registry's words, in a choice after the turn
    /// that the engine replays: two people put their wagons down whenever they can.
    #[test]
    fn the_wagon_is_offered_after_its_feature_is_completed() {
        let mut host = host_with_base();
        let abbey = include_str!("../../../definitions/abbey-and-mayor.toml");
        assert!(host.apply_change("definitions/abbey-and-mayor.toml", Some(abbey.to_string())));
        let mut offered = false;
        for seed in 0..8 {
            let mut game = host
                .start_game(
                    vec![Seat::Person, Seat::Person],
                    seed,
                    GameChoice::default(),
                )
                .expect("a game of base and Abbey & Mayor");
            for _ in 0..400 {
                let view = game.view().unwrap();
                match &view.phase {
                    crate::game::PhaseView::Over { .. } => break,
                    crate::game::PhaseView::Place { .. } => game.play(0).unwrap(),
                    crate::game::PhaseView::Act { choices, .. } => {
                        let wagon = choices.iter().find(|c| c.label.starts_with("wagon on"));
                        let pass = choices.last().expect("a pass at least");
                        game.play(wagon.unwrap_or(pass).index).unwrap();
                    }
                    crate::game::PhaseView::Choose { choose, choices } => {
                        assert_eq!(choose, "wagon");
                        let (last, moves) = choices.split_last().expect("moves and the pass");
                        assert_eq!(last.label, "decline");
                        assert!(!moves.is_empty(), "asked with nowhere to go");
                        for c in moves {
                            assert!(c.label.starts_with("move your wagon on to the "), "{c:?}");
                        }
                        offered = true;
                        game.play(moves[0].index).unwrap();
                    }
                }
            }
            if offered {
                break;
            }
        }
        assert!(offered, "no wagon was offered a move in 8 games");
    }

    /// The page offers each figure the portal may send by its name (the mayor of Abbey &
    /// Mayor beside the base follower), tells of it so, and the record it writes replays.
    #[test]
    fn the_portal_offers_a_set_figure_by_name() {
        let mut host = host_with_base();
        for (name, text) in [
            (
                "definitions/abbey-and-mayor.toml",
                include_str!("../../../definitions/abbey-and-mayor.toml"),
            ),
            (
                "definitions/princess-and-dragon.toml",
                include_str!("../../../definitions/princess-and-dragon.toml"),
            ),
        ] {
            assert!(host.apply_change(name, Some(text.to_string())));
        }
        let mayor = "deploy a mayor through the portal on the ";
        for seed in 0..8 {
            let mut game = host
                .start_game(
                    vec![Seat::Person, Seat::Person],
                    seed,
                    GameChoice::default(),
                )
                .expect("a game of base, Abbey & Mayor and Princess & Dragon");
            let mut sent = false;
            for _ in 0..400 {
                let view = game.view().unwrap();
                match &view.phase {
                    crate::game::PhaseView::Over { .. } => break,
                    crate::game::PhaseView::Place { .. } => game.play(0).unwrap(),
                    crate::game::PhaseView::Act { choices, .. } => {
                        let through = choices.iter().find(|c| c.label.starts_with(mayor));
                        let pass = choices.last().expect("a pass at least");
                        game.play(through.unwrap_or(pass).index).unwrap();
                        if through.is_some() {
                            sent = true;
                            break;
                        }
                    }
                    crate::game::PhaseView::Choose { choices, .. } => {
                        let last = choices.last().expect("a choice at least");
                        game.play(last.index).unwrap();
                    }
                }
            }
            if !sent {
                continue;
            }
            let log = game.view().unwrap().log;
            let told = log.iter().flatten().filter(|l| {
                l.starts_with("P") && l.contains(" deploys a mayor through the portal on the ")
            });
            assert_eq!(told.count(), 1, "{log:?}");
            let named = |t: &&engine::record::Turn| {
                matches!(t.action("portal"), Some(engine::record::Entry::Table(s))
                    if s.figure.as_deref() == Some("mayor"))
            };
            assert!(game.record().turns.iter().any(|t| named(&t)));
            let tables = game.tables().clone();
            engine::replay(&tables, game.record()).expect("the record replays");
            return;
        }
        panic!("no portal offered a mayor in 8 games");
    }

    /// The page offers the abbey (a reserve tile) beside the drawn tile's placements, by the
    /// registry's words, and the game it makes is a record the engine replays.
    #[test]
    fn the_abbey_is_offered_instead_of_the_drawn_tile() {
        let mut host = host_with_base();
        let am = include_str!("../../../definitions/abbey-and-mayor.toml");
        assert!(host.apply_change("definitions/abbey-and-mayor.toml", Some(am.to_string())));
        let mut game = person_against_greedy(&mut host);
        let mut placed = false;
        for _ in 0..300 {
            if game.bot_to_move().unwrap().is_some() {
                game.bot_turn().unwrap();
                continue;
            }
            let view = game.view().unwrap();
            match &view.phase {
                crate::game::PhaseView::Over { .. } => break,
                crate::game::PhaseView::Place {
                    placements,
                    choices,
                    ..
                } => {
                    let abbey = choices
                        .iter()
                        .find(|c| c.label.starts_with("place your reserve tile at ("));
                    match (abbey, placements.first(), choices.first()) {
                        (Some(c), _, _) => {
                            placed = true;
                            game.play(c.index).unwrap();
                        }
                        (None, Some(p), _) => game.play(p.index).unwrap(),
                        (None, None, Some(c)) => game.play(c.index).unwrap(),
                        (None, None, None) => panic!("nothing to do: {view:?}"),
                    }
                }
                crate::game::PhaseView::Act { choices, .. }
                | crate::game::PhaseView::Choose { choices, .. } => {
                    let last = choices.last().expect("a pass at least");
                    game.play(last.index).unwrap();
                }
            }
        }
        assert!(placed, "the person was never offered the abbey");
        assert!(
            game.record()
                .turns
                .iter()
                .any(|t| t.action("reserve").is_some())
        );
        let tables = game.tables().clone();
        let replayed = engine::replay(&tables, game.record()).expect("the record replays");
        assert_eq!(replayed.game.scores(), game.view().unwrap().scores);
    }

    #[test]
    fn a_game_keeps_the_tables_it_started_with() {
        let mut host = host_with_base();
        let mut game = person_against_greedy(&mut host);
        game.play(0).unwrap();
        game.play(0).unwrap();
        let before = game.view().unwrap();
        // The files change: one tile less. New games get the new tables; this one plays on.
        let start = BASE.find("[[tile]]").unwrap();
        let next = start + 1 + BASE[start + 1..].find("[[tile]]").unwrap();
        let fewer = format!("{}{}", &BASE[..start], &BASE[next..]);
        assert!(host.apply_change("definitions/base.toml", Some(fewer)));
        let tables = host.tables().unwrap();
        assert_eq!(tables.kinds.len() + 1, game.tables().kinds.len());
        assert_eq!(game.view().unwrap().board.len(), before.board.len());
        game.bot_turn().unwrap();
        assert!(game.view().unwrap().board.len() > before.board.len());
    }

    #[test]
    fn seats_are_people_or_the_engines_players() {
        assert_eq!("person".parse::<Seat>(), Ok(Seat::Person));
        assert_eq!(
            "mcts:20".parse::<Seat>(),
            Ok(Seat::Bot(Strategy::Mcts { playouts: 20 }))
        );
        assert!("robot".parse::<Seat>().unwrap_err().contains("person"));
        let mut host = host_with_base();
        assert!(matches!(
            host.start_game(Vec::new(), 1, GameChoice::default()),
            Err(AnalysisError::Game(GameError::Seats(0)))
        ));
        assert!(matches!(
            host.start_game(vec![Seat::Person; 9], 1, GameChoice::default()),
            Err(AnalysisError::Game(GameError::Seats(9)))
        ));
        assert!(matches!(
            AnalysisHost::new().start_game(vec![Seat::Person], 1, GameChoice::default()),
            Err(AnalysisError::NoTileSet)
        ));
    }

    /// The rules panel's choices reach the game: its sets, start tile and options, and a
    /// choice the tables do not know is refused with the engine's words.
    #[test]
    fn a_game_plays_the_sets_start_and_options_chosen() {
        let mut host = host_with_base();
        let choice = GameChoice {
            sets: vec!["base".into()],
            start: Some("D".into()),
            options: vec!["first-edition-small-city".into()],
        };
        let game = host.start_game(vec![Seat::Person], 1, choice).unwrap();
        let view = game.view().unwrap();
        assert!(view.rules.starts_with("sets base;"), "{}", view.rules);
        assert!(
            view.rules.contains("first-edition small city on"),
            "{}",
            view.rules
        );
        assert_eq!(game.record().game.start.as_deref(), Some("D"));
        for (choice, why) in [
            (
                GameChoice {
                    options: vec!["charter".into()],
                    ..GameChoice::default()
                },
                "unknown rule option `charter`",
            ),
            (
                GameChoice {
                    sets: vec!["lakes".into()],
                    ..GameChoice::default()
                },
                "unknown tile set `lakes`",
            ),
            (
                GameChoice {
                    start: Some("ZZ".into()),
                    ..GameChoice::default()
                },
                "unknown start tile `ZZ`",
            ),
        ] {
            match host.start_game(vec![Seat::Person], 1, choice) {
                Err(AnalysisError::Game(GameError::Engine(e))) => assert!(e.contains(why), "{e}"),
                Err(e) => panic!("{e}"),
                Ok(_) => panic!("{why}: accepted"),
            }
        }
    }
}

/// A tile whose picture cannot say its data is a warning at the tile on the live page; the
/// tile set stays good, and fixing the tile takes the warning away.
#[test]
fn a_picture_that_cannot_say_its_data_is_a_warning_at_its_tile() {
    let mut host = host_with_base();
    let text = include_str!("../../../tests/fixtures/picture-cannot-say.toml");
    host.apply_change("mine.toml", Some(text.to_string()));
    let a = host.analysis();
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.code == tilekit_render::PICTURE_CODE)
        .expect("a picture warning");
    assert!(!is_error(d));
    assert!(d.message.contains("`PX-1`"), "{}", d.message);
    assert_eq!(host.locate(d).tile.as_deref(), Some("PX-1"));
    assert!(a.good.is_some() && !a.stale);
    let mine = a
        .files
        .iter()
        .find(|f| f.name == "mine.toml")
        .expect("file");
    assert_eq!((mine.errors, mine.warnings), (0, 1));
    // One field all round: the picture says it.
    let fixed = text.replace(
        "  { ports = [\"NNE\", \"ENE\", \"ESE\", \"SSE\"] },\n  { ports = [\"SSW\", ",
        "  { ports = [\"NNE\", \"ENE\", \"ESE\", \"SSE\", \"SSW\", ",
    );
    assert_ne!(fixed, text);
    host.apply_change("mine.toml", Some(fixed));
    let a = host.analysis();
    assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
}

/// A vocabulary id's declaration, as written, for an editor's hover: nested tables keep their
/// full headers, and an unknown id has none.
#[test]
fn a_definition_is_its_declaration_as_toml() {
    let host = host_with_base();
    let (file, text) = host.definition(Vocabulary::EdgeKind, "road").expect("road");
    assert_eq!(file, "definitions/base.toml");
    assert!(text.starts_with("[[edge_kind]]\nid = \"road\""), "{text}");
    assert!(text.contains("[edge_kind.meets]"), "{text}");
    let (_, tile) = host.definition(Vocabulary::Tile, "D").expect("D");
    assert!(
        tile.contains("[[tile]]") && tile.contains("id = \"D\""),
        "{tile}"
    );
    let (_, set) = host.definition(Vocabulary::Set, "base").expect("base");
    assert!(set.starts_with("[set]\nid = \"base\""), "{set}");
    assert!(host.definition(Vocabulary::Marker, "nothing").is_none());
}
