//! tilekit-lsp owns `tilekit lsp`, the language server of the definition files: over stdio it
//! publishes tilekit's own diagnostics as the author types (syntax, schema and the semantic
//! checks across the files of the document's folder, with the unsaved text counting), completes
//! keys, table names, ports, road ends and the ids of the loaded vocabulary, and shows a key's
//! schema docs on hover. It is an edge of the analysis host (`tilekit-analysis`): it reads the
//! files, the host checks them. The protocol is rust-analyzer's own small synchronous crates,
//! `lsp-server` (framing, the message loop) and `lsp-types`.
//!
//! Modules: `server` (the loop, documents and folders into the host, diagnostics out),
//! `context` (where the cursor stands, read from text that need not parse), `complete`
//! (completion and hover at a place), `position` (offsets ↔ editor positions), `files`
//! (URIs, folders).

mod complete;
mod context;
mod files;
mod position;
mod server;

pub use position::Encoding;

use lsp_server::Connection;
use lsp_types::{
    CompletionOptions, HoverProviderCapability, InitializeParams, PositionEncodingKind,
    ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions,
};

/// Why the server stopped other than by the client's `exit`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The client broke the protocol (or never initialized).
    #[error("language server protocol: {0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    /// Standard input or output failed.
    #[error("language server I/O: {0}")]
    Io(#[from] std::io::Error),
    /// The client went away without `shutdown` and `exit`.
    #[error("the client closed the connection without shutting the server down")]
    Disconnected,
    /// The client said `exit` without `shutdown` first.
    #[error("the client said `exit` without `shutdown`")]
    ExitWithoutShutdown,
}

/// Serves one client on standard input and output until it says `exit` (or goes away).
pub fn run_stdio() -> Result<(), Error> {
    let (connection, io) = Connection::stdio();
    let result = run(&connection);
    // The writer thread ends when the last sender is gone.
    drop(connection);
    io.join()?;
    result
}

/// Serves one client on a connection: the initialize handshake, then the message loop.
pub fn run(connection: &Connection) -> Result<(), Error> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let encoding = negotiate(&params);
    let capabilities = ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(
                ["\"", "'", "[", "{", ",", ".", "="]
                    .map(String::from)
                    .to_vec(),
            ),
            ..CompletionOptions::default()
        }),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": { "name": "tilekit", "version": env!("CARGO_PKG_VERSION") },
    });
    connection.initialize_finish(id, result)?;
    if watches_files(&params) {
        register_watcher(connection)?;
    }
    let mut server = server::Server::new(connection, encoding);
    while let Ok(message) = connection.receiver.recv() {
        if let Some(end) = server.handle(message)?.end() {
            return end;
        }
        // Whatever else has arrived is handled first, so a burst of keystrokes is checked once.
        while let Ok(message) = connection.receiver.try_recv() {
            if let Some(end) = server.handle(message)?.end() {
                return end;
            }
        }
        if server.dirty() {
            server.publish()?;
        }
    }
    Err(Error::Disconnected)
}

/// Whether the client lets the server ask it to watch files (`workspace/didChangeWatchedFiles`
/// by dynamic registration; the protocol has no static way).
fn watches_files(params: &InitializeParams) -> bool {
    params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|d| d.dynamic_registration)
        .unwrap_or(false)
}

/// Asks the client to report every `.toml` file created, changed or deleted on disk, so that a
/// file changed outside the editor (a required set, say) re-checks the open documents. The
/// client's answer is not waited for: without it, saves in the editor still count.
fn register_watcher(connection: &Connection) -> Result<(), Error> {
    use lsp_types::request::{RegisterCapability, Request as _};
    let options = lsp_types::DidChangeWatchedFilesRegistrationOptions {
        watchers: vec![lsp_types::FileSystemWatcher {
            glob_pattern: lsp_types::GlobPattern::String("**/*.toml".to_string()),
            kind: None,
        }],
    };
    let params = lsp_types::RegistrationParams {
        registrations: vec![lsp_types::Registration {
            id: "tilekit-watched-files".to_string(),
            method: "workspace/didChangeWatchedFiles".to_string(),
            register_options: serde_json::to_value(options).ok(),
        }],
    };
    let request = lsp_server::Request::new(
        lsp_server::RequestId::from("tilekit-watch".to_string()),
        RegisterCapability::METHOD.to_string(),
        params,
    );
    connection
        .sender
        .send(request.into())
        .map_err(|_| Error::Disconnected)
}

/// UTF-8 columns when the client offers them (no conversion), else the protocol's UTF-16.
fn negotiate(params: &InitializeParams) -> Encoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    if offered.is_some_and(|list| list.contains(&PositionEncodingKind::UTF8)) {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    }
}
