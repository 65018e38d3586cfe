//! A JSON Schema (draft 2020-12) validator for exactly the keywords the format's schema uses.
//!
//! The schema is generated from our own types, so a general validator would spend most of the
//! first build on features it never meets. This one compiles the schema once (`$ref`s resolved
//! to node indices, patterns compiled by `regex-lite`), answers `is_valid` without allocating,
//! and only for an invalid document collects errors that carry what a general validator's do:
//! the value's JSON pointer, the failing keyword's pointer in the schema document (through a
//! `$ref`, the target's own location, e.g. `/$defs/Count/anyOf`), the value and the reason.
//! A keyword it does not implement is refused when the schema is compiled, never ignored.

use crate::source::push_escaped;
use regex_lite::Regex;
use serde_json::{Map, Number, Value};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;

/// The keywords that decide validity, all implemented here, in the order a node checks them
/// (jsonschema's: cheap assertions first, then those that walk into subschemas), so that errors
/// come in the same order.
pub const ASSERTIONS: &[&str] = &[
    "type",
    "const",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "required",
    "pattern",
    "properties",
    "additionalProperties",
    "items",
    "anyOf",
    "oneOf",
    "$ref",
];

/// The keywords that only annotate (draft 2020-12 does not assert `format` by default); `$defs`
/// holds schemas, each compiled.
pub const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$defs",
    "title",
    "description",
    "examples",
    "default",
    "format",
];

/// A schema the validator cannot compile: a keyword it does not implement, or a malformed one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The JSON pointer of the offending keyword or subschema in the schema document.
    pub at: String,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "schema at `{}`: {}", self.at, self.message)
    }
}

impl std::error::Error for SchemaError {}

/// A compiled schema.
#[derive(Debug)]
pub struct Validator {
    nodes: Vec<Node>,
}

/// One subschema: its keywords, in the order they are checked (see `rank`).
#[derive(Debug, Default)]
struct Node {
    keywords: Vec<Keyword>,
}

/// One assertion or applicator, with its pointer in the schema document.
#[derive(Debug)]
struct Keyword {
    path: String,
    check: Check,
}

/// What a keyword checks; the applicators name their subschemas by node index.
#[derive(Debug)]
enum Check {
    Ref(usize),
    Items(usize),
    /// Property names sorted, each with its node; whether `additionalProperties` is `false`
    /// (then `is_valid` refuses other keys here, in the same pass).
    Properties(Vec<(String, usize)>, bool),
    /// The sibling `properties`' names, sorted; `None` for `false`, else the extra keys' schema.
    AdditionalProperties(Vec<String>, Option<usize>),
    Required(Vec<String>),
    AnyOf(Vec<usize>),
    /// The branches; where each is a string `const`, the strings, sorted, for `is_valid`.
    OneOf(Vec<usize>, Option<Vec<String>>),
    Assert(Assertion),
}

/// A keyword that looks at the value alone, not at subschemas.
#[derive(Debug)]
enum Assertion {
    Type(Types),
    Const(Value),
    Enum(Value),
    Minimum(Value),
    Maximum(Value),
    MinItems(u64),
    MaxItems(u64),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Regex, String),
}

/// A set of JSON types, one bit each in the order of `TYPE_NAMES`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Types(u8);

/// The type names, one bit each in this order (jsonschema's, so that messages list them alike).
const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "integer", "number", "string", "array", "object",
];

impl Types {
    const NULL: u8 = 1;
    const BOOLEAN: u8 = 1 << 1;
    const INTEGER: u8 = 1 << 2;
    const NUMBER: u8 = 1 << 3;
    const STRING: u8 = 1 << 4;
    const ARRAY: u8 = 1 << 5;
    const OBJECT: u8 = 1 << 6;

    fn named(name: &str) -> Option<Types> {
        TYPE_NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Types(1 << i))
    }

    /// Whether the value is of one of the types; a number with no fraction is an integer.
    fn accepts(self, value: &Value) -> bool {
        let bits = match value {
            Value::Null => Types::NULL,
            Value::Bool(_) => Types::BOOLEAN,
            Value::Number(n) if is_integer(n) => Types::NUMBER | Types::INTEGER,
            Value::Number(_) => Types::NUMBER,
            Value::String(_) => Types::STRING,
            Value::Array(_) => Types::ARRAY,
            Value::Object(_) => Types::OBJECT,
        };
        self.0 & bits != 0
    }

    /// The types' names, in the order of `TYPE_NAMES`.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        TYPE_NAMES
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| *n)
    }
}

/// One reason a value fails the schema, as a general validator reports it.
#[derive(Debug)]
pub struct ValidationError<'a> {
    instance_path: String,
    schema_path: &'a str,
    instance: &'a Value,
    kind: ErrorKind<'a>,
}

/// Why a value fails, by keyword; the applicators carry the errors of each branch.
#[derive(Debug)]
pub enum ErrorKind<'a> {
    /// `additionalProperties: false`: the keys no `properties` entry names, in the value's order.
    AdditionalProperties { unexpected: Vec<String> },
    /// `required`: one missing key.
    Required { property: &'a str },
    /// `type`: the value is none of these types.
    Type { expected: Types },
    /// `enum`: the value is none of the options (the schema's array).
    Enum { options: &'a Value },
    /// `const`: the value is not this one.
    Constant { expected_value: &'a Value },
    /// `anyOf`: no branch holds; the errors of each branch.
    AnyOf {
        context: Vec<Vec<ValidationError<'a>>>,
    },
    /// `oneOf`: no branch holds; the errors of each branch.
    OneOfNotValid {
        context: Vec<Vec<ValidationError<'a>>>,
    },
    /// `oneOf`: more than one branch holds.
    OneOfMultipleValid,
    /// `minimum`: the number is below the limit.
    Minimum { limit: &'a Value },
    /// `maximum`: the number is above the limit.
    Maximum { limit: &'a Value },
    /// `minItems`: the list is shorter.
    MinItems { limit: u64 },
    /// `maxItems`: the list is longer.
    MaxItems { limit: u64 },
    /// `minLength`: the string has fewer characters (Unicode code points).
    MinLength { limit: u64 },
    /// `maxLength`: the string has more characters (Unicode code points).
    MaxLength { limit: u64 },
    /// `pattern`: the string does not match the regular expression.
    Pattern { pattern: &'a str },
}

impl<'a> ValidationError<'a> {
    /// The JSON pointer of the failing value in the document (`""` for the root).
    pub fn instance_path(&self) -> &str {
        &self.instance_path
    }

    /// The JSON pointer of the failing keyword in the schema document.
    pub fn schema_path(&self) -> &'a str {
        self.schema_path
    }

    /// The failing value.
    pub fn instance(&self) -> &'a Value {
        self.instance
    }

    /// Why it fails.
    pub fn kind(&self) -> &ErrorKind<'a> {
        &self.kind
    }
}

impl fmt::Display for ValidationError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.instance;
        let plural = |n: u64| if n == 1 { "" } else { "s" };
        match &self.kind {
            ErrorKind::AdditionalProperties { unexpected } => {
                let keys: Vec<String> = unexpected.iter().map(|k| format!("'{k}'")).collect();
                let verb = if keys.len() == 1 { "was" } else { "were" };
                write!(
                    f,
                    "Additional properties are not allowed ({} {verb} unexpected)",
                    keys.join(", ")
                )
            }
            ErrorKind::Required { property } => write!(f, "\"{property}\" is a required property"),
            ErrorKind::Type { expected } => {
                let names: Vec<String> = expected.names().map(|n| format!("\"{n}\"")).collect();
                match names.len() {
                    1 => write!(f, "{value} is not of type {}", names[0]),
                    _ => write!(f, "{value} is not of types {}", names.join(", ")),
                }
            }
            ErrorKind::Enum { options } => write_enum(f, value, options),
            ErrorKind::Constant { expected_value } => write!(f, "{expected_value} was expected"),
            ErrorKind::AnyOf { .. } => write!(
                f,
                "{value} is not valid under any of the schemas listed in the 'anyOf' keyword"
            ),
            ErrorKind::OneOfNotValid { .. } => write!(
                f,
                "{value} is not valid under any of the schemas listed in the 'oneOf' keyword"
            ),
            ErrorKind::OneOfMultipleValid => write!(
                f,
                "{value} is valid under more than one of the schemas listed in the 'oneOf' keyword"
            ),
            ErrorKind::Minimum { limit } => {
                write!(f, "{value} is less than the minimum of {limit}")
            }
            ErrorKind::Maximum { limit } => {
                write!(f, "{value} is greater than the maximum of {limit}")
            }
            ErrorKind::MinItems { limit } => {
                write!(f, "{value} has less than {limit} item{}", plural(*limit))
            }
            ErrorKind::MaxItems { limit } => {
                write!(f, "{value} has more than {limit} item{}", plural(*limit))
            }
            ErrorKind::MinLength { limit } => {
                write!(
                    f,
                    "{value} is shorter than {limit} character{}",
                    plural(*limit)
                )
            }
            ErrorKind::MaxLength { limit } => {
                write!(
                    f,
                    "{value} is longer than {limit} character{}",
                    plural(*limit)
                )
            }
            ErrorKind::Pattern { pattern } => write!(f, "{value} does not match \"{pattern}\""),
        }
    }
}

/// "`value` is not one of a, b or c", or past three options "a, b or 10 other candidates".
fn write_enum(f: &mut fmt::Formatter<'_>, value: &Value, options: &Value) -> fmt::Result {
    let options = options.as_array().map(Vec::as_slice).unwrap_or_default();
    write!(f, "{value} is not one of ")?;
    let shown = if options.len() <= 3 { options.len() } else { 2 };
    for (i, option) in options[..shown].iter().enumerate() {
        let separator = match i {
            0 => "",
            _ if i + 1 == options.len() => " or ",
            _ => ", ",
        };
        write!(f, "{separator}{option}")?;
    }
    match options.len() - shown {
        0 => Ok(()),
        rest => write!(f, " or {rest} other candidates"),
    }
}

/// Where a value is in the document: steps kept on the stack, written out as a JSON pointer only
/// when an error is made.
#[derive(Clone, Copy)]
enum Place<'p> {
    Root,
    Key(&'p Place<'p>, &'p str),
    Index(&'p Place<'p>, usize),
}

impl Place<'_> {
    fn pointer(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Place::Root => {}
            Place::Key(parent, key) => {
                parent.write(out);
                out.push('/');
                push_escaped(out, key);
            }
            Place::Index(parent, index) => {
                parent.write(out);
                out.push('/');
                out.push_str(&index.to_string());
            }
        }
    }
}

impl Validator {
    /// Compiles a schema document; refuses keywords outside `ASSERTIONS` and `ANNOTATIONS`.
    pub fn new(schema: &Value) -> Result<Validator, SchemaError> {
        let mut compiler = Compiler {
            root: schema,
            nodes: Vec::new(),
            by_pointer: HashMap::new(),
        };
        compiler.node("")?;
        compiler.definitions()?;
        Ok(Validator {
            nodes: compiler.nodes,
        })
    }

    /// Whether the value satisfies the schema; allocates nothing.
    pub fn is_valid(&self, value: &Value) -> bool {
        self.valid(0, value)
    }

    /// Every reason the value fails the schema (none if it is valid).
    pub fn errors<'a>(&'a self, value: &'a Value) -> Vec<ValidationError<'a>> {
        let mut out = Vec::new();
        self.collect(0, value, &Place::Root, &mut out);
        out
    }

    fn valid(&self, node: usize, value: &Value) -> bool {
        self.nodes[node]
            .keywords
            .iter()
            .all(|k| self.keyword_valid(&k.check, value))
    }

    fn keyword_valid(&self, check: &Check, value: &Value) -> bool {
        match check {
            Check::Ref(target) => self.valid(*target, value),
            Check::Items(item) => value
                .as_array()
                .is_none_or(|items| items.iter().all(|v| self.valid(*item, v))),
            Check::Properties(properties, closed) => value.as_object().is_none_or(|object| {
                object
                    .iter()
                    .all(|(key, v)| match property(properties, key) {
                        Some(node) => self.valid(node, v),
                        None => !closed,
                    })
            }),
            // Unknown keys next to `properties` were refused by it.
            Check::AdditionalProperties(known, None) => {
                !known.is_empty() || value.as_object().is_none_or(Map::is_empty)
            }
            Check::AdditionalProperties(known, Some(node)) => value
                .as_object()
                .is_none_or(|object| extra_keys(object, known).all(|(_, v)| self.valid(*node, v))),
            Check::Required(names) => value
                .as_object()
                .is_none_or(|object| names.iter().all(|n| object.contains_key(n))),
            Check::AnyOf(branches) => branches.iter().any(|b| self.valid(*b, value)),
            Check::OneOf(_, Some(strings)) => value
                .as_str()
                .is_some_and(|s| strings.binary_search_by(|c| c.as_str().cmp(s)).is_ok()),
            Check::OneOf(branches, None) => self.count_valid(branches, value) == 1,
            Check::Assert(assertion) => assertion_holds(assertion, value),
        }
    }

    /// How many branches hold, counting no further than two.
    fn count_valid(&self, branches: &[usize], value: &Value) -> usize {
        branches
            .iter()
            .filter(|b| self.valid(**b, value))
            .take(2)
            .count()
    }

    fn collect<'a>(
        &'a self,
        node: usize,
        value: &'a Value,
        place: &Place<'_>,
        out: &mut Vec<ValidationError<'a>>,
    ) {
        for keyword in &self.nodes[node].keywords {
            self.collect_keyword(keyword, value, place, out);
        }
    }

    fn collect_keyword<'a>(
        &'a self,
        keyword: &'a Keyword,
        value: &'a Value,
        place: &Place<'_>,
        out: &mut Vec<ValidationError<'a>>,
    ) {
        let error = |kind| ValidationError {
            instance_path: place.pointer(),
            schema_path: &keyword.path,
            instance: value,
            kind,
        };
        match &keyword.check {
            Check::Ref(target) => self.collect(*target, value, place, out),
            Check::Items(item) => self.collect_items(*item, value, place, out),
            Check::Properties(properties, _) => {
                self.collect_properties(properties, value, place, out);
            }
            Check::AdditionalProperties(known, Some(node)) => {
                self.collect_extra(known, *node, value, place, out);
            }
            Check::AdditionalProperties(known, None) => {
                let unexpected = unexpected(known, value);
                if !unexpected.is_empty() {
                    out.push(error(ErrorKind::AdditionalProperties { unexpected }));
                }
            }
            Check::Required(names) => {
                for property in missing(names, value) {
                    out.push(error(ErrorKind::Required { property }));
                }
            }
            Check::AnyOf(branches) if !self.keyword_valid(&keyword.check, value) => {
                let context = self.branch_errors(branches, value, place);
                out.push(error(ErrorKind::AnyOf { context }));
            }
            Check::OneOf(branches, _) => match self.count_valid(branches, value) {
                0 => {
                    let context = self.branch_errors(branches, value, place);
                    out.push(error(ErrorKind::OneOfNotValid { context }));
                }
                1 => {}
                _ => out.push(error(ErrorKind::OneOfMultipleValid)),
            },
            Check::AnyOf(_) => {}
            Check::Assert(assertion) => {
                if !assertion_holds(assertion, value) {
                    out.push(error(assertion_error(assertion)));
                }
            }
        }
    }

    fn collect_items<'a>(
        &'a self,
        item: usize,
        value: &'a Value,
        place: &Place<'_>,
        out: &mut Vec<ValidationError<'a>>,
    ) {
        for (i, v) in value.as_array().into_iter().flatten().enumerate() {
            self.collect(item, v, &Place::Index(place, i), out);
        }
    }

    /// The errors of the keys no `properties` entry names, against `additionalProperties`.
    fn collect_extra<'a>(
        &'a self,
        known: &[String],
        node: usize,
        value: &'a Value,
        place: &Place<'_>,
        out: &mut Vec<ValidationError<'a>>,
    ) {
        for (key, v) in value
            .as_object()
            .into_iter()
            .flat_map(|o| extra_keys(o, known))
        {
            self.collect(node, v, &Place::Key(place, key), out);
        }
    }

    fn collect_properties<'a>(
        &'a self,
        properties: &[(String, usize)],
        value: &'a Value,
        place: &Place<'_>,
        out: &mut Vec<ValidationError<'a>>,
    ) {
        for (key, v) in value.as_object().into_iter().flatten() {
            if let Some(node) = property(properties, key) {
                self.collect(node, v, &Place::Key(place, key), out);
            }
        }
    }

    fn branch_errors<'a>(
        &'a self,
        branches: &[usize],
        value: &'a Value,
        place: &Place<'_>,
    ) -> Vec<Vec<ValidationError<'a>>> {
        branches
            .iter()
            .map(|b| {
                let mut errors = Vec::new();
                self.collect(*b, value, place, &mut errors);
                errors
            })
            .collect()
    }
}

/// The node of a property, if the schema names it.
fn property(properties: &[(String, usize)], key: &str) -> Option<usize> {
    properties
        .binary_search_by(|(name, _)| name.as_str().cmp(key))
        .ok()
        .map(|i| properties[i].1)
}

/// The members of an object whose keys are not among the (sorted) known names.
fn extra_keys<'v>(
    object: &'v Map<String, Value>,
    known: &[String],
) -> impl Iterator<Item = (&'v String, &'v Value)> {
    object
        .iter()
        .filter(|(key, _)| known.binary_search_by(|k| k.as_str().cmp(key)).is_err())
}

/// The keys of an object that no `properties` entry names, in the object's order.
fn unexpected(known: &[String], value: &Value) -> Vec<String> {
    value
        .as_object()
        .into_iter()
        .flat_map(|o| extra_keys(o, known))
        .map(|(key, _)| key.clone())
        .collect()
}

/// The required keys an object lacks (none for another value), in the schema's order.
fn missing<'a>(names: &'a [String], value: &'a Value) -> impl Iterator<Item = &'a str> {
    let object = value.as_object();
    names
        .iter()
        .filter(move |name| object.is_some_and(|o| !o.contains_key(*name)))
        .map(String::as_str)
}

/// Whether an assertion holds. Each but `type`, `const` and `enum` applies to values of its own
/// type only, as JSON Schema's keywords do.
fn assertion_holds(assertion: &Assertion, value: &Value) -> bool {
    use Assertion as A;
    match (assertion, value) {
        (A::Type(types), _) => types.accepts(value),
        (A::Const(expected), _) => equal(expected, value),
        (A::Enum(options), _) => options
            .as_array()
            .is_some_and(|o| o.iter().any(|option| equal(option, value))),
        (A::Minimum(limit), Value::Number(n)) => {
            compare_limit(n, limit).is_some_and(Ordering::is_ge)
        }
        (A::Maximum(limit), Value::Number(n)) => {
            compare_limit(n, limit).is_some_and(Ordering::is_le)
        }
        (A::MinItems(limit), Value::Array(items)) => items.len() as u64 >= *limit,
        (A::MaxItems(limit), Value::Array(items)) => items.len() as u64 <= *limit,
        (A::MinLength(limit), Value::String(s)) => s.chars().count() as u64 >= *limit,
        (A::MaxLength(limit), Value::String(s)) => s.chars().count() as u64 <= *limit,
        (A::Pattern(regex, _), Value::String(s)) => regex.is_match(s),
        _ => true,
    }
}

/// The error of an assertion that does not hold.
fn assertion_error(assertion: &Assertion) -> ErrorKind<'_> {
    use Assertion as A;
    match assertion {
        A::Type(types) => ErrorKind::Type { expected: *types },
        A::Const(expected_value) => ErrorKind::Constant { expected_value },
        A::Enum(options) => ErrorKind::Enum { options },
        A::Minimum(limit) => ErrorKind::Minimum { limit },
        A::Maximum(limit) => ErrorKind::Maximum { limit },
        A::MinItems(limit) => ErrorKind::MinItems { limit: *limit },
        A::MaxItems(limit) => ErrorKind::MaxItems { limit: *limit },
        A::MinLength(limit) => ErrorKind::MinLength { limit: *limit },
        A::MaxLength(limit) => ErrorKind::MaxLength { limit: *limit },
        A::Pattern(_, pattern) => ErrorKind::Pattern { pattern },
    }
}

/// A number's value, exact for every integer serde_json holds.
enum Num {
    Int(i128),
    Float(f64),
}

fn num(n: &Number) -> Num {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => Num::Int(i128::from(u)),
        (_, Some(i)) => Num::Int(i128::from(i)),
        _ => Num::Float(n.as_f64().unwrap_or(f64::NAN)),
    }
}

/// Whether a number has no fraction: `2` and `2.0` are integers, as JSON Schema has it.
fn is_integer(n: &Number) -> bool {
    match num(n) {
        Num::Int(_) => true,
        Num::Float(f) => f.fract() == 0.0,
    }
}

/// Compares two numbers exactly, whatever mix of unsigned, signed and float they are.
fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (num(a), num(b)) {
        (Num::Int(x), Num::Int(y)) => Some(x.cmp(&y)),
        (Num::Float(x), Num::Float(y)) => x.partial_cmp(&y),
        (Num::Float(x), Num::Int(y)) => compare_float_int(x, y),
        (Num::Int(x), Num::Float(y)) => compare_float_int(y, x).map(Ordering::reverse),
    }
}

/// Compares a float with an integer of u64 or i64 range, without rounding the integer.
fn compare_float_int(x: f64, y: i128) -> Option<Ordering> {
    const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
    const MINUS_TWO_POW_63: f64 = -9_223_372_036_854_775_808.0;
    if x.is_nan() {
        return None;
    }
    if x >= TWO_POW_64 {
        return Some(Ordering::Greater);
    }
    if x < MINUS_TWO_POW_63 {
        return Some(Ordering::Less);
    }
    let whole = x.trunc();
    // In range, a whole f64 converts to i128 exactly.
    let fraction = x.partial_cmp(&whole)?;
    Some((whole as i128).cmp(&y).then(fraction))
}

fn compare_limit(n: &Number, limit: &Value) -> Option<Ordering> {
    limit.as_number().and_then(|l| compare(n, l))
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Some(Ordering::Equal),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|b| equal(a, b)))
        }
        _ => a == b,
    }
}

/// Compiles subschemas into nodes, each once, by its pointer in the document.
struct Compiler<'s> {
    root: &'s Value,
    nodes: Vec<Node>,
    by_pointer: HashMap<String, usize>,
}

impl<'s> Compiler<'s> {
    /// The node of the subschema at a pointer, compiled on first use (a slot is taken first, so
    /// a recursive `$ref` finds it).
    fn node(&mut self, pointer: &str) -> Result<usize, SchemaError> {
        if let Some(index) = self.by_pointer.get(pointer) {
            return Ok(*index);
        }
        let schema = self
            .root
            .pointer(pointer)
            .ok_or_else(|| fail(pointer, "no schema here"))?;
        let Value::Object(schema) = schema else {
            return Err(fail(pointer, "a subschema must be an object"));
        };
        let index = self.nodes.len();
        self.nodes.push(Node::default());
        self.by_pointer.insert(pointer.to_string(), index);
        let mut keywords = Vec::with_capacity(schema.len());
        for (name, value) in schema {
            let path = join(pointer, name);
            if let Some(check) = self.keyword(schema, name, value, &path)? {
                keywords.push(Keyword { path, check });
            }
        }
        let fused = required_after_additional(schema);
        keywords.sort_by_key(|k| rank(&k.path, fused));
        self.nodes[index].keywords = keywords;
        Ok(index)
    }

    /// Compiles every `$defs` entry, used or not, so that none holds an unknown keyword.
    fn definitions(&mut self) -> Result<(), SchemaError> {
        let names: Vec<String> = match self.root.get("$defs") {
            Some(Value::Object(defs)) => defs.keys().cloned().collect(),
            Some(_) => return Err(fail("/$defs", "not an object")),
            None => Vec::new(),
        };
        for name in names {
            self.node(&join("/$defs", &name))?;
        }
        Ok(())
    }

    /// One keyword; `None` for an annotation.
    fn keyword(
        &mut self,
        schema: &Map<String, Value>,
        name: &str,
        value: &Value,
        path: &str,
    ) -> Result<Option<Check>, SchemaError> {
        use Assertion as A;
        let check = match name {
            "$ref" => Check::Ref(self.reference(value, path)?),
            "items" => Check::Items(self.node(path)?),
            "properties" => Check::Properties(
                self.properties(value, path)?,
                schema.get("additionalProperties") == Some(&Value::Bool(false)),
            ),
            "additionalProperties" => self.additional(schema, value, path)?,
            "required" => Check::Required(strings(value, path)?),
            "anyOf" => Check::AnyOf(self.branches(value, path)?),
            "oneOf" => {
                let branches = self.branches(value, path)?;
                let strings = self.string_constants(&branches);
                Check::OneOf(branches, strings)
            }
            "type" => Check::Assert(A::Type(types(value, path)?)),
            "const" => Check::Assert(A::Const(value.clone())),
            "enum" if value.is_array() => Check::Assert(A::Enum(value.clone())),
            "minimum" if value.is_number() => Check::Assert(A::Minimum(value.clone())),
            "maximum" if value.is_number() => Check::Assert(A::Maximum(value.clone())),
            "minItems" => Check::Assert(A::MinItems(count(value, path)?)),
            "maxItems" => Check::Assert(A::MaxItems(count(value, path)?)),
            "minLength" => Check::Assert(A::MinLength(count(value, path)?)),
            "maxLength" => Check::Assert(A::MaxLength(count(value, path)?)),
            "pattern" => Check::Assert(pattern(value, path)?),
            _ if ANNOTATIONS.contains(&name) => return Ok(None),
            _ if ASSERTIONS.contains(&name) => return Err(fail(path, "malformed")),
            _ => return Err(fail(path, "a keyword this validator does not implement")),
        };
        Ok(Some(check))
    }

    fn reference(&mut self, value: &Value, path: &str) -> Result<usize, SchemaError> {
        match value.as_str().and_then(|r| r.strip_prefix('#')) {
            Some(pointer) if pointer.is_empty() || pointer.starts_with('/') => self.node(pointer),
            _ => Err(fail(path, "only references within the document (`#/…`)")),
        }
    }

    fn properties(
        &mut self,
        value: &Value,
        path: &str,
    ) -> Result<Vec<(String, usize)>, SchemaError> {
        let Value::Object(properties) = value else {
            return Err(fail(path, "not an object"));
        };
        let mut out = Vec::with_capacity(properties.len());
        for name in properties.keys() {
            out.push((name.clone(), self.node(&join(path, name))?));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    fn additional(
        &mut self,
        schema: &Map<String, Value>,
        value: &Value,
        path: &str,
    ) -> Result<Check, SchemaError> {
        let mut known: Vec<String> = match schema.get("properties") {
            Some(Value::Object(properties)) => properties.keys().cloned().collect(),
            _ => Vec::new(),
        };
        known.sort();
        match value {
            Value::Bool(false) => Ok(Check::AdditionalProperties(known, None)),
            Value::Object(_) => Ok(Check::AdditionalProperties(known, Some(self.node(path)?))),
            _ => Err(fail(path, "only `false` or a schema")),
        }
    }

    /// The strings of branches that are each a string `const` (with a `type` it satisfies), if
    /// every branch is one and no two are equal: then exactly one holds iff the value is one.
    fn string_constants(&self, branches: &[usize]) -> Option<Vec<String>> {
        let mut strings = Vec::with_capacity(branches.len());
        for branch in branches {
            let mut constant = None;
            for keyword in &self.nodes[*branch].keywords {
                match &keyword.check {
                    Check::Assert(Assertion::Const(Value::String(s))) if constant.is_none() => {
                        constant = Some(s.clone());
                    }
                    Check::Assert(Assertion::Type(t))
                        if t.accepts(&Value::String(String::new())) => {}
                    _ => return None,
                }
            }
            strings.push(constant?);
        }
        strings.sort();
        let count = strings.len();
        strings.dedup();
        (strings.len() == count).then_some(strings)
    }

    fn branches(&mut self, value: &Value, path: &str) -> Result<Vec<usize>, SchemaError> {
        let branches = value
            .as_array()
            .filter(|a| !a.is_empty())
            .ok_or_else(|| fail(path, "not a non-empty list"))?;
        (0..branches.len())
            .map(|i| self.node(&format!("{path}/{i}")))
            .collect()
    }
}

/// The place of a keyword in the order of checks, by its path's last segment: its place in
/// `ASSERTIONS`, but `required` just after `additionalProperties` where `fused`.
fn rank(path: &str, fused: bool) -> usize {
    let name = path.rsplit('/').next().unwrap_or(path);
    let name = if fused && name == "required" {
        "additionalProperties"
    } else {
        name
    };
    let place = ASSERTIONS
        .iter()
        .position(|a| *a == name)
        .unwrap_or(ASSERTIONS.len());
    2 * place + usize::from(fused && path.ends_with("/required"))
}

/// Whether a closed object's single required key is checked with its other keys, after the
/// unknown ones (as jsonschema fuses `properties`, `additionalProperties: false` and a one-item
/// `required`), rather than before its properties.
fn required_after_additional(schema: &Map<String, Value>) -> bool {
    schema.contains_key("properties")
        && schema.get("additionalProperties") == Some(&Value::Bool(false))
        && schema
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.len() == 1)
}

fn fail(at: &str, message: &str) -> SchemaError {
    SchemaError {
        at: at.to_string(),
        message: message.to_string(),
    }
}

/// A pointer one segment deeper.
fn join(pointer: &str, segment: &str) -> String {
    let mut out = pointer.to_string();
    out.push('/');
    push_escaped(&mut out, segment);
    out
}

fn types(value: &Value, path: &str) -> Result<Types, SchemaError> {
    let named = |v: &Value| {
        v.as_str()
            .and_then(Types::named)
            .ok_or_else(|| fail(path, "an unknown type"))
    };
    match value {
        Value::Array(names) => names
            .iter()
            .try_fold(Types(0), |all, v| Ok(Types(all.0 | named(v)?.0))),
        _ => named(value),
    }
}

fn strings(value: &Value, path: &str) -> Result<Vec<String>, SchemaError> {
    value
        .as_array()
        .and_then(|a| a.iter().map(|v| v.as_str().map(str::to_string)).collect())
        .ok_or_else(|| fail(path, "not a list of strings"))
}

fn count(value: &Value, path: &str) -> Result<u64, SchemaError> {
    value
        .as_u64()
        .ok_or_else(|| fail(path, "not a non-negative integer"))
}

fn pattern(value: &Value, path: &str) -> Result<Assertion, SchemaError> {
    let text = value.as_str().ok_or_else(|| fail(path, "not a string"))?;
    let regex = Regex::new(text).map_err(|e| fail(path, &e.to_string()))?;
    Ok(Assertion::Pattern(regex, text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn validator(schema: Value) -> Validator {
        Validator::new(&schema).expect("the test schema compiles")
    }

    /// Each error as `instance path | schema path | message`, branches not included.
    fn errors(schema: Value, value: Value) -> Vec<String> {
        let v = validator(schema);
        let errors: Vec<String> = v
            .errors(&value)
            .iter()
            .map(|e| format!("{} | {} | {e}", e.instance_path(), e.schema_path()))
            .collect();
        assert_eq!(
            v.is_valid(&value),
            errors.is_empty(),
            "is_valid and errors agree"
        );
        errors
    }

    fn accepts(schema: Value, value: Value) -> bool {
        errors(schema, value).is_empty()
    }

    #[test]
    fn type_accepts_its_types_and_whole_numbers_as_integers() {
        let t = |types: Value, value: Value| accepts(json!({ "type": types }), value);
        assert!(t(json!("integer"), json!(2)));
        assert!(t(json!("integer"), json!(2.0)));
        assert!(t(json!("integer"), json!(-3)));
        assert!(t(json!("integer"), json!(u64::MAX)));
        assert!(!t(json!("integer"), json!(2.5)));
        assert!(!t(json!("integer"), json!("2")));
        assert!(t(json!("number"), json!(2.5)));
        assert!(t(json!("number"), json!(2)));
        assert!(t(json!(["string", "null"]), json!(null)));
        assert!(t(json!(["string", "null"]), json!("x")));
        assert!(!t(json!(["string", "null"]), json!(1)));
        assert!(t(json!("boolean"), json!(false)));
        assert!(!t(json!("boolean"), json!(0)));
        assert!(t(json!("array"), json!([])));
        assert!(!t(json!("array"), json!({})));
        assert!(t(json!("object"), json!({})));
        assert!(!t(json!("null"), json!(0)));
        assert_eq!(
            errors(json!({ "type": ["integer", "null"] }), json!("x")),
            [r#" | /type | "x" is not of types "null", "integer""#]
        );
        assert_eq!(
            errors(json!({ "type": "string" }), json!(1)),
            [r#" | /type | 1 is not of type "string""#]
        );
    }

    #[test]
    fn const_and_enum_compare_values_numbers_by_value() {
        assert!(accepts(json!({ "const": "a" }), json!("a")));
        assert!(!accepts(json!({ "const": "a" }), json!("b")));
        assert!(accepts(json!({ "const": 1 }), json!(1.0)));
        assert!(accepts(
            json!({ "const": [1, {"a": 2}] }),
            json!([1.0, {"a": 2}])
        ));
        assert!(!accepts(json!({ "const": [1] }), json!([1, 1])));
        assert!(accepts(json!({ "enum": ["a", "b"] }), json!("b")));
        assert!(!accepts(json!({ "enum": ["a", "b"] }), json!("c")));
        assert_eq!(
            errors(json!({ "const": "a" }), json!("b")),
            [r#" | /const | "a" was expected"#]
        );
        let v = validator(json!({ "enum": ["a", "b"] }));
        let value = json!("c");
        let errors = v.errors(&value);
        assert!(
            matches!(errors[0].kind(), ErrorKind::Enum { options } if **options == json!(["a", "b"]))
        );
    }

    #[test]
    fn minimum_and_maximum_compare_exactly_across_number_kinds() {
        let min = |limit: Value, value: Value| accepts(json!({ "minimum": limit }), value);
        let max = |limit: Value, value: Value| accepts(json!({ "maximum": limit }), value);
        assert!(min(json!(1), json!(1)));
        assert!(!min(json!(1), json!(0)));
        assert!(!min(json!(0), json!(-1)));
        assert!(!min(json!(1), json!(0.999)));
        assert!(min(json!(1), json!(1.0)));
        assert!(min(json!(0.5), json!(1)));
        assert!(!min(json!(0.5), json!(0)));
        assert!(!min(json!(0), json!(i64::MIN)));
        assert!(max(json!(1000), json!(1000)));
        assert!(!max(json!(1000), json!(1001)));
        assert!(!max(json!(1000), json!(1000.5)));
        assert!(!max(json!(1000), json!(u64::MAX)));
        assert!(!max(json!(1000), json!(1e20)));
        // Past 2^53 a float cannot hold the integer; the comparison still must not round it.
        assert!(!max(
            json!(9_007_199_254_740_992_u64),
            json!(9_007_199_254_740_993_u64)
        ));
        assert!(!min(
            json!(9_007_199_254_740_993_u64),
            json!(9_007_199_254_740_992.0)
        ));
        assert!(!max(
            json!(u64::MAX),
            json!(18_446_744_073_709_551_616.0_f64)
        ));
        // Other types are not numbers' business.
        assert!(min(json!(1), json!("0")));
        assert_eq!(
            errors(json!({ "minimum": 1 }), json!(0)),
            [" | /minimum | 0 is less than the minimum of 1"]
        );
        assert_eq!(
            errors(json!({ "maximum": 9 }), json!(10)),
            [" | /maximum | 10 is greater than the maximum of 9"]
        );
    }

    #[test]
    fn item_and_length_limits() {
        let s = json!({ "minItems": 1, "maxItems": 2, "minLength": 2, "maxLength": 3 });
        assert!(accepts(s.clone(), json!([1])));
        assert!(accepts(s.clone(), json!([1, 2])));
        assert!(!accepts(s.clone(), json!([])));
        assert!(!accepts(s.clone(), json!([1, 2, 3])));
        assert!(accepts(s.clone(), json!("ab")));
        // Lengths count code points, not bytes: `ééé` is 6 bytes.
        assert!(accepts(s.clone(), json!("ééé")));
        assert!(!accepts(s.clone(), json!("éééé")));
        assert!(!accepts(s.clone(), json!("a")));
        assert!(accepts(s.clone(), json!(7)));
        assert_eq!(
            errors(s.clone(), json!([])),
            [" | /minItems | [] has less than 1 item"]
        );
        assert_eq!(
            errors(s.clone(), json!([1, 2, 3])),
            [" | /maxItems | [1,2,3] has more than 2 items"]
        );
        assert_eq!(
            errors(s.clone(), json!("a")),
            [r#" | /minLength | "a" is shorter than 2 characters"#]
        );
        assert_eq!(
            errors(s, json!("abcd")),
            [r#" | /maxLength | "abcd" is longer than 3 characters"#]
        );
    }

    #[test]
    fn pattern_searches_strings_only() {
        let s = json!({ "pattern": "^#[0-9a-fA-F]{6}$" });
        assert!(accepts(s.clone(), json!("#8fc7ea")));
        assert!(!accepts(s.clone(), json!("#8fc7eag")));
        assert!(!accepts(s.clone(), json!("8fc7ea")));
        assert!(accepts(s.clone(), json!(5)));
        // Unanchored, a pattern matches anywhere in the string.
        assert!(accepts(json!({ "pattern": "b" }), json!("abc")));
        assert_eq!(
            errors(s, json!("red")),
            [r##" | /pattern | "red" does not match "^#[0-9a-fA-F]{6}$""##]
        );
    }

    #[test]
    fn objects_properties_required_and_additional_properties() {
        let s = json!({
            "type": "object",
            "properties": { "a": { "type": "integer" }, "b/c": { "type": "string" } },
            "required": ["a", "b/c"],
            "additionalProperties": false
        });
        assert!(accepts(s.clone(), json!({ "a": 1, "b/c": "x" })));
        assert_eq!(
            errors(s.clone(), json!({ "a": "1", "b/c": 2, "x": 0, "y": 0 })),
            [
                r#"/a | /properties/a/type | "1" is not of type "integer""#,
                r#"/b~1c | /properties/b~1c/type | 2 is not of type "string""#,
                " | /additionalProperties | Additional properties are not allowed ('x', 'y' were unexpected)",
            ]
        );
        assert_eq!(
            errors(s.clone(), json!({})),
            [
                r#" | /required | "a" is a required property"#,
                r#" | /required | "b/c" is a required property"#,
            ]
        );
        // `required` and `properties` look at objects only.
        assert!(accepts(json!({ "required": ["a"] }), json!([])));
        let extra =
            json!({ "properties": { "a": {} }, "additionalProperties": { "type": "integer" } });
        assert!(accepts(extra.clone(), json!({ "a": "x", "b": 1 })));
        assert_eq!(
            errors(extra, json!({ "a": "x", "b~": "y" })),
            [r#"/b~0 | /additionalProperties/type | "y" is not of type "integer""#]
        );
    }

    #[test]
    fn items_give_indices_in_the_instance_path() {
        let s = json!({ "items": { "items": { "type": "string" } } });
        assert!(accepts(s.clone(), json!([["a"], []])));
        assert_eq!(
            errors(s, json!([["a"], ["b", 3]])),
            ["/1/1 | /items/items/type | 3 is not of type \"string\""]
        );
    }

    #[test]
    fn refs_report_the_target_location_nested_refs_too() {
        let s = json!({
            "$defs": {
                "Tile": { "properties": { "count": { "$ref": "#/$defs/Count" } } },
                "Count": { "type": "integer", "minimum": 1 }
            },
            "properties": { "tile": { "type": "array", "items": { "$ref": "#/$defs/Tile" } } }
        });
        assert!(accepts(s.clone(), json!({ "tile": [{ "count": 2 }] })));
        assert_eq!(
            errors(s, json!({ "tile": [{ "count": 2 }, { "count": 0 }] })),
            ["/tile/1/count | /$defs/Count/minimum | 0 is less than the minimum of 1"]
        );
        // A reference to itself compiles once and recurses.
        let tree = json!({ "properties": { "child": { "$ref": "#" } }, "required": ["x"] });
        assert!(accepts(
            tree.clone(),
            json!({ "x": 1, "child": { "x": 2 } })
        ));
        assert_eq!(
            errors(
                tree,
                json!({ "x": 1, "child": { "child": { "x": 3 }, "y": 0 } })
            ),
            [r#"/child | /required | "x" is a required property"#]
        );
    }

    #[test]
    fn any_of_needs_one_branch_and_keeps_each_branchs_errors() {
        let s = json!({ "anyOf": [{ "type": "integer", "minimum": 1 }, { "type": "object" }] });
        assert!(accepts(s.clone(), json!(1)));
        assert!(accepts(s.clone(), json!({})));
        let v = validator(s);
        let value = json!(0);
        let errors = v.errors(&value);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].schema_path(), "/anyOf");
        let ErrorKind::AnyOf { context } = errors[0].kind() else {
            panic!("an anyOf error: {:?}", errors[0]);
        };
        let paths: Vec<Vec<&str>> = context
            .iter()
            .map(|branch| branch.iter().map(|e| e.schema_path()).collect())
            .collect();
        assert_eq!(paths, [vec!["/anyOf/0/minimum"], vec!["/anyOf/1/type"]]);
    }

    #[test]
    fn one_of_needs_exactly_one_branch() {
        let s = json!({ "oneOf": [
            { "type": "integer" },
            { "type": "number", "minimum": 5 },
            { "const": "a" }
        ] });
        assert!(accepts(s.clone(), json!(2)));
        assert!(accepts(s.clone(), json!(5.5)));
        assert!(accepts(s.clone(), json!("a")));
        let v = validator(s);
        // 7 is an integer and at least 5: two branches hold.
        let seven = json!(7);
        let errors = v.errors(&seven);
        assert_eq!(errors.len(), 1);
        assert!(matches!(errors[0].kind(), ErrorKind::OneOfMultipleValid));
        assert_eq!(
            errors[0].to_string(),
            "7 is valid under more than one of the schemas listed in the 'oneOf' keyword"
        );
        let none = json!(3.5);
        let errors = v.errors(&none);
        let ErrorKind::OneOfNotValid { context } = errors[0].kind() else {
            panic!("a oneOf error: {:?}", errors[0]);
        };
        assert_eq!(context.iter().map(Vec::len).collect::<Vec<_>>(), [1, 1, 1]);
    }

    #[test]
    fn a_keyword_it_does_not_implement_is_refused() {
        for schema in [
            json!({ "allOf": [{}] }),
            json!({ "properties": { "a": { "uniqueItems": true } } }),
            json!({ "$defs": { "Unused": { "not": {} } } }),
            json!({ "$ref": "other.json#/x" }),
            json!({ "$ref": "#/$defs/Missing" }),
            json!({ "pattern": "(" }),
            json!({ "minimum": "1" }),
        ] {
            assert!(Validator::new(&schema).is_err(), "{schema} compiled");
        }
        let error = Validator::new(&json!({ "items": { "multipleOf": 2 } })).map(|_| ());
        assert_eq!(
            error.map_err(|e| e.to_string()),
            Err(
                "schema at `/items/multipleOf`: a keyword this validator does not implement"
                    .to_string()
            )
        );
    }

    /// Collects every keyword of every subschema of a schema document, where it is.
    fn keywords(schema: &Value, at: &str, out: &mut Vec<(String, String)>) {
        let Value::Object(map) = schema else {
            return;
        };
        for (name, value) in map {
            let here = join(at, name);
            out.push((name.clone(), here.clone()));
            match (name.as_str(), value) {
                (
                    "properties" | "$defs" | "patternProperties" | "dependentSchemas",
                    Value::Object(m),
                ) => {
                    for (key, sub) in m {
                        keywords(sub, &join(&here, key), out);
                    }
                }
                (_, Value::Array(branches))
                    if !matches!(
                        name.as_str(),
                        "enum" | "const" | "examples" | "required" | "type" | "default"
                    ) =>
                {
                    for (i, sub) in branches.iter().enumerate() {
                        keywords(sub, &format!("{here}/{i}"), out);
                    }
                }
                (_, Value::Object(_))
                    if !matches!(name.as_str(), "const" | "default" | "examples" | "enum") =>
                {
                    keywords(value, &here, out)
                }
                _ => {}
            }
        }
    }

    #[test]
    fn the_committed_schema_uses_only_implemented_keywords() {
        let text = include_str!("../../../definitions/schema/tileset.schema.json");
        let schema: Value = serde_json::from_str(text).expect("the committed schema is JSON");
        let mut found = Vec::new();
        keywords(&schema, "", &mut found);
        let unknown: Vec<String> = found
            .iter()
            .filter(|(name, _)| {
                !ASSERTIONS.contains(&name.as_str()) && !ANNOTATIONS.contains(&name.as_str())
            })
            .map(|(name, at)| format!("`{name}` at {at}"))
            .collect();
        assert!(
            unknown.is_empty(),
            "the schema uses keywords the validator does not implement: {}",
            unknown.join(", ")
        );
        // And the assertions among them are all used, so none of this module is dead weight.
        for keyword in ASSERTIONS {
            assert!(
                found.iter().any(|(name, _)| name == keyword),
                "{keyword} unused"
            );
        }
        assert!(Validator::new(&schema).is_ok());
    }
}

#[cfg(test)]
mod fast_paths {
    use super::*;
    use serde_json::json;

    /// `is_valid` takes shortcuts (closed objects in one pass, `oneOf` of string constants by
    /// lookup); each must agree with the full walk of `errors`.
    fn agree(schema: &Value, value: &Value) -> bool {
        let v = Validator::new(schema).expect("compiles");
        assert_eq!(v.is_valid(value), v.errors(value).is_empty(), "{value}");
        v.is_valid(value)
    }

    #[test]
    fn one_of_string_constants_and_closed_objects() {
        let consts = json!({ "oneOf": [
            { "type": "string", "const": "a" },
            { "type": "string", "const": "b" }
        ] });
        assert!(agree(&consts, &json!("a")));
        assert!(!agree(&consts, &json!("c")));
        assert!(!agree(&consts, &json!(1)));
        // The same constant twice: both branches hold, so no shortcut and never valid.
        let twice = json!({ "oneOf": [{ "const": "a" }, { "const": "a" }] });
        assert!(!agree(&twice, &json!("a")));
        let closed = json!({ "properties": { "a": {} }, "additionalProperties": false });
        assert!(agree(&closed, &json!({ "a": 1 })));
        assert!(!agree(&closed, &json!({ "a": 1, "b": 2 })));
        let empty = json!({ "additionalProperties": false });
        assert!(agree(&empty, &json!({})));
        assert!(!agree(&empty, &json!({ "b": 2 })));
    }

    #[test]
    fn is_valid_agrees_with_errors_on_the_bundled_files_and_the_bad_corpus() {
        let text = include_str!("../../../definitions/schema/tileset.schema.json");
        let schema: Value = serde_json::from_str(text).expect("the committed schema is JSON");
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut checked = 0;
        for dir in ["definitions", "tests/fixtures/bad"] {
            for entry in std::fs::read_dir(root.join(dir)).expect("folder").flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "toml") {
                    let text = std::fs::read_to_string(&path).expect("readable");
                    agree(&schema, &crate::source::parse(&text).0);
                    checked += 1;
                }
            }
        }
        assert!(checked > 80, "{checked} files");
    }
}
