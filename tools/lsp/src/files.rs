//! The server's I/O on files: `file:` URIs ↔ paths, and the definition files of a folder.

use std::path::{Path, PathBuf};

/// The path of a `file:` URI (percent-decoded), or `None` for another scheme.
pub fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // An authority of `localhost` (or none) is this machine.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).and_then(|&c| hex(c)),
                bytes.get(i + 2).and_then(|&c| hex(c)),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    let path = String::from_utf8(out).ok()?;
    // `file:///C:/x` on Windows is `C:/x`.
    let path = if cfg!(windows) && path.as_bytes().get(2) == Some(&b':') {
        path[1..].to_string()
    } else {
        path
    };
    Some(PathBuf::from(path))
}

/// The `file:` URI of an absolute path.
pub fn path_to_uri(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut uri = String::from("file://");
    if !text.starts_with('/') {
        uri.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) || (b == b':' && cfg!(windows)) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// Whether a text is a tilekit definition file (and not `Cargo.toml`): it has a `[set]` or a
/// `[[tile]]` table, or starts the way one does, with `format =`.
pub fn is_definitions(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("[set]")
            || line.starts_with("[[tile]]")
            || line
                .strip_prefix("format")
                .is_some_and(|rest| rest.trim_start().starts_with('='))
    })
}

/// The definition files of a folder (its `.toml` files that are definitions), with their text.
/// Files that cannot be read, or that are too large, are left out: the folder's files are
/// context for the open ones, and each is reported when it is opened.
pub fn folder_definitions(dir: &Path) -> Vec<(PathBuf, String)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let text = tiledef::read_text(&p).ok()?;
            is_definitions(&text).then_some((p, text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_paths_round_trip() {
        let path = Path::new("/tmp/my sets/vé#1.toml");
        let uri = path_to_uri(path);
        assert_eq!(uri, "file:///tmp/my%20sets/v%C3%A9%231.toml");
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
        assert_eq!(
            uri_to_path("file://localhost/a/b.toml").as_deref(),
            Some(Path::new("/a/b.toml"))
        );
        assert_eq!(uri_to_path("untitled:Untitled-1"), None);
    }

    #[test]
    fn definitions_are_told_from_other_toml() {
        assert!(is_definitions("format = 1\n"));
        assert!(is_definitions("# mine\n[set]\nid = \"x\"\n"));
        assert!(!is_definitions("[package]\nname = \"x\"\nformats = 1\n"));
    }
}
