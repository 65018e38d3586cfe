//! Where the cursor stands in a definition file, read leniently from the text. A file being
//! typed rarely parses (`roads = [{ ports = ["` is not TOML yet), so this is a small scanner of
//! its own rather than the TOML parser: it knows table headers, keys and dotted keys, strings,
//! comments, arrays and inline tables — the shape of the text, nothing of what keys mean.

use std::ops::ControlFlow;
use std::ops::Range;
use tilekit_analysis::Symbols;

/// What can be written at a cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// Inside a table header: the names before the one being typed, that one's span, whether
    /// the header is `[[…]]`, and whether it is already closed after the cursor.
    Header {
        /// The names before the one being typed (`["tile"]` in `[tile.ar`).
        path: Vec<String>,
        /// The span of the name typed so far.
        word: Range<usize>,
        /// Opened with `[[`.
        double: bool,
        /// A `]` follows on the line.
        closed: bool,
    },
    /// Where a key goes.
    Key {
        /// The key path of the table (`["tile", "roads"]` inside `roads = [{ … }]`).
        table: Vec<String>,
        /// The keys already written in that table before the cursor.
        written: Vec<String>,
        /// The span of the key typed so far.
        word: Range<usize>,
    },
    /// Where a value (or a list item) goes.
    Value {
        /// The key path it is the value of (`["tile", "roads", "end"]`).
        key: Vec<String>,
        /// Inside quotes.
        quoted: bool,
        /// The span of the value typed so far (inside the quotes when quoted).
        word: Range<usize>,
    },
    /// In a comment, after a value, or anywhere nothing is written.
    Nowhere,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Table,
    Array,
    Inline,
}

#[derive(Clone)]
struct Frame {
    kind: Kind,
    path: Vec<String>,
    written: Vec<String>,
}

impl Frame {
    fn new(kind: Kind, path: Vec<String>) -> Frame {
        Frame {
            kind,
            path,
            written: Vec::new(),
        }
    }
}

enum Mode {
    /// Where a key goes: the dotted parts written so far, and whether another part is due
    /// (at the start, or after a `.`).
    Key { parts: Vec<String>, open: bool },
    /// Where a value goes, for this key path.
    Value(Vec<String>),
    /// After a value.
    After,
}

/// The bytes that end a bare key or value.
fn ends_word(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\r'
            | b'\n'
            | b'#'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'='
            | b'"'
            | b'\''
    )
}

/// Where a string starting at `at` ends: the offset of its closing quote (the text's or the
/// line's end when it is not closed), and where its content starts.
fn string_end(text: &[u8], at: usize) -> (usize, usize) {
    let quote = text[at];
    let triple = text.len() >= at + 3 && text[at + 1] == quote && text[at + 2] == quote;
    let start = if triple { at + 3 } else { at + 1 };
    let mut i = start;
    while i < text.len() {
        let c = text[i];
        if c == b'\\' && quote == b'"' {
            i += 2;
            continue;
        }
        if !triple && c == b'\n' {
            return (i, start);
        }
        if c == quote && (!triple || text[i..].starts_with(&[quote; 3])) {
            return (i, start);
        }
        i += 1;
    }
    (text.len(), start)
}

/// Whether a line is a table header (to recover from an unclosed array above it).
fn is_header_line(line: &str) -> bool {
    let line = line.split('#').next().unwrap_or("").trim();
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .map(|l| l.trim_start_matches('[').trim_end_matches(']'));
    inner.is_some_and(|inner| {
        inner.chars().any(|c| c.is_ascii_alphabetic())
            && inner
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-. \"'".contains(c))
    })
}

impl Place {
    /// Whether a value goes here.
    pub fn is_value(&self) -> bool {
        matches!(self, Place::Value { .. })
    }
}

/// The place at a byte offset of a text; where a key goes, the keys written in that table
/// after the cursor count as written too.
pub fn place_at(text: &str, offset: usize) -> Place {
    match place_before(text, offset) {
        Place::Key {
            table,
            mut written,
            word,
        } => {
            written.extend(keys_after(text, word.end));
            Place::Key {
                table,
                written,
                word,
            }
        }
        place => place,
    }
}

/// The first parts of the keys written after `from` in the table the cursor is in: up to the
/// closing `}` of an inline table the cursor's line opened, else up to the next header.
fn keys_after(text: &str, from: usize) -> Vec<String> {
    let line_start = text[..from].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..from];
    let depth = before.matches('{').count() as i32 - before.matches('}').count() as i32;
    let key = |s: &str| -> Option<String> {
        let s = s.trim_start();
        let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))?;
        let rest = s[end..].trim_start();
        (end > 0 && (rest.starts_with('=') || rest.starts_with('.'))).then(|| s[..end].to_string())
    };
    if depth > 0 {
        let line_end = text[from..].find('\n').map_or(text.len(), |i| from + i);
        // The rest of the word under the cursor; if `=` follows, that key's own value.
        let rest = &text[from..line_end];
        let rest =
            rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let inner = rest.split('}').next().unwrap_or("");
        let own_value = usize::from(inner.trim_start().starts_with('='));
        return inner.split(',').skip(own_value).filter_map(key).collect();
    }
    (text[from..].lines().skip(1))
        .take_while(|line| !is_header_line(line))
        .filter_map(key)
        .collect()
}

/// The place at a byte offset of a text, from what is written before it.
fn place_before(text: &str, offset: usize) -> Place {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut scan = Scan {
        text,
        end,
        frames: vec![Frame::new(Kind::Table, Vec::new())],
        mode: Mode::fresh_key(),
        line_start: true,
        i: 0,
    };
    while scan.i < end {
        if let ControlFlow::Break(place) = scan.step() {
            return place;
        }
    }
    scan.at_end()
}

impl Mode {
    /// Where a new key starts.
    fn fresh_key() -> Mode {
        Mode::Key {
            parts: Vec::new(),
            open: true,
        }
    }
}

/// The state of reading a text up to the cursor (`end`): the tables and arrays open at `i`,
/// and what is due next.
struct Scan<'t> {
    text: &'t str,
    end: usize,
    frames: Vec<Frame>,
    mode: Mode,
    line_start: bool,
    i: usize,
}

impl Scan<'_> {
    /// Reads one token at `i`; breaks with the place when the cursor is inside it.
    fn step(&mut self) -> ControlFlow<Place> {
        let c = self.text.as_bytes()[self.i];
        match c {
            b'\n' => {
                self.line_start = true;
                if self.frames.last().is_some_and(|f| f.kind == Kind::Table) {
                    self.mode = Mode::fresh_key();
                }
                self.i += 1;
                return ControlFlow::Continue(());
            }
            b' ' | b'\t' | b'\r' => {
                self.i += 1;
                return ControlFlow::Continue(());
            }
            b'#' => return self.comment(),
            _ => {}
        }
        let first_on_line = std::mem::replace(&mut self.line_start, false);
        if c == b'[' && first_on_line && self.at_header() {
            return self.header();
        }
        match c {
            b'[' | b'{' => self.open(c),
            b']' | b'}' => self.close(c),
            b',' => self.comma(),
            b'=' => self.equals(),
            b'.' if matches!(self.mode, Mode::Key { .. }) => {
                if let Mode::Key { open, .. } = &mut self.mode {
                    *open = true;
                }
                self.i += 1;
            }
            b'"' | b'\'' => return self.quoted(),
            _ => return self.word(),
        }
        ControlFlow::Continue(())
    }

    /// The frame the token at `i` is in.
    fn frame(&mut self) -> &mut Frame {
        let top = self.frames.len() - 1;
        &mut self.frames[top]
    }

    /// Skips a comment; the cursor inside one is nowhere.
    fn comment(&mut self) -> ControlFlow<Place> {
        let text = self.text;
        let stop = text[self.i..].find('\n').map_or(text.len(), |n| self.i + n);
        if stop >= self.end {
            return ControlFlow::Break(Place::Nowhere);
        }
        self.i = stop;
        ControlFlow::Continue(())
    }

    /// Whether the `[` at `i`, first on its line, opens a table header rather than an array.
    fn at_header(&self) -> bool {
        let line_end = self.line_end();
        let fresh_key = matches!(&self.mode, Mode::Key { parts, .. } if parts.is_empty());
        (self.frames.len() == 1 && fresh_key) || is_header_line(&self.text[self.i..line_end])
    }

    fn line_end(&self) -> usize {
        let text = self.text;
        text[self.i..].find('\n').map_or(text.len(), |n| self.i + n)
    }

    /// Reads a table header: every frame closes and its table opens.
    fn header(&mut self) -> ControlFlow<Place> {
        let line_end = self.line_end();
        match header(self.text, self.i, self.end, line_end) {
            Ok((path, after)) => {
                self.frames = vec![Frame::new(Kind::Table, path)];
                self.mode = Mode::fresh_key();
                self.i = after;
                ControlFlow::Continue(())
            }
            Err(place) => ControlFlow::Break(place),
        }
    }

    /// An array or inline table opens (as a value; elsewhere it is skipped).
    fn open(&mut self, c: u8) {
        if let Mode::Value(key) = &self.mode {
            let key = key.clone();
            if c == b'[' {
                self.frames.push(Frame::new(Kind::Array, key));
            } else {
                self.mode = Mode::fresh_key();
                self.frames.push(Frame::new(Kind::Inline, key));
            }
        }
        self.i += 1;
    }

    /// An array or inline table closes.
    fn close(&mut self, c: u8) {
        let kind = if c == b']' { Kind::Array } else { Kind::Inline };
        if self.frames.len() > 1 && self.frame().kind == kind {
            self.frames.pop();
        }
        self.mode = Mode::After;
        self.i += 1;
    }

    /// A comma: the next element of an array, or the next key of an inline table.
    fn comma(&mut self) {
        match self.frame().kind {
            Kind::Array => self.mode = Mode::Value(self.frame().path.clone()),
            Kind::Inline => self.mode = Mode::fresh_key(),
            Kind::Table => {}
        }
        self.i += 1;
    }

    /// An `=`: the key written so far takes a value.
    fn equals(&mut self) {
        if let Mode::Key { parts, .. } = &self.mode
            && let Some(first) = parts.first()
        {
            let (first, parts) = (first.clone(), parts.clone());
            let frame = self.frame();
            frame.written.push(first);
            let key = [frame.path.clone(), parts].concat();
            self.mode = Mode::Value(key);
        }
        self.i += 1;
    }

    /// A quoted key or value; the cursor inside it is in its word.
    fn quoted(&mut self) -> ControlFlow<Place> {
        let b = self.text.as_bytes();
        let (close, start) = string_end(b, self.i);
        if close >= self.end {
            let word = start..self.end;
            let frame = self.frame().clone();
            return ControlFlow::Break(match std::mem::replace(&mut self.mode, Mode::After) {
                Mode::Key { parts, open: true } => Place::Key {
                    table: [frame.path, parts].concat(),
                    written: frame.written,
                    word,
                },
                Mode::Value(key) => Place::Value {
                    key,
                    quoted: true,
                    word,
                },
                _ => Place::Nowhere,
            });
        }
        let content = self.text[start..close].to_string();
        match &mut self.mode {
            Mode::Key { parts, open } => {
                parts.push(content);
                *open = false;
            }
            Mode::Value(_) => self.mode = Mode::After,
            Mode::After => {}
        }
        // An unclosed string ends at its line's end, which still ends the line.
        self.i = if b.get(close) == Some(&b'\n') {
            close
        } else {
            (close + (start - self.i)).min(self.text.len())
        };
        ControlFlow::Continue(())
    }

    /// A bare key or value; the cursor inside it is in its word.
    fn word(&mut self) -> ControlFlow<Place> {
        let (text, i) = (self.text, self.i);
        let b = text.as_bytes();
        let stop = b[i..]
            .iter()
            .position(|&c| ends_word(c))
            .map_or(b.len(), |n| i + n);
        if stop >= self.end {
            return ControlFlow::Break(self.inside_word());
        }
        match &mut self.mode {
            Mode::Key { parts, open } => {
                if !*open {
                    parts.clear();
                }
                parts.extend(dotted(&text[i..stop]));
                *open = text[i..stop].ends_with('.');
            }
            Mode::Value(_) => self.mode = Mode::After,
            Mode::After => {}
        }
        self.i = stop;
        ControlFlow::Continue(())
    }

    /// The place of a cursor inside the bare word at `i`.
    fn inside_word(&mut self) -> Place {
        let (text, i, end) = (self.text, self.i, self.end);
        let frame = self.frame().clone();
        match std::mem::replace(&mut self.mode, Mode::After) {
            Mode::Key { mut parts, open } => {
                if !open {
                    parts.clear();
                }
                let word = &text[i..end];
                let last = word.rfind('.').map_or(i, |d| i + d + 1);
                parts.extend(dotted(&text[i..last]));
                Place::Key {
                    table: [frame.path, parts].concat(),
                    written: frame.written,
                    word: last..end,
                }
            }
            Mode::Value(key) => Place::Value {
                key,
                quoted: false,
                word: i..end,
            },
            Mode::After => Place::Nowhere,
        }
    }

    /// The place of a cursor after everything read.
    fn at_end(mut self) -> Place {
        let end = self.end;
        let frame = self.frame().clone();
        match self.mode {
            Mode::Key { parts, open: true } => Place::Key {
                table: [frame.path, parts].concat(),
                written: frame.written,
                word: end..end,
            },
            Mode::Value(key) => Place::Value {
                key,
                quoted: false,
                word: end..end,
            },
            _ => Place::Nowhere,
        }
    }
}

/// The non-empty parts of a dotted key.
fn dotted(key: &str) -> impl Iterator<Item = String> + '_ {
    key.split('.').filter(|p| !p.is_empty()).map(str::to_string)
}

/// Reads the table header at `at`: its key path and where it ends, or the place the cursor
/// (`end`) has inside it.
fn header(
    text: &str,
    at: usize,
    end: usize,
    line_end: usize,
) -> Result<(Vec<String>, usize), Place> {
    let b = text.as_bytes();
    let double = b.get(at + 1) == Some(&b'[');
    let mut j = at + if double { 2 } else { 1 };
    let mut path = Vec::new();
    let inside = |path: &Vec<String>, word: Range<usize>| Place::Header {
        path: path.clone(),
        word,
        double,
        closed: text[end..line_end].contains(']'),
    };
    loop {
        while j < line_end && matches!(b[j], b' ' | b'\t' | b'.') {
            j += 1;
        }
        if j >= end {
            return Err(inside(&path, end..end));
        }
        if j >= line_end {
            return Ok((path, line_end));
        }
        match b[j] {
            b']' => {
                let after = if double && b.get(j + 1) == Some(&b']') {
                    j + 2
                } else {
                    j + 1
                };
                return Ok((path, after));
            }
            b'"' | b'\'' => {
                // A header is one line: a string left open (or a triple quote) ends with it.
                let (close, start) = string_end(b, j);
                let close = close.min(line_end);
                let start = start.min(close);
                if close >= end {
                    return Err(inside(&path, start..end));
                }
                path.push(text[start..close].to_string());
                j = (close + 1).min(line_end);
            }
            _ => {
                let stop = b[j..line_end]
                    .iter()
                    .position(|&c| matches!(c, b' ' | b'\t' | b'.' | b']' | b'"' | b'\''))
                    .map_or(line_end, |n| j + n);
                if stop >= end {
                    return Err(inside(&path, j..end));
                }
                path.push(text[j..stop].to_string());
                j = stop;
            }
        }
    }
}

/// The key path under a cursor, and the span it names — for hover. On a value, the path of
/// the key it is the value of.
pub fn key_at(text: &str, offset: usize) -> Option<(Vec<String>, Range<usize>)> {
    let b = text.as_bytes();
    let mut end = offset.min(text.len());
    while end < b.len() && !ends_word(b[end]) && b[end] != b'.' {
        end += 1;
    }
    match place_at(text, end) {
        Place::Header { mut path, word, .. }
        | Place::Key {
            table: mut path,
            word,
            ..
        } if !word.is_empty() => {
            path.push(text[word.clone()].to_string());
            Some((path, word))
        }
        Place::Value { key, word, .. } if !key.is_empty() => Some((key, word)),
        _ => None,
    }
}

/// The vocabulary a text declares, read from its lines (an `id = "…"` under `[set]`,
/// `[[edition]]`, `[[edge_kind]]`, `[[colour]]`, `[[marker]]` or `[[tile]]`), so that a file that does not
/// parse yet still completes its own names.
pub fn declared(text: &str) -> Symbols {
    let mut s = Symbols::default();
    let mut table = "";
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            table = line.trim_matches(|c| c == '[' || c == ']').trim();
            continue;
        }
        let Some(rest) = line.strip_prefix("id") else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        let value = value.trim();
        let Some(quote) = value.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let Some(id) = value[1..].split(quote).next().filter(|id| !id.is_empty()) else {
            continue;
        };
        let list = match table {
            "set" => &mut s.sets,
            "edge_kind" => &mut s.edge_kinds,
            "colour" => &mut s.colours,
            "marker" => &mut s.markers,
            "tile" => &mut s.tiles,
            "edition" => &mut s.editions,
            _ => continue,
        };
        list.push(id.to_string());
    }
    s
}

#[cfg(test)]
mod tests;
