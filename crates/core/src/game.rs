//! A game in progress: its state, the turn sequence (draws, hands,
//! discards, bonus turns) and the fast path that plays a move. Legal moves
//! and the checked path are in `moves.rs`, scoring in `scoring.rs`.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use crate::board::{Board, MAX_TILES};
use crate::deck::{seeded_rng, shuffle_with, uniform_below, Setup};
use crate::error::SetupError;
use crate::event::{Event, PlayerId, Role, Seats, TurnNo};
use crate::expansion::traders::TradersState;
use crate::geom::{Dir, Pos, Rotation, Spot};
use crate::rules::{Rules, Unplaceable};
use crate::tile::{RotatedTile, TileId, TILE_KINDS};

/// Most players at one table.
pub const MAX_PLAYERS: usize = 6;
/// Followers each player starts with (the 8th meeple keeps score).
pub const FOLLOWERS: u8 = 7;
/// Most tiles in a hand (the `hand` house rule).
pub const MAX_HAND: usize = 3;
/// Most draws a deck may list (with `reshuffle`, a tile is drawn again
/// after it went back into the bag, so draws can outnumber tiles).
pub const MAX_DECK: usize = 4096;

/// Where a tile goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub pos: Pos,
    pub rot: Rotation,
}

/// What a player does after placing the tile: deploy one figure, recall
/// the abbot, or nothing (step 2 of a turn; each part of a double turn has
/// its own).
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
    /// Deploy the big follower, like a follower (not on a garden); it
    /// counts 2 in every majority (Inns & Cathedrals).
    BigFollower(Spot),
    /// Deploy the builder on a road or city of the tile just placed that
    /// holds a follower of the player (Traders & Builders).
    Builder(Spot),
    /// Deploy the pig in a field of the tile just placed whose farm holds a
    /// farmer of the player (Traders & Builders).
    Pig(Spot),
}

impl Action {
    /// The figure the action deploys and where, if it deploys one.
    pub const fn deploys(self) -> Option<(Figure, Spot)> {
        match self {
            Action::Follower(s) => Some((Figure::Follower, s)),
            Action::Abbot(s) => Some((Figure::Abbot, s)),
            Action::BigFollower(s) => Some((Figure::BigFollower, s)),
            Action::Builder(s) => Some((Figure::Builder, s)),
            Action::Pig(s) => Some((Figure::Pig, s)),
            Action::Pass | Action::Recall => None,
        }
    }
}

/// The figures a player owns: followers (seven), and one each of the
/// others their rules give them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    Follower,
    /// Inns & Cathedrals: counts as two followers.
    BigFollower,
    /// The Abbot.
    Abbot,
    /// Traders & Builders: gives a second tile; no follower.
    Builder,
    /// Traders & Builders: fattens a farm; no follower.
    Pig,
}

impl Figure {
    pub const fn word(self) -> &'static str {
        match self {
            Figure::Follower => "follower",
            Figure::BigFollower => "big follower",
            Figure::Abbot => "abbot",
            Figure::Builder => "builder",
            Figure::Pig => "pig",
        }
    }

    /// How many followers it counts as in a majority.
    pub(crate) const fn weight(self) -> u32 {
        match self {
            Figure::Follower | Figure::Abbot => 1,
            Figure::BigFollower => 2,
            Figure::Builder | Figure::Pig => 0,
        }
    }

    /// Its bit in a player's figures at home (none for followers, which are counted).
    pub(crate) const fn home_bit(self) -> u8 {
        match self {
            Figure::Follower => 0,
            Figure::BigFollower => 1,
            Figure::Abbot => 2,
            Figure::Builder => 4,
            Figure::Pig => 8,
        }
    }
}

/// Why a part of a turn is an extra one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Bonus {
    /// The builder's second tile (Traders & Builders: the player's tile
    /// extended their builder's road or city).
    Builder,
}

impl Bonus {
    /// The record's word: `builder`.
    pub const fn word(self) -> &'static str {
        match self {
            Bonus::Builder => "builder",
        }
    }
}

/// One part of a turn: the tile, where it goes, the follower decision, and
/// which part it is (`bonus`: `None` for a turn's first part; the game's
/// state says which is due, [`Game::bonus`], and the checked path refuses
/// a move that says otherwise).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub tile: TileId,
    pub pos: Pos,
    pub rot: Rotation,
    pub action: Action,
    pub bonus: Option<Bonus>,
}

impl Move {
    pub fn placement(&self) -> Placement {
        Placement { pos: self.pos, rot: self.rot }
    }
}

/// A figure on the board: a follower (big or not), an abbot, a builder or a pig.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Follower {
    pub player: PlayerId,
    pub pos: Pos,
    /// The spot it was deployed on, as the move named it.
    pub spot: Spot,
    pub role: Role,
    /// The big follower (Inns & Cathedrals).
    pub big: bool,
    pub(crate) seg: u16,
}

impl Follower {
    /// The kind of figure.
    pub fn figure(&self) -> Figure {
        match self.role {
            Role::Abbot => Figure::Abbot,
            Role::Builder => Figure::Builder,
            Role::Pig => Figure::Pig,
            _ if self.big => Figure::BigFollower,
            _ => Figure::Follower,
        }
    }

    /// Whether it counts in majorities (followers, big or not, and abbots).
    pub fn counts(&self) -> bool {
        !matches!(self.role, Role::Builder | Role::Pig)
    }
}

/// The tiles a player holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Hand {
    tiles: [TileId; MAX_HAND],
    len: u8,
}

impl Hand {
    pub(crate) const EMPTY: Hand = Hand { tiles: [TileId::START; MAX_HAND], len: 0 };

    pub(crate) fn as_slice(&self) -> &[TileId] {
        &self.tiles[..self.len as usize]
    }

    fn push(&mut self, t: TileId) {
        self.tiles[self.len as usize] = t;
        self.len += 1;
    }

    fn remove(&mut self, i: usize) -> TileId {
        let t = self.tiles[i];
        self.tiles.copy_within(i + 1..self.len as usize, i);
        self.len -= 1;
        t
    }

    pub(crate) fn position(&self, t: TileId) -> Option<usize> {
        self.as_slice().iter().position(|&h| h == t)
    }
}

/// Where the river goes on (The River): the empty cell at its open end and
/// the direction it flows into that cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct RiverEnd {
    pub cell: Pos,
    pub flow: Dir,
    /// How the last river tile turned: -1 left, 0 straight (or none), 1 right.
    pub last_turn: i8,
}

/// A game of Carcassonne.
#[derive(Debug)]
pub struct Game {
    pub(crate) rules: Rules,
    /// `rules.expansions()`, read on every move: one flag, not two.
    pub(crate) ext: bool,
    pub(crate) players: u8,
    pub(crate) board: Board,
    /// Every draw of the game in order: past draws before `next_draw`, the
    /// bag's order after it.
    pub(crate) deck: Vec<TileId>,
    pub(crate) next_draw: usize,
    /// A live bag's generator for tiles going back in (`reshuffle`); none
    /// when the deck is a fixed sequence of draws (replaying a record).
    pub(crate) live: Option<ChaCha8Rng>,
    pub(crate) hands: [Hand; MAX_PLAYERS],
    pub(crate) moves: u16,
    pub(crate) to_move: PlayerId,
    pub(crate) first: PlayerId,
    pub(crate) scores: [u32; MAX_PLAYERS],
    /// Followers in supply.
    pub(crate) supply: [u8; MAX_PLAYERS],
    /// The one-of figures each player has at home: [`Figure::home_bit`]s.
    pub(crate) home: [u8; MAX_PLAYERS],
    /// Where each player's abbot stands while it is not at home (a move's
    /// decisions ask whether it may be recalled).
    pub(crate) abbot_at: [Pos; MAX_PLAYERS],
    /// Traders & Builders: goods tokens held, where the builders stand.
    pub(crate) traders: TradersState,
    /// What the current part of the turn is: `None` a turn's first part,
    /// or the builder's second tile.
    pub(crate) bonus: Option<Bonus>,
    /// Turns owed to the player to move for holes filled
    /// (`hole_bonus_turn`), played after the part under way.
    pub(crate) pending: u8,
    /// Every figure on the board.
    pub(crate) followers: Vec<Follower>,
    /// Where the followers on a cloister or garden (monks and abbots)
    /// stand, in no particular order: only those can be completed by the
    /// tiles around them, and a tile laid away from all of them needs no
    /// look at the followers.
    pub(crate) monks: Vec<Pos>,
    pub(crate) history: Vec<Move>,
    pub(crate) river: Option<RiverEnd>,
    pub(crate) events: Vec<Event>,
    pub(crate) log_events: bool,
    pub(crate) finished: bool,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        let mut g = Game {
            rules: self.rules,
            ext: self.ext,
            players: self.players,
            board: self.board.clone(),
            deck: Vec::new(),
            next_draw: 0,
            live: None,
            hands: self.hands,
            moves: 0,
            to_move: self.to_move,
            first: self.first,
            scores: self.scores,
            supply: self.supply,
            home: self.home,
            abbot_at: self.abbot_at,
            traders: self.traders,
            bonus: self.bonus,
            pending: self.pending,
            followers: Vec::new(),
            monks: Vec::new(),
            history: Vec::new(),
            river: None,
            events: Vec::new(),
            log_events: true,
            finished: false,
        };
        g.copy_rest(self);
        g
    }

    /// Reuses this game's buffers (search copies a position per iteration).
    fn clone_from(&mut self, source: &Game) {
        self.board.clone_from(&source.board);
        self.copy_rest(source);
    }
}

impl Game {
    /// Starts a game: the start tile is placed, hands are dealt and the
    /// first tile drawn.
    ///
    /// # Errors
    /// Not 2–6 players, a first player who is not seated, options that do
    /// not fit together, or a deck longer than one game can hold.
    pub fn new(setup: Setup) -> Result<Game, SetupError> {
        check_setup(&setup)?;
        let mut game = Game {
            rules: setup.rules,
            ext: setup.rules.expansions(),
            players: 0,
            board: Board::new(setup.rules.board_limit, setup.rules.border_completes),
            deck: Vec::new(),
            next_draw: 0,
            live: None,
            hands: [Hand::EMPTY; MAX_PLAYERS],
            moves: 0,
            to_move: setup.first,
            first: setup.first,
            scores: [0; MAX_PLAYERS],
            supply: [FOLLOWERS; MAX_PLAYERS],
            home: [0; MAX_PLAYERS],
            abbot_at: [Pos::ORIGIN; MAX_PLAYERS],
            traders: TradersState::NEW,
            bonus: None,
            pending: 0,
            followers: Vec::with_capacity(MAX_PLAYERS * (FOLLOWERS as usize + 4)),
            monks: Vec::with_capacity(8),
            history: Vec::with_capacity(MAX_TILES),
            river: None,
            events: Vec::with_capacity(256),
            log_events: true,
            finished: false,
        };
        game.begin(setup);
        Ok(game)
    }

    /// Starts a new game in this one's place, as [`Game::new`] would, but
    /// reusing this game's memory (the board's grid is cleared only where
    /// the last game reached): for programs that play many games one after
    /// the other, such as `carcassonne bench` or a learning environment's
    /// reset. Whether the event log is kept carries over
    /// ([`Game::set_event_log`]).
    ///
    /// ```
    /// use carcassonne::{Game, RandomMover, Rules, Setup, seeded_rng};
    ///
    /// let mut game = Game::new(Setup::standard(Rules::default(), 2, 1)).unwrap();
    /// RandomMover::new().playout(&mut game, &mut seeded_rng(0));
    /// game.restart(Setup::standard(Rules::default(), 2, 2)).unwrap();
    /// let fresh = Game::new(Setup::standard(Rules::default(), 2, 2)).unwrap();
    /// assert_eq!(game.legal_moves(), fresh.legal_moves());
    /// assert_eq!(game.moves_played(), 0);
    /// ```
    ///
    /// # Errors
    /// As [`Game::new`]; the game is then unchanged.
    pub fn restart(&mut self, setup: Setup) -> Result<(), SetupError> {
        check_setup(&setup)?;
        self.board.reset(setup.rules.board_limit, setup.rules.border_completes);
        self.begin(setup);
        Ok(())
    }

    /// Sets every part of the game but the board (which must be empty)
    /// from `setup`, places the start tile, deals the hands and draws.
    fn begin(&mut self, setup: Setup) {
        let rules = setup.rules;
        self.board.place(setup.start, setup.start_rot, Pos::ORIGIN);
        let river_end = {
            let rt = setup.start.rotated(setup.start_rot);
            Dir::ALL.into_iter().find(|d| rt.river & (1 << d.index()) != 0).map(|flow| RiverEnd {
                cell: Pos::ORIGIN.step(flow),
                flow,
                last_turn: 0,
            })
        };
        // Every field named, so that a new one cannot be forgotten here.
        let Game {
            rules: game_rules,
            ext,
            players,
            board: _,
            deck,
            next_draw,
            live,
            hands,
            moves,
            to_move,
            first,
            scores,
            supply,
            home,
            abbot_at,
            traders,
            bonus,
            pending,
            followers,
            monks,
            history,
            river,
            events,
            log_events: _,
            finished,
        } = self;
        *game_rules = rules;
        *ext = rules.expansions();
        *players = setup.players as u8;
        *deck = setup.deck;
        *next_draw = 0;
        *live = setup.live_seed.map(seeded_rng);
        *hands = [Hand::EMPTY; MAX_PLAYERS];
        *moves = 0;
        *to_move = setup.first;
        *first = setup.first;
        *scores = [0; MAX_PLAYERS];
        *supply = [FOLLOWERS; MAX_PLAYERS];
        *home = [home_figures(&rules); MAX_PLAYERS];
        *abbot_at = [Pos::ORIGIN; MAX_PLAYERS];
        *traders = TradersState::NEW;
        *bonus = None;
        *pending = 0;
        followers.clear();
        monks.clear();
        history.clear();
        *river = river_end;
        events.clear();
        *finished = false;
        if rules.hand_mode() {
            // rules.md, "Hands, precisely": at setup each player in seat order draws their hand.
            for p in 0..self.players as usize {
                for _ in 0..rules.hand {
                    if let Some(t) = self.draw() {
                        self.hands[p].push(t);
                    }
                }
            }
        }
        self.begin_turn();
    }

    /// Everything but the board from `source`, reusing this game's buffers.
    fn copy_rest(&mut self, source: &Game) {
        let Game {
            rules,
            ext,
            players,
            board: _,
            deck,
            next_draw,
            live,
            hands,
            moves,
            to_move,
            first,
            scores,
            supply,
            home,
            abbot_at,
            traders,
            bonus,
            pending,
            followers,
            monks,
            history,
            river,
            events,
            log_events,
            finished,
        } = source;
        self.rules = *rules;
        self.ext = *ext;
        self.players = *players;
        self.deck.clone_from(deck);
        self.next_draw = *next_draw;
        self.live.clone_from(live);
        self.hands = *hands;
        self.moves = *moves;
        self.to_move = *to_move;
        self.first = *first;
        self.scores = *scores;
        self.supply = *supply;
        self.home = *home;
        self.abbot_at = *abbot_at;
        self.traders = *traders;
        self.bonus = *bonus;
        self.pending = *pending;
        self.followers.clone_from(followers);
        self.monks.clone_from(monks);
        self.history.clone_from(history);
        self.river = *river;
        self.events.clone_from(events);
        self.log_events = *log_events;
        self.finished = *finished;
    }

    /// Makes the bag live from here on: a tile sent back by the
    /// `reshuffle` house rule goes back at a random place drawn from `seed`.
    /// A game replayed from a record has a fixed sequence of draws; a
    /// server resuming it to play on makes it live.
    pub fn make_live(&mut self, seed: u64) {
        self.live = Some(seeded_rng(seed));
    }

    /// The live bag's generator as its key and word position (None for a
    /// fixed sequence of draws): with the record, what saving a game
    /// exactly needs (the Python package pickles games with it).
    pub fn live_state(&self) -> Option<([u8; 32], u128)> {
        self.live.as_ref().map(|rng| (rng.get_seed(), rng.get_word_pos()))
    }

    /// Restores the live bag's generator that `live_state` gave.
    pub fn set_live_state(&mut self, state: Option<([u8; 32], u128)>) {
        self.live = state.map(|(key, pos)| {
            let mut rng = <ChaCha8Rng as rand_chacha::rand_core::SeedableRng>::from_seed(key);
            rng.set_word_pos(pos);
            rng
        });
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

    /// Followers `p` has in supply (the abbot, big follower, builder and pig not counted).
    pub fn supply(&self, p: PlayerId) -> u8 {
        self.supply[p.index()]
    }

    /// Whether `p`'s abbot is in supply (always false without The Abbot).
    pub fn abbot_in_supply(&self, p: PlayerId) -> bool {
        self.at_home(p, Figure::Abbot)
    }

    /// Whether `p` has a figure of this kind in supply: a follower (any of
    /// the seven), or their one abbot, big follower, builder or pig (always
    /// false for a figure their rules do not give them).
    pub fn in_supply(&self, p: PlayerId, figure: Figure) -> bool {
        match figure {
            Figure::Follower => self.supply[p.index()] > 0,
            _ => self.at_home(p, figure),
        }
    }

    #[inline]
    pub(crate) fn at_home(&self, p: PlayerId, figure: Figure) -> bool {
        self.home[p.index()] & figure.home_bit() != 0
    }

    /// The goods tokens `p` holds, by kind in [`crate::Good::ALL`]'s order
    /// (Traders & Builders; public, as the tokens lie on the table).
    pub fn goods(&self, p: PlayerId) -> [u8; 3] {
        self.traders.goods[p.index()]
    }

    /// What the part of the turn to play is: `None` for a turn's first
    /// part, `Some(Bonus::Builder)` for the builder's second tile. Moves
    /// must say the same ([`Move::bonus`]).
    pub fn bonus(&self) -> Option<Bonus> {
        self.bonus
    }

    /// Every figure on the board: followers (big or not), abbots, builders and pigs.
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

    /// Every draw of the game after the start tile: past draws (discards,
    /// redraws and hands included) and the bag in its hidden order. Only
    /// the keeper of the game (a server, a save) may look at this; players
    /// see [`Game::remaining`].
    pub fn deck(&self) -> &[TileId] {
        &self.deck
    }

    /// The draws made so far, in order.
    pub fn drawn(&self) -> &[TileId] {
        &self.deck[..self.next_draw]
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

    /// The tiles `p` holds: without a hand rule, the tile drawn by the
    /// player to move (and nothing for the others).
    pub fn hand(&self, p: PlayerId) -> &[TileId] {
        self.hands[p.index()].as_slice()
    }

    /// The tile the player to move must place (the first of their hand),
    /// or `None` once the game is over.
    pub fn tile(&self) -> Option<TileId> {
        if self.finished {
            return None;
        }
        self.hands[self.to_move.index()].as_slice().first().copied()
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

    /// Tiles still in the bag, by tile id. The order of the bag is hidden
    /// information: use this, not the deck.
    pub fn remaining(&self) -> [u8; TILE_KINDS] {
        let mut counts = [0u8; TILE_KINDS];
        for t in &self.deck[self.next_draw..] {
            counts[t.index()] += 1;
        }
        counts
    }

    /// Tiles a viewer cannot see, by tile id: the bag and the hands hidden
    /// from them. `sees(p)` says whether the viewer sees `p`'s hand (their
    /// own, or every hand with `hand_visible`). Two games with the same
    /// public history give the same counts to a viewer who cannot tell
    /// them apart, so nothing about the hidden hands leaks through them.
    pub fn unseen(&self, sees: impl Fn(PlayerId) -> bool) -> [u8; TILE_KINDS] {
        let mut counts = self.remaining();
        for p in (0..self.players).map(PlayerId) {
            if !sees(p) {
                for t in self.hand(p) {
                    counts[t.index()] += 1;
                }
            }
        }
        counts
    }

    /// Every tile of the game but the start tile, by tile id: placed,
    /// discarded (from the log), held and in the bag. A tile that went back
    /// into the bag (`reshuffle`) counts once.
    pub fn tile_counts(&self) -> [u8; TILE_KINDS] {
        let mut counts = self.unseen(|_| false);
        for t in self.board.tiles() {
            counts[t.tile.index()] += 1;
        }
        let start = self.start().0;
        counts[start.index()] = counts[start.index()].saturating_sub(1);
        for e in &self.events {
            if let Event::TileDiscarded { tile, .. } = e {
                counts[tile.index()] += 1;
            }
        }
        counts
    }

    /// How many tiles are still in the bag.
    pub fn tiles_left(&self) -> usize {
        self.deck.len() - self.next_draw
    }

    /// How many empty cells touch the placed tiles.
    pub fn frontier_len(&self) -> usize {
        self.board.frontier_cells().len()
    }

    /// Shuffles the bag's order only (hands stay as they are). For a
    /// player's sample of the unknown, use [`Game::resample_hidden`], which
    /// also reshuffles the hidden hands of the others.
    pub fn shuffle_bag(&mut self, rng: &mut impl RngCore) {
        let at = self.next_draw;
        shuffle_with(&mut self.deck[at..], rng);
    }

    /// Shuffles the tiles `viewer` cannot see: the bag and the hidden hands
    /// of the other players, dealt back into the same places. The game
    /// keeps everything the viewer knows and samples the rest (for search).
    pub fn resample_hidden(&mut self, viewer: PlayerId, rng: &mut impl RngCore) {
        let hidden: Vec<usize> = (0..self.players as usize)
            .filter(|&p| p != viewer.index() && !self.hand_visible_to_all(PlayerId(p as u8)))
            .collect();
        let mut pool: Vec<TileId> = hidden.iter().flat_map(|&p| self.hands[p].as_slice().to_vec()).collect();
        pool.extend_from_slice(&self.deck[self.next_draw..]);
        shuffle_with(&mut pool, rng);
        let mut it = pool.into_iter();
        for &p in &hidden {
            for i in 0..self.hands[p].len as usize {
                self.hands[p].tiles[i] = it.next().expect("as many tiles as were taken");
            }
        }
        for slot in &mut self.deck[self.next_draw..] {
            *slot = it.next().expect("as many tiles as were taken");
        }
    }

    /// Puts the tiles `viewer` cannot see in the given order: the hidden
    /// hands of the other players in seat order (each hand's slots in
    /// order), then the bag in draw order — the order in which
    /// [`Game::resample_hidden`] pools them. For search: a sample whose
    /// unknown tiles are arranged by the searcher alone.
    ///
    /// ```
    /// use carcassonne::{Game, PlayerId, Rules, Setup};
    ///
    /// let mut game = Game::new(Setup::standard(Rules::default(), 2, 1)).unwrap();
    /// let mut bag = game.deck()[game.drawn().len()..].to_vec();
    /// bag.reverse();
    /// game.set_hidden(PlayerId(0), &bag).unwrap();
    /// assert_eq!(&game.deck()[game.drawn().len()..], &bag[..]);
    /// bag.pop();
    /// assert!(game.set_hidden(PlayerId(0), &bag).is_err(), "a tile short");
    /// ```
    ///
    /// # Errors
    /// `tiles` is not an arrangement of exactly the tiles the viewer cannot
    /// see; the game is unchanged.
    pub fn set_hidden(&mut self, viewer: PlayerId, tiles: &[TileId]) -> Result<(), HiddenMismatch> {
        let visible = self.hand_visible_to_all(viewer);
        let hidden = |p: usize| p != viewer.index() && !visible;
        let mut counts = [0i32; TILE_KINDS];
        let mut n = 0;
        for p in (0..self.players as usize).filter(|&p| hidden(p)) {
            for t in self.hands[p].as_slice() {
                counts[t.index()] += 1;
                n += 1;
            }
        }
        for t in &self.deck[self.next_draw..] {
            counts[t.index()] += 1;
            n += 1;
        }
        for t in tiles {
            counts[t.index()] -= 1;
        }
        if n != tiles.len() || counts.iter().any(|&c| c != 0) {
            return Err(HiddenMismatch);
        }
        let mut it = tiles.iter().copied();
        for p in 0..self.players as usize {
            if hidden(p) {
                for slot in &mut self.hands[p].tiles[..self.hands[p].len as usize] {
                    *slot = it.next().expect("counted above");
                }
            }
        }
        for (slot, t) in self.deck[self.next_draw..].iter_mut().zip(it) {
            *slot = t;
        }
        Ok(())
    }

    /// Whether everyone sees what `p` holds: without a hand rule the drawn
    /// tile is on the table; with one, only if `hand_visible`.
    pub fn hand_visible_to_all(&self, _p: PlayerId) -> bool {
        !self.rules.hand_mode() || self.rules.hand_visible
    }

    pub(crate) fn log(&mut self, e: Event) {
        if self.log_events {
            self.events.push(e);
        }
    }

    fn next_seat(&self, p: PlayerId) -> PlayerId {
        PlayerId(if p.0 + 1 == self.players { 0 } else { p.0 + 1 })
    }

    /// The next tile from the bag, if any.
    fn draw(&mut self) -> Option<TileId> {
        let t = *self.deck.get(self.next_draw)?;
        self.next_draw += 1;
        Some(t)
    }

    /// Whether `tile` has a legal placement now.
    pub(crate) fn fits(&self, tile: TileId) -> bool {
        // The board holds at most MAX_TILES tiles; past that nothing fits.
        if self.board.tiles().len() >= MAX_TILES {
            false
        } else if tile.is_river() {
            self.river_rotations(tile).is_some_and(|(_, mask)| mask != 0)
        } else {
            self.board.fits_anywhere(tile)
        }
    }

    /// A drawn tile that fits nowhere: discarded, or with `reshuffle` sent
    /// back into the bag — unless nothing left in the bag fits, when the bag
    /// is discarded with it (rules.md, house rules).
    fn unplaceable(&mut self, tile: TileId) {
        let turn = TurnNo(self.moves + 1);
        if self.rules.unplaceable == Unplaceable::Reshuffle {
            let mut kinds = [false; TILE_KINDS];
            for &t in &self.deck[self.next_draw..] {
                kinds[t.index()] = true;
            }
            if TileId::all().any(|t| kinds[t.index()] && self.fits(t)) {
                if let Some(rng) = &mut self.live {
                    let span = (self.deck.len() - self.next_draw + 1) as u32;
                    let at = self.next_draw + uniform_below(rng, span) as usize;
                    self.deck.insert(at, tile);
                }
                // A fixed sequence of draws already holds the redraw.
                self.log(Event::TileReshuffled { turn, tile });
                return;
            }
            self.log(Event::TileDiscarded { turn, tile });
            while let Some(t) = self.draw() {
                self.log(Event::TileDiscarded { turn, tile: t });
            }
            return;
        }
        self.log(Event::TileDiscarded { turn, tile });
    }

    /// Starts the turn of the player to move: without a hand, draw until a
    /// tile fits; with one, replace the hand's tiles that fit nowhere.
    /// Players with empty hands are skipped; with nothing left to play, the
    /// game ends.
    pub(crate) fn begin_turn(&mut self) {
        for _ in 0..=MAX_PLAYERS {
            let p = self.to_move.index();
            if !self.rules.hand_mode() {
                self.hands[p] = Hand::EMPTY;
                while let Some(t) = self.draw() {
                    if self.fits(t) {
                        self.hands[p].push(t);
                        return;
                    }
                    self.unplaceable(t);
                }
                self.finish();
                return;
            }
            let mut i = 0;
            while i < self.hands[p].len as usize {
                let t = self.hands[p].tiles[i];
                if self.fits(t) {
                    i += 1;
                    continue;
                }
                self.unplaceable(t);
                match self.draw() {
                    Some(n) => self.hands[p].tiles[i] = n,
                    None => {
                        self.hands[p].remove(i);
                    }
                }
            }
            if self.hands[p].len > 0 {
                return;
            }
            if self.next_draw == self.deck.len() && self.hands.iter().all(|h| h.len == 0) {
                self.finish();
                return;
            }
            // An empty hand: the part or turns due to this player are lost.
            self.bonus = None;
            self.pending = 0;
            self.to_move = self.next_seat(self.to_move);
        }
        // Every seat was skipped: nobody holds a tile that can be played.
        self.finish();
    }

    /// Plays a move known to be legal (from [`Game::legal_moves`],
    /// [`Game::packed_placements`] and [`Game::actions_into`]): the fast path
    /// for search. An illegal move here corrupts the game.
    pub fn play_unchecked(&mut self, mv: &Move) {
        debug_assert_eq!(self.check(mv), Ok(()));
        let player = self.to_move;
        let p = player.index();
        if let Some(i) = self.hands[p].position(mv.tile) {
            self.hands[p].remove(i);
        }
        self.moves += 1;
        let turn = TurnNo(self.moves);
        let (idx, closed) = self.board.place(mv.tile, mv.rot, mv.pos);
        self.history.push(*mv);
        self.log(Event::TilePlaced { turn, player, tile: mv.tile, pos: mv.pos, rot: mv.rot });
        let rt = self.board.shape(&self.board.tiles()[idx]);
        if mv.tile.is_river() {
            self.river = self.river_after(mv.tile, mv.rot, mv.pos);
        }
        // Traders & Builders: whether this tile extends the builder's road
        // or city, read before anything is deployed (R5) or scored (R1); a
        // second part never earns a third (R2).
        let second_part = self.ext && self.second_part_due(player, idx);

        match mv.action {
            Action::Pass => {}
            Action::Follower(spot) => self.deploy(player, idx, rt, mv.pos, spot, Figure::Follower, turn),
            Action::Recall => self.recall(player, turn),
            // The abbot and the expansions' figures, away from the hot path.
            other => self.deploy_figure(player, idx, rt, mv.pos, other, turn),
        }

        // Roads and cities this tile completes (each once, however many of
        // its segments it has on the tile).
        let mut done = [u16::MAX; 4];
        let mut sides = rt.closable[closed as usize & 15];
        while sides != 0 {
            let d = sides.trailing_zeros() as usize;
            sides &= sides - 1;
            let root = self.board.find(self.board.segment(idx, rt.edge_seg[d]));
            // Not scored already (a look at all four, not a branch per one).
            let again = done.iter().fold(false, |again, &r| again | (r == root));
            if self.board.feature(root).open == 0 && !again {
                done[d] = root;
                self.score_completed(root, turn);
            }
        }
        // Cloisters and gardens, this tile's own and its neighbours': only an
        // occupied one scores, so look at the monks and abbots near the tile.
        let mut near = [u16::MAX; 9];
        let mut found = 0;
        let close = |p: Pos| ((p.x - mv.pos.x).abs() <= 1) & ((p.y - mv.pos.y).abs() <= 1);
        // Whether any is (one branch, not one per monk).
        let any = self.monks.iter().fold(false, |any, &p| any | close(p));
        let monks = if any { &self.followers[..] } else { &[][..] };
        for f in monks {
            if matches!(f.role, Role::Monk | Role::Abbot)
                && (f.pos.x - mv.pos.x).abs() <= 1
                && (f.pos.y - mv.pos.y).abs() <= 1
                && self.board.neighbours(f.pos) == 8
            {
                near[found] = f.seg;
                found += 1;
            }
        }
        for &seg in &near[..found] {
            self.score_cloister(seg, turn);
        }

        if self.rules.hand_mode() {
            while self.hands[p].len < self.rules.hand {
                match self.draw() {
                    Some(t) => self.hands[p].push(t),
                    None => break,
                }
            }
        }
        // The turn's end: the builder's second part first, then the turns
        // owed for holes filled (this part's included: expansions.md §5,
        // R2), then the next player.
        let filled = self.rules.hole_bonus_turn && self.board.surrounded(mv.pos);
        if filled {
            self.log(Event::BonusTurn { turn, player });
        }
        if (second_part | filled) || self.pending > 0 || self.bonus.is_some() {
            self.turn_end(second_part, filled);
        } else {
            self.to_move = self.next_seat(player);
        }
        self.begin_turn();
    }

    /// The builder's second part is due after this part (Traders &
    /// Builders): it is a first part, and its tile (index `idx`) extended
    /// the player's builder's road or city.
    #[inline(never)]
    fn second_part_due(&mut self, player: PlayerId, idx: usize) -> bool {
        self.bonus.is_none() && self.builder_extended(player, idx)
    }

    /// A part's end other than the plain one (the next seat): the
    /// builder's second part first, then a turn owed for each hole filled
    /// (`filled`: this part's included; expansions.md §5, R2).
    // Not `#[cold]`: the builder's second parts are common in the Big Box,
    // and the mark slowed its moves (docs/performance.md).
    #[inline(never)]
    fn turn_end(&mut self, second_part: bool, filled: bool) {
        self.pending += filled as u8;
        if second_part {
            self.bonus = Some(Bonus::Builder);
        } else if self.pending > 0 {
            self.pending -= 1;
            self.bonus = None;
        } else {
            self.bonus = None;
            self.to_move = self.next_seat(self.to_move);
        }
    }

    /// [`Game::deploy`] of the figure an action other than a follower's deploys.
    #[inline(never)]
    fn deploy_figure(
        &mut self,
        player: PlayerId,
        idx: usize,
        rt: &RotatedTile,
        pos: Pos,
        action: Action,
        turn: TurnNo,
    ) {
        if let Some((figure, spot)) = action.deploys() {
            self.deploy(player, idx, rt, pos, spot, figure, turn);
        }
    }

    /// Puts `player`'s `figure` on the segment at `spot` of the tile just
    /// placed (tile index `idx`, shape `rt`, at `pos`); the move was checked.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn deploy(
        &mut self,
        player: PlayerId,
        idx: usize,
        rt: &RotatedTile,
        pos: Pos,
        spot: Spot,
        figure: Figure,
        turn: TurnNo,
    ) {
        let p = player.index();
        let seg = rt.segment_at(spot, self.rules.abbot).expect("a checked spot");
        let id = self.board.segment(idx, seg);
        let root = self.board.find(id);
        self.board.feature_mut(root).meeples += figure.weight() << (4 * player.0);
        let role = match figure {
            Figure::Follower => {
                self.supply[p] -= 1;
                Role::on(rt.seg_kind[seg as usize])
            }
            Figure::BigFollower => {
                self.home[p] &= !figure.home_bit();
                Role::on(rt.seg_kind[seg as usize])
            }
            Figure::Abbot => {
                self.home[p] &= !figure.home_bit();
                self.abbot_at[p] = pos;
                Role::Abbot
            }
            Figure::Builder | Figure::Pig => {
                self.home[p] &= !figure.home_bit();
                if figure == Figure::Builder {
                    Role::Builder
                } else {
                    Role::Pig
                }
            }
        };
        if matches!(role, Role::Monk | Role::Abbot) {
            self.monks.push(pos);
        }
        let big = figure == Figure::BigFollower;
        if figure == Figure::Builder {
            self.traders.builder_at[p] = id;
        }
        if self.ext {
            self.traders.count(p, role, 1);
        }
        self.followers.push(Follower { player, pos, spot, role, big, seg: id });
        self.log(Event::FollowerDeployed { turn, player, pos, spot, role, big });
    }

    /// Where the river's open end is after `tile` is placed at `pos` turned
    /// `rot` at the current open end.
    fn river_after(&self, tile: TileId, rot: Rotation, pos: Pos) -> Option<RiverEnd> {
        let end = self.river?;
        let rt = tile.rotated(rot);
        let back = end.flow.opposite();
        let out = Dir::ALL.into_iter().find(|&d| d != back && rt.river & (1 << d.index()) != 0)?;
        Some(RiverEnd { cell: pos.step(out), flow: out, last_turn: river_turn(end.flow, out) })
    }
}

/// The one-of figures each player starts with under `rules`.
fn home_figures(rules: &Rules) -> u8 {
    let bit = |on: bool, figure: Figure| if on { figure.home_bit() } else { 0 };
    bit(rules.abbot, Figure::Abbot)
        | bit(rules.has_big_follower(), Figure::BigFollower)
        | bit(rules.has_builder(), Figure::Builder)
        | bit(rules.has_pig(), Figure::Pig)
}

/// The checks [`Game::new`] makes of a setup.
fn check_setup(setup: &Setup) -> Result<(), SetupError> {
    if !(2..=MAX_PLAYERS).contains(&setup.players) {
        return Err(SetupError::PlayerCount(setup.players));
    }
    if setup.deck.len() > MAX_DECK {
        return Err(SetupError::DeckTooLong(setup.deck.len()));
    }
    if setup.first.index() >= setup.players {
        return Err(SetupError::FirstPlayer(setup.first.0));
    }
    setup.rules.validate().map_err(SetupError::Rules)?;
    // expansions.md §5: an expansion's tile only with the expansion.
    // The expansions the tiles come from, gathered without a branch per
    // tile (a game is set up many times a second in benches and search);
    // the tile to name looked for only if one is not in play.
    let start = std::iter::once(&setup.start);
    let from = start.clone().chain(&setup.deck).fold(0u8, |m, t| m | t.expansion().map_or(0, |e| 1 << e as u8));
    if crate::expansion::Expansion::ALL.iter().any(|&e| from & (1 << e as u8) != 0 && !setup.rules.has(e)) {
        if let Some((tile, expansion)) =
            start.chain(&setup.deck).find_map(|t| t.expansion().filter(|&e| !setup.rules.has(e)).map(|e| (*t, e)))
        {
            return Err(SetupError::TileNotInPlay { tile, expansion });
        }
    }
    Ok(())
}

/// The tiles given to [`Game::set_hidden`] are not the ones hidden from the viewer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HiddenMismatch;

impl std::fmt::Display for HiddenMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not an arrangement of the tiles hidden from this player")
    }
}

impl std::error::Error for HiddenMismatch {}

/// -1 for a left turn, 1 for a right turn, 0 straight: flowing `from`,
/// then leaving towards `to`.
pub(crate) fn river_turn(from: Dir, to: Dir) -> i8 {
    match (to.index() + 4 - from.index()) % 4 {
        1 => 1,
        3 => -1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::IllegalMove;

    fn id(s: &str) -> TileId {
        TileId::from_name(s).unwrap()
    }

    #[test]
    fn a_two_tile_city_scores_four() {
        // E turned twice puts its city cap south, under D's city at (0,0).
        let mut g = Game::new(Setup::with_deck(Rules::default(), 2, vec![id("E")])).unwrap();
        let mv = Move {
            tile: id("E"),
            pos: Pos::new(0, -1),
            rot: Rotation::new(2).unwrap(),
            action: Action::Follower(Spot::S),
            bonus: None,
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
        let mv = Move {
            tile: id("E"),
            pos: Pos::new(0, -1),
            rot: Rotation::new(0).unwrap(),
            action: Action::Pass,
            bonus: None,
        };
        assert!(matches!(g.play(&mv), Err(IllegalMove::EdgeMismatch { .. })));
        assert_eq!(before, format!("{:?}", g));
    }

    #[test]
    fn a_restarted_game_plays_as_a_new_one() {
        use crate::random::RandomMover;
        let table = Rules { board_limit: Some((7, 7)), border_completes: true, ..Rules::default() };
        let river = Rules { river: true, abbot: true, ..Rules::default() };
        let setups = [(table, 3, 5), (Rules::default(), 2, 6), (river, 4, 7), (table, 2, 8)];
        let mut reused = Game::new(Setup::standard(Rules::default(), 2, 1)).unwrap();
        let mut mover = RandomMover::new();
        mover.playout(&mut reused, &mut crate::seeded_rng(0));
        for (rules, players, seed) in setups {
            reused.restart(Setup::standard(rules, players, seed)).unwrap();
            let mut fresh = Game::new(Setup::standard(rules, players, seed)).unwrap();
            mover.playout(&mut reused, &mut crate::seeded_rng(seed));
            mover.playout(&mut fresh, &mut crate::seeded_rng(seed));
            assert!(fresh.moves_played() > 0);
            assert_eq!(reused.history(), fresh.history(), "{rules:?}");
            assert_eq!(reused.scores(), fresh.scores());
            assert_eq!(reused.events(), fresh.events());
        }
        // A bad setup changes nothing.
        let before = format!("{reused:?}");
        assert!(reused.restart(Setup::standard(Rules::default(), 9, 1)).is_err());
        assert_eq!(before, format!("{reused:?}"));
    }

    #[test]
    fn river_turns_are_relative_to_the_flow() {
        // Flowing south, leaving west is a right turn (facing south, west is on the right).
        assert_eq!(river_turn(Dir::S, Dir::W), 1);
        assert_eq!(river_turn(Dir::S, Dir::E), -1);
        assert_eq!(river_turn(Dir::S, Dir::S), 0);
        assert_eq!(river_turn(Dir::E, Dir::S), 1);
    }
}
