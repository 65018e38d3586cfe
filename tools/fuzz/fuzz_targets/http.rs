//! The bytes a browser (or anyone on the port) sends `tilekit serve`, parsed as the server
//! parses a request: a request, a need for more bytes, or a refusal with its status, never a
//! panic; and whatever a whole request is made of stays within the server's limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tilekit_cli::{MAX_BODY, MAX_HEAD, Parsed, parse_request};

fuzz_target!(|data: &[u8]| {
    match parse_request(data) {
        Ok(Parsed::Complete(request)) => {
            assert!(
                request.body.len() as u64 <= MAX_BODY,
                "a body over the limit"
            );
            assert!(
                request.target.len() <= MAX_HEAD,
                "a target over the head's limit"
            );
        }
        Ok(Parsed::Partial) => {}
        Err(e) => {
            let status = e.status();
            assert!((400..600).contains(&status), "{e}: status {status}");
        }
    }
});
