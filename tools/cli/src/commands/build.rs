//! `tilekit build`: the main job. Validates the sets and writes everything derived from them
//! into the output folder.

use crate::commands::compile::{TablesFormat, tables_bytes};
use crate::commands::render::{Failure, preview_paths, write_contact_sheet, write_previews};
use crate::commands::sheet::write_sheet;
use crate::commands::validate::summary_line;
use crate::inputs::{Check, Inputs, SetsArg, load_and_report};
use crate::output::write_atomic;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use tilekit_render::sheet::{Paper, SheetOptions};
use tilekit_render::{DrawOptions, Label};

/// Examples shown by `tilekit build --help`.
pub const EXAMPLES: &str = "\
Examples:
  tilekit build --out out                       the bundled sets (or ./definitions)
  tilekit build my-set.toml definitions/base.toml --out my-out";

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
    /// Print each tile's id small on the contact sheet and the print sheets, and on the
    /// previews of tiles with their own artwork (drawn tiles' previews always have it).
    #[arg(long)]
    labels: bool,
}

/// Runs `tilekit build`. Each output is a step of its own: a step that fails (a preview whose
/// name the file system refuses, a full disk) is recorded in `report.txt` and on stderr, the
/// other steps still run, and the exit status says the worst (1 for a problem in the
/// definitions, such as missing artwork; 2 for a write failure).
pub fn run(args: &BuildArgs) -> miette::Result<ExitCode> {
    crate::output::check_folder("--out", &args.out)?;
    let report = load_and_report(&args.inputs, Check::Pictures)?;
    let report_path = args.out.join("report.txt");
    let mut text = String::new();
    for file in &report.files {
        let _ = writeln!(text, "{}", summary_line(file));
    }
    for d in &report.diagnostics {
        let _ = writeln!(text, "\n{}", d.render_plain());
    }
    let Some(tileset) = report.tileset else {
        crate::output::refuse_overwriting(
            &args.inputs.files(),
            std::slice::from_ref(&report_path),
        )?;
        write_atomic(&report_path, text.as_bytes())?;
        crate::errln!(
            "build stopped: the definitions have errors (see {})",
            report_path.display()
        );
        return Ok(ExitCode::from(1));
    };
    let printed = match args.sets.resolve(&tileset) {
        Ok(printed) => printed,
        Err(message) => {
            crate::errln!("error: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let all = printed.tiles(&tileset);
    let _ = writeln!(text, "\n{}", crate::commands::list::table(&tileset, &all));

    let previews = args.out.join("previews");
    let contact = args.out.join("contact-sheet.png");
    let sheets = [
        (Paper::A4, args.out.join("sheets-a4.pdf")),
        (Paper::Letter, args.out.join("sheets-letter.pdf")),
    ];
    let mut outputs = vec![
        report_path.clone(),
        args.out.join("tables.bin"),
        args.out.join("tables.json"),
        contact.clone(),
    ];
    outputs.extend(sheets.iter().map(|(_, p)| p.clone()));
    outputs.extend(preview_paths(&tileset, &all, &previews));
    crate::inputs::guard_outputs(&args.inputs, &tileset, &outputs)?;

    let progress = Progress::new(5);
    let mut steps = Steps::default();

    progress.step("compiling tables");
    // Sets the engine cannot play yet (a kind of their own) are still drawn and printed: the
    // tables are the one step that fails.
    match crate::inputs::compile_tables(&tileset) {
        Ok(tables) => {
            for (name, format) in [
                ("tables.bin", TablesFormat::Bin),
                ("tables.json", TablesFormat::Json),
            ] {
                let path = args.out.join(name);
                let written = write_atomic(&path, &tables_bytes(&tables, format));
                steps.record(path.display().to_string(), written.map_err(Failure::Other));
            }
        }
        Err(e) => steps.refuse("tables.bin and tables.json".to_string(), e.to_string()),
    }

    progress.step("drawing previews");
    let options = DrawOptions {
        label: if args.labels {
            Label::All
        } else {
            Label::Drawn
        },
        artwork: true,
        overlay: false,
    };
    let drawn = write_previews(&tileset, &all, &previews, 512, &options);
    steps.record_with(previews.display().to_string(), drawn, |count| {
        format!("{} ({count} PNG files)", previews.display())
    });

    progress.step("drawing the contact sheet");
    let drawn = write_contact_sheet(&tileset, &all, &contact, false, args.labels);
    steps.record(contact.display().to_string(), drawn);

    for (paper, path) in sheets {
        let name = path.display().to_string();
        progress.step(&format!("laying out {name}"));
        let options = SheetOptions {
            paper,
            edition: tileset.default_edition(),
            sets: Some(printed.sets.clone()),
            labels: args.labels,
            ..SheetOptions::default()
        };
        let laid = write_sheet(&tileset, &options, &path, None);
        let edition = (tileset.editions.get(options.edition))
            .filter(|_| tilekit_render::sheet::edition_matters(&tileset, &options))
            .map(|e| format!(", edition {}", e.id))
            .unwrap_or_default();
        steps.record_with(name.clone(), laid, |sheet| {
            let pages = sheet.pages.len();
            let noun = if pages == 1 { "page" } else { "pages" };
            format!("{name} ({pages} {noun}{edition})")
        });
    }
    progress.finish();

    steps.written.push(report_path.display().to_string());
    let what = format!("printed {}", printed.describe(&tileset, all.len()));
    let _ = writeln!(text, "\n{what}");
    crate::outln!("{what}")?;
    let _ = writeln!(text);
    for what in &steps.written {
        let _ = writeln!(text, "wrote {what}");
        crate::outln!("wrote {what}")?;
    }
    for (what, why) in &steps.failed {
        let _ = writeln!(text, "FAILED {what}: {why}");
        crate::errln!("error: could not write {what}: {why}");
    }
    for (what, why) in &steps.refused {
        let _ = writeln!(text, "NOT WRITTEN {what}: {why}");
        crate::errln!("error: {what} not written: {why}");
    }
    write_atomic(&report_path, text.as_bytes())?;
    Ok(steps.code)
}

/// What the build's steps wrote and what failed, with the exit status they add up to.
struct Steps {
    written: Vec<String>,
    failed: Vec<(String, String)>,
    /// Steps the definitions cannot take, with why.
    refused: Vec<(String, String)>,
    code: ExitCode,
}

impl Default for Steps {
    fn default() -> Steps {
        Steps {
            written: Vec::new(),
            failed: Vec::new(),
            refused: Vec::new(),
            code: ExitCode::SUCCESS,
        }
    }
}

impl Steps {
    /// A step the definitions cannot take (an input problem: exit status 1).
    fn refuse(&mut self, what: String, why: String) {
        self.refused.push((what, why));
        self.code = ExitCode::from(1);
    }

    fn record(&mut self, what: String, result: Result<(), Failure>) {
        self.record_with(what.clone(), result, |()| what);
    }

    fn record_with<T>(
        &mut self,
        what: String,
        result: Result<T, Failure>,
        written: impl FnOnce(T) -> String,
    ) {
        match result {
            Ok(value) => self.written.push(written(value)),
            Err(Failure::Input(e)) => {
                self.failed.push((what, e.to_string()));
                self.code = ExitCode::from(1);
            }
            Err(Failure::Other(report)) => {
                // The whole chain: "cannot write X: File name too long".
                let why: Vec<String> = report.chain().map(ToString::to_string).collect();
                self.failed.push((what, why.join(": ")));
                if self.code == ExitCode::SUCCESS {
                    self.code = ExitCode::from(2);
                }
            }
        }
    }
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
