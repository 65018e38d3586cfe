//! The HTTP side of `tilekit serve` (tiny_http, a thread per request): the page, the state as
//! JSON, tile pictures and sheet pages as the renderer's PNGs, games, and the server-sent
//! event stream. It serves nothing from disk by path: every answer is made from the analysis
//! host or compiled into the binary, so no URL can reach a file the server was not given.

use super::{Shared, TILE_PX, lock};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;
use tilekit_analysis::game::{Seat, Session};
use tiny_http::{Method, Request};

const PAGE: &str = include_str!("page.html");

/// The largest request body read (a move or a new game is a few bytes).
const MAX_BODY: u64 = 4096;

/// Answers requests until the server stops.
pub fn serve(server: tiny_http::Server, shared: &Arc<Shared>) {
    for request in server.incoming_requests() {
        let shared = shared.clone();
        std::thread::spawn(move || handle(request, &shared));
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

/// Writes an answer and asks the client to close the connection. tiny_http gives each
/// connection a pool thread for as long as the client keeps it open (it has no idle timeout),
/// and its pool can queue a new connection behind them (a worker woken for one connection is
/// still counted as idle for the next); a browser keeps idle connections for minutes, so a
/// picture asked on a queued connection waited for a thread that never came. With
/// `Connection: close` (which tiny_http will not set itself) every connection ends with its
/// answer and frees its thread.
fn respond(request: Request, answer: Answer) {
    let head_only = *request.method() == Method::Head;
    let mut out = request.into_writer();
    let reason = tiny_http::StatusCode(answer.status).default_reason_phrase();
    let download = answer.download.map_or_else(String::new, |name| {
        format!("Content-Disposition: attachment; filename=\"{name}\"\r\n")
    });
    let head = format!(
        "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\n{download}Connection: close\r\n\r\n",
        answer.status,
        answer.content_type,
        answer.body.len()
    );
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
}

fn handle(mut request: Request, shared: &Shared) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    let path = percent_decode(path);
    if path == "/events" && *request.method() == Method::Get {
        events(request, shared);
        return;
    }
    let mut body = String::new();
    if *request.method() == Method::Post
        && request
            .as_reader()
            .take(MAX_BODY)
            .read_to_string(&mut body)
            .is_err()
    {
        respond(request, text(400, "the request body is not UTF-8 text"));
        return;
    }
    let method = request.method().clone();
    respond(request, route(&method, &path, query, &body, shared));
}

fn route(method: &Method, path: &str, query: &str, body: &str, shared: &Shared) -> Answer {
    if path.split('/').any(|s| s == ".." || s == ".") || path.contains('\\') {
        return text(400, format!("{path}: a path with `..` names nothing here"));
    }
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
    };
    let method = if *method == Method::Head {
        &Method::Get
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
        (Method::Get, p) if p.starts_with("/sheet/") && p.ends_with(".png") => {
            let Ok(page) = p["/sheet/".len()..p.len() - ".png".len()].parse::<usize>() else {
                return text(404, format!("{p}: a sheet page is /sheet/N.png"));
            };
            match shared.host().sheet_page_png(page, 40) {
                Ok(png) => bytes(200, "image/png", png.to_vec()),
                Err(e @ tilekit_analysis::AnalysisError::UnknownPage(..)) => {
                    text(404, e.to_string())
                }
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
    let (sets, tiles) = match &a.good {
        Some(good) => {
            let set = &good.tileset;
            let sets: Vec<Value> = set
                .sets
                .iter()
                .map(|s| json!({ "id": s.id, "name": s.name }))
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
                            "kind": format!("{:?}", f.kind).to_lowercase(),
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
    let pages = host.sheet().map(|(_, n)| n).unwrap_or(0);
    let playable = a.good.is_some();
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
        "tiles": tiles,
        "pages": pages,
        "playable": playable,
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
        None => Err("a new game is {\"seats\": [\"person\", \"greedy\", …]}".into()),
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
    let game = match shared.host().start_game(seats, seed) {
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

fn game_route(method: &Method, rest: &str, body: &str, shared: &Shared) -> Answer {
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
fn events(request: Request, shared: &Shared) {
    let (tx, rx) = channel();
    lock(&shared.subscribers).push(tx);
    let mut out = request.into_writer();
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

    #[test]
    fn escapes_decode_and_bad_ones_stay() {
        assert_eq!(percent_decode("/tile/A%2BB.png"), "/tile/A+B.png");
        assert_eq!(percent_decode("/%2e%2e/x"), "/../x");
        assert_eq!(percent_decode("/%zz"), "/%zz");
        assert_eq!(percent_decode("/%ff"), "/%ff");
    }
}
