//! Everything the CLI writes: standard output through one checked path (`out!`/`outln!`),
//! standard error through one that never panics (`err!`/`errln!`), and files through `write_atomic`, which never leaves a half-written file, never replaces anything
//! that is not a regular file, and never writes over a file the command read.

use miette::{IntoDiagnostic, WrapErr};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writing to standard output failed.
#[derive(Debug, thiserror::Error)]
pub enum StdoutError {
    /// The reader went away (`tilekit list | head`): not a failure, the command stops quietly.
    #[error("standard output was closed")]
    Closed,
    /// Any other write error (`> /dev/full`).
    #[error("cannot write to stdout: {0}")]
    Write(std::io::Error),
}

impl miette::Diagnostic for StdoutError {}

/// Writes formatted text to standard output, mapping a closed pipe and write errors to values.
pub fn print(args: fmt::Arguments<'_>) -> Result<(), StdoutError> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_fmt(args).map_err(stdout_error)
}

/// Flushes standard output (text without a final newline waits in its buffer until then).
pub fn flush() -> Result<(), StdoutError> {
    std::io::stdout().flush().map_err(stdout_error)
}

fn stdout_error(e: std::io::Error) -> StdoutError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        StdoutError::Closed
    } else {
        StdoutError::Write(e)
    }
}

/// `print!` that returns a `StdoutError` instead of panicking (use with `?`).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::print(format_args!($($arg)*)) };
}

/// `println!` that returns a `StdoutError` instead of panicking (use with `?`).
#[macro_export]
macro_rules! outln {
    () => { $crate::output::print(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::print(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Prints a value as pretty JSON on its own lines (the `--json` form of every command).
pub fn print_json(value: &impl serde::Serialize) -> Result<(), StdoutError> {
    // Values built with `json!` and our output types always serialise (their keys are strings).
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    print(format_args!("{text}\n"))
}

/// Writes formatted text to standard error. A stderr that cannot be written to (closed, a
/// full disk) is passed over: there is nowhere left to say so, and the exit status still tells.
pub fn eprint(args: fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// `eprint!` that never panics (a closed or full stderr is passed over).
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => { $crate::output::eprint(format_args!($($arg)*)) };
}

/// `eprintln!` that never panics (a closed or full stderr is passed over).
#[macro_export]
macro_rules! errln {
    () => { $crate::output::eprint(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::eprint(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Refuses a folder option (`--out DIR`, `--report DIR`) that names something other than a
/// folder, before any work: a file there would only fail later, at the first write.
pub fn check_folder(option: &str, dir: &Path) -> miette::Result<()> {
    match std::fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => Err(miette::miette!(
            "{option} {} is a file; it must be a folder (it is created if missing)",
            dir.display()
        )),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path`. A regular file (or a missing one) is replaced atomically: a
/// temporary file beside it, then a rename, so readers see the old or the new content, never
/// half of it. `/dev/stdout` is this process's standard output, written in order with what else
/// it prints. A symlink to a regular file keeps the link and replaces its target. A device,
/// FIFO or socket (`/dev/stdout`, `/dev/full`, a named pipe), directly or through a symlink, is
/// written through, as a shell redirection would: it cannot be replaced by a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> miette::Result<()> {
    if is_own_stdout(path) {
        let mut stdout = std::io::stdout().lock();
        return stdout
            .write_all(bytes)
            .and_then(|()| stdout.flush())
            .map_err(stdout_error)
            .map_err(miette::Report::new);
    }
    write_atomic_with(path, |out| {
        out.write_all(bytes)
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot write {}", path.display()))
    })
}

/// `write_atomic` for content too large to hold: `write` streams it to the destination. If it
/// fails, a file being replaced is left as it was (a device or stdout may have part of it).
pub fn write_atomic_with<E: From<miette::Report>>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
    let fail = || format!("cannot write {}", path.display());
    if is_own_stdout(path) {
        // Through the process's own stdout, so its position is shared with what else is
        // printed: `--out /dev/stdout > file` or `| reader` gets the bytes in order.
        let mut stdout = Watched {
            out: std::io::stdout().lock(),
            closed: false,
        };
        let written = write(&mut stdout);
        // A reader that went away stops the command quietly, whatever the writer made of it.
        if stdout.closed {
            return Err(miette::Report::new(StdoutError::Closed).into());
        }
        written?;
        return (stdout.out.flush())
            .map_err(stdout_error)
            .map_err(|e| E::from(miette::Report::new(e)));
    }
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(miette::miette!("{}: it is a folder", fail()).into()),
        Ok(meta) if !meta.is_file() => {
            let mut file = (std::fs::OpenOptions::new().write(true).open(path))
                .into_diagnostic()
                .wrap_err_with(fail)?;
            write(&mut file)?;
            file.flush().into_diagnostic().wrap_err_with(fail)?;
            Ok(())
        }
        Ok(_) => {
            // Through any symlinks to the file itself, so the links stay links.
            let target = std::fs::canonicalize(path)
                .into_diagnostic()
                .wrap_err_with(fail)?;
            replace(&target, write, fail)
        }
        Err(_) if std::fs::symlink_metadata(path).is_ok() => Err(miette::miette!(
            "{}: it is a symlink to nothing (or a loop of them)",
            fail()
        )
        .into()),
        Err(_) => replace(path, write, fail),
    }
}

/// Standard output, noting whether its reader went away.
struct Watched<W: Write> {
    out: W,
    closed: bool,
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.out.write(buf);
        self.closed |= matches!(&written, Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe);
        written
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let flushed = self.out.flush();
        self.closed |= matches!(&flushed, Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe);
        flushed
    }
}

/// Whether a path names this process's standard output.
fn is_own_stdout(path: &Path) -> bool {
    ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
        .iter()
        .any(|p| path == Path::new(p))
}

/// Temp file in the same folder, synced, renamed over `path` (a regular file or nothing).
fn replace<E: From<miette::Report>>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
    fail: impl Fn() -> String,
) -> Result<(), E> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot create {}", dir.display()))
        .wrap_err_with(&fail)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.tmp-");
    remove_stale_temps(dir, &prefix);
    // `.<name>.tmp-<pid>.<random>`: the pid tells a later run whether its writer still lives.
    let tmp_prefix = format!("{prefix}{}.", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&tmp_prefix);
    // A temporary file is private (0600); the output gets the mode of the file it replaces,
    // or that of a new file under the usual umask.
    if let Some(mode) = output_permissions(path) {
        builder.permissions(mode);
    }
    let mut tmp = builder
        .tempfile_in(dir)
        .into_diagnostic()
        .wrap_err_with(&fail)?;
    // On failure the temporary file is removed when `tmp` drops.
    write(tmp.as_file_mut())?;
    let done = (tmp.as_file_mut().flush())
        .and_then(|()| tmp.as_file().sync_all())
        .and_then(|()| tmp.persist(path).map(|_| ()).map_err(|e| e.error));
    done.into_diagnostic().wrap_err_with(&fail)?;
    Ok(())
}

fn output_permissions(path: &Path) -> Option<std::fs::Permissions> {
    if let Ok(meta) = std::fs::metadata(path) {
        return Some(meta.permissions());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o644))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Removes `<prefix><pid>.…` files left by processes that no longer run (a build killed with
/// `kill -9` cannot clean up after itself). Where the process table cannot be read (no
/// `/proc`), nothing is removed: a live writer's file must never be taken away.
fn remove_stale_temps(dir: &Path, prefix: &str) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|rest| rest.split('.').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !proc.join(pid.to_string()).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The identity of a file (device and inode where there are such), to tell whether an output
/// would land on a file that was read, whatever path or link names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileId(Identity);

#[cfg(unix)]
type Identity = (u64, u64);
#[cfg(not(unix))]
type Identity = PathBuf;

impl FileId {
    /// The identity of an existing file (None when there is no such file).
    pub fn of(path: &Path) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::metadata(path).ok()?;
            Some(FileId((meta.dev(), meta.ino())))
        }
        #[cfg(not(unix))]
        {
            std::fs::canonicalize(path).ok().map(FileId)
        }
    }
}

/// Refuses outputs that would land on a file the command read (`sheet own.toml --out
/// own.toml`): the input would be lost.
pub fn refuse_overwriting(read: &[PathBuf], outputs: &[PathBuf]) -> miette::Result<()> {
    let read: Vec<(FileId, &PathBuf)> = read
        .iter()
        .filter_map(|p| FileId::of(p).map(|id| (id, p)))
        .collect();
    for out in outputs {
        let Some(id) = FileId::of(out) else {
            continue;
        };
        if let Some((_, input)) = read.iter().find(|(r, _)| *r == id) {
            return Err(miette::miette!(
                "refusing to write {}: it is {}, which this command reads; choose another output",
                out.display(),
                input.display()
            ));
        }
    }
    Ok(())
}
