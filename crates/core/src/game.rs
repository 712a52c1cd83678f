//! A game in progress: setup, turns, legal moves, the checked and unchecked
//! paths to play a move, scoring and the end of the game.

use rand_core::{RngCore, SeedableRng};

use crate::board::{Board, MAX_TILES};
use crate::error::{IllegalMove, SetupError};
use crate::event::{Event, PlayerId, Role, ScoredKind, Scoring, Seats, TurnNo, When};
use crate::geom::{Pos, Rotation, Spot};
use crate::rules::{FarmRule, Rules};
use crate::tile::{standard_deck, SegmentKind, TileId, NO_SEGMENT, TILE_KINDS};

/// Most players at one table.
pub const MAX_PLAYERS: usize = 6;
/// Followers each player starts with (the 8th meeple keeps score).
pub const FOLLOWERS: u8 = 7;

/// Where a tile goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub pos: Pos,
    pub rot: Rotation,
}

/// What a player does after placing the tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Action {
    /// Deploy nothing.
    #[default]
    Pass,
    /// Deploy a follower on the segment at this spot of the tile just placed.
    Follower(Spot),
    /// Deploy the abbot on the cloister (`C`) or garden (`G`) of the tile
    /// just placed (The Abbot).
    Abbot(Spot),
    /// Take the abbot back from wherever it stands, scoring its cloister or
    /// garden now (The Abbot; each player has one abbot).
    Recall,
}

/// One turn: the tile, where it goes, and the follower decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub tile: TileId,
    pub pos: Pos,
    pub rot: Rotation,
    pub action: Action,
}

impl Move {
    pub fn placement(&self) -> Placement {
        Placement { pos: self.pos, rot: self.rot }
    }
}

/// A follower on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Follower {
    pub player: PlayerId,
    pub pos: Pos,
    /// The spot it was deployed on, as the move named it.
    pub spot: Spot,
    pub role: Role,
    pub(crate) seg: u16,
}

/// Everything needed to start a game, not yet checked (see [`Game::new`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub rules: Rules,
    pub players: usize,
    pub start: TileId,
    pub start_rot: Rotation,
    /// The draws after the start tile, first draw first.
    pub deck: Vec<TileId>,
    pub first: PlayerId,
}

impl Setup {
    /// A standard game: the start tile and the 71 other land tiles shuffled from `seed`.
    pub fn standard(rules: Rules, players: usize, seed: u64) -> Setup {
        let mut deck = standard_deck();
        shuffle(&mut deck, seed);
        Setup { rules, players, start: TileId::START, start_rot: Rotation::default(), deck, first: PlayerId(0) }
    }

    /// A game with the given draws after the start tile `D`.
    pub fn with_deck(rules: Rules, players: usize, deck: Vec<TileId>) -> Setup {
        Setup { rules, players, start: TileId::START, start_rot: Rotation::default(), deck, first: PlayerId(0) }
    }
}

/// The pinned generator for seeded shuffles: ChaCha8 keyed by the seed's
/// little-endian bytes (the rest of the key zero). A seed shuffles the same
/// way forever.
pub fn seeded_rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    rand_chacha::ChaCha8Rng::from_seed(key)
}

/// A uniform integer below `n` (> 0), unbiased, by Lemire's
/// multiply-and-reject method on 32-bit words; the mapping from random words
/// to results is pinned here, not by a library.
#[inline]
pub fn uniform_below(rng: &mut impl RngCore, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

/// Shuffles `deck` from `seed` (Fisher–Yates from the back, with [`seeded_rng`]).
pub fn shuffle(deck: &mut [TileId], seed: u64) {
    shuffle_with(deck, &mut seeded_rng(seed));
}

/// Shuffles with a given generator (Fisher–Yates from the back).
pub fn shuffle_with<T>(items: &mut [T], rng: &mut impl RngCore) {
    for i in (1..items.len()).rev() {
        let j = uniform_below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

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

/// For each mask of rotations, its rotations as four 16-bit lanes (padded).
const PACKED_ROTATIONS: [u64; 16] = {
    let mut table = [0u64; 16];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        let mut r = 0;
        while r < 4 {
            if m & (1 << r) != 0 {
                table[m] |= (r as u64) << (16 * k);
                k += 1;
            }
            r += 1;
        }
        m += 1;
    }
    table
};

/// The legal placements of a drawn tile in a compact form, filled by
/// [`Game::packed_placements`] without allocating once warmed up.
#[derive(Clone, Debug, Default)]
pub struct PackedPlacements {
    bytes: Vec<u8>,
    len: usize,
}

impl PackedPlacements {
    pub fn new() -> PackedPlacements {
        PackedPlacements { bytes: Vec::with_capacity(8 * (2 * MAX_TILES + 6)), len: 0 }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entry `i` (< `len`) as a placement on the game it was made from.
    #[inline]
    pub fn get(&self, i: usize, game: &Game) -> Placement {
        debug_assert!(i < self.len);
        let e = u16::from_le_bytes([self.bytes[2 * i], self.bytes[2 * i + 1]]);
        Placement { pos: game.board.frontier_cells()[(e >> 2) as usize], rot: Rotation::ALL[(e & 3) as usize] }
    }
}

/// A game of Carcassonne.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    players: u8,
    board: Board,
    deck: Vec<TileId>,
    /// Index of the next draw in `deck`.
    next_draw: usize,
    /// The tile the player to move must place.
    current: Option<TileId>,
    /// Moves played so far.
    moves: u16,
    to_move: PlayerId,
    first: PlayerId,
    scores: [u32; MAX_PLAYERS],
    supply: [u8; MAX_PLAYERS],
    followers: Vec<Follower>,
    history: Vec<Move>,
    events: Vec<Event>,
    log_events: bool,
    finished: bool,
}

impl Game {
    /// Starts a game: the start tile is placed and the first tile drawn.
    ///
    /// # Errors
    /// Not 2–6 players, a first player who is not seated, or a deck longer
    /// than one game can hold.
    pub fn new(setup: Setup) -> Result<Game, SetupError> {
        if !(2..=MAX_PLAYERS).contains(&setup.players) {
            return Err(SetupError::PlayerCount(setup.players));
        }
        if setup.deck.len() >= MAX_TILES {
            return Err(SetupError::DeckTooLong(setup.deck.len()));
        }
        if setup.first.index() >= setup.players {
            return Err(SetupError::FirstPlayer(setup.first.0));
        }
        let mut board = Board::new();
        board.place(setup.start, setup.start_rot, Pos::ORIGIN);
        let mut game = Game {
            rules: setup.rules,
            players: setup.players as u8,
            board,
            deck: setup.deck,
            next_draw: 0,
            current: None,
            moves: 0,
            to_move: setup.first,
            first: setup.first,
            scores: [0; MAX_PLAYERS],
            supply: [FOLLOWERS; MAX_PLAYERS],
            followers: Vec::with_capacity(MAX_PLAYERS * FOLLOWERS as usize),
            history: Vec::with_capacity(MAX_TILES),
            events: Vec::with_capacity(256),
            log_events: true,
            finished: false,
        };
        game.draw();
        Ok(game)
    }

    /// Stops (or resumes) keeping the event log; scoring is unaffected.
    /// Search bots turn it off on their copies.
    pub fn set_event_log(&mut self, on: bool) {
        self.log_events = on;
        if !on {
            self.events.clear();
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn num_players(&self) -> usize {
        self.players as usize
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Scores by seat.
    pub fn scores(&self) -> &[u32] {
        &self.scores[..self.players as usize]
    }

    /// Followers `p` has in supply.
    pub fn supply(&self, p: PlayerId) -> u8 {
        self.supply[p.index()]
    }

    /// Followers on the board.
    pub fn followers(&self) -> &[Follower] {
        &self.followers
    }

    /// Every event so far (unless the log was turned off).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The moves played so far, in order.
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// The start tile and its rotation.
    pub fn start(&self) -> (TileId, Rotation) {
        let t = self.board.tiles()[0];
        (t.tile, t.rot)
    }

    /// The whole deck after the start tile: past draws (discards included)
    /// and the bag in its hidden order. Only the keeper of the game (a
    /// server, a save) may look at this; players see [`Game::remaining`].
    pub fn deck(&self) -> &[TileId] {
        &self.deck
    }

    /// The seat that played first.
    pub fn first(&self) -> PlayerId {
        self.first
    }

    /// The number of moves played.
    pub fn moves_played(&self) -> u16 {
        self.moves
    }

    /// Whose turn it is, or `None` once the game is over.
    pub fn to_move(&self) -> Option<PlayerId> {
        (!self.finished).then_some(self.to_move)
    }

    /// The tile the player to move must place, or `None` once the game is over.
    pub fn tile(&self) -> Option<TileId> {
        self.current
    }

    pub fn is_over(&self) -> bool {
        self.finished
    }

    /// Seats with the top score once the game is over (all tied seats win).
    pub fn winners(&self) -> Seats {
        if !self.finished {
            return Seats::default();
        }
        let best = self.scores().iter().copied().max().unwrap_or(0);
        self.scores()
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s == best)
            .fold(Seats::default(), |acc, (i, _)| acc.with(PlayerId(i as u8)))
    }

    /// Tiles still in the bag (not counting the one drawn), by tile id. The
    /// order of the bag is hidden information: use this, not the deck.
    pub fn remaining(&self) -> [u8; TILE_KINDS] {
        let mut counts = [0u8; TILE_KINDS];
        for t in &self.deck[self.next_draw..] {
            counts[t.index()] += 1;
        }
        counts
    }

    /// How many tiles are still in the bag.
    pub fn tiles_left(&self) -> usize {
        self.deck.len() - self.next_draw
    }

    /// The draws made so far (the start tile not included), discards too, in order.
    pub fn drawn(&self) -> &[TileId] {
        &self.deck[..self.next_draw]
    }

    /// Shuffles the tiles still in the bag: a copy of the game that keeps
    /// everything a player knows and samples what they do not (for search).
    pub fn shuffle_bag(&mut self, rng: &mut impl RngCore) {
        let at = self.next_draw;
        shuffle_with(&mut self.deck[at..], rng);
    }

    /// How many empty cells touch the placed tiles.
    pub fn frontier_len(&self) -> usize {
        self.board.frontier_cells().len()
    }

    /// Every legal placement of the drawn tile, appended to `out`.
    pub fn placements_into(&self, out: &mut Vec<Placement>) {
        let Some(tile) = self.current else { return };
        let cells = self.board.frontier_cells();
        // Branch-free: each cell writes four slots and keeps as many as
        // rotations fit (the masks are too random for a branch predictor).
        let start = out.len();
        out.reserve(4 * cells.len());
        let spare = out.spare_capacity_mut();
        let mut n = 0;
        for (&pos, mask) in cells.iter().zip(self.board.fit_masks(tile)) {
            let rots = &ROTATIONS_IN_MASK[mask as usize & 15];
            for (slot, &rot) in spare[n..n + 4].iter_mut().zip(rots) {
                slot.write(Placement { pos, rot });
            }
            n += (mask >> 4) as usize;
        }
        // SAFETY: the first `n` spare slots were written above (each cell
        // wrote four slots past the `n` before it, and kept the first few).
        unsafe { out.set_len(start + n) };
    }

    /// Every legal placement of the drawn tile, packed: the fast path for
    /// search and random playouts. Read entries with [`PackedPlacements::get`]
    /// while the game is unchanged.
    pub fn packed_placements(&self, out: &mut PackedPlacements) {
        out.len = 0;
        let Some(tile) = self.current else { return };
        let cells = self.board.frontier_cells().len();
        out.bytes.resize(8 * cells + 8, 0);
        // Each cell stores four 16-bit entries (cell << 2 | rotation) with
        // one 8-byte write and keeps as many as rotations fit: no branch per
        // cell, as the masks are too random for a branch predictor.
        let mut n = 0;
        for (i, mask) in self.board.fit_masks(tile).enumerate() {
            let v = PACKED_ROTATIONS[mask as usize & 15] | (i as u64 * 0x0004_0004_0004_0004);
            out.bytes[2 * n..2 * n + 8].copy_from_slice(&v.to_le_bytes());
            n += (mask >> 4) as usize;
        }
        out.len = n;
    }

    /// Every legal placement of the drawn tile.
    pub fn placements(&self) -> Vec<Placement> {
        let mut v = Vec::new();
        self.placements_into(&mut v);
        v
    }

    /// The spots where the player to move may deploy a follower after
    /// placing the drawn tile at `placement` (which must be legal), one per
    /// segment, appended to `out`.
    pub fn spots_into(&self, placement: Placement, out: &mut Vec<Spot>) {
        let Some(tile) = self.current else { return };
        if self.supply[self.to_move.index()] == 0 {
            return;
        }
        let rt = tile.rotated(placement.rot);
        for s in 0..rt.n_segs {
            let kind = rt.seg_kind[s as usize];
            let allowed = match kind {
                SegmentKind::Field => self.rules.farms != FarmRule::Off,
                SegmentKind::Garden => false,
                _ => true,
            };
            if allowed && !self.board.would_be_occupied(rt, placement.pos, s) {
                out.push(rt.spot_of(s));
            }
        }
    }

    /// The follower spots for `placement`, see [`Game::spots_into`].
    pub fn spots(&self, placement: Placement) -> Vec<Spot> {
        let mut v = Vec::new();
        self.spots_into(placement, &mut v);
        v
    }

    /// Every legal move: each placement with each follower decision.
    pub fn legal_moves(&self) -> Vec<Move> {
        let Some(tile) = self.current else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        let mut spots = Vec::new();
        for p in self.placements() {
            moves.push(Move { tile, pos: p.pos, rot: p.rot, action: Action::Pass });
            spots.clear();
            self.spots_into(p, &mut spots);
            moves.extend(spots.iter().map(|&s| Move { tile, pos: p.pos, rot: p.rot, action: Action::Follower(s) }));
        }
        moves
    }

    /// Checks a move against the rules without playing it.
    ///
    /// # Errors
    /// The first rule the move breaks.
    pub fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        let Some(tile) = self.current.filter(|_| !self.finished) else {
            return Err(IllegalMove::GameOver);
        };
        if mv.tile != tile {
            return Err(IllegalMove::WrongTile { expected: tile, got: mv.tile });
        }
        if self.board.tile_at(mv.pos).is_some() {
            return Err(IllegalMove::CellOccupied { pos: mv.pos });
        }
        let Some(cell) = self.board.frontier_at(mv.pos) else {
            return Err(IllegalMove::NotAdjacent { pos: mv.pos });
        };
        if let Some((side, ours, theirs)) = Board::mismatch(tile, mv.rot, &cell) {
            return Err(IllegalMove::EdgeMismatch { tile, pos: mv.pos, rot: mv.rot, side, ours, theirs });
        }
        match mv.action {
            Action::Pass => Ok(()),
            Action::Abbot(_) | Action::Recall => Err(IllegalMove::NoAbbot),
            Action::Follower(spot) => {
                let rt = tile.rotated(mv.rot);
                let seg = rt.segment_at(spot, false).ok_or(IllegalMove::BadSpot { tile, rot: mv.rot, spot })?;
                let kind = rt.seg_kind[seg as usize];
                if kind == SegmentKind::Field && self.rules.farms == FarmRule::Off {
                    return Err(IllegalMove::FarmersOff);
                }
                if self.supply[self.to_move.index()] == 0 {
                    return Err(IllegalMove::NoFollower);
                }
                if self.board.would_be_occupied(rt, mv.pos, seg) {
                    return Err(IllegalMove::FeatureOccupied { kind, spot });
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

    /// Plays a move known to be legal (from [`Game::placements_into`] and
    /// [`Game::spots_into`]): the fast path for search. An illegal move here
    /// corrupts the game.
    pub fn play_unchecked(&mut self, mv: &Move) {
        debug_assert_eq!(self.check(mv), Ok(()));
        let player = self.to_move;
        self.moves += 1;
        let turn = TurnNo(self.moves);
        let idx = self.board.place(mv.tile, mv.rot, mv.pos);
        self.history.push(*mv);
        self.log(Event::TilePlaced { turn, player, tile: mv.tile, pos: mv.pos, rot: mv.rot });
        let rt = mv.tile.rotated(mv.rot);

        if let Action::Follower(spot) = mv.action {
            let seg = rt.segment_at(spot, false).expect("a checked spot");
            let id = self.board.segment(idx, seg);
            let root = self.board.find(id);
            self.board.feature_mut(root).meeples += 1 << (4 * player.0);
            self.supply[player.index()] -= 1;
            let role = match rt.seg_kind[seg as usize] {
                SegmentKind::Road => Role::Thief,
                SegmentKind::City => Role::Knight,
                SegmentKind::Field => Role::Farmer,
                SegmentKind::Cloister | SegmentKind::Garden => Role::Monk,
            };
            self.followers.push(Follower { player, pos: mv.pos, spot, role, seg: id });
            self.log(Event::FollowerDeployed { turn, player, pos: mv.pos, spot, role });
        }

        // Roads and cities this tile completes (each once, however many of
        // its segments it has on the tile).
        let mut done = [u16::MAX; 4];
        for d in 0..4 {
            let es = rt.edge_seg[d];
            if es == NO_SEGMENT {
                continue;
            }
            let root = self.board.find(self.board.segment(idx, es));
            if self.board.feature(root).open == 0 && !done.contains(&root) {
                done[d] = root;
                self.score_completed(root, turn);
            }
        }

        // Cloisters, this tile's own and its neighbours': only an occupied
        // one scores, so look at the monks near the tile.
        let mut cloisters = [u16::MAX; 9];
        let mut found = 0;
        for f in &self.followers {
            if f.role == Role::Monk
                && (f.pos.x - mv.pos.x).abs() <= 1
                && (f.pos.y - mv.pos.y).abs() <= 1
                && self.board.neighbours(f.pos) == 8
            {
                cloisters[found] = f.seg;
                found += 1;
            }
        }
        for &seg in &cloisters[..found] {
            self.score_cloister(seg, turn);
        }

        self.to_move = PlayerId(if player.0 + 1 == self.players { 0 } else { player.0 + 1 });
        self.draw();
    }

    fn log(&mut self, e: Event) {
        if self.log_events {
            self.events.push(e);
        }
    }

    /// Draws until a tile fits; a tile that fits nowhere is discarded. With
    /// the bag empty, the game ends.
    fn draw(&mut self) {
        self.current = None;
        while self.next_draw < self.deck.len() {
            let t = self.deck[self.next_draw];
            self.next_draw += 1;
            if self.board.fits_anywhere(t) {
                self.current = Some(t);
                return;
            }
            self.log(Event::TileDiscarded { turn: TurnNo(self.moves + 1), tile: t });
        }
        self.finish();
    }

    /// The seats with the most followers in a packed count (none if empty).
    fn majority(&self, meeples: u32) -> Seats {
        let mut best = 0;
        let mut seats = Seats::default();
        for p in 0..self.players {
            let n = (meeples >> (4 * p)) & 0xF;
            if n > best {
                best = n;
                seats = Seats(1 << p);
            } else if n == best && n > 0 {
                seats = seats.with(PlayerId(p));
            }
        }
        seats
    }

    fn award(&mut self, s: Scoring) {
        for p in s.to.iter() {
            self.scores[p.index()] += s.points;
        }
        self.log(Event::Scored(s));
    }

    fn score_completed(&mut self, root: u16, turn: TurnNo) {
        let f = *self.board.feature(root);
        if f.meeples == 0 {
            return;
        }
        let tiles = f.tile_count();
        let shields = f.shields as u32;
        let (kind, points) = match f.kind {
            SegmentKind::Road => (ScoredKind::Road, tiles),
            _ if self.rules.small_city && tiles == 2 => (ScoredKind::City, tiles + shields),
            _ => (ScoredKind::City, 2 * (tiles + shields)),
        };
        let to = self.majority(f.meeples);
        self.award(Scoring {
            turn: Some(turn),
            kind,
            when: When::Completed,
            points,
            to,
            tiles: tiles as u8,
            shields: shields as u8,
            cities: 0,
        });
        self.return_followers(root, turn);
    }

    fn score_cloister(&mut self, seg: u16, turn: TurnNo) {
        let f = *self.board.feature(seg);
        let to = self.majority(f.meeples);
        self.award(Scoring {
            turn: Some(turn),
            kind: ScoredKind::Cloister,
            when: When::Completed,
            points: 9,
            to,
            tiles: 0,
            shields: 0,
            cities: 0,
        });
        self.return_followers(seg, turn);
    }

    fn return_followers(&mut self, root: u16, turn: TurnNo) {
        self.board.feature_mut(root).meeples = 0;
        let mut i = 0;
        while i < self.followers.len() {
            let f = self.followers[i];
            if self.board.find(f.seg) == root {
                self.followers.swap_remove(i);
                self.supply[f.player.index()] += 1;
                self.log(Event::FollowerReturned { turn, player: f.player, pos: f.pos, spot: f.spot });
            } else {
                i += 1;
            }
        }
    }

    /// Final scoring (rules.md, "End of the game"): incomplete roads, cities
    /// and cloisters, then farms.
    fn finish(&mut self) {
        self.finished = true;
        let mut seen: Vec<u16> = Vec::with_capacity(self.followers.len());
        let mut farms: Vec<u16> = Vec::new();
        for i in 0..self.followers.len() {
            let f = self.followers[i];
            let root = self.board.find(f.seg);
            if seen.contains(&root) {
                continue;
            }
            seen.push(root);
            let feat = *self.board.feature(root);
            let to = self.majority(feat.meeples);
            let mut s = Scoring {
                turn: None,
                kind: ScoredKind::Road,
                when: When::Final,
                points: 0,
                to,
                tiles: 0,
                shields: 0,
                cities: 0,
            };
            match feat.kind {
                SegmentKind::Road => {
                    s.points = feat.tile_count();
                    s.tiles = s.points as u8;
                }
                SegmentKind::City => {
                    s.kind = ScoredKind::City;
                    s.tiles = feat.tile_count() as u8;
                    s.shields = feat.shields;
                    s.points = s.tiles as u32 + s.shields as u32;
                }
                SegmentKind::Cloister | SegmentKind::Garden => {
                    s.kind = ScoredKind::Cloister;
                    s.points = 1 + self.board.neighbours(f.pos);
                }
                SegmentKind::Field => {
                    farms.push(root);
                    continue;
                }
            }
            self.award(s);
        }
        if !farms.is_empty() {
            self.score_farms(&farms);
        }
        let winners = self.winners();
        self.log(Event::GameOver { winners });
    }

    /// Farm scoring at the end, per the farm option. `farms` are the roots of
    /// the occupied farms, in the order their first farmer was deployed.
    fn score_farms(&mut self, farms: &[u16]) {
        // The completed cities bordering each occupied farm (by city root).
        let mut borders: Vec<Vec<u16>> = vec![Vec::new(); farms.len()];
        for ti in 0..self.board.tiles().len() {
            let rt = self.board.tiles()[ti].shape();
            let mut fields = rt.fields_by_cities;
            while fields != 0 {
                let s = fields.trailing_zeros() as u8;
                fields &= fields - 1;
                let farm = self.board.find(self.board.segment(ti, s));
                if self.board.feature(farm).meeples == 0 {
                    continue;
                }
                let Some(fi) = farms.iter().position(|&f| f == farm) else {
                    continue;
                };
                let mut cities = rt.seg_cities[s as usize];
                while cities != 0 {
                    let c = cities.trailing_zeros() as u8;
                    cities &= cities - 1;
                    let city = self.board.find(self.board.segment(ti, c));
                    if self.board.feature(city).open == 0 && !borders[fi].contains(&city) {
                        borders[fi].push(city);
                    }
                }
            }
        }
        let farm_scoring = |points: u32, to: Seats, cities: usize| Scoring {
            turn: None,
            kind: ScoredKind::Farm,
            when: When::Final,
            points,
            to,
            tiles: 0,
            shields: 0,
            cities: cities as u8,
        };
        match self.rules.farms {
            FarmRule::Off => {}
            FarmRule::PerFarm => {
                for (fi, &farm) in farms.iter().enumerate() {
                    let n = borders[fi].len();
                    if n > 0 {
                        let to = self.majority(self.board.feature(farm).meeples);
                        self.award(farm_scoring(3 * n as u32, to, n));
                    }
                }
            }
            FarmRule::PerFarmOnce => {
                for p in 0..self.players {
                    let mut paid: Vec<u16> = Vec::new();
                    for (fi, &farm) in farms.iter().enumerate() {
                        if self.majority(self.board.feature(farm).meeples).contains(PlayerId(p)) {
                            for &c in &borders[fi] {
                                if !paid.contains(&c) {
                                    paid.push(c);
                                }
                            }
                        }
                    }
                    if !paid.is_empty() {
                        let n = paid.len();
                        self.award(farm_scoring(3 * n as u32, Seats(1 << p), n));
                    }
                }
            }
            FarmRule::PerCity => {
                let mut cities: Vec<(u16, u32)> = Vec::new();
                for (fi, &farm) in farms.iter().enumerate() {
                    let m = self.board.feature(farm).meeples;
                    for &c in &borders[fi] {
                        match cities.iter_mut().find(|(city, _)| *city == c) {
                            Some((_, sum)) => *sum += m,
                            None => cities.push((c, m)),
                        }
                    }
                }
                cities.sort_unstable();
                for (_, m) in cities {
                    let to = self.majority(m);
                    self.award(farm_scoring(4, to, 1));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> TileId {
        TileId::from_name(s).unwrap()
    }

    #[test]
    fn seeded_shuffle_is_pinned() {
        let mut a = standard_deck();
        let mut b = standard_deck();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        shuffle(&mut b, 8);
        assert_ne!(a, b);
        // Pinned: the first draws of seed 1 never change.
        let mut c = standard_deck();
        shuffle(&mut c, 1);
        let names: Vec<&str> = c.iter().take(6).map(|t| t.name()).collect();
        assert_eq!(names, PINNED_SEED_1);
    }

    const PINNED_SEED_1: [&str; 6] = ["Vg", "H", "N", "T", "X", "B"];

    #[test]
    fn a_two_tile_city_scores_four() {
        // E turned twice puts its city cap south, under D's city at (0,0).
        let mut g = Game::new(Setup::with_deck(Rules::default(), 2, vec![id("E")])).unwrap();
        let mv = Move {
            tile: id("E"),
            pos: Pos::new(0, -1),
            rot: Rotation::new(2).unwrap(),
            action: Action::Follower(Spot::S),
        };
        g.play(&mv).unwrap();
        assert_eq!(g.scores(), &[4, 0]);
        assert!(g.is_over());
        assert_eq!(g.supply(PlayerId(0)), FOLLOWERS);
    }

    #[test]
    fn an_illegal_move_changes_nothing() {
        let mut g = Game::new(Setup::with_deck(Rules::default(), 2, vec![id("E"), id("E")])).unwrap();
        let before = format!("{:?}", g);
        let mv = Move { tile: id("E"), pos: Pos::new(0, -1), rot: Rotation::new(0).unwrap(), action: Action::Pass };
        assert_eq!(g.play(&mv).unwrap_err().code(), "edge_mismatch");
        assert_eq!(before, format!("{:?}", g));
    }
}
