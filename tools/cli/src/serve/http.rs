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
use tiny_http::{Header, Method, Request, Response};

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

type Answer = Response<std::io::Cursor<Vec<u8>>>;

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|()| Header::from_bytes(&b"X-Invalid"[..], &b"1"[..]).expect("valid"))
}

fn bytes(status: u16, content_type: &str, body: Vec<u8>) -> Answer {
    Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-cache"))
}

fn text(status: u16, body: impl Into<String>) -> Answer {
    bytes(
        status,
        "text/plain; charset=utf-8",
        body.into().into_bytes(),
    )
}

fn json_answer(value: &Value) -> Answer {
    bytes(200, "application/json", value.to_string().into_bytes())
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
        let _ = request.respond(text(400, "the request body is not UTF-8 text"));
        return;
    }
    let answer = route(request.method(), &path, query, &body, shared);
    let _ = request.respond(answer);
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
    let mut host = shared.host();
    let a = host.analysis();
    let read_errors = lock(&shared.read_errors).clone();
    let gone = lock(&shared.gone).clone();
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
        "last_update_ms": lock(&shared.last_update).map(|(_, took)| took.as_millis() as u64),
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
    let players = request["players"].as_u64().unwrap_or(2).min(8) as u8;
    let bots = request["random"].as_u64().unwrap_or(0).min(8) as u8;
    let seed = request["seed"].as_u64().unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let tables = match shared.host().tables() {
        Ok(t) => t,
        Err(e) => return text(503, e.to_string()),
    };
    let mut games = lock(&shared.games);
    match games.start(tables, players, bots, seed) {
        Ok(id) => match games.get(id).map(|g| g.view()) {
            Some(Ok(mut view)) => {
                view["id"] = json!(id);
                json_answer(&view)
            }
            Some(Err(e)) => text(500, e),
            None => text(500, "the game vanished"),
        },
        Err(e) => text(400, e),
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
        (Method::Get, "") => match game.view() {
            Ok(mut v) => {
                v["id"] = json!(id);
                json_answer(&v)
            }
            Err(e) => text(500, e),
        },
        (Method::Post, "move") => {
            let request: Value = serde_json::from_str(body).unwrap_or(Value::Null);
            let Some(index) = request["index"].as_u64() else {
                return text(
                    400,
                    "a move is {\"index\": N}, N from the legal moves given",
                );
            };
            if let Err(e) = game.play(index as usize) {
                return text(409, e);
            }
            match game.view() {
                Ok(mut v) => {
                    v["id"] = json!(id);
                    json_answer(&v)
                }
                Err(e) => text(500, e),
            }
        }
        (Method::Get, "record.toml") => bytes(
            200,
            "application/toml; charset=utf-8",
            game.record_toml().into_bytes(),
        )
        .with_header(header(
            "Content-Disposition",
            &format!("attachment; filename=\"game-{id}.toml\""),
        )),
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
