//! The protocol's framing on the way in (`Content-Length: N`, a blank line, N bytes of
//! JSON-RPC), read with limits: nothing the client declares is allocated before it is checked,
//! and a body is read as it arrives, so a client lying about a length costs what it sends.

use std::io::{self, BufRead, Read};

/// The largest message read. A whole document travels in one `didOpen` or `didChange` (full
/// sync), and the largest definition file read is `tiledef::MAX_FILE_BYTES`; 64 MiB leaves room
/// for JSON escaping and is still far below what a machine can afford to buffer twice.
pub const MAX_MESSAGE_BYTES: u64 = 64 * 1024 * 1024;

/// The largest header block read: the protocol defines two short headers.
pub const MAX_HEADER_BYTES: u64 = 8 * 1024;

/// How much of a bad header line an error quotes.
const QUOTED: usize = 80;

/// Why the framed input cannot be read on.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// Reading the input failed.
    #[error("reading the input: {0}")]
    Io(#[from] io::Error),
    /// The headers of one message run past `MAX_HEADER_BYTES`.
    #[error("a message's headers run past {MAX_HEADER_BYTES} bytes")]
    HeaderTooLong,
    /// A header line is not `Name: value` ending in CRLF, or not UTF-8.
    #[error("a header line that is not `Name: value` ending in CRLF: {0:?}")]
    MalformedHeader(String),
    /// The input ended inside a message's headers.
    #[error("the input ended inside a message's headers")]
    EndInHeader,
    /// The headers ended without a `Content-Length`.
    #[error("a message without a Content-Length header")]
    MissingLength,
    /// The `Content-Length` is not a decimal number (or there are two).
    #[error("a Content-Length that is not one decimal number: {0:?}")]
    BadLength(String),
    /// The declared length is over `MAX_MESSAGE_BYTES`.
    #[error("a message of {0} bytes declared: at most {MAX_MESSAGE_BYTES} bytes (64 MiB) are read")]
    TooLarge(u64),
    /// The declared length is beyond any 64-bit number.
    #[error(
        "a message longer than a 64-bit number declared: at most {MAX_MESSAGE_BYTES} bytes (64 MiB) are read"
    )]
    LengthOverflow,
    /// The input ended before the declared length.
    #[error("the input ended {got} bytes into a message of {declared} bytes")]
    Truncated {
        /// The length the headers declared.
        declared: u64,
        /// The bytes that came.
        got: u64,
    },
    /// The body is not UTF-8.
    #[error("a message that is not UTF-8 text")]
    NotUtf8,
    /// The body is not a JSON-RPC message.
    #[error("a message that is not JSON-RPC: {0}")]
    Json(#[from] serde_json::Error),
}

/// Reads one message; `Ok(None)` when the input ends between messages.
pub fn read_message(r: &mut impl BufRead) -> Result<Option<lsp_server::Message>, FrameError> {
    let Some(length) = read_headers(r)? else {
        return Ok(None);
    };
    // Read as the bytes arrive (the buffer grows with them), never sized from the header.
    let mut body = Vec::new();
    r.take(length).read_to_end(&mut body)?;
    let got = body.len() as u64;
    if got != length {
        return Err(FrameError::Truncated {
            declared: length,
            got,
        });
    }
    let text = std::str::from_utf8(&body).map_err(|_| FrameError::NotUtf8)?;
    Ok(Some(serde_json::from_str(text)?))
}

/// Reads the header block up to its blank line: the checked `Content-Length`, or `None` at the
/// end of the input.
fn read_headers(r: &mut impl BufRead) -> Result<Option<u64>, FrameError> {
    let mut length = None;
    let mut left = MAX_HEADER_BYTES;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = r.take(left).read_until(b'\n', &mut line)?;
        if n == 0 && left == MAX_HEADER_BYTES {
            return Ok(None);
        }
        if !line.ends_with(b"\n") {
            return Err(if n as u64 == left {
                FrameError::HeaderTooLong
            } else {
                FrameError::EndInHeader
            });
        }
        left -= n as u64;
        let Some(text) = line.strip_suffix(b"\r\n") else {
            return Err(malformed(&line));
        };
        if text.is_empty() {
            return length.ok_or(FrameError::MissingLength).map(Some);
        }
        let header = std::str::from_utf8(text).map_err(|_| malformed(text))?;
        let (name, value) = header.split_once(':').ok_or_else(|| malformed(text))?;
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            if length.is_some() {
                return Err(FrameError::BadLength(quote(header)));
            }
            length = Some(content_length(value.trim())?);
        }
    }
}

/// A `Content-Length` value checked against `MAX_MESSAGE_BYTES`.
fn content_length(value: &str) -> Result<u64, FrameError> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FrameError::BadLength(quote(value)));
    }
    // All digits: the only way to fail is to overflow.
    let n = value
        .parse::<u64>()
        .map_err(|_| FrameError::LengthOverflow)?;
    if n > MAX_MESSAGE_BYTES {
        return Err(FrameError::TooLarge(n));
    }
    Ok(n)
}

fn malformed(line: &[u8]) -> FrameError {
    FrameError::MalformedHeader(quote(&String::from_utf8_lossy(line)))
}

fn quote(text: &str) -> String {
    text.chars().take(QUOTED).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(input: &[u8]) -> Result<Option<lsp_server::Message>, FrameError> {
        read_message(&mut &input[..])
    }

    const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

    #[test]
    fn messages_are_read_one_after_another() {
        let input = format!(
            "Content-Length: {n}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{EXIT}content-length:{n}\r\n\r\n{EXIT}",
            n = EXIT.len()
        );
        let mut r = input.as_bytes();
        for _ in 0..2 {
            let message = read_message(&mut r).expect("a message");
            assert!(
                matches!(message, Some(lsp_server::Message::Notification(ref n)) if n.method == "exit"),
                "{message:?}"
            );
        }
        assert!(read_message(&mut r).expect("the end").is_none());
    }

    #[test]
    fn lengths_past_the_limit_are_refused_before_any_body_is_read() {
        for (length, declared) in [
            ("1000000000000000", 1_000_000_000_000_000),
            ("18446744073709551615", u64::MAX),
            ("3000000000", 3_000_000_000),
            ("67108865", MAX_MESSAGE_BYTES + 1),
        ] {
            // No body follows: a reader that waited for one would report a truncation.
            let input = format!("Content-Length: {length}\r\n\r\n");
            match read(input.as_bytes()) {
                Err(FrameError::TooLarge(n)) => assert_eq!(n, declared, "{length}"),
                other => panic!("{length}: {other:?}"),
            }
        }
        assert!(matches!(
            read(b"Content-Length: 99999999999999999999999\r\n\r\n"),
            Err(FrameError::LengthOverflow)
        ));
        let at_limit = format!("Content-Length: {MAX_MESSAGE_BYTES}\r\n\r\n{EXIT}");
        assert!(matches!(
            read(at_limit.as_bytes()),
            Err(FrameError::Truncated {
                declared: MAX_MESSAGE_BYTES,
                got: 33
            })
        ));
    }

    #[test]
    fn bad_framing_is_named() {
        type Expected = fn(&FrameError) -> bool;
        let cases: [(&[u8], Expected); 10] = [
            (b"Content-Length: -1\r\n\r\n", |e| {
                matches!(e, FrameError::BadLength(_))
            }),
            (b"Content-Length: 1e3\r\n\r\n", |e| {
                matches!(e, FrameError::BadLength(_))
            }),
            (b"Content-Length: \r\n\r\n", |e| {
                matches!(e, FrameError::BadLength(_))
            }),
            (b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", |e| {
                matches!(e, FrameError::BadLength(_))
            }),
            (b"Content-Type: x\r\n\r\n{}", |e| {
                matches!(e, FrameError::MissingLength)
            }),
            (b"hello\r\n\r\n{}", |e| {
                matches!(e, FrameError::MalformedHeader(_))
            }),
            (b"Content-Length: 2\n\n{}", |e| {
                matches!(e, FrameError::MalformedHeader(_))
            }),
            (b"Content-Length: 2\r\n", |e| {
                matches!(e, FrameError::EndInHeader)
            }),
            (b"Content-Length: 2\r\n\r\n\xff\xfe", |e| {
                matches!(e, FrameError::NotUtf8)
            }),
            (b"Content-Length: 2\r\n\r\n{}", |e| {
                matches!(e, FrameError::Json(_))
            }),
        ];
        for (input, expected) in cases {
            match read(input) {
                Err(e) => assert!(expected(&e), "{:?}: {e:?}", String::from_utf8_lossy(input)),
                Ok(m) => panic!("{:?} read as {m:?}", String::from_utf8_lossy(input)),
            }
        }
    }

    #[test]
    fn a_header_block_without_end_stops_at_the_limit() {
        let endless = "X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n".repeat(1000);
        assert!(matches!(
            read(endless.as_bytes()),
            Err(FrameError::HeaderTooLong)
        ));
        let one_long_line = "a".repeat(100_000);
        assert!(matches!(
            read(one_long_line.as_bytes()),
            Err(FrameError::HeaderTooLong)
        ));
        let err = read(one_long_line.as_bytes()).err().map(|e| e.to_string());
        assert!(err.is_some_and(|e| e.len() < 200));
    }
}
