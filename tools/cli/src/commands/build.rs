//! `tilekit build`: the main job. Validates the sets and writes everything derived from them
//! into the output folder.

use crate::commands::compile::{TablesFormat, tables_bytes};
use crate::commands::render::{Failure, write_contact_sheet, write_previews};
use crate::commands::sheet::write_sheet;
use crate::commands::validate::summary_line;
use crate::inputs::{Inputs, SetsArg, load_and_report};
use crate::output::write_atomic;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use tilekit_render::DrawOptions;
use tilekit_render::sheet::{Paper, SheetOptions};

/// Examples shown by `tilekit build --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit build --out out                       the bundled sets (or ./definitions)
  tilekit build my-set.toml definitions/base.toml --out my-out
  tilekit build lakeland.toml --sets lakeland --labels --out out   only your set, ids on the sheets";

/// Arguments of `tilekit build`.
#[derive(Args)]
pub struct BuildArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// The folder to write into (created if missing).
    #[arg(long, default_value = "out")]
    out: PathBuf,
    #[command(flatten)]
    sets: SetsArg,
    /// Print each tile's id small on the contact sheet and the print sheets.
    #[arg(long)]
    labels: bool,
}

/// Runs `tilekit build`.
pub fn run(args: &BuildArgs) -> miette::Result<ExitCode> {
    let report = load_and_report(&args.inputs)?;
    let mut text = String::new();
    for file in &report.files {
        let _ = writeln!(text, "{}", summary_line(file));
    }
    for d in &report.diagnostics {
        let _ = writeln!(text, "\n{}", d.render_plain());
    }
    let Some(tileset) = report.tileset else {
        write_atomic(&args.out.join("report.txt"), text.as_bytes())?;
        eprintln!(
            "build stopped: the definitions have errors (see {})",
            args.out.join("report.txt").display()
        );
        return Ok(ExitCode::from(1));
    };
    let printed = match args.sets.resolve(&tileset) {
        Ok(printed) => printed,
        Err(message) => {
            eprintln!("error: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let all = printed.tiles(&tileset);
    let _ = writeln!(text, "\n{}", crate::commands::list::table(&tileset, &all));

    let progress = Progress::new(5);
    let mut written = Vec::new();

    progress.step("compiling tables");
    let tables = crate::inputs::compile_tables(&tileset)?;
    for (name, format) in [
        ("tables.bin", TablesFormat::Bin),
        ("tables.json", TablesFormat::Json),
    ] {
        let path = args.out.join(name);
        write_atomic(&path, &tables_bytes(&tables, format))?;
        written.push(path.display().to_string());
    }

    let mut pictures = || -> Result<(), Failure> {
        progress.step("drawing previews");
        let options = DrawOptions {
            label: true,
            artwork: true,
            overlay: false,
        };
        let previews = args.out.join("previews");
        let count = write_previews(&tileset, &all, &previews, 512, &options)?;
        written.push(format!("{} ({count} PNG files)", previews.display()));

        progress.step("drawing the contact sheet");
        let contact = args.out.join("contact-sheet.png");
        write_contact_sheet(&tileset, &all, &contact, false, args.labels)?;
        written.push(contact.display().to_string());

        for (paper, name) in [
            (Paper::A4, "sheets-a4.pdf"),
            (Paper::Letter, "sheets-letter.pdf"),
        ] {
            progress.step(&format!("laying out {name}"));
            let options = SheetOptions {
                paper,
                edition: tileset.default_edition(),
                sets: Some(printed.sets.clone()),
                labels: args.labels,
                ..SheetOptions::default()
            };
            let path = args.out.join(name);
            let sheet = write_sheet(&tileset, &options, &path, None)?;
            written.push(format!(
                "{} ({} pages, {})",
                path.display(),
                sheet.pages.len(),
                tileset.editions[options.edition].id
            ));
        }
        Ok(())
    };
    let drawn = pictures();
    progress.finish();
    match drawn {
        Ok(()) => {}
        Err(Failure::Input(e)) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
        Err(Failure::Other(report)) => return Err(report),
    }

    let report = args.out.join("report.txt");
    written.push(report.display().to_string());
    let what = format!("printed {}", printed.describe(&tileset, all.len()));
    let _ = writeln!(text, "\n{what}");
    println!("{what}");
    let _ = writeln!(text);
    for what in &written {
        let _ = writeln!(text, "wrote {what}");
        println!("wrote {what}");
    }
    write_atomic(&report, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// A step counter on stderr; invisible when stderr is not a terminal.
struct Progress(ProgressBar);

impl Progress {
    fn new(steps: u64) -> Progress {
        let bar = ProgressBar::new(steps);
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}") {
            bar.set_style(style);
        }
        Progress(bar)
    }

    fn step(&self, what: &str) {
        self.0.set_message(what.to_string());
        self.0.inc(1);
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}
