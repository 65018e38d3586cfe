//! Reading TOML with spans: the document becomes a JSON value (for the schema and serde) plus a
//! map from JSON pointer to the byte spans of each key and value (for diagnostics).

use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// One definitions file: its name as shown to the author, and its text.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name diagnostics show (a path as given, or `definitions/base.toml` for bundled data).
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// Where a key and its value stand in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spans {
    /// The key's span, when the value is a table entry.
    pub key: Option<Range<usize>>,
    /// The value's span.
    pub value: Range<usize>,
}

/// Spans by JSON pointer (`/tile/3/fields/0/ports/1`).
///
/// Built lazily, on the first question: spans are needed only to report a problem, and building
/// them for every value of a valid file would cost more than the rest of loading.
#[derive(Clone, Debug, Default)]
pub struct SpanMap {
    text: std::sync::Arc<str>,
    spans: OnceLock<HashMap<String, Spans>>,
}

impl SpanMap {
    /// A span map over a document's text.
    pub fn new(text: std::sync::Arc<str>) -> SpanMap {
        SpanMap {
            text,
            spans: OnceLock::new(),
        }
    }

    fn spans(&self) -> &HashMap<String, Spans> {
        self.spans.get_or_init(|| {
            let (root, _) = DeTable::parse_recoverable(&self.text);
            let mut spans = HashMap::new();
            let len = self.text.len();
            spans.insert(
                String::new(),
                Spans {
                    key: None,
                    value: clamp(root.span(), len),
                },
            );
            let mut pointer = String::new();
            let mut sink = Some(&mut spans);
            table_to_json(root.get_ref(), &mut pointer, &mut sink, len);
            spans
        })
    }

    /// The spans of the value at a pointer.
    pub fn get(&self, pointer: &str) -> Option<&Spans> {
        self.spans().get(pointer)
    }

    /// The span of the value at `pointer`, or of its nearest ancestor that has one.
    pub fn value_span(&self, pointer: &str) -> Range<usize> {
        self.nearest(pointer)
            .map(|s| s.value.clone())
            .unwrap_or(0..0)
    }

    /// The span of the key at `pointer` (falling back to its value, then to ancestors).
    pub fn key_span(&self, pointer: &str) -> Range<usize> {
        self.nearest(pointer)
            .map(|s| s.key.clone().unwrap_or_else(|| s.value.clone()))
            .unwrap_or(0..0)
    }

    fn nearest(&self, pointer: &str) -> Option<&Spans> {
        let mut p = pointer;
        loop {
            if let Some(s) = self.spans().get(p) {
                return Some(s);
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return None,
            }
        }
    }
}

/// A TOML syntax error with its span.
#[derive(Clone, Debug)]
pub struct SyntaxError {
    /// The parser's message.
    pub message: String,
    /// Where it happened.
    pub span: Range<usize>,
}

/// Parses TOML into a JSON value and its span map, collecting every syntax error.
pub fn parse(text: &str) -> (Value, SpanMap, Vec<SyntaxError>) {
    let (root, errors) = DeTable::parse_recoverable(text);
    let errors = errors
        .into_iter()
        .map(|e| SyntaxError {
            message: e.message().trim().to_string(),
            span: clamp(e.span().unwrap_or(0..0), text.len()),
        })
        .collect();
    let mut pointer = String::new();
    let value = table_to_json(root.get_ref(), &mut pointer, &mut None, text.len());
    (value, SpanMap::new(std::sync::Arc::from(text)), errors)
}

/// Where spans go while converting: `None` when only the value is wanted.
type Sink<'a> = Option<&'a mut HashMap<String, Spans>>;

fn clamp(span: Range<usize>, len: usize) -> Range<usize> {
    let start = span.start.min(len);
    start..span.end.clamp(start, len)
}

fn table_to_json(
    table: &DeTable<'_>,
    pointer: &mut String,
    sink: &mut Sink<'_>,
    len: usize,
) -> Value {
    let mut object = Map::new();
    for (key, value) in table {
        let base = pointer.len();
        if let Some(spans) = sink.as_deref_mut() {
            pointer.push('/');
            push_escaped(pointer, key.get_ref());
            spans.insert(
                pointer.clone(),
                Spans {
                    key: Some(clamp(key.span(), len)),
                    value: clamp(value.span(), len),
                },
            );
        }
        let json = value_to_json(value, pointer, sink, len);
        pointer.truncate(base);
        object.insert(key.get_ref().to_string(), json);
    }
    Value::Object(object)
}

fn value_to_json(
    value: &Spanned<DeValue<'_>>,
    pointer: &mut String,
    sink: &mut Sink<'_>,
    len: usize,
) -> Value {
    match value.get_ref() {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => {
            let digits: String = i.as_str().chars().filter(|&c| c != '_').collect();
            match i64::from_str_radix(&digits, i.radix()) {
                Ok(n) => Value::Number(n.into()),
                // Beyond i64: keep it a number, however rounded, so that the schema reports it
                // out of range rather than of the wrong type.
                Err(_) => {
                    let (sign, magnitude) = match digits.strip_prefix('-') {
                        Some(m) => (-1.0, m),
                        None => (1.0, digits.trim_start_matches('+')),
                    };
                    let approx =
                        u128::from_str_radix(magnitude, i.radix()).map_or(f64::MAX, |n| n as f64);
                    Number::from_f64(sign * approx)
                        .map(Value::Number)
                        .unwrap_or_else(|| Value::String(i.as_str().to_string()))
                }
            }
        }
        DeValue::Float(f) => {
            let text: String = f.as_str().chars().filter(|&c| c != '_').collect();
            text.parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .map(Value::Number)
                .unwrap_or_else(|| Value::String(f.as_str().to_string()))
        }
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                let base = pointer.len();
                if let Some(spans) = sink.as_deref_mut() {
                    pointer.push('/');
                    pointer.push_str(&index.to_string());
                    spans.insert(
                        pointer.clone(),
                        Spans {
                            key: None,
                            value: clamp(item.span(), len),
                        },
                    );
                }
                out.push(value_to_json(item, pointer, sink, len));
                pointer.truncate(base);
            }
            Value::Array(out)
        }
        DeValue::Table(table) => table_to_json(table, pointer, sink, len),
    }
}

/// Appends a JSON pointer segment, escaped (`~` → `~0`, `/` → `~1`).
pub fn push_escaped(pointer: &mut String, segment: &str) {
    for c in segment.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_at_keys_and_values() {
        let text = "format = 1\n[[tile]]\nid = \"A\"\nedges = { n = \"road\" }\n";
        let (value, map, errors) = parse(text);
        assert!(errors.is_empty());
        assert_eq!(value["tile"][0]["id"], "A");
        let id = map.get("/tile/0/id").unwrap();
        assert_eq!(&text[id.value.clone()], "\"A\"");
        assert_eq!(&text[id.key.clone().unwrap()], "id");
        let n = map.get("/tile/0/edges/n").unwrap();
        assert_eq!(&text[n.value.clone()], "\"road\"");
    }

    #[test]
    fn syntax_errors_are_collected_with_spans() {
        let (_, _, errors) = parse("format = \n[set]\nid = 'x\n");
        assert!(!errors.is_empty());
        for e in errors {
            assert!(e.span.end <= 25);
        }
    }
}
