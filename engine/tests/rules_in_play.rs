//! Which rules a game plays follows from the data of the sets in it: Village Life's set brings
//! the donkey and windmills (`[set] figures`), flower groups on the tiles bring the flower
//! bonus, and each option switches its mechanic on its own.

mod common;

use engine::rules::{ActionId, RuleSource};
use engine::{Game, GameOptions, ModuleOptions, RuleOptions, Rules, Tables};

/// A fan author's set with one new colour and flowers on its tiles, and no figures.
const LAKE: &str = r##"
format = 1

[set]
id = "lake"
name = "Lake"
requires = ["base"]

[[colour]]
id = "teal"
name = "Teal"
display = "#2a9d8f"

[[tile]]
id = "LK-1"
count = 6
edges = { n = "field", e = "road", s = "field", w = "road" }
roads = [{ ports = ["W", "E"] }]
fields = [
  { ports = ["WNW", "NNW", "NNE", "ENE"], flowers = ["teal"] },
  { ports = ["ESE", "SSE", "SSW", "WSW"] },
]
"##;

fn lake_tables() -> Tables {
    bundled_with("lake.toml", LAKE)
}

/// The bundled sets and an author's file `name` of `text`, compiled.
fn bundled_with(name: &str, text: &str) -> Tables {
    let mut sources = tiledef::bundled();
    sources.push(tiledef::Source {
        name: name.into(),
        text: text.into(),
    });
    let report = tiledef::load(sources);
    let set = report
        .tileset
        .unwrap_or_else(|| panic!("{name} is valid: {:#?}", report.diagnostics));
    engine::compile(&set).expect("compiles")
}

fn rules(tables: &Tables, sets: &[&str], options: RuleOptions) -> Rules {
    let game = Game::new(
        tables,
        GameOptions {
            sets: sets.iter().map(|s| s.to_string()).collect(),
            rules: options,
            tiles: Some(20),
            ..GameOptions::seeded(2, 7)
        },
        &mut Vec::new(),
    )
    .expect("the game sets up");
    game.rules().clone()
}

#[test]
fn a_fan_sets_flowers_bring_the_flower_bonus_but_no_figures() {
    let tables = lake_tables();
    let r = rules(&tables, &["base", "lake"], RuleOptions::default());
    assert_eq!(r.sets, ["base", "lake"]);
    assert!(!r.modules.donkey, "the lake set brings no donkey: {r:?}");
    assert_eq!(r.modules.windmills, 0, "the lake set brings no windmills");
    assert!(r.modules.flower_bonus, "its tiles carry flowers");
}

#[test]
fn village_life_brings_its_figures_and_a_cut_bag_keeps_them() {
    let tables = common::tables();
    // 20 tiles of a shuffled base + Village Life bag: the rules follow the whole bag's sets.
    let r = rules(tables, &["base", "village-life"], RuleOptions::default());
    assert!(
        r.modules.donkey && r.modules.windmills == 1 && r.modules.flower_bonus,
        "{r:?}"
    );
    let base = rules(tables, &["base"], RuleOptions::default());
    assert!(
        !base.modules.donkey && base.modules.windmills == 0 && !base.modules.flower_bonus,
        "{base:?}"
    );
    assert_eq!(base.sets, ["base"]);
}

#[test]
fn each_mechanic_switches_on_its_own() {
    let tables = common::tables();
    let vl = ["base", "village-life"];
    let off = |o: RuleOptions| rules(tables, &vl, o);
    let r = off(RuleOptions {
        modules: ModuleOptions {
            donkey: Some(false),
            ..Default::default()
        },
        ..Default::default()
    });
    assert!(
        !r.modules.donkey && r.modules.windmills == 1 && r.modules.flower_bonus,
        "{r:?}"
    );
    let r = off(RuleOptions {
        modules: ModuleOptions {
            windmills: Some(0),
            ..Default::default()
        },
        ..Default::default()
    });
    assert!(
        r.modules.donkey && r.modules.windmills == 0 && r.modules.flower_bonus,
        "{r:?}"
    );
    let r = off(RuleOptions {
        modules: ModuleOptions {
            flower_bonus: Some(false),
            ..Default::default()
        },
        ..Default::default()
    });
    assert!(
        r.modules.donkey && r.modules.windmills == 1 && !r.modules.flower_bonus,
        "{r:?}"
    );
    // And on without Village Life's set.
    let r = rules(
        tables,
        &["base"],
        RuleOptions {
            modules: ModuleOptions {
                donkey: Some(true),
                windmills: Some(2),
                ..Default::default()
            },
            ..Default::default()
        },
    );
    assert!(
        r.modules.donkey && r.modules.windmills == 2 && !r.modules.flower_bonus,
        "{r:?}"
    );
}

#[test]
fn games_follow_their_rules() {
    // Random games of base + Village Life with the donkey and flowers off: no donkey moves, no
    // flower points, but windmills.
    let tables = common::tables();
    let mut rng = engine::rng::Rng::new(3);
    let (mut moves, mut events) = (Vec::new(), Vec::new());
    let (mut donkey, mut flowers, mut windmills) = (0, 0, 0);
    for seed in 0..40 {
        let mut game = Game::new(
            tables,
            GameOptions {
                sets: vec!["base".into(), "village-life".into()],
                rules: RuleOptions {
                    modules: ModuleOptions {
                        donkey: Some(false),
                        flower_bonus: Some(false),
                        ..Default::default()
                    },
                    ..Default::default()
                },
                ..GameOptions::seeded(2, seed)
            },
            &mut events,
        )
        .expect("sets up");
        engine::simulate::play_out(&mut game, &mut rng, &mut moves, &mut events).expect("plays");
        donkey += game.stats().moves_of(ActionId::DONKEY);
        flowers += game.stats().points_of(RuleSource::FLOWERS);
        windmills += game.stats().moves_of(ActionId::WINDMILL);
        assert!(game.donkey().is_none() && game.colours().is_empty());
    }
    assert_eq!((donkey, flowers), (0, 0));
    assert!(windmills > 0, "windmills are still placed");
}

#[test]
fn flower_tokens_are_the_colours_of_the_sets_in_the_game() {
    let tables = lake_tables();
    let teal = tables.colours.iter().position(|c| c == "teal").unwrap() as u8;
    let colours = |sets: &[&str], players: u8, seed: u64| {
        let game = Game::new(
            &tables,
            GameOptions {
                sets: sets.iter().map(|s| s.to_string()).collect(),
                ..GameOptions::seeded(players, seed)
            },
            &mut Vec::new(),
        )
        .expect("the game sets up");
        game.colours().to_vec()
    };
    for seed in 0..20 {
        // The lake set is loaded but not in the game: its colour is no token.
        let vl = colours(&["base", "village-life"], 8, seed);
        assert_eq!(vl.len(), 8);
        assert!(!vl.contains(&teal), "seed {seed}: {vl:?}");
        // Eight players, four colours: two token sets, each colour twice.
        for c in 0..4 {
            assert_eq!(vl.iter().filter(|&&x| x == c).count(), 2, "{vl:?}");
        }
    }
    assert_eq!(colours(&["base", "lake"], 3, 1), vec![teal; 3]);
}

/// A fan's set with a figure of its own placed at a corner, beside Abbey & Mayor's barn: a
/// game plays one corner figure, so a game of both sets is refused, naming the two, instead of
/// quietly leaving the second out. Either set alone plays.
#[test]
fn a_game_with_two_corner_figures_is_refused_naming_them() {
    const SILO: &str = r##"
format = 1

[set]
id = "silo"
name = "Silo"
requires = ["base"]

[[figure]]
id = "silo"
name = "Silo"
count = 1
on = ["field"]
at = "corner"
scores = { end = { bordered = 2 } }

[[tile]]
id = "SI-1"
count = 4
edges = { n = "field", e = "road", s = "field", w = "road" }
roads = [{ ports = ["W", "E"] }]
fields = [
  { ports = ["WNW", "NNW", "NNE", "ENE"] },
  { ports = ["ESE", "SSE", "SSW", "WSW"] },
]
"##;
    let tables = bundled_with("silo.toml", SILO);
    let game = |sets: &[&str]| {
        let options = GameOptions {
            sets: sets.iter().map(|s| s.to_string()).collect(),
            ..GameOptions::seeded(2, 7)
        };
        Game::new(&tables, options, &mut Vec::new()).map(|g| g.rules().corner)
    };
    let err = game(&["base", "abbey-and-mayor", "silo"]).expect_err("two corner figures");
    assert_eq!(
        err.to_string(),
        "the sets of this game declare 2 figures placed at a corner (barn, silo): a game plays \
         one; leave a set out"
    );
    assert!(game(&["base", "silo"]).expect("plays").is_some());
    assert!(game(&["base", "abbey-and-mayor"]).expect("plays").is_some());
}

/// The sources of points (`GameStats::points_by_source`'s names) a game of `sets` can pay from.
fn sources_in_play(sets: &[&str], edition: Option<&str>) -> Vec<String> {
    sources_with(sets, edition, RuleOptions::default())
}

/// `sources_in_play` with the rule options `rules`.
fn sources_with(sets: &[&str], edition: Option<&str>, rules: RuleOptions) -> Vec<String> {
    let tables = common::tables();
    let options = GameOptions {
        sets: sets.iter().map(|s| s.to_string()).collect(),
        edition: edition.map(str::to_string),
        rules,
        ..GameOptions::seeded(2, 1)
    };
    let setup = engine::setup::Setup::new(tables, options).expect("valid options");
    let names = engine::game::GameStats::default().points_by_source(tables);
    (setup.sources_in_play().into_iter())
        .zip(names)
        .filter(|&(plays, _)| plays)
        .map(|(_, (name, _))| name)
        .collect()
}

#[test]
fn a_game_pays_only_from_the_sources_its_sets_bring() {
    let base = ["cities", "roads", "fields", "monasteries"];
    assert_eq!(sources_in_play(&["base"], Some("C1")), base);
    assert_eq!(
        sources_in_play(&["base"], None),
        ["cities", "roads", "fields", "monasteries", "gardens"]
    );
    let with = |set: &str| sources_in_play(&["base", set], Some("C1"))[base.len()..].to_vec();
    assert_eq!(
        with("traders-and-builders"),
        [
            "pig (bonus)",
            "wine (tokens)",
            "grain (tokens)",
            "cloth (tokens)"
        ]
    );
    assert_eq!(with("princess-and-dragon"), ["fairy (bonus)"]);
    assert_eq!(with("abbey-and-mayor"), ["barn (bonus)"]);
    assert_eq!(
        with("inns-and-cathedrals"),
        ["inn (modifier)", "cathedral (modifier)"]
    );
    // Village Life's own tiles have gardens, whatever the base game's edition.
    assert_eq!(
        with("village-life"),
        ["gardens", "flowers", "windmills", "marketplace networks"]
    );
    // An option switched off takes its source out; a figure dealt none, its bonus.
    let off = RuleOptions {
        modules: ModuleOptions {
            flower_bonus: Some(false),
            windmills: Some(0),
            ..ModuleOptions::default()
        },
        ..RuleOptions::default()
    };
    let village = sources_with(&["base", "village-life"], Some("C1"), off);
    assert_eq!(village[base.len()..], ["gardens", "marketplace networks"]);
    let no_pig = RuleOptions {
        figures: [("pig".to_string(), 0)].into(),
        ..RuleOptions::default()
    };
    let traders = sources_with(&["base", "traders-and-builders"], Some("C1"), no_pig);
    assert!(!traders.contains(&"pig (bonus)".to_string()), "{traders:?}");
}
