//! Vocabulary no tile uses: an edge kind, colour, marker kind or tile group that a set declares
//! and no tile of any loaded set names. A warning at the declaration, for the author's files
//! only (a bundled set's author is not the reader). Use is read from the tiles as written, so a
//! tile with an error still counts as using what it names, and an error does not bring a wave
//! of warnings with it.

use super::{Checker, Declared, Vocabulary};
use crate::model::{TileDef, TileSetFile};
use std::collections::HashSet;

/// The names the tiles of the loaded files write, per kind of vocabulary.
#[derive(Default)]
struct Used<'a> {
    edge_kinds: HashSet<&'a str>,
    colours: HashSet<&'a str>,
    markers: HashSet<&'a str>,
    groups: HashSet<&'a str>,
}

impl<'a> Used<'a> {
    fn add(&mut self, tile: &'a TileDef) {
        if let Some(e) = &tile.edges {
            self.edge_kinds
                .extend([&e.n, &e.e, &e.s, &e.w].map(String::as_str));
        }
        for feature in tile
            .features
            .keys()
            .flat_map(|key| tile.features_under(key))
        {
            self.colours
                .extend(feature.flowers.iter().map(String::as_str));
            self.markers
                .extend(feature.markers.iter().map(String::as_str));
            // A line ending at a marker kind (`end = "festival"`) uses it too.
            self.markers.extend(feature.end.as_deref());
        }
        self.markers.extend(tile.markers.iter().map(String::as_str));
        for key in tile.features.keys() {
            self.markers
                .extend(tile.site_markers(key).iter().map(String::as_str));
        }
        self.groups.extend(tile.group.as_deref());
    }
}

/// Where a kind of vocabulary is declared in a file: its table and its ids in file order.
type Table = (&'static str, fn(&TileSetFile) -> Vec<&String>);

impl Checker<'_> {
    /// Warns about each declaration of an author's file that no tile of the loaded sets uses.
    pub(super) fn unused_vocabulary(&mut self, vocab: &Vocabulary, groups: &[Declared]) {
        let files = self.files;
        let mut used = Used::default();
        for tile in files.iter().flat_map(|p| &p.file.tiles) {
            used.add(tile);
        }
        let kinds: [(&[Declared], &HashSet<&str>, &str, Table); 4] = [
            (
                &vocab.edge_kinds,
                &used.edge_kinds,
                "edge kind",
                ("edge_kind", |f| {
                    f.edge_kinds.iter().map(|e| &e.id).collect()
                }),
            ),
            (
                &vocab.colours,
                &used.colours,
                "colour",
                ("colour", |f| f.colours.iter().map(|c| &c.id).collect()),
            ),
            (
                &vocab.markers,
                &used.markers,
                "marker kind",
                ("marker", |f| f.markers.iter().map(|m| &m.id).collect()),
            ),
            (
                groups,
                &used.groups,
                "tile group",
                ("group", |f| f.groups.iter().map(|g| &g.id).collect()),
            ),
        ];
        for (declared, used, what, (table, ids)) in kinds {
            for d in declared.iter().filter(|d| !used.contains(d.id.as_str())) {
                for f in std::iter::once(d.file).chain(d.also.iter().copied()) {
                    let Some(i) = ids(&files[f].file).iter().position(|id| **id == d.id) else {
                        continue;
                    };
                    if self.is_bundled(f) {
                        continue;
                    }
                    self.warning(
                        f,
                        &format!("/{table}/{i}/id"),
                        "tilekit::unused-vocabulary",
                        format!(
                            "the {what} `{}` is declared, but no tile of the loaded sets uses it",
                            d.id
                        ),
                    )
                    .hint = Some("no tile uses it; remove it or use it".to_string());
                }
            }
        }
    }
}
