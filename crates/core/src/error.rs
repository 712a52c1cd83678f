//! Errors: an illegal move says which rule it breaks; a bad setup says why.

use std::fmt;

use crate::geom::{Dir, Pos, Rotation, Spot};
use crate::tile::{EdgeKind, SegmentKind, TileId};

/// A move that the rules do not allow. The game is unchanged.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game has ended.
    GameOver,
    /// The move plays another tile than the one drawn.
    WrongTile { expected: TileId, got: TileId },
    /// A tile already lies on that cell.
    CellOccupied { pos: Pos },
    /// The cell shares no edge with a placed tile.
    NotAdjacent { pos: Pos },
    /// An edge of the tile does not match its neighbour's.
    EdgeMismatch { tile: TileId, pos: Pos, rot: Rotation, side: Dir, ours: EdgeKind, theirs: EdgeKind },
    /// The spot names no segment of the tile as it lies.
    BadSpot { tile: TileId, rot: Rotation, spot: Spot },
    /// Farmers are not played with these rules.
    FarmersOff,
    /// The player has no follower in supply.
    NoFollower,
    /// The feature already holds a follower.
    FeatureOccupied { kind: SegmentKind, spot: Spot },
    /// The abbot is not in play with these rules.
    NoAbbot,
}

impl IllegalMove {
    /// A stable code naming the rule (used by records' tests and the server).
    pub const fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::WrongTile { .. } => "wrong_tile",
            IllegalMove::CellOccupied { .. } => "cell_occupied",
            IllegalMove::NotAdjacent { .. } => "not_adjacent",
            IllegalMove::EdgeMismatch { .. } => "edge_mismatch",
            IllegalMove::BadSpot { .. } => "bad_spot",
            IllegalMove::FarmersOff => "farmers_off",
            IllegalMove::NoFollower => "no_follower",
            IllegalMove::FeatureOccupied { .. } => "feature_occupied",
            IllegalMove::NoAbbot => "no_abbot",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalMove::GameOver => write!(f, "the game is over: no tile is left to play"),
            IllegalMove::WrongTile { expected, got } => {
                write!(f, "tile {got} is not the tile drawn ({expected})")
            }
            IllegalMove::CellOccupied { pos } => write!(f, "a tile already lies at {pos}"),
            IllegalMove::NotAdjacent { pos } => {
                write!(f, "{pos} shares no edge with a placed tile")
            }
            IllegalMove::EdgeMismatch { tile, pos, rot, side, ours, theirs } => write!(
                f,
                "tile {tile} does not fit at {pos} rot {}: its {} edge ({}) meets a {}",
                rot.quarter_turns(),
                side.word(),
                ours.word(),
                theirs.word()
            ),
            IllegalMove::BadSpot { tile, rot, spot } => {
                write!(f, "spot {spot} names no segment of tile {tile} at rot {}", rot.quarter_turns())
            }
            IllegalMove::FarmersOff => write!(f, "farmers are not played with these rules"),
            IllegalMove::NoFollower => write!(f, "the player has no follower left in supply"),
            IllegalMove::FeatureOccupied { kind, spot } => {
                write!(f, "the {} at {spot} is already occupied", kind.word())
            }
            IllegalMove::NoAbbot => write!(f, "the abbot is not in play with these rules"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A game that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// Not 2–6 players.
    PlayerCount(usize),
    /// More tiles than one game can place.
    DeckTooLong(usize),
    /// The first player is not a seat.
    FirstPlayer(u8),
}

impl SetupError {
    pub const fn code(&self) -> &'static str {
        match self {
            SetupError::PlayerCount(_) => "bad_players",
            SetupError::DeckTooLong(_) => "deck_too_long",
            SetupError::FirstPlayer(_) => "bad_first",
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::PlayerCount(n) => write!(f, "a game has 2 to 6 players, not {n}"),
            SetupError::DeckTooLong(n) => {
                write!(f, "a deck of {n} tiles is longer than the {} one game can hold", crate::board::MAX_TILES - 1)
            }
            SetupError::FirstPlayer(s) => write!(f, "seat {s} is not at the table"),
        }
    }
}

impl std::error::Error for SetupError {}
