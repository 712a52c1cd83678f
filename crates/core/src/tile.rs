//! The tiles: their edges and segments, and precomputed rotations.
//!
//! The data below is the reference data of tiles.md, one line per tile id:
//! edges N E S W (`C` city, `R` road, `F` field, `~` river), then segments —
//! `c:` city, `r:` road, `w:` river (by edges), `f:` field (by half-edges,
//! `>` the indices of the cities on the same tile it touches; a field with
//! no half-edge, `f:>0,1`, is enclosed: spot `I`) — each city or road
//! with its marks after `/`: `shield`, `cathedral`, a kind of goods (`wine`,
//! `wheat`, `cloth`) or `inn` — then the tile's flags (`cloister`, `garden`,
//! `bridge`), then the tile's name in the CMSC 22001 course (tiles.md's
//! last column: the edges, `L` for a cloister, `S` for a shield, then
//! `50`), which base tiles have and garden copies, river and expansion
//! tiles do not. The expansions' tiles are in their own parts
//! (`expansion/`), listed after the base and river tiles.

use std::fmt;
use std::sync::OnceLock;

use crate::expansion::{inns, traders, Expansion, Good};
use crate::geom::{Dir, Rotation, Spot, HALF_NAMES};

/// One line of the tile table: id, edges, segments, flags, course name.
pub(crate) type TileLine = (&'static str, &'static str, &'static str, &'static str, &'static str);

/// The base game's tiles, their garden copies and the river tiles.
#[rustfmt::skip]
const BASE_TILES: [TileLine; 43] = [
    ("A", "FFRF", "r:S f:Nw,Ne,En,Es,Se,Sw,Ws,Wn", "cloister", "FFRFL50"),
    ("B", "FFFF", "f:Nw,Ne,En,Es,Se,Sw,Ws,Wn", "cloister", "FFFFL50"),
    ("C", "CCCC", "c:NESW/shield", "", "CCCCS50"),
    ("D", "CRFR", "c:N r:EW f:En,Wn>0 f:Es,Se,Sw,Ws", "", "CRFR50"),
    ("E", "CFFF", "c:N f:En,Es,Se,Sw,Ws,Wn>0", "", "CFFF50"),
    ("F", "FCFC", "c:EW/shield f:Nw,Ne>0 f:Se,Sw>0", "", "FCFCS50"),
    ("G", "FCFC", "c:EW f:Nw,Ne>0 f:Se,Sw>0", "", "FCFC50"),
    ("H", "CFCF", "c:N c:S f:En,Es,Ws,Wn>0,1", "", "CFCF50"),
    ("I", "CCFF", "c:N c:E f:Se,Sw,Ws,Wn>0,1", "", "CCFF50"),
    ("J", "CRRF", "c:N r:ES f:En,Sw,Ws,Wn>0 f:Es,Se", "", "CRRF50"),
    ("K", "CFRR", "c:N r:SW f:En,Es,Se,Wn>0 f:Sw,Ws", "", "CFRR50"),
    ("L", "CRRR", "c:N r:E r:S r:W f:En,Wn>0 f:Es,Se f:Sw,Ws", "", "CRRR50"),
    ("M", "CFFC", "c:NW/shield f:En,Es,Se,Sw>0", "", "CFFCS50"),
    ("N", "CFFC", "c:NW f:En,Es,Se,Sw>0", "", "CFFC50"),
    ("O", "CRRC", "c:NW/shield r:ES f:En,Sw>0 f:Es,Se", "", "CRRCS50"),
    ("P", "CRRC", "c:NW r:ES f:En,Sw>0 f:Es,Se", "", "CRRC50"),
    ("Q", "CCFC", "c:NEW/shield f:Se,Sw>0", "", "CCFCS50"),
    ("R", "CCFC", "c:NEW f:Se,Sw>0", "", "CCFC50"),
    ("S", "CCRC", "c:NEW/shield r:S f:Se>0 f:Sw>0", "", "CCRCS50"),
    ("T", "CCRC", "c:NEW r:S f:Se>0 f:Sw>0", "", "CCRC50"),
    ("U", "RFRF", "r:NS f:Ne,En,Es,Se f:Nw,Sw,Ws,Wn", "", "RFRF50"),
    ("V", "FFRR", "r:SW f:Nw,Ne,En,Es,Se,Wn f:Sw,Ws", "", "FFRR50"),
    ("W", "FRRR", "r:E r:S r:W f:Nw,Ne,En,Wn f:Es,Se f:Sw,Ws", "", "FRRR50"),
    ("X", "RRRR", "r:N r:E r:S r:W f:Nw,Wn f:Ne,En f:Es,Se f:Sw,Ws", "", "RRRR50"),
    ("Eg", "CFFF", "c:N f:En,Es,Se,Sw,Ws,Wn>0", "garden", ""),
    ("Hg", "CFCF", "c:N c:S f:En,Es,Ws,Wn>0,1", "garden", ""),
    ("Ig", "CCFF", "c:N c:E f:Se,Sw,Ws,Wn>0,1", "garden", ""),
    ("Mg", "CFFC", "c:NW/shield f:En,Es,Se,Sw>0", "garden", ""),
    ("Ng", "CFFC", "c:NW f:En,Es,Se,Sw>0", "garden", ""),
    ("Rg", "CCFC", "c:NEW f:Se,Sw>0", "garden", ""),
    ("Ug", "RFRF", "r:NS f:Ne,En,Es,Se f:Nw,Sw,Ws,Wn", "garden", ""),
    ("Vg", "FFRR", "r:SW f:Nw,Ne,En,Es,Se,Wn f:Sw,Ws", "garden", ""),
    ("RV01", "FF~F", "w:S f:Nw,Ne,En,Es,Se,Sw,Ws,Wn", "", ""),
    ("RV02", "~FFF", "w:N f:Nw,Ne,En,Es,Se,Sw,Ws,Wn", "", ""),
    ("RV03", "C~C~", "c:N c:S w:EW f:En,Wn>0 f:Es,Ws>1", "", ""),
    ("RV04", "C~R~", "c:N r:S w:EW f:Wn>0 f:En>0 f:Es,Se f:Sw,Ws", "", ""),
    ("RV05", "F~R~", "r:S w:EW f:Nw,Ne,En,Wn f:Es,Se f:Sw,Ws", "cloister", ""),
    ("RV06", "~R~R", "r:EW w:NS f:Nw,Wn f:Ne,En f:Es,Se f:Sw,Ws", "", ""),
    ("RV07", "F~F~", "w:EW f:Nw,Ne,En,Wn f:Es,Se,Sw,Ws", "", ""),
    ("RV08", "C~~C", "c:NW w:ES f:En,Sw>0 f:Es,Se", "", ""),
    ("RV09", "RR~~", "r:NE w:SW f:Ne,En f:Nw,Es,Se,Wn f:Sw,Ws", "", ""),
    ("RV10", "FF~~", "w:SW f:Nw,Ne,En,Es,Se,Wn f:Sw,Ws", "", ""),
    ("RV10g", "FF~~", "w:SW f:Nw,Ne,En,Es,Se,Wn f:Sw,Ws", "garden", ""),
];

/// How many copies of each land tile the standard deck holds, start tile
/// included (tiles.md: 72 tiles, the garden copies counted separately).
#[rustfmt::skip]
const STANDARD_COUNTS: &[(&str, u8)] = &[
    ("A", 2), ("B", 4), ("C", 1), ("D", 4), ("E", 4), ("Eg", 1), ("F", 2), ("G", 1),
    ("H", 2), ("Hg", 1), ("I", 1), ("Ig", 1), ("J", 3), ("K", 3), ("L", 3), ("M", 1),
    ("Mg", 1), ("N", 2), ("Ng", 1), ("O", 2), ("P", 3), ("Q", 1), ("R", 2), ("Rg", 1),
    ("S", 2), ("T", 1), ("U", 7), ("Ug", 1), ("V", 8), ("Vg", 1), ("W", 4), ("X", 1),
];

/// The 12 river tiles.
#[rustfmt::skip]
const RIVER_COUNTS: &[(&str, u8)] = &[
    ("RV01", 1), ("RV02", 1), ("RV03", 1), ("RV04", 1), ("RV05", 1), ("RV06", 1),
    ("RV07", 2), ("RV08", 1), ("RV09", 1), ("RV10", 1), ("RV10g", 1),
];

/// Every tile line: the base and river tiles, then each expansion's.
const TILE_DATA: [TileLine; TILE_KINDS] = {
    let parts: [&[TileLine]; 3] = [&BASE_TILES, &inns::TILES, &traders::TILES];
    let mut all = [BASE_TILES[0]; TILE_KINDS];
    let (mut n, mut p) = (0, 0);
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            all[n] = parts[p][i];
            n += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(n == TILE_KINDS);
    all
};

/// Number of distinct tile ids: the base game's 32 (garden copies
/// included), the river's 11, Inns & Cathedrals' 17, Traders & Builders' 24.
pub const TILE_KINDS: usize = BASE_TILES.len() + inns::TILES.len() + traders::TILES.len();

/// The first tile id of each expansion's, in [`Expansion::ALL`]'s order (and the end).
const EXPANSION_START: [usize; 3] = [BASE_TILES.len(), BASE_TILES.len() + inns::TILES.len(), TILE_KINDS];

/// The most segments any tile has (X: four roads and four fields).
pub(crate) const MAX_SEGMENTS: usize = 10;

/// The river tiles: ids `RIVER.0` up to (not including) `RIVER.1`, those
/// whose name starts with `RV` (a range, so that telling a river tile is
/// one subtraction and compare on the hot path).
const RIVER: (u8, u8) = {
    const fn is_river(i: usize) -> bool {
        let name = TILE_DATA[i].0.as_bytes();
        name.len() > 2 && name[0] == b'R' && name[1] == b'V'
    }
    let mut first = 0;
    while !is_river(first) {
        first += 1;
    }
    let mut end = first;
    while end < TILE_KINDS && is_river(end) {
        end += 1;
    }
    // No river tile outside the range.
    let mut i = end;
    while i < TILE_KINDS {
        assert!(!is_river(i));
        i += 1;
    }
    (first as u8, end as u8)
};
const _: () = assert!(TILE_KINDS <= 128);

/// The most (field, city) pairs touching on one tile.
pub(crate) const MAX_FARM_CITIES: usize = 4;

/// What a tile edge shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum EdgeKind {
    City = 1,
    Road = 2,
    Field = 3,
    River = 4,
}

impl EdgeKind {
    pub const fn word(self) -> &'static str {
        match self {
            EdgeKind::City => "city",
            EdgeKind::Road => "road",
            EdgeKind::Field => "field",
            EdgeKind::River => "river",
        }
    }

    fn parse(c: char) -> EdgeKind {
        match c {
            'C' => EdgeKind::City,
            'R' => EdgeKind::Road,
            'F' => EdgeKind::Field,
            '~' => EdgeKind::River,
            _ => unreachable!("bad edge letter {c} in the tile table"),
        }
    }
}

/// The kind of a segment (one piece of a feature on one tile).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum SegmentKind {
    City,
    Road,
    Field,
    Cloister,
    Garden,
}

impl SegmentKind {
    pub const fn word(self) -> &'static str {
        match self {
            SegmentKind::City => "city",
            SegmentKind::Road => "road",
            SegmentKind::Field => "field",
            SegmentKind::Cloister => "cloister",
            SegmentKind::Garden => "garden",
        }
    }
}

/// A tile id: one of the base letters `A`–`X`, a garden copy (`Eg` …) or a
/// river tile (`RV01` …), as in tiles.md.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileId(u8);

/// The id of the tile named `name` in the table (for constants).
const fn id_of(name: &str) -> TileId {
    let name = name.as_bytes();
    let mut i = 0;
    while i < TILE_KINDS {
        let other = TILE_DATA[i].0.as_bytes();
        if other.len() == name.len() {
            let mut k = 0;
            while k < name.len() && other[k] == name[k] {
                k += 1;
            }
            if k == name.len() {
                return TileId(i as u8);
            }
        }
        i += 1;
    }
    panic!("a tile of the table")
}

impl TileId {
    /// The start tile `D`.
    pub const START: TileId = id_of("D");
    /// The River's spring `RV01` (its start) and lake `RV02` (its last tile).
    pub const SPRING: TileId = id_of("RV01");
    pub const LAKE: TileId = id_of("RV02");

    pub fn all() -> impl Iterator<Item = TileId> {
        (0..TILE_KINDS as u8).map(TileId)
    }

    /// The tile a name stands for: its letter id (`D`, `Eg`, `RV01`) or,
    /// for a base tile, its course name (`CRFR50`), as record.md allows.
    pub fn from_name(name: &str) -> Option<TileId> {
        let letters = TILE_DATA.iter().position(|t| t.0 == name);
        let course = || TILE_DATA.iter().position(|t| !t.4.is_empty() && t.4 == name);
        letters.or_else(course).map(|i| TileId(i as u8))
    }

    /// The tile's name in the CMSC 22001 course (`CRFR50` for `D`), for the
    /// 24 base tiles; garden copies and river tiles have none.
    pub fn course_name(self) -> Option<&'static str> {
        Some(TILE_DATA[self.0 as usize].4).filter(|n| !n.is_empty())
    }

    pub fn name(self) -> &'static str {
        TILE_DATA[self.0 as usize].0
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub fn is_river(self) -> bool {
        self.0.wrapping_sub(RIVER.0) < RIVER.1 - RIVER.0
    }

    /// The expansion the tile belongs to (`None` for base and river tiles).
    pub fn expansion(self) -> Option<Expansion> {
        let i = self.0 as usize;
        (i >= EXPANSION_START[0]).then(|| Expansion::ALL[(i >= EXPANSION_START[1]) as usize])
    }

    /// The tile's shape, unrotated.
    pub fn def(self) -> &'static TileDef {
        &tables().defs[self.0 as usize]
    }

    /// The spot that canonically names the segment `spot` names on this
    /// tile turned by `rot` (its first edge or half-edge, `C`, `G`), if any.
    /// Spots naming one segment are one choice.
    pub fn canonical_spot(self, rot: Rotation, spot: Spot, gardens: bool) -> Option<Spot> {
        let rt = self.rotated(rot);
        rt.segment_at(spot, gardens).map(|s| rt.spot_of(s))
    }

    /// The tile as it lies after `rot`.
    #[inline]
    pub(crate) fn rotated(self, rot: Rotation) -> &'static RotatedTile {
        &tables().rotated[self.0 as usize][rot.quarter_turns() as usize]
    }
}

impl fmt::Debug for TileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for TileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One segment of a tile in its canonical orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SegmentDef {
    pub kind: SegmentKind,
    /// Edges the segment reaches (bit `d` for `Dir` index d): cities, roads.
    pub edges: u8,
    /// Half-edges the segment reaches (bit `h`, 0 = `Nw`): fields.
    pub halves: u8,
    /// Segments of the same tile that this field touches (bit = segment index): cities.
    pub cities: u16,
    /// A city's shield (a tile's shields are on its city segments).
    pub shield: bool,
    /// A road with an inn beside it (Inns & Cathedrals).
    pub inn: bool,
    /// A city holding a cathedral (Inns & Cathedrals).
    pub cathedral: bool,
    /// The goods symbol in a city (Traders & Builders).
    pub goods: Option<Good>,
}

impl SegmentDef {
    const fn new(kind: SegmentKind) -> SegmentDef {
        SegmentDef { kind, edges: 0, halves: 0, cities: 0, shield: false, inn: false, cathedral: false, goods: None }
    }

    /// A field that touches no tile edge (spot `I`): a farm that never grows.
    pub fn is_enclosed(&self) -> bool {
        self.kind == SegmentKind::Field && self.halves == 0
    }
}

/// A tile's shape in its canonical orientation (tiles.md).
#[derive(Clone, Debug)]
pub struct TileDef {
    pub name: &'static str,
    pub edges: [EdgeKind; 4],
    pub segments: Vec<SegmentDef>,
    /// Edges crossed by the river (bit per `Dir`).
    pub river: u8,
    /// Whether a city segment of the tile shows a shield.
    pub shield: bool,
    /// One road crosses another on a bridge (scenery: the roads and the
    /// fields are its segments already).
    pub bridge: bool,
}

impl TileDef {
    pub fn has_cloister(&self) -> bool {
        self.segments.iter().any(|s| s.kind == SegmentKind::Cloister)
    }

    pub fn has_garden(&self) -> bool {
        self.segments.iter().any(|s| s.kind == SegmentKind::Garden)
    }
}

pub(crate) const NO_SEGMENT: u8 = u8::MAX;

/// A tile after rotation, laid out for the hot path.
#[derive(Clone, Debug)]
pub(crate) struct RotatedTile {
    pub edges: [EdgeKind; 4],
    /// The city or road segment on each edge (`NO_SEGMENT` for fields and rivers).
    pub edge_seg: [u8; 4],
    /// The field segment on each half-edge (`NO_SEGMENT` on city edges).
    pub half_seg: [u8; 8],
    /// Per segment: edges/halves after rotation.
    pub seg_edges: [u8; MAX_SEGMENTS],
    pub seg_halves: [u8; MAX_SEGMENTS],
    pub seg_kind: [SegmentKind; MAX_SEGMENTS],
    pub seg_cities: [u16; MAX_SEGMENTS],
    /// Per segment, the counters its feature starts with when the tile is
    /// laid: open edges (cities and roads), its sums (shields and goods,
    /// see [`Sums`]) and its kind with its marks (inn, cathedral:
    /// [`MARK_INN`], [`MARK_CATHEDRAL`]).
    pub seg_open: [u16; MAX_SEGMENTS],
    pub seg_sums: [u32; MAX_SEGMENTS],
    pub seg_kind_marks: [u8; MAX_SEGMENTS],
    /// Per side, what this tile adds to the constraint code of an empty
    /// neighbour on that side (its edge kind, weighted for the neighbour's
    /// opposite side).
    pub side_code: [u16; 4],
    /// For each set of closed sides (bit per `Dir`), the sides whose road
    /// or city segment has all its edges closed, each segment named once
    /// by its first side: the segments this tile may have completed.
    pub closable: [u8; 16],
    pub n_segs: u8,
    /// Field segments that touch a city on this tile (bit per segment).
    pub fields_by_cities: u16,
    /// Segments a follower may stand on (all but a garden), and the fields
    /// (bit per segment).
    pub follower_segs: u16,
    pub field_segs: u16,
    /// Per segment, the spot that names it ([`RotatedTile::spot_of`]).
    pub spots: [Spot; MAX_SEGMENTS],
    /// Every (field, city) pair of segments that touch on this tile, the
    /// first `n_farm_cities` of them: where farms border cities.
    pub farm_cities: [(u8, u8); MAX_FARM_CITIES],
    pub n_farm_cities: u8,
    /// Road and city segments (bit per segment): where a builder may go.
    pub road_city_segs: u16,
    pub cloister: u8,
    pub garden: u8,
    /// The enclosed field (spot `I`), if any.
    pub enclosed: u8,
    /// Edges the river crosses (bit per `Dir`).
    pub river: u8,
}

/// A feature's sums, four 8-bit lanes in one word so that joining two
/// features adds them at once: shields, then wine, wheat and cloth symbols.
/// No lane can carry into the next: each counts at most one per tile, and
/// a game has fewer than 256 tiles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct Sums(pub u32);

impl Sums {
    pub const ONE_SHIELD: u32 = 1;

    pub const fn one(good: Good) -> u32 {
        1 << (8 * (1 + good as u32))
    }

    pub const fn shields(self) -> u32 {
        self.0 & 0xFF
    }

    pub const fn goods(self) -> [u8; 3] {
        [(self.0 >> 8) as u8, (self.0 >> 16) as u8, (self.0 >> 24) as u8]
    }
}

/// A feature's marks, above its kind in one byte and joined by `|` (the
/// kind bits of two joined features are the same): a road with an inn, a
/// city with a cathedral.
pub(crate) const MARK_INN: u8 = 8;
pub(crate) const MARK_CATHEDRAL: u8 = 16;

impl SegmentKind {
    /// The kind in the low three bits of a feature's kind-and-marks byte.
    #[inline]
    pub(crate) const fn from_low_bits(bits: u8) -> SegmentKind {
        const KINDS: [SegmentKind; 8] = [
            SegmentKind::City,
            SegmentKind::Road,
            SegmentKind::Field,
            SegmentKind::Cloister,
            SegmentKind::Garden,
            SegmentKind::Garden,
            SegmentKind::Garden,
            SegmentKind::Garden,
        ];
        KINDS[(bits & 7) as usize]
    }
}

impl RotatedTile {
    /// The segment that `spot` names, if any (the garden counts only when
    /// `gardens` is set).
    pub fn segment_at(&self, spot: Spot, gardens: bool) -> Option<u8> {
        let raw = spot.raw();
        let seg = match raw {
            0..=3 => self.edge_seg[raw as usize],
            4..=11 => self.half_seg[(raw - 4) as usize],
            12 => self.cloister,
            13 if gardens => self.garden,
            14 => self.enclosed,
            _ => NO_SEGMENT,
        };
        (seg != NO_SEGMENT).then_some(seg)
    }

    /// The canonical spot naming segment `seg` (first edge, first half-edge, `C` or `G`).
    pub fn spot_of(&self, seg: u8) -> Spot {
        let s = seg as usize;
        match self.seg_kind[s] {
            SegmentKind::City | SegmentKind::Road => {
                Spot::edge(Dir::from_index(self.seg_edges[s].trailing_zeros() as usize))
            }
            SegmentKind::Field if self.seg_halves[s] == 0 => Spot::ENCLOSED,
            SegmentKind::Field => Spot::half(self.seg_halves[s].trailing_zeros() as u8),
            SegmentKind::Cloister => Spot::CLOISTER,
            SegmentKind::Garden => Spot::GARDEN,
        }
    }
}

pub(crate) struct Tables {
    pub defs: Vec<TileDef>,
    pub rotated: Vec<[RotatedTile; 4]>,
    /// `fits[fit_of[tile]][constraint]` ([`Tables::fit_row`]): bit `r` set
    /// when rotation `r` matches every neighbour's edge (see
    /// [`SIDE_WEIGHT`]); the high nibble holds how many rotations fit. Rows
    /// are padded to [`FIT_ROW`] entries so that a code masked by
    /// `FIT_ROW - 1` indexes them without a bounds check. Kinds with the
    /// same edges share a row: 84 kinds, 41 rows (41 KiB, not 84: more of
    /// the Big Box's rows stay in the L1 cache).
    fits: Vec<[u8; FIT_ROW]>,
    fit_of: Vec<u8>,
    /// `river_ok[tile][flow][last turn + 1]`: bit `r` set when rotation `r`
    /// takes the river in from the open end flowing `flow` (its edge
    /// towards the end is river) and does not turn the way the last river
    /// tile turned (no U-turn, rules.md, The River). 0 for a land tile.
    pub river_ok: Vec<[[u8; 3]; 4]>,
    pub standard_deck: Vec<TileId>,
    /// The river's tiles and each expansion's, as their counts list them
    /// (kept: a game is set up many times a second in benches and search).
    pub river_tiles: Vec<TileId>,
    pub expansion_tiles: [Vec<TileId>; 2],
}

/// Number of distinct edge constraints of a cell: 5 states (no neighbour,
/// or the kind of the neighbour's touching edge) on each of 4 sides.
pub(crate) const CONSTRAINTS: usize = 625;

/// The length of a row of `Tables::fits`: a power of two above [`CONSTRAINTS`].
pub(crate) const FIT_ROW: usize = 1024;

/// The weight of side `d` in a constraint code.
pub(crate) const SIDE_WEIGHT: [u16; 4] = [1, 5, 25, 125];

/// The kind required on side `d` by a constraint code (0: none).
pub(crate) const fn constraint_side(code: u16, d: usize) -> u8 {
    ((code / SIDE_WEIGHT[d]) % 5) as u8
}

impl Tables {
    /// The row of [`Tables::fits`] for `tile`: per constraint code, the
    /// rotations that fit.
    #[inline(always)]
    pub fn fit_row(&self, tile: TileId) -> &[u8; FIT_ROW] {
        &self.fits[self.fit_of[tile.index()] as usize]
    }
}

pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn parse_def(&(name, edges, segs, flags, _): &TileLine) -> TileDef {
    let dir_of = |c: char| "NESW".find(c).expect("edge letter");
    let half_of = |s: &str| HALF_NAMES.iter().position(|h| *h == s).expect("half name");
    let mut segments = Vec::new();
    let mut river = 0u8;
    for seg in segs.split_whitespace() {
        let (kind, body) = seg.split_once(':').expect("segment kind");
        match kind {
            "c" | "r" => {
                let (edges, marks) = body.split_once('/').unwrap_or((body, ""));
                let mut def = SegmentDef::new(if kind == "c" { SegmentKind::City } else { SegmentKind::Road });
                def.edges = edges.chars().fold(0, |m, c| m | 1 << dir_of(c));
                for mark in marks.split('/').filter(|m| !m.is_empty()) {
                    match mark {
                        "shield" => def.shield = true,
                        "inn" => def.inn = true,
                        "cathedral" => def.cathedral = true,
                        goods => def.goods = Some(Good::from_word(goods).expect("a mark of the tile table")),
                    }
                }
                segments.push(def);
            }
            "w" => river = body.chars().fold(0, |m, c| m | 1 << dir_of(c)),
            "f" => {
                let (halves, cities) = body.split_once('>').unwrap_or((body, ""));
                let mut def = SegmentDef::new(SegmentKind::Field);
                def.halves = halves.split(',').filter(|h| !h.is_empty()).fold(0, |m, h| m | 1 << half_of(h));
                def.cities = cities
                    .split(',')
                    .filter(|c| !c.is_empty())
                    .fold(0, |m, c| m | 1 << c.parse::<u32>().expect("city index"));
                segments.push(def);
            }
            _ => unreachable!("bad segment kind in the tile table"),
        }
    }
    for (flag, kind) in [("cloister", SegmentKind::Cloister), ("garden", SegmentKind::Garden)] {
        if flags.split_whitespace().any(|f| f == flag) {
            segments.push(SegmentDef::new(kind));
        }
    }
    let e: Vec<EdgeKind> = edges.chars().map(EdgeKind::parse).collect();
    TileDef {
        name,
        edges: [e[0], e[1], e[2], e[3]],
        shield: segments.iter().any(|s| s.shield),
        segments,
        river,
        bridge: flags.split_whitespace().any(|f| f == "bridge"),
    }
}

fn rotate_mask4(m: u8, r: u8) -> u8 {
    ((m << r) | (m >> (4 - r))) & 0xF
}

fn rotate_mask8(m: u8, r: u8) -> u8 {
    m.rotate_left(2 * r as u32)
}

fn rotate_def(def: &TileDef, rot: Rotation) -> RotatedTile {
    let r = rot.quarter_turns();
    let mut t = RotatedTile {
        edges: [EdgeKind::Field; 4],
        edge_seg: [NO_SEGMENT; 4],
        half_seg: [NO_SEGMENT; 8],
        seg_edges: [0; MAX_SEGMENTS],
        seg_halves: [0; MAX_SEGMENTS],
        seg_kind: [SegmentKind::Field; MAX_SEGMENTS],
        seg_cities: [0; MAX_SEGMENTS],
        seg_open: [0; MAX_SEGMENTS],
        seg_sums: [0; MAX_SEGMENTS],
        seg_kind_marks: [0; MAX_SEGMENTS],
        side_code: [0; 4],
        closable: [0; 16],
        n_segs: def.segments.len() as u8,
        fields_by_cities: 0,
        follower_segs: 0,
        field_segs: 0,
        spots: [Spot::CLOISTER; MAX_SEGMENTS],
        farm_cities: [(0, 0); MAX_FARM_CITIES],
        n_farm_cities: 0,
        road_city_segs: 0,
        cloister: NO_SEGMENT,
        garden: NO_SEGMENT,
        enclosed: NO_SEGMENT,
        river: if r == 0 { def.river } else { rotate_mask4(def.river, r) },
    };
    for d in Dir::ALL {
        t.edges[d.rotated(rot).index()] = def.edges[d.index()];
    }
    for d in Dir::ALL {
        t.side_code[d.index()] = t.edges[d.index()] as u16 * SIDE_WEIGHT[d.opposite().index()];
    }
    for (i, s) in def.segments.iter().enumerate() {
        let edges = if r == 0 { s.edges } else { rotate_mask4(s.edges, r) };
        let halves = rotate_mask8(s.halves, r);
        t.seg_edges[i] = edges;
        t.seg_halves[i] = halves;
        t.seg_kind[i] = s.kind;
        t.seg_cities[i] = s.cities;
        if matches!(s.kind, SegmentKind::City | SegmentKind::Road) {
            t.seg_open[i] = edges.count_ones() as u16;
        }
        t.seg_sums[i] = u32::from(s.shield) * Sums::ONE_SHIELD + s.goods.map_or(0, Sums::one);
        t.seg_kind_marks[i] = s.kind as u8 | (u8::from(s.inn) * MARK_INN) | (u8::from(s.cathedral) * MARK_CATHEDRAL);
        debug_assert_eq!(SegmentKind::from_low_bits(t.seg_kind_marks[i]), s.kind);
        if matches!(s.kind, SegmentKind::City | SegmentKind::Road) {
            t.road_city_segs |= 1 << i;
        }
        if s.kind == SegmentKind::Field && s.cities != 0 {
            t.fields_by_cities |= 1 << i;
            for c in (0..MAX_SEGMENTS).filter(|&c| s.cities & (1 << c) != 0) {
                t.farm_cities[t.n_farm_cities as usize] = (i as u8, c as u8);
                t.n_farm_cities += 1;
            }
        }
        for d in 0..4 {
            if edges & (1 << d) != 0 {
                t.edge_seg[d] = i as u8;
            }
        }
        for h in 0..8 {
            if halves & (1 << h) != 0 {
                t.half_seg[h] = i as u8;
            }
        }
        match s.kind {
            SegmentKind::Cloister => t.cloister = i as u8,
            SegmentKind::Garden => t.garden = i as u8,
            SegmentKind::Field if s.halves == 0 => t.enclosed = i as u8,
            _ => {}
        }
    }
    for s in 0..t.n_segs {
        t.spots[s as usize] = t.spot_of(s);
        t.follower_segs |= ((t.seg_kind[s as usize] != SegmentKind::Garden) as u16) << s;
        t.field_segs |= ((t.seg_kind[s as usize] == SegmentKind::Field) as u16) << s;
    }
    for (closed, slot) in t.closable.iter_mut().enumerate() {
        for d in 0..4 {
            let s = t.edge_seg[d];
            if s != NO_SEGMENT
                && t.seg_edges[s as usize].trailing_zeros() as usize == d
                && t.seg_edges[s as usize] & !(closed as u8) == 0
            {
                *slot |= 1 << d;
            }
        }
    }
    t
}

fn build_tables() -> Tables {
    let defs: Vec<TileDef> = TILE_DATA.iter().map(parse_def).collect();
    let rotated: Vec<[RotatedTile; 4]> = defs.iter().map(|d| Rotation::ALL.map(|r| rotate_def(d, r))).collect();
    let mut fits: Vec<[u8; FIT_ROW]> = Vec::new();
    let fit_of = rotated
        .iter()
        .map(|rots| {
            let mut table = [0u8; FIT_ROW];
            for (code, slot) in table[..CONSTRAINTS].iter_mut().enumerate() {
                for (r, rt) in rots.iter().enumerate() {
                    let ok = (0..4).all(|d| {
                        let need = constraint_side(code as u16, d);
                        need == 0 || need == rt.edges[d] as u8
                    });
                    if ok {
                        *slot |= 1 << r;
                    }
                }
                *slot |= (slot.count_ones() as u8) << 4;
            }
            let row = fits.iter().position(|r| r == &table).unwrap_or_else(|| {
                fits.push(table);
                fits.len() - 1
            });
            u8::try_from(row).expect("fewer than 256 edge patterns")
        })
        .collect();
    let river_ok = rotated
        .iter()
        .map(|rots| {
            Dir::ALL.map(|flow| {
                [-1i8, 0, 1].map(|last_turn| {
                    let back = flow.opposite();
                    let ok = |rt: &RotatedTile| {
                        let out = Dir::ALL.into_iter().find(|&d| d != back && rt.river & (1 << d.index()) != 0);
                        let turn = out.map_or(0, |o| crate::game::river_turn(flow, o));
                        rt.river & (1 << back.index()) != 0 && (turn == 0 || turn != last_turn)
                    };
                    (0..4).filter(|&r| ok(&rots[r])).fold(0u8, |m, r| m | 1 << r)
                })
            })
        })
        .collect();
    let mut standard_deck = expand(STANDARD_COUNTS);
    let start = standard_deck.iter().position(|&t| t == TileId::START).expect("a D tile");
    standard_deck.remove(start);
    let expansion_tiles = Expansion::ALL.map(|e| expand(e.counts()));
    Tables { defs, rotated, fits, fit_of, river_ok, standard_deck, river_tiles: expand(RIVER_COUNTS), expansion_tiles }
}

/// The standard land deck: every land tile but the start tile (71 tiles), in a
/// fixed order (shuffle it with [`crate::shuffle`]).
pub fn standard_deck() -> Vec<TileId> {
    tables().standard_deck.clone()
}

/// The 12 river tiles, spring and lake included.
pub fn river_tiles() -> Vec<TileId> {
    tables().river_tiles.clone()
}

/// An expansion's land tiles (18 for Inns & Cathedrals, 24 for Traders &
/// Builders), in a fixed order.
pub fn expansion_tiles(expansion: Expansion) -> Vec<TileId> {
    tables().expansion_tiles[expansion as usize].clone()
}

fn expand(counts: &[(&str, u8)]) -> Vec<TileId> {
    counts
        .iter()
        .flat_map(|&(name, n)| {
            let id = TileId::from_name(name).expect("known tile");
            std::iter::repeat_n(id, n as usize)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_has_72_tiles_with_10_shields() {
        let deck = standard_deck();
        assert_eq!(deck.len(), 71);
        let shields = deck.iter().filter(|t| t.def().shield).count();
        assert_eq!(shields, 10);
        assert_eq!(deck.iter().filter(|t| t.name().ends_with('g')).count(), 8);
        assert_eq!(river_tiles().len(), 12);
        assert!(river_tiles().iter().all(|t| t.is_river()));
        assert!(deck.iter().all(|t| !t.is_river()));
        assert!(TileId::all().all(|t| t.is_river() == t.name().starts_with("RV")));
    }

    /// An edge's segment is a road or city (`Board::road_city_of_near`
    /// counts on it), a half-edge's a field.
    #[test]
    fn edges_hold_roads_and_cities_and_half_edges_fields() {
        for rt in TileId::all().flat_map(|k| tables().rotated[k.index()].iter()) {
            for seg in rt.edge_seg.into_iter().filter(|&s| s != NO_SEGMENT) {
                assert_ne!(rt.road_city_segs & (1 << seg), 0);
            }
            for seg in rt.half_seg.into_iter().filter(|&s| s != NO_SEGMENT) {
                assert_ne!(rt.field_segs & (1 << seg), 0);
            }
        }
    }

    /// Two kinds share a row of the fit table exactly when they show the
    /// same edges (unturned: a row's bits name rotations), and the rows
    /// are few.
    #[test]
    fn kinds_with_the_same_edges_share_a_fit_row() {
        let t = tables();
        let edges = |k: TileId| t.rotated[k.index()][0].edges;
        for a in TileId::all() {
            for b in TileId::all() {
                let shared = t.fit_of[a.index()] == t.fit_of[b.index()];
                assert_eq!(shared, edges(a) == edges(b), "{} {}", a.name(), b.name());
            }
        }
        assert_eq!((t.fits.len(), TileId::all().count()), (41, 84));
    }

    #[test]
    fn every_edge_and_half_edge_belongs_to_the_right_segment() {
        for t in TileId::all() {
            let def = t.def();
            for r in Rotation::ALL {
                let rt = t.rotated(r);
                for d in 0..4 {
                    let kind = rt.edges[d];
                    let on_edge = rt.edge_seg[d] != NO_SEGMENT;
                    assert_eq!(on_edge, matches!(kind, EdgeKind::City | EdgeKind::Road), "{t} {d}");
                    let halves_fielded = rt.half_seg[2 * d] != NO_SEGMENT && rt.half_seg[2 * d + 1] != NO_SEGMENT;
                    assert_eq!(halves_fielded, kind != EdgeKind::City, "{t} rot {r:?} edge {d}");
                    assert_eq!(rt.river & (1 << d) != 0, kind == EdgeKind::River);
                }
            }
            assert!(def.segments.len() <= MAX_SEGMENTS);
        }
    }

    #[test]
    fn course_names_are_edges_cloister_shield_and_50() {
        let mut named = 0;
        for t in TileId::all() {
            let Some(course) = t.course_name() else {
                assert!(t.name().len() > 1, "{t}: every base letter has a course name");
                continue;
            };
            named += 1;
            let def = t.def();
            let edges: String = def.edges.iter().map(|e| e.word()[..1].to_uppercase()).collect();
            let marks = format!("{}{}", if def.has_cloister() { "L" } else { "" }, if def.shield { "S" } else { "" });
            assert_eq!(course, format!("{edges}{marks}50"), "{t}");
            assert_eq!(TileId::from_name(course), Some(t));
            assert_eq!(TileId::from_name(t.name()), Some(t));
        }
        assert_eq!(named, 24);
        assert_eq!(TileId::from_name("CRFR50"), Some(TileId::START));
        assert_eq!(TileId::from_name("FFRFL50").map(TileId::name), Some("A"));
        for unknown in ["", "CRFR", "crfr50", "Dg", "RV11"] {
            assert_eq!(TileId::from_name(unknown), None, "{unknown:?}");
        }
    }

    #[test]
    fn rotation_turns_edges_clockwise() {
        let d = TileId::from_name("D").unwrap();
        let rt = d.rotated(Rotation::new(1).unwrap());
        // Canonical CRFR turned once clockwise: the city faces east.
        assert_eq!(rt.edges, [EdgeKind::Road, EdgeKind::City, EdgeKind::Road, EdgeKind::Field]);
        assert_eq!(rt.segment_at(Spot::E, false), Some(0));
        // The field f1 {En, Wn} lies on {Se, Nw}... after the turn: En(2)->Se(4), Wn(7)->Ne(1).
        assert_eq!(rt.segment_at(Spot::half(4), false), Some(2));
        assert_eq!(rt.segment_at(Spot::half(1), false), Some(2));
    }
}
