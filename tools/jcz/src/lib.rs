//! tilekit-jcz reads and writes JCloisterZone (JCZ) tile XML: `import` turns JCZ expansion
//! files into tilekit sets, `export` writes tilekit sets as JCZ tiles. What one side cannot say
//! is never dropped in silence: it becomes a `Note`, listed per tile in the report.
//!
//! Mapping (import; export is its inverse):
//! - **Sets**: one per JCZ tile-set family (the id before `:`, `/` → `-`); `basic` is `base` and
//!   declares the base vocabulary (edge kinds field, road, city; editions C1, C2). Every other set
//!   requires `base`. A tile referred to by several families belongs to the first; the others
//!   reprint it with `like` (and require the first), as Winter reprints the base game's tiles.
//! - **Vocabulary**: the river edge kind, every marker and the tile groups live in one shared set
//!   `jcz` (`jcz.toml`), required by the sets that use it, because many families share them
//!   (`inn` is in three files; River II's tiles join the River's group).
//! - **Rules** (JCZ's Java, keyed by its names in `vocab`): the river's `path = "no-u-turn"`;
//!   `tile@group` river-spring / river / river-lake / river-fork → group `river` (the spring its
//!   set's start, the lake `held_back`) or `river-fork` (drawn before `river`); inn and cathedral
//!   scoring modifiers; goods' tokens; the `inns-and-cathedrals` family's large follower
//!   (Traders & Builders' builder and pig are reported: the format has no such figures).
//!   `<remove>` → `[set] removes` (the set requires the removed tile's set).
//! - **Editions**: `:1` / `:2` are C1 / C2; equal counts become a plain number.
//! - **Tiles**: ids made valid (`/` → `-`, other characters → `_`, kept unique), the JCZ id kept as
//!   the alias. The start tile is the spring (`group="river-spring"`), else the one whose JCZ id
//!   the bundled set of the same id marks as start (JCZ's XML does not say: base's D). Tiles no tile-set refers to go into `<file>-unreferenced`.
//! - **Edges**: a side with a city is `city`, a road `road`, a river `river`, else `field`; half
//!   ports that no field owns go into `empty`.
//! - **Road ends** (JCZ does not say): a tile with a monastery → `monastery`; with a Festival place
//!   → `festival`; two or more one-port roads → `junction`; a city → `city`; a river → the river's
//!   first side; otherwise `junction`. Export reports a road whose end this would not give back.
//! - **Markers**: a tile element (`<tower/>`) → a tile marker; a flag of a feature
//!   (`road inn="true"`) → a marker on it; a flag of the monastery → a tile marker; a known valued
//!   attribute (`city resource="wine"`) → the marker named by the value; an unknown one
//!   (`a="b"`) → marker `a-b`; `tile@group` river-spring / river-lake → `spring` / `lake`. Icons
//!   come from `vocab::KNOWN`. `castle-base`, other tile attributes, attributes of tile
//!   elements, other tile groups and tile-set attributes are reported.
//! - **Wagon moves**: `wagon-move` letters on a city, road or monastery → the tile's `moves`,
//!   one link per letter (its features named by a port, the monastery by its kind, in the
//!   tile's feature order); a letter on one feature only, or on another element, is reported.
//!   Export writes link `i` as letter `a + i`.
//! - **Inner fields**: `I`; a tile with two inner fields writes the second `II`.
//! - **Expansions** (an add-on's `<expansion>`): its `<title>` names the sets of the tile-sets
//!   it refers to; export writes one per set (`addon`), implying the game elements its
//!   markers need.
//!
//! - **Village Life** (FanCloisterZone's XML, which JCZ 5 ignores): a bushes side → `bush="S"` on
//!   the road that ends there (else the tile's first road); flowers → `field@flowers`, in
//!   FanCloisterZone's tokens (`vocab::fancz_flowers`); a marketplace → `<marketplace
//!   marketplace="1"/>` and `marketplace="1"` on the roads ending at it (read back by import;
//!   bushes and flowers are reported there).
//!
//! `addon` lays out a JCZ add-on (`.jca`) from the XML and pictures drawn elsewhere; `zip` writes
//! it.

pub mod addon;
pub mod export;
pub mod import;
pub mod keys;
pub mod vocab;
pub mod write;
pub mod xml;
pub mod zip;

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Input that cannot be read as JCZ tiles.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The XML is malformed.
    #[error("{file}:{line}:{col}: malformed XML: {message}")]
    Xml {
        /// The file.
        file: String,
        /// Line, from 1.
        line: u32,
        /// Column, from 1.
        col: u32,
        /// What the parser said.
        message: String,
    },
    /// Elements nested deeper than `xml::MAX_DEPTH`.
    #[error(
        "{file}:{line}:{col}: elements nested more than {limit} deep; JCZ's own files nest four"
    )]
    TooDeep {
        /// The file.
        file: String,
        /// Line of the first element too deep, from 1.
        line: u32,
        /// Column, from 1.
        col: u32,
        /// The limit, `xml::MAX_DEPTH`.
        limit: usize,
    },
    /// A location that is no JCZ port.
    #[error(
        "{file}:{line}: tile `{tile}`: `{value}` in <{element}> is not a JCZ location (sides N E S W; field halves NL NR EL ER SL SR WL WR; I)"
    )]
    Port {
        /// The file.
        file: String,
        /// The line of the tile.
        line: u32,
        /// The JCZ tile id.
        tile: String,
        /// The element.
        element: String,
        /// The value that is not a port.
        value: String,
    },
    /// Well-formed XML that is not a JCZ tile file as expected.
    #[error("{file}:{line}: {message}")]
    Structure {
        /// The file.
        file: String,
        /// The line.
        line: u32,
        /// What is wrong.
        message: String,
    },
}

/// Something one side could not carry over, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The file it comes from.
    pub file: String,
    /// The tile (JCZ or tilekit id), or `tile-set <id>`; `None` for the file as a whole.
    pub tile: Option<String>,
    /// What kind of thing, for the summary: `road@wagon-move`, `<remove>`, `flowers`, …
    pub kind: String,
    /// The thing itself.
    pub detail: String,
}

/// Counts of notes by kind, for summaries.
pub fn count_kinds<'a>(notes: impl IntoIterator<Item = &'a Note>) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for n in notes {
        *counts.entry(n.kind.clone()).or_default() += 1;
    }
    counts
}

/// The report text: the lead sentence (if any), the notes grouped by file and tile, then the
/// counts by kind.
pub fn report_text(title: &str, lead: &str, notes: &[Note]) -> String {
    let mut out = format!("# {title}\n");
    if !lead.is_empty() {
        let _ = writeln!(out, "\n{lead}");
    }
    if notes.is_empty() {
        out.push_str("\nEverything was carried over.\n");
        return out;
    }
    let mut file = None;
    let mut i = 0;
    while i < notes.len() {
        let n = &notes[i];
        if file != Some(&n.file) {
            let _ = writeln!(out, "\n## {}", n.file);
            file = Some(&n.file);
        }
        let mut j = i;
        let mut items = Vec::new();
        while j < notes.len() && notes[j].file == n.file && notes[j].tile == n.tile {
            // An attribute's note is its value (`road@wagon-move "a"`); others read as a phrase.
            let sep = if notes[j].detail.starts_with('"') {
                " "
            } else {
                ": "
            };
            items.push(format!("{}{sep}{}", notes[j].kind, notes[j].detail));
            j += 1;
        }
        let _ = writeln!(
            out,
            "{}: {}",
            n.tile.as_deref().unwrap_or("(file)"),
            items.join("; ")
        );
        i = j;
    }
    out.push_str("\n## Summary\n");
    for (kind, n) in count_kinds(notes) {
        let _ = writeln!(out, "{n:5}  {kind}");
    }
    let _ = writeln!(out, "{:5}  in all", notes.len());
    out
}

/// Reads and imports JCZ XML texts given as (name, text), in order.
pub fn import_texts(inputs: &[(String, String)]) -> Result<import::Import, Error> {
    let files = inputs
        .iter()
        .map(|(name, text)| xml::parse(name, text))
        .collect::<Result<Vec<_>, _>>()?;
    import::import(&files, &import::Bundled::load())
}
