//! The bundled sets the loaded files require: an author's folder holding only their own
//! expansion still resolves `requires = ["base"]`, against the copy compiled in (named
//! `… (bundled)`, as the CLI names it). Kept in step as the files change, for the edges that
//! live long (the language server, `serve`).

use crate::AnalysisHost;

pub use tiledef::{BUNDLED_SUFFIX, declared_set};

impl AnalysisHost {
    /// Loads the bundled sets the other files require (transitively) and no file of their own
    /// provides, before the other files, and drops those no longer required. Returns whether
    /// anything changed.
    pub fn sync_bundled(&mut self) -> bool {
        let own: Vec<&str> = self
            .file_names()
            .into_iter()
            .filter(|name| !name.ends_with(BUNDLED_SUFFIX))
            .filter_map(|name| self.text(name))
            .collect();
        let needed = tiledef::bundled_requirements(own);
        let is_needed = |name: &str| needed.iter().any(|s| s.name == name);
        let mut changed = false;
        for source in tiledef::bundled() {
            let name = format!("{}{BUNDLED_SUFFIX}", source.name);
            if !is_needed(&name) && self.text(&name).is_some() {
                changed |= self.apply_change(&name, None);
            }
        }
        if needed.iter().any(|s| self.text(&s.name).is_none()) {
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
            for source in needed {
                self.apply_change(&source.name, Some(source.text));
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
