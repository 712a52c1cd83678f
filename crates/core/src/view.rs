//! What one player may see of a game.

use crate::board::Board;
use crate::event::PlayerId;
use crate::game::{Follower, Game};
use crate::tile::{TileId, TILE_KINDS};

/// A player's view of a game: everything on the table and the counts of the
/// tiles still to come, never their order.
#[derive(Copy, Clone, Debug)]
pub struct View<'a> {
    game: &'a Game,
    player: PlayerId,
}

impl<'a> View<'a> {
    pub fn new(game: &'a Game, player: PlayerId) -> View<'a> {
        View { game, player }
    }

    /// Whose view this is.
    pub fn player(&self) -> PlayerId {
        self.player
    }

    pub fn board(&self) -> &'a Board {
        self.game.board()
    }

    pub fn scores(&self) -> &'a [u32] {
        self.game.scores()
    }

    pub fn supply(&self, p: PlayerId) -> u8 {
        self.game.supply(p)
    }

    pub fn followers(&self) -> &'a [Follower] {
        self.game.followers()
    }

    pub fn to_move(&self) -> Option<PlayerId> {
        self.game.to_move()
    }

    /// The tile drawn for the player to move (all players see it).
    pub fn tile(&self) -> Option<TileId> {
        self.game.tile()
    }

    /// What `p` holds, if this player may see it: their own hand, every
    /// hand with `hand_visible`, and the drawn tile without a hand rule.
    pub fn hand(&self, p: PlayerId) -> Option<&'a [TileId]> {
        (p == self.player || self.game.hand_visible_to_all(p)).then(|| self.game.hand(p))
    }

    /// How many tiles `p` holds (always public).
    pub fn hand_len(&self, p: PlayerId) -> usize {
        self.game.hand(p).len()
    }

    /// Whether `p`'s abbot is in supply.
    pub fn abbot_in_supply(&self, p: PlayerId) -> bool {
        self.game.abbot_in_supply(p)
    }

    /// Whether `p` has a figure of this kind in supply (public).
    pub fn in_supply(&self, p: PlayerId, figure: crate::game::Figure) -> bool {
        self.game.in_supply(p, figure)
    }

    /// The goods tokens `p` holds (public: they lie on the table).
    pub fn goods(&self, p: PlayerId) -> [u8; 3] {
        self.game.goods(p)
    }

    /// Which part of the turn is to play (the builder's second tile, or
    /// none); the tile of a second part is hidden in the bag until drawn.
    pub fn bonus(&self) -> Option<crate::game::Bonus> {
        self.game.bonus()
    }

    pub fn rules(&self) -> &'a crate::rules::Rules {
        self.game.rules()
    }

    pub fn num_players(&self) -> usize {
        self.game.num_players()
    }

    /// The seat that played first.
    pub fn first(&self) -> PlayerId {
        self.game.first()
    }

    /// The moves played so far (all of them public).
    pub fn history(&self) -> &'a [crate::game::Move] {
        self.game.history()
    }

    pub fn moves_played(&self) -> u16 {
        self.game.moves_played()
    }

    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// Everything that happened so far (all of it public).
    pub fn events(&self) -> &'a [crate::event::Event] {
        self.game.events()
    }

    /// The legal moves of the player to move.
    pub fn legal_moves(&self) -> Vec<crate::game::Move> {
        self.game.legal_moves()
    }

    /// How many of each tile are still in the bag.
    pub fn remaining(&self) -> [u8; TILE_KINDS] {
        self.game.remaining()
    }

    /// How many of each tile this player cannot see: the bag and the
    /// other players' hidden hands.
    pub fn unseen(&self) -> [u8; TILE_KINDS] {
        self.game.unseen(|p| p == self.player || self.game.hand_visible_to_all(p))
    }

    pub fn tiles_left(&self) -> usize {
        self.game.tiles_left()
    }

    /// A game consistent with this view: the same table, with what the
    /// player cannot see (the bag's order, hidden hands) sampled from
    /// `rng`. Search works on such samples.
    pub fn sample(&self, rng: &mut impl rand_core::RngCore) -> Game {
        let mut g = self.game.clone();
        g.resample_hidden(self.player, rng);
        g
    }
}
