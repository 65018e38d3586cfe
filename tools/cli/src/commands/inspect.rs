//! `tilekit inspect TILE_ID`: one compiled tile, rotation by rotation.

use crate::inputs::{Inputs, load_valid};
use clap::Args;
use engine::KindId;
use engine::tables::{NO_FEATURE, Tables};
use std::fmt::Write;
use std::process::ExitCode;
use tiledef::Port;

/// Arguments of `tilekit inspect`.
#[derive(Args)]
pub struct InspectArgs {
    /// The tile id (or alias) to show.
    tile: String,
    #[command(flatten)]
    inputs: Inputs,
    /// Print the compiled records as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `tilekit inspect`.
pub fn run(args: &InspectArgs) -> miette::Result<ExitCode> {
    let Ok(tileset) = load_valid(&args.inputs)? else {
        return Ok(ExitCode::from(1));
    };
    let tables = crate::inputs::compile_tables(&tileset)?;
    let id = tileset
        .tile(&args.tile)
        .map(|t| t.id.clone())
        .unwrap_or_else(|| args.tile.clone());
    let Some(kind) = tables.kind_by_id(&id) else {
        crate::errln!("error: no tile `{}` in the loaded sets", args.tile);
        return Ok(ExitCode::from(2));
    };
    if args.json {
        let k = tables.kind(kind);
        let orients: Vec<_> = k
            .orients
            .iter()
            .map(|&o| &tables.orients[o as usize])
            .collect();
        let value = serde_json::json!({ "kind": k, "orients": orients });
        crate::output::print_json(&value)?;
    } else {
        crate::out!("{}", describe(&tables, kind))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The text `tilekit inspect` prints for a tile kind.
pub fn describe(tables: &Tables, kind: KindId) -> String {
    let k = tables.kind(kind);
    let mut out = String::new();
    // A reserve tile's counts are the copies printed; what each player holds is said apart.
    let reserve = (k.reserve.as_ref()).map_or_else(String::new, |r| {
        let into = match r.into {
            tiledef::model::ReserveInto::ClosedGap => "a closed gap",
        };
        format!(", held in reserve: {} each, into {into}", r.each)
    });
    let _ = writeln!(
        out,
        "{}{} — set {}, counts {:?}{}{reserve}",
        k.id,
        k.name
            .as_ref()
            .map(|n| format!(" ({n})"))
            .unwrap_or_default(),
        tables.sets[k.set as usize],
        k.counts,
        if k.start { ", start tile" } else { "" }
    );

    let same: Vec<String> = (0..4)
        .map(|r| {
            let o = &tables.orients[k.rotation_orient[r] as usize];
            format!("{r}→{}", o.rotation)
        })
        .collect();
    let _ = writeln!(
        out,
        "{} distinct rotation(s); rotation → equal rotation: {}",
        k.orients.len(),
        same.join(" ")
    );
    // The links hold local feature numbers, the same in every rotation listed below.
    if !k.moves.is_empty() {
        let links: Vec<String> = (k.moves.iter())
            .map(|&mask| {
                let members: Vec<String> = (0..64u8)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| i.to_string())
                    .collect();
                members.join("–")
            })
            .collect();
        let _ = writeln!(
            out,
            "moves (where a figure moving on may go): {}",
            links.join("; ")
        );
    }
    for &index in &k.orients {
        let o = &tables.orients[index as usize];
        let edges: Vec<&str> = o
            .edges
            .iter()
            .map(|&e| tables.edge_kinds[e as usize].as_str())
            .collect();
        let _ = writeln!(
            out,
            "\nrotation {} (orientation #{}): edges N {} · E {} · S {} · W {}",
            o.rotation, index, edges[0], edges[1], edges[2], edges[3]
        );
        let ports: Vec<String> = Port::ALL
            .iter()
            .map(|p| match o.ports[p.index()] {
                NO_FEATURE => format!("{p}:-"),
                f => format!("{p}:{f}"),
            })
            .collect();
        let _ = writeln!(out, "  ports  {}", ports.join(" "));
        for (i, f) in o.features.iter().enumerate() {
            let ports: Vec<&str> = Port::ALL
                .iter()
                .filter(|p| f.ports & (1 << p.index()) != 0)
                .map(|p| p.name())
                .collect();
            let mut line = format!("  {i}: {}", tables.feature(f.kind).id);
            if !ports.is_empty() {
                let _ = write!(line, " [{}]", ports.join(" "));
            }
            if f.open > 0 {
                let _ = write!(line, " open ends {}", f.open);
            }
            if let Some(emblem) = (tables.feature(f.kind).emblem.as_ref()).filter(|_| f.emblems > 0)
            {
                let _ = write!(line, " {} {}", emblem.plural, f.emblems);
            }
            if let Some(end) = f.end {
                let _ = write!(line, " ends at {}", tables.end_name(end));
            }
            // What a region borders, by kind: `borders cities [0]`.
            for (k, kind) in tables.features.iter().enumerate() {
                let of_kind: Vec<u8> = (f.borders.iter().copied())
                    .filter(|&b| usize::from(o.features[usize::from(b)].kind.0) == k)
                    .collect();
                if !of_kind.is_empty() {
                    let _ = write!(line, " borders {} {of_kind:?}", kind.plural);
                }
            }
            if !f.flowers.is_empty() {
                let names: Vec<&str> = f
                    .flowers
                    .iter()
                    .map(|&c| tables.colours.get(c as usize).map_or("?", String::as_str))
                    .collect();
                let _ = write!(line, " flowers {}", names.join(", "));
            }
            if !f.markers.is_empty() {
                let names: Vec<&str> = f
                    .markers
                    .iter()
                    .map(|&m| {
                        tables
                            .markers
                            .get(m as usize)
                            .map_or("?", |m| m.id.as_str())
                    })
                    .collect();
                let _ = write!(line, " markers {}", names.join(", "));
            }
            let _ = writeln!(out, "{line}");
        }
    }
    out
}
