//! A small zip archive writer (and the reader the tests check it with): what a JCZ add-on
//! (`.jca`) needs and no more. Files are stored or deflated (`miniz_oxide`), every entry carries
//! the same fixed time (1980-01-01 00:00), so the same files give the same bytes; no ZIP64, no
//! encryption, no comments. Folders are written as entries of their own, before their files, as
//! archivers do, so that an unpacker that does not create parents still finds them.

use std::collections::BTreeSet;

/// What cannot be written or read as a zip archive.
#[derive(Debug, thiserror::Error)]
pub enum ZipError {
    /// An entry or the archive is over the 4 GiB / 65,535-entry limits of a zip without ZIP64.
    #[error("the add-on is too large for a zip archive: {0}")]
    TooLarge(String),
    /// A path that is not a relative path inside the archive.
    #[error("`{0}` is not a relative path of files and folders")]
    Path(String),
    /// Bytes that are not a zip archive this module wrote.
    #[error("not a zip archive as written by tilekit: {0}")]
    Malformed(String),
}

/// How a file is put into the archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// As it is (for what is compressed already: PNG pictures).
    Stored,
    /// Deflated (text: JSON, XML).
    Deflated,
}

/// One file of the archive: its path (`/`-separated, relative) and bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The path inside the archive, e.g. `my-addon/jcz-addon.json`.
    pub path: String,
    /// The file's content.
    pub bytes: Vec<u8>,
    /// How it is stored.
    pub method: Method,
}

const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const END: u32 = 0x0605_4b50;
/// Version 2.0 (deflate, folders).
const NEEDED: u16 = 20;
/// Made by Unix, version 2.0: the external attributes carry Unix modes.
const MADE_BY: u16 = (3 << 8) | 20;
/// Names are UTF-8.
const UTF8: u16 = 1 << 11;
/// 1980-01-01 00:00, the earliest time a zip can say.
const DOS_DATE: u16 = (1 << 5) | 1;
const DOS_TIME: u16 = 0;

/// An entry as laid out: name, method, CRC, sizes, data, Unix mode.
struct Laid {
    name: String,
    method: u16,
    crc: u32,
    size: u32,
    data: Vec<u8>,
    mode: u32,
}

/// Writes the entries, in order, each preceded by the folders it sits in that were not
/// written yet.
pub fn write(entries: &[Entry]) -> Result<Vec<u8>, ZipError> {
    let mut laid = Vec::new();
    let mut folders = BTreeSet::new();
    for entry in entries {
        check_path(&entry.path)?;
        let parts: Vec<&str> = entry.path.split('/').collect();
        for depth in 1..parts.len() {
            let folder = format!("{}/", parts[..depth].join("/"));
            if folders.insert(folder.clone()) {
                laid.push(folder_entry(folder));
            }
        }
        laid.push(file_entry(entry)?);
    }
    assemble(&laid)
}

fn check_path(path: &str) -> Result<(), ZipError> {
    let bad = path.is_empty()
        || path.starts_with('/')
        || path.contains('\\')
        || path
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..");
    if bad {
        return Err(ZipError::Path(path.to_string()));
    }
    Ok(())
}

fn folder_entry(name: String) -> Laid {
    Laid {
        name,
        method: 0,
        crc: 0,
        size: 0,
        data: Vec::new(),
        // A folder, rwxr-xr-x, and the MS-DOS folder flag.
        mode: (0o040_755 << 16) | 0x10,
    }
}

fn file_entry(entry: &Entry) -> Result<Laid, ZipError> {
    let size = small(entry.bytes.len(), &entry.path)?;
    let crc = crc32fast::hash(&entry.bytes);
    let (method, data) = match entry.method {
        Method::Stored => (0, entry.bytes.clone()),
        Method::Deflated => {
            let packed = miniz_oxide::deflate::compress_to_vec(&entry.bytes, 6);
            // Deflate that does not pay is stored instead (tiny or random files).
            if packed.len() < entry.bytes.len() {
                (8, packed)
            } else {
                (0, entry.bytes.clone())
            }
        }
    };
    Ok(Laid {
        name: entry.path.clone(),
        method,
        crc,
        size,
        data,
        mode: 0o100_644 << 16,
    })
}

fn small(n: usize, what: &str) -> Result<u32, ZipError> {
    u32::try_from(n).map_err(|_| ZipError::TooLarge(format!("`{what}` has {n} bytes")))
}

fn assemble(laid: &[Laid]) -> Result<Vec<u8>, ZipError> {
    let count = u16::try_from(laid.len())
        .map_err(|_| ZipError::TooLarge(format!("{} files and folders", laid.len())))?;
    let mut out = Vec::new();
    let mut central = Vec::new();
    for e in laid {
        let offset = small(out.len(), &e.name)?;
        let packed = small(e.data.len(), &e.name)?;
        let name_len = small(e.name.len(), &e.name)?;
        let name_len = u16::try_from(name_len)
            .map_err(|_| ZipError::TooLarge(format!("the name `{}`", e.name)))?;
        put32(&mut out, LOCAL);
        header(&mut out, e, packed, name_len);
        put16(&mut out, 0); // extra field length
        out.extend_from_slice(e.name.as_bytes());
        out.extend_from_slice(&e.data);

        put32(&mut central, CENTRAL);
        put16(&mut central, MADE_BY);
        header(&mut central, e, packed, name_len);
        for field in [0u16, 0, 0, 0] {
            // extra, comment, disk number, internal attributes
            put16(&mut central, field);
        }
        put32(&mut central, e.mode);
        put32(&mut central, offset);
        central.extend_from_slice(e.name.as_bytes());
    }
    let central_at = small(out.len(), "the archive")?;
    let central_len = small(central.len(), "the archive's directory")?;
    out.extend_from_slice(&central);
    put32(&mut out, END);
    for field in [0, 0, count, count] {
        put16(&mut out, field);
    }
    put32(&mut out, central_len);
    put32(&mut out, central_at);
    put16(&mut out, 0); // comment length
    Ok(out)
}

/// The fields the local and the central header share, from "version needed" to the name length.
fn header(out: &mut Vec<u8>, e: &Laid, packed: u32, name_len: u16) {
    for field in [NEEDED, UTF8, e.method, DOS_TIME, DOS_DATE] {
        put16(out, field);
    }
    for field in [e.crc, packed, e.size] {
        put32(out, field);
    }
    put16(out, name_len);
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Reads an archive through its central directory: every file (folders left out) with its
/// bytes, unpacked and checked against its CRC. Made for checking what `write` wrote.
pub fn read(bytes: &[u8]) -> Result<Vec<Entry>, ZipError> {
    let bad = |what: &str| ZipError::Malformed(what.to_string());
    let end = bytes
        .len()
        .checked_sub(22)
        .filter(|&at| u32_at(bytes, at) == Some(END))
        .ok_or_else(|| bad("no end of central directory"))?;
    let count = u16_at(bytes, end + 10).ok_or_else(|| bad("entry count"))?;
    let mut at = u32_at(bytes, end + 16).ok_or_else(|| bad("directory offset"))? as usize;
    let mut files = Vec::new();
    for _ in 0..count {
        if u32_at(bytes, at) != Some(CENTRAL) {
            return Err(bad("a directory entry"));
        }
        let field16 = |k: usize| u16_at(bytes, at + k).map(usize::from);
        let field32 = |k: usize| u32_at(bytes, at + k);
        let (Some(method), Some(crc), Some(packed), Some(size)) =
            (field16(10), field32(16), field32(20), field32(24))
        else {
            return Err(bad("a directory entry"));
        };
        let (Some(name_len), Some(extra), Some(comment), Some(local)) =
            (field16(28), field16(30), field16(32), field32(42))
        else {
            return Err(bad("a directory entry"));
        };
        let name = bytes
            .get(at + 46..at + 46 + name_len)
            .and_then(|n| std::str::from_utf8(n).ok())
            .ok_or_else(|| bad("a name"))?
            .to_string();
        at += 46 + name_len + extra + comment;
        if name.ends_with('/') {
            continue;
        }
        let data = local_data(bytes, local as usize, packed as usize)
            .ok_or_else(|| bad(&format!("the data of `{name}`")))?;
        let unpacked = match method {
            0 => data.to_vec(),
            8 => miniz_oxide::inflate::decompress_to_vec(data)
                .map_err(|_| bad(&format!("the deflated data of `{name}`")))?,
            _ => return Err(bad(&format!("the method {method} of `{name}`"))),
        };
        if unpacked.len() != size as usize || crc32fast::hash(&unpacked) != crc {
            return Err(bad(&format!("the size or CRC of `{name}`")));
        }
        let method = if method == 8 {
            Method::Deflated
        } else {
            Method::Stored
        };
        files.push(Entry {
            path: name,
            bytes: unpacked,
            method,
        });
    }
    Ok(files)
}

/// The data of the entry whose local header starts at `at`.
fn local_data(bytes: &[u8], at: usize, packed: usize) -> Option<&[u8]> {
    if u32_at(bytes, at)? != LOCAL {
        return None;
    }
    let name_len = usize::from(u16_at(bytes, at + 26)?);
    let extra = usize::from(u16_at(bytes, at + 28)?);
    let start = at + 30 + name_len + extra;
    bytes.get(start..start + packed)
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, text: &str, method: Method) -> Entry {
        Entry {
            path: path.to_string(),
            bytes: text.as_bytes().to_vec(),
            method,
        }
    }

    #[test]
    fn what_is_written_reads_back_with_its_folders_left_out() {
        let long = "tile ".repeat(200);
        let entries = vec![
            entry("addon/jcz-addon.json", &long, Method::Deflated),
            entry("addon/art/tiles/a.png", "\u{89}PNG", Method::Stored),
            entry("addon/art/b.txt", "", Method::Deflated),
        ];
        let bytes = write(&entries).unwrap();
        let back = read(&bytes).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(back[0].bytes, long.as_bytes());
        assert_eq!(back[0].method, Method::Deflated, "text is deflated");
        assert_eq!(back[1].bytes, "\u{89}PNG".as_bytes());
        // An empty file does not shrink: it is stored.
        assert_eq!(back[2].method, Method::Stored);
        // Three folders (each once) and three files.
        assert_eq!(u16_at(&bytes, bytes.len() - 12), Some(6));
        assert_eq!(bytes, write(&entries).unwrap(), "same files, same bytes");
    }

    #[test]
    fn the_folders_are_entries_before_their_files() {
        let bytes = write(&[entry("a/b/c.txt", "x", Method::Stored)]).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let (a, ab, file) = (
            text.find("a/").unwrap(),
            text.find("a/b/").unwrap(),
            text.find("a/b/c.txt").unwrap(),
        );
        assert!(a < ab && ab <= file, "{text}");
        // Three local headers: two folders and the file.
        assert_eq!(
            bytes
                .windows(4)
                .filter(|w| *w == LOCAL.to_le_bytes())
                .count(),
            3
        );
    }

    #[test]
    fn paths_outside_the_archive_are_refused() {
        for path in ["", "/abs", "a/../b", "a//b", "a\\b", "./a"] {
            let err = write(&[entry(path, "x", Method::Stored)]).unwrap_err();
            assert!(matches!(err, ZipError::Path(_)), "{path}: {err}");
        }
    }

    #[test]
    fn damaged_archives_are_refused() {
        let mut bytes = write(&[entry("a.txt", "hello hello hello", Method::Deflated)]).unwrap();
        assert!(read(&bytes[..bytes.len() - 1]).is_err());
        // Flip a byte of the data: the CRC no longer matches.
        bytes[30 + 5] ^= 0xff;
        assert!(read(&bytes).is_err());
    }
}
