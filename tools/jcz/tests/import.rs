//! The importer on tilekit's own fixtures in JCZ's format (`fixtures/`), one rule at a time, and
//! import → export → import on them.

mod common;

use std::collections::BTreeMap;
use tiledef::model::{Count, MarkerIcon, MarkerPlace, MarkerRule, TileDef, TileSetFile};
use tilekit_jcz::import::Import;
use tilekit_jcz::import::RoadEnd;
use tilekit_jcz::xml::MAX_DEPTH;
use tilekit_jcz::{Error, import_texts};

fn fixture(name: &str) -> (String, String) {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    (name.to_string(), std::fs::read_to_string(path).unwrap())
}

fn minis() -> Vec<(String, String)> {
    ["mini-basic.xml", "mini-expansion.xml", "mini-reprint.xml"]
        .map(fixture)
        .to_vec()
}

fn set<'a>(import: &'a Import, id: &str) -> &'a TileSetFile {
    &import
        .sets
        .iter()
        .find(|s| s.set.set.id == id)
        .unwrap_or_else(|| panic!("no set {id}"))
        .set
}

fn tile<'a>(import: &'a Import, alias: &str) -> &'a TileDef {
    import
        .sets
        .iter()
        .flat_map(|s| &s.set.tiles)
        .find(|t| t.aliases.iter().any(|a| a == alias))
        .unwrap_or_else(|| panic!("no tile {alias}"))
}

fn errors(import: &Import) -> Vec<String> {
    common::errors(import).into_iter().map(|(e, _)| e).collect()
}

#[test]
fn families_editions_and_counts() {
    let import = import_texts(&minis()).unwrap();
    let ids: Vec<&str> = import.sets.iter().map(|s| s.set.set.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "base",
            "mini-1",
            "mini-river",
            "reprint-a",
            "reprint-b",
            "mini-expansion-unreferenced",
            "jcz"
        ]
    );
    let base = set(&import, "base");
    assert!(base.set.requires.is_empty());
    assert_eq!(base.editions.len(), 2);
    assert_eq!(base.edge_kinds.len(), 3);
    assert_eq!(tile(&import, "BA/RCr").count, Count::All(3));
    assert_eq!(
        tile(&import, "BA/Cc+").count,
        Count::PerEdition(BTreeMap::from([("C1".into(), 2), ("C2".into(), 1)]))
    );
    assert_eq!(
        tile(&import, "BA/CcG").count,
        Count::PerEdition(BTreeMap::from([("C2".into(), 1)]))
    );
    // A tile in `:1` only.
    assert_eq!(
        tile(&import, "MX/Rrr").count,
        Count::PerEdition(BTreeMap::from([("C1".into(), 1)]))
    );
    // A family without a suffix has plain counts.
    assert_eq!(tile(&import, "MX/IRI").count, Count::All(3));
    assert_eq!(set(&import, "mini-1").set.requires, ["base", "jcz"]);
    // The start tiles: the one the bundled base marks (BA/RCr is D), and the spring (JCZ's
    // `group="river-spring"`).
    let starts: Vec<&str> = import
        .sets
        .iter()
        .flat_map(|s| &s.set.tiles)
        .filter(|t| t.start)
        .map(|t| t.id.as_str())
        .collect();
    assert_eq!(starts, ["BA-RCr", "MX-s"]);
    assert_eq!(tile(&import, "MX/Tw!").id, "MX-Tw_");
}

#[test]
fn edges_road_ends_and_fields() {
    let import = import_texts(&minis()).unwrap();
    let end = |alias: &str| {
        tile(&import, alias)
            .features_under("roads")
            .iter()
            .map(|r| {
                r.end
                    .as_deref()
                    .map(|e| RoadEnd::ALL.into_iter().find(|x| x.name() == e))
            })
            .map(Option::flatten)
            .collect::<Vec<_>>()
    };
    assert_eq!(end("BA/LR"), [Some(RoadEnd::Monastery)]);
    assert_eq!(end("BA/RRR"), [Some(RoadEnd::Junction); 3]);
    assert_eq!(end("BA/CR"), [Some(RoadEnd::City)]);
    assert_eq!(end("MX/FeR"), [Some(RoadEnd::Festival)]);
    // A junction beside a city, where each sector between two arms holds one field …
    assert_eq!(end("MX/CRRR"), [Some(RoadEnd::Junction); 3]);
    // … but not where a sector holds two: the roads end at the cities' gates.
    assert_eq!(end("MX/CCRR"), [Some(RoadEnd::City); 2]);
    assert_eq!(end("BA/RCr"), [None]);
    assert_eq!(
        tile(&import, "MX/Rrr").features_under("roads")[0]
            .ports
            .len(),
        3
    );
    let spring = tile(&import, "MX/s");
    let edges = spring.edges.as_ref().unwrap();
    assert_eq!([&edges.n, &edges.e], ["field", "river"]);
    let river = tile(&import, "MX/IRI").edges.clone().unwrap();
    assert_eq!(
        [river.n, river.e, river.s, river.w],
        ["road", "river", "road", "river"]
    );
    let d = tile(&import, "BA/RCr");
    assert_eq!(
        d.features_under("fields")[0].ports,
        [tiledef::Port::ENE, tiledef::Port::WNW]
    );
    assert_eq!(
        d.features_under("fields")[0].ports_under("cities"),
        [tiledef::Port::N]
    );
    let inner = tile(&import, "RP/CCcc");
    assert!(
        inner
            .features_under("fields")
            .iter()
            .all(|f| f.inner && f.ports.is_empty())
    );
    assert_eq!(inner.features_under("fields").len(), 2);
    // Half ports no field owns are empty, not dropped.
    use tiledef::Port::*;
    assert_eq!(tile(&import, "RP/Co").empty, [ESE, SSE, SSW, WSW]);
    assert!(tile(&import, "BA/RCr").empty.is_empty());
}

#[test]
fn markers_by_their_jcz_names() {
    let import = import_texts(&minis()).unwrap();
    let vocab = set(&import, "jcz");
    let marker = |id: &str| {
        vocab
            .markers
            .iter()
            .find(|m| m.id == id)
            .unwrap_or_else(|| panic!("no marker {id}"))
    };
    assert_eq!(marker("festival").rule, Some(MarkerRule::Festival));
    // A marker a bundled set declares is declared as that set does (The Festival's place), so
    // that the import loads beside it.
    assert_eq!(marker("festival").display.as_deref(), Some("#e0403a"));
    assert_eq!(marker("inn").on, MarkerPlace::named("road"));
    assert_eq!(marker("wine").icon, Some(MarkerIcon::Wine));
    assert_eq!(marker("colour-red").on, MarkerPlace::named("city"));
    assert_eq!(marker("colour-red").icon, None);
    assert_eq!(marker("gizmo").on, MarkerPlace::Tile);
    assert_eq!(marker("spring").icon, Some(MarkerIcon::Spring));
    assert_eq!(marker("pig-herd").on, MarkerPlace::named("field"));
    assert_eq!(vocab.edge_kinds[0].id, "river");
    assert_eq!(tile(&import, "MX/Tw!").markers, ["tower", "gizmo"]);
    assert_eq!(
        tile(&import, "MX/Tw!").features_under("roads")[0].markers,
        ["inn"]
    );
    assert_eq!(
        tile(&import, "MX/Tw!").features_under("fields")[1].markers,
        ["pig-herd"]
    );
    assert_eq!(
        tile(&import, "MX/Cw").features_under("cities")[0].markers,
        ["wine", "cathedral", "colour-red"]
    );
    assert_eq!(tile(&import, "MX/Sh").markers, ["shrine"]);
    assert!(tile(&import, "MX/Sh").has_site("monastery"));
    assert_eq!(tile(&import, "MX/s").markers, ["spring"]);
    assert_eq!(tile(&import, "MX/l").markers, ["lake"]);
    assert!(tile(&import, "MX/IRI").markers.is_empty());
}

#[test]
fn what_is_not_carried_over_is_reported() {
    let import = import_texts(&minis()).unwrap();
    let kinds = tilekit_jcz::count_kinds(&import.notes);
    let expected = [
        ("<feature-modifier>", 1),
        ("city@castle-base", 1),
        ("gizmo@size", 1),
        ("tile-set@max", 1),
        ("tile@max", 1),
        ("tile@wind-rose", 1),
        ("unreferenced tile", 1),
    ];
    assert_eq!(
        kinds,
        expected
            .map(|(k, n)| (k.to_string(), n))
            .into_iter()
            .collect()
    );
    let text = tilekit_jcz::report_text("report", "", &import.notes);
    assert!(
        text.contains("MX/Cw: tile@wind-rose \"NE\"; city@castle-base \"false\""),
        "{text}"
    );
    assert!(text.contains("    1  unreferenced tile"), "{text}");
}

#[test]
fn reprints_are_like_tiles_requiring_their_set() {
    let import = import_texts(&minis()).unwrap();
    let a = set(&import, "reprint-a");
    assert_eq!(a.tiles[0].like.as_deref(), Some("BA/L"));
    assert_eq!(a.tiles[0].id, "RP-BA-L");
    assert_eq!(a.tiles[0].count, Count::All(2));
    let b = set(&import, "reprint-b");
    assert_eq!(b.tiles[0].like.as_deref(), Some("RP/Co"));
    assert_eq!(b.tiles[0].count, Count::All(5));
    assert_eq!(b.set.requires, ["base", "reprint-a"]);
    // `<remove tile="BA/CR">` is carried over as `removes`, by the tile's tilekit id.
    assert_eq!(a.set.removes, ["BA-CR"]);
    // Imported alone, the reprint of BA/L requires the bundled base.
    let alone = import_texts(&[fixture("mini-reprint.xml")]).unwrap();
    assert_eq!(set(&alone, "reprint-a").set.requires, ["base"]);
}

#[test]
fn the_imported_fixtures_validate() {
    // Without the reprint fixture: `like`, empty ports and fields across the interior need
    // the checker of branch `format`.
    let inputs = [fixture("mini-basic.xml"), fixture("mini-expansion.xml")];
    let import = import_texts(&inputs).unwrap();
    let errors = errors(&import);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // An expansion alone validates against the bundled base.
    let alone = import_texts(&[fixture("mini-expansion.xml")]).unwrap();
    let errors = self::errors(&alone);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_imported_reprint_fixture_validates() {
    let import = import_texts(&minis()).unwrap();
    let errors = errors(&import);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn malformed_xml_names_its_line_and_column() {
    let err = import_texts(&[fixture("malformed.xml")]).unwrap_err();
    assert!(matches!(err, Error::Xml { line: 6, .. }), "{err:?}");
    assert!(err.to_string().starts_with("malformed.xml:6:"), "{err}");
}

#[test]
fn an_unknown_port_names_the_tile_and_the_value() {
    let err = import_texts(&[fixture("bad-port.xml")]).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("tile `BAD/2`"), "{text}");
    assert!(text.contains("`SX`"), "{text}");
    assert!(text.starts_with("bad-port.xml:4:"), "{text}");
}

#[test]
fn import_export_import_gives_the_same_definitions() {
    let first = import_texts(&minis()).unwrap();
    let second = common::round_trip(&first);
    assert_eq!(common::normalised(&second), common::normalised(&first));
}

/// `wagon-move` letters become `moves`: the features sharing a letter are one link, named by a
/// port (a city, a road) or the site's kind (the monastery), in the tile's feature order. A
/// letter on one feature links nothing and is reported, as is the attribute on a field; the
/// export writes the links back as letters.
#[test]
fn wagon_moves_are_links_of_features() {
    assert_eq!(
        tile(&import_texts(&minis()).unwrap(), "MX/FeR").moves,
        [["N", "S"]]
    );
    assert_eq!(
        tile(&import_texts(&minis()).unwrap(), "BA/LR").moves,
        [["S", "monastery"]]
    );
    let xml = r#"<defs><tiles>
      <tile id="WM/1">
        <road wagon-move="b a">W</road>
        <monastery wagon-move="a c"/>
        <city wagon-move="b c">N</city>
        <road wagon-move="d">E</road>
        <field city="N" wagon-move="e">WL SR SL EL</field>
        <field>ER WR</field>
      </tile></tiles>
      <sets><tile-set id="wm"><ref count="1" tile="WM/1"/></tile-set></sets></defs>"#;
    let import = import_texts(&[("wm.xml".to_string(), xml.to_string())]).unwrap();
    let moves = &tile(&import, "WM/1").moves;
    assert_eq!(moves, &[["W", "monastery"], ["N", "W"], ["N", "monastery"]]);
    let kinds = tilekit_jcz::count_kinds(&import.notes);
    assert_eq!(kinds.get("wagon-move"), Some(&1), "{kinds:?}");
    assert_eq!(kinds.get("field@wagon-move"), Some(&1), "{kinds:?}");
    let set = set(&import, "wm");
    let out = tilekit_jcz::export::export(std::slice::from_ref(set), &[], "x.xml").xml;
    let letters: Vec<(String, Option<&str>)> = out.tiles[0]
        .elements
        .iter()
        .map(|el| (format!("{} {}", el.name, el.text), el.attr("wagon-move")))
        .collect();
    assert!(
        letters.contains(&("road W".to_string(), Some("a b"))),
        "{letters:?}"
    );
    assert!(
        letters.contains(&("city N".to_string(), Some("b c"))),
        "{letters:?}"
    );
    assert!(
        letters.contains(&("monastery ".to_string(), Some("a c"))),
        "{letters:?}"
    );
    assert!(
        letters.contains(&("road E".to_string(), None)),
        "{letters:?}"
    );
}

#[test]
fn export_names_a_like_target_by_its_jcz_id() {
    let base: TileSetFile = toml::from_str(
        &(tiledef::bundled().into_iter())
            .find(|s| s.name == "definitions/base.toml")
            .unwrap()
            .text,
    )
    .unwrap();
    let reprint: TileSetFile = toml::from_str(
        r#"
format = 1
[set]
id = "reprint"
name = "Reprint"
requires = ["base"]
[[tile]]
id = "R-D"
like = "D"
count = 2
"#,
    )
    .unwrap();
    let xml = tilekit_jcz::export::export(&[reprint], &[base], "x.xml").xml;
    assert!(xml.tiles.is_empty(), "a reprint writes no tile of its own");
    assert_eq!(xml.sets[0].id, "reprint");
    assert_eq!(xml.sets[0].refs, [("BA/RCr".to_string(), 2)]);
}

#[test]
fn the_rules_jcz_knows_from_its_java_come_from_its_names() {
    use tiledef::model::{GroupDraw, PathRule, Rates, SpareStarts};
    let import = import_texts(&[fixture("mini-rules.xml")]).unwrap();
    let errors = errors(&import);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let vocab = set(&import, "jcz");
    // The river's placement rule.
    assert_eq!(vocab.edge_kinds[0].path, Some(PathRule::NoUTurn));
    // The groups: the river drawn first with one spring, the fork before it.
    let groups: Vec<(&str, GroupDraw, &[String], SpareStarts)> = vocab
        .groups
        .iter()
        .map(|g| (g.id.as_str(), g.draw, g.before.as_slice(), g.spare_starts))
        .collect();
    let river = ["river".to_string()];
    assert_eq!(
        groups,
        [
            ("river", GroupDraw::First, &[][..], SpareStarts::LeaveOut),
            (
                "river-fork",
                GroupDraw::First,
                &river[..],
                SpareStarts::Draw
            ),
        ]
    );
    let placed = |alias: &str| {
        let t = tile(&import, alias);
        (t.group.as_deref(), t.start, t.held_back)
    };
    assert_eq!(placed("MR/s"), (Some("river"), true, false));
    assert_eq!(placed("MR.1/l"), (Some("river"), false, true));
    assert_eq!(placed("MR.1/II"), (Some("river"), false, false));
    assert_eq!(placed("MR.2/III"), (Some("river-fork"), false, false));
    assert_eq!(placed("MR.2/l.v"), (Some("river"), false, true));
    // The second river reprints the spring as its start, and removes the first one's lake.
    let second = set(&import, "mriver-2");
    let spring = &second.tiles[0];
    assert_eq!(spring.like.as_deref(), Some("MR/s"));
    assert_eq!(
        (spring.group.as_deref(), spring.start),
        (Some("river"), true)
    );
    assert_eq!(second.set.removes, ["MR.1-l"]);
    assert_eq!(second.set.requires, ["base", "jcz", "mriver-1"]);
    // Inns, cathedrals and goods as JCZ scores them; the large follower with Inns & Cathedrals.
    let marker = |id: &str| vocab.markers.iter().find(|m| m.id == id).unwrap();
    let rates = |tile, pennant| Rates {
        tile: Some(tile),
        pennant,
        marker: None,
        bordered: None,
    };
    let inn = marker("inn").scoring.clone().unwrap();
    assert_eq!(
        (inn.complete, inn.unfinished),
        (Some(rates(2, None)), Some(rates(0, None)))
    );
    let cathedral = marker("cathedral").scoring.clone().unwrap();
    assert_eq!(
        (cathedral.complete, cathedral.unfinished),
        (Some(rates(3, Some(3))), Some(rates(0, Some(0))))
    );
    assert_eq!(marker("wine").token.as_ref().map(|t| t.points), Some(10));
    assert!(marker("volcano").scoring.is_none() && marker("volcano").token.is_none());
    let figures = &set(&import, "inns-and-cathedrals").figures;
    assert_eq!(
        figures
            .iter()
            .map(|f| (f.id.as_str(), f.count, f.strength))
            .collect::<Vec<_>>(),
        [("large-follower", 1, Some(tiledef::StrengthDef::Count(2)))]
    );
    assert!(set(&import, "goods").figures.is_empty());
    // Nothing of this is reported as not carried over.
    let kinds = tilekit_jcz::count_kinds(&import.notes);
    assert_eq!(kinds.keys().collect::<Vec<_>>(), ["tile@max"], "{kinds:?}");
    // And it survives export → import.
    let second = common::round_trip(&import);
    assert_eq!(common::normalised(&second), common::normalised(&import));
}

/// A file of one tile whose content is `<a>` elements nested `depth` deep.
fn nested(depth: usize) -> (String, String) {
    let text = format!(
        "<defs>\n<tiles>\n<tile id=\"X/1\">\n{}{}\n</tile>\n</tiles>\n\
         <sets><tile-set id=\"x\"><ref tile=\"X/1\" /></tile-set></sets>\n</defs>\n",
        "<a>".repeat(depth),
        "</a>".repeat(depth)
    );
    ("deep.xml".to_string(), text)
}

#[test]
fn a_document_nested_past_the_limit_is_refused_where_it_goes_too_deep() {
    // `defs`, `tiles` and `tile` are three levels: the first `<a>` too deep is the one that
    // makes `MAX_DEPTH + 1`, on line 4 at column 1 + 3 × (MAX_DEPTH - 3).
    let err = import_texts(&[nested(20_000)]).unwrap_err();
    let col = 1 + 3 * (MAX_DEPTH - 3);
    assert!(
        matches!(
            err,
            Error::TooDeep {
                line: 4,
                limit: MAX_DEPTH,
                ..
            }
        ),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(text.starts_with(&format!("deep.xml:4:{col}: ")), "{text}");
    assert!(text.contains(&MAX_DEPTH.to_string()), "{text}");
}

#[test]
fn a_document_nested_to_the_limit_is_read() {
    let import = import_texts(&[nested(MAX_DEPTH - 3)]).unwrap();
    assert_eq!(import.sets[0].set.tiles.len(), 1);
}

#[test]
fn a_reserve_tile_is_jczs_abbey() {
    // Abbey & Mayor's abbey: JCZ makes it in its Java, so an import of the family adds it (as
    // the bundled set declares it), an export writes no XML tile for it but says so, and an
    // add-on's `<expansion>` switches on JCZ's `abbey` element.
    let files: Vec<TileSetFile> = tiledef::bundled()
        .iter()
        .map(|s| toml::from_str(&s.text).expect("a bundled file parses"))
        .collect();
    let base = files.iter().find(|f| f.set.id == "base").expect("base");
    let am = files
        .iter()
        .find(|f| f.set.id == "abbey-and-mayor")
        .expect("A&M");
    let abbey = am
        .tiles
        .iter()
        .find(|t| t.reserve.is_some())
        .expect("the abbey");
    let (kinds, tiles) = tilekit_jcz::vocab::code_tiles("abbey-and-mayor");
    assert_eq!(tiles.len(), 1);
    assert_eq!(toml::to_string(&tiles[0]).ok(), toml::to_string(abbey).ok());
    assert!(kinds.iter().any(|k| k.id == "abbey-wall"));
    let out = tilekit_jcz::export::export(
        std::slice::from_ref(am),
        std::slice::from_ref(base),
        "x.xml",
    );
    assert!(
        out.xml.tiles.iter().all(|t| t.id != "AM/A"),
        "the abbey written as a tile"
    );
    assert!(
        (out.notes.iter()).any(|n| n.kind == "reserve" && n.tile.as_deref() == Some("AM-A")),
        "no note says the abbey is JCZ's own: {:?}",
        out.notes
    );
    let expansion = tilekit_jcz::addon::expansion(am, &[]);
    let implies: Vec<&str> = (expansion.children.iter())
        .filter(|c| c.name == "implies")
        .flat_map(|c| c.attrs.iter().map(|(_, v)| v.as_str()))
        .collect();
    assert!(implies.contains(&"abbey"), "{implies:?}");
}
