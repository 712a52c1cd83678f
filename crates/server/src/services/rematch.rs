//! Rematch (docs/web.md, "Chat and rematch"): once a game is over, every
//! human player accepts (bots accept at once); the last acceptance makes a
//! new game with the same seats, rules and time control, the seats rotated
//! so that the first player moves on. Each accepting seat holder is handed
//! the token of their seat in the new game in their own answer, and only
//! its hash is stored; the new game is made once, whichever server hears
//! the last acceptance (`RematchRepo::claim`).

use std::sync::Arc;

use carcassonne::record::Record;
use carcassonne::{Game, PlayerId, Setup};

use super::chat::{AfterGame, Chat};
use super::games::clock::ClockState;
use super::games::live::{Live, Viewer};
use super::games::Games;
use super::ids::{new_game_id, new_token, now_ms, random_bytes};
use super::quotas::{Quotas, Spender};
use crate::error::ApiError;
use crate::store::{hash_token, ChatRepo, NewGame, RatingRepo, RematchRepo, Seat, Store, DELETED_ACCOUNT};

/// A seat holder's acceptance: their seats in the new game with their
/// tokens (for them alone), and what follows the game now.
#[derive(Clone, Debug)]
pub struct Accepted {
    /// (seat in the new game, its token).
    pub tokens: Vec<(PlayerId, String)>,
    pub after: AfterGame,
}

/// The seat that old seat `seat` takes in the rematch of a game of `n`
/// seats: every seat moves one place up, the first goes last (so the
/// second player moves first).
pub fn rotated(seat: usize, n: usize) -> usize {
    (seat + n - 1) % n
}

/// Rematches of finished games.
pub struct Rematches {
    repo: Arc<dyn RematchRepo>,
    ratings: Arc<dyn RatingRepo>,
    chat_repo: Arc<dyn ChatRepo>,
    games: Arc<Games>,
    chat: Arc<Chat>,
    quotas: Arc<Quotas>,
}

impl Rematches {
    pub fn new(store: &Store, games: Arc<Games>, chat: Arc<Chat>, quotas: Arc<Quotas>) -> Rematches {
        Rematches {
            repo: Arc::clone(&store.rematches),
            ratings: Arc::clone(&store.ratings),
            chat_repo: Arc::clone(&store.chat),
            games,
            chat,
            quotas,
        }
    }

    /// Seat holder `viewer` accepts the rematch of the finished game
    /// `live`, for every seat it holds; the last acceptance makes the game,
    /// one of the new games of the hour of `spender` (its client address,
    /// or a known account; refused past the quota, and the acceptance not
    /// kept: a chain of quick games rematched would otherwise make games
    /// without end).
    ///
    /// # Errors
    /// `unauthorized` (a spectator), `game_not_over`, `already_accepted`,
    /// `quota_exceeded`, `storage_error`.
    pub async fn accept(
        &self,
        live: &Arc<Live>,
        viewer: &Viewer,
        spender: Option<Spender>,
    ) -> Result<Accepted, ApiError> {
        if viewer.seats.is_empty() {
            return Err(ApiError::Unauthorized);
        }
        let (finished, n, humans) = {
            let t = live.lock().await;
            let humans: Vec<u8> = t
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| matches!(s, Seat::Human { .. }))
                .map(|(i, _)| i as u8)
                .collect();
            (t.finished(), t.seats.len(), humans)
        };
        if !finished {
            return Err(ApiError::GameNotOver);
        }
        let before = self.repo.get(&live.id).await?;
        let last = before.game.is_none()
            && humans
                .iter()
                .all(|h| viewer.seats.iter().any(|p| p.0 == *h) || before.accepted.iter().any(|a| a.0 == *h));
        if last {
            self.quotas.take(spender.clone())?;
        }
        let mut tokens = Vec::new();
        for p in &viewer.seats {
            if before.accepted.iter().any(|a| a.0 == p.0) {
                continue;
            }
            let token = new_token()?;
            if self.repo.accept(&live.id, p.0, &hash_token(&token)).await? {
                tokens.push((PlayerId(rotated(p.index(), n) as u8), token));
            }
        }
        if tokens.is_empty() {
            if last {
                self.quotas.give_back(spender);
            }
            return Err(ApiError::AlreadyAccepted);
        }
        self.make(live).await?;
        let after = self.chat.after_game_changed(&live.id).await?;
        Ok(Accepted { tokens, after })
    }

    /// Makes the rematch of `live` if every human seat accepted and nobody
    /// made it yet.
    async fn make(&self, live: &Arc<Live>) -> Result<(), ApiError> {
        let rematch = self.repo.get(&live.id).await?;
        if rematch.game.is_some() {
            return Ok(());
        }
        let (old_seats, rules, timing, owner) = {
            let t = live.lock().await;
            (t.seats.clone(), *t.game.rules(), t.clock.as_ref().map(|c| (c.control, c.away_minutes)), t.owner.clone())
        };
        let n = old_seats.len();
        // The first game's links (seat, account, the address's hash): a
        // seat whose account was deleted has none.
        let linked = self.ratings.linked(&live.id).await?;
        let link_of = |old: usize| linked.iter().find(|l| usize::from(l.0) == old);
        let mut seats: Vec<Option<Seat>> = vec![None; n];
        let mut addresses: Vec<Option<String>> = vec![None; n];
        for (i, seat) in old_seats.into_iter().enumerate() {
            let new = match seat {
                Seat::Human { name, remote, account, .. } => {
                    let Some((_, hash)) = rematch.accepted.iter().find(|a| a.0 as usize == i) else {
                        return Ok(()); // someone has yet to accept
                    };
                    // The seat's account goes along (its profile; a rated
                    // rematch) if it is still linked, and so does the
                    // address it was taken from, for the one-address check.
                    let link = link_of(i).filter(|l| account.as_deref() == Some(l.1.as_str()));
                    addresses[rotated(i, n)] = link.and_then(|l| l.2.clone());
                    let account = link.map(|l| l.1.clone()).filter(|a| a != DELETED_ACCOUNT);
                    Seat::Human { name, token_hash: hash.clone(), remote, account }
                }
                bot @ Seat::Bot { .. } => bot,
            };
            seats[rotated(i, n)] = Some(new);
        }
        let seats: Vec<Seat> = seats.into_iter().flatten().collect();
        let names: Vec<String> = seats.iter().map(|s| s.name().to_string()).collect();
        let setup = Setup::standard(rules, n, u64::from_le_bytes(random_bytes::<8>()?));
        let live_seed = setup.live_seed;
        let game = Game::new(setup).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let record = Record::from_game(&game, &names);
        let id = new_game_id()?;
        // The first game's rated flag goes along (a rated game's rematch is
        // rated) while every seat is a person's live account (not a bot of
        // a game rated before people-only, not a deleted account's seat,
        // which would stand as a fixed opponent for ever), and its chat
        // turned off, if it was.
        let people = seats.iter().all(|s| matches!(s, Seat::Human { account: Some(_), .. }));
        let rated = people && self.ratings.rated(&live.id).await?.is_some();
        let chat_off = self.chat_repo.settings(&live.id).await?.off;
        // The first game's owner owns it: it counts among the games that
        // address keeps (room made for it), and its bots take turns in
        // the owner's lane.
        self.games.room_for(owner.as_deref()).await?;
        let new = NewGame { owner, ..NewGame::new(id.clone(), record, live_seed, seats, now_ms(), false) };
        // So does its time control, the clocks started afresh: a rated
        // game's rematch is timed as it was, and nobody stalls it.
        let new = match timing {
            Some((control, away)) => {
                ClockState::new(control, away, &game, &new.seats, self.games.now().ms()).kept_with(new)?
            }
            None => new,
        };
        self.games.keep(&new, rated, chat_off, |i| addresses[i].clone()).await?;
        // Made first, then claimed: two servers hearing the last two
        // acceptances at once each make one, and one claim wins (the other
        // game is never named: nobody plays it).
        if self.repo.claim(&live.id, &id).await? {
            tracing::info!(game = %live.id, rematch = %id, "rematch made");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::rotated;

    #[test]
    fn seats_move_one_place_up() {
        assert_eq!((0..3).map(|s| rotated(s, 3)).collect::<Vec<_>>(), vec![2, 0, 1]);
        assert_eq!((0..2).map(|s| rotated(s, 2)).collect::<Vec<_>>(), vec![1, 0]);
    }
}
