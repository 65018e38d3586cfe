//! The engine's core names no rule module: each core file's `crate::…` paths (its `use` lines
//! and paths written inline) are held to a written list, so a core file that starts importing
//! `rules::donkey` (or any module under `rules/`) fails here. The core reaches the rules only
//! through `rules/mod.rs`: its hooks, its registry of moves (`ACTIONS`) and what it re-exports.

use std::collections::BTreeSet;
use std::path::Path;

/// The core's files (`engine/src/NAME.rs`).
const CORE: &[&str] = &[
    "ids",
    "board",
    "tables",
    "placement",
    "placements",
    "state",
    "scoring",
    "game",
    "setup",
    "draw",
    "options",
    "rng",
    "record",
    "simulate",
];

/// What a core file may name besides the core: the rules' hub (`crate::rules::Item`, never a
/// module under it), the crate root's re-export of `tables::compile`, and, for a simulation,
/// the players that play it.
const ALSO: &[(&str, &[&str])] = &[("*", &["rules", "compile"]), ("simulate", &["players"])];

/// Every `crate::` path in `text`, as its segments after `crate` up to the first item list or
/// non-path character: `use crate::rules::{A, b}` gives `["rules"]` plus one path per item.
/// A path through `rules` brought in by `use crate::rules;` (`rules::network::…`) counts too.
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("rules::") {
        let before = &text[..at];
        let boundary = !before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if boundary && !before.ends_with("crate::") {
            out.extend(paths_at(&text[at..]));
        }
    }
    for (at, _) in text.match_indices("crate::") {
        out.extend(paths_at(&text[at + "crate::".len()..]));
    }
    out
}

/// The paths of one occurrence: its segments, then one path per item of a list after them.
fn paths_at(rest: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    let mut tail = rest;
    loop {
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        if end == 0 {
            break;
        }
        path.push(tail[..end].to_string());
        tail = &tail[end..];
        match tail.strip_prefix("::") {
            Some(t) => tail = t,
            None => break,
        }
    }
    if let Some(list) = tail.strip_prefix('{') {
        let close = list.find('}').unwrap_or(list.len());
        for item in list[..close].split(',') {
            let first = item.trim().split("::").next().unwrap_or("").trim();
            if !first.is_empty() {
                let mut p = path.clone();
                p.push(first.to_string());
                out.push(p);
            }
        }
    }
    if !path.is_empty() {
        out.push(path);
    }
    out
}

/// The modules under `rules/` (its files but `mod.rs`).
fn rule_modules(src: &Path) -> BTreeSet<String> {
    let dir = std::fs::read_dir(src.join("rules")).expect("engine/src/rules is readable");
    (dir.filter_map(|e| e.ok()))
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".rs")?;
            (stem != "mod").then(|| stem.to_string())
        })
        .collect()
}

/// Why a core file's path breaks the list, if it does.
fn fault(file: &str, path: &[String], rule_modules: &BTreeSet<String>) -> Option<String> {
    let top = path.first()?.as_str();
    let also = ALSO
        .iter()
        .filter(|(f, _)| *f == "*" || *f == file)
        .any(|(_, names)| names.contains(&top));
    if !CORE.contains(&top) && !also {
        return Some(format!(
            "names `crate::{}`, outside the core",
            path.join("::")
        ));
    }
    match path.get(1) {
        Some(second) if top == "rules" && rule_modules.contains(second) => Some(format!(
            "names the rule module `crate::{}`: reach it through a hook in rules/mod.rs",
            path.join("::")
        )),
        _ => None,
    }
}

#[test]
fn the_core_names_no_rule_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = rule_modules(&src);
    assert!(
        ["donkey", "windmill", "festival", "powers"]
            .iter()
            .all(|m| modules.contains(*m)),
        "the rule modules were not found: {modules:?}"
    );
    let mut faults = Vec::new();
    for file in CORE {
        let text = std::fs::read_to_string(src.join(format!("{file}.rs")))
            .unwrap_or_else(|e| panic!("engine/src/{file}.rs: {e}"));
        // Code only: a comment may say which module does what.
        let text: String = (text.lines())
            .filter(|l| !l.trim_start().starts_with("//"))
            .map(|l| format!("{l}\n"))
            .collect();
        for path in crate_paths(&text) {
            if let Some(why) = fault(file, &path, &modules) {
                faults.push(format!("engine/src/{file}.rs {why}"));
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The rule modules work on the surface of `state.rs` and are called at the hooks: none
/// imports `game.rs` (its tests aside).
#[test]
fn no_rule_module_imports_the_turn_flow() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut names = rule_modules(&src);
    names.insert("mod".to_string());
    let mut faults = Vec::new();
    for name in names {
        let text = std::fs::read_to_string(src.join("rules").join(format!("{name}.rs")))
            .unwrap_or_else(|e| panic!("engine/src/rules/{name}.rs: {e}"));
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let code: String = (code.lines())
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect();
        if code.contains("crate::game") {
            faults.push(format!("engine/src/rules/{name}.rs imports crate::game"));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The map says where each rule module is, and stays a map: at most 4,000 words.
#[test]
fn the_map_names_every_rule_module_and_stays_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md"))
        .unwrap_or_else(|e| panic!("ARCHITECTURE.md: {e}"));
    let words = map.split_whitespace().count();
    assert!(
        words <= 4000,
        "ARCHITECTURE.md has {words} words, over 4,000"
    );
    let src = root.join("engine").join("src");
    let missing: Vec<String> = (rule_modules(&src).into_iter())
        .filter(|m| !map.contains(&format!("`{m}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name these rule modules: {missing:?}"
    );
}

/// The check itself catches what it is for: a rule module named in a `use` line, in an item
/// list, or inline, and a path outside the core.
#[test]
fn the_check_finds_a_rule_module_however_it_is_named() {
    let modules: BTreeSet<String> = ["donkey".to_string(), "in_play".to_string()].into();
    let faults = |text: &str, file: &str| -> usize {
        (crate_paths(text).iter())
            .filter(|p| fault(file, p, &modules).is_some())
            .count()
    };
    assert_eq!(faults("use crate::rules::donkey::Donkey;", "game"), 1);
    assert_eq!(faults("use crate::rules::{Modules, in_play};", "setup"), 1);
    assert_eq!(
        faults("let d = crate::rules::donkey::Donkey::new();", "state"),
        1
    );
    assert_eq!(
        faults("rules::donkey::move_donkey(self, x, y, events)?;", "game"),
        1
    );
    assert_eq!(faults("use crate::players::random;", "game"), 1);
    assert_eq!(faults("use crate::players::random;", "simulate"), 0);
    assert_eq!(faults("use crate::rules::{ActionId, Target};", "record"), 0);
    assert_eq!(faults("use crate::state::{Core, Game};", "scoring"), 0);
}

/// The mechanics of the bundled sets and of Carcassonne's expansions: words the core's code
/// must not say (a comment may say which module does what). A word counts in an identifier's
/// parts (`windmill_points`, `TokenMajority`) and in string literals, alone or plural; the
/// longer ones also as a prefix (`marketplace`).
const MECHANICS: &[&str] = &[
    "windmill",
    "donkey",
    "festival",
    "flower",
    "market",
    "token",
    "well",
    "river",
    "abbey",
    "dragon",
    "fairy",
    "princess",
    "portal",
    "wagon",
    "barn",
    "volcano",
    "abbot",
    "pig",
    "builder",
    "mayor",
    "village",
    "trader",
    "inn",
    "cathedral",
    "tower",
    "bridge",
    "castle",
    "bazaar",
    "catapult",
    "witch",
    "ferry",
    "gold",
    "vineyard",
    "shepherd",
    "sheep",
];

/// The core files held to `MECHANICS` (`engine/src/NAME.rs`): every file of `CORE` but those
/// of `NOT_YET`.
fn mechanic_free() -> impl Iterator<Item = &'static str> {
    (CORE.iter().copied()).filter(|f| NOT_YET.iter().all(|(n, _)| n != f))
}

/// Identifiers and words still naming a mechanic in those files, with why. Shrink it; never
/// grow it.
const LEFT: &[(&str, &[&str])] = &[
    // The compiled tables carry the format's own fields under the format's names (a feature's
    // `flowers`, a marker's `token`, a tile's `marketplace`, a marker `rule = "festival"`),
    // for every program that reads the tables; the modules read them there.
    (
        "tables",
        &[
            "flowers",
            "flowers_by_colour",
            "festival",
            "Festival",
            "token",
            "token_id",
            "marketplace",
        ],
    ),
];

/// The core files that still name mechanics in more than a word or two, each with the most
/// words it names: none now (the rule options' switches went to `rules/module_options.rs`).
/// A count may only go down, and is written down when it does.
const NOT_YET: &[(&str, usize)] = &[];

/// A core file's code outside its unit tests (which may play the bundled sets by name).
fn code_of(src: &Path, file: &str) -> String {
    let text = std::fs::read_to_string(src.join(format!("{file}.rs")))
        .unwrap_or_else(|e| panic!("engine/src/{file}.rs: {e}"));
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// The mechanic a word of code names, if any: the word itself or one of its parts (split at
/// `_` and at a lower-to-upper case change).
fn names_mechanic(word: &str) -> Option<&'static str> {
    let mut parts = Vec::new();
    for piece in word.split('_') {
        let mut start = 0;
        let chars: Vec<(usize, char)> = piece.char_indices().collect();
        for w in chars.windows(2) {
            if w[0].1.is_lowercase() && w[1].1.is_uppercase() {
                parts.push(&piece[start..w[1].0]);
                start = w[1].0;
            }
        }
        parts.push(&piece[start..]);
    }
    parts.iter().find_map(|part| {
        let part = part.to_lowercase();
        MECHANICS.iter().copied().find(|m| {
            part == *m
                || part.strip_suffix('s') == Some(*m)
                || (m.len() >= 5 && part.starts_with(*m))
        })
    })
}

/// A file's code without its comments: whole comment lines, and what follows `//` outside a
/// string literal.
fn code_only(text: &str) -> Vec<(usize, String)> {
    (text.lines().enumerate())
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| {
            let mut quotes = 0;
            let mut end = l.len();
            for (at, c) in l.char_indices() {
                if c == '"' {
                    quotes += 1;
                } else if quotes % 2 == 0 && l[at..].starts_with("//") {
                    end = at;
                    break;
                }
            }
            (i + 1, l[..end].to_string())
        })
        .collect()
}

/// Every word of `code` naming a mechanic that `allowed` does not list: line, word, mechanic.
fn mechanic_faults(code: &str, allowed: &[&str]) -> Vec<(usize, String, &'static str)> {
    let mut out = Vec::new();
    for (line, text) in code_only(code) {
        for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if let Some(m) = names_mechanic(word)
                && !allowed.contains(&word)
            {
                out.push((line, word.to_string(), m));
            }
        }
    }
    out
}

#[test]
fn the_core_s_code_names_no_mechanic() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut faults = Vec::new();
    for file in mechanic_free() {
        let allowed = (LEFT.iter())
            .find(|(f, _)| *f == file)
            .map_or(&[][..], |(_, words)| *words);
        for (line, word, mechanic) in mechanic_faults(&code_of(&src, file), allowed) {
            faults.push(format!(
                "engine/src/{file}.rs:{line} `{word}` names a mechanic ({mechanic}): move it \
                 behind a hook or the registry in rules/mod.rs"
            ));
        }
    }
    for &(file, most) in NOT_YET {
        let named = mechanic_faults(&code_of(&src, file), &[]).len();
        if named > most {
            faults.push(format!(
                "engine/src/{file}.rs names mechanics {named} times, more than the {most} \
                 it did: move the new ones behind a hook or the registry in rules/mod.rs"
            ));
        } else if named < most {
            faults.push(format!(
                "engine/src/{file}.rs names mechanics {named} times, fewer than {most}: \
                 write {named} in `NOT_YET` (or take the file out when it is 0)"
            ));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The check finds a mechanic in an identifier's parts, plural or as a prefix, and in a
/// string, but not in a comment or in a word that only contains one.
#[test]
fn the_mechanic_check_reads_words_not_comments() {
    let count = |code: &str| mechanic_faults(code, &[]).len();
    assert_eq!(count("FigureKind::Windmill => {"), 1);
    assert_eq!(count("IllegalMove::DonkeyBlocks { dx, dy }"), 1);
    assert_eq!(count("let kind_flowers = play.flowered(o, 1);"), 2);
    assert_eq!(count("(\"marketplace networks\", n)"), 1);
    assert_eq!(count("Event::TokenMajority { tokens }"), 2);
    assert_eq!(count("    // the donkey's tile: a comment"), 0);
    assert_eq!(count("let x = 1; // the windmill's range"), 0);
    assert_eq!(count("let s = \"a // b windmill\";"), 1);
    assert_eq!(count("let spinning = wellness + pigment + inner;"), 0);
    assert_eq!(
        mechanic_faults("x.windmill_points", &["windmill_points"]).len(),
        0
    );
}

/// The most lines a function outside tests may take, its signature to its closing brace
/// (issue 36: functions a reader takes in at once).
const LONGEST_FUNCTION: usize = 150;

/// The code of a Rust file with comments and the insides of string and character literals
/// blanked (newlines kept), so that braces and `fn` can be found by looking.
fn blank_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        let end = if c == '/' && next == '/' {
            (i..chars.len())
                .find(|&j| chars[j] == '\n')
                .unwrap_or(chars.len())
        } else if c == '/' && next == '*' {
            (i + 2..chars.len())
                .find(|&j| chars[j - 1] == '*' && chars[j] == '/')
                .map_or(chars.len(), |j| j + 1)
        } else if c == 'r' && (next == '"' || next == '#') && !ident_before(&chars, i) {
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            let open = i + 1 + hashes;
            if chars.get(open) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: String = std::iter::once('"')
                .chain("#".repeat(hashes).chars())
                .collect();
            let rest: String = chars[open + 1..].iter().collect();
            rest.find(&close).map_or(chars.len(), |at| {
                open + 1 + rest[..at].chars().count() + close.len()
            })
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            j + 1
        } else if c == '\'' && (chars.get(i + 2) == Some(&'\'') || next == '\\') {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '\'' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            j + 1
        } else {
            out.push(c);
            i += 1;
            continue;
        };
        let end = end.min(chars.len());
        out.extend(chars[i..end].iter().map(|&c| blank(c)));
        i = end;
    }
    out
}

/// Whether the character before `at` continues an identifier (`for` in `fr"…"` is not a raw
/// string).
fn ident_before(chars: &[char], at: usize) -> bool {
    at > 0 && (chars[at - 1].is_alphanumeric() || chars[at - 1] == '_')
}

/// Each function of `code` (literals blanked) as `(name, first line, lines)`, leaving out
/// `mod tests` blocks.
fn function_lengths(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    let mut skip_until = 0;
    for (n, line) in lines.iter().enumerate() {
        if n < skip_until {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"mod") && words.get(1).is_some_and(|w| w.starts_with("tests")) {
            skip_until = block_end(&lines, n).map_or(lines.len(), |end| end + 1);
            continue;
        }
        let Some(at) = words.iter().position(|w| *w == "fn") else {
            continue;
        };
        let name = words
            .get(at + 1)
            .map_or("", |w| w.split(['(', '<']).next().unwrap_or(""));
        if let Some(end) = block_end(&lines, n) {
            out.push((name.to_string(), n + 1, end - n + 1));
        }
    }
    out
}

/// The line where the block opened at or after line `from` closes; None when a `;` comes
/// first (a declaration without a body).
fn block_end(lines: &[&str], from: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut opened = false;
    for (n, line) in lines.iter().enumerate().skip(from) {
        for c in line.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth = depth.saturating_sub(1),
                ';' if !opened => return None,
                _ => {}
            }
            if opened && depth == 0 {
                return Some(n);
            }
        }
    }
    None
}

/// The Rust files of the workspace's crates outside their tests (`src/`, no `tests.rs`).
fn source_files(root: &Path) -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<std::path::PathBuf> = vec![root.join("engine/src"), root.join("tiledef/src")];
    for tool in std::fs::read_dir(root.join("tools")).expect("tools/") {
        dirs.push(tool.expect("a tool").path().join("src"));
    }
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "tests.rs")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// No function outside tests runs over `LONGEST_FUNCTION` lines.
#[test]
fn no_function_outside_tests_runs_over_150_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files = source_files(&root);
    assert!(files.len() > 50, "only {} files found", files.len());
    let mut long = Vec::new();
    let mut functions = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable source");
        for (name, line, lines) in function_lengths(&blank_literals(&text)) {
            functions += 1;
            if lines > LONGEST_FUNCTION {
                let file = path.strip_prefix(&root).unwrap_or(&path).display();
                long.push(format!("{file}:{line} `{name}` runs {lines} lines"));
            }
        }
    }
    assert!(functions > 1000, "only {functions} functions found");
    assert!(
        long.is_empty(),
        "over {LONGEST_FUNCTION} lines:\n{}",
        long.join("\n")
    );
}

/// The measure sees through literals and comments, and skips a test module.
#[test]
fn a_function_s_length_is_measured_through_literals() {
    let code = "fn a() {\n    let s = \"}\";\n    let c = '{';\n    // }\n    let r = r#\"}\"#;\n}\n\
                fn b(x: u8) -> u8;\nmod tests {\n    fn c() {\n    }\n}\nfn d<'a>(s: &'a str) {\n}\n";
    let found = function_lengths(&blank_literals(code));
    assert_eq!(
        found,
        vec![("a".to_string(), 1, 6), ("d".to_string(), 12, 2)]
    );
}
