//! What the author types, at any cursor: a document's text opened in the language server, then
//! completion and hover at a position the input chooses. The session target (`lsp`) reaches a
//! cursor inside a half-written header or string only by luck, through JSON escapes; this one
//! mutates the text itself. Nothing an author types may panic the server.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    // The first two bytes are the cursor's line and column; the rest is the document.
    let [line, character, text @ ..] = data else {
        return;
    };
    let text = String::from_utf8_lossy(text);
    let uri = "file:///fuzz/mine.toml";
    let position = json!({ "line": line, "character": character });
    let at = json!({ "textDocument": { "uri": uri }, "position": position });
    let request = |id: i32, method: &str, params| {
        Message::Request(Request::new(RequestId::from(id), method.into(), params))
    };
    let notify =
        |method: &str, params| Message::Notification(Notification::new(method.into(), params));
    let session = [
        request(1, "initialize", json!({ "capabilities": {} })),
        notify("initialized", json!({})),
        notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "toml", "version": 1, "text": text } }),
        ),
        request(2, "textDocument/completion", at.clone()),
        request(3, "textDocument/hover", at),
        request(4, "shutdown", serde_json::Value::Null),
        notify("exit", serde_json::Value::Null),
    ];
    let (server, client) = Connection::memory();
    let serving = std::thread::spawn(move || tilekit_lsp::run(&server));
    for message in session {
        if client.sender.send(message).is_err() {
            break;
        }
    }
    let Connection { sender, receiver } = client;
    drop(sender);
    for message in receiver.iter() {
        // A bug caught by the server's guard is still a bug here.
        if let Message::Response(r) = message
            && let Err(e) = &r.response_result
            && e.message.contains("a bug")
        {
            panic!("the server failed on a request: {}", e.message);
        }
    }
    if let Err(panic) = serving.join() {
        std::panic::resume_unwind(panic);
    }
});
