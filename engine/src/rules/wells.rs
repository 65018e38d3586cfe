//! The Wells (optional): a scored road earns 1 more point per well on its tiles. A well is a
//! marker whose kind has `rule = "well"`, on a road feature.

use crate::game::Game;
use tiledef::MarkerRule;

/// Wells on the members of the last walked ring (a road).
pub(crate) fn on_ring(game: &Game<'_>) -> u32 {
    let tables = game.tables;
    let mut wells = 0;
    for &m in game.ring() {
        let n = &game.nodes[m as usize];
        let o = game.orient(n.tile);
        wells += o.features[n.local as usize]
            .markers
            .iter()
            .filter(|&&k| tables.markers[k as usize].rule == Some(MarkerRule::Well))
            .count() as u32;
    }
    wells
}
