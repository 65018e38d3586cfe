//! The rule flags shared by `simulate`, `bench` and `play`: options switched on by name, and
//! Village Life's mechanics each on its own, as FanCloisterZone does (what a flag leaves out
//! follows the sets in the game).

use clap::{Args, ValueEnum};

/// What the donkey blocks (see `engine::DonkeyBlocks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DonkeyBlocksArg {
    /// Closing any road or city on its tile, marketplace roads included.
    Road,
    /// A marketplace road on its tile may close unless that completes its network
    /// (FanCloisterZone's reading).
    Network,
}

/// Village Life's mechanics, each on its own.
#[derive(Args, Clone, Debug)]
pub struct VillageLifeArgs {
    /// The donkey on or off (default: on when a set in the game brings it, as Village Life does).
    #[arg(long, value_name = "true|false")]
    donkey: Option<bool>,
    /// What the donkey forbids completing on its tile.
    #[arg(long, value_enum, default_value_t = DonkeyBlocksArg::Road)]
    donkey_blocks: DonkeyBlocksArg,
    /// Windmills per player (default: 1 when a set in the game brings windmills, else 0).
    #[arg(long, value_name = "N")]
    windmills: Option<u8>,
    /// Flower colours and the flower bonus on or off (default: on when a tile of the draw has
    /// flower groups).
    #[arg(long, value_name = "true|false")]
    flower_bonus: Option<bool>,
}

impl VillageLifeArgs {
    /// Writes the flags into rule options.
    pub fn apply(&self, rules: &mut engine::RuleOptions) {
        rules.donkey = self.donkey;
        rules.donkey_blocks = match self.donkey_blocks {
            DonkeyBlocksArg::Road => engine::DonkeyBlocks::Road,
            DonkeyBlocksArg::Network => engine::DonkeyBlocks::Network,
        };
        rules.windmills = self.windmills;
        rules.flower_bonus = self.flower_bonus;
    }
}

/// Rule options switched on by name.
#[derive(Args, Clone, Debug)]
pub struct OptionArgs {
    /// Switch a rule option on: a house rule a loaded set declares (a scoring modifier's
    /// `option`) or one of the engine's (`first-edition-small-city`, `monastery-flowers-3x3`,
    /// `wells`). Repeat it, or separate names with commas; a name nothing declares is refused
    /// with the list of those that exist.
    #[arg(long = "option", value_name = "NAME", value_delimiter = ',')]
    options: Vec<String>,
}

impl OptionArgs {
    /// Adds the named options to `on`, each once.
    pub fn apply(&self, on: &mut Vec<String>) {
        for name in &self.options {
            if !on.contains(name) {
                on.push(name.clone());
            }
        }
    }
}
