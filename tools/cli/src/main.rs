//! The `tilekit` command line: validate, list, build, compile, inspect, play, simulate, render
//! and print tile sets. Each subcommand lives in its own module under `commands/`; this file only
//! parses arguments and dispatches.

mod commands;
mod inputs;
mod output;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Validate, compile, draw, print and playtest Carcassonne-style tile sets.
#[derive(Parser)]
#[command(name = "tilekit", version, about, long_about = None, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXAMPLES: &str = "\
Examples:
  tilekit build --out out                 validate, compile and draw the bundled sets into out/
  tilekit validate my-expansion.toml definitions/base.toml
  tilekit validate --format json          machine-readable diagnostics for editors and CI
  tilekit list definitions/festival.toml definitions/base.toml
  tilekit schema --out my-set/tileset.schema.json";

#[derive(Subcommand)]
enum Command {
    /// Check definition files: schema, then what no schema can say; report every problem.
    #[command(after_help = commands::validate::EXAMPLES)]
    Validate(commands::validate::ValidateArgs),
    /// Print (or write) the JSON Schema of the format, for editors.
    Schema(commands::schema::SchemaArgs),
    /// List the tile types of sets: id, count, edges, features.
    List(commands::list::ListArgs),
    /// The main job: validate the sets and write everything derived from them into a folder.
    #[command(after_help = commands::build::EXAMPLES)]
    Build(commands::build::BuildArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version on stdout with success; usage errors exit 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let result = match &cli.command {
        Command::Validate(args) => commands::validate::run(args),
        Command::Schema(args) => commands::schema::run(args),
        Command::List(args) => commands::list::run(args),
        Command::Build(args) => commands::build::run(args),
    };
    match result {
        Ok(code) => code,
        Err(report) => {
            eprintln!("{report:?}");
            ExitCode::from(2)
        }
    }
}
