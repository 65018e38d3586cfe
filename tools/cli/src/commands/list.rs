//! `tilekit list`: a table of tile types (id, count, edges, features).

use crate::inputs::{Check, Inputs, SetsArg, load_printed};
use clap::Args;
use std::fmt::Write;
use std::process::ExitCode;
use tiledef::{Shape, TileSet};

/// Arguments of `tilekit list`.
#[derive(Args)]
pub struct ListArgs {
    #[command(flatten)]
    inputs: Inputs,
    #[command(flatten)]
    sets: SetsArg,
}

/// Runs `tilekit list`.
pub fn run(args: &ListArgs) -> miette::Result<ExitCode> {
    let (tileset, printed) = match load_printed(&args.inputs, &args.sets, Check::Data)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    crate::out!("{}", table(&tileset, &printed.tiles(&tileset)))?;
    Ok(ExitCode::SUCCESS)
}

/// The table `tilekit list` prints, of the given tile types (indices into `tileset.tiles`).
pub fn table(tileset: &TileSet, tiles: &[usize]) -> String {
    let editions: Vec<&str> = tileset.editions.iter().map(|e| e.id.as_str()).collect();
    // Counts the same in every edition (a set that declares none): one number, no edition.
    let uniform = (tiles.iter()).all(|&i| {
        let counts = &tileset.tiles[i].counts;
        counts.windows(2).all(|pair| pair[0] == pair[1])
    });
    let count_header = if uniform {
        "count".to_string()
    } else {
        format!("count ({})", editions.join("/"))
    };
    let mut rows = vec![[
        "set".to_string(),
        "id".to_string(),
        count_header,
        "edges n e s w".to_string(),
        "features".to_string(),
    ]];
    for tile in tiles.iter().map(|&i| &tileset.tiles[i]) {
        let shown = if uniform {
            &tile.counts[..tile.counts.len().min(1)]
        } else {
            &tile.counts[..]
        };
        let counts: Vec<String> = shown.iter().map(u32::to_string).collect();
        let edges: Vec<&str> = tile
            .edges
            .iter()
            .map(|&k| tileset.edge_kinds[k].id.as_str())
            .collect();
        let mut id = tile.id.clone();
        if tile.start {
            id.push_str(" (start)");
        }
        rows.push([
            tileset.sets[tile.set].id.clone(),
            id,
            counts.join("/"),
            edges.join(" "),
            features(tileset, tile),
        ]);
    }
    let widths: Vec<usize> = (0..5)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
        if i == 0 {
            let _ = writeln!(out, "{}", "-".repeat(widths.iter().sum::<usize>() + 8));
        }
    }
    let total = |e: usize| {
        tiles
            .iter()
            .map(|&i| tileset.tiles[i].counts.get(e).copied().unwrap_or(0))
            .sum::<u32>()
    };
    let types = match tiles.len() {
        1 => "1 tile type".to_string(),
        n => format!("{n} tile types"),
    };
    if uniform {
        let _ = writeln!(out, "{types}; {} tiles", total(0));
    } else {
        let totals: Vec<String> = (0..editions.len())
            .map(|e| format!("{} {}", editions[e], total(e)))
            .collect();
        let _ = writeln!(out, "{types}; tiles per edition: {}", totals.join(", "));
    }
    out
}

fn features(tileset: &TileSet, tile: &tiledef::Tile) -> String {
    let mut parts = Vec::new();
    for f in &tile.features {
        let ports: Vec<&str> = f.ports.iter().map(|p| p.name()).collect();
        let kind = tileset.kind_of(f);
        let mut text = match kind.shape {
            Shape::Site => kind.id.clone(),
            _ if ports.is_empty() => format!("{}[inner]", kind.id),
            _ => format!("{}[{}]", kind.id, ports.join(" ")),
        };
        if !f.borders.is_empty() {
            let borders: Vec<&str> = f
                .borders
                .iter()
                .filter_map(|&c| tile.features[c].ports.first().map(|p| p.name()))
                .collect();
            let _ = write!(text, "→{}", borders.join(","));
        }
        if f.emblems > 0 {
            text.push_str(&"+".repeat(f.emblems as usize));
        }
        for &c in &f.flowers {
            let _ = write!(text, " ✿{}", tileset.colours[c].id);
        }
        for &m in &f.markers {
            let _ = write!(text, " {}", tileset.markers[m].id);
        }
        parts.push(text);
    }
    if tile.marketplace
        && let Some(hub) = tileset.feature_kinds.iter().find(|k| k.hub)
    {
        parts.push(hub.id.clone());
    }
    for &m in &tile.markers {
        parts.push(tileset.markers[m].id.clone());
    }
    parts.join("; ")
}
