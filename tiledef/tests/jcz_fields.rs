//! Every tile of the JCloisterZone reference files, transcribed straight (each feature as
//! written, each field with the cities it borders, edge parts of no feature in `empty`),
//! validates: the checker's rule for which cities a field may border holds for every
//! `field@city` of real tiles. The files are test data in `../shared/reference/jcz/`; the test
//! is skipped where they are absent. The transcription here is the least the rule needs (no
//! pennants, markers or counts); the importer proper is `tools/jcz`.

use std::path::Path;
use tiledef::Source;

const VOCABULARY: &str = r#"
[[edge_kind]]
id = "field"
name = "Field"
centre = "none"
halves = "field"
meets = { field = "connect" }

[[edge_kind]]
id = "road"
name = "Road"
centre = "road"
halves = "field"
meets = { road = "connect" }

[[edge_kind]]
id = "city"
name = "City"
centre = "city"
halves = "city"
meets = { city = "connect" }

[[edge_kind]]
id = "river"
name = "River"
centre = "none"
halves = "field"
style = "river"
meets = { river = "connect" }
"#;

/// The elements `<tag attrs>text</tag>` of `body`, as (attributes, text).
fn elements<'a>(body: &'a str, tag: &str) -> Vec<(&'a str, &'a str)> {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut rest = body;
    while let Some(i) = rest.find(&open) {
        rest = &rest[i + open.len()..];
        if !rest.starts_with([' ', '>', '/', '\t', '\n']) {
            continue;
        }
        let Some(end) = rest.find('>') else { break };
        let attrs = &rest[..end];
        rest = &rest[end + 1..];
        if attrs.ends_with('/') {
            out.push((attrs, ""));
            continue;
        }
        let Some(stop) = rest.find(&close) else { break };
        out.push((attrs, rest[..stop].trim()));
        rest = &rest[stop + close.len()..];
    }
    out
}

fn attr<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=\"");
    let start = attrs.find(&key)? + key.len();
    attrs[start..].split('"').next()
}

fn half(location: &str) -> Option<&'static str> {
    Some(match location {
        "NL" => "NNW",
        "NR" => "NNE",
        "EL" => "ENE",
        "ER" => "ESE",
        "SL" => "SSE",
        "SR" => "SSW",
        "WL" => "WSW",
        "WR" => "WNW",
        _ => return None,
    })
}

fn list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("\"{i}\"")).collect();
    format!("[{}]", quoted.join(", "))
}

/// One JCloisterZone file as a tilekit set of its own.
fn transcribe(set: &str, xml: &str) -> (String, usize) {
    let mut xml = xml.to_string();
    while let (Some(a), Some(b)) = (xml.find("<!--"), xml.find("-->")) {
        xml.replace_range(a..b + 3, "");
    }
    let mut out = format!("format = 1\n[set]\nid = \"{set}\"\nname = \"{set}\"\n{VOCABULARY}");
    let mut tiles = 0;
    for (attrs, body) in elements(&xml, "tile") {
        let Some(id) = attr(attrs, "id") else {
            continue;
        };
        let mut edges = [
            ("N", "field"),
            ("E", "field"),
            ("S", "field"),
            ("W", "field"),
        ];
        let mut set_edges = |sides: &str, kind: &'static str| {
            for side in sides.split_whitespace() {
                if let Some(e) = edges.iter_mut().find(|(s, _)| *s == side) {
                    e.1 = kind;
                }
            }
        };
        let cities = elements(body, "city");
        let roads = elements(body, "road");
        cities.iter().for_each(|(_, t)| set_edges(t, "city"));
        roads.iter().for_each(|(_, t)| set_edges(t, "road"));
        elements(body, "river")
            .iter()
            .for_each(|(_, t)| set_edges(t, "river"));
        let monastery = body.contains("<monastery");
        let mut lines = vec![
            "[[tile]]".to_string(),
            format!("id = \"T{tiles}\""),
            format!("aliases = [\"{id}\"]"),
            "count = 1".to_string(),
        ];
        if tiles == 0 {
            lines.push("start = true".to_string());
        }
        lines.push(format!(
            "edges = {{ n = \"{}\", e = \"{}\", s = \"{}\", w = \"{}\" }}",
            edges[0].1, edges[1].1, edges[2].1, edges[3].1
        ));
        if monastery {
            lines.push("monastery = true".to_string());
        }
        if body.contains("<garden") {
            lines.push("garden = true".to_string());
        }
        let cities: Vec<String> = cities
            .iter()
            .map(|(_, t)| {
                format!(
                    "{{ ports = {} }}",
                    list(&t.split_whitespace().collect::<Vec<_>>())
                )
            })
            .collect();
        if !cities.is_empty() {
            lines.push(format!("cities = [{}]", cities.join(", ")));
        }
        let roads: Vec<String> = roads
            .iter()
            .map(|(_, t)| {
                let ports: Vec<&str> = t.split_whitespace().collect();
                match ports.len() {
                    1 => format!(
                        "{{ ports = {}, end = \"{}\" }}",
                        list(&ports),
                        if monastery { "monastery" } else { "junction" }
                    ),
                    _ => format!("{{ ports = {} }}", list(&ports)),
                }
            })
            .collect();
        if !roads.is_empty() {
            lines.push(format!("roads = [{}]", roads.join(", ")));
        }
        let mut used: Vec<&str> = Vec::new();
        let fields: Vec<String> = elements(body, "field")
            .iter()
            .map(|(attrs, t)| {
                let ports: Vec<&str> = t.split_whitespace().filter_map(half).collect();
                used.extend(&ports);
                let place = if ports.is_empty() {
                    "inner = true".to_string()
                } else {
                    format!("ports = {}", list(&ports))
                };
                match attr(attrs, "city") {
                    Some(c) => format!(
                        "{{ {place}, cities = {} }}",
                        list(&c.split_whitespace().collect::<Vec<_>>())
                    ),
                    None => format!("{{ {place} }}"),
                }
            })
            .collect();
        if !fields.is_empty() {
            lines.push(format!("fields = [{}]", fields.join(", ")));
        }
        let halves = [
            ("N", ["NNW", "NNE"]),
            ("E", ["ENE", "ESE"]),
            ("S", ["SSE", "SSW"]),
            ("W", ["WSW", "WNW"]),
        ];
        let empty: Vec<&str> = halves
            .iter()
            .zip(edges)
            .filter(|(_, (_, kind))| *kind != "city")
            .flat_map(|((_, ports), _)| ports)
            .copied()
            .filter(|p| !used.contains(p))
            .collect();
        if !empty.is_empty() {
            lines.push(format!("empty = {}", list(&empty)));
        }
        out.push_str(&lines.join("\n"));
        out.push_str("\n\n");
        tiles += 1;
    }
    (out, tiles)
}

#[test]
fn every_jcz_tile_validates_as_written() {
    // `shared/` lies beside the repository (CI), or beside the folder of worktrees.
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let found = ["../shared/reference/jcz", "../../shared/reference/jcz"]
        .iter()
        .map(|d| repository.join(d))
        .find(|d| d.is_dir());
    let Some(dir) = found else {
        eprintln!("skipped: no shared/reference/jcz beside the repository");
        return;
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} is unreadable", dir.display());
        return;
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 22, "the reference has 22 files");
    let mut tiles = 0;
    let mut relations = 0;
    for path in files {
        let xml = std::fs::read_to_string(&path).expect("readable");
        relations += xml.matches("<field city=").count();
        let set = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("jcz")
            .replace('_', "-");
        let (text, count) = transcribe(&set, &xml);
        tiles += count;
        let report = tiledef::load(vec![Source {
            name: format!("{set}.toml"),
            text,
        }]);
        let errors: Vec<String> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == tiledef::Severity::Error)
            .map(|d| d.render_plain())
            .collect();
        assert!(
            errors.is_empty(),
            "{}:\n{}",
            path.display(),
            errors.join("\n")
        );
    }
    eprintln!("{tiles} tiles, {relations} field@city relations");
    assert!(tiles >= 228, "{tiles} tiles");
    assert!(relations >= 200, "{relations} field@city relations");
}
