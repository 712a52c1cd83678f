//! The search bot: information-set Monte Carlo tree search.
//!
//! Hidden information is handled by determinization per iteration
//! (single-observer ISMCTS): every iteration samples the unseen tile order
//! afresh from what the bot's player sees ([`Determinizer`]), walks the one
//! tree with it, and plays out. The tree's decision nodes hang below chance
//! outcomes: after a move, the child depends on who is to move next and
//! what they hold (the drawn tile, or their hand) in that iteration's
//! sample, so the tree never assumes one tile order and each chance branch
//! is visited as often as the bag makes it likely. Playouts are random
//! moves to the end of the game — a uniform placement, then a uniform
//! decision, except that most farmers drawn are turned into a pass —
//! optionally cut short and finished with the [`Valuation`]; docs/ai.md
//! explains the choices and the measurements behind them. The first
//! version (uniform decisions) stays selectable as [`MctsConfig::v1`],
//! spec `mcts-v1:…`.
//!
//! The moves at the root are ordered by the greedy valuation and widened
//! progressively (the k-th best is searched once the root has had enough
//! visits), so that small budgets are spent on plausible moves.
//!
//! With an iteration budget the result is a function of the seed, the
//! budget, the thread count and what the player sees. Several threads run
//! independent trees on the same root (root parallelism) and add up their
//! root statistics.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::str::FromStr;
use std::time::{Duration, Instant};

use carcassonne::{
    seeded_rng, uniform_below, Action, EdgeKind, Game, Move, PackedPlacements, Placement, PlayerId, RandomMover, Spot,
    View, MAX_PLAYERS,
};
use rand_chacha::ChaCha8Rng;

use crate::bot::Bot;
use crate::eval::{margin_of, Scratch, Valuation, Values};
use crate::greedy::score_moves;
use crate::learned::Learned;
use crate::net::Net;
use crate::prior::Prior;
use crate::sample::Determinizer;
use crate::seed::{decision_seed, derive};

/// How long to search per move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations (over all threads): reproducible.
    Iterations(u32),
    /// Until this much time has passed: depends on the machine and its load.
    Time(Duration),
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}it"),
            Budget::Time(d) if d.as_millis() % 1000 == 0 => write!(f, "{}s", d.as_millis() / 1000),
            Budget::Time(d) => write!(f, "{}ms", d.as_millis()),
        }
    }
}

impl FromStr for Budget {
    type Err = ();

    /// `5000it`, `1s`, `0.3s`, `250ms`.
    fn from_str(s: &str) -> Result<Budget, ()> {
        let positive = |x: f64| (x.is_finite() && x > 0.0).then_some(x).ok_or(());
        if let Some(n) = s.strip_suffix("it") {
            let n: u32 = n.parse().map_err(|_| ())?;
            return if n > 0 { Ok(Budget::Iterations(n)) } else { Err(()) };
        }
        if let Some(ms) = s.strip_suffix("ms") {
            let ms = positive(ms.parse().map_err(|_| ())?)?;
            return Ok(Budget::Time(Duration::from_secs_f64(ms / 1000.0)));
        }
        if let Some(secs) = s.strip_suffix('s') {
            let secs = positive(secs.parse().map_err(|_| ())?)?;
            return Ok(Budget::Time(Duration::from_secs_f64(secs)));
        }
        Err(())
    }
}

/// Every setting of the search.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MctsConfig {
    pub budget: Budget,
    pub seed: u64,
    /// Independent trees searched at once (root parallelism).
    pub threads: usize,
    /// UCB1's exploration constant (rewards lie in 0..1).
    pub exploration: f64,
    /// Moves played at random after the tree before the valuation decides;
    /// `None` plays to the end of the game.
    pub playout_depth: Option<u16>,
    /// Chance that a playout move keeps the follower a uniform choice gave it.
    pub playout_follower: f64,
    /// Weight of winning in the reward; the rest is the score margin.
    pub win_weight: f64,
    /// Margin (points) at which the margin part of the reward is ~76 % won.
    pub score_scale: f64,
    /// Tree depth (moves below the root) beyond which no node is added.
    pub max_depth: u8,
    /// Visits of a move and chance outcome (the next player's tiles) before
    /// the position gets a node.
    pub expand_after: u32,
    /// Progressive widening at the root: `widen_base + widen_factor * sqrt(visits)` moves, best valued first.
    pub widen_base: f64,
    pub widen_factor: f64,
    /// Weight of the greedy valuation as a bias (decays with visits).
    pub prior_weight: f64,
    /// The bias grows with the node's visits to this power (0: it does
    /// not; ½: as AlphaZero's PUCT, so that a long search still heeds it).
    pub prior_growth: f64,
    /// Visits of a node below the root after which its moves are ranked by
    /// the greedy valuation (then widened progressively, as at the root);
    /// 0 never ranks them.
    pub rank_after: u32,
    /// Playout policy: each playout move draws this many placements at
    /// random and plays the one whose completed features pay its player
    /// most net of what they pay the others (`Game::placement_gain`); 0 or
    /// 1 is the uniform random playout of the first version.
    pub playout_sample: u32,
    /// Chance that a playout move keeps a farmer it drew (else it passes);
    /// 1 is the first version's uniform decision. Uniformly random
    /// playouts put a farmer down on most tiles with a field, so that farms
    /// soak up the followers and the final farm scoring dominates every
    /// playout's result; fewer farmers make playouts closer to real games
    /// (docs/ai.md, "A stronger search").
    pub playout_farmer: f64,
    /// Chance that a playout move whose placement completes a road, city or
    /// cloister nobody holds puts a follower there (it scores at once and
    /// comes back: `Game::instant_spots`), whatever the move drew; 0 leaves
    /// the decision as drawn (the first version). Real players rarely miss
    /// these points (docs/ai.md, "Playouts that take the points in front of
    /// them").
    pub playout_instant: f64,
    /// Playout decision weights, relative to passing (1): a follower on a
    /// road, on a city, a monk or abbot on a cloister or garden. With all
    /// three at 1 the decision is uniform (before the `playout_farmer`
    /// conversion); a monk weighted 3 is taken three times as often as a
    /// pass. Real players put a monk on nearly every cloister and are
    /// choosier with roads.
    pub decision_weights: [f64; 3],
    /// Value a playout cut short (`playout_depth`) with the learned
    /// valuation ([`crate::learned`]) instead of the hand-set one.
    pub learned: bool,
    /// Value positions with the network trained by self-play
    /// ([`crate::net`]): the root's moves (and a ranked node's) ranked and
    /// weighed by its margins after them instead of the hand-set
    /// valuation's, and a playout cut short (`playout_depth`) valued by it.
    pub net: bool,
    /// Rank and weigh the root's moves by the prior learned from a long
    /// search ([`crate::prior`]): widening opens them in its order, and
    /// each is weighed by its probability relative to the best's.
    pub policy: bool,
    /// With `net`: the share of the network's value of the playout's first
    /// position in the reward, the rest the playout's own (to the end, or
    /// cut by `playout_depth`); 0 values by the playout alone.
    pub net_mix: f64,
    /// Stop as soon as the move to play cannot change: when the most
    /// visited root move leads the next by more visits than the iterations
    /// left (with a time budget, twice the iterations the time left would
    /// give at the speed so far). The move is the same as with the whole
    /// budget spent; only with one thread (the trees of several threads are
    /// added up at the end).
    pub early_stop: bool,
    /// Root search by sequential halving with common random numbers
    /// instead of the tree: the best `halving` moves by the greedy
    /// valuation are played out on the same samples, and the worse half is
    /// dropped each round; 0 searches with the tree (docs/ai.md).
    pub halving: u32,
    pub valuation: Valuation,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::Time(Duration::from_secs(1)),
            seed: 0,
            threads: 1,
            exploration: 0.25,
            playout_depth: None,
            playout_follower: 1.0,
            win_weight: 0.3,
            score_scale: 15.0,
            max_depth: 6,
            expand_after: 2,
            widen_base: 4.0,
            widen_factor: 1.0,
            prior_weight: 0.5,
            prior_growth: 0.0,
            rank_after: 0,
            playout_sample: 0,
            playout_farmer: 0.1,
            playout_instant: 1.0,
            decision_weights: [1.0; 3],
            learned: false,
            net: false,
            policy: false,
            net_mix: 0.0,
            early_stop: true,
            halving: 0,
            valuation: Valuation::default(),
        }
    }
}

impl MctsConfig {
    /// The first version of the search (issue 12's baseline, `mcts-v1`):
    /// every lever added since off, so that it can be compared with the
    /// current one.
    pub fn v1() -> MctsConfig {
        MctsConfig {
            playout_sample: 0,
            playout_farmer: 1.0,
            playout_instant: 0.0,
            decision_weights: [1.0; 3],
            early_stop: false,
            halving: 0,
            ..MctsConfig::default()
        }
    }

    /// The valuation that ranks and weighs moves: the network's or the hand-set one.
    fn ranking(&self) -> &dyn Values {
        if self.net {
            Net::shared()
        } else {
            &self.valuation
        }
    }

    /// Whether every lever added since the first version is off.
    pub fn is_v1(&self) -> bool {
        let v1 = MctsConfig::v1();
        self.playout_sample == v1.playout_sample
            && self.playout_farmer == v1.playout_farmer
            && self.playout_instant == v1.playout_instant
            && self.decision_weights == v1.decision_weights
            && self.early_stop == v1.early_stop
            && self.halving == v1.halving
    }
}

/// The search bot.
#[derive(Clone, Debug)]
pub struct MctsBot {
    config: MctsConfig,
    last: Option<SearchInfo>,
}

/// What the last search did.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    pub iterations: u64,
    pub nodes: usize,
    /// Per root move: the move, its visits and its mean reward.
    pub root: Vec<(Move, u32, f64)>,
}

impl MctsBot {
    pub fn new(config: MctsConfig) -> MctsBot {
        MctsBot { config, last: None }
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Statistics of the last search.
    pub fn last_search(&self) -> Option<&SearchInfo> {
        self.last.as_ref()
    }
}

impl Bot for MctsBot {
    fn name(&self) -> String {
        format!("mcts:{}", self.config.budget)
    }

    fn choose(&mut self, view: &View<'_>) -> Option<Move> {
        let started = Instant::now();
        let me = view.to_move()?;
        let moves = view.legal_moves();
        if moves.len() <= 1 {
            return moves.first().copied();
        }
        let c = self.config;
        // The budget counts from the call: sampling and ranking the root's
        // moves are part of the move's time.
        let deadline = match c.budget {
            Budget::Time(d) => Some(started + d),
            Budget::Iterations(_) => None,
        };
        let det = Determinizer::new(view);
        // Root moves, best first (ties keep the engine's order): by the
        // learned prior's scores, or by the valuation's margins after them.
        let scores = if c.policy {
            Prior::shared().scores(det.base(), &moves, me)
        } else {
            score_moves(det.base(), &moves, me, c.ranking())
        };
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let best = scores[order[0]];
        let weigh = |s: f64| if c.policy { (s - best).exp() } else { prior(best, s, c.score_scale) };
        let root: Vec<(Move, f64)> = order.iter().map(|&i| (moves[i], weigh(scores[i]))).collect();

        let seed = decision_seed(c.seed, view);
        let threads = c.threads.max(1);
        let share = |t: usize| match c.budget {
            Budget::Iterations(n) => {
                let n = n as u64;
                n / threads as u64 + u64::from((t as u64) < n % threads as u64)
            }
            Budget::Time(_) => u64::MAX,
        };
        // Each root move's visits and summed rewards.
        let (visits, reward, iterations, nodes) = if c.halving > 0 {
            let (visits, reward, iterations) = halving(&c, &det, &root, me, seed, deadline);
            (visits, reward, iterations, 0)
        } else {
            let results =
                on_threads(threads, |t| search(&c, &det, &root, me, derive(seed, &[t as u64]), share(t), deadline));
            let mut visits = vec![0u32; root.len()];
            let mut reward = vec![0f64; root.len()];
            let (mut iterations, mut nodes) = (0, 0);
            for tree in &results {
                iterations += tree.iterations;
                nodes += tree.nodes.len();
                for (i, e) in tree.edges[..root.len()].iter().enumerate() {
                    visits[i] += e.visits;
                    reward[i] += e.reward;
                }
            }
            (visits, reward, iterations, nodes)
        };
        let mean = |i: usize| if visits[i] == 0 { f64::NEG_INFINITY } else { reward[i] / visits[i] as f64 };
        // The most visited move; among equals, the better mean, then the better valued.
        let pick = (0..root.len())
            .max_by(|&a, &b| visits[a].cmp(&visits[b]).then(mean(a).total_cmp(&mean(b))).then(b.cmp(&a)))
            .expect("moves");
        self.last = Some(SearchInfo {
            iterations,
            nodes,
            root: (0..root.len()).map(|i| (root[i].0, visits[i], mean(i))).collect(),
        });
        Some(root[pick].0)
    }
}

#[derive(Copy, Clone, Debug)]
struct Edge {
    mv: Move,
    visits: u32,
    /// Sum of the rewards of the player who makes this move.
    reward: f64,
    /// Greedy prior in 0..1 (moves of ranked nodes; 0 elsewhere).
    prior: f32,
    player: u8,
}

#[derive(Copy, Clone, Debug)]
struct Node {
    first: u32,
    len: u32,
    visits: u32,
    depth: u8,
    /// Where the node's edges ranked best first start in `Tree::order`
    /// (`UNRANKED` until they are ranked).
    order: u32,
}

const UNRANKED: u32 = u32::MAX;

/// Marks a chance outcome that has no node yet (node ids stay below it).
const SEEN: u32 = 1 << 31;

/// A hasher for keys that are already distinct integers.
#[derive(Default)]
struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = crate::seed::mix(x);
    }
}

struct Tree {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// Edge indices of ranked nodes, best valued first.
    order: Vec<u32>,
    /// (edge index, who moves next, what they hold) → node, or `SEEN` plus
    /// the visits of an outcome that has no node yet.
    children: HashMap<u64, u32, BuildHasherDefault<IntHasher>>,
    iterations: u64,
}

/// The chance outcome after a move: who is to move and what they hold
/// (the drawn tile, or their hand in any order).
fn outcome_key(edge: usize, g: &Game) -> u64 {
    let Some(p) = g.to_move() else { return (edge as u64) << 32 | 0xffff_ffff };
    let mut tiles = [0u8; carcassonne::MAX_HAND];
    let hand = g.hand(p);
    for (slot, t) in tiles.iter_mut().zip(hand) {
        *slot = t.index() as u8 + 1;
    }
    tiles.sort_unstable();
    let held = tiles.iter().fold(0u64, |acc, &t| acc << 8 | t as u64);
    (edge as u64) << 32 | (p.0 as u64) << 24 | held
}

impl Tree {
    fn add_node(&mut self, moves: impl Iterator<Item = (Move, f32)>, player: PlayerId, depth: u8) -> u32 {
        let first = self.edges.len() as u32;
        self.edges.extend(moves.map(|(mv, prior)| Edge { mv, visits: 0, reward: 0.0, prior, player: player.0 }));
        let len = self.edges.len() as u32 - first;
        self.nodes.push(Node { first, len, visits: 0, depth, order: UNRANKED });
        self.nodes.len() as u32 - 1
    }

    /// Ranks a node's moves by their greedy margins (for the node's player)
    /// in `game`, the position at the node; sets their priors.
    fn rank(&mut self, node: u32, margins: &[f64], scale: f64) {
        let nd = self.nodes[node as usize];
        let mut idx: Vec<u32> = (nd.first..nd.first + nd.len).collect();
        idx.sort_by(|&a, &b| margins[(b - nd.first) as usize].total_cmp(&margins[(a - nd.first) as usize]));
        let best = margins.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        for (e, m) in self.edges[nd.first as usize..(nd.first + nd.len) as usize].iter_mut().zip(margins) {
            e.prior = prior(best, *m, scale) as f32;
        }
        self.nodes[node as usize].order = self.order.len() as u32;
        self.order.extend(idx);
    }
}

/// A move's prior in 0..1 from how far its greedy margin is below the best.
fn prior(best: f64, margin: f64, scale: f64) -> f64 {
    1.0 / (1.0 + ((best - margin) / scale.max(1e-9)).max(0.0))
}

/// Rewards of every seat for a final or valued position: a mix of winning
/// and the margin over the best other seat.
fn rewards(values: &[f64], c: &MctsConfig, out: &mut [f64; MAX_PLAYERS]) {
    for (p, o) in out.iter_mut().enumerate().take(values.len()) {
        let m = margin_of(values, PlayerId(p as u8));
        let win = if m > 0.0 {
            1.0
        } else if m == 0.0 {
            0.5
        } else {
            0.0
        };
        *o = c.win_weight * win + (1.0 - c.win_weight) * (0.5 + 0.5 * (m / c.score_scale).tanh());
    }
}

fn search(
    c: &MctsConfig,
    det: &Determinizer,
    root: &[(Move, f64)],
    me: PlayerId,
    seed: u64,
    iterations: u64,
    deadline: Option<Instant>,
) -> Tree {
    let mut rng = seeded_rng(seed);
    let mut tree =
        Tree { nodes: Vec::new(), edges: Vec::new(), order: Vec::new(), children: HashMap::default(), iterations: 0 };
    // The root's moves come ranked.
    tree.add_node(root.iter().map(|&(mv, p)| (mv, p as f32)), me, 0);
    tree.nodes[0].order = 0;
    tree.order.extend(0..root.len() as u32);
    let mut game = det.sample(&mut rng);
    let mut rollout = Rollout::new(c);
    // (node, edge) pairs walked this iteration.
    let mut path: Vec<(u32, u32)> = Vec::with_capacity(64);
    let started = Instant::now();
    let early_stop = c.early_stop && c.threads <= 1;
    while tree.iterations < iterations {
        if let Some(d) = deadline {
            // Always at least one iteration, so that there is a move to pick.
            if tree.iterations > 0 && Instant::now() >= d {
                break;
            }
        }
        if early_stop && tree.iterations > 0 && tree.iterations % 64 == 0 {
            let left = match deadline {
                None => iterations - tree.iterations,
                Some(d) => {
                    let rate = tree.iterations as f64 / started.elapsed().as_secs_f64().max(1e-9);
                    (2.0 * rate * d.saturating_duration_since(Instant::now()).as_secs_f64()) as u64
                }
            };
            if decided(&tree.edges[..root.len()], left) {
                break;
            }
        }
        tree.iterations += 1;
        det.sample_into(&mut game, &mut rng);
        path.clear();

        // Selection and expansion.
        let mut node = 0u32;
        loop {
            let nd = tree.nodes[node as usize];
            if nd.order == UNRANKED && c.rank_after > 0 && nd.visits >= c.rank_after {
                let player = game.to_move().expect("a node's game is not over");
                let moves: Vec<Move> =
                    tree.edges[nd.first as usize..(nd.first + nd.len) as usize].iter().map(|e| e.mv).collect();
                let margins = score_moves(&game, &moves, player, c.ranking());
                tree.rank(node, &margins, c.score_scale);
            }
            let e = select(&tree, node, c);
            let mv = tree.edges[e as usize].mv;
            // A node's moves are legal in every sample that reaches it (its
            // key fixes the board, the player and their tiles); checked in
            // debug builds by play_unchecked.
            path.push((node, e));
            game.play_unchecked(&mv);
            if game.is_over() {
                break;
            }
            let depth = tree.nodes[node as usize].depth + 1;
            if depth > c.max_depth {
                break;
            }
            let key = outcome_key(e as usize, &game);
            let slot = tree.children.entry(key).or_insert(SEEN);
            if *slot & SEEN == 0 {
                node = *slot;
                continue;
            }
            // Not a node yet: count the visits of this outcome, and give it
            // a node once it has been seen often enough.
            *slot += 1;
            if *slot - SEEN >= c.expand_after {
                let player = game.to_move().expect("a game not over has a player to move");
                let mut moves = game.legal_moves();
                shuffle(&mut moves, &mut rng);
                let child = tree.add_node(moves.into_iter().map(|m| (m, 0.0)), player, depth);
                tree.children.insert(key, child);
            }
            break;
        }

        let reward = rollout.run(c, &mut game, &mut rng);

        // Backpropagation.
        for &(node, e) in &path {
            let edge = &mut tree.edges[e as usize];
            edge.visits += 1;
            edge.reward += reward[edge.player as usize];
            tree.nodes[node as usize].visits += 1;
        }
    }
    tree
}

/// `work(t)` for each of `threads` threads (on this one if there is only
/// one), the results in thread order.
fn on_threads<R: Send>(threads: usize, work: impl Fn(usize) -> R + Sync) -> Vec<R> {
    if threads == 1 {
        return vec![work(0)];
    }
    std::thread::scope(|s| {
        let work = &work;
        let handles: Vec<_> = (0..threads).map(|t| s.spawn(move || work(t))).collect();
        handles.into_iter().map(|h| h.join().expect("a search thread")).collect()
    })
}

/// Sequential halving at the root with common random numbers: the best
/// `c.halving` root moves (ranked best first) are played out round by
/// round, every move of a round on the same samples (the same hidden tile
/// order and the same playout random stream after the move), and after
/// each round the worse half by mean reward is dropped, until one is left
/// or the budget is spent. The budget is split evenly between the rounds.
/// Returns each root move's playouts, summed rewards, and the playouts in
/// all.
fn halving(
    c: &MctsConfig,
    det: &Determinizer,
    root: &[(Move, f64)],
    me: PlayerId,
    seed: u64,
    deadline: Option<Instant>,
) -> (Vec<u32>, Vec<f64>, u64) {
    let threads = c.threads.max(1);
    let mut visits = vec![0u32; root.len()];
    let mut reward = vec![0f64; root.len()];
    let mut alive: Vec<usize> = (0..root.len().min(c.halving.max(1) as usize)).collect();
    let mut rounds_left = (alive.len() as f64).log2().ceil().max(1.0) as u32;
    let mut left = match c.budget {
        Budget::Iterations(n) => n as u64,
        Budget::Time(_) => u64::MAX,
    };
    let mut total = 0u64;
    let mut round = 0u64;
    while alive.len() > 1 || total == 0 {
        // This round's share of what is left.
        let round_deadline = deadline.map(|d| {
            let now = Instant::now();
            now + d.saturating_duration_since(now) / rounds_left
        });
        // (With a time budget `left` is unbounded and the deadline ends the round.)
        let samples = (left / rounds_left as u64 / alive.len() as u64).max(1);
        let per_thread = |t: usize| samples / threads as u64 + u64::from((t as u64) < samples % threads as u64);
        let stats = on_threads(threads, |t| {
            playouts(c, det, root, &alive, me, derive(seed, &[round, t as u64]), per_thread(t), round_deadline)
        });
        for (sums, n) in stats {
            for (k, &i) in alive.iter().enumerate() {
                visits[i] += n as u32;
                reward[i] += sums[k];
            }
            total += n * alive.len() as u64;
            left = left.saturating_sub(n * alive.len() as u64);
        }
        round += 1;
        rounds_left = rounds_left.saturating_sub(1).max(1);
        // Keep the better half (by mean; among equals, the better ranked).
        let mean = |i: usize| reward[i] / visits[i].max(1) as f64;
        alive.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then(a.cmp(&b)));
        alive.truncate(alive.len().div_ceil(2));
        if deadline.is_some_and(|d| Instant::now() >= d) || left == 0 {
            break;
        }
    }
    (visits, reward, total)
}

/// One round of [`halving`] on one thread: `samples` samples (or until
/// `deadline`, at least one), each move of `alive` played out on each.
/// Returns the summed rewards per move of `alive` and the samples made.
#[allow(clippy::too_many_arguments)]
fn playouts(
    c: &MctsConfig,
    det: &Determinizer,
    root: &[(Move, f64)],
    alive: &[usize],
    me: PlayerId,
    seed: u64,
    samples: u64,
    deadline: Option<Instant>,
) -> (Vec<f64>, u64) {
    let mut rng = seeded_rng(seed);
    let mut sample = det.sample(&mut rng);
    let mut game = sample.clone();
    let mut rollout = Rollout::new(c);
    let mut sums = vec![0f64; alive.len()];
    let mut done = 0u64;
    while done < samples {
        if done > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        det.sample_into(&mut sample, &mut rng);
        let stream = rand_core::RngCore::next_u64(&mut rng);
        for (k, &i) in alive.iter().enumerate() {
            game.clone_from(&sample);
            game.play_unchecked(&root[i].0);
            sums[k] += rollout.run(c, &mut game, &mut seeded_rng(stream))[me.index()];
        }
        done += 1;
    }
    (sums, done)
}

/// A playout and its valuation: plays a position out by the playout
/// policy (to the end, or `playout_depth` moves) and gives each seat's
/// reward for where it stopped. One per search thread, reused.
struct Rollout {
    playout: Playout,
    learned: Learned,
    scratch: Scratch,
    values: [f64; MAX_PLAYERS],
    reward: [f64; MAX_PLAYERS],
    /// The network's reward for the playout's first position (`net_mix`).
    first: [f64; MAX_PLAYERS],
}

impl Rollout {
    fn new(c: &MctsConfig) -> Rollout {
        Rollout {
            playout: Playout::new(c),
            learned: Learned::default(),
            scratch: Scratch::default(),
            values: [0.0; MAX_PLAYERS],
            reward: [0.0; MAX_PLAYERS],
            first: [0.0; MAX_PLAYERS],
        }
    }

    /// Plays `game` out with `rng`; each seat's reward, in 0..1.
    fn run(&mut self, c: &MctsConfig, game: &mut Game, rng: &mut ChaCha8Rng) -> &[f64; MAX_PLAYERS] {
        let mix = if c.net && !game.is_over() { c.net_mix } else { 0.0 };
        if mix > 0.0 {
            Net::shared().values(game, &mut self.scratch, &mut self.values);
            rewards(&self.values[..game.num_players()], c, &mut self.first);
        }
        let mut steps = 0u16;
        while !game.is_over() && c.playout_depth.is_none_or(|d| steps < d) {
            let Some(mv) = self.playout.choose(game, rng) else { break };
            game.play_unchecked(&mv);
            steps += 1;
        }
        if game.is_over() {
            for (v, &s) in self.values.iter_mut().zip(game.scores()) {
                *v = s as f64;
            }
        } else if c.net {
            Net::shared().values(game, &mut self.scratch, &mut self.values);
        } else if c.learned {
            self.learned.values(game, &mut self.scratch, &mut self.values);
        } else {
            c.valuation.values(game, &mut self.scratch, &mut self.values);
        }
        rewards(&self.values[..game.num_players()], c, &mut self.reward);
        if mix > 0.0 {
            for (r, &f) in self.reward.iter_mut().zip(&self.first) {
                *r = mix * f + (1.0 - mix) * *r;
            }
        }
        &self.reward
    }
}

/// Whether the most visited of the root's `edges` leads every other by more
/// than `left` visits, so that no further iteration can change the pick.
fn decided(edges: &[Edge], left: u64) -> bool {
    let (mut top, mut second) = (0u64, 0u64);
    for e in edges {
        let v = e.visits as u64;
        if v > top {
            second = top;
            top = v;
        } else if v > second {
            second = v;
        }
    }
    top > second + left
}

/// The search's playout policy, one move at a time: a placement uniformly
/// at random (or the best of `playout_sample` drawn), a decision uniformly
/// (or by `decision_weights`), then most farmers and (with
/// `playout_follower` below 1) some followers turned into a pass. Shared by
/// the search and the training of the learned valuation, which fits what
/// these playouts score.
pub(crate) struct Playout {
    mover: RandomMover,
    policy: PolicyMover,
    sample: u32,
    weights: Option<[f64; 3]>,
    follower: f64,
    farmer: f64,
    instant: f64,
    spots: Vec<Spot>,
}

impl Playout {
    pub(crate) fn new(c: &MctsConfig) -> Playout {
        Playout {
            mover: RandomMover::new(),
            policy: PolicyMover::new(),
            sample: c.playout_sample,
            weights: (c.decision_weights != [1.0; 3]).then_some(c.decision_weights),
            follower: c.playout_follower,
            farmer: c.playout_farmer,
            instant: c.playout_instant,
            spots: Vec::with_capacity(4),
        }
    }

    /// The playout's move in `game`; `None` once it is over.
    pub(crate) fn choose(&mut self, game: &Game, rng: &mut ChaCha8Rng) -> Option<Move> {
        let mut mv = if self.sample > 1 || self.weights.is_some() {
            self.policy.choose(game, rng, self.sample.max(1), self.weights.as_ref())
        } else {
            self.mover.choose(game, rng)
        }?;
        if matches!(mv.action, Action::Follower(_) | Action::BigFollower(_) | Action::Abbot(_))
            && self.follower < 1.0
            && rng_unit(rng) >= self.follower
        {
            mv.action = Action::Pass;
        }
        // The big follower is a follower here too: a farmer of either kind is
        // mostly turned into a pass.
        if self.farmer < 1.0
            && matches!(mv.action, Action::Follower(s) | Action::BigFollower(s) if s.is_field())
            && rng_unit(rng) >= self.farmer
        {
            mv.action = Action::Pass;
        }
        if self.instant > 0.0 {
            self.spots.clear();
            game.instant_spots(mv.tile, Placement { pos: mv.pos, rot: mv.rot }, &mut self.spots);
            if !self.spots.is_empty()
                && !matches!(mv.action, Action::Follower(s) | Action::BigFollower(s) if self.spots.contains(&s))
                && rng_unit(rng) < self.instant
            {
                mv.action = Action::Follower(self.spots[uniform_below(rng, self.spots.len() as u32) as usize]);
            }
        }
        Some(mv)
    }
}

/// The playout policy: of `k` placements drawn at random, the one whose
/// completed features pay the player most net of what they pay the others
/// (the first drawn among equals), then a uniform decision.
struct PolicyMover {
    placements: PackedPlacements,
    actions: Vec<Action>,
}

impl PolicyMover {
    fn new() -> PolicyMover {
        PolicyMover { placements: PackedPlacements::new(), actions: Vec::with_capacity(16) }
    }

    fn choose(&mut self, game: &Game, rng: &mut ChaCha8Rng, k: u32, weights: Option<&[f64; 3]>) -> Option<Move> {
        game.packed_placements(&mut self.placements);
        let n = self.placements.len() as u32;
        if n == 0 {
            return None;
        }
        let gain = |i: u32| {
            let (tile, p) = self.placements.get(i as usize, game);
            let (mine, theirs) = game.placement_gain(tile, p);
            mine as i32 - theirs as i32
        };
        let mut pick = uniform_below(rng, n);
        if k > 1 {
            let mut best = gain(pick);
            for _ in 1..k {
                let i = uniform_below(rng, n);
                let g = gain(i);
                if g > best {
                    best = g;
                    pick = i;
                }
            }
        }
        let (tile, p) = self.placements.get(pick as usize, game);
        self.actions.clear();
        game.actions_into(tile, p, &mut self.actions);
        let action = match weights {
            None => self.actions[uniform_below(rng, self.actions.len() as u32) as usize],
            Some(w) => {
                let def = tile.def();
                let weight = |a: &Action| match *a {
                    Action::Follower(s) if s.is_field() => 1.0,
                    Action::Follower(s) if s == Spot::CLOISTER || s == Spot::GARDEN => w[2],
                    Action::Follower(s) => {
                        // A board edge d of a tile turned r quarters is its edge d − r.
                        let edge = [Spot::N, Spot::E, Spot::S, Spot::W].iter().position(|&e| e == s).unwrap_or(0);
                        let d = (edge + 4 - p.rot.quarter_turns() as usize) % 4;
                        if def.edges[d] == EdgeKind::Road {
                            w[0]
                        } else {
                            w[1]
                        }
                    }
                    Action::Abbot(_) => w[2],
                    _ => 1.0,
                };
                let total: f64 = self.actions.iter().map(weight).sum();
                let mut x = rng_unit(rng) * total;
                let mut chosen = self.actions[self.actions.len() - 1];
                for a in &self.actions {
                    x -= weight(a);
                    if x < 0.0 {
                        chosen = *a;
                        break;
                    }
                }
                chosen
            }
        };
        Some(Move { tile, pos: p.pos, rot: p.rot, action, bonus: game.bonus() })
    }
}

fn rng_unit(rng: &mut ChaCha8Rng) -> f64 {
    use rand_core::RngCore;
    (rng.next_u32() >> 8) as f64 / (1u32 << 24) as f64
}

fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        let j = uniform_below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// UCB1 over the node's moves, with progressive widening and a decaying
/// greedy bias at the root; an unvisited move is tried first.
fn select(tree: &Tree, node: u32, c: &MctsConfig) -> u32 {
    let nd = tree.nodes[node as usize];
    let n = nd.visits.max(1) as f64;
    let log_n = n.ln();
    let bias = c.prior_weight * if c.prior_growth == 0.0 { 1.0 } else { n.powf(c.prior_growth) };
    let mut best = f64::NEG_INFINITY;
    let mut pick = nd.first;
    let mut unvisited = None;
    let mut consider = |e: u32| {
        let edge = &tree.edges[e as usize];
        if edge.visits == 0 {
            if unvisited.is_none() {
                unvisited = Some(e);
            }
            return;
        }
        let v = edge.visits as f64;
        let score = edge.reward / v + c.exploration * (log_n / v).sqrt() + bias * edge.prior as f64 / (v + 1.0);
        if score > best {
            best = score;
            pick = e;
        }
    };
    if nd.order == UNRANKED {
        (nd.first..nd.first + nd.len).for_each(&mut consider);
    } else {
        let width = ((c.widen_base + c.widen_factor * n.sqrt()).ceil() as u32).clamp(1, nd.len);
        let at = nd.order as usize;
        tree.order[at..at + width as usize].iter().for_each(|&e| consider(e));
    }
    unvisited.unwrap_or(pick)
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Rules, Setup};

    /// A position twenty moves into a game: a long playout left.
    fn midgame() -> Game {
        let mut game = Game::new(Setup::standard(Rules::default(), 2, 11)).unwrap();
        let (mut mover, mut rng) = (RandomMover::new(), seeded_rng(3));
        for _ in 0..20 {
            let mv = mover.choose(&game, &mut rng).unwrap();
            game.play_unchecked(&mv);
        }
        game
    }

    /// Each seat's reward from a rollout of `midgame` under `c`, with the
    /// playout's generator seeded `seed`.
    fn reward(c: &MctsConfig, seed: u64) -> Vec<f64> {
        let mut game = midgame();
        let mut rollout = Rollout::new(c);
        rollout.run(c, &mut game, &mut seeded_rng(seed))[..2].to_vec()
    }

    /// `mix` blends the network's reward for the playout's first position
    /// with the playout's own: all of the one at 1, all of the other at 0,
    /// their weighted mean between.
    #[test]
    fn the_mix_blends_the_networks_reward_with_the_playouts() {
        let net = MctsConfig { net: true, ..MctsConfig::default() };
        let at_once = MctsConfig { playout_depth: Some(0), ..net };
        let network = reward(&at_once, 1);
        let playouts: Vec<Vec<f64>> = (0..4).map(|seed| reward(&net, seed)).collect();
        assert!(playouts.iter().any(|p| *p != network), "the playouts and the network differ somewhere");
        for (seed, playout) in playouts.iter().enumerate() {
            let seed = seed as u64;
            assert_eq!(reward(&MctsConfig { net_mix: 0.0, ..net }, seed), *playout);
            assert_eq!(reward(&MctsConfig { net_mix: 1.0, ..net }, seed), network);
            let quarter = reward(&MctsConfig { net_mix: 0.25, ..net }, seed);
            for p in 0..2 {
                assert!((quarter[p] - (0.25 * network[p] + 0.75 * playout[p])).abs() < 1e-12);
            }
        }
        // Without the network the mix is off: the playout alone.
        let plain = MctsConfig { net_mix: 1.0, ..MctsConfig::default() };
        assert_eq!(reward(&plain, 2), reward(&MctsConfig::default(), 2));
    }

    /// With `policy=1` the root's moves come in the learned prior's order
    /// (ties in the engine's), and they differ from the valuation's order
    /// somewhere in a midgame.
    #[test]
    fn the_policy_orders_the_root_by_the_learned_prior() {
        let game = midgame();
        let me = game.to_move().unwrap();
        let moves = game.legal_moves();
        let root_of = |policy| {
            let config = MctsConfig { budget: Budget::Iterations(50), policy, ..MctsConfig::default() };
            let mut bot = MctsBot::new(config);
            bot.choose(&View::new(&game, me)).unwrap();
            bot.last_search().unwrap().root.iter().map(|r| r.0).collect::<Vec<Move>>()
        };
        let scores = Prior::shared().scores(&game, &moves, me);
        let mut want: Vec<usize> = (0..moves.len()).collect();
        want.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let want: Vec<Move> = want.into_iter().map(|i| moves[i]).collect();
        assert_eq!(root_of(true), want);
        assert_ne!(root_of(false), want);
    }
}
