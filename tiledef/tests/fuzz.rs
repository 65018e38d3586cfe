//! Fuzz-style tests: the loader never panics, and every diagnostic span lies inside its file,
//! whatever the input. Seeded mutations of the bundled files (deterministic, thousands of cases)
//! and random documents from proptest.

use proptest::prelude::*;
use tiledef::{Source, bundled, load};

/// SplitMix64: a tiny deterministic generator, so a failing case is reproducible by its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Words that make mutations land on meaningful spots more often than random bytes would.
const TOKENS: &[&str] = &[
    "N",
    "NNW",
    "WSW",
    "inner",
    "\"city\"",
    "\"road\"",
    "\"bushes\"",
    "\"field\"",
    "0",
    "-1",
    "1.5",
    "99999999999999999999",
    "true",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    "\"",
    "'",
    "\n",
    "[[tile]]",
    "[set]",
    "count",
    "ports",
    "cities",
    "fields",
    "roads",
    "start = true",
    "end = \"junction\"",
    "pennants",
    "flowers = [\"white\"]",
    "markers = [\"festival\"]",
    "é",
    "#",
    "\u{0}",
    "format = 2",
    "requires = [\"nope\"]",
    "id = \"D\"",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(5) {
            0 => {
                let end = (at + 1 + rng.below(40)).min(bytes.len());
                bytes.drain(at..end);
            }
            1 => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                bytes.splice(at..at, token.iter().copied());
            }
            2 => {
                // Duplicate a line.
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let lines: Vec<&str> = text.lines().collect();
                let i = rng.below(lines.len());
                let mut out: Vec<&str> = lines.clone();
                if let Some(line) = lines.get(i) {
                    out.insert(i, line);
                }
                bytes = out.join("\n").into_bytes();
            }
            3 => {
                if at < bytes.len() {
                    bytes[at] = (rng.next() & 0x7f) as u8;
                }
            }
            _ => {
                // Swap two lines.
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let mut lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    lines.swap(a, b);
                }
                bytes = lines.join("\n").into_bytes();
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn assert_spans_inside(sources: &[Source]) {
    let report = load(sources.to_vec());
    for d in &report.diagnostics {
        let text = &sources
            .iter()
            .find(|s| s.name == d.file())
            .expect("a diagnostic names a loaded file")
            .text;
        assert!(
            d.span.start <= d.span.end && d.span.end <= text.len(),
            "span {:?} outside {} ({} bytes): {}",
            d.span,
            d.file(),
            text.len(),
            d.message
        );
        assert!(text.is_char_boundary(d.span.start) && text.is_char_boundary(d.span.end));
        // Rendering must not panic either.
        let _ = d.render_plain();
    }
    assert_eq!(report.tileset.is_some(), !report.has_errors());
}

#[test]
fn mutated_bundled_files_never_panic() {
    let files = bundled();
    let cases = if cfg!(debug_assertions) { 1000 } else { 5000 };
    for seed in 0..cases {
        let mut rng = Rng(seed);
        let which = rng.below(files.len());
        let mut sources = files.clone();
        sources[which].text = mutate(&files[which].text, &mut rng);
        // Load the mutated file with the files it needs, and sometimes alone.
        if rng.below(4) == 0 {
            sources = vec![sources[which].clone()];
        }
        assert_spans_inside(&sources);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_documents_never_panic(text in "(format = 1\n|\\[set\\]\nid = \"x\"\nname = \"x\"\n|\\[\\[tile\\]\\]\n|id = \"[A-Z]\"\n|count = [0-9]\n|edges = \\{ n = \"(city|road|field)\", e = \"road\", s = \"field\", w = \"x\" \\}\n|cities = \\[\\{ ports = \\[\"(N|NNW|X)\"\\] \\}\\]\n|[a-z=\\[\\]{}\"', .0-9\n]{0,12}){0,12}") {
        let base = bundled().into_iter().filter(|s| s.name == "definitions/base.toml");
        let sources: Vec<Source> = base.chain([Source { name: "fuzz.toml".to_string(), text }]).collect();
        assert_spans_inside(&sources);
    }
}
