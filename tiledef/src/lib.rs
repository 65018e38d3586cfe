//! tiledef owns the tilekit tile format: the types an author writes in TOML (`model`), the JSON
//! Schema generated from them, loading with spans (`source`), the schema check (`schema`), the
//! semantic checks that no schema can express (`check`), the diagnostics they produce
//! (`diagnostic`), and the resolved `TileSet` that the engine and renderer consume (`tileset`).
//!
//! Data flows one way: text → JSON value with spans → schema → serde model → checks → `TileSet`.
//! It knows nothing of the engine, rendering or the CLI.

mod check;
pub mod diagnostic;
mod load;
pub mod model;
pub mod picture;
pub mod port;
pub mod schema;
pub mod source;
pub mod tileset;

pub use diagnostic::{Diagnostic, Severity};
pub use load::{
    BUNDLED_SUFFIX, DeclarationPlace, Declared, FileCheck, FileSummary, MAX_FILE_BYTES, ReadError,
    Report, TilePlace, bundled, bundled_requirements, check_file, check_files, declared_set, load,
    load_bundled, read_paths, read_text,
};
pub use model::{
    ArtHints, Beside, BonusDef, Completion, CornerScoresDef, Count, CreatureDef, DealtDef,
    DeployWhere, EatsAll, EatsDef, EdgeStyle, EffectCount, EffectDef, EmblemDef, FORMAT_VERSION,
    FeatureDef, FeatureKindDef, FigureAt, FigureDef, GroupDraw, GuardsDef, JczEdge, KindRates,
    KindScoring, KindValue, LookBorder, LookDef, LookStyle, MarkerIcon, MarkerPlace, MarkerRule,
    Meeting, MovesDef, PathRule, PowerDef, RangeDef, Rates, Removes, ReserveDef, ReserveInto,
    ScoringDef, SetFigure, Shape, SmallRates, SpareStarts, StrengthDef, TileFeatures, TileSetFile,
    TokenDef,
};
pub use port::{Port, Side};
pub use schema::{json_schema, json_schema_text};
pub use source::Source;
pub use tileset::{
    Colour, CornerFigure, Creature, CreatureEats, EdgeKind, Edition, Effect, Emblem, Feature,
    FeatureKindId, FeatureKindInfo, FigurePower, FollowerKind, Group, KindPoints, LineEnd, Look,
    MarkerKind, RegionRates, Rgb, SetInfo, SmallPoints, Strength, Tile, TileSet,
};
