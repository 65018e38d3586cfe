//! tilekit-analysis owns the analysis host: an in-memory model of the loaded definition files,
//! changed by `AnalysisHost::apply_change` ("this file now reads …" / "this file is gone") and
//! asked questions — diagnostics per file, the tile set (or the last good one, marked stale), a
//! tile's picture, the print sheet's pages, the compiled tables, the symbols an editor
//! completes and the schema docs of a key. It is the shape of rust-analyzer's `AnalysisHost`:
//! the core does no I/O (the edges — file watcher, HTTP server, stdio language server — read
//! files and hand the host their text), and a change recomputes only what it touches: each
//! file's parse and schema check is kept per file and redone only when its text changes; the
//! cross-file checks run once per batch of changes, on the first question; pictures are cached
//! by the content of the tile and the vocabulary they are drawn with, so a save re-draws only
//! the tiles whose drawing changed. The games played on the tables are the `game` module's
//! sessions: started here on the current tables, then kept and asked by the edge.

mod bundled;
mod docs;
pub mod game;

pub use bundled::{BUNDLED_SUFFIX, declared_set};
pub use docs::{KeyInfo, KeyShape, key_doc, keys_of, values_of};

use engine::Tables;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use tiledef::schema::SchemaChecker;
use tiledef::{Diagnostic, FileCheck, Severity, Source, TileSet};
use tilekit_render::sheet::{SheetLayout, SheetOptions};
use tilekit_render::{DrawOptions, Label};

/// What a question about the files could not answer.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AnalysisError {
    /// No tile set has been valid yet, so there is nothing to draw or play.
    #[error("no valid tile set yet: fix the errors first")]
    NoTileSet,
    /// No tile with this id (or alias) in the tile set.
    #[error("no tile `{0}` in the loaded sets")]
    UnknownTile(String),
    /// No figure with this id has a picture of its own.
    #[error("no figure `{0}` with a picture in the loaded sets")]
    NoFigurePicture(String),
    /// No such page in the print sheet.
    #[error("no page {0} in the print sheet (it has {1})")]
    UnknownPage(usize, usize),
    /// No set with this id is loaded.
    #[error("no set `{0}` in the loaded files")]
    UnknownSet(String),
    /// The renderer failed.
    #[error("{0}")]
    Render(String),
    /// The tables could not be compiled.
    #[error("{0}")]
    Compile(String),
    /// A game could not be started.
    #[error("{0}")]
    Game(#[from] game::GameError),
}

/// The most pixels a picture asked of the host may have on a side.
pub const MAX_PICTURE_PX: u32 = 1024;

/// The size a picture is drawn at for a size asked: rounded up to a multiple of 32 within
/// 32–`MAX_PICTURE_PX`, so that asking every size cannot fill the cache.
pub fn picture_px(px: u32) -> u32 {
    px.clamp(32, MAX_PICTURE_PX).div_ceil(32) * 32
}

/// A sheet's layout, or why it cannot be laid out.
type SheetResult = Result<Arc<SheetLayout>, String>;

/// A cached sheet page: the revision, the set (None: every set), the page and the dpi.
type PageKey = (u64, Option<usize>, usize, u32);

/// One loaded file.
struct File {
    check: FileCheck,
    /// Its text's hash: a change to the same text is no change.
    text_hash: u64,
}

/// A tile set that was valid, with what is derived from it.
pub struct Good {
    /// The revision of the files it was checked from.
    pub revision: u64,
    /// The resolved tile set.
    pub tileset: TileSet,
    /// The compiled tables (or why they could not be compiled), compiled on the first question:
    /// a save that nobody plays after costs no compilation.
    tables: std::sync::OnceLock<Result<Arc<Tables>, String>>,
    /// Per tile (index into `tileset.tiles`), a key of everything its picture depends on.
    pub tile_keys: Vec<u64>,
    /// The print sheet's layout, of every set (`None`) or of one (its index), made when first
    /// asked.
    sheets: std::sync::Mutex<HashMap<Option<usize>, SheetResult>>,
}

/// The answer to "how do the files stand now".
pub struct Analysis {
    /// The revision of the files this answers for (one more per change).
    pub revision: u64,
    /// Every diagnostic, in file order then position.
    pub diagnostics: Vec<Diagnostic>,
    /// Per file: name, set id when it says one, tiles, errors, warnings.
    pub files: Vec<tiledef::FileSummary>,
    /// The tile set of the current files, else the last good one.
    pub good: Option<Arc<Good>>,
    /// Whether `good` is older than the files (they have errors now).
    pub stale: bool,
}

/// Where a diagnostic stands, for `file:line:col` and editor ranges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file's name.
    pub file: String,
    /// 1-based line and column (characters) of the start.
    pub start: (usize, usize),
    /// 1-based line and column of the end.
    pub end: (usize, usize),
    /// The tile (id as written) the diagnostic is inside, if any.
    pub tile: Option<String>,
}

/// Names an editor completes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symbols {
    /// Port names, `NNW` … `WNW`, and the side names `N`, `E`, `S`, `W`.
    pub ports: Vec<&'static str>,
    /// Edge kind ids of every loaded file.
    pub edge_kinds: Vec<String>,
    /// Colour ids.
    pub colours: Vec<String>,
    /// Marker ids.
    pub markers: Vec<String>,
    /// Set ids (for `requires`).
    pub sets: Vec<String>,
    /// Tile ids (for `like`).
    pub tiles: Vec<String>,
    /// Edition ids (the keys of `count` tables).
    pub editions: Vec<String>,
    /// The feature kinds in scope, in load order: what tiles write under their keys.
    pub feature_kinds: Vec<KindSymbol>,
}

/// A feature kind as an editor offers it: the key tiles write, what its features take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindSymbol {
    /// Its id (`lake`), which edges, ends and `bordered` name.
    pub id: String,
    /// The key tiles write its features under (`lakes`).
    pub key: String,
    /// How it lies on a tile.
    pub shape: tiledef::Shape,
    /// The key its emblem count is written under, if it has one (`pennants`).
    pub emblem: Option<String>,
    /// The kind in a sentence, for hover and completion docs.
    pub sentence: String,
}

impl KindSymbol {
    fn of(def: &tiledef::FeatureKindDef, set: &str) -> KindSymbol {
        use tiledef::{Completion, Shape};
        let shape = match def.shape {
            Shape::Area => "an area",
            Shape::Line => "a line",
            Shape::Region => "a region",
            Shape::Site => "a site",
        };
        let complete = match def.complete {
            Completion::Closed => "completed when closed",
            Completion::Range => "completed when its range is placed",
            Completion::Never => "scored at the end only",
        };
        let rate = |r: &Option<tiledef::KindRates>| r.as_ref().and_then(|r| r.tile).unwrap_or(0);
        let written = match def.shape {
            Shape::Site => format!("`{} = true`", def.tile_key()),
            _ => format!("`{} = [{{ ports = [...] }}]`", def.tile_key()),
        };
        KindSymbol {
            id: def.id.clone(),
            key: def.tile_key(),
            shape: def.shape,
            emblem: def.emblem.as_ref().map(|e| e.count_key()),
            sentence: format!(
                "{} (`{}`, set `{set}`): {shape}, {complete}; {} a tile complete, {} unfinished. Written {written}.",
                def.name,
                def.id,
                rate(&def.score.complete),
                rate(&def.score.unfinished),
            ),
        }
    }
}

/// The analysis host: the files, what was derived from them, and the caches.
pub struct AnalysisHost {
    schema: SchemaChecker,
    /// The files, in the order they were first given (load order).
    files: Vec<File>,
    revision: u64,
    current: Option<Arc<Analysis>>,
    last_good: Option<Arc<Good>>,
    pictures: HashMap<(u64, u32, bool), Arc<[u8]>>,
    pages: HashMap<PageKey, Arc<[u8]>>,
    /// By tile key: why the tile's picture does not say its data (`None`: it does), so a save
    /// checks again only the tiles whose drawing changed.
    picture_checks: HashMap<u64, Option<String>>,
}

impl Default for AnalysisHost {
    fn default() -> Self {
        AnalysisHost::new()
    }
}

fn hash_of(value: &impl Hash) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

impl AnalysisHost {
    /// A host with no files.
    pub fn new() -> AnalysisHost {
        AnalysisHost {
            schema: SchemaChecker::new(),
            files: Vec::new(),
            revision: 0,
            current: None,
            last_good: None,
            pictures: HashMap::new(),
            pages: HashMap::new(),
            picture_checks: HashMap::new(),
        }
    }

    /// Says that a file now reads `text` (`Some`), or is gone (`None`). A new file is loaded
    /// after the others. Returns whether anything changed.
    pub fn apply_change(&mut self, name: &str, text: Option<String>) -> bool {
        let at = self.files.iter().position(|f| f.check.name() == name);
        match (at, text) {
            (None, None) => return false,
            (Some(i), None) => {
                self.files.remove(i);
            }
            (at, Some(text)) => {
                let text_hash = hash_of(&text);
                if at.is_some_and(|i| self.files[i].text_hash == text_hash) {
                    return false;
                }
                let check = tiledef::check_file(
                    Source {
                        name: name.to_string(),
                        text,
                    },
                    &self.schema,
                );
                let file = File { check, text_hash };
                match at {
                    Some(i) => self.files[i] = file,
                    None => self.files.push(file),
                }
            }
        }
        self.revision += 1;
        self.current = None;
        true
    }

    /// The names of the loaded files, in load order.
    pub fn file_names(&self) -> Vec<&str> {
        self.files.iter().map(|f| f.check.name()).collect()
    }

    /// The current text of a loaded file.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.file(name).map(|f| &**f.check.source().inner())
    }

    fn file(&self, name: &str) -> Option<&File> {
        self.files.iter().find(|f| f.check.name() == name)
    }

    /// The revision of the files: one more per change.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// How the files stand: the cross-file checks run here, once per batch of changes.
    pub fn analysis(&mut self) -> Arc<Analysis> {
        if let Some(a) = &self.current {
            return a.clone();
        }
        let checks: Vec<FileCheck> = self.files.iter().map(|f| f.check.clone()).collect();
        let mut report = tiledef::check_files(&checks);
        // No files is no tile set, not an empty one.
        if self.files.is_empty() {
            report.tileset = None;
        }
        let keys = report.tileset.as_ref().map(tile_keys).unwrap_or_default();
        self.check_pictures(&mut report, &keys);
        let tileset = report.tileset;
        let fresh = tileset.map(|tileset| {
            let tile_keys = keys;
            Arc::new(Good {
                revision: self.revision,
                tileset,
                tables: std::sync::OnceLock::new(),
                tile_keys,
                sheets: std::sync::Mutex::default(),
            })
        });
        let stale = fresh.is_none() && self.last_good.is_some();
        if let Some(good) = &fresh {
            self.last_good = Some(good.clone());
            // Pictures of tiles no longer drawn this way are dropped, so the cache stays the
            // size of the tile set however long the session.
            let keys: std::collections::HashSet<u64> = good.tile_keys.iter().copied().collect();
            self.pictures.retain(|(k, ..), _| keys.contains(k));
            self.pages.retain(|(r, ..), _| *r == good.revision);
        }
        let analysis = Arc::new(Analysis {
            revision: self.revision,
            diagnostics: report.diagnostics,
            files: report.files,
            good: self.last_good.clone(),
            stale,
        });
        self.current = Some(analysis.clone());
        analysis
    }

    /// Adds a warning for each tile of a valid report whose picture does not say its data
    /// (`tilekit_render::check_regions`), checking only tiles not checked before as drawn now.
    fn check_pictures(&mut self, report: &mut tiledef::Report, keys: &[u64]) {
        let Some(set) = &report.tileset else {
            return;
        };
        let todo: Vec<usize> = (0..set.tiles.len())
            .filter(|&t| !self.picture_checks.contains_key(&keys[t]))
            .collect();
        let checked: Vec<(u64, Option<String>)> = todo
            .par_iter()
            .map(|&t| {
                let tile = &set.tiles[t];
                // A tile with its own artwork is shown by it, not by the generated picture.
                let why = tile
                    .artwork
                    .is_none()
                    .then(|| tilekit_render::check_regions(set, tile).err());
                (keys[t], why.flatten())
            })
            .collect();
        self.picture_checks.extend(checked);
        let keep: std::collections::HashSet<u64> = keys.iter().copied().collect();
        self.picture_checks.retain(|k, _| keep.contains(k));
        let warnings: Vec<Diagnostic> = keys
            .iter()
            .enumerate()
            .filter_map(|(t, k)| {
                let why = self.picture_checks.get(k)?.as_deref()?;
                tilekit_render::picture_warning(report, t, why)
            })
            .collect();
        for d in warnings {
            report.push(d);
        }
    }

    /// The diagnostics of one file.
    pub fn file_diagnostics(&mut self, name: &str) -> Vec<Diagnostic> {
        self.analysis()
            .diagnostics
            .iter()
            .filter(|d| d.file() == name)
            .cloned()
            .collect()
    }

    /// Where a diagnostic stands, and the tile it is inside.
    pub fn locate(&self, d: &Diagnostic) -> Location {
        let source = &d.source;
        let start = source.line_col(d.span.start);
        let end = source.line_col(d.span.end);
        let tile = self
            .file(d.file())
            .and_then(|f| tile_at(&f.check, d.span.start));
        Location {
            file: d.file().to_string(),
            start,
            end,
            tile,
        }
    }

    /// The ids of the figures of the current or last good tile set that have an author's
    /// picture (`figure_png` draws them).
    pub fn figures_with_pictures(&mut self) -> Vec<String> {
        let Some(good) = self.analysis().good.clone() else {
            return Vec::new();
        };
        (good.tileset.followers.iter())
            .filter(|f| f.picture.is_some())
            .map(|f| f.id.clone())
            .collect()
    }

    /// A figure's own picture as RGBA PNG bytes, `px` pixels square, from the current or last
    /// good tile set. Read from its file on each call, as a tile's artwork is: it is small.
    pub fn figure_png(&mut self, id: &str, px: u32) -> Result<Vec<u8>, AnalysisError> {
        let good = self
            .analysis()
            .good
            .clone()
            .ok_or(AnalysisError::NoTileSet)?;
        let found = (good.tileset.followers.iter()).find(|f| f.id == id);
        let path = found
            .and_then(|f| f.picture.as_ref())
            .ok_or_else(|| AnalysisError::NoFigurePicture(id.to_string()))?;
        tilekit_render::render_picture_png(path, picture_px(px), &format!("figure {id}"))
            .map_err(|e| AnalysisError::Render(e.to_string()))
    }

    /// A tile's picture as PNG bytes, `px` pixels square, from the current or last good tile
    /// set; cached by the tile's content.
    pub fn tile_png(
        &mut self,
        id: &str,
        px: u32,
        overlay: bool,
    ) -> Result<Arc<[u8]>, AnalysisError> {
        let good = self
            .analysis()
            .good
            .clone()
            .ok_or(AnalysisError::NoTileSet)?;
        let index = tile_index(&good.tileset, id)?;
        let key = (good.tile_keys[index], picture_px(px), overlay);
        if let Some(png) = self.pictures.get(&key) {
            return Ok(png.clone());
        }
        let png: Arc<[u8]> = draw(&good.tileset, index, key.1, overlay)?.into();
        self.pictures.insert(key, png.clone());
        Ok(png)
    }

    /// Draws, in parallel, every picture of the tile set not in the cache (after a change:
    /// only the tiles whose drawing changed). Returns how many were drawn.
    pub fn render_missing(&mut self, px: u32, overlay: bool) -> Result<usize, AnalysisError> {
        let Some(good) = self.analysis().good.clone() else {
            return Ok(0);
        };
        let px = picture_px(px);
        let missing: Vec<usize> = (0..good.tileset.tiles.len())
            .filter(|&i| {
                !self
                    .pictures
                    .contains_key(&(good.tile_keys[i], px, overlay))
            })
            .collect();
        let drawn: Vec<(usize, Vec<u8>)> = missing
            .par_iter()
            .map(|&i| draw(&good.tileset, i, px, overlay).map(|png| (i, png)))
            .collect::<Result<_, _>>()?;
        for (i, png) in &drawn {
            self.pictures
                .insert((good.tile_keys[*i], px, overlay), png.as_slice().into());
        }
        Ok(drawn.len())
    }

    /// The print sheet of every set (`set` None) or of one set (its id): the good tile set,
    /// the layout and its page count.
    pub fn sheet(
        &mut self,
        set: Option<&str>,
    ) -> Result<(Arc<Good>, Arc<SheetLayout>, SheetOptions), AnalysisError> {
        let good = self
            .analysis()
            .good
            .clone()
            .ok_or(AnalysisError::NoTileSet)?;
        let index = match set {
            None => None,
            Some(id) => Some(
                (good.tileset.sets.iter())
                    .position(|s| s.id == id)
                    .ok_or_else(|| AnalysisError::UnknownSet(id.to_string()))?,
            ),
        };
        let options = SheetOptions {
            edition: good.tileset.default_edition(),
            sets: index.map(|i| vec![i]),
            ..SheetOptions::default()
        };
        let layout = {
            let mut sheets = good.sheets.lock().unwrap_or_else(|e| e.into_inner());
            sheets
                .entry(index)
                .or_insert_with(|| {
                    tilekit_render::sheet::layout(&good.tileset, &options)
                        .map(Arc::new)
                        .map_err(|e| e.to_string())
                })
                .clone()
        };
        let layout = layout.map_err(AnalysisError::Render)?;
        Ok((good, layout, options))
    }

    /// One page of the print sheet (of every set, or of one) as PNG at `dpi`, cached per tile
    /// set.
    pub fn sheet_page_png(
        &mut self,
        set: Option<&str>,
        page: usize,
        dpi: u32,
    ) -> Result<Arc<[u8]>, AnalysisError> {
        let (good, layout, options) = self.sheet(set)?;
        let pages = layout.pages.len();
        if page >= pages {
            return Err(AnalysisError::UnknownPage(page, pages));
        }
        let dpi = dpi.clamp(*tilekit_render::sheet::DPI.start(), 150);
        let index = options.sets.as_ref().and_then(|s| s.first().copied());
        let key = (good.revision, index, page, dpi);
        if let Some(png) = self.pages.get(&key) {
            return Ok(png.clone());
        }
        let options = SheetOptions { dpi, ..options };
        let render = |e: tilekit_render::RenderError| AnalysisError::Render(e.to_string());
        let pixmap = tilekit_render::sheet::page_pixmap(&good.tileset, &layout, &options, page)
            .map_err(render)?;
        let png: Arc<[u8]> = tilekit_render::raster::encode_png(&pixmap)
            .map_err(render)?
            .into();
        self.pages.insert(key, png.clone());
        Ok(png)
    }

    /// The compiled tables of the current or last good tile set.
    pub fn tables(&mut self) -> Result<Arc<Tables>, AnalysisError> {
        let good = self
            .analysis()
            .good
            .clone()
            .ok_or(AnalysisError::NoTileSet)?;
        good.tables
            .get_or_init(|| {
                engine::compile(&good.tileset)
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(AnalysisError::Compile)
    }

    /// A new game on the current (or last good) tables; it keeps those tables however the
    /// files change after.
    pub fn start_game(
        &mut self,
        seats: Vec<game::Seat>,
        seed: u64,
        choice: game::GameChoice,
    ) -> Result<game::Session, AnalysisError> {
        let tables = self.tables()?;
        Ok(game::Session::new(tables, seats, seed, choice)?)
    }

    /// The names an editor completes, from every file that got past the schema (valid
    /// together or not: completion is needed most while a file is broken).
    pub fn symbols(&self) -> Symbols {
        self.symbols_in_scope(None)
    }

    /// The names a file of set `set` requiring `requires` may use: those of its own set and
    /// the sets it requires, directly or not (every set's id, for `requires`). `None`: every
    /// loaded file's.
    pub fn symbols_in_scope(&self, scope: Option<(&str, &[String])>) -> Symbols {
        let models: Vec<&tiledef::TileSetFile> =
            self.files.iter().filter_map(|f| f.check.model()).collect();
        let in_scope = scope.map(|(set, requires)| {
            let mut seen: Vec<&str> = vec![set];
            let mut todo: Vec<&str> = requires.iter().map(String::as_str).collect();
            while let Some(id) = todo.pop() {
                if seen.contains(&id) {
                    continue;
                }
                seen.push(id);
                for m in models.iter().filter(|m| m.set.id == id) {
                    todo.extend(m.set.requires.iter().map(String::as_str));
                }
            }
            seen
        });
        let mut s = Symbols {
            ports: tiledef::Port::ALL.iter().map(|p| p.name()).collect(),
            ..Symbols::default()
        };
        for m in &models {
            s.sets.push(m.set.id.clone());
            if in_scope
                .as_ref()
                .is_some_and(|ids| !ids.contains(&m.set.id.as_str()))
            {
                continue;
            }
            s.edge_kinds
                .extend(m.edge_kinds.iter().map(|k| k.id.clone()));
            s.colours.extend(m.colours.iter().map(|c| c.id.clone()));
            s.markers.extend(m.markers.iter().map(|k| k.id.clone()));
            s.tiles.extend(m.tiles.iter().map(|t| t.id.clone()));
            s.editions.extend(m.editions.iter().map(|e| e.id.clone()));
            for def in &m.features {
                if !s.feature_kinds.iter().any(|k| k.id == def.id) {
                    s.feature_kinds.push(KindSymbol::of(def, &m.set.id));
                }
            }
        }
        for list in [
            &mut s.edge_kinds,
            &mut s.colours,
            &mut s.markers,
            &mut s.sets,
            &mut s.tiles,
            &mut s.editions,
        ] {
            list.sort();
            list.dedup();
        }
        s
    }

    /// The declaration of a vocabulary id as its file writes it (TOML), with the file's name,
    /// for an editor's hover on a use of it: the first loaded file declaring it.
    pub fn definition(&self, vocabulary: Vocabulary, id: &str) -> Option<(String, String)> {
        // Written under its own key, so that nested tables get their full headers
        // (`[edge_kind.meets]`).
        fn toml_of<T: serde::Serialize>(key: &str, def: &T) -> Option<String> {
            let table = std::collections::BTreeMap::from([(key, [def])]);
            toml::to_string(&table).ok()
        }
        fn set_toml(set: &tiledef::model::SetHeader) -> Option<String> {
            toml::to_string(&std::collections::BTreeMap::from([("set", set)])).ok()
        }
        self.files.iter().find_map(|f| {
            let m = f.check.model()?;
            let text = match vocabulary {
                Vocabulary::EdgeKind => {
                    toml_of("edge_kind", m.edge_kinds.iter().find(|d| d.id == id)?)
                }
                Vocabulary::Colour => toml_of("colour", m.colours.iter().find(|d| d.id == id)?),
                Vocabulary::Marker => toml_of("marker", m.markers.iter().find(|d| d.id == id)?),
                Vocabulary::Set => (m.set.id == id).then(|| set_toml(&m.set))?,
                Vocabulary::Tile => toml_of("tile", m.tiles.iter().find(|d| d.id == id)?),
                Vocabulary::FeatureKind => {
                    toml_of("feature", m.features.iter().find(|d| d.id == id)?)
                }
            }?;
            Some((f.check.name().to_string(), text))
        })
    }
}

/// The kinds of id a definitions file refers to by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vocabulary {
    /// `edges`, `meets`.
    EdgeKind,
    /// `flowers`.
    Colour,
    /// `markers`.
    Marker,
    /// `requires`.
    Set,
    /// `like`.
    Tile,
    /// `centre`, `halves`, a line's `end`, `bordered`.
    FeatureKind,
}

/// Per tile, a key of everything its picture depends on: the tile and the vocabulary it is
/// drawn with (not the sets' names, which only the sheet's backs print).
fn tile_keys(set: &TileSet) -> Vec<u64> {
    let vocabulary = hash_of(&format!(
        "{:?}{:?}{:?}",
        set.edge_kinds, set.colours, set.markers
    ));
    set.tiles
        .iter()
        .map(|t| hash_of(&(vocabulary, format!("{t:?}"))))
        .collect()
}

/// The index of a tile by id or alias.
fn tile_index(set: &TileSet, id: &str) -> Result<usize, AnalysisError> {
    set.tiles
        .iter()
        .position(|t| t.id == id)
        .or_else(|| {
            set.tiles
                .iter()
                .position(|t| t.aliases.iter().any(|a| a == id))
        })
        .ok_or_else(|| AnalysisError::UnknownTile(id.to_string()))
}

fn draw(set: &TileSet, index: usize, px: u32, overlay: bool) -> Result<Vec<u8>, AnalysisError> {
    let options = DrawOptions {
        overlay,
        label: Label::None,
        artwork: true,
    };
    tilekit_render::render_tile_png(set, &set.tiles[index], px, &options)
        .map_err(|e| AnalysisError::Render(e.to_string()))
}

/// The id of the tile whose table holds a byte offset: the last `[[tile]]` starting before it
/// (a tile's keys follow its header), if the offset is inside the tiles at all.
fn tile_at(check: &FileCheck, offset: usize) -> Option<String> {
    let text: &str = check.source().inner();
    // The file may not have parsed far enough for spans: read the headers from the text.
    let mut found = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at > offset {
            break;
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("[[tile]]") {
            found = Some(at);
        } else if trimmed.starts_with('[') && !trimmed.starts_with("[tile.") {
            found = None;
        }
        at += line.len();
    }
    let start = found?;
    let mut lines = text[start..].lines().skip(1);
    let body =
        std::iter::from_fn(|| lines.next()).take_while(|l| !l.trim_start().starts_with("[["));
    body.into_iter().find_map(|line| {
        let rest = line.trim_start().strip_prefix("id")?.trim_start();
        let value = rest.strip_prefix('=')?.trim();
        let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let inner = &value[1..];
        Some(inner[..inner.find(quote)?].to_string())
    })
}

/// Whether a diagnostic is an error (and not a warning).
pub fn is_error(d: &Diagnostic) -> bool {
    d.severity == Severity::Error
}

#[cfg(test)]
mod tests;
