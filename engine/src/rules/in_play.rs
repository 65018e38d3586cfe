//! Which rules a game plays: the options, and what they leave open followed from the data of
//! the sets with a tile in the game (`[set] figures` for the donkey and windmills, flower
//! groups on the tiles for the flower bonus); the players' flower colours.

use super::module_options::{Possible, WELLS};
use crate::ids::{KindId, OrientId};
use crate::options::{FIRST_EDITION_SMALL_CITY, GameOptions, Rules, SetupError};
use crate::rng::Rng;
use crate::tables::Tables;
use tiledef::SetFigure;

/// options leave open follows the data of the sets with a tile in the game (the draw and the
/// start tile): the donkey and windmills come with a set whose `[set] figures` name them, the
/// flower bonus with a tile that carries flower groups.
pub(crate) fn rules_in_play(
    tables: &Tables,
    options: &GameOptions,
    start: KindId,
    bag: &[KindId],
) -> (Rules, Vec<u8>) {
    // One pass over the draw: the sets it holds and the colours on its tiles.
    let mut in_game = vec![false; tables.sets.len()];
    let mut colours = vec![false; tables.colours.len()];
    for &k in std::iter::once(&start).chain(bag) {
        let kind = &tables.kind(k);
        in_game[usize::from(kind.set)] = true;
        for (c, &groups) in kind.flowers.iter().enumerate() {
            colours[c] |= groups > 0;
        }
    }
    let flowers = colours.contains(&true);
    // The reserve tile: the first tile with `reserve` of a set in the game; with the option
    // given, of any loaded set (dealt whatever the draw, as a figure's count is).
    let dealt = o_reserve(options).is_some_and(|n| n > 0);
    let reserve = (tables.kinds.iter().enumerate())
        .filter(|(_, k)| k.reserve.is_some())
        .find(|(_, k)| in_game[usize::from(k.set)] || dealt)
        .and_then(|(i, k)| Some((i as u16, k.reserve?.each)));
    let (festival, wells) = festival_and_wells(tables, std::iter::once(&start).chain(bag));
    let brings = |figure: SetFigure| {
        in_game
            .iter()
            .zip(&tables.set_figures)
            .any(|(&used, figures)| used && figures.contains(&figure))
    };
    let possible = Possible {
        festival,
        donkey: brings(SetFigure::Donkey),
        windmills: brings(SetFigure::Windmill),
        flowers,
        wells,
    };
    let o = &options.rules;
    let named = |name: &str| o.on.iter().any(|n| n == name);
    let first_edition_small_city = o.first_edition_small_city || named(FIRST_EDITION_SMALL_CITY);
    // The option switch `first_edition_small_city` names the built-in option too.
    let small_on = |option: &str| {
        named(option) || (option == FIRST_EDITION_SMALL_CITY && first_edition_small_city)
    };
    let small_kinds = (tables.features.iter().enumerate())
        .filter(|(_, k)| {
            (k.small.as_ref()).is_some_and(|s| s.option.as_deref().is_none_or(small_on))
        })
        .fold(0u32, |bits, (k, _)| bits | 1 << k);
    let rules = Rules {
        sets: tables
            .sets
            .iter()
            .zip(&in_game)
            .filter(|(_, used)| **used)
            .map(|(id, _)| id.clone())
            .collect(),
        followers: o.followers,
        first_edition_small_city,
        small_kinds,
        modules: o.modules.resolve(possible, reserve, named),
        figures: Vec::new(),
        corner: None,
        on: {
            let mut on = o.on.clone();
            if o.modules.wells {
                on.push(WELLS.to_string());
            }
            on.sort_unstable();
            on.dedup();
            on
        },
    };
    if !rules.modules.flower_bonus {
        return (rules, Vec::new());
    }
    // The tokens: the colours the sets in the game declare, and any other on its tiles (a set
    // may use a colour of a set it requires), in vocabulary order.
    for (set, _) in in_game.iter().enumerate().filter(|(_, used)| **used) {
        for &c in &tables.set_colours[set] {
            colours[usize::from(c)] = true;
        }
    }
    let tokens = (0..colours.len() as u8)
        .filter(|&c| colours[usize::from(c)])
        .collect();
    (rules, tokens)
}

/// The reserve tiles per player the options name, if they do.
fn o_reserve(options: &GameOptions) -> Option<u8> {
    options.rules.modules.reserve
}

/// Whether a tile kind of the draw has a Festival place, and whether one carries a marker whose
/// modifier is the `wells` option's (each kind looked at once).
fn festival_and_wells<'a>(tables: &Tables, draw: impl Iterator<Item = &'a KindId>) -> (bool, bool) {
    let mut seen = vec![false; tables.kinds.len()];
    let (mut festival, mut wells) = (false, false);
    let is_well = |m: &u8| {
        let scoring = tables.markers[usize::from(*m)].scoring.as_ref();
        scoring.is_some_and(|s| s.option.as_deref() == Some(WELLS))
    };
    for &k in draw {
        if std::mem::replace(&mut seen[k.index()], true) {
            continue;
        }
        let orient = tables.orient(OrientId(tables.kind(k).orients[0]));
        festival |= orient.festival;
        wells |= orient
            .features
            .iter()
            .any(|f| f.markers.iter().any(is_well));
    }
    (festival, wells)
}

/// The players' flower colours (Village Life's flower bonus), as every game of a set-up
/// gets them.
#[derive(Clone, Debug)]
pub(crate) enum Colours {
    /// As the options name them, one per player.
    Named(Vec<u8>),
    /// Dealt per game from these token colours (none without the flower bonus).
    Dealt(Vec<u8>),
}

impl Colours {
    /// The colours of a set-up of `options` whose rules are `rules`: named, or dealt from
    /// `dealt` (the colours `rules_in_play` found on the draw's tiles) when the flower bonus
    /// is on.
    pub(crate) fn of(
        tables: &Tables,
        options: &GameOptions,
        rules: &Rules,
        dealt: Vec<u8>,
    ) -> Result<Colours, SetupError> {
        if !rules.modules.flower_bonus {
            return Ok(Colours::Dealt(Vec::new()));
        }
        Ok(match named_colours(tables, options)? {
            Some(named) => Colours::Named(named),
            None => Colours::Dealt(dealt),
        })
    }

    /// Each player's colour in one game of `players`, dealt with the draw's `seed` (None: a
    /// fixed draw).
    pub(crate) fn for_game(&self, players: usize, seed: Option<u64>) -> Vec<u8> {
        match self {
            Colours::Named(named) => named.clone(),
            Colours::Dealt(colours) => deal_colours(colours, players, seed),
        }
    }
}

/// The players' flower colours as the options name them (checked: one known colour per
/// player), or None when they are to be dealt (`deal_colours`).
fn named_colours(tables: &Tables, options: &GameOptions) -> Result<Option<Vec<u8>>, SetupError> {
    let players = options.players as usize;
    let named = &options.rules.modules.flowers;
    if named.is_empty() {
        return Ok(None);
    }
    if named.len() != players {
        return Err(SetupError::Rule(format!(
            "flower colours: {} colours named for {players} players",
            named.len()
        )));
    }
    named
        .iter()
        .map(|id| {
            tables
                .colours
                .iter()
                .position(|c| c == id)
                .map(|i| i as u8)
                .ok_or_else(|| {
                    SetupError::Rule(format!(
                        "flower colours: unknown colour `{id}` (known: {})",
                        tables.colours.join(", ")
                    ))
                })
        })
        .collect::<Result<_, _>>()
        .map(Some)
}

/// The players' flower colours drawn from the token sets (one set of the game's `colours`,
/// from `rules_in_play`, and a second set when there are more players than colours) with the
/// seed of the draw, or dealt in vocabulary order for a fixed draw (no seed).
fn deal_colours(colours: &[u8], players: usize, seed: Option<u64>) -> Vec<u8> {
    if colours.is_empty() {
        return Vec::new();
    }
    let sets = players.div_ceil(colours.len());
    let mut tokens: Vec<u8> = (0..sets).flat_map(|_| colours.iter().copied()).collect();
    if let Some(seed) = seed {
        // A stream of its own, so the bag's shuffle is the same with or without Village Life.
        Rng::new(seed ^ 0xf10e_75f1_0e75_f10e).shuffle(&mut tokens);
    }
    tokens.truncate(players);
    tokens
}
