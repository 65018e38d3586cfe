//! End-to-end tests of `tilekit import jcz` and `tilekit export jcz`: files written, report,
//! exit codes, refusals.

mod common;
#[path = "../tools/jcz/tests/common/reference_files.rs"]
mod reference_files;

use common::{scratch, text, tilekit};

const BASIC: &str = "tools/jcz/tests/fixtures/mini-basic.xml";
const EXPANSION: &str = "tools/jcz/tests/fixtures/mini-expansion.xml";

#[test]
fn import_writes_valid_sets_a_schema_and_a_report() {
    let out_dir = scratch("jcz-import");
    let out = tilekit(&[
        "import",
        "jcz",
        BASIC,
        EXPANSION,
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("mini-basic.xml: 7 tile types → base.toml; 0 not carried over"),
        "{stdout}"
    );
    for file in [
        "base.toml",
        "mini-1.toml",
        "mini-river.toml",
        "jcz.toml",
        "tileset.schema.json",
    ] {
        assert!(out_dir.join(file).is_file(), "{file} missing");
    }
    let base = std::fs::read_to_string(out_dir.join("base.toml")).unwrap();
    assert!(
        base.starts_with(
            "#:schema ./tileset.schema.json\n# Imported from JCloisterZone's mini-basic.xml"
        ),
        "{base}"
    );
    assert_eq!(base.matches("[[tile]]").count(), 7);
    let report = std::fs::read_to_string(out_dir.join("import-report.txt")).unwrap();
    // The wagon's moves are carried over as the tile's `moves`, no longer reported.
    assert!(!report.contains("wagon-move"), "{report}");
    assert!(base.contains("moves = [[\"S\", \"monastery\"]]"), "{base}");
    assert!(report.contains("## Summary"), "{report}");
    // A second import into the same folder keeps the vocabulary the first one declared.
    let inn = "tools/jcz/tests/fixtures/mini-inn.xml";
    let again = tilekit(&["import", "jcz", inn, "--out", out_dir.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let vocabulary = std::fs::read_to_string(out_dir.join("jcz.toml")).unwrap();
    assert!(vocabulary.contains("id = \"inn\""), "{vocabulary}");
    assert!(vocabulary.contains("id = \"river\""), "{vocabulary}");
    assert!(vocabulary.contains("id = \"festival\""), "{vocabulary}");
    // What was written validates with `tilekit validate` too.
    let mini = out_dir.join("mini-1.toml");
    let check = tilekit(&[
        "validate",
        mini.to_str().unwrap(),
        out_dir.join("jcz.toml").to_str().unwrap(),
    ]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
}

#[test]
fn import_refuses_bad_input_with_the_right_exit_code() {
    let dir = scratch("jcz-bad");
    let malformed = tilekit(&[
        "import",
        "jcz",
        "tools/jcz/tests/fixtures/malformed.xml",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(malformed.status.code(), Some(1));
    assert!(
        text(&malformed.stderr).contains("malformed.xml:6:"),
        "{}",
        text(&malformed.stderr)
    );
    let port = tilekit(&[
        "import",
        "jcz",
        "tools/jcz/tests/fixtures/bad-port.xml",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(port.status.code(), Some(1));
    assert!(
        text(&port.stderr).contains("tile `BAD/2`: `SX`"),
        "{}",
        text(&port.stderr)
    );
    // A folder with no XML, --out that is a file, --out that is an input.
    let empty = scratch("jcz-empty");
    let none = tilekit(&[
        "import",
        "jcz",
        empty.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        text(&none.stderr).contains("has no .xml file"),
        "{}",
        text(&none.stderr)
    );
    let file_out = tilekit(&["import", "jcz", BASIC, "--out", BASIC]);
    assert_eq!(file_out.status.code(), Some(2));
    assert!(
        text(&file_out.stderr).contains("is a file"),
        "{}",
        text(&file_out.stderr)
    );
    let fixtures = "tools/jcz/tests/fixtures";
    let into_input = tilekit(&["import", "jcz", fixtures, "--out", fixtures]);
    assert_eq!(into_input.status.code(), Some(2));
    assert!(
        text(&into_input.stderr).contains("is one of the inputs"),
        "{}",
        text(&into_input.stderr)
    );
    // Nothing was written by the refused runs.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn import_refuses_a_document_nested_too_deep_without_crashing() {
    // 20,000 nested elements (140 kB) overflowed the stack (exit 134) before the limit.
    let dir = scratch("jcz-deep");
    let xml = dir.join("deep.xml");
    let depth = 20_000;
    std::fs::write(
        &xml,
        format!(
            "<defs>\n<tiles>\n<tile id=\"X/1\">\n{}{}\n</tile>\n</tiles>\n</defs>\n",
            "<a>".repeat(depth),
            "</a>".repeat(depth)
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let run = tilekit(&[
        "import",
        "jcz",
        xml.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = text(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    let limit = tilekit_jcz::xml::MAX_DEPTH;
    assert!(stderr.contains("deep.xml:4:"), "{stderr}");
    assert!(
        stderr.contains(&format!("nested more than {limit} deep")),
        "{stderr}"
    );
    assert!(!out.join("import-report.txt").exists(), "nothing written");
}

/// Runs `tilekit export jcz PATHS --out XML`, which must succeed: the XML written and stderr
/// (the notes of what JCZ cannot say).
fn export_jcz(paths: &[&str], xml: &std::path::Path) -> (String, String) {
    let out = tilekit(&[&["export", "jcz"], paths, &["--out", xml.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    (std::fs::read_to_string(xml).unwrap(), text(&out.stderr))
}

#[test]
fn export_writes_jcz_xml_of_the_bundled_base_and_reports_what_it_cannot_say() {
    let dir = scratch("jcz-export");
    let xml = dir.join("basic.xml");
    let (written, stderr) = export_jcz(&["definitions/base.toml"], &xml);
    assert!(written.contains("<tile id=\"BA/RCr\">"), "{written}");
    assert!(written.contains("<tile-set id=\"basic:1\">"), "{written}");
    assert!(
        written.contains("<ref count=\"5\" tile=\"BA/C\" />"),
        "{written}"
    );
    assert!(stderr.contains("start: this is the start tile"), "{stderr}");
    // The export imports back to the base game's 32 tile types.
    let back = dir.join("back");
    let again = tilekit(&[
        "import",
        "jcz",
        xml.to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let base = std::fs::read_to_string(back.join("base.toml")).unwrap();
    assert_eq!(base.matches("[[tile]]").count(), 32);
    // Village Life's bushes, flowers and marketplaces are reported.
    let vl = tilekit(&[
        "export",
        "jcz",
        "definitions/village-life.toml",
        "--out",
        dir.join("vl.xml").to_str().unwrap(),
    ]);
    assert_eq!(vl.status.code(), Some(0), "{}", text(&vl.stderr));
    let stderr = text(&vl.stderr);
    for kind in [
        "edge kind",
        "flowers",
        "marketplace",
        "marker not in JCZ",
        "road end",
    ] {
        assert!(stderr.contains(&format!("  {kind}\n")), "{kind}: {stderr}");
    }
    // Written as FanCloisterZone reads them: flowers by its token names, a bush tied to the road
    // that ends at it, a marketplace joined to the roads that end there.
    let vl_xml = std::fs::read_to_string(dir.join("vl.xml")).unwrap();
    for want in [
        r#"<road bush="S">E</road>"#,
        r#"<field city="N" flowers="white">EL SR WL WR</field>"#,
        r#"<road marketplace="1">N</road>"#,
        r#"<marketplace marketplace="1" />"#,
    ] {
        assert!(vl_xml.contains(want), "{want}: {vl_xml}");
    }
    // Tiles whose ids are not JCZ ids import back under the same ids, without a clashing alias.
    let vl_back = dir.join("vl-back");
    let again = tilekit(&[
        "import",
        "jcz",
        dir.join("vl.xml").to_str().unwrap(),
        "--out",
        vl_back.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let vl = std::fs::read_to_string(vl_back.join("village-life.toml")).unwrap();
    assert!(vl.contains("id = \"VL-01\"\ncount = 1\n"), "{vl}");
    // Bushes and flowers come back as Village Life declares them (the vocabulary set says them
    // again, identically), and a lone road runs into its bushes.
    let vl01 = &vl[vl.find("id = \"VL-01\"").unwrap()..];
    assert!(vl01.contains(r#"s = "bushes""#), "{vl01}");
    assert!(
        vl01.contains(r#"roads = [{ ports = ["E"], end = "S" }]"#),
        "{vl01}"
    );
    assert!(vl01.contains(r#"flowers = ["white"]"#), "{vl01}");
    let vocabulary = std::fs::read_to_string(vl_back.join("jcz.toml")).unwrap();
    assert!(vocabulary.contains("id = \"bushes\"") && vocabulary.contains("jcz = \"bush\""));
    assert!(vocabulary.contains("id = \"light-blue\""), "{vocabulary}");
    let validated = tilekit(&["validate", vl_back.to_str().unwrap()]);
    assert_eq!(
        validated.status.code(),
        Some(0),
        "{}",
        text(&validated.stderr)
    );
    assert!(
        !text(&validated.stderr).contains('⚠'),
        "{}",
        text(&validated.stderr)
    );
    // …and loads beside the bundled Village Life: every shared name declared identically.
    let beside = tilekit(&[
        "validate",
        vl_back.join("jcz.toml").to_str().unwrap(),
        "definitions/village-life.toml",
    ]);
    assert_eq!(beside.status.code(), Some(0), "{}", text(&beside.stderr));
    // The marketplace comes back, with the roads that end at it.
    let vl24 = &vl[vl.find("id = \"VL-24\"").unwrap()..];
    assert!(vl24.contains("marketplace = true"), "{vl24}");
    assert!(
        vl24.contains(r#"roads = [{ ports = ["N"], end = "marketplace" }"#),
        "{vl24}"
    );
    // --out that is a folder is refused.
    let folder = tilekit(&[
        "export",
        "jcz",
        "definitions/base.toml",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(folder.status.code(), Some(2));
}

#[test]
fn export_writes_jczs_own_tile_set_ids() {
    // The River's families are `river/1` and `river/2` in JCZ, editions `:1` and `:2`.
    let dir = scratch("jcz-export-ids");
    let xml = dir.join("river.xml");
    let paths = ["definitions/river.toml", "definitions/river-2.toml"];
    let (written, _) = export_jcz(&paths, &xml);
    for id in ["river/1:1", "river/1:2", "river/2:1", "river/2:2"] {
        assert!(
            written.contains(&format!("<tile-set id=\"{id}\">")),
            "{id}: {written}"
        );
    }
    assert!(!written.contains("\"river:1\""), "{written}");
}

/// The draw of a seeded game of `sets` from the tables, as tile ids: the start tile, then the bag.
fn draw(tables: &engine::Tables, sets: &[&str], seed: u64) -> (String, Vec<String>) {
    let mut options = engine::game::GameOptions::seeded(2, seed);
    options.sets = sets.iter().map(|s| s.to_string()).collect();
    let plan = engine::draw::plan(tables, &options).expect("the sets are loaded");
    let id = |k: &engine::KindId| tables.kind(*k).id.clone();
    (id(&plan.start), plan.bag.iter().map(id).collect())
}

#[test]
fn imported_rivers_inns_and_goods_play_by_their_rules() {
    let Some(files) = reference_files::reference() else {
        return;
    };
    let input = scratch("jcz-rules-in");
    let wanted = [
        "basic.xml",
        "river.xml",
        "inns_and_cathedrals.xml",
        "traders_and_builders.xml",
    ];
    for (name, body) in files.iter().filter(|(n, _)| wanted.contains(&n.as_str())) {
        std::fs::write(input.join(name), body).unwrap();
    }
    let out_dir = scratch("jcz-rules-out");
    let out = out_dir.to_str().unwrap();
    let import = tilekit(&["import", "jcz", input.to_str().unwrap(), "--out", out]);
    assert_eq!(import.status.code(), Some(0), "{}", text(&import.stderr));
    // What is carried over is no longer reported.
    let report = std::fs::read_to_string(out_dir.join("import-report.txt")).unwrap();
    for kind in ["tile@group", "<remove>"] {
        assert!(!report.contains(kind), "{kind} reported:\n{report}");
    }

    // The imported sets play: inns and cathedrals change scores, goods pay their majorities.
    let sets = "base,river-1,river-2,inns-and-cathedrals,traders-and-builders";
    let sim = tilekit(&["simulate", out, "--sets", sets, "--games", "200", "--json"]);
    assert_eq!(sim.status.code(), Some(0), "{}", text(&sim.stderr));
    let json: serde_json::Value = serde_json::from_slice(&sim.stdout).unwrap();
    let by_source = &json["points_per_game_by_source"];
    for source in [
        "inn (modifier)",
        "cathedral (modifier)",
        "wine (tokens)",
        "grain (tokens)",
        "cloth (tokens)",
    ] {
        let points = by_source[source].as_f64().unwrap_or(0.0);
        assert!(points != 0.0, "{source}: {points} in {by_source}");
    }

    // The draw: the spring starts, the river comes first (River II's fork right after the
    // spring, the lake last of the river), then the land tiles.
    let paths = [out_dir.clone()];
    let sources = tiledef::read_paths(&paths).unwrap();
    let tileset = tiledef::load(sources)
        .tileset
        .expect("the import validates");
    assert!(
        tileset.followers.iter().any(|f| f.id == "large-follower"
            && tileset.sets[f.set].id == "inns-and-cathedrals"
            && f.strength == tiledef::Strength::Fixed(2)),
        "{:?}",
        tileset.followers
    );
    let tables = engine::compile(&tileset).unwrap();
    let river = |id: &str| id.starts_with("RI");
    for seed in 1..=5 {
        let (start, bag) = draw(&tables, &["base", "river-1"], seed);
        assert_eq!(start, "RI-s", "seed {seed}");
        let rivers = bag.iter().take_while(|t| river(t)).count();
        assert_eq!(rivers, 11, "seed {seed}: {bag:?}");
        assert!(!bag.iter().skip(rivers).any(|t| river(t)), "{bag:?}");
        assert_eq!(bag[rivers - 1], "RI.1-I.e", "the lake last: {bag:?}");

        let (start, bag) = draw(&tables, &["base", "river-1", "river-2"], seed);
        assert_eq!(start, "RI-s", "seed {seed}");
        assert_eq!(bag[0], "RI.2-III", "the fork first: {bag:?}");
        let rivers = bag.iter().take_while(|t| river(t)).count();
        // River I's 10 tiles besides spring and lake, River II's 11 besides its spring: no
        // second spring, no River I lake (River II removes it).
        assert_eq!(rivers, 21, "seed {seed}: {bag:?}");
        assert!(
            !bag.iter().any(|t| t == "RI.1-I.e" || t == "RI.2-RI-s"),
            "{bag:?}"
        );
        assert_eq!(
            bag[rivers - 1],
            "RI.2-I.v",
            "the volcano lake last: {bag:?}"
        );
    }
}

/// Export maps edge kinds by their declared `jcz`, never by how they are drawn: a lake drawn as
/// water is not JCZ's river (reported per tile), while a kind that says `jcz = "river"` is.
#[test]
fn export_maps_edge_kinds_by_their_jcz_key_not_their_style() {
    let dir = scratch("jcz-export-edge-kinds");
    let set = |jcz: &str| {
        format!(
            "format = 1\n[set]\nid = \"lakes\"\nname = \"Lakes\"\nrequires = [\"base\"]\n\n\
             [[edge_kind]]\nid = \"lake\"\nname = \"Lake\"\ncentre = \"none\"\nhalves = \"field\"\n\
             meets = {{ lake = \"connect\", field = \"connect\" }}\nstyle = \"river\"\n{jcz}\n\
             [[tile]]\nid = \"LK-1\"\ncount = 1\nedges = {{ n = \"lake\", e = \"field\", s = \"field\", w = \"field\" }}\n\
             fields = [{{ ports = [\"NNW\", \"NNE\", \"ENE\", \"ESE\", \"SSE\", \"SSW\", \"WSW\", \"WNW\"] }}]\n"
        )
    };
    let export = |name: &str, definitions: String| {
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, definitions).unwrap();
        export_jcz(&[file.to_str().unwrap()], &dir.join(format!("{name}.xml")))
    };
    let (xml, stderr) = export("drawn-as-river", set(""));
    assert!(!xml.contains("<river"), "{xml}");
    assert!(stderr.contains("`lake`, which JCZ has not"), "{stderr}");
    let (xml, _) = export("jcz-river", set("jcz = \"river\""));
    assert!(xml.contains("<river>N</river>"), "{xml}");
}

/// Export maps feature kinds by their declared `jcz`, not by their tile key: an author's own
/// area with `jcz = "city"` (castles, written `castles = [...]`, with towers for pennants) is
/// written as JCZ's `<city>`, its towers as `pennants`, and a field bordering it names it.
#[test]
fn export_maps_feature_kinds_by_their_jcz_key() {
    let dir = scratch("jcz-export-feature-kinds");
    let file = dir.join("castles.toml");
    std::fs::write(
        &file,
        "format = 1\n[set]\nid = \"castles\"\nname = \"Castles\"\nrequires = [\"base\"]\n\n\
         [[feature]]\nid = \"castle\"\nname = \"Castle\"\nshape = \"area\"\ncomplete = \"closed\"\n\
         emblem = { id = \"tower\", name = \"Tower\", key = \"towers\" }\n\
         score.complete = { tile = 3, tower = 1 }\nbordered = { field = 4 }\njcz = \"city\"\n\n\
         [[edge_kind]]\nid = \"castle\"\nname = \"Castle\"\ncentre = \"castle\"\nhalves = \"castle\"\n\
         meets = { castle = \"connect\" }\n\n\
         [[tile]]\nid = \"CA-1\"\ncount = 1\n\
         edges = { n = \"castle\", e = \"field\", s = \"field\", w = \"field\" }\n\
         castles = [{ ports = [\"N\"], towers = 2 }]\n\
         fields = [{ ports = [\"ENE\", \"ESE\", \"SSE\", \"SSW\", \"WSW\", \"WNW\"], castles = [\"N\"] }]\n",
    )
    .unwrap();
    let (written, stderr) = export_jcz(&[file.to_str().unwrap()], &dir.join("castles.xml"));
    assert!(
        written.contains("<city pennants=\"2\">N</city>"),
        "{written}"
    );
    assert!(written.contains("city=\"N\""), "{written}");
    assert!(!stderr.contains("`castles`"), "{stderr}");
}

/// Export writes each feature as its kind's JCZ element; a kind JCZ has not (the fixture's
/// lakes and island) is left out and reported for each tile that has one.
#[test]
fn export_reports_a_kind_jcz_has_not_per_tile() {
    let dir = scratch("jcz-export-kinds");
    let paths = ["definitions/base.toml", "tiledef/tests/fixtures/lakes.toml"];
    let (written, stderr) = export_jcz(&paths, &dir.join("lakes.xml"));
    for tile in ["LK-bay", "LK-strait", "LK-island"] {
        let line = (stderr.lines())
            .find(|l| l.starts_with(&format!("{tile}:")))
            .unwrap_or_else(|| panic!("no note for {tile}: {stderr}"));
        assert!(
            line.contains("its `lakes`: their kind has no JCloisterZone element"),
            "{line}"
        );
    }
    let island = (stderr.lines())
        .find(|l| l.starts_with("LK-island:"))
        .unwrap_or_default();
    assert!(island.contains("its `island`"), "{island}");
    assert!(
        written.contains("<road>S</road>"),
        "the bay's road is written: {written}"
    );
    assert!(!written.contains("<lake"), "{written}");
    let bay = (stderr.lines())
        .find(|l| l.starts_with("LK-bay:"))
        .unwrap_or_default();
    assert!(
        bay.contains("it carries a lake, which is left out"),
        "{bay}"
    );
}

/// A set exported on its own is written with the vocabulary of the sets it requires: River II's
/// river edges are `<river>` (River I declares the kind), and a fan set's fields, roads and
/// cities are no loss (base declares them). The report opens with what JCZ will not play.
#[test]
fn export_of_one_set_uses_the_vocabulary_it_requires_and_reports_only_losses() {
    let dir = scratch("jcz-export-alone");
    let (written, stderr) = export_jcz(&["definitions/river-2.toml"], &dir.join("r2.xml"));
    assert_eq!(written.matches("<river>").count(), 12, "{written}");
    assert!(!stderr.contains("which JCZ has not"), "{stderr}");
    let (_, stderr) = export_jcz(
        &["tiledef/tests/fixtures/lakes.toml"],
        &dir.join("lakes.xml"),
    );
    assert!(
        !stderr.contains("is `field`") && !stderr.contains("is `city`"),
        "{stderr}"
    );
    let lead = stderr.lines().nth(2).unwrap_or_default();
    assert!(
        lead.starts_with("JCZ will not play the kinds `island`, `lake`;")
            && lead.ends_with("tile types play differently there."),
        "{stderr}"
    );
}

/// Village Life's `well` is FanCloisterZone's (and JCZ's) `wells` attribute, both ways.
#[test]
fn a_well_is_written_as_fancloisterzone_reads_it_and_read_back() {
    let dir = scratch("jcz-wells");
    let xml = dir.join("vl.xml");
    let (written, _) = export_jcz(&["definitions/village-life.toml"], &xml);
    assert!(written.contains("wells=\"true\""), "{written}");
    assert!(!written.contains("well=\""), "{written}");
    let back = dir.join("back");
    let out = tilekit(&[
        "import",
        "jcz",
        xml.to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let imported = std::fs::read_to_string(back.join("village-life.toml")).unwrap_or_default();
    assert!(imported.contains("markers = [\"well\"]"), "{imported}");
}
