//! A slow, independent model of the rules to check the engine against:
//! features are found by flood fill over the tiles on a hash map, every time,
//! instead of the engine's incremental union–find. It shares only the tile
//! definitions (`TileDef`, canonical orientation, with each segment's
//! shield, inn, cathedral and goods) with the engine. The expansions
//! (Inns & Cathedrals, Traders & Builders) are modelled from
//! expansions.md directly: big followers weigh 2 in every count, inns and
//! cathedrals change a road's and city's worth, a completed city's goods go
//! to the player who placed the tile, the builder asks for a second part,
//! the pig fattens its owner's farms.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use carcassonne::{Dir, FarmRule, Pos, Rules, SegmentKind, TileId};

/// Which half-edge of the neighbour touches half-edge `h` (tiles.md:
/// my En ↔ east neighbour's Wn, my Nw ↔ north neighbour's Sw, …).
fn touching_half(h: usize) -> usize {
    match h {
        0 => 5,
        1 => 4,
        2 => 7,
        3 => 6,
        4 => 1,
        5 => 0,
        6 => 3,
        _ => 2,
    }
}

fn turn4(mask: u8, r: u8) -> u8 {
    let mut m = mask;
    for _ in 0..r {
        m = ((m << 1) | (m >> 3)) & 0xF;
    }
    m
}

fn turn8(mask: u8, r: u8) -> u8 {
    let mut m = mask;
    for _ in 0..2 * r {
        m = m.rotate_left(1);
    }
    m
}

#[derive(Copy, Clone, Debug)]
struct Laid {
    tile: TileId,
    rot: u8,
}

impl Laid {
    fn edge(&self, d: usize) -> char {
        // The edge now facing d was canonical edge d - rot.
        let canon = (d + 4 - self.rot as usize) % 4;
        let def = self.tile.def();
        match def.edges[canon] {
            carcassonne::EdgeKind::City => 'C',
            carcassonne::EdgeKind::Road => 'R',
            carcassonne::EdgeKind::Field => 'F',
            carcassonne::EdgeKind::River => '~',
        }
    }

    fn seg_edges(&self, s: usize) -> u8 {
        turn4(self.tile.def().segments[s].edges, self.rot)
    }

    fn seg_halves(&self, s: usize) -> u8 {
        turn8(self.tile.def().segments[s].halves, self.rot)
    }

    fn kind(&self, s: usize) -> SegmentKind {
        self.tile.def().segments[s].kind
    }

    fn segments(&self) -> usize {
        self.tile.def().segments.len()
    }
}

type Node = (Pos, usize);

#[derive(Clone, Debug)]
pub struct RefFollower {
    pub player: usize,
    node: Node,
    /// 2 for a big follower.
    weight: u32,
}

/// The reference model of one game.
pub struct Reference {
    rules: Rules,
    players: usize,
    board: HashMap<Pos, Laid>,
    pub followers: Vec<RefFollower>,
    pub supply: Vec<u32>,
    pub scores: Vec<u32>,
    /// Abbots on the board: (player, node).
    pub abbots: Vec<(usize, Node)>,
    /// Points awarded by (kind word, when word), in order.
    pub log: Vec<(String, u32, Vec<usize>)>,
    /// The river's open end: the empty cell, the direction the river flows
    /// into it, and how the last river tile turned (-1 left, 1 right, 0 none).
    river: Option<(Pos, usize, i8)>,
    /// Per player: big follower, builder and pig at home.
    pub big_home: Vec<bool>,
    pub builder_home: Vec<bool>,
    pub pig_home: Vec<bool>,
    /// Builders and pigs on the board: (player, node).
    pub builders: Vec<(usize, Node)>,
    pub pigs: Vec<(usize, Node)>,
    /// Goods tokens per player: wine, wheat, cloth.
    pub goods: Vec<[u32; 3]>,
    /// Whether the part just played earned its player a second part (the builder).
    pub bonus_due: bool,
}

/// What a player does after placing a tile.
#[derive(Clone, Debug)]
pub enum RefAction<'a> {
    Nothing,
    Follower(&'a str),
    Abbot(&'a str),
    Recall,
    Big(&'a str),
    Builder(&'a str),
    Pig(&'a str),
}

struct Feature {
    nodes: BTreeSet<Node>,
    open: bool,
}

impl Reference {
    pub fn new(rules: Rules, players: usize, start: TileId, start_rot: u8) -> Reference {
        let mut board = HashMap::new();
        let laid = Laid { tile: start, rot: start_rot };
        board.insert(Pos::new(0, 0), laid);
        let river = (0..4).find(|&d| laid.edge(d) == '~').map(|d| (Pos::new(0, 0).step(Dir::from_index(d)), d, 0));
        Reference {
            rules,
            players,
            board,
            followers: Vec::new(),
            supply: vec![7; players],
            scores: vec![0; players],
            abbots: Vec::new(),
            log: Vec::new(),
            river,
            big_home: vec![rules.inns_cathedrals && rules.big_follower; players],
            builder_home: vec![rules.traders_builders && rules.builder; players],
            pig_home: vec![rules.traders_builders && rules.pig; players],
            builders: Vec::new(),
            pigs: Vec::new(),
            goods: vec![[0; 3]; players],
            bonus_due: false,
        }
    }

    /// Whether `tile` may lie at `pos` turned `rot`.
    pub fn fits(&self, tile: TileId, pos: Pos, rot: u8) -> bool {
        if self.board.contains_key(&pos) {
            return false;
        }
        if let Some((w, h)) = self.rules.board_limit {
            if pos.x.abs() > (w as i32 - 1) / 2 || pos.y.abs() > (h as i32 - 1) / 2 {
                return false;
            }
        }
        let laid = Laid { tile, rot };
        if tile.is_river() && !self.continues_river(laid, pos) {
            return false;
        }
        let mut touches = false;
        for d in 0..4 {
            if let Some(n) = self.board.get(&pos.step(Dir::from_index(d))) {
                touches = true;
                if n.edge((d + 2) % 4) != laid.edge(d) {
                    return false;
                }
            }
        }
        touches
    }

    /// The river rules: a river tile lies on the open end, its river facing
    /// back upstream, and does not turn the same way as the curve before it.
    fn continues_river(&self, laid: Laid, pos: Pos) -> bool {
        let Some((cell, flow, last)) = self.river else { return false };
        let upstream = (flow + 2) % 4;
        if cell != pos || laid.edge(upstream) != '~' {
            return false;
        }
        match (0..4).find(|&d| d != upstream && laid.edge(d) == '~') {
            None => true,
            Some(out) => {
                // Facing downstream (flow), the next side clockwise is the right.
                let turn = if out == (flow + 1) % 4 {
                    1
                } else if out == (flow + 3) % 4 {
                    -1
                } else {
                    0
                };
                turn == 0 || turn != last
            }
        }
    }

    /// Every (pos, rot) where `tile` fits, scanning the whole bounding box.
    pub fn all_fits(&self, tile: TileId) -> BTreeSet<(i32, i32, u8)> {
        let xs = self.board.keys().map(|p| p.x);
        let ys = self.board.keys().map(|p| p.y);
        let (x0, x1) = (xs.clone().min().unwrap() - 1, xs.max().unwrap() + 1);
        let (y0, y1) = (ys.clone().min().unwrap() - 1, ys.max().unwrap() + 1);
        let mut out = BTreeSet::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                for r in 0..4 {
                    if self.fits(tile, Pos::new(x, y), r) {
                        out.insert((x, y, r));
                    }
                }
            }
        }
        out
    }

    /// The segment a spot names (edges N E S W, halves Nw…Wn, C).
    fn node_of(&self, pos: Pos, spot: &str) -> Option<Node> {
        let laid = self.board.get(&pos)?;
        let halves = ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"];
        let s = (0..laid.segments()).find(|&s| match spot {
            "N" | "E" | "S" | "W" => {
                let d = "NESW".find(spot).unwrap();
                matches!(laid.kind(s), SegmentKind::City | SegmentKind::Road) && laid.seg_edges(s) & (1 << d) != 0
            }
            "C" => laid.kind(s) == SegmentKind::Cloister,
            "G" => laid.kind(s) == SegmentKind::Garden,
            "I" => laid.kind(s) == SegmentKind::Field && laid.seg_halves(s) == 0,
            _ => halves
                .iter()
                .position(|h| *h == spot)
                .is_some_and(|h| laid.kind(s) == SegmentKind::Field && laid.seg_halves(s) & (1 << h) != 0),
        })?;
        Some((pos, s))
    }

    fn links(&self, (pos, s): Node) -> (Vec<Node>, bool) {
        let laid = self.board[&pos];
        let mut out = Vec::new();
        let mut open = false;
        match laid.kind(s) {
            SegmentKind::City | SegmentKind::Road => {
                let e = laid.seg_edges(s);
                for d in 0..4 {
                    if e & (1 << d) == 0 {
                        continue;
                    }
                    let np = pos.step(Dir::from_index(d));
                    match self.board.get(&np) {
                        None if self.beyond_table(np) && self.rules.border_completes => {}
                        None => open = true,
                        Some(n) => {
                            let back = (d + 2) % 4;
                            let t = (0..n.segments())
                                .find(|&t| n.kind(t) == laid.kind(s) && n.seg_edges(t) & (1 << back) != 0)
                                .expect("matching edge segment");
                            out.push((np, t));
                        }
                    }
                }
            }
            SegmentKind::Field => {
                let hs = laid.seg_halves(s);
                for h in 0..8 {
                    if hs & (1 << h) == 0 {
                        continue;
                    }
                    let np = pos.step(Dir::from_index(h / 2));
                    if let Some(n) = self.board.get(&np) {
                        let back = touching_half(h);
                        let t = (0..n.segments())
                            .find(|&t| n.kind(t) == SegmentKind::Field && n.seg_halves(t) & (1 << back) != 0)
                            .expect("matching field segment");
                        out.push((np, t));
                    }
                }
            }
            _ => {}
        }
        (out, open)
    }

    fn beyond_table(&self, p: Pos) -> bool {
        self.rules.board_limit.is_some_and(|(w, h)| p.x.abs() > (w as i32 - 1) / 2 || p.y.abs() > (h as i32 - 1) / 2)
    }

    fn feature(&self, start: Node) -> Feature {
        let mut nodes = BTreeSet::new();
        let mut open = false;
        let mut stack = vec![start];
        while let Some(n) = stack.pop() {
            if !nodes.insert(n) {
                continue;
            }
            let (next, o) = self.links(n);
            open |= o;
            stack.extend(next);
        }
        Feature { nodes, open }
    }

    /// Each player's followers on a feature, a big follower counting 2.
    fn counts(&self, f: &Feature) -> Vec<u32> {
        let mut count = vec![0; self.players];
        for fl in &self.followers {
            if f.nodes.contains(&fl.node) {
                count[fl.player] += fl.weight;
            }
        }
        count
    }

    fn holders(&self, f: &Feature) -> Vec<usize> {
        let mut count = self.counts(f);
        for &(p, node) in &self.abbots {
            if f.nodes.contains(&node) {
                count[p] += 1;
            }
        }
        let best = *count.iter().max().unwrap();
        if best == 0 {
            return vec![];
        }
        (0..self.players).filter(|&p| count[p] == best).collect()
    }

    fn award(&mut self, what: &str, points: u32, to: Vec<usize>) {
        for &p in &to {
            self.scores[p] += points;
        }
        self.log.push((what.to_string(), points, to));
    }

    fn remove_followers(&mut self, f: &Feature) {
        let (gone, kept): (Vec<_>, Vec<_>) = self.followers.drain(..).partition(|fl| f.nodes.contains(&fl.node));
        self.followers = kept;
        for g in gone {
            if g.weight == 2 {
                self.big_home[g.player] = true;
            } else {
                self.supply[g.player] += 1;
            }
        }
        self.abbots.retain(|(_, node)| !f.nodes.contains(node));
        // The builder goes home with its feature scored.
        let (gone, kept): (Vec<_>, Vec<_>) = self.builders.drain(..).partition(|(_, n)| f.nodes.contains(n));
        self.builders = kept;
        for (p, _) in gone {
            self.builder_home[p] = true;
        }
    }

    fn seg(&self, (pos, s): Node) -> carcassonne::SegmentDef {
        self.board[&pos].tile.def().segments[s]
    }

    fn inn(&self, f: &Feature) -> bool {
        self.rules.inns_cathedrals && self.rules.inns && f.nodes.iter().any(|&n| self.seg(n).inn)
    }

    fn cathedral(&self, f: &Feature) -> bool {
        self.rules.inns_cathedrals && self.rules.cathedrals && f.nodes.iter().any(|&n| self.seg(n).cathedral)
    }

    /// Goods symbols in a city: wine, wheat, cloth.
    fn goods_of(&self, f: &Feature) -> [u32; 3] {
        let mut g = [0; 3];
        for &n in &f.nodes {
            if let Some(good) = self.seg(n).goods {
                g[good as usize] += 1;
            }
        }
        g
    }

    fn surrounded(&self, pos: Pos) -> u32 {
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) != (0, 0) && self.board.contains_key(&Pos::new(pos.x + dx, pos.y + dy)) {
                    n += 1;
                }
            }
        }
        n
    }

    fn tiles_of(f: &Feature) -> u32 {
        f.nodes.iter().map(|n| n.0).collect::<BTreeSet<_>>().len() as u32
    }

    fn shields_of(&self, f: &Feature) -> u32 {
        f.nodes.iter().filter(|&&n| self.seg(n).shield).count() as u32
    }

    /// Plays a move (`bonus`: the builder's second part); returns an error
    /// word if the move is illegal.
    pub fn play(
        &mut self,
        player: usize,
        tile: TileId,
        pos: Pos,
        rot: u8,
        action: RefAction,
        bonus: bool,
    ) -> Result<(), String> {
        if !self.fits(tile, pos, rot) {
            return Err("does not fit".into());
        }
        let laid = Laid { tile, rot };
        self.board.insert(pos, laid);
        if tile.is_river() {
            let (_, flow, _) = self.river.expect("a river to continue");
            let upstream = (flow + 2) % 4;
            self.river = (0..4).find(|&d| d != upstream && laid.edge(d) == '~').map(|out| {
                let turn = if out == (flow + 1) % 4 {
                    1
                } else if out == (flow + 3) % 4 {
                    -1
                } else {
                    0
                };
                (pos.step(Dir::from_index(out)), out, turn)
            });
        }
        // The builder's second part: due when this tile's road or city
        // joins the feature of the player's builder, which stood there
        // before the tile; never from a second part.
        self.bonus_due = !bonus
            && self.builders.iter().filter(|b| b.0 == player).any(|&(_, bnode)| {
                let f = self.feature(bnode);
                (0..laid.segments()).any(|s| {
                    matches!(laid.kind(s), SegmentKind::City | SegmentKind::Road) && f.nodes.contains(&(pos, s))
                })
            });
        let (spot, weight) = match action {
            RefAction::Follower(s) => (Some(s), 1),
            RefAction::Big(s) => (Some(s), 2),
            _ => (None, 0),
        };
        if let RefAction::Abbot(spot) = action {
            if !self.rules.abbot || self.abbots.iter().any(|a| a.0 == player) {
                return Err("no abbot".into());
            }
            let node = self.node_of(pos, spot).ok_or("bad abbot spot")?;
            if !matches!(laid.kind(node.1), SegmentKind::Cloister | SegmentKind::Garden) {
                return Err("abbot spot".into());
            }
            self.abbots.push((player, node));
        }
        if let RefAction::Recall = action {
            let i = self.abbots.iter().position(|a| a.0 == player).ok_or("no abbot to recall")?;
            let (_, node) = self.abbots[i];
            let around = self.surrounded(node.0);
            if around == 8 {
                return Err("recall of a completed cloister".into());
            }
            self.abbots.remove(i);
            self.scores[player] += 1 + around;
            self.log.push(("recall".into(), 1 + around, vec![player]));
        }
        if let Some(spot) = spot {
            let node = self.node_of(pos, spot).ok_or("bad spot")?;
            if self.board[&pos].kind(node.1) == SegmentKind::Garden {
                return Err("garden".into());
            }
            if self.board[&pos].kind(node.1) == SegmentKind::Field && self.rules.farms == FarmRule::Off {
                return Err("farmers off".into());
            }
            if weight == 2 && !self.big_home[player] {
                return Err("no big follower".into());
            }
            if weight == 1 && self.supply[player] == 0 {
                return Err("no follower".into());
            }
            let f = self.feature(node);
            if !self.holders(&f).is_empty() {
                return Err("occupied".into());
            }
            if weight == 2 {
                self.big_home[player] = false;
            } else {
                self.supply[player] -= 1;
            }
            self.followers.push(RefFollower { player, node, weight });
        }
        if let RefAction::Builder(spot) = action {
            let node = self.node_of(pos, spot).ok_or("bad builder spot")?;
            if !matches!(laid.kind(node.1), SegmentKind::City | SegmentKind::Road) {
                return Err("builder spot".into());
            }
            if !self.builder_home[player] {
                return Err("no builder".into());
            }
            let f = self.feature(node);
            if self.counts(&f)[player] == 0 {
                return Err("builder without a follower".into());
            }
            if !f.open {
                return Err("builder on a completed feature".into());
            }
            self.builder_home[player] = false;
            self.builders.push((player, node));
        }
        if let RefAction::Pig(spot) = action {
            let node = self.node_of(pos, spot).ok_or("bad pig spot")?;
            if laid.kind(node.1) != SegmentKind::Field || self.rules.farms == FarmRule::Off {
                return Err("pig spot".into());
            }
            if !self.pig_home[player] {
                return Err("no pig".into());
            }
            if self.counts(&self.feature(node))[player] == 0 {
                return Err("pig without a farmer".into());
            }
            self.pig_home[player] = false;
            self.pigs.push((player, node));
        }
        let laid = self.board[&pos];
        let mut done: Vec<BTreeSet<Node>> = Vec::new();
        for s in 0..laid.segments() {
            if !matches!(laid.kind(s), SegmentKind::City | SegmentKind::Road) {
                continue;
            }
            let f = self.feature((pos, s));
            if f.open || done.contains(&f.nodes) {
                continue;
            }
            done.push(f.nodes.clone());
            let city = laid.kind(s) == SegmentKind::City;
            let to = self.holders(&f);
            if !to.is_empty() {
                let tiles = Self::tiles_of(&f);
                let shields = self.shields_of(&f);
                let points = if !city {
                    if self.inn(&f) {
                        2 * tiles
                    } else {
                        tiles
                    }
                } else if self.cathedral(&f) {
                    3 * (tiles + shields)
                } else if self.rules.small_city && tiles == 2 {
                    tiles + shields
                } else {
                    2 * (tiles + shields)
                };
                self.award(if city { "city" } else { "road" }, points, to);
            }
            // Goods to whoever placed the tile, held or not.
            if city && self.rules.traders_builders && self.rules.goods {
                let g = self.goods_of(&f);
                for (held, n) in self.goods[player].iter_mut().zip(g) {
                    *held += n;
                }
            }
            self.remove_followers(&f);
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let p = Pos::new(pos.x + dx, pos.y + dy);
                let Some(l) = self.board.get(&p).copied() else {
                    continue;
                };
                if self.surrounded(p) < 8 {
                    continue;
                }
                for c in (0..l.segments()).filter(|&s| matches!(l.kind(s), SegmentKind::Cloister | SegmentKind::Garden))
                {
                    let f = self.feature((p, c));
                    let to = self.holders(&f);
                    if !to.is_empty() {
                        self.award(if l.kind(c) == SegmentKind::Garden { "garden" } else { "cloister" }, 9, to);
                        self.remove_followers(&f);
                    }
                }
            }
        }
        Ok(())
    }

    /// Final scoring.
    pub fn finish(&mut self) {
        let mut seen: Vec<BTreeSet<Node>> = Vec::new();
        let mut farms: Vec<Feature> = Vec::new();
        if self.rules.incomplete_scoring {
            for (p, node) in self.abbots.clone() {
                let kind = self.board[&node.0].kind(node.1);
                let word = if kind == SegmentKind::Garden { "garden" } else { "cloister" };
                let pts = 1 + self.surrounded(node.0);
                self.award(word, pts, vec![p]);
            }
        }
        for fl in self.followers.clone() {
            let f = self.feature(fl.node);
            if seen.contains(&f.nodes) {
                continue;
            }
            seen.push(f.nodes.clone());
            let kind = self.board[&fl.node.0].kind(fl.node.1);
            let to = self.holders(&f);
            if kind != SegmentKind::Field && !self.rules.incomplete_scoring {
                continue;
            }
            match kind {
                // An open road with an inn, a city with a cathedral: nothing.
                SegmentKind::Road if self.inn(&f) => {}
                SegmentKind::City if self.cathedral(&f) => {}
                SegmentKind::Road => self.award("road", Self::tiles_of(&f), to),
                SegmentKind::City => {
                    let pts = Self::tiles_of(&f) + self.shields_of(&f);
                    self.award("city", pts, to)
                }
                SegmentKind::Cloister => {
                    let pts = 1 + self.surrounded(fl.node.0);
                    self.award("cloister", pts, to)
                }
                _ => farms.push(f),
            }
        }
        // Completed cities bordering each farm, named by their smallest node.
        let borders: Vec<BTreeSet<Node>> = farms
            .iter()
            .map(|farm| {
                let mut cities = BTreeSet::new();
                for &(pos, s) in &farm.nodes {
                    let laid = self.board[&pos];
                    let touched = laid.tile.def().segments[s].cities;
                    for c in 0..16 {
                        if touched & (1 << c) != 0 {
                            let city = self.feature((pos, c));
                            if !city.open {
                                cities.insert(*city.nodes.iter().next().unwrap());
                            }
                        }
                    }
                }
                cities
            })
            .collect();
        // Whose pigs stand in each farm.
        let pig = |farm: &Feature, p: usize| self.pigs.iter().any(|&(q, n)| q == p && farm.nodes.contains(&n));
        let mut awards: Vec<(u32, Vec<usize>)> = Vec::new();
        match self.rules.farms {
            FarmRule::Off => {}
            FarmRule::PerFarm => {
                for (farm, cities) in farms.iter().zip(&borders) {
                    if !cities.is_empty() {
                        for p in self.holders(farm) {
                            let per = if pig(farm, p) { 4 } else { 3 };
                            awards.push((per * cities.len() as u32, vec![p]));
                        }
                    }
                }
            }
            FarmRule::PerFarmOnce => {
                for p in 0..self.players {
                    let mut paid: BTreeMap<Node, u32> = BTreeMap::new();
                    for (farm, cities) in farms.iter().zip(&borders) {
                        if self.holders(farm).contains(&p) {
                            let per = if pig(farm, p) { 4 } else { 3 };
                            for c in cities {
                                let v = paid.entry(*c).or_insert(per);
                                *v = (*v).max(per);
                            }
                        }
                    }
                    if !paid.is_empty() {
                        awards.push((paid.values().sum(), vec![p]));
                    }
                }
            }
            FarmRule::PerCity => {
                let mut per_city: BTreeMap<Node, (Vec<u32>, Vec<bool>)> = BTreeMap::new();
                for (farm, cities) in farms.iter().zip(&borders) {
                    for c in cities {
                        let (counts, pigs) =
                            per_city.entry(*c).or_insert_with(|| (vec![0; self.players], vec![false; self.players]));
                        for fl in &self.followers {
                            if farm.nodes.contains(&fl.node) {
                                counts[fl.player] += fl.weight;
                            }
                        }
                        for (p, has) in pigs.iter_mut().enumerate() {
                            *has |= pig(farm, p);
                        }
                    }
                }
                for (counts, pigs) in per_city.values() {
                    let best = *counts.iter().max().unwrap();
                    for p in (0..self.players).filter(|&p| counts[p] == best) {
                        awards.push((if pigs[p] { 5 } else { 4 }, vec![p]));
                    }
                }
            }
        }
        for (points, to) in awards {
            self.award("farm", points, to);
        }
        // Goods: each kind's most tokens score 10, ties all; nobody for none.
        if self.rules.traders_builders && self.rules.goods {
            for k in 0..3 {
                let top = self.goods.iter().map(|g| g[k]).max().unwrap_or(0);
                if top > 0 {
                    let to = (0..self.players).filter(|&p| self.goods[p][k] == top).collect();
                    self.award("goods", 10, to);
                }
            }
        }
    }
}
