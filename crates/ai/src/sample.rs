//! Determinization: games consistent with what a player sees, with the
//! tiles they cannot see (the bag's order, other players' hidden hands)
//! sampled.
//!
//! [`View::sample`] shuffles the hidden tiles of a copy of the real game.
//! Its result is uniformly distributed whatever the hidden order was, but a
//! *given* generator maps two different hidden orders to two different
//! samples, so a seeded bot could still decide differently in two games
//! that look the same to it. [`Determinizer`] removes that dependence: each
//! sample's hidden tiles are an arrangement drawn by the bot's generator
//! from the *multiset* of unseen tiles alone. The arrangement also keeps The
//! River's order (river tiles first, the lake last of them, then the land
//! tiles), which a plain shuffle of the whole bag would not.
//!
//! The arrangement is put in place with [`Game::set_hidden`]. (The first
//! version had no such call and drove [`Game::resample_hidden`] with a
//! scripted generator instead, which cost a quadratic search per sample.)

use carcassonne::{seeded_rng, Game, PlayerId, TileId, View};
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

/// Makes samples of one view, each from the same copy. Searches on several
/// threads share one.
#[derive(Clone, Debug)]
pub struct Determinizer {
    base: Game,
    viewer: PlayerId,
    /// The same tiles sorted by id: what the view tells of them.
    sorted: Vec<TileId>,
    /// Whether the engine takes arrangements (checked once).
    canonical: bool,
}

impl Determinizer {
    /// A determinizer for the view's player.
    pub fn new(view: &View<'_>) -> Determinizer {
        // The generator is fixed: samples never depend on this first shuffle.
        let mut base = view.sample(&mut seeded_rng(0x005e_ed0f_ca4c));
        base.set_event_log(false);
        let viewer = view.player();
        let mut sorted = pool(&base, viewer);
        sorted.sort_unstable_by_key(|t| t.index());
        let mut d = Determinizer { base, viewer, sorted, canonical: true };
        let mut trial = d.base.clone();
        d.canonical = d.scripted(&mut trial, &d.sorted) && pool(&trial, viewer) == d.sorted;
        d
    }

    /// Whether samples depend on the view alone (not on the hidden order):
    /// false if the engine refused an arrangement.
    pub fn is_canonical(&self) -> bool {
        self.canonical
    }

    /// The copy samples start from (event log off). Its hidden tiles are in
    /// some order: use it for what the player sees, not for what is hidden.
    pub fn base(&self) -> &Game {
        &self.base
    }

    /// A game consistent with the view, the unseen tiles arranged by `rng`.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Game {
        let mut g = self.base.clone();
        self.sample_into(&mut g, rng);
        g
    }

    /// As [`Determinizer::sample`], into an existing game.
    pub fn sample_into(&self, game: &mut Game, rng: &mut ChaCha8Rng) {
        let mut target = self.sorted.clone();
        arrange(&mut target, rng);
        if !(self.canonical && self.scripted(game, &target)) {
            game.clone_from(&self.base);
            game.resample_hidden(self.viewer, rng);
        }
        // Tiles sent back into the bag (`reshuffle`) go to places drawn from
        // the bot's generator, not from the real game's.
        game.make_live(rng.next_u64());
    }

    /// Makes `game` a copy of the base with the hidden tiles in `target`
    /// order; false if the engine refused it.
    fn scripted(&self, game: &mut Game, target: &[TileId]) -> bool {
        game.clone_from(&self.base);
        game.set_hidden(self.viewer, target).is_ok()
    }
}

/// The tiles `viewer` cannot see, in the order the engine pools them: the
/// hidden hands of the other players in seat order, then the bag.
///
/// Reading a *sample's* deck is not reading the real game's order: this
/// module only reads it in order to replace it.
fn pool(g: &Game, viewer: PlayerId) -> Vec<TileId> {
    let mut out = Vec::with_capacity(g.tiles_left() + 8);
    for p in 0..g.num_players() {
        let p = PlayerId(p as u8);
        if p != viewer && !g.hand_visible_to_all(p) {
            out.extend_from_slice(g.hand(p));
        }
    }
    let deck = g.deck();
    out.extend_from_slice(&deck[deck.len() - g.tiles_left()..]);
    out
}

/// A random arrangement of `tiles` (in draw order) that respects The River:
/// river tiles first, the lake last of them, then the land tiles, each
/// group uniformly shuffled. Without river tiles, a uniform shuffle.
fn arrange(tiles: &mut [TileId], rng: &mut ChaCha8Rng) {
    let lake = TileId::from_name("RV02");
    // Sorting puts the groups in order: by (group, id), then shuffle each.
    let group = |t: &TileId| match () {
        _ if Some(*t) == lake => 1,
        _ if t.is_river() => 0,
        _ => 2,
    };
    tiles.sort_unstable_by_key(|t| (group(t), t.index()));
    let mut start = 0;
    while start < tiles.len() {
        let g = group(&tiles[start]);
        let end = start + tiles[start..].iter().take_while(|t| group(t) == g).count();
        carcassonne::shuffle_with(&mut tiles[start..end], rng);
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{RandomMover, Rules, Setup};

    /// Two games that differ only in the order of the unseen tiles.
    pub(crate) fn twins(rules: Rules, seed: u64, turns: u16) -> (Game, Game) {
        let setup = Setup::standard(rules, 2, seed);
        let mut a = Game::new(setup.clone()).unwrap();
        let mut rng = seeded_rng(seed);
        let mut mover = RandomMover::new();
        while a.moves_played() < turns {
            let mv = mover.choose(&a, &mut rng).unwrap();
            a.play(&mv).unwrap();
        }
        let known = a.drawn().len();
        let mut deck = setup.deck.clone();
        deck[known..].reverse();
        let mut b = Game::new(Setup { deck, ..setup }).unwrap();
        for mv in a.history() {
            b.play(mv).unwrap();
        }
        assert_ne!(a.deck(), b.deck());
        (a, b)
    }

    #[test]
    fn samples_do_not_depend_on_the_hidden_order() {
        let (a, b) = twins(Rules::default(), 3, 20);
        let da = Determinizer::new(&View::new(&a, PlayerId(0)));
        let db = Determinizer::new(&View::new(&b, PlayerId(0)));
        for k in 0..5 {
            let sa = da.sample(&mut seeded_rng(k));
            let sb = db.sample(&mut seeded_rng(k));
            assert_eq!(sa.deck(), sb.deck());
            // The sample keeps what the player knows.
            assert_eq!(sa.remaining(), a.remaining());
            assert_eq!(sa.hand(PlayerId(0)), a.hand(PlayerId(0)));
            assert_eq!(sa.scores(), a.scores());
            assert_eq!(sa.history(), a.history());
        }
        assert!(da.is_canonical() && db.is_canonical());
        // Different generators do give different arrangements.
        assert_ne!(da.sample(&mut seeded_rng(1)).deck(), da.sample(&mut seeded_rng(2)).deck());
    }

    #[test]
    fn river_samples_keep_the_river_first_and_the_lake_last_of_it() {
        let rules = Rules::parse("standard,river=true").unwrap();
        let g = Game::new(Setup::standard(rules, 2, 4)).unwrap();
        let d = Determinizer::new(&View::new(&g, PlayerId(0)));
        let s = d.sample(&mut seeded_rng(7));
        assert!(d.is_canonical());
        let bag = &s.deck()[s.deck().len() - s.tiles_left()..];
        let rivers = bag.iter().take_while(|t| t.is_river()).count();
        assert!(rivers > 0 && bag[rivers..].iter().all(|t| !t.is_river()));
        assert_eq!(bag[rivers - 1].name(), "RV02");
    }

    #[test]
    fn hidden_hands_are_resampled_and_own_hand_kept() {
        let rules = Rules::parse("standard,hand=3").unwrap();
        let (a, b) = twins(rules, 5, 6);
        let me = a.to_move().unwrap();
        let other = PlayerId(1 - me.0);
        let da = Determinizer::new(&View::new(&a, me));
        let db = Determinizer::new(&View::new(&b, me));
        let sa = da.sample(&mut seeded_rng(3));
        let sb = db.sample(&mut seeded_rng(3));
        assert!(da.is_canonical());
        assert_eq!(sa.hand(me), a.hand(me));
        assert_eq!(sa.hand(other), sb.hand(other));
        assert_eq!(sa.deck(), sb.deck());
    }
}
