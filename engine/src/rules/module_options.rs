//! The rule modules' switches: what a user writes for them (`ModuleOptions`, a part of a
//! record's `rules` table and of the command line's flags) and what a game plays
//! (`ModuleRules`, resolved for what the sets `in_play` finds can bring about), with their part
//! of the rules line.
//! `crate::options` holds one of each and reads, writes and prints them through this file.

use super::donkey::DonkeyBlocks;
use super::wagon::WagonMove;
use serde::Serialize;
use serde::de::MapAccess;
use std::fmt;

/// The options the engine switches on by name that are a module's (`on = ["wells"]` is
/// `wells = true`).
pub const NAMED: [&str; 2] = [MONASTERY_FLOWERS_3X3, WELLS];

/// The built-in option naming `monastery_flowers_3x3`.
const MONASTERY_FLOWERS_3X3: &str = "monastery-flowers-3x3";

/// The built-in option naming `wells`, also the scoring modifier option of a well's marker.
pub(crate) const WELLS: &str = "wells";

/// The modules' rule options, as a record's `rules` table writes them beside the core's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ModuleOptions {
    /// The Festival: after placing a Festival tile a player may return a figure instead.
    pub festival: bool,
    /// The donkey (Village Life); absent: in play when a set of the game brings it (its
    /// `[set] figures`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub donkey: Option<bool>,
    /// What the donkey forbids completing on its tile.
    pub donkey_blocks: DonkeyBlocks,
    /// Windmills per player (Village Life); absent: 1 when a set of the game brings windmills
    /// (its `[set] figures`), else 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub windmills: Option<u8>,
    /// Reserve tiles per player (Abbey & Mayor's abbey: a tile with `reserve`); absent: the
    /// tile's `each` when its set has a tile in the game; 0 takes them out of play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserve: Option<u8>,
    /// Flower colours and the flower bonus (Village Life); absent: on when a tile of the draw
    /// carries flower groups. Bushes and marketplaces always follow the data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flower_bonus: Option<bool>,
    /// The Wells: +1 per well on a scored road.
    pub wells: bool,
    /// A monastery's flowers are those of its 3×3 range (default: its own tile only).
    pub monastery_flowers_3x3: bool,
    /// Flower colour ids by player (absent: drawn from the tokens, see `rules::flowers`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flowers: Vec<String>,
    /// Where a figure that moves on (Abbey & Mayor's wagon) may go (absent: `linked`).
    #[serde(skip_serializing_if = "WagonMove::is_linked")]
    pub wagon_move: WagonMove,
}

impl Default for ModuleOptions {
    fn default() -> ModuleOptions {
        ModuleOptions {
            festival: true,
            donkey: None,
            donkey_blocks: DonkeyBlocks::Road,
            windmills: None,
            reserve: None,
            flower_bonus: None,
            wells: false,
            monastery_flowers_3x3: false,
            flowers: Vec::new(),
            wagon_move: WagonMove::Linked,
        }
    }
}

/// A key of `ModuleOptions` in a `rules` table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModuleKey {
    /// `festival`.
    Festival,
    /// `donkey`.
    Donkey,
    /// `donkey_blocks`.
    DonkeyBlocks,
    /// `windmills`.
    Windmills,
    /// `reserve`.
    Reserve,
    /// `flower_bonus`.
    FlowerBonus,
    /// `wells`.
    Wells,
    /// `monastery_flowers_3x3`.
    MonasteryFlowers3x3,
    /// `flowers`.
    Flowers,
    /// `wagon_move`.
    WagonMove,
}

impl ModuleKey {
    /// Every key, in the order `ModuleOptions` declares (and writes) them.
    const ALL: [ModuleKey; 10] = [
        ModuleKey::Festival,
        ModuleKey::Donkey,
        ModuleKey::DonkeyBlocks,
        ModuleKey::Windmills,
        ModuleKey::Reserve,
        ModuleKey::FlowerBonus,
        ModuleKey::Wells,
        ModuleKey::MonasteryFlowers3x3,
        ModuleKey::Flowers,
        ModuleKey::WagonMove,
    ];

    /// The key as written.
    const fn name(self) -> &'static str {
        match self {
            ModuleKey::Festival => "festival",
            ModuleKey::Donkey => "donkey",
            ModuleKey::DonkeyBlocks => "donkey_blocks",
            ModuleKey::Windmills => "windmills",
            ModuleKey::Reserve => "reserve",
            ModuleKey::FlowerBonus => "flower_bonus",
            ModuleKey::Wells => "wells",
            ModuleKey::MonasteryFlowers3x3 => "monastery_flowers_3x3",
            ModuleKey::Flowers => "flowers",
            ModuleKey::WagonMove => "wagon_move",
        }
    }

    /// Its place in `ALL` (and in `ModuleOptions::KEYS`).
    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// The key written `name`, if it is one of the modules'.
    pub(crate) fn named(name: &str) -> Option<ModuleKey> {
        ModuleKey::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl ModuleOptions {
    /// The keys as written, in order (listed when a key is unknown).
    pub(crate) const KEYS: [&'static str; ModuleKey::ALL.len()] = {
        let mut keys = [""; ModuleKey::ALL.len()];
        let mut i = 0;
        while i < keys.len() {
            keys[i] = ModuleKey::ALL[i].name();
            i += 1;
        }
        keys
    };

    /// Reads the value of `key` from a `rules` table being read (its errors at the value, as a
    /// derived reader gives them).
    pub(crate) fn read<'de, A: MapAccess<'de>>(
        &mut self,
        key: ModuleKey,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key {
            ModuleKey::Festival => self.festival = map.next_value()?,
            ModuleKey::Donkey => self.donkey = map.next_value()?,
            ModuleKey::DonkeyBlocks => self.donkey_blocks = map.next_value()?,
            ModuleKey::Windmills => self.windmills = map.next_value()?,
            ModuleKey::Reserve => self.reserve = map.next_value()?,
            ModuleKey::FlowerBonus => self.flower_bonus = map.next_value()?,
            ModuleKey::Wells => self.wells = map.next_value()?,
            ModuleKey::MonasteryFlowers3x3 => self.monastery_flowers_3x3 = map.next_value()?,
            ModuleKey::Flowers => self.flowers = map.next_value()?,
            ModuleKey::WagonMove => self.wagon_move = map.next_value()?,
        }
        Ok(())
    }

    /// The modules' rules of a game whose draw and sets can bring about `possible`, with
    /// `reserve` its reserve tile (kind, each) and `named` whether an option is switched on by
    /// name: what these options leave open follows what is possible.
    pub(crate) fn resolve(
        &self,
        possible: Possible,
        reserve: Option<(u16, u8)>,
        named: impl Fn(&str) -> bool,
    ) -> ModuleRules {
        ModuleRules {
            festival: self.festival,
            donkey: self.donkey.unwrap_or(possible.donkey),
            donkey_blocks: self.donkey_blocks,
            windmills: self.windmills.unwrap_or(u8::from(possible.windmills)),
            reserve: reserve.map_or(0, |(_, each)| self.reserve.unwrap_or(each)),
            reserve_kind: reserve.map(|(k, _)| k),
            flower_bonus: self.flower_bonus.unwrap_or(possible.flowers),
            monastery_flowers_3x3: self.monastery_flowers_3x3 || named(MONASTERY_FLOWERS_3X3),
            wells: self.wells || named(WELLS),
            wagon_move: self.wagon_move,
            possible,
        }
    }

    /// Clears the module switch a built-in option `name` stands for (another name: nothing).
    pub fn switch_off(&mut self, name: &str) {
        match name {
            WELLS => self.wells = false,
            MONASTERY_FLOWERS_3X3 => self.monastery_flowers_3x3 = false,
            _ => {}
        }
    }
}

/// The modules' rules a game plays: their options, with the defaults taken from the sets in
/// it (`ModuleOptions::resolve`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ModuleRules {
    /// Festival returns.
    pub festival: bool,
    /// The donkey is in play.
    pub donkey: bool,
    /// What the donkey blocks.
    pub donkey_blocks: DonkeyBlocks,
    /// Windmills per player.
    pub windmills: u8,
    /// Reserve tiles per player (the abbey), 0 when none is in play.
    #[serde(skip_serializing_if = "is_zero")]
    pub reserve: u8,
    /// The tile kind held in reserve (index into `Tables::kinds`): the first tile with
    /// `reserve` of a set in the game.
    #[serde(skip)]
    pub reserve_kind: Option<u16>,
    /// Flower colours are dealt and flowers pay.
    pub flower_bonus: bool,
    /// A monastery's flowers are those of its 3×3 range.
    pub monastery_flowers_3x3: bool,
    /// The Wells.
    pub wells: bool,
    /// Where a figure that moves on may go.
    #[serde(skip_serializing_if = "WagonMove::is_linked")]
    pub wagon_move: WagonMove,
    /// Which optional rules the game's tiles and sets can bring about at all, so that the
    /// rules line names only those (not in JSON: `festival`, `wells`, … say the switches).
    #[serde(skip)]
    pub possible: Possible,
}

/// Whether a count is 0 (left out of JSON).
fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The optional rules a game's draw and sets can bring about, whatever their switches say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Possible {
    /// A tile of the draw has a Festival place.
    pub festival: bool,
    /// A set with a tile in the game brings the donkey.
    pub donkey: bool,
    /// A set with a tile in the game brings windmills.
    pub windmills: bool,
    /// A tile of the draw carries flower groups.
    pub flowers: bool,
    /// A tile of the draw carries a marker whose modifier is the `wells` option's.
    pub wells: bool,
}

impl fmt::Display for ModuleRules {
    /// The modules' part of the rules line, each part after a `; `: every rule the game can
    /// meet, on or off (a rule no tile or set of the game brings is named only when on).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = |b: bool| if b { "on" } else { "off" };
        let can = self.possible;
        if can.festival {
            write!(f, "; Festival returns {}", on(self.festival))?;
        }
        if self.donkey || can.donkey {
            write!(f, "; donkey {}", on(self.donkey))?;
            if self.donkey {
                write!(f, " (blocks: {})", self.donkey_blocks.name())?;
            }
        }
        if self.windmills > 0 || can.windmills {
            write!(f, "; windmills {} each", self.windmills)?;
        }
        if self.flower_bonus || can.flowers {
            write!(f, "; flower bonus {}", on(self.flower_bonus))?;
            if self.flower_bonus {
                let range = if self.monastery_flowers_3x3 {
                    "3×3 range"
                } else {
                    "own tile"
                };
                write!(f, " (monastery: {range})")?;
            }
        }
        if self.wells || can.wells {
            write!(f, "; wells {}", on(self.wells))?;
        }
        if self.reserve > 0 {
            write!(f, "; reserve tiles {} each", self.reserve)?;
        }
        if !self.wagon_move.is_linked() {
            write!(f, "; wagons move on {}", self.wagon_move.name())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-kept key list is the one the derived writer uses, in its order: a key renamed
    /// or added on one side only would read what it does not write.
    #[test]
    fn the_keys_read_are_the_keys_written() {
        let all = ModuleOptions {
            donkey: Some(true),
            windmills: Some(1),
            reserve: Some(1),
            flower_bonus: Some(true),
            flowers: vec!["white".to_string()],
            wagon_move: WagonMove::Nearby,
            ..ModuleOptions::default()
        };
        let written = serde_json::to_string(&all).expect("written");
        let at: Vec<Option<usize>> = (ModuleOptions::KEYS.iter())
            .map(|k| written.find(&format!("\"{k}\":")))
            .collect();
        assert!(at.iter().all(Option::is_some), "{written}");
        assert!(at.is_sorted(), "{written}");
        assert_eq!(written.matches("\":").count(), ModuleOptions::KEYS.len());
        assert!((ModuleKey::ALL.iter().enumerate()).all(|(i, k)| k.index() == i));
        assert_eq!(
            ModuleKey::named("donkey_blocks"),
            Some(ModuleKey::DonkeyBlocks)
        );
        assert_eq!(ModuleKey::named("festivl"), None);
    }

    /// Whether the module switch a built-in option `name` stands for is set in `o`.
    fn is_set(o: &ModuleOptions, name: &str) -> bool {
        match name {
            WELLS => o.wells,
            MONASTERY_FLOWERS_3X3 => o.monastery_flowers_3x3,
            _ => false,
        }
    }

    /// Each named option is a switch here, and only those are.
    #[test]
    fn the_named_options_are_the_module_switches() {
        for name in NAMED {
            let mut o = ModuleOptions::default();
            assert!(!is_set(&o, name), "{name}");
            o.wells = true;
            o.monastery_flowers_3x3 = true;
            assert!(is_set(&o, name), "{name}");
            o.switch_off(name);
            assert!(!is_set(&o, name), "{name}");
        }
        let mut o = ModuleOptions {
            wells: true,
            ..ModuleOptions::default()
        };
        o.switch_off("first-edition-small-city");
        assert!(o.wells && !is_set(&o, "festival"));
    }
}
