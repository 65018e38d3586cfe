//! `tilekit export jcz-addon`: tilekit sets → a JCloisterZone add-on (`.jca`). The tiles are
//! written as `export jcz` writes them, with one `<expansion>` per set; the artwork is drawn by
//! tilekit-render (each picture, and each feature's area and follower point from the same
//! layout); tilekit-jcz lays the package out from that plain data.

use crate::inputs::{Check, Inputs, SetsArg};
use crate::output::write_atomic;
use clap::Args;
use miette::{IntoDiagnostic, miette};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tiledef::{TileSet, TileSetFile};
use tilekit_jcz::addon::{self, FeatureArt, Meta, TileArt};
use tilekit_jcz::export::Losses;
use tilekit_jcz::{Note, vocab};
use tilekit_render::DrawOptions;

/// Arguments of `tilekit export jcz-addon`.
#[derive(Args)]
pub struct AddonArgs {
    #[command(flatten)]
    inputs: Inputs,
    /// Export only these sets (comma-separated ids; default: the sets named, or all of
    /// ./definitions); the sets they require are loaded but not exported.
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    sets: Vec<String>,
    /// The add-on file to write; its name is the add-on's id.
    #[arg(long, value_name = "FILE.jca")]
    out: PathBuf,
    /// The add-on's title in JCZ (default: the exported sets' names).
    #[arg(long)]
    title: Option<String>,
    /// The add-on's version, a whole number: raise it for each release you share.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    addon_version: u32,
    /// The pictures' size in pixels (JCZ's tile size is 900); a multiple of 40 keeps the
    /// shapes' corners on whole units.
    #[arg(long, value_name = "PX", default_value_t = 600, value_parser = clap::value_parser!(u32).range(40..=2000))]
    tile_size: u32,
}

/// The sets to export, read as files (the XML is written from them) and as loaded.
struct Chosen {
    /// Exported sets JCZ does not ship: their tiles go into the XML.
    own: Vec<TileSetFile>,
    /// Exported sets JCZ ships: drawn only.
    shipped: Vec<TileSetFile>,
    /// The other loaded sets (required ones), which name the tiles `like` refers to.
    context: Vec<TileSetFile>,
}

/// Runs `tilekit export jcz-addon`.
pub fn run(args: &AddonArgs) -> miette::Result<ExitCode> {
    if args.out.is_dir() {
        return Err(miette!(
            "--out {} is a folder; name the add-on file to write (FILE.jca)",
            args.out.display()
        ));
    }
    let id = addon_id(&args.out)?;
    addon::check_id(&id).map_err(|e| miette!("{e} (the id is --out's file name)"))?;
    crate::output::refuse_overwriting(&args.inputs.files(), std::slice::from_ref(&args.out))?;
    let tileset =
        match crate::inputs::load_printed(&args.inputs, &SetsArg::default(), Check::Pictures)? {
            Ok((tileset, _)) => tileset,
            Err(code) => {
                crate::errln!("error: the definitions do not validate; nothing was exported");
                return Ok(code);
            }
        };
    crate::inputs::guard_outputs(&args.inputs, &tileset, std::slice::from_ref(&args.out))?;
    let chosen = match choose(args, &tileset)? {
        Ok(chosen) => chosen,
        Err(message) => {
            crate::errln!("error: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let meta = Meta {
        id,
        title: args.title.clone().unwrap_or_else(|| default_title(&chosen)),
        version: args.addon_version,
    };
    let (xml, mut notes, losses) = xml_of(&chosen, &args.out);
    if let Some(message) = unheld(&xml, &chosen) {
        crate::errln!("error: {message}");
        return Ok(ExitCode::from(2));
    }
    let art = draw(&tileset, &chosen, args.tile_size)?;
    let comment = format!(
        "Exported by tilekit export jcz-addon: {}",
        set_ids(&chosen.own).join(", ")
    );
    let (bytes, missing) =
        addon::package(&meta, &xml, &comment, &art, args.tile_size).map_err(|e| miette!("{e}"))?;
    notes.extend(missing);
    write_atomic(&args.out, &bytes)?;
    report(&args.out, &meta, &xml, art.len(), &notes, &losses)
}

/// The add-on's id: `--out`'s file name without `.jca`.
fn addon_id(out: &Path) -> miette::Result<String> {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| miette!("--out {} names no file", out.display()))?;
    Ok(name.strip_suffix(".jca").unwrap_or(&name).to_string())
}

/// The exported sets: `--sets`, else those named on the command line (or ./definitions).
fn choose(args: &AddonArgs, tileset: &TileSet) -> miette::Result<Result<Chosen, String>> {
    let all = parse(&args.inputs.sources()?)?;
    let wanted: Vec<String> = if args.sets.is_empty() {
        let named = if args.inputs.paths.is_empty() {
            args.inputs.sources()?
        } else {
            tiledef::read_paths(&args.inputs.paths).into_diagnostic()?
        };
        set_ids(&parse(&named)?)
    } else {
        let known: Vec<&str> = tileset.sets.iter().map(|s| s.id.as_str()).collect();
        if let Some(id) = args.sets.iter().find(|id| !known.contains(&id.as_str())) {
            let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            return Ok(Err(format!(
                "--sets: no set `{id}` is loaded (loaded: {})",
                known.join(", ")
            )));
        }
        args.sets.clone()
    };
    let mut chosen = Chosen {
        own: Vec::new(),
        shipped: Vec::new(),
        context: Vec::new(),
    };
    for set in all {
        let family = vocab::family_of_set(&set.set.id);
        if !wanted.contains(&set.set.id) {
            chosen.context.push(set);
        } else if vocab::JCZ_FAMILIES.contains(&family.as_str()) {
            chosen.shipped.push(set);
        } else {
            chosen.own.push(set);
        }
    }
    Ok(Ok(chosen))
}

fn parse(sources: &[tiledef::Source]) -> miette::Result<Vec<TileSetFile>> {
    sources
        .iter()
        .map(|s| toml::from_str::<TileSetFile>(&s.text).map_err(|e| miette!("{}: {e}", s.name)))
        .collect()
}

fn set_ids(sets: &[TileSetFile]) -> Vec<String> {
    sets.iter().map(|s| s.set.id.clone()).collect()
}

/// The names of the sets the add-on carries: those it defines, then those it only draws (an
/// add-on of seven sets is not titled after the one JCZ lacks).
fn default_title(chosen: &Chosen) -> String {
    let sets = chosen.own.iter().chain(&chosen.shipped);
    let names: Vec<&str> = sets.map(|s| s.set.name.as_str()).collect();
    if names.is_empty() {
        "tilekit tiles".to_string()
    } else {
        names.join(" + ")
    }
}

/// The XML of the sets JCZ does not ship, with their `<expansion>`s, and the notes: what JCZ
/// cannot play, and each shipped set left to JCZ.
fn xml_of(chosen: &Chosen, out: &Path) -> (tilekit_jcz::xml::JczFile, Vec<Note>, Losses) {
    let mut context = chosen.context.clone();
    context.extend(chosen.shipped.iter().cloned());
    let name = out.display().to_string();
    // The add-on's expansions switch on the figures JCZ's rules know (`addon::expansion`).
    let plays_figure = |id: &str| vocab::element_of_figure(id).is_some();
    let export = tilekit_jcz::export::export_for(&chosen.own, &context, &name, &plays_figure);
    let (mut xml, mut notes, losses) = (export.xml, export.notes, export.losses);
    // The add-on carries tilekit's pictures: a label is not lost (and never counted in
    // `losses`).
    notes.retain(|n| tilekit_jcz::export::plays(&n.kind));
    for set in &chosen.own {
        let family = vocab::family_of_set(&set.set.id);
        let tile_sets: Vec<String> = (xml.sets.iter())
            .filter(|ts| ts.id.split(':').next() == Some(family.as_str()))
            .map(|ts| ts.id.clone())
            .collect();
        // A set without tiles has no tile-set: an expansion of nothing would only be listed.
        if !tile_sets.is_empty() {
            xml.others.push((addon::expansion(set, &tile_sets), 0));
        }
    }
    for set in &chosen.shipped {
        notes.push(Note {
            file: set.set.id.clone(),
            tile: None,
            kind: "shipped by JCZ".to_string(),
            detail: format!(
                "JCZ has `{}` itself: its tiles are drawn in the artwork but not defined again (JCZ refuses a tile defined twice)",
                vocab::family_of_set(&set.set.id)
            ),
        });
    }
    (xml, notes, losses)
}

/// Tiles the XML's tile-sets count that neither the XML nor JCZ defines (a reprint of a tile of
/// a required set that is not exported): JCZ's client fails to load any expansion then.
fn unheld(xml: &tilekit_jcz::xml::JczFile, chosen: &Chosen) -> Option<String> {
    let jczs = (chosen.shipped.iter().chain(&chosen.context))
        .filter(|s| vocab::JCZ_FAMILIES.contains(&vocab::family_of_set(&s.set.id).as_str()));
    let mut held: Vec<String> = xml.tiles.iter().map(|t| t.id.clone()).collect();
    held.extend(jczs.flat_map(|s| s.tiles.iter().map(tilekit_jcz::export::jcz_id)));
    let mut missing: Vec<String> = (xml.sets.iter())
        .flat_map(|ts| ts.refs.iter().map(|(tile, _)| tile))
        .filter(|tile| !held.contains(tile))
        .map(|tile| format!("`{tile}`"))
        .collect();
    missing.dedup();
    (!missing.is_empty()).then(|| {
        format!(
            "the exported sets reprint {}, of a set that is neither exported nor JCZ's: export it too (--sets), or JCZ cannot load the add-on",
            missing.join(", ")
        )
    })
}

/// Every exported tile drawn (reprints are their original's JCZ tile): picture and areas.
fn draw(tileset: &TileSet, chosen: &Chosen, px: u32) -> miette::Result<Vec<TileArt>> {
    let mut wanted: Vec<(usize, String)> = Vec::new();
    for set in chosen.own.iter().chain(&chosen.shipped) {
        let Some(s) = tileset.sets.iter().position(|i| i.id == set.set.id) else {
            continue;
        };
        for def in set.tiles.iter().filter(|d| d.like.is_none()) {
            if let Some(t) = tileset
                .tiles
                .iter()
                .position(|t| t.set == s && t.id == def.id)
            {
                wanted.push((t, tilekit_jcz::export::jcz_id(def)));
            }
        }
    }
    let options = DrawOptions {
        artwork: true,
        ..DrawOptions::default()
    };
    wanted
        .par_iter()
        .map(|(t, jcz_id)| {
            let tile = &tileset.tiles[*t];
            let png = tilekit_render::render_tile_png(tileset, tile, px, &options)
                .map_err(|e| miette!("{e}"))?;
            Ok(TileArt {
                jcz_id: jcz_id.clone(),
                file_stem: tile.id.clone(),
                png,
                features: features(tileset, tile),
            })
        })
        .collect()
}

/// The clips and points of a tile's features that JCloisterZone has (a kind with a `jcz`
/// element): a lake, which the XML leaves out, gets no art either.
fn features(tileset: &TileSet, tile: &tiledef::Tile) -> Vec<FeatureArt> {
    tilekit_render::feature_areas(tileset, tile)
        .into_iter()
        .filter_map(|a| {
            let feature = &tile.features[a.feature];
            let kind = tileset.kind_of(feature);
            Some(FeatureArt {
                element: kind.jcz.clone()?,
                shape: kind.shape,
                ports: feature.ports.clone(),
                outline: (a.outline.iter())
                    .map(|ring| ring.iter().map(|p| [p.x, p.y]).collect())
                    .collect(),
                point: [a.point.x, a.point.y],
            })
        })
        .collect()
}

fn report(
    out: &Path,
    meta: &Meta,
    xml: &tilekit_jcz::xml::JczFile,
    drawn: usize,
    notes: &[Note],
    losses: &Losses,
) -> miette::Result<ExitCode> {
    if !notes.is_empty() {
        crate::err!(
            "{}",
            tilekit_jcz::report_text(
                "tilekit export jcz-addon: what JCZ cannot play",
                &losses.sentence(),
                notes
            )
        );
    }
    crate::outln!(
        "{}: add-on `{}` version {}: {} tiles in {} tile-sets, {drawn} tiles drawn; {} things JCZ cannot play",
        out.display(),
        meta.id,
        meta.version,
        xml.tiles.len(),
        xml.sets.len(),
        notes.len()
    )?;
    Ok(ExitCode::SUCCESS)
}
