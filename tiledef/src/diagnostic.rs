//! Diagnostics: one problem in one file, with a span, a message in the author's terms and a hint.
//!
//! A `Diagnostic` is a plain value that implements `miette::Diagnostic`, so the CLI renders it
//! with a caret under the exact key or value; `to_json` gives the same facts to editors and CI.

use miette::{LabeledSpan, NamedSource, SourceCode};
use serde::Serialize;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

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
pub type SharedSource = Arc<NamedSource<Arc<str>>>;

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
        let message = message.into();
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
        line_col(self.source.inner(), self.span.start)
    }

    /// The facts of this diagnostic as JSON, for `--format json`.
    pub fn to_json(&self) -> serde_json::Value {
        let (line, column) = self.line_col();
        let (end_line, end_column) = line_col(self.source.inner(), self.span.end);
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
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
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
        let span = LabeledSpan::new_with_span(Some(self.label.clone()), self.span.clone());
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
