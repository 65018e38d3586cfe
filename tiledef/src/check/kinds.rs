//! Feature kinds: the `[[feature]]` declarations checked and resolved (docs/design-kinds.md,
//! §1.1). Tiles do not name features by kind yet; this pass only makes sure that what a set
//! declares can be played and drawn as it says.

use super::{Checker, Declared, Parsed, Vocabulary, escape};
use crate::model::{
    Completion, EmblemDef, FIXED_FEATURE_KEYS, FIXED_TILE_KEYS, FeatureKindDef, KindRates, LookDef,
    LookStyle, MAX_FEATURE_KINDS, MAX_PENNANTS, Shape,
};
use crate::schema::closest;
use crate::tileset::{Emblem, FeatureKindInfo, KindPoints, Look, Rgb, SmallPoints};
use std::collections::HashMap;

/// The declaration of a vocabulary entry of feature kinds, with its index in its file.
fn kind_def<'f>(files: &'f [Parsed], d: &Declared) -> Option<(usize, &'f FeatureKindDef)> {
    let features = &files[d.file].file.features;
    features.iter().enumerate().find(|(_, k)| k.id == d.id)
}

/// How a shape is named in a sentence ("an area", "a line").
pub(super) fn a_shape(shape: Shape) -> &'static str {
    match shape {
        Shape::Area => "an area",
        Shape::Line => "a line",
        Shape::Region => "a region",
        Shape::Site => "a site",
    }
}

/// The completions a shape can have: a region has no end to close and no range.
fn completions(shape: Shape) -> &'static [Completion] {
    match shape {
        Shape::Area | Shape::Line => &[Completion::Closed, Completion::Never],
        Shape::Region => &[Completion::Never],
        Shape::Site => &[Completion::Range, Completion::Never],
    }
}

/// The drawing styles of a shape (docs/design-kinds.md, §4.1).
fn styles(shape: Shape) -> &'static [LookStyle] {
    use LookStyle as S;
    match shape {
        Shape::Area => &[S::City, S::Water, S::Forest, S::Rock, S::Sand, S::Plain],
        Shape::Line => &[S::Road, S::Water, S::Track],
        Shape::Region => &[S::Grass, S::Plain],
        Shape::Site => &[S::Cloister, S::Garden, S::Market, S::Icon],
    }
}

/// A style as written.
fn style_name(style: LookStyle) -> String {
    serde_json::to_value(style)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn completion_name(complete: Completion) -> &'static str {
    match complete {
        Completion::Closed => "closed",
        Completion::Range => "range",
        Completion::Never => "never",
    }
}

/// The points a rate table gives, the emblem's rate read under its id.
fn points(rates: Option<&KindRates>, emblem: Option<&EmblemDef>) -> KindPoints {
    let Some(r) = rates else {
        return KindPoints::default();
    };
    KindPoints {
        tile: r.tile.unwrap_or(0),
        emblem: emblem
            .and_then(|e| r.emblems.get(&e.id))
            .copied()
            .unwrap_or(0),
        marker: r.marker.unwrap_or(0),
    }
}

fn look(def: &LookDef, dir: &std::path::Path) -> Look {
    Look {
        style: def.style,
        fill: def.fill.as_deref().and_then(Rgb::parse),
        border: def.border,
        border_colour: def.border_colour.as_deref().and_then(Rgb::parse),
        icon: def.icon,
        picture: def.picture.as_ref().map(|p| dir.join(p)),
    }
}

/// A declaration resolved, `bordered` left to the caller (it needs the other kinds).
fn resolved(def: &FeatureKindDef, set: usize, dir: &std::path::Path) -> FeatureKindInfo {
    let emblem = def.emblem.as_ref();
    FeatureKindInfo {
        id: def.id.clone(),
        name: def.name.clone(),
        set,
        shape: def.shape,
        key: def.tile_key(),
        plural: def.plural(),
        complete: def.complete,
        claimable: def.claimable,
        emblem: emblem.map(|e| Emblem {
            id: e.id.clone(),
            name: e.name.clone(),
            key: e.count_key(),
            max: e.max.unwrap_or(MAX_PENNANTS),
            picture: e.picture.as_ref().map(|p| dir.join(p)),
        }),
        complete_rates: points(def.score.complete.as_ref(), emblem),
        unfinished_rates: points(def.score.unfinished.as_ref(), emblem),
        small: def.score.small.as_ref().map(|s| SmallPoints {
            max_tiles: s.max_tiles,
            points: points(Some(&s.rates), emblem),
            option: s.option.clone(),
        }),
        bordered: Vec::new(),
        range: def.range,
        hub: def.hub,
        look: def.look.as_ref().map(|l| look(l, dir)),
        jcz: def.jcz.clone(),
    }
}

/// What is wrong with a look, at one of its keys.
struct LookProblem {
    key: &'static str,
    /// Whether the key is wrong (else its value).
    at_key: bool,
    what: String,
    label: String,
    hint: String,
}

/// A look's keys that cannot draw the shape.
fn look_problems(shape: Shape, look: &LookDef) -> Vec<LookProblem> {
    let mut out = Vec::new();
    let mut push = |key, at_key, what: String, label: String, hint: String| {
        out.push(LookProblem {
            key,
            at_key,
            what,
            label,
            hint,
        })
    };
    if !styles(shape).contains(&look.style) {
        let names: Vec<String> = (styles(shape).iter())
            .map(|s| format!("`{}`", style_name(*s)))
            .collect();
        let style = style_name(look.style);
        push(
            "style",
            false,
            format!("`{style}` does not draw {}", a_shape(shape)),
            format!("not a style of {}", a_shape(shape)),
            format!("{} is drawn {}", a_shape(shape), names.join(", ")),
        );
    }
    let borders = [
        ("border", look.border.is_some()),
        ("border_colour", look.border_colour.is_some()),
    ];
    for (key, present) in borders {
        if present && shape != Shape::Area {
            push(
                key,
                true,
                format!("only areas have a border, and this is {}", a_shape(shape)),
                format!("{} has no border", a_shape(shape)),
                format!("remove `{key}`"),
            );
        }
    }
    let drawn = look.icon.is_some() || look.picture.is_some();
    match (look.style == LookStyle::Icon, drawn) {
        (false, true) => {
            let (key, a) = match look.icon {
                Some(_) => ("icon", "an"),
                None => ("picture", "a"),
            };
            push(
                key,
                true,
                format!("{a} `{key}` is drawn only with `style = \"icon\"`"),
                "not drawn with this style".to_string(),
                format!("write `style = \"icon\"`, or remove `{key}`"),
            )
        }
        (true, false) => push(
            "style",
            false,
            "`style = \"icon\"` needs an `icon` or a `picture`".to_string(),
            "nothing to draw".to_string(),
            "add one of the marker icons, e.g. `icon = \"hut\"`, or your own `picture = \"icons/hut.svg\"`".to_string(),
        ),
        _ => {}
    }
    out
}

/// A key written in a tile or a feature, and who writes it there.
struct KeyUse {
    key: String,
    /// "the feature kind `lake`", "the emblem `pearl` of `lake`".
    owner: String,
    /// Where it is declared (or, for a default key, the kind's id).
    file: usize,
    ptr: String,
    /// Whether it is the default, not written.
    default: bool,
}

impl Checker<'_> {
    /// Checks every declared feature kind and resolves them, in vocabulary order.
    pub(super) fn feature_kinds(
        &mut self,
        vocab: &Vocabulary,
        order: &[usize],
    ) -> Vec<FeatureKindInfo> {
        self.too_many_kinds(vocab);
        let files = self.files;
        let mut set_of = vec![0; files.len()];
        for (set, &f) in order.iter().enumerate() {
            set_of[f] = set;
        }
        let mut kinds = Vec::with_capacity(vocab.feature_kinds.len());
        for d in &vocab.feature_kinds {
            let Some((i, def)) = kind_def(files, d) else {
                continue;
            };
            let ptr = format!("/feature/{i}");
            self.kind_shape(d.file, &ptr, def);
            self.kind_rates(d.file, &ptr, def);
            self.kind_look(d.file, &ptr, def);
            self.never_completed(d.file, &ptr, def);
            let mut kind = resolved(def, set_of[d.file], &files[d.file].dir);
            kind.bordered = self.bordered(d.file, &ptr, def, vocab);
            kinds.push(kind);
        }
        self.kind_borders(vocab, &mut kinds);
        self.kind_keys(vocab);
        kinds
    }

    /// A game keeps its feature kinds in a 32-bit mask: the 33rd declared is refused.
    fn too_many_kinds(&mut self, vocab: &Vocabulary) {
        let Some(extra) = vocab.feature_kinds.get(MAX_FEATURE_KINDS) else {
            return;
        };
        let Some((i, _)) = kind_def(self.files, extra) else {
            return;
        };
        let n = vocab.feature_kinds.len();
        let d = self.error(
            extra.file,
            &format!("/feature/{i}/id"),
            false,
            "tilekit::too-many-feature-kinds",
            format!(
                "the loaded sets declare {n} feature kinds; at most {MAX_FEATURE_KINDS} can be played together"
            ),
        );
        d.label = format!("kind number {}", MAX_FEATURE_KINDS + 1);
        d.hint = Some(format!(
            "`{}` is kind number {}, in load order; declare fewer kinds (a kind used by no tile can go), or split the set so that fewer sets are loaded together",
            extra.id,
            MAX_FEATURE_KINDS + 1
        ));
    }

    /// A kind's completion and `range` must be ones its shape has.
    fn kind_shape(&mut self, f: usize, ptr: &str, def: &FeatureKindDef) {
        let allowed = completions(def.shape);
        if !allowed.contains(&def.complete) {
            let names: Vec<String> = allowed
                .iter()
                .map(|c| format!("`{}`", completion_name(*c)))
                .collect();
            let why = match def.complete {
                Completion::Closed => "only areas and lines have ends to close",
                Completion::Range => "only sites have a range",
                Completion::Never => "",
            };
            let d = self.error(
                f,
                &format!("{ptr}/complete"),
                false,
                "tilekit::feature-completion",
                format!(
                    "the feature kind `{}` is {}, which cannot be completed `{}`: {why}",
                    def.id,
                    a_shape(def.shape),
                    completion_name(def.complete)
                ),
            );
            d.label = format!("not a completion of {}", a_shape(def.shape));
            d.hint = Some(format!(
                "{} is completed {}; or give it another `shape`",
                a_shape(def.shape),
                names.join(" or ")
            ));
        }
        if def.range.is_some() && def.shape != Shape::Site {
            let d = self.error(
                f,
                &format!("{ptr}/range"),
                true,
                "tilekit::feature-range",
                format!(
                    "the feature kind `{}` is {}, and only sites have a range",
                    def.id,
                    a_shape(def.shape)
                ),
            );
            d.label = format!("`range` on {}", a_shape(def.shape));
            d.hint = Some(match def.shape {
                Shape::Area | Shape::Line => format!(
                    "remove `range`: {} is completed when it has no open end (`complete = \"closed\"`); a site inside the tile (`shape = \"site\"`) has a range",
                    a_shape(def.shape)
                ),
                _ => "remove `range`, or make it `shape = \"site\"` (inside the tile, as a monastery)"
                    .to_string(),
            });
        }
    }

    /// A kind that is never completed never pays what only completed features pay: its
    /// `complete` and `small` rates, and what regions score for bordering it.
    fn never_completed(&mut self, f: usize, ptr: &str, def: &FeatureKindDef) {
        if def.complete != Completion::Never {
            return;
        }
        let dead = [
            ("score/complete", def.score.complete.is_some()),
            ("score/small", def.score.small.is_some()),
            ("bordered", !def.bordered.is_empty()),
        ];
        for (key, _) in dead.into_iter().filter(|(_, present)| *present) {
            let what = key.replace('/', ".");
            let d = self.error(
                f,
                &format!("{ptr}/{key}"),
                true,
                "tilekit::feature-never-completed",
                format!(
                    "the feature kind `{}` is never completed (`complete = \"never\"`), so its `{what}` would never be paid",
                    def.id
                ),
            );
            d.label = "never paid".to_string();
            d.hint = Some(match completions(def.shape) {
                // A region's `bordered` is what other regions score for bordering it; what it
                // scores itself for what it borders is its `borders`.
                [Completion::Never] if key == "bordered" && def.shape == Shape::Region => {
                    let names: Vec<String> = def
                        .bordered
                        .iter()
                        .map(|(k, r)| format!("{k} = {r}"))
                        .collect();
                    format!(
                        "`bordered` says what other regions score for bordering a {0}, and a {0} is never completed; for what a {0} scores per completed feature it borders, write `borders = {{ {1} }}`",
                        def.id,
                        names.join(", ")
                    )
                }
                [Completion::Never] => format!(
                    "remove `{what}`: {} scores at the end only, by `score.unfinished`",
                    a_shape(def.shape)
                ),
                _ => format!(
                    "remove `{what}`, or say when it is completed: `complete = \"{}\"`",
                    completion_name(completions(def.shape)[0])
                ),
            });
        }
    }

    /// A look draws the kind's shape: a style of the shape, a border only around an area, an
    /// icon exactly with `style = "icon"`.
    fn kind_look(&mut self, f: usize, ptr: &str, def: &FeatureKindDef) {
        let Some(look) = &def.look else {
            return;
        };
        for p in look_problems(def.shape, look) {
            let d = self.error(
                f,
                &format!("{ptr}/look/{}", p.key),
                p.at_key,
                "tilekit::feature-look",
                format!("the look of the feature kind `{}`: {}", def.id, p.what),
            );
            d.label = p.label;
            d.hint = Some(p.hint);
        }
    }

    /// The keys of rate tables are `tile`, `marker` and the kind's own emblem.
    fn kind_rates(&mut self, f: usize, ptr: &str, def: &FeatureKindDef) {
        let score = &def.score;
        let tables = [
            ("complete", score.complete.as_ref()),
            ("unfinished", score.unfinished.as_ref()),
            ("small", score.small.as_ref().map(|s| &s.rates)),
        ];
        let emblem = def.emblem.as_ref().map(|e| e.id.as_str());
        for (when, rates) in tables {
            for key in rates.into_iter().flat_map(|r| r.emblems.keys()) {
                if Some(key.as_str()) == emblem {
                    continue;
                }
                let d = self.error(
                    f,
                    &format!("{ptr}/score/{when}/{}", escape(key)),
                    true,
                    "tilekit::feature-rate",
                    format!(
                        "`{key}` is not a rate of the feature kind `{}`: rates are per `tile`, per `marker` and per emblem of the kind",
                        def.id
                    ),
                );
                d.label = "not a rate of this kind".to_string();
                d.hint = Some(rate_hint(key, def.emblem.as_ref()));
            }
        }
    }

    /// `bordered` names region kinds this file may use; resolved to their indices.
    fn bordered(
        &mut self,
        f: usize,
        ptr: &str,
        def: &FeatureKindDef,
        vocab: &Vocabulary,
    ) -> Vec<(usize, u32)> {
        let files = self.files;
        let visible = vocab.visible(f);
        let mut out = Vec::new();
        for (name, &rate) in &def.bordered {
            let at = format!("{ptr}/bordered/{}", escape(name));
            let declared = &vocab.feature_kinds;
            let Some(r) = self.resolve((f, &at, true), "feature kind", name, declared, visible)
            else {
                continue;
            };
            let Some((_, region)) = kind_def(files, &declared[r]) else {
                continue;
            };
            if region.shape == Shape::Region {
                out.push((r, rate));
                continue;
            }
            let regions: Vec<String> = (declared.iter())
                .filter(|d| d.seen(visible))
                .filter_map(|d| kind_def(files, d))
                .filter(|(_, k)| k.shape == Shape::Region)
                .map(|(_, k)| format!("`{}`", k.id))
                .collect();
            let d = self.error(
                f,
                &at,
                true,
                "tilekit::feature-bordered",
                format!(
                    "`bordered` of `{}` names `{name}`, which is {}: only regions (as fields) score the features they border",
                    def.id,
                    a_shape(region.shape)
                ),
            );
            d.label = "not a region kind".to_string();
            d.hint = Some(if regions.is_empty() {
                "name a feature kind with `shape = \"region\"`; none is declared here".to_string()
            } else {
                format!(
                    "name a region kind: {} (`bordered = {{ {} = {rate} }}`)",
                    regions.join(", "),
                    regions[0].trim_matches('`')
                )
            });
        }
        out
    }

    /// An emblem's id is its rate's key, beside `tile` and `marker`: it cannot be either.
    fn emblem_id(&mut self, f: usize, i: usize, def: &FeatureKindDef) {
        let Some(e) = def
            .emblem
            .as_ref()
            .filter(|e| matches!(e.id.as_str(), "tile" | "marker"))
        else {
            return;
        };
        let d = self.error(
            f,
            &format!("/feature/{i}/emblem/id"),
            false,
            "tilekit::feature-key-clash",
            format!(
                "the emblem of `{}` is called `{}`, which rates already use: `{} = 2` could not say which is meant",
                def.id, e.id, e.id
            ),
        );
        d.label = format!("`{}` is taken", e.id);
        d.hint = Some("give the emblem another `id`, e.g. `banner`".to_string());
    }

    /// Each kind's key, and each emblem's, must be free: not a key tiles or features already
    /// have, not another kind's or emblem's.
    fn kind_keys(&mut self, vocab: &Vocabulary) {
        let files = self.files;
        let mut taken: HashMap<String, (String, usize, String)> = HashMap::new();
        for d in &vocab.feature_kinds {
            let Some((i, def)) = kind_def(files, d) else {
                continue;
            };
            self.emblem_id(d.file, i, def);
            for KeyUse {
                key,
                owner,
                file,
                ptr,
                default,
            } in key_uses(d.file, i, def)
            {
                let fixed = FIXED_TILE_KEYS.contains(&key.as_str())
                    || FIXED_FEATURE_KEYS.contains(&key.as_str());
                let before = taken.get(&key).cloned();
                if !fixed && before.is_none() {
                    taken.insert(key, (owner, file, ptr));
                    continue;
                }
                let clash = match before {
                    Some((other, g, at)) => {
                        format!(
                            "it is already the key of {other} ({})",
                            self.where_is(g, &at)
                        )
                    }
                    None if FIXED_TILE_KEYS.contains(&key.as_str()) => {
                        format!("`{key}` is a key of every tile")
                    }
                    None => format!("`{key}` is a key of every feature on a tile"),
                };
                let written = if default { "by default" } else { "as its key" };
                let d = self.error(
                    file,
                    &ptr,
                    false,
                    "tilekit::feature-key-clash",
                    format!("{owner} takes `{key}` {written}, but {clash}"),
                );
                d.label = format!("`{key}` is taken");
                d.hint = Some(key_hint(def, &owner, &key));
            }
        }
    }
}

/// The keys a declaration makes tiles and features write: the kind's key and its emblem's
/// (and the emblem's id, which rates use beside `tile` and `marker`).
fn key_uses(file: usize, i: usize, def: &FeatureKindDef) -> Vec<KeyUse> {
    let ptr = format!("/feature/{i}");
    let kind = format!("the feature kind `{}`", def.id);
    let mut out = vec![KeyUse {
        key: def.tile_key(),
        owner: kind.clone(),
        file,
        ptr: format!("{ptr}/{}", if def.key.is_some() { "key" } else { "id" }),
        default: def.key.is_none(),
    }];
    if let Some(e) = &def.emblem {
        let owner = format!("the emblem `{}` of `{}`", e.id, def.id);
        out.push(KeyUse {
            key: e.count_key(),
            owner: owner.clone(),
            file,
            ptr: format!(
                "{ptr}/emblem/{}",
                if e.key.is_some() { "key" } else { "id" }
            ),
            default: e.key.is_none(),
        });
    }
    out
}

fn rate_hint(key: &str, emblem: Option<&EmblemDef>) -> String {
    let mut rates = vec!["tile".to_string(), "marker".to_string()];
    rates.extend(emblem.map(|e| e.id.clone()));
    if let Some(best) = closest(key, &rates) {
        return format!("did you mean `{best}`?");
    }
    match emblem {
        Some(e) => format!(
            "this kind's rates are `tile`, `marker` and `{}` (its emblem)",
            e.id
        ),
        None => format!(
            "this kind has no emblem; to count one, declare it: `emblem = {{ id = \"{key}\", name = \"…\" }}`"
        ),
    }
}

fn key_hint(def: &FeatureKindDef, owner: &str, key: &str) -> String {
    if owner.starts_with("the emblem") {
        return "give the emblem a `key` of its own (`emblem = { …, key = \"…\" }`), or another `id`"
            .to_string();
    }
    let default = def.default_key();
    if default != key && !FIXED_TILE_KEYS.contains(&default.as_str()) {
        format!("give the kind a `key` of its own, e.g. `key = \"{default}\"`")
    } else {
        "give the kind a `key` of its own (`key = \"…\"`): tiles will list its features under it"
            .to_string()
    }
}
