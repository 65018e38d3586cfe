//! The expansions' rules, called by `crate::game` at fixed hooks; they work on the surface of
//! `crate::state` (and score through `crate::scoring`) and never import `crate::game`: each module holds the rule's own state
//! changes and scoring parts, driven by what the compiled tables say (markers with a rule,
//! flower groups, road ends at marketplaces, edge meetings), so a new tile needs no code.
//!
//! - `festival`: returning a figure after placing a Festival tile;
//! - `village_life`: flower colours and bonuses, the donkey, windmills, marketplace networks
//!   (bushes need no code: the `close` meeting of the vocabulary does it in `Core::join`);

pub mod festival;
pub mod village_life;
