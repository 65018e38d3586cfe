//! Semantic checks and resolution: what no schema can say, and the step from the files as
//! written to one resolved `TileSet`.
//!
//! Every problem becomes a diagnostic pointing at the key or value it is about; checking goes on
//! after a problem so that one run reports them all. A `TileSet` is returned only when no error
//! was found.

use crate::diagnostic::{Diagnostic, SharedSource};
use crate::model::{
    ArtHints, Completion, Count, EdgeStyle, MAX_ARTWORK_BYTES, MAX_COUNT, MarkerDef, MarkerPlace,
    Meeting, ScoringDef, Shape, TileDef, TileSetFile,
};
use crate::port::{Port, Side};
use crate::schema::closest;
use crate::source::SpanMap;
use crate::tileset::{
    Colour, EdgeKind, Edition, Feature, FeatureKindId, FeatureKindInfo, Group, LineEnd, MarkerKind,
    Rgb, SetInfo, Tile, TileSet,
};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

mod borders;
mod creatures;
mod effects;
mod figures;
mod goods;
mod kinds;
mod layout;
mod one_per_game;
mod pictures;
mod start;
mod unused;

use layout::Layout;

/// A file that parsed and matched the schema.
#[derive(Clone)]
pub struct Parsed {
    /// Its text and name.
    pub source: SharedSource,
    /// Spans by JSON pointer.
    pub spans: SpanMap,
    /// Its content.
    pub file: TileSetFile,
    /// The folder relative paths in it are resolved against.
    pub dir: PathBuf,
    /// For each tile of `file.tiles`, its index in the file as written: tiles that failed the
    /// schema are left out, and the others keep their place for diagnostics. Empty = identity.
    pub tile_index: Vec<usize>,
}

impl Parsed {
    /// The JSON pointer of the file's `t`-th tile that passed the schema.
    pub fn tile_ptr(&self, t: usize) -> String {
        format!("/tile/{}", self.tile_index.get(t).copied().unwrap_or(t))
    }
}

/// Every tile id and alias of the loaded sets, with the file and index of its tile (the first
/// one, when an id is used twice: that is reported by itself).
fn tile_names<'a>(files: &'a [Parsed], order: &[usize]) -> HashMap<&'a str, (usize, usize)> {
    let mut names = HashMap::new();
    for &f in order {
        for (t, def) in files[f].file.tiles.iter().enumerate() {
            for name in std::iter::once(&def.id).chain(&def.aliases) {
                names.entry(name.as_str()).or_insert((f, t));
            }
        }
    }
    names
}

/// A vocabulary entry with the file that declared it (and the files that declared it again:
/// a marker kind or an edge kind two sets share).
struct Declared {
    id: String,
    file: usize,
    /// Its index in that file's table.
    at: usize,
    also: Vec<usize>,
}

/// The entries of one vocabulary table across the files, in declaration order, with an index by
/// id: a set may declare thousands (an import names a marker kind per unknown element), and
/// each use is looked up.
#[derive(Default)]
struct Declarations {
    list: Vec<Declared>,
    by_id: HashMap<String, usize>,
}

impl Declarations {
    /// The index of the entry `id`.
    fn position(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }
}

impl<'a> IntoIterator for &'a Declarations {
    type Item = &'a Declared;
    type IntoIter = std::slice::Iter<'a, Declared>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl std::ops::Deref for Declarations {
    type Target = [Declared];

    fn deref(&self) -> &[Declared] {
        &self.list
    }
}

impl Declared {
    /// Whether a file that may use `visible` may use this entry.
    fn seen(&self, visible: Visible<'_>) -> bool {
        visible.contains(&self.file) || self.also.iter().any(|g| visible.contains(g))
    }
}

/// A vocabulary entry as `Checker::declare` takes it: id, the JSON pointer of its `id`, what it
/// is, and, for a kind a set may declare again, the declaration to compare.
type Entry = (String, String, &'static str, Option<serde_json::Value>);

/// The ids a file declares in one of its vocabulary tables (`[[table]]`), each with the JSON
/// pointer of its `id` and what it is, for `Checker::declare`.
fn ids<T>(items: &[T], id: impl Fn(&T) -> &String, table: &str, what: &'static str) -> Vec<Entry> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| (id(item).clone(), format!("/{table}/{i}/id"), what, None))
        .collect()
}

/// Like `ids`, for a table whose entries another set may declare again, identically: each
/// entry carries its declaration, to compare with the first.
fn shareable<T: serde::Serialize>(
    items: &[T],
    id: impl Fn(&T) -> &String,
    table: &str,
    what: &'static str,
) -> Vec<Entry> {
    let mut entries = ids(items, &id, table, what);
    for (entry, item) in entries.iter_mut().zip(items) {
        entry.3 = serde_json::to_value(item).ok();
    }
    entries
}

/// The keys whose values differ between two declarations (as JSON objects), in order.
fn differing_keys(a: &serde_json::Value, b: &serde_json::Value) -> Vec<String> {
    let empty = serde_json::Map::new();
    let (a, b) = (
        a.as_object().unwrap_or(&empty),
        b.as_object().unwrap_or(&empty),
    );
    let mut keys: Vec<String> = a.keys().chain(b.keys()).cloned().collect();
    keys.sort();
    keys.dedup();
    keys.retain(|k| a.get(k) != b.get(k));
    keys
}

/// A declaration's value of one key as a hint shows it: "not written" when absent, and long
/// values (a whole `meets` table) shortened.
fn value_text(value: Option<&serde_json::Value>) -> String {
    const LONGEST: usize = 60;
    let Some(value) = value else {
        return "not written".to_string();
    };
    let text = value.to_string();
    if text.chars().count() <= LONGEST {
        return format!("`{text}`");
    }
    let short: String = text.chars().take(LONGEST).collect();
    format!("`{short}…`")
}

/// The figures resolved: the followers and those placed at a corner.
type Figures = (Vec<crate::FollowerKind>, Vec<crate::CornerFigure>);

/// The tile set's vocabulary resolved, before any tile: its sets, editions (a `default` one
/// when none is declared), feature and edge kinds, colours, marker kinds and figures.
fn vocabulary_set(
    files: &[Parsed],
    order: &[usize],
    vocab: &Vocabulary,
    (feature_kinds, edge_kinds, (followers, corner_figures)): (
        Vec<FeatureKindInfo>,
        Vec<EdgeKind>,
        Figures,
    ),
) -> TileSet {
    let mut tileset = TileSet {
        sets: order
            .iter()
            .map(|&f| {
                let set = &files[f].file.set;
                SetInfo {
                    id: set.id.clone(),
                    name: set.name.clone(),
                    requires: set.requires.clone(),
                    source: files[f].source.name().to_string(),
                    figures: set.figures.clone(),
                    // A colour declared again identically is this set's flower token too.
                    colours: (vocab.colours.iter().enumerate())
                        .filter(|(_, d)| d.file == f || d.also.contains(&f))
                        .map(|(i, _)| i)
                        .collect(),
                    removes: Vec::new(),
                }
            })
            .collect(),
        editions: vocab
            .editions
            .iter()
            .map(|d| {
                let e = files[d.file].file.editions.iter().find(|e| e.id == d.id);
                Edition {
                    id: d.id.clone(),
                    name: e.map(|e| e.name.clone()).unwrap_or_default(),
                }
            })
            .collect(),
        feature_kinds,
        edge_kinds,
        colours: vocab
            .colours
            .iter()
            .map(|d| {
                let c = files[d.file].file.colours.iter().find(|c| c.id == d.id);
                let c = c.expect("declared colours come from their file");
                Colour {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    display: Rgb::parse(&c.display).unwrap_or(Rgb([255, 255, 255])),
                }
            })
            .collect(),
        markers: vocab
            .markers
            .iter()
            .map(|d| {
                let m = files[d.file].file.markers.get(d.at);
                let m = m.expect("declared markers come from their file");
                MarkerKind {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    on: m.on.clone(),
                    rule: m.rule,
                    display: m.display.as_deref().and_then(Rgb::parse),
                    icon: m.icon,
                    picture: m.picture.as_ref().map(|p| files[d.file].dir.join(p)),
                    scoring: m.scoring.clone().or_else(|| {
                        (m.rule == Some(crate::MarkerRule::Well)).then(ScoringDef::wells)
                    }),
                    token: m.token.as_ref().map(|t| t.points),
                    token_id: m.token.as_ref().and_then(|t| t.id.clone()),
                    token_name: m.token.as_ref().and_then(|t| t.name.clone()),
                    held_until: None,
                    removes: m.removes,
                    deploy: m.deploy,
                }
            })
            .collect(),
        tiles: Vec::new(),
        start_tile: 0,
        followers,
        corner_figures,
        groups: Vec::new(),
        effects: Vec::new(),
        creatures: Vec::new(),
    };
    if tileset.editions.is_empty() {
        tileset.editions.push(Edition {
            id: "default".to_string(),
            name: "Default".to_string(),
        });
    }
    tileset
}

/// Checks the parsed files together and resolves them into a tile set, with the file (index
/// into `files`) and JSON pointer of each of its tiles.
pub fn check(
    files: &[Parsed],
    diags: &mut Vec<Diagnostic>,
) -> Option<(TileSet, Vec<(usize, String)>)> {
    let upgraded = inherit_bundled_kinds(files, diags);
    let files = upgraded.as_deref().unwrap_or(files);
    let errors_before = count_errors(diags);
    let mut cx = Checker {
        files,
        diags,
        not_required: Vec::new(),
        requirement_missing: false,
        bundled: None,
        bundled_copies: std::cell::OnceCell::new(),
    };
    let order = cx.set_order();
    let reach = cx.reach(&order);

    let editions = cx.declare(&order, |f| {
        ids(&f.editions, |e| &e.id, "edition", "edition")
    });
    // Edge kinds, colours, marker kinds, feature kinds and figures may be declared again by
    // another set, identically (River II's inn is Inns & Cathedrals' inn; a fan set reuses
    // Village Life's bushes without requiring it): one entry, usable from either set.
    let edge_ids = cx.declare(&order, |f| {
        shareable(&f.edge_kinds, |e| &e.id, "edge_kind", "edge kind")
    });
    let colour_ids = cx.declare(&order, |f| {
        shareable(&f.colours, |c| &c.id, "colour", "colour")
    });
    let marker_ids = cx.declare(&order, |f| {
        shareable(&f.markers, |m| &m.id, "marker", "marker kind")
    });
    let kind_ids = cx.declare(&order, |f| {
        shareable(&f.features, |k| &k.id, "feature", "feature kind")
    });
    let figure_ids = cx.declare(&order, |f| {
        shareable(&f.figures, |g| &g.id, "figure", "figure")
    });
    let group_ids = cx.declare(&order, |f| ids(&f.groups, |g| &g.id, "group", "tile group"));
    let effect_ids = cx.declare(&order, |f| {
        shareable(&f.effects, |e| &e.id, "effect", "effect")
    });
    let creature_ids = cx.declare(&order, |f| {
        shareable(&f.creatures, |c| &c.id, "creature", "creature")
    });
    let vocab = Vocabulary {
        editions,
        feature_kinds: kind_ids,
        edge_kinds: edge_ids,
        colours: colour_ids,
        markers: marker_ids,
        reach,
    };

    let feature_kinds = cx.feature_kinds(&vocab, &order);
    let edge_kinds = cx.edge_kinds(&vocab, &feature_kinds);
    let followers = cx.figures(&figure_ids, &vocab, &order, &feature_kinds);
    cx.pictures(&order);
    let mut tileset = vocabulary_set(
        files,
        &order,
        &vocab,
        (feature_kinds, edge_kinds, followers),
    );
    cx.held_markers(&vocab, &mut tileset);
    cx.marker_places(&vocab);

    // Tiles that write their layout first, then the tiles `like` them, kept in file order.
    let names = tile_names(files, &order);
    let mut built: Vec<Vec<Option<Tile>>> = files
        .iter()
        .map(|p| vec![None; p.file.tiles.len()])
        .collect();
    for (set_index, &f) in order.iter().enumerate() {
        for (t, def) in files[f].file.tiles.iter().enumerate() {
            if def.like.is_none() {
                let ptr = files[f].tile_ptr(t);
                built[f][t] = cx.tile(f, &ptr, def, set_index, &vocab, &tileset);
            }
        }
    }
    for (set_index, &f) in order.iter().enumerate() {
        for (t, def) in files[f].file.tiles.iter().enumerate() {
            if def.like.is_some() {
                let ptr = files[f].tile_ptr(t);
                let target = cx.like_target(f, &ptr, def, &names, vocab.visible(f));
                let target = target.and_then(|(g, u)| built[g][u].clone());
                built[f][t] =
                    cx.like_tile(f, &ptr, def, set_index, &vocab, &tileset, target.as_ref());
            }
        }
    }
    let mut tile_ptrs = Vec::new();
    let mut tile_defs = Vec::new();
    for &f in &order {
        for (t, tile) in std::mem::take(&mut built[f]).into_iter().enumerate() {
            if let Some(tile) = tile {
                tileset.tiles.push(tile);
                tile_ptrs.push((f, files[f].tile_ptr(t)));
                tile_defs.push((f, t));
            }
        }
    }
    cx.marker_rules(&vocab, &tileset.feature_kinds);
    tileset.effects = cx.effects(&effect_ids, &vocab, &tileset);
    tileset.creatures = cx.creatures((&creature_ids, &figure_ids), &vocab, &tileset);
    cx.one_per_game(&order);
    cx.groups(&order, &group_ids, &vocab, &mut tileset, &tile_defs);
    cx.removes(&order, &vocab, &mut tileset);
    cx.report_not_required();
    cx.unique_tile_ids(&order);
    cx.start_tile(&order, &mut tileset);
    cx.rotation_twins(&tileset, &tile_ptrs);
    cx.unmeetable(&tileset, &tile_ptrs);
    // Advice on files that load: beside errors (a tile left out, the files refused) it would
    // only be noise.
    if cx.errors() == 0 {
        cx.cannot_start(&tileset, &vocab, &group_ids);
        cx.reserve_only(&order);
        cx.unused_vocabulary(&vocab, &group_ids);
    }

    (count_errors(cx.diags) == errors_before).then_some((tileset, tile_ptrs))
}

/// Files written before feature kinds were declared: a set with the id of a bundled set that
/// declares kinds (an imported `base.toml`), declaring none itself, gets the bundled set's
/// declarations, with a warning saying so and how to write them in. Its tiles' `cities` and its
/// edge kinds' `centre = "city"` then mean what they meant. `None`: no such file.
fn inherit_bundled_kinds(files: &[Parsed], diags: &mut Vec<Diagnostic>) -> Option<Vec<Parsed>> {
    // Most files declare no kinds of their own: only a file with a bundled set's id has its
    // bundled file parsed.
    let bundled_text = |p: &Parsed| crate::load::bundled_text(&p.file.set.id);
    let older = |p: &Parsed| p.file.features.is_empty() && !p.file.tiles.is_empty();
    if !files.iter().any(|p| older(p) && bundled_text(p).is_some()) {
        return None;
    }
    let bundled: Vec<(String, Vec<crate::model::FeatureKindDef>)> = (files.iter())
        .filter(|p| older(p))
        .filter_map(bundled_text)
        .filter_map(|text| toml::from_str::<TileSetFile>(text).ok())
        .filter(|file| !file.features.is_empty())
        .map(|file| (file.set.id, file.features))
        .collect();
    // Kinds another loaded file declares (an import's vocabulary set) are not inherited.
    let declared: Vec<&str> = (files.iter())
        .flat_map(|p| p.file.features.iter().map(|k| k.id.as_str()))
        .collect();
    let mut out = files.to_vec();
    let mut changed = false;
    for p in out.iter_mut().filter(|p| older(p)) {
        let Some((set, kinds)) = bundled.iter().find(|(id, _)| *id == p.file.set.id) else {
            continue;
        };
        let kinds: Vec<_> = (kinds.iter())
            .filter(|k| !declared.contains(&k.id.as_str()))
            .cloned()
            .collect();
        if kinds.is_empty() {
            continue;
        }
        let ids: Vec<&str> = kinds.iter().map(|k| k.id.as_str()).collect();
        let span = p.spans.key_span("/set");
        let mut d = Diagnostic::warning(
            "tilekit::kinds-inherited",
            &p.source,
            span,
            format!(
                "the set `{set}` declares no feature kinds, as files written before them did: the bundled `{set}`'s are used ({})",
                ids.join(", ")
            ),
        );
        d.label = "no `[[feature]]` tables in this set".to_string();
        d.hint = Some(format!(
            "copy the `[[feature]]` tables of the bundled `{set}` into this file (`tilekit import jcz` writes them now)"
        ));
        diags.push(d);
        p.file.features = kinds;
        changed = true;
    }
    changed.then_some(out)
}

fn count_errors(diags: &[Diagnostic]) -> usize {
    diags
        .iter()
        .filter(|d| d.severity == crate::Severity::Error)
        .count()
}

struct Vocabulary {
    editions: Declarations,
    feature_kinds: Declarations,
    edge_kinds: Declarations,
    colours: Declarations,
    markers: Declarations,
    /// Which files' vocabulary each file may use (itself and what it requires).
    reach: Reach,
}

impl Vocabulary {
    /// What file `f` may use.
    fn visible(&self, f: usize) -> Visible<'_> {
        Visible {
            reach: &self.reach,
            from: f,
        }
    }
}

/// Which files' vocabulary a file may use: itself and the sets it requires, transitively.
///
/// Asked per (user, declarer) pair and answered from one pass over the load order per declarer
/// asked about, kept: linear in the files for each set whose names are used, where a table of
/// every file's ancestors would be quadratic (a chain of 30,000 files).
struct Reach {
    /// Per file, the loaded files it requires directly.
    requires: Vec<Vec<usize>>,
    /// Load order: each file after the files it requires.
    order: Vec<usize>,
    /// Per declaring file asked about, which files may use it.
    seen_by: RefCell<HashMap<usize, Vec<bool>>>,
}

impl Reach {
    fn sees(&self, f: usize, g: usize) -> bool {
        if f == g || self.requires[f].contains(&g) {
            return true;
        }
        let mut seen_by = self.seen_by.borrow_mut();
        let users = seen_by.entry(g).or_insert_with(|| {
            let mut users = vec![false; self.requires.len()];
            users[g] = true;
            for &h in &self.order {
                users[h] = users[h] || self.requires[h].iter().any(|&r| users[r]);
            }
            users
        });
        users[f]
    }
}

/// The files one file may use, as a set to ask.
#[derive(Clone, Copy)]
struct Visible<'a> {
    reach: &'a Reach,
    from: usize,
}

impl Visible<'_> {
    fn contains(&self, g: &usize) -> bool {
        self.reach.sees(self.from, *g)
    }
}

struct Checker<'a> {
    files: &'a [Parsed],
    diags: &'a mut Vec<Diagnostic>,
    /// Names used from sets their file does not require, reported once per pair of sets.
    not_required: Vec<NotRequired>,
    /// Whether some file forgot a requirement (its consequences are not reported).
    requirement_missing: bool,
    /// The bundled sets' vocabulary, read on the first unknown name.
    bundled: Option<Vec<(&'static str, String, String)>>,
    /// Per file, whether it is an unchanged copy of a bundled set, found on the first question.
    bundled_copies: std::cell::OnceCell<Vec<bool>>,
}

/// A name that file `file` uses from the set `owner` (loaded or bundled) without requiring it.
struct NotRequired {
    file: usize,
    owner: String,
    what: String,
    name: String,
}

/// The vocabulary of the bundled sets, as (kind of name, name, set id): where a name that no
/// loaded set declares probably comes from. Read only when such a name is met.
fn bundled_vocabulary() -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    for source in crate::bundled() {
        let Ok(file) = toml::from_str::<TileSetFile>(&source.text) else {
            continue;
        };
        let set = &file.set.id;
        let mut add = |what: &'static str, id: &str| out.push((what, id.to_string(), set.clone()));
        file.editions.iter().for_each(|e| add("edition", &e.id));
        file.features
            .iter()
            .for_each(|k| add("feature kind", &k.id));
        file.features
            .iter()
            .for_each(|k| add("tile key", &k.tile_key()));
        file.edge_kinds.iter().for_each(|e| add("edge kind", &e.id));
        file.colours.iter().for_each(|c| add("colour", &c.id));
        file.markers.iter().for_each(|m| add("marker kind", &m.id));
        file.groups.iter().for_each(|g| add("tile group", &g.id));
    }
    out
}

impl Checker<'_> {
    /// The bundled set whose feature kind tiles write under `key`, when no loaded set declares
    /// it: the file forgot to require that set.
    fn bundled_key_owner(&mut self, key: &str) -> Option<String> {
        let bundled = self.bundled.get_or_insert_with(bundled_vocabulary);
        let owner = (bundled.iter())
            .find(|(what, name, _)| *what == "tile key" && name == key)
            .map(|(_, _, set)| set.clone())?;
        (!self.files.iter().any(|p| p.file.set.id == owner)).then_some(owner)
    }

    /// Errors so far, counting names used without `requires` (reported later, once).
    fn errors(&self) -> usize {
        count_errors(self.diags) + self.not_required.len()
    }

    /// One error per set that uses another set's names without requiring it: forgetting
    /// `requires` is one mistake, however many names it makes unknown.
    fn report_not_required(&mut self) {
        let uses = std::mem::take(&mut self.not_required);
        let mut pairs: Vec<(usize, &str)> =
            uses.iter().map(|u| (u.file, u.owner.as_str())).collect();
        pairs.sort_unstable();
        pairs.dedup();
        self.requirement_missing |= !pairs.is_empty();
        for (f, owner) in pairs {
            let mut names: Vec<String> = Vec::new();
            for u in uses
                .iter()
                .filter(|u| (u.file, u.owner.as_str()) == (f, owner))
            {
                let name = format!("{} `{}`", u.what, u.name);
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            let shown = names.len().min(6);
            let more = names.len() - shown;
            let mut listed = names[..shown].join(", ");
            if more > 0 {
                listed.push_str(&format!(" and {more} more"));
            }
            let set = self.files[f].file.set.id.clone();
            let has_requires = !self.files[f].file.set.requires.is_empty();
            let (ptr, fix) = if has_requires {
                ("/set/requires", format!("add \"{owner}\" to `requires`"))
            } else {
                (
                    "/set",
                    format!("add `requires = [\"{owner}\"]` to the `[set]` table"),
                )
            };
            let d = self.error(
                f,
                ptr,
                true,
                "tilekit::not-required",
                format!(
                    "the set `{set}` uses names of the set `{owner}` without requiring it: {listed}"
                ),
            );
            d.label = format!("`{owner}` is not required here");
            d.hint = Some(fix);
        }
    }

    /// Markers' rules: a marker's place is a declared feature kind (or the tile); tokens make
    /// sense on the features that complete (roads and cities); a scoring modifier on a feature,
    /// with only the rates its kind has (a pennant rate where the kind's emblem is the
    /// pennant); and a modifier must change something.
    fn marker_rules(&mut self, vocab: &Vocabulary, kinds: &[FeatureKindInfo]) {
        for d in &vocab.markers {
            let files = self.files;
            let Some(m) = files[d.file].file.markers.get(d.at) else {
                continue;
            };
            let ptr = format!("/marker/{}", d.at);
            self.marker_place(d.file, m, &ptr, vocab, kinds);
            if let Some(scoring) = &m.scoring {
                self.marker_scoring(d.file, m, scoring, &ptr, kinds);
                self.marker_rates(d.file, m, scoring, &ptr, kinds);
            }
        }
        self.shared_goods(vocab);
    }

    /// A marker's place resolves (an older file's kind name aside), and a token's marker goes
    /// on a kind completed when closed.
    fn marker_place(
        &mut self,
        f: usize,
        m: &MarkerDef,
        ptr: &str,
        vocab: &Vocabulary,
        kinds: &[FeatureKindInfo],
    ) {
        let place = m.on.name();
        let older = |this: &mut Self, kind: &str| this.older_kind_name(f, kind, vocab);
        if let MarkerPlace::Kind(kind) = &m.on
            && older(self, kind).is_none()
        {
            self.resolve(
                (f, &format!("{ptr}/on"), false),
                "feature kind",
                kind,
                &vocab.feature_kinds,
                vocab.visible(f),
            );
        }
        // A token is awarded when its feature closes (the engine's `completed` hook).
        let closes = |k: &FeatureKindInfo| k.complete == Completion::Closed;
        let on_closing = kinds.iter().any(|k| m.on.is_on(&k.id) && closes(k));
        if m.token.is_some() && !on_closing {
            self.error(
                f,
                &format!("{ptr}/token"),
                true,
                "tilekit::marker-rule-place",
                format!(
                    "the marker `{}` goes on a {place}, but only features completed when closed award tokens: its `token` would never apply",
                    m.id
                ),
            )
            .hint = Some(format!(
                "put the marker on a kind completed when closed: {}",
                on_kinds(kinds, closes).join(", ")
            ));
        }
    }

    /// A marker's scoring: on a feature, changing a rate, with no `complete` rates on a kind
    /// never completed.
    fn marker_scoring(
        &mut self,
        f: usize,
        m: &MarkerDef,
        scoring: &ScoringDef,
        ptr: &str,
        kinds: &[FeatureKindInfo],
    ) {
        if m.on == MarkerPlace::Tile {
            self.error(
                f,
                &format!("{ptr}/scoring"),
                true,
                "tilekit::scoring-on-tile-marker",
                format!(
                    "the marker `{}` goes on a tile, on no feature: its `scoring` would change no feature's scoring",
                    m.id
                ),
            )
            .hint = Some(
                "put the marker on the kind it changes (`on = \"monastery\"`), or count the tiles carrying it with an `[[effect]]`"
                    .to_string(),
            );
        }
        let says = |r: &Option<crate::model::Rates>| {
            r.is_some_and(|r| {
                r.tile.is_some()
                    || r.pennant.is_some()
                    || r.marker.is_some()
                    || r.bordered.is_some()
            })
        };
        if !says(&scoring.complete) && !says(&scoring.unfinished) {
            self.error(
                f,
                &format!("{ptr}/scoring"),
                true,
                "tilekit::scoring-says-nothing",
                format!("the scoring of marker `{}` changes no rate", m.id),
            )
            .hint = Some(
                "give `complete` or `unfinished` a `tile`, `pennant` or `marker` rate, e.g. `complete = { tile = 2 }`"
                    .to_string(),
            );
        }
        // A `complete` modifier applies when its feature is completed; on a kind never
        // completed (a field) it is never used.
        let never = (kinds.iter()).find(|k| m.on.is_on(&k.id) && k.complete == Completion::Never);
        if let Some(kind) = never
            && says(&scoring.complete)
        {
            let completed = on_kinds(kinds, |k| k.complete != Completion::Never);
            self.error(
                f,
                &format!("{ptr}/scoring/complete"),
                true,
                "tilekit::scoring-never-completed",
                format!(
                    "the marker `{}` goes on a {}, which is never completed: its `complete` rates would never apply",
                    m.id, kind.id
                ),
            )
            .hint = Some(format!(
                "a {} is scored at the end: give the rates under `unfinished`, or put the marker on a kind that is completed: {}",
                kind.id,
                completed.join(", ")
            ));
        }
    }

    /// A marker's rates by shape: `bordered` only on a region, `pennant` only on a kind whose
    /// emblem is the pennant.
    fn marker_rates(
        &mut self,
        f: usize,
        m: &MarkerDef,
        scoring: &ScoringDef,
        ptr: &str,
        kinds: &[FeatureKindInfo],
    ) {
        let place = m.on.name();
        // A `bordered` rate counts what a region borders: on any other shape it never pays.
        let region = (kinds.iter()).any(|k| m.on.is_on(&k.id) && k.shape == Shape::Region);
        for (when, rates) in [
            ("complete", &scoring.complete),
            ("unfinished", &scoring.unfinished),
        ] {
            if !region && rates.is_some_and(|r| r.bordered.is_some()) {
                let regions = on_kinds(kinds, |k| k.shape == Shape::Region);
                self.error(
                    f,
                    &format!("{ptr}/scoring/{when}/bordered"),
                    true,
                    "tilekit::scoring-bordered-not-region",
                    format!(
                        "the marker `{}` goes on a {place}, which borders nothing: a `bordered` rate would never apply",
                        m.id
                    ),
                )
                .hint = Some(format!(
                    "remove `bordered`, or put the marker on a region: {}",
                    regions.join(", ")
                ));
            }
            if !rates.is_some_and(|r| r.pennant.is_some()) {
                continue;
            }
            let rate_ptr = format!("{ptr}/scoring/{when}/pennant");
            let Some(kind) = kinds.iter().find(|k| m.on.is_on(&k.id)) else {
                continue;
            };
            let emblem = kind.emblem.as_ref().map(|e| e.id.as_str());
            if emblem == Some("pennant") {
                continue;
            }
            let has = match &kind.emblem {
                Some(e) => format!("whose emblem is the {}", e.id),
                None => "which has no emblem".to_string(),
            };
            let with_pennants = on_kinds(kinds, |k| {
                k.emblem.as_ref().is_some_and(|e| e.id == "pennant")
            });
            self.error(
                f,
                &rate_ptr,
                true,
                "tilekit::scoring-rate-not-emblem",
                format!(
                    "the marker `{}` goes on a {}, {has}: a `pennant` rate would never apply",
                    m.id, kind.id
                ),
            )
            .hint = Some(if with_pennants.is_empty() {
                "remove `pennant`".to_string()
            } else {
                format!(
                    "remove `pennant`, or put the marker on a kind with pennants ({})",
                    with_pennants.join(", ")
                )
            });
        }
    }

    fn error(
        &mut self,
        file: usize,
        ptr: &str,
        key: bool,
        code: &'static str,
        msg: String,
    ) -> &mut Diagnostic {
        let f = &self.files[file];
        let span = if key {
            f.spans.key_span(ptr)
        } else {
            f.spans.value_span(ptr)
        };
        self.diags
            .push(Diagnostic::error(code, &f.source, span, msg));
        self.diags.last_mut().expect("just pushed")
    }

    fn warning(
        &mut self,
        file: usize,
        ptr: &str,
        code: &'static str,
        msg: String,
    ) -> &mut Diagnostic {
        let f = &self.files[file];
        let span = f.spans.value_span(ptr);
        self.diags
            .push(Diagnostic::warning(code, &f.source, span, msg));
        self.diags.last_mut().expect("just pushed")
    }

    fn where_is(&self, file: usize, ptr: &str) -> String {
        let f = &self.files[file];
        let (line, col) = f.source.line_col(f.spans.value_span(ptr).start);
        format!("{}:{line}:{col}", f.source.name())
    }

    /// Load order: each set after the sets it requires; reports unknown requirements and cycles.
    fn set_order(&mut self) -> Vec<usize> {
        let files = self.files;
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        for (f, p) in files.iter().enumerate() {
            let id = p.file.set.id.as_str();
            if let Some(&first) = by_id.get(id) {
                let first_at = self.where_is(first, "/set/id");
                self.error(
                    f,
                    "/set/id",
                    false,
                    "tilekit::duplicate-set",
                    format!("the set `{id}` is loaded twice"),
                )
                .hint = Some(format!(
                    "it is also defined at {first_at}; load each set once"
                ));
            } else {
                by_id.insert(id, f);
            }
        }
        let mut order = Vec::new();
        let mut state = vec![0u8; files.len()]; // 0 new, 1 visiting, 2 done
        // Depth first with a stack of its own (file, next requirement), so that a long chain
        // of `requires` cannot overflow the thread's stack.
        for (root, file) in files.iter().enumerate() {
            if by_id.get(file.file.set.id.as_str()) != Some(&root) || state[root] != 0 {
                continue;
            }
            state[root] = 1;
            let mut stack = vec![(root, 0usize)];
            while let Some((f, r)) = stack.last_mut() {
                let (f, r_now) = (*f, *r);
                let Some(req) = files[f].file.set.requires.get(r_now) else {
                    state[f] = 2;
                    order.push(f);
                    stack.pop();
                    continue;
                };
                *r += 1;
                let ptr = format!("/set/requires/{r_now}");
                match by_id.get(req.as_str()) {
                    Some(&g) if state[g] == 1 => {
                        self.error(
                            f,
                            &ptr,
                            false,
                            "tilekit::require-cycle",
                            format!(
                                "the sets `{}` and `{req}` require each other",
                                files[f].file.set.id
                            ),
                        )
                        .hint = Some(
                            "a set may only require sets that do not require it back".to_string(),
                        );
                    }
                    Some(&g) if state[g] == 0 => {
                        state[g] = 1;
                        stack.push((g, 0));
                    }
                    Some(_) => {}
                    None => {
                        let set = &files[f].file.set.id;
                        // The sets tilekit bundles are candidates too: a misspelt bundled set
                        // is not loaded beside the file.
                        let bundled = crate::load::bundled_set_ids().map(str::to_string);
                        let mut known: Vec<String> = (by_id.keys().map(|k| k.to_string()))
                            .chain(bundled)
                            .filter(|k| k != req)
                            .collect();
                        known.sort_unstable();
                        known.dedup();
                        let hint = match closest(req, &known) {
                            Some(best) => format!("did you mean `{best}`?"),
                            None => format!(
                                "load the file of `{req}` too (e.g. `tilekit validate {req}.toml {}`); until then the names it declares are unknown here",
                                files[f].source.name()
                            ),
                        };
                        self.error(
                            f,
                            &ptr,
                            false,
                            "tilekit::missing-requirement",
                            format!("the set `{set}` requires `{req}`, which is not loaded"),
                        )
                        .hint = Some(hint);
                    }
                }
            }
        }
        order
    }

    /// The requirement graph, for asking which files a file may use.
    fn reach(&self, order: &[usize]) -> Reach {
        let by_id: HashMap<&str, usize> = order
            .iter()
            .map(|&f| (self.files[f].file.set.id.as_str(), f))
            .collect();
        let requires = self
            .files
            .iter()
            .map(|p| {
                p.file
                    .set
                    .requires
                    .iter()
                    .filter_map(|r| by_id.get(r.as_str()).copied())
                    .collect()
            })
            .collect();
        Reach {
            requires,
            order: order.to_vec(),
            seen_by: RefCell::new(HashMap::new()),
        }
    }

    /// Collects one kind of vocabulary in load order, reporting ids declared twice.
    fn declare(
        &mut self,
        order: &[usize],
        entries: impl Fn(&TileSetFile) -> Vec<Entry>,
    ) -> Declarations {
        let mut out = Declarations::default();
        let mut firsts: Vec<(String, Option<serde_json::Value>)> = Vec::new();
        for &f in order {
            for (at, (id, ptr, what, value)) in entries(&self.files[f].file).into_iter().enumerate()
            {
                let Some(i) = out.position(&id) else {
                    out.by_id.insert(id.clone(), out.list.len());
                    out.list.push(Declared {
                        id,
                        file: f,
                        at,
                        also: Vec::new(),
                    });
                    firsts.push((ptr, value));
                    continue;
                };
                let repeatable = out.list[i].file != f && !out.list[i].also.contains(&f);
                match (&firsts[i].1, &value) {
                    (Some(first), Some(again)) if repeatable => {
                        // Its own uses still resolve: the one error, if any, is the difference.
                        out.list[i].also.push(f);
                        let first = (out.list[i].file, firsts[i].0.as_str(), first);
                        self.redeclared(what, &id, first, (f, &ptr, again));
                    }
                    _ => {
                        let first_at = self.where_is(out.list[i].file, &firsts[i].0);
                        self.error(
                            f,
                            &ptr,
                            false,
                            "tilekit::duplicate-vocabulary",
                            format!("the {what} `{id}` is declared twice"),
                        )
                        .hint = Some(format!(
                            "it is first declared at {first_at}; use that one, or choose another id"
                        ));
                    }
                }
            }
        }
        out
    }

    /// Reports a vocabulary entry that another set declares again, differently. The later
    /// declaration is blamed, unless it is a bundled set's: its author cannot change it, so
    /// the other declaration is the one to bring in line.
    fn redeclared(
        &mut self,
        what: &str,
        id: &str,
        first: (usize, &str, &serde_json::Value),
        again: (usize, &str, &serde_json::Value),
    ) {
        let keys = differing_keys(first.2, again.2);
        let Some(key) = keys.first() else {
            return;
        };
        let (blamed, other) = if self.is_bundled_copy(again.0) && !self.is_bundled_copy(first.0) {
            (first, again)
        } else {
            (again, first)
        };
        let other_at = self.where_is(other.0, other.1);
        let other_set = self.files[other.0].file.set.id.clone();
        let listed: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        self.error(
            blamed.0,
            blamed.1,
            false,
            "tilekit::different-redeclaration",
            format!(
                "the {what} `{id}` is also declared by the set `{other_set}`, differently ({})",
                listed.join(", ")
            ),
        )
        .hint = Some(format!(
            "`{key}` is {} at {other_at} and {} here; another set may declare it again only as written there, every key the same",
            value_text(other.2.get(key)),
            value_text(blamed.2.get(key)),
        ));
    }

    /// Whether file `f` is loaded as a bundled set (`… (bundled)`): its author is not the
    /// reader, so advice about it is noise.
    fn is_bundled(&self, f: usize) -> bool {
        self.files[f].source.name().ends_with(crate::BUNDLED_SUFFIX)
    }

    /// Whether file `f` is a bundled set or an unchanged copy of one read from disk (the
    /// repository's own `definitions/`): its author cannot change it to agree with another.
    fn is_bundled_copy(&self, f: usize) -> bool {
        let copies = self.bundled_copies.get_or_init(|| {
            let texts: Vec<String> = crate::bundled().into_iter().map(|s| s.text).collect();
            (self.files.iter())
                .map(|p| texts.iter().any(|t| **p.source.inner() == **t))
                .collect()
        });
        self.is_bundled(f) || copies.get(f).copied().unwrap_or(false)
    }

    /// Resolves a vocabulary reference made in file `f`, or reports why it does not resolve.
    fn resolve(
        &mut self,
        (f, ptr, key): (usize, &str, bool),
        what: &str,
        name: &str,
        declared: &Declarations,
        visible: Visible<'_>,
    ) -> Option<usize> {
        if let Some(i) = declared.position(name) {
            if declared[i].seen(visible) {
                return Some(i);
            }
            self.not_required.push(NotRequired {
                file: f,
                owner: self.files[declared[i].file].file.set.id.clone(),
                what: what.to_string(),
                name: name.to_string(),
            });
            return None;
        }
        // A name of a bundled set that is not loaded: the file forgot to require it.
        let bundled = self.bundled.get_or_insert_with(bundled_vocabulary);
        let owner = bundled
            .iter()
            .find(|(w, n, _)| *w == what && n == name)
            .map(|(_, _, set)| set.clone());
        if let Some(owner) = owner
            && !self.files.iter().any(|p| p.file.set.id == owner)
        {
            self.not_required.push(NotRequired {
                file: f,
                owner,
                what: what.to_string(),
                name: name.to_string(),
            });
            return None;
        }
        let known: Vec<String> = declared
            .iter()
            .filter(|d| d.seen(visible))
            .map(|d| d.id.clone())
            .collect();
        let hint = match closest(name, &known) {
            Some(best) => format!("did you mean `{best}`?"),
            None if known.is_empty() => format!(
                "no {what} is declared; declare one with a `[[{}]]` table",
                table_of(what)
            ),
            None => format!("the known {what}s are: {}", known.join(", ")),
        };
        self.error(
            f,
            ptr,
            key,
            "tilekit::unknown-reference",
            format!("unknown {what} `{name}`"),
        )
        .hint = Some(hint);
        None
    }

    /// Builds the edge kind vocabulary and its meeting matrix, checking it is consistent.
    fn edge_kinds(&mut self, vocab: &Vocabulary, features: &[FeatureKindInfo]) -> Vec<EdgeKind> {
        let n = vocab.edge_kinds.len();
        let mut kinds: Vec<EdgeKind> = Vec::with_capacity(n);
        let mut ptrs = Vec::with_capacity(n);
        let mut declared_style = Vec::with_capacity(n);
        for d in &vocab.edge_kinds {
            let (i, def) = self.files[d.file]
                .file
                .edge_kinds
                .iter()
                .enumerate()
                .find(|(_, e)| e.id == d.id)
                .expect("declared edge kinds come from their file");
            let ptr = format!("/edge_kind/{i}");
            let centre = self.edge_carries(d.file, &ptr, "centre", &def.centre, vocab, features);
            let halves = self.edge_carries(d.file, &ptr, "halves", &def.halves, vocab, features);
            let shape = |k: Option<FeatureKindId>| k.map(|k| features[k.index()].shape);
            if shape(halves) == Some(Shape::Line) {
                self.error(
                    d.file,
                    &format!("{ptr}/halves"),
                    false,
                    "tilekit::bad-edge-kind",
                    format!("the half-edge ports of `{}` cannot carry a line (`{}`)", def.id, def.halves),
                )
                .hint = Some(
                    "lines run through the centre port; halves carry a region (`field`), an area (`city`) or `none`"
                        .to_string(),
                );
            }
            if shape(halves) == Some(Shape::Area) && centre != halves {
                self.error(
                    d.file,
                    &format!("{ptr}/halves"),
                    false,
                    "tilekit::bad-edge-kind",
                    format!(
                        "the halves of `{}` are `{}` but its centre is not",
                        def.id, def.halves
                    ),
                )
                .hint = Some(format!(
                    "`halves = \"{0}\"` means the halves belong to the centre's {0}; set `centre = \"{0}\"`",
                    def.halves
                ));
            }
            kinds.push(EdgeKind {
                id: def.id.clone(),
                name: def.name.clone(),
                centre_kind: centre,
                halves_kind: halves,
                centre: carries_of(centre.map(|k| &features[k.index()])),
                halves: carries_of(halves.map(|k| &features[k.index()])),
                meets: vec![Meeting::Forbidden; n],
                display: def.display.as_deref().and_then(Rgb::parse),
                style: def.style.unwrap_or(EdgeStyle::Plain),
                path: def.path,
            });
            declared_style.push(def.style.is_some());
            ptrs.push(ptr);
        }
        let mut declared: HashMap<(usize, usize), (Meeting, usize, String)> = HashMap::new();
        for (a, d) in vocab.edge_kinds.iter().enumerate() {
            let def = self.files[d.file]
                .file
                .edge_kinds
                .iter()
                .find(|e| e.id == d.id)
                .expect("declared edge kinds come from their file");
            for (other, &meeting) in &def.meets {
                let ptr = format!("{}/meets/{}", ptrs[a], escape(other));
                let visible = vocab.visible(d.file);
                let Some(b) = self.resolve(
                    (d.file, &ptr, true),
                    "edge kind",
                    other,
                    &vocab.edge_kinds,
                    visible,
                ) else {
                    continue;
                };
                let pair = (a.min(b), a.max(b));
                if let Some((previous, pf, pptr)) = declared.get(&pair)
                    && *previous != meeting
                {
                    let first_at = self.where_is(*pf, pptr);
                    self.error(
                        d.file,
                        &ptr,
                        false,
                        "tilekit::meeting-conflict",
                        format!(
                            "`{}` and `{}` are said to meet in two ways",
                            kinds[a].id, kinds[b].id
                        ),
                    )
                    .hint =
                        Some(format!("{first_at} says `{previous:?}`; say it once").to_lowercase());
                    continue;
                }
                if let Some(problem) = meeting_problem(&kinds[a], &kinds[b], meeting, features) {
                    self.error(d.file, &ptr, false, "tilekit::meeting-mismatch", format!("`{}` cannot {} `{}`: {problem}", kinds[a].id, verb(meeting), kinds[b].id))
                        .hint = Some("`connect` needs the same carries on both kinds; `close` needs the same halves and a road facing nothing; `end` needs one kind whose ports carry nothing".to_string());
                    continue;
                }
                declared.insert(pair, (meeting, d.file, ptr));
                kinds[a].meets[b] = meeting;
                kinds[b].meets[a] = meeting;
            }
        }
        self.meets_nothing(vocab, &kinds, &ptrs);
        for a in (0..n).filter(|&a| !declared_style[a]) {
            let closes_roads = (0..n).any(|r| {
                kinds[r].centre == Some(Shape::Line) && kinds[a].meets[r] == Meeting::Close
            });
            kinds[a].style = match kinds[a].centre {
                Some(Shape::Line) => EdgeStyle::Band,
                Some(Shape::Area) => EdgeStyle::City,
                None if closes_roads => EdgeStyle::Hedge,
                _ => EdgeStyle::Plain,
            };
        }
        kinds
    }

    /// An edge kind that meets no edge kind, itself included, makes each side carrying it a
    /// side no tile may ever face. A kind whose written meetings were refused (an unknown kind,
    /// a mismatch) is left to those errors.
    fn meets_nothing(&mut self, vocab: &Vocabulary, kinds: &[EdgeKind], ptrs: &[String]) {
        for (a, d) in vocab.edge_kinds.iter().enumerate() {
            let Some(def) = (self.files[d.file].file.edge_kinds.iter()).find(|e| e.id == d.id)
            else {
                continue;
            };
            let refused = def.meets.values().any(|&m| m != Meeting::Forbidden);
            if refused || kinds[a].meets.iter().any(|&m| m != Meeting::Forbidden) {
                continue;
            }
            let at = if def.meets.is_empty() { "id" } else { "meets" };
            let id = &kinds[a].id;
            let d = self.error(
                d.file,
                &format!("{}/{at}", ptrs[a]),
                at == "meets",
                "tilekit::edge-meets-nothing",
                format!(
                    "the edge kind `{id}` meets no edge kind, not even itself: no tile can ever be placed against a side of it"
                ),
            );
            d.label = "meets nothing".to_string();
            d.hint = Some(format!(
                "say how it meets others: `meets = {{ {id} = \"connect\" }}` lets two `{id}` sides touch"
            ));
        }
    }

    /// The feature kind an edge kind's `centre` or `halves` names (`none`: no kind); a site,
    /// which lies inside the tile, is refused.
    fn edge_carries(
        &mut self,
        f: usize,
        ptr: &str,
        which: &str,
        name: &str,
        vocab: &Vocabulary,
        features: &[FeatureKindInfo],
    ) -> Option<FeatureKindId> {
        if name == "none" {
            return None;
        }
        let vptr = format!("{ptr}/{which}");
        if let Some(k) = self.older_kind_name(f, name, vocab) {
            return Some(FeatureKindId(k as u8));
        }
        let k = self.resolve(
            (f, &vptr, false),
            "feature kind",
            name,
            &vocab.feature_kinds,
            vocab.visible(f),
        )?;
        if features
            .get(k)
            .is_some_and(|kind| kind.shape == Shape::Site)
        {
            self.error(
                f,
                &vptr,
                false,
                "tilekit::bad-edge-kind",
                format!("`{name}` is a site, which lies inside a tile and on no edge"),
            )
            .hint = Some(
                "an edge carries an area (`city`), a line (`road`), a region (`field`) or `none`"
                    .to_string(),
            );
            return None;
        }
        Some(FeatureKindId(k as u8))
    }

    /// A kind named by an edge kind or a marker's `on` in a file written before feature kinds
    /// were declared (it declares none), from a set it does not require: before, `centre =
    /// "field"` and `on = "road"` needed no requirement. Resolved, with one warning per file
    /// naming the requirement to add.
    fn older_kind_name(&mut self, f: usize, name: &str, vocab: &Vocabulary) -> Option<usize> {
        if !self.files[f].file.features.is_empty() {
            return None;
        }
        let k = vocab.feature_kinds.iter().position(|d| d.id == name)?;
        let declared = &vocab.feature_kinds[k];
        if declared.seen(vocab.visible(f)) {
            return None;
        }
        let owner = self.files[declared.file].file.set.id.clone();
        let code = "tilekit::kind-not-required";
        let file = self.files[f].source.name().to_string();
        if !self
            .diags
            .iter()
            .any(|d| d.code == code && d.file() == file)
        {
            let set = self.files[f].file.set.id.clone();
            let d = self.warning(
                f,
                "/set",
                code,
                format!(
                    "the set `{set}` names feature kinds of `{owner}` (`{name}`) without requiring it, as files written before feature kinds did"
                ),
            );
            d.hint = Some(format!("add \"{owner}\" to `requires`"));
        }
        Some(k)
    }

    /// Checks a tile that writes its own layout and resolves it.
    fn tile(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        set: usize,
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) -> Option<Tile> {
        let errors_before = self.errors();
        let counts = self.counts(f, ptr, def, vocab, tileset);
        let layout = self.layout(f, ptr, def, vocab, tileset);
        let groups = layout.as_ref().map_or(0, |l| {
            l.features.iter().map(|x| x.flowers.len()).sum::<usize>()
        });
        let (art, artwork) = self.art(f, ptr, def, groups);
        let layout = layout?;
        if self.errors() > errors_before {
            return None;
        }
        Some(resolved_tile(def, set, counts, layout, (art, artwork)))
    }

    /// Checks a tile written `like` another and copies the other's resolved layout.
    #[allow(clippy::too_many_arguments)]
    fn like_tile(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        set: usize,
        vocab: &Vocabulary,
        tileset: &TileSet,
        target: Option<&Tile>,
    ) -> Option<Tile> {
        let errors_before = self.errors();
        let id = &def.id;
        let mut layout_keys: Vec<(&str, bool)> = vec![
            ("edges", def.edges.is_some()),
            ("empty", !def.empty.is_empty()),
            ("markers", !def.markers.is_empty()),
            ("moves", !def.moves.is_empty()),
        ];
        layout_keys.extend(def.features.keys().map(|k| (k.as_str(), true)));
        let like = def.like.as_deref().unwrap_or_default();
        for (key, written) in layout_keys {
            if written {
                self.error(
                    f,
                    &format!("{ptr}/{}", escape(key)),
                    true,
                    "tilekit::like-with-layout",
                    format!("tile `{id}` is `like` `{like}` and also writes `{key}`"),
                )
                .hint = Some(format!(
                    "a tile `like` another takes its whole layout from it: remove `{key}`, or remove `like` and write the layout out"
                ));
            }
        }
        let counts = self.counts(f, ptr, def, vocab, tileset);
        let groups = target.map_or(0, |t| t.flowers().count());
        let (art, artwork) = self.art(f, ptr, def, groups);
        let target = target?;
        if self.errors() > errors_before {
            return None;
        }
        let layout = Layout {
            edges: target.edges,
            features: target.features.clone(),
            marketplace: target.marketplace,
            markers: target.markers.clone(),
            moves: target.moves.clone(),
        };
        Some(resolved_tile(def, set, counts, layout, (art, artwork)))
    }

    /// Follows a tile's `like` to the tile that writes the layout; reports an unknown, unusable
    /// or circular target. Returns the file and index of the tile that writes the layout.
    fn like_target(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        names: &HashMap<&str, (usize, usize)>,
        visible: Visible<'_>,
    ) -> Option<(usize, usize)> {
        let like = def.like.as_deref()?;
        let lptr = format!("{ptr}/like");
        let Some(&(g, t)) = names.get(like) else {
            let mut known: Vec<String> = names
                .iter()
                .filter(|(_, (g, _))| visible.contains(g))
                .map(|(n, _)| n.to_string())
                .collect();
            // Sorted, so that among equally close names the same one is suggested every run.
            known.sort_unstable();
            let hint = match closest(like, &known) {
                Some(best) => format!("did you mean `{best}`?"),
                None => "name a tile by its id or an alias, from this set or one it requires"
                    .to_string(),
            };
            self.error(
                f,
                &lptr,
                false,
                "tilekit::like-unknown",
                format!(
                    "tile `{}` is `like` `{like}`, but no loaded tile has that id or alias",
                    def.id
                ),
            )
            .hint = Some(hint);
            return None;
        };
        if !visible.contains(&g) {
            self.not_required.push(NotRequired {
                file: f,
                owner: self.files[g].file.set.id.clone(),
                what: "tile".to_string(),
                name: like.to_string(),
            });
            return None;
        }
        // A chain of `like`s resolves to the tile at its end; every tile on it is in a set the
        // one before requires, so the end is visible from here too.
        let mut seen = vec![(f, ptr.to_string())];
        let (mut g, mut t) = (g, t);
        loop {
            let next = &self.files[g].file.tiles[t];
            let Some(next_like) = next.like.as_deref() else {
                return Some((g, t));
            };
            let here = (g, self.files[g].tile_ptr(t));
            if seen.contains(&here) {
                self.error(
                    f,
                    &lptr,
                    false,
                    "tilekit::like-cycle",
                    format!(
                        "tile `{}` is `like` a tile that is, through `like`, like itself",
                        def.id
                    ),
                )
                .hint = Some("one tile of the chain must write its layout".to_string());
                return None;
            }
            seen.push(here);
            // The next hop's own problems are reported at that tile.
            let &(ng, nt) = names.get(next_like)?;
            (g, t) = (ng, nt);
        }
    }

    /// The copies of a tile per edition.
    fn counts(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) -> Vec<u32> {
        let id = &def.id;
        let visible = vocab.visible(f);
        let mut counts = vec![0; tileset.editions.len()];
        let check = |cx: &mut Self, cptr: &str, n: u32, edition: Option<&str>| {
            if n == 0 {
                let d = cx.error(
                    f,
                    cptr,
                    false,
                    "tilekit::bad-count",
                    match edition {
                        Some(e) => format!("tile `{id}` has a count of 0 in `{e}`"),
                        None => format!("tile `{id}` has a count of 0"),
                    },
                );
                d.hint = Some(match edition {
                    Some(e) => {
                        format!("leave `{e}` out of the table if the tile is not in that edition")
                    }
                    None => {
                        "a tile type needs at least one copy; remove the tile instead".to_string()
                    }
                });
            } else if n > MAX_COUNT {
                cx.error(
                    f,
                    cptr,
                    false,
                    "tilekit::bad-count",
                    format!("tile `{id}` has a count of {n}, more than the {MAX_COUNT} copies a tile type may have"),
                )
                .hint = Some("counts are copies of a printed tile; check for a typo".to_string());
            }
        };
        match &def.count {
            Count::All(n) => {
                check(self, &format!("{ptr}/count"), *n, None);
                counts.iter_mut().for_each(|c| *c = *n);
            }
            Count::PerEdition(map) => {
                if map.is_empty() {
                    self.error(
                        f,
                        &format!("{ptr}/count"),
                        false,
                        "tilekit::bad-count",
                        format!("tile `{id}` has no count"),
                    )
                    .hint = Some("write e.g. `count = { C1 = 2, C2 = 1 }`".to_string());
                }
                for (edition, &n) in map {
                    let cptr = format!("{ptr}/count/{}", escape(edition));
                    if let Some(e) = self.resolve(
                        (f, &cptr, true),
                        "edition",
                        edition,
                        &vocab.editions,
                        visible,
                    ) {
                        counts[e] = n;
                    }
                    check(self, &cptr, n, Some(edition));
                }
            }
        }
        counts
    }

    /// Checks a tile's drawing hints and finds its artwork; `groups` is its flower groups.
    fn art(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        groups: usize,
    ) -> (ArtHints, Option<PathBuf>) {
        let id = &def.id;
        let art = def.art.clone().unwrap_or_default();
        if art.flowers.len() > groups {
            self.warning(
                f,
                &format!("{ptr}/art/flowers"),
                "tilekit::art-flowers",
                format!(
                    "tile `{id}` places {} flower groups but has {groups}",
                    art.flowers.len()
                ),
            )
            .hint = Some(
                "positions are matched to the flower groups in the order they are written"
                    .to_string(),
            );
        }
        let mut positions: Vec<(String, [f32; 2])> = art
            .flowers
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("{ptr}/art/flowers/{i}"), *p))
            .collect();
        positions.extend(
            art.markers
                .iter()
                .map(|(k, p)| (format!("{ptr}/art/markers/{}", escape(k)), *p)),
        );
        for (pptr, [x, y]) in positions {
            if !(0.0..=1.0).contains(&x) || !(0.0..=1.0).contains(&y) {
                self.error(f, &pptr, false, "tilekit::art-position", format!("tile `{id}`: the position [{x}, {y}] lies outside the tile"))
                    .hint = Some("positions are fractions of the tile: [0, 0] is the north-west corner, [1, 1] the south-east".to_string());
            }
        }
        let artwork = art
            .image
            .as_ref()
            .map(|image| self.files[f].dir.join(image));
        if let (Some(image), Some(path)) = (&art.image, &artwork) {
            self.artwork(f, &format!("{ptr}/art/image"), id, image, path);
        }
        (art, artwork)
    }

    /// Refuses an artwork path that is no regular file of a sensible size. The only I/O of the
    /// checks; skipped for a file whose folder is not on disk (the bundled copies).
    fn artwork(&mut self, f: usize, ptr: &str, id: &str, image: &str, path: &Path) {
        if !pictures::on_disk(&self.files[f].dir) {
            return;
        }
        let problem = match std::fs::metadata(path) {
            Err(_) => Some(format!("there is no file `{}`", path.display())),
            Ok(m) if !m.is_file() => Some(format!("`{}` is not a regular file", path.display())),
            Ok(m) if m.len() > MAX_ARTWORK_BYTES => Some(format!(
                "`{}` is {} MB, more than the {} MB an artwork may have",
                path.display(),
                m.len() / 1_000_000,
                MAX_ARTWORK_BYTES / 1_000_000
            )),
            Ok(_) => None,
        };
        if let Some(problem) = problem {
            self.error(
                f,
                ptr,
                false,
                "tilekit::artwork",
                format!("tile `{id}`: the artwork `{image}` cannot be used: {problem}"),
            )
            .hint = Some(
                "the path is relative to the definitions file's folder; fix it, or remove `art.image` to draw the tile"
                    .to_string(),
            );
        }
    }

    /// A tile's own markers: each must be declared for a tile (`on = "tile"`).
    fn markers(
        &mut self,
        f: usize,
        ptr: &str,
        names: &[String],
        place: MarkerPlace,
        vocab: &Vocabulary,
    ) -> Vec<usize> {
        self.markers_on(f, ptr, names, &place, vocab)
    }

    /// Resolves the markers written at `ptr` on a `place` (a tile, or a feature of a kind),
    /// which takes the markers declared `on` it.
    fn markers_on(
        &mut self,
        f: usize,
        ptr: &str,
        names: &[String],
        place: &MarkerPlace,
        vocab: &Vocabulary,
    ) -> Vec<usize> {
        let mut out = Vec::new();
        for (k, name) in names.iter().enumerate() {
            let mptr = format!("{ptr}/{k}");
            let Some(m) = self.resolve(
                (f, &mptr, false),
                "marker kind",
                name,
                &vocab.markers,
                vocab.visible(f),
            ) else {
                continue;
            };
            let d = &vocab.markers[m];
            let def = self.files[d.file]
                .file
                .markers
                .get(d.at)
                .expect("declared markers come from their file");
            let fits = match place {
                MarkerPlace::Tile => def.on == MarkerPlace::Tile,
                kind => def.on.is_on(kind.name()),
            };
            if !fits {
                let on = def.on.name();
                let here = place.name();
                self.error(
                    f,
                    &mptr,
                    false,
                    "tilekit::marker-place",
                    format!("the marker `{name}` goes on a {on}, not on a {here}"),
                )
                .hint = Some(if def.on == MarkerPlace::Tile {
                    "put it in the tile's own `markers`".to_string()
                } else {
                    format!("put it in the `markers` of a {on}")
                });
                continue;
            }
            out.push(m);
        }
        out
    }

    fn unique_tile_ids(&mut self, order: &[usize]) {
        let mut seen: HashMap<String, (usize, String)> = HashMap::new();
        for &f in order {
            for (t, def) in self.files[f].file.tiles.iter().enumerate() {
                let names =
                    std::iter::once((def.id.clone(), format!("{}/id", self.files[f].tile_ptr(t))))
                        .chain(def.aliases.iter().enumerate().map(|(a, n)| {
                            (
                                n.clone(),
                                format!("{}/aliases/{a}", self.files[f].tile_ptr(t)),
                            )
                        }));
                for (name, ptr) in names {
                    if let Some((pf, pptr)) = seen.get(&name) {
                        let first_at = self.where_is(*pf, pptr);
                        self.error(
                            f,
                            &ptr,
                            false,
                            "tilekit::duplicate-tile",
                            format!("the tile id `{name}` is used twice"),
                        )
                        .hint = Some(format!(
                            "it is first used at {first_at}; tile ids and aliases are unique across all loaded sets"
                        ));
                    } else {
                        seen.insert(name, (f, ptr));
                    }
                }
            }
        }
    }

    /// Resolves the tile groups: their draw order (`after`, `before`, then load order, each
    /// side on its own) into `TileSet::groups`, and each tile's `group`.
    fn groups(
        &mut self,
        order: &[usize],
        declared: &Declarations,
        vocab: &Vocabulary,
        tileset: &mut TileSet,
        tile_defs: &[(usize, usize)],
    ) {
        let files = self.files;
        let defs: Vec<(usize, &crate::model::GroupDef)> = declared
            .iter()
            .map(|d| {
                let i = (files[d.file].file.groups.iter())
                    .position(|g| g.id == d.id)
                    .expect("declared groups come from their file");
                (i, &files[d.file].file.groups[i])
            })
            .collect();
        // `follows[a]`: the groups drawn before group `a`.
        let mut follows: Vec<Vec<usize>> = vec![Vec::new(); declared.len()];
        for (a, d) in declared.iter().enumerate() {
            let (i, def) = defs[a];
            let lists = [("after", &def.after), ("before", &def.before)];
            for (key, names) in lists {
                for (j, name) in names.iter().enumerate() {
                    let ptr = format!("/group/{i}/{key}/{j}");
                    let visible = vocab.visible(d.file);
                    let Some(b) =
                        self.resolve((d.file, &ptr, false), "tile group", name, declared, visible)
                    else {
                        continue;
                    };
                    if defs[b].1.draw != def.draw || a == b {
                        let why = if a == b {
                            "a group cannot be drawn before or after itself".to_string()
                        } else {
                            format!(
                                "`{}` is drawn {} and `{name}` {}: a group is ordered only among the groups drawn on its side",
                                def.id,
                                side_name(def.draw),
                                side_name(defs[b].1.draw)
                            )
                        };
                        self.error(
                            d.file,
                            &ptr,
                            false,
                            "tilekit::group-order",
                            format!("group `{}` cannot be drawn {key} `{name}`", def.id),
                        )
                        .hint = Some(why);
                        continue;
                    }
                    if key == "after" {
                        follows[a].push(b);
                    } else {
                        follows[b].push(a);
                    }
                }
            }
        }
        // Draw order: first side then last side; within a side, the earliest-declared group
        // whose predecessors are all placed (Kahn's algorithm, stable by load order).
        let mut placed = vec![false; declared.len()];
        let mut sorted: Vec<usize> = Vec::with_capacity(declared.len());
        for side in [
            crate::model::GroupDraw::First,
            crate::model::GroupDraw::Last,
        ] {
            loop {
                let next = (0..declared.len()).find(|&a| {
                    !placed[a] && defs[a].1.draw == side && follows[a].iter().all(|&b| placed[b])
                });
                let Some(a) = next else { break };
                placed[a] = true;
                sorted.push(a);
            }
        }
        for a in (0..declared.len()).filter(|&a| !placed[a]) {
            let (i, def) = defs[a];
            self.error(
                declared[a].file,
                &format!("/group/{i}/id"),
                false,
                "tilekit::group-cycle",
                format!(
                    "group `{}` is drawn after a group that is drawn after it",
                    def.id
                ),
            )
            .hint = Some("follow its `after` and `before` round: one of them must go".to_string());
        }
        let rank: HashMap<usize, usize> = sorted.iter().enumerate().map(|(r, &a)| (a, r)).collect();
        tileset.groups = sorted
            .iter()
            .map(|&a| {
                let def = defs[a].1;
                Group {
                    id: def.id.clone(),
                    name: def.name.clone(),
                    set: order
                        .iter()
                        .position(|&f| f == declared[a].file)
                        .unwrap_or(0),
                    draw: def.draw,
                    spare_starts: def.spare_starts,
                }
            })
            .collect();
        for (tile, &(f, t)) in tileset.tiles.iter_mut().zip(tile_defs) {
            let def = &files[f].file.tiles[t];
            let ptr = files[f].tile_ptr(t);
            match &def.group {
                Some(name) => {
                    let gptr = format!("{ptr}/group");
                    let visible = vocab.visible(f);
                    let g = self.resolve((f, &gptr, false), "tile group", name, declared, visible);
                    tile.group = g.and_then(|g| rank.get(&g).copied());
                }
                None if def.held_back => {
                    self.error(
                        f,
                        &format!("{ptr}/held_back"),
                        true,
                        "tilekit::held-back-without-group",
                        format!("tile `{}` is held back but is in no group", def.id),
                    )
                    .hint = Some(
                        "`held_back` draws a tile last of its group: add `group = \"…\"`, or remove `held_back`".to_string(),
                    );
                }
                None => {}
            }
            if def.reserve.is_some() && def.start {
                self.error(
                    f,
                    &format!("{ptr}/reserve"),
                    true,
                    "tilekit::reserve-start",
                    format!("tile `{}` is both the start tile and held in reserve", def.id),
                )
                .hint = Some(
                    "a reserve tile is in the players' hands, never on the board at the start: remove `start` or `reserve`".to_string(),
                );
            }
        }
    }

    /// Resolves each marker kind's `held.until` to a marker kind in its file's scope other than
    /// itself.
    fn held_markers(&mut self, vocab: &Vocabulary, tileset: &mut TileSet) {
        let files = self.files;
        for (m, d) in vocab.markers.iter().enumerate() {
            let Some(held) = files[d.file]
                .file
                .markers
                .get(d.at)
                .and_then(|m| m.held.as_ref())
            else {
                continue;
            };
            let ptr = format!("/marker/{}/held/until", d.at);
            let visible = vocab.visible(d.file);
            let until = self.resolve(
                (d.file, &ptr, false),
                "marker kind",
                &held.until,
                &vocab.markers,
                visible,
            );
            if until == Some(m) {
                self.error(
                    d.file,
                    &ptr,
                    false,
                    "tilekit::held-until-itself",
                    format!("marker `{}` is held until a tile with itself is placed", d.id),
                )
                .hint = Some("`until` names another marker, whose first tile placed lets these tiles be drawn (the dragon's until the volcano)".to_string());
                continue;
            }
            tileset.markers[m].held_until = until;
        }
    }

    /// A marker's `removes` needs a feature to send figures home from, its `deploy` a tile.
    fn marker_places(&mut self, vocab: &Vocabulary) {
        let files = self.files;
        for d in &vocab.markers {
            let Some(m) = files[d.file].file.markers.get(d.at) else {
                continue;
            };
            let on_tile = m.on == MarkerPlace::Tile;
            if m.removes.is_some() && on_tile {
                self.error(
                    d.file,
                    &format!("/marker/{}/removes", d.at),
                    false,
                    "tilekit::removes-on-tile",
                    format!("marker `{}` is on the tile, so it has no feature to send figures home from", d.id),
                )
                .hint = Some("`removes` goes on a feature marker (`on = \"city\"`, as the princess): its figures are those on the feature the placement extends".to_string());
            }
            if m.deploy.is_some() && !on_tile {
                self.error(
                    d.file,
                    &format!("/marker/{}/deploy", d.at),
                    false,
                    "tilekit::deploy-on-feature",
                    format!("marker `{}` is on a feature, but `deploy` widens where a tile's player deploys", d.id),
                )
                .hint = Some("`deploy` goes on a tile marker (`on = \"tile\"`, as the magic portal)".to_string());
            }
        }
    }

    /// Resolves each set's `removes` to tiles of the sets it may use (itself excluded).
    fn removes(&mut self, order: &[usize], vocab: &Vocabulary, tileset: &mut TileSet) {
        let files = self.files;
        for (s, &f) in order.iter().enumerate() {
            for (i, name) in files[f].file.set.removes.iter().enumerate() {
                let found = tileset.tiles.iter().position(|t| {
                    (t.id == *name || t.aliases.contains(name))
                        && order[t.set] != f
                        && vocab.visible(f).contains(&order[t.set])
                });
                match found {
                    Some(t) => tileset.sets[s].removes.push(t),
                    None => {
                        self.error(
                            f,
                            &format!("/set/removes/{i}"),
                            false,
                            "tilekit::unknown-removed-tile",
                            format!("set `{}` removes `{name}`, but no tile of the sets it requires has that id or alias", files[f].file.set.id),
                        )
                        .hint = Some("`removes` names a tile of a required set that a game with this set leaves out; require its set, or correct the id".to_string());
                    }
                }
            }
        }
    }

    /// At most one start tile per set, at least one among the loaded sets; `start_tile` is the
    /// first set's in load order (a game chooses its own among its sets: `engine::draw`).
    fn start_tile(&mut self, order: &[usize], tileset: &mut TileSet) {
        let files = self.files;
        let written: Vec<(usize, String)> = order
            .iter()
            .flat_map(|&f| {
                files[f]
                    .file
                    .tiles
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.start)
                    .map(move |(t, _)| (f, format!("{}/start", files[f].tile_ptr(t))))
            })
            .collect();
        if written.is_empty() {
            // The start tile is probably in the set that was not required.
            if !self.requirement_missing
                && let Some(&f) = order.first()
            {
                self.error(f, "/set", true, "tilekit::no-start-tile", "no start tile among the loaded sets".to_string())
                    .hint = Some("mark one tile type with `start = true` (in the base game, D), or load the base game too".to_string());
            }
            return;
        }
        for (k, (f, ptr)) in written.iter().enumerate() {
            if let Some((g, first)) = written[..k].iter().find(|(g, _)| g == f) {
                let first_at = self.where_is(*g, first);
                let set = files[*f].file.set.id.clone();
                self.error(
                    *f,
                    ptr,
                    true,
                    "tilekit::two-start-tiles",
                    format!("a second start tile in set `{set}`"),
                )
                .hint = Some(format!(
                    "the set's start tile is already marked at {first_at}; a set has at most one tile type with `start = true` (another set may have its own)"
                ));
            }
        }
        if let Some(t) = tileset.tiles.iter().position(|t| t.start) {
            tileset.start_tile = t;
        }
    }

    /// Warns about a tile that is another tile of the same set turned.
    fn rotation_twins(&mut self, tileset: &TileSet, tile_ptrs: &[(usize, String)]) {
        // Keyed by set and the shape after each turn, so the check stays linear in the tiles.
        // Tiles with different names are different tiles (a spring is not a lake turned).
        type Shape<'t> = (usize, Option<&'t str>, Vec<u32>);
        let mut seen: HashMap<Shape<'_>, (usize, usize)> = HashMap::new();
        for (b, tile) in tileset.tiles.iter().enumerate() {
            let name = tile.name.as_deref();
            let keys: [Vec<u32>; 4] = std::array::from_fn(|r| shape_key(tile, r as u8));
            let twin = keys.iter().enumerate().find_map(|(r, key)| {
                seen.get(&(tile.set, name, key.clone()))
                    .map(|&(a, ar)| (a, (ar + 4 - r) % 4))
            });
            if let Some((a, turns)) = twin {
                let (f, ptr) = &tile_ptrs[b];
                let first = tileset.tiles[a].id.clone();
                let turned = if turns == 0 {
                    String::new()
                } else {
                    format!(" turned {}°", 90 * turns)
                };
                self.warning(
                    *f,
                    &format!("{ptr}/id"),
                    "tilekit::rotation-twin",
                    format!("tile `{}` is tile `{first}`{turned}", tile.id),
                )
                .hint = Some(format!(
                    "if it is the same tile, add its copies to `{first}`'s count"
                ));
                continue;
            }
            for (r, key) in keys.into_iter().enumerate() {
                seen.entry((tile.set, name, key)).or_insert((b, r));
            }
        }
    }

    /// Reports tiles that no tile of the loaded sets (itself included) can be placed next to.
    fn unmeetable(&mut self, tileset: &TileSet, tile_ptrs: &[(usize, String)]) {
        let used: BTreeSet<usize> = tileset.tiles.iter().flat_map(|t| t.edges).collect();
        for (t, tile) in tileset.tiles.iter().enumerate() {
            let meets = tile.edges.iter().any(|&a| {
                used.iter()
                    .any(|&b| tileset.meeting(a, b) != Meeting::Forbidden)
            });
            if !meets {
                let (f, ptr) = &tile_ptrs[t];
                let kinds: Vec<&str> = tile
                    .edges
                    .iter()
                    .map(|&k| tileset.edge_kinds[k].id.as_str())
                    .collect();
                self.error(
                    *f,
                    &format!("{ptr}/edges"),
                    false,
                    "tilekit::unplaceable",
                    format!("tile `{}` can meet no tile of the loaded sets", tile.id),
                )
                .hint = Some(format!(
                    "its edges ({}) may touch no edge in use; say how they meet others in an edge kind's `meets`",
                    kinds.join(", ")
                ));
            }
        }
    }
}

/// A checked tile: what it writes of its own (id, names, counts, start, art) with its layout.
fn resolved_tile(
    def: &TileDef,
    set: usize,
    counts: Vec<u32>,
    layout: Layout,
    (art, artwork): (ArtHints, Option<PathBuf>),
) -> Tile {
    Tile {
        id: def.id.clone(),
        name: def.name.clone(),
        aliases: def.aliases.clone(),
        set,
        counts,
        start: def.start,
        edges: layout.edges,
        features: layout.features,
        marketplace: layout.marketplace,
        markers: layout.markers,
        reconstructed: def.reconstructed,
        art,
        artwork,
        group: None,
        held_back: def.held_back,
        reserve: def.reserve,
        moves: layout.moves,
    }
}

/// Something that crosses a tile from edge to edge and so may cut a field off from a city.
struct Barrier {
    /// The feature it is, if it is one (a river is not).
    feature: Option<usize>,
    /// The ports where it meets the tile's edge, as a mask over port indices.
    ports: u16,
    /// How a diagnostic names it.
    name: String,
}

/// The lines, rivers and regions of a tile that reach its edge in two places or more. Areas do
/// not divide: a field may reach a city beyond another city (Abbey & Mayor's `CCc+`).
fn barriers(features: &[Feature], edges: &[usize; 4], tileset: &TileSet) -> Vec<Barrier> {
    let mut out = Vec::new();
    let river: Vec<Port> = Side::ALL
        .into_iter()
        .filter(|s| tileset.edge_kinds[edges[s.index()]].style == EdgeStyle::River)
        .map(Side::centre)
        .collect();
    if river.len() >= 2 {
        out.push(Barrier {
            feature: None,
            ports: mask_of(&river),
            name: format!("the river {}", ports_text(&river)),
        });
    }
    for (i, x) in features.iter().enumerate() {
        let mut ports = mask_of(&x.ports);
        if let Some(LineEnd::Side(side)) = x.end {
            ports |= 1 << side.centre().index();
        }
        if ports.count_ones() < 2 {
            continue;
        }
        let kind = tileset.kind_of(x);
        let name = match kind.shape {
            Shape::Line => format!("the {} {}", kind.id, ports_text(&x.ports)),
            Shape::Region => format!("the {} at {}", kind.id, ports_text(&x.ports)),
            Shape::Area | Shape::Site => continue,
        };
        out.push(Barrier {
            feature: Some(i),
            ports,
            name,
        });
    }
    out
}

/// Whether a barrier meeting the edge at `barrier` leaves the ports `a` and `b` in different
/// stretches of the edge ring between its ports (and so cuts one off from the other).
fn separates(barrier: u16, a: u16, b: u16) -> bool {
    let Some(start) = (0..12).find(|&i| barrier & (1 << i) != 0) else {
        return false;
    };
    // Number the stretches between the barrier's ports, walking clockwise from one of them.
    let (mut stretch, mut in_a, mut in_b) = (0u32, 0u16, 0u16);
    for k in 1..=12 {
        let i = (start + k) % 12;
        if barrier & (1 << i) != 0 {
            stretch += 1;
            continue;
        }
        if a & (1 << i) != 0 {
            in_a |= 1 << stretch;
        }
        if b & (1 << i) != 0 {
            in_b |= 1 << stretch;
        }
    }
    in_a != 0 && in_b != 0 && in_a & in_b == 0
}

fn mask_of(ports: &[Port]) -> u16 {
    ports.iter().fold(0, |m, p| m | 1 << p.index())
}

fn mask_where(owner: &[Option<usize>; 12], keep: impl Fn(Option<usize>) -> bool) -> u16 {
    (0..12)
        .filter(|&i| keep(owner[i]))
        .fold(0, |m, i| m | 1 << i)
}

fn ports_text(ports: &[Port]) -> String {
    ports.iter().map(|p| p.name()).collect::<Vec<_>>().join(" ")
}

/// A tile's rule-relevant content after `quarter_turns`, as comparable numbers: edges, then each
/// feature (kind, ports, emblems, end, bordered features, flowers, markers) in a canonical order,
/// then the tile's marketplace and markers. Numbers, not text: this runs four times per tile.
fn shape_key(tile: &Tile, quarter_turns: u8) -> Vec<u32> {
    let mask = |ports: &[Port]| {
        ports
            .iter()
            .fold(0u32, |m, p| m | 1 << p.rotated(quarter_turns).index())
    };
    let sorted = |items: &[usize]| {
        let mut v: Vec<u32> = items.iter().map(|&i| i as u32).collect();
        v.sort_unstable();
        v
    };
    let mut features: Vec<Vec<u32>> = tile
        .features
        .iter()
        .map(|f| {
            let end = match f.end {
                None => 0,
                Some(LineEnd::Junction) => 1,
                Some(LineEnd::Marker) => 2,
                Some(LineEnd::Side(side)) => 100 + side.rotated(quarter_turns).index() as u32,
                Some(LineEnd::Kind(k)) => 200 + u32::from(k.0),
                Some(LineEnd::MarkerKind(m)) => 1000 + m as u32,
            };
            let mut key = vec![u32::from(f.kind.0), mask(&f.ports), f.emblems, end];
            let mut borders: Vec<u32> = f
                .borders
                .iter()
                .map(|&c| mask(&tile.features[c].ports))
                .collect();
            borders.sort_unstable();
            for list in [borders, sorted(&f.flowers), sorted(&f.markers)] {
                key.push(list.len() as u32);
                key.extend(list);
            }
            key
        })
        .collect();
    features.sort_unstable();
    let mut key: Vec<u32> = (0..4)
        .map(|s| tile.edges[(s + 4 - quarter_turns as usize) % 4] as u32)
        .collect();
    for feature in features {
        key.push(feature.len() as u32);
        key.extend(feature);
    }
    key.push(u32::from(tile.marketplace));
    key.extend(sorted(&tile.markers));
    key
}

fn meeting_problem(
    a: &EdgeKind,
    b: &EdgeKind,
    meeting: Meeting,
    kinds: &[FeatureKindInfo],
) -> Option<String> {
    let name = |k: Option<FeatureKindId>| k.map_or("nothing", |k| kinds[k.index()].id.as_str());
    match meeting {
        Meeting::Forbidden => None,
        Meeting::Connect if a.centre_kind != b.centre_kind => Some(format!(
            "their centres carry {} and {}",
            name(a.centre_kind),
            name(b.centre_kind)
        )),
        Meeting::Connect | Meeting::Close if a.halves_kind != b.halves_kind => Some(format!(
            "their halves carry {} and {}",
            name(a.halves_kind),
            name(b.halves_kind)
        )),
        Meeting::Close
            if !matches!(
                (a.centre, b.centre),
                (Some(Shape::Line), None) | (None, Some(Shape::Line))
            ) =>
        {
            Some("`close` is for a line meeting an edge whose centre carries nothing".to_string())
        }
        // A feature facing a port that carries nothing joins nothing: only such an edge can
        // end every feature meeting it.
        Meeting::End
            if [a, b]
                .iter()
                .all(|k| k.centre_kind.is_some() || k.halves_kind.is_some()) =>
        {
            Some(format!(
                "both carry features ({} and {}): `end` is for an edge whose ports carry nothing",
                name(a.centre_kind.or(a.halves_kind)),
                name(b.centre_kind.or(b.halves_kind))
            ))
        }
        _ => None,
    }
}

fn verb(meeting: Meeting) -> &'static str {
    match meeting {
        Meeting::Connect => "connect to",
        Meeting::Close => "close",
        Meeting::End => "end",
        Meeting::Forbidden => "refuse",
    }
}

/// `on = "…"` for each kind `pick` takes: the places a hint offers a marker.
fn on_kinds(kinds: &[FeatureKindInfo], pick: impl Fn(&FeatureKindInfo) -> bool) -> Vec<String> {
    (kinds.iter().filter(|k| pick(k)))
        .map(|k| format!("`on = \"{}\"`", k.id))
        .collect()
}

/// The shape a port carrying a feature of this kind carries (none: a site, which lies inside
/// the tile).
fn carries_of(kind: Option<&FeatureKindInfo>) -> Option<Shape> {
    kind.map(|k| k.shape).filter(|&shape| shape != Shape::Site)
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::N => "north",
        Side::E => "east",
        Side::S => "south",
        Side::W => "west",
    }
}

fn side_name(draw: crate::model::GroupDraw) -> &'static str {
    match draw {
        crate::model::GroupDraw::First => "first",
        crate::model::GroupDraw::Last => "last",
    }
}

fn table_of(what: &str) -> &'static str {
    match what {
        "edge kind" => "edge_kind",
        "feature kind" => "feature",
        "colour" => "colour",
        "marker kind" => "marker",
        "tile group" => "group",
        "creature" => "creature",
        "figure" => "figure",
        _ => "edition",
    }
}

fn escape(segment: &str) -> String {
    let mut out = String::new();
    crate::source::push_escaped(&mut out, segment);
    out
}
