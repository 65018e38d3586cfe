//! `tilekit serve` end to end: misuse answered over plain HTTP, and the page in a real browser
//! (headless Chromium driven over the DevTools protocol): every tile seen, a saved file's change
//! arriving, a broken file shown stale with its problem, a hotseat turn, and a whole game against
//! the greedy bot played through the engine's legal moves, its record replayed by `tilekit play`;
//! and a burst of picture requests answered while an event stream is open.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `tilekit serve` running on a free port, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(args: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .arg("serve")
        .args(args)
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("tilekit serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("serve prints its address");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Server { child, addr }
}

/// A raw HTTP request (so that the path goes as written, `..` included); status and body.
fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    // Read the head, then the body by its length (Chromium keeps the connection open).
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    let split = loop {
        if let Some(i) = out.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        let n = s.read(&mut buf).expect("read");
        assert!(n > 0, "the connection closed before the head");
        out.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&out[..split]).to_string();
    let length = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("content-length")
            .then(|| v.trim().parse::<usize>().ok())?
    });
    loop {
        if length.is_some_and(|n| out.len() >= split + 4 + n) {
            break;
        }
        let n = s.read(&mut buf).expect("read");
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, out[split + 4..].to_vec())
}

fn state(addr: &str) -> Value {
    let (status, body) = http(addr, "GET", "/api/state", "");
    assert_eq!(status, 200);
    serde_json::from_slice(&body).expect("JSON state")
}

/// Copies the bundled definitions into a scratch folder.
fn scratch_definitions() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let defs = dir.path().join("defs");
    std::fs::create_dir(&defs).expect("mkdir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../definitions");
    for name in ["base.toml", "festival.toml", "village-life.toml"] {
        std::fs::copy(root.join(name), defs.join(name)).expect("copy");
    }
    (dir, defs)
}

/// A small set of one tile that needs nothing else (`mini` renamed per use).
const MINI: &str = r#"format = 1

[set]
id = "mini"
name = "Mini"
requires = ["base"]

[[tile]]
id = "mini-1"
count = 1
edges = { n = "city", e = "field", s = "field", w = "field" }
cities = [{ ports = ["N"] }]
fields = [{ ports = ["ENE", "ESE", "SSE", "SSW", "WSW", "WNW"], cities = ["N"] }]
"#;

fn tile_types(defs: &Path) -> usize {
    std::fs::read_dir(defs)
        .expect("read dir")
        .map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("read"))
        .map(|t| t.matches("\n[[tile]]").count())
        .sum()
}

fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn misuse_gets_clear_answers() {
    let (_dir, defs) = scratch_definitions();
    let server = serve(&[defs.to_str().unwrap()]);
    let addr = server.addr.clone();
    // A second server on the same port says so.
    let port = addr.rsplit(':').next().unwrap();
    let second = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(["serve", defs.to_str().unwrap(), "--port", port])
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&second.stderr).contains("already in use"));
    // Unknown tiles and paths, and `..`.
    let (status, body) = http(&addr, "GET", "/tile/nope.png", "");
    assert_eq!(
        (
            status,
            String::from_utf8_lossy(&body).contains("no tile `nope`")
        ),
        (404, true)
    );
    assert_eq!(http(&addr, "GET", "/no/such/page", "").0, 404);
    for path in [
        "/../Cargo.toml",
        "/tile/../../etc/passwd",
        "/%2e%2e/etc/passwd",
        "/tile/..%2f..%2fCargo.toml.png",
        "/tile/%2E%2E/D.png",
    ] {
        let (status, body) = http(&addr, "GET", path, "");
        assert_eq!(status, 400, "{path}");
        assert!(String::from_utf8_lossy(&body).contains(".."));
    }
    assert_eq!(http(&addr, "GET", "/sheet/999.png", "").0, 404);
    // The sheet of one set: fewer pages than every set's, its own pictures.
    let st = state(&addr);
    let festival = st["pages_by_set"]["festival"].as_u64().unwrap();
    assert!(
        festival >= 1 && festival < st["pages"].as_u64().unwrap(),
        "{st}"
    );
    let (status, body) = http(&addr, "GET", "/sheet/0.png?set=festival", "");
    assert_eq!((status, &body[1..4]), (200, &b"PNG"[..]));
    assert_ne!(body, http(&addr, "GET", "/sheet/0.png", "").1);
    let (status, body) = http(&addr, "GET", "/sheet/0.png?set=lakes", "");
    assert_eq!(status, 404);
    assert!(String::from_utf8_lossy(&body).contains("no set `lakes`"));
    assert_eq!(http(&addr, "POST", "/api/game/77/move", "{}").0, 404);
    // Not HTTP, a body too large, a body of no stated length: answered, and closed.
    let raw = |bytes: &[u8]| {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        s.write_all(bytes).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out)
            .expect("the server closes after its answer");
        out
    };
    assert!(raw(b"hello\r\n\r\n").starts_with("HTTP/1.1 400"));
    let big = raw(b"POST /api/game HTTP/1.1\r\nContent-Length: 100000\r\n\r\n{}");
    assert!(
        big.starts_with("HTTP/1.1 413") && big.contains("at most 4096"),
        "{big}"
    );
    let chunked = raw(b"POST /api/game HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    assert!(chunked.starts_with("HTTP/1.1 411"), "{chunked}");
    let head = raw(b"HEAD /tile/D.png HTTP/1.1\r\n\r\n");
    assert!(
        head.starts_with("HTTP/1.1 200") && head.ends_with("\r\n\r\n"),
        "{head}"
    );
    // Games: seats that make no game, a bot asked to move in a person's seat, a move that is
    // not one of the legal moves.
    for (body, says) in [
        (r#"{"seats": ["robot"]}"#, "unknown player `robot`"),
        (r#"{"seats": []}"#, "0 seats"),
        (
            r#"{"seats": ["person"], "sets": ["lakes"]}"#,
            "unknown tile set `lakes`",
        ),
        (
            r#"{"seats": ["person"], "options": ["charter"]}"#,
            "unknown rule option `charter`",
        ),
        (
            r#"{"seats": ["person"], "start": "ZZ"}"#,
            "unknown start tile `ZZ`",
        ),
        ("{}", "seats"),
        ("not json", "seats"),
    ] {
        let (status, text) = http(&addr, "POST", "/api/game", body);
        let text = String::from_utf8_lossy(&text);
        assert_eq!(status, 400, "{body}: {text}");
        assert!(text.contains(says), "{body}: {text}");
    }
    let (status, game) = http(
        &addr,
        "POST",
        "/api/game",
        r#"{"seats": ["person", "greedy"], "seed": 3}"#,
    );
    assert_eq!(status, 200);
    let game: Value = serde_json::from_slice(&game).unwrap();
    let id = game["id"].as_u64().unwrap();
    let (status, text) = http(&addr, "POST", &format!("/api/game/{id}/bot"), "");
    assert_eq!(status, 409);
    assert!(String::from_utf8_lossy(&text).contains("P1's turn, played by person"));
    let (status, text) = http(
        &addr,
        "POST",
        &format!("/api/game/{id}/move"),
        r#"{"index": 100000}"#,
    );
    assert_eq!(status, 409);
    assert!(String::from_utf8_lossy(&text).contains("no legal move 100000"));
    let (status, body) = http(&addr, "GET", "/tile/D.png", "");
    assert_eq!((status, &body[1..4]), (200, &b"PNG"[..]));
    let revision = state(&addr)["revision"].as_u64().unwrap();
    let tiles = tile_types(&defs);
    // A file with invalid UTF-8 keeps the last good pictures and says why.
    let vl = defs.join("village-life.toml");
    let good_vl = std::fs::read(&vl).unwrap();
    std::fs::write(&vl, b"format = 1\n\xff\xfe\n").unwrap();
    wait_for("the read error", || {
        state(&addr)["read_errors"].as_object().is_some_and(|e| {
            e.values()
                .any(|v| v.as_str().unwrap_or("").contains("UTF-8"))
        })
    });
    let s = state(&addr);
    assert_eq!(s["stale"], true);
    assert_eq!(s["tiles"].as_array().unwrap().len(), tiles);
    // A 10 MB file is read and checked, not a crash: its problem is shown.
    let mut big = String::from("format = 1\n[set]\nid = \"big\"\nname = \"Big\"\n# ");
    big.push_str(&"x".repeat(10 << 20));
    big.push('\n');
    std::fs::write(&vl, big).unwrap();
    wait_for("the 10 MB file to be checked", || {
        let s = state(&addr);
        s["read_errors"].as_object().is_some_and(|e| e.is_empty())
            && s["files"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["set"] == "big")
    });
    // Deleted while serving: gone, and said so.
    std::fs::remove_file(&vl).unwrap();
    wait_for("the deletion", || {
        state(&addr)["gone"]
            .as_array()
            .is_some_and(|g| !g.is_empty())
    });
    std::fs::write(&vl, good_vl).unwrap();
    wait_for("the file back", || {
        let s = state(&addr);
        s["gone"].as_array().is_some_and(Vec::is_empty) && s["stale"] == false
    });
    assert!(state(&addr)["revision"].as_u64().unwrap() > revision);
    // A link in a given folder to a file elsewhere is one of the folder's entries (as every
    // command reads it); the folder it points into is not watched: a file written there is
    // never read.
    let outside = defs.parent().unwrap().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let linked = MINI.replace("mini", "linked");
    std::fs::write(outside.join("linked.toml"), &linked).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.join("linked.toml"), defs.join("linked.toml")).unwrap();
        wait_for("the linked file", || {
            state(&addr)["files"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["set"] == "linked")
        });
        std::fs::write(outside.join("stray.toml"), MINI.replace("mini", "stray")).unwrap();
        // A change in a watched folder after it, so the stray file had its chance to be read.
        std::fs::write(defs.join("late.toml"), MINI.replace("mini", "late")).unwrap();
        wait_for("the late file", || {
            state(&addr)["files"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["set"] == "late")
        });
        let files = state(&addr)["files"].to_string();
        assert!(!files.contains("stray"), "{files}");
    }
    // The server is still answering.
    assert_eq!(http(&addr, "GET", "/", "").0, 200);
}

#[test]
fn a_file_given_alone_is_all_that_is_read_of_its_folder() {
    let (_dir, defs) = scratch_definitions();
    let base = defs.join("base.toml");
    let server = serve(&[base.to_str().unwrap()]);
    let addr = server.addr.clone();
    let names = |s: &Value| -> Vec<String> {
        s["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap().to_string())
            .collect()
    };
    let before = state(&addr);
    assert_eq!(names(&before), [base.display().to_string()]);
    // A new file beside it, then a change to it: the change is read, the new file is not.
    std::fs::write(defs.join("stray.toml"), MINI.replace("mini", "stray")).unwrap();
    let text = std::fs::read_to_string(&base).unwrap();
    std::fs::write(
        &base,
        text.replacen("City cap with straight road", "Changed", 1),
    )
    .unwrap();
    let revision = before["revision"].as_u64().unwrap();
    wait_for("the change", || {
        state(&addr)["revision"].as_u64().unwrap() > revision
    });
    assert_eq!(names(&state(&addr)), [base.display().to_string()]);
}

/// Headless Chromium with a DevTools connection to one page.
struct Browser {
    child: Child,
    socket: tungstenite::WebSocket<TcpStream>,
    next: u64,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn start(url: &str) -> Option<Browser> {
        let exe = ["chromium", "chromium-browser", "google-chrome"]
            .into_iter()
            .find(|b| {
                Command::new(b)
                    .arg("--version")
                    .output()
                    .is_ok_and(|o| o.status.success())
            })?;
        let profile = tempfile::tempdir().expect("profile dir");
        let child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-port=0",
                "--window-size=1400,1000",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let port_file = profile.path().join("DevToolsActivePort");
        let start = Instant::now();
        let port = loop {
            if let Ok(text) = std::fs::read_to_string(&port_file)
                && let Some(port) = text.lines().next().and_then(|l| l.parse::<u16>().ok())
            {
                break port;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "chromium did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        // A new page target, then its own socket.
        let (_, body) = http(
            &format!("127.0.0.1:{port}"),
            "PUT",
            &format!("/json/new?{url}"),
            "",
        );
        let target: Value = serde_json::from_slice(&body).expect("target JSON");
        let ws = target["webSocketDebuggerUrl"]
            .as_str()
            .expect("a page socket")
            .to_string();
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect devtools");
        let (socket, _) = tungstenite::client(ws.as_str(), stream).expect("websocket");
        Some(Browser {
            child,
            socket,
            next: 0,
            _profile: profile,
        })
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let message = json!({ "id": id, "method": method, "params": params }).to_string();
        self.socket
            .send(tungstenite::Message::text(message))
            .expect("send");
        loop {
            let reply = self.socket.read().expect("read");
            if let tungstenite::Message::Text(text) = reply {
                let v: Value = serde_json::from_str(&text).expect("JSON");
                if v["id"] == id {
                    return v;
                }
            }
        }
    }

    /// Evaluates JavaScript in the page (promises awaited), returning its value.
    fn eval(&mut self, js: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": js, "awaitPromise": true, "returnByValue": true }),
        );
        assert!(r["result"]["exceptionDetails"].is_null(), "{js}: {r}");
        r["result"]["result"]["value"].clone()
    }

    fn wait(&mut self, what: &str, js: &str) -> Duration {
        let start = Instant::now();
        while self.eval(js) != json!(true) {
            if start.elapsed() > Duration::from_secs(30) {
                // Say what the page holds, so a failure can be understood from the log.
                let state = self.eval(
                    "JSON.stringify({ tiles: document.querySelectorAll('#tiles .tile').length, \
                     broken: [...document.querySelectorAll('#tiles .tile img')].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src') + ' complete=' + i.complete + ' w=' + i.naturalWidth).slice(0, 5), \
                     status: (document.getElementById('status') || {}).textContent })",
                );
                panic!("timed out waiting for {what}: the page holds {state}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        start.elapsed()
    }

    fn screenshot(&mut self, path: &Path) {
        let r = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let data = r["result"]["data"].as_str().expect("screenshot data");
        std::fs::write(path, base64_decode(data)).expect("write screenshot");
    }
}

/// One turn of the person whose turn it is: the first highlighted spot (turned once when
/// `rotate`, to a rotation the engine allows there), then the first choice of the second step
/// (a follower where one may go, else pass).
fn play_turn(browser: &mut Browser, rotate: bool) {
    browser.eval("document.querySelector('#board .spot').click(); true");
    if rotate {
        browser.eval("document.getElementById('rotate-button').click(); true");
    }
    let before = browser.eval("game.log.length");
    let board = browser.eval("game.board.length");
    browser.eval("document.getElementById('place-button').click(); true");
    browser.wait(
        "the placement",
        &format!("game.log.length > {before} || !!game.phase.act || game.board.length > {board}"),
    );
    if browser.eval("!!game.phase.act") == json!(true) {
        let n = browser.eval("game.log.length");
        browser.eval("document.querySelector('#choices button').click(); true");
        browser.wait(
            "the turn's end",
            &format!("!game.phase.act || game.log.length > {n}"),
        );
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let v: Vec<u32> = chunk.iter().map(|&c| u32::from(value(c))).collect();
        let n = v
            .iter()
            .enumerate()
            .fold(0, |n, (i, x)| n | x << (18 - 6 * i));
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

#[test]
fn the_page_in_a_real_browser() {
    let (_dir, defs) = scratch_definitions();
    let server = serve(&[defs.to_str().unwrap()]);
    let url = format!("http://{}/", server.addr);
    let Some(mut browser) = Browser::start(&url) else {
        eprintln!(
            "SKIPPED: no chromium on this machine (apt-get install chromium); the page was not tested in a browser"
        );
        return;
    };
    // Every tile, each picture loaded.
    let tiles = tile_types(&defs);
    browser.wait(
        "every tile's picture",
        &format!(
            "document.querySelectorAll('#tiles .tile').length === {tiles} && [...document.querySelectorAll('#tiles .tile img')].every(i => i.complete && i.naturalWidth > 0)"
        ),
    );
    browser.wait(
        "the sheet pages",
        "document.querySelectorAll('#pages img').length > 0",
    );
    let shots = std::env::var_os("TILEKIT_SCREENSHOTS").map(PathBuf::from);
    if let Some(dir) = &shots {
        browser.screenshot(&dir.join("serve-tiles.png"));
    }
    // A saved change arrives without a reload.
    let base = defs.join("base.toml");
    let text = std::fs::read_to_string(&base).unwrap();
    let key = browser.eval("document.getElementById('tile-D').dataset.key");
    let renamed = text.replace(
        "name = \"City cap with straight road\"",
        "name = \"Renamed in the test\"",
    );
    assert_ne!(renamed, text, "the test's edit must change the file");
    browser.eval("window.reloaded = false; window.addEventListener('beforeunload', () => window.reloaded = true); true");
    std::fs::write(&base, &renamed).unwrap();
    let took = browser.wait(
        "the renamed tile",
        "document.getElementById('tile-D').textContent.includes('Renamed in the test')",
    );
    let pictured = took
        + browser.wait(
            "the renamed tile's new picture",
            "(() => { const c = document.getElementById('tile-D'); const i = c.querySelector('img'); \
             return i.getAttribute('src').includes(c.dataset.key) && i.complete && i.naturalWidth > 0; })()",
        );
    // Reported, never asserted: the machine's load is not the code's.
    eprintln!(
        "save → page updated: text {} ms, new picture {} ms (polled every 10 ms)",
        took.as_millis(),
        pictured.as_millis()
    );
    assert_eq!(browser.eval("window.reloaded"), json!(false));
    assert_ne!(
        browser.eval("document.getElementById('tile-D').dataset.key"),
        key
    );
    // A broken file: its problem with file:line:col, the pictures kept and marked stale.
    let broken = renamed.replacen("pennants = 1", "penants = 1", 1);
    std::fs::write(&base, &broken).unwrap();
    browser.wait(
        "the problem",
        "document.querySelector('#diagnostics .diag') !== null && document.getElementById('tiles').classList.contains('stale')",
    );
    let problem = browser.eval("document.querySelector('#diagnostics .diag').textContent");
    let problem = problem.as_str().unwrap_or_default();
    let line = broken.lines().position(|l| l.contains("penants")).unwrap() + 1;
    assert!(problem.contains(&format!("base.toml:{line}:")), "{problem}");
    assert!(
        problem.contains("pennants"),
        "the hint names the key: {problem}"
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('#tiles .tile').length"),
        json!(tiles)
    );
    if let Some(dir) = &shots {
        browser.eval("document.getElementById('problems').scrollIntoView(); true");
        browser.screenshot(&dir.join("serve-problem.png"));
    }
    std::fs::write(&base, &renamed).unwrap();
    browser.wait(
        "fresh again",
        "!document.getElementById('tiles').classList.contains('stale')",
    );
    // The rules panel: a base game with the wells option, said in the game's rules line;
    // then every set back in the bag and the option off, for the games below.
    browser.eval("for (const i of document.querySelectorAll('#game-sets input')) i.checked = i.value === 'base'; for (const i of document.querySelectorAll('#game-options input')) i.checked = i.value === 'wells'; document.getElementById('new-game').click(); true");
    browser.wait(
        "a game of the rules chosen",
        "typeof game === 'object' && game !== null && document.getElementById('game-rules').textContent.startsWith('rules: sets base;') && game.rules.includes('wells on')",
    );
    browser.eval("for (const i of document.querySelectorAll('#game-sets input')) i.checked = true; for (const i of document.querySelectorAll('#game-options input')) i.checked = false; true");
    // A hotseat game: both seats are people, so after P1's turn the page offers P2 spots.
    browser.eval("game = null; document.getElementById('players').value = 2; document.getElementById('players').dispatchEvent(new Event('input')); document.getElementById('seat-0').value = 'person'; document.getElementById('seat-1').value = 'person'; document.getElementById('new-game').click(); true");
    browser.wait(
        "the hotseat game",
        "typeof game === 'object' && game !== null && game.current === 0 && document.querySelectorAll('#board .spot').length > 0",
    );
    play_turn(&mut browser, false);
    browser.wait(
        "P2's turn, a person's",
        "game.current === 1 && !!game.phase.place && document.querySelectorAll('#board .spot').length > 0",
    );
    assert_eq!(
        browser.eval("document.getElementById('turn').dataset.bot"),
        json!("")
    );
    // A game against the greedy bot, played to its end: the bot moves by itself on the page.
    browser.eval("document.getElementById('seat-1').value = 'greedy'; document.getElementById('new-game').click(); true");
    browser.wait(
        "the game against greedy",
        "game.seats[1] === 'greedy' && game.board.length === 1 && document.querySelectorAll('#board .spot').length > 0",
    );
    let mut turns = 0;
    loop {
        // The bot's turns play themselves; wait for the person's turn (or the end).
        browser.wait(
            "the bot's turn to end",
            "document.getElementById('turn').dataset.bot !== '1'",
        );
        let over = browser.eval("document.getElementById('turn').dataset.over === '1'");
        if over == json!(true) {
            break;
        }
        assert_eq!(
            browser.eval("game.current"),
            json!(0),
            "only P1 is a person"
        );
        turns += 1;
        assert!(turns < 200, "the game does not end");
        if turns == 12
            && let Some(dir) = &shots
        {
            // P1's turn after the bot's: the legal spots of the drawn tile are highlighted.
            browser.eval("document.getElementById('play').scrollIntoView(); true");
            browser.screenshot(&dir.join("serve-play.png"));
        }
        play_turn(&mut browser, turns % 2 == 0);
    }
    let log = browser.eval("game.log.flat().join('\\n')");
    let log = log.as_str().unwrap_or_default();
    assert!(log.contains("P2 places"), "the bot placed tiles: {log}");
    assert!(turns > 10, "P1 played a whole game: {turns} turns");
    let scores: Vec<u64> = serde_json::from_value(browser.eval("game.scores")).unwrap();
    assert!(
        scores.iter().sum::<u64>() > 0,
        "a whole game with followers scores: {scores:?}"
    );
    let text = browser.eval("document.getElementById('turn').textContent");
    let text = text.as_str().unwrap_or_default();
    assert!(text.contains(&format!("P1 {}", scores[0])), "{text}");
    // Its record replays with `tilekit play` to the same scores.
    let id = browser.eval("game.id");
    let (status, record) = http(
        &server.addr,
        "GET",
        &format!("/api/game/{id}/record.toml"),
        "",
    );
    assert_eq!(status, 200);
    let record_path = defs.parent().unwrap().join("game.toml");
    std::fs::write(&record_path, record).unwrap();
    let played = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .arg("play")
        .arg(&record_path)
        .arg(&defs)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&played.stdout);
    assert!(
        played.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let expected = format!("final scores: P1 {}, P2 {}", scores[0], scores[1]);
    assert!(out.contains(&expected), "{out}");
}

/// What a browser does with a connection: send a request, read the answer (by its length),
/// then keep the connection open for the next request unless the server said
/// `Connection: close`. Returns the status, or why there was none within `patience`.
fn browser_like_request(
    addr: &str,
    path: &str,
    patience: Duration,
    kept: &mut Vec<TcpStream>,
) -> Result<u16, String> {
    let mut s = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(patience))
        .map_err(|e| e.to_string())?;
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    let split = loop {
        if let Some(i) = out.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        match s.read(&mut buf) {
            Ok(0) => return Err(format!("{path}: closed before an answer")),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return Err(format!("{path}: no answer ({e})")),
        }
    };
    let head = String::from_utf8_lossy(&out[..split]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| format!("{path}: no length in {head}"))?;
    while out.len() < split + 4 + length {
        match s.read(&mut buf) {
            Ok(0) => return Err(format!("{path}: the body was cut")),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return Err(format!("{path}: the body stopped ({e})")),
        }
    }
    if head.contains("connection: close") {
        // A server that says so closes the connection itself (a client may read to the end).
        match s.read(&mut buf) {
            Ok(0) => {}
            Ok(_) => return Err(format!("{path}: more after the answer")),
            Err(e) => return Err(format!("{path}: said close but kept it open ({e})")),
        }
    } else {
        kept.push(s);
    }
    head.split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{path}: no status in {head}"))
}

#[test]
fn a_burst_of_pictures_is_answered_while_an_event_stream_is_open() {
    let (_dir, defs) = scratch_definitions();
    let server = serve(&[defs.to_str().unwrap()]);
    let addr = server.addr.clone();
    // An open page: its event stream holds a connection for as long as the page is open.
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(stream, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut first = [0u8; 64];
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    assert!(
        stream.read(&mut first).unwrap() > 0,
        "the event stream starts"
    );
    // Bursts of picture requests, each on a new connection, all at once, kept open after
    // their answer as a browser keeps them unless told to close. (tiny_http, the server
    // before, queued some of them behind kept-alive connections that never ended: they waited
    // forever.) The patience is a hang detector, not a speed limit.
    let ids: Vec<String> = state(&addr)["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect();
    let mut kept = Vec::new();
    for round in 0..3 {
        let answers: Vec<Result<u16, String>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..16)
                .map(|i| {
                    let id = &ids[(round * 16 + i) % ids.len()];
                    let addr = &addr;
                    scope.spawn(move || {
                        let mut kept = Vec::new();
                        let status = browser_like_request(
                            addr,
                            &format!("/tile/{id}.png?px={}", 32 * (1 + i % 4)),
                            Duration::from_secs(60),
                            &mut kept,
                        );
                        (status, kept)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    let (status, k) = h.join().expect("a request thread");
                    kept.extend(k);
                    status
                })
                .collect()
        });
        for answer in answers {
            assert_eq!(answer, Ok(200), "round {round}");
        }
    }
    assert!(kept.is_empty(), "every answer asks the client to close");
    drop(stream);
}

/// Whether the server has closed a connection (it reads as ended or reset), without waiting.
fn closed(mut s: &TcpStream) -> bool {
    let mut buf = [0u8; 256];
    s.set_read_timeout(Some(Duration::from_millis(5))).unwrap();
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            // An answer (a 408) before the close: read on.
            Ok(_) => {}
            Err(e) => {
                return !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                );
            }
        }
    }
}

/// Connects and starts a request that never ends (its path grows by a byte at a time).
fn slow_connection(addr: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(b"GET /a").expect("send");
    s
}

#[test]
fn slow_connections_are_capped_and_the_page_is_still_answered() {
    let (_dir, defs) = scratch_definitions();
    let server = serve(&[defs.to_str().unwrap()]);
    let addr = server.addr.clone();
    let mut events = TcpStream::connect(&addr).unwrap();
    write!(events, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    events
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut first = [0u8; 256];
    assert!(
        events.read(&mut first).unwrap() > 0,
        "the event stream starts"
    );
    // 100 connections that send a byte now and then and never a whole request.
    let started = Instant::now();
    let mut slow: Vec<TcpStream> = (0..100).map(|_| slow_connection(&addr)).collect();
    for s in &mut slow {
        let _ = s.write_all(b"a");
    }
    // At most 64 are kept: the oldest are closed to make room (long before the 10 s deadline).
    let mut open = slow.len();
    while open > 64 && started.elapsed() < Duration::from_secs(8) {
        std::thread::sleep(Duration::from_millis(50));
        open = slow.iter().filter(|s| !closed(s)).count();
    }
    assert!(open <= 64, "{open} slow connections still open");
    assert!(
        slow[..36].iter().all(closed),
        "the oldest are the ones closed"
    );
    // The page is answered for a newcomer, and the open page's events still arrive.
    let asked = Instant::now();
    let (status, page) = http(&addr, "GET", "/", "");
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&page).contains("<html"));
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "the page took {:?}",
        asked.elapsed()
    );
    std::fs::write(defs.join("mini.toml"), MINI).unwrap();
    let mut seen = String::new();
    while !seen.contains("\"ms\"") {
        let n = events.read(&mut first).expect("an event after the save");
        assert!(n > 0, "the event stream closed");
        seen.push_str(&String::from_utf8_lossy(&first[..n]));
    }
    drop(slow);
}

#[test]
fn a_request_trickling_in_is_closed_at_the_deadline_from_its_accept() {
    let server = serve(&["--request-deadline-ms", "1500"]);
    let mut s = slow_connection(&server.addr);
    let started = Instant::now();
    // A byte every 200 ms: a deadline per read would never be reached.
    let mut answer = Vec::new();
    let ended = loop {
        std::thread::sleep(Duration::from_millis(200));
        if s.write_all(b"a").is_err() {
            break started.elapsed();
        }
        let mut buf = [0u8; 512];
        s.set_read_timeout(Some(Duration::from_millis(1))).unwrap();
        match s.read(&mut buf) {
            Ok(0) => break started.elapsed(),
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => break started.elapsed(),
        }
        assert!(
            started.elapsed() < Duration::from_secs(6),
            "still open after {:?}",
            started.elapsed()
        );
    };
    assert!(
        ended >= Duration::from_millis(1400),
        "closed after only {ended:?}"
    );
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
}

/// A set with a kind of its own is shown with its kinds by id, and offered for play.
#[test]
fn a_set_with_its_own_kinds_is_shown_and_offered_for_play() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let base = root.join("definitions/base.toml");
    let lakes = root.join("tiledef/tests/fixtures/lakes.toml");
    let server = serve(&[base.to_str().unwrap(), lakes.to_str().unwrap()]);
    let s = state(&server.addr);
    assert_eq!(s["playable"], true, "{s}");
    assert!(s["unplayable"].is_null(), "{s}");
    let bay = (s["tiles"].as_array().unwrap().iter())
        .find(|t| t["id"] == "LK-bay")
        .expect("the bay is listed");
    let kinds: Vec<&str> = (bay["features"].as_array().unwrap().iter())
        .filter_map(|f| f["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["road", "field", "field", "lake"]);
    assert_eq!(http(&server.addr, "GET", "/tile/LK-bay.png", "").0, 200);
}

/// A figure with its own picture is listed in the state, and its picture is served as a PNG
/// the page can show on the board; a figure without one, or no figure, is a 404.
#[test]
fn a_figure_with_its_own_picture_is_served_for_the_board() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mines = root.join("examples/mines.toml");
    let server = serve(&[mines.to_str().unwrap()]);
    let s = state(&server.addr);
    assert_eq!(
        s["figure_pictures"],
        serde_json::json!(["prospector"]),
        "{s}"
    );
    let (status, png) = http(&server.addr, "GET", "/figure/prospector.png?px=64", "");
    assert_eq!(status, 200);
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    // The IHDR's width and height: 64 × 64, as asked.
    assert_eq!(&png[16..24], &[0, 0, 0, 64, 0, 0, 0, 64]);
    for missing in ["/figure/abbot.png", "/figure/nobody.png"] {
        let (status, body) = http(&server.addr, "GET", missing, "");
        assert_eq!(status, 404, "{missing}: {}", String::from_utf8_lossy(&body));
    }
}
