//! The bundled sets the loaded files require: an author's folder holding only their own
//! expansion still resolves `requires = ["base"]`, against the copy compiled in (named
//! `… (bundled)`, as the CLI names it). Kept in step as the files change, for the edges that
//! live long (the language server, `serve`).

use crate::AnalysisHost;

/// What follows the name of a bundled set loaded into the host.
pub const BUNDLED_SUFFIX: &str = " (bundled)";

/// The set id a file's text declares and the sets it requires, read leniently (a file that
/// does not parse declares none).
pub fn declared_set(text: &str) -> (Option<String>, Vec<String>) {
    // The `[set]` table comes before the tiles in a file written as documented: parsing only
    // that head keeps a change to a large file from being parsed twice. Else the whole text.
    let head = text.find("\n[[tile]]").map_or(text, |end| &text[..end]);
    let (mut value, _, _) = tiledef::source::parse(head);
    if value["set"].is_null() && head.len() < text.len() {
        value = tiledef::source::parse(text).0;
    }
    let set = &value["set"];
    let id = set["id"].as_str().map(str::to_string);
    let requires = set["requires"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    (id, requires)
}

impl AnalysisHost {
    /// Loads the bundled sets the other files require (transitively) and no file of their own
    /// provides, before the other files, and drops those no longer required. Returns whether
    /// anything changed.
    pub fn sync_bundled(&mut self) -> bool {
        let bundled: Vec<(String, Option<String>, Vec<String>, String)> = tiledef::bundled()
            .into_iter()
            .map(|s| {
                let (id, requires) = declared_set(&s.text);
                (format!("{}{BUNDLED_SUFFIX}", s.name), id, requires, s.text)
            })
            .collect();
        let mut have = Vec::new();
        let mut wanted = Vec::new();
        for name in self.file_names() {
            if name.ends_with(BUNDLED_SUFFIX) {
                continue;
            }
            let (id, requires) = declared_set(self.text(name).unwrap_or(""));
            have.extend(id);
            wanted.extend(requires);
        }
        let mut needed = Vec::new();
        while let Some(id) = wanted.pop() {
            if have.contains(&id) {
                continue;
            }
            if let Some((name, _, requires, _)) =
                bundled.iter().find(|(_, b, _, _)| b.as_ref() == Some(&id))
            {
                needed.push(name.clone());
                wanted.extend(requires.iter().cloned());
            }
            have.push(id);
        }
        let mut changed = false;
        for (name, ..) in &bundled {
            if !needed.contains(name) && self.text(name).is_some() {
                changed |= self.apply_change(name, None);
            }
        }
        let missing = bundled
            .iter()
            .any(|(name, ..)| needed.contains(name) && self.text(name).is_none());
        if missing {
            // Required sets go first, in the bundled order, as the CLI loads them: a tile id
            // the author's file takes again is then reported in the author's file, which the
            // editor shows. The files after them are checked again, once per such change.
            let names: Vec<String> = self.file_names().iter().map(|n| n.to_string()).collect();
            let after: Vec<(String, String)> = names
                .into_iter()
                .filter_map(|n| self.text(&n).map(str::to_string).map(|t| (n, t)))
                .collect();
            for (name, _) in &after {
                self.apply_change(name, None);
            }
            for (name, _, _, text) in bundled {
                if needed.contains(&name) {
                    self.apply_change(&name, Some(text));
                }
            }
            for (name, text) in after {
                if !name.ends_with(BUNDLED_SUFFIX) {
                    self.apply_change(&name, Some(text));
                }
            }
            changed = true;
        }
        changed
    }
}
