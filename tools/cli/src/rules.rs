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

/// Where a wagon moves on (see `engine::WagonMove`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum WagonMoveArg {
    /// A feature the tiles' `moves` link to the completed one (JCZ's C1, the first edition's).
    Linked,
    /// Any feature on the wagon's tile or the eight around it (JCZ's C2, its client's default).
    Nearby,
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
        rules.modules.donkey = self.donkey;
        rules.modules.donkey_blocks = match self.donkey_blocks {
            DonkeyBlocksArg::Road => engine::DonkeyBlocks::Road,
            DonkeyBlocksArg::Network => engine::DonkeyBlocks::Network,
        };
        rules.modules.windmills = self.windmills;
        rules.modules.flower_bonus = self.flower_bonus;
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
    /// How many of a set's figures each player has, as `ID=N` (`--figure abbot=0` plays without
    /// the abbot; `--figure builder=1` deals the builder whatever the draw). Repeat it, or
    /// separate them with commas; an id no loaded set declares is refused.
    #[arg(long = "figure", value_name = "ID=N", value_delimiter = ',', value_parser = figure_count)]
    figures: Vec<(String, u8)>,
    /// Where a wagon (a figure that moves on) may go when its feature is completed (default:
    /// linked, or as the record says).
    #[arg(long, value_enum, value_name = "READING")]
    wagon_move: Option<WagonMoveArg>,
}

/// `abbot=0` as a figure id and a count.
pub(crate) fn figure_count(text: &str) -> Result<(String, u8), String> {
    let (id, n) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: write a figure id and a count, as `abbot=0`"))?;
    let max = tiledef::model::MAX_FIGURES;
    let n = (n.trim().parse::<u8>().ok())
        .filter(|&n| u32::from(n) <= max)
        .ok_or_else(|| {
            format!("`{text}`: the count of `{id}` must be a whole number from 0 to {max}")
        })?;
    Ok((id.trim().to_string(), n))
}

impl OptionArgs {
    /// Adds the named options to the rules' `on`, each once, the figure counts and the
    /// wagon's reading.
    pub fn apply(&self, rules: &mut engine::RuleOptions) {
        for name in &self.options {
            if !rules.on.contains(name) {
                rules.on.push(name.clone());
            }
        }
        for (id, n) in &self.figures {
            rules.figures.insert(id.clone(), *n);
        }
        match self.wagon_move {
            Some(WagonMoveArg::Linked) => rules.modules.wagon_move = engine::WagonMove::Linked,
            Some(WagonMoveArg::Nearby) => rules.modules.wagon_move = engine::WagonMove::Nearby,
            None => {}
        }
    }
}
