//! The board: placed tiles on a fixed-size grid, the frontier of open cells
//! with their edge constraints, and the features as a union–find over tile
//! segments whose roots carry the counters scoring needs.
//!
//! The grid is a 128 × 128 torus: a cell's index is its coordinates modulo
//! 128. A game places at most [`MAX_TILES`] tiles, so the played area plus its
//! border spans fewer than 128 cells either way and no two cells that matter
//! ever share an index. Positions outside the played area's one-cell border
//! are rejected before they are looked up.

use crate::geom::{Dir, Pos, Rotation, HALF_OPPOSITE};
use crate::tile::{
    constraint_side, tables, EdgeKind, RotatedTile, SegmentKind, Sums, Tables, TileId, FIT_ROW, MARK_CATHEDRAL,
    MARK_INN, MAX_SEGMENTS, NO_SEGMENT,
};

const GRID_BITS: u32 = 7;
const GRID: i32 = 1 << GRID_BITS;
const CELLS: usize = (GRID * GRID) as usize;

/// The most tiles one game may place (start tile included): the Big Box's
/// 113 land tiles after the 12 river tiles. Bounded by the 128-bit tile
/// sets the features carry and by the grid: the played area spans at most
/// 125 cells either way, so with its one-cell border it stays inside the
/// 128 cells of the torus, and a cell two away from it never falls on a
/// placed tile.
pub const MAX_TILES: usize = 125;

/// Room for the frontier: each tile adds at most two cells to it, and a
/// cell's frontier index + 1 must fit in a byte. One spare slot takes the
/// speculative write of a cell that may join the frontier (see `place`).
const FRONTIER: usize = 256;
const _: () = assert!(2 * MAX_TILES + 4 < FRONTIER);

/// Quads of four frontier cells: the unit [`Board::count_fits`] counts by.
pub(crate) const QUADS: usize = FRONTIER / 4;

#[inline]
fn cell_index(p: Pos) -> usize {
    (((p.y & (GRID - 1)) << GRID_BITS) | (p.x & (GRID - 1))) as usize
}

/// A tile on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    pub tile: TileId,
    pub rot: Rotation,
    pub pos: Pos,
}

impl PlacedTile {
    #[inline]
    pub(crate) fn shape(&self) -> &'static RotatedTile {
        self.tile.rotated(self.rot)
    }
}

/// What the cells around a placed tile read of it, in 14 bytes beside the
/// tiles: where its segments start in the segment arrays, and (turned as
/// placed) the segment on each side's edge (a road or city) and on each
/// half-edge (a field). The neighbours' reads ([`Board::near`], `place`'s
/// joins) come here rather than to the shape tables, whose Big Box rows
/// (84 kinds, four turns) do not stay in the L1 cache.
#[derive(Copy, Clone, Debug)]
struct Rim {
    /// The first of the tile's segments in the board's segment arrays.
    seg_base: u16,
    edge_seg: [u8; 4],
    half_seg: [u8; 8],
}

/// An empty cell next to at least one tile, with the edges it must match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct FrontierCell {
    pub pos: Pos,
    /// Edge kinds required on each side (base 5, see `tile::SIDE_WEIGHT`).
    pub constraint: u16,
}

/// Union–find node per segment; the counters are meaningful at roots.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Feature {
    /// Placed-tile indices the feature covers (a tile counts once).
    pub tiles: u128,
    /// Followers per player, 4 bits each (a big follower counts 2).
    pub meeples: u32,
    /// Shields and goods symbols, four lanes that add up as features join.
    pub sums: Sums,
    pub parent: u16,
    /// City or road edges not yet matched by a neighbour.
    pub open: u16,
    /// The kind (low three bits) and the marks, an inn on a road, a
    /// cathedral in a city (`MARK_INN`, `MARK_CATHEDRAL`), joined by `|`.
    pub kind_marks: u8,
}

// Four features to a cache line: joining them stays cheap.
const _: () = assert!(std::mem::size_of::<Feature>() == 32);

impl Feature {
    #[inline]
    pub fn tile_count(&self) -> u32 {
        self.tiles.count_ones()
    }

    #[inline]
    pub fn kind(&self) -> SegmentKind {
        SegmentKind::from_low_bits(self.kind_marks)
    }

    pub fn shields(&self) -> u32 {
        self.sums.shields()
    }

    pub fn inn(&self) -> bool {
        self.kind_marks & MARK_INN != 0
    }

    pub fn cathedral(&self) -> bool {
        self.kind_marks & MARK_CATHEDRAL != 0
    }
}

/// The features the tiles around a cell offer a tile put there
/// (`Board::near`), each one once.
pub(crate) struct Near {
    /// Bit per `Dir` with a neighbour.
    sides: u8,
    /// Per side, the features met by its edge and by its two half-edges,
    /// as indices into the distinct features met around the cell (0 for
    /// a link with no segment, which joins nothing).
    slots: [[u8; 3]; 4],
    /// How many distinct features the cell's sides meet.
    count: u8,
    /// Bit per distinct feature that holds a follower (0: none near).
    occupied: u16,
    /// The links whose feature holds a follower of the player asked about
    /// ([`Board::near_for`]; 0 from [`Board::near`]).
    mine: u16,
}

impl Near {
    /// Nothing around: no segment of a tile put there joins an occupied
    /// feature.
    pub(crate) const NOTHING: Near = Near { sides: 0, slots: [[0; 3]; 4], count: 0, occupied: 0, mine: 0 };
}

/// Per segment of a tile about to be placed, the feature it would belong
/// to ([`Board::joined`]): its followers (4 bits a seat) and, for a road or
/// city, its open edges (0: the tile completes it).
pub(crate) struct Joined {
    pub meeples: [u32; MAX_SEGMENTS],
    pub open: [i32; MAX_SEGMENTS],
}

/// What the board knows of one feature.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FeatureInfo {
    pub kind: SegmentKind,
    /// A road or city with no open edge, a cloister or garden surrounded.
    pub complete: bool,
    /// Tiles the feature covers (each tile once).
    pub tiles: u32,
    pub shields: u32,
    /// A road with an inn, a city with a cathedral (Inns & Cathedrals).
    pub inn: bool,
    pub cathedral: bool,
    /// Goods symbols in a city by kind, in [`crate::Good::ALL`]'s order (Traders & Builders).
    pub goods: [u8; 3],
    /// Road or city edges not yet matched.
    pub open_edges: u32,
    /// Followers on it per seat, as majorities count them (a big follower 2).
    pub followers: [u8; 8],
    /// Identifies the feature while the board does not change (two spots
    /// with the same id lie on one feature).
    pub id: u16,
}

/// One cell of the grid: what lies there and whether it is on the frontier.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Cell {
    /// Placed-tile index + 1 (0: empty).
    tile: u8,
    /// Frontier index + 1 (0: not on the frontier).
    front: u8,
}

impl Cell {
    const EMPTY: Cell = Cell { tile: 0, front: 0 };
}

/// Placed tiles, frontier and features.
pub struct Board {
    /// The 128 × 128 torus of cells (a fixed-size array: indices masked to
    /// the grid need no bounds check).
    grid: Box<[Cell; CELLS]>,
    /// The frontier as two parallel arrays: cells and their constraints
    /// (kept apart so that scanning the constraints is dense); the first
    /// `fr_len` entries count. Fixed-size arrays, so that `place` can write
    /// one entry past the end instead of branching on whether a cell is new.
    fr_pos: Box<[Pos; FRONTIER]>,
    fr_code: Box<[u16; FRONTIER]>,
    fr_len: usize,
    tables: &'static Tables,
    /// Half the table's width and height (rules' `board_limit`).
    limit: Option<(i32, i32)>,
    border_completes: bool,
    tiles: Vec<PlacedTile>,
    /// Per placed tile, what its neighbours read of it.
    rims: Vec<Rim>,
    pub(crate) feats: Vec<Feature>,
    min: Pos,
    max: Pos,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            grid: self.grid.clone(),
            fr_pos: self.fr_pos.clone(),
            fr_code: self.fr_code.clone(),
            fr_len: self.fr_len,
            tables: self.tables,
            limit: self.limit,
            border_completes: self.border_completes,
            tiles: self.tiles.clone(),
            rims: self.rims.clone(),
            feats: self.feats.clone(),
            min: self.min,
            max: self.max,
        }
    }

    /// Copies only the grid rows either board uses: searches copy a
    /// position once per iteration, and a game covers a few rows of 128.
    fn clone_from(&mut self, source: &Board) {
        let rows = |b: &Board| (b.min.y - 1, b.max.y + 1);
        let (lo, hi) = rows(self);
        for_rows(lo, hi, |r| self.grid[r].fill(Cell::EMPTY));
        let (lo, hi) = rows(source);
        for_rows(lo, hi, |r| self.grid[r.clone()].copy_from_slice(&source.grid[r]));
        let n = source.fr_len;
        self.fr_pos[..n].copy_from_slice(&source.fr_pos[..n]);
        self.fr_code[..n].copy_from_slice(&source.fr_code[..n]);
        self.fr_len = n;
        self.tables = source.tables;
        self.limit = source.limit;
        self.border_completes = source.border_completes;
        self.tiles.clone_from(&source.tiles);
        self.rims.clone_from(&source.rims);
        self.feats.clone_from(&source.feats);
        self.min = source.min;
        self.max = source.max;
    }
}

/// Calls `f` with the index range of each grid row from `lo` to `hi`
/// (inclusive, torus rows), or once with the whole grid if they span it.
fn for_rows(lo: i32, hi: i32, mut f: impl FnMut(std::ops::Range<usize>)) {
    if hi - lo + 1 >= GRID {
        f(0..CELLS);
        return;
    }
    for y in lo..=hi {
        let start = ((y & (GRID - 1)) << GRID_BITS) as usize;
        f(start..start + GRID as usize);
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board").field("tiles", &self.tiles).finish_non_exhaustive()
    }
}

impl Board {
    /// An empty board; with `limit` (W, H), tiles may only lie within a
    /// W × H rectangle centred on the origin, and with `border_completes`
    /// road and city edges facing the limit count as closed.
    pub(crate) fn new(limit: Option<(u8, u8)>, border_completes: bool) -> Board {
        Board {
            limit: limit.map(|(w, h)| (w as i32 / 2, h as i32 / 2)),
            border_completes: border_completes && limit.is_some(),
            grid: Box::new([Cell::EMPTY; CELLS]),
            fr_pos: Box::new([Pos::ORIGIN; FRONTIER]),
            fr_code: Box::new([0; FRONTIER]),
            fr_len: 0,
            tables: tables(),
            tiles: Vec::with_capacity(MAX_TILES),
            rims: Vec::with_capacity(MAX_TILES),
            feats: Vec::with_capacity(MAX_TILES * MAX_SEGMENTS),
            min: Pos::ORIGIN,
            max: Pos::ORIGIN,
        }
    }

    /// Empties the board for a new game (see `Game::restart`): clears only
    /// the grid rows the last game used, keeps the buffers.
    pub(crate) fn reset(&mut self, limit: Option<(u8, u8)>, border_completes: bool) {
        if !self.tiles.is_empty() {
            for_rows(self.min.y - 1, self.max.y + 1, |r| self.grid[r].fill(Cell::EMPTY));
        }
        self.fr_len = 0;
        self.limit = limit.map(|(w, h)| (w as i32 / 2, h as i32 / 2));
        self.border_completes = border_completes && limit.is_some();
        self.tiles.clear();
        self.rims.clear();
        self.feats.clear();
        self.min = Pos::ORIGIN;
        self.max = Pos::ORIGIN;
    }

    /// Every tile on the board, in the order placed.
    pub fn tiles(&self) -> &[PlacedTile] {
        &self.tiles
    }

    /// The smallest and largest coordinates of the placed tiles.
    pub fn bounds(&self) -> (Pos, Pos) {
        (self.min, self.max)
    }

    /// Whether `p` lies within one cell of the played area, the only cells
    /// the grid can tell apart.
    #[inline]
    fn in_reach(&self, p: Pos) -> bool {
        p.x >= self.min.x - 1 && p.x <= self.max.x + 1 && p.y >= self.min.y - 1 && p.y <= self.max.y + 1
    }

    /// The index of the tile at `p`, if any.
    #[inline]
    pub(crate) fn index_at(&self, p: Pos) -> Option<usize> {
        if !self.in_reach(p) {
            return None;
        }
        match self.grid[cell_index(p)].tile {
            0 => None,
            i => Some(i as usize - 1),
        }
    }

    /// Whether `p` lies within the table (always, without a board limit).
    #[inline]
    pub fn within_limit(&self, p: Pos) -> bool {
        match self.limit {
            None => true,
            Some((hw, hh)) => p.x.abs() <= hw && p.y.abs() <= hh,
        }
    }

    /// Whether all four edge neighbours of `p` hold a tile.
    pub(crate) fn surrounded(&self, p: Pos) -> bool {
        Dir::ALL.into_iter().all(|d| self.index_near(p.step(d)).is_some())
    }

    /// The index of the tile at `p`, for a `p` within two cells of the
    /// played area (where the grid tells cells apart without a bounds check).
    #[inline]
    fn index_near(&self, p: Pos) -> Option<usize> {
        debug_assert!(p.x >= self.min.x - 2 && p.x <= self.max.x + 2 && p.y >= self.min.y - 2 && p.y <= self.max.y + 2);
        match self.grid[cell_index(p)].tile {
            0 => None,
            i => Some(i as usize - 1),
        }
    }

    /// The tile at `p`, if any.
    pub fn tile_at(&self, p: Pos) -> Option<&PlacedTile> {
        self.index_at(p).map(|i| &self.tiles[i])
    }

    /// The frontier cell at `p`, if `p` is empty and next to a tile.
    #[inline]
    pub(crate) fn frontier_at(&self, p: Pos) -> Option<FrontierCell> {
        if !self.tiles.is_empty() && !self.in_reach(p) {
            return None;
        }
        match self.grid[cell_index(p)].front {
            0 => None,
            i => Some(FrontierCell { pos: self.fr_pos[i as usize - 1], constraint: self.fr_code[i as usize - 1] }),
        }
    }

    /// The index of the frontier cell at `p` in [`Board::frontier_cells`]
    /// and the rotations of `tile` that fit there (the fit table's entry).
    #[inline]
    pub(crate) fn frontier_fit(&self, p: Pos, tile: TileId) -> Option<(usize, u8)> {
        if !self.tiles.is_empty() && !self.in_reach(p) {
            return None;
        }
        match self.grid[cell_index(p)].front {
            0 => None,
            i => {
                let code = self.fr_code[i as usize - 1];
                Some((i as usize - 1, self.tables.fit_row(tile)[code as usize & (FIT_ROW - 1)]))
            }
        }
    }

    /// The cells of the frontier.
    pub(crate) fn frontier_cells(&self) -> &[Pos] {
        &self.fr_pos[..self.fr_len]
    }

    /// Per frontier cell, the rotations of `tile` that fit there (bit per
    /// rotation) and, in the high nibble, how many they are.
    #[inline]
    pub(crate) fn fit_masks(&self, tile: TileId) -> impl Iterator<Item = u8> + '_ {
        let fits = self.tables.fit_row(tile);
        self.fr_code[..self.fr_len].iter().map(move |&c| fits[c as usize & (FIT_ROW - 1)])
    }

    /// The frontier cells' constraint codes and `tile`'s row of the fit
    /// table (index it with a code masked by `FIT_ROW - 1`).
    #[inline]
    pub(crate) fn fit_row(&self, tile: TileId) -> (&[u16], &[u8; FIT_ROW]) {
        (&self.fr_code[..self.fr_len], self.tables.fit_row(tile))
    }

    /// `tile`'s rotations that continue the river, per flow and last turn
    /// (`Tables::river_ok`).
    #[inline]
    pub(crate) fn river_ok(&self, tile: TileId) -> &[[u8; 3]; 4] {
        &self.tables.river_ok[tile.index()]
    }

    /// Counts the placements of `tile` that fit, four frontier cells (a
    /// quad) at a time: each quad's count in `quads` (the last quad's cells
    /// past the frontier's end count none), the total returned. No branch
    /// but the loop's, in a loop bound by how many instructions the CPU
    /// can issue.
    #[inline]
    pub(crate) fn count_fits(&self, tile: TileId, quads: &mut [u8; QUADS]) -> usize {
        let fits = self.tables.fit_row(tile);
        let count = |c: u16| usize::from(fits[c as usize & (FIT_ROW - 1)] >> 4);
        let full = self.fr_len & !3;
        let mut n = 0;
        for (sum, q) in quads.iter_mut().zip(self.fr_code[..full].chunks_exact(4)) {
            let c = count(q[0]) + count(q[1]) + count(q[2]) + count(q[3]);
            *sum = c as u8;
            n += c;
        }
        // The last one to three cells (or none), written either way.
        let tail: usize = self.quad_counts(fits, full).iter().sum();
        quads[(full / 4) & (QUADS - 1)] = tail as u8;
        n + tail
    }

    /// The fit counts of the four cells from `from` (a multiple of four),
    /// those past the frontier's end 0 (read within the array, then masked).
    #[inline(always)]
    fn quad_counts(&self, fits: &[u8; FIT_ROW], from: usize) -> [usize; 4] {
        let lane = |j: usize| {
            let c = usize::from(fits[self.fr_code[(from + j) & (FRONTIER - 1)] as usize & (FIT_ROW - 1)] >> 4);
            c & usize::from(from + j < self.fr_len).wrapping_neg()
        };
        [lane(0), lane(1), lane(2), lane(3)]
    }

    /// Placement `k` (below the count of [`Board::count_fits`], whose
    /// `quads` these are) of `tile` in the order of [`Board::fit_masks`]
    /// (cells in frontier order, rotations ascending): its cell, the
    /// rotations that fit there, and its rank among them. The quad holding
    /// it, then its cell in the quad, are found without a branch.
    #[inline]
    pub(crate) fn fit_of_rank(&self, tile: TileId, quads: &[u8; QUADS], mut k: usize) -> (Pos, u8, usize) {
        let fits = self.tables.fit_row(tile);
        let (mut q, mut before, mut through) = (0, 0, 0);
        for &sum in &quads[..self.fr_len.div_ceil(4)] {
            through += usize::from(sum);
            let past = usize::from(through <= k);
            q += past;
            before += usize::from(sum) & past.wrapping_neg();
        }
        k -= before;
        let c = self.quad_counts(fits, 4 * q);
        let (p1, p2, p3) = (c[0], c[0] + c[1], c[0] + c[1] + c[2]);
        let j = usize::from(k >= p1) + usize::from(k >= p2) + usize::from(k >= p3);
        k -= [0, p1, p2, p3][j];
        let i = (4 * q + j) & (FRONTIER - 1);
        (self.fr_pos[i], fits[self.fr_code[i] as usize & (FIT_ROW - 1)] & 15, k)
    }

    /// Whether `tile` fits anywhere on the board.
    pub(crate) fn fits_anywhere(&self, tile: TileId) -> bool {
        let fits = self.tables.fit_row(tile);
        // Eight cells at a time, without a branch per cell.
        self.fr_code[..self.fr_len]
            .chunks(8)
            .any(|chunk| chunk.iter().fold(0, |acc, &c| acc | fits[c as usize & (FIT_ROW - 1)]) != 0)
    }

    #[inline]
    pub(crate) fn shape(&self, t: &PlacedTile) -> &'static RotatedTile {
        &self.tables.rotated[t.tile.index()][t.rot.quarter_turns() as usize]
    }

    /// The first side of `cell` where `tile` turned by `rot` does not match,
    /// with the edge kinds that meet there.
    pub(crate) fn mismatch(tile: TileId, rot: Rotation, cell: &FrontierCell) -> Option<(Dir, EdgeKind, EdgeKind)> {
        let rt = tile.rotated(rot);
        Dir::ALL.into_iter().find_map(|d| {
            let need = constraint_side(cell.constraint, d.index());
            let ours = rt.edges[d.index()];
            (need != 0 && need != ours as u8).then(|| (d, ours, edge_kind_from(need)))
        })
    }

    #[inline]
    pub(crate) fn find(&mut self, s: u16) -> u16 {
        // Most segments lie at most one step below their root: a fixed
        // two-step look-up, no loop.
        let p = self.feats[s as usize].parent;
        let g = self.feats[p as usize].parent;
        if g == p {
            return p;
        }
        self.find_deep(s)
    }

    #[cold]
    fn find_deep(&mut self, mut s: u16) -> u16 {
        // Path halving.
        while self.feats[s as usize].parent != s {
            let grand = self.feats[self.feats[s as usize].parent as usize].parent;
            self.feats[s as usize].parent = grand;
            s = grand;
        }
        s
    }

    /// The root of `s` without compressing paths (for `&self` queries).
    #[inline]
    pub(crate) fn root(&self, mut s: u16) -> u16 {
        let p = self.feats[s as usize].parent;
        if self.feats[p as usize].parent == p {
            return p;
        }
        while self.feats[s as usize].parent != s {
            s = self.feats[s as usize].parent;
        }
        s
    }

    #[inline]
    fn union(&mut self, a: u16, b: u16) -> u16 {
        let ra = self.find(a);
        let rb = self.find(b);
        if ra == rb {
            return ra;
        }
        let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
        let g = self.feats[gone as usize];
        let k = &mut self.feats[keep as usize];
        k.tiles |= g.tiles;
        k.meeples += g.meeples;
        k.open += g.open;
        k.sums.0 += g.sums.0;
        k.kind_marks |= g.kind_marks;
        self.feats[gone as usize].parent = keep;
        keep
    }

    /// Puts `tile` at `pos` (which must be a legal placement) and joins its
    /// segments to the neighbours' features. Returns the tile's index and
    /// its closed sides (bit per `Dir`: a neighbour, or the table's edge
    /// with `border_completes`): only a segment whose edges are all closed
    /// can have completed a feature.
    pub(crate) fn place(&mut self, tile: TileId, rot: Rotation, pos: Pos) -> (usize, u8) {
        let idx = self.tiles.len();
        debug_assert!(idx < MAX_TILES);
        let rt = &self.tables.rotated[tile.index()][rot.quarter_turns() as usize];
        let base = self.feats.len() as u16;
        // The tile's segments from its template (the counters each starts
        // with), with no branch on a segment's kind.
        let bit = 1u128 << idx;
        self.feats.extend((0..rt.n_segs as usize).map(|s| Feature {
            tiles: bit,
            meeples: 0,
            parent: base + s as u16,
            open: rt.seg_open[s],
            sums: Sums(rt.seg_sums[s]),
            kind_marks: rt.seg_kind_marks[s],
        }));
        self.tiles.push(PlacedTile { tile, rot, pos });
        self.rims.push(Rim { seg_base: base, edge_seg: rt.edge_seg, half_seg: rt.half_seg });
        let cell = cell_index(pos);
        self.grid[cell].tile = idx as u8 + 1;
        if self.tiles.len() == 1 {
            self.min = pos;
            self.max = pos;
        } else {
            self.min = Pos::new(self.min.x.min(pos.x), self.min.y.min(pos.y));
            self.max = Pos::new(self.max.x.max(pos.x), self.max.y.max(pos.y));
        }

        // Leave the frontier: the last cell takes this one's place.
        let fp = self.grid[cell].front as usize;
        if fp != 0 {
            let last = self.fr_len - 1;
            let i = (fp - 1) & (FRONTIER - 1);
            self.fr_pos[i] = self.fr_pos[last & (FRONTIER - 1)];
            self.fr_code[i] = self.fr_code[last & (FRONTIER - 1)];
            self.grid[cell_index(self.fr_pos[i])].front = fp as u8;
            self.grid[cell].front = 0;
            self.fr_len = last;
        }

        let closed =
            if self.limit.is_none() { self.border_unbounded(rt, pos) } else { self.border_bounded(rt, pos, base) };
        // Join the segments to the neighbours' features.
        let mut sides = closed;
        while sides != 0 {
            let d = Dir::from_index(sides.trailing_zeros() as usize);
            sides &= sides - 1;
            let n = self.grid[cell_index(pos.step(d))].tile;
            if n == 0 {
                // The table's edge (with `border_completes`): counted in `border_bounded`.
                continue;
            }
            let opp = d.opposite();
            let nb = self.rims[n as usize - 1];
            // The edge (a city or road) and its two half-edges (fields): on
            // a plain field edge both halves join the same pair of
            // segments, and one union does.
            let es = rt.edge_seg[d.index()];
            if es != NO_SEGMENT {
                let root = self.union(base + es as u16, nb.seg_base + nb.edge_seg[opp.index()] as u16);
                self.feats[root as usize].open -= 2;
            }
            let (h0, h1) = (2 * d.index(), 2 * d.index() + 1);
            let (a0, a1) = (rt.half_seg[h0], rt.half_seg[h1]);
            if a0 != NO_SEGMENT {
                let (b0, b1) = (nb.half_seg[HALF_OPPOSITE[h0] as usize], nb.half_seg[HALF_OPPOSITE[h1] as usize]);
                self.union(base + a0 as u16, nb.seg_base + b0 as u16);
                if a1 != NO_SEGMENT && (a1 != a0 || b1 != b0) {
                    self.union(base + a1 as u16, nb.seg_base + b1 as u16);
                }
            } else if a1 != NO_SEGMENT {
                let b1 = nb.half_seg[HALF_OPPOSITE[h1] as usize];
                self.union(base + a1 as u16, nb.seg_base + b1 as u16);
            }
        }
        (idx, closed)
    }

    /// With no table edge: the empty neighbours of a tile just put at `pos`
    /// join the frontier or take its edges into their constraints, without
    /// a branch on which neighbours are empty (they are too random to
    /// predict). Returns the sides that have a neighbour.
    #[inline]
    fn border_unbounded(&mut self, rt: &RotatedTile, pos: Pos) -> u8 {
        let mut occupied = 0u8;
        for d in Dir::ALL {
            let np = pos.step(d);
            let ncell = cell_index(np);
            let empty = self.grid[ncell].tile == 0;
            occupied |= (!empty as u8) << d.index();
            // An occupied cell is never on the frontier (front 0); an empty
            // one not yet on it is appended at `len`.
            let f = self.grid[ncell].front as usize;
            let len = self.fr_len;
            self.fr_pos[len & (FRONTIER - 1)] = np;
            self.fr_code[len & (FRONTIER - 1)] = 0;
            let fresh = empty & (f == 0);
            // `f - 1`, or `len` for a cell not on the frontier (arithmetic,
            // not a branch). An occupied cell's side code goes to the spare
            // slot, which nothing reads.
            let i = f.wrapping_sub(1).min(len);
            self.fr_code[i & (FRONTIER - 1)] += rt.side_code[d.index()];
            self.grid[ncell].front = (f | (fresh as usize * (len + 1))) as u8;
            self.fr_len = len + fresh as usize;
        }
        occupied
    }

    /// With a table edge: as [`Board::border_unbounded`], but no cell
    /// beyond the edge joins the frontier, and with `border_completes` the
    /// edge closes roads and cities. Returns the closed sides (a
    /// neighbour, or the table's edge with `border_completes`).
    fn border_bounded(&mut self, rt: &RotatedTile, pos: Pos, base: u16) -> u8 {
        let mut closed = 0u8;
        for d in Dir::ALL {
            let np = pos.step(d);
            let ncell = cell_index(np);
            if self.grid[ncell].tile != 0 {
                closed |= 1 << d.index();
            } else if !self.within_limit(np) {
                let es = rt.edge_seg[d.index()];
                closed |= (self.border_completes as u8) << d.index();
                if self.border_completes && es != NO_SEGMENT {
                    let root = self.find(base + es as u16);
                    self.feats[root as usize].open -= 1;
                }
            } else {
                let add = rt.side_code[d.index()];
                match self.grid[ncell].front {
                    0 => {
                        let len = self.fr_len;
                        self.fr_pos[len] = np;
                        self.fr_code[len] = add;
                        self.fr_len = len + 1;
                        self.grid[ncell].front = self.fr_len as u8;
                    }
                    f => self.fr_code[f as usize - 1] += add,
                }
            }
        }
        closed
    }

    /// The segments of a tile of shape `rt` about to be put at `pos` that
    /// would join a feature already holding a follower (bit per segment).
    ///
    /// A segment joins every feature it touches, and so does any other
    /// segment of the same tile that touches one of those: an `A`'s field
    /// wraps round its cloister and can join both fields of a `K` laid
    /// beside it, so those two are one farm once the `K` is down.
    #[inline(always)]
    pub(crate) fn occupied_segments(&self, rt: &RotatedTile, pos: Pos) -> u16 {
        self.occupied_near(rt, &self.near(pos))
    }

    /// What the tiles around `pos` offer a tile put there, whatever its
    /// rotation: per side, which of the features around the cell the
    /// side's edge and its two half-edges meet, and which of those hold a
    /// follower.
    #[inline(always)]
    pub(crate) fn near(&self, pos: Pos) -> Near {
        self.near_of::<false>(pos, 0)
    }

    /// [`Board::near`], also marking the links whose feature holds a
    /// follower of `player` (for [`Board::mine_near`]).
    #[inline]
    pub(crate) fn near_for(&self, pos: Pos, player: u8) -> Near {
        self.near_of::<true>(pos, player)
    }

    /// Whether a road or city of a tile beside `pos` meets the cell and
    /// holds a follower of `player`: where a builder could go, if
    /// anywhere, with a tile put there (a road or city meets a side by
    /// the side's edge, never by a half-edge). Four looks at most, where
    /// [`Board::near_for`] takes twelve.
    #[inline]
    pub(crate) fn road_city_of_near(&self, pos: Pos, player: u8) -> bool {
        // First the sides a road or city meets, without a branch per side
        // (which sides hold a tile is too random to predict; a side with
        // no tile reads the first tile's rim, harmlessly); then a feature
        // looked up only for those (none on most cells).
        let mut tiles = [0usize; 4];
        let mut sides = 0u8;
        for d in Dir::ALL {
            let t = self.grid[cell_index(pos.step(d))].tile as usize;
            tiles[d.index()] = t;
            let meets = self.rims[t.saturating_sub(1)].edge_seg[d.opposite().index()] != NO_SEGMENT;
            sides |= u8::from((t != 0) & meets) << d.index();
        }
        let mut any = false;
        while sides != 0 {
            let d = Dir::from_index(sides.trailing_zeros() as usize);
            sides &= sides - 1;
            let nb = &self.rims[tiles[d.index()] - 1];
            let root = self.root(nb.seg_base + u16::from(nb.edge_seg[d.opposite().index()]));
            any |= (self.feats[root as usize].meeples >> (4 * player as u32)) & 0xF != 0;
        }
        any
    }

    #[inline(always)]
    fn near_of<const MINE: bool>(&self, pos: Pos, player: u8) -> Near {
        let mut near = Near::NOTHING;
        // Which neighbours exist, and which of their segments meet the
        // cell, is too random for the CPU to predict: the sides are found
        // without a branch per side, and every link is looked up, a missing
        // one through a harmless segment (the neighbour's first). A link
        // with no segment on the neighbour's side has none on a tile that
        // fits either, so whatever feature it names, no segment of the tile
        // joins it (`occupied_near` adds no bit for `NO_SEGMENT`), and it
        // never counts as occupied.
        for d in Dir::ALL {
            near.sides |= ((self.grid[cell_index(pos.step(d))].tile != 0) as u8) << d.index();
        }
        // The features each link meets (three a side: the edge, then the
        // two half-edges), and those of them that hold a follower.
        let mut links = [0u16; 12];
        let mut held = 0u16;
        let mut reals = 0u16;
        let mut sides = near.sides;
        while sides != 0 {
            let d = Dir::from_index(sides.trailing_zeros() as usize);
            sides &= sides - 1;
            let nb = &self.rims[self.grid[cell_index(pos.step(d))].tile as usize - 1];
            let (h0, h1) = (2 * d.index(), 2 * d.index() + 1);
            let theirs = [
                nb.edge_seg[d.opposite().index()],
                nb.half_seg[HALF_OPPOSITE[h0] as usize],
                nb.half_seg[HALF_OPPOSITE[h1] as usize],
            ];
            for (i, seg) in theirs.into_iter().enumerate() {
                let real = seg != NO_SEGMENT;
                let root = self.root(nb.seg_base + if real { seg as u16 } else { 0 });
                links[3 * d.index() + i] = root;
                reals |= (real as u16) << (3 * d.index() + i);
                let meeples = self.feats[root as usize].meeples;
                held |= ((real & (meeples != 0)) as u16) << (3 * d.index() + i);
                if MINE {
                    let mine = real & ((meeples >> (4 * player as u32)) & 0xF != 0);
                    near.mine |= (mine as u16) << (3 * d.index() + i);
                }
            }
        }
        // Nothing occupied around (most cells): no segment is, whatever the rotation.
        if held == 0 {
            return near;
        }
        // Distinct features found by comparing with every slot at once (an
        // unused slot holds no feature's index): no branch on a match. Only
        // the real links: one with no segment keeps slot 0, harmlessly, as
        // a tile that fits has no segment there either (`joining` adds no
        // bit for it).
        let mut roots = [u16::MAX; 16];
        while reals != 0 {
            let l = reals.trailing_zeros() as usize;
            reals &= reals - 1;
            let root = links[l];
            let m = near.count as usize;
            let same = roots.iter().enumerate().fold(0u32, |acc, (j, &r)| acc | u32::from(r == root) << j);
            let k = (same | 1 << m).trailing_zeros() as usize;
            roots[k & 15] = root;
            near.count += (k == m) as u8;
            near.occupied |= ((held >> l) & 1) << k;
            near.slots[l / 3][l % 3] = k as u8;
        }
        near
    }

    /// [`Board::occupied_segments`] for a tile of shape `rt` put where
    /// `near` was read (one reading serves every rotation of a cell).
    #[inline(always)]
    pub(crate) fn occupied_near(&self, rt: &RotatedTile, near: &Near) -> u16 {
        Self::joining(rt, near, near.occupied)
    }

    /// The segments of a tile of shape `rt` put where `near` was read that
    /// would belong to a feature holding a follower of `player` (bit per
    /// segment): where their builder and pig may go (before the check that
    /// the tile does not complete the builder's road or city).
    pub(crate) fn mine_near(rt: &RotatedTile, near: &Near) -> u16 {
        // The player's links (`near_for`), as distinct features (`slots`).
        let mut mine = 0u16;
        let mut links = near.mine;
        while links != 0 {
            let k = links.trailing_zeros() as usize;
            links &= links - 1;
            mine |= 1 << near.slots[k / 3][k % 3];
        }
        Self::joining(rt, near, mine)
    }

    /// The segments of a tile of shape `rt` that would join one of the
    /// features around (where `near` was read) in `seeds` (bit per distinct
    /// feature), directly or through another segment of the tile.
    #[inline(always)]
    fn joining(rt: &RotatedTile, near: &Near, seeds: u16) -> u16 {
        if seeds == 0 {
            return 0;
        }
        // Per feature around the cell, the tile's segments that would join
        // it (bit per segment). A missing segment (`NO_SEGMENT`) adds no
        // bit, without a branch.
        let mut joins = [0u16; 12];
        let bit = |seg: u8| ((seg != NO_SEGMENT) as u16) << (seg & 15);
        let mut sides = near.sides;
        while sides != 0 {
            let d = sides.trailing_zeros() as usize;
            sides &= sides - 1;
            let [edge, half0, half1] = near.slots[d];
            joins[edge as usize] |= bit(rt.edge_seg[d]);
            joins[half0 as usize] |= bit(rt.half_seg[2 * d]);
            joins[half1 as usize] |= bit(rt.half_seg[2 * d + 1]);
        }
        let joins = &joins[..near.count as usize];
        // The segments touching an occupied feature; then segments that
        // touch a common feature become one: grow the occupied set through
        // every feature it touches until it stops growing.
        let mut occupied = 0u16;
        let mut held = seeds;
        while held != 0 {
            occupied |= joins[held.trailing_zeros() as usize];
            held &= held - 1;
        }
        loop {
            let grown = joins.iter().fold(occupied, |acc, &j| acc | if j & occupied != 0 { j } else { 0 });
            if grown == occupied {
                return occupied;
            }
            occupied = grown;
        }
    }

    /// What each segment of a tile of shape `rt` about to be put at `pos`
    /// would belong to, exactly (the tile's segments that touch a common
    /// feature become one with it): that feature's followers and, for a
    /// road or city, its open edges afterwards. For the figures that need
    /// a follower of their owner there (the builder, the pig) and may not
    /// go where the tile completes (the builder); slower than
    /// [`Board::occupied_segments`], which only says which segments join
    /// an occupied feature.
    ///
    /// `None` when no feature around the cell holds a follower of `player`
    /// (then no segment of the tile would belong to one): the usual case,
    /// answered before any joining is worked out.
    pub(crate) fn joined(&self, rt: &RotatedTile, pos: Pos, player: u8) -> Option<Joined> {
        let mine = |root: u16| (self.feats[root as usize].meeples >> (4 * player as u32)) & 0xF != 0;
        let mut any = false;
        for d in Dir::ALL {
            let t = self.grid[cell_index(pos.step(d))].tile;
            if t != 0 {
                let nb = &self.rims[t as usize - 1];
                let (h0, h1) = (2 * d.index(), 2 * d.index() + 1);
                for seg in [
                    nb.edge_seg[d.opposite().index()],
                    nb.half_seg[HALF_OPPOSITE[h0] as usize],
                    nb.half_seg[HALF_OPPOSITE[h1] as usize],
                ] {
                    any |= seg != NO_SEGMENT && mine(self.root(nb.seg_base + seg as u16));
                }
            }
        }
        if !any {
            return None;
        }
        let n = rt.n_segs as usize;
        // Nodes: the tile's segments (0..n), then the distinct features
        // around the cell (n..); a tiny union–find over them.
        let mut up = [0u8; MAX_SEGMENTS + 12];
        for (i, u) in up.iter_mut().enumerate() {
            *u = i as u8;
        }
        fn top(up: &[u8], mut i: usize) -> usize {
            while up[i] as usize != i {
                i = up[i] as usize;
            }
            i
        }
        let mut roots = [0u16; 12];
        let mut m = 0;
        // Per segment: its edges matched by a neighbour, and those facing
        // the table's edge where it closes them.
        let mut matched = [0i32; MAX_SEGMENTS];
        for d in Dir::ALL {
            let np = pos.step(d);
            let t = self.grid[cell_index(np)].tile;
            if t == 0 {
                let es = rt.edge_seg[d.index()];
                if es != NO_SEGMENT && self.border_completes && !self.within_limit(np) {
                    matched[es as usize] += 1;
                }
                continue;
            }
            let nb = &self.rims[t as usize - 1];
            let (h0, h1) = (2 * d.index(), 2 * d.index() + 1);
            let links = [
                (rt.edge_seg[d.index()], nb.edge_seg[d.opposite().index()]),
                (rt.half_seg[h0], nb.half_seg[HALF_OPPOSITE[h0] as usize]),
                (rt.half_seg[h1], nb.half_seg[HALF_OPPOSITE[h1] as usize]),
            ];
            for (i, (mine, theirs)) in links.into_iter().enumerate() {
                if mine == NO_SEGMENT || theirs == NO_SEGMENT {
                    continue;
                }
                if i == 0 {
                    matched[mine as usize] += 2;
                }
                let root = self.root(nb.seg_base + theirs as u16);
                let k = roots[..m].iter().position(|&r| r == root).unwrap_or(m);
                if k == m {
                    roots[m] = root;
                    m += 1;
                }
                let (a, b) = (top(&up, mine as usize), top(&up, n + k));
                up[a.max(b)] = a.min(b) as u8;
            }
        }
        let mut out = Joined { meeples: [0; MAX_SEGMENTS], open: [0; MAX_SEGMENTS] };
        let mut meeples = [0u32; MAX_SEGMENTS + 12];
        let mut open = [0i32; MAX_SEGMENTS + 12];
        for (k, &root) in roots[..m].iter().enumerate() {
            let g = top(&up, n + k);
            meeples[g] += self.feats[root as usize].meeples;
            open[g] += self.feats[root as usize].open as i32;
        }
        for (s, &m) in matched[..n].iter().enumerate() {
            let g = top(&up, s);
            open[g] += rt.seg_open[s] as i32 - m;
        }
        for s in 0..n {
            let g = top(&up, s);
            out.meeples[s] = meeples[g];
            out.open[s] = open[g];
        }
        Some(out)
    }

    /// Points that roads and cities completed by a tile of shape `rt` put
    /// at `pos` would pay, split into what seat `me` would get and the most
    /// any other seat would get, without placing it. An estimate for
    /// playout policies: a segment is taken on its own (two segments of
    /// the tile closing one feature are counted as two) and the small-city
    /// rule is ignored.
    pub(crate) fn completion_gain(&self, rt: &RotatedTile, pos: Pos, me: u8, players: u8) -> (u32, u32) {
        let (mut mine, mut theirs) = (0u32, 0u32);
        self.each_closed(rt, pos, |s, tiles, shields, meeples| {
            if meeples == 0 {
                return;
            }
            let points = if rt.seg_kind[s] == SegmentKind::Road { tiles } else { 2 * (tiles + shields) };
            let count = |p: u8| (meeples >> (4 * p)) & 0xF;
            let own = count(me);
            let best_other = (0..players).filter(|&p| p != me).map(count).max().unwrap_or(0);
            if own > 0 && own >= best_other {
                mine += points;
            }
            if best_other > 0 && best_other >= own {
                theirs += points;
            }
        });
        (mine, theirs)
    }

    /// The road and city segments of a tile of shape `rt` put at `pos`
    /// (as a mask of segment indices) whose feature that placement would
    /// complete while nobody holds it: a follower put there scores at once
    /// and comes back. Like [`Board::completion_gain`], a segment is taken
    /// on its own, so a feature closed by two segments of the tile at once
    /// is missed (never reported wrongly).
    pub(crate) fn closing_free_segments(&self, rt: &RotatedTile, pos: Pos) -> u16 {
        let mut mask = 0u16;
        self.each_closed(rt, pos, |s, _, _, meeples| {
            if meeples == 0 {
                mask |= 1 << s;
            }
        });
        mask
    }

    /// For each road or city segment of a tile of shape `rt` put at `pos`
    /// whose feature the placement would close (the segment taken on its
    /// own): `f(segment, tiles, shields, meeples)` of that feature, the
    /// followers counted four bits a seat.
    fn each_closed(&self, rt: &RotatedTile, pos: Pos, mut f: impl FnMut(usize, u32, u32, u32)) {
        let idx_bit = 1u128 << self.tiles.len().min(127);
        let mut seen = 0u16;
        for d in 0..4 {
            let s = rt.edge_seg[d];
            if s == NO_SEGMENT || seen & (1 << s) != 0 {
                continue;
            }
            seen |= 1 << s;
            let edges = rt.seg_edges[s as usize];
            let mut open = edges.count_ones() as i32;
            let mut roots = [u16::MAX; 4];
            let mut tiles = idx_bit;
            let mut meeples = 0u32;
            let mut shields = Sums(rt.seg_sums[s as usize]).shields();
            for e in 0..4 {
                if edges & (1 << e) == 0 {
                    continue;
                }
                let dir = Dir::ALL[e];
                let Some(nb) = self.index_near(pos.step(dir)) else { continue };
                let nb = &self.rims[nb];
                open -= 2;
                let root = self.root(nb.seg_base + nb.edge_seg[dir.opposite().index()] as u16);
                roots[e] = root;
                if roots[..e].contains(&root) {
                    continue;
                }
                let f = &self.feats[root as usize];
                open += f.open as i32;
                tiles |= f.tiles;
                meeples += f.meeples;
                shields += f.shields();
            }
            if open <= 0 {
                f(s as usize, tiles.count_ones(), shields, meeples);
            }
        }
    }

    /// How many of the 8 cells around `p` (a placed tile) hold a tile.
    pub(crate) fn neighbours(&self, p: Pos) -> u32 {
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) != (0, 0) && self.index_near(Pos::new(p.x + dx, p.y + dy)).is_some() {
                    n += 1;
                }
            }
        }
        n
    }

    /// The placed tile at `p` and those around it, a bit per tile index.
    pub(crate) fn around(&self, p: Pos) -> u128 {
        let mut bits = 0u128;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if let Some(i) = self.index_near(Pos::new(p.x + dx, p.y + dy)) {
                    bits |= 1 << i;
                }
            }
        }
        bits
    }

    /// The feature that `spot` of the tile at `pos` belongs to.
    pub fn feature_at(&self, pos: Pos, spot: crate::geom::Spot) -> Option<FeatureInfo> {
        let idx = self.index_at(pos)?;
        let seg = self.tiles[idx].shape().segment_at(spot, true)?;
        let root = self.root(self.segment(idx, seg));
        let f = &self.feats[root as usize];
        let mut followers = [0u8; 8];
        for (p, n) in followers.iter_mut().enumerate() {
            *n = ((f.meeples >> (4 * p)) & 0xF) as u8;
        }
        let complete = match f.kind() {
            SegmentKind::City | SegmentKind::Road => f.open == 0,
            SegmentKind::Cloister | SegmentKind::Garden => self.neighbours(pos) == 8,
            SegmentKind::Field => false,
        };
        Some(FeatureInfo {
            kind: f.kind(),
            complete,
            tiles: f.tile_count(),
            shields: f.shields(),
            inn: f.inn(),
            cathedral: f.cathedral(),
            goods: f.sums.goods(),
            open_edges: f.open as u32,
            followers,
            id: root,
        })
    }

    /// The segment id of segment `seg` of placed tile `idx`.
    #[inline]
    pub(crate) fn segment(&self, idx: usize, seg: u8) -> u16 {
        self.rims[idx].seg_base + seg as u16
    }

    pub(crate) fn feature(&self, root: u16) -> &Feature {
        &self.feats[root as usize]
    }

    pub(crate) fn feature_mut(&mut self, root: u16) -> &mut Feature {
        &mut self.feats[root as usize]
    }
}

fn edge_kind_from(code: u8) -> EdgeKind {
    match code {
        1 => EdgeKind::City,
        2 => EdgeKind::Road,
        3 => EdgeKind::Field,
        _ => EdgeKind::River,
    }
}
