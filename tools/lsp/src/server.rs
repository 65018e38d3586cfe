//! The protocol loop: the editor's open documents and their folders go into the analysis host,
//! and its diagnostics come back out as `publishDiagnostics`; completion and hover are answered
//! from the document's text at once, without waiting for the checks.

use crate::complete;
use crate::files;
use crate::position::{Encoding, LineIndex};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{Completion, HoverRequest, Request as _};
use lsp_types::{
    CompletionParams, CompletionResponse, DiagnosticSeverity, DidChangeTextDocumentParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams, HoverParams,
    NumberOrString, Position, PublishDiagnosticsParams, Range, Uri,
};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::str::FromStr;
use tilekit_analysis::{AnalysisHost, BUNDLED_SUFFIX, Symbols};

/// An open document.
struct Doc {
    /// Its name in the host (its path, or the URI when it is not a file).
    name: String,
    text: String,
    version: i32,
}

/// Whether the loop goes on.
#[derive(PartialEq, Eq)]
pub enum Flow {
    /// On to the next message.
    Continue,
    /// `shutdown`, then `exit`: done.
    Exit,
    /// `exit` without `shutdown`.
    Abort,
}

impl Flow {
    /// How the loop ends here, if it does.
    pub fn end(self) -> Option<Result<(), crate::Error>> {
        match self {
            Flow::Continue => None,
            Flow::Exit => Some(Ok(())),
            Flow::Abort => Some(Err(crate::Error::ExitWithoutShutdown)),
        }
    }
}

/// The server's state between messages.
pub struct Server<'c> {
    connection: &'c Connection,
    host: AnalysisHost,
    encoding: Encoding,
    /// Open documents by URI.
    open: HashMap<String, Doc>,
    /// The URI of each file loaded into the host (bundled sets have none).
    uris: HashMap<String, String>,
    /// Folders whose definition files were read, with the files each gave.
    folders: HashMap<PathBuf, Vec<String>>,
    /// A hash of what was last published per URI, so an unchanged list is not sent again.
    published: HashMap<String, u64>,
    /// Files changed since diagnostics were last published.
    dirty: bool,
}

impl<'c> Server<'c> {
    /// A server with nothing loaded.
    pub fn new(connection: &'c Connection, encoding: Encoding) -> Server<'c> {
        Server {
            connection,
            host: AnalysisHost::new(),
            encoding,
            open: HashMap::new(),
            uris: HashMap::new(),
            folders: HashMap::new(),
            published: HashMap::new(),
            dirty: false,
        }
    }

    /// Whether files changed since diagnostics were last published.
    pub fn dirty(&self) -> bool {
        self.dirty
    }

    /// Handles one message from the client.
    pub fn handle(&mut self, message: Message) -> Result<Flow, crate::Error> {
        match message {
            Message::Request(request) => {
                if self.connection.handle_shutdown(&request)? {
                    return Ok(Flow::Exit);
                }
                let response = self.request(request);
                self.send(response.into())?;
            }
            Message::Notification(n) => {
                if n.method == "exit" {
                    return Ok(Flow::Abort);
                }
                if let Err(e) = self.notification(n) {
                    self.log(&e);
                }
            }
            Message::Response(_) => {}
        }
        Ok(Flow::Continue)
    }

    fn send(&self, message: Message) -> Result<(), crate::Error> {
        self.connection
            .sender
            .send(message)
            .map_err(|_| crate::Error::Disconnected)
    }

    /// Tells the client's log (an editor's output panel) something went wrong.
    fn log(&self, text: &str) {
        let params = lsp_types::LogMessageParams {
            typ: lsp_types::MessageType::WARNING,
            message: format!("tilekit: {text}"),
        };
        let _ = self.send(Notification::new("window/logMessage".into(), params).into());
    }

    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        // A request only reads the server's state, so a bug that panics in one answers that
        // request with an error and the editor keeps its server (and the author their session).
        let answer =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(request)));
        answer.unwrap_or_else(|_| {
            Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("tilekit lsp failed on this {method} request (a bug: please report it)"),
            )
        })
    }

    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            Completion::METHOD => serde_json::from_value::<CompletionParams>(request.params)
                .map(|p| {
                    let at = p.text_document_position;
                    CompletionResponse::Array(
                        self.completion(at.text_document.uri.as_str(), at.position),
                    )
                })
                .map(|r| serde_json::to_value(r).unwrap_or_default()),
            HoverRequest::METHOD => serde_json::from_value::<HoverParams>(request.params)
                .map(|p| {
                    let at = p.text_document_position_params;
                    self.hover(at.text_document.uri.as_str(), at.position)
                })
                .map(|r| serde_json::to_value(r).unwrap_or_default()),
            _ => {
                return Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("tilekit lsp does not answer {}", request.method),
                );
            }
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(e) => Response::new_err(id, ErrorCode::InvalidParams as i32, e.to_string()),
        }
    }

    fn notification(&mut self, n: Notification) -> Result<(), String> {
        let params = n.params;
        let bad = |e: serde_json::Error| format!("bad {} params: {e}", n.method);
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let p: DidOpenTextDocumentParams = serde_json::from_value(params).map_err(bad)?;
                let d = p.text_document;
                self.opened(d.uri.as_str(), d.text, d.version);
            }
            DidChangeTextDocument::METHOD => {
                let p: DidChangeTextDocumentParams = serde_json::from_value(params).map_err(bad)?;
                let uri = p.text_document.uri.as_str();
                let encoding = self.encoding;
                let Some(doc) = self.open.get_mut(uri) else {
                    return Err(format!("a change to {uri}, which is not open"));
                };
                for change in p.content_changes {
                    match change.range {
                        // Full sync, as the server asks for.
                        None => doc.text = change.text,
                        Some(range) => {
                            let index = LineIndex::new(&doc.text, encoding);
                            let (start, end) = (index.offset(range.start), index.offset(range.end));
                            doc.text.replace_range(start..end.max(start), &change.text);
                        }
                    }
                }
                doc.version = p.text_document.version;
                let (name, text) = (doc.name.clone(), doc.text.clone());
                self.set(&name, uri, Some(text));
            }
            DidSaveTextDocument::METHOD => {
                let p: DidSaveTextDocumentParams = serde_json::from_value(params).map_err(bad)?;
                // Other files of the folder may have come or gone.
                if let Some(dir) = files::uri_to_path(p.text_document.uri.as_str())
                    .and_then(|p| p.parent().map(PathBuf::from))
                {
                    self.read_folder(dir);
                }
            }
            DidChangeWatchedFiles::METHOD => {
                let p: lsp_types::DidChangeWatchedFilesParams =
                    serde_json::from_value(params).map_err(bad)?;
                // A file changed on disk outside the editor: its folder is read again if it is
                // one the open documents were checked with (an open document's own text is the
                // editor's, which the folder read leaves alone).
                let mut dirs: Vec<PathBuf> = p
                    .changes
                    .iter()
                    .filter_map(|c| files::uri_to_path(c.uri.as_str()))
                    .filter_map(|p| p.parent().map(PathBuf::from))
                    .filter(|d| self.folders.contains_key(d))
                    .collect();
                dirs.sort();
                dirs.dedup();
                for dir in dirs {
                    self.read_folder(dir);
                }
            }
            DidCloseTextDocument::METHOD => {
                let p: DidCloseTextDocumentParams = serde_json::from_value(params).map_err(bad)?;
                let uri = p.text_document.uri.as_str();
                if let Some(doc) = self.open.remove(uri) {
                    // What counts now is what is on disk (the editor dropped any unsaved text).
                    let disk = files::uri_to_path(uri)
                        .and_then(|p| tiledef::read_text(&p).ok())
                        .filter(|t| files::is_definitions(t));
                    self.set(&doc.name, uri, disk);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn opened(&mut self, uri: &str, text: String, version: i32) {
        let path = files::uri_to_path(uri);
        let name = path
            .as_ref()
            .map_or_else(|| uri.to_string(), |p| p.to_string_lossy().into_owned());
        self.open.insert(
            uri.to_string(),
            Doc {
                name: name.clone(),
                text: text.clone(),
                version,
            },
        );
        if let Some(dir) = path.as_ref().and_then(|p| p.parent()) {
            self.read_folder(dir.to_path_buf());
        }
        self.set(&name, uri, Some(text));
    }

    /// Reads a folder's definition files that are not open (the open ones count as the
    /// editor has them), and forgets those that left it.
    fn read_folder(&mut self, dir: PathBuf) {
        let found = files::folder_definitions(&dir);
        let open: HashSet<&str> = self.open.values().map(|d| d.name.as_str()).collect();
        let mut names = Vec::new();
        let mut changes = Vec::new();
        for (path, text) in found {
            let name = path.to_string_lossy().into_owned();
            if !open.contains(name.as_str()) {
                changes.push((name.clone(), files::path_to_uri(&path), Some(text)));
            }
            names.push(name);
        }
        for gone in self.folders.get(&dir).into_iter().flatten() {
            if !names.contains(gone) && !open.contains(gone.as_str()) {
                let uri = self.uris.get(gone).cloned().unwrap_or_default();
                changes.push((gone.clone(), uri, None));
            }
        }
        for (name, uri, text) in changes {
            self.set(&name, &uri, text);
        }
        self.folders.insert(dir, names);
    }

    /// Says that a file now reads `text` (a text that is no definition file is none).
    fn set(&mut self, name: &str, uri: &str, text: Option<String>) {
        let text = text.filter(|t| files::is_definitions(t) || self.host.text(name).is_some());
        match &text {
            Some(_) => {
                self.uris.insert(name.to_string(), uri.to_string());
            }
            None => {
                self.uris.remove(name);
                // Its diagnostics go with it: marked as published, the next publish sends it an empty list.
                if !uri.is_empty() {
                    self.published.entry(uri.to_string()).or_insert(0);
                }
            }
        }
        if self.host.apply_change(name, text) {
            self.dirty = true;
        }
        if self.host.sync_bundled() {
            self.dirty = true;
        }
    }

    /// The names the loaded files declare, and those the document declares even when it does
    /// not parse.
    fn symbols(&self, text: &str) -> Symbols {
        // Once the document says which set it is, only its set's and its requirements' names
        // (the checker refuses the others); before that, every loaded name.
        let (set, requires) = tiledef::declared_set(text);
        let mut s = match &set {
            Some(set) => self.host.symbols_in_scope(Some((set, &requires))),
            None => self.host.symbols(),
        };
        let own = crate::context::declared(text);
        for (all, mine) in [
            (&mut s.edge_kinds, own.edge_kinds),
            (&mut s.colours, own.colours),
            (&mut s.markers, own.markers),
            (&mut s.sets, own.sets),
            (&mut s.tiles, own.tiles),
            (&mut s.editions, own.editions),
        ] {
            all.extend(mine);
            all.sort();
            all.dedup();
        }
        s
    }

    fn completion(&self, uri: &str, at: Position) -> Vec<lsp_types::CompletionItem> {
        let Some(doc) = self.open.get(uri) else {
            return Vec::new();
        };
        if !files::is_definitions(&doc.text) && !doc.text.trim().is_empty() {
            return Vec::new();
        }
        let index = LineIndex::new(&doc.text, self.encoding);
        let offset = index.offset(at);
        complete::completions(&doc.text, offset, &self.symbols(&doc.text), &index)
    }

    fn hover(&self, uri: &str, at: Position) -> Option<lsp_types::Hover> {
        let doc = self.open.get(uri)?;
        if !files::is_definitions(&doc.text) {
            return None;
        }
        let index = LineIndex::new(&doc.text, self.encoding);
        let definition = |vocabulary, id: &str| self.host.definition(vocabulary, id);
        complete::hover(
            &doc.text,
            index.offset(at),
            &index,
            definition,
            &self.symbols(&doc.text),
        )
    }

    /// Runs the checks across the files and sends each file's diagnostics that changed.
    pub fn publish(&mut self) -> Result<(), crate::Error> {
        self.dirty = false;
        let analysis = self.host.analysis();
        let mut by_file: HashMap<&str, Vec<lsp_types::Diagnostic>> = HashMap::new();
        let mut from_bundled = Vec::new();
        let mut index: Option<(&str, LineIndex)> = None;
        for d in &analysis.diagnostics {
            let name = d.file();
            if name.ends_with(BUNDLED_SUFFIX) {
                from_bundled.push(d);
                continue;
            }
            if index.as_ref().is_none_or(|(n, _)| *n != name) {
                index = Some((name, LineIndex::new(d.source.inner(), self.encoding)));
            }
            let Some((_, lines)) = &index else { continue };
            let range = Range::new(lines.position(d.span.start), lines.position(d.span.end));
            by_file.entry(name).or_default().push(to_lsp(d, range));
        }
        // A problem inside a bundled set (an id the author's file takes again, say) has no file
        // of its own in the editor: it is shown at the top of each open document.
        let top = Range::new(Position::new(0, 0), Position::new(0, 0));
        for doc in self.open.values() {
            for d in &from_bundled {
                let (line, col) = d.line_col();
                let mut relayed = to_lsp(d, top);
                relayed.message = format!("in {}:{line}:{col}: {}", d.file(), relayed.message);
                by_file.entry(&doc.name).or_default().push(relayed);
            }
        }
        let mut sends = Vec::new();
        for name in self.host.file_names() {
            let Some(uri) = self.uris.get(name) else {
                continue;
            };
            let diagnostics = by_file.remove(name).unwrap_or_default();
            let version = self.open.get(uri).map(|d| d.version);
            sends.push((uri.clone(), diagnostics, version));
        }
        let loaded: HashSet<String> = sends.iter().map(|(u, ..)| u.clone()).collect();
        for uri in self.published.keys() {
            if !loaded.contains(uri) {
                sends.push((uri.clone(), Vec::new(), None));
            }
        }
        for (uri, diagnostics, version) in sends {
            let hash = {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                serde_json::to_string(&diagnostics)
                    .unwrap_or_default()
                    .hash(&mut h);
                h.finish()
            };
            let unchanged = self.published.get(&uri) == Some(&hash);
            // Nothing published yet and nothing to say: stay quiet.
            let needless = diagnostics.is_empty() && !self.published.contains_key(&uri);
            if unchanged || needless {
                continue;
            }
            let Ok(parsed) = Uri::from_str(&uri) else {
                continue;
            };
            if diagnostics.is_empty() && !loaded.contains(&uri) {
                self.published.remove(&uri);
            } else {
                self.published.insert(uri, hash);
            }
            let params = PublishDiagnosticsParams {
                uri: parsed,
                diagnostics,
                version,
            };
            self.send(Notification::new(PublishDiagnostics::METHOD.into(), params).into())?;
        }
        Ok(())
    }
}

/// A tilekit diagnostic as the protocol says one: the hint on a line of its own.
fn to_lsp(d: &tiledef::Diagnostic, range: Range) -> lsp_types::Diagnostic {
    let mut message = d.message.clone();
    if let Some(hint) = &d.hint {
        message.push_str("\nhint: ");
        message.push_str(hint);
    }
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            tiledef::Severity::Error => DiagnosticSeverity::ERROR,
            tiledef::Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        source: Some("tilekit".to_string()),
        message,
        ..lsp_types::Diagnostic::default()
    }
}
