//! Loading: files → spans and JSON → schema check → typed model → semantic checks → `TileSet`.

use crate::check::{Parsed, check};
use crate::diagnostic::{Diagnostic, Severity, SharedSource, SourceFile};
use crate::model::{FORMAT_VERSION, TileSetFile};
use crate::schema::SchemaChecker;
use crate::source::{Source, parse};
use crate::tileset::TileSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Reading definition files failed (not a problem in their content).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A file or folder could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A folder held no `.toml` file.
    #[error("no .toml files in {0}")]
    Empty(PathBuf),
    /// A path names a device, FIFO or socket (`/dev/zero`), which could be read forever.
    #[error("cannot read {0}: not a regular file")]
    NotAFile(PathBuf),
    /// A file is larger than any definitions file or record could sensibly be.
    #[error("cannot read {path}: {size} bytes is over the limit of {limit} (64 MiB)", limit = MAX_FILE_BYTES)]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size (at least; a growing file is not read to its end).
        size: u64,
    },
}

/// The largest definitions file or game record read, in bytes (64 MiB: a 10,000-tile set is
/// about 3 MiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// What loading found: every diagnostic, and the tile set when there was no error.
pub struct Report {
    /// The files, in the order given.
    pub files: Vec<FileSummary>,
    /// Every problem, errors and warnings, in file order then position.
    pub diagnostics: Vec<Diagnostic>,
    /// The resolved tile set, present only when there are no errors.
    pub tileset: Option<TileSet>,
    /// Where each tile of `tileset` is written, indexed like its tiles (empty without one).
    pub places: Vec<TilePlace>,
    /// Where each figure, marker kind, effect and feature kind is declared, in set order (empty
    /// without a tile set).
    pub declarations: Vec<DeclarationPlace>,
}

/// Where a figure, marker kind, effect or feature kind is declared: its file, its table there
/// and its id, so that a later stage (the play check) can report it at its `file:line:col`.
#[derive(Clone)]
pub struct DeclarationPlace {
    file: Arc<(SharedSource, crate::source::SpanMap)>,
    table: &'static str,
    id: String,
    pointer: String,
}

/// The tables of a file whose entries `Report::declaration_diagnostic` can place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    /// `[[figure]]`.
    Figure,
    /// `[[marker]]`.
    Marker,
    /// `[[effect]]`.
    Effect,
    /// `[[feature]]`.
    Feature,
}

impl Declared {
    /// The table's name in a file (and its JSON pointer's first segment).
    pub const fn table(self) -> &'static str {
        match self {
            Declared::Figure => "figure",
            Declared::Marker => "marker",
            Declared::Effect => "effect",
            Declared::Feature => "feature",
        }
    }
}

/// Where a tile is written: its file and its table there, so that a later stage (the
/// renderer's picture check) can report a problem of the tile at its `file:line:col`.
#[derive(Clone)]
pub struct TilePlace {
    /// The file's text and its spans, shared by the tiles of the file.
    file: Arc<(SharedSource, crate::source::SpanMap)>,
    pointer: String,
}

/// The one-line summary of a file.
#[derive(Clone, Debug)]
pub struct FileSummary {
    /// The file's name.
    pub name: String,
    /// The set id, when the file got far enough to say it.
    pub set: Option<String>,
    /// Tile types in it.
    pub tiles: usize,
    /// Errors in it.
    pub errors: usize,
    /// Warnings in it.
    pub warnings: usize,
}

impl Report {
    /// Whether any error was found.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// A warning about tile `tile` (an index into the tile set's tiles) found after loading,
    /// placed at the tile's `id` and counted in its file's summary; `None` when the report has
    /// no place for that tile (a tile set changed after loading).
    pub fn tile_warning(
        &self,
        tile: usize,
        code: &'static str,
        message: impl Into<String>,
    ) -> Option<Diagnostic> {
        self.tile_diagnostic(tile, Severity::Warning, "id", code, message)
    }

    /// A diagnostic about tile `tile` found after loading, placed at the value of its `key`
    /// (`id`, `edges`); `None` when the report has no place for that tile.
    pub fn tile_diagnostic(
        &self,
        tile: usize,
        severity: Severity,
        key: &str,
        code: &'static str,
        message: impl Into<String>,
    ) -> Option<Diagnostic> {
        let place = self.places.get(tile)?;
        // Spans are built only now: a valid file that never has a warning never pays for them.
        let (source, spans) = &*place.file;
        let span = spans.value_span(&format!("{}/{key}", place.pointer));
        Some(diagnostic(severity, code, source, span, message).label("this tile"))
    }

    /// A diagnostic about a declaration found after loading, placed at the key `key` of the
    /// first declaration of `id` in `table` (`id`, `scoring/option`: the nearest key written);
    /// `None` when no loaded file declares it.
    pub fn declaration_diagnostic(
        &self,
        table: Declared,
        id: &str,
        key: &str,
        severity: Severity,
        code: &'static str,
        message: impl Into<String>,
    ) -> Option<Diagnostic> {
        let place = (self.declarations.iter()).find(|d| d.table == table.table() && d.id == id)?;
        let (source, spans) = &*place.file;
        let span = spans.value_span(&format!("{}/{key}", place.pointer));
        Some(diagnostic(severity, code, source, span, message).label("here"))
    }

    /// Adds a diagnostic found after loading, in file order then position as the others, and
    /// counts it in its file's summary.
    pub fn push(&mut self, d: Diagnostic) {
        if let Some(f) = self.files.iter_mut().find(|f| f.name == d.file()) {
            match d.severity {
                Severity::Error => f.errors += 1,
                Severity::Warning => f.warnings += 1,
            }
        }
        let file_of = |d: &Diagnostic| {
            self.files
                .iter()
                .position(|f| f.name == d.file())
                .unwrap_or(usize::MAX)
        };
        let key = (file_of(&d), d.span.start, d.severity);
        let at = self
            .diagnostics
            .partition_point(|e| (file_of(e), e.span.start, e.severity) <= key);
        self.diagnostics.insert(at, d);
    }
}

fn diagnostic(
    severity: Severity,
    code: &'static str,
    source: &SharedSource,
    span: std::ops::Range<usize>,
    message: impl Into<String>,
) -> Diagnostic {
    match severity {
        Severity::Error => Diagnostic::error(code, source, span, message),
        Severity::Warning => Diagnostic::warning(code, source, span, message),
    }
}

/// Where each figure, marker kind, effect and feature kind of the files is declared, the files
/// taken in the tile set's set order (a declaration repeated by a later set is found at the
/// first).
fn declarations(
    parsed: &[Parsed],
    shared: &[Arc<(SharedSource, crate::source::SpanMap)>],
    tileset: &TileSet,
) -> Vec<DeclarationPlace> {
    let mut files: Vec<usize> = (0..parsed.len()).collect();
    let rank = |f: &usize| {
        let name = parsed[*f].source.name();
        (tileset.sets.iter())
            .position(|s| s.source == name)
            .unwrap_or(usize::MAX)
    };
    files.sort_by_key(rank);
    let mut out = Vec::new();
    for f in files {
        let file = &parsed[f].file;
        let tables = [
            (
                Declared::Figure,
                file.figures.iter().map(|d| &d.id).collect::<Vec<_>>(),
            ),
            (
                Declared::Marker,
                file.markers.iter().map(|d| &d.id).collect(),
            ),
            (
                Declared::Effect,
                file.effects.iter().map(|d| &d.id).collect(),
            ),
            (
                Declared::Feature,
                file.features.iter().map(|d| &d.id).collect(),
            ),
        ];
        for (table, ids) in tables {
            for (i, id) in ids.into_iter().enumerate() {
                out.push(DeclarationPlace {
                    file: shared[f].clone(),
                    table: table.table(),
                    id: id.clone(),
                    pointer: format!("/{}/{i}", table.table()),
                });
            }
        }
    }
    out
}

/// The bundled definitions, compiled into the binary, in the order `read_paths` reads the
/// `definitions/` folder (file names sorted): the same files give the same tables, kind numbers
/// and games for a seed, bundled or read from disk.
pub fn bundled() -> Vec<Source> {
    BUNDLED
        .iter()
        .map(|(name, text)| Source {
            name: format!("definitions/{name}"),
            text: text.to_string(),
        })
        .collect()
}

/// The bundled files by name; each file is named after the set it declares (tested).
const BUNDLED: [(&str, &str); 9] = [
    (
        "abbey-and-mayor.toml",
        include_str!("../../definitions/abbey-and-mayor.toml"),
    ),
    ("base.toml", include_str!("../../definitions/base.toml")),
    (
        "festival.toml",
        include_str!("../../definitions/festival.toml"),
    ),
    (
        "inns-and-cathedrals.toml",
        include_str!("../../definitions/inns-and-cathedrals.toml"),
    ),
    (
        "princess-and-dragon.toml",
        include_str!("../../definitions/princess-and-dragon.toml"),
    ),
    (
        "river-2.toml",
        include_str!("../../definitions/river-2.toml"),
    ),
    ("river.toml", include_str!("../../definitions/river.toml")),
    (
        "traders-and-builders.toml",
        include_str!("../../definitions/traders-and-builders.toml"),
    ),
    (
        "village-life.toml",
        include_str!("../../definitions/village-life.toml"),
    ),
];

/// The ids of the bundled sets (each file is named after its set), without parsing any.
pub fn bundled_set_ids() -> impl Iterator<Item = &'static str> {
    BUNDLED
        .iter()
        .filter_map(|(name, _)| name.strip_suffix(".toml"))
}

/// The text of the bundled file declaring set `id`, without copying or parsing any.
pub(crate) fn bundled_text(id: &str) -> Option<&'static str> {
    (BUNDLED.iter())
        .find(|(name, _)| name.strip_suffix(".toml") == Some(id))
        .map(|(_, text)| *text)
}

/// What follows the name of a bundled set loaded beside an author's files
/// (`definitions/base.toml (bundled)`), so it is never shown as if read from disk.
pub const BUNDLED_SUFFIX: &str = " (bundled)";

/// The set id a file's text declares and the sets it requires, read leniently (a file that
/// does not parse declares none).
pub fn declared_set(text: &str) -> (Option<String>, Vec<String>) {
    // The `[set]` table comes before the tiles in a file written as documented: parsing only
    // that head keeps a 10,000-tile file from being parsed twice. Else the whole text.
    let head = text.find("\n[[tile]]").map_or(text, |end| &text[..end]);
    let (mut value, _, _) = parse(head);
    if value["set"].is_null() && head.len() < text.len() {
        value = parse(text).0;
    }
    let set = &value["set"];
    let id = set["id"].as_str().map(str::to_string);
    let requires = set["requires"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    (id, requires)
}

/// The bundled sets that the files with these texts require, transitively, and that none of
/// them declares itself: in the bundled order (a requirement before what requires it), each
/// named `… (bundled)`. An author's folder holding only their expansion still resolves
/// `requires = ["base"]` this way.
pub fn bundled_requirements<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<Source> {
    let bundled: Vec<(Option<String>, Vec<String>, Source)> = bundled()
        .into_iter()
        .map(|s| {
            let (id, requires) = declared_set(&s.text);
            (id, requires, s)
        })
        .collect();
    let mut have: Vec<String> = Vec::new();
    let mut wanted: Vec<String> = Vec::new();
    for text in texts {
        let (id, requires) = declared_set(text);
        have.extend(id);
        wanted.extend(requires);
    }
    let mut needed = vec![false; bundled.len()];
    while let Some(id) = wanted.pop() {
        if have.contains(&id) {
            continue;
        }
        if let Some(i) = bundled.iter().position(|(b, _, _)| b.as_ref() == Some(&id)) {
            needed[i] = true;
            wanted.extend(bundled[i].1.iter().cloned());
        }
        have.push(id);
    }
    bundled
        .into_iter()
        .zip(needed)
        .filter(|(_, needed)| *needed)
        .map(|((_, _, mut source), _)| {
            source.name.push_str(BUNDLED_SUFFIX);
            source
        })
        .collect()
}

/// Loads the bundled definitions; they are tested to be valid.
pub fn load_bundled() -> TileSet {
    let report = load(bundled());
    match report.tileset {
        Some(tileset) => tileset,
        None => panic!(
            "the bundled definitions are invalid: {:#?}",
            report.diagnostics
        ),
    }
}

/// Reads files and folders (a folder's `*.toml` files, sorted by name, not recursing). A
/// `.toml` entry of a folder that cannot be read (a dangling or looping symlink, a device) is an
/// error naming it, never skipped in silence.
pub fn read_paths(paths: &[PathBuf]) -> Result<Vec<Source>, ReadError> {
    let mut sources = Vec::new();
    for path in paths {
        let io = |source| ReadError::Io {
            path: path.clone(),
            source,
        };
        if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(io)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "toml"))
                .collect();
            files.sort();
            if files.is_empty() {
                return Err(ReadError::Empty(path.clone()));
            }
            for file in files {
                sources.push(read_file(&file)?);
            }
        } else {
            sources.push(read_file(path)?);
        }
    }
    Ok(sources)
}

/// Reads a text file of at most `MAX_FILE_BYTES`, refusing anything but a regular file.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    use std::io::Read;
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    // Looked at before opening: opening a FIFO would wait for a writer.
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(path.to_path_buf()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            size: meta.len(),
        });
    }
    let file = std::fs::File::open(path).map_err(io)?;
    // The limit holds even for a file that grows while it is read.
    let mut text = String::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(io)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            size: text.len() as u64,
        });
    }
    Ok(text)
}

fn read_file(path: &Path) -> Result<Source, ReadError> {
    Ok(Source {
        name: path.display().to_string(),
        text: read_text(path)?,
    })
}

/// Loads sources together: every file is checked alone, then all of them together.
pub fn load(sources: Vec<Source>) -> Report {
    let schema = SchemaChecker::new();
    let files: Vec<FileCheck> = sources
        .into_iter()
        .map(|s| check_file(s, &schema))
        .collect();
    check_files(&files)
}

/// One file checked alone: its syntax, format version, schema and model. This is the part of
/// loading that depends on the file's text only, so an editor or server keeps it per file and
/// redoes it only when that file changes.
#[derive(Clone)]
pub struct FileCheck {
    name: String,
    source: SharedSource,
    parsed: Option<Parsed>,
    diagnostics: Vec<Diagnostic>,
}

impl FileCheck {
    /// The file's name as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file's text with its line index.
    pub fn source(&self) -> &SharedSource {
        &self.source
    }

    /// The file as written, when it got past the schema (tiles that failed it left out).
    pub fn model(&self) -> Option<&TileSetFile> {
        self.parsed.as_ref().map(|p| &p.file)
    }

    /// The file's spans by JSON pointer, when it parsed.
    pub fn spans(&self) -> Option<&crate::source::SpanMap> {
        self.parsed.as_ref().map(|p| &p.spans)
    }

    /// The problems found in this file alone.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Whether the file is a game record, left out of the definitions with a note.
    pub fn is_game_record(&self) -> bool {
        self.parsed.is_none() && self.diagnostics.iter().any(|d| d.code == GAME_RECORD)
    }
}

/// Checks one file alone (syntax, format version, schema, model); see `FileCheck`.
pub fn check_file(source: Source, schema: &SchemaChecker) -> FileCheck {
    let dir = Path::new(&source.name)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let name = source.name.clone();
    let shared: SharedSource = Arc::new(SourceFile::new(source.name, Arc::from(source.text)));
    let mut diagnostics = Vec::new();
    let parsed =
        parse_one(&shared, schema, &mut diagnostics).map(|(file, spans, tile_index)| Parsed {
            source: shared.clone(),
            spans,
            file,
            dir,
            tile_index,
        });
    FileCheck {
        name,
        source: shared,
        parsed,
        diagnostics,
    }
}

/// Checks files already checked alone together (the semantic and cross-file checks), giving
/// the same report as `load` on their sources.
pub fn check_files(checked: &[FileCheck]) -> Report {
    let mut diagnostics = Vec::new();
    let mut parsed = Vec::new();
    let mut files = Vec::new();
    // Some file lost tiles to the schema: checks that need every tile would report falsely.
    let mut partial = false;
    for c in checked {
        diagnostics.extend(c.diagnostics.iter().cloned());
        if c.is_game_record() {
            continue;
        }
        files.push(FileSummary {
            name: c.name.clone(),
            set: c.parsed.as_ref().map(|p| p.file.set.id.clone()),
            tiles: c.parsed.as_ref().map_or(0, |p| p.file.tiles.len()),
            errors: 0,
            warnings: 0,
        });
        if let Some(p) = &c.parsed {
            partial |= !c.diagnostics.is_empty();
            parsed.push(p.clone());
        }
    }
    let all_parsed = parsed.len() == files.len();
    let mut places = Vec::new();
    let mut declared = Vec::new();
    let tileset = if all_parsed {
        let mut found = Vec::new();
        let tileset = check(&parsed, &mut found).map(|(tileset, ptrs)| {
            let shared: Vec<_> = parsed
                .iter()
                .map(|p| Arc::new((p.source.clone(), p.spans.clone())))
                .collect();
            places = ptrs
                .into_iter()
                .map(|(f, pointer)| TilePlace {
                    file: shared[f].clone(),
                    pointer,
                })
                .collect();
            declared = declarations(&parsed, &shared, &tileset);
            tileset
        });
        // In a file whose required set is missing, every name from that set is unknown: report
        // the missing set, not the cascade of consequences.
        let orphans: Vec<String> = found
            .iter()
            .filter(|d| d.code == "tilekit::missing-requirement")
            .map(|d| d.file().to_string())
            .collect();
        diagnostics.extend(found.into_iter().filter(|d| {
            (!orphans.iter().any(|f| f == d.file()) || d.code == "tilekit::missing-requirement")
                && !(partial && needs_every_tile(d.code))
        }));
        tileset.filter(|_| !partial)
    } else {
        // Cross-file checks on a partial load would report false problems (a missing
        // requirement that is only broken); check each good file's own content instead.
        let mut scratch = Vec::new();
        check(&parsed, &mut scratch);
        diagnostics.extend(scratch.into_iter().filter(|d| !cross_file(d.code)));
        None
    };
    diagnostics.sort_by_key(|d| {
        let file = files
            .iter()
            .position(|f| f.name == d.file())
            .unwrap_or(usize::MAX);
        (file, d.span.start, d.severity)
    });
    for d in &diagnostics {
        if let Some(f) = files.iter_mut().find(|f| f.name == d.file()) {
            match d.severity {
                Severity::Error => f.errors += 1,
                Severity::Warning => f.warnings += 1,
            }
        }
    }
    if tileset.is_none() {
        places.clear();
        declared.clear();
    }
    Report {
        files,
        diagnostics,
        tileset,
        places,
        declarations: declared,
    }
}

/// Codes of checks that need every tile of every file to be right.
fn needs_every_tile(code: &str) -> bool {
    matches!(
        code,
        "tilekit::no-start-tile"
            | "tilekit::unplaceable"
            | "tilekit::like-unknown"
            | "tilekit::cannot-start"
            | "tilekit::unused-vocabulary"
    )
}

/// Codes of checks that need every file loaded to be right.
fn cross_file(code: &str) -> bool {
    matches!(
        code,
        "tilekit::missing-requirement"
            | "tilekit::no-start-tile"
            | "tilekit::not-required"
            | "tilekit::unknown-reference"
            | "tilekit::unplaceable"
            | "tilekit::like-unknown"
            | "tilekit::cannot-start"
            | "tilekit::unused-vocabulary"
    )
}

/// Parses and schema-checks one file. A file whose header or vocabulary fails the schema is
/// reported alone (`None`); tiles that fail it are left out, so that the semantic checks still
/// run on the rest. Returns the file, its spans, and the index as written of each tile kept.
/// The code of the note that a file is a game record, left out of the definitions.
const GAME_RECORD: &str = "tilekit::game-record";

/// Whether a parsed file is a game record (`[game]`, `[[turn]]`) rather than a tile set: records
/// are saved beside definitions (the page's "save the record"), and a folder holding one must
/// still load.
fn is_game_record(value: &serde_json::Value) -> bool {
    let has = |key: &str| value.get(key).is_some();
    !has("format") && !has("set") && (has("game") || has("turn"))
}

fn parse_one(
    source: &SharedSource,
    schema: &SchemaChecker,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(TileSetFile, crate::source::SpanMap, Vec<usize>)> {
    let text: &str = source.inner();
    let (value, spans, syntax) = parse(text);
    // After a syntax error the parser's recovery reports follow-on errors that are not the
    // author's; the first one is the one to fix.
    if let Some(e) = syntax.into_iter().next() {
        diagnostics.push(
            Diagnostic::error("tilekit::syntax", source, e.span, format!("TOML syntax: {}", e.message))
                .label("here")
                .hint("see https://toml.io for the syntax; strings need quotes, tables `[name]`, lists `[a, b]`"),
        );
        return None;
    }
    if is_game_record(&value) {
        let key = if value.get("game").is_some() {
            "/game"
        } else {
            "/turn"
        };
        diagnostics.push(
            Diagnostic::warning(
                GAME_RECORD,
                source,
                spans.key_span(key),
                format!(
                    "`{}` is a game record, not tile definitions: left out",
                    source.name()
                ),
            )
            .label("a record's `[game]` and `[[turn]]`, no `format` or `[set]`")
            .hint(format!("play it with `tilekit play {}`", source.name())),
        );
        return None;
    }
    if let Some(version) = value.get("format").filter(|v| v.is_number())
        && version.as_u64() != Some(u64::from(FORMAT_VERSION))
        && version
            .as_f64()
            .is_some_and(|v| v.fract() == 0.0 && v >= 1.0)
    {
        let span = spans.value_span("/format");
        let written = &text[span.clone()];
        let whole = written
            .chars()
            .all(|c| c.is_ascii_digit() || c == '_' || c == '+');
        let message = match version.as_u64().and_then(|v| u32::try_from(v).ok()) {
            _ if !whole => {
                format!("`format` should be a whole number, found the decimal number {written}")
            }
            Some(v) => {
                format!("this file is in format {v}; this tilekit reads format {FORMAT_VERSION}")
            }
            None => format!(
                "`format` {written} is out of range; this tilekit reads format {FORMAT_VERSION}"
            ),
        };
        diagnostics.push(
            Diagnostic::error("tilekit::format-version", source, span, message)
                .hint("upgrade tilekit, or write `format = 1`"),
        );
        return None;
    }
    let problems = schema.check_at(&value, &spans, source);
    let mut broken = std::collections::BTreeSet::new();
    let mut whole_file = false;
    for (pointer, _) in &problems {
        match tile_of(pointer) {
            Some(t) => {
                broken.insert(t);
            }
            None => whole_file = true,
        }
    }
    diagnostics.extend(problems.into_iter().map(|(_, d)| d));
    if whole_file {
        return None;
    }
    let serde_value::Split { header, tiles } = serde_value::split(value);
    let mut file = match deserialize::<TileSetFile>(&header, "", &spans, source) {
        Ok(file) => file,
        Err(d) => {
            diagnostics.push(d);
            return None;
        }
    };
    let mut kept = Vec::with_capacity(tiles.len());
    file.tiles.reserve(tiles.len());
    for (t, tile) in tiles.iter().enumerate() {
        if broken.contains(&t) {
            continue;
        }
        match deserialize(tile, &format!("/tile/{t}"), &spans, source) {
            Ok(def) => {
                file.tiles.push(def);
                kept.push(t);
            }
            Err(d) => diagnostics.push(d),
        }
    }
    Some((file, spans, kept))
}

/// The index of the tile a JSON pointer is in, if it is in one.
fn tile_of(pointer: &str) -> Option<usize> {
    let rest = pointer.strip_prefix("/tile/")?;
    rest.split('/').next()?.parse().ok()
}

/// Deserialises a value that matched the schema. The schema takes `2.0` for a whole number and
/// serde does not: that is the author's mistake, reported at the number; anything else is a
/// bug in tilekit, still reported rather than a panic.
fn deserialize<T: serde::de::DeserializeOwned>(
    value: &serde_json::Value,
    pointer: &str,
    spans: &crate::source::SpanMap,
    source: &SharedSource,
) -> Result<T, Diagnostic> {
    T::deserialize(value).map_err(|e| match serde_value::decimal_where_whole(value, pointer) {
        Some(at) => {
            let span = spans.value_span(&at);
            let written = source.inner()[span.clone()].to_string();
            let null = serde_json::Value::Null;
            let place = match value.get("id").and_then(serde_json::Value::as_str) {
                Some(id) if !pointer.is_empty() => format!(
                    "tile `{id}`, {}",
                    crate::schema::describe(&at[pointer.len()..], &null)
                ),
                _ => crate::schema::describe(&at, &null),
            };
            Diagnostic::error(
                "tilekit::schema",
                source,
                span,
                format!("{place} should be a whole number, found the decimal number {written}"),
            )
            .label("expected a whole number")
            .hint(format!(
                "write it without a decimal point: `{}`",
                written.trim_end_matches(".0")
            ))
        }
        None => Diagnostic::error(
            "tilekit::model",
            source,
            spans.value_span(pointer),
            format!("the file matches the schema but not the model: {e}"),
        ),
    })
}

/// Taking the JSON value of a file apart for deserialising it piece by piece.
mod serde_value {
    use serde_json::Value;

    /// A file's value: everything but the tiles, and the tiles.
    pub struct Split {
        pub header: Value,
        pub tiles: Vec<Value>,
    }

    pub fn split(value: Value) -> Split {
        let Value::Object(mut root) = value else {
            return Split {
                header: value,
                tiles: Vec::new(),
            };
        };
        let tiles = match root.remove("tile") {
            Some(Value::Array(tiles)) => tiles,
            _ => Vec::new(),
        };
        Split {
            header: Value::Object(root),
            tiles,
        }
    }

    /// The pointer of the first decimal number with a whole value outside drawing hints (where
    /// every whole number of the format lives), if any.
    pub fn decimal_where_whole(value: &Value, pointer: &str) -> Option<String> {
        match value {
            Value::Number(n) if n.is_f64() && !pointer.contains("/art/") => {
                Some(pointer.to_string())
            }
            Value::Array(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, v)| decimal_where_whole(v, &format!("{pointer}/{i}"))),
            Value::Object(map) => map.iter().find_map(|(k, v)| {
                let mut p = pointer.to_string();
                p.push('/');
                crate::source::push_escaped(&mut p, k);
                decimal_where_whole(v, &p)
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(sources: &[Source]) -> Vec<&str> {
        sources.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn bundled_requirements_are_transitive_and_in_bundled_order() {
        let mine = "[set]\nid = \"lakes\"\nrequires = [\"river-2\"]\n\n[[tile]]\nid = \"X\"\n";
        let added = bundled_requirements([mine]);
        assert_eq!(
            names(&added),
            [
                "definitions/base.toml (bundled)",
                "definitions/river-2.toml (bundled)",
                "definitions/river.toml (bundled)",
            ]
        );
        let river = bundled()
            .into_iter()
            .find(|s| s.name.ends_with("/river.toml"));
        assert_eq!(added[2].text, river.map(|s| s.text).unwrap_or_default());
    }

    #[test]
    fn the_bundled_sets_are_the_definitions_folder_as_read_from_disk() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../definitions");
        let read = read_paths(&[folder]).expect("the definitions folder reads");
        let file_name = |s: &Source| s.name.rsplit('/').next().unwrap_or_default().to_string();
        let bundled = bundled();
        assert_eq!(
            bundled.iter().map(file_name).collect::<Vec<_>>(),
            read.iter().map(file_name).collect::<Vec<_>>(),
            "same files, same order"
        );
        for (b, r) in bundled.iter().zip(&read) {
            assert!(b.text == r.text, "{} differs from the file on disk", b.name);
        }
    }

    #[test]
    fn a_set_the_files_declare_is_not_added() {
        let base = "[set]\nid = \"base\"\n";
        let mine = "[set]\nid = \"lakes\"\nrequires = [\"base\", \"river\"]\n";
        assert_eq!(
            names(&bundled_requirements([mine, base])),
            ["definitions/river.toml (bundled)"]
        );
        assert!(bundled_requirements([base]).is_empty());
    }

    #[test]
    fn broken_and_unknown_requirements_add_nothing() {
        assert!(bundled_requirements(["[set\nid = \"x\"\nrequires = [\"base\"]"]).is_empty());
        assert!(bundled_requirements(["[set]\nid = \"x\"\nrequires = [\"nowhere\"]\n"]).is_empty());
        assert!(bundled_requirements(["[set]\nrequires = \"base\"\n"]).is_empty());
    }

    #[test]
    fn each_bundled_file_is_named_after_its_set() {
        for source in bundled() {
            let id = declared_set(&source.text).0.expect("a set id");
            assert_eq!(source.name, format!("definitions/{id}.toml"));
            assert_eq!(bundled_text(&id), Some(source.text.as_str()));
        }
    }

    #[test]
    fn declared_set_reads_the_head_or_the_whole_file() {
        let head_first = "[set]\nid = \"a\"\nrequires = [\"base\"]\n\n[[tile]]\nid = \"T\"\n";
        assert_eq!(
            declared_set(head_first),
            (Some("a".to_string()), vec!["base".to_string()])
        );
        let set_last = "[[tile]]\nid = \"T\"\n\n[set]\nid = \"b\"\n";
        assert_eq!(declared_set(set_last), (Some("b".to_string()), vec![]));
    }
}
