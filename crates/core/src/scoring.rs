//! Scoring: features completed during play, the abbot's recall, and the
//! final scoring of incomplete features and farms.

use crate::board::MAX_TILES;
use crate::event::{Event, PlayerId, Role, ScoredKind, Scoring, Seats, TurnNo, When};
use crate::game::{Game, FOLLOWERS, MAX_PLAYERS};
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
    /// index into `followers` ([`Scoring::followers`]).
    /// Only for the event log: 0 without it (search and the bench keep no
    /// log, and the look at every follower is a tenth of the final scoring).
    fn followers_on(&mut self, on: impl Fn(u16) -> bool) -> u64 {
        let mut men = 0u64;
        if !self.log_events {
            return men;
        }
        for i in 0..self.followers.len().min(64) {
            let seg = self.followers[i].seg;
            if on(self.board.find(seg)) {
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

    /// A road or city completed by the tile of `turn`.
    pub(crate) fn score_completed(&mut self, root: u16, turn: TurnNo) {
        let f = *self.board.feature(root);
        if f.meeples == 0 {
            return;
        }
        let tiles = f.tile_count();
        let shields = f.shields as u32;
        let (kind, points) = match f.kind {
            SegmentKind::Road => (ScoredKind::Road, tiles),
            // rules.md, small-city rule: a completed 2-tile city scores as an incomplete one.
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
            cover: f.tiles,
            followers: 0,
        });
        self.return_followers(root, turn);
    }

    /// A cloister or garden (segment `seg`) surrounded by the tile of `turn`.
    pub(crate) fn score_cloister(&mut self, seg: u16, turn: TurnNo) {
        let f = *self.board.feature(seg);
        let kind = if f.kind == SegmentKind::Garden { ScoredKind::Garden } else { ScoredKind::Cloister };
        let to = self.majority(f.meeples);
        // The cloister's tile is the feature's one tile: it and the eight around it.
        let pos = self.board.tiles()[f.tiles.trailing_zeros() as usize].pos;
        self.award(Scoring {
            turn: Some(turn),
            kind,
            when: When::Completed,
            points: 9,
            to,
            tiles: 0,
            shields: 0,
            cities: 0,
            cover: if self.log_events { self.board.around(pos) } else { 0 },
            followers: 0,
        });
        self.return_followers(seg, turn);
    }

    /// rules.md, The Abbot: "a player who deploys nothing may instead take
    /// their abbot back …, scoring at once what its cloister or garden is
    /// worth now: 1 + the number of surrounding tiles."
    pub(crate) fn recall(&mut self, player: PlayerId, turn: TurnNo) {
        let Some(i) = self.followers.iter().position(|f| f.player == player && f.role == Role::Abbot) else {
            return;
        };
        let f = self.followers.swap_remove(i);
        self.forget_monk(f.pos);
        let points = 1 + self.board.neighbours(f.pos);
        self.board.feature_mut(f.seg).meeples -= 1 << (4 * player.0);
        self.abbot_home[player.index()] = true;
        self.scores[player.index()] += points;
        self.log(Event::AbbotRecalled { turn, player, pos: f.pos, points });
    }

    /// A monk or abbot at `pos` leaves the board.
    fn forget_monk(&mut self, pos: crate::geom::Pos) {
        if let Some(k) = self.monks.iter().position(|&p| p == pos) {
            self.monks.swap_remove(k);
        }
    }

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
                if f.role == Role::Abbot {
                    self.abbot_home[f.player.index()] = true;
                } else {
                    self.supply[f.player.index()] += 1;
                }
                self.log(Event::FollowerReturned { turn, player: f.player, pos: f.pos, spot: f.spot });
            } else {
                i += 1;
            }
        }
    }

    /// Final scoring (rules.md, "End of the game"): incomplete roads,
    /// cities, cloisters and gardens, then farms.
    pub(crate) fn finish(&mut self) {
        self.finished = true;
        self.hands.iter_mut().for_each(|h| *h = crate::game::Hand::EMPTY);
        // Features and farms seen, without allocating: at most one per
        // follower on the board.
        const MOST: usize = MAX_PLAYERS * (FOLLOWERS as usize + 1);
        let (mut seen, mut n_seen) = ([0u16; MOST], 0);
        let (mut farms, mut n_farms) = ([0u16; MOST], 0);
        for i in 0..self.followers.len() {
            let f = self.followers[i];
            let root = self.board.find(f.seg);
            if seen[..n_seen].contains(&root) {
                continue;
            }
            seen[n_seen] = root;
            n_seen += 1;
            let feat = *self.board.feature(root);
            if feat.kind == SegmentKind::Field {
                farms[n_farms] = root;
                n_farms += 1;
                continue;
            }
            if !self.rules.incomplete_scoring {
                continue;
            }
            let mut s = Scoring {
                turn: None,
                kind: ScoredKind::Road,
                when: When::Final,
                points: 0,
                to: self.majority(feat.meeples),
                tiles: 0,
                shields: 0,
                cities: 0,
                cover: feat.tiles,
                followers: self.followers_on(|r| r == root),
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
                    s.kind = if feat.kind == SegmentKind::Garden { ScoredKind::Garden } else { ScoredKind::Cloister };
                    s.points = 1 + self.board.neighbours(f.pos);
                    s.cover = if self.log_events { self.board.around(f.pos) } else { 0 };
                }
                SegmentKind::Field => unreachable!("farms are scored below"),
            }
            self.award(s);
        }
        if n_farms > 0 {
            self.score_farms(&farms[..n_farms]);
        }
        let winners = self.winners();
        self.log(Event::GameOver { winners });
    }

    /// Farm scoring at the end, per the farm option. `farms` are the roots of
    /// the occupied farms, in the order their first farmer was deployed.
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
                let slot = &mut city_index[city as usize];
                if *slot == NONE {
                    // At most two cities per tile: fewer than 255 in all.
                    debug_assert!(cities.len() < NONE as usize);
                    *slot = cities.len() as u8;
                    cities.push((city, 0));
                }
                cities[*slot as usize].1 |= 1 << fi;
            }
        }
        let bordering = |fi: usize| cities.iter().filter(move |&&(_, m)| m & (1 << fi) != 0).map(|&(c, _)| c);
        // A farm scoring covers its farms and the completed cities it pays for.
        let farm_scoring = |points: u32, to: Seats, cities: usize, cover: u128, followers: u64| Scoring {
            turn: None,
            kind: ScoredKind::Farm,
            when: When::Final,
            points,
            to,
            tiles: 0,
            shields: 0,
            cities: cities as u8,
            cover,
            followers,
        };
        match self.rules.farms {
            FarmRule::Off => {}
            FarmRule::PerFarm => {
                for (fi, &farm) in farms.iter().enumerate() {
                    let n = bordering(fi).count();
                    if n > 0 {
                        let to = self.majority(self.board.feature(farm).meeples);
                        let cover = if self.log_events {
                            self.board.feature(farm).tiles | tiles_of(&self.board, bordering(fi))
                        } else {
                            0
                        };
                        let men = self.followers_on(|r| r == farm);
                        self.award(farm_scoring(3 * n as u32, to, n, cover, men));
                    }
                }
            }
            FarmRule::PerFarmOnce => {
                for p in 0..self.players {
                    let mut paid: Vec<u16> = Vec::new();
                    let mut cover = 0u128;
                    let mut held: Vec<u16> = Vec::new();
                    for (fi, &farm) in farms.iter().enumerate() {
                        if self.majority(self.board.feature(farm).meeples).contains(PlayerId(p)) {
                            cover |= self.board.feature(farm).tiles;
                            held.push(farm);
                            for c in bordering(fi) {
                                if !paid.contains(&c) {
                                    paid.push(c);
                                }
                            }
                        }
                    }
                    if !paid.is_empty() {
                        let n = paid.len();
                        if self.log_events {
                            cover |= tiles_of(&self.board, paid.iter().copied());
                        }
                        let men = self.followers_on(|r| held.contains(&r));
                        self.award(farm_scoring(3 * n as u32, Seats(1 << p), n, cover, men));
                    }
                }
            }
            FarmRule::PerCity => {
                // Each city with the farmers and the tiles of the farms bordering it.
                // (city, farmers, tiles, the farms feeding it: a bit per index in `farms`)
                let mut cities: Vec<(u16, u32, u128, u64)> = Vec::new();
                for (fi, &farm) in farms.iter().enumerate() {
                    let m = self.board.feature(farm).meeples;
                    let t = self.board.feature(farm).tiles;
                    for c in bordering(fi) {
                        match cities.iter_mut().find(|(city, ..)| *city == c) {
                            Some((_, sum, tiles, fed)) => {
                                *sum += m;
                                *tiles |= t;
                                *fed |= 1 << fi;
                            }
                            None => cities.push((c, m, t, 1 << fi)),
                        }
                    }
                }
                cities.sort_unstable();
                for (c, m, t, fed) in cities {
                    let to = self.majority(m);
                    let men =
                        self.followers_on(|r| farms.iter().enumerate().any(|(i, &f)| f == r && fed & (1 << i) != 0));
                    self.award(farm_scoring(4, to, 1, t | self.board.feature(c).tiles, men));
                }
            }
        }
    }
}

/// The tiles of some features (by root), a bit per placed tile.
fn tiles_of(board: &crate::board::Board, roots: impl Iterator<Item = u16>) -> u128 {
    roots.fold(0, |acc, r| acc | board.feature(r).tiles)
}
