//! `tilekit serve [PATHS]`: the author's live loop in the browser. The arguments and the
//! start-up; the server itself (HTTP, file watching, games) is `crate::serve`.

use crate::inputs::Inputs;
use clap::Args;
use std::net::IpAddr;
use std::process::ExitCode;
use std::time::Duration;

/// Examples shown by `tilekit serve --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit serve                                (./definitions, else the bundled sets)
  tilekit serve my-set.toml --port 8080
  tilekit serve definitions/ --host 0.0.0.0    (reachable from other machines: trusted networks only)";

/// Arguments of `tilekit serve`.
#[derive(Args)]
pub struct ServeArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 7878)]
    port: u16,
    /// The address to listen on: loopback unless you say otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Milliseconds a connection has to send its whole request (hidden: the tests shorten it).
    /// At most ten minutes, so that the deadline is always a time there is.
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    request_deadline_ms: Option<u64>,
}

/// Runs `tilekit serve` until interrupted.
pub fn run(args: &ServeArgs) -> miette::Result<ExitCode> {
    let deadline = args
        .request_deadline_ms
        .map_or(crate::serve::REQUEST_DEADLINE, Duration::from_millis);
    crate::serve::run(&args.inputs, args.host, args.port, deadline)
}
