//! What an author writing their first `[[creature]]` is told about the shapes of its keys.

use std::path::Path;
use tiledef::Source;

fn base() -> Source {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    Source {
        name: "definitions/base.toml".to_string(),
        text: std::fs::read_to_string(root.join("definitions/base.toml")).expect("base exists"),
    }
}

/// A fan set whose creature eats `eats`, written as TOML.
fn eating(eats: &str) -> Source {
    Source {
        name: "troll.toml".to_string(),
        text: format!(
            r#"format = 1
[set]
id = "troll"
name = "Troll"
requires = ["base"]
[[marker]]
id = "cave"
name = "Cave"
on = "tile"
[[creature]]
id = "troll"
name = "Troll"
arrives = "cave"
eats = {eats}
[[tile]]
id = "TR-1"
count = 1
markers = ["cave"]
edges = {{ n = "field", e = "road", s = "field", w = "road" }}
roads = [{{ ports = ["W", "E"] }}]
fields = [{{ ports = ["WNW", "NNW", "NNE", "ENE"] }}, {{ ports = ["ESE", "SSE", "SSW", "WSW"] }}]
"#
        ),
    }
}

/// One figure id written as a string, not a list, is the author's likely slip: the hint shows
/// the list it should be, beside `all`, not "expected one of: all" alone.
#[test]
fn eats_one_figure_as_a_string_is_shown_the_list() {
    let report = tiledef::load(vec![base(), eating("\"follower\"")]);
    let d = (report.diagnostics.iter())
        .find(|d| d.code == "tilekit::schema")
        .unwrap_or_else(|| panic!("{:?}", report.diagnostics));
    let hint = d.hint.as_deref().unwrap_or_default();
    assert!(hint.contains("all"), "{hint}");
    assert!(hint.contains(r#"["follower"]"#), "{hint}");

    let report = tiledef::load(vec![base(), eating(r#"["follower"]"#)]);
    assert!(
        !report
            .diagnostics
            .iter()
            .any(|d| d.severity == tiledef::Severity::Error),
        "{:?}",
        report.diagnostics
    );
}

/// A creature's `moves` written as its marker alone (not the table it is) is told the shape it
/// should have, not "should be another type or another type".
#[test]
fn moves_written_as_a_string_is_told_it_is_a_table() {
    let d = moves_as_a_string();
    assert!(
        d.message
            .contains("`moves` should be a table, found a string"),
        "{}",
        d.message
    );
}

/// ... and shown the key's example as it is written in a file.
#[test]
fn a_key_of_the_wrong_shape_is_shown_its_example() {
    let d = moves_as_a_string();
    let hint = d.hint.as_deref().unwrap_or_default();
    assert!(
        hint.contains(r#"`moves = { after = "dragon", steps = 6 }`"#),
        "{hint}"
    );
}

/// A tile's `moves` written as one flat link (`["N", "S"]`, not `[["N", "S"]]`) is shown the
/// key's example, a list of links.
#[test]
fn flat_moves_are_shown_a_list_of_links() {
    let mut set = eating(r#"["follower"]"#);
    set.text = set.text.replace(
        "markers = [\"cave\"]",
        "markers = [\"cave\"]\nmoves = [\"W\", \"E\"]",
    );
    let report = tiledef::load(vec![base(), set]);
    let d = (report.diagnostics.iter())
        .find(|d| d.code == "tilekit::schema")
        .unwrap_or_else(|| panic!("{:?}", report.diagnostics));
    assert!(
        d.message.contains("`moves[0]` should be a list"),
        "{}",
        d.message
    );
    let hint = d.hint.as_deref().unwrap_or_default();
    assert!(hint.contains(r#"`moves = [["monastery", "N"]]`"#), "{hint}");
}

/// The schema's diagnostic of a creature whose `moves` is written as its marker alone.
fn moves_as_a_string() -> tiledef::Diagnostic {
    let mut set = eating(r#"["follower"]"#);
    set.text = set.text.replace("eats = [", "moves = \"cave\"\neats = [");
    let report = tiledef::load(vec![base(), set]);
    (report.diagnostics.iter())
        .find(|d| d.code == "tilekit::schema")
        .cloned()
        .unwrap_or_else(|| panic!("{:?}", report.diagnostics))
}
