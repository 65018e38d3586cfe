//! Effects: the `[[effect]]` declarations checked and resolved (docs/design-kinds.md, §2.3).
//! An effect counts a tile marker kind's tiles in a site's range or on a feature's tiles, for
//! the feature kinds it names.

use super::{Checker, Declared, Vocabulary};
use crate::model::{EffectCount, MarkerPlace, Shape};
use crate::tileset::{Effect, FeatureKindId, TileSet};

impl Checker<'_> {
    /// Resolves each declared effect: its marker a declared tile marker kind, its `on` declared
    /// feature kinds, `count = "range"` on site kinds only, and some points to pay.
    pub(super) fn effects(
        &mut self,
        declared: &[Declared],
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) -> Vec<Effect> {
        let files = self.files;
        let mut out = Vec::new();
        for d in declared {
            let effects = &files[d.file].file.effects;
            let Some(i) = effects.iter().position(|e| e.id == d.id) else {
                continue;
            };
            let def = &effects[i];
            let ptr = format!("/effect/{i}");
            let errors = self.errors();
            let marker = self.resolve(
                (d.file, &format!("{ptr}/marker"), false),
                "marker kind",
                &def.marker,
                &vocab.markers,
                vocab.visible(d.file),
            );
            if let Some(m) = marker
                && let Some(kind) = tileset.markers.get(m)
                && kind.on != MarkerPlace::Tile
            {
                let place = kind.on.name();
                self.error(
                    d.file,
                    &format!("{ptr}/marker"),
                    false,
                    "tilekit::effect-marker-place",
                    format!(
                        "the effect `{}` counts the marker `{}`, which goes on a {place}: an effect counts the tiles that carry a tile marker",
                        def.id, def.marker
                    ),
                )
                .hint = Some(format!(
                    "count a marker kind declared `on = \"tile\"`, or declare `{}` so",
                    def.marker
                ));
            }
            let mut on = Vec::new();
            for (k, name) in def.on.iter().enumerate() {
                let kptr = format!("{ptr}/on/{k}");
                let Some(kind) = self.resolve(
                    (d.file, &kptr, false),
                    "feature kind",
                    name,
                    &vocab.feature_kinds,
                    vocab.visible(d.file),
                ) else {
                    continue;
                };
                let Some(info) = tileset.feature_kinds.get(kind) else {
                    continue;
                };
                if def.count == EffectCount::Range && info.shape != Shape::Site {
                    self.error(
                        d.file,
                        &kptr,
                        false,
                        "tilekit::effect-range-not-site",
                        format!(
                            "the effect `{}` counts the tiles of a site's range, and `{name}` is {}: it has no range",
                            def.id,
                            super::kinds::a_shape(info.shape)
                        ),
                    )
                    .hint = Some(format!(
                        "name only site kinds in `on`, or count `count = \"tiles\"` (the tiles of the {name})"
                    ));
                    continue;
                }
                let id = FeatureKindId(kind as u8);
                if !on.contains(&id) {
                    on.push(id);
                }
            }
            if def.complete == 0 && def.unfinished == 0 {
                self.error(
                    d.file,
                    &format!("{ptr}/id"),
                    false,
                    "tilekit::effect-pays-nothing",
                    format!("the effect `{}` pays nothing", def.id),
                )
                .hint = Some(
                    "give it points per counted tile: `complete = 3` (and `unfinished` if it pays at the end)"
                        .to_string(),
                );
            }
            if self.errors() > errors {
                continue;
            }
            if let Some(marker) = marker {
                out.push(Effect {
                    id: def.id.clone(),
                    marker,
                    on,
                    count: def.count,
                    complete: def.complete,
                    unfinished: def.unfinished,
                    option: def.option.clone(),
                });
            }
        }
        out
    }
}
