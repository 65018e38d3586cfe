use super::*;

/// The place at the `|` of a text (the `|` removed).
fn at(marked: &str) -> (Place, String) {
    let offset = marked.find('|').expect("a cursor");
    let text = marked.replacen('|', "", 1);
    (place_at(&text, offset), text)
}

fn key(marked: &str) -> (Vec<String>, Vec<String>, String) {
    match at(marked) {
        (
            Place::Key {
                table,
                written,
                word,
            },
            text,
        ) => (table, written, text[word].to_string()),
        (other, _) => panic!("not a key place: {other:?}"),
    }
}

fn value(marked: &str) -> (Vec<String>, bool, String) {
    match at(marked) {
        (Place::Value { key, quoted, word }, text) => (key, quoted, text[word].to_string()),
        (other, _) => panic!("not a value place: {other:?}"),
    }
}

fn path(p: &[&str]) -> Vec<String> {
    p.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_key_on_an_empty_line_and_a_half_typed_one_belong_to_their_table() {
    let (table, written, word) = key("format = 1\n[[tile]]\nid = \"A\"\n|\n");
    assert_eq!(
        (table, written, word),
        (path(&["tile"]), path(&["id"]), String::new())
    );
    let (table, _, word) = key("[[tile]]\nid = \"A\"\npenn|");
    assert_eq!((table, word), (path(&["tile"]), "penn".to_string()));
    let (table, _, word) = key("[set]\nid = \"x\"\n[[tile]]\nart.im|");
    assert_eq!((table, word), (path(&["tile", "art"]), "im".to_string()));
    let (table, _, _) = key("|");
    assert!(table.is_empty());
}

#[test]
fn keys_written_after_the_cursor_count_as_written() {
    let (_, written, _) = key("[[tile]]\n|\nid = \"A\"\nedges.n = \"city\"\n[[tile]]\ncount = 1\n");
    assert_eq!(written, path(&["id", "edges"]));
    let (_, written, _) = key("[[tile]]\nroads = [{ | ports = [\"S\", \"N\"], end = \"W\" }]");
    assert_eq!(written, path(&["ports", "end"]));
    let (_, written, _) = key("[[tile]]\nroads = [{ po| = [\"S\"], end = \"W\" }]");
    assert_eq!(written, path(&["end"]));
}

#[test]
fn keys_inside_inline_tables_in_arrays() {
    let (table, written, word) = key("[[tile]]\nroads = [{ ports = [\"N\"], e|");
    assert_eq!(table, path(&["tile", "roads"]));
    assert_eq!(written, path(&["ports"]));
    assert_eq!(word, "e");
    let (table, _, _) = key("[[tile]]\nroads = [{ ports = [\"N\", \"S\"] }, { |");
    assert_eq!(table, path(&["tile", "roads"]));
    let (table, _, _) = key("[[tile]]\nedges = { n = \"city\", |");
    assert_eq!(table, path(&["tile", "edges"]));
}

#[test]
fn values_say_their_key_and_whether_they_are_quoted() {
    assert_eq!(
        value("[[tile]]\nroads = [{ ports = [\"N\", \"S|"),
        (path(&["tile", "roads", "ports"]), true, "S".to_string())
    );
    assert_eq!(
        value("[[tile]]\nroads = [{ ports = [\"N\"], end = |"),
        (path(&["tile", "roads", "end"]), false, String::new())
    );
    assert_eq!(
        value("[[tile]]\nedges = { n = \"ci|\" }"),
        (path(&["tile", "edges", "n"]), true, "ci".to_string())
    );
    assert_eq!(
        value("[set]\nrequires = [\n  \"base\",\n  |\n]"),
        (path(&["set", "requires"]), false, String::new())
    );
    assert_eq!(
        value("[[tile]]\nfields = [{ ports = [\"NNW\"], flowers = ['yel|"),
        (
            path(&["tile", "fields", "flowers"]),
            true,
            "yel".to_string()
        )
    );
    assert_eq!(
        value("[[tile]]\ncities = [{ ports = [N|"),
        (path(&["tile", "cities", "ports"]), false, "N".to_string())
    );
}

#[test]
fn comments_strings_and_finished_values_are_nowhere() {
    assert_eq!(at("[[tile]]\n# roads = [|").0, Place::Nowhere);
    assert_eq!(at("[[tile]]\nid = \"A\" |").0, Place::Nowhere);
    assert_eq!(at("[[tile]]\nid |").0, Place::Nowhere);
    // Brackets and `#` inside strings are text, not structure.
    let (table, _, _) = key("[[tile]]\nname = \"[a] # {b\"\n|");
    assert_eq!(table, path(&["tile"]));
    let (table, _, _) = key("[set]\ndescription = \"\"\"\nline [x]\n\"\"\"\n|");
    assert_eq!(table, path(&["set"]));
}

#[test]
fn a_header_recovers_from_an_unclosed_array_above_it() {
    let (table, written, _) = key("[[tile]]\ncities = [{ ports = [\"N\"\n[[tile]]\nid = \"B\"\n|");
    assert_eq!(table, path(&["tile"]));
    assert_eq!(written, path(&["id"]));
    // A list of lists is not a header.
    assert_eq!(
        value("[[tile]]\n[tile.art]\nflowers = [\n[0.5, 0.5],\n|"),
        (path(&["tile", "art", "flowers"]), false, String::new())
    );
}

#[test]
fn headers_are_completed_as_typed() {
    match at("format = 1\n[[ti|") {
        (
            Place::Header {
                path,
                word,
                double,
                closed,
            },
            text,
        ) => {
            assert!(path.is_empty());
            assert_eq!(&text[word], "ti");
            assert!(double && !closed);
        }
        other => panic!("{other:?}"),
    }
    match at("[tile.|]") {
        (
            Place::Header {
                path: p, closed, ..
            },
            _,
        ) => {
            assert_eq!(p, path(&["tile"]));
            assert!(closed);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn hover_finds_the_key_under_the_cursor() {
    let text = "[[tile]]\nroads = [{ ports = [\"N\"], end = \"junction\" }]\n[tile.art]\nimage = \"a.png\"";
    let on = |needle: &str| {
        let offset = text.find(needle).unwrap() + 1;
        key_at(text, offset).map(|(p, _)| p)
    };
    assert_eq!(on("roads"), Some(path(&["tile", "roads"])));
    assert_eq!(on("end"), Some(path(&["tile", "roads", "end"])));
    assert_eq!(on("junction"), Some(path(&["tile", "roads", "end"])));
    assert_eq!(on("image"), Some(path(&["tile", "art", "image"])));
    assert_eq!(on("tile]]"), Some(path(&["tile"])));
    assert_eq!(on("art]"), Some(path(&["tile", "art"])));
}

#[test]
fn a_broken_file_still_declares_its_names() {
    let s = declared(
        "[set]\nid = \"mine\"\n[[edition]]\nid = \"E1\"\n[[edge_kind]]\nid = \"lava\"\n[[colour]]\nid = 'ash'\n[[tile]]\nid = \"X1\"\nedges = { n = \"",
    );
    assert_eq!(s.sets, ["mine"]);
    assert_eq!(s.edge_kinds, ["lava"]);
    assert_eq!(s.colours, ["ash"]);
    assert_eq!(s.tiles, ["X1"]);
    assert_eq!(s.editions, ["E1"]);
}

#[test]
fn an_unclosed_quote_in_a_header_ends_with_its_line() {
    // The cursor at the start of the line after `[tile."a`: the header ended with its line, so
    // a key of that table goes here (this sliced past the line's end and panicked).
    let (table, _, word) = key("[tile.\"a\n|");
    assert_eq!((table, word), (path(&["tile", "a"]), String::new()));
}
