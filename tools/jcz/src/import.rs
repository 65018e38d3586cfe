//! JCZ XML → tilekit sets: one set per JCZ tile-set family, a shared `jcz` vocabulary set, and
//! notes for everything that could not be carried over. Mapping decisions are in the crate doc.

use crate::keys::{BY_ELEMENT, CITIES, FIELDS, GARDEN, MARKETPLACE, MONASTERY, PENNANTS, ROADS};
use crate::vocab::{self, Written};
use crate::xml::{Element, JczFile, JczTile};
use crate::{Error, Note};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use tiledef::model::{
    ColourDef, Count, EdgeKindDef, EdgeStyle, Edges, FeatureDef, FeatureKindDef, GroupDef, JczEdge,
    KindValue, MarkerDef, MarkerPlace, Meeting, SetHeader, TileDef, TileFeatures, TileSetFile,
};
use tiledef::{Port, Side};

/// The id of the set that declares the vocabulary JCZ adds to the base game.
pub const VOCABULARY_SET: &str = "jcz";

/// What the bundled definitions say that an import uses: which set holds a JCZ id (for
/// `<ref>`s to tiles of files not imported) and which tile is the start tile.
#[derive(Clone, Debug, Default)]
pub struct Bundled {
    /// JCZ alias → (set id, set name, the tile is the start tile).
    aliases: HashMap<String, (String, String, bool)>,
    /// Set id → set name.
    names: HashMap<String, String>,
    /// The bundled edge kind that is FanCloisterZone's bush (`jcz = "bush"`: Village Life's
    /// bushes), declared again by an import whose tiles have bushes.
    bush: Option<EdgeKindDef>,
    /// The bundled flower colours, in load order: an import's flowers are named after them.
    colours: Vec<ColourDef>,
    /// The bundled marker kinds: an imported marker of the same id and place is declared as
    /// they are, so that the import loads beside the bundled sets.
    markers: Vec<MarkerDef>,
    /// The bundled feature kinds, in load order: an imported `basic.xml` declares base's, and
    /// an import with marketplaces FanCloisterZone's (`jcz = "marketplace"`), as they are.
    features: Vec<(String, FeatureKindDef)>,
}

impl Bundled {
    /// The bundled colour FanCloisterZone's flower token names (`blue` is Village Life's light
    /// blue): the inverse of `vocab::fancz_flowers`.
    fn colour_of_token(&self, token: &str) -> Option<&ColourDef> {
        (self.colours.iter()).find(|c| vocab::fancz_flowers(&c.id) == Some(token))
    }

    /// Reads the definitions compiled into tiledef.
    pub fn load() -> Bundled {
        let mut out = Bundled::default();
        for source in tiledef::bundled() {
            let Ok(file) = toml::from_str::<TileSetFile>(&source.text) else {
                continue;
            };
            out.names.insert(file.set.id.clone(), file.set.name.clone());
            if out.bush.is_none() {
                out.bush = (file.edge_kinds.iter())
                    .find(|k| k.jcz == Some(JczEdge::Bush))
                    .cloned();
            }
            out.colours.extend(file.colours.iter().cloned());
            let set = &file.set.id;
            (out.features).extend(file.features.iter().map(|k| (set.clone(), k.clone())));
            out.markers.extend(file.markers.iter().cloned());
            for tile in &file.tiles {
                for alias in &tile.aliases {
                    out.aliases.insert(
                        alias.clone(),
                        (file.set.id.clone(), file.set.name.clone(), tile.start),
                    );
                }
            }
        }
        out
    }
}

/// One tilekit file produced by an import.
#[derive(Clone, Debug)]
pub struct ImportedSet {
    /// The file name to write, e.g. `river-1.toml`.
    pub file_name: String,
    /// The XML files it comes from.
    pub from: Vec<String>,
    /// The definitions.
    pub set: TileSetFile,
}

impl ImportedSet {
    /// The file's TOML text, pointing editors at the schema written beside it.
    pub fn toml(&self) -> Result<String, String> {
        let header = vec![
            format!(
                "Imported from JCloisterZone's {} by `tilekit import jcz`.",
                self.from
                    .iter()
                    .map(|f| base_name(f))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "What could not be carried over is listed in import-report.txt.".to_string(),
        ];
        crate::write::to_toml(&self.set, SCHEMA_FILE, &header)
    }
}

/// The schema's file name beside imported files (as `#:schema` names it).
pub const SCHEMA_FILE: &str = "./tileset.schema.json";

/// The result of an import: the sets and what could not be carried over.
#[derive(Clone, Debug, Default)]
pub struct Import {
    /// The sets, the vocabulary set last.
    pub sets: Vec<ImportedSet>,
    /// Everything not carried over, per tile or tile-set, in file order.
    pub notes: Vec<Note>,
}

struct Family {
    id: String,
    file: usize,
    /// Whether its tile-set ids carry an edition suffix.
    editions: bool,
    /// JCZ tile id → count per edition (`""` when the family has no editions), in ref order.
    refs: Vec<(String, BTreeMap<String, u32>)>,
    tile_sets: Vec<String>,
    /// JCZ ids its tile-sets `<remove>`, with the tile-set that says so.
    removes: Vec<(String, String)>,
}

/// A tile's layout as read, before it is given to a set.
struct Drafted {
    file: usize,
    def: TileDef,
}

/// Imports JCZ files. Fails on input that cannot be read as JCZ tiles (a port that is no port).
pub fn import(files: &[JczFile], bundled: &Bundled) -> Result<Import, Error> {
    let mut out = Import::default();
    let mut markers = Markers {
        defs: BTreeMap::new(),
        bundled: bundled.markers.clone(),
    };
    let mut ids = Ids::default();
    let Drafts {
        drafts,
        tile_order,
        titles,
        uses_river,
    } = draft_tiles(files, bundled, &mut markers, &mut ids, &mut out.notes)?;
    let families = families_of(files, &mut out.notes);
    let owner = owners(&families, &drafts);
    let mut produced: Vec<ImportedSet> = Vec::new();
    for (i, fam) in families.iter().enumerate() {
        let file = &files[fam.file];
        let mut requires: Vec<String> = Vec::new();
        let mut tiles = Vec::new();
        let prefix = own_prefix(fam, &owner, i);
        for (jcz_id, counts) in &fam.refs {
            let count = count_of(fam.editions, counts);
            if owner.get(jcz_id) == Some(&i) {
                let mut def = drafts[jcz_id].def.clone();
                def.count = count;
                // Each bundled set may mark its own start tile (the base game's D, the River's
                // spring): a family takes the start of the bundled set it is.
                def.start = def.start
                    || bundled
                        .aliases
                        .get(jcz_id)
                        .is_some_and(|(s, _, st)| *st && *s == fam.id);
                tiles.push(def);
                continue;
            }
            let required = match owner.get(jcz_id) {
                Some(&o) => Some(families[o].id.clone()),
                None => bundled.aliases.get(jcz_id).map(|(s, _, _)| s.clone()),
            };
            let Some(required) = required else {
                out.notes.push(set_note(
                    file,
                    &fam.tile_sets[0],
                    "<ref> unknown tile",
                    format!(
                        "`{jcz_id}` is defined in no file imported and in no bundled set; left out"
                    ),
                ));
                continue;
            };
            if !requires.contains(&required) {
                requires.push(required);
            }
            // A reprint keeps the tile's place in the draw (River II's spring).
            let drafted = drafts.get(jcz_id).map(|d| &d.def);
            tiles.push(TileDef {
                id: ids.make(&format!("{prefix}/{jcz_id}")),
                like: Some(jcz_id.clone()),
                count,
                start: drafted.is_some_and(|d| d.start),
                group: drafted.and_then(|d| d.group.clone()),
                held_back: drafted.is_some_and(|d| d.held_back),
                ..blank_tile()
            });
        }
        // `<remove>`: a tile of another family (imported, or a bundled set's, by its JCZ id),
        // which this set then requires.
        let mut removes = Vec::new();
        for (jcz_id, tile_set) in &fam.removes {
            let (name, required) = match owner.get(jcz_id) {
                Some(&o) if o != i => (drafts[jcz_id].def.id.clone(), families[o].id.clone()),
                Some(_) => {
                    out.notes.push(set_note(
                        file,
                        tile_set,
                        "<remove>",
                        format!("removes its own tile `{jcz_id}`; left in"),
                    ));
                    continue;
                }
                None => match bundled.aliases.get(jcz_id) {
                    Some((set, _, _)) => (jcz_id.clone(), set.clone()),
                    None => {
                        out.notes.push(set_note(file, tile_set, "<remove>", format!("removes `{jcz_id}`, which is in no file imported and in no bundled set")));
                        continue;
                    }
                },
            };
            if !requires.contains(&required) {
                requires.push(required);
            }
            removes.push(name);
        }
        // A set has at most one start tile: the first (a family with two springs keeps one).
        let mut starts = 0;
        for t in &mut tiles {
            starts += usize::from(t.start);
            t.start &= starts == 1;
        }
        let mut set = family_set(fam.id.clone(), file, fam, requires, tiles, bundled);
        set.set.set.removes = removes;
        let jcz_family = (fam.tile_sets.first())
            .and_then(|t| t.split(':').next())
            .unwrap_or_default();
        set.set.figures = vocab::figures(jcz_family);
        set.set.creatures = vocab::creatures(jcz_family);
        let (edge_kinds, code_tiles) = vocab::code_tiles(jcz_family);
        set.set.edge_kinds.extend(edge_kinds);
        set.set.tiles.extend(code_tiles);
        if let Some(title) = titles.get(jcz_family) {
            set.set.set.name = title.clone();
        }
        produced.push(set);
    }

    produced.extend(unreferenced(
        files,
        (&drafts, &tile_order, &owner),
        bundled,
        &mut out.notes,
    ));
    add_requirements(&mut produced, bundled);
    let groups: Vec<String> = drafts
        .values()
        .filter_map(|d| d.def.group.clone())
        .collect();
    let used = Used::of(&drafts, bundled, uses_river);
    if let Some(vocab) = vocabulary(markers, &used, &groups, files) {
        produced.push(vocab);
    }
    out.sets = produced;
    // Tile-set notes were added after the tiles' notes: group them by file, in input order.
    let order: HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.as_str(), i))
        .collect();
    out.notes
        .sort_by_key(|n| order.get(n.file.as_str()).copied().unwrap_or(usize::MAX));
    Ok(out)
}

/// The tiles of every file, drafted, with what they need of the rest of the import.
struct Drafts {
    /// Tiles, keyed by JCZ id, with their tilekit ids unique across the run.
    drafts: BTreeMap<String, Drafted>,
    /// JCZ ids in file order.
    tile_order: Vec<String>,
    /// JCZ tile-set family → the title of the `<expansion>` that refers to it.
    titles: HashMap<String, String>,
    /// Whether a tile has a river edge.
    uses_river: bool,
}

/// Drafts every file's tiles, and notes what a file says beside them (what an export lost,
/// top-level elements; an add-on's expansion titles its sets).
fn draft_tiles(
    files: &[JczFile],
    bundled: &Bundled,
    markers: &mut Markers,
    ids: &mut Ids,
    out_notes: &mut Vec<Note>,
) -> Result<Drafts, Error> {
    let mut drafts: BTreeMap<String, Drafted> = BTreeMap::new();
    let mut tile_order: Vec<String> = Vec::new();
    let mut titles: HashMap<String, String> = HashMap::new();
    let mut uses_river = false;
    for (f, file) in files.iter().enumerate() {
        for tile in &file.tiles {
            if drafts.contains_key(&tile.id) {
                return Err(Error::Structure {
                    file: file.name.clone(),
                    line: tile.line,
                    message: format!("the tile `{}` is defined twice", tile.id),
                });
            }
            let mut notes = Vec::new();
            let mut def = draft(file, tile, bundled, markers, &mut notes)?;
            def.id = ids.make(&tile.id);
            // The JCZ id is kept as an alias, unless it is the tilekit id already.
            if def.id == tile.id {
                def.aliases.clear();
            }
            uses_river |= edges_of(&def).any(|e| e == "river");
            for (kind, detail) in notes {
                out_notes.push(Note {
                    file: file.name.clone(),
                    tile: Some(tile.id.clone()),
                    kind,
                    detail,
                });
            }
            tile_order.push(tile.id.clone());
            drafts.insert(tile.id.clone(), Drafted { file: f, def });
        }
        for lost in &file.lost {
            out_notes.push(Note {
                file: file.name.clone(),
                tile: None,
                kind: "lost by the export".to_string(),
                detail: format!(
                    "{lost}: tilekit's export that wrote this file could not carry it, so it does not come back"
                ),
            });
        }
        for (el, _) in &file.others {
            // An add-on's expansion: its title names its sets; the rest tilekit derives from
            // the tiles (the elements it implies come from their markers).
            if el.name == "expansion" {
                expansion_titles(el, &mut titles);
                continue;
            }
            out_notes.push(Note {
                file: file.name.clone(),
                tile: None,
                kind: format!("<{}>", el.name),
                detail: format!("a top-level element: {}", describe(el)),
            });
        }
    }

    Ok(Drafts {
        drafts,
        tile_order,
        titles,
        uses_river,
    })
}

/// The files' tile-sets gathered into families (`river/1:1` and `river/1:2` are one), with
/// their counts per edition, removes and notes.
fn families_of(files: &[JczFile], out_notes: &mut Vec<Note>) -> Vec<Family> {
    let mut families: Vec<Family> = Vec::new();
    for (f, file) in files.iter().enumerate() {
        for set in &file.sets {
            let (family, edition) = match set.id.split_once(':') {
                Some((family, e)) => (family, Some(e)),
                None => (set.id.as_str(), None),
            };
            let edition = match edition {
                None => String::new(),
                Some("1") => "C1".to_string(),
                Some("2") => "C2".to_string(),
                Some(other) => {
                    out_notes.push(set_note(file, &set.id, "tile-set@id", format!("the edition `:{other}` is not one of base's (`:1` = C1, `:2` = C2); the tile-set is left out")));
                    continue;
                }
            };
            let mut id = family_id(family);
            if id == VOCABULARY_SET {
                id.push_str("-tiles");
            }
            let at = match families.iter().position(|fam| fam.id == id) {
                Some(at) => at,
                None => {
                    families.push(Family {
                        id: id.clone(),
                        file: f,
                        editions: !edition.is_empty(),
                        refs: Vec::new(),
                        tile_sets: Vec::new(),
                        removes: Vec::new(),
                    });
                    families.len() - 1
                }
            };
            let fam = &mut families[at];
            fam.tile_sets.push(set.id.clone());
            for (k, v) in &set.attrs {
                out_notes.push(set_note(
                    file,
                    &set.id,
                    &format!("tile-set@{k}"),
                    format!("\"{v}\""),
                ));
            }
            for tile in &set.removes {
                if !fam.removes.iter().any(|(t, _)| t == tile) {
                    fam.removes.push((tile.clone(), set.id.clone()));
                }
            }
            for el in &set.others {
                out_notes.push(set_note(
                    file,
                    &set.id,
                    &format!("<{}>", el.name),
                    describe(el),
                ));
            }
            for (tile, count) in &set.refs {
                if *count == 0 {
                    out_notes.push(set_note(
                        file,
                        &set.id,
                        "<ref count=0>",
                        format!("`{tile}` with count 0 is left out"),
                    ));
                    continue;
                }
                let counts = match fam.refs.iter_mut().find(|(t, _)| t == tile) {
                    Some((_, counts)) => counts,
                    None => {
                        fam.refs.push((tile.clone(), BTreeMap::new()));
                        &mut fam.refs.last_mut().expect("just pushed").1
                    }
                };
                *counts.entry(edition.clone()).or_default() += count;
            }
        }
    }

    families
}

/// Which family defines each tile: the first that refers to it; the others reprint it.
fn owners(families: &[Family], drafts: &BTreeMap<String, Drafted>) -> HashMap<String, usize> {
    let mut owner: HashMap<String, usize> = HashMap::new();
    for (i, fam) in families.iter().enumerate() {
        for (tile, _) in &fam.refs {
            if drafts.contains_key(tile) {
                owner.entry(tile.clone()).or_insert(i);
            }
        }
    }
    owner
}

/// Tiles no tile-set refers to: imported with count 1 into a set named after their file.
fn unreferenced(
    files: &[JczFile],
    (drafts, tile_order, owner): (
        &BTreeMap<String, Drafted>,
        &[String],
        &HashMap<String, usize>,
    ),
    bundled: &Bundled,
    out_notes: &mut Vec<Note>,
) -> Vec<ImportedSet> {
    let mut produced = Vec::new();
    for (f, file) in files.iter().enumerate() {
        let orphans: Vec<&String> = tile_order
            .iter()
            .filter(|t| drafts[*t].file == f && !owner.contains_key(*t))
            .collect();
        if orphans.is_empty() {
            continue;
        }
        let id = format!("{}-unreferenced", family_id(&stem(&file.name)));
        let mut tiles = Vec::new();
        for jcz_id in orphans {
            out_notes.push(Note {
                file: file.name.clone(),
                tile: Some(jcz_id.clone()),
                kind: "unreferenced tile".to_string(),
                detail: format!("no tile-set refers to it; imported with count 1 into set `{id}`"),
            });
            let mut def = drafts[jcz_id].def.clone();
            def.count = Count::All(1);
            tiles.push(def);
        }
        let fam = Family {
            id: id.clone(),
            file: f,
            editions: false,
            refs: Vec::new(),
            tile_sets: Vec::new(),
            removes: Vec::new(),
        };
        produced.push(family_set(id, file, &fam, Vec::new(), tiles, bundled));
    }

    produced
}

/// Requirements: base (unless this is base) and the vocabulary set where it is used.
fn add_requirements(produced: &mut [ImportedSet], bundled: &Bundled) {
    let base = "base".to_string();
    let bush_kind = bundled.bush.as_ref().map(|k| k.id.as_str());
    for set in produced.iter_mut() {
        let uses_vocab = set.set.tiles.iter().any(|t| {
            !t.markers.is_empty()
                || (t.features.keys())
                    .flat_map(|key| t.features_under(key))
                    .any(|f| !f.markers.is_empty() || !f.flowers.is_empty())
                || edges_of(t).any(|e| e == "river" || Some(e) == bush_kind)
                || t.group.is_some()
        });
        let mut requires = Vec::new();
        if set.set.set.id != base {
            requires.push(base.clone());
        }
        if uses_vocab {
            requires.push(VOCABULARY_SET.to_string());
        }
        for r in std::mem::take(&mut set.set.set.requires) {
            if !requires.contains(&r) {
                requires.push(r);
            }
        }
        set.set.set.requires = requires;
    }
}

/// Keeps what an earlier import's vocabulary set declared (an import into the same folder
/// rewrites `jcz.toml`; the sets imported before still use its markers).
pub fn merge_vocabulary(new: &mut TileSetFile, old: &TileSetFile) {
    /// Adds to `new` the entries of `old` whose id it lacks.
    fn keep<T: Clone>(new: &mut Vec<T>, old: &[T], id: impl Fn(&T) -> &str) {
        for entry in old {
            if !new.iter().any(|n| id(n) == id(entry)) {
                new.push(entry.clone());
            }
        }
    }
    keep(&mut new.set.requires, &old.set.requires, |s| s.as_str());
    keep(&mut new.features, &old.features, |k| &k.id);
    keep(&mut new.colours, &old.colours, |c| &c.id);
    keep(&mut new.edge_kinds, &old.edge_kinds, |k| &k.id);
    keep(&mut new.markers, &old.markers, |m| &m.id);
    keep(&mut new.groups, &old.groups, |g| &g.id);
    new.markers.sort_by(|a, b| a.id.cmp(&b.id));
}

/// Records the title of an `<expansion>` for each tile-set family it refers to.
fn expansion_titles(el: &Element, titles: &mut HashMap<String, String>) {
    let Some(title) = el.children.iter().find(|c| c.name == "title") else {
        return;
    };
    for r in el.children.iter().filter(|c| c.name == "ref") {
        if let Some(family) = r.attr("tile-set").and_then(|t| t.split(':').next()) {
            titles.insert(family.to_string(), title.text.clone());
        }
    }
}

fn family_set(
    id: String,
    file: &JczFile,
    fam: &Family,
    requires: Vec<String>,
    tiles: Vec<TileDef>,
    bundled: &Bundled,
) -> ImportedSet {
    let is_base = id == "base";
    let own_kinds: Vec<FeatureKindDef> = (bundled.features.iter())
        .filter(|(set, _)| is_base && *set == id)
        .map(|(_, kind)| kind.clone())
        .collect();
    let name = bundled
        .names
        .get(&id)
        .cloned()
        .unwrap_or_else(|| vocab::readable(&id));
    let description = if fam.tile_sets.is_empty() {
        format!(
            "Imported from JCloisterZone's {}: tiles no tile-set refers to.",
            base_name(&file.name)
        )
    } else {
        format!(
            "Imported from JCloisterZone's {}: tile-set {}.",
            base_name(&file.name),
            fam.tile_sets.join(", ")
        )
    };
    ImportedSet {
        file_name: format!("{id}.toml"),
        from: vec![file.name.clone()],
        set: TileSetFile {
            format: tiledef::FORMAT_VERSION,
            set: SetHeader {
                id,
                name,
                requires,
                description: Some(description),
                figures: Vec::new(),
                removes: Vec::new(),
            },
            editions: if is_base { base_editions() } else { Vec::new() },
            features: own_kinds,
            edge_kinds: if is_base {
                base_edge_kinds()
            } else {
                Vec::new()
            },
            colours: Vec::new(),
            markers: Vec::new(),
            tiles,
            figures: Vec::new(),
            groups: Vec::new(),
            effects: Vec::new(),
            creatures: Vec::new(),
        },
    }
}

fn base_editions() -> Vec<tiledef::model::EditionDef> {
    [("C1", "First edition"), ("C2", "Second and third edition")]
        .into_iter()
        .map(|(id, name)| tiledef::model::EditionDef {
            id: id.to_string(),
            name: name.to_string(),
        })
        .collect()
}

fn edge_kind(id: &str, name: &str, centre: &str, halves: &str, display: &str) -> EdgeKindDef {
    EdgeKindDef {
        id: id.to_string(),
        name: name.to_string(),
        centre: centre.to_string(),
        halves: halves.to_string(),
        meets: BTreeMap::from([(id.to_string(), Meeting::Connect)]),
        display: Some(display.to_string()),
        style: None,
        path: None,
        jcz: None,
    }
}

/// The base vocabulary, as `definitions/base.toml` declares it.
fn base_edge_kinds() -> Vec<EdgeKindDef> {
    let (city, road, field, none) = ("city", "road", "field", "none");
    let jcz = |mut kind: EdgeKindDef, element| {
        kind.jcz = Some(element);
        kind
    };
    vec![
        jcz(
            edge_kind("field", "Field", none, field, "#7fb356"),
            JczEdge::Field,
        ),
        jcz(
            edge_kind("road", "Road", road, field, "#f1ead8"),
            JczEdge::Road,
        ),
        jcz(
            edge_kind("city", "City", city, city, "#c8934f"),
            JczEdge::City,
        ),
    ]
}

/// The `jcz` set: the river edge kind, the markers of JCZ's vocabulary and the tile groups
/// (shared: River II's tiles join the River's group).
fn vocabulary(
    markers: Markers,
    used: &Used,
    groups: &[String],
    files: &[JczFile],
) -> Option<ImportedSet> {
    if markers.defs.is_empty() && used.is_empty() && groups.is_empty() {
        return None;
    }
    // The groups the tiles join, and those they are drawn before, in the table's order.
    let mut wanted: BTreeSet<&str> = groups.iter().map(String::as_str).collect();
    let defs: Vec<GroupDef> = wanted.iter().filter_map(|g| vocab::group_def(g)).collect();
    for def in &defs {
        wanted.extend(def.before.iter().map(String::as_str));
    }
    let mut group_defs: Vec<GroupDef> = Vec::new();
    for g in vocab::TILE_GROUPS {
        if wanted.contains(g.group) && !group_defs.iter().any(|d| d.id == g.group) {
            group_defs.extend(vocab::group_def(g.group));
        }
    }
    let mut edge_kinds = Vec::new();
    if used.river {
        let mut river = edge_kind("river", "River", "none", "field", "#2f7fd0");
        river.style = Some(EdgeStyle::River);
        river.path = Some(vocab::RIVER_PATH);
        river.jcz = Some(JczEdge::River);
        edge_kinds.push(river);
    }
    // Declared as the bundled set declares them, so that both may be loaded together.
    edge_kinds.extend(used.bush.iter().cloned());
    Some(ImportedSet {
        file_name: format!("{VOCABULARY_SET}.toml"),
        from: files.iter().map(|f| f.name.clone()).collect(),
        set: TileSetFile {
            format: tiledef::FORMAT_VERSION,
            set: SetHeader {
                id: VOCABULARY_SET.to_string(),
                name: "JCloisterZone vocabulary".to_string(),
                // Its edge kinds carry base's kinds (the bushes meet base's roads and fields), and
                // its markers go on base's kinds (an inn on a road).
                requires: (!edge_kinds.is_empty()
                    || used.marketplace.is_some()
                    || markers.defs.values().any(|m| m.on != MarkerPlace::Tile))
                .then(|| "base".to_string())
                    .into_iter()
                    .collect(),
                description: Some("What the imported JCloisterZone sets add to the base game's vocabulary: the river, the markers named after JCZ's elements and attributes, the river's tile groups, and FanCloisterZone's bushes and flower colours (as Village Life declares them), shared by the sets that use them.".to_string()),
                figures: Vec::new(),
                removes: Vec::new(),
            },
            editions: Vec::new(),
            features: used.marketplace.iter().cloned().collect(),
            edge_kinds,
            colours: used.colours.clone(),
            markers: markers.defs.into_values().collect(),
            tiles: Vec::new(),
            figures: Vec::new(),
            groups: group_defs,
            effects: Vec::new(),
            creatures: Vec::new(),
        },
    })
}

/// The edge kinds and colours an import's tiles use that the vocabulary set declares.
struct Used {
    river: bool,
    bush: Option<EdgeKindDef>,
    colours: Vec<ColourDef>,
    /// FanCloisterZone's marketplace kind, declared as the bundled set declares it.
    marketplace: Option<FeatureKindDef>,
}

impl Used {
    fn of(drafts: &BTreeMap<String, Drafted>, bundled: &Bundled, river: bool) -> Used {
        let defs = || drafts.values().map(|d| &d.def);
        let bush =
            (bundled.bush.clone()).filter(|b| defs().any(|t| edges_of(t).any(|e| e == b.id)));
        let flowers: BTreeSet<&str> = defs()
            .flat_map(|t| {
                t.features_under(FIELDS)
                    .iter()
                    .flat_map(|f| f.flowers.iter().map(String::as_str))
            })
            .collect();
        let colours = (bundled.colours.iter())
            .filter(|c| flowers.contains(c.id.as_str()))
            .cloned()
            .collect();
        let marketplace = (bundled.features.iter())
            .map(|(_, kind)| kind)
            .find(|kind| kind.jcz.as_deref() == Some("marketplace"))
            .filter(|_| defs().any(|t| t.has_site(MARKETPLACE)))
            .cloned();
        Used {
            river,
            bush,
            colours,
            marketplace,
        }
    }

    fn is_empty(&self) -> bool {
        !self.river && self.bush.is_none() && self.colours.is_empty() && self.marketplace.is_none()
    }
}

fn blank_tile() -> TileDef {
    TileDef {
        id: String::new(),
        name: None,
        aliases: Vec::new(),
        count: Count::All(1),
        start: false,
        like: None,
        edges: None,
        empty: Vec::new(),
        markers: Vec::new(),
        reconstructed: false,
        art: None,
        group: None,
        held_back: false,
        reserve: None,
        moves: Vec::new(),
        features: Default::default(),
    }
}

fn edges_of(def: &TileDef) -> impl Iterator<Item = &str> {
    def.edges
        .iter()
        .flat_map(|e| [e.n.as_str(), e.e.as_str(), e.s.as_str(), e.w.as_str()])
}

/// A JCZ family id as a tilekit set id: `river/1` → `river-1`, `basic` → `base`.
pub fn family_id(family: &str) -> String {
    if family == "basic" {
        return "base".to_string();
    }
    let id = crate::vocab::slug(family);
    if id.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        id
    } else {
        format!("set{id}")
    }
}

/// The file name without its folders.
pub fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

fn stem(name: &str) -> String {
    let base = base_name(name);
    base.strip_suffix(".xml").unwrap_or(base).to_string()
}

/// The JCZ code most of a family's own tiles start with (`WI` for Winter), for the ids of the
/// tiles it reprints; the family id when it has none of its own.
fn own_prefix(fam: &Family, owner: &HashMap<String, usize>, i: usize) -> String {
    let mut codes: BTreeMap<&str, usize> = BTreeMap::new();
    for (tile, _) in &fam.refs {
        if owner.get(tile) == Some(&i)
            && let Some((code, _)) = tile.split_once('/')
        {
            *codes.entry(code).or_default() += 1;
        }
    }
    codes
        .into_iter()
        .max_by_key(|&(code, n)| (n, std::cmp::Reverse(code)))
        .map_or_else(|| fam.id.clone(), |(code, _)| code.to_string())
}

fn count_of(editions: bool, counts: &BTreeMap<String, u32>) -> Count {
    if !editions {
        return Count::All(counts.values().sum());
    }
    let (c1, c2) = (counts.get("C1"), counts.get("C2"));
    match (c1, c2, counts.get("")) {
        (Some(a), Some(b), None) if a == b => Count::All(*a),
        (_, _, Some(&n)) if counts.len() == 1 => Count::All(n),
        _ => {
            // A ref in a tile-set without a suffix, in a family with suffixes, counts in both.
            let all = counts.get("").copied().unwrap_or(0);
            let mut map = BTreeMap::new();
            for ed in ["C1", "C2"] {
                let n = counts.get(ed).copied().unwrap_or(0) + all;
                if n > 0 {
                    map.insert(ed.to_string(), n);
                }
            }
            Count::PerEdition(map)
        }
    }
}

/// Tile ids valid for tilekit, unique across the run.
#[derive(Default)]
struct Ids {
    taken: BTreeSet<String>,
}

impl Ids {
    fn make(&mut self, jcz: &str) -> String {
        let mut id: String = jcz
            .chars()
            .map(|c| match c {
                '/' => '-',
                c if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-') => c,
                _ => '_',
            })
            .collect();
        if !id.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            id.insert(0, 'T');
        }
        id.truncate(60);
        let mut unique = id.clone();
        let mut n = 2;
        while self.taken.contains(&unique) {
            unique = format!("{id}_{n}");
            n += 1;
        }
        self.taken.insert(unique.clone());
        unique
    }
}

/// The marker kinds used so far, by id.
struct Markers {
    defs: BTreeMap<String, MarkerDef>,
    /// The bundled sets' marker kinds (`Bundled::markers`).
    bundled: Vec<MarkerDef>,
}

impl Markers {
    /// The marker id for a JCZ name at a place, declaring it on first use.
    fn get(&mut self, name: &str, on: &MarkerPlace) -> String {
        let known =
            (vocab::by_jcz(name).or_else(|| vocab::by_marker(name))).filter(|k| k.on == on.name());
        let base = known.map_or_else(|| vocab::marker_id(name), |k| k.marker.to_string());
        // A known name used at another place, or a name used at two places, gets the place added.
        let clash = |id: &str, defs: &BTreeMap<String, MarkerDef>| {
            defs.get(id).is_some_and(|d| d.on != *on)
                || (known.is_none() && vocab::by_marker(id).is_some_and(|k| k.on != on.name()))
        };
        let id = if clash(&base, &self.defs) {
            format!("{base}-{}", on.name())
        } else {
            base
        };
        let bundled = (self.bundled.iter()).find(|d| d.id == id && d.on == *on);
        if let Some(def) = bundled {
            self.defs.entry(id.clone()).or_insert_with(|| def.clone());
        }
        self.defs.entry(id.clone()).or_insert_with(|| MarkerDef {
            id: id.clone(),
            name: vocab::readable(&id),
            on: on.clone(),
            rule: known.and_then(|k| k.rule),
            display: None,
            icon: known.and_then(|k| k.icon),
            picture: None,
            scoring: known.and_then(|k| vocab::scoring(k.marker)),
            token: known.and_then(|k| vocab::token(k.marker)),
            held: known.and_then(|k| vocab::held(k.marker)),
            removes: known.and_then(|k| vocab::removes(k.marker)),
            deploy: known.and_then(|k| vocab::deploy(k.marker)),
        });
        // The marker that lets held tiles be drawn is declared with them.
        let until = self.defs.get(&id).and_then(|d| d.held.as_ref());
        if let Some(until) = until.map(|h| h.until.clone())
            && !self.defs.contains_key(&until)
        {
            self.get(&until, &MarkerPlace::Tile);
        }
        id
    }
}

fn set_note(file: &JczFile, set: &str, kind: &str, detail: String) -> Note {
    Note {
        file: file.name.clone(),
        tile: Some(format!("tile-set {set}")),
        kind: kind.to_string(),
        detail,
    }
}

fn describe(el: &Element) -> String {
    let mut s = format!("<{}", el.name);
    for (k, v) in &el.attrs {
        s.push_str(&format!(" {k}=\"{v}\""));
    }
    s.push('>');
    if !el.text.is_empty() {
        s.push_str(&el.text);
    }
    s
}

fn is_true(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" => Some(true),
        "false" | "no" | "0" => Some(false),
        _ => None,
    }
}

type Notes = Vec<(String, String)>;

fn bad_port(file: &JczFile, tile: &JczTile, el: &Element, value: &str) -> Error {
    Error::Port {
        file: file.name.clone(),
        line: tile.line,
        tile: tile.id.clone(),
        element: el.name.clone(),
        value: value.to_string(),
    }
}

fn sides(file: &JczFile, tile: &JczTile, el: &Element) -> Result<Vec<Side>, Error> {
    el.text
        .split_whitespace()
        .map(|t| match t {
            "N" => Ok(Side::N),
            "E" => Ok(Side::E),
            "S" => Ok(Side::S),
            "W" => Ok(Side::W),
            other => Err(bad_port(file, tile, el, other)),
        })
        .collect()
}

/// JCZ's half-edge names: left and right of a side as seen from the centre looking out.
pub fn half_port(name: &str) -> Option<Port> {
    let (side, half) = name.split_at_checked(1)?;
    let side = match side {
        "N" => Side::N,
        "E" => Side::E,
        "S" => Side::S,
        "W" => Side::W,
        _ => return None,
    };
    let [left, _, right] = side.ports();
    match half {
        "L" => Some(left),
        "R" => Some(right),
        _ => None,
    }
}

/// Turns the attributes of a feature into markers, reporting what is not carried.
fn feature_attrs(
    el: &Element,
    skip: &[&str],
    on: MarkerPlace,
    markers: &mut Markers,
    notes: &mut Notes,
) -> Vec<String> {
    let mut out = Vec::new();
    for (k, v) in &el.attrs {
        if skip.contains(&k.as_str()) {
            continue;
        }
        let kind = format!("{}@{k}", el.name);
        if vocab::REPORTED_ATTRS.contains(&k.as_str()) {
            notes.push((kind, format!("\"{v}\"")));
            continue;
        }
        let valued = vocab::KNOWN.iter().find(|known| {
            matches!(known.written, Written::Value(attr) if attr == k) && known.jcz == v.as_str()
        });
        match (valued, is_true(v)) {
            (Some(known), _) => out.push(markers.get(known.marker, &on)),
            (None, Some(true)) => out.push(markers.get(k, &on)),
            (None, Some(false)) => notes.push((kind, format!("\"{v}\" (a flag that is off)"))),
            (None, None) => out.push(markers.get(&format!("{k}-{v}"), &on)),
        }
    }
    out
}

/// A side as JCZ writes it (`N`, `E`, `S`, `W`).
fn side_of(token: &str) -> Option<Side> {
    match token {
        "N" => Some(Side::N),
        "E" => Some(Side::E),
        "S" => Some(Side::S),
        "W" => Some(Side::W),
        _ => None,
    }
}

/// One JCZ tile's layout (id, edges, features, markers); count and set are filled in later.
fn draft(
    file: &JczFile,
    tile: &JczTile,
    bundled: &Bundled,
    markers: &mut Markers,
    notes: &mut Notes,
) -> Result<TileDef, Error> {
    let mut def = blank_tile();
    def.aliases = vec![tile.id.clone()];
    let mut city_sides: Vec<Side> = Vec::new();
    let mut road_sides: Vec<Side> = Vec::new();
    let mut river_sides: Vec<Side> = Vec::new();
    let mut bush_sides: Vec<Side> = Vec::new();
    let mut festival = false;
    for (k, v) in &tile.attrs {
        let jcz_group = (k == "group")
            .then(|| vocab::TILE_GROUPS.iter().find(|g| g.jcz == v))
            .flatten();
        let Some(jcz_group) = jcz_group else {
            notes.push((format!("tile@{k}"), format!("\"{v}\"")));
            continue;
        };
        def.group = Some(jcz_group.group.to_string());
        def.start = jcz_group.start;
        def.held_back = jcz_group.held_back;
        // The spring and the lake are also drawn as what they are.
        if let Some(known) = vocab::KNOWN
            .iter()
            .find(|known| matches!(known.written, Written::Group(g) if g == v))
        {
            def.markers
                .push(markers.get(known.marker, &MarkerPlace::Tile));
        }
    }
    for el in &tile.elements {
        match el.name.as_str() {
            "city" => {
                let (city, s) = city_of(file, tile, el, markers, notes)?;
                city_sides.extend(&s);
                def.features_under_mut(CITIES).push(city);
            }
            "road" => {
                let (road, s, bushes) = road_of(file, tile, el, markers, notes)?;
                road_sides.extend(&s);
                bush_sides.extend(bushes);
                def.features_under_mut(ROADS).push(road);
            }
            "marketplace" => def.put_site(MARKETPLACE),
            "river" => river_sides.extend(sides(file, tile, el)?),
            "field" => {
                let field = field_of(file, tile, el, bundled, markers, notes)?;
                def.features_under_mut(FIELDS).push(field);
            }
            "monastery" => {
                def.put_site(MONASTERY);
                for (k, v) in &el.attrs {
                    if k == WAGON_MOVE {
                        continue;
                    }
                    if vocab::REPORTED_ATTRS.contains(&k.as_str()) || is_true(v) != Some(true) {
                        notes.push((format!("monastery@{k}"), format!("\"{v}\"")));
                    } else {
                        def.markers.push(markers.get(k, &MarkerPlace::Tile));
                    }
                }
            }
            "garden" => {
                def.put_site(GARDEN);
                for (k, v) in &el.attrs {
                    notes.push((format!("garden@{k}"), format!("\"{v}\"")));
                }
            }
            name => {
                festival |= name == "festival";
                def.markers.push(markers.get(name, &MarkerPlace::Tile));
                for (k, v) in &el.attrs {
                    notes.push((format!("{name}@{k}"), format!("\"{v}\"")));
                }
                if !el.text.is_empty() || !el.children.is_empty() {
                    notes.push((format!("<{name}> content"), describe(el)));
                }
            }
        }
    }
    // The tile's only road, with one port, and one bush: the road runs into the bushes (as
    // `export jcz` writes a road ending at them). With more roads the bush is tied to one of
    // them whether it ends there or not, so nothing is read into it.
    if let [bush] = &bush_sides[..]
        && def.features_under(ROADS).len() == 1
        && let [road] = &mut def.features_under_mut(ROADS)[..]
        && road.ports.len() == 1
        && road.end.is_none()
    {
        road.end = Some(RoadEnd::at(*bush).name().to_string());
    }
    let bush_kind = bundled.bush.as_ref().map(|k| k.id.as_str());
    let kind_of = |side: Side| {
        if city_sides.contains(&side) {
            "city"
        } else if road_sides.contains(&side) {
            "road"
        } else if river_sides.contains(&side) {
            "river"
        } else {
            (bush_kind.filter(|_| bush_sides.contains(&side))).unwrap_or("field")
        }
    };
    def.edges = Some(Edges {
        n: kind_of(Side::N).to_string(),
        e: kind_of(Side::E).to_string(),
        s: kind_of(Side::S).to_string(),
        w: kind_of(Side::W).to_string(),
    });
    // Half ports no field owns, on sides whose halves carry fields, are empty on purpose.
    let owned: BTreeSet<Port> = (def.features_under(FIELDS).iter())
        .flat_map(|f| f.ports.clone())
        .collect();
    for side in Side::ALL {
        if kind_of(side) == "city" {
            continue;
        }
        let [left, _, right] = side.ports();
        for half in [left, right] {
            if !owned.contains(&half) {
                def.empty.push(half);
            }
        }
    }
    def.empty.sort_by_key(|p| p.index());
    // JCZ does not say where a one-port road ends: infer it from what else is on the tile.
    let end = infer_end(&def, festival, river_sides.first().copied());
    if def.features.contains_key(ROADS) {
        for road in def.features_under_mut(ROADS) {
            if road.ports.len() == 1 && road.end.is_none() {
                road.end = Some(end.name().to_string());
            }
        }
    }
    // Written in the kinds' order (cities, roads, fields, monastery, …), as the bundled sets are.
    let order = |key: &String| BY_ELEMENT.iter().position(|(_, k)| k == key);
    def.features.sort_by_key(|key, _| order(key));
    def.moves = moves_in_feature_order(&def, tile, notes);
    Ok(def)
}

/// The tile's `wagon-move` links, each in the order of the tile's features, whatever order
/// JCZ's elements come in (an export writes the monastery first), so that a round trip gives
/// the same links.
fn moves_in_feature_order(def: &TileDef, tile: &JczTile, notes: &mut Notes) -> Vec<Vec<String>> {
    let mut moves = moves_of(tile, notes);
    let rank = feature_ranks(def);
    for link in &mut moves {
        link.sort_by_key(|name| rank.get(name).copied());
    }
    moves
}

/// The position of each feature of a tile in written order, by each name `moves` may give it
/// (its ports; a site by its key, which is its kind's id for JCZ's monastery).
fn feature_ranks(def: &TileDef) -> HashMap<String, usize> {
    let mut rank = HashMap::new();
    let mut n = 0;
    for (key, value) in &def.features {
        match value {
            TileFeatures::List(list) => {
                for feature in list {
                    for port in &feature.ports {
                        rank.insert(port.name().to_string(), n);
                    }
                    n += 1;
                }
            }
            _ => {
                rank.insert(key.clone(), n);
                n += 1;
            }
        }
    }
    rank
}

/// JCZ's attribute of the features a wagon moves between (Abbey & Mayor).
const WAGON_MOVE: &str = "wagon-move";

/// A tile's `wagon-move` attributes as `moves`: the features sharing a letter form one link,
/// links in the letters' order, each feature named as `moves` names it (a city or road by its
/// first side's centre port, the monastery by its kind). A letter on one feature alone links
/// nothing: it is reported, as is the attribute on any other element.
fn moves_of(tile: &JczTile, notes: &mut Notes) -> Vec<Vec<String>> {
    let mut links: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for el in &tile.elements {
        let Some(letters) = el.attr(WAGON_MOVE) else {
            continue;
        };
        let name = match el.name.as_str() {
            "monastery" => Some(MONASTERY.to_string()),
            "city" | "road" => (el.text.split_whitespace().next())
                .and_then(side_of)
                .map(|s| s.centre().name().to_string()),
            _ => None,
        };
        // On another element the attribute is reported with that element's attributes.
        let Some(name) = name else {
            continue;
        };
        for letter in letters.split_whitespace() {
            let link = links.entry(letter).or_default();
            if !link.contains(&name) {
                link.push(name.clone());
            }
        }
    }
    let mut out = Vec::with_capacity(links.len());
    for (letter, link) in links {
        if link.len() < 2 {
            notes.push((
                WAGON_MOVE.to_string(),
                format!("\"{letter}\" on one feature only ({})", link.join(", ")),
            ));
        } else {
            out.push(link);
        }
    }
    out
}

/// A `<city>`: its feature (pennants, markers) and its sides.
fn city_of(
    file: &JczFile,
    tile: &JczTile,
    el: &Element,
    markers: &mut Markers,
    notes: &mut Notes,
) -> Result<(FeatureDef, Vec<Side>), Error> {
    let s = sides(file, tile, el)?;
    let pennants = match el.attr("pennants") {
        None => 0,
        Some(p) => p.trim().parse().map_err(|_| Error::Structure {
            file: file.name.clone(),
            line: tile.line,
            message: format!("tile `{}`: pennants=\"{p}\" is not a whole number", tile.id),
        })?,
    };
    let mut city = FeatureDef::at(s.iter().map(|s| s.centre()).collect());
    if pennants > 0 {
        city.by_kind
            .insert(PENNANTS.to_string(), KindValue::Count(pennants));
    }
    city.markers = feature_attrs(
        el,
        &["pennants", WAGON_MOVE],
        MarkerPlace::named("city"),
        markers,
        notes,
    );
    Ok((city, s))
}

/// A `<road>`: its feature (a marketplace end, markers), its sides, and the sides of the
/// bushes FanCloisterZone ties to it.
fn road_of(
    file: &JczFile,
    tile: &JczTile,
    el: &Element,
    markers: &mut Markers,
    notes: &mut Notes,
) -> Result<(FeatureDef, Vec<Side>, Vec<Side>), Error> {
    let s = sides(file, tile, el)?;
    if s.is_empty() || s.len() > 4 {
        return Err(bad_port(file, tile, el, &el.text));
    }
    // FanCloisterZone's road to a marketplace: it ends there.
    let end = el
        .attr("marketplace")
        .map(|_| RoadEnd::Marketplace.name().to_string());
    // FanCloisterZone's bush on a side of the tile, tied to this road.
    let mut bushes = Vec::new();
    if let Some(bush) = el.attr("bush") {
        let side = |t: &str| side_of(t).ok_or_else(|| bad_port(file, tile, el, t));
        for t in bush.split_whitespace() {
            bushes.push(side(t)?);
        }
    }
    let mut road = FeatureDef::at(s.iter().map(|s| s.centre()).collect());
    road.end = end;
    road.markers = feature_attrs(
        el,
        &["marketplace", "bush", WAGON_MOVE],
        MarkerPlace::named("road"),
        markers,
        notes,
    );
    Ok((road, s, bushes))
}

/// A `<field>`: its half sides (or inner), the cities it borders, flowers and markers.
fn field_of(
    file: &JczFile,
    tile: &JczTile,
    el: &Element,
    bundled: &Bundled,
    markers: &mut Markers,
    notes: &mut Notes,
) -> Result<FeatureDef, Error> {
    let mut field = FeatureDef::default();
    let mut cities = Vec::new();
    for t in el.text.split_whitespace() {
        // `I` is an inner field; a tile with two writes the second `II`.
        if t.chars().all(|c| c == 'I') {
            field.inner = true;
        } else {
            field
                .ports
                .push(half_port(t).ok_or_else(|| bad_port(file, tile, el, t))?);
        }
    }
    if let Some(written) = el.attr("city") {
        for t in written.split_whitespace() {
            let side = side_of(t).ok_or_else(|| bad_port(file, tile, el, t))?;
            cities.push(side.centre());
        }
    }
    // FanCloisterZone's flower tokens, named after the bundled colours.
    for token in el.attr("flowers").unwrap_or_default().split_whitespace() {
        match bundled.colour_of_token(token) {
            Some(colour) => field.flowers.push(colour.id.clone()),
            None => notes.push(("field@flowers".into(), format!("\"{token}\""))),
        }
    }
    if !cities.is_empty() {
        field
            .by_kind
            .insert(CITIES.to_string(), KindValue::Ports(cities));
    }
    field.markers = feature_attrs(
        el,
        &["city", "flowers"],
        MarkerPlace::named("field"),
        markers,
        notes,
    );
    Ok(field)
}

/// Where a one-port road of a JCZ tile ends, as the import infers it (JCZ's XML does not say)
/// and writes it in a tile's `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoadEnd {
    /// At a junction (crossroads, village).
    Junction,
    /// At the tile's monastery.
    Monastery,
    /// At the tile's marketplace (Village Life): a separate road of the marketplace network.
    Marketplace,
    /// At the Festival place.
    Festival,
    /// At a gate of one of this tile's cities.
    City,
    /// At one of this tile's own markers (a jetty, a well, a spring, …).
    Marker,
    /// At this tile's own north edge, which carries no road (bushes, a river bank).
    N,
    /// At this tile's own east edge, which carries no road (bushes, a river bank).
    E,
    /// At this tile's own south edge, which carries no road (bushes, a river bank).
    S,
    /// At this tile's own west edge, which carries no road (bushes, a river bank).
    W,
}

impl RoadEnd {
    /// Every end.
    pub const ALL: [RoadEnd; 10] = [
        RoadEnd::Junction,
        RoadEnd::Monastery,
        RoadEnd::Marketplace,
        RoadEnd::Festival,
        RoadEnd::City,
        RoadEnd::Marker,
        RoadEnd::N,
        RoadEnd::E,
        RoadEnd::S,
        RoadEnd::W,
    ];

    /// The end as written in a tile's `end`.
    pub const fn name(self) -> &'static str {
        match self {
            RoadEnd::Junction => "junction",
            RoadEnd::Monastery => "monastery",
            RoadEnd::Marketplace => "marketplace",
            RoadEnd::Festival => "festival",
            RoadEnd::City => "city",
            RoadEnd::Marker => "marker",
            RoadEnd::N => "N",
            RoadEnd::E => "E",
            RoadEnd::S => "S",
            RoadEnd::W => "W",
        }
    }

    /// The side of its own tile the road ends at, when its end is a side.
    pub fn side(self) -> Option<Side> {
        match self {
            RoadEnd::N => Some(Side::N),
            RoadEnd::E => Some(Side::E),
            RoadEnd::S => Some(Side::S),
            RoadEnd::W => Some(Side::W),
            _ => None,
        }
    }

    /// The end at a side of the tile.
    pub fn at(side: Side) -> RoadEnd {
        match side {
            Side::N => RoadEnd::N,
            Side::E => RoadEnd::E,
            Side::S => RoadEnd::S,
            Side::W => RoadEnd::W,
        }
    }
}

/// Where a one-port road ends, inferred from what else is on its tile (JCZ does not say).
pub fn infer_end(tile: &TileDef, festival: bool, river: Option<Side>) -> RoadEnd {
    let roads = tile.features_under(ROADS);
    let cities = tile.features_under(CITIES);
    let dead_ends = roads.iter().filter(|r| r.ports.len() == 1).count();
    if tile.has_site(MONASTERY) {
        RoadEnd::Monastery
    } else if festival {
        RoadEnd::Festival
    } else if dead_ends >= 2 && (cities.is_empty() || junction_fits(tile)) {
        RoadEnd::Junction
    } else if !cities.is_empty() {
        RoadEnd::City
    } else {
        river.map_or(RoadEnd::Junction, RoadEnd::at)
    }
}

/// Whether the one-port roads of a tile can meet at a junction in its centre: the arms of a
/// junction cut the ground into one sector between each two neighbouring arms, so each sector
/// may hold one field only (leaving out the ground a road or river that stays in the sector
/// encloses). Where a sector holds two fields, something else divides it: the roads end at the
/// cities' gates (`AM/CCRR`, `TB/RRC`).
fn junction_fits(tile: &TileDef) -> bool {
    let roads = tile.features_under(ROADS);
    let arms: Vec<usize> = roads
        .iter()
        .filter(|r| r.ports.len() == 1)
        .map(|r| r.ports[0].index())
        .collect();
    let field_at = |port: usize| {
        (tile.features_under(FIELDS).iter()).position(|f| f.ports.iter().any(|p| p.index() == port))
    };
    // Ports strictly inside the short arc of a two-port road (the ground it encloses).
    let enclosed = |port: usize| {
        roads.iter().filter(|r| r.ports.len() == 2).any(|r| {
            let (a, b) = (r.ports[0].index(), r.ports[1].index());
            let (from, len) = if (b + 12 - a) % 12 <= 6 {
                (a, (b + 12 - a) % 12)
            } else {
                (b, (a + 12 - b) % 12)
            };
            let offset = (port + 12 - from) % 12;
            offset > 0 && offset < len
        })
    };
    let mut sorted = arms.clone();
    sorted.sort_unstable();
    sorted.iter().enumerate().all(|(i, &from)| {
        let to = sorted[(i + 1) % sorted.len()];
        let span = match (to + 12 - from) % 12 {
            0 => 12,
            n => n,
        };
        let mut fields = (1..span)
            .map(|k| (from + k) % 12)
            .filter(|&p| !enclosed(p))
            .filter_map(field_at);
        let first = fields.next();
        fields.all(|f| Some(f) == first)
    })
}
