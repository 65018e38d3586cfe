//! Creatures: the `[[creature]]` declarations checked and resolved. A creature's markers are
//! tile markers in scope, what it eats are figures in scope (or the base follower), what it
//! avoids are creatures in scope, and it roams only once it has arrived somewhere.

use super::{Checker, Declarations, Vocabulary};
use crate::model::{CreatureDef, EatsDef, MarkerPlace};
use crate::tileset::{Creature, CreatureEats, TileSet};

impl Checker<'_> {
    /// Resolves each declared creature (`declared`: the creatures' and the figures'
    /// declarations).
    pub(super) fn creatures(
        &mut self,
        (declared, figures): (&Declarations, &Declarations),
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) -> Vec<Creature> {
        let files = self.files;
        let mut out = Vec::new();
        for d in declared.iter() {
            let creatures = &files[d.file].file.creatures;
            let Some(i) = creatures.iter().position(|c| c.id == d.id) else {
                continue;
            };
            let def = &creatures[i];
            let ptr = format!("/creature/{i}");
            let errors = self.errors();
            let arrives = (def.arrives.as_ref()).and_then(|m| {
                self.tile_marker(d.file, &format!("{ptr}/arrives"), def, m, (vocab, tileset))
            });
            let moves = def.moves.as_ref().and_then(|moves| {
                let at = format!("{ptr}/moves/after");
                let m = self.tile_marker(d.file, &at, def, &moves.after, (vocab, tileset))?;
                Some((m, moves.steps))
            });
            if def.moves.is_some() && def.arrives.is_none() {
                self.error(
                    d.file,
                    &format!("{ptr}/moves"),
                    true,
                    "tilekit::creature-moves-without-arrives",
                    format!(
                        "the creature `{}` moves, but never comes onto the board: it has no `arrives`",
                        def.id
                    ),
                )
                .hint = Some(
                    "name the tile marker whose tile brings it: `arrives = \"volcano\"`"
                        .to_string(),
                );
            }
            // A creature that moves without `arrives` is an error of its own, above.
            let idle = def.arrives.is_none() && def.moves.is_none() && def.guards.is_none();
            if idle && !self.is_bundled(d.file) {
                self.idle(d.file, &ptr, def);
            }
            let eats = self.eats(d.file, &ptr, def, figures, vocab, tileset);
            let avoids = (def.avoids.iter().enumerate())
                .filter_map(|(k, name)| {
                    let at = format!("{ptr}/avoids/{k}");
                    let visible = vocab.visible(d.file);
                    self.resolve((d.file, &at, false), "creature", name, declared, visible)
                })
                .collect();
            if self.errors() > errors {
                continue;
            }
            out.push(Creature {
                id: def.id.clone(),
                name: def.name.clone(),
                set: tileset
                    .sets
                    .iter()
                    .position(|s| s.id == files[d.file].file.set.id)
                    .unwrap_or(0),
                arrives,
                moves,
                eats,
                no_deploy: def.no_deploy,
                avoids,
                guards: def.guards.as_ref().map(|g| (g.turn, g.scored)),
            });
        }
        out
    }

    /// The warning at a creature that never comes onto the board: nothing brings it (no
    /// `arrives`) and no player moves it (no `guards`), so every game plays without it.
    fn idle(&mut self, file: usize, ptr: &str, def: &CreatureDef) {
        self.warning(
            file,
            &format!("{ptr}/id"),
            "tilekit::unused-vocabulary",
            format!(
                "the creature `{}` is declared, but never comes onto the board: it has no `arrives` and no `guards`",
                def.id
            ),
        )
        .hint = Some(
            "name the tile marker whose tile brings it (`arrives = \"volcano\"`), or let players move it beside their followers (`guards = { turn = 1, scored = 3 }`)"
                .to_string(),
        );
    }

    /// The error at a figure in `eats` placed at a corner: it stands on no feature of a tile.
    fn eats_corner_figure(&mut self, file: usize, at: &str, def: &CreatureDef, name: &str) {
        self.error(
            file,
            at,
            false,
            "tilekit::creature-eats-corner-figure",
            format!(
                "the creature `{}` eats `{name}`, a figure placed at a corner: it stands on no tile's feature, so no creature meets it",
                def.id
            ),
        )
        .hint = Some(
            "a creature eats figures standing on the features of the tiles it enters: followers and set figures without `at`; remove it from `eats`"
                .to_string(),
        );
    }

    /// Resolves a creature's marker: a marker kind in scope that goes on tiles.
    fn tile_marker(
        &mut self,
        file: usize,
        at: &str,
        def: &CreatureDef,
        name: &str,
        (vocab, tileset): (&Vocabulary, &TileSet),
    ) -> Option<usize> {
        let visible = vocab.visible(file);
        let m = self.resolve(
            (file, at, false),
            "marker kind",
            name,
            &vocab.markers,
            visible,
        )?;
        if let Some(kind) = tileset.markers.get(m)
            && kind.on != MarkerPlace::Tile
        {
            let on = &kind.on;
            let place = on.name();
            self.error(
                file,
                at,
                false,
                "tilekit::creature-marker-place",
                format!(
                    "the creature `{}` names the marker `{name}`, which goes on a {place}: a creature's tiles are those carrying a tile marker",
                    def.id
                ),
            )
            .hint = Some(format!(
                "name a marker kind declared `on = \"tile\"`, or declare `{name}` so"
            ));
            return None;
        }
        Some(m)
    }

    /// Resolves what a creature eats: `all`, or figure ids in scope (`follower` the base one).
    fn eats(
        &mut self,
        file: usize,
        ptr: &str,
        def: &CreatureDef,
        figures: &Declarations,
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) -> CreatureEats {
        let names = match &def.eats {
            None => return CreatureEats::Nothing,
            Some(EatsDef::All(_)) => return CreatureEats::All,
            Some(EatsDef::Only(names)) => names,
        };
        let mut follower = false;
        let mut out = Vec::new();
        for (k, name) in names.iter().enumerate() {
            if name == "follower" {
                follower = true;
                continue;
            }
            let at = format!("{ptr}/eats/{k}");
            let visible = vocab.visible(file);
            if self
                .resolve((file, &at, false), "figure", name, figures, visible)
                .is_none()
            {
                continue;
            }
            match tileset.followers.iter().position(|f| &f.id == name) {
                Some(f) if !out.contains(&f) => out.push(f),
                Some(_) => {}
                // Declared, but not among the figures standing on features: one placed at a
                // corner (a barn), which no creature meets.
                None => self.eats_corner_figure(file, &at, def, name),
            }
        }
        CreatureEats::Only {
            follower,
            figures: out,
        }
    }
}
