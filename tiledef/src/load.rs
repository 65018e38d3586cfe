//! Loading: files → spans and JSON → schema check → typed model → semantic checks → `TileSet`.

use crate::check::{Parsed, check};
use crate::diagnostic::{Diagnostic, Severity, SharedSource};
use crate::model::{FORMAT_VERSION, TileSetFile};
use crate::schema::SchemaChecker;
use crate::source::{Source, parse};
use crate::tileset::TileSet;
use miette::NamedSource;
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
}

/// The bundled definitions, compiled into the binary.
pub fn bundled() -> Vec<Source> {
    let file = |name: &str, text: &str| Source {
        name: format!("definitions/{name}"),
        text: text.to_string(),
    };
    vec![
        file("base.toml", include_str!("../../definitions/base.toml")),
        file(
            "festival.toml",
            include_str!("../../definitions/festival.toml"),
        ),
        file(
            "village-life.toml",
            include_str!("../../definitions/village-life.toml"),
        ),
    ]
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
    let mut diagnostics = Vec::new();
    let mut parsed = Vec::new();
    let mut files = Vec::new();
    for source in sources {
        let dir = Path::new(&source.name)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let name = source.name.clone();
        let shared: SharedSource = Arc::new(NamedSource::new(source.name, Arc::from(source.text)));
        let before = diagnostics.len();
        let file = parse_one(&shared, &schema, &mut diagnostics);
        files.push(FileSummary {
            name,
            set: file.as_ref().map(|(f, _)| f.set.id.clone()),
            tiles: file.as_ref().map_or(0, |(f, _)| f.tiles.len()),
            errors: 0,
            warnings: 0,
        });
        if let Some((file, spans)) = file
            && diagnostics.len() == before
        {
            parsed.push(Parsed {
                source: shared,
                spans,
                file,
                dir,
            });
        }
    }
    let all_parsed = parsed.len() == files.len();
    let tileset = if all_parsed {
        let mut found = Vec::new();
        let tileset = check(&parsed, &mut found);
        // In a file whose required set is missing, every name from that set is unknown: report
        // the missing set, not the cascade of consequences.
        let orphans: Vec<String> = found
            .iter()
            .filter(|d| d.code == "tilekit::missing-requirement")
            .map(|d| d.file().to_string())
            .collect();
        diagnostics.extend(found.into_iter().filter(|d| {
            !orphans.iter().any(|f| f == d.file()) || d.code == "tilekit::missing-requirement"
        }));
        tileset
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
    Report {
        files,
        diagnostics,
        tileset,
    }
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
    )
}

fn parse_one(
    source: &SharedSource,
    schema: &SchemaChecker,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(TileSetFile, crate::source::SpanMap)> {
    let text: &str = source.inner();
    let (value, spans, syntax) = parse(text);
    // After a syntax error the parser's recovery reports follow-on errors that are not the
    // author's; the first one is the one to fix.
    if let Some(e) = syntax.into_iter().next() {
        {
            diagnostics.push(
                Diagnostic::error("tilekit::syntax", source, e.span, format!("TOML syntax: {}", e.message))
                    .label("here")
                    .hint("see https://toml.io for the syntax; strings need quotes, tables `[name]`, lists `[a, b]`"),
            );
        }
        return None;
    }
    if let Some(version) = value.get("format").and_then(|v| v.as_u64())
        && version != u64::from(FORMAT_VERSION)
    {
        diagnostics.push(
            Diagnostic::error(
                "tilekit::format-version",
                source,
                spans.value_span("/format"),
                format!(
                    "this file is in format {version}; this tilekit reads format {FORMAT_VERSION}"
                ),
            )
            .hint("upgrade tilekit, or write `format = 1`"),
        );
        return None;
    }
    let problems = schema.check(&value, &spans, source);
    if !problems.is_empty() {
        diagnostics.extend(problems);
        return None;
    }
    match serde_json::from_value::<TileSetFile>(value) {
        Ok(file) => Some((file, spans)),
        Err(e) => {
            // The schema is generated from these types, so this is a bug in tilekit, but the
            // author still gets a diagnostic rather than a panic.
            diagnostics.push(Diagnostic::error(
                "tilekit::model",
                source,
                0..0,
                format!("the file matches the schema but not the model: {e}"),
            ));
            None
        }
    }
}
