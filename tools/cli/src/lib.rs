//! The part of the `tilekit` command line that other crates call: the request parser of
//! `tilekit serve`, a pure function over bytes, so that a fuzzer can drive it. Everything else
//! is the binary's (`main.rs`).

// As in the binary: nothing here writes to standard output or error.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod request;

pub use request::{MAX_BODY, MAX_HEAD, Method, Parsed, Request, RequestError, parse_request};
