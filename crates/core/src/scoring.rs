//! Scoring: features completed during play, the abbot's recall, and the
//! final scoring of incomplete features, farms and (Traders & Builders)
//! goods. What the expansions change is asked of their parts
//! (`expansion/`): a road's or city's worth, a completed city's goods,
//! the pigs in a farm.

use crate::board::MAX_TILES;
use crate::event::{Event, PlayerId, Role, ScoredKind, Scoring, Seats, TurnNo, When};
use crate::expansion::inns;
use crate::game::{Figure, Game, FOLLOWERS, MAX_PLAYERS};
use crate::rules::FarmRule;
use crate::tile::{SegmentKind, MAX_SEGMENTS};

impl Game {
    /// The seats with the most followers in a packed count (none if empty).
    pub(crate) fn majority(&self, meeples: u32) -> Seats {
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

    /// The followers on the board whose feature's root `on` holds, a bit per
    /// index into `followers` ([`Scoring::followers`]); builders and pigs,
    /// which count in no majority, are left out.
    /// Only for the event log: 0 without it (search and the bench keep no
    /// log, and the look at every follower is a tenth of the final scoring).
    fn followers_on(&mut self, on: impl Fn(u16) -> bool) -> u64 {
        let mut men = 0u64;
        if !self.log_events {
            return men;
        }
        for i in 0..self.followers.len().min(64) {
            let f = self.followers[i];
            if f.counts() && on(self.board.find(f.seg)) {
                men |= 1 << i;
            }
        }
        men
    }

    fn award(&mut self, s: Scoring) {
        for p in s.to.iter() {
            self.scores[p.index()] += s.points;
        }
        self.log(Event::Scored(s));
    }

    /// A road or city completed by the tile of `turn`: its holders score,
    /// the player who placed the tile takes a completed city's goods
    /// (Traders & Builders, R6: held or not), and the figures on it go home.
    pub(crate) fn score_completed(&mut self, root: u16, turn: TurnNo) {
        let f = *self.board.feature(root);
        let goods = f.kind() == SegmentKind::City && self.rules.has_goods() && f.sums.goods() != [0; 3];
        if f.meeples == 0 {
            if goods {
                self.take_goods(f.sums.goods(), f.tiles, turn);
            }
            return;
        }
        let tiles = f.tile_count();
        let shields = f.shields();
        let mut s = Scoring::new(Some(turn), ScoredKind::Road, When::Completed, 0, self.majority(f.meeples));
        s.tiles = tiles as u8;
        s.cover = f.tiles;
        if f.kind() == SegmentKind::Road {
            s.points = inns::road_points(&self.rules, tiles, f.inn(), true);
            s.inn = f.inn() && self.rules.has_inns();
        } else {
            s.kind = ScoredKind::City;
            s.shields = shields as u8;
            s.points = inns::city_points(&self.rules, tiles, shields, f.cathedral(), true);
            s.cathedral = f.cathedral() && self.rules.has_cathedrals();
        }
        self.award(s);
        if goods {
            self.take_goods(f.sums.goods(), f.tiles, turn);
        }
        self.return_followers(root, turn);
    }

    /// A cloister or garden (segment `seg`) surrounded by the tile of `turn`.
    pub(crate) fn score_cloister(&mut self, seg: u16, turn: TurnNo) {
        let f = *self.board.feature(seg);
        let kind = if f.kind() == SegmentKind::Garden { ScoredKind::Garden } else { ScoredKind::Cloister };
        let to = self.majority(f.meeples);
        // The cloister's tile is the feature's one tile: it and the eight around it.
        let pos = self.board.tiles()[f.tiles.trailing_zeros() as usize].pos;
        let mut s = Scoring::new(Some(turn), kind, When::Completed, 9, to);
        s.cover = if self.log_events { self.board.around(pos) } else { 0 };
        self.award(s);
        self.return_followers(seg, turn);
    }

    /// rules.md, The Abbot: "a player who deploys nothing may instead take
    /// their abbot back …, scoring at once what its cloister or garden is
    /// worth now: 1 + the number of surrounding tiles."
    pub(crate) fn recall(&mut self, player: PlayerId, turn: TurnNo) {
        // Found without a branch per figure (a player has one abbot).
        let abbot = |f: &crate::game::Follower| f.player == player && f.role == Role::Abbot;
        let at = self.followers.iter().enumerate().fold(usize::MAX, |at, (i, f)| if abbot(f) { i } else { at });
        let Some(i) = (at != usize::MAX).then_some(at) else {
            return;
        };
        let f = self.followers.swap_remove(i);
        self.forget_monk(f.pos);
        let points = 1 + self.board.neighbours(f.pos);
        self.board.feature_mut(f.seg).meeples -= 1 << (4 * player.0);
        self.home[player.index()] |= Figure::Abbot.home_bit();
        self.scores[player.index()] += points;
        self.log(Event::AbbotRecalled { turn, player, pos: f.pos, points });
    }

    /// A monk or abbot at `pos` leaves the board.
    fn forget_monk(&mut self, pos: crate::geom::Pos) {
        if let Some(k) = self.monks.iter().position(|&p| p == pos) {
            self.monks.swap_remove(k);
        }
    }

    /// Every figure on the scored feature `root` goes home: followers to
    /// the supply, the abbot, big follower and builder (expansions.md §2.3:
    /// its owner has no follower left there) to their owners.
    fn return_followers(&mut self, root: u16, turn: TurnNo) {
        self.board.feature_mut(root).meeples = 0;
        let mut i = 0;
        while i < self.followers.len() {
            let f = self.followers[i];
            if self.board.find(f.seg) == root {
                self.followers.swap_remove(i);
                if matches!(f.role, Role::Monk | Role::Abbot) {
                    self.forget_monk(f.pos);
                }
                match f.figure() {
                    Figure::Follower => self.supply[f.player.index()] += 1,
                    figure => self.home[f.player.index()] |= figure.home_bit(),
                }
                if f.role == Role::Builder {
                    self.traders.builder_at[f.player.index()] = crate::expansion::traders::TradersState::NOWHERE;
                }
                if self.ext {
                    self.traders.count(f.player.index(), f.role, -1);
                }
                self.log(Event::FollowerReturned { turn, player: f.player, pos: f.pos, spot: f.spot });
            } else {
                i += 1;
            }
        }
    }

    /// Final scoring (rules.md, "End of the game"): incomplete roads,
    /// cities, cloisters and gardens, then farms, then (Traders & Builders)
    /// the goods.
    pub(crate) fn finish(&mut self) {
        self.finished = true;
        self.hands.iter_mut().for_each(|h| *h = crate::game::Hand::EMPTY);
        // Features and farms seen, without allocating: at most one per
        // follower on the board (seven, a big follower, an abbot).
        const MOST: usize = MAX_PLAYERS * (FOLLOWERS as usize + 2);
        let (mut seen, mut n_seen) = ([0u16; MOST], 0);
        let (mut farms, mut n_farms) = ([0u16; MOST], 0);
        for i in 0..self.followers.len() {
            let f = self.followers[i];
            // Builders and pigs score nothing of their own: the builder's
            // feature and the pig's farm hold a follower of its owner.
            if !f.counts() {
                continue;
            }
            let root = self.board.find(f.seg);
            if seen[..n_seen].contains(&root) {
                continue;
            }
            seen[n_seen] = root;
            n_seen += 1;
            let feat = *self.board.feature(root);
            if feat.kind() == SegmentKind::Field {
                farms[n_farms] = root;
                n_farms += 1;
                continue;
            }
            if !self.rules.incomplete_scoring {
                continue;
            }
            let mut s = Scoring::new(None, ScoredKind::Road, When::Final, 0, self.majority(feat.meeples));
            s.cover = feat.tiles;
            match feat.kind() {
                SegmentKind::Road => {
                    s.tiles = feat.tile_count() as u8;
                    s.points = inns::road_points(&self.rules, feat.tile_count(), feat.inn(), false);
                }
                SegmentKind::City => {
                    s.kind = ScoredKind::City;
                    s.tiles = feat.tile_count() as u8;
                    s.shields = feat.shields() as u8;
                    s.points =
                        inns::city_points(&self.rules, feat.tile_count(), feat.shields(), feat.cathedral(), false);
                }
                SegmentKind::Cloister | SegmentKind::Garden => {
                    s.kind = if feat.kind() == SegmentKind::Garden { ScoredKind::Garden } else { ScoredKind::Cloister };
                    s.points = 1 + self.board.neighbours(f.pos);
                    s.cover = if self.log_events { self.board.around(f.pos) } else { 0 };
                }
                SegmentKind::Field => unreachable!("farms are scored below"),
            }
            // An open road with an inn, or city with a cathedral, pays
            // nothing (expansions.md §1.2): no scoring to tell.
            if s.points == 0 {
                continue;
            }
            s.followers = self.followers_on(|r| r == root);
            self.award(s);
        }
        if n_farms > 0 {
            self.score_farms(&farms[..n_farms]);
        }
        if self.rules.has_goods() {
            self.score_goods();
        }
        let winners = self.winners();
        self.log(Event::GameOver { winners });
    }

    /// Farm scoring at the end, per the farm option. `farms` are the roots of
    /// the occupied farms, in the order their first farmer was deployed. A
    /// majority player with their own pig in a farm is paid 1 more per
    /// city through it (Traders & Builders: expansions.md §2.4, §5).
    fn score_farms(&mut self, farms: &[u16]) {
        // The completed cities bordering the occupied farms, each with the
        // set of farms (bit per index in `farms`) it borders. Only the tiles
        // the occupied farms cover can hold such a border. Features are
        // looked up by root in two tables over all segments: a farm's index,
        // a city's place in `cities`.
        const SEGMENTS: usize = MAX_TILES * MAX_SEGMENTS;
        const NONE: u8 = u8::MAX;
        let mut farm_index = [NONE; SEGMENTS];
        for (fi, &f) in farms.iter().enumerate() {
            farm_index[f as usize] = fi as u8;
        }
        let mut city_index = [NONE; SEGMENTS];
        let mut cities: Vec<(u16, u64)> = Vec::with_capacity(32);
        let mut covered = farms.iter().fold(0u128, |acc, &f| acc | self.board.feature(f).tiles);
        while covered != 0 {
            let ti = covered.trailing_zeros() as usize;
            covered &= covered - 1;
            let rt = self.board.shape(&self.board.tiles()[ti]);
            for &(s, c) in &rt.farm_cities[..rt.n_farm_cities as usize] {
                let fi = farm_index[self.board.find(self.board.segment(ti, s)) as usize];
                if fi == NONE {
                    continue;
                }
                let city = self.board.find(self.board.segment(ti, c));
                if self.board.feature(city).open != 0 {
                    continue;
                }
                let k = match city_index[city as usize] {
                    // A city met for the first time; or, past 254 cities
                    // (custom decks and table edges only), one without an
                    // index, found by search.
                    NONE => match cities.iter().position(|&(c, _)| c == city) {
                        Some(k) => k,
                        None => {
                            cities.push((city, 0));
                            if cities.len() <= NONE as usize {
                                city_index[city as usize] = (cities.len() - 1) as u8;
                            }
                            cities.len() - 1
                        }
                    },
                    k => k as usize,
                };
                cities[k].1 |= 1 << fi;
            }
        }
        // The pigs' owners in each farm (a seat bit per farm index).
        let mut pigs = [Seats::default(); MAX_PLAYERS * (FOLLOWERS as usize + 2)];
        if self.rules.has_pig() {
            for i in 0..self.followers.len() {
                let f = self.followers[i];
                if f.role == Role::Pig {
                    let fi = farm_index[self.board.find(f.seg) as usize];
                    if fi != NONE {
                        pigs[fi as usize] = pigs[fi as usize].with(f.player);
                    }
                }
            }
        }
        let bordering = |fi: usize| cities.iter().filter(move |&&(_, m)| m & (1 << fi) != 0).map(|&(c, _)| c);
        let why = self.log_events;
        // A farm scoring covers its farms and the completed cities it pays for.
        let farm_scoring = |points: u32, to: Seats, cities: usize, pig: usize, cover: u128, followers: u64| {
            let mut s = Scoring::new(None, ScoredKind::Farm, When::Final, points, to);
            s.cities = cities as u8;
            s.pig = pig as u8;
            s.cover = cover;
            s.followers = followers;
            s
        };
        match self.rules.farms {
            FarmRule::Off => {}
            FarmRule::PerFarm => {
                for (fi, &farm) in farms.iter().enumerate() {
                    let n = bordering(fi).count();
                    if n > 0 {
                        let to = self.majority(self.board.feature(farm).meeples);
                        let cover =
                            if why { self.board.feature(farm).tiles | tiles_of(&self.board, bordering(fi)) } else { 0 };
                        let men = self.followers_on(|r| r == farm);
                        // The majority players who score alike share one event;
                        // those with their pig there get their own.
                        let fat = Seats(to.0 & pigs[fi].0);
                        let lean = Seats(to.0 & !fat.0);
                        if !lean.is_empty() {
                            self.award(farm_scoring(3 * n as u32, lean, n, 0, cover, men));
                        }
                        if !fat.is_empty() {
                            self.award(farm_scoring(4 * n as u32, fat, n, n, cover, men));
                        }
                    }
                }
            }
            FarmRule::PerFarmOnce => {
                for p in 0..self.players {
                    let me = PlayerId(p);
                    // Each city paid once, 4 if the player's pig stands in a
                    // farm through which the city pays them.
                    let mut paid: Vec<(u16, bool)> = Vec::new();
                    let mut cover = 0u128;
                    let mut held = 0u64;
                    for (fi, &farm) in farms.iter().enumerate() {
                        if self.majority(self.board.feature(farm).meeples).contains(me) {
                            cover |= self.board.feature(farm).tiles;
                            held |= 1 << fi;
                            let pig = pigs[fi].contains(me);
                            for c in bordering(fi) {
                                match paid.iter_mut().find(|(city, _)| *city == c) {
                                    Some((_, fat)) => *fat |= pig,
                                    None => paid.push((c, pig)),
                                }
                            }
                        }
                    }
                    if !paid.is_empty() {
                        let n = paid.len();
                        let fat = paid.iter().filter(|&&(_, fat)| fat).count();
                        if why {
                            cover |= tiles_of(&self.board, paid.iter().map(|&(c, _)| c));
                        }
                        let men = self
                            .followers_on(|r| farms.iter().enumerate().any(|(i, &f)| f == r && held & (1 << i) != 0));
                        self.award(farm_scoring((3 * n + fat) as u32, Seats(1 << p), n, fat, cover, men));
                    }
                }
            }
            FarmRule::PerCity => {
                // Each city with the farmers, the tiles and the pigs of the
                // farms bordering it, and those farms (a bit per index in `farms`).
                let mut cities: Vec<(u16, u32, u128, Seats, u64)> = Vec::new();
                for (fi, &farm) in farms.iter().enumerate() {
                    let m = self.board.feature(farm).meeples;
                    let t = self.board.feature(farm).tiles;
                    for c in bordering(fi) {
                        match cities.iter_mut().find(|(city, ..)| *city == c) {
                            Some((_, sum, tiles, pig, fed)) => {
                                *sum += m;
                                *tiles |= t;
                                *pig = Seats(pig.0 | pigs[fi].0);
                                *fed |= 1 << fi;
                            }
                            None => cities.push((c, m, t, pigs[fi], 1 << fi)),
                        }
                    }
                }
                cities.sort_unstable_by_key(|&(c, ..)| c);
                for (c, m, t, pig, fed) in cities {
                    let to = self.majority(m);
                    let men =
                        self.followers_on(|r| farms.iter().enumerate().any(|(i, &f)| f == r && fed & (1 << i) != 0));
                    let cover = t | self.board.feature(c).tiles;
                    let fat = Seats(to.0 & pig.0);
                    let lean = Seats(to.0 & !fat.0);
                    if !lean.is_empty() {
                        self.award(farm_scoring(4, lean, 1, 0, cover, men));
                    }
                    if !fat.is_empty() {
                        self.award(farm_scoring(5, fat, 1, 1, cover, men));
                    }
                }
            }
        }
    }
}

/// The tiles of some features (by root), a bit per placed tile.
fn tiles_of(board: &crate::board::Board, roots: impl Iterator<Item = u16>) -> u128 {
    roots.fold(0, |acc, r| acc | board.feature(r).tiles)
}
