//! One module per subcommand.

pub mod bench;
pub mod build;
pub mod compile;
pub mod export;
pub mod import;
pub mod inspect;
pub mod jcz_addon;
pub mod list;
pub mod play;
pub mod render;
pub mod schema;
pub mod serve;
pub mod sheet;
pub mod simulate;
pub mod validate;
