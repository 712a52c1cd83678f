//! Traders & Builders (expansions.md §2): 24 tiles, goods in cities and
//! their tokens, and a builder and a pig per player.
//!
//! What it adds, and where the engine asks for it:
//! - goods: a completed city hands one token per symbol in it to the
//!   player who placed the completing tile ([`Game::take_goods`]); at the
//!   end each kind's most tokens score 10 ([`Game::score_goods`]);
//! - the builder: deployed beside a follower of its owner on a road or
//!   city; when its owner's tile extends that feature, the turn gets a
//!   second part ([`Game::builder_extended`], the turn's end in `game.rs`);
//!   it comes home when its feature is scored (with the followers there);
//! - the pig: deployed beside a farmer of its owner; at the end a farm
//!   pays a majority player whose own pig stands in it 1 more per city
//!   (the farm rules in `scoring.rs` ask [`Game::pigs_in`]).

use std::fmt;

use crate::event::{PlayerId, Role, ScoredKind, Scoring, Seats, TurnNo, When};
use crate::game::{Game, MAX_PLAYERS};
use crate::tile::{SegmentKind, TileLine};

/// The 24 tiles: expansions.md §7, in the notation of `tile.rs`.
/// Canonical orientation as in the Wikicarpedia C3 pictures.
#[rustfmt::skip]
pub(crate) const TILES: [TileLine; 24] = [
    ("TB01", "CRFF", "c:N r:E f:En>0 f:Es,Se,Sw,Ws,Wn>0", "", ""),
    // R13: a bridge; the two roads cross without meeting, four fields.
    ("TB02", "RRRR", "r:NS r:EW f:Nw,Wn f:Ne,En f:Es,Se f:Sw,Ws", "bridge", ""),
    ("TB03", "CFRR", "c:N r:S r:W f:En,Es,Se>0 f:Sw,Ws f:Wn>0", "bridge", ""),
    ("TB04", "CCRC", "c:NE/wheat c:W r:S f:Se>0 f:Sw>0,1", "", ""),
    ("TB05", "FCRC", "c:EW/wheat r:S f:Nw,Ne>0 f:Se>0 f:Sw>0", "", ""),
    ("TB06", "CFRC", "c:NW/wheat r:S f:En,Es,Se>0 f:Sw>0", "", ""),
    ("TB07", "CFFC", "c:NW/wheat f:En,Es,Se,Sw>0", "", ""),
    ("TB08", "CCFC", "c:NEW/wheat f:Se,Sw>0", "", ""),
    ("TB09", "CFRC", "c:NW/wheat r:S f:En,Es>0 f:Se>0 f:Sw>0", "", ""),
    ("TB10", "FRRR", "r:E r:S r:W f:Nw,Ne,En,Wn f:Es,Se f:Sw,Ws", "cloister", ""),
    ("TB11", "CCRF", "c:NE/cloth r:S f:Se>0 f:Sw,Ws,Wn>0", "garden", ""),
    ("TB12", "CCRC", "c:NE/cloth c:W r:S f:Se>0 f:Sw>0,1", "", ""),
    ("TB13", "CCCC", "c:NW/cloth c:E c:S f:>0,1,2", "", ""),
    ("TB14", "FCCC", "c:EW/cloth c:S f:Nw,Ne>0 f:>0,1", "", ""),
    ("TB15", "CRRC", "c:NW/cloth r:E r:S f:En>0 f:Es>0 f:Se>0 f:Sw>0", "", ""),
    ("TB16", "FCCC", "c:EW/wine c:S f:Nw,Ne>0 f:>0,1", "", ""),
    ("TB17", "FCFC", "c:EW/wine f:Nw,Ne>0 f:Se,Sw>0", "", ""),
    ("TB18", "RCRC", "c:EW/wine r:N r:S f:Nw>0 f:Ne>0 f:Se>0 f:Sw>0", "", ""),
    ("TB19", "FCRC", "c:EW/wine r:S f:Nw,Ne>0 f:Se>0 f:Sw>0", "", ""),
    ("TB20", "CFFC", "c:NW/wine f:En,Es,Se,Sw>0", "", ""),
    ("TB21", "CRRC", "c:NW/wine r:E r:S f:En>0 f:Es,Se>0 f:Sw>0", "garden", ""),
    ("TB22", "CCRC", "c:NEW/wine r:S f:Se>0 f:Sw>0", "", ""),
    ("TB23", "CRFC", "c:NW/wine r:E f:En>0 f:Es>0 f:Se,Sw>0", "", ""),
    ("TB24", "CCCC", "c:NW/wine c:ES f:>0,1", "", ""),
];

/// Copies of each tile in the expansion: one each (expansions.md §2.1).
#[rustfmt::skip]
pub(crate) const COUNTS: &[(&str, u8)] = &[
    ("TB01", 1), ("TB02", 1), ("TB03", 1), ("TB04", 1), ("TB05", 1), ("TB06", 1), ("TB07", 1), ("TB08", 1),
    ("TB09", 1), ("TB10", 1), ("TB11", 1), ("TB12", 1), ("TB13", 1), ("TB14", 1), ("TB15", 1), ("TB16", 1),
    ("TB17", 1), ("TB18", 1), ("TB19", 1), ("TB20", 1), ("TB21", 1), ("TB22", 1), ("TB23", 1), ("TB24", 1),
];

/// A kind of goods: the symbol in a city and its tokens.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Good {
    Wine = 0,
    Wheat = 1,
    Cloth = 2,
}

impl Good {
    /// In the order of the record's events and of [`Game::goods`].
    pub const ALL: [Good; 3] = [Good::Wine, Good::Wheat, Good::Cloth];

    /// The record's word: `wine`, `wheat`, `cloth`.
    pub const fn word(self) -> &'static str {
        match self {
            Good::Wine => "wine",
            Good::Wheat => "wheat",
            Good::Cloth => "cloth",
        }
    }

    pub fn from_word(word: &str) -> Option<Good> {
        Good::ALL.into_iter().find(|g| g.word() == word)
    }

    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Good {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Goods tokens by kind, in [`Good::ALL`]'s order.
pub type Goods = [u8; 3];

/// What Traders & Builders adds to a game's state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TradersState {
    /// Goods tokens each player holds.
    pub goods: [Goods; MAX_PLAYERS],
    /// The segment each player's builder stands on (`NOWHERE` at home):
    /// the turn asks it on every move.
    pub builder_at: [u16; MAX_PLAYERS],
    /// Each player's thieves and knights, and farmers, on the board (big
    /// or not): without one, their builder or pig has nowhere to go, and
    /// the board need not be asked.
    pub thieves_knights: [u8; MAX_PLAYERS],
    pub farmers: [u8; MAX_PLAYERS],
}

impl TradersState {
    pub const NOWHERE: u16 = u16::MAX;
    pub const NEW: TradersState = TradersState {
        goods: [[0; 3]; MAX_PLAYERS],
        builder_at: [Self::NOWHERE; MAX_PLAYERS],
        thieves_knights: [0; MAX_PLAYERS],
        farmers: [0; MAX_PLAYERS],
    };

    /// A follower with `role` of player `p` came (`+1`) or left (`-1`).
    #[inline]
    pub fn count(&mut self, p: usize, role: Role, change: i8) {
        match role {
            Role::Thief | Role::Knight => self.thieves_knights[p] = self.thieves_knights[p].wrapping_add_signed(change),
            Role::Farmer => self.farmers[p] = self.farmers[p].wrapping_add_signed(change),
            _ => {}
        }
    }
}

impl Game {
    /// A completed city's goods go to the player who placed the completing
    /// tile (the player to move), whoever holds the city (R6, R7).
    pub(crate) fn take_goods(&mut self, goods: Goods, cover: u128, turn: TurnNo) {
        let player = self.to_move;
        for (held, n) in self.traders.goods[player.index()].iter_mut().zip(goods) {
            *held += n;
        }
        let mut s = Scoring::new(Some(turn), ScoredKind::Goods, When::Completed, 0, Seats::default().with(player));
        s.goods = goods;
        s.cover = cover;
        self.log(crate::event::Event::Scored(s));
    }

    /// The end of the game: for each kind of goods, the players with the
    /// most tokens score 10, all of them when tied; a kind nobody holds
    /// pays nobody (expansions.md §2.2).
    pub(crate) fn score_goods(&mut self) {
        for good in Good::ALL {
            let held = |p: usize| self.traders.goods[p][good.index()];
            let top = (0..self.players as usize).map(held).max().unwrap_or(0);
            if top == 0 {
                continue;
            }
            let to = (0..self.players)
                .filter(|&p| held(p as usize) == top)
                .fold(Seats::default(), |s, p| s.with(PlayerId(p)));
            let mut s = Scoring::new(None, ScoredKind::Goods, When::Final, 10, to);
            s.goods[good.index()] = top;
            for p in to.iter() {
                self.scores[p.index()] += 10;
            }
            self.log(crate::event::Event::Scored(s));
        }
    }

    /// Whether the tile just placed (index `idx`) by `player` extends the
    /// road or city where their builder stands: one of its road or city
    /// segments now lies in the builder's feature (a field never counts:
    /// expansions.md §5). The feature's tiles say it: only a road or city
    /// segment of the tile can have joined a road or city.
    pub(crate) fn builder_extended(&mut self, player: PlayerId, idx: usize) -> bool {
        // A branch on where the builder is: it stays at home, or out, for
        // many turns at a time.
        let seg = self.traders.builder_at[player.index()];
        if seg == TradersState::NOWHERE {
            return false;
        }
        let at = self.board.find(seg);
        self.board.feature(at).tiles & (1u128 << idx) != 0
    }

    /// The roads and cities (bit per segment of the tile `rt` about to be
    /// put at `pos`) where the player to move may deploy their builder: a
    /// road or city that, with the tile, holds a follower of theirs and
    /// that the tile does not complete.
    pub(crate) fn builder_segments(&self, joined: &crate::board::Joined, rt: &crate::tile::RotatedTile) -> u16 {
        let me = 4 * self.to_move.0 as u32;
        let mut out = 0;
        let mut segs = rt.road_city_segs;
        while segs != 0 {
            let s = segs.trailing_zeros() as usize;
            segs &= segs - 1;
            if (joined.meeples[s] >> me) & 0xF != 0 && joined.open[s] > 0 {
                out |= 1 << s;
            }
        }
        out
    }
}

/// Kinds of segment a builder may stand on.
pub(crate) fn builder_may_stand_on(kind: SegmentKind) -> bool {
    matches!(kind, SegmentKind::Road | SegmentKind::City)
}
