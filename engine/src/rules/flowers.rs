//! The flower bonus (Village Life): each player gets a colour (one token set of all colours
//! for up to as many players as colours, two sets beyond: `in_play::deal_colours`). A scored
//! non-region feature gives each player with a follower on it +3 per group of their colour on
//! its tiles (a site: its own tile, or its 3×3 range by option); a region at the end counts
//! the groups inside it.

use crate::ids::PlacedId;
use crate::rules::RuleSource;
use crate::scoring::FlowerBonus;
use crate::state::Game;
use tiledef::Shape;

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
    ) -> Vec<FlowerBonus> {
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
                        if !game.core.play.flowered(orient, n.local) {
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
                Shape::Site if game.core.rules.monastery_flowers_3x3 => {
                    let p = game.core.board.placed[tile.index()];
                    let block = game.core.board.block(i32::from(p.x), i32::from(p.y));
                    (block.iter().filter(|c| c.placed != PlacedId::NONE))
                        .map(|c| {
                            game.core
                                .play
                                .flower_groups(game.core.kind_of(c.placed), colour)
                        })
                        .sum()
                }
                Shape::Site => game
                    .core
                    .play
                    .flower_groups(game.core.kind_of(tile), colour),
                _ => (game.scratch.ring_tiles.iter())
                    .map(|&t| game.core.play.flower_groups(game.core.kind_of(t), colour))
                    .sum(),
            };
            if groups > 0 {
                out.push(FlowerBonus {
                    player: p as u8,
                    colour: game.core.tables.colours[colour as usize].clone(),
                    groups,
                    points: 3 * groups,
                });
            }
        }
        out
    }
}

/// The `scored` hook's part of the flowers: each bonus of a scoring added to its player's score.
pub(crate) fn pay(
    game: &mut Game<'_>,
    shape: Shape,
    tile: PlacedId,
    count: &[u8],
) -> Vec<FlowerBonus> {
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
