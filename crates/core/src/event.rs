//! What happens in a game, as a stream of events for the UI, the log and the
//! record's `score` output.

use std::fmt;

use crate::geom::{Pos, Rotation, Spot};
use crate::tile::TileId;

/// A seat at the table, 0-based in seat order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u8);

impl PlayerId {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The 1-based number of a move in the game (the index into a record's `moves`, plus one).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TurnNo(pub u16);

/// A set of seats (bit per seat).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Seats(pub u8);

impl Seats {
    pub fn iter(self) -> impl Iterator<Item = PlayerId> {
        (0..8u8).filter(move |i| self.0 & (1 << i) != 0).map(PlayerId)
    }

    pub const fn contains(self, p: PlayerId) -> bool {
        self.0 & (1 << p.0) != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn with(self, p: PlayerId) -> Seats {
        Seats(self.0 | (1 << p.0))
    }
}

/// What a figure on the board is: a follower by what it stands on, or a
/// figure that is no follower.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// On a road (highwayman).
    Thief,
    /// In a city.
    Knight,
    /// On a cloister.
    Monk,
    /// In a field.
    Farmer,
    /// The abbot, on a cloister or garden (The Abbot).
    Abbot,
    /// The builder, on a road or city (Traders & Builders).
    Builder,
    /// The pig, in a field (Traders & Builders).
    Pig,
}

impl Role {
    /// A follower's role on a segment of this kind.
    pub(crate) const fn on(kind: crate::tile::SegmentKind) -> Role {
        use crate::tile::SegmentKind;
        match kind {
            SegmentKind::Road => Role::Thief,
            SegmentKind::City => Role::Knight,
            SegmentKind::Field => Role::Farmer,
            SegmentKind::Cloister | SegmentKind::Garden => Role::Monk,
        }
    }

    pub const fn word(self) -> &'static str {
        match self {
            Role::Thief => "thief",
            Role::Knight => "knight",
            Role::Monk => "monk",
            Role::Farmer => "farmer",
            Role::Abbot => "abbot",
            Role::Builder => "builder",
            Role::Pig => "pig",
        }
    }
}

/// What kind of feature a scoring was for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScoredKind {
    Road,
    City,
    Cloister,
    Garden,
    Farm,
    /// Goods tokens (Traders & Builders): taken when a city is completed
    /// (no points), and the majority of each kind at the end (10 points).
    Goods,
}

impl ScoredKind {
    pub const fn word(self) -> &'static str {
        match self {
            ScoredKind::Road => "road",
            ScoredKind::City => "city",
            ScoredKind::Cloister => "cloister",
            ScoredKind::Garden => "garden",
            ScoredKind::Farm => "farm",
            ScoredKind::Goods => "goods",
        }
    }
}

/// When a feature was scored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum When {
    /// During the game, the moment the feature was completed.
    Completed,
    /// In the final scoring.
    Final,
}

impl When {
    pub const fn word(self) -> &'static str {
        match self {
            When::Completed => "completed",
            When::Final => "final",
        }
    }
}

/// Points awarded for one feature (or, for farms, as record.md groups them).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scoring {
    /// The move that completed the feature; `None` in the final scoring.
    pub turn: Option<TurnNo>,
    pub kind: ScoredKind,
    pub when: When,
    /// Points each recipient gets.
    pub points: u32,
    pub to: Seats,
    /// Tiles of a road or city.
    pub tiles: u8,
    /// Shields of a city.
    pub shields: u8,
    /// Completed cities a farm scoring paid for.
    pub cities: u8,
    /// A road with an inn, a city with a cathedral, that scored as such
    /// (Inns & Cathedrals: 2 a tile, 3 a tile and shield).
    pub inn: bool,
    pub cathedral: bool,
    /// Of a farm scoring's cities, how many paid 1 more for the pig of the
    /// seats in `to` (Traders & Builders).
    pub pig: u8,
    /// Goods: the tokens taken, by kind in [`crate::Good::ALL`]'s order (a
    /// completed city), or at the end the top count of the one kind scored.
    pub goods: [u8; 3],
    /// The tiles the scoring was for, a bit per placed tile in the order
    /// laid (bit 0: the start tile): a road's or city's tiles, a cloister
    /// or garden and the tiles around it, a farm and the completed cities
    /// it was paid for. For showing players why it scored; no part of the
    /// record.
    pub cover: u128,
    /// In the final scoring, the followers standing on what was scored, a
    /// bit per index into [`crate::Game::followers`] (which the final
    /// scoring leaves on the board): those of the seats in `to` counted,
    /// the others were outnumbered. 0 for a feature completed in play (its
    /// followers come home: `FollowerReturned` events follow it). For
    /// showing players why it scored; no part of the record.
    pub followers: u64,
}

impl Scoring {
    /// A scoring with nothing but what every scoring says.
    pub(crate) const fn new(turn: Option<TurnNo>, kind: ScoredKind, when: When, points: u32, to: Seats) -> Scoring {
        Scoring {
            turn,
            kind,
            when,
            points,
            to,
            tiles: 0,
            shields: 0,
            cities: 0,
            inn: false,
            cathedral: false,
            pig: 0,
            goods: [0; 3],
            cover: 0,
            followers: 0,
        }
    }

    /// The kind of goods a final goods scoring was for.
    pub fn good(&self) -> Option<crate::Good> {
        let kinds = crate::Good::ALL.into_iter();
        (self.kind == ScoredKind::Goods && self.when == When::Final).then_some(())?;
        kinds.zip(self.goods).find(|&(_, n)| n > 0).map(|(g, _)| g)
    }
}

/// Something that happened.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    TilePlaced {
        turn: TurnNo,
        player: PlayerId,
        tile: TileId,
        pos: Pos,
        rot: Rotation,
    },
    FollowerDeployed {
        turn: TurnNo,
        player: PlayerId,
        pos: Pos,
        spot: Spot,
        role: Role,
        /// The big follower (Inns & Cathedrals).
        big: bool,
    },
    Scored(Scoring),
    /// A follower came home after its feature was scored.
    FollowerReturned {
        turn: TurnNo,
        player: PlayerId,
        pos: Pos,
        spot: Spot,
    },
    /// A drawn tile fit nowhere and left the game; `turn` is the move it was drawn for.
    TileDiscarded {
        turn: TurnNo,
        tile: TileId,
    },
    /// A drawn tile fit nowhere and went back into the bag (`reshuffle`).
    TileReshuffled {
        turn: TurnNo,
        tile: TileId,
    },
    /// A player took their abbot back and scored its cloister or garden.
    AbbotRecalled {
        turn: TurnNo,
        player: PlayerId,
        pos: Pos,
        points: u32,
    },
    /// The player filled a hole and plays again (`hole_bonus_turn`).
    BonusTurn {
        turn: TurnNo,
        player: PlayerId,
    },
    GameOver {
        winners: Seats,
    },
}
