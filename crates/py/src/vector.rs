//! The core of the batched environment (`carcassonne.vector`): N games
//! stepped by one call that releases the GIL and runs on several threads, in
//! the manner of EnvPool. Each game is one seat (the learner) against
//! built-in bots, as in `SingleAgentEnv`; the bots play inside the call. In
//! self-play (opponents `["self"]`) the learner plays every seat, one move a
//! step, and the observation is the view of the seat to move.
//!
//! The observations are written in place into numpy arrays the batch
//! allocates once (`buffers()`), with the single environment's layout
//! (python/README.md, "Observations") plus a leading batch axis. A step
//! writes only what the moves changed: the board planes at the cells of the
//! tiles just placed, the `last_placed` cell, the figure planes at the
//! cells that held or hold a figure, the per-seat vectors, and the legal
//! actions (cleared at the old ones, set at the new ones in the flat mask).
//! A game is cleared in full only when it starts.
//!
//! Games that ended (terminated or truncated) are reset by the next step,
//! whose action for them is ignored (Gymnasium's next-step autoreset).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use carcassonne::Figure as Kind;
use carcassonne::{Follower, Game, PlayerId, Pos, Rotation, Rules, Setup, TileId, View};
use carcassonne_ai::BotSpec;
use numpy::{Element, PyArrayDyn, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand_core::RngCore;
use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::env::{decision, SeatArrays, Spaces, LAST_PLACED};
use crate::{parse_rules, setup_error, CarcassonneError, IllegalMoveError};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VecCore>()
}

/// What every game of a batch shares: rules, seats, window and sizes.
struct Layout {
    /// The shapes of the observation and action spaces.
    sp: Spaces,
    rules: Rules,
    players: usize,
    seat: PlayerId,
    slots: usize,
    planes: usize,
    actions: usize,
    /// The length of the `legal_actions` rows (at most `legal_room`
    /// actions of a game are listed there).
    max_legal: usize,
    /// The most legal actions a game can have ([`Layout::legal_bound`]).
    legal_room: usize,
    flat_mask: bool,
    score_reward: bool,
    illegal_lose: bool,
    /// One bot per other seat, in seat order (none in self-play).
    opponents: Vec<BotSpec>,
    /// Self-play: the learner plays every seat, one move a step, and each
    /// observation is the view of the seat to move.
    self_play: bool,
    /// Each window cell's position.
    cell_pos: Vec<Pos>,
}

impl Layout {
    fn cells(&self) -> usize {
        self.sp.cells()
    }

    fn cell(&self, pos: Pos) -> Option<usize> {
        self.sp.cell(pos)
    }

    fn mask_len(&self) -> usize {
        if self.flat_mask {
            self.actions
        } else {
            0
        }
    }

    /// Each game's length in every output array, in `Out`'s field order.
    fn lengths(&self) -> [usize; LENGTHS] {
        let n = self.players;
        let kinds = self.sp.tile_kinds;
        // The expansions' arrays are empty without one.
        let x = if self.sp.expansions { 1 } else { 0 };
        [
            self.planes * self.cells(),
            n * self.slots * kinds,
            n,
            kinds,
            n,
            n,
            n,
            n,
            self.mask_len(),
            self.max_legal,
            1,
            1,
            1,
            1,
            1,
            1,
            n,
            x * n,
            x * n,
            x * n,
            x * 3 * n,
            x,
        ]
    }

    /// The most legal actions a turn can have: per tile of the hand, per
    /// frontier cell (at most 4 + 2 per tile of the deck, and inside the
    /// window), 4 rotations, and per placement a pass, per segment a
    /// follower (and the big follower, builder or pig of the expansions),
    /// and two abbot spots or a recall.
    fn legal_bound(sp: &Spaces, deck: usize) -> usize {
        let rules = &sp.rules;
        let segments = TileId::all().map(|t| t.def().segments.len()).max().unwrap_or(0);
        let figures =
            1 + [rules.has_big_follower(), rules.has_builder(), rules.has_pig()].iter().filter(|&&b| b).count();
        let decisions = (1 + figures * segments + if rules.abbot { 2 } else { 0 }).min(sp.decisions);
        sp.slots * sp.cells().min(4 + 2 * deck) * 4 * decisions
    }
}

/// The output arrays of a run of consecutive games; each game's part of an
/// array is contiguous (the batch axis comes first).
struct Out<'a> {
    board: &'a mut [u8],
    hands: &'a mut [u8],
    hand_sizes: &'a mut [u8],
    unseen: &'a mut [u8],
    scores: &'a mut [i32],
    supply: &'a mut [u8],
    abbot: &'a mut [u8],
    to_move: &'a mut [u8],
    mask: &'a mut [i8],
    legal: &'a mut [i32],
    legal_count: &'a mut [i32],
    reward: &'a mut [f64],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    illegal: &'a mut [bool],
    seat: &'a mut [i32],
    /// The scores by seat (`scores` is by seat relative to the viewer).
    seat_scores: &'a mut [i32],
    /// The expansions' arrays (empty without one).
    big_follower: &'a mut [u8],
    builder: &'a mut [u8],
    pig: &'a mut [u8],
    goods: &'a mut [u8],
    bonus: &'a mut [u8],
}

/// How many arrays `Out` has.
const LENGTHS: usize = 22;

impl<'a> Out<'a> {
    /// Game `i`'s part of every array, given each game's `lengths`
    /// ([`Layout::lengths`]).
    fn game(&mut self, i: usize, lengths: &[usize; LENGTHS]) -> Out<'_> {
        fn at<T>(s: &mut [T], i: usize, l: usize) -> &mut [T] {
            &mut s[i * l..(i + 1) * l]
        }
        let l = lengths;
        Out {
            board: at(self.board, i, l[0]),
            hands: at(self.hands, i, l[1]),
            hand_sizes: at(self.hand_sizes, i, l[2]),
            unseen: at(self.unseen, i, l[3]),
            scores: at(self.scores, i, l[4]),
            supply: at(self.supply, i, l[5]),
            abbot: at(self.abbot, i, l[6]),
            to_move: at(self.to_move, i, l[7]),
            mask: at(self.mask, i, l[8]),
            legal: at(self.legal, i, l[9]),
            legal_count: at(self.legal_count, i, l[10]),
            reward: at(self.reward, i, l[11]),
            terminated: at(self.terminated, i, l[12]),
            truncated: at(self.truncated, i, l[13]),
            illegal: at(self.illegal, i, l[14]),
            seat: at(self.seat, i, l[15]),
            seat_scores: at(self.seat_scores, i, l[16]),
            big_follower: at(self.big_follower, i, l[17]),
            builder: at(self.builder, i, l[18]),
            pig: at(self.pig, i, l[19]),
            goods: at(self.goods, i, l[20]),
            bonus: at(self.bonus, i, l[21]),
        }
    }

    /// The first `games` games, and the rest.
    fn split(self, games: usize, layout: &Layout) -> (Out<'a>, Out<'a>) {
        let [l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19, l20, l21] =
            layout.lengths().map(|l| l * games);
        let (board, board2) = self.board.split_at_mut(l0);
        let (hands, hands2) = self.hands.split_at_mut(l1);
        let (hand_sizes, hand_sizes2) = self.hand_sizes.split_at_mut(l2);
        let (unseen, unseen2) = self.unseen.split_at_mut(l3);
        let (scores, scores2) = self.scores.split_at_mut(l4);
        let (supply, supply2) = self.supply.split_at_mut(l5);
        let (abbot, abbot2) = self.abbot.split_at_mut(l6);
        let (to_move, to_move2) = self.to_move.split_at_mut(l7);
        let (mask, mask2) = self.mask.split_at_mut(l8);
        let (legal, legal2) = self.legal.split_at_mut(l9);
        let (legal_count, legal_count2) = self.legal_count.split_at_mut(l10);
        let (reward, reward2) = self.reward.split_at_mut(l11);
        let (terminated, terminated2) = self.terminated.split_at_mut(l12);
        let (truncated, truncated2) = self.truncated.split_at_mut(l13);
        let (illegal, illegal2) = self.illegal.split_at_mut(l14);
        let (seat, seat2) = self.seat.split_at_mut(l15);
        let (seat_scores, seat_scores2) = self.seat_scores.split_at_mut(l16);
        let (big_follower, big_follower2) = self.big_follower.split_at_mut(l17);
        let (builder, builder2) = self.builder.split_at_mut(l18);
        let (pig, pig2) = self.pig.split_at_mut(l19);
        let (goods, goods2) = self.goods.split_at_mut(l20);
        let (bonus, bonus2) = self.bonus.split_at_mut(l21);
        (
            Out {
                board,
                hands,
                hand_sizes,
                unseen,
                scores,
                supply,
                abbot,
                to_move,
                mask,
                legal,
                legal_count,
                reward,
                terminated,
                truncated,
                illegal,
                seat,
                seat_scores,
                big_follower,
                builder,
                pig,
                goods,
                bonus,
            },
            Out {
                board: board2,
                hands: hands2,
                hand_sizes: hand_sizes2,
                unseen: unseen2,
                scores: scores2,
                supply: supply2,
                abbot: abbot2,
                to_move: to_move2,
                mask: mask2,
                legal: legal2,
                legal_count: legal_count2,
                reward: reward2,
                terminated: terminated2,
                truncated: truncated2,
                illegal: illegal2,
                seat: seat2,
                seat_scores: seat_scores2,
                big_follower: big_follower2,
                builder: builder2,
                pig: pig2,
                goods: goods2,
                bonus: bonus2,
            },
        )
    }
}

/// What a call does to one game.
#[derive(Copy, Clone, Debug)]
enum Choice {
    /// Leave it as it is (a partial reset).
    Keep,
    /// Start a new game from this seed.
    Start(u64),
    /// Play the learner's legal move of this index (in action order).
    Play(usize),
    /// An illegal action under `illegal="lose"`: the episode ends, reward -1.
    Lose,
}

/// A figure as the board planes show it, packed (so that lists of them
/// sort and compare fast): its cell, relative seat, role and spot (index + 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Figure(u64);

impl Figure {
    fn new(cell: usize, (seat, roles, spot): (usize, u8, u8)) -> Figure {
        Figure((cell as u64) << 24 | (seat as u64) << 16 | u64::from(roles) << 8 | u64::from(spot))
    }

    /// Sets its planes to `on` (or back to zero): the seat, the roles and the spot.
    fn draw(self, board: &mut [u8], layout: &Layout, on: bool) {
        let cell = (self.0 >> 24) as usize;
        let figure = ((self.0 >> 16) as u8 as usize, (self.0 >> 8) as u8, self.0 as u8);
        layout.sp.write_figure(board, cell, figure, on);
    }

    /// The same figure seen `by` seats further on (its relative seat moves
    /// on by that, modulo the seats), its seat plane redrawn: the role and
    /// spot planes stay.
    fn reseat(&mut self, board: &mut [u8], layout: &Layout, by: usize) {
        let n = layout.players;
        let (cell, seat) = ((self.0 >> 24) as usize, (self.0 >> 16) as u8 as usize);
        let moved = seat + by;
        let moved = if moved >= n { moved - n } else { moved };
        layout.sp.reseat(board, cell, seat, moved);
        self.0 = self.0 & !(0xFF << 16) | (moved as u64) << 16;
    }
}

/// One game of the batch and what its observation last held.
struct Table {
    game: Game,
    /// The learner's legal moves inside the window, by flat action,
    /// ascending (a move is decoded from its action when played): the
    /// first `n_legal` entries of a buffer as long as the longest list
    /// (`Layout::legal_bound`), written by index.
    legal: Vec<u32>,
    n_legal: usize,
    /// How many entries of the `legal_actions` row hold an action.
    listed: usize,
    /// The figures the board planes show.
    figures: Vec<Figure>,
    scratch: Vec<Figure>,
    /// The game's followers when `figures` were drawn (most moves change
    /// none: their figures are then not listed again).
    drawn: Vec<Follower>,
    /// The cell whose `last_placed` plane is set.
    last: Option<usize>,
    /// The seat whose view the observation holds: the learner's, or in
    /// self-play the seat to move (at the end, the last to move).
    viewer: PlayerId,
    /// The seat the figure planes are drawn for (seats are relative).
    drawn_for: PlayerId,
    /// The viewer's score at the last observation.
    score: u32,
    seed: u64,
    /// Whether the episode ended: the next step starts a new one.
    done: bool,
    /// The window's cells where a tile fits, a bit each (`Table::collect_legal`).
    fit_cells: Vec<u64>,
    /// The rotations that fit there, by cell (only those cells are read).
    fit_rots: Vec<u8>,
}

impl Table {
    fn new(layout: &Layout, game: Game) -> Table {
        Table {
            game,
            legal: vec![0; layout.legal_room],
            n_legal: 0,
            listed: layout.max_legal,
            figures: Vec::new(),
            scratch: Vec::new(),
            drawn: Vec::new(),
            last: None,
            viewer: layout.seat,
            drawn_for: layout.seat,
            score: 0,
            seed: 0,
            done: false,
            fit_cells: vec![0; layout.cells().div_ceil(64)],
            fit_rots: vec![0; layout.cells()],
        }
    }

    /// The learner's legal moves inside the window, by flat action, ascending.
    fn legal(&self) -> &[u32] {
        &self.legal[..self.n_legal]
    }

    fn run(&mut self, layout: &Layout, choice: Choice, out: &mut Out<'_>) {
        match choice {
            Choice::Keep => {}
            Choice::Start(seed) => self.start(layout, seed, out),
            Choice::Lose => {
                out.reward[0] = -1.0;
                out.terminated[0] = true;
                out.truncated[0] = false;
                out.illegal[0] = true;
                self.done = true;
            }
            Choice::Play(i) => self.play(layout, i, out),
        }
    }

    /// A new game from `seed`, as `SingleAgentEnv.reset` makes it, the
    /// bots played up to the learner's first turn.
    fn start(&mut self, layout: &Layout, seed: u64, out: &mut Out<'_>) {
        let setup = Setup::standard(layout.rules, layout.players, seed);
        // The rules and seat count were checked when the batch was made,
        // and a setup's validity depends on nothing else.
        self.game.restart(setup).expect("a checked setup");
        self.seed = seed;
        self.done = false;
        self.play_bots(layout);
        self.viewer = self.next_viewer(layout, layout.seat);
        out.board.fill(0);
        out.mask.fill(0);
        self.figures.clear();
        self.drawn.clear();
        self.drawn_for = self.viewer;
        self.last = None;
        for t in self.game.board().tiles() {
            if let Some(c) = layout.cell(t.pos) {
                layout.sp.write_tile(out.board, c, t);
            }
        }
        self.score = self.game.scores()[self.viewer.index()];
        self.observe(layout, self.game.history().len(), out);
        out.reward[0] = 0.0;
        out.terminated[0] = false;
        out.truncated[0] = false;
        out.illegal[0] = false;
    }

    /// Rewrites the game's observation in full from its game (a table
    /// restored from a pickle), as `start` writes a new game's.
    fn redraw(&mut self, layout: &Layout, out: &mut Out<'_>) {
        out.board.fill(0);
        out.mask.fill(0);
        self.n_legal = 0;
        self.figures.clear();
        self.drawn.clear();
        self.drawn_for = self.viewer;
        self.last = None;
        for t in self.game.board().tiles() {
            if let Some(c) = layout.cell(t.pos) {
                layout.sp.write_tile(out.board, c, t);
            }
        }
        self.score = self.game.scores()[self.viewer.index()];
        self.observe(layout, self.game.history().len(), out);
    }

    /// The bots' turns up to the learner's, each bot seeded from the game's
    /// seed and the move number as `SingleAgentEnv` seeds them.
    fn play_bots(&mut self, layout: &Layout) {
        if layout.self_play {
            return;
        }
        while let Some(p) = self.game.to_move().filter(|&p| p != layout.seat) {
            let k = if p.index() < layout.seat.index() { p.index() } else { p.index() - 1 };
            let turn_seed = self.seed.wrapping_mul(1_000_003).wrapping_add(u64::from(self.game.moves_played()));
            match layout.opponents[k].build(turn_seed).choose(&View::new(&self.game, p)) {
                Some(mv) => self.game.play_unchecked(&mv),
                None => break,
            }
        }
    }

    /// The seat whose view to write next: the learner's, or in self-play
    /// the seat to move (`mover` once the game is over).
    fn next_viewer(&self, layout: &Layout, mover: PlayerId) -> PlayerId {
        if layout.self_play {
            self.game.to_move().unwrap_or(mover)
        } else {
            layout.seat
        }
    }

    /// The viewer plays its legal move `i`, the bots answer. The reward is
    /// the mover's (in self-play, the seat that just moved).
    fn play(&mut self, layout: &Layout, i: usize, out: &mut Out<'_>) {
        let from = self.game.history().len();
        let mover = self.viewer;
        let mv =
            layout.sp.action_move(&self.game, self.legal()[i] as usize).expect("a listed action is a move of the hand");
        self.game.play_unchecked(&mv);
        self.play_bots(layout);
        let score = self.game.scores()[mover.index()];
        let mut reward = if layout.score_reward { f64::from(score) - f64::from(self.score) } else { 0.0 };
        let over = self.game.is_over();
        if over && !layout.score_reward {
            reward += end_reward(&self.game, mover);
        }
        self.viewer = self.next_viewer(layout, mover);
        self.score = self.game.scores()[self.viewer.index()];
        self.observe(layout, from, out);
        out.reward[0] = reward;
        out.terminated[0] = over;
        out.truncated[0] = !over && self.n_legal == 0;
        out.illegal[0] = false;
        self.done = out.terminated[0] || out.truncated[0];
    }

    /// Writes what changed since move `from` of the history.
    fn observe(&mut self, layout: &Layout, from: usize, out: &mut Out<'_>) {
        let cells = layout.cells();
        let board = &mut *out.board;
        for mv in &self.game.history()[from..] {
            if let (Some(c), Some(t)) = (layout.cell(mv.pos), self.game.board().tile_at(mv.pos)) {
                layout.sp.write_tile(board, c, t);
            }
        }
        if let Some(c) = self.last.take() {
            board[LAST_PLACED * cells + c] = 0;
        }
        self.last = self.game.history().last().and_then(|m| layout.cell(m.pos));
        if let Some(c) = self.last {
            board[LAST_PLACED * cells + c] = 1;
        }

        // Each cell holds at most one figure (one goes only on the tile just
        // placed): clear the figures that left, draw the ones that came.
        let n = layout.players;
        if self.drawn_for != self.viewer {
            // Another seat's view: every figure's relative seat changes, and
            // only that (their order stays: one figure a cell, cells first).
            let by = self.drawn_for.index() + n - self.viewer.index();
            let by = if by >= n { by - n } else { by };
            for f in &mut self.figures {
                f.reseat(board, layout, by);
            }
            self.drawn_for = self.viewer;
        }
        if self.game.followers() != self.drawn {
            let mut figures = std::mem::take(&mut self.scratch);
            figures.clear();
            for f in self.game.followers() {
                if let Some(c) = layout.cell(f.pos) {
                    figures.push(Figure::new(c, layout.sp.figure_of(f, self.viewer)));
                }
            }
            figures.sort_unstable();
            for f in self.figures.iter().filter(|f| figures.binary_search(f).is_err()) {
                f.draw(board, layout, false);
            }
            for f in figures.iter().filter(|f| self.figures.binary_search(f).is_err()) {
                f.draw(board, layout, true);
            }
            self.scratch = std::mem::replace(&mut self.figures, figures);
            self.drawn.clear();
            self.drawn.extend_from_slice(self.game.followers());
        }

        let me = self.viewer;
        out.seat[0] = me.index() as i32;
        let view = View::new(&self.game, me);
        for (s, &v) in out.seat_scores.iter_mut().zip(view.scores()) {
            *s = v as i32;
        }
        let seats = SeatArrays {
            hands: out.hands,
            hand_sizes: out.hand_sizes,
            unseen: out.unseen,
            scores: out.scores,
            supply: out.supply,
            abbot: out.abbot,
            to_move: out.to_move,
            big_follower: out.big_follower,
            builder: out.builder,
            pig: out.pig,
            goods: out.goods,
            bonus: out.bonus,
        };
        layout.sp.write_seats(&view, seats);

        let masked = !out.mask.is_empty();
        if masked {
            for &k in self.legal() {
                if let Some(m) = out.mask.get_mut(k as usize) {
                    *m = 0;
                }
            }
        }
        self.collect_legal(layout);
        if masked {
            for &k in self.legal() {
                if let Some(m) = out.mask.get_mut(k as usize) {
                    *m = 1;
                }
            }
        }
        let listed = self.n_legal.min(layout.max_legal);
        for (slot, &k) in out.legal.iter_mut().zip(self.legal()) {
            *slot = k as i32;
        }
        if self.listed > listed {
            out.legal[listed..self.listed].fill(-1);
        }
        self.listed = listed;
        out.legal_count[0] = self.n_legal as i32;
    }

    /// The learner's legal moves inside the window (none unless it is to
    /// move), as `Game::legal_moves` lists them, with their actions.
    ///
    /// They come out in ascending action order without sorting: slots
    /// ascending, each slot's placements by cell (read from a set of bits)
    /// and rotation, and each placement's decisions listed in order from a
    /// set of bits.
    fn collect_legal(&mut self, layout: &Layout) {
        let Table { game, legal, n_legal, fit_cells, fit_rots, viewer, .. } = self;
        *n_legal = 0;
        let me = *viewer;
        if game.to_move() != Some(me) {
            return;
        }
        // The list's length kept in a local while it is written.
        let mut n = 0;
        // No follower left and no abbot in the rules (most turns of a
        // random game's second half): every placement's one decision is
        // to pass, as `Game::each_action` would list it.
        let pass_only = game.supply(me) == 0
            && !game.rules().abbot
            && !(layout.sp.expansions
                && [Kind::BigFollower, Kind::Builder, Kind::Pig].into_iter().any(|f| game.in_supply(me, f)));
        for (slot, tile) in game.tiles_to_place().take_while(|&(slot, _)| slot < layout.slots) {
            // The window's cells where the tile fits, then read in cell
            // order from their bits (no sort), each bit cleared as it is read.
            game.each_fit(tile, |pos, rots| {
                if let Some(cell) = layout.cell(pos) {
                    fit_cells[cell / 64] |= 1 << (cell % 64);
                    fit_rots[cell] = rots;
                }
            });
            for (w, word) in fit_cells.iter_mut().enumerate() {
                while *word != 0 {
                    let cell = w * 64 + word.trailing_zeros() as usize;
                    *word &= *word - 1;
                    let rots = fit_rots[cell];
                    // Per rotation, the decisions as a set (followers come by
                    // segment, not always by spot), listed in ascending order
                    // from it.
                    let mut sets = [1u64 << PASS; 4];
                    if !pass_only {
                        sets = [0; 4];
                        let pos = layout.cell_pos[cell];
                        game.each_action_at(tile, pos, rots, |rot, a| {
                            // Every action the engine lists has a decision
                            // of the rules' table (the base game's rules
                            // list none of the expansions': tested over
                            // random games against `EnvCore`).
                            if let Some(d) = decision(a) {
                                debug_assert!(d < layout.sp.decisions);
                                sets[rot.quarter_turns() as usize] |= 1 << d;
                            }
                        });
                    }
                    let mut rots = rots;
                    while rots != 0 {
                        let r = rots.trailing_zeros() as usize;
                        rots &= rots - 1;
                        let base = layout.sp.flat_action(slot, cell, Rotation::ALL[r], 0) as u32;
                        let mut set = sets[r];
                        while set != 0 {
                            legal[n] = base + set.trailing_zeros();
                            n += 1;
                            set &= set - 1;
                        }
                    }
                }
            }
        }
        // Strictly ascending by construction (checked, which costs less
        // than sorting and removing repeats would).
        let listed = &mut legal[..n];
        if !listed.is_sorted_by(|a, b| a < b) {
            listed.sort_unstable();
            let mut kept = 0;
            for i in 0..n {
                if kept == 0 || listed[i] != listed[kept - 1] {
                    listed[kept] = listed[i];
                    kept += 1;
                }
            }
            n = kept;
        }
        *n_legal = n;
    }
}

// A placement's decisions fit one `u64` set (`Table::collect_legal`).
const _: () = assert!(crate::env::ALL_DECISIONS <= 64);
/// The pass's decision.
const PASS: usize = 0;

/// +1 for a winner and -1 for the others, 0 when everyone ties (as `SingleAgentEnv`).
fn end_reward(game: &Game, seat: PlayerId) -> f64 {
    let winners = game.winners();
    if winners.iter().count() == game.num_players() {
        0.0
    } else if winners.iter().any(|p| p == seat) {
        1.0
    } else {
        -1.0
    }
}

/// The next game's seed of a table, drawn from its last one.
fn next_seed(seed: u64) -> u64 {
    carcassonne::seeded_rng(seed).next_u64() >> 1
}

/// Games per chunk of work handed to a thread: small enough that a thread
/// woken late, or a chunk of slow turns (a game's start, its final
/// scoring), leaves little for the others to wait for.
const CHUNK: usize = 8;

/// Runs each table's choice on the calling thread and the pool's threads
/// (kept from call to call: a thread started per call cost more than a
/// step's work on small batches).
///
/// The tables go in chunks of [`CHUNK`]. Thread `k` starts at the `k`-th
/// share of the chunks and goes on past its share, skipping chunks already
/// taken: each thread keeps to its own games from call to call (and their
/// memory to its core's cache) while all are awake, and a thread that
/// wakes late finds its share done by the others instead of holding the
/// call up.
fn run_all(layout: &Layout, tables: &mut [Table], choices: &[Choice], out: Out<'_>, pool: Option<&Pool>) {
    fn serial(layout: &Layout, tables: &mut [Table], choices: &[Choice], mut out: Out<'_>) {
        let lengths = layout.lengths();
        for (i, (t, &c)) in tables.iter_mut().zip(choices).enumerate() {
            t.run(layout, c, &mut out.game(i, &lengths));
        }
    }
    let Some(Pool { threads: pool, warm }) = pool.filter(|_| tables.len() > CHUNK) else {
        return serial(layout, tables, choices, out);
    };
    // The threads kept warm since the last call stop spinning.
    let call = warm.fetch_add(1, Ordering::Relaxed) + 1;
    type Chunk<'t, 'o> = (&'t mut [Table], &'t [Choice], Out<'o>);
    let mut chunks: Vec<std::sync::Mutex<Option<Chunk<'_, '_>>>> = Vec::with_capacity(tables.len().div_ceil(CHUNK));
    let (mut rest_t, mut rest_c, mut rest_o) = (tables, choices, out);
    while !rest_t.is_empty() {
        let n = rest_t.len().min(CHUNK);
        let (t, t2) = rest_t.split_at_mut(n);
        let (c, c2) = rest_c.split_at(n);
        let (o, o2) = rest_o.split(n, layout);
        chunks.push(std::sync::Mutex::new(Some((t, c, o))));
        (rest_t, rest_c, rest_o) = (t2, c2, o2);
    }
    let threads = pool.current_num_threads() + 1;
    let work = |k: usize| {
        let first = k * chunks.len() / threads;
        for i in (first..chunks.len()).chain(0..first) {
            // A chunk is taken once; a poisoned lock only means another
            // thread panicked, and the chunk is still whole or gone.
            let taken = chunks[i].lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some((t, c, o)) = taken {
                serial(layout, t, c, o);
            }
        }
    };
    pool.in_place_scope(|s| {
        for k in 1..threads {
            let work = &work;
            s.spawn(move |_| work(k));
        }
        work(0);
    });
    // Keep the pool's threads awake through the caller's Python between
    // two steps (tens of µs): a sleeping thread wakes 25 to 45 µs late.
    for _ in 1..threads {
        let warm = Arc::clone(warm);
        pool.spawn(move || {
            let started = Instant::now();
            while warm.load(Ordering::Relaxed) == call && started.elapsed() < WARM {
                for _ in 0..64 {
                    std::hint::spin_loop();
                }
            }
        });
    }
}

/// How long the pool's threads spin after a step, waiting for the next.
const WARM: Duration = Duration::from_micros(500);

/// The threads that step games beside the caller's, and the number of the
/// last call (a change tells the threads kept warm to stop spinning).
struct Pool {
    threads: ThreadPool,
    warm: Arc<AtomicU64>,
}

/// The numpy arrays a batch writes into.
struct Arrays {
    board: Py<PyArrayDyn<u8>>,
    hands: Py<PyArrayDyn<u8>>,
    hand_sizes: Py<PyArrayDyn<u8>>,
    unseen: Py<PyArrayDyn<u8>>,
    scores: Py<PyArrayDyn<i32>>,
    supply: Py<PyArrayDyn<u8>>,
    abbot: Py<PyArrayDyn<u8>>,
    to_move: Py<PyArrayDyn<u8>>,
    mask: Py<PyArrayDyn<i8>>,
    legal: Py<PyArrayDyn<i32>>,
    legal_count: Py<PyArrayDyn<i32>>,
    reward: Py<PyArrayDyn<f64>>,
    terminated: Py<PyArrayDyn<bool>>,
    truncated: Py<PyArrayDyn<bool>>,
    illegal: Py<PyArrayDyn<bool>>,
    seat: Py<PyArrayDyn<i32>>,
    seat_scores: Py<PyArrayDyn<i32>>,
    big_follower: Py<PyArrayDyn<u8>>,
    builder: Py<PyArrayDyn<u8>>,
    pig: Py<PyArrayDyn<u8>>,
    goods: Py<PyArrayDyn<u8>>,
    bonus: Py<PyArrayDyn<u8>>,
}

fn zeros<T: Element>(py: Python<'_>, shape: &[usize]) -> Py<PyArrayDyn<T>> {
    PyArrayDyn::<T>::zeros(py, shape.to_vec(), false).unbind()
}

/// Borrows `$a`'s arrays mutably as an `Out` named `$out` for `$body`.
macro_rules! with_out {
    ($py:expr, $a:expr, |$out:ident| $body:expr) => {{
        fn rw<'py, T: Element>(py: Python<'py>, a: &Py<PyArrayDyn<T>>) -> PyResult<numpy::PyReadwriteArrayDyn<'py, T>> {
            a.bind(py).try_readwrite().map_err(|e| PyValueError::new_err(format!("the batch's arrays are in use: {e}")))
        }
        let a = $a;
        let (mut b0, mut b1, mut b2, mut b3) =
            (rw($py, &a.board)?, rw($py, &a.hands)?, rw($py, &a.hand_sizes)?, rw($py, &a.unseen)?);
        let (mut b4, mut b5, mut b6, mut b7) =
            (rw($py, &a.scores)?, rw($py, &a.supply)?, rw($py, &a.abbot)?, rw($py, &a.to_move)?);
        let (mut b8, mut b9, mut b10, mut b11) =
            (rw($py, &a.mask)?, rw($py, &a.legal)?, rw($py, &a.legal_count)?, rw($py, &a.reward)?);
        let (mut b12, mut b13, mut b14, mut b15) =
            (rw($py, &a.terminated)?, rw($py, &a.truncated)?, rw($py, &a.illegal)?, rw($py, &a.seat)?);
        let mut b16 = rw($py, &a.seat_scores)?;
        let (mut b17, mut b18, mut b19, mut b20, mut b21) =
            (rw($py, &a.big_follower)?, rw($py, &a.builder)?, rw($py, &a.pig)?, rw($py, &a.goods)?, rw($py, &a.bonus)?);
        let $out = Out {
            board: b0.as_slice_mut()?,
            hands: b1.as_slice_mut()?,
            hand_sizes: b2.as_slice_mut()?,
            unseen: b3.as_slice_mut()?,
            scores: b4.as_slice_mut()?,
            supply: b5.as_slice_mut()?,
            abbot: b6.as_slice_mut()?,
            to_move: b7.as_slice_mut()?,
            mask: b8.as_slice_mut()?,
            legal: b9.as_slice_mut()?,
            legal_count: b10.as_slice_mut()?,
            reward: b11.as_slice_mut()?,
            terminated: b12.as_slice_mut()?,
            truncated: b13.as_slice_mut()?,
            illegal: b14.as_slice_mut()?,
            seat: b15.as_slice_mut()?,
            seat_scores: b16.as_slice_mut()?,
            big_follower: b17.as_slice_mut()?,
            builder: b18.as_slice_mut()?,
            pig: b19.as_slice_mut()?,
            goods: b20.as_slice_mut()?,
            bonus: b21.as_slice_mut()?,
        };
        $body
    }};
}

/// An error of class `E` with `code` and the game's index `env`.
fn game_error<E: pyo3::PyTypeInfo>(py: Python<'_>, env: usize, code: &str, message: String) -> PyErr {
    let err = PyErr::new::<E, _>(format!("game {env}: {message}"));
    let _ = err.value(py).setattr("code", code);
    let _ = err.value(py).setattr("env", env);
    err
}

/// A game of the batch as pickled ([`VecCore::tables_state`]).
type TableState = (String, Option<crate::game::LiveState>, u64, bool, usize);

/// N games of one seat against built-in bots (or, with opponents
/// `["self"]`, of the learner at every seat), stepped together without the
/// GIL; the observations are written into `buffers()`.
#[pyclass(name = "VecCore", module = "carcassonne")]
pub struct VecCore {
    layout: Layout,
    tables: Vec<Table>,
    threads: usize,
    /// The `threads - 1` threads that step games beside the caller's.
    pool: Option<Pool>,
    arrays: Arrays,
}

#[pymethods]
impl VecCore {
    #[new]
    #[pyo3(signature = (num_envs, rules = "standard", players = 2, seat = 0, opponents = vec!["greedy".to_string()],
        radius = None, reward = "win", illegal = "lose", flat_mask = false,
        max_legal = None, threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        rules: &str,
        players: usize,
        seat: usize,
        opponents: Vec<String>,
        radius: Option<usize>,
        reward: &str,
        illegal: &str,
        flat_mask: bool,
        max_legal: Option<usize>,
        threads: Option<usize>,
    ) -> PyResult<VecCore> {
        let rules = parse_rules(py, rules)?;
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        let radius = crate::env::radius_of(&rules, radius)?;
        let first = Game::new(Setup::standard(rules, players, 0)).map_err(|e| setup_error(py, e))?;
        if seat >= players {
            return Err(PyValueError::new_err(format!("seat {seat} is not at a table of {players}")));
        }
        let self_play = opponents == ["self"];
        let opponents = match opponents.len() {
            _ if self_play => Vec::new(),
            1 => vec![opponents[0].clone(); players - 1],
            n if n == players - 1 => opponents,
            n => return Err(PyValueError::new_err(format!("{} opponents are needed, {n} given", players - 1))),
        };
        let opponents = opponents.iter().map(|s| crate::play::parse_spec(s)).collect::<PyResult<Vec<_>>>()?;
        if !["win", "score"].contains(&reward) {
            return Err(PyValueError::new_err(format!("reward must be 'win' or 'score', not {reward:?}")));
        }
        if !["raise", "lose"].contains(&illegal) {
            return Err(PyValueError::new_err(format!("illegal must be 'raise' or 'lose', not {illegal:?}")));
        }
        let sp = Spaces::new(rules, players, radius);
        let (width, slots) = (sp.width, sp.slots);
        let bound = Layout::legal_bound(&sp, first.deck().len());
        let max_legal = max_legal.unwrap_or(bound);
        if max_legal == 0 {
            return Err(PyValueError::new_err("max_legal must be at least 1"));
        }
        let layout = Layout {
            rules,
            players,
            seat: PlayerId(seat as u8),
            slots,
            planes: sp.planes(),
            cell_pos: (0..width * width)
                .map(|c| Pos::new((c % width) as i32 - radius as i32, (c / width) as i32 - radius as i32))
                .collect(),
            actions: sp.actions(),
            max_legal,
            legal_room: bound,
            flat_mask,
            score_reward: reward == "score",
            illegal_lose: illegal == "lose",
            opponents,
            self_play,
            sp,
        };
        let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
        let (b, n) = (num_envs, players);
        let (kinds, x) = (layout.sp.tile_kinds, if layout.sp.expansions { 1 } else { 0 });
        let arrays = Arrays {
            board: zeros(py, &[b, layout.planes, width, width]),
            hands: zeros(py, &[b, n, slots, kinds]),
            hand_sizes: zeros(py, &[b, n]),
            unseen: zeros(py, &[b, kinds]),
            scores: zeros(py, &[b, n]),
            supply: zeros(py, &[b, n]),
            abbot: zeros(py, &[b, n]),
            to_move: zeros(py, &[b, n]),
            mask: zeros(py, &[b, layout.mask_len()]),
            legal: zeros(py, &[b, max_legal]),
            legal_count: zeros(py, &[b]),
            reward: zeros(py, &[b]),
            terminated: zeros(py, &[b]),
            truncated: zeros(py, &[b]),
            illegal: zeros(py, &[b]),
            seat: zeros(py, &[b]),
            seat_scores: zeros(py, &[b, n]),
            big_follower: zeros(py, &[b, x * n]),
            builder: zeros(py, &[b, x * n]),
            pig: zeros(py, &[b, x * n]),
            goods: zeros(py, &[b, x * n, 3]),
            bonus: zeros(py, &[b, x]),
        };
        let tables = (0..num_envs).map(|_| Table::new(&layout, first.clone())).collect();
        let pool = if threads > 1 {
            let pool =
                ThreadPoolBuilder::new().num_threads(threads - 1).thread_name(|i| format!("carcassonne-vec-{i}"));
            let pool =
                pool.build().map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))?;
            Some(Pool { threads: pool, warm: Arc::new(AtomicU64::new(0)) })
        } else {
            None
        };
        let mut core = VecCore { layout, tables, threads, pool, arrays };
        core.reset(py, (0..num_envs as u64).collect(), None)?;
        Ok(core)
    }

    #[getter]
    fn num_envs(&mut self) -> usize {
        self.tables.len()
    }

    /// The most legal actions a turn lists (the width of `legal_actions`).
    #[getter]
    fn max_legal(&self) -> usize {
        self.layout.max_legal
    }

    #[getter]
    fn action_size(&self) -> usize {
        self.layout.actions
    }

    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// The seed of each game in play.
    #[getter]
    fn seeds(&mut self) -> Vec<u64> {
        self.tables.iter().map(|t| t.seed).collect()
    }

    /// The arrays the batch writes into, by name (the same objects every
    /// time): the observation's `board`, `hands`, `hand_sizes`, `unseen`,
    /// `scores`, `supply`, `abbot`, `to_move` and `action_mask`, and
    /// `legal_actions`, `legal_count`, `reward`, `terminated`,
    /// `truncated`, `illegal`, `seat` (the viewer's) and `seat_scores`
    /// (the scores by seat, not relative to the viewer).
    fn buffers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let a = &self.arrays;
        d.set_item("board", a.board.bind(py))?;
        d.set_item("hands", a.hands.bind(py))?;
        d.set_item("hand_sizes", a.hand_sizes.bind(py))?;
        d.set_item("unseen", a.unseen.bind(py))?;
        d.set_item("scores", a.scores.bind(py))?;
        d.set_item("supply", a.supply.bind(py))?;
        d.set_item("abbot", a.abbot.bind(py))?;
        d.set_item("to_move", a.to_move.bind(py))?;
        d.set_item("action_mask", a.mask.bind(py))?;
        d.set_item("legal_actions", a.legal.bind(py))?;
        d.set_item("legal_count", a.legal_count.bind(py))?;
        d.set_item("reward", a.reward.bind(py))?;
        d.set_item("terminated", a.terminated.bind(py))?;
        d.set_item("truncated", a.truncated.bind(py))?;
        d.set_item("illegal", a.illegal.bind(py))?;
        d.set_item("seat", a.seat.bind(py))?;
        d.set_item("seat_scores", a.seat_scores.bind(py))?;
        if self.layout.sp.expansions {
            d.set_item("big_follower", a.big_follower.bind(py))?;
            d.set_item("builder", a.builder.bind(py))?;
            d.set_item("pig", a.pig.bind(py))?;
            d.set_item("goods", a.goods.bind(py))?;
            d.set_item("bonus", a.bonus.bind(py))?;
        }
        Ok(d)
    }

    /// Each game's state, for pickling: its record, its live bag
    /// (`Game` pickles by these two), its seed, whether its episode ended,
    /// and the seat whose view its observation is.
    fn tables_state(&self) -> Vec<TableState> {
        let names: Vec<String> = (0..self.layout.players).map(|i| format!("player_{i}")).collect();
        self.tables
            .iter()
            .map(|t| {
                let record = carcassonne::record::Record::from_game(&t.game, &names).to_json();
                (record, crate::game::live_state(&t.game), t.seed, t.done, t.viewer.index())
            })
            .collect()
    }

    /// Puts back the games of `tables_state` (one per game, of a batch made
    /// with the same arguments) and rewrites their observations in full.
    /// The rewards and end flags of the last step are not among them.
    fn restore(&mut self, py: Python<'_>, states: Vec<TableState>) -> PyResult<()> {
        if states.len() != self.tables.len() {
            return Err(PyValueError::new_err(format!(
                "{} games are needed, {} given",
                self.tables.len(),
                states.len()
            )));
        }
        let mut games = Vec::with_capacity(states.len());
        for (record, live, seed, done, viewer) in states {
            let game = crate::game::restore_game(py, &record, live)?.game;
            if game.rules() != &self.layout.rules
                || game.num_players() != self.layout.players
                || viewer >= self.layout.players
            {
                return Err(PyValueError::new_err("a game of other rules or seats than the batch's"));
            }
            games.push((game, seed, done, PlayerId(viewer as u8)));
        }
        let (layout, tables) = (&self.layout, &mut self.tables);
        let lengths = layout.lengths();
        with_out!(py, &self.arrays, |out| {
            let mut out = out;
            for (i, (t, (game, seed, done, viewer))) in tables.iter_mut().zip(games).enumerate() {
                (t.game, t.seed, t.done, t.viewer) = (game, seed, done, viewer);
                t.redraw(layout, &mut out.game(i, &lengths));
            }
        });
        Ok(())
    }

    /// Starts a new game in each table from its seed (`seeds` has one per
    /// game); with `mask`, only where it is true.
    #[pyo3(signature = (seeds, mask = None))]
    fn reset(&mut self, py: Python<'_>, seeds: Vec<u64>, mask: Option<Vec<bool>>) -> PyResult<()> {
        let n = self.tables.len();
        if seeds.len() != n || mask.as_ref().is_some_and(|m| m.len() != n) {
            return Err(game_error::<CarcassonneError>(
                py,
                0,
                "bad_reset",
                format!("{n} seeds (and mask entries) are needed"),
            ));
        }
        let choices: Vec<Choice> = seeds
            .iter()
            .enumerate()
            .map(|(i, &s)| if mask.as_ref().is_none_or(|m| m[i]) { Choice::Start(s) } else { Choice::Keep })
            .collect();
        let tables = &mut self.tables;
        let (layout, pool) = (&self.layout, self.pool.as_ref());
        with_out!(py, &self.arrays, |out| py.detach(|| run_all(layout, tables, &choices, out, pool)));
        Ok(())
    }

    /// One step of every game: `actions[i]` is game i's action, an index
    /// into its `legal_actions` row when `short`, else a flat action. A
    /// game that ended at the last step starts anew and ignores its action.
    ///
    /// Raises (and changes nothing) for an action outside the action space
    /// (`CarcassonneError`, code `bad_action`) and, unless the batch was
    /// made with `illegal="lose"`, for an action that is not legal
    /// (`IllegalMoveError`, code `not_legal`); `env` names the game.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>, short: bool) -> PyResult<()> {
        let actions = actions.as_slice()?;
        let tables = &mut self.tables;
        let n = tables.len();
        if actions.len() != n {
            return Err(game_error::<CarcassonneError>(
                py,
                0,
                "bad_action",
                format!("{n} actions are needed, {} given", actions.len()),
            ));
        }
        let layout = &self.layout;
        let limit = if short { layout.max_legal } else { layout.actions };
        let mut choices = Vec::with_capacity(n);
        for (i, (t, &a)) in tables.iter().zip(actions).enumerate() {
            if t.done {
                choices.push(Choice::Start(next_seed(t.seed)));
                continue;
            }
            if a < 0 || a as u64 >= limit as u64 {
                return Err(game_error::<CarcassonneError>(
                    py,
                    i,
                    "bad_action",
                    format!("action {a} is outside 0..{limit}"),
                ));
            }
            let found = if short {
                ((a as usize) < t.n_legal).then_some(a as usize)
            } else {
                u32::try_from(a).ok().and_then(|a| t.legal().binary_search(&a).ok())
            };
            match found {
                Some(k) => choices.push(Choice::Play(k)),
                None if layout.illegal_lose => choices.push(Choice::Lose),
                None => {
                    let what = if short { "index" } else { "action" };
                    return Err(game_error::<IllegalMoveError>(
                        py,
                        i,
                        "not_legal",
                        format!("{what} {a} is not one of its {} legal actions", t.n_legal),
                    ));
                }
            }
        }
        let pool = self.pool.as_ref();
        with_out!(py, &self.arrays, |out| py.detach(|| run_all(layout, tables, &choices, out, pool)));
        Ok(())
    }
}
