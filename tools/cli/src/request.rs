//! An HTTP request of `tilekit serve` from the bytes received so far: the head parsed by
//! `httparse`, and a body of `Content-Length` bytes. Pure (no I/O), so the server's reading
//! loop and a fuzzer call the same code.

/// The largest request body taken (a move or a new game is a few bytes).
pub const MAX_BODY: u64 = 4096;

/// The largest request head taken (a browser's is under 2 KiB).
pub const MAX_HEAD: usize = 16 * 1024;

/// The most headers a request may have.
const MAX_HEADERS: usize = 64;

/// A request method, as the routes tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `GET`.
    Get,
    /// `HEAD`.
    Head,
    /// `POST`.
    Post,
    /// Any other method.
    Other,
}

/// A whole request as the routes see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The method.
    pub method: Method,
    /// The request target as sent (path and query, not decoded).
    pub target: String,
    /// The body, `Content-Length` bytes of UTF-8.
    pub body: String,
}

/// What the bytes received so far make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// A request, so far as it goes: more bytes are needed.
    Partial,
    /// A whole request (bytes after its body are not looked at).
    Complete(Request),
}

/// Why the bytes are no request this server takes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// The head runs past `MAX_HEAD` bytes (or `MAX_HEADERS` headers).
    #[error("the request head is too large")]
    HeadTooLarge,
    /// The head is not HTTP/1.x.
    #[error("not an HTTP request: {0}")]
    NotHttp(httparse::Error),
    /// A chunked (or otherwise encoded) body.
    #[error("send the request body with a Content-Length")]
    NotLength,
    /// A `Content-Length` that is not a decimal number.
    #[error("a Content-Length that is no number")]
    BadLength,
    /// A body over `MAX_BODY`.
    #[error("a request body of {0} bytes: at most {MAX_BODY} here")]
    BodyTooLarge(u64),
    /// A body that is not UTF-8.
    #[error("the request body is not UTF-8 text")]
    BodyNotUtf8,
}

impl RequestError {
    /// The HTTP status that answers this error.
    pub fn status(&self) -> u16 {
        match self {
            RequestError::HeadTooLarge => 431,
            RequestError::NotLength => 411,
            RequestError::BodyTooLarge(_) => 413,
            RequestError::NotHttp(_) | RequestError::BadLength | RequestError::BodyNotUtf8 => 400,
        }
    }
}

/// Parses the bytes received on a connection so far into a request, or says more are needed.
pub fn parse_request(bytes: &[u8]) -> Result<Parsed, RequestError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut head = httparse::Request::new(&mut headers);
    let head_len = match head.parse(bytes) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) if bytes.len() > MAX_HEAD => {
            return Err(RequestError::HeadTooLarge);
        }
        Ok(httparse::Status::Partial) => return Ok(Parsed::Partial),
        Err(httparse::Error::TooManyHeaders) => return Err(RequestError::HeadTooLarge),
        Err(e) => return Err(RequestError::NotHttp(e)),
    };
    let method = match head.method {
        Some("GET") => Method::Get,
        Some("HEAD") => Method::Head,
        Some("POST") => Method::Post,
        _ => Method::Other,
    };
    let header = |name: &str| {
        (head.headers.iter())
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).trim().to_string())
    };
    if header("transfer-encoding").is_some() {
        return Err(RequestError::NotLength);
    }
    let length = match header("content-length") {
        None => 0,
        Some(v) if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) => {
            return Err(RequestError::BadLength);
        }
        // All digits: a number too long for 64 bits is too large a body all the same.
        Some(v) => v.parse::<u64>().unwrap_or(u64::MAX),
    };
    if length > MAX_BODY {
        return Err(RequestError::BodyTooLarge(length));
    }
    let body = &bytes[head_len..];
    // At most MAX_BODY: the conversion cannot fail, and a failure would be more to read.
    let Some(body) = usize::try_from(length).ok().and_then(|n| body.get(..n)) else {
        return Ok(Parsed::Partial);
    };
    let body = std::str::from_utf8(body).map_err(|_| RequestError::BodyNotUtf8)?;
    Ok(Parsed::Complete(Request {
        method,
        target: head.path.unwrap_or("/").to_string(),
        body: body.to_string(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete(bytes: &[u8]) -> Request {
        match parse_request(bytes) {
            Ok(Parsed::Complete(r)) => r,
            other => panic!("{:?}: {other:?}", String::from_utf8_lossy(bytes)),
        }
    }

    #[test]
    fn a_request_is_complete_when_its_body_is() {
        let whole = b"POST /api/game HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n{\"a\"}";
        for cut in 0..whole.len() {
            assert_eq!(parse_request(&whole[..cut]), Ok(Parsed::Partial), "{cut}");
        }
        let request = complete(whole);
        assert_eq!(request.method, Method::Post);
        assert_eq!(request.target, "/api/game");
        assert_eq!(request.body, "{\"a\"}");
        // Bytes after the body are not part of it.
        let more = [&whole[..], b"GET / HTTP/1.1\r\n"].concat();
        assert_eq!(complete(&more), request);
        let get = complete(b"GET /tile/A.png?px=32 HTTP/1.0\r\n\r\n");
        assert_eq!(
            (get.method, get.target.as_str(), get.body.as_str()),
            (Method::Get, "/tile/A.png?px=32", "")
        );
    }

    #[test]
    fn bad_requests_get_their_status() {
        let cases: [(&[u8], u16); 7] = [
            (b"\x16\x03\x01 tls\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n", 400),
            (b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n\xff\xfe", 400),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
                411,
            ),
            (b"POST / HTTP/1.1\r\nContent-Length: 4097\r\n\r\n", 413),
            (
                b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
                413,
            ),
        ];
        for (bytes, status) in cases {
            let got = parse_request(bytes).map_err(|e| e.status());
            assert_eq!(got, Err(status), "{:?}", String::from_utf8_lossy(bytes));
        }
    }

    #[test]
    fn a_head_is_cut_off_at_its_limit() {
        let long = format!("GET / HTTP/1.1\r\nX-Padding: {}", "a".repeat(MAX_HEAD));
        assert_eq!(
            parse_request(long.as_bytes()),
            Err(RequestError::HeadTooLarge)
        );
        // Just under the limit, the head may still arrive.
        assert_eq!(
            parse_request(&long.as_bytes()[..MAX_HEAD]),
            Ok(Parsed::Partial)
        );
        let many = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            "A: b\r\n".repeat(MAX_HEADERS + 1)
        );
        assert_eq!(
            parse_request(many.as_bytes()),
            Err(RequestError::HeadTooLarge)
        );
    }
}
