//! The drawn tile's legal placements: its rotation mask at each open position (frontier slot),
//! and every cache of them. `Placements` alone owns them; the turn flow resets them at each
//! draw, the placement filters (`placement::filter`, the donkey's) clear rotations through it
//! reading only the game's `Core`, and the players count, list and sample placements from it.
//!
//! A mask is the placement index's row at the slot's pattern until a filter changes it. The
//! masks are listed (one byte per slot) only when a filter needs them: a draw no filter
//! touches reads the index, and the first slot a filter changes is kept aside (`Kept`), so the
//! donkey blocking one position costs one check, not a list. Once listed and filtered, the
//! placements are counted, and when a filter saw them at no more than `FEW_SLOTS` slots (a
//! river tile fits at the river's open ends alone) those slots are noted, so counting and
//! taking the `n`-th read them only.

use crate::board::Open;
use crate::ids::{KindId, NodeId};
use crate::rng::Rng;
use crate::state::{Core, Move};

/// The most slots `Placements::few` lists.
pub(crate) const FEW_SLOTS: usize = 8;

/// Random tries of `Placements::sample` before it counts the placements, at least: a drawn
/// tile fits about one rotation per open position, so a try hits about one time in four, and 16
/// misses in a row are rare on a small board.
const SAMPLE_TRIES: u32 = 16;

/// Open positions per further try: counting walks the whole frontier, and on a large board the
/// holes that few tiles fit make misses likelier, so the tries grow with the frontier and the
/// count stays rare.
const POSITIONS_PER_TRY: usize = 4;

/// The drawn tile's rotation masks by frontier slot, and what is known of them.
#[derive(Clone, Debug)]
pub(crate) struct Placements {
    /// The tile kind the masks are for (the drawn tile).
    kind: KindId,
    /// The masks by frontier slot, once a filter needed them (`masks_mut`); until then a
    /// slot's mask is the placement index's, or the one `kept` sets aside (`mask_at`).
    masks: Vec<u8>,
    /// Whether `masks` holds the drawn tile's masks (listed on a filter's first use in a draw).
    listed: bool,
    /// The placements in `masks`, counted when the draw's filters are done and the masks
    /// listed (None before, and once anything may have changed a mask since).
    count: Option<u32>,
    /// When the listed masks are non-zero at no more than `FEW_SLOTS` slots: those slots, in
    /// frontier order, and how many. Filters only clear rotations, so every other slot stays
    /// empty. None when not known.
    few: Option<([u16; FEW_SLOTS], u8)>,
    /// The one frontier slot whose mask may differ from the index's while the masks are not
    /// listed, and how: the donkey mostly blocks a single position, and listing every mask
    /// for it costs more than `mask_at`'s check.
    kept: Option<(u16, Kept)>,
    /// The roots of the donkey's sets a `Kept::Pending` slot waits to check, by the donkey's
    /// index of the set. Not in `Kept`: every mask read matches on `kept`, which stays four
    /// bytes so (with the roots in it, a draw with the donkey cost 9 instructions more a tile).
    pending_roots: [NodeId; 4],
}

/// How the slot `Placements::kept` names differs from the placement index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kept {
    /// A filter changed its mask to this (`Placements::set_mask`).
    Mask(u8),
    /// The drawn tile may close some of the donkey's sets there (bit `i`:
    /// `Placements::pending_roots[i]`), not yet checked: its mask is worked out when read
    /// (`Placements::pending_mask`). A random draw reads a few slots, seldom this one, so most
    /// draws never pay for the check.
    Pending(u8),
}

impl Placements {
    /// No placements yet (a game's first draw resets them).
    pub(crate) fn new() -> Placements {
        Placements {
            kind: KindId(0),
            masks: Vec::with_capacity(64),
            listed: false,
            count: None,
            few: None,
            kept: None,
            pending_roots: [NodeId(0); 4],
        }
    }

    /// Starts a draw of `kind`: every mask is the placement index's.
    #[inline]
    pub(crate) fn reset(&mut self, kind: KindId) {
        self.kind = kind;
        self.listed = false;
        self.few = None;
        self.count = None;
        self.kept = None;
    }

    /// The kept slot, if any (tests look at what the filters left).
    #[cfg(test)]
    pub(crate) fn kept(&self) -> Option<(u16, Kept)> {
        self.kept
    }

    /// Whether the masks are listed (tests look at what the filters did).
    #[cfg(test)]
    pub(crate) fn listed(&self) -> bool {
        self.listed
    }

    /// Whether the few non-empty slots are known (tests look at what the filters did).
    #[cfg(test)]
    pub(crate) fn few_known(&self) -> bool {
        self.few.is_some()
    }

    /// Forgets the listed masks, so the next filter lists them again (tests re-run a filter).
    #[cfg(test)]
    pub(crate) fn unlist(&mut self) {
        self.listed = false;
    }

    /// The listed masks (tests compare them).
    #[cfg(test)]
    pub(crate) fn masks(&self) -> &[u8] {
        &self.masks
    }

    /// Whether the placement index alone says the drawn tile's masks: no filter listed them,
    /// changed one or left one to check.
    #[inline]
    fn index_alone(&self) -> bool {
        !self.listed && self.kept.is_none()
    }

    /// The drawn tile's rotation mask at a frontier slot (after the placement filters).
    #[inline]
    pub(crate) fn mask_at(&self, core: &Core<'_>, slot: usize) -> u8 {
        if self.listed {
            return self.masks[slot];
        }
        match self.kept {
            Some((at, kept)) if usize::from(at) == slot => self.kept_mask(core, at, kept),
            _ => {
                let pattern = core.board.frontier[slot].pattern;
                core.tables.index.fits(pattern, self.kind)
            }
        }
    }

    /// The drawn tile's mask at the slot `kept` names.
    #[inline]
    fn kept_mask(&self, core: &Core<'_>, slot: u16, kept: Kept) -> u8 {
        match kept {
            Kept::Mask(mask) => mask,
            Kept::Pending(sets) => self.pending_mask(core, slot, sets),
        }
    }

    /// The drawn tile's mask at a slot `Kept::Pending` names: the index's, less the rotations
    /// that would close any of the sets waiting, taken in their order as the filter would have
    /// taken them.
    #[cold]
    #[inline(never)]
    fn pending_mask(&self, core: &Core<'_>, slot: u16, sets: u8) -> u8 {
        let open = core.board.frontier[usize::from(slot)];
        let at = (i32::from(open.x), i32::from(open.y));
        let mut mask = core.tables.index.fits(open.pattern, self.kind);
        let mut rest = sets;
        while rest != 0 {
            let root = self.pending_roots[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            mask &= !core.closing_rotations(self.kind, at, mask, root);
        }
        mask
    }

    /// The rotation masks of the drawn tile by frontier slot, for placement filters to clear
    /// rotations in: listed from the placement index on first use in a draw (a draw no filter
    /// touches never lists them).
    pub(crate) fn masks_mut(&mut self, core: &Core<'_>) -> &mut Vec<u8> {
        self.count = None;
        // A caller may write any mask.
        self.few = None;
        if !self.listed {
            let row = core.tables.index.row(self.kind);
            self.masks.clear();
            (self.masks).extend(core.board.frontier.iter().map(|o| row.at(o.pattern)));
            if let Some((slot, kept)) = self.kept.take() {
                self.masks[usize::from(slot)] = self.kept_mask(core, slot, kept);
            }
            self.listed = true;
        }
        &mut self.masks
    }

    /// Sets the drawn tile's rotation mask at a frontier slot (a filter clearing rotations):
    /// the first slot changed while the masks are not listed is kept aside, a second one lists
    /// them.
    pub(crate) fn set_mask(&mut self, core: &Core<'_>, slot: u16, mask: u8) {
        self.count = None;
        if let Some((slots, n)) = self.few
            && mask != 0
            && !slots[..usize::from(n)].contains(&slot)
        {
            self.few = None;
        }
        // A pending slot is checked first, and kept only if that changed it (else it would
        // count as changed, and this slot list the masks).
        if let Some((at, Kept::Pending(sets))) = self.kept {
            let kept = self.pending_mask(core, at, sets);
            let pattern = core.board.frontier[usize::from(at)].pattern;
            self.kept = (kept != core.tables.index.fits(pattern, self.kind))
                .then_some((at, Kept::Mask(kept)));
        }
        match self.kept {
            _ if self.listed => self.masks[usize::from(slot)] = mask,
            Some((other, _)) if other != slot => self.masks_mut(core)[usize::from(slot)] = mask,
            _ => self.kept = Some((slot, Kept::Mask(mask))),
        }
    }

    /// Leaves the check whether the drawn tile closes the donkey's set `i` (root `root`) at
    /// `slot` until that slot's mask is read, if it can wait: the slot already waits, or no
    /// slot is kept and the masks are not listed (a slot the tile does not fit needs no check).
    /// False when it cannot: the caller checks now.
    pub(crate) fn defer(&mut self, core: &Core<'_>, slot: u16, i: usize, root: NodeId) -> bool {
        match self.kept {
            Some((at, Kept::Pending(sets))) if at == slot => {
                self.pending_roots[i] = root;
                self.kept = Some((at, Kept::Pending(sets | 1 << i)));
                true
            }
            None if !self.listed => {
                if self.mask_at(core, usize::from(slot)) != 0 {
                    self.pending_roots[i] = root;
                    self.kept = Some((slot, Kept::Pending(1 << i)));
                }
                true
            }
            _ => false,
        }
    }

    /// Passes each non-zero mask through `narrow` (a filter clearing rotations), listing the
    /// masks from the index in the same walk unless they are listed, and notes the slots left
    /// non-zero when they are few.
    #[inline(always)]
    pub(crate) fn narrow(&mut self, core: &Core<'_>, mut narrow: impl FnMut(&Open, u8) -> u8) {
        let filled = self.listed;
        let masks = &mut self.masks;
        if !filled {
            masks.clear();
            masks.resize(core.board.frontier.len(), 0);
        }
        let row = core.tables.index.row(self.kind);
        // The slots left non-zero, while they are few.
        let (mut few, mut count) = ([0u16; FEW_SLOTS], 0usize);
        for (slot, (open, mask)) in core.board.frontier.iter().zip(masks.iter_mut()).enumerate() {
            if !filled {
                *mask = row.at(open.pattern);
            }
            if *mask == 0 {
                continue;
            }
            *mask = narrow(open, *mask);
            if *mask != 0 {
                if let Some(s) = few.get_mut(count) {
                    *s = slot as u16;
                }
                count += 1;
            }
        }
        self.listed = true;
        // Listed here (else an earlier filter's slots stand), and few enough to note.
        if !filled {
            self.few = (count <= FEW_SLOTS).then_some((few, count as u8));
        }
    }

    /// Whether the drawn tile fits anywhere, once the draw's filters are done. Nothing is
    /// listed for it: the first fitting position usually comes after a few reads. Listed masks
    /// are counted, for sampling to choose how it samples.
    pub(crate) fn any(&mut self, core: &Core<'_>) -> bool {
        if self.listed {
            let count = self.listed_count();
            self.count = Some(count);
            count > 0
        } else if !self.index_alone() {
            (0..core.board.frontier.len()).any(|slot| self.mask_at(core, slot) != 0)
        } else {
            let row = core.tables.index.row(self.kind);
            (core.board.frontier.iter()).any(|open| row.at(open.pattern) != 0)
        }
    }

    /// How many placements the drawn tile has.
    pub(crate) fn count(&self, core: &Core<'_>) -> u32 {
        match self.count {
            Some(count) => count,
            None if self.listed => self.listed_count(),
            None if self.index_alone() => {
                let row = core.tables.index.row(self.kind);
                (core.board.frontier.iter())
                    .map(|open| rotations(row.at(open.pattern)))
                    .sum()
            }
            None => (0..core.board.frontier.len())
                .map(|slot| rotations(self.mask_at(core, slot)))
                .sum(),
        }
    }

    /// The count, or some number above `most` when it is above: the positions are read only
    /// until their placements pass `most`.
    pub(crate) fn count_to(&self, core: &Core<'_>, most: u64) -> u32 {
        if self.count.is_some() || self.listed {
            return self.count(core);
        }
        let mut count = 0u32;
        let row = self.index_alone().then(|| core.tables.index.row(self.kind));
        for (slot, open) in core.board.frontier.iter().enumerate() {
            let mask = match row {
                Some(row) => row.at(open.pattern),
                None => self.mask_at(core, slot),
            };
            count += rotations(mask);
            if u64::from(count) > most {
                break;
            }
        }
        count
    }

    /// The placements in the listed masks, eight masks at a time (the bits of eight bytes are
    /// the bits of a u64).
    fn listed_count(&self) -> u32 {
        if let Some((slots, n)) = self.few {
            return (slots[..usize::from(n)].iter())
                .map(|&s| rotations(self.masks[usize::from(s)]))
                .sum();
        }
        let chunks = self.masks.chunks_exact(8);
        let rest: u32 = chunks.remainder().iter().map(|m| m.count_ones()).sum();
        rest + chunks.map(|c| eight(c).count_ones()).sum::<u32>()
    }

    /// The `n`-th placement of the drawn tile, in frontier order, then rotation order.
    pub(crate) fn nth(&self, core: &Core<'_>, mut n: u32) -> Option<Move> {
        let frontier = &core.board.frontier;
        if self.listed
            && let Some((slots, k)) = self.few
        {
            // Only these slots hold placements.
            let slots = slots[..usize::from(k)].iter().map(|&s| usize::from(s));
            return nth_among(slots.map(|s| (&frontier[s], self.masks[s])), n);
        }
        // The index's row when it alone says the masks.
        let row = self.index_alone().then(|| core.tables.index.row(self.kind));
        let mut from = 0;
        if self.listed {
            // Whole runs of eight masks before the n-th placement are passed over at once.
            for c in self.masks.chunks_exact(8) {
                let k = eight(c).count_ones();
                if n < k {
                    break;
                }
                n -= k;
                from += 8;
            }
        }
        let masks = (frontier.iter().enumerate().skip(from)).map(|(slot, open)| match row {
            Some(row) => (open, row.at(open.pattern)),
            None => (open, self.mask_at(core, slot)),
        });
        nth_among(masks, n)
    }

    /// A placement of the drawn tile drawn uniformly at random: a random open position and one
    /// of the kind's distinct rotations, kept if the tile fits there so (each placement is
    /// equally likely to be hit), else tried again; after `SAMPLE_TRIES` misses, or one per
    /// `POSITIONS_PER_TRY` open positions if more, the `n`-th placement for a random `n` (also
    /// uniform, so the whole draw is). It reads a few positions, not the whole frontier, so a
    /// playout's turn costs the same on a small board as on a large one. When the filters have
    /// listed and counted the placements and a try would mostly miss, it takes the `n`-th at
    /// once.
    pub(crate) fn sample(&self, core: &Core<'_>, rng: &mut Rng) -> Option<Move> {
        // A kind's distinct rotations are 0..n, n = 1, 2 or 4.
        let shift = u32::from(core.play.kind(self.kind).rotations_shift);
        let row = core.tables.index.row(self.kind);
        // The filters counted the placements: when a try would hit at most one time in four (a
        // river tile fits at the river's open ends alone), the n-th is picked at once.
        if let Some(count) = self.count
            && count * 4 <= (core.board.frontier.len() << shift) as u32
        {
            return self.sample_by_count(core, rng);
        }
        // One loop per way of reading a slot's mask, each without the others' branches.
        match self.kept {
            _ if self.listed => self.sample_with(core, rng, shift, |slot, _| self.masks[slot]),
            None => self.sample_with(core, rng, shift, |_, open| row.at(open.pattern)),
            // A slot a filter changed while the masks are not listed (`set_mask`).
            Some((at, Kept::Mask(kept))) => self.sample_with(core, rng, shift, |slot, open| {
                if slot == usize::from(at) {
                    kept
                } else {
                    row.at(open.pattern)
                }
            }),
            // The slot the donkey's filter left to check when read.
            Some((at, Kept::Pending(sets))) => self.sample_with(core, rng, shift, |slot, open| {
                if slot == usize::from(at) {
                    self.pending_mask(core, at, sets)
                } else {
                    row.at(open.pattern)
                }
            }),
        }
    }

    /// `sample` with `mask(slot, open position)` the drawn tile's mask there, over rotations
    /// `0..1 << shift`.
    #[inline(always)]
    fn sample_with(
        &self,
        core: &Core<'_>,
        rng: &mut Rng,
        shift: u32,
        mask: impl Fn(usize, &Open) -> u8,
    ) -> Option<Move> {
        let frontier = &core.board.frontier;
        let tries = SAMPLE_TRIES.max((frontier.len() / POSITIONS_PER_TRY) as u32);
        for _ in 0..tries {
            let v = rng.below(frontier.len() << shift);
            let (slot, rotation) = (v >> shift, (v & ((1 << shift) - 1)) as u8);
            let open = &frontier[slot];
            if mask(slot, open) & (1 << rotation) != 0 {
                return Some(Move::Place {
                    x: open.x,
                    y: open.y,
                    rotation,
                });
            }
        }
        self.sample_by_count(core, rng)
    }

    /// `sample` after its misses: the `n`-th placement for a random `n`. Kept out of line, so
    /// the tries stay a small function.
    #[cold]
    #[inline(never)]
    fn sample_by_count(&self, core: &Core<'_>, rng: &mut Rng) -> Option<Move> {
        let count = self.count(core);
        (count > 0).then(|| self.nth(core, rng.below(count as usize) as u32))?
    }
}

/// How many rotations a rotation mask holds (bits 0–3): its entry in a table of the 16
/// masks' counts, a nibble each, packed in one word. On the baseline x86-64 target (no
/// `popcnt`) `count_ones` is a bit trick of a dozen instructions, and a count reads every open
/// position's mask.
#[inline]
pub(crate) fn rotations(mask: u8) -> u32 {
    debug_assert!(mask < 16, "a rotation mask has four bits");
    ((0x4332_3221_3221_2110_u64 >> (u32::from(mask & 15) * 4)) & 15) as u32
}

/// The `n`-th placement among open positions with their rotation masks, in their order.
#[inline]
fn nth_among<'a>(masks: impl Iterator<Item = (&'a Open, u8)>, mut n: u32) -> Option<Move> {
    for (open, mask) in masks {
        let c = rotations(mask);
        if n < c {
            return Some(Move::Place {
                x: open.x,
                y: open.y,
                rotation: nth_bit(u64::from(mask), n as usize),
            });
        }
        n -= c;
    }
    None
}

/// The index of the `n`-th set bit of `mask` (it has more than `n`).
pub(crate) fn nth_bit(mut mask: u64, n: usize) -> u8 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as u8
}

/// Eight rotation masks as one word.
#[inline]
fn eight(masks: &[u8]) -> u64 {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(masks);
    u64::from_le_bytes(bytes)
}

#[cfg(test)]
mod tests {
    /// `rotations` counts the bits of every four-bit mask.
    #[test]
    fn rotations_counts_a_mask_s_bits() {
        for mask in 0u8..16 {
            assert_eq!(super::rotations(mask), mask.count_ones(), "{mask:#06b}");
        }
    }
}
