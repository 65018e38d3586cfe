//! One module per subcommand.

pub mod build;
pub mod list;
pub mod schema;
pub mod validate;
