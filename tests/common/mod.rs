//! What the end-to-end tests share: running the binary from the repository root, and scratch
//! folders. Each test target uses only some of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root (the tests run the binary there, so `./definitions` is the bundled data).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the binary in the repository root, without colour.
pub fn tilekit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh empty folder under the target dir.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// The lines of `simulate --json` that hold timings, which a merge reckons from its slices.
const TIMINGS: [&str; 3] = [
    "  \"threads\": ",
    "  \"seconds\": ",
    "  \"games_per_second\": ",
];

/// `simulate --json` without its timing lines.
pub fn untimed_json(out: &str) -> String {
    (out.lines())
        .filter(|l| !TIMINGS.iter().any(|t| l.starts_with(t)))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The text report with its headline's timing cut (`N games of P players in …`).
pub fn untimed_text(out: &str) -> String {
    (out.lines())
        .map(|l| match l.split_once(" players in ") {
            Some((head, _)) if l.contains(" games of ") => format!("{head} players in …\n"),
            _ => format!("{l}\n"),
        })
        .collect()
}
