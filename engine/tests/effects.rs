//! Effects and markers' modifiers on any feature kind: the vineyards of `examples/vineyards.toml`
//! pay 3 per vineyard tile in a completed monastery's range and nothing unfinished, as counted
//! here on the board; a modifier on a monastery and one on a field change their scorings.

use engine::game::{Event, Game, GameOptions, Phase};
use engine::players::{Player, Strategy};
use engine::record::{Record, check_expectations, replay};
use engine::rng::Rng;
use engine::{Reason, Scored, Tables};

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The tables of base and a fan set written in `text`.
fn tables_with(name: &str, text: String) -> Tables {
    let base = tiledef::Source {
        name: "definitions/base.toml".to_string(),
        text: std::fs::read_to_string(root().join("definitions/base.toml")).expect("base"),
    };
    let fan = tiledef::Source {
        name: name.to_string(),
        text,
    };
    let report = tiledef::load(vec![base, fan]);
    let problems: Vec<String> = (report.diagnostics.iter())
        .map(|d| d.render_plain())
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let ts = report.tileset.expect("the set loads");
    engine::tables::compile(&ts).expect("the set compiles")
}

fn vineyard_tables() -> Tables {
    let text = std::fs::read_to_string(root().join("examples/vineyards.toml")).expect("example");
    tables_with("examples/vineyards.toml", text)
}

/// The vineyard tiles of the 3 × 3 block around (x, y).
fn vineyards_around(game: &Game<'_>, tables: &Tables, (x, y): (i16, i16)) -> u32 {
    let vineyard = tables.marker_index("vineyard") as u8;
    let mut n = 0;
    for dy in -1..=1 {
        for dx in -1..=1 {
            let Some(p) = game.board().at(i32::from(x) + dx, i32::from(y) + dy) else {
                continue;
            };
            let kind = usize::from(tables.orient(p.orient).kind);
            n += u32::from(tables.kinds[kind].markers.contains(&vineyard));
        }
    }
    n
}

#[test]
fn vineyards_pay_per_vineyard_tile_of_a_completed_monasterys_range() {
    let tables = vineyard_tables();
    assert_eq!(tables.effects.len(), 1);
    let monastery = tables
        .feature_kind("monastery")
        .expect("base declares monasteries");
    let vineyard = tables.marker_index("vineyard");
    let (mut completed, mut unfinished) = (0, 0);
    for seed in 0..400 {
        // Without the abbot: random players recall it from most monasteries they stand on.
        let mut options = GameOptions {
            sets: vec!["base".to_string(), "vineyards".to_string()],
            ..GameOptions::seeded(2 + (seed % 3) as u8, seed)
        };
        options.rules.figures.insert("abbot".to_string(), 0);
        let mut events = Vec::new();
        let mut game = Game::new(&tables, options, &mut events).expect("the game sets up");
        let mut players: Vec<Player> = (0..4).map(|_| Player::new(Strategy::Random)).collect();
        let mut rng = Rng::new(seed);
        while game.phase() != Phase::Over {
            let seat = game.current() as usize;
            let mv = players[seat].choose(&game, &mut rng).expect("a move");
            game.apply(mv, &mut events).expect("a legal move");
        }
        let mut paid = 0i64;
        for e in &events {
            let Event::Scored(s) = e else { continue };
            let from_effect: Vec<_> = (s.modifiers.iter())
                .filter(|m| m.effect.is_some())
                .collect();
            if s.kind != Scored::Feature(monastery) {
                assert!(from_effect.is_empty(), "seed {seed}: {s:?}");
                continue;
            }
            let n = vineyards_around(&game, &tables, (s.at.0, s.at.1));
            let site = if s.reason == Reason::Unfinished {
                s.range
            } else {
                9
            };
            if n == 0 {
                assert!(from_effect.is_empty(), "seed {seed}: {s:?}");
                assert_eq!(s.points, site, "seed {seed}: {s:?}");
                continue;
            }
            let [m] = from_effect[..] else {
                panic!("seed {seed}: one vineyards entry expected: {s:?}");
            };
            assert_eq!((m.marker.as_str(), m.count), ("vineyard", n), "seed {seed}");
            assert_eq!(m.effect.as_deref(), Some("vineyards"));
            let rate = if s.reason == Reason::Unfinished { 0 } else { 3 };
            unfinished += usize::from(rate == 0);
            completed += usize::from(rate == 3);
            assert_eq!(m.points, i64::from(rate * n), "seed {seed}: {s:?}");
            assert_eq!(s.points, site + rate * n, "seed {seed}: {s:?}");
            paid += m.points * s.players.len() as i64;
        }
        // The stats credit the vineyards by marker kind, as other modifiers.
        assert_eq!(game.stats().marker_points[vineyard], paid, "seed {seed}");
        let sources = game.stats().points_by_source(&tables);
        let listed = sources
            .iter()
            .find(|(name, _)| name == "vineyard (modifier)");
        assert_eq!(
            listed.map(|(_, p)| *p),
            Some(paid),
            "seed {seed}: {sources:?}"
        );
    }
    assert!(
        completed > 5,
        "only {completed} completed monasteries by vineyards"
    );
    assert!(
        unfinished > 5,
        "only {unfinished} unfinished monasteries by vineyards"
    );
}

/// A fan set with a modifier on monasteries and one on fields: a shrine makes a completed
/// monastery 2 a tile and adds 3 to an unfinished one; a haystack adds 2 to its field.
const SHRINES: &str = r#"
format = 1

[set]
id = "shrines"
name = "Shrines"
requires = ["base"]

[[marker]]
id = "shrine"
name = "Shrine"
on = "monastery"
scoring = { complete = { tile = 2 }, unfinished = { marker = 3 } }

[[marker]]
id = "haystack"
name = "Haystack"
on = "field"
scoring = { unfinished = { marker = 2 } }

[[tile]]
id = "SH-1"
count = 2
edges = { n = "field", e = "field", s = "field", w = "field" }
monastery = { markers = ["shrine"] }
fields = [
  { ports = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"], markers = ["haystack"] },
]
"#;

fn check(tables: &Tables, text: &str) {
    let record = Record::from_toml(text).expect("the record reads");
    let outcome = replay(tables, &record);
    let wrong = check_expectations(tables, &record, &outcome);
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// A completed shrine monastery: its range of 9 tiles at the shrine's 2 a tile, 18 (the shrine
/// adds 9 to the base 9).
#[test]
fn a_modifier_on_a_monastery_sets_its_tile_rate() {
    let tables = tables_with("shrines.toml", SHRINES.to_string());
    check(
        &tables,
        r#"
[game]
sets = ["base", "shrines"]
players = 2

[[turn]]
tile = "SH-1"
at = [0, 1]
rotation = 0
deploy = "monastery"

[[turn]]
tile = "U"
at = [1, 0]
rotation = 0

[[turn]]
tile = "U"
at = [-1, 0]
rotation = 0

[[turn]]
tile = "B"
at = [-1, 1]
rotation = 0

[[turn]]
tile = "B"
at = [1, 1]
rotation = 0

[[turn]]
tile = "B"
at = [-1, 2]
rotation = 0

[[turn]]
tile = "B"
at = [0, 2]
rotation = 0

[[turn]]
tile = "SH-1"
at = [1, 2]
rotation = 0

[expect]
scores = [18, 0]
scored = [
  { turn = 8, kind = "monastery", players = [1], points = 18, markers = { shrine = 9 } },
]
"#,
    );
}

/// At the end: the unfinished shrine monastery has 3 placed tiles of its range (D, itself and
/// the monastery east of it), 1 × 3, and the shrine's 3 a marker: 6. The field P2 stands on
/// (the two tiles' fields and D's south field) borders no city: 0, and its haystack adds 2.
#[test]
fn modifiers_pay_an_unfinished_monastery_and_a_field() {
    let tables = tables_with("shrines.toml", SHRINES.to_string());
    check(
        &tables,
        r#"
[game]
sets = ["base", "shrines"]
players = 2

[[turn]]
tile = "SH-1"
at = [0, 1]
rotation = 0
deploy = "monastery"

[[turn]]
tile = "B"
at = [1, 1]
rotation = 0
deploy = "field"

[expect]
scores = [6, 2]
over = true
scored = [
  { kind = "monastery", players = [1], points = 6, markers = { shrine = 3 } },
  { kind = "field", players = [2], points = 2, markers = { haystack = 2 } },
]
"#,
    );
}
