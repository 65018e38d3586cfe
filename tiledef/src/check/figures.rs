//! Figures: the `[[figure]]` declarations checked and resolved — the kinds they stand on, their
//! strength and their power (docs/figures.md).

use super::{Checker, Declared, Vocabulary};
use crate::model::{
    Beside, FigureAt, FigureDef, MAX_FIGURE_KINDS, PowerDef, RESERVED_FIGURE_IDS, StrengthDef,
};
use crate::tileset::{
    CornerFigure, FeatureKindId, FeatureKindInfo, FigurePower, FollowerKind, Strength,
};

impl Checker<'_> {
    /// Checks every declared figure and resolves it against the feature kinds, in vocabulary
    /// order (`order`: the files in set order).
    pub(super) fn figures(
        &mut self,
        declared: &[Declared],
        vocab: &Vocabulary,
        order: &[usize],
        kinds: &[FeatureKindInfo],
    ) -> (Vec<FollowerKind>, Vec<CornerFigure>) {
        let files = self.files;
        let mut out = Vec::with_capacity(declared.len());
        let mut corner = Vec::new();
        for d in declared {
            let found = files[d.file].file.figures.iter().enumerate();
            let Some((i, def)) = found.clone().find(|(_, g)| g.id == d.id) else {
                continue;
            };
            let ptr = format!("/figure/{i}");
            self.figure_id(d.file, &ptr, def);
            let on = self.figure_on(d.file, &ptr, def, vocab);
            let set = order.iter().position(|&f| f == d.file).unwrap_or(0);
            let also: Vec<usize> = (d.also.iter())
                .filter_map(|&again| order.iter().position(|&f| f == again))
                .collect();
            if def.at == Some(FigureAt::Corner) {
                let Some(on) = self.corner_on(d.file, &ptr, def, &on, kinds) else {
                    continue;
                };
                self.corner_keys(d.file, &ptr, def);
                let scores = def.scores.unwrap_or_default();
                corner.push(CornerFigure {
                    id: def.id.clone(),
                    name: def.name.clone(),
                    set,
                    also,
                    count: def.count,
                    on,
                    arrival: scores.arrival.into(),
                    join: scores.join.into(),
                    end: scores.end.into(),
                    picture: def.picture.as_ref().map(|p| files[d.file].dir.join(p)),
                });
                continue;
            }
            if def.scores.is_some() {
                self.scores_without_corner(d.file, &ptr, def);
            }
            if out.len() == MAX_FIGURE_KINDS {
                self.too_many_figures(d.file, &ptr, def, declared.len());
            }
            let dealt_with = def.dealt.as_ref().and_then(|dealt| {
                let at = format!("{ptr}/dealt/with");
                let visible = vocab.visible(d.file);
                let r = self.resolve(
                    (d.file, &at, false),
                    "feature kind",
                    &dealt.with,
                    &vocab.feature_kinds,
                    visible,
                )?;
                Some(FeatureKindId(r as u8))
            });
            let strength = self.figure_strength(d.file, &ptr, def, &on, kinds);
            let power = self.figure_power(d.file, &ptr, def, &on, kinds);
            out.push(FollowerKind {
                id: def.id.clone(),
                name: def.name.clone(),
                set,
                also,
                count: def.count,
                strength,
                on,
                beside_own: def.beside == Beside::Own,
                power,
                dealt_with,
                picture: def.picture.as_ref().map(|p| files[d.file].dir.join(p)),
            });
        }
        (out, corner)
    }

    /// A figure at a corner stands where four quarters of one region meet: its `on` names
    /// exactly one region kind (None after an error).
    fn corner_on(
        &mut self,
        f: usize,
        ptr: &str,
        def: &FigureDef,
        on: &[FeatureKindId],
        kinds: &[FeatureKindInfo],
    ) -> Option<FeatureKindId> {
        let regions = |k: &&FeatureKindInfo| k.shape == crate::Shape::Region;
        if let [k] = on
            && kinds.get(k.index()).is_some_and(|k| regions(&k))
        {
            return Some(*k);
        }
        if on.len() != def.on.len() {
            // A name that did not resolve has its own error already.
            return None;
        }
        let names: Vec<String> = (kinds.iter().filter(regions))
            .map(|k| format!("`on = [\"{}\"]`", k.id))
            .collect();
        let at = if def.on.is_empty() {
            format!("{ptr}/at")
        } else {
            format!("{ptr}/on")
        };
        let d = self.error(
            f,
            &at,
            true,
            "tilekit::corner-figure-on",
            format!(
                "figure `{}` is placed at a corner (`at = \"corner\"`), so `on` must name one region kind, whose four quarters meet there; it names {}",
                def.id,
                if def.on.is_empty() {
                    "none".to_string()
                } else {
                    format!("`{}`", def.on.join("`, `"))
                }
            ),
        );
        d.label = "one region kind".to_string();
        d.hint = Some(if names.is_empty() {
            "declare a region kind (`shape = \"region\"`) for it to stand on".to_string()
        } else {
            format!("name one region kind: {}", names.join(" or "))
        });
        None
    }

    /// A figure at a corner claims nothing, never goes home and has no power: `strength`,
    /// `beside`, `power` and `dealt` would say otherwise.
    fn corner_keys(&mut self, f: usize, ptr: &str, def: &FigureDef) {
        let keys = [
            ("strength", def.strength.is_some()),
            ("beside", def.beside != Beside::None),
            ("power", def.power.is_some()),
            ("dealt", def.dealt.is_some()),
        ];
        let Some((key, _)) = keys.iter().find(|(_, set)| *set) else {
            return;
        };
        let d = self.error(
            f,
            &format!("{ptr}/{key}"),
            false,
            "tilekit::corner-figure-keys",
            format!(
                "figure `{}` is placed at a corner (`at = \"corner\"`): it claims no feature and never goes home, so it has no `{key}`",
                def.id
            ),
        );
        d.label = "not for a figure at a corner".to_string();
        d.hint = Some(format!(
            "remove `{key}`; what it pays is its `scores` (`arrival`, `join`, `end`)"
        ));
    }

    /// `scores` is what a figure at a corner pays; a follower pays by its feature's rates.
    fn scores_without_corner(&mut self, f: usize, ptr: &str, def: &FigureDef) {
        let d = self.error(
            f,
            &format!("{ptr}/scores"),
            false,
            "tilekit::corner-figure-keys",
            format!(
                "figure `{}` has `scores`, which only a figure placed at a corner (`at = \"corner\"`) pays",
                def.id
            ),
        );
        d.label = "only with `at = \"corner\"`".to_string();
        d.hint = Some(
            "add `at = \"corner\"` to place it at a corner, or remove `scores` (a follower scores at its feature's rates; a bonus is `power = { bonus = { … } }`)"
                .to_string(),
        );
    }

    /// A figure's id is how records, `--figure` and reports name it: the engine's own figures'
    /// names would read as those figures.
    fn figure_id(&mut self, f: usize, ptr: &str, def: &FigureDef) {
        let Some(&taken) = RESERVED_FIGURE_IDS.iter().find(|&&id| id == def.id) else {
            return;
        };
        let whose = match taken {
            "follower" => "the base game's follower",
            "windmill" => "Village Life's windmills",
            _ => "Village Life's donkey",
        };
        let d = self.error(
            f,
            &format!("{ptr}/id"),
            false,
            "tilekit::figure-reserved-id",
            format!("the figure id `{taken}` is the engine's name for {whose}"),
        );
        d.label = "taken by the engine".to_string();
        d.hint = Some(format!(
            "give the figure another id (records, `--figure` and reports name it by its id; `{}` are the engine's)",
            RESERVED_FIGURE_IDS.join("`, `")
        ));
    }

    /// A game keeps a player's figures, the base follower included, in a 32-bit set: the
    /// figure declared after the first `MAX_FIGURE_KINDS` is refused.
    fn too_many_figures(&mut self, f: usize, ptr: &str, def: &FigureDef, n: usize) {
        let d = self.error(
            f,
            &format!("{ptr}/id"),
            false,
            "tilekit::too-many-figures",
            format!(
                "the loaded sets declare {n} figures; at most {MAX_FIGURE_KINDS} can be played together"
            ),
        );
        d.label = format!("figure number {}", MAX_FIGURE_KINDS + 1);
        d.hint = Some(format!(
            "`{}` is figure number {}, in load order; declare fewer figures, or split the set so that fewer sets are loaded together",
            def.id,
            MAX_FIGURE_KINDS + 1
        ));
    }

    /// `on` names feature kinds this file may use; resolved to their ids.
    fn figure_on(
        &mut self,
        f: usize,
        ptr: &str,
        def: &FigureDef,
        vocab: &Vocabulary,
    ) -> Vec<FeatureKindId> {
        let visible = vocab.visible(f);
        let mut on = Vec::with_capacity(def.on.len());
        for (j, name) in def.on.iter().enumerate() {
            let at = format!("{ptr}/on/{j}");
            let declared = &vocab.feature_kinds;
            if let Some(r) = self.resolve((f, &at, false), "feature kind", name, declared, visible)
            {
                on.push(FeatureKindId(r as u8));
            }
        }
        on
    }

    /// The strength, its default taken from `beside`: a figure beside its owner's claims
    /// nothing, so it counts 0; one per emblem needs kinds with an emblem.
    fn figure_strength(
        &mut self,
        f: usize,
        ptr: &str,
        def: &FigureDef,
        on: &[FeatureKindId],
        kinds: &[FeatureKindInfo],
    ) -> Strength {
        let own = def.beside == Beside::Own;
        let strength = match def.strength {
            None => Strength::Fixed(u32::from(!own)),
            Some(StrengthDef::Count(n)) => Strength::Fixed(n),
            Some(StrengthDef::PerEmblem { emblem }) => Strength::PerEmblem(emblem),
        };
        let at = format!("{ptr}/strength");
        if own && strength != Strength::Fixed(0) {
            let d = self.error(
                f,
                &at,
                true,
                "tilekit::figure-beside-strength",
                format!(
                    "figure `{}` goes beside its owner's figures (`beside = \"own\"`) and claims nothing, so it cannot count in a majority",
                    def.id
                ),
            );
            d.label = "counts in a majority".to_string();
            d.hint = Some(
                "remove `strength` (a figure beside its owner's counts 0), or remove `beside` so that it claims a free feature"
                    .to_string(),
            );
        }
        if let Strength::PerEmblem(_) = strength {
            let without: Vec<&str> = (on.iter())
                .filter_map(|k| kinds.get(k.index()))
                .filter(|k| k.emblem.is_none())
                .map(|k| k.id.as_str())
                .collect();
            if on.is_empty() || !without.is_empty() {
                let with: Vec<String> = (kinds.iter())
                    .filter(|k| k.emblem.is_some())
                    .map(|k| format!("`{}`", k.id))
                    .collect();
                let what = if on.is_empty() {
                    "it names no kind in `on`".to_string()
                } else {
                    format!("`{}` has no emblem", without.join("`, `"))
                };
                let d = self.error(
                    f,
                    &at,
                    true,
                    "tilekit::figure-strength-emblem",
                    format!(
                        "figure `{}` counts per emblem of its feature, but {what}",
                        def.id
                    ),
                );
                d.label = "per emblem".to_string();
                d.hint = Some(if with.is_empty() {
                    "give a fixed strength (`strength = 1`): no feature kind here declares an `emblem`".to_string()
                } else {
                    format!(
                        "stand it only on kinds with an emblem: `on = [{}]`",
                        with.join(", ").replace('`', "\"")
                    )
                });
            }
        }
        strength
    }

    /// A power that needs its figure to claim its feature (`recall`, `move-on`): an error at
    /// `at` when the figure goes `beside` its owner's figures instead (`code`, `power`: the
    /// error's code and the power's name; `why` the claim it lacks; `more` the hint's tail).
    fn power_needs_a_claim(
        &mut self,
        f: usize,
        at: &str,
        def: &FigureDef,
        (code, power): (&'static str, &str),
        why: &str,
        more: &str,
    ) {
        if def.beside != Beside::Own {
            return;
        }
        let d = self.error(
            f,
            at,
            false,
            code,
            format!(
                "figure `{}` has the power `{power}`, but it goes beside its owner's figures (`beside = \"own\"`): it claims nothing, so {why}",
                def.id
            ),
        );
        d.label = power.to_string();
        d.hint = Some(format!(
            "remove `beside`, so that the figure claims a free feature as a follower does{more}"
        ));
    }

    /// The power: `recall` scores its feature as at the end for the recalled figure's owner
    /// alone, and `move-on` moves the figure to a free feature, so the figure must claim its
    /// feature: not `beside` its owner's figures.
    fn figure_power(
        &mut self,
        f: usize,
        ptr: &str,
        def: &FigureDef,
        on: &[FeatureKindId],
        kinds: &[FeatureKindInfo],
    ) -> Option<FigurePower> {
        let power = def.power?;
        let at = format!("{ptr}/power");
        Some(match power {
            PowerDef::Recall => {
                self.power_needs_a_claim(
                    f,
                    &at,
                    def,
                    ("tilekit::figure-recall", "recall"),
                    "a recall would score a feature for a figure that holds no part of it",
                    "",
                );
                FigurePower::Recall
            }
            PowerDef::ExtraTile => FigurePower::ExtraTile,
            PowerDef::MoveOn => {
                self.power_needs_a_claim(
                    f,
                    &at,
                    def,
                    ("tilekit::figure-move-on-beside", "move-on"),
                    "it could not move on to a feature of its own",
                    " (and may move on to another when it is completed)",
                );
                FigurePower::MoveOn
            }
            PowerDef::Bonus(b) => {
                if b.emblem > 0 {
                    self.bonus_emblem(f, &at, def, on, kinds);
                }
                FigurePower::Bonus {
                    tile: b.tile,
                    emblem: b.emblem,
                    bordered: b.bordered,
                }
            }
        })
    }

    /// A bonus per emblem pays only on a kind with an emblem: the kinds the figure may stand
    /// on (without `on`, every kind a follower may claim) need one.
    fn bonus_emblem(
        &mut self,
        f: usize,
        at: &str,
        def: &FigureDef,
        on: &[FeatureKindId],
        kinds: &[FeatureKindInfo],
    ) {
        let stands: Vec<&FeatureKindInfo> = if on.is_empty() {
            kinds.iter().filter(|k| k.claimable).collect()
        } else {
            on.iter().filter_map(|k| kinds.get(k.index())).collect()
        };
        if stands.iter().any(|k| k.emblem.is_some()) {
            return;
        }
        let names: Vec<&str> = stands.iter().map(|k| k.id.as_str()).collect();
        let with: Vec<String> = (kinds.iter())
            .filter(|k| k.emblem.is_some())
            .map(|k| format!("\"{}\"", k.id))
            .collect();
        let d = self.error(
            f,
            &format!("{at}/bonus/emblem"),
            true,
            "tilekit::figure-bonus-emblem",
            format!(
                "figure `{}` has a bonus per emblem, but the kinds it stands on (`{}`) have no emblem: it would never pay",
                def.id,
                names.join("`, `")
            ),
        );
        d.label = "never pays".to_string();
        d.hint = Some(if with.is_empty() {
            "remove `emblem` from the bonus: no feature kind here declares an `emblem`".to_string()
        } else {
            format!(
                "remove `emblem` from the bonus, or stand it on a kind with an emblem: `on = [{}]`",
                with.join(", ")
            )
        });
    }
}
