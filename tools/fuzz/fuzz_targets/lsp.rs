//! A client's byte stream to `tilekit lsp`: framed messages read with the server's limits, then
//! served by the language server (over an in-memory connection) as a session. Nothing a client
//! sends may panic the reader or the server.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsp_server::{Connection, Message};

/// Messages served from one input: a session is a handshake and a few requests.
const MAX_MESSAGES: usize = 64;

fuzz_target!(|data: &[u8]| {
    let mut input = data;
    let mut messages: Vec<Message> = Vec::new();
    while messages.len() < MAX_MESSAGES {
        match tilekit_lsp::read_message(&mut input) {
            Ok(Some(message)) => messages.push(message),
            Ok(None) | Err(_) => break,
        }
    }
    if messages.is_empty() {
        return;
    }
    let (server, client) = Connection::memory();
    let serving = std::thread::spawn(move || tilekit_lsp::run(&server));
    for message in messages {
        if client.sender.send(message).is_err() {
            break;
        }
    }
    // The client goes away: the server ends (an error unless it was shut down and exited).
    let Connection { sender, receiver } = client;
    drop(sender);
    for _ in receiver.iter() {}
    if let Err(panic) = serving.join() {
        std::panic::resume_unwind(panic);
    }
});
