//! What a game plays one of: a figure placed at a corner, a reserve tile, a guarding creature.
//! A game whose sets declare two is refused when it is set up (the engine's `one_per_game`), so
//! a set declaring two by itself could never be played: that is said here, at the second one,
//! rather than by `simulate` after `validate` said "ok".

use super::Checker;
use crate::model::FigureAt;

/// One of the things a game plays one of, as a set declares them: what it is in words, and
/// each declaration's id with its JSON pointer (the key the error points at).
struct OnePerGame {
    what: &'static str,
    declared: Vec<(String, String)>,
}

impl Checker<'_> {
    /// Refuses a second corner figure, reserve tile or guarding creature in one set.
    pub(super) fn one_per_game(&mut self, order: &[usize]) {
        let files = self.files;
        for &f in order {
            let file = &files[f].file;
            let corner = (file.figures.iter().enumerate())
                .filter(|(_, d)| d.at == Some(FigureAt::Corner))
                .map(|(i, d)| (d.id.clone(), format!("/figure/{i}/at")));
            let reserve = (file.tiles.iter().enumerate())
                .filter(|(_, d)| d.reserve.is_some())
                .map(|(t, d)| (d.id.clone(), format!("{}/reserve", files[f].tile_ptr(t))));
            let guards = (file.creatures.iter().enumerate())
                .filter(|(_, d)| d.guards.is_some())
                .map(|(i, d)| (d.id.clone(), format!("/creature/{i}/guards")));
            let kinds = [
                OnePerGame {
                    what: "figure placed at a corner",
                    declared: corner.collect(),
                },
                OnePerGame {
                    what: "reserve tile",
                    declared: reserve.collect(),
                },
                OnePerGame {
                    what: "guarding creature",
                    declared: guards.collect(),
                },
            ];
            for kind in kinds {
                self.second_of(f, &file.set.id, &kind);
            }
        }
    }

    /// An error at each declaration of `kind` after the first.
    fn second_of(&mut self, f: usize, set: &str, kind: &OnePerGame) {
        let Some((first, first_at)) = kind.declared.first() else {
            return;
        };
        let first_place = self.where_is(f, first_at);
        for (id, at) in &kind.declared[1..] {
            self.error(
                f,
                at,
                true,
                "tilekit::one-per-game",
                format!(
                    "the set `{set}` declares a second {what}, `{id}`, after `{first}`: a game plays one, so no game of this set could start",
                    what = kind.what
                ),
            )
            .hint = Some(format!(
                "keep one (`{first}` is at {first_place}), or move `{id}` to a set of its own: a game of that set without this one plays it"
            ));
        }
    }
}
