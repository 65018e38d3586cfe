//! The edges of `tilekit serve` around the analysis host (`tilekit_analysis`): the file watcher
//! that reads the files it was given and tells the host what they now read, the HTTP server
//! (`http`) that asks the host and answers the page (the games on the page are the host's
//! `tilekit_analysis::game` sessions, kept here), and the server-sent events that tell open
//! pages a change arrived. The host does no I/O; this module does all of it.

mod http;

pub use http::REQUEST_DEADLINE;

use crate::inputs::Inputs;
use miette::IntoDiagnostic;
use notify::Watcher;
use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tilekit_analysis::AnalysisHost;

/// The size of tile pictures on the page.
pub const TILE_PX: u32 = 192;

/// How long the watcher waits for more events of one save (editors write, rename, chmod).
const SETTLE: Duration = Duration::from_millis(25);

/// The files a server watches: each by its canonical path, with the name the host knows it by.
#[derive(Default)]
pub struct Watched {
    /// Files given, or found in a folder given: canonical path → name.
    pub files: HashMap<PathBuf, String>,
    /// Folders given as folders (their new `.toml` files are read too): canonical → as given.
    pub folders: HashMap<PathBuf, PathBuf>,
}

impl Watched {
    /// The name of the file at a path the watcher reported, if it is one the server may read.
    fn name_of(&self, path: &Path) -> Option<String> {
        let canonical = canonical(path);
        if let Some(name) = self.files.get(&canonical) {
            return Some(name.clone());
        }
        // The folder the entry is in, not the one a link points into: a link in a given
        // folder is one of its entries (as every command reads it); the folder of its target
        // is not given, and nothing else there is read.
        let dir = canonical_dir(path)?;
        let given = self.folders.get(&dir)?;
        if path.extension().is_some_and(|e| e == "toml") {
            Some(given.join(path.file_name()?).display().to_string())
        } else {
            None
        }
    }
}

/// The canonical folder a path's entry is in.
fn canonical_dir(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    dir.canonicalize().ok()
}

/// A path made absolute with its folder resolved (the file itself may be gone).
fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            dir.canonicalize()
                .map(|d| d.join(name))
                .unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// Everything the server's threads share.
pub struct Shared {
    host: Mutex<AnalysisHost>,
    /// Why a watched file could not be read (its last readable text stays in the host).
    read_errors: Mutex<BTreeMap<String, String>>,
    /// Files deleted while serving, for the page to say so.
    gone: Mutex<Vec<String>>,
    subscribers: Mutex<Vec<Sender<String>>>,
    /// The games on the page; a lock of their own, so that a bot thinking does not hold up
    /// the pictures.
    games: Mutex<tilekit_analysis::game::Games>,
    /// When the last change was applied and what it took (for the page's status line).
    last_update: Mutex<Option<(Instant, Duration)>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panicking request thread must not take the server down with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    fn host(&self) -> MutexGuard<'_, AnalysisHost> {
        lock(&self.host)
    }

    /// Tells every open page that the files changed.
    fn broadcast(&self, event: &str) {
        lock(&self.subscribers).retain(|s| s.send(event.to_string()).is_ok());
    }
}

/// Starts the server and serves until interrupted; a request must arrive whole within
/// `deadline` of its connection.
pub fn run(
    inputs: &Inputs,
    host: IpAddr,
    port: u16,
    deadline: Duration,
) -> miette::Result<ExitCode> {
    let addr = SocketAddr::new(host, port);
    let listener = match std::net::TcpListener::bind(addr) {
        Ok(l) => l,
        Err(e) => {
            if e.kind() == std::io::ErrorKind::AddrInUse {
                crate::errln!(
                    "error: port {port} on {host} is already in use (another `tilekit serve`?): stop it, or pick another with --port"
                );
            } else {
                crate::errln!("error: cannot listen on {addr}: {e}");
            }
            return Ok(ExitCode::from(2));
        }
    };
    let sources = inputs.sources()?;
    let mut analysis = AnalysisHost::new();
    let mut watched = Watched::default();
    for source in sources {
        let path = PathBuf::from(&source.name);
        if path.is_file() {
            watched.files.insert(canonical(&path), source.name.clone());
        }
        analysis.apply_change(&source.name, Some(source.text));
    }
    let folders: Vec<PathBuf> = if inputs.paths.is_empty() {
        vec![PathBuf::from("definitions")]
    } else {
        inputs.paths.clone()
    };
    for folder in folders.iter().filter(|p| p.is_dir()) {
        watched.folders.insert(canonical(folder), folder.clone());
    }
    let started = Instant::now();
    let drawn = analysis
        .render_missing(TILE_PX, false)
        .map_err(|e| miette::miette!("{e}"))?;
    let a = analysis.analysis();
    let errors = a
        .diagnostics
        .iter()
        .filter(|d| tilekit_analysis::is_error(d))
        .count();
    let shared = Arc::new(Shared {
        host: Mutex::new(analysis),
        read_errors: Mutex::new(BTreeMap::new()),
        gone: Mutex::new(Vec::new()),
        subscribers: Mutex::new(Vec::new()),
        games: Mutex::new(tilekit_analysis::game::Games::default()),
        last_update: Mutex::new(None),
    });
    let bound = listener
        .local_addr()
        .map_or_else(|_| addr.to_string(), |a| a.to_string());
    crate::outln!(
        "tilekit serve: http://{bound}/ ({} files, {drawn} tiles drawn in {} ms, {errors} errors; Ctrl-C stops)",
        a.files.len(),
        started.elapsed().as_millis()
    )?;
    let (tx, rx) = channel();
    let mut watcher = notify::recommended_watcher(tx).into_diagnostic()?;
    let mut dirs: Vec<PathBuf> = watched
        .files
        .keys()
        .filter_map(|p| p.parent().map(Path::to_path_buf))
        .chain(watched.folders.keys().cloned())
        .collect();
    dirs.sort();
    dirs.dedup();
    for dir in &dirs {
        watcher
            .watch(dir, notify::RecursiveMode::NonRecursive)
            .into_diagnostic()?;
    }
    {
        let shared = shared.clone();
        std::thread::spawn(move || watch_loop(&shared, &watched, &rx));
    }
    http::serve(listener, &shared, deadline);
    drop(watcher);
    Ok(ExitCode::SUCCESS)
}

/// Applies the changes the watcher reports, a save at a time, and tells the pages.
fn watch_loop(shared: &Shared, watched: &Watched, rx: &Receiver<notify::Result<notify::Event>>) {
    while let Ok(first) = rx.recv() {
        let saved = Instant::now();
        let mut paths = Vec::new();
        let mut push = |e: notify::Result<notify::Event>| {
            if let Ok(e) = e
                && !matches!(e.kind, notify::EventKind::Access(_))
            {
                paths.extend(e.paths);
            }
        };
        push(first);
        while let Ok(more) = rx.recv_timeout(SETTLE) {
            push(more);
        }
        let names: Vec<String> = {
            let mut n: Vec<String> = paths.iter().filter_map(|p| watched.name_of(p)).collect();
            n.sort();
            n.dedup();
            n
        };
        if names.is_empty() {
            continue;
        }
        if apply(shared, &names) {
            let took = saved.elapsed();
            *lock(&shared.last_update) = Some((Instant::now(), took));
            let revision = shared.host().revision();
            shared.broadcast(&format!(
                "{{\"revision\":{revision},\"ms\":{}}}",
                took.as_millis()
            ));
        }
    }
}

/// Reads the named files again and gives the host their text; returns whether anything
/// changed. A file that cannot be read keeps its last text in the host, with the reason shown;
/// a file that is gone is gone from the host.
fn apply(shared: &Shared, names: &[String]) -> bool {
    let mut changed = false;
    for name in names {
        let read = tiledef::read_text(Path::new(name));
        let mut errors = lock(&shared.read_errors);
        match read {
            Ok(text) => {
                changed |= errors.remove(name).is_some();
                lock(&shared.gone).retain(|g| g != name);
                changed |= shared.host().apply_change(name, Some(text));
            }
            Err(tiledef::ReadError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                changed |= errors.remove(name).is_some();
                if shared.host().apply_change(name, None) {
                    lock(&shared.gone).push(name.clone());
                    changed = true;
                }
            }
            Err(e) => {
                let message = match &e {
                    tiledef::ReadError::Io { source, .. }
                        if source.kind() == std::io::ErrorKind::InvalidData =>
                    {
                        format!("cannot read {name}: it is not UTF-8 text (save it as UTF-8)")
                    }
                    _ => e.to_string(),
                };
                changed |= errors.insert(name.clone(), message.clone()).as_ref() != Some(&message);
            }
        }
    }
    if changed {
        let mut host = shared.host();
        // Only the tiles whose drawing changed are drawn: the rest come from the cache.
        let _ = host.render_missing(TILE_PX, false);
    }
    changed
}
