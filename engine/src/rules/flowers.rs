//! The flower bonus (Village Life): each player gets a colour (one token set of all colours
//! for up to as many players as colours, two sets beyond: `in_play::deal_colours`). A scored
//! non-region feature gives each player with a follower on it +3 per group of their colour on
//! its tiles (a site: its own tile, or its 3×3 range by option); a region at the end counts
//! the groups inside it.

use crate::ids::{KindId, OrientId, PlacedId};
use crate::rules::{Bonus, BonusSource, RuleSource};
use crate::state::Game;
use crate::tables::Tables;
use tiledef::Shape;

/// The flower groups of the tables as a scoring reads them, compact: built once per `Setup`
/// (`ModuleTables`) and shared by its games.
#[derive(Debug)]
pub(crate) struct FlowerTables {
    /// Colours of flowers in the tables (`Tables::colours`).
    colours: usize,
    /// Per tile kind and colour (`kind × colours + colour`): its flower groups of that colour,
    /// on all its fields (`TileKind::flowers`).
    kind_flowers: Vec<u8>,
    /// Per orientation: bit `i` when its local feature `i` has flower groups (every bit from 63
    /// on for a feature past 63). A field's flower bonus reads a member's flower list only then.
    flowered: Vec<u64>,
}

impl FlowerTables {
    /// The flower tables of the tables.
    pub(crate) fn new(tables: &Tables) -> FlowerTables {
        let colours = tables.colours.len();
        let kind_flowers = (tables.kinds.iter())
            .flat_map(|k| (0..colours).map(|c| k.flowers.get(c).copied().unwrap_or(0)))
            .collect();
        let flowered = (tables.orients.iter())
            .map(|o| {
                (o.features.iter().enumerate())
                    .filter(|(_, f)| !f.flowers.is_empty())
                    .fold(0, |bits, (i, _)| bits | 1 << i.min(63))
            })
            .collect();
        FlowerTables {
            colours,
            kind_flowers,
            flowered,
        }
    }

    /// The flower groups of a colour on all the fields of a tile kind.
    #[inline]
    pub(crate) fn groups(&self, kind: KindId, colour: u8) -> u32 {
        let colour = usize::from(colour);
        if colour >= self.colours {
            return 0;
        }
        u32::from(self.kind_flowers[kind.index() * self.colours + colour])
    }

    /// Whether local feature `local` of an orientation may have flower groups (false: it has
    /// none).
    #[inline]
    pub(crate) fn flowered(&self, orient: OrientId, local: u8) -> bool {
        self.flowered[orient.index()] >> local.min(63) & 1 != 0
    }
}

/// The flower groups of a colour on all the fields of a placed tile.
#[inline]
pub(crate) fn groups_on(game: &Game<'_>, tile: PlacedId, colour: u8) -> u32 {
    (game.core.play.modules.flowers).groups(game.core.kind_of(tile), colour)
}

/// The flower bonus's state: the players' colours.
#[derive(Clone, Debug)]
pub(crate) struct Flowers {
    /// Flower colour (index into `Tables::colours`) of each player.
    pub(crate) colours: Vec<u8>,
}

impl Flowers {
    /// The flower bonuses of a scoring whose ring (and distinct tiles) was just walked: every
    /// player with a follower on the feature (`count[p] > 0`) gets 3 per group of their colour.
    pub(crate) fn bonus(
        &self,
        game: &Game<'_>,
        shape: Shape,
        tile: PlacedId,
        count: &[u8],
    ) -> Vec<Bonus> {
        let mut out = Vec::new();
        for (p, &c) in count.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let colour = self.colours[p];
            let groups = match shape {
                Shape::Region => (game.ring().iter())
                    .map(|&m| {
                        let n = &game.core.nodes[m.index()];
                        let orient = game.core.board.placed[n.tile.index()].orient;
                        // Most fields have no flowers: their lists are not read.
                        if !game.core.play.modules.flowers.flowered(orient, n.local) {
                            return 0;
                        }
                        let f = &game.core.tables.orient(orient).features;
                        f[n.local as usize]
                            .flowers
                            .iter()
                            .filter(|&&c| c == colour)
                            .count() as u32
                    })
                    .sum(),
                Shape::Site if game.core.rules.modules.monastery_flowers_3x3 => {
                    let p = game.core.board.placed[tile.index()];
                    let block = game.core.board.block(i32::from(p.x), i32::from(p.y));
                    (block.iter().filter(|c| c.placed != PlacedId::NONE))
                        .map(|c| groups_on(game, c.placed, colour))
                        .sum()
                }
                Shape::Site => groups_on(game, tile, colour),
                _ => (game.scratch.ring_tiles.iter())
                    .map(|&t| groups_on(game, t, colour))
                    .sum(),
            };
            if groups > 0 {
                out.push(Bonus {
                    player: p as u8,
                    points: 3 * groups,
                    source: BonusSource::Flowers {
                        colour: game.core.tables.colours[colour as usize].clone(),
                        groups,
                    },
                });
            }
        }
        out
    }
}

/// The `scored` hook's part of the flowers: each bonus of a scoring added to its player's score.
pub(crate) fn pay(game: &mut Game<'_>, shape: Shape, tile: PlacedId, count: &[u8]) -> Vec<Bonus> {
    let flowers = match &game.modules.flowers {
        Some(flowers) => flowers.bonus(game, shape, tile, count),
        None => return Vec::new(),
    };
    for b in &flowers {
        game.core.scores[b.player as usize] += b.points;
        (game.core.stats).credit_rule_points(RuleSource::FLOWERS, b.points);
    }
    flowers
}

#[cfg(test)]
mod tests {
    use super::FlowerTables;
    use crate::ids::{KindId, OrientId};

    /// The compact flower tables say what the tables say, for every kind and orientation of
    /// the bundled sets.
    #[test]
    fn the_flower_tables_agree_with_the_tables() {
        let tables = crate::compile(&tiledef::load_bundled()).expect("bundled data compiles");
        let flowers = FlowerTables::new(&tables);
        for (k, kind) in tables.kinds.iter().enumerate() {
            for c in 0..=tables.colours.len() {
                let groups = kind.flowers.get(c).copied().unwrap_or(0);
                assert_eq!(flowers.groups(KindId(k as u16), c as u8), u32::from(groups));
            }
        }
        // Village Life's fields have flowers, so the bits below are tested both ways.
        assert!(
            tables
                .kinds
                .iter()
                .any(|k| k.flowers.iter().any(|&n| n > 0))
        );
        for (i, o) in tables.orients.iter().enumerate() {
            for (local, f) in o.features.iter().enumerate() {
                assert_eq!(
                    flowers.flowered(OrientId(i as u16), local as u8),
                    !f.flowers.is_empty()
                );
            }
        }
    }
}
