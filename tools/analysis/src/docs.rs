//! The schema's documentation of a key, for hover: the descriptions the model's doc comments
//! put into the JSON Schema, found by walking the schema along a key path.

use serde_json::Value;
use std::sync::OnceLock;

/// The schema's description of the key at `path` (`["tile", "roads", "end"]`: array items are
/// stepped into on the way), or `None` when the schema has no such key.
pub fn key_doc(path: &[&str]) -> Option<String> {
    let root = schema();
    let mut at = root;
    for key in path {
        at = property(root, at, key)?;
    }
    let described = |v: &Value| {
        v.get("description")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    described(at).or_else(|| described(resolve(root, at)))
}

/// Follows `$ref`s and a single-member `allOf`/`anyOf` wrapper.
fn resolve<'a>(root: &'a Value, mut at: &'a Value) -> &'a Value {
    for _ in 0..16 {
        if let Some(r) = at.get("$ref").and_then(Value::as_str) {
            let Some(found) = r.strip_prefix('#').and_then(|p| root.pointer(p)) else {
                return at;
            };
            at = found;
        } else {
            return at;
        }
    }
    at
}

/// The schema of `key` under `at`, looking through references, array items and alternatives.
fn property<'a>(root: &'a Value, at: &'a Value, key: &str) -> Option<&'a Value> {
    let at = resolve(root, at);
    if let Some(p) = at.get("properties").and_then(|p| p.get(key)) {
        // The description written at the use site (the field's doc) wins over the type's.
        return Some(p);
    }
    if let Some(items) = at.get("items") {
        return property(root, items, key);
    }
    for alt in ["anyOf", "oneOf", "allOf"] {
        if let Some(list) = at.get(alt).and_then(Value::as_array)
            && let Some(found) = list.iter().find_map(|s| property(root, s, key))
        {
            return Some(found);
        }
    }
    // A key of a map (`meets = { road = … }`): the map's value schema.
    if let Some(extra) = at.get("additionalProperties").filter(|v| v.is_object()) {
        return Some(extra);
    }
    None
}

/// How a key's value is written, for completing a table header or a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyShape {
    /// A single value (a number, a string, a list of them).
    Value,
    /// A table (`[set]`, `art = { … }`).
    Table,
    /// A list of tables (`[[tile]]`, `roads = [{ … }]`).
    Tables,
}

/// A key the schema allows in a table, with its description, for completion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyInfo {
    /// The key as written.
    pub name: String,
    /// The schema's description of it.
    pub doc: Option<String>,
    /// How its value is written.
    pub shape: KeyShape,
}

fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(tiledef::json_schema)
}

/// The schema at a key path (`[]` is the file itself).
fn at_path(path: &[&str]) -> Option<&'static Value> {
    let root = schema();
    path.iter()
        .try_fold(root, |at, key| property(root, at, key))
}

/// The alternatives a schema stands for: itself, through references, `anyOf`/`oneOf`/`allOf`
/// and (with `items`) array items, with `null` dropped.
fn alternatives(
    root: &'static Value,
    at: &'static Value,
    items: bool,
    out: &mut Vec<&'static Value>,
) {
    let at = resolve(root, at);
    if out.len() > 64 || out.iter().any(|v| std::ptr::eq(*v, at)) {
        return;
    }
    let mut nested = false;
    for alt in ["anyOf", "oneOf", "allOf"] {
        for s in at.get(alt).and_then(Value::as_array).into_iter().flatten() {
            nested = true;
            alternatives(root, s, items, out);
        }
    }
    if items && let Some(item) = at.get("items") {
        return alternatives(root, item, false, out);
    }
    if !nested || at.get("const").is_some() {
        out.push(at);
    }
}

/// The keys the schema allows in the table at `path` (`[]`: the top of a file,
/// `["tile", "roads"]`: a road), in alphabetical order.
pub fn keys_of(path: &[&str]) -> Vec<KeyInfo> {
    let root = schema();
    let Some(at) = at_path(path) else {
        return Vec::new();
    };
    let mut tables = Vec::new();
    alternatives(root, at, true, &mut tables);
    let mut keys: Vec<KeyInfo> = Vec::new();
    for table in tables {
        let Some(props) = table.get("properties").and_then(Value::as_object) else {
            continue;
        };
        for (name, schema) in props {
            if keys.iter().any(|k| &k.name == name) {
                continue;
            }
            keys.push(KeyInfo {
                name: name.clone(),
                doc: key_doc(&[path, &[name.as_str()]].concat()),
                shape: shape(root, schema),
            });
        }
    }
    keys
}

fn shape(root: &'static Value, schema: &'static Value) -> KeyShape {
    let mut alts = Vec::new();
    alternatives(root, schema, false, &mut alts);
    let is_table = |v: &Value| v.get("properties").is_some();
    if alts.iter().any(|v| is_table(v)) {
        return KeyShape::Table;
    }
    let mut items = Vec::new();
    for v in alts.iter().filter_map(|v| v.get("items")) {
        alternatives(root, v, false, &mut items);
    }
    if items.iter().any(|v| is_table(v)) {
        KeyShape::Tables
    } else {
        KeyShape::Value
    }
}

/// The values the schema names for the key at `path` (enum members and constants, with their
/// descriptions where the schema gives one; `true`/`false` for a flag), list items included:
/// `["tile", "roads", "end"]` gives `junction` … `W`, `["tile", "cities", "ports"]` the ports.
pub fn values_of(path: &[&str]) -> Vec<(String, Option<String>)> {
    let root = schema();
    let Some(at) = at_path(path) else {
        return Vec::new();
    };
    let mut alts = Vec::new();
    alternatives(root, at, true, &mut alts);
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let doc = |v: &Value| {
        v.get("description")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let mut values = Vec::new();
    for v in alts {
        if let Some(c) = v.get("const") {
            values.push((text(c), doc(v)));
        }
        for e in v
            .get("enum")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            values.push((text(e), None));
        }
        if v.get("type").and_then(Value::as_str) == Some("boolean") {
            values.extend([("true".to_string(), None), ("false".to_string(), None)]);
        }
    }
    values
}
