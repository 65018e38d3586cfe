//! Diagnostics: one problem in one file, with a span, a message in the author's terms and a hint.
//!
//! A `Diagnostic` is a plain value that implements `miette::Diagnostic`, so the CLI renders it
//! with a caret under the exact key or value; `to_json` gives the same facts to editors and CI.

use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use serde::Serialize;
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The input is wrong; nothing is built from it.
    Error,
    /// Probably a mistake, but the input is usable.
    Warning,
}

/// A file's text with its name, shared by all diagnostics of that file.
pub type SharedSource = Arc<SourceFile>;

/// An excerpt longer than this many bytes is cut to a window around the span it shows.
const MAX_EXCERPT: usize = 1_000;
/// How many bytes of a cut excerpt are kept on each side of the span.
const EXCERPT_MARGIN: usize = 60;
/// How much of a long span a cut excerpt shows.
const EXCERPT_SPAN: usize = 200;

/// A definitions file as diagnostics show it: its name, its text, and where its lines start.
///
/// Lines are indexed once, on the first question, so that placing each of many diagnostics in
/// a large file costs a binary search rather than a scan from its start; excerpts of very long
/// lines are cut to a window around the span.
pub struct SourceFile {
    name: String,
    text: Arc<str>,
    line_starts: OnceLock<Vec<usize>>,
}

impl SourceFile {
    /// A file by its name and text.
    pub fn new(name: impl Into<String>, text: Arc<str>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text,
            line_starts: OnceLock::new(),
        }
    }

    /// The name diagnostics show.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file's text.
    pub fn inner(&self) -> &Arc<str> {
        &self.text
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        })
    }

    /// The 0-based line a byte offset is on.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts()
            .partition_point(|&start| start <= offset)
            .saturating_sub(1)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_boundary(&self.text, offset);
        let line = self.line_of(offset);
        let start = self.line_starts()[line];
        (line + 1, self.text[start..offset].chars().count() + 1)
    }
}

impl fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SourceFile")
            .field("name", &self.name)
            .field("len", &self.text.len())
            .finish()
    }
}

impl SourceCode for SourceFile {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text: &str = &self.text;
        let len = text.len();
        let start = span.offset().min(len);
        let end = (span.offset() + span.len()).clamp(start, len);
        // Let miette find the context lines, but only among the lines around the span.
        let starts = self.line_starts();
        let first = self.line_of(start).saturating_sub(context_lines_before);
        let last = self.line_of(end.saturating_sub(1).max(start)) + context_lines_after;
        let lo = starts[first];
        let hi = starts.get(last + 1).copied().unwrap_or(len);
        let window = &text[lo..hi];
        let inner = window.read_span(
            &SourceSpan::new((start - lo).into(), end - start),
            context_lines_before,
            context_lines_after,
        )?;
        let mut from = lo + inner.span().offset();
        let mut to = from + inner.data().len();
        let mut line = first + inner.line();
        let column = inner.column();
        if to - from > MAX_EXCERPT {
            let cut_from = floor_boundary(text, start.saturating_sub(EXCERPT_MARGIN).max(from));
            let shown_end = end.min(start + EXCERPT_SPAN);
            let cut_to = ceil_boundary(text, (shown_end + EXCERPT_MARGIN).min(to));
            if context_lines_before > 0 {
                // The excerpt now starts inside its first line, which is shown from there.
                line = self.line_of(cut_from);
                from = cut_from;
            }
            to = cut_to.max(from);
        }
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &text.as_bytes()[from..to],
            SourceSpan::new(from.into(), to - from),
            line,
            column,
            inner.line_count(),
        )))
    }
}

/// Shortens each `quoted` name longer than 60 characters in a message: an author's 5 MB
/// string is shown by its start, as the excerpt shows it by its place.
fn clip_quotes(message: String) -> String {
    const LONGEST: usize = 60;
    if message.len() <= LONGEST {
        return message;
    }
    let mut out = String::with_capacity(message.len().min(1_000));
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Odd parts are inside backticks.
        if i % 2 == 1 && part.chars().count() > LONGEST {
            out.extend(part.chars().take(LONGEST - 20));
            out.push('…');
        } else {
            out.push_str(part);
        }
    }
    out
}

fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn ceil_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset += 1;
    }
    offset
}

/// One problem found in the definitions.
#[derive(Clone)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable code, e.g. `tilekit::port-unowned`.
    pub code: &'static str,
    /// What is wrong, in the author's terms.
    pub message: String,
    /// The file it is in.
    pub source: SharedSource,
    /// The byte span of the key or value it is about.
    pub span: Range<usize>,
    /// The text under the caret.
    pub label: String,
    /// How to fix it, when we can say.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error at a span.
    pub fn error(
        code: &'static str,
        source: &SharedSource,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let message = clip_quotes(message.into());
        Diagnostic {
            severity: Severity::Error,
            code,
            label: String::from("here"),
            message,
            source: source.clone(),
            span,
            hint: None,
        }
    }

    /// A warning at a span.
    pub fn warning(
        code: &'static str,
        source: &SharedSource,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, source, span, message)
        }
    }

    /// Sets the text under the caret.
    pub fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    /// Adds a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    /// The file name.
    pub fn file(&self) -> &str {
        self.source.name()
    }

    /// 1-based line and column (in characters) of the span's start.
    pub fn line_col(&self) -> (usize, usize) {
        self.source.line_col(self.span.start)
    }

    /// The facts of this diagnostic as JSON, for `--format json`.
    pub fn to_json(&self) -> serde_json::Value {
        let (line, column) = self.line_col();
        let (end_line, end_column) = self.source.line_col(self.span.end);
        serde_json::json!({
            "file": self.file(),
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "line": line,
            "column": column,
            "end_line": end_line,
            "end_column": end_column,
            "label": self.label,
            "hint": self.hint,
        })
    }

    /// Renders the diagnostic as text with a caret, without colours (for logs and snapshots).
    pub fn render_plain(&self) -> String {
        let mut out = String::new();
        let handler =
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
                .with_width(100)
                .with_links(false);
        if handler.render_report(&mut out, self).is_err() {
            out = self.to_string();
        }
        out
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    SourceFile::new("", Arc::from(text)).line_col(offset)
}

impl fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (line, col) = self.line_col();
        write!(
            f,
            "{}:{}:{}: {:?}: {}",
            self.file(),
            line,
            col,
            self.severity,
            self.message
        )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.hint
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&*self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        // A span too long to show is underlined by its start, as the excerpt is cut there.
        let mut span = self.span.clone();
        if span.len() > MAX_EXCERPT {
            span.end = ceil_boundary(self.source.inner(), span.start + EXCERPT_SPAN);
        }
        let span = LabeledSpan::new_with_span(Some(self.label.clone()), span);
        Some(Box::new(std::iter::once(span)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("ab\ncdé f", 0), (1, 1));
        assert_eq!(line_col("ab\ncdé f", 3), (2, 1));
        assert_eq!(line_col("ab\ncdé f", 8), (2, 5));
        assert_eq!(line_col("ab", 99), (1, 3));
    }
}
