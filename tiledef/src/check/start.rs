//! Sets that cannot play: tiles that no game can ever place. A tile carrying a `path` edge
//! kind (a river) must continue that path at an open end on the board, so the first such tile
//! needs a start tile that begins it (the River's spring). Without one, every such tile is set
//! aside in every game: `validate` must not say "ok" to that in silence.

use super::{Checker, Declared, Vocabulary};
use crate::model::Meeting;
use crate::tileset::TileSet;

/// Which tiles some game could place: the start tiles, then, until nothing changes, every tile
/// whose path edges can each meet an edge kind that a placeable tile shows. Generous on
/// purpose (any start tile counts, sides are not matched): a tile it leaves out is never
/// placed, so the warning is never wrong.
fn placeable(tileset: &TileSet) -> Vec<bool> {
    let kinds = tileset.edge_kinds.len();
    let mut shown = vec![false; kinds];
    let mut placed: Vec<bool> = tileset.tiles.iter().map(|t| t.start).collect();
    let attaches = |edges: &[usize; 4], shown: &[bool]| {
        edges
            .iter()
            .filter(|&&p| tileset.edge_kinds[p].path.is_some())
            .all(|&p| (0..kinds).any(|k| shown[k] && tileset.meeting(p, k) != Meeting::Forbidden))
    };
    let mut changed = true;
    while changed {
        changed = false;
        for (t, tile) in tileset.tiles.iter().enumerate() {
            if !placed[t] && attaches(&tile.edges, &shown) {
                placed[t] = true;
            }
            if placed[t] && tile.edges.iter().any(|&e| !shown[e]) {
                tile.edges.iter().for_each(|&e| shown[e] = true);
                changed = true;
            }
        }
    }
    placed
}

impl Checker<'_> {
    /// Warns at a group all of whose tiles can never be placed, and at a path edge kind whose
    /// tiles (outside such a group) can never be placed: no start tile begins the path.
    pub(super) fn cannot_start(
        &mut self,
        tileset: &TileSet,
        vocab: &Vocabulary,
        groups: &[Declared],
    ) {
        let placed = placeable(tileset);
        let stuck = |t: usize| !placed[t];
        let mut told = vec![false; tileset.tiles.len()];
        for (g, group) in tileset.groups.iter().enumerate() {
            let members: Vec<usize> = (0..tileset.tiles.len())
                .filter(|&t| tileset.tiles[t].group == Some(g))
                .collect();
            if members.is_empty() || !members.iter().all(|&t| stuck(t)) {
                continue;
            }
            let paths = path_names(tileset, &members);
            let Some(d) = groups.iter().find(|d| d.id == group.id) else {
                continue;
            };
            if self.stuck_group(d, &paths) {
                members.iter().for_each(|&t| told[t] = true);
            }
        }
        for (p, kind) in tileset.edge_kinds.iter().enumerate() {
            let carrying = (0..tileset.tiles.len())
                .any(|t| stuck(t) && !told[t] && tileset.tiles[t].edges.contains(&p));
            if kind.path.is_some() && carrying {
                self.stuck_path(&vocab.edge_kinds[p]);
            }
        }
    }

    /// Warns at the first reserve tile of a set whose every tile is held in reserve: a set is
    /// in a game when a tile of it is drawn, so such a set is never in play and its reserve
    /// tiles are never dealt.
    pub(super) fn reserve_only(&mut self, order: &[usize]) {
        for &f in order {
            let tiles = &self.files[f].file.tiles;
            if tiles.is_empty() || tiles.iter().any(|t| t.reserve.is_none()) || self.is_bundled(f) {
                continue;
            }
            let ptr = format!("{}/reserve", self.files[f].tile_ptr(0));
            let set = &self.files[f].file.set.id;
            let message = format!(
                "every tile of the set `{set}` is held in reserve: no tile of it is drawn, so no game has it in play and its reserve tiles are never dealt"
            );
            self.warning(f, &ptr, "tilekit::cannot-start", message).hint = Some(
                "add a tile to the draw (one without `reserve`), or declare the reserve tile in the set whose games should deal it"
                    .to_string(),
            );
        }
    }

    /// The warning at a group's declaration (none for a bundled set's); whether it was given.
    fn stuck_group(&mut self, d: &Declared, paths: &[String]) -> bool {
        let Some(i) = self.files[d.file]
            .file
            .groups
            .iter()
            .position(|g| g.id == d.id)
        else {
            return false;
        };
        if self.is_bundled(d.file) {
            return false;
        }
        let listed = paths.join(", ");
        self.warning(
            d.file,
            &format!("/group/{i}/id"),
            "tilekit::cannot-start",
            format!(
                "every tile of the group `{}` would be set aside in every game: its tiles must continue a path ({listed}) that no start tile begins",
                d.id
            ),
        )
        .hint = Some(format!(
            "mark the tile that begins the path `start = true` (as the River's spring), or remove `path` from {listed}"
        ));
        true
    }

    /// The warning at each declaration of a path edge kind in an author's file.
    fn stuck_path(&mut self, d: &Declared) {
        for f in std::iter::once(d.file).chain(d.also.iter().copied()) {
            let kinds = &self.files[f].file.edge_kinds;
            let Some(i) = kinds.iter().position(|e| e.id == d.id) else {
                continue;
            };
            if self.is_bundled(f) {
                continue;
            }
            let id = &d.id;
            self.warning(
                f,
                &format!("/edge_kind/{i}/id"),
                "tilekit::cannot-start",
                format!(
                    "every tile with a `{id}` edge would be set aside in every game: a tile must continue the `{id}` path, and no start tile begins it"
                ),
            )
            .hint = Some(format!(
                "mark a tile with a `{id}` edge `start = true` (as the River's spring), or remove `path` from `{id}`"
            ));
        }
    }
}

/// The path edge kinds on some of these tiles, as `` `id` ``, in vocabulary order.
fn path_names(tileset: &TileSet, tiles: &[usize]) -> Vec<String> {
    (tileset.edge_kinds.iter().enumerate())
        .filter(|(p, k)| {
            k.path.is_some() && tiles.iter().any(|&t| tileset.tiles[t].edges.contains(p))
        })
        .map(|(_, k)| format!("`{}`", k.id))
        .collect()
}
