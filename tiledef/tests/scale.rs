//! Loads far beyond any real set: a long `requires` chain must not overflow the stack, and many
//! tile types (or marker kinds) must check in time linear in their number. No timing is asserted: a quadratic or
//! recursive version would take minutes or abort.

use tiledef::Source;

fn base() -> Source {
    tiledef::bundled()
        .into_iter()
        .find(|s| s.name == "definitions/base.toml")
        .expect("the base game is bundled")
}

#[test]
fn a_chain_of_30000_requires_loads() {
    let mut sources = vec![base()];
    let mut previous = "base".to_string();
    for i in 0..30_000 {
        let id = format!("chain-{i}");
        sources.push(Source {
            name: format!("chain/{id}.toml"),
            text: format!(
                "format = 1\n[set]\nid = \"{id}\"\nname = \"Link {i}\"\nrequires = [\"{previous}\"]\n"
            ),
        });
        previous = id;
    }
    // The last link uses the base game's edge kinds through 30,000 requirements.
    sources.push(Source {
        name: "chain/end.toml".to_string(),
        text: format!(
            "format = 1\n[set]\nid = \"end\"\nname = \"End\"\nrequires = [\"{previous}\"]\n\
             [[tile]]\nid = \"END\"\ncount = 1\n\
             edges = {{ n = \"field\", e = \"field\", s = \"field\", w = \"field\" }}\n\
             fields = [{{ ports = [\"NNW\", \"NNE\", \"ENE\", \"ESE\", \"SSE\", \"SSW\", \"WSW\", \"WNW\"] }}]\n"
        ),
    });
    let report = tiledef::load(sources);
    let shown: Vec<String> = report
        .diagnostics
        .iter()
        .take(3)
        .map(|d| format!("{d:?}"))
        .collect();
    assert!(report.tileset.is_some(), "{}", shown.join("\n"));
    assert_eq!(report.tileset.map(|t| t.sets.len()), Some(30_002));
}

#[test]
fn twenty_thousand_identical_tile_types_validate() {
    let mut text =
        String::from("format = 1\n[set]\nid = \"many\"\nname = \"Many\"\nrequires = [\"base\"]\n");
    for i in 0..20_000 {
        text.push_str(&format!(
            "[[tile]]\nid = \"M-{i}\"\ncount = 1\nmonastery = true\n\
             edges = {{ n = \"field\", e = \"field\", s = \"road\", w = \"field\" }}\n\
             roads = [{{ ports = [\"S\"], end = \"monastery\" }}]\n\
             fields = [{{ ports = [\"NNW\", \"NNE\", \"ENE\", \"ESE\", \"SSE\", \"SSW\", \"WSW\", \"WNW\"] }}]\n"
        ));
    }
    let report = tiledef::load(vec![
        base(),
        Source {
            name: "many.toml".to_string(),
            text,
        },
    ]);
    assert!(!report.has_errors(), "{:?}", report.diagnostics.first());
    assert_eq!(report.tileset.map(|t| t.tiles.len()), Some(20_000 + 32));
}

#[test]
fn fifty_thousand_marker_kinds_on_one_tile_validate() {
    // What `import jcz` makes of a tile of 50,000 differently named elements: a marker kind
    // each, all on the one tile. Each use is looked up among the declared kinds.
    let n = 50_000;
    let mut text = String::from(
        "format = 1\n[set]\nid = \"kinds\"\nname = \"Kinds\"\nrequires = [\"base\"]\n",
    );
    for i in 0..n {
        text.push_str(&format!(
            "[[marker]]\nid = \"m{i}\"\nname = \"M{i}\"\non = \"tile\"\n"
        ));
    }
    let names: Vec<String> = (0..n).map(|i| format!("\"m{i}\"")).collect();
    text.push_str(&format!(
        "[[tile]]\nid = \"MANY-MARKERS\"\ncount = 1\nmarkers = [{}]\n\
         edges = {{ n = \"field\", e = \"field\", s = \"field\", w = \"field\" }}\n\
         fields = [{{ ports = [\"NNW\", \"NNE\", \"ENE\", \"ESE\", \"SSE\", \"SSW\", \"WSW\", \"WNW\"] }}]\n",
        names.join(", ")
    ));
    let report = tiledef::load(vec![
        base(),
        Source {
            name: "kinds.toml".to_string(),
            text,
        },
    ]);
    assert!(!report.has_errors(), "{:?}", report.diagnostics.first());
    let set = report.tileset.expect("loads");
    let tile = set
        .tiles
        .iter()
        .find(|t| t.id == "MANY-MARKERS")
        .expect("the tile");
    assert_eq!(tile.markers.len(), n);
    assert_eq!(set.markers[tile.markers[n - 1]].id, format!("m{}", n - 1));
}

#[test]
fn an_error_on_a_very_long_line_shows_a_window_of_it() {
    let long = "x".repeat(5_000_000);
    let text = format!(
        "format = 1\n[set]\nid = \"long\"\nname = \"Long\"\nrequires = [\"base\"]\n\
         [[tile]]\nid = \"L\"\ncount = 1\nedges = {{ n = \"field\", e = \"field\", s = \"field\", w = \"field\" }}\n\
         fields = [{{ ports = [\"NNW\", \"NNE\", \"ENE\", \"ESE\", \"SSE\", \"SSW\", \"WSW\", \"NE\"], markers = [\"{long}\"] }}]\n"
    );
    let report = tiledef::load(vec![
        base(),
        Source {
            name: "long.toml".to_string(),
            text,
        },
    ]);
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.file() == "long.toml")
        .expect("the bad port is reported");
    let rendered = d.render_plain();
    assert!(rendered.contains("long.toml:10:"), "{rendered}");
    assert!(rendered.contains("\"NE\""), "{rendered}");
    assert!(rendered.len() < 5_000, "{} bytes", rendered.len());
}
