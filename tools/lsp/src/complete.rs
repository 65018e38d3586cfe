//! What to offer at a place: keys and table names from the schema, the values the schema names
//! (ports, road ends, meetings, styles, flags), and the ids of the loaded vocabulary where a key
//! refers to it (edge kinds in `edges`, colours in `flowers`, markers in `markers`, sets in
//! `requires`, tiles in `like`, editions in `count` tables). Also the schema's docs of the key under the cursor, for hover.

use crate::context::{Place, key_at};
use crate::position::LineIndex;
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, Hover, HoverContents,
    MarkupContent, MarkupKind, Range, TextEdit,
};
use tiledef::{Port, Shape};
use tilekit_analysis::{KeyShape, Symbols, Vocabulary, key_doc, keys_of, values_of};

/// One thing to offer.
struct Offer {
    label: String,
    insert: String,
    kind: CompletionItemKind,
    doc: Option<String>,
}

/// The completions at a byte offset of a text, given the names the loaded files declare.
pub fn completions(
    text: &str,
    offset: usize,
    symbols: &Symbols,
    index: &LineIndex,
) -> Vec<CompletionItem> {
    let place = crate::context::place_at(text, offset);
    let (word, offers) = match &place {
        Place::Header {
            path,
            word,
            double,
            closed,
        } => (word.clone(), headers(path, *double, *closed)),
        Place::Key {
            table,
            written,
            word,
        } => (
            word.clone(),
            keys(table, written, symbols, &text[word.end..]),
        ),
        Place::Value { key, quoted, word } => {
            // Right after `=`: a space first.
            let space = if text[..word.start].ends_with('=') {
                " "
            } else {
                ""
            };
            (word.clone(), values(key, *quoted, space, symbols))
        }
        Place::Nowhere => return Vec::new(),
    };
    let range = Range::new(index.position(word.start), index.position(word.end));
    offers
        .into_iter()
        .enumerate()
        .map(|(i, o)| CompletionItem {
            detail: o
                .doc
                .as_ref()
                .and_then(|d| d.lines().next())
                .map(str::to_string),
            documentation: o.doc.map(|d| {
                Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: d,
                })
            }),
            kind: Some(o.kind),
            // The order offered is the schema's or the ring's, not the alphabet's.
            sort_text: Some(format!("{i:05}")),
            filter_text: Some(o.label.clone()),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(range, o.insert))),
            label: o.label,
            ..CompletionItem::default()
        })
        .collect()
}

fn strs(path: &[String]) -> Vec<&str> {
    path.iter().map(String::as_str).collect()
}

/// Table names for a header: the keys at `path` whose value is a table or a list of tables.
fn headers(path: &[String], double: bool, closed: bool) -> Vec<Offer> {
    keys_of(&strs(path))
        .into_iter()
        .filter(|k| k.shape != KeyShape::Value)
        .map(|k| {
            let close = match (closed, double) {
                (true, _) => "",
                (false, true) => "]]",
                (false, false) => "]",
            };
            Offer {
                insert: format!("{}{close}", k.name),
                label: k.name,
                kind: CompletionItemKind::MODULE,
                doc: k.doc,
            }
        })
        .collect()
}

/// Keys of a table: the schema's, less those already written; in `meets` the edge kinds, in
/// `art.markers` the markers, in a `count` table the editions.
fn keys(table: &[String], written: &[String], symbols: &Symbols, after: &str) -> Vec<Offer> {
    // An `=` already after the cursor: the key only.
    let eq = if after.trim_start_matches([' ', '\t']).starts_with('=') {
        ""
    } else {
        " = "
    };
    let ids = match strs(table).as_slice() {
        ["edge_kind", "meets"] => Some(&symbols.edge_kinds),
        ["tile", "art", "markers"] => Some(&symbols.markers),
        ["tile", "count"] => Some(&symbols.editions),
        _ => None,
    };
    if let Some(offers) = kind_keys(&strs(table), written, symbols, eq) {
        return offers;
    }
    if let Some(ids) = ids {
        return ids
            .iter()
            .filter(|id| !written.contains(id))
            .map(|id| Offer {
                label: id.clone(),
                insert: format!("{}{eq}", bare_or_quoted(id)),
                kind: CompletionItemKind::REFERENCE,
                doc: None,
            })
            .collect();
    }
    keys_of(&strs(table))
        .into_iter()
        .filter(|k| !written.contains(&k.name))
        .map(|k| Offer {
            insert: format!("{}{eq}", k.name),
            label: k.name,
            kind: CompletionItemKind::PROPERTY,
            doc: k.doc,
        })
        .collect()
}

/// The keys the kinds in scope add: a tile's keys for the sets' own kinds (`lakes`), and in a
/// feature of such a kind the keys its shape takes. `None` where the schema says it all.
fn kind_keys(
    table: &[&str],
    written: &[String],
    symbols: &Symbols,
    eq: &str,
) -> Option<Vec<Offer>> {
    if !matches!(table, ["tile"] | ["tile", _]) {
        return None;
    }
    let tile_keys = keys_of(&["tile"]);
    let in_schema = |key: &str| tile_keys.iter().any(|k| k.name == key);
    let offer = |name: &str, doc: Option<String>| Offer {
        label: name.to_string(),
        insert: format!("{name}{eq}"),
        kind: CompletionItemKind::PROPERTY,
        doc,
    };
    match table {
        ["tile"] => {
            let mut offers = (tile_keys.iter())
                .filter(|k| !written.contains(&k.name))
                .map(|k| offer(&k.name, k.doc.clone()))
                .collect::<Vec<_>>();
            offers.extend(
                (symbols.feature_kinds.iter())
                    .filter(|k| !in_schema(&k.key) && !written.contains(&k.key))
                    .map(|k| offer(&k.key, Some(k.sentence.clone()))),
            );
            Some(offers)
        }
        ["tile", key] if !in_schema(key) => {
            let kind = symbols.feature_kinds.iter().find(|k| k.key == *key)?;
            let mut names: Vec<String> = vec!["ports".into(), "markers".into()];
            names.extend(kind.emblem.clone());
            match kind.shape {
                Shape::Line => names.push("end".into()),
                Shape::Region => {
                    names.extend(["inner".into(), "flowers".into()]);
                    let areas = symbols
                        .feature_kinds
                        .iter()
                        .filter(|k| k.shape == Shape::Area);
                    names.extend(areas.map(|k| k.key.clone()));
                }
                Shape::Area | Shape::Site => {}
            }
            let offers = names
                .iter()
                .filter(|n| !written.contains(n))
                // A set's own kind's keys are the schema's `FeatureDef` (any tile key).
                .map(|n| offer(n, key_doc(&["tile", key, n])))
                .collect();
            Some(offers)
        }
        _ => None,
    }
}

/// A key as TOML writes it: bare when it can be.
fn bare_or_quoted(key: &str) -> String {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        key.to_string()
    } else {
        format!("{key:?}")
    }
}

/// The vocabulary a key's values name, if they name one.
fn vocabulary_of(key: &[&str]) -> Option<Vocabulary> {
    match key {
        ["tile", "edges", "n" | "e" | "s" | "w"] => Some(Vocabulary::EdgeKind),
        ["tile", _, "flowers"] => Some(Vocabulary::Colour),
        ["edge_kind", "centre" | "halves"] => Some(Vocabulary::FeatureKind),
        ["set", "requires"] => Some(Vocabulary::Set),
        ["tile", "like"] => Some(Vocabulary::Tile),
        [.., "markers"] if !key.contains(&"art") => Some(Vocabulary::Marker),
        _ => None,
    }
}

/// Values for a key: the loaded vocabulary's ids where the key names one, else what the schema
/// names (ports narrowed to those the feature can have).
fn values(key: &[String], quoted: bool, space: &str, symbols: &Symbols) -> Vec<Offer> {
    let k = strs(key);
    // An edge carries an area, a line, a region or nothing.
    let on_edges: Vec<String> = std::iter::once("none".to_string())
        .chain(
            (symbols.feature_kinds.iter())
                .filter(|k| k.shape != Shape::Site)
                .map(|k| k.id.clone()),
        )
        .collect();
    // Where a marker goes (`tile`, or a kind), where a figure stands, what an effect counts on.
    let kinds: Vec<String> = (symbols.feature_kinds.iter())
        .map(|k| k.id.clone())
        .collect();
    let places: Vec<String> = std::iter::once("tile".to_string())
        .chain(kinds.iter().cloned())
        .collect();
    let ids = match k.as_slice() {
        ["marker", "on"] => Some(&places),
        ["figure", "on"] | ["figure", "dealt", "with"] | ["effect", "on"] => Some(&kinds),
        _ => vocabulary_of(&k).map(|v| match v {
            Vocabulary::EdgeKind => &symbols.edge_kinds,
            Vocabulary::Colour => &symbols.colours,
            Vocabulary::Set => &symbols.sets,
            Vocabulary::Tile => &symbols.tiles,
            Vocabulary::Marker => &symbols.markers,
            Vocabulary::FeatureKind => &on_edges,
        }),
    };
    let schema: Vec<(String, Option<String>)>;
    let (names, kind): (Vec<(&str, Option<&str>)>, _) = match ids {
        Some(ids) => (
            ids.iter().map(|id| (id.as_str(), None)).collect(),
            CompletionItemKind::REFERENCE,
        ),
        None => {
            schema = line_ends(&k, symbols).unwrap_or_else(|| values_of(&k));
            // An area's or a line's ports are centre ports, a region's half ports.
            let ports = match k.as_slice() {
                ["tile", key, "ports"] => (symbols.feature_kinds.iter())
                    .find(|kind| kind.key == *key)
                    .and_then(|kind| match kind.shape {
                        Shape::Area | Shape::Line => Some(true),
                        Shape::Region => Some(false),
                        Shape::Site => None,
                    }),
                _ => None,
            };
            let fits = |v: &str| match (ports, Port::parse(v)) {
                (Some(centre), Some(port)) => port.is_centre() == centre,
                _ => true,
            };
            (
                schema
                    .iter()
                    .filter(|(v, _)| fits(v))
                    .map(|(v, d)| (v.as_str(), d.as_deref()))
                    .collect(),
                CompletionItemKind::ENUM_MEMBER,
            )
        }
    };
    names
        .into_iter()
        .map(|(name, doc)| {
            let literal = matches!(name, "true" | "false");
            let insert = if quoted || literal {
                name.to_string()
            } else {
                format!("{name:?}")
            };
            Offer {
                label: name.to_string(),
                insert: format!("{space}{insert}"),
                kind,
                doc: doc.map(str::to_string),
            }
        })
        .collect()
}

/// Where a line of a tile ends: the schema's words and bundled ids, and the areas and sites of
/// the kinds in scope; `None` off a line's `end`.
fn line_ends(key: &[&str], symbols: &Symbols) -> Option<Vec<(String, Option<String>)>> {
    let ["tile", _, "end"] = key else {
        return None;
    };
    let mut ends = values_of(key);
    for kind in
        (symbols.feature_kinds.iter()).filter(|k| matches!(k.shape, Shape::Area | Shape::Site))
    {
        if !ends.iter().any(|(v, _)| *v == kind.id) {
            ends.push((kind.id.clone(), Some(kind.sentence.clone())));
        }
    }
    Some(ends)
}

/// On the id of a vocabulary entry where it is used (`"lake"` in `edges`), its declaration as
/// written, from `definition` (file name, TOML); else the schema's docs of the key under a byte
/// offset (or of the key whose value it is on).
pub fn hover(
    text: &str,
    offset: usize,
    index: &LineIndex,
    definition: impl Fn(Vocabulary, &str) -> Option<(String, String)>,
    symbols: &Symbols,
) -> Option<Hover> {
    let (path, word) = key_at(text, offset)?;
    let on_value = (crate::context::place_at(text, word.end)).is_value();
    let used = (vocabulary_of(&strs(&path)))
        .filter(|_| on_value && !word.is_empty())
        .and_then(|v| definition(v, &text[word.clone()]));
    // On a tile's key of a set's own kind (`lakes`): the kind's declaration.
    let kind_key = match strs(&path).as_slice() {
        ["tile", key] if !on_value => symbols.feature_kinds.iter().find(|k| k.key == *key),
        _ => None,
    };
    let used = used.or_else(|| {
        let kind = kind_key.filter(|k| keys_of(&["tile"]).iter().all(|s| s.name != k.key))?;
        definition(Vocabulary::FeatureKind, &kind.id)
    });
    let value = match used {
        Some((file, toml)) => format!(
            "`{}`, declared in `{file}`:\n\n```toml\n{toml}```",
            &text[word.clone()]
        ),
        None => format!("`{}`\n\n{}", path.join("."), key_doc(&strs(&path))?),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(Range::new(
            index.position(word.start),
            index.position(word.end),
        )),
    })
}
