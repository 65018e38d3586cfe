//! `tilekit export jcz`: tilekit definitions → one JCloisterZone tile XML file, reporting per
//! tile what JCZ cannot represent. `tilekit export jcz-addon`: the same tiles as an add-on JCZ's
//! client installs, with tilekit's pictures and each feature's shape and follower point.

use crate::inputs::{Check, Inputs, load_and_report};
use crate::output::write_atomic;
use clap::{Args, Subcommand};
use miette::{IntoDiagnostic, miette};
use std::path::PathBuf;
use std::process::ExitCode;
use tiledef::TileSetFile;

/// Examples shown by `tilekit export jcz --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit export jcz definitions/base.toml --out basic.xml
  tilekit export jcz imported/ --out roundtrip.xml

Exit status: 0 written, 1 invalid definitions, 2 usage or I/O error.
What JCZ cannot represent is listed on stderr, per tile.";

/// Examples shown by `tilekit export jcz-addon --help`.
pub const ADDON_EXAMPLES: &str = "\
Examples:
  tilekit export jcz-addon my-set.toml --out my-set.jca
  tilekit export jcz-addon definitions/ --sets village-life --title \"Village Life\" --out village-life.jca

The add-on's id is the file's name (my-set.jca: my-set). Install it in JCZ: Settings, Add-ons,
Install add-on. Sets JCZ ships itself (base, the River, Inns & Cathedrals, ...) are drawn in the
artwork but not defined again. Exit status: 0 written, 1 invalid definitions, 2 usage or I/O
error. What JCZ cannot play is listed on stderr, per tile.";

/// Arguments of `tilekit export`.
#[derive(Args)]
pub struct ExportArgs {
    #[command(subcommand)]
    to: To,
}

/// Formats that can be exported.
#[derive(Subcommand)]
enum To {
    /// JCloisterZone tile XML.
    #[command(after_help = EXAMPLES)]
    Jcz(JczArgs),
    /// A JCloisterZone add-on (`.jca`): tiles, expansions and artwork, for JCZ 5's client.
    #[command(name = "jcz-addon", after_help = ADDON_EXAMPLES)]
    JczAddon(crate::commands::jcz_addon::AddonArgs),
}

/// Arguments of `tilekit export jcz`.
#[derive(Args)]
struct JczArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// The XML file to write.
    #[arg(long, value_name = "FILE.xml")]
    out: PathBuf,
}

/// Runs `tilekit export`.
pub fn run(args: &ExportArgs) -> miette::Result<ExitCode> {
    match &args.to {
        To::Jcz(args) => jcz(args),
        To::JczAddon(args) => crate::commands::jcz_addon::run(args),
    }
}

fn jcz(args: &JczArgs) -> miette::Result<ExitCode> {
    if args.out.is_dir() {
        return Err(miette!(
            "--out {} is a folder; name the XML file to write",
            args.out.display()
        ));
    }
    // Any file read, named or in a folder or the default `./definitions`, whatever links
    // lead to it (`export jcz --out definitions/base.toml` would lose the base set).
    crate::output::refuse_overwriting(&args.inputs.files(), std::slice::from_ref(&args.out))?;
    let report = load_and_report(&args.inputs, Check::Data)?;
    if report.has_errors() {
        crate::errln!("error: the definitions do not validate; nothing was exported");
        return Ok(ExitCode::from(1));
    }
    // Export what was named (or the defaults), not the bundled sets added for `requires`.
    let sources = if args.inputs.paths.is_empty() {
        args.inputs.sources()?
    } else {
        tiledef::read_paths(&args.inputs.paths).into_diagnostic()?
    };
    let parse = |source: &tiledef::Source| {
        toml::from_str::<TileSetFile>(&source.text).map_err(|e| miette!("{}: {e}", source.name))
    };
    let sets = sources
        .iter()
        .map(parse)
        .collect::<miette::Result<Vec<_>>>()?;
    // The required sets name the tiles that `like` refers to; they are not exported.
    let exported: Vec<&str> = sets.iter().map(|s| s.set.id.as_str()).collect();
    let mut context = Vec::new();
    for source in args.inputs.sources()? {
        let set = parse(&source)?;
        if !exported.contains(&set.set.id.as_str()) {
            context.push(set);
        }
    }
    let name = args.out.display().to_string();
    let tilekit_jcz::export::Export { xml, notes, losses } =
        tilekit_jcz::export::export(&sets, &context, &name);
    let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    let text = tilekit_jcz::xml::write(
        &xml,
        &format!("Exported by tilekit export jcz from {}", names.join(", ")),
    );
    write_atomic(&args.out, text.as_bytes())?;
    if !notes.is_empty() {
        crate::err!(
            "{}",
            tilekit_jcz::report_text(
                "tilekit export jcz: what JCZ cannot represent",
                &losses.sentence(),
                &notes
            )
        );
    }
    crate::outln!(
        "{name}: {} tiles in {} tile-sets; {} things JCZ cannot represent",
        xml.tiles.len(),
        xml.sets.len(),
        notes.len()
    )?;
    Ok(ExitCode::SUCCESS)
}
