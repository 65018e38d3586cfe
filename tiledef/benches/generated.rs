//! A generated tile set for load benchmarks (shared by the `load` bench and the `generate`
//! example, which writes it to a file for timing the `tilekit validate` process).

use std::fmt::Write;
use tiledef::Source;

/// A valid expansion of `n` distinct tile types: base-game shapes with 0 to 9 pennants (at
/// most `MAX_PENNANTS`) and, beyond the 30 tiles those make, a tile marker of their own (one
/// declared per 30 tiles), so no tile is another's twin.
pub fn generated_set(n: usize) -> Source {
    const SHAPES: &[&str] = &[
        "edges = { n = \"city\", e = \"road\", s = \"field\", w = \"road\" }\ncities = [{ ports = [\"N\"], pennants = PEN }]\nroads = [{ ports = [\"W\", \"E\"] }]\nfields = [\n  { ports = [\"ENE\", \"WNW\"], cities = [\"N\"] },\n  { ports = [\"ESE\", \"SSE\", \"SSW\", \"WSW\"] },\n]\n",
        "edges = { n = \"city\", e = \"road\", s = \"road\", w = \"road\" }\ncities = [{ ports = [\"N\"], pennants = PEN }]\nroads = [{ ports = [\"E\"], end = \"junction\" }, { ports = [\"S\"], end = \"junction\" }, { ports = [\"W\"], end = \"junction\" }]\nfields = [\n  { ports = [\"WNW\", \"ENE\"], cities = [\"N\"] },\n  { ports = [\"ESE\", \"SSE\"] },\n  { ports = [\"SSW\", \"WSW\"] },\n]\n",
        "edges = { n = \"city\", e = \"city\", s = \"field\", w = \"city\" }\ncities = [{ ports = [\"N\", \"E\", \"W\"], pennants = PEN }]\nfields = [{ ports = [\"SSE\", \"SSW\"], cities = [\"N\"] }]\n",
    ];
    let mut text = String::from(
        "format = 1\n[set]\nid = \"generated\"\nname = \"Generated\"\nrequires = [\"base\"]\n",
    );
    let variants = SHAPES.len() * 10;
    for m in 1..n.div_ceil(variants) {
        let _ = write!(
            text,
            "\n[[marker]]\nid = \"mark-{m}\"\nname = \"Mark {m}\"\non = \"tile\"\n"
        );
    }
    for i in 0..n {
        let pennants = (i / SHAPES.len()) % 10;
        let shape = SHAPES[i % SHAPES.len()].replace("PEN", &pennants.to_string());
        let marker = match i / variants {
            0 => String::new(),
            m => format!("markers = [\"mark-{m}\"]\n"),
        };
        let _ = write!(
            text,
            "\n[[tile]]\nid = \"GEN-{i}\"\ncount = {}\n{marker}{shape}",
            1 + i % 3
        );
    }
    Source {
        name: "generated.toml".to_string(),
        text,
    }
}
