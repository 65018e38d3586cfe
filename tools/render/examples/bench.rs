//! Times the renderer on the bundled sets and writes what it drew into a folder:
//! `cargo run --release -p tilekit-render --example bench -- OUT_DIR`.
//!
//! Prints: the time per tile at 256 px (one thread); all tile types at 512 px as PNG files; the contact sheet; the PDF of every set at
//! 45 mm / 3 mm bleed / 5 mm margin / 300 dpi; and the page counts on A4 and Letter.

use std::path::PathBuf;
use std::time::Instant;
use tilekit_render::sheet::{Paper, SheetOptions, layout, write_pdf};
use tilekit_render::{DrawOptions, Label};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "bench-out".into()),
    );
    std::fs::create_dir_all(&out)?;
    let set = tiledef::load_bundled();
    let all: Vec<usize> = (0..set.tiles.len()).collect();

    // Per tile at 256 px on one thread: draw + rasterise + encode, best of 5 rounds.
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        for tile in &set.tiles {
            tilekit_render::render_tile_png(&set, tile, 256, &DrawOptions::default())?;
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "per tile at 256 px (one thread, best of 5): {:.3} ms over {} tile types",
        best * 1000.0 / set.tiles.len() as f64,
        set.tiles.len()
    );

    let start = Instant::now();
    let pngs = tilekit_render::render_pngs(
        &set,
        &all,
        512,
        &DrawOptions {
            label: Label::All,
            ..DrawOptions::default()
        },
    )?;
    for (id, bytes) in &pngs {
        write_file(&out.join(format!("{id}.png")), bytes)?;
    }
    println!(
        "previews: {} tile types at 512 px written in {:.3} s",
        pngs.len(),
        start.elapsed().as_secs_f64()
    );

    let start = Instant::now();
    let overlays = tilekit_render::render_pngs(
        &set,
        &all,
        512,
        &DrawOptions {
            label: Label::All,
            overlay: true,
            artwork: true,
        },
    )?;
    std::fs::create_dir_all(out.join("overlay"))?;
    for (id, bytes) in &overlays {
        write_file(&out.join("overlay").join(format!("{id}.png")), bytes)?;
    }
    println!(
        "overlays: {} in {:.3} s",
        overlays.len(),
        start.elapsed().as_secs_f64()
    );

    let start = Instant::now();
    let sheet = tilekit_render::contact::contact_sheet(&set, &all, &Default::default())?;
    write_file(
        &out.join("contact-sheet.png"),
        &tilekit_render::raster::encode_png(&sheet)?,
    )?;
    println!("contact sheet in {:.3} s", start.elapsed().as_secs_f64());

    for paper in [Paper::A4, Paper::Letter] {
        let options = SheetOptions {
            paper,
            edition: set.default_edition(),
            ..SheetOptions::default()
        };
        let start = Instant::now();
        let sheet = layout(&set, &options)?;
        let pdf = write_pdf(&set, &sheet, &options)?;
        write_file(&out.join(format!("sheet-{}.pdf", paper.name())), &pdf)?;
        println!(
            "PDF {} (all sets, {} tiles, {}×{} per page): {} pages, {} bytes in {:.3} s",
            paper.name(),
            sheet.tiles_placed,
            sheet.columns,
            sheet.rows,
            sheet.pages.len(),
            pdf.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Bench output is scratch: a plain write is enough (the CLI writes atomically).
fn write_file(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}
