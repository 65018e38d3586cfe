//! `TileSetFile` → TOML text laid out as the bundled definitions are: one `[[tile]]` table per
//! tile, its keys in the model's order with inline values, an array of tables one per line.
//! The values are written by the `toml` crate (its inline serialiser), so the model stays the
//! source of truth; only the layout is ours.

use serde::Serialize;
use tiledef::model::TileSetFile;

/// Writes a set as TOML. `header` lines become comments after the `#:schema` line.
pub fn to_toml(file: &TileSetFile, schema: &str, header: &[String]) -> Result<String, String> {
    let mut out = format!("#:schema {schema}\n");
    for line in header {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str(&format!("format = {}\n\n[set]\n", file.format));
    table_body(&mut out, &file.set)?;
    let section = |out: &mut String, name: &str, item: &dyn ErasedSerialize| {
        out.push_str(&format!("\n[[{name}]]\n"));
        table_body_dyn(out, item)
    };
    for e in &file.editions {
        section(&mut out, "edition", e)?;
    }
    for k in &file.features {
        section(&mut out, "feature", k)?;
    }
    for e in &file.edge_kinds {
        section(&mut out, "edge_kind", e)?;
    }
    for c in &file.colours {
        section(&mut out, "colour", c)?;
    }
    for m in &file.markers {
        section(&mut out, "marker", m)?;
    }
    for f in &file.figures {
        section(&mut out, "figure", f)?;
    }
    for g in &file.groups {
        section(&mut out, "group", g)?;
    }
    for e in &file.effects {
        section(&mut out, "effect", e)?;
    }
    for c in &file.creatures {
        section(&mut out, "creature", c)?;
    }
    for t in &file.tiles {
        section(&mut out, "tile", t)?;
    }
    Ok(out)
}

/// Object-safe serialisation to an inline TOML value.
trait ErasedSerialize {
    fn inline(&self) -> Result<String, String>;
}

impl<T: Serialize> ErasedSerialize for T {
    fn inline(&self) -> Result<String, String> {
        let mut s = String::new();
        self.serialize(toml::ser::ValueSerializer::new(&mut s))
            .map_err(|e| e.to_string())?;
        Ok(s)
    }
}

fn table_body(out: &mut String, item: &impl Serialize) -> Result<(), String> {
    table_body_dyn(out, item)
}

fn table_body_dyn(out: &mut String, item: &dyn ErasedSerialize) -> Result<(), String> {
    let inline = item.inline()?;
    let inner = inline
        .trim()
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .ok_or_else(|| format!("not a table: {inline}"))?;
    for entry in split_top(inner) {
        let (key, value) = entry
            .split_once(" = ")
            .ok_or_else(|| format!("not a key = value: {entry}"))?;
        let value = value.trim();
        // An array of tables too long for one line gets one table per line.
        let long = key.len() + value.len() + 3 > 100;
        match value
            .strip_prefix("[{")
            .and_then(|v| v.strip_suffix("}]"))
            .filter(|_| long)
        {
            Some(items) => {
                out.push_str(&format!("{key} = [\n"));
                for item in split_top(&format!("{{{items}}}")) {
                    out.push_str(&format!("  {item},\n"));
                }
                out.push_str("]\n");
            }
            None => out.push_str(&format!("{key} = {value}\n")),
        }
    }
    Ok(())
}

/// Splits `a = 1, b = [2, 3], c = { d = "x, y" }` at its top-level commas.
fn split_top(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' && q == '"' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = text[start..].trim();
    if !last.is_empty() {
        parts.push(last.to_string());
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::split_top;

    #[test]
    fn splits_only_at_top_level_commas() {
        assert_eq!(
            split_top(r#"a = 1, b = [2, 3], c = { d = "x, \"y" }, e = 'p, q'"#),
            vec![
                "a = 1",
                "b = [2, 3]",
                r#"c = { d = "x, \"y" }"#,
                "e = 'p, q'"
            ]
        );
    }
}
