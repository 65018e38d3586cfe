//! The docs' examples, run: every ```` ```console ```` block of `README.md` and `docs/*.md` is
//! run and its output compared with what the doc shows, so a change of output fails here until
//! the doc follows.
//!
//! The blocks of one document run in order in one scratch folder holding copies of
//! `definitions/` and `examples/` (the repository root as a newcomer sees it). What a block's
//! info string says, after its language:
//!
//! - ```` ```console ````: `$ tilekit …` lines, each followed by its output as a terminal shows
//!   it (standard output and error in the order written). A line `...` or `…` stands for any
//!   number of lines, `[..]` for any text within a line (for timings, thread counts). Every
//!   command must exit 0, or with `exit=N` every command of the block must exit N.
//! - `file=PATH`: the block is written to `PATH` in the scratch folder (a file the reader creates).
//! - ```` ```diff file=PATH ````: an edit of that file (`-` lines replaced by `+` lines, ` `
//!   lines kept), which must apply at exactly one place.
//! - `from=PATH`: an excerpt of the repository's file: each paragraph of the block (blank-line
//!   separated) must appear in it, in order, comments and blank lines aside.
//! - `run=no`: a block of commands that cannot run here (a server, a folder of your own); any
//!   other block with a `tilekit` command line fails the test, so no example is left unchecked.
//!
//! The README's table of commands is checked against each command's `--help`: every flag it
//! shows exists, shown in brackets exactly when it is optional.
//!
//! Why our own runner and not `trycmd` (whose `...` and `[..]` this follows): trycmd's markdown
//! mode runs commands without a shell, so the tutorial's edit between two commands (the
//! forgotten port) has no form there, nor has an excerpt checked against its file; and it would
//! bring snapbox and its own dependencies into the test build, none of which we build now.

mod common;

use common::root;
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Pictures a document shows that one of its commands draws: (document, file the command
/// writes in the scratch folder, the committed picture). Compared byte for byte after the
/// document's blocks ran, so a picture showing figures follows the program as its text does.
const PICTURES: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "docs/contact-sheet.png",
        "docs/contact-sheet.png",
    ),
    (
        "README.md",
        "out/festival/compare.png",
        "docs/report-compare.png",
    ),
];

/// One fenced block of a document.
struct Block {
    /// The document's line of the opening fence (1-based).
    line: usize,
    lang: String,
    attrs: Vec<(String, String)>,
    /// The block's lines, its fence's indentation removed.
    body: Vec<String>,
}

impl Block {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The fenced blocks of a Markdown text, in order.
fn blocks(text: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut open: Option<(Block, usize, usize)> = None; // block, indent, fence length
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let ticks = trimmed.chars().take_while(|&c| c == '`').count();
        match open.take() {
            None if ticks >= 3 => {
                let mut words = trimmed[ticks..].split_whitespace();
                let lang = words.next().unwrap_or("").to_owned();
                let attrs = words
                    .map(|w| match w.split_once('=') {
                        Some((k, v)) => (k.to_owned(), v.to_owned()),
                        None => (w.to_owned(), String::new()),
                    })
                    .collect();
                let block = Block {
                    line: i + 1,
                    lang,
                    attrs,
                    body: Vec::new(),
                };
                open = Some((block, indent, ticks));
            }
            None => {}
            Some((block, _, fence)) if ticks >= fence && trimmed[ticks..].trim().is_empty() => {
                found.push(block);
            }
            Some((mut block, indent, fence)) => {
                let cut = line.len() - line.trim_start().len();
                block.body.push(line[cut.min(indent)..].to_owned());
                open = Some((block, indent, fence));
            }
        }
    }
    found
}

/// The documents whose examples run: the README and every `docs/*.md`.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ lists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root().join("README.md"));
    docs
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("scratch folder");
    for entry in std::fs::read_dir(from).expect("folder lists") {
        let entry = entry.expect("folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("entry type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("file copies");
        }
    }
}

/// A fresh folder with copies of `definitions/` and `examples/`, as the repository's root.
fn sandbox(doc: &Path) -> PathBuf {
    let name = doc.file_stem().map(|s| s.to_string_lossy().into_owned());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("docs")
        .join(name.unwrap_or_default());
    let _ = std::fs::remove_dir_all(&dir);
    for part in ["definitions", "examples"] {
        copy_dir(&root().join(part), &dir.join(part));
    }
    dir
}

/// A command line's words: spaces split, double or single quotes group; a shell operator is
/// refused, since commands run without a shell.
fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => out.extend(word.take()),
            (None, '|' | '>' | '<' | ';' | '&' | '*' | '$' | '~') => {
                return Err(format!("`{c}` needs a shell; doc commands run without one"));
            }
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err("an unclosed quote".to_owned());
    }
    out.extend(word);
    Ok(out)
}

/// Runs a `tilekit` command line in `dir`: its exit status and what a terminal would show.
fn run(dir: &Path, line: &str) -> Result<(Option<i32>, String), String> {
    let words = words(line)?;
    let Some((program, args)) = words.split_first() else {
        return Err("an empty command".to_owned());
    };
    if program != "tilekit" {
        return Err(format!("only `tilekit` runs here, not `{program}`"));
    }
    // One pipe for both streams keeps the order a terminal shows (Rust's stdout is
    // line-buffered, stderr unbuffered).
    let (mut reader, writer) = std::io::pipe().map_err(|e| e.to_string())?;
    let mut command = Command::new(env!("CARGO_BIN_EXE_tilekit"));
    command
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(writer.try_clone().map_err(|e| e.to_string())?)
        .stderr(writer);
    let mut child = command.spawn().map_err(|e| e.to_string())?;
    // The command holds the pipe's writing ends until dropped: reading would never end.
    drop(command);
    let mut output = String::new();
    reader
        .read_to_string(&mut output)
        .map_err(|e| format!("output is not UTF-8: {e}"))?;
    let status = child.wait().map_err(|e| e.to_string())?;
    Ok((status.code(), output))
}

/// Whether one line matches a pattern line where `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

fn is_ellipsis(line: &str) -> bool {
    matches!(line.trim(), "..." | "…")
}

/// Whether the output's lines match the expected ones (`...`/`…` lines: any number of lines).
fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if is_ellipsis(first) => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| line_matches(first, a) && lines_match(rest, more)),
    }
}

/// Lines without trailing spaces, and without the blank lines at the end.
fn tidy(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Where the output first departs from the doc, for the failure message (after a `...` line,
/// the next line shown is looked for further on).
fn first_difference(expected: &[&str], actual: &[&str]) -> String {
    let mut at = 0;
    let mut floating = false;
    for want in expected {
        if is_ellipsis(want) {
            floating = true;
            continue;
        }
        let found = if floating {
            actual[at.min(actual.len())..]
                .iter()
                .position(|got| line_matches(want, got))
                .map(|i| at + i)
        } else {
            actual
                .get(at)
                .filter(|got| line_matches(want, got))
                .map(|_| at)
        };
        match (found, actual.get(at)) {
            (Some(i), _) => {
                at = i + 1;
                floating = false;
            }
            (None, _) if floating => {
                return format!("`{want}` is not in the output after its line {at}");
            }
            (None, Some(got)) => return format!("line {}: expected `{want}`, got `{got}`", at + 1),
            (None, None) => return format!("line {}: expected `{want}`, the output ended", at + 1),
        }
    }
    format!("the output goes on after its line {at}")
}

/// Runs a console block's commands; a message per command whose output or status differs.
fn check_console(doc: &str, block: &Block, dir: &Path, failures: &mut Vec<String>) {
    let want_status: i32 = block
        .attr("exit")
        .map(|s| s.parse().expect("`exit=N` is a number"))
        .unwrap_or(0);
    let mut commands: Vec<(usize, &str, Vec<&str>)> = Vec::new();
    for (i, line) in block.body.iter().enumerate() {
        match (line.strip_prefix("$ "), commands.last_mut()) {
            (Some(cmd), _) => commands.push((block.line + 1 + i, cmd, Vec::new())),
            (None, Some((_, _, expected))) => expected.push(line),
            (None, None) => failures.push(format!(
                "{doc}:{}: console block output before any `$ ` command",
                block.line
            )),
        }
    }
    for (line, cmd, expected) in commands {
        let place = format!("{doc}:{line}: `{cmd}`");
        let (status, output) = match run(dir, cmd) {
            Ok(done) => done,
            Err(why) => {
                failures.push(format!("{place}: {why}"));
                continue;
            }
        };
        let expected = tidy_owned(&expected);
        let actual = tidy(&output);
        let mut message = String::new();
        if status != Some(want_status) {
            let _ = write!(
                message,
                "exit status {status:?}, the doc says {want_status}; "
            );
        }
        if !lines_match(&expected, &actual) {
            let _ = write!(message, "{}; ", first_difference(&expected, &actual));
        }
        if !message.is_empty() {
            failures.push(format!(
                "{place}: {message}\n--- the doc shows:\n{}\n--- the program prints:\n{}",
                expected.join("\n"),
                actual.join("\n")
            ));
        }
    }
}

fn tidy_owned<'a>(lines: &[&'a str]) -> Vec<&'a str> {
    let mut lines: Vec<&str> = lines.iter().map(|l| l.trim_end()).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Applies a diff block to a file of the scratch folder.
fn apply_diff(block: &Block, path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (mut old, mut new) = (Vec::new(), Vec::new());
    for line in &block.body {
        match line.split_at_checked(1) {
            Some(("-", rest)) => old.push(rest),
            Some(("+", rest)) => new.push(rest),
            Some((" ", rest)) => {
                old.push(rest);
                new.push(rest);
            }
            _ => return Err(format!("a diff line that is not `-`, `+` or ` `: `{line}`")),
        }
    }
    if old.is_empty() {
        return Err("a diff with no `-` or ` ` line to find".to_owned());
    }
    let lines: Vec<&str> = text.lines().collect();
    let at: Vec<usize> = (0..lines.len().saturating_sub(old.len() - 1))
        .filter(|&i| lines[i..i + old.len()] == old[..])
        .collect();
    let [at] = at[..] else {
        return Err(format!(
            "its `-` lines are found {} times, not once",
            at.len()
        ));
    };
    let mut edited: Vec<&str> = lines[..at].to_vec();
    edited.extend(&new);
    edited.extend(&lines[at + old.len()..]);
    std::fs::write(path, edited.join("\n") + "\n").map_err(|e| e.to_string())
}

/// A TOML line without its comment and with its spaces collapsed (a `#` in a string stays).
fn toml_content(line: &str) -> String {
    let mut in_string = false;
    let mut kept = String::new();
    for c in line.chars() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => break,
            _ => {}
        }
        kept.push(c);
    }
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Checks that each paragraph of an excerpt appears in the file, in order.
fn check_excerpt(block: &Block, file: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(root().join(file)).map_err(|e| format!("{file}: {e}"))?;
    let lines: Vec<String> = text
        .lines()
        .map(toml_content)
        .filter(|l| !l.is_empty())
        .collect();
    let mut from = 0;
    for paragraph in block.body.split(|l| l.trim().is_empty()) {
        let want: Vec<String> = paragraph
            .iter()
            .map(|l| toml_content(l))
            .filter(|l| !l.is_empty())
            .collect();
        if want.is_empty() {
            continue;
        }
        let found = (from..lines.len().saturating_sub(want.len() - 1))
            .find(|&i| lines[i..i + want.len()] == want[..]);
        match found {
            Some(at) => from = at + want.len(),
            None => return Err(format!("`{}` … is not in {file} as shown", want[0])),
        }
    }
    Ok(())
}

/// A block that is not `console` but shows `tilekit` commands must say it does not run.
fn unrun_commands(block: &Block) -> bool {
    block.lang != "console"
        && block.attr("run") != Some("no")
        && block
            .body
            .iter()
            .any(|l| l.trim_start().starts_with("tilekit "))
}

/// Every block of one document, in order, in its own scratch folder.
fn check_document(path: &Path, failures: &mut Vec<String>) {
    let doc = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let text = std::fs::read_to_string(path).expect("the document reads");
    let dir = sandbox(path);
    for block in blocks(&text) {
        let place = format!("{doc}:{}", block.line);
        let result = match (block.lang.as_str(), block.attr("file"), block.attr("from")) {
            ("console", _, _) => {
                check_console(&doc, &block, &dir, failures);
                Ok(())
            }
            ("diff", Some(file), _) => apply_diff(&block, &dir.join(file)),
            (_, Some(file), _) => std::fs::write(dir.join(file), block.body.join("\n") + "\n")
                .map_err(|e| e.to_string()),
            (_, None, Some(file)) => check_excerpt(&block, file),
            _ if unrun_commands(&block) => Err(
                "`tilekit` commands outside a ```console block: make it one, or say `run=no`"
                    .to_owned(),
            ),
            _ => Ok(()),
        };
        if let Err(why) = result {
            failures.push(format!("{place}: {why}"));
        }
    }
    for (_, drawn, committed) in PICTURES.iter().filter(|(d, _, _)| *d == doc) {
        let same = match (
            std::fs::read(dir.join(drawn)),
            std::fs::read(root().join(committed)),
        ) {
            (Ok(drawn), Ok(committed)) => drawn == committed,
            _ => false,
        };
        if !same {
            failures.push(format!(
                "{doc}: {committed} is not the picture its command draws ({drawn}): copy it over"
            ));
        }
    }
}

#[test]
fn the_docs_examples_print_what_the_docs_show() {
    let mut failures = Vec::new();
    for doc in documents() {
        check_document(&doc, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} doc example(s) disagree with the program (fix the doc, or the program if it is \
         wrong):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The `--flags` of a command table's synopsis, each with whether it is shown optional (inside
/// brackets).
fn synopsis_flags(synopsis: &str) -> Vec<(String, bool)> {
    let mut flags = Vec::new();
    let mut depth = 0usize;
    let mut rest = synopsis;
    while let Some(c) = rest.chars().next() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '-' if rest.starts_with("--") => {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '-')
                    .collect();
                rest = &rest[name.len()..];
                flags.push((name, depth > 0));
                continue;
            }
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    flags
}

/// Checks one row of the README's command table against the command's `--help`: every flag
/// it shows exists, and it is shown optional exactly when the usage line does not require it.
fn check_table_row(synopsis: &str) -> Result<(), String> {
    let command: Vec<&str> = synopsis
        .split_whitespace()
        .skip(1)
        .take_while(|w| {
            w.chars().all(|c| c.is_ascii_lowercase() || c == '-') && !w.starts_with('-')
        })
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(&command)
        .arg("--help")
        .output()
        .map_err(|e| e.to_string())?;
    let help = String::from_utf8_lossy(&out.stdout);
    let usage = help
        .lines()
        .find(|l| l.starts_with("Usage:"))
        .ok_or("its --help has no usage line")?;
    for (flag, optional) in synopsis_flags(synopsis) {
        let required = usage.split_whitespace().any(|w| w == flag);
        if !help.contains(&format!("{flag} ")) && !help.contains(&format!("{flag}\n")) {
            return Err(format!(
                "`{flag}` is not an option of `tilekit {}`",
                command.join(" ")
            ));
        }
        if optional == required {
            let (shown, is) = if optional {
                ("optional", "required")
            } else {
                ("required", "optional")
            };
            return Err(format!("`{flag}` is shown {shown} but is {is}"));
        }
    }
    Ok(())
}

/// The README's table of commands: each row's synopsis against the program.
fn check_command_table(failures: &mut Vec<String>) {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("the README reads");
    for (i, line) in readme.lines().enumerate() {
        let Some(row) = line.strip_prefix("| `tilekit ") else {
            continue;
        };
        let synopsis = format!("tilekit {}", row.split('`').next().unwrap_or(""));
        if let Err(why) = check_table_row(&synopsis) {
            failures.push(format!("README.md:{}: `{synopsis}`: {why}", i + 1));
        }
    }
}

#[test]
fn the_command_table_shows_the_programs_options() {
    let mut failures = Vec::new();
    check_command_table(&mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_matcher_elides_only_what_it_is_told_to() {
    assert!(lines_match(&["a", "...", "d"], &["a", "b", "c", "d"]));
    assert!(lines_match(&["a", "…"], &["a"]));
    assert!(!lines_match(&["a", "d"], &["a", "b", "d"]));
    assert!(line_matches("10 games in [..] s", "10 games in 0.70 s"));
    assert!(!line_matches("10 games in [..] s", "11 games in 0.70 s"));
    assert!(!line_matches("abc", "abcd"));
    assert!(line_matches("[..]: ok", "base.toml: ok"));
}

#[test]
fn an_excerpt_keeps_strings_with_hashes_and_drops_comments() {
    assert_eq!(
        toml_content(r##"fill = "#4f8fd0"   # the lake's colour"##),
        r##"fill = "#4f8fd0""##
    );
    assert_eq!(toml_content("# a comment"), "");
}
