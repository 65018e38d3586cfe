//! Checking a parsed file against the JSON Schema, with errors turned into diagnostics.
//!
//! The schema is the one generated from `model`; the same file is shipped for editors, so an
//! author sees the same complaint in the editor and from `tilekit validate`. It is checked by
//! our own validator (`validator`) for the keywords it uses, not a general JSON Schema crate.

use crate::diagnostic::{Diagnostic, SharedSource};
use crate::source::{SpanMap, push_escaped};
use serde_json::Value;
use validator::ErrorKind;

mod validator;

/// The validator, for any schema that keeps to its keywords (the tests check what
/// `tilekit simulate --json` prints against its generated schema with it).
pub use validator::{SchemaError, ValidationError, Validator};

/// The JSON Schema of the format, as shipped in `definitions/schema/tileset.schema.json`: the
/// types' schema with the bundled sets' feature kinds written out, so that editors complete and
/// describe `cities`, `monastery` and `pennants` without the language server, and a typo in a
/// bundled kind's feature is the schema's error. A set's own kinds are any other key of a tile,
/// checked by `check`.
pub fn json_schema() -> Value {
    let mut schema = crate::model::types_schema();
    let files: Vec<crate::model::TileSetFile> = (crate::bundled().iter())
        .filter_map(|source| toml::from_str(&source.text).ok())
        .collect();
    let kinds = || {
        files
            .iter()
            .flat_map(|f| f.features.iter().map(|k| (k, &f.set.id)))
    };
    let markers = || files.iter().flat_map(|f| f.markers.iter());
    schema["$defs"]["FeatureDef"]["properties"]["end"] = line_end_schema(kinds(), markers());
    let areas: Vec<(&crate::model::FeatureKindDef, &String)> = kinds()
        .filter(|(k, _)| k.shape == crate::model::Shape::Area)
        .collect();
    for (kind, set) in kinds() {
        name_kind(&mut schema, kind, set, &areas);
    }
    schema
}

/// The JSON Schema as the pretty-printed text that is committed (with a final newline).
pub fn json_schema_text() -> String {
    let mut text =
        serde_json::to_string_pretty(&json_schema()).expect("a JSON value always serialises");
    text.push('\n');
    text
}

/// The schema of a line's `end`: the words every vocabulary has, the bundled areas, sites and
/// tile markers by id (documented, for completion), or any other id (a set's own).
fn line_end_schema<'k>(
    kinds: impl Iterator<Item = (&'k crate::model::FeatureKindDef, &'k String)>,
    markers: impl Iterator<Item = &'k crate::model::MarkerDef>,
) -> Value {
    use crate::model::{MarkerPlace, Shape};
    use serde_json::json;
    let mut choices = vec![
        json!({ "const": "junction", "description": "At a junction (crossroads, village)." }),
        json!({ "const": "marker", "description": "At one of the tile's markers (a jetty, a well, a spring, …)." }),
    ];
    for side in crate::port::Side::ALL {
        let port = side.centre().name();
        choices.push(json!({ "const": port, "description": format!("At this tile's own {port} edge, which carries no line (bushes, a river bank).") }));
    }
    for (kind, set) in kinds.filter(|(k, _)| matches!(k.shape, Shape::Area | Shape::Site)) {
        let what = kind.name.to_lowercase();
        choices.push(json!({ "const": kind.id, "description": format!("At the tile's {what} (set `{set}`).") }));
    }
    for marker in markers.filter(|m| m.on == MarkerPlace::Tile) {
        choices.push(json!({ "const": marker.id, "description": format!("At the tile's {} (a marker).", marker.name.to_lowercase()) }));
    }
    choices.push(json!({
        "type": "string",
        "pattern": "^[a-z][a-z0-9-]*$",
        "description": "The id of an area or site kind, or of a tile marker, of a set's own."
    }));
    json!({
        "description": "Where a line with one port ends inside the tile: `junction`; a side (`N`, `E`, `S`, `W`) of this tile whose edge carries no line; the id of an area or site kind on the tile (`city`: a gate; `monastery`; `marketplace`); `marker`; or the id of one of the tile's markers (`festival`).",
        "anyOf": choices,
    })
}

/// Writes a bundled kind out: its tile key, and the table of one of its features with exactly
/// the keys its shape takes (a region's left open: it also lists the areas of sets' own kinds).
fn name_kind(
    schema: &mut Value,
    kind: &crate::model::FeatureKindDef,
    set: &str,
    areas: &[(&crate::model::FeatureKindDef, &String)],
) {
    use crate::model::Shape;
    use serde_json::json;
    let key = kind.tile_key();
    let defs = &mut schema["$defs"];
    let generic = defs["FeatureDef"]["properties"].clone();
    let take = |names: &[&str]| -> serde_json::Map<String, Value> {
        names
            .iter()
            .filter_map(|n| generic.get(*n).map(|v| (n.to_string(), v.clone())))
            .collect()
    };
    let (shape, mut properties) = match kind.shape {
        Shape::Site => {
            let markers = generic.get("markers").cloned().unwrap_or(json!({}));
            defs["TileDef"]["properties"][&key] = json!({
                "anyOf": [
                    { "type": "boolean" },
                    {
                        "type": "object",
                        "additionalProperties": false,
                        "properties": { "markers": markers },
                    },
                ],
                "description": format!("{} (a site of the set `{set}`): `{key} = true` puts one on the tile; `{key} = {{ markers = [\"…\"] }}` one with markers on it.", kind.name),
            });
            return;
        }
        Shape::Area => ("an area", take(&["ports", "markers"])),
        Shape::Line => ("a line", take(&["ports", "end", "markers"])),
        Shape::Region => ("a region", take(&["ports", "inner", "flowers", "markers"])),
    };
    if let Some(emblem) = &kind.emblem {
        properties.insert(
            emblem.count_key(),
            json!({
                "type": "integer",
                "minimum": 0,
                "maximum": emblem.max.unwrap_or(crate::model::MAX_PENNANTS),
                "description": format!("{}s on this {} (at most {}).", emblem.name, kind.name.to_lowercase(), emblem.max.unwrap_or(crate::model::MAX_PENNANTS)),
            }),
        );
    }
    let mut table = json!({
        "type": "object",
        "description": format!("{} on a tile: {} of the set `{set}`.", kind.name, shape),
        "additionalProperties": false,
    });
    if kind.shape == Shape::Region {
        for (area, area_set) in areas {
            let area_key = area.tile_key();
            properties.insert(
                area_key.clone(),
                json!({
                    "type": "array",
                    "items": { "$ref": "#/$defs/Port" },
                    "description": format!("The {area_key} (set `{area_set}`) this {} borders, each named by one of its ports.", kind.name.to_lowercase()),
                }),
            );
        }
        // The areas of a set's own kinds (`forests = ["E"]`), and the lines and sites a region
        // borders (`roads = ["W"]`, `monastery = true`), checked by `check`.
        table["additionalProperties"] = json!({ "$ref": "#/$defs/KindValue" });
    }
    table["properties"] = Value::Object(properties);
    let name = format!("feature-{}", kind.id);
    defs[&name] = table;
    defs["TileDef"]["properties"][&key] = json!({
        "type": "array",
        "items": { "$ref": format!("#/$defs/{name}") },
        "description": format!("{} ({shape} of the set `{set}`): the tile's {key}, e.g. `{key} = [{{ ports = [\"N\"] }}]`.", kind.name),
    });
}

/// A compiled validator for the format's schema, with the schema kept for hints.
pub struct SchemaChecker {
    schema: Value,
    validator: Validator,
}

impl SchemaChecker {
    /// Compiles the schema. It is read from the committed copy (tested to equal the generated
    /// one): parsing that text costs a fraction of generating the schema from the types.
    pub fn new() -> SchemaChecker {
        let schema =
            serde_json::from_str(include_str!("../../definitions/schema/tileset.schema.json"))
                .unwrap_or_else(|_| json_schema());
        let validator = Validator::new(&schema)
            .expect("the schema uses only keywords the validator implements (tested)");
        SchemaChecker { schema, validator }
    }

    /// Checks one document; returns one diagnostic per problem.
    pub fn check(&self, value: &Value, spans: &SpanMap, source: &SharedSource) -> Vec<Diagnostic> {
        self.check_at(value, spans, source)
            .into_iter()
            .map(|(_, d)| d)
            .collect()
    }

    /// Checks one document; returns each problem with the JSON pointer of the value it is in.
    pub fn check_at(
        &self,
        value: &Value,
        spans: &SpanMap,
        source: &SharedSource,
    ) -> Vec<(String, Diagnostic)> {
        // The common case, a valid file, needs no error objects at all.
        if self.validator.is_valid(value) {
            return Vec::new();
        }
        let mut out: Vec<(String, Diagnostic)> = Vec::new();
        for error in self.validator.errors(value) {
            self.push(&error, value, spans, source, &mut out);
        }
        // Several schema branches may report the same spot; keep one per span and message.
        out.sort_by(|(_, a), (_, b)| (a.span.start, &a.message).cmp(&(b.span.start, &b.message)));
        out.dedup_by(|(_, a), (_, b)| a.span == b.span && a.message == b.message);
        out
    }

    fn push(
        &self,
        error: &ValidationError<'_>,
        root: &Value,
        spans: &SpanMap,
        source: &SharedSource,
        out: &mut Vec<(String, Diagnostic)>,
    ) {
        let pointer = error.instance_path().to_string();
        let place = describe(&pointer, root);
        let value_span = spans.value_span(&pointer);
        let d = |message: String| {
            Diagnostic::error("tilekit::schema", source, value_span.clone(), message)
        };
        let diagnostic = match error.kind() {
            ErrorKind::AdditionalProperties { unexpected } => {
                let allowed = self.allowed_keys(error.schema_path());
                for key in unexpected {
                    let mut key_pointer = pointer.clone();
                    key_pointer.push('/');
                    push_escaped(&mut key_pointer, key);
                    let mut diag = Diagnostic::error(
                        "tilekit::unknown-key",
                        source,
                        spans.key_span(&key_pointer),
                        format!("unknown key `{key}` in {place}"),
                    )
                    .label("not a key here");
                    diag.hint = Some(match closest(key, &allowed) {
                        Some(best) => format!("did you mean `{best}`?"),
                        None => format!("the keys allowed here are: {}", allowed.join(", ")),
                    });
                    out.push((pointer.clone(), diag));
                }
                return;
            }
            ErrorKind::Required { property } => {
                let name = *property;
                d(format!("{place} is missing the key `{name}`"))
                    .label(format!("`{name}` is required here"))
                    .hint(required_hint(name))
            }
            ErrorKind::Type { .. } => self.wrong_type(error, &pointer, &place, d),
            ErrorKind::Enum { options } => {
                let choices: Vec<String> = options
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                not_one_of(d, error.instance(), &place, &choices)
            }
            ErrorKind::AnyOf { context } | ErrorKind::OneOfNotValid { context }
                if error.instance().is_string() && constants(context).is_some() =>
            {
                let choices = enum_choices(context, error.instance());
                not_one_of(d, error.instance(), &place, &choices)
            }
            ErrorKind::AnyOf { context } | ErrorKind::OneOfNotValid { context } => {
                // Report the branch that matched the value's type: its complaints are the
                // helpful ones ("count 0 is below 1", not "not a table").
                let best = context
                    .iter()
                    .filter(|branch| !branch.is_empty())
                    .min_by_key(|branch| {
                        let types = || {
                            (branch.iter()).filter(|e| matches!(e.kind(), ErrorKind::Type { .. }))
                        };
                        // A branch of another type than the value's is the worst; among those
                        // of its type, the one with the fewest wrong types inside.
                        let own = types().filter(|e| e.instance_path() == pointer).count();
                        (own, types().count())
                    });
                match best {
                    Some(branch)
                        if !branch.iter().all(|e| {
                            matches!(e.kind(), ErrorKind::Type { .. })
                                && e.instance_path() == pointer
                        }) =>
                    {
                        for e in branch {
                            self.push(e, root, spans, source, out);
                        }
                        return;
                    }
                    _ => d(format!(
                        "{place} should be {}, found {}",
                        self.branch_types(error.schema_path()),
                        kind_of(error.instance())
                    ))
                    .hint(
                        (error.schema_path().strip_suffix("/anyOf"))
                            .and_then(|p| self.example_hint(p, &pointer))
                            .unwrap_or_else(|| shape_hint(&pointer)),
                    ),
                }
            }
            ErrorKind::Minimum { limit } => {
                d(format!("{place} must be at least {limit}")).label("too small")
            }
            ErrorKind::Maximum { limit } => {
                d(format!("{place} must be at most {limit}")).label("too large")
            }
            ErrorKind::MinItems { limit } => {
                let d = d(format!("{place} needs at least {limit} item(s)")).label("too few");
                match empty_list_hint(&pointer) {
                    Some(hint) => d.hint(hint),
                    None => d,
                }
            }
            ErrorKind::MaxItems { limit } => {
                d(format!("{place} takes at most {limit} item(s)")).label("too many")
            }
            ErrorKind::Pattern { pattern } => {
                d(format!("{place} is not in the expected form (`{pattern}`)"))
                    .label("does not match")
                    .hint(pattern_hint(pattern))
            }
            _ => d(format!("{place}: {error}")),
        };
        out.push((pointer, diagnostic));
    }

    /// The keys a table accepts, read from the schema next to an `additionalProperties` error.
    fn allowed_keys(&self, schema_path: &str) -> Vec<String> {
        let parent = schema_path
            .strip_suffix("/additionalProperties")
            .unwrap_or(schema_path);
        self.schema
            .pointer(&format!("{parent}/properties"))
            .and_then(Value::as_object)
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The diagnostic for a value of the wrong JSON type.
    fn wrong_type(
        &self,
        error: &ValidationError<'_>,
        pointer: &str,
        place: &str,
        d: impl Fn(String) -> Diagnostic,
    ) -> Diagnostic {
        let expected = if pointer.ends_with("/art/image") {
            "a string (a path to a PNG)".to_string()
        } else {
            self.expected_type(error.schema_path())
        };
        let d = d(format!(
            "{place} should be {expected}, found {}",
            kind_of(error.instance())
        ))
        .label(format!("expected {expected}"));
        // An item of a list of the wrong shape (a flat `moves = ["N", "S"]`): the list's
        // example shows the nesting.
        let list = error.schema_path().split_once("/items").map(|(p, _)| p);
        match list.and_then(|p| self.example_hint(p, pointer)) {
            Some(hint) => d.hint(hint),
            None => d,
        }
    }

    /// The first example of the key whose schema is at `property`, written as in a file:
    /// "write it as in its example: `moves = { after = "dragon", steps = 6 }`".
    fn example_hint(&self, property: &str, pointer: &str) -> Option<String> {
        let example = (self.schema.pointer(&format!("{property}/examples")))
            .and_then(Value::as_array)
            .and_then(|e| e.first())?;
        let key = (pointer.rsplit('/')).find(|s| s.parse::<usize>().is_err())?;
        Some(format!(
            "write it as in its example: `{key} = {}`",
            toml_inline(example)
        ))
    }

    /// The types an `anyOf` accepts, read from its branches: "a whole number or a table". A
    /// branch that refers to a definition (`$ref`, a creature's `moves`) is that definition's
    /// type; an optional key's `null` branch is no choice.
    fn branch_types(&self, schema_path: &str) -> String {
        let branches = self.schema.pointer(schema_path).and_then(Value::as_array);
        let names: Vec<String> = branches
            .into_iter()
            .flatten()
            .enumerate()
            .filter(|(_, b)| b.get("type").and_then(Value::as_str) != Some("null"))
            .map(|(i, b)| match b.get("$ref").and_then(Value::as_str) {
                Some(target) => {
                    let target = target.trim_start_matches('#');
                    self.expected_type(&format!("{target}/type"))
                }
                None => self.expected_type(&format!("{schema_path}/{i}/type")),
            })
            .collect();
        if names.is_empty() {
            "of another shape".to_string()
        } else {
            names.join(" or ")
        }
    }

    fn expected_type(&self, schema_path: &str) -> String {
        let name = |t: &Value| match t.as_str() {
            Some("integer") => "a whole number",
            Some("number") => "a number",
            Some("string") => "a string",
            Some("boolean") => "true or false",
            Some("array") => "a list `[…]`",
            Some("object") => "a table",
            _ => "another type",
        };
        match self.schema.pointer(schema_path) {
            // An optional key's `null` is how a missing key looks to the schema, not a choice.
            Some(Value::Array(types)) => types
                .iter()
                .filter(|t| t.as_str() != Some("null"))
                .map(name)
                .collect::<Vec<_>>()
                .join(" or "),
            Some(t) => name(t).to_string(),
            None => "another type".to_string(),
        }
    }
}

impl Default for SchemaChecker {
    fn default() -> Self {
        SchemaChecker::new()
    }
}

/// Names the place a pointer leads to, in the author's terms: "tile `D`, `cities[0].pennants`".
pub fn describe(pointer: &str, root: &Value) -> String {
    let segments: Vec<&str> = pointer.split('/').skip(1).collect();
    if segments.is_empty() {
        return "the file".to_string();
    }
    let mut out = String::new();
    let mut rest = &segments[..];
    if segments.len() >= 2
        && let Ok(index) = segments[1].parse::<usize>()
    {
        let table = segments[0];
        let id = root
            .pointer(&format!("/{table}/{index}/id"))
            .and_then(Value::as_str);
        out = match id {
            Some(id) => format!("{table} `{id}`"),
            None => format!("{table} #{}", index + 1),
        };
        rest = &segments[2..];
    }
    let mut path = String::new();
    for segment in rest {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        if segment.parse::<usize>().is_ok() {
            path.push_str(&format!("[{segment}]"));
        } else {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&segment);
        }
    }
    if !path.is_empty() {
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(&format!("`{path}`"));
    }
    out
}

/// The diagnostic for a string that is none of the allowed values, with every value named or the
/// likely one suggested.
fn not_one_of(
    d: impl Fn(String) -> Diagnostic,
    found: &Value,
    place: &str,
    choices: &[String],
) -> Diagnostic {
    let found = found.as_str().unwrap_or("this value");
    let mut diag =
        d(format!("`{found}` is not allowed for {place}")).label("not one of the allowed values");
    let is_port = choices.iter().any(|c| c == "NNW") && choices.iter().any(|c| c == "WNW");
    diag.hint = Some(
        match (
            is_port.then(|| port_hint(found)).flatten(),
            closest(found, choices),
        ) {
            (Some(hint), _) => hint,
            (None, Some(best)) if is_port => format!("did you mean `{best}`?"),
            (None, Some(best)) => format!(
                "did you mean `{best}`? The allowed values are: {}",
                choices.join(", ")
            ),
            (None, None) => format!("expected one of: {}", choices.join(", ")),
        },
    );
    diag
}

/// The constants of an enum written as a `oneOf` of `const`s (possibly inside an optional's
/// `anyOf`), read from the errors of its branches; `None` if a branch is anything else.
fn constants(branches: &[Vec<ValidationError<'_>>]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for branch in branches {
        for e in branch {
            match e.kind() {
                ErrorKind::Constant { expected_value } => {
                    out.push(expected_value.as_str()?.to_string());
                }
                ErrorKind::AnyOf { context } | ErrorKind::OneOfNotValid { context } => {
                    out.extend(constants(context)?)
                }
                // The `null` branch of an optional value.
                ErrorKind::Type { .. } => {}
                _ => return None,
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// What a string that is none of an enum's documented values may be instead: every constant
/// (not the first branch's "`festival` was expected"), a table alternative (the pig's
/// `{ bonus = { … } }`), and a list holding the value written (a creature's `eats`: one id
/// written as a string is the likely slip).
fn enum_choices(context: &[Vec<ValidationError<'_>>], found: &Value) -> Vec<String> {
    let mut choices = constants(context).unwrap_or_default();
    if takes_table(context) {
        choices.push("a table (see the key's description)".to_string());
    }
    if takes("array", context) {
        let found = found.as_str().unwrap_or("…");
        choices.push(format!("a list: `[\"{found}\"]`"));
    }
    choices
}

/// Whether one of an enum's branches takes a table (its value failed it as no table).
fn takes_table(branches: &[Vec<ValidationError<'_>>]) -> bool {
    takes("object", branches)
}

/// Whether one of an enum's branches takes a value of the JSON type `name` (its value failed
/// it as no such value).
fn takes(name: &str, branches: &[Vec<ValidationError<'_>>]) -> bool {
    (branches.iter().flatten()).any(|e| match e.kind() {
        ErrorKind::Type { expected } => expected.names().any(|n| n == name),
        ErrorKind::AnyOf { context } | ErrorKind::OneOfNotValid { context } => takes(name, context),
        _ => false,
    })
}

/// What an author who wrote a port name of another convention meant: JCloisterZone's half
/// edges (`WL` = `WSW`), or a corner (`NE`), which is two ports.
fn port_hint(found: &str) -> Option<String> {
    let upper = found.to_ascii_uppercase();
    let jcz = match upper.as_str() {
        "NL" => Some("NNW"),
        "NR" => Some("NNE"),
        "EL" => Some("ENE"),
        "ER" => Some("ESE"),
        "SL" => Some("SSE"),
        "SR" => Some("SSW"),
        "WL" => Some("WSW"),
        "WR" => Some("WNW"),
        _ => None,
    };
    if let Some(port) = jcz {
        return Some(format!(
            "did you mean `{port}`? (JCloisterZone's `{found}`)"
        ));
    }
    let corner = match upper.as_str() {
        "NE" => Some(("NNE", "ENE")),
        "SE" => Some(("ESE", "SSE")),
        "SW" => Some(("SSW", "WSW")),
        "NW" => Some(("WNW", "NNW")),
        _ => None,
    };
    corner.map(|(a, b)| {
        format!("`{found}` is a corner, where two ports meet: did you mean `{a}` or `{b}`?")
    })
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a decimal number",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a table",
    }
}

/// The closest candidate by edit distance, if it is close enough to be a likely typo.
pub fn closest<'a, S: AsRef<str>>(word: &str, candidates: &'a [S]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| {
            let c = c.as_ref();
            (
                strsim::damerau_levenshtein(&word.to_lowercase(), &c.to_lowercase()),
                c,
            )
        })
        .filter(|(distance, c)| *distance <= (c.len().max(word.len()) / 3).max(1))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, c)| c)
}

fn required_hint(key: &str) -> String {
    match key {
        "format" => "start the file with `format = 1`".to_string(),
        "set" => "add a `[set]` table with `id` and `name`".to_string(),
        "edges" => "add e.g. `edges = { n = \"city\", e = \"road\", s = \"field\", w = \"road\" }`"
            .to_string(),
        "count" => "add `count = 1`, or a count per edition such as `count = { C1 = 2, C2 = 1 }`"
            .to_string(),
        "ports" => "list the ports it leaves the tile by, e.g. `ports = [\"N\"]`".to_string(),
        other => format!("add `{other} = …`"),
    }
}

/// What to write instead of an empty list where leaving the key out means something else: a
/// figure's empty `on` would read as "wherever a follower may", which an author writing `[]`
/// did not say.
fn empty_list_hint(pointer: &str) -> Option<&'static str> {
    (pointer.starts_with("/figure/") && pointer.ends_with("/on")).then_some(
        "name the kinds it stands on (`on = [\"city\"]`), or leave `on` out for every kind a follower may stand on",
    )
}

/// A JSON value as TOML writes it inline: `{ after = "dragon", steps = 6 }`.
fn toml_inline(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let pairs: Vec<String> = (map.iter())
                .map(|(k, v)| format!("{k} = {}", toml_inline(v)))
                .collect();
            format!("{{ {} }}", pairs.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(toml_inline).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

fn shape_hint(pointer: &str) -> String {
    if pointer.ends_with("/count") {
        "write a number (`count = 2`) or a number per edition (`count = { C1 = 2, C2 = 1 }`)"
            .to_string()
    } else {
        "see the schema (`tilekit schema`) for the expected form".to_string()
    }
}

fn pattern_hint(pattern: &str) -> String {
    if pattern.contains("0-9a-fA-F") {
        "write a colour as `#rrggbb`, e.g. `#8fc7ea`".to_string()
    } else {
        "ids use lower-case letters, digits and `-` (tile ids may also use capitals, `.`, `_`, `+`)"
            .to_string()
    }
}
