//! End-to-end tests of `tilekit lsp`: a client that speaks the protocol (Content-Length framing
//! over the child's stdin and stdout) initializes, opens and changes documents, asks for
//! completions and hovers, and reads the diagnostics the server publishes.

mod common;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long a test waits for a message before it fails (a hung server, not a slow one).
const PATIENCE: Duration = Duration::from_secs(120);

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    /// Notifications that arrived while waiting for something else.
    pending: Vec<Value>,
    next_id: i64,
}

/// Reads framed messages until the stream ends.
fn read_messages(stdout: impl Read, to: std::sync::mpsc::Sender<Value>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse::<usize>().ok();
            }
        }
        let mut body = vec![0; length.expect("a Content-Length header")];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let message = serde_json::from_slice(&body).expect("a JSON message");
        if to.send(message).is_err() {
            return;
        }
    }
}

impl Client {
    /// Starts `tilekit lsp` and initializes it (offering only UTF-16 columns, as VS Code does).
    fn start() -> Client {
        Client::start_with(json!({}))
    }

    /// Starts `tilekit lsp` and initializes it with these client capabilities.
    fn start_with(capabilities: Value) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tilekit"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tilekit lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (to, messages) = channel();
        std::thread::spawn(move || read_messages(stdout, to));
        let mut client = Client {
            child,
            stdin,
            messages,
            pending: Vec::new(),
            next_id: 0,
        };
        let init = client.request(
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": capabilities }),
        );
        let caps = &init["capabilities"];
        assert_eq!(caps["positionEncoding"], "utf-16");
        assert_eq!(caps["textDocumentSync"]["change"], 1, "full sync");
        assert_eq!(caps["hoverProvider"], true);
        assert!(caps["completionProvider"]["triggerCharacters"].is_array());
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn next(&mut self) -> Value {
        match self.messages.recv_timeout(PATIENCE) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server went away"),
        }
    }

    /// Sends a request and waits for its answer (keeping notifications met on the way).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let m = self.next();
            if m["id"] == id && m.get("method").is_none() {
                assert!(m.get("error").is_none(), "{method}: {m}");
                return m["result"].clone();
            }
            self.pending.push(m);
        }
    }

    /// Waits for the diagnostics of `uri` that `wanted` accepts, skipping earlier lists.
    fn diagnostics(&mut self, uri: &str, wanted: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let is_it = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        let mut pending = std::mem::take(&mut self.pending).into_iter();
        loop {
            let m = pending.next().unwrap_or_else(|| self.next());
            if is_it(&m) {
                let list = m["params"]["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                if wanted(&list) {
                    self.pending.extend(pending);
                    return list;
                }
            }
        }
    }

    fn open(&mut self, uri: &str, text: &str) {
        let doc = json!({ "uri": uri, "languageId": "toml", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    }

    fn change(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [{ "text": text }],
            }),
        );
    }

    /// The labels offered at the `|` of a text, after sending it as the document's text.
    fn complete(&mut self, uri: &str, marked: &str) -> Vec<Value> {
        let (line, character) = cursor(marked);
        self.change(uri, 100, &marked.replacen('|', "", 1));
        let result = self.request(
            "textDocument/completion",
            json!({
                "textDocument": { "uri": uri },
                "position": { "line": line, "character": character },
            }),
        );
        result.as_array().cloned().unwrap_or_default()
    }

    fn hover(&mut self, uri: &str, line: usize, character: usize) -> Value {
        self.request(
            "textDocument/hover",
            json!({
                "textDocument": { "uri": uri },
                "position": { "line": line, "character": character },
            }),
        )
    }

    /// Shuts the server down as an editor does and checks it exits cleanly.
    fn stop(mut self) {
        let reply = self.request("shutdown", Value::Null);
        assert_eq!(reply, Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("the server exits");
        assert!(status.success(), "{status}");
    }
}

/// The line and UTF-16 column of the `|` in a text.
fn cursor(marked: &str) -> (usize, usize) {
    let at = marked.find('|').expect("a cursor");
    let before = &marked[..at];
    let line = before.matches('\n').count();
    let column = before
        .rsplit('\n')
        .next()
        .unwrap_or("")
        .encode_utf16()
        .count();
    (line, column)
}

fn labels(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .filter_map(|i| i["label"].as_str().map(str::to_string))
        .collect()
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// An expansion that requires a set of the same folder, which requires the bundled base game.
const MINE: &str = r#"format = 1

[set]
id = "mine"
name = "Mine"
requires = ["other"]

[[tile]]
id = "M1"
count = 1
edges = { n = "city", e = "lava", s = "field", w = "field" }
cities = [{ ports = ["N"] }]
fields = [{ ports = ["ENE", "ESE", "SSE", "SSW", "WSW", "WNW"], cities = ["N"] }]
"#;

const OTHER: &str = r#"format = 1

[set]
id = "other"
name = "Other"
requires = ["base"]

[[edge_kind]]
id = "lava"
name = "Lava"
centre = "none"
halves = "field"
meets = { field = "connect" }

[[marker]]
id = "smoke"
name = "Smoke"
on = "tile"
"#;

#[test]
fn deep_checks_reach_the_editor_as_the_author_types() {
    let dir = common::scratch("lsp-diagnostics");
    std::fs::write(dir.join("other.toml"), OTHER).unwrap();
    // On disk the file is valid; what counts is the editor's unsaved text.
    std::fs::write(dir.join("mine.toml"), MINE).unwrap();
    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
    let mine = uri(&dir.join("mine.toml"));
    let mut client = Client::start();
    // A field holding half of the city's edge: a check across the features, not the schema's.
    let broken = MINE.replace("ports = [\"ENE\"", "ports = [\"NNE\", \"ENE\"");
    client.open(&mine, &broken);
    let found = client.diagnostics(&mine, |d| !d.is_empty());
    assert_eq!(found.len(), 1, "{found:?}");
    let d = &found[0];
    assert_eq!(d["code"], "tilekit::port-owned-by-area");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "tilekit");
    assert!(d["message"].as_str().unwrap().contains("`NNE`"), "{d}");
    let line = broken
        .lines()
        .position(|l| l.starts_with("fields"))
        .unwrap();
    assert_eq!(d["range"]["start"]["line"], line);
    let column = broken.lines().nth(line).unwrap().find("\"NNE\"").unwrap();
    assert_eq!(d["range"]["start"]["character"], column);
    assert_eq!(d["range"]["end"]["character"], column + 5);

    // Fixed: the list is emptied.
    let started = Instant::now();
    client.change(&mine, 2, MINE);
    client.diagnostics(&mine, |d| d.is_empty());
    eprintln!(
        "didChange → publishDiagnostics (the small file): {:?}",
        started.elapsed()
    );

    // `lava` resolves through `requires` against the unopened file; an unknown kind does not.
    client.change(&mine, 3, &MINE.replace("\"lava\"", "\"magma\""));
    let found = client.diagnostics(&mine, |d| !d.is_empty());
    let messages: Vec<&str> = found.iter().filter_map(|d| d["message"].as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("magma")), "{messages:?}");

    // A syntax error, with the position of a character after non-ASCII text counted in
    // UTF-16 units.
    let syntax = MINE.replace("name = \"Mine\"", "name = \"Mïne 𝄞\" x");
    client.change(&mine, 4, &syntax);
    let found = client.diagnostics(&mine, |d| {
        d.iter()
            .any(|d| d["code"].as_str().is_some_and(|c| c.contains("syntax")))
    });
    let line = syntax.lines().position(|l| l.starts_with("name")).unwrap();
    assert_eq!(found[0]["range"]["start"]["line"], line);
    let x = syntax.lines().nth(line).unwrap();
    let x = x[..x.rfind('x').unwrap()].encode_utf16().count();
    assert_eq!(found[0]["range"]["start"]["character"], x, "{found:?}");

    // A tile id the bundled base game has already: reported in the author's file, where the
    // editor shows it.
    client.change(&mine, 5, &MINE.replace("id = \"M1\"", "id = \"A\""));
    let found = client.diagnostics(&mine, |d| !d.is_empty());
    assert_eq!(found[0]["code"], "tilekit::duplicate-tile", "{found:?}");
    let line = MINE.lines().position(|l| l == "id = \"M1\"").unwrap();
    assert_eq!(found[0]["range"]["start"]["line"], line);

    // Closing the document: what counts is the file on disk again, which is valid.
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": mine } }),
    );
    client.diagnostics(&mine, |d| d.is_empty());
    client.stop();
}

#[test]
fn diagnostics_time_on_the_bundled_base_game() {
    // The repository's own folder: base.toml with its neighbours read from disk.
    let base = common::root().join("definitions/base.toml");
    let base = base.canonicalize().unwrap();
    let uri = uri(&base);
    let text = std::fs::read_to_string(&base).unwrap();
    let mut client = Client::start();
    client.open(&uri, &text);
    let broken = text.replacen("pennants = 1", "penants = 1", 1);
    let mut times = Vec::new();
    for round in 0..3 {
        let started = Instant::now();
        client.change(&uri, 2 + 2 * round, &broken);
        let found = client.diagnostics(&uri, |d| !d.is_empty());
        times.push(started.elapsed());
        assert!(
            found
                .iter()
                .any(|d| d["message"].as_str().unwrap_or("").contains("penants")),
            "{found:?}"
        );
        let started = Instant::now();
        client.change(&uri, 3 + 2 * round, &text);
        client.diagnostics(&uri, |d| d.is_empty());
        times.push(started.elapsed());
    }
    // Reported, never asserted: the machine's load is not the code's.
    eprintln!("didChange → publishDiagnostics on base.toml: {times:?}");
    client.stop();
}

#[test]
fn completion_offers_ports_vocabulary_and_keys() {
    let dir = common::scratch("lsp-completion");
    std::fs::write(dir.join("other.toml"), OTHER).unwrap();
    let stranger = OTHER
        .replace("\"other\"", "\"stranger\"")
        .replace("lava", "ember")
        .replace("smoke", "soot");
    std::fs::write(dir.join("stranger.toml"), stranger).unwrap();
    let mine = uri(&dir.join("mine.toml"));
    let mut client = Client::start();
    client.open(&mine, MINE);
    let head = MINE.split("[[tile]]").next().unwrap();

    // Ports: a city's are the centres, a field's the halves, in ring order.
    let items = client.complete(&mine, &format!("{head}[[tile]]\ncities = [{{ ports = [\"|"));
    assert_eq!(labels(&items), ["N", "E", "S", "W"]);
    let items = client.complete(&mine, &format!("{head}[[tile]]\nfields = [{{ ports = [|"));
    let l = labels(&items);
    assert_eq!(l.len(), 8);
    assert_eq!(l[0], "NNW");
    // Outside quotes, the quotes are inserted.
    assert_eq!(items[0]["textEdit"]["newText"], "\"NNW\"");
    // A field's `cities` names cities by a port.
    let items = client.complete(
        &mine,
        &format!("{head}[[tile]]\nfields = [{{ ports = [\"NNW\"], cities = [\"|"),
    );
    assert!(labels(&items).contains(&"N".to_string()));
    // A road's end: the schema's ends, with their docs.
    let items = client.complete(
        &mine,
        &format!("{head}[[tile]]\nroads = [{{ ports = [\"S\"], end = \"|\" }}]"),
    );
    let l = labels(&items);
    assert!(
        l.contains(&"junction".to_string()) && l.contains(&"W".to_string()),
        "{l:?}"
    );
    let monastery = items.iter().find(|i| i["label"] == "monastery").unwrap();
    assert!(
        monastery["documentation"]["value"]
            .as_str()
            .unwrap()
            .contains("monastery")
    );

    // Edge kinds: the base game's (bundled), the required file's, the document's own.
    let own = format!("{head}[[edge_kind]]\nid = \"ash\"\n[[tile]]\nedges = {{ n = \"|");
    let l = labels(&client.complete(&mine, &own));
    for kind in ["field", "road", "city", "lava", "ash"] {
        assert!(l.contains(&kind.to_string()), "{kind} in {l:?}");
    }
    // Markers, set ids, and tile ids for `like`; only from the sets the file requires.
    let l = labels(&client.complete(&mine, &format!("{head}[[tile]]\nmarkers = [\"|")));
    assert!(l.contains(&"smoke".to_string()), "{l:?}");
    assert!(
        !l.contains(&"soot".to_string()),
        "a set not required: {l:?}"
    );
    let requires = MINE.replace("requires = [\"other\"]", "requires = [\"other\", \"|");
    let l = labels(&client.complete(&mine, &requires));
    assert!(
        l.contains(&"base".to_string()) && l.contains(&"other".to_string()),
        "{l:?}"
    );
    let l = labels(&client.complete(&mine, &format!("{head}[[tile]]\nlike = \"|")));
    assert!(l.contains(&"D".to_string()), "{l:?}");

    // Editions as the keys of a `count` table, and edge kinds as those of `meets`.
    let l = labels(&client.complete(&mine, &format!("{head}[[tile]]\ncount = {{ C1 = 2, |")));
    assert_eq!(l, ["C2"]);
    let meets = format!("{head}[[edge_kind]]\nid = \"ash\"\nmeets = {{ |");
    let l = labels(&client.complete(&mine, &meets));
    assert!(
        l.contains(&"lava".to_string()) && l.contains(&"ash".to_string()),
        "{l:?}"
    );

    // Keys written below the cursor are not offered again.
    let l = labels(&client.complete(
        &mine,
        &format!("{head}[[tile]]\n|\nid = \"X\"\ncount = 1\n"),
    ));
    assert!(
        l.contains(&"edges".to_string())
            && !l.contains(&"id".to_string())
            && !l.contains(&"count".to_string()),
        "{l:?}"
    );
    // Keys: a half-typed one (replacing what is typed), and inside an inline table.
    let items = client.complete(&mine, &format!("{head}[[tile]]\nid = \"X\"\npenn|"));
    let l = labels(&items);
    assert!(
        l.contains(&"edges".to_string()) && !l.contains(&"id".to_string()),
        "{l:?}"
    );
    let edges = items.iter().find(|i| i["label"] == "edges").unwrap();
    assert_eq!(edges["textEdit"]["newText"], "edges = ");
    assert_eq!(edges["textEdit"]["range"]["start"]["character"], 0);
    assert_eq!(edges["textEdit"]["range"]["end"]["character"], 4);
    let items = client.complete(
        &mine,
        &format!("{head}[[tile]]\nroads = [{{ ports = [\"S\"], |"),
    );
    assert_eq!(labels(&items), ["end", "markers"]);
    // Table names in a header.
    let l = labels(&client.complete(&mine, &format!("{head}[[|")));
    assert!(
        l.contains(&"tile".to_string()) && l.contains(&"edge_kind".to_string()),
        "{l:?}"
    );
    // Nothing in a comment.
    assert!(
        client
            .complete(&mine, &format!("{head}# ports = [\"|"))
            .is_empty()
    );
    client.stop();
}

/// A set's own kind is offered where tiles and edges name kinds, and its key's hover is its
/// declaration.
#[test]
fn a_sets_own_kinds_are_completed_and_described() {
    let dir = common::scratch("lsp-kinds");
    let lakes = std::fs::read_to_string(common::root().join("tiledef/tests/fixtures/lakes.toml"))
        .expect("the fixture");
    std::fs::write(dir.join("lakes.toml"), &lakes).unwrap();
    let head = "format = 1\n[set]\nid = \"shores\"\nname = \"Shores\"\nrequires = [\"lakes\"]\n";
    let mine =
        format!("{head}\n[[tile]]\nid = \"S1\"\ncount = 1\nlakes = [{{ ports = [\"N\"] }}]\n");
    let uri = uri(&dir.join("shores.toml"));
    let mut client = Client::start();
    client.open(&uri, &mine);
    let keys = labels(&client.complete(&uri, &format!("{head}[[tile]]\n|")));
    assert!(
        keys.contains(&"lakes".to_string()) && keys.contains(&"island".to_string()),
        "{keys:?}"
    );
    assert!(keys.contains(&"cities".to_string()), "{keys:?}");
    // An area's feature: its ports and markers, no `end`.
    let items = client.complete(&uri, &format!("{head}[[tile]]\nlakes = [{{ |"));
    assert_eq!(labels(&items), ["ports", "markers"]);
    // Each documented from the schema's feature keys, as a city's are.
    for item in &items {
        assert!(!item["documentation"].is_null(), "{item}");
    }
    // A road may end at a lake; an edge may carry one, not a site.
    let ends = labels(&client.complete(
        &uri,
        &format!("{head}[[tile]]\nroads = [{{ ports = [\"S\"], end = \"|"),
    ));
    assert!(
        ends.contains(&"lake".to_string()) && ends.contains(&"junction".to_string()),
        "{ends:?}"
    );
    let carried = labels(&client.complete(
        &uri,
        &format!("{head}[[edge_kind]]\nid = \"x\"\ncentre = \"|"),
    ));
    assert!(
        carried.contains(&"lake".to_string()) && carried.contains(&"none".to_string()),
        "{carried:?}"
    );
    assert!(
        !carried.contains(&"island".to_string()),
        "a site is on no edge: {carried:?}"
    );
    // A lake's ports are centre ports, as an area's are.
    let ports =
        labels(&client.complete(&uri, &format!("{head}[[tile]]\nlakes = [{{ ports = [\"|")));
    assert!(ports.contains(&"N".to_string()), "{ports:?}");
    assert!(!ports.contains(&"NNW".to_string()), "{ports:?}");
    // A marker goes on the tile or on any kind; a figure stands on kinds.
    let places =
        labels(&client.complete(&uri, &format!("{head}[[marker]]\nid = \"fish\"\non = \"|")));
    assert!(
        ["tile", "lake", "island", "road"]
            .iter()
            .all(|p| places.contains(&p.to_string())),
        "{places:?}"
    );
    let on = labels(&client.complete(
        &uri,
        &format!("{head}[[figure]]\nid = \"fisher\"\non = [\"|"),
    ));
    assert!(
        on.contains(&"lake".to_string()) && !on.contains(&"tile".to_string()),
        "{on:?}"
    );
    // Hover on the key of the set's own kind shows its declaration.
    client.change(&uri, 200, &mine);
    let line = mine
        .lines()
        .position(|l| l.starts_with("lakes = "))
        .unwrap();
    let hover = client.hover(&uri, line, 1);
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        text.contains("[[feature]]") && text.contains("id = \"lake\""),
        "{text}"
    );
    client.stop();
}

#[test]
fn hover_shows_a_keys_schema_docs_inside_a_tile() {
    let dir = common::scratch("lsp-hover");
    std::fs::write(dir.join("other.toml"), OTHER).unwrap();
    let mine = uri(&dir.join("mine.toml"));
    let mut client = Client::start();
    client.open(&mine, MINE);
    let line = MINE.lines().position(|l| l.starts_with("cities")).unwrap();
    let hover = client.hover(&mine, line, 2);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("`tile.cities`"), "{text}");
    assert!(text.contains("the tile's cities"), "{text}");
    // A key inside an inline table, and the value of a key.
    let column = MINE.lines().nth(line).unwrap().find("ports").unwrap();
    let hover = client.hover(&mine, line, column + 1);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("`tile.cities.ports`"), "{text}");
    assert!(text.contains("centre ports"), "{text}");
    // The `[set]` table, outside the tiles.
    let line = MINE
        .lines()
        .position(|l| l.starts_with("requires"))
        .unwrap();
    let text = client.hover(&mine, line, 1)["contents"]["value"].clone();
    assert!(
        text.as_str()
            .unwrap()
            .contains("must be loaded with this one"),
        "{text}"
    );
    // Nothing to say on a blank line.
    assert_eq!(client.hover(&mine, 1, 0), Value::Null);
    // On an id where it is used: its declaration, as written, and where.
    let line = MINE.lines().position(|l| l.starts_with("edges")).unwrap();
    let column = MINE.lines().nth(line).unwrap().find("lava").unwrap();
    let text = client.hover(&mine, line, column + 1)["contents"]["value"].clone();
    let text = text.as_str().unwrap();
    assert!(
        text.contains("declared in") && text.contains("other.toml"),
        "{text}"
    );
    assert!(
        text.contains("[[edge_kind]]") && text.contains("name = \"Lava\""),
        "{text}"
    );
    client.stop();
}

#[test]
fn other_toml_files_and_unknown_requests_are_left_alone() {
    let dir = common::scratch("lsp-other");
    let cargo = uri(&dir.join("Cargo.toml"));
    let mut client = Client::start();
    client.open(&cargo, "[package]\nname = \"x\"\n");
    assert!(
        client
            .complete(&cargo, "[package]\nname = \"x\"\n|")
            .is_empty()
    );
    // An unknown request gets an error answer, and the server goes on.
    client.next_id += 1;
    let id = client.next_id;
    client.send(json!({ "jsonrpc": "2.0", "id": id, "method": "tilekit/nothing", "params": {} }));
    loop {
        let m = client.next();
        if m["id"] == id {
            assert_eq!(m["error"]["code"], -32601);
            break;
        }
    }
    // A change to a document that is not open is logged, not fatal.
    client.change("file:///nowhere/x.toml", 1, "format = 1\n");
    assert_eq!(client.hover(&cargo, 0, 1), Value::Null);
    // No diagnostics were ever published for Cargo.toml.
    assert!(
        !client
            .pending
            .iter()
            .any(|m| m["params"]["uri"] == cargo.as_str()),
        "{:?}",
        client.pending
    );
    client.stop();
}

#[test]
fn misuse_ends_with_a_message_and_status_2() {
    use std::io::Write as _;
    let run = |input: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tilekit"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tilekit lsp starts");
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input).unwrap();
        drop(stdin);
        child.wait_with_output().unwrap()
    };
    // Nothing at all; not the protocol's framing; `exit` before `initialize`.
    let exit = json!({ "jsonrpc": "2.0", "method": "exit" }).to_string();
    let framed = format!("Content-Length: {}\r\n\r\n{exit}", exit.len());
    for input in [&b""[..], b"hello\r\n\r\n{}", framed.as_bytes()] {
        let out = run(input);
        let stderr = common::text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(stderr.contains("language server"), "{stderr}");
    }
    // Initialized, then gone without `shutdown`.
    let mut client = Client::start();
    client.notify("exit", Value::Null);
    let status = client.child.wait().unwrap();
    assert_eq!(status.code(), Some(2));
}

/// Starts `tilekit lsp`, writes `input` and keeps standard input open: the server must end
/// by itself. Its status and the words of its standard error, or `None` if it still runs after
/// `limit`.
fn run_keeping_stdin_open(input: &[u8], limit: Duration) -> Option<(Option<i32>, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tilekit lsp starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("write");
    stdin.flush().expect("flush");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    // The report is wrapped to a width, with a frame: its words only.
    let words: Vec<&str> = stderr
        .split_whitespace()
        .filter(|w| !w.chars().all(|c| "│╰─▶×".contains(c)))
        .collect();
    Some((status.code(), words.join(" ")))
}

#[test]
fn an_oversized_message_is_refused_without_reading_it() {
    let init = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "processId": null, "rootUri": null, "capabilities": {} },
    })
    .to_string();
    let initialize = format!("Content-Length: {}\r\n\r\n{init}", init.len());
    // Lengths that once aborted on allocation, panicked the reader, and took 2.9 GB; each before
    // the handshake and after it. No body follows and standard input stays open: a server that
    // allocated or waited for the declared bytes would not end by itself.
    for length in ["1000000000000000", "18446744073709551615", "3000000000"] {
        for before in ["", initialize.as_str()] {
            let input = format!("{before}Content-Length: {length}\r\n\r\n");
            let Some((code, stderr)) =
                run_keeping_stdin_open(input.as_bytes(), Duration::from_secs(10))
            else {
                panic!("{length}: the server did not end by itself within 10 s");
            };
            assert_eq!(code, Some(2), "{length}: {stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
            assert!(
                stderr.contains(&format!("a message of {length} bytes declared"))
                    && stderr.contains("at most 67108864 bytes (64 MiB)"),
                "{length}: {stderr}"
            );
        }
    }
    // A length no 64-bit number holds, and one that is no number, are named as such.
    for (length, named) in [
        ("99999999999999999999999", "longer than a 64-bit number"),
        ("12abc", "not one decimal number"),
    ] {
        let input = format!("Content-Length: {length}\r\n\r\n");
        let (code, stderr) = run_keeping_stdin_open(input.as_bytes(), Duration::from_secs(10))
            .expect("the server ends by itself");
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(named), "{stderr}");
    }
}

#[test]
fn a_required_file_changed_on_disk_rechecks_the_open_document() {
    let dir = common::scratch("lsp-watched");
    let other_path = dir.join("other.toml");
    std::fs::write(&other_path, OTHER).unwrap();
    std::fs::write(dir.join("mine.toml"), MINE).unwrap();
    let mine = uri(&dir.join("mine.toml"));
    let other = uri(&other_path);
    let mut client = Client::start_with(json!({
        "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } }
    }));
    // The server asks to be told of the .toml files changed on disk; the client agrees.
    let registration = loop {
        let m = client.next();
        if m["method"] == "client/registerCapability" {
            break m;
        }
        client.pending.push(m);
    };
    let r = &registration["params"]["registrations"][0];
    assert_eq!(
        r["method"], "workspace/didChangeWatchedFiles",
        "{registration}"
    );
    assert_eq!(
        r["registerOptions"]["watchers"][0]["globPattern"],
        "**/*.toml"
    );
    client.send(json!({ "jsonrpc": "2.0", "id": registration["id"], "result": null }));
    // A valid document, then the set it requires loses the edge kind it uses, on disk.
    client.open(&mine, MINE);
    let changed = OTHER.replace("id = \"lava\"", "id = \"magma\"");
    std::fs::write(&other_path, &changed).unwrap();
    let change = |typ: u8| json!({ "changes": [{ "uri": other, "type": typ }] });
    client.notify("workspace/didChangeWatchedFiles", change(2));
    let found = client.diagnostics(&mine, |d| !d.is_empty());
    let messages: Vec<&str> = found.iter().filter_map(|d| d["message"].as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("lava")), "{messages:?}");
    // Put back: the document is clean again.
    std::fs::write(&other_path, OTHER).unwrap();
    client.notify("workspace/didChangeWatchedFiles", change(2));
    client.diagnostics(&mine, |d| d.is_empty());
    // Deleted: the set it requires is gone.
    std::fs::remove_file(&other_path).unwrap();
    client.notify("workspace/didChangeWatchedFiles", change(3));
    let found = client.diagnostics(&mine, |d| !d.is_empty());
    let messages: Vec<&str> = found.iter().filter_map(|d| d["message"].as_str()).collect();
    assert!(messages.iter().any(|m| m.contains("other")), "{messages:?}");
    client.stop();
}

#[test]
fn no_watcher_is_registered_without_dynamic_registration() {
    let dir = common::scratch("lsp-unwatched");
    let mine = uri(&dir.join("mine.toml"));
    let mut client = Client::start();
    client.open(&mine, MINE);
    // A round trip: anything the server sent before its answer is in `pending`.
    client.hover(&mine, 0, 0);
    assert!(
        !client
            .pending
            .iter()
            .any(|m| m["method"] == "client/registerCapability"),
        "{:?}",
        client.pending
    );
    client.stop();
}

#[test]
fn a_header_left_open_on_the_line_above_keeps_the_server() {
    // Completion at the start of the line after `[tile."a` sliced past the header's line and
    // killed the server: it answers, and answers the next request too.
    let dir = common::scratch("lsp-open-header");
    let mine = uri(&dir.join("mine.toml"));
    let mut client = Client::start();
    client.open(&mine, MINE);
    let head = MINE.split("[[tile]]").next().unwrap();
    client.complete(&mine, &format!("{head}[tile.\"a\n|"));
    let items = client.complete(&mine, &format!("{head}[[tile]]\ncities = [{{ ports = [\"|"));
    assert!(labels(&items).contains(&"N".to_string()), "{items:?}");
    client.stop();
}
