//! A static valuation of a position: what each player's score is worth,
//! counting the open features their followers hold and the followers they
//! still have in supply. The greedy bot picks the move that maximises it;
//! the search bot uses it to cut playouts short and to order moves.
//!
//! Per player (docs/ai.md, "The valuation"):
//!
//! - the points already scored;
//! - every open road, city and cloister on which the player has a majority
//!   of followers (ties count for all tied players, as in scoring):
//!   - each is worth what it scores at the end if left open, plus a rough
//!     chance `p` that it is completed times what completing adds; `p`
//!     falls with its open edges (ends of a road) and with the tiles left;
//!   - road: its tiles (completing adds nothing), plus a little for growth
//!     while tiles remain;
//!   - city: tiles + shields; completed, twice that (small-city rule:
//!     a one-tile city completes as a two-tile one, `+1`);
//!   - cloister or garden (monk or abbot): `1 + neighbours`; completed, 9;
//!     the chance here is that the missing neighbours are filled;
//!   - with `incomplete_scoring=false`, what an open feature scores at the
//!     end is 0;
//! - every farm on which the player has a majority: the farm rule's points
//!   for the completed cities it borders, plus each open city it borders at
//!   its completion chance;
//! - each follower (and abbot) in supply: `follower` points while the bag
//!   is full, falling to nothing when it is empty (a follower is an option
//!   to score); the big follower half as much again; the builder and the
//!   pig in supply a little (`builder` / 2, `pig`), as options too;
//! - Inns & Cathedrals: a road with an inn is worth twice its tiles
//!   completed and nothing left open; a city with a cathedral three times
//!   its tiles and shields completed and nothing left open (so an
//!   unfinished one is worth only its completion chance);
//! - Traders & Builders: each kind of goods pays 10 at the end to the
//!   players holding the most tokens (ties all), counted now at a weight
//!   that grows as the bag empties (`goods_lead` with the bag full, 1 at
//!   the end); a builder on an open feature `builder` points while tiles
//!   remain (its extra tiles); a pig raises its owner's farm points by 1
//!   per city where they hold the farm (4 instead of 3; per city, 5).
//!
//! A finished game is worth its final scores and nothing else.

use std::sync::OnceLock;

use carcassonne::{
    FarmRule, FeatureInfo, Figure, Game, PlayerId, Pos, Rotation, SegmentKind, Spot, TileId, MAX_PLAYERS, TILE_KINDS,
};

/// The bag's size in a standard game (71 tiles after the start tile).
pub(crate) const FULL_BAG: f64 = 71.0;

/// The weights of the valuation; see the module docs.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Valuation {
    /// Worth of a follower in supply with the bag full.
    pub follower: f64,
    /// Chance that a road or city with one open edge is completed, with enough tiles left.
    pub city_close: f64,
    /// Each further open edge multiplies the chance by this.
    pub city_per_edge: f64,
    /// Chance that a cloister's missing neighbours are filled, with enough tiles left.
    pub cloister_fill: f64,
    /// Weight of an open city bordering a farm, times its completion chance.
    pub farm_open_city: f64,
    /// Extra worth of an open road while tiles remain.
    pub road_growth: f64,
    /// Worth of a builder on an open feature with the bag full (Traders & Builders).
    pub builder: f64,
    /// Worth of the pig in supply with the bag full.
    pub pig: f64,
    /// Share of a goods majority's 10 points counted with the bag full.
    pub goods_lead: f64,
}

impl Default for Valuation {
    fn default() -> Self {
        Valuation {
            follower: 1.5,
            city_close: 0.85,
            city_per_edge: 0.8,
            cloister_fill: 0.9,
            farm_open_city: 0.5,
            road_growth: 1.0,
            builder: 3.0,
            pig: 1.0,
            goods_lead: 0.6,
        }
    }
}

/// One segment of a tile as it lies on the board: a spot naming it and
/// (for fields) the spots of the cities on the tile it touches.
#[derive(Clone, Debug)]
struct SegSpot {
    spot: Spot,
    cities: Vec<Spot>,
}

/// Per tile id and rotation, its segments with board-oriented spots.
fn seg_spots(tile: TileId, rot: Rotation) -> &'static [SegSpot] {
    static TABLE: OnceLock<Vec<Vec<SegSpot>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = Vec::with_capacity(TILE_KINDS * 4);
        for tile in TileId::all() {
            for rot in Rotation::ALL {
                t.push(build_seg_spots(tile, rot));
            }
        }
        t
    });
    &table[tile.index() * 4 + rot.quarter_turns() as usize]
}

fn build_seg_spots(tile: TileId, rot: Rotation) -> Vec<SegSpot> {
    let r = rot.quarter_turns() as u32;
    let def = tile.def();
    let spot_of = |i: usize| {
        let s = &def.segments[i];
        match s.kind {
            // A turn clockwise moves edge d to d + 1 and half-edge h to h + 2.
            SegmentKind::City | SegmentKind::Road => {
                Spot::edge(carcassonne::Dir::from_index((s.edges.trailing_zeros() + r) as usize % 4))
            }
            SegmentKind::Field if s.halves == 0 => Spot::ENCLOSED,
            SegmentKind::Field => Spot::half(((s.halves.trailing_zeros() + 2 * r) % 8) as u8),
            SegmentKind::Cloister => Spot::CLOISTER,
            SegmentKind::Garden => Spot::GARDEN,
        }
    };
    (0..def.segments.len())
        .map(|i| {
            let s = &def.segments[i];
            let cities = if s.kind == SegmentKind::Field {
                (0..def.segments.len()).filter(|&c| s.cities & (1 << c) != 0).map(spot_of).collect()
            } else {
                Vec::new()
            };
            SegSpot { spot: spot_of(i), cities }
        })
        .collect()
}

/// A valuation of positions: what the greedy bot and the search ask of the
/// hand-set [`Valuation`], the [learned](crate::learned) one and the
/// [network](crate::net).
pub trait Values {
    /// Each seat's worth in points (scores included), into `out`.
    fn values(&self, game: &Game, scratch: &mut Scratch, out: &mut [f64; MAX_PLAYERS]);

    /// The worth of `p` minus the best of the others'.
    fn margin(&self, game: &Game, p: PlayerId, scratch: &mut Scratch) -> f64 {
        let mut v = [0.0; MAX_PLAYERS];
        self.values(game, scratch, &mut v);
        margin_of(&v[..game.num_players()], p)
    }
}

impl Values for Valuation {
    fn values(&self, game: &Game, scratch: &mut Scratch, out: &mut [f64; MAX_PLAYERS]) {
        Valuation::values(self, game, scratch, out);
    }
}

/// Scratch space for [`Valuation::values`], so that valuing many positions
/// does not allocate.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    seen: Vec<u16>,
    farms: Vec<Farm>,
    /// Per city: its weight, and whether a pig of the seat being summed pays through it.
    cities: Vec<(u16, f64, bool)>,
    /// Pigs standing: (their farm's id, their seat).
    pigs: Vec<(u16, u8)>,
}

#[derive(Clone, Debug, Default)]
struct Farm {
    id: u16,
    followers: [u8; 8],
    /// The seats with their pig in it (a bit each).
    pigs: u8,
    /// Bordering cities: (id, weight): 1 for a completed one, less for an open one.
    cities: Vec<(u16, f64)>,
}

impl Valuation {
    /// Each seat's worth in points (scores included), into `out`.
    pub fn values(&self, game: &Game, scratch: &mut Scratch, out: &mut [f64; MAX_PLAYERS]) {
        let n = game.num_players();
        *out = [0.0; MAX_PLAYERS];
        for (o, &s) in out.iter_mut().zip(game.scores()) {
            *o = s as f64;
        }
        if game.is_over() {
            return;
        }
        let left = game.tiles_left() as f64;
        let phase = (left / FULL_BAG).min(1.0);
        let rules = game.rules();
        for (p, o) in out.iter_mut().enumerate().take(n) {
            let p = PlayerId(p as u8);
            let has = |figure| if game.in_supply(p, figure) { 1.0 } else { 0.0 };
            let home = game.supply(p) as f64 + has(Figure::Abbot) + 1.5 * has(Figure::BigFollower);
            *o += phase
                * (self.follower * home + self.builder / 2.0 * has(Figure::Builder) + self.pig * has(Figure::Pig));
        }
        if rules.has_goods() {
            self.value_goods(game, phase, out);
        }

        // What an open feature scores at the end if it stays open.
        let at_end = if rules.incomplete_scoring { 1.0 } else { 0.0 };
        let board = game.board();
        scratch.seen.clear();
        scratch.farms.clear();
        scratch.pigs.clear();
        for f in game.followers() {
            let Some(info) = board.feature_at(f.pos, f.spot) else { continue };
            // The builder and the pig hold nothing: their owner's follower there does.
            match f.figure() {
                Figure::Builder => {
                    if !info.complete {
                        out[f.player.0 as usize] += self.builder * phase;
                    }
                    continue;
                }
                Figure::Pig => {
                    scratch.pigs.push((info.id, f.player.0));
                    continue;
                }
                _ => {}
            }
            if scratch.seen.contains(&info.id) {
                continue;
            }
            scratch.seen.push(info.id);
            let worth = match info.kind {
                SegmentKind::Field => {
                    scratch.farms.push(Farm { id: info.id, followers: info.followers, pigs: 0, cities: Vec::new() });
                    continue;
                }
                SegmentKind::Road => {
                    let tiles = info.tiles as f64;
                    // An inn: twice completed, nothing left open.
                    let (done, end) =
                        if info.inn && rules.has_inns() { (2.0 * tiles, 0.0) } else { (tiles, at_end * tiles) };
                    end + self.chance(&info, left) * (done - end) + self.road_growth * phase
                }
                SegmentKind::City => {
                    let points = (info.tiles + info.shields) as f64;
                    // Completing needs at least one more tile; a cathedral: three times, nothing left open.
                    let (done, end) = if info.cathedral && rules.has_cathedrals() {
                        (3.0 * points, 0.0)
                    } else if rules.small_city && info.tiles == 1 {
                        (points + 1.0, at_end * points)
                    } else {
                        (2.0 * points, at_end * points)
                    };
                    end + self.chance(&info, left) * (done - end)
                }
                SegmentKind::Cloister | SegmentKind::Garden => {
                    let around = neighbours(game, f.pos) as f64;
                    let missing = 8.0 - around;
                    let fill = if missing <= 0.0 { 1.0 } else { (left / (6.0 * missing)).min(1.0) };
                    let end = at_end * (1.0 + around);
                    end + self.cloister_fill * fill * (9.0 - end)
                }
            };
            award(out, &info.followers, n, worth);
        }
        if !scratch.farms.is_empty() && rules.farms != FarmRule::Off {
            for &(id, seat) in &scratch.pigs {
                if let Some(farm) = scratch.farms.iter_mut().find(|f| f.id == id) {
                    farm.pigs |= 1 << seat;
                }
            }
            self.value_farms(game, scratch, left, out);
        }
    }

    /// The goods' final majorities (10 a kind to the players with the most
    /// tokens, ties all), weighed by how settled they are.
    fn value_goods(&self, game: &Game, phase: f64, out: &mut [f64; MAX_PLAYERS]) {
        let n = game.num_players();
        let weight = 10.0 * (self.goods_lead + (1.0 - self.goods_lead) * (1.0 - phase));
        let mut held = [[0u8; 3]; MAX_PLAYERS];
        for (p, h) in held.iter_mut().enumerate().take(n) {
            *h = game.goods(PlayerId(p as u8));
        }
        let held = &held[..n];
        for kind in 0..3 {
            let top = held.iter().map(|g| g[kind]).max().unwrap_or(0);
            if top == 0 {
                continue;
            }
            for (o, g) in out.iter_mut().zip(held) {
                if g[kind] == top {
                    *o += weight;
                }
            }
        }
    }

    /// Rough chance that an open road or city is completed before the bag
    /// runs out, from its open edges and the tiles left.
    fn chance(&self, info: &FeatureInfo, left: f64) -> f64 {
        let edges = info.open_edges.max(1) as i32;
        let time = (left / (3.0 * edges as f64)).min(1.0);
        self.city_close * self.city_per_edge.powi(edges - 1) * time
    }

    fn value_farms(&self, game: &Game, scratch: &mut Scratch, left: f64, out: &mut [f64; MAX_PLAYERS]) {
        self.farm_cities(game, scratch, left);
        award_farms(game, scratch, out);
    }

    /// Lists the cities each farm in `scratch` borders, weighed 1 if
    /// completed, else by their completion chance.
    fn farm_cities(&self, game: &Game, scratch: &mut Scratch, left: f64) {
        let board = game.board();
        for t in board.tiles() {
            for seg in seg_spots(t.tile, t.rot) {
                if seg.cities.is_empty() {
                    continue;
                }
                let Some(field) = board.feature_at(t.pos, seg.spot) else { continue };
                let Some(farm) = scratch.farms.iter_mut().find(|f| f.id == field.id) else { continue };
                for &c in &seg.cities {
                    let Some(city) = board.feature_at(t.pos, c) else { continue };
                    if farm.cities.iter().any(|&(id, _)| id == city.id) {
                        continue;
                    }
                    let w = if city.complete { 1.0 } else { self.farm_open_city * self.chance(&city, left) };
                    farm.cities.push((city.id, w));
                }
            }
        }
    }
}

/// The farm rule's points for the farms in `scratch` and the cities they
/// border (each weighed as listed), added to the farms' majorities.
fn award_farms(game: &Game, scratch: &mut Scratch, out: &mut [f64; MAX_PLAYERS]) {
    let n = game.num_players();
    match game.rules().farms {
        FarmRule::Off => {}
        FarmRule::PerFarm => {
            for farm in &scratch.farms {
                let w: f64 = farm.cities.iter().map(|&(_, w)| w).sum();
                award(out, &farm.followers, n, 3.0 * w);
                // A pig: 4 instead of 3 to its owner, if they hold the farm.
                award_seats(out, majority(&farm.followers, n) & farm.pigs, n, w);
            }
        }
        FarmRule::PerFarmOnce => {
            #[allow(clippy::needless_range_loop)] // p is a seat, used as a bit too
            for p in 0..n {
                scratch.cities.clear();
                for farm in &scratch.farms {
                    if majority(&farm.followers, n) & (1 << p) != 0 {
                        let pig = farm.pigs & (1 << p) != 0;
                        for &(id, w) in &farm.cities {
                            match scratch.cities.iter_mut().find(|c| c.0 == id) {
                                Some(c) => c.2 |= pig,
                                None => scratch.cities.push((id, w, pig)),
                            }
                        }
                    }
                }
                out[p] += scratch.cities.iter().map(|&(_, w, pig)| if pig { 4.0 } else { 3.0 } * w).sum::<f64>();
            }
        }
        FarmRule::PerCity => {
            // Each city: the farmers of all occupied farms bordering it, and their pigs.
            let mut per_city: Vec<(u16, f64, [u8; 8], u8)> = Vec::new();
            for farm in &scratch.farms {
                for &(id, w) in &farm.cities {
                    match per_city.iter_mut().find(|(c, _, _, _)| *c == id) {
                        Some((_, _, sum, pigs)) => {
                            for (s, f) in sum.iter_mut().zip(farm.followers) {
                                *s += f;
                            }
                            *pigs |= farm.pigs;
                        }
                        None => per_city.push((id, w, farm.followers, farm.pigs)),
                    }
                }
            }
            for (_, w, followers, pigs) in per_city {
                award(out, &followers, n, 4.0 * w);
                award_seats(out, majority(&followers, n) & pigs, n, w);
            }
        }
    }
}

/// How many position features [`features`] computes per player.
pub(crate) const FEATURES: usize = 10;

/// Per player, what the learned valuation (`crate::learned`) weighs: over
/// the open features the player holds (a majority, ties count for all, as
/// in scoring) —
///
/// 0. road tiles, 1. roads,
/// 2. city tiles + shields, 3. cities, 4. the cities' open edges,
/// 5. cloisters' and gardens' `1 + neighbours` (what they score if left
///    open), 6. cloisters and gardens,
/// 7. the farm rule's points for the completed cities its farms border,
/// 8. the same points for the open cities they border,
/// 9. followers (and the abbot) in supply.
///
/// With the bag empty, features 0, 2, 5 and 7 add up to the engine's final
/// scoring of what is open (standard rules).
pub(crate) fn features(game: &Game, scratch: &mut Scratch, out: &mut [[f64; FEATURES]; MAX_PLAYERS]) {
    let n = game.num_players();
    *out = [[0.0; FEATURES]; MAX_PLAYERS];
    for (p, o) in out.iter_mut().enumerate().take(n) {
        let p = PlayerId(p as u8);
        o[9] = game.supply(p) as f64 + if game.abbot_in_supply(p) { 1.0 } else { 0.0 };
    }
    let board = game.board();
    scratch.seen.clear();
    scratch.farms.clear();
    for f in game.followers() {
        let Some(info) = board.feature_at(f.pos, f.spot) else { continue };
        if scratch.seen.contains(&info.id) {
            continue;
        }
        scratch.seen.push(info.id);
        let m = majority(&info.followers, n);
        let mut add = |i: usize, x: f64| {
            for (p, o) in out.iter_mut().enumerate().take(n) {
                if m & (1 << p) != 0 {
                    o[i] += x;
                }
            }
        };
        match info.kind {
            SegmentKind::Field => {
                scratch.farms.push(Farm { id: info.id, followers: info.followers, pigs: 0, cities: Vec::new() })
            }
            SegmentKind::Road => {
                add(0, info.tiles as f64);
                add(1, 1.0);
            }
            SegmentKind::City => {
                add(2, (info.tiles + info.shields) as f64);
                add(3, 1.0);
                add(4, info.open_edges as f64);
            }
            SegmentKind::Cloister | SegmentKind::Garden => {
                add(5, 1.0 + neighbours(game, f.pos) as f64);
                add(6, 1.0);
            }
        }
    }
    if scratch.farms.is_empty() || game.rules().farms == FarmRule::Off {
        return;
    }
    // The farms' points for completed cities, then for all cities.
    let flat = Valuation {
        follower: 0.0,
        city_close: 0.0,
        city_per_edge: 0.0,
        cloister_fill: 0.0,
        farm_open_city: 0.0,
        road_growth: 0.0,
        builder: 0.0,
        pig: 0.0,
        goods_lead: 0.0,
    };
    let (mut done, mut both) = ([0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS]);
    flat.value_farms(game, scratch, f64::INFINITY, &mut done);
    // The farms now list their cities weighed 1 if completed, else 0:
    // weigh them all 1.
    for farm in &mut scratch.farms {
        farm.cities.iter_mut().for_each(|c| c.1 = 1.0);
    }
    award_farms(game, scratch, &mut both);
    for (p, o) in out.iter_mut().enumerate().take(n) {
        o[7] = done[p];
        o[8] = both[p] - done[p];
    }
}

/// `p`'s value minus the best other value.
pub fn margin_of(values: &[f64], p: PlayerId) -> f64 {
    let best_other =
        values.iter().enumerate().filter(|&(i, _)| i != p.index()).map(|(_, &v)| v).fold(f64::NEG_INFINITY, f64::max);
    values[p.index()] - best_other
}

/// The seats with the most followers (bit per seat), none if empty.
fn majority(followers: &[u8; 8], n: usize) -> u8 {
    let best = followers[..n].iter().copied().max().unwrap_or(0);
    if best == 0 {
        return 0;
    }
    (0..n).filter(|&p| followers[p] == best).fold(0, |m, p| m | 1 << p)
}

fn award(out: &mut [f64; MAX_PLAYERS], followers: &[u8; 8], n: usize, worth: f64) {
    award_seats(out, majority(followers, n), n, worth);
}

/// `worth` to each seat of the bits `seats`.
fn award_seats(out: &mut [f64; MAX_PLAYERS], seats: u8, n: usize, worth: f64) {
    for (p, o) in out.iter_mut().enumerate().take(n) {
        if seats & (1 << p) != 0 {
            *o += worth;
        }
    }
}

fn neighbours(game: &Game, p: Pos) -> u32 {
    let b = game.board();
    let mut n = 0;
    for dy in -1..=1 {
        for dx in -1..=1 {
            if (dx, dy) != (0, 0) && b.tile_at(Pos::new(p.x + dx, p.y + dy)).is_some() {
                n += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{seeded_rng, RandomMover, Rules, Setup};

    #[test]
    fn segment_spots_name_every_segment_once() {
        for tile in TileId::all() {
            for rot in Rotation::ALL {
                let mine: Vec<Spot> = seg_spots(tile, rot)
                    .iter()
                    .map(|s| tile.canonical_spot(rot, s.spot, true).expect("a spot of the tile"))
                    .collect();
                let mut engine: Vec<Spot> =
                    Spot::all().filter_map(|s| tile.canonical_spot(rot, s, true)).collect::<Vec<_>>();
                engine.sort();
                engine.dedup();
                let mut sorted = mine.clone();
                sorted.sort();
                assert_eq!(sorted, engine, "{tile} rot {}", rot.quarter_turns());
                assert_eq!(mine.len(), tile.def().segments.len());
            }
        }
    }

    /// With the bag empty, the valuation of the position before the last
    /// move's final scoring equals what the engine scores: check it on the
    /// position just before the end, by valuing at zero tiles left.
    #[test]
    fn a_finished_game_is_worth_its_scores() {
        let mut g = Game::new(Setup::standard(Rules::default(), 2, 5)).unwrap();
        RandomMover::new().playout(&mut g, &mut seeded_rng(5));
        let mut v = [0.0; MAX_PLAYERS];
        Valuation::default().values(&g, &mut Scratch::default(), &mut v);
        assert_eq!(v[0], g.scores()[0] as f64);
        assert_eq!(v[1], g.scores()[1] as f64);
    }

    /// Without completion chances and follower worth, the valuation is the
    /// engine's own final scoring of the position: compare it with a copy of
    /// the game whose deck ends right there, under every farm rule.
    #[test]
    fn at_zero_chances_the_valuation_is_the_final_scoring() {
        let flat = Valuation {
            follower: 0.0,
            city_close: 0.0,
            city_per_edge: 0.0,
            cloister_fill: 0.0,
            farm_open_city: 0.0,
            road_growth: 0.0,
            builder: 0.0,
            pig: 0.0,
            // The goods' majorities counted in full, as the final scoring counts them.
            goods_lead: 1.0,
        };
        let mut scratch = Scratch::default();
        let mut compared = 0;
        let big_box = Rules::parse("big-box").unwrap();
        for (farms, base) in FarmRule::ALL.into_iter().flat_map(|f| [(f, Rules::default()), (f, big_box)]) {
            // The Big Box: inns and cathedrals (nothing left open), goods, pigs.
            let rules = Rules { farms, ..base };
            for seed in 0..30u64 {
                let players = 2 + (seed % 3) as usize;
                let mut g = Game::new(Setup::standard(rules, players, seed)).unwrap();
                let mut rng = seeded_rng(seed);
                let mut mover = RandomMover::new();
                let stop = 10 + (seed as u16 * 7) % 60;
                while g.moves_played() < stop {
                    let Some(mv) = mover.choose(&g, &mut rng) else { break };
                    g.play_unchecked(&mv);
                }
                if g.is_over() {
                    continue;
                }
                // The same draws, ending after the moves played so far.
                let drawn = g.drawn();
                let deck = drawn[..drawn.len() - 1].to_vec();
                let mut ended = Game::new(Setup::with_deck(rules, players, deck)).unwrap();
                for mv in g.history() {
                    ended.play(mv).unwrap();
                }
                assert!(ended.is_over());
                let mut v = [0.0; MAX_PLAYERS];
                flat.values(&g, &mut scratch, &mut v);
                for (p, &value) in v.iter().enumerate().take(players) {
                    assert_eq!(value, ended.scores()[p] as f64, "{rules} seed {seed} seat {p}");
                }
                compared += 1;
            }
        }
        assert!(compared > 200);
    }
}
