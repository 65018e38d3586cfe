//! A tile's layout: its edges, and its features written under their kinds' keys, checked by the
//! shape their kind declares and resolved (docs/design-kinds.md, §1.2). Nothing here names a
//! kind: a city is an area, a road a line, a field a region, a monastery a site.

use super::{Checker, Vocabulary, side_word};
use crate::model::{
    FIXED_TILE_KEYS, FeatureDef, KindValue, MAX_FLOWER_GROUPS, MarkerPlace, Shape, TileDef,
    TileFeatures,
};
use crate::port::{Port, Side};
use crate::schema::closest;
use crate::tileset::{Feature, FeatureKindId, FeatureKindInfo, LineEnd, TileSet};

/// A tile's checked layout.
pub(super) struct Layout {
    pub(super) edges: [usize; 4],
    pub(super) features: Vec<Feature>,
    pub(super) marketplace: bool,
    pub(super) markers: Vec<usize>,
    pub(super) moves: Vec<Vec<usize>>,
}

/// The features of a tile as they are resolved, with where each is written.
struct Building<'d> {
    features: Vec<Feature>,
    /// Per feature, its JSON pointer and its definition (none for a site).
    written: Vec<(String, Option<&'d FeatureDef>)>,
    /// Per port index, the features listing it, with the pointer of the listing.
    listed: Vec<Vec<(usize, String)>>,
    /// Hub sites on the tile (a marketplace): not features, but lines end there.
    hubs: Vec<FeatureKindId>,
    /// Some of what the tile writes names no kind or is not in its kind's form: the ports and
    /// ends it meant are unknown, and checking them would only report that consequence.
    incomplete: bool,
}

/// The keys a feature of a shape writes besides `ports` and `markers`.
fn shape_keys(shape: Shape) -> &'static [&'static str] {
    match shape {
        Shape::Line => &["end"],
        Shape::Region => &["inner", "flowers"],
        Shape::Area | Shape::Site => &[],
    }
}

/// The line kinds of the vocabulary in a sentence ("road", "road or track").
fn line_nouns(tileset: &TileSet) -> String {
    let lines: Vec<String> = (tileset.feature_kinds.iter())
        .filter(|k| k.shape == Shape::Line)
        .map(noun)
        .collect();
    if lines.is_empty() {
        "line".to_string()
    } else {
        lines.join(" or ")
    }
}

/// How a feature of a kind is named in a sentence: its name in lower case ("a city").
fn noun(kind: &FeatureKindInfo) -> String {
    kind.name.to_lowercase()
}

impl Checker<'_> {
    /// Checks a tile's edges and features and resolves them; `None` after an error.
    pub(super) fn layout(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) -> Option<Layout> {
        let errors_before = self.errors();
        let edges = self.tile_edges(f, ptr, def, vocab)?;
        let mut b = Building {
            features: Vec::new(),
            written: Vec::new(),
            listed: vec![Vec::new(); 12],
            hubs: Vec::new(),
            incomplete: false,
        };
        let errors_before_kinds = self.errors();
        let written = self.written_kinds(f, ptr, def, vocab, tileset);
        b.incomplete = self.errors() > errors_before_kinds;
        for (kind, key, value) in written {
            self.kind_features(f, ptr, def, (kind, key, value), vocab, tileset, &mut b);
        }
        let empty = self.empty_ports(f, ptr, def, &b, tileset);
        let owner = self.port_owners(f, ptr, def, &edges, &empty, &b, tileset);
        if edges.iter().all(|&k| k != usize::MAX) {
            self.region_borders(f, def, &edges, &owner, &mut b, tileset);
        }
        let markers = self.markers(
            f,
            &format!("{ptr}/markers"),
            &def.markers,
            MarkerPlace::Tile,
            vocab,
        );
        if !b.incomplete {
            self.line_ends(f, ptr, def, &edges, &markers, &mut b, vocab, tileset);
        }
        let moves = self.moves(f, ptr, def, &b.features, tileset);
        if self.errors() > errors_before {
            return None;
        }
        Some(Layout {
            edges,
            features: b.features,
            marketplace: !b.hubs.is_empty(),
            markers,
            moves,
        })
    }

    /// The edge kind of each side (`usize::MAX` where it does not resolve); `None` without
    /// `edges`.
    fn tile_edges(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        vocab: &Vocabulary,
    ) -> Option<[usize; 4]> {
        let Some(def_edges) = &def.edges else {
            self.error(
                f,
                ptr,
                false,
                "tilekit::edges-missing",
                format!("tile `{}` has no `edges`", def.id),
            )
            .hint = Some("add e.g. `edges = { n = \"city\", e = \"road\", s = \"field\", w = \"road\" }`, or `like = \"…\"` to copy another tile's layout".to_string());
            return None;
        };
        let written = [&def_edges.n, &def_edges.e, &def_edges.s, &def_edges.w];
        let mut edges = [usize::MAX; 4];
        for side in Side::ALL {
            let eptr = format!("{ptr}/edges/{}", side.name());
            if let Some(k) = self.resolve(
                (f, &eptr, false),
                "edge kind",
                written[side.index()],
                &vocab.edge_kinds,
                vocab.visible(f),
            ) {
                edges[side.index()] = k;
            }
        }
        Some(edges)
    }

    /// The kinds a tile writes features of, in vocabulary order (the order of its features),
    /// each with its key and value; a key no kind in scope writes is reported.
    fn written_kinds<'d>(
        &mut self,
        f: usize,
        ptr: &str,
        def: &'d TileDef,
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) -> Vec<(usize, &'d str, &'d TileFeatures)> {
        let visible = vocab.visible(f);
        let in_scope = |k: usize| vocab.feature_kinds[k].seen(visible);
        let mut out = Vec::new();
        for (key, value) in &def.features {
            let declared = tileset.feature_kinds.iter().position(|k| k.key == *key);
            match declared {
                Some(k) if in_scope(k) => out.push((k, key.as_str(), value)),
                Some(k) => self.not_required.push(super::NotRequired {
                    file: f,
                    owner: self.files[vocab.feature_kinds[k].file].file.set.id.clone(),
                    what: "feature kind".to_string(),
                    name: tileset.feature_kinds[k].id.clone(),
                }),
                None if self.bundled_key_owner(key).is_some() => {
                    let owner = self.bundled_key_owner(key).unwrap_or_default();
                    self.not_required.push(super::NotRequired {
                        file: f,
                        owner,
                        what: "tile key".to_string(),
                        name: key.clone(),
                    });
                }
                None => {
                    let mut keys: Vec<String> =
                        FIXED_TILE_KEYS.iter().map(|k| k.to_string()).collect();
                    keys.extend(
                        (tileset.feature_kinds.iter().enumerate())
                            .filter(|&(k, _)| in_scope(k))
                            .map(|(_, kind)| kind.key.clone()),
                    );
                    let kptr = format!("{ptr}/{}", super::escape(key));
                    let d = self.error(
                        f,
                        &kptr,
                        true,
                        "tilekit::unknown-key",
                        format!("unknown key `{key}` in tile `{}`", def.id),
                    );
                    d.label = "not a key here".to_string();
                    d.hint = Some(match closest(key, &keys) {
                        Some(best) => format!("did you mean `{best}`?"),
                        None => format!(
                            "no feature kind in this set's vocabulary writes `{key}`; the keys of a tile are: {}",
                            keys.join(", ")
                        ),
                    });
                }
            }
        }
        out.sort_by_key(|&(k, _, _)| k);
        out
    }

    /// Checks and adds the features a tile writes under one kind's key.
    #[allow(clippy::too_many_arguments)]
    fn kind_features<'d>(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        (k, key, value): (usize, &str, &'d TileFeatures),
        vocab: &Vocabulary,
        tileset: &TileSet,
        b: &mut Building<'d>,
    ) {
        let kind = &tileset.feature_kinds[k];
        let id = FeatureKindId(k as u8);
        let kptr = format!("{ptr}/{}", super::escape(key));
        match (kind.shape, value) {
            (Shape::Site, TileFeatures::Present(false)) => {}
            (Shape::Site, TileFeatures::Present(true)) if kind.hub => b.hubs.push(id),
            (Shape::Site, TileFeatures::Present(true)) => {
                b.features.push(Feature::new(id));
                b.written.push((kptr, None));
            }
            (Shape::Site, TileFeatures::Site(site)) if kind.hub => {
                b.hubs.push(id);
                if !site.markers.is_empty() {
                    self.error(
                        f,
                        &format!("{kptr}/markers"),
                        true,
                        "tilekit::markers-on-hub",
                        format!(
                            "tile `{}`: `{key}` is a hub ({}), where lines meet: it is no feature, and no marker goes on it",
                            def.id,
                            noun(kind)
                        ),
                    )
                    .hint = Some(format!(
                        "write `{key} = true`, and put the markers in the tile's own `markers`"
                    ));
                }
            }
            (Shape::Site, TileFeatures::Site(site)) => {
                let mut feature = Feature::new(id);
                feature.markers = self.feature_markers(f, &kptr, &site.markers, kind, vocab);
                b.features.push(feature);
                b.written.push((kptr, None));
            }
            (Shape::Site, TileFeatures::List(_)) => {
                b.incomplete = true;
                self.error(
                    f,
                    &kptr,
                    false,
                    "tilekit::site-as-list",
                    format!(
                        "tile `{}`: `{key}` is a site ({}), which a tile has or has not",
                        def.id,
                        noun(kind)
                    ),
                )
                .hint = Some(format!("write `{key} = true`"));
            }
            (_, TileFeatures::Present(_) | TileFeatures::Site(_)) => {
                b.incomplete = true;
                self.error(
                    f,
                    &kptr,
                    false,
                    "tilekit::features-as-flag",
                    format!(
                        "tile `{}`: `{key}` lists the tile's {} features, not `true` or `false`",
                        def.id,
                        noun(kind)
                    ),
                )
                .hint = Some(format!(
                    "write a list of features, e.g. `{key} = [{{ ports = [\"N\"] }}]`"
                ));
            }
            (_, TileFeatures::List(list)) => {
                for (i, feature) in list.iter().enumerate() {
                    let fptr = format!("{kptr}/{i}");
                    let resolved = self.feature(f, &fptr, def, (id, key), feature, vocab, tileset);
                    for &port in &resolved.ports {
                        let p = feature.ports.iter().position(|&q| q == port).unwrap_or(0);
                        b.listed[port.index()]
                            .push((b.features.len(), format!("{fptr}/ports/{p}")));
                    }
                    b.features.push(resolved);
                    b.written.push((fptr, Some(feature)));
                }
            }
        }
    }

    /// Checks one written feature of an area, line or region kind against its shape.
    #[allow(clippy::too_many_arguments)]
    fn feature(
        &mut self,
        f: usize,
        fptr: &str,
        def: &TileDef,
        (id, key): (FeatureKindId, &str),
        written: &FeatureDef,
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) -> Feature {
        let kind = &tileset.feature_kinds[id.index()];
        let tile = &def.id;
        let mut feature = Feature::new(id);
        for (p, &port) in written.ports.iter().enumerate() {
            if kind.shape == Shape::Region || port.is_centre() {
                feature.ports.push(port);
                continue;
            }
            // Read as the centre it stands beside, so that the edge is not reported unowned too.
            if !written.ports.contains(&port.side().centre()) {
                feature.ports.push(port.side().centre());
            }
            let (code, how, hint) = if kind.shape == Shape::Area {
                (
                    "tilekit::area-half-port",
                    "are named by centre ports",
                    format!(
                        "write `{}` (the centre of the {} edge): a {} edge's halves belong to its {}",
                        port.side().centre(),
                        side_word(port.side()),
                        kind.id,
                        noun(kind)
                    ),
                )
            } else {
                (
                    "tilekit::line-half-port",
                    "leave by centre ports",
                    format!(
                        "write `{}`; the half-edge ports beside a {} belong to the regions on its sides",
                        port.side().centre(),
                        noun(kind)
                    ),
                )
            };
            self.error(
                f,
                &format!("{fptr}/ports/{p}"),
                false,
                code,
                format!("tile `{tile}`: {key} {how}, but `{port}` is a half-edge port"),
            )
            .hint = Some(hint);
        }
        self.extra_keys(f, fptr, def, (kind, key), written, tileset, vocab);
        if let Some(emblem) = &kind.emblem {
            feature.emblems = written.count(&emblem.key);
            if feature.emblems > emblem.max {
                self.error(
                    f,
                    &format!("{fptr}/{}", super::escape(&emblem.key)),
                    false,
                    "tilekit::too-many-emblems",
                    format!(
                        "tile `{tile}`: a {} with {} {}; a {} has at most {}",
                        noun(kind),
                        feature.emblems,
                        emblem.key,
                        noun(kind),
                        emblem.max
                    ),
                )
                .hint = Some(format!(
                    "{} are the emblems printed on the {}; check for a typo",
                    emblem.key,
                    noun(kind)
                ));
            }
        }
        match kind.shape {
            Shape::Line => self.line_ports(f, fptr, tile, kind, written),
            Shape::Region => {
                feature.flowers = self.region(f, fptr, tile, kind, written, vocab);
            }
            Shape::Area | Shape::Site => {}
        }
        feature.markers = self.feature_markers(f, fptr, &written.markers, kind, vocab);
        feature
    }

    /// Keys a feature writes that its shape or kind does not take: `end` off a line, `inner` and
    /// `flowers` off a region, a count or list under a key that is no emblem or bordered kind.
    #[allow(clippy::too_many_arguments)]
    fn extra_keys(
        &mut self,
        f: usize,
        fptr: &str,
        def: &TileDef,
        (kind, key): (&FeatureKindInfo, &str),
        written: &FeatureDef,
        tileset: &TileSet,
        vocab: &Vocabulary,
    ) {
        let visible = vocab.visible(f);
        // The kinds a region may name what it borders by (their keys): areas and lines by a
        // port, sites by `true`.
        let bordered_shape = |key: &str| {
            (tileset.feature_kinds.iter().enumerate())
                .find(|(k, other)| other.key == key && vocab.feature_kinds[*k].seen(visible))
                .filter(|(_, other)| !other.hub)
                .map(|(_, other)| other.shape)
                .filter(|_| kind.shape == Shape::Region)
        };
        let bordered = |key: &str| {
            matches!(
                bordered_shape(key),
                Some(Shape::Area | Shape::Line | Shape::Site)
            )
        };
        let mut extra: Vec<&str> = Vec::new();
        if written.end.is_some() && kind.shape != Shape::Line {
            extra.push("end");
        }
        if written.inner && kind.shape != Shape::Region {
            extra.push("inner");
        }
        if !written.flowers.is_empty() && kind.shape != Shape::Region {
            extra.push("flowers");
        }
        for (k, value) in &written.by_kind {
            let fits = match value {
                KindValue::Count(_) => kind.emblem.as_ref().is_some_and(|e| e.key == *k),
                KindValue::Ports(_) => matches!(bordered_shape(k), Some(Shape::Area | Shape::Line)),
                KindValue::Site(on) => *on && bordered_shape(k) == Some(Shape::Site),
            };
            if !fits {
                extra.push(k);
            }
        }
        if extra.is_empty() {
            return;
        }
        // The keys this feature takes, for the hint (only built when something is reported).
        let mut allowed: Vec<String> = vec!["ports".to_string(), "markers".to_string()];
        allowed.extend(shape_keys(kind.shape).iter().map(|k| k.to_string()));
        allowed.extend(kind.emblem.as_ref().map(|e| e.key.clone()));
        allowed.extend(
            (tileset.feature_kinds.iter())
                .filter(|other| bordered(&other.key))
                .map(|other| other.key.clone()),
        );
        for k in extra {
            let hint = match closest(k, &allowed) {
                Some(best) if best != k => format!("did you mean `{best}`?"),
                _ => format!(
                    "a {} ({}) writes: {}",
                    noun(kind),
                    super::kinds::a_shape(kind.shape),
                    allowed.join(", ")
                ),
            };
            let d = self.error(
                f,
                &format!("{fptr}/{}", super::escape(k)),
                true,
                "tilekit::unknown-key",
                format!(
                    "unknown key `{k}` in tile `{}`, `{key}[{}]`",
                    def.id,
                    fptr.rsplit('/').next().unwrap_or("0")
                ),
            );
            d.label = "not a key here".to_string();
            d.hint = Some(hint);
        }
    }

    /// A line's ports: one port needs an `end`, two or more have none.
    fn line_ports(
        &mut self,
        f: usize,
        fptr: &str,
        tile: &str,
        kind: &FeatureKindInfo,
        written: &FeatureDef,
    ) {
        let what = noun(kind);
        match (written.ports.len(), &written.end) {
            (1, None) => {
                self.error(f, &format!("{fptr}/ports"), false, "tilekit::line-end-missing", format!("tile `{tile}`: the {what} from `{}` must say where it ends", written.ports[0]))
                    .hint = Some("add `end = \"junction\"`, or the id of a site or area on the tile it ends at (\"monastery\", \"city\"), \"marker\", one of the tile's markers (\"festival\"), or a side of this tile whose edge carries no line (\"S\")".to_string());
            }
            (2, Some(_)) => {
                self.error(f, &format!("{fptr}/end"), true, "tilekit::line-end-extra", format!("tile `{tile}`: a {what} with two ports runs through the tile and has no end inside it"))
                    .hint = Some(format!("remove `end`, or split the {what} into two one-port {what}s"));
            }
            (n @ 3.., Some(_)) => {
                self.error(f, &format!("{fptr}/end"), true, "tilekit::line-end-extra", format!("tile `{tile}`: a {what} joining {} sides is one {what} through the tile and has no end inside it", if n == 3 { "three" } else { "four" }))
                    .hint = Some(format!("remove `end`; if the {what}s meet at a junction, write one one-port {what} per side with `end = \"junction\"`"));
            }
            _ => {}
        }
    }

    /// A region's ports and flowers: it touches the edge or lies inside; its flower colours.
    fn region(
        &mut self,
        f: usize,
        fptr: &str,
        tile: &str,
        kind: &FeatureKindInfo,
        written: &FeatureDef,
        vocab: &Vocabulary,
    ) -> Vec<usize> {
        let what = noun(kind);
        if written.ports.is_empty() && !written.inner {
            self.error(
                f,
                fptr,
                false,
                "tilekit::region-nowhere",
                format!("tile `{tile}`: a {what} with no ports"),
            )
            .hint = Some(format!(
                "list the half-edge ports it touches, or write `inner = true` for a {what} inside the tile"
            ));
        }
        if !written.ports.is_empty() && written.inner {
            self.error(
                f,
                &format!("{fptr}/inner"),
                true,
                "tilekit::region-inner-ports",
                format!("tile `{tile}`: an inner {what} cannot have ports"),
            )
            .hint = Some("remove `inner = true`, or remove the ports".to_string());
        }
        if written.flowers.len() > MAX_FLOWER_GROUPS {
            self.error(
                f,
                &format!("{fptr}/flowers"),
                false,
                "tilekit::too-many-flowers",
                format!("tile `{tile}`: a {what} with {} flower groups; a {what} has at most {MAX_FLOWER_GROUPS}", written.flowers.len()),
            )
            .hint = Some(format!("each entry is one group of flowers printed in the {what}"));
        }
        let mut flowers = Vec::new();
        for (k, colour) in written.flowers.iter().enumerate() {
            let cptr = format!("{fptr}/flowers/{k}");
            if let Some(c) = self.resolve(
                (f, &cptr, false),
                "colour",
                colour,
                &vocab.colours,
                vocab.visible(f),
            ) {
                flowers.push(c);
            }
        }
        flowers
    }

    /// A feature's markers: each must be declared for a feature of its kind (`on = "road"`).
    fn feature_markers(
        &mut self,
        f: usize,
        mptr: &str,
        names: &[String],
        kind: &FeatureKindInfo,
        vocab: &Vocabulary,
    ) -> Vec<usize> {
        let place = MarkerPlace::Kind(kind.id.clone());
        self.markers_on(f, &format!("{mptr}/markers"), names, &place, vocab)
    }

    /// The ports listed in `empty`: on no feature, on purpose.
    fn empty_ports(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        b: &Building<'_>,
        tileset: &TileSet,
    ) -> [bool; 12] {
        let mut empty = [false; 12];
        for (k, &port) in def.empty.iter().enumerate() {
            if let Some((i, _)) = b.listed[port.index()].first() {
                let kind = &tileset.kind_of(&b.features[*i]).id;
                self.error(
                    f,
                    &format!("{ptr}/empty/{k}"),
                    false,
                    "tilekit::empty-port-used",
                    format!(
                        "tile `{}`: port `{port}` is in `empty` and also in a {kind}",
                        def.id
                    ),
                )
                .hint = Some(format!(
                    "a port in `empty` belongs to no feature: remove it from `empty` or from the {kind}"
                ));
            }
            empty[port.index()] = true;
        }
        empty
    }

    /// The feature owning each port: every port in exactly one feature of the kind its edge
    /// carries (an area edge's halves belong to the area holding its centre).
    #[allow(clippy::too_many_arguments)]
    fn port_owners(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        edges: &[usize; 4],
        empty: &[bool; 12],
        b: &Building<'_>,
        tileset: &TileSet,
    ) -> [Option<usize>; 12] {
        let id = &def.id;
        let mut owner: [Option<usize>; 12] = [None; 12];
        for port in Port::ALL {
            let side = port.side();
            let Some(edge) = tileset.edge_kinds.get(edges[side.index()]) else {
                continue;
            };
            let expected = edge.kind_at(port);
            let area_half = !port.is_centre()
                && expected.is_some_and(|k| tileset.feature_kinds[k.index()].shape == Shape::Area);
            if area_half {
                owner[port.index()] = b.listed[side.centre().index()].first().map(|(i, _)| *i);
                if let Some((_, lptr)) = b.listed[port.index()].first() {
                    let area = &tileset.feature_kinds[expected.map_or(0, |k| k.index())];
                    self.error(f, lptr, false, "tilekit::port-owned-by-area", format!("tile `{id}`: `{port}` is half of the {} edge {}, which belongs to its {}", area.id, side_word(side), noun(area)))
                        .hint = Some(format!("remove `{port}` here"));
                }
                continue;
            }
            let entries = &b.listed[port.index()];
            for (i, lptr) in entries {
                let kind = b.features[*i].kind;
                if expected != Some(kind) {
                    let what = match expected {
                        None => "no feature".to_string(),
                        Some(k) => format!("a {}", tileset.feature_kinds[k.index()].id),
                    };
                    let listed_in = &tileset.feature_kinds[kind.index()].id;
                    let place = if port.is_centre() { "centre" } else { "half" };
                    let to = match expected {
                        None => "side with a feature".to_string(),
                        Some(k) => tileset.feature_kinds[k.index()].id.clone(),
                    };
                    self.error(f, lptr, false, "tilekit::port-kind", format!("tile `{id}`: `{port}` is on the {} edge, a `{}` edge whose {place} carries {what}, but it is listed in a {listed_in}", side_word(side), edge.id))
                        .hint = Some(format!("change `edges.{}`, or move `{port}` to a {to}", side.name()));
                }
            }
            match entries.len() {
                0 => {
                    let unowned = expected.filter(|_| !empty[port.index()] && !b.incomplete);
                    let Some(k) = unowned else {
                        continue;
                    };
                    let kind = &tileset.feature_kinds[k.index()];
                    let d = self.error(
                        f,
                        &format!("{ptr}/edges/{}", side.name()),
                        false,
                        "tilekit::port-unowned",
                        format!("tile `{id}`: port `{port}` belongs to no {}", kind.id),
                    );
                    d.label = format!("this `{}` edge has `{port}`", edge.id);
                    d.hint = Some(format!(
                        "add `{port}` to the ports of one of the tile's {} (or to `empty`, if it lies against no {} on purpose)",
                        kind.key, kind.id
                    ));
                }
                1 => owner[port.index()] = Some(entries[0].0),
                _ => {
                    let first = b.written[entries[0].0]
                        .0
                        .rsplit('/')
                        .take(2)
                        .collect::<Vec<_>>();
                    let first_name = format!("{}[{}]", first[1], first[0]);
                    let second_ptr = entries[1].1.clone();
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
        owner
    }

    /// The features each region borders, written under their kind's key and named by a port:
    /// resolved, and not cut off from the region by a line, a river or another region.
    #[allow(clippy::too_many_arguments)]
    fn region_borders(
        &mut self,
        f: usize,
        def: &TileDef,
        edges: &[usize; 4],
        owner: &[Option<usize>; 12],
        b: &mut Building<'_>,
        tileset: &TileSet,
    ) {
        let id = &def.id;
        let barriers = super::barriers(&b.features, edges, tileset);
        for fi in 0..b.features.len() {
            if tileset.kind_of(&b.features[fi]).shape != Shape::Region {
                continue;
            }
            let (fptr, Some(written)) = b.written[fi].clone() else {
                continue;
            };
            for (key, value) in &written.by_kind {
                let Some(k) = tileset.feature_kinds.iter().position(|x| x.key == *key) else {
                    continue;
                };
                let ports = match value {
                    KindValue::Ports(ports) => ports,
                    KindValue::Site(true) => {
                        let bptr = format!("{fptr}/{}", super::escape(key));
                        self.bordered_site(f, (&bptr, id), fi, k, b, tileset);
                        continue;
                    }
                    _ => continue,
                };
                let bordered = &tileset.feature_kinds[k];
                for (n, &port) in ports.iter().enumerate() {
                    let bptr = format!("{fptr}/{}/{n}", super::escape(key));
                    let at = owner[port.index()].filter(|&i| b.features[i].kind.index() == k);
                    let Some(target) = at else {
                        let places: Vec<String> = (b.features.iter())
                            .filter(|x| x.kind.index() == k)
                            .map(|x| {
                                x.ports
                                    .iter()
                                    .map(|p| p.name())
                                    .collect::<Vec<_>>()
                                    .join("+")
                            })
                            .collect();
                        let hint = if places.is_empty() {
                            format!("this tile has no {}; remove the reference", noun(bordered))
                        } else {
                            format!(
                                "the {} of this tile are at {}",
                                bordered.key,
                                places.join(", ")
                            )
                        };
                        self.error(
                            f,
                            &bptr,
                            false,
                            "tilekit::no-such-bordered",
                            format!(
                                "tile `{id}`: a {} borders a {} at `{port}`, but no {} is there",
                                noun(tileset.kind_of(&b.features[fi])),
                                noun(bordered),
                                noun(bordered)
                            ),
                        )
                        .hint = Some(hint);
                        continue;
                    };
                    if b.features[fi].borders.contains(&target) {
                        self.error(
                            f,
                            &bptr,
                            false,
                            "tilekit::bordered-twice",
                            format!(
                                "tile `{id}`: the {} names the {} at `{port}` twice",
                                noun(tileset.kind_of(&b.features[fi])),
                                noun(bordered)
                            ),
                        )
                        .hint = Some(format!("name each bordering {} once", noun(bordered)));
                        continue;
                    }
                    let target_ports = super::mask_where(owner, |o| o == Some(target));
                    let region_ports = super::mask_of(&written.ports);
                    if let Some(barrier) = barriers
                        .iter()
                        .filter(|x| x.feature != Some(fi) && x.feature != Some(target))
                        .find(|x| super::separates(x.ports, region_ports, target_ports))
                    {
                        let region = noun(tileset.kind_of(&b.features[fi]));
                        self.error(f, &bptr, false, "tilekit::region-not-touching", format!("tile `{id}`: the {region} at {} cannot border the {} at `{port}`: {} lies between them", super::ports_text(&written.ports), noun(bordered), barrier.name))
                            .hint = Some(format!("a {region} borders any {} of its tile unless a {}, a river or another {region} that crosses the tile lies between them; check the ports, or remove the {}", noun(bordered), line_nouns(tileset), noun(bordered)));
                        continue;
                    }
                    b.features[fi].borders.push(target);
                }
            }
        }
    }

    /// A region names the tile's site of kind `k` it borders (`monastery = true`): the tile
    /// has one, named once.
    fn bordered_site(
        &mut self,
        f: usize,
        (bptr, id): (&str, &str),
        fi: usize,
        k: usize,
        b: &mut Building<'_>,
        tileset: &TileSet,
    ) {
        let site = &tileset.feature_kinds[k];
        let region = noun(tileset.kind_of(&b.features[fi]));
        let Some(target) = (b.features.iter()).position(|x| x.kind.index() == k) else {
            self.error(
                f,
                bptr,
                true,
                "tilekit::no-such-bordered",
                format!(
                    "tile `{id}`: a {region} borders a {}, but the tile has none",
                    noun(site)
                ),
            )
            .hint = Some(format!(
                "this tile has no {}; remove the reference, or add `{} = true` to the tile",
                noun(site),
                site.key
            ));
            return;
        };
        if !b.features[fi].borders.contains(&target) {
            b.features[fi].borders.push(target);
        }
    }

    /// Resolves where each one-port line ends, and checks the tile has what it ends at.
    #[allow(clippy::too_many_arguments)]
    fn line_ends(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        edges: &[usize; 4],
        markers: &[usize],
        b: &mut Building<'_>,
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) {
        let id = &def.id;
        for fi in 0..b.features.len() {
            let line = tileset.kind_of(&b.features[fi]);
            let (_, Some(written)) = &b.written[fi] else {
                continue;
            };
            let (Some(text), Shape::Line, 1) =
                (written.end.as_deref(), line.shape, written.ports.len())
            else {
                continue;
            };
            let fptr = b.written[fi].0.clone();
            let eptr = format!("{fptr}/end");
            let Some(end) = self.line_end(f, &eptr, def, text, vocab, tileset) else {
                continue;
            };
            let has_marker = !markers.is_empty() || !written.markers.is_empty();
            let missing = match end {
                LineEnd::Side(side) => {
                    self.end_at_side(f, &eptr, def, line, side, edges, tileset);
                    None
                }
                LineEnd::Kind(k) => {
                    let there = b.hubs.contains(&k) || b.features.iter().any(|x| x.kind == k);
                    let kind = &tileset.feature_kinds[k.index()];
                    let written = match kind.shape {
                        Shape::Site => format!("`{} = true`", kind.key),
                        _ => format!("in `{}`", kind.key),
                    };
                    (!there).then(|| (noun(kind), format!("a {} ({written})", noun(kind))))
                }
                LineEnd::MarkerKind(m) if !markers.contains(&m) => {
                    let marker = &tileset.markers[m];
                    Some((
                        marker.name.to_lowercase(),
                        format!(
                            "a {} (the marker `{}` in the tile's `markers`)",
                            marker.name.to_lowercase(),
                            marker.id
                        ),
                    ))
                }
                LineEnd::Marker if !has_marker => Some((
                    "marker".to_string(),
                    format!("a marker (in the tile's or the {}'s `markers`)", noun(line)),
                )),
                _ => None,
            };
            if let Some((what, add)) = missing {
                let from = written.ports.first().map_or("", |p| p.name());
                self.error(
                    f,
                    &eptr,
                    false,
                    "tilekit::line-end-missing-target",
                    format!(
                        "tile `{id}`: the {} from `{from}` ends at a {what}, but the tile has none",
                        noun(line)
                    ),
                )
                .hint = Some(format!("add {add} to the tile, or change `end`"));
            }
            b.features[fi].end = Some(end);
        }
        for &hub in &b.hubs {
            let reached = b.features.iter().any(|x| x.end == Some(LineEnd::Kind(hub)));
            if !reached {
                let kind = &tileset.feature_kinds[hub.index()];
                let ptr = format!("{ptr}/{}", super::escape(&kind.key));
                self.error(
                    f,
                    &ptr,
                    true,
                    "tilekit::hub-without-lines",
                    format!("tile `{id}` has a {} that no line reaches", noun(kind)),
                )
                .hint = Some(format!(
                    "give the lines that reach it `end = \"{}\"`",
                    kind.id
                ));
            }
        }
    }

    /// What a line's `end` names: `junction`, a side, `marker`, an area or site kind, a marker
    /// kind; `None` (reported) when it names none of them.
    fn line_end(
        &mut self,
        f: usize,
        eptr: &str,
        def: &TileDef,
        text: &str,
        vocab: &Vocabulary,
        tileset: &TileSet,
    ) -> Option<LineEnd> {
        let visible = vocab.visible(f);
        if let Some(side) = Side::ALL.into_iter().find(|s| s.centre().name() == text) {
            return Some(LineEnd::Side(side));
        }
        match text {
            "junction" => return Some(LineEnd::Junction),
            "marker" => return Some(LineEnd::Marker),
            _ => {}
        }
        let ends_at = |k: &FeatureKindInfo| matches!(k.shape, Shape::Area | Shape::Site);
        if let Some(k) = tileset
            .feature_kinds
            .iter()
            .position(|k| k.id == text && ends_at(k))
            && vocab.feature_kinds[k].seen(visible)
        {
            return Some(LineEnd::Kind(FeatureKindId(k as u8)));
        }
        if let Some(m) = vocab.markers.iter().position(|d| d.id == text)
            && vocab.markers[m].seen(visible)
        {
            return Some(LineEnd::MarkerKind(m));
        }
        let mut known: Vec<String> = ["junction", "marker", "N", "E", "S", "W"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        known.extend(
            (tileset.feature_kinds.iter().enumerate())
                .filter(|&(k, kind)| ends_at(kind) && vocab.feature_kinds[k].seen(visible))
                .map(|(_, kind)| kind.id.clone()),
        );
        known.extend(
            (vocab.markers.iter())
                .filter(|d| d.seen(visible))
                .map(|d| d.id.clone()),
        );
        let hint = match closest(text, &known) {
            Some(best) => format!("did you mean `{best}`?"),
            None => format!("a line ends at one of: {}", known.join(", ")),
        };
        self.error(
            f,
            eptr,
            false,
            "tilekit::unknown-line-end",
            format!("tile `{}`: a line cannot end at `{text}`", def.id),
        )
        .hint = Some(hint);
        None
    }

    /// A line may end at a side of its own tile only where that edge carries no line.
    #[allow(clippy::too_many_arguments)]
    fn end_at_side(
        &mut self,
        f: usize,
        eptr: &str,
        def: &TileDef,
        line: &FeatureKindInfo,
        side: Side,
        edges: &[usize; 4],
        tileset: &TileSet,
    ) {
        let Some(edge) = tileset.edge_kinds.get(edges[side.index()]) else {
            return;
        };
        let carries_line = edge
            .centre_kind
            .is_some_and(|k| tileset.feature_kinds[k.index()].shape == Shape::Line);
        if carries_line {
            let what = noun(line);
            self.error(f, eptr, false, "tilekit::line-end-edge", format!("tile `{}`: the {what} ends at the {} edge, a `{}` edge, which carries a line itself", def.id, side_word(side), edge.id))
                .hint = Some(format!("a {what} can end at a side of its own tile only where that edge carries no line (bushes, a river bank); otherwise use `end = \"junction\"`"));
        }
    }
}

impl Checker<'_> {
    /// Resolves a tile's `moves`: each name to the feature owning that port, or to the tile's
    /// site of that kind; a name that finds none, or a feature named twice in one link, is an
    /// error.
    fn moves(
        &mut self,
        f: usize,
        ptr: &str,
        def: &TileDef,
        features: &[Feature],
        tileset: &TileSet,
    ) -> Vec<Vec<usize>> {
        let mut out = Vec::with_capacity(def.moves.len());
        for (l, link) in def.moves.iter().enumerate() {
            let mut resolved: Vec<usize> = Vec::with_capacity(link.len());
            for (i, name) in link.iter().enumerate() {
                let at = format!("{ptr}/moves/{l}/{i}");
                let found = match Port::parse(name) {
                    Some(port) => features.iter().position(|x| x.ports.contains(&port)),
                    None => features.iter().position(|x| {
                        let kind = tileset.kind_of(x);
                        kind.shape == Shape::Site && kind.id == *name
                    }),
                };
                match found {
                    Some(x) if resolved.contains(&x) => {
                        self.error(
                            f,
                            &at,
                            false,
                            "tilekit::move-twice",
                            format!("tile `{}` names one feature twice in a link of `moves` (`{name}`)", def.id),
                        )
                        .hint = Some("a link lists each feature once; a feature with several ports is named by one of them".to_string());
                    }
                    Some(x) => resolved.push(x),
                    None => {
                        self.error(
                            f,
                            &at,
                            false,
                            "tilekit::move-unknown",
                            format!("tile `{}` has no feature `{name}` to link in `moves`", def.id),
                        )
                        .hint = Some("name a feature by one of its ports (`N`, `ENE`) or a site by its kind's id (`monastery`)".to_string());
                    }
                }
            }
            out.push(resolved);
        }
        out
    }
}
