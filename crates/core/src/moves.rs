//! Legal moves: placements (the packed fast path and the plain one), the
//! follower and abbot decisions, and the checked path that says which rule a
//! move breaks.

use crate::board::{Board, Near, MAX_TILES, QUADS};
use crate::error::IllegalMove;
use crate::event::Role;
use crate::expansion::traders;
use crate::game::{Action, Figure, Game, Move, Placement, MAX_HAND};
use crate::geom::{Pos, Rotation, Spot};
use crate::rules::FarmRule;
use crate::tile::{RotatedTile, SegmentKind, TileId, FIT_ROW, NO_SEGMENT};

/// For each mask of rotations, the rotations it holds in order (padded).
const ROTATIONS_IN_MASK: [[Rotation; 4]; 16] = {
    let mut table = [[Rotation::ALL[0]; 4]; 16];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        let mut r = 0;
        while r < 4 {
            if m & (1 << r) != 0 {
                table[m][k] = Rotation::ALL[r];
                k += 1;
            }
            r += 1;
        }
        m += 1;
    }
    table
};

/// [`ROTATIONS_IN_MASK`] as four 16-bit lanes, for one 8-byte write.
const PACKED_ROTATIONS: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        while k < 4 {
            table[m] |= (ROTATIONS_IN_MASK[m][k].quarter_turns() as u64) << (16 * k);
            k += 1;
        }
        m += 1;
    }
    table
};

/// Bytes of [`PackedPlacements`]' buffer: a power of two at least twice
/// the most entries a turn can have (three tiles, every frontier cell, four
/// rotations) plus the 8-byte write past the end.
const PACKED_BYTES: usize = 16384;
const _: () = assert!(2 * (3 * 4 * (2 * MAX_TILES + 4)) + 8 <= PACKED_BYTES / 2);

/// The legal placements of the tiles in the hand of the player to move, in
/// a compact form, filled by [`Game::packed_placements`] without allocating.
/// Entries are `hand slot << 10 | frontier cell << 2 | rotation`.
#[derive(Clone, Debug)]
pub struct PackedPlacements {
    bytes: Box<[u8; PACKED_BYTES]>,
    len: usize,
}

impl Default for PackedPlacements {
    fn default() -> PackedPlacements {
        PackedPlacements::new()
    }
}

impl PackedPlacements {
    pub fn new() -> PackedPlacements {
        PackedPlacements { bytes: Box::new([0; PACKED_BYTES]), len: 0 }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Writes four entries at entry `n` (only those below the final length count).
    #[inline]
    fn put4(&mut self, n: usize, v: u64) {
        // `n` stays below PACKED_BYTES / 4 (the assertion above); the mask
        // only lets the compiler see that the write is in bounds.
        let at = (2 * n) & (PACKED_BYTES / 2 - 1);
        self.bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
    }

    /// Entry `i` (< `len`) as a tile and placement on the game it was made from.
    #[inline]
    pub fn get(&self, i: usize, game: &Game) -> (TileId, Placement) {
        debug_assert!(i < self.len);
        let e = u16::from_le_bytes([self.bytes[2 * i], self.bytes[2 * i + 1]]) as usize;
        let tile = game.hands[game.to_move.index()].as_slice()[e >> 10];
        let pos = game.board.frontier_cells()[(e >> 2) & 0xFF];
        (tile, Placement { pos, rot: Rotation::ALL[e & 3] })
    }
}

/// The legal placements of the tiles in the hand of the player to move,
/// counted by [`Game::count_placements`] (per hand tile, four frontier cells
/// at a time) rather than listed: [`PlacementCounts::get`] gives the entry
/// [`PackedPlacements::get`] would at the same rank. Made for one draw a
/// turn (random playouts): each `get` walks the counts, so several draws
/// from one turn's placements are cheaper from the list.
///
/// ```
/// use carcassonne::{Game, PackedPlacements, PlacementCounts, Rules, Setup};
///
/// let game = Game::new(Setup::standard(Rules::default(), 2, 7)).unwrap();
/// let (mut packed, mut counts) = (PackedPlacements::new(), PlacementCounts::default());
/// game.packed_placements(&mut packed);
/// game.count_placements(&mut counts);
/// assert_eq!(counts.len(), packed.len());
/// for k in 0..packed.len() {
///     assert_eq!(counts.get(k, &game), packed.get(k, &game));
/// }
/// ```
#[derive(Clone, Debug)]
pub struct PlacementCounts {
    quads: [[u8; QUADS]; MAX_HAND],
    totals: [usize; MAX_HAND],
    len: usize,
}

impl Default for PlacementCounts {
    fn default() -> PlacementCounts {
        PlacementCounts { quads: [[0; QUADS]; MAX_HAND], totals: [0; MAX_HAND], len: 0 }
    }
}

impl PlacementCounts {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The placement of rank `k` (< [`PlacementCounts::len`]) on the game
    /// counted, unchanged since: the tile and placement of entry `k` of
    /// [`Game::packed_placements`]' list.
    ///
    /// # Panics
    /// If `k` is not below the count.
    #[inline]
    pub fn get(&self, mut k: usize, game: &Game) -> (TileId, Placement) {
        for (i, (_, tile)) in game.tiles_to_place().enumerate() {
            if k >= self.totals[i] {
                k -= self.totals[i];
                continue;
            }
            let (pos, mask, rank) = match tile.is_river() {
                // Counted only if the river continues: its cell and rotations.
                true => match game.river_rotations(tile) {
                    Some((cell, mask)) => (game.board.frontier_cells()[cell], mask, k),
                    None => break,
                },
                false => game.board.fit_of_rank(tile, &self.quads[i], k),
            };
            return (tile, Placement { pos, rot: ROTATIONS_IN_MASK[mask as usize & 15][rank] });
        }
        panic!("placement {k} of {}", self.len)
    }
}

impl Game {
    /// For a river tile: the frontier cell at the river's open end and the
    /// rotations that continue the river there without a U-turn (rules.md,
    /// The River). `None` when the river has no open end on the frontier.
    pub(crate) fn river_rotations(&self, tile: TileId) -> Option<(usize, u8)> {
        let end = self.river?;
        let (cell, fit) = self.board.frontier_fit(end.cell, tile)?;
        let ok = self.board.river_ok(tile)[end.flow.index()][(end.last_turn + 1) as usize];
        let mask = fit & ok;
        Some((cell, mask))
    }

    /// Every legal placement of the tiles in the hand of the player to
    /// move, packed: the fast path for search and random playouts. Read
    /// entries with [`PackedPlacements::get`] while the game is unchanged.
    #[inline]
    pub fn packed_placements(&self, out: &mut PackedPlacements) {
        out.len = 0;
        if self.finished {
            return;
        }
        let hand = self.hands[self.to_move.index()];
        let mut n = 0;
        for (slot, &tile) in hand.as_slice().iter().enumerate() {
            if hand.as_slice()[..slot].contains(&tile) {
                continue;
            }
            let lane = (slot as u64) << 10;
            if tile.is_river() {
                if let Some((cell, mask)) = self.river_rotations(tile) {
                    let v = PACKED_ROTATIONS[mask as usize] | ((lane | (cell as u64) << 2) * 0x0001_0001_0001_0001);
                    out.put4(n, v);
                    n += mask.count_ones() as usize;
                }
                continue;
            }
            // Each cell stores four 16-bit entries with one 8-byte write and
            // keeps as many as rotations fit (the high nibble of the mask):
            // no branch per cell, as the masks are too random to predict.
            // Two cells per step: fewer instructions per cell in a loop
            // bound by how many the CPU can issue.
            const ONE: u64 = 0x0001_0001_0001_0001;
            let (codes, fits) = self.board.fit_row(tile);
            let mut lanes = lane * ONE;
            let pairs = codes.chunks_exact(2);
            let rest = pairs.remainder();
            for pair in pairs {
                let m0 = fits[pair[0] as usize & (FIT_ROW - 1)];
                let m1 = fits[pair[1] as usize & (FIT_ROW - 1)];
                out.put4(n, PACKED_ROTATIONS[m0 as usize & 15] | lanes);
                n += (m0 >> 4) as usize;
                out.put4(n, PACKED_ROTATIONS[m1 as usize & 15] | (lanes + 4 * ONE));
                n += (m1 >> 4) as usize;
                lanes += 8 * ONE;
            }
            for &c in rest {
                let m = fits[c as usize & (FIT_ROW - 1)];
                out.put4(n, PACKED_ROTATIONS[m as usize & 15] | lanes);
                n += (m >> 4) as usize;
            }
        }
        out.len = n;
    }

    /// A legal placement of the tile in hand drawn uniformly by rejection:
    /// up to `tries` (rounded up to a multiple of four) frontier cells and
    /// rotations drawn uniformly, the first that fits taken, which makes
    /// it uniform among the legal placements. `None` when the hand holds
    /// more than one kind of tile or a river tile, or when no draw fit (the
    /// caller then counts: [`Game::count_placements`]).
    #[inline]
    pub(crate) fn try_draw_placement(
        &self,
        rng: &mut impl rand_core::RngCore,
        tries: u32,
    ) -> Option<(TileId, Placement)> {
        let hand = self.hands[self.to_move.index()].as_slice();
        let &tile = hand.first()?;
        if self.finished || tile.is_river() || hand[1..].iter().any(|&t| t != tile) {
            return None;
        }
        let (codes, fits) = self.board.fit_row(tile);
        let n = 4 * codes.len() as u32;
        if n == 0 {
            return None;
        }
        // Four draws at a time, the first that fits taken: one branch the
        // CPU may guess wrong per four draws rather than per draw.
        for _ in 0..tries.div_ceil(4) {
            let draws = [0; 4].map(|_| crate::deck::uniform_below(rng, n) as usize);
            let mut hits = 0u32;
            for (j, &r) in draws.iter().enumerate() {
                let fit = fits[codes[r >> 2] as usize & (FIT_ROW - 1)];
                hits |= u32::from((fit >> (r & 3)) & 1) << j;
            }
            if hits != 0 {
                let r = draws[hits.trailing_zeros() as usize];
                let pos = self.board.frontier_cells()[r >> 2];
                return Some((tile, Placement { pos, rot: Rotation::ALL[r & 3] }));
            }
        }
        None
    }

    /// Counts the legal placements of the tiles in the hand of the player
    /// to move, into `counts`: as many as [`Game::packed_placements`] lists,
    /// and [`PlacementCounts::get`] finds any of them by its rank in that
    /// list without the list being made. For drawing one at random: about
    /// half the instructions of the list, and no branch the CPU must guess.
    #[inline]
    pub fn count_placements(&self, counts: &mut PlacementCounts) {
        counts.len = 0;
        if self.finished {
            return;
        }
        for (i, (_, tile)) in self.tiles_to_place().enumerate() {
            let n = if tile.is_river() {
                self.river_rotations(tile).map_or(0, |(_, mask)| mask.count_ones() as usize)
            } else {
                self.board.count_fits(tile, &mut counts.quads[i])
            };
            counts.totals[i] = n;
            counts.len += n;
        }
    }

    /// What putting `tile` at `placement` (legal) would do at once for the
    /// player to move, in points: `(theirs, others')`, where `theirs` sums
    /// the roads, cities and cloisters it completes that the player holds
    /// (alone or tied) and `others'` those it completes for another player
    /// (the most any one other player would get). Cheap (nothing is
    /// placed) and approximate (see below), it is meant for playout
    /// policies, not scoring: a feature closed by two segments of the tile
    /// counts twice, the small-city rule is ignored, and a follower put on
    /// the tile itself is not counted.
    ///
    /// ```
    /// use carcassonne::{Game, Rules, Setup};
    ///
    /// let game = Game::new(Setup::standard(Rules::default(), 2, 1)).unwrap();
    /// let tile = game.tile().unwrap();
    /// for p in game.placements() {
    ///     // No follower is on the board yet: no placement pays anyone.
    ///     assert_eq!(game.placement_gain(tile, p), (0, 0));
    /// }
    /// ```
    pub fn placement_gain(&self, tile: TileId, placement: Placement) -> (u32, u32) {
        if self.finished {
            return (0, 0);
        }
        let me = self.to_move.0;
        let rt = tile.rotated(placement.rot);
        let (mut mine, mut theirs) = self.board.completion_gain(rt, placement.pos, me, self.players);
        if !self.monks.is_empty() {
            let pos = placement.pos;
            for f in &self.followers {
                if matches!(f.role, Role::Monk | Role::Abbot)
                    && (f.pos.x - pos.x).abs() <= 1
                    && (f.pos.y - pos.y).abs() <= 1
                    && self.board.neighbours(f.pos) == 7
                {
                    if f.player.0 == me {
                        mine += 9;
                    } else {
                        theirs += 9;
                    }
                }
            }
        }
        (mine, theirs)
    }

    /// The spots where a follower put after placing `tile` at `placement`
    /// (legal) would score at once and come back, appended to `out`: the
    /// roads and cities the placement completes while nobody holds them,
    /// and the tile's cloister when all eight cells around it hold tiles.
    /// None when the player to move has no follower in supply. Cheap
    /// (nothing is placed) and meant for playout policies: a feature that
    /// two segments of the tile close together is missed, never one
    /// reported that does not score.
    ///
    /// ```
    /// use carcassonne::{Game, Rules, Setup};
    ///
    /// let game = Game::new(Setup::standard(Rules::default(), 2, 1)).unwrap();
    /// let tile = game.tile().unwrap();
    /// let mut spots = Vec::new();
    /// for p in game.placements() {
    ///     game.instant_spots(tile, p, &mut spots);
    /// }
    /// // Next to the start tile alone, nothing is completed.
    /// assert!(spots.is_empty());
    /// ```
    pub fn instant_spots(&self, tile: TileId, placement: Placement, out: &mut Vec<Spot>) {
        if self.finished || self.supply[self.to_move.index()] == 0 {
            return;
        }
        let rt = tile.rotated(placement.rot);
        let mut segs = self.board.closing_free_segments(rt, placement.pos) & rt.follower_segs;
        if rt.cloister != NO_SEGMENT && self.board.neighbours(placement.pos) == 8 {
            segs |= 1 << rt.cloister;
        }
        while segs != 0 {
            let s = segs.trailing_zeros() as usize;
            segs &= segs - 1;
            out.push(rt.spots[s]);
        }
    }

    /// Every legal placement of `tile` on the board as it is, appended to `out`.
    pub fn placements_of(&self, tile: TileId, out: &mut Vec<Placement>) {
        let cells = self.board.frontier_cells();
        if tile.is_river() {
            if let Some((cell, mask)) = self.river_rotations(tile) {
                let rots = &ROTATIONS_IN_MASK[mask as usize];
                out.extend(rots[..mask.count_ones() as usize].iter().map(|&rot| Placement { pos: cells[cell], rot }));
            }
            return;
        }
        for (&pos, mask) in cells.iter().zip(self.board.fit_masks(tile)) {
            let rots = &ROTATIONS_IN_MASK[mask as usize & 15];
            out.extend(rots[..(mask >> 4) as usize].iter().map(|&rot| Placement { pos, rot }));
        }
    }

    /// Every legal placement of `tile`, a position at a time: `f` gets each
    /// position where it fits and the set of rotations that fit there (bit
    /// `r` for [`Rotation::ALL`]`[r]`, never empty), in the order of
    /// [`Game::placements_of`].
    ///
    /// ```
    /// use carcassonne::{Game, Placement, Rotation, Rules, Setup};
    ///
    /// let game = Game::new(Setup::standard(Rules::default(), 2, 7)).unwrap();
    /// let tile = game.tile().unwrap();
    /// let mut listed = Vec::new();
    /// game.each_fit(tile, |pos, rots| {
    ///     let fit = Rotation::ALL.into_iter().enumerate().filter(|(r, _)| rots & (1 << r) != 0);
    ///     listed.extend(fit.map(|(_, rot)| Placement { pos, rot }));
    /// });
    /// assert_eq!(listed, game.placements());
    /// ```
    #[inline]
    pub fn each_fit(&self, tile: TileId, mut f: impl FnMut(Pos, u8)) {
        let cells = self.board.frontier_cells();
        if tile.is_river() {
            if let Some((cell, mask)) = self.river_rotations(tile) {
                if mask != 0 {
                    f(cells[cell], mask);
                }
            }
            return;
        }
        for (&pos, mask) in cells.iter().zip(self.board.fit_masks(tile)) {
            if mask & 15 != 0 {
                f(pos, mask & 15);
            }
        }
    }

    /// Every legal placement of the tile the player to move must place
    /// (the first of their hand), appended to `out`.
    pub fn placements_into(&self, out: &mut Vec<Placement>) {
        if let Some(tile) = self.tile() {
            self.placements_of(tile, out);
        }
    }

    /// Every legal placement of the tile to place ([`Game::tile`]).
    pub fn placements(&self) -> Vec<Placement> {
        let mut v = Vec::new();
        self.placements_into(&mut v);
        v
    }

    /// The spots where the player to move may deploy a follower after
    /// placing `tile` at `placement` (which must be legal), one per segment,
    /// appended to `out`.
    pub fn spots_of(&self, tile: TileId, placement: Placement, out: &mut Vec<Spot>) {
        self.each_spot(tile, placement, |s| out.push(s));
    }

    fn each_spot(&self, tile: TileId, placement: Placement, f: impl FnMut(Spot)) {
        let rt = tile.rotated(placement.rot);
        self.each_spot_of(rt, || self.board.occupied_segments(rt, placement.pos), f);
    }

    /// The spots of a tile of shape `rt` where the player to move may
    /// deploy a follower, given the tile's segments that would join an
    /// occupied feature (asked only if the player has a follower).
    #[inline]
    fn each_spot_of(&self, rt: &RotatedTile, occupied: impl FnOnce() -> u16, f: impl FnMut(Spot)) {
        if self.supply[self.to_move.index()] == 0 {
            return;
        }
        each_spot_in(rt, self.free_segments(rt, occupied()), f);
    }

    /// The segments of `rt` a follower (big or not) may take: any but a
    /// garden, fields only with farmers, none whose feature is occupied.
    #[inline]
    fn free_segments(&self, rt: &RotatedTile, occupied: u16) -> u16 {
        let allowed =
            if self.rules.farms == FarmRule::Off { rt.follower_segs & !rt.field_segs } else { rt.follower_segs };
        allowed & !occupied
    }

    /// The follower spots for the tile to place at `placement`, appended to `out`.
    pub fn spots_into(&self, placement: Placement, out: &mut Vec<Spot>) {
        if let Some(tile) = self.tile() {
            self.spots_of(tile, placement, out);
        }
    }

    /// The follower spots for the tile to place at `placement`.
    pub fn spots(&self, placement: Placement) -> Vec<Spot> {
        let mut v = Vec::new();
        self.spots_into(placement, &mut v);
        v
    }

    /// Every decision after placing `tile` at `placement`: pass, each
    /// follower spot, the abbot's spots, recalling the abbot.
    #[inline]
    pub fn actions_into(&self, tile: TileId, placement: Placement, out: &mut Vec<Action>) {
        self.each_action(tile, placement, |a| out.push(a));
    }

    /// The same decisions as [`Game::actions_into`], in the same order,
    /// each handed to `f` (nothing collected: for callers that turn each
    /// into something else at once).
    ///
    /// ```
    /// use carcassonne::{Action, Game, Rules, Setup};
    ///
    /// let game = Game::new(Setup::standard(Rules::default(), 2, 7)).unwrap();
    /// let tile = game.tile().unwrap();
    /// let placement = game.placements()[0];
    /// let mut seen = Vec::new();
    /// game.each_action(tile, placement, |a| seen.push(a));
    /// // Passing, then a follower on each free spot (no abbot in these rules).
    /// assert_eq!(seen[0], Action::Pass);
    /// let spots: Vec<Action> = game.spots(placement).into_iter().map(Action::Follower).collect();
    /// assert_eq!(seen[1..], spots[..]);
    /// ```
    #[inline]
    pub fn each_action(&self, tile: TileId, placement: Placement, f: impl FnMut(Action)) {
        let rt = tile.rotated(placement.rot);
        self.each_action_of(rt, placement.pos, || self.board.occupied_segments(rt, placement.pos), f);
    }

    /// The decisions of [`Game::each_action`] for each rotation of `tile`
    /// at `pos` in `rots` (a bit per rotation, as [`Game::each_fit`] gives
    /// them; each must be a legal placement), rotations in ascending
    /// order: what the tiles around the cell offer is read once for all.
    ///
    /// ```
    /// use carcassonne::{Game, Placement, Rules, Setup};
    ///
    /// let game = Game::new(Setup::standard(Rules::default(), 2, 7)).unwrap();
    /// let tile = game.tile().unwrap();
    /// game.each_fit(tile, |pos, rots| {
    ///     let mut at_once = Vec::new();
    ///     game.each_action_at(tile, pos, rots, |rot, a| at_once.push((rot, a)));
    ///     let mut one_by_one = Vec::new();
    ///     for rot in carcassonne::Rotation::ALL.into_iter().filter(|r| rots & (1 << r.quarter_turns()) != 0) {
    ///         game.each_action(tile, Placement { pos, rot }, |a| one_by_one.push((rot, a)));
    ///     }
    ///     assert_eq!(at_once, one_by_one);
    /// });
    /// ```
    #[inline]
    pub fn each_action_at(&self, tile: TileId, pos: Pos, mut rots: u8, mut f: impl FnMut(Rotation, Action)) {
        // Only a player with a follower (big or not) asks which features are occupied.
        let me = self.to_move;
        let any = self.supply[me.index()] > 0 || self.rules.has_big_follower() && self.at_home(me, Figure::BigFollower);
        let near = if any { self.board.near(pos) } else { Near::NOTHING };
        while rots & 15 != 0 {
            let rot = Rotation::ALL[rots.trailing_zeros() as usize];
            rots &= rots - 1;
            let rt = tile.rotated(rot);
            self.each_action_of(rt, pos, || self.board.occupied_near(rt, &near), |a| f(rot, a));
        }
    }

    /// [`Game::each_action`] for a tile of shape `rt` at `pos`, with the
    /// segments that would join an occupied feature asked of `occupied`.
    #[inline]
    fn each_action_of(&self, rt: &RotatedTile, pos: Pos, occupied: impl FnOnce() -> u16, mut f: impl FnMut(Action)) {
        f(Action::Pass);
        if self.ext {
            // Its own look at the occupied features: `occupied` stays one
            // call site, inlined into the base game's path.
            return self.each_expansion_action_of(rt, pos, f);
        }
        self.each_spot_of(rt, occupied, |s| f(Action::Follower(s)));
        self.each_abbot_action_of(rt, pos, f);
    }

    /// The abbot's decisions: its spots on the tile, or recalling it.
    #[inline]
    fn each_abbot_action_of(&self, rt: &RotatedTile, pos: Pos, mut f: impl FnMut(Action)) {
        if !self.rules.abbot {
            return;
        }
        if self.at_home(self.to_move, Figure::Abbot) {
            // Its cloister and garden segments (spots `C` and `G`), found
            // without a branch per spot.
            let bit = |seg: u8| u16::from(seg != NO_SEGMENT) << (seg & 15);
            each_spot_in(rt, bit(rt.cloister) | bit(rt.garden), |s| f(Action::Abbot(s)));
        } else if self.recall_allowed(pos) {
            f(Action::Recall);
        }
    }

    /// [`Game::each_action_of`] with the expansions' figures, after the
    /// pass: followers, the big follower, the abbot's decisions, the
    /// builder, the pig.
    // Out of line, so that the base game's path stays small; not `#[cold]`,
    // which made every Big Box move slower (docs/performance.md).
    #[inline(never)]
    fn each_expansion_action_of(&self, rt: &RotatedTile, pos: Pos, mut f: impl FnMut(Action)) {
        let me = self.to_move;
        // Which figures are at hand, without a branch (`&`, not `&&`: each
        // part is a load). A figure's home bit is set only if the rules
        // give it; the builder and the pig need a thief or knight, a
        // farmer, of the player's.
        let follower = self.supply[me.index()] > 0;
        let big = self.rules.has_big_follower() & self.at_home(me, Figure::BigFollower);
        let mut builder = self.at_home(me, Figure::Builder) & (self.traders.thieves_knights[me.index()] > 0);
        let pig = self.at_home(me, Figure::Pig)
            & (self.traders.farmers[me.index()] > 0)
            & (self.rules.farms != FarmRule::Off);
        // With the builder alone at hand (most of a game, once the
        // followers are out), a look at the sides' roads and cities tells
        // whether it could go anywhere (on 97 % of random playouts' moves
        // it could not), before the look at every feature around.
        let others = follower | big | pig;
        if builder & !others {
            builder = self.board.road_city_of_near(pos, me.0);
        }
        // One look at the features around the cell serves every figure.
        let near = if others | builder { self.board.near_for(pos, me.0) } else { Near::NOTHING };
        if follower | big {
            let free = self.free_segments(rt, self.board.occupied_near(rt, &near));
            each_spot_in(rt, free & u16::from(follower).wrapping_neg(), |s| f(Action::Follower(s)));
            each_spot_in(rt, free & u16::from(big).wrapping_neg(), |s| f(Action::BigFollower(s)));
        }
        self.each_abbot_action_of(rt, pos, &mut f);
        if builder | pig {
            let mine = Board::mine_near(rt, &near);
            if builder && mine & rt.road_city_segs != 0 {
                // Not onto a road or city this tile completes: worked out
                // only here, where the builder could go.
                if let Some(joined) = self.board.joined(rt, pos, me.0) {
                    each_spot_in(rt, self.builder_segments(&joined, rt), |s| f(Action::Builder(s)));
                }
            }
            if pig {
                each_spot_in(rt, mine & rt.field_segs, |s| f(Action::Pig(s)));
            }
        }
    }

    /// Whether the abbot of the player to move stands on the board and
    /// stays incomplete with a tile put at `pos`.
    fn recall_allowed(&self, pos: Pos) -> bool {
        let p = self.to_move;
        if self.at_home(p, Figure::Abbot) || !self.rules.abbot {
            return false;
        }
        let at = self.abbot_at[p.index()];
        let adjacent = (at.x - pos.x).abs() <= 1 && (at.y - pos.y).abs() <= 1;
        self.board.neighbours(at) + (adjacent as u32) < 8
    }

    /// The tiles the player to move may place: each kind in the hand once
    /// (a hand may hold two of a tile, with the same moves), with the slot
    /// where it first is.
    ///
    /// ```
    /// use carcassonne::{Game, Rules, Setup};
    ///
    /// let game = Game::new(Setup::standard(Rules { hand: 3, ..Rules::default() }, 2, 7)).unwrap();
    /// let kinds: Vec<_> = game.tiles_to_place().map(|(_, tile)| tile).collect();
    /// assert!(!kinds.is_empty() && kinds.len() <= 3);
    /// ```
    pub fn tiles_to_place(&self) -> impl Iterator<Item = (usize, TileId)> + '_ {
        let hand = self.hands[self.to_move.index()].as_slice();
        hand.iter().enumerate().filter(move |&(i, tile)| !hand[..i].contains(tile)).map(|(i, &tile)| (i, tile))
    }

    /// Every legal move: each tile of the hand, each placement, each
    /// decision (all saying which part of the turn they are: [`Game::bonus`]).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.finished {
            return moves;
        }
        let mut placements = Vec::new();
        let mut actions = Vec::new();
        for (_, tile) in self.tiles_to_place() {
            placements.clear();
            self.placements_of(tile, &mut placements);
            for &p in &placements {
                actions.clear();
                self.actions_into(tile, p, &mut actions);
                let bonus = self.bonus;
                moves.extend(actions.iter().map(|&action| Move { tile, pos: p.pos, rot: p.rot, action, bonus }));
            }
        }
        moves
    }

    /// Checks a move against the rules without playing it.
    ///
    /// # Errors
    /// The first rule the move breaks.
    pub fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        if self.finished {
            return Err(IllegalMove::GameOver);
        }
        match (self.bonus, mv.bonus) {
            (Some(bonus), None) => return Err(IllegalMove::BonusExpected { bonus }),
            (due, Some(bonus)) if due != Some(bonus) => return Err(IllegalMove::BonusNotDue { bonus }),
            _ => {}
        }
        if let Some(expansion) = mv.tile.expansion().filter(|&e| !self.rules.has(e)) {
            return Err(IllegalMove::TileNotInPlay { tile: mv.tile, expansion });
        }
        let hand = self.hands[self.to_move.index()];
        if hand.position(mv.tile).is_none() {
            return Err(match hand.as_slice() {
                [only] => IllegalMove::WrongTile { expected: *only, got: mv.tile },
                _ => IllegalMove::NotInHand { got: mv.tile },
            });
        }
        let tile = mv.tile;
        if self.board.tile_at(mv.pos).is_some() {
            return Err(IllegalMove::CellOccupied { pos: mv.pos });
        }
        if !self.board.within_limit(mv.pos) {
            return Err(IllegalMove::OutsideTable { pos: mv.pos });
        }
        let Some(cell) = self.board.frontier_at(mv.pos) else {
            return Err(IllegalMove::NotAdjacent { pos: mv.pos });
        };
        if let Some((side, ours, theirs)) = Board::mismatch(tile, mv.rot, &cell) {
            return Err(IllegalMove::EdgeMismatch { tile, pos: mv.pos, rot: mv.rot, side, ours, theirs });
        }
        if tile.is_river() {
            let continues = self.river.is_some_and(|end| {
                end.cell == mv.pos && tile.rotated(mv.rot).river & (1 << end.flow.opposite().index()) != 0
            });
            if !continues {
                return Err(IllegalMove::RiverNotContinued { tile, pos: mv.pos });
            }
            let allowed = self.river_rotations(tile).is_some_and(|(_, mask)| mask & (1 << mv.rot.quarter_turns()) != 0);
            if !allowed {
                return Err(IllegalMove::RiverUTurn { tile, pos: mv.pos });
            }
        }
        let rt = tile.rotated(mv.rot);
        let p = self.to_move.index();
        match mv.action {
            Action::Pass => Ok(()),
            Action::Follower(spot) => {
                let seg =
                    rt.segment_at(spot, self.rules.abbot).ok_or(IllegalMove::BadSpot { tile, rot: mv.rot, spot })?;
                let kind = rt.seg_kind[seg as usize];
                if kind == SegmentKind::Garden {
                    return Err(IllegalMove::GardenForAbbot);
                }
                if kind == SegmentKind::Field && self.rules.farms == FarmRule::Off {
                    return Err(IllegalMove::FarmersOff);
                }
                if self.supply[p] == 0 {
                    return Err(IllegalMove::NoFollower);
                }
                if self.board.occupied_segments(rt, mv.pos) & (1 << seg) != 0 {
                    return Err(IllegalMove::FeatureOccupied { kind, spot });
                }
                Ok(())
            }
            Action::Abbot(spot) => {
                if !self.rules.abbot {
                    return Err(IllegalMove::NoAbbot);
                }
                let seg = rt.segment_at(spot, true).ok_or(IllegalMove::BadSpot { tile, rot: mv.rot, spot })?;
                if !matches!(rt.seg_kind[seg as usize], SegmentKind::Cloister | SegmentKind::Garden) {
                    return Err(IllegalMove::AbbotSpot { spot });
                }
                if !self.at_home(self.to_move, Figure::Abbot) {
                    return Err(IllegalMove::AbbotInUse);
                }
                Ok(())
            }
            Action::Recall => {
                if !self.rules.abbot {
                    return Err(IllegalMove::NoAbbot);
                }
                if self.at_home(self.to_move, Figure::Abbot) {
                    return Err(IllegalMove::AbbotNotPlaced);
                }
                if !self.recall_allowed(mv.pos) {
                    return Err(IllegalMove::RecallComplete);
                }
                Ok(())
            }
            Action::BigFollower(spot) => {
                let figure = Figure::BigFollower;
                if !self.rules.has_big_follower() {
                    return Err(IllegalMove::FigureOff { figure });
                }
                let seg =
                    rt.segment_at(spot, self.rules.abbot).ok_or(IllegalMove::BadSpot { tile, rot: mv.rot, spot })?;
                let kind = rt.seg_kind[seg as usize];
                if kind == SegmentKind::Garden {
                    return Err(IllegalMove::GardenForAbbot);
                }
                if kind == SegmentKind::Field && self.rules.farms == FarmRule::Off {
                    return Err(IllegalMove::FarmersOff);
                }
                if !self.at_home(self.to_move, figure) {
                    return Err(IllegalMove::NotInSupply { figure });
                }
                if self.board.occupied_segments(rt, mv.pos) & (1 << seg) != 0 {
                    return Err(IllegalMove::FeatureOccupied { kind, spot });
                }
                Ok(())
            }
            Action::Builder(spot) => {
                let figure = Figure::Builder;
                if !self.rules.has_builder() {
                    return Err(IllegalMove::FigureOff { figure });
                }
                let seg =
                    rt.segment_at(spot, self.rules.abbot).ok_or(IllegalMove::BadSpot { tile, rot: mv.rot, spot })?;
                let kind = rt.seg_kind[seg as usize];
                if !traders::builder_may_stand_on(kind) {
                    return Err(IllegalMove::FigureSpot { figure, spot });
                }
                if !self.at_home(self.to_move, figure) {
                    return Err(IllegalMove::NotInSupply { figure });
                }
                let joined = self.board.joined(rt, mv.pos, p as u8);
                let Some(joined) = joined.filter(|j| (j.meeples[seg as usize] >> (4 * p)) & 0xF != 0) else {
                    return Err(IllegalMove::BuilderNeedsFollower { kind, spot });
                };
                if joined.open[seg as usize] <= 0 {
                    return Err(IllegalMove::BuilderOnCompleted { kind, spot });
                }
                Ok(())
            }
            Action::Pig(spot) => {
                let figure = Figure::Pig;
                if !self.rules.has_pig() {
                    return Err(IllegalMove::FigureOff { figure });
                }
                let seg =
                    rt.segment_at(spot, self.rules.abbot).ok_or(IllegalMove::BadSpot { tile, rot: mv.rot, spot })?;
                if rt.seg_kind[seg as usize] != SegmentKind::Field {
                    return Err(IllegalMove::FigureSpot { figure, spot });
                }
                if self.rules.farms == FarmRule::Off {
                    return Err(IllegalMove::FarmersOff);
                }
                if !self.at_home(self.to_move, figure) {
                    return Err(IllegalMove::NotInSupply { figure });
                }
                let joined = self.board.joined(rt, mv.pos, p as u8);
                if joined.is_none_or(|j| (j.meeples[seg as usize] >> (4 * p)) & 0xF == 0) {
                    return Err(IllegalMove::PigNeedsFarmer { spot });
                }
                Ok(())
            }
        }
    }

    /// Plays a move after checking it; an illegal move changes nothing.
    ///
    /// # Errors
    /// The first rule the move breaks.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }
}

/// `f` with the spot of each segment of `rt` in `segs` (bit per segment).
#[inline]
fn each_spot_in(rt: &RotatedTile, mut segs: u16, mut f: impl FnMut(Spot)) {
    while segs != 0 {
        let s = segs.trailing_zeros() as usize;
        segs &= segs - 1;
        f(rt.spots[s]);
    }
}
