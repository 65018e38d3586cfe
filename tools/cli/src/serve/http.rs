//! The HTTP side of `tilekit serve` (std's listener, `httparse` for the request head, a thread
//! and a connection per request): the page, the state as
//! JSON, tile pictures and sheet pages as the renderer's PNGs, games, and the server-sent
//! event stream. It serves nothing from disk by path: every answer is made from the analysis
//! host or compiled into the binary, so no URL can reach a file the server was not given.
//!
//! Hostile clients are bounded: a request must arrive whole by a deadline counted from the
//! connection's accept (not per read, which a byte at a time would renew forever), at most
//! `MAX_CONNECTIONS` connections are read or answered at once, and at most `MAX_STREAMS` event
//! streams are open. At the cap, the connection that has waited longest for its request is
//! closed to make room, so that a crowd of slow connections cannot keep the page from anyone.

use super::{Shared, TILE_PX, lock};

/// The default size of a figure's own picture: the page shows it 22 px wide, 64 for sharp
/// screens.
const FIGURE_PX: u32 = 64;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tilekit_analysis::game::{Seat, Session};
use tilekit_cli::{MAX_HEAD, Method, Parsed, Request, parse_request};

const PAGE: &str = include_str!("page.html");

/// How long a connection may take to send its whole request, from its accept.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(10);

/// The most connections read or answered at once (event streams apart). A page opens a few
/// (browsers open six per server); far more means something other than pages is connecting.
const MAX_CONNECTIONS: usize = 64;

/// The most event streams open at once: one per open page.
const MAX_STREAMS: usize = 64;

/// How long an answer may take to be written (a sheet page is a few MB; the page may be on a
/// slow network when served with `--host`).
const ANSWER_TIME: Duration = Duration::from_secs(30);

/// How long an event line may wait to be taken by the client.
const EVENT_TIME: Duration = Duration::from_secs(30);

/// How long what the client sent beyond its request is read away after the answer.
const DRAIN_TIME: Duration = Duration::from_secs(1);

/// Answers connections until the listener fails: a thread per connection, one request per
/// connection, and the connection closed after its answer (or at `deadline` without a whole
/// request). Nothing outlives its request but an event stream, so no request can wait behind
/// another connection (see docs/decisions.md, "The hanging request").
pub fn serve(listener: TcpListener, shared: &Arc<Shared>, deadline: Duration) {
    let gate = Arc::new(Gate::default());
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let by = Instant::now() + deadline;
        let Some(ticket) = Gate::admit(&gate, &stream) else {
            refuse(stream);
            continue;
        };
        let shared = shared.clone();
        // Without a thread (the system is out of them) the connection is dropped, closed.
        let _ = std::thread::Builder::new().spawn(move || connection(stream, ticket, by, &shared));
    }
}

/// The connections open, by what they are doing: the admission of new ones.
#[derive(Default)]
struct Gate {
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    next: u64,
    /// Connections whose request has not arrived yet, oldest first, with a handle to close them.
    reading: VecDeque<(u64, TcpStream)>,
    answering: usize,
    streams: usize,
}

/// A connection's place in the `Gate`, given up when dropped.
struct Ticket {
    gate: Arc<Gate>,
    id: u64,
    phase: Phase,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Reading,
    Answering,
    Streaming,
    Gone,
}

impl Gate {
    /// Takes in a new connection, closing the one that has waited longest for its request if
    /// the server is full; `None` when every place is taken by an answer being made.
    fn admit(gate: &Arc<Gate>, stream: &TcpStream) -> Option<Ticket> {
        let handle = stream.try_clone().ok()?;
        let mut open = lock(&gate.open);
        if open.reading.len() + open.answering >= MAX_CONNECTIONS {
            let (_, oldest) = open.reading.pop_front()?;
            // Its thread's read returns at once, and the thread ends.
            let _ = oldest.shutdown(Shutdown::Both);
        }
        open.next += 1;
        let id = open.next;
        open.reading.push_back((id, handle));
        Some(Ticket {
            gate: gate.clone(),
            id,
            phase: Phase::Reading,
        })
    }
}

impl Ticket {
    /// Moves on to another phase; false if there is no room there (or the connection was
    /// closed to make room for another).
    fn enter(&mut self, phase: Phase) -> bool {
        let mut open = lock(&self.gate.open);
        if phase == Phase::Streaming && open.streams >= MAX_STREAMS {
            return false;
        }
        let was = self.phase;
        match was {
            Phase::Reading => {
                let before = open.reading.len();
                open.reading.retain(|(id, _)| *id != self.id);
                if open.reading.len() == before {
                    self.phase = Phase::Gone;
                    return false;
                }
            }
            Phase::Answering => open.answering = open.answering.saturating_sub(1),
            Phase::Streaming => open.streams = open.streams.saturating_sub(1),
            Phase::Gone => return false,
        }
        match phase {
            Phase::Reading | Phase::Gone => {}
            Phase::Answering => open.answering += 1,
            Phase::Streaming => open.streams += 1,
        }
        self.phase = phase;
        true
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.enter(Phase::Gone);
    }
}

/// Turns a connection away without a thread: a 503 if the socket takes it at once.
fn refuse(stream: TcpStream) {
    let body = "too many connections: try again shortly\n";
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if stream.set_nonblocking(true).is_ok() {
        let _ = (&stream).write(answer.as_bytes());
    }
    let _ = stream.shutdown(Shutdown::Both);
}

fn connection(stream: TcpStream, mut ticket: Ticket, by: Instant, shared: &Shared) {
    let _ = stream.set_nodelay(true);
    let request = read_request(&stream, by);
    if !ticket.enter(Phase::Answering) {
        return;
    }
    match request {
        Ok(request) => handle(request, stream, &mut ticket, shared),
        Err(Some(answer)) => respond(stream, answer, false),
        // The client went away or sent nothing: nothing to answer.
        Err(None) => {}
    }
}

/// A connection read and written by a deadline: each read or write waits at most until then.
struct Timed<'a> {
    stream: &'a TcpStream,
    by: Instant,
}

impl Timed<'_> {
    fn left(&self) -> std::io::Result<Duration> {
        let left = self.by.saturating_duration_since(Instant::now());
        if left.is_zero() {
            Err(std::io::ErrorKind::TimedOut.into())
        } else {
            Ok(left)
        }
    }
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.stream.set_read_timeout(Some(self.left()?))?;
        let mut stream = self.stream;
        stream.read(buf)
    }
}

impl Write for Timed<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.stream.set_write_timeout(Some(self.left()?))?;
        let mut stream = self.stream;
        stream.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads one request by the deadline `by` (`tilekit_cli::parse_request` makes it of the bytes).
fn read_request(stream: &TcpStream, by: Instant) -> Result<Request, Option<Answer>> {
    let mut input = Timed { stream, by };
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    loop {
        match parse_request(&buf) {
            Ok(Parsed::Complete(request)) => return Ok(request),
            Ok(Parsed::Partial) => {}
            Err(e) => return Err(Some(text(e.status(), e.to_string()))),
        }
        match input.read(&mut chunk) {
            Ok(0) => return Err(None),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e)
                if !buf.is_empty()
                    && matches!(
                        e.kind(),
                        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
                    ) =>
            {
                return Err(Some(text(408, "the request did not arrive in time")));
            }
            Err(_) => return Err(None),
        }
    }
}

/// An answer: status, type, body, and the file name a download is saved under.
struct Answer {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    download: Option<String>,
}

fn bytes(status: u16, content_type: &'static str, body: Vec<u8>) -> Answer {
    Answer {
        status,
        content_type,
        body,
        download: None,
    }
}

fn text(status: u16, body: impl Into<String>) -> Answer {
    bytes(
        status,
        "text/plain; charset=utf-8",
        body.into().into_bytes(),
    )
}

fn json_answer(value: &impl serde::Serialize) -> Answer {
    match serde_json::to_vec(value) {
        Ok(body) => bytes(200, "application/json", body),
        Err(e) => text(500, e.to_string()),
    }
}

/// Writes an answer, then closes the connection.
fn respond(stream: TcpStream, answer: Answer, head_only: bool) {
    let download = answer.download.map_or_else(String::new, |name| {
        format!("Content-Disposition: attachment; filename=\"{name}\"\r\n")
    });
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\n{download}Connection: close\r\n\r\n",
        answer.status,
        reason(answer.status),
        answer.content_type,
        answer.body.len()
    );
    let mut out = std::io::BufWriter::new(Timed {
        stream: &stream,
        by: Instant::now() + ANSWER_TIME,
    });
    let _ = out
        .write_all(head.as_bytes())
        .and_then(|()| {
            if head_only {
                Ok(())
            } else {
                out.write_all(&answer.body)
            }
        })
        .and_then(|()| out.flush());
    drop(out);
    let _ = stream.shutdown(Shutdown::Write);
    // What the client sent beyond the request is read away, so that closing does not reset
    // the connection under an answer it has not read yet.
    let drain = Timed {
        stream: &stream,
        by: Instant::now() + DRAIN_TIME,
    };
    let _ = std::io::copy(&mut drain.take(MAX_HEAD as u64), &mut std::io::sink());
}

/// The reason phrase of the statuses answered here.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

fn handle(request: Request, stream: TcpStream, ticket: &mut Ticket, shared: &Shared) {
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((request.target.as_str(), ""));
    let path = percent_decode(path);
    if path == "/events" && request.method == Method::Get {
        if ticket.enter(Phase::Streaming) {
            events(stream, shared);
        } else {
            let answer = text(503, format!("{MAX_STREAMS} pages are open: close one"));
            respond(stream, answer, false);
        }
        return;
    }
    let head_only = request.method == Method::Head;
    let answer = route(request.method, &path, query, &request.body, shared);
    respond(stream, answer, head_only);
}

fn route(method: Method, path: &str, query: &str, body: &str, shared: &Shared) -> Answer {
    if path.split('/').any(|s| s == ".." || s == ".") || path.contains('\\') {
        return text(400, format!("{path}: a path with `..` names nothing here"));
    }
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
    };
    let method = if method == Method::Head {
        Method::Get
    } else {
        method
    };
    match (method, path) {
        (Method::Get, "/") => bytes(200, "text/html; charset=utf-8", PAGE.as_bytes().to_vec()),
        (Method::Get, "/api/state") => json_answer(&state(shared)),
        (Method::Post, "/api/game") => new_game(body, shared),
        (Method::Get, p) if p.starts_with("/tile/") && p.ends_with(".png") => {
            let id = &p["/tile/".len()..p.len() - ".png".len()];
            let px = param("px").and_then(|v| v.parse().ok()).unwrap_or(TILE_PX);
            let overlay = param("overlay") == Some("1");
            match shared.host().tile_png(id, px, overlay) {
                Ok(png) => bytes(200, "image/png", png.to_vec()),
                Err(e @ tilekit_analysis::AnalysisError::UnknownTile(_)) => {
                    text(404, e.to_string())
                }
                Err(e) => text(503, e.to_string()),
            }
        }
        (Method::Get, p) if p.starts_with("/figure/") && p.ends_with(".png") => {
            let id = &p["/figure/".len()..p.len() - ".png".len()];
            let px = param("px")
                .and_then(|v| v.parse().ok())
                .unwrap_or(FIGURE_PX);
            match shared.host().figure_png(id, px) {
                Ok(png) => bytes(200, "image/png", png),
                Err(e @ tilekit_analysis::AnalysisError::NoFigurePicture(_)) => {
                    text(404, e.to_string())
                }
                Err(e) => text(503, e.to_string()),
            }
        }
        (Method::Get, p) if p.starts_with("/sheet/") && p.ends_with(".png") => {
            let Ok(page) = p["/sheet/".len()..p.len() - ".png".len()].parse::<usize>() else {
                return text(404, format!("{p}: a sheet page is /sheet/N.png"));
            };
            match shared.host().sheet_page_png(param("set"), page, 40) {
                Ok(png) => bytes(200, "image/png", png.to_vec()),
                Err(
                    e @ (tilekit_analysis::AnalysisError::UnknownPage(..)
                    | tilekit_analysis::AnalysisError::UnknownSet(_)),
                ) => text(404, e.to_string()),
                Err(e) => text(503, e.to_string()),
            }
        }
        (_, p) if p.starts_with("/api/game/") => {
            game_route(method, &p["/api/game/".len()..], body, shared)
        }
        _ => text(404, format!("{path}: no such page (try /)")),
    }
}

/// Everything the page shows but the pictures.
fn state(shared: &Shared) -> Value {
    // The watch thread takes these before the host: so must every request (or they deadlock).
    let read_errors = lock(&shared.read_errors).clone();
    let gone = lock(&shared.gone).clone();
    let mut host = shared.host();
    let a = host.analysis();
    let diagnostics: Vec<Value> = a
        .diagnostics
        .iter()
        .map(|d| {
            let at = host.locate(d);
            json!({
                "severity": if tilekit_analysis::is_error(d) { "error" } else { "warning" },
                "code": d.code,
                "message": d.message,
                "file": at.file,
                "line": at.start.0,
                "column": at.start.1,
                "tile": at.tile,
                "excerpt": excerpt(d),
                "hint": d.hint,
                "label": d.label,
            })
        })
        .collect();
    let mut options: Vec<String> = Vec::new();
    let (sets, tiles) = match &a.good {
        Some(good) => {
            let set = &good.tileset;
            let sets: Vec<Value> = set
                .sets
                .iter()
                .map(|s| json!({ "id": s.id, "name": s.name }))
                .collect();
            let modifiers =
                (set.markers.iter()).filter_map(|m| m.scoring.as_ref()?.option.as_deref());
            let small =
                (set.feature_kinds.iter()).filter_map(|k| k.small.as_ref()?.option.as_deref());
            options = engine::options::rule_options(modifiers.chain(small))
                .into_iter()
                .map(str::to_string)
                .collect();
            let tiles: Vec<Value> = set
                .tiles
                .iter()
                .zip(&good.tile_keys)
                .map(|(t, key)| {
                    json!({
                        "id": t.id,
                        "name": t.name,
                        "set": set.sets[t.set].id,
                        "count": tilekit_render::contact::count_text(set, t),
                        "key": format!("{key:016x}"),
                        "edges": t.edges.iter().map(|&e| set.edge_kinds[e].id.clone()).collect::<Vec<_>>(),
                        "features": t.features.iter().map(|f| json!({
                            "kind": set.kind_of(f).id,
                            "ports": f.ports.iter().map(|p| p.name()).collect::<Vec<_>>(),
                        })).collect::<Vec<_>>(),
                        "start": t.start,
                    })
                })
                .collect();
            (sets, tiles)
        }
        None => (Vec::new(), Vec::new()),
    };
    let mut pages = |set: Option<&str>| {
        host.sheet(set)
            .map_or(0, |(_, layout, _)| layout.pages.len())
    };
    // The page's set filter shows the sheet of the set chosen: its page count, by set.
    let pages_by_set: serde_json::Map<String, Value> = (sets.iter())
        .filter_map(|s| s["id"].as_str().map(str::to_string))
        .map(|id| {
            let n = pages(Some(&id));
            (id, json!(n))
        })
        .collect();
    let pages = pages(None);
    // A set the engine cannot play yet (a kind of its own) is shown and printed, not played.
    let unplayable = match host.tables() {
        Ok(_) => None,
        Err(e) => Some(e.to_string()),
    };
    let playable = a.good.is_some() && unplayable.is_none();
    let figure_pictures = host.figures_with_pictures();
    let last_update_ms = lock(&shared.last_update).map(|(_, took)| took.as_millis() as u64);
    json!({
        "revision": a.revision,
        "stale": a.stale || !read_errors.is_empty(),
        "files": a.files.iter().map(|f| json!({
            "name": f.name, "set": f.set, "tiles": f.tiles, "errors": f.errors, "warnings": f.warnings,
        })).collect::<Vec<_>>(),
        "read_errors": read_errors,
        "gone": gone,
        "diagnostics": diagnostics,
        "sets": sets,
        "figure_pictures": figure_pictures,
        "options": options,
        "tiles": tiles,
        "pages": pages,
        "pages_by_set": pages_by_set,
        "playable": playable,
        "unplayable": unplayable,
        "last_update_ms": last_update_ms,
    })
}

/// The source lines of a diagnostic (at most 5, each cut to 200 characters).
fn excerpt(d: &tiledef::Diagnostic) -> String {
    let text: &str = d.source.inner();
    let start = text[..d.span.start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let end_at = d.span.end.clamp(d.span.start, text.len());
    let end = text[end_at..].find('\n').map_or(text.len(), |i| end_at + i);
    text[start..end]
        .lines()
        .take(5)
        .map(|l| l.chars().take(200).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

fn new_game(body: &str, shared: &Shared) -> Answer {
    let request: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let seats: Result<Vec<Seat>, String> = match request["seats"].as_array() {
        Some(list) => list
            .iter()
            .map(|s| s.as_str().unwrap_or("?").parse())
            .collect(),
        None => Err("a new game is {\"seats\": [\"person\", \"greedy\", …]} (and optionally \"sets\": [ids], \"start\": \"TILE\", \"options\": [names])".into()),
    };
    let seats = match seats {
        Ok(s) => s,
        Err(e) => return text(400, e),
    };
    let seed = request["seed"].as_u64().unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let strings = |key: &str| -> Vec<String> {
        (request[key].as_array().into_iter().flatten())
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    };
    let choice = tilekit_analysis::game::GameChoice {
        sets: strings("sets"),
        start: request["start"].as_str().map(str::to_string),
        options: strings("options"),
    };
    let game = match shared.host().start_game(seats, seed, choice) {
        Ok(g) => g,
        Err(e @ tilekit_analysis::AnalysisError::Game(_)) => return text(400, e.to_string()),
        Err(e) => return text(503, e.to_string()),
    };
    let mut games = lock(&shared.games);
    let id = games.insert(game);
    games.get(id).map_or_else(
        || text(500, "the game vanished"),
        |g| game_answer(game_view(g, id)),
    )
}

/// A game's view with its id, for the page.
fn game_view(game: &Session, id: u64) -> Result<Value, String> {
    let view = game.view().map_err(|e| e.to_string())?;
    let mut value = serde_json::to_value(view).map_err(|e| e.to_string())?;
    value["id"] = json!(id);
    Ok(value)
}

fn game_answer(view: Result<Value, String>) -> Answer {
    match view {
        Ok(v) => json_answer(&v),
        Err(e) => text(500, e),
    }
}

fn game_route(method: Method, rest: &str, body: &str, shared: &Shared) -> Answer {
    let (id, what) = rest.split_once('/').unwrap_or((rest, ""));
    let Ok(id) = id.parse::<u64>() else {
        return text(404, format!("no game `{id}`"));
    };
    let mut games = lock(&shared.games);
    let Some(game) = games.get(id) else {
        return text(
            404,
            format!("no game {id} (games end when the server stops)"),
        );
    };
    match (method, what) {
        (Method::Get, "") => game_answer(game_view(game, id)),
        (Method::Post, "move") => {
            let request: Value = serde_json::from_str(body).unwrap_or(Value::Null);
            let Some(index) = request["index"].as_u64() else {
                return text(
                    400,
                    "a move is {\"index\": N}, N from the legal moves given",
                );
            };
            match game.play(index as usize) {
                Ok(()) => game_answer(game_view(game, id)),
                Err(e) => text(409, e.to_string()),
            }
        }
        // The page asks the bot whose turn it is to play, a turn at a time, so that each
        // bot turn is seen.
        (Method::Post, "bot") => match game.bot_turn() {
            Ok(()) => game_answer(game_view(game, id)),
            Err(e) => text(409, e.to_string()),
        },
        (Method::Get, "record.toml") => Answer {
            download: Some(format!("game-{id}.toml")),
            ..bytes(
                200,
                "application/toml; charset=utf-8",
                game.record().to_toml().into_bytes(),
            )
        },
        _ => text(404, format!("no such game request `{what}`")),
    }
}

/// The server-sent event stream: one `data:` line per change, a comment every 15 s so that
/// a closed page is noticed and its thread ends.
fn events(mut out: TcpStream, shared: &Shared) {
    // A page that stops taking its events is let go rather than held forever.
    let _ = out.set_write_timeout(Some(EVENT_TIME));
    let (tx, rx) = channel();
    lock(&shared.subscribers).push(tx);
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
    let revision = shared.host().revision();
    if write!(
        out,
        "{head}retry: 500\ndata: {{\"revision\":{revision}}}\n\n"
    )
    .is_err()
        || out.flush().is_err()
    {
        return;
    }
    loop {
        let line = match rx.recv_timeout(Duration::from_secs(15)) {
            Ok(event) => format!("data: {event}\n\n"),
            Err(RecvTimeoutError::Timeout) => ": still here\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if out.write_all(line.as_bytes()).is_err() || out.flush().is_err() {
            return;
        }
    }
}

/// Decodes `%XX` escapes of a URL path (bytes that do not form UTF-8 are kept escaped).
fn percent_decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(b) = path
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` accepted connections (server side), with their clients kept open.
    fn accepted(listener: &TcpListener, n: usize) -> Vec<(TcpStream, TcpStream)> {
        let addr = listener.local_addr().expect("address");
        (0..n)
            .map(|_| {
                let client = TcpStream::connect(addr).expect("connect");
                let (server, _) = listener.accept().expect("accept");
                (server, client)
            })
            .collect()
    }

    #[test]
    fn at_the_cap_the_oldest_waiting_connection_makes_room() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let gate = Arc::new(Gate::default());
        let conns = accepted(&listener, MAX_CONNECTIONS + 1);
        let mut tickets: Vec<Ticket> = (conns.iter())
            .map(|(server, _)| Gate::admit(&gate, server).expect("admitted"))
            .collect();
        // The first was closed for the last: its read ends, and it cannot go on to answer.
        let mut first = &conns[0].0;
        assert_eq!(first.read(&mut [0u8; 8]).expect("read"), 0);
        assert!(!tickets[0].enter(Phase::Answering));
        assert!(tickets[1].enter(Phase::Answering));
        assert_eq!(lock(&gate.open).reading.len(), MAX_CONNECTIONS - 1);
    }

    #[test]
    fn with_every_place_answering_a_newcomer_is_refused_until_one_ends() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let gate = Arc::new(Gate::default());
        let conns = accepted(&listener, MAX_CONNECTIONS + 1);
        let mut tickets: Vec<Ticket> = (conns[..MAX_CONNECTIONS].iter())
            .map(|(server, _)| Gate::admit(&gate, server).expect("admitted"))
            .collect();
        for ticket in &mut tickets {
            assert!(ticket.enter(Phase::Answering));
        }
        let newcomer = &conns[MAX_CONNECTIONS].0;
        assert!(Gate::admit(&gate, newcomer).is_none());
        // An event stream frees its place among the answers: the newcomer is taken in.
        assert!(tickets[0].enter(Phase::Streaming));
        assert!(Gate::admit(&gate, newcomer).is_some());
        drop(tickets);
        let open = lock(&gate.open);
        assert_eq!(
            (open.reading.len(), open.answering, open.streams),
            (0, 0, 0)
        );
    }

    #[test]
    fn event_streams_are_capped() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let gate = Arc::new(Gate::default());
        let mut streaming = Vec::new();
        for (server, _client) in accepted(&listener, MAX_STREAMS + 1) {
            let mut ticket = Gate::admit(&gate, &server).expect("admitted");
            assert!(ticket.enter(Phase::Answering));
            let entered = ticket.enter(Phase::Streaming);
            assert_eq!(entered, streaming.len() < MAX_STREAMS);
            if entered {
                streaming.push(ticket);
            }
        }
        assert_eq!(lock(&gate.open).streams, MAX_STREAMS);
    }

    #[test]
    fn escapes_decode_and_bad_ones_stay() {
        assert_eq!(percent_decode("/tile/A%2BB.png"), "/tile/A+B.png");
        assert_eq!(percent_decode("/%2e%2e/x"), "/../x");
        assert_eq!(percent_decode("/%zz"), "/%zz");
        assert_eq!(percent_decode("/%ff"), "/%ff");
    }
}
