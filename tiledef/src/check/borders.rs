//! A region kind's `borders`: what it scores at the end per completed feature it borders, said
//! on the region's side, for kinds another set declares (a forest paid per completed city).
//! Resolved into the bordering kind's `bordered`, so that downstream a pair of kinds has one
//! rate, wherever it was written.

use super::kinds::a_shape;
use super::{Checker, Vocabulary, escape};
use crate::model::{Completion, FeatureKindDef, Shape};
use crate::tileset::FeatureKindInfo;

impl Checker<'_> {
    /// Each region kind's `borders` names kinds that complete and that do not pay it already;
    /// each rate goes into the named kind's `bordered`. `kinds` is in vocabulary order.
    pub(super) fn kind_borders(&mut self, vocab: &Vocabulary, kinds: &mut [FeatureKindInfo]) {
        let files = self.files;
        for (r, d) in vocab.feature_kinds.iter().enumerate() {
            let features = &files[d.file].file.features;
            let Some((i, def)) = features.iter().enumerate().find(|(_, k)| k.id == d.id) else {
                continue;
            };
            if def.borders.is_empty() || r >= kinds.len() {
                continue;
            }
            let ptr = format!("/feature/{i}/borders");
            if def.shape != Shape::Region {
                self.borders_not_region(d.file, &ptr, def);
                continue;
            }
            for (name, &rate) in &def.borders {
                let at = format!("{ptr}/{}", escape(name));
                let declared = &vocab.feature_kinds;
                let found = self.resolve(
                    (d.file, &at, true),
                    "feature kind",
                    name,
                    declared,
                    vocab.visible(d.file),
                );
                let Some(k) = found.filter(|&k| k < kinds.len()) else {
                    continue;
                };
                if let Some(why) = never_pays(&kinds[k]) {
                    let d = self.error(
                        d.file,
                        &at,
                        true,
                        "tilekit::feature-borders-never-completed",
                        format!(
                            "`borders` of `{}` names `{name}`, which {why}: a region is paid only for completed features it borders",
                            def.id
                        ),
                    );
                    d.label = "never completed".to_string();
                    d.hint = Some(format!(
                        "name a kind that is completed (a city, a road, a monastery), or remove `{name}`"
                    ));
                    continue;
                }
                if let Some(&(_, paid)) = kinds[k].bordered.iter().find(|(x, _)| *x == r) {
                    let d = self.error(
                        d.file,
                        &at,
                        true,
                        "tilekit::feature-borders-twice",
                        format!(
                            "`borders` of `{}` pays it {rate} a completed `{name}`, but `{name}` already pays it {paid} (its own `bordered`)",
                            def.id
                        ),
                    );
                    d.label = "paid already".to_string();
                    d.hint = Some(format!(
                        "say the rate on one side only: remove `{name}` here, or `{}` from the `bordered` of `{name}`",
                        def.id
                    ));
                    continue;
                }
                kinds[k].bordered.push((r, rate));
            }
        }
    }

    /// `borders` on a kind that is no region: only regions score what they border.
    fn borders_not_region(&mut self, f: usize, ptr: &str, def: &FeatureKindDef) {
        let d = self.error(
            f,
            ptr,
            true,
            "tilekit::feature-borders-not-region",
            format!(
                "the feature kind `{}` is {}, and only regions (as fields) score the features they border",
                def.id,
                a_shape(def.shape)
            ),
        );
        d.label = "not a region".to_string();
        d.hint = Some(
            "remove `borders`, or say on the region kind what it scores: `borders = { city = 2 }`; this kind pays regions by its `bordered`"
                .to_string(),
        );
    }
}

/// Why features of this kind are never completed bordering a region, if they are not.
fn never_pays(kind: &FeatureKindInfo) -> Option<String> {
    if kind.shape == Shape::Region {
        return Some("is a region (regions are never completed)".to_string());
    }
    (kind.complete == Completion::Never).then(|| "is never completed".to_string())
}
