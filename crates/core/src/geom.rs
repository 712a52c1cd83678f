//! Board geometry: positions, directions, rotations, half-edges and spots.

use std::fmt;

/// A cell of the board. `x` grows to the east, `y` to the south (record.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const ORIGIN: Pos = Pos { x: 0, y: 0 };

    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The neighbouring cell across `dir`.
    #[inline]
    pub const fn step(self, dir: Dir) -> Pos {
        // Offsets by table, not a `match`: in a loop over the directions
        // a `match` becomes an indirect jump that the CPU mispredicts.
        const DX: [i32; 4] = [0, 1, 0, -1];
        const DY: [i32; 4] = [-1, 0, 1, 0];
        Pos::new(self.x + DX[dir as usize], self.y + DY[dir as usize])
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{},{}]", self.x, self.y)
    }
}

/// One of the four edges of a tile (or directions on the board).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    pub const fn from_index(i: usize) -> Dir {
        Dir::ALL[i & 3]
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn opposite(self) -> Dir {
        Dir::from_index(self as usize + 2)
    }

    /// This edge after the tile is turned `rot` quarter turns clockwise.
    pub const fn rotated(self, rot: Rotation) -> Dir {
        Dir::from_index(self as usize + rot.0 as usize)
    }

    pub const fn name(self) -> &'static str {
        ["N", "E", "S", "W"][self as usize]
    }

    pub const fn word(self) -> &'static str {
        ["north", "east", "south", "west"][self as usize]
    }
}

/// Quarter turns clockwise from the canonical orientation, 0–3.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rotation(u8);

impl Rotation {
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// `None` unless `quarter_turns` is 0–3.
    pub const fn new(quarter_turns: u8) -> Option<Rotation> {
        if quarter_turns < 4 {
            Some(Rotation(quarter_turns))
        } else {
            None
        }
    }

    pub const fn quarter_turns(self) -> u8 {
        self.0
    }

    /// One more quarter turn clockwise.
    pub const fn next(self) -> Rotation {
        Rotation((self.0 + 1) & 3)
    }
}

/// Half-edges, clockwise from the north-west corner: where fields meet the
/// tile border (tiles.md).
pub const HALF_NAMES: [&str; 8] = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"];

/// The half-edge of the neighbour that touches half-edge `h` of this tile.
pub(crate) const HALF_OPPOSITE: [u8; 8] = [5, 4, 7, 6, 1, 0, 3, 2];

/// A place on a tile as it lies on the board, naming one of its segments
/// (record.md): an edge `N E S W` (city, road), a half-edge (field), the
/// cloister `C`, the garden `G` or the enclosed field `I` (a field touching
/// no edge: expansions.md §6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Spot(u8);

impl Spot {
    pub const N: Spot = Spot(0);
    pub const E: Spot = Spot(1);
    pub const S: Spot = Spot(2);
    pub const W: Spot = Spot(3);
    pub const CLOISTER: Spot = Spot(12);
    pub const GARDEN: Spot = Spot(13);
    pub const ENCLOSED: Spot = Spot(14);

    pub const fn edge(dir: Dir) -> Spot {
        Spot(dir as u8)
    }

    /// Half-edge `h` (0 = `Nw` … 7 = `Wn`).
    pub const fn half(h: u8) -> Spot {
        Spot(4 + (h & 7))
    }

    /// All 15 spot names, in a fixed order.
    pub fn all() -> impl Iterator<Item = Spot> {
        (0..15).map(Spot)
    }

    /// The spot's place in [`Spot::all`] (0 to 14).
    ///
    /// ```
    /// use carcassonne::Spot;
    /// assert!(Spot::all().enumerate().all(|(i, s)| s.index() == i));
    /// assert_eq!(Spot::GARDEN.index(), 13);
    /// assert_eq!(Spot::ENCLOSED.index(), 14);
    /// ```
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the spot is a half-edge (a field's spot on the tile's border).
    pub const fn is_half_edge(self) -> bool {
        4 <= self.0 && self.0 < 12
    }

    /// Whether the spot names a field: a half-edge or the enclosed field `I`.
    pub const fn is_field(self) -> bool {
        self.is_half_edge() || self.0 == 14
    }

    pub(crate) const fn raw(self) -> u8 {
        self.0
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            0..=3 => Dir::from_index(self.0 as usize).name(),
            4..=11 => HALF_NAMES[(self.0 - 4) as usize],
            12 => "C",
            13 => "G",
            _ => "I",
        }
    }
}

impl std::str::FromStr for Spot {
    type Err = ();

    fn from_str(s: &str) -> Result<Spot, ()> {
        Spot::all().find(|spot| spot.name() == s).ok_or(())
    }
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spots_round_trip_their_names() {
        for spot in Spot::all() {
            assert_eq!(spot.name().parse::<Spot>(), Ok(spot));
        }
        assert!("X".parse::<Spot>().is_err());
    }

    #[test]
    fn half_edges_touch_their_mirror() {
        for h in 0..8u8 {
            let o = HALF_OPPOSITE[h as usize];
            assert_eq!(HALF_OPPOSITE[o as usize], h);
            // Both halves lie on opposite sides of the shared edge.
            assert_eq!((h / 2 + 2) % 4, o / 2);
        }
    }
}
