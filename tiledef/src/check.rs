//! Semantic checks and resolution: what no schema can say, and the step from the files as
//! written to one resolved `TileSet`.
//!
//! Every problem becomes a diagnostic pointing at the key or value it is about; checking goes on
//! after a problem so that one run reports them all. A `TileSet` is returned only when no error
//! was found.

use crate::diagnostic::{Diagnostic, SharedSource};
use crate::model::{Count, MarkerPlace, Meeting, PortCarries, RoadEnd, TileDef, TileSetFile};
use crate::port::{Port, Side};
use crate::schema::closest;
use crate::source::SpanMap;
use crate::tileset::{
    Colour, EdgeKind, Edition, Feature, FeatureKind, MarkerKind, Rgb, SetInfo, Tile, TileSet,
};
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

/// A file that parsed and matched the schema.
pub struct Parsed {
    /// Its text and name.
    pub source: SharedSource,
    /// Spans by JSON pointer.
    pub spans: SpanMap,
    /// Its content.
    pub file: TileSetFile,
    /// The folder relative paths in it are resolved against.
    pub dir: PathBuf,
}

/// A vocabulary entry with the file that declared it.
struct Declared {
    id: String,
    file: usize,
}

/// Checks the parsed files together and resolves them into a tile set.
pub fn check(files: &[Parsed], diags: &mut Vec<Diagnostic>) -> Option<TileSet> {
    let errors_before = count_errors(diags);
    let mut cx = Checker { files, diags };
    let order = cx.set_order();
    let visible = cx.visibility(&order);

    let editions = cx.declare(&order, |f| {
        f.editions
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id.clone(), format!("/edition/{i}/id"), "edition"))
            .collect()
    });
    let edge_ids = cx.declare(&order, |f| {
        f.edge_kinds
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id.clone(), format!("/edge_kind/{i}/id"), "edge kind"))
            .collect()
    });
    let colour_ids = cx.declare(&order, |f| {
        f.colours
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), format!("/colour/{i}/id"), "colour"))
            .collect()
    });
    let marker_ids = cx.declare(&order, |f| {
        f.markers
            .iter()
            .enumerate()
            .map(|(i, m)| (m.id.clone(), format!("/marker/{i}/id"), "marker kind"))
            .collect()
    });
    let vocab = Vocabulary {
        editions,
        edge_kinds: edge_ids,
        colours: colour_ids,
        markers: marker_ids,
        visible,
    };

    let edge_kinds = cx.edge_kinds(&vocab);
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
                    colours: (vocab.colours.iter().enumerate())
                        .filter(|(_, d)| d.file == f)
                        .map(|(i, _)| i)
                        .collect(),
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
                let m = files[d.file].file.markers.iter().find(|m| m.id == d.id);
                let m = m.expect("declared markers come from their file");
                MarkerKind {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    on: m.on,
                    rule: m.rule,
                    display: m.display.as_deref().and_then(Rgb::parse),
                }
            })
            .collect(),
        tiles: Vec::new(),
        start_tile: 0,
    };
    if tileset.editions.is_empty() {
        tileset.editions.push(Edition {
            id: "default".to_string(),
            name: "Default".to_string(),
        });
    }

    let mut tile_ptrs = Vec::new();
    for (set_index, &f) in order.iter().enumerate() {
        for (t, def) in files[f].file.tiles.iter().enumerate() {
            let ptr = format!("/tile/{t}");
            if let Some(tile) = cx.tile(f, &ptr, def, set_index, &vocab, &tileset) {
                tileset.tiles.push(tile);
                tile_ptrs.push((f, ptr));
            }
        }
    }
    cx.unique_tile_ids(&order);
    cx.start_tile(&order, &mut tileset);
    cx.rotation_twins(&tileset, &tile_ptrs);
    cx.unmeetable(&tileset, &tile_ptrs);

    (count_errors(cx.diags) == errors_before).then_some(tileset)
}

fn count_errors(diags: &[Diagnostic]) -> usize {
    diags
        .iter()
        .filter(|d| d.severity == crate::Severity::Error)
        .count()
}

struct Vocabulary {
    editions: Vec<Declared>,
    edge_kinds: Vec<Declared>,
    colours: Vec<Declared>,
    markers: Vec<Declared>,
    /// `visible[f]`: the files whose vocabulary file `f` may use (itself and what it requires).
    visible: Vec<BTreeSet<usize>>,
}

struct Checker<'a> {
    files: &'a [Parsed],
    diags: &'a mut Vec<Diagnostic>,
}

impl Checker<'_> {
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
        let (line, col) =
            crate::diagnostic::line_col(f.source.inner(), f.spans.value_span(ptr).start);
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
        fn visit(
            cx: &mut Checker<'_>,
            by_id: &HashMap<&str, usize>,
            f: usize,
            state: &mut Vec<u8>,
            order: &mut Vec<usize>,
        ) {
            if state[f] != 0 {
                return;
            }
            state[f] = 1;
            let files = cx.files;
            for (r, req) in files[f].file.set.requires.iter().enumerate() {
                let ptr = format!("/set/requires/{r}");
                match by_id.get(req.as_str()) {
                    Some(&g) if state[g] == 1 => {
                        cx.error(
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
                    Some(&g) => visit(cx, by_id, g, state, order),
                    None => {
                        let set = &files[f].file.set.id;
                        let loaded: Vec<String> = by_id.keys().map(|k| k.to_string()).collect();
                        let hint = match closest(req, &loaded) {
                            Some(best) => format!("did you mean `{best}`?"),
                            None => format!(
                                "load the file of `{req}` too (e.g. `tilekit validate {req}.toml {}`); until then the names it declares are unknown here",
                                files[f].source.name()
                            ),
                        };
                        cx.error(
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
            state[f] = 2;
            order.push(f);
        }
        for (f, file) in files.iter().enumerate() {
            if by_id.get(file.file.set.id.as_str()) == Some(&f) {
                visit(self, &by_id, f, &mut state, &mut order);
            }
        }
        order
    }

    fn visibility(&self, order: &[usize]) -> Vec<BTreeSet<usize>> {
        let mut visible: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); self.files.len()];
        for &f in order {
            let mut set = BTreeSet::from([f]);
            for req in &self.files[f].file.set.requires {
                if let Some(g) = order
                    .iter()
                    .copied()
                    .find(|&g| &self.files[g].file.set.id == req)
                {
                    set.extend(visible[g].iter().copied());
                }
            }
            visible[f] = set;
        }
        visible
    }

    /// Collects one kind of vocabulary in load order, reporting ids declared twice.
    fn declare(
        &mut self,
        order: &[usize],
        entries: impl Fn(&TileSetFile) -> Vec<(String, String, &'static str)>,
    ) -> Vec<Declared> {
        let mut out: Vec<Declared> = Vec::new();
        let mut ptrs: Vec<String> = Vec::new();
        for &f in order {
            for (id, ptr, what) in entries(&self.files[f].file) {
                if let Some(i) = out.iter().position(|d| d.id == id) {
                    let first_at = self.where_is(out[i].file, &ptrs[i]);
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
                } else {
                    out.push(Declared { id, file: f });
                    ptrs.push(ptr);
                }
            }
        }
        out
    }

    /// Resolves a vocabulary reference made in file `f`, or reports why it does not resolve.
    fn resolve(
        &mut self,
        (f, ptr, key): (usize, &str, bool),
        what: &str,
        name: &str,
        declared: &[Declared],
        visible: &BTreeSet<usize>,
    ) -> Option<usize> {
        if let Some(i) = declared.iter().position(|d| d.id == name) {
            if visible.contains(&declared[i].file) {
                return Some(i);
            }
            let owner = self.files[declared[i].file].file.set.id.clone();
            let set = self.files[f].file.set.id.clone();
            self.error(f, ptr, key, "tilekit::not-required", format!("the {what} `{name}` comes from the set `{owner}`, which `{set}` does not require"))
                .hint = Some(format!("add \"{owner}\" to `requires` in the `[set]` table"));
            return None;
        }
        let known: Vec<String> = declared
            .iter()
            .filter(|d| visible.contains(&d.file))
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
    fn edge_kinds(&mut self, vocab: &Vocabulary) -> Vec<EdgeKind> {
        let n = vocab.edge_kinds.len();
        let mut kinds: Vec<EdgeKind> = Vec::with_capacity(n);
        let mut ptrs = Vec::with_capacity(n);
        for d in &vocab.edge_kinds {
            let (i, def) = self.files[d.file]
                .file
                .edge_kinds
                .iter()
                .enumerate()
                .find(|(_, e)| e.id == d.id)
                .expect("declared edge kinds come from their file");
            let ptr = format!("/edge_kind/{i}");
            if def.halves == PortCarries::Road {
                self.error(
                    d.file,
                    &format!("{ptr}/halves"),
                    false,
                    "tilekit::bad-edge-kind",
                    format!("the half-edge ports of `{}` cannot carry a road", def.id),
                )
                .hint = Some(
                    "roads run through the centre port; halves carry `field`, `city` or `none`"
                        .to_string(),
                );
            }
            if def.halves == PortCarries::City && def.centre != PortCarries::City {
                self.error(d.file, &format!("{ptr}/halves"), false, "tilekit::bad-edge-kind", format!("the halves of `{}` are `city` but its centre is not", def.id))
                    .hint = Some("`halves = \"city\"` means the halves belong to the centre's city; set `centre = \"city\"`".to_string());
            }
            kinds.push(EdgeKind {
                id: def.id.clone(),
                name: def.name.clone(),
                centre: def.centre,
                halves: def.halves,
                meets: vec![Meeting::Forbidden; n],
                display: def.display.as_deref().and_then(Rgb::parse),
            });
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
                let visible = &vocab.visible[d.file];
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
                if let Some(problem) = meeting_problem(&kinds[a], &kinds[b], meeting) {
                    self.error(d.file, &ptr, false, "tilekit::meeting-mismatch", format!("`{}` cannot {} `{}`: {problem}", kinds[a].id, verb(meeting), kinds[b].id))
                        .hint = Some("`connect` needs the same carries on both kinds; `close` needs the same halves and a road facing nothing".to_string());
                    continue;
                }
                declared.insert(pair, (meeting, d.file, ptr));
                kinds[a].meets[b] = meeting;
                kinds[b].meets[a] = meeting;
            }
        }
        kinds
    }

    #[allow(clippy::too_many_lines)]
    fn tile(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        set: usize,
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) -> Option<Tile> {
        let visible = &vocab.visible[f];
        let errors_before = count_errors(self.diags);
        let id = &def.id;

        // Counts.
        let mut counts = vec![0; tileset.editions.len()];
        match &def.count {
            Count::All(n) => {
                if *n == 0 {
                    self.error(
                        f,
                        &format!("{ptr}/count"),
                        false,
                        "tilekit::bad-count",
                        format!("tile `{id}` has a count of 0"),
                    )
                    .hint = Some(
                        "a tile type needs at least one copy; remove the tile instead".to_string(),
                    );
                }
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
                    if n == 0 {
                        self.error(
                            f,
                            &cptr,
                            false,
                            "tilekit::bad-count",
                            format!("tile `{id}` has a count of 0 in `{edition}`"),
                        )
                        .hint = Some(format!(
                            "leave `{edition}` out of the table if the tile is not in that edition"
                        ));
                    }
                }
            }
        }

        // Edges.
        let mut edges = [usize::MAX; 4];
        let Some(def_edges) = &def.edges else {
            self.error(
                f,
                ptr,
                false,
                "tilekit::edges-missing",
                format!("tile `{id}` has no `edges`"),
            )
            .hint = Some(
                "add e.g. `edges = { n = \"city\", e = \"road\", s = \"field\", w = \"road\" }`"
                    .to_string(),
            );
            return None;
        };
        let written = [&def_edges.n, &def_edges.e, &def_edges.s, &def_edges.w];
        for side in Side::ALL {
            let eptr = format!("{ptr}/edges/{}", side.name());
            if let Some(k) = self.resolve(
                (f, &eptr, false),
                "edge kind",
                written[side.index()],
                &vocab.edge_kinds,
                visible,
            ) {
                edges[side.index()] = k;
            }
        }
        let carries = |port: Port| -> Option<PortCarries> {
            let k = edges[port.side().index()];
            (k != usize::MAX).then(|| tileset.edge_kinds[k].carries(port))
        };

        // Features, in the order cities, roads, fields, monastery, garden.
        let mut features: Vec<Feature> = Vec::new();
        let mut listed: Vec<Vec<(usize, String)>> = vec![Vec::new(); 12];
        let mut feature_ptrs: Vec<String> = Vec::new();

        for (c, city) in def.cities.iter().enumerate() {
            let fptr = format!("{ptr}/cities/{c}");
            for (k, &port) in city.ports.iter().enumerate() {
                let pptr = format!("{fptr}/ports/{k}");
                if !port.is_centre() {
                    self.error(f, &pptr, false, "tilekit::city-half-port", format!("tile `{id}`: cities are named by centre ports, but `{port}` is a half-edge port"))
                        .hint = Some(format!("write `{}` (the centre of the {} edge): a city edge's halves belong to its city", port.side().centre(), side_word(port.side())));
                    continue;
                }
                listed[port.index()].push((features.len(), pptr));
            }
            let mut feature = Feature::new(FeatureKind::City);
            feature.ports = city
                .ports
                .iter()
                .copied()
                .filter(|p| p.is_centre())
                .collect();
            feature.pennants = city.pennants;
            feature.markers = self.markers(
                f,
                &format!("{fptr}/markers"),
                &city.markers,
                MarkerPlace::City,
                vocab,
            );
            features.push(feature);
            feature_ptrs.push(fptr);
        }
        for (r, road) in def.roads.iter().enumerate() {
            let fptr = format!("{ptr}/roads/{r}");
            for (k, &port) in road.ports.iter().enumerate() {
                let pptr = format!("{fptr}/ports/{k}");
                if !port.is_centre() {
                    self.error(f, &pptr, false, "tilekit::road-half-port", format!("tile `{id}`: roads leave by centre ports, but `{port}` is a half-edge port"))
                        .hint = Some(format!("write `{}`; the half-edge ports beside a road belong to fields", port.side().centre()));
                    continue;
                }
                listed[port.index()].push((features.len(), pptr));
            }
            match (road.ports.len(), road.end) {
                (1, None) => {
                    self.error(f, &format!("{fptr}/ports"), false, "tilekit::road-end-missing", format!("tile `{id}`: the road from `{}` must say where it ends", road.ports[0]))
                        .hint = Some("add `end = \"junction\"` (or \"monastery\", \"marketplace\", \"festival\", or the side of this tile's bushes, e.g. \"S\")".to_string());
                }
                (2, Some(_)) => {
                    self.error(f, &format!("{fptr}/end"), true, "tilekit::road-end-extra", format!("tile `{id}`: a road with two ports runs through the tile and has no end inside it"))
                        .hint = Some("remove `end`, or split the road into two one-port roads".to_string());
                }
                (_, Some(end)) => {
                    self.road_end(f, &format!("{fptr}/end"), def, end, &edges, tileset)
                }
                _ => {}
            }
            let mut feature = Feature::new(FeatureKind::Road);
            feature.ports = road
                .ports
                .iter()
                .copied()
                .filter(|p| p.is_centre())
                .collect();
            feature.end = road.end;
            feature.markers = self.markers(
                f,
                &format!("{fptr}/markers"),
                &road.markers,
                MarkerPlace::Road,
                vocab,
            );
            features.push(feature);
            feature_ptrs.push(fptr);
        }
        let first_field = features.len();
        for (g, field) in def.fields.iter().enumerate() {
            let fptr = format!("{ptr}/fields/{g}");
            for (k, &port) in field.ports.iter().enumerate() {
                listed[port.index()].push((features.len(), format!("{fptr}/ports/{k}")));
            }
            if field.ports.is_empty() && !field.inner {
                self.error(f, &fptr, false, "tilekit::field-nowhere", format!("tile `{id}`: a field with no ports"))
                    .hint = Some("list the half-edge ports it touches, or write `inner = true` for a field inside the tile".to_string());
            }
            if !field.ports.is_empty() && field.inner {
                self.error(
                    f,
                    &format!("{fptr}/inner"),
                    true,
                    "tilekit::field-inner-ports",
                    format!("tile `{id}`: an inner field cannot have ports"),
                )
                .hint = Some("remove `inner = true`, or remove the ports".to_string());
            }
            let mut feature = Feature::new(FeatureKind::Field);
            feature.ports = field.ports.clone();
            for (k, colour) in field.flowers.iter().enumerate() {
                let cptr = format!("{fptr}/flowers/{k}");
                if let Some(c) =
                    self.resolve((f, &cptr, false), "colour", colour, &vocab.colours, visible)
                {
                    feature.flowers.push(c);
                }
            }
            feature.markers = self.markers(
                f,
                &format!("{fptr}/markers"),
                &field.markers,
                MarkerPlace::Field,
                vocab,
            );
            features.push(feature);
            feature_ptrs.push(fptr);
        }
        if def.monastery {
            features.push(Feature::new(FeatureKind::Monastery));
            feature_ptrs.push(format!("{ptr}/monastery"));
        }
        if def.garden {
            features.push(Feature::new(FeatureKind::Garden));
            feature_ptrs.push(format!("{ptr}/garden"));
        }

        // Every port in exactly one feature of the kind its edge carries.
        let mut owner: [Option<usize>; 12] = [None; 12];
        for port in Port::ALL {
            let Some(expected) = carries(port) else {
                continue;
            };
            let side = port.side();
            let edge_ptr = format!("{ptr}/edges/{}", side.name());
            let edge_id = &tileset.edge_kinds[edges[side.index()]].id;
            // A city edge's halves belong to the city that holds its centre.
            if !port.is_centre() && expected == PortCarries::City {
                owner[port.index()] = listed[side.centre().index()].first().map(|(i, _)| *i);
                if let Some((_, lptr)) = listed[port.index()].first() {
                    let lptr = lptr.clone();
                    self.error(f, &lptr, false, "tilekit::port-owned-by-city", format!("tile `{id}`: `{port}` is half of the city edge {}, which belongs to its city", side_word(side)))
                        .hint = Some(format!("remove `{port}` here"));
                }
                continue;
            }
            let entries = listed[port.index()].clone();
            for (i, lptr) in &entries {
                let kind = features[*i].kind;
                if carries_kind(expected) != Some(kind) {
                    let what = match expected {
                        PortCarries::None => "no feature".to_string(),
                        other => format!("a {}", carries_name(other)),
                    };
                    self.error(f, lptr, false, "tilekit::port-kind", format!("tile `{id}`: `{port}` is on the {} edge, a `{edge_id}` edge whose {} carries {what}, but it is listed in a {}", side_word(side), if port.is_centre() { "centre" } else { "half" }, kind.name()))
                        .hint = Some(format!("change `edges.{}`, or move `{port}` to a {}", side.name(), if expected == PortCarries::None { "side with a feature".to_string() } else { carries_name(expected).to_string() }));
                }
            }
            match entries.len() {
                0 if expected != PortCarries::None => {
                    let kind = carries_name(expected);
                    let plural = if kind == "city" {
                        "cities".to_string()
                    } else {
                        format!("{kind}s")
                    };
                    let d = self.error(
                        f,
                        &edge_ptr,
                        false,
                        "tilekit::port-unowned",
                        format!("tile `{id}`: port `{port}` belongs to no {kind}"),
                    );
                    d.label = format!("this `{edge_id}` edge has `{port}`");
                    d.hint = Some(format!(
                        "add `{port}` to the ports of one of the tile's {plural}"
                    ));
                }
                0 => {}
                1 => owner[port.index()] = Some(entries[0].0),
                _ => {
                    let first = feature_ptrs[entries[0].0]
                        .rsplit('/')
                        .take(2)
                        .collect::<Vec<_>>();
                    let (second_ptr, first_name) =
                        (entries[1].1.clone(), format!("{}[{}]", first[1], first[0]));
                    self.error(
                        f,
                        &second_ptr,
                        false,
                        "tilekit::port-twice",
                        format!("tile `{id}`: port `{port}` is in two features"),
                    )
                    .hint = Some(format!(
                        "it is also in {first_name}; a port belongs to exactly one feature"
                    ));
                }
            }
        }

        // The cities a field borders: resolved by port, and touching the field.
        for (g, field) in def.fields.iter().enumerate() {
            let fi = first_field + g;
            for (k, &port) in field.cities.iter().enumerate() {
                let cptr = format!("{ptr}/fields/{g}/cities/{k}");
                let city = owner[port.index()].filter(|&i| features[i].kind == FeatureKind::City);
                let Some(city) = city else {
                    let cities: Vec<String> = features
                        .iter()
                        .filter(|f| f.kind == FeatureKind::City)
                        .map(|f| {
                            f.ports
                                .iter()
                                .map(|p| p.name())
                                .collect::<Vec<_>>()
                                .join("+")
                        })
                        .collect();
                    let hint = if cities.is_empty() {
                        "this tile has no city; remove the reference".to_string()
                    } else {
                        format!("the cities of this tile are at {}", cities.join(", "))
                    };
                    self.error(
                        f,
                        &cptr,
                        false,
                        "tilekit::no-such-city",
                        format!(
                            "tile `{id}`: a field borders a city at `{port}`, but no city is there"
                        ),
                    )
                    .hint = Some(hint);
                    continue;
                };
                if features[fi].cities.contains(&city) {
                    self.error(
                        f,
                        &cptr,
                        false,
                        "tilekit::city-twice",
                        format!("tile `{id}`: the field names the city at `{port}` twice"),
                    )
                    .hint = Some("name each bordering city once".to_string());
                    continue;
                }
                if !field.ports.is_empty() && !touches(&field.ports, city, &owner) {
                    self.error(f, &cptr, false, "tilekit::field-not-touching", format!("tile `{id}`: the field at {} does not touch the city at `{port}`", field.ports.iter().map(|p| p.name()).collect::<Vec<_>>().join(" ")))
                        .hint = Some("a field borders a city it touches around the tile's edge; check the ports, or remove the city".to_string());
                    continue;
                }
                features[fi].cities.push(city);
            }
        }

        // Centre features and the things roads end at.
        let has_end = |e: RoadEnd| def.roads.iter().any(|r| r.end == Some(e));
        if def.marketplace && !has_end(RoadEnd::Marketplace) {
            self.error(
                f,
                &format!("{ptr}/marketplace"),
                true,
                "tilekit::marketplace-without-roads",
                format!("tile `{id}` has a marketplace that no road reaches"),
            )
            .hint = Some("give the roads that reach it `end = \"marketplace\"`".to_string());
        }
        let markers = self.markers(
            f,
            &format!("{ptr}/markers"),
            &def.markers,
            MarkerPlace::Tile,
            vocab,
        );
        let has_festival = markers
            .iter()
            .any(|&m| tileset.markers[m].rule == Some(crate::MarkerRule::Festival));
        for (r, road) in def.roads.iter().enumerate() {
            let eptr = format!("{ptr}/roads/{r}/end");
            let missing = match road.end {
                Some(RoadEnd::Monastery) if !def.monastery => {
                    Some("a monastery (`monastery = true`)")
                }
                Some(RoadEnd::Marketplace) if !def.marketplace => {
                    Some("a marketplace (`marketplace = true`)")
                }
                Some(RoadEnd::Festival) if !has_festival => {
                    Some("a Festival place (a marker with `rule = \"festival\"`)")
                }
                _ => None,
            };
            if let Some(missing) = missing {
                self.error(
                    f,
                    &eptr,
                    false,
                    "tilekit::road-end-missing-target",
                    format!("tile `{id}`: a road ends at something the tile does not have"),
                )
                .hint = Some(format!("add {missing} to the tile, or change `end`"));
            }
        }

        // Art hints.
        let art = def.art.clone().unwrap_or_default();
        let groups = def.fields.iter().map(|f| f.flowers.len()).sum::<usize>();
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

        if count_errors(self.diags) > errors_before {
            return None;
        }
        Some(Tile {
            id: def.id.clone(),
            name: def.name.clone(),
            aliases: def.aliases.clone(),
            set,
            counts,
            start: def.start,
            edges,
            features,
            marketplace: def.marketplace,
            markers,
            reconstructed: def.reconstructed,
            art,
            artwork,
        })
    }

    fn road_end(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        end: RoadEnd,
        edges: &[usize; 4],
        tileset: &TileSet,
    ) {
        let side = match end {
            RoadEnd::N => Side::N,
            RoadEnd::E => Side::E,
            RoadEnd::S => Side::S,
            RoadEnd::W => Side::W,
            _ => return,
        };
        let kind = edges[side.index()];
        if kind == usize::MAX {
            return;
        }
        let closes = tileset.edge_kinds[kind].centre == PortCarries::None
            && tileset.edge_kinds.iter().enumerate().any(|(r, k)| {
                k.centre == PortCarries::Road && tileset.meeting(kind, r) == Meeting::Close
            });
        if !closes {
            let edge = &tileset.edge_kinds[kind].id;
            self.error(f, ptr, false, "tilekit::road-end-edge", format!("tile `{}`: the road ends at the {} edge, a `{edge}` edge, which does not close roads", def.id, side_word(side)))
                .hint = Some("a road can end at its own tile's edge only where the edge kind closes roads (like bushes); otherwise use `end = \"junction\"`".to_string());
        }
    }

    fn markers(
        &mut self,
        f: usize,
        ptr: &str,
        names: &[String],
        place: MarkerPlace,
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
                &vocab.visible[f],
            ) else {
                continue;
            };
            let d = &vocab.markers[m];
            let def = self.files[d.file]
                .file
                .markers
                .iter()
                .find(|x| x.id == d.id)
                .expect("declared markers come from their file");
            if def.on != place {
                let on = format!("{:?}", def.on).to_lowercase();
                let here = format!("{place:?}").to_lowercase();
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
                let names = std::iter::once((def.id.clone(), format!("/tile/{t}/id"))).chain(
                    def.aliases
                        .iter()
                        .enumerate()
                        .map(|(a, n)| (n.clone(), format!("/tile/{t}/aliases/{a}"))),
                );
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

    fn start_tile(&mut self, order: &[usize], tileset: &mut TileSet) {
        let starts: Vec<usize> = (0..tileset.tiles.len())
            .filter(|&t| tileset.tiles[t].start)
            .collect();
        let written: Vec<(usize, String)> = order
            .iter()
            .flat_map(|&f| {
                self.files[f]
                    .file
                    .tiles
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.start)
                    .map(move |(t, _)| (f, format!("/tile/{t}/start")))
            })
            .collect();
        match written.len() {
            0 => {
                if let Some(&f) = order.first() {
                    self.error(f, "/set", true, "tilekit::no-start-tile", "no start tile among the loaded sets".to_string())
                        .hint = Some("mark one tile type with `start = true` (in the base game, D), or load the base game too".to_string());
                }
            }
            1 => {
                if let Some(&t) = starts.first() {
                    tileset.start_tile = t;
                }
            }
            _ => {
                let first_at = self.where_is(written[0].0, &written[0].1);
                for (f, ptr) in written.iter().skip(1) {
                    self.error(
                        *f,
                        ptr,
                        true,
                        "tilekit::two-start-tiles",
                        "a second start tile".to_string(),
                    )
                    .hint = Some(format!(
                        "the start tile is already marked at {first_at}; exactly one tile type may have `start = true`"
                    ));
                }
            }
        }
    }

    /// Warns about a tile that is another tile of the same set turned.
    fn rotation_twins(&mut self, tileset: &TileSet, tile_ptrs: &[(usize, String)]) {
        // Keyed by set and the shape after each turn, so the check stays linear in the tiles.
        let mut seen: HashMap<(usize, String), (usize, usize)> = HashMap::new();
        for (b, tile) in tileset.tiles.iter().enumerate() {
            let keys: [String; 4] = std::array::from_fn(|r| shape_key(tile, r as u8));
            let twin = keys.iter().enumerate().find_map(|(r, key)| {
                seen.get(&(tile.set, key.clone()))
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
                seen.entry((tile.set, key)).or_insert((b, r));
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

/// Whether a field (by its ports) touches a city: some field port is next to a port the city owns.
fn touches(field_ports: &[Port], city: usize, owner: &[Option<usize>; 12]) -> bool {
    field_ports.iter().any(|p| {
        p.neighbours()
            .iter()
            .any(|n| owner[n.index()] == Some(city))
    })
}

/// A tile's rule-relevant content after `quarter_turns`, as a comparable string.
fn shape_key(tile: &Tile, quarter_turns: u8) -> String {
    let edges: Vec<usize> = (0..4)
        .map(|s| tile.edges[(s + 4 - quarter_turns as usize) % 4])
        .collect();
    let mut features: Vec<String> = tile
        .features
        .iter()
        .map(|f| {
            let mut ports: Vec<usize> = f
                .ports
                .iter()
                .map(|p| p.rotated(quarter_turns).index())
                .collect();
            ports.sort_unstable();
            let mut cities: Vec<Vec<usize>> = f
                .cities
                .iter()
                .map(|&c| {
                    let mut p: Vec<usize> = tile.features[c]
                        .ports
                        .iter()
                        .map(|p| p.rotated(quarter_turns).index())
                        .collect();
                    p.sort_unstable();
                    p
                })
                .collect();
            cities.sort();
            let mut flowers = f.flowers.clone();
            flowers.sort_unstable();
            let mut markers = f.markers.clone();
            markers.sort_unstable();
            let end = match f.end {
                Some(e @ (RoadEnd::N | RoadEnd::E | RoadEnd::S | RoadEnd::W)) => {
                    let side = match e {
                        RoadEnd::N => Side::N,
                        RoadEnd::E => Side::E,
                        RoadEnd::S => Side::S,
                        _ => Side::W,
                    };
                    format!("{:?}", side.rotated(quarter_turns))
                }
                other => format!("{other:?}"),
            };
            format!(
                "{:?}{ports:?}{}{end}{cities:?}{flowers:?}{markers:?}",
                f.kind, f.pennants
            )
        })
        .collect();
    features.sort();
    let mut markers = tile.markers.clone();
    markers.sort_unstable();
    format!("{edges:?}{features:?}{}{markers:?}", tile.marketplace)
}

fn meeting_problem(a: &EdgeKind, b: &EdgeKind, meeting: Meeting) -> Option<String> {
    match meeting {
        Meeting::Forbidden => None,
        Meeting::Connect if a.centre != b.centre => Some(format!(
            "their centres carry {} and {}",
            carries_name(a.centre),
            carries_name(b.centre)
        )),
        Meeting::Connect | Meeting::Close if a.halves != b.halves => Some(format!(
            "their halves carry {} and {}",
            carries_name(a.halves),
            carries_name(b.halves)
        )),
        Meeting::Close
            if !matches!(
                (a.centre, b.centre),
                (PortCarries::Road, PortCarries::None) | (PortCarries::None, PortCarries::Road)
            ) =>
        {
            Some("`close` is for a road meeting an edge whose centre carries nothing".to_string())
        }
        _ => None,
    }
}

fn verb(meeting: Meeting) -> &'static str {
    match meeting {
        Meeting::Connect => "connect to",
        Meeting::Close => "close",
        Meeting::Forbidden => "refuse",
    }
}

fn carries_kind(carries: PortCarries) -> Option<FeatureKind> {
    match carries {
        PortCarries::Road => Some(FeatureKind::Road),
        PortCarries::City => Some(FeatureKind::City),
        PortCarries::Field => Some(FeatureKind::Field),
        PortCarries::None => None,
    }
}

fn carries_name(carries: PortCarries) -> &'static str {
    match carries {
        PortCarries::Road => "road",
        PortCarries::City => "city",
        PortCarries::Field => "field",
        PortCarries::None => "nothing",
    }
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::N => "north",
        Side::E => "east",
        Side::S => "south",
        Side::W => "west",
    }
}

fn table_of(what: &str) -> &'static str {
    match what {
        "edge kind" => "edge_kind",
        "colour" => "colour",
        "marker kind" => "marker",
        _ => "edition",
    }
}

fn escape(segment: &str) -> String {
    let mut out = String::new();
    crate::source::push_escaped(&mut out, segment);
    out
}
