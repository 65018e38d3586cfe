//! No mutation of a bundled definition file makes any command panic: each command the binary has
//! that reads definitions runs on a folder holding one mutated bundled file (with the bundled
//! sets it requires added, as for an author's folder) and ends with an exit status of the
//! README's table, its standard error free of a panic. Proptest chooses the file and the edits;
//! a failing case shrinks to the fewest edits.

mod common;

use common::{scratch, text};
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;

/// Words that land a mutation on meaningful spots of a definition file more often than random
/// bytes would: keys, values of the right and wrong types, table headers, limits.
const WORDS: &[&str] = &[
    "0",
    "-1",
    "20",
    "21",
    "4294967296",
    "1e308",
    "\"\"",
    "[]",
    "{}",
    "true",
    "\"N\"",
    "\"NNE\"",
    "\"inner\"",
    "\"centre\"",
    "count = 999",
    "strength = 0",
    "on = []",
    "power = \"recall\"",
    "[[figure]]\nid = \"x\"\non = [\"city\"]\n",
    "[[tile]]\nid = \"x\"\nedges = \"FFFF\"\n",
    "[[effect]]\n",
    "requires = []\n",
    "start = true\n",
    "held_back = true\n",
    "like = \"A\"\n",
    "\n[",
    "]",
    "\"",
    "=",
    ",",
    "\n",
];

/// One edit of a file's text, at a place given as a fraction of its length.
#[derive(Clone, Debug)]
enum Edit {
    /// Remove up to this many bytes.
    Delete(f64, usize),
    /// Insert a word of `WORDS`.
    Insert(f64, usize),
    /// Repeat the line at the place.
    RepeatLine(f64),
    /// Replace the next number after the place by a word of `WORDS`.
    ReplaceNumber(f64, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = 0.0..1.0f64;
    let word = 0..WORDS.len();
    prop_oneof![
        (at.clone(), 1..60usize).prop_map(|(a, n)| Edit::Delete(a, n)),
        (at.clone(), word.clone()).prop_map(|(a, w)| Edit::Insert(a, w)),
        at.clone().prop_map(Edit::RepeatLine),
        (at, word).prop_map(|(a, w)| Edit::ReplaceNumber(a, w)),
    ]
}

/// The byte at a fraction of the text, moved back to a character boundary.
fn place(text: &str, at: f64) -> usize {
    let mut i = ((text.len() as f64) * at) as usize;
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &mut String, edit: &Edit) {
    match *edit {
        Edit::Delete(at, n) => {
            let from = place(text, at);
            let mut to = (from + n).min(text.len());
            while !text.is_char_boundary(to) {
                to += 1;
            }
            text.replace_range(from..to, "");
        }
        Edit::Insert(at, w) => text.insert_str(place(text, at), WORDS[w]),
        Edit::RepeatLine(at) => {
            let i = place(text, at);
            let start = text[..i].rfind('\n').map_or(0, |s| s + 1);
            let end = text[i..].find('\n').map_or(text.len(), |e| i + e + 1);
            let line = text[start..end].to_owned();
            text.insert_str(end, &line);
        }
        Edit::ReplaceNumber(at, w) => {
            let i = place(text, at);
            if let Some(s) = text[i..].find(|c: char| c.is_ascii_digit()) {
                let s = i + s;
                let e = text[s..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(text.len(), |e| s + e);
                text.replace_range(s..e, WORDS[w]);
            }
        }
    }
}

/// The bundled definition files, by name.
fn bundled() -> Vec<(String, String)> {
    tiledef::bundled()
        .into_iter()
        .map(|s| {
            let name = Path::new(&s.name)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or(s.name);
            (name, s.text)
        })
        .collect()
}

/// Every command that reads definition files, on the folder `dir` (outputs into `out`).
fn commands(dir: &str, out: &str) -> Vec<Vec<String>> {
    let at = |rest: &str| -> Vec<String> {
        rest.replace("{dir}", dir)
            .replace("{out}", out)
            .split(' ')
            .map(String::from)
            .collect()
    };
    [
        "validate {dir}",
        "list {dir}",
        "compile {dir} --out {out}/tables.bin",
        "render {dir} --out {out}/previews --size 48",
        "sheet {dir} --out {out}/sheets.pdf --tile-mm 10 --bleed-mm 0",
        "export jcz {dir} --out {out}/tiles.xml",
        "export jcz-addon {dir} --out {out}/addon.jca --tile-size 48",
        "simulate {dir} --games 2 --players 2 --seed 1 --tiles 20",
        "simulate {dir} --games 1 --players greedy,mcts:5 --seed 2 --tiles 12",
    ]
    .iter()
    .map(|c| at(c))
    .collect()
}

/// Runs `tilekit ARGS` and says what is wrong with how it ended, if anything.
fn fault(args: &[String]) -> Option<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_tilekit"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    let stderr = text(&output.stderr);
    match output.status.code() {
        Some(0..=2) if !stderr.contains("panicked") => None,
        code => Some(format!(
            "`tilekit {}` ended with {code:?}:\n{stderr}",
            args.join(" ")
        )),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn no_mutation_of_a_bundled_file_makes_a_command_panic(
        file in 0..7usize,
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let files = bundled();
        let (name, original) = &files[file % files.len()];
        let mut mutated = original.clone();
        for e in &edits {
            apply(&mut mutated, e);
        }
        let dir = scratch("mutation");
        let input = dir.join("input");
        std::fs::create_dir_all(&input).expect("input folder");
        std::fs::write(input.join(name), &mutated).expect("mutated file");
        let (input, out) = (input.to_string_lossy(), dir.to_string_lossy());
        for args in commands(&input, &out) {
            if let Some(fault) = fault(&args) {
                prop_assert!(false, "{name} mutated by {edits:?}: {fault}");
            }
        }
    }
}

/// The property runs the commands for real: on each bundled file as it is, every one succeeds.
#[test]
fn every_command_succeeds_on_each_bundled_file_unmutated() {
    for (name, original) in bundled() {
        let dir = scratch("unmutated");
        let input = dir.join("input");
        std::fs::create_dir_all(&input).expect("input folder");
        std::fs::write(input.join(&name), &original).expect("file");
        let (input, out) = (input.to_string_lossy(), dir.to_string_lossy());
        for args in commands(&input, &out) {
            let output = Command::new(env!("CARGO_BIN_EXE_tilekit"))
                .args(&args)
                .output()
                .expect("the binary runs");
            assert!(
                output.status.success(),
                "{name}: `tilekit {}` failed: {}",
                args.join(" "),
                text(&output.stderr)
            );
        }
    }
}
