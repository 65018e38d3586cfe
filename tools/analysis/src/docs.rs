//! The schema's documentation of a key, for hover: the descriptions the model's doc comments
//! put into the JSON Schema, found by walking the schema along a key path.

use serde_json::Value;
use std::sync::OnceLock;

/// The schema's description of the key at `path` (`["tile", "roads", "end"]`: array items are
/// stepped into on the way), or `None` when the schema has no such key.
pub fn key_doc(path: &[&str]) -> Option<String> {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    let root = SCHEMA.get_or_init(tiledef::json_schema);
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
    if let Some(extra) = at.get("additionalProperties").filter(|v| v.is_object()) {
        return property(root, extra, key);
    }
    None
}
