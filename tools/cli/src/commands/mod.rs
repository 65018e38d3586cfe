//! One module per subcommand.

pub mod bench;
pub mod build;
pub mod compile;
pub mod inspect;
pub mod list;
pub mod play;
pub mod schema;
pub mod simulate;
pub mod validate;
