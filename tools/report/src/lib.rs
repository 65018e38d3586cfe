//! Balance reports of simulated games (`tilekit simulate --report DIR`): what each tile type,
//! set and seat did over many games, an A/B comparison of the games with and without some
//! sets, and the charts and pages that show it.
//!
//! - `tally`: what is gathered from each game as it finishes (the credit rule lives here);
//! - `stats`: running sums, the 95 % intervals and the multiple-comparison correction;
//! - `report`: the figures of a tally (`report.json`);
//! - `bots`: the bot study, how each bot uses the author's figures, kinds and markers;
//! - `findings`: what is out of line with confidence, found from the report's estimates;
//! - `compare`: the A/B differences with their intervals;
//! - `paired`: paired A/B runs (game i on both sides) and their per-game sums;
//! - `charts`: the charts, as SVG and PNG (plotters);
//! - `html`: the self-contained `report.html`.
//!
//! The crate reads games through `engine::simulate::Collect`, so it reports whatever players
//! the simulator plays, and it writes nothing itself: `files` returns the folder's files as
//! bytes for the caller to write.

pub mod bots;
pub mod charts;
pub mod compare;
pub mod findings;
pub mod html;
pub mod paired;
pub mod report;
pub mod stats;
pub mod tally;

pub use compare::{Comparison, Diff, Spec, Tallied};
pub use report::{Report, RunInfo};
pub use tally::Tally;

/// The files of a report folder: names and contents, in a fixed order.
pub fn files(
    report: &Report,
    comparison: Option<&Comparison>,
) -> Result<Vec<(String, Vec<u8>)>, ChartError> {
    let charts = charts::all(report, comparison)?;
    let mut out = Vec::new();
    let json = serde_json::json!({ "report": report, "compare": comparison });
    let mut text = serde_json::to_string_pretty(&json).unwrap_or_default();
    text.push('\n');
    out.push(("report.json".to_string(), text.into_bytes()));
    out.push((
        "report.html".to_string(),
        html::page(report, comparison, &charts).into_bytes(),
    ));
    for c in charts {
        out.push((format!("{}.svg", c.name), c.svg.into_bytes()));
        out.push((format!("{}.png", c.name), c.png));
    }
    Ok(out)
}

/// A chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the {chart} chart: {message}")]
pub struct ChartError {
    /// Which chart.
    pub chart: &'static str,
    /// What the plotting library said.
    pub message: String,
}
