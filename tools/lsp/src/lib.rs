//! tilekit-lsp owns `tilekit lsp`, the language server of the definition files: over stdio it
//! publishes tilekit's own diagnostics as the author types (syntax, schema and the semantic
//! checks across the files of the document's folder, with the unsaved text counting), completes
//! keys, table names, ports, road ends and the ids of the loaded vocabulary, and shows a key's
//! schema docs on hover. It is an edge of the analysis host (`tilekit-analysis`): it reads the
//! files, the host checks them. The protocol is rust-analyzer's own small synchronous crates,
//! `lsp-server` (the messages, the handshake) and `lsp-types`; the framing on standard input is
//! our own (`frame`), which checks a declared length before reading a byte of it.
//!
//! Modules: `frame` (reading framed messages within limits), `server` (the loop, documents and folders into the host, diagnostics out),
//! `context` (where the cursor stands, read from text that need not parse), `complete`
//! (completion and hover at a place), `position` (offsets ↔ editor positions), `files`
//! (URIs, folders).

mod complete;
mod context;
mod files;
mod frame;
mod position;
mod server;

pub use frame::{FrameError, MAX_HEADER_BYTES, MAX_MESSAGE_BYTES, read_message};
pub use position::Encoding;

use lsp_server::{Connection, Message};
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
    /// Standard input broke the protocol's framing (a length over the limit, say).
    #[error("language server input: {0}")]
    Frame(FrameError),
    /// The client went away without `shutdown` and `exit`.
    #[error("the client closed the connection without shutting the server down")]
    Disconnected,
    /// The client said `exit` without `shutdown` first.
    #[error("the client said `exit` without `shutdown`")]
    ExitWithoutShutdown,
}

/// Serves one client on standard input and output until it says `exit` (or goes away).
pub fn run_stdio() -> Result<(), Error> {
    // Rendezvous channels, as `lsp_server::Connection::stdio` has: the reader is never ahead
    // of the server by more than one message.
    let (to_server, from_client) = crossbeam_channel::bounded(0);
    let (to_client, for_client) = crossbeam_channel::bounded(0);
    let (failed, failure) = crossbeam_channel::bounded(1);
    // Not joined: it may be blocked on standard input when the server stops.
    std::thread::Builder::new()
        .name("lsp-reader".to_string())
        .spawn(move || read_stdin(&to_server, &failed))?;
    let writer = std::thread::Builder::new()
        .name("lsp-writer".to_string())
        .spawn(move || write_stdout(&for_client))?;
    let connection = Connection {
        sender: to_client,
        receiver: from_client,
    };
    let result = run(&connection);
    // The writer thread ends when the last sender is gone.
    drop(connection);
    let written = writer
        .join()
        .unwrap_or_else(|_| Err(std::io::Error::other("the writer thread panicked")));
    // The reader reports its failure before it hangs up, so a server that stopped for want of
    // messages finds the reason here.
    match (result, failure.try_recv()) {
        (Err(_), Ok(frame)) => Err(Error::Frame(frame)),
        (result, _) => result.and(written.map_err(Error::from)),
    }
}

/// Forwards framed messages from standard input until it ends, `exit` passes, or the server
/// hangs up; a framing error goes to `failed` first.
fn read_stdin(
    to_server: &crossbeam_channel::Sender<Message>,
    failed: &crossbeam_channel::Sender<FrameError>,
) {
    let mut input = std::io::stdin().lock();
    loop {
        match read_message(&mut input) {
            Ok(Some(message)) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if to_server.send(message).is_err() || exit {
                    return;
                }
            }
            Ok(None) => return,
            Err(e) => {
                let _ = failed.send(e);
                return;
            }
        }
    }
}

/// Writes the server's messages to standard output, framed, until the server is done.
fn write_stdout(for_client: &crossbeam_channel::Receiver<Message>) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    for message in for_client {
        message.write(&mut out)?;
    }
    Ok(())
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
