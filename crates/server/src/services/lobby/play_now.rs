//! "Play now" (docs/web.md, *Lobby*): one button pairs a person with
//! someone waiting on standard rules, close in rating first (the window
//! widening with the wait), or starts a game against a bot after the wait
//! they chose. Waits live in the store: two waits are paired in one
//! conditional write (`LobbyRepo::pair`), so that two servers pairing the
//! same people pair them once.

use std::sync::Arc;

use carcassonne::Rules;
use serde::{Deserialize, Serialize};

pub use super::common::WAIT_GONE;
use super::common::{refused, sitter_name, Seated, Who};
use crate::bots::{BotLevel, ExternalBot};
use crate::error::ApiError;
use crate::names::name_key;
use crate::services::games::new::BOT_NAMES;
use crate::services::games::{Games, Start};
use crate::services::ids::{new_id, new_token, now_ms, plausible, plausible_token};
use crate::services::quotas::Quotas;
use crate::services::ratings::Ratings;
use crate::store::{hash_token, same_hash, LobbyRepo, Seat, Store, Waiting};

/// Unpaired waits per person (account, or address) at once.
pub const WAITS_PER_OWNER: usize = 4;
/// Waits stored at most.
pub const MAX_WAITS: usize = 1000;
/// The rating of a player without one (a guest, or no rated duel yet).
pub const DEFAULT_RATING: i64 = 1500;
/// Bot games offered after a wait of this many seconds at least / at most.
pub const BOT_AFTER: std::ops::RangeInclusive<u64> = 5..=600;

/// `POST /api/lobby/play-now`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayNowRequest {
    #[serde(default)]
    pub name: Option<String>,
    /// Seconds after which a bot game is offered instead (none: wait on).
    #[serde(default)]
    pub bot_after: Option<u64>,
    /// The bot's level (as the new-game form's).
    #[serde(default)]
    pub level: Option<String>,
}

/// What a wait keeps besides its columns (`Waiting::body`).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct WaitBody {
    bot_after: Option<u64>,
    level: Option<BotLevel>,
}

/// Where a wait stands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WaitView {
    pub id: String,
    /// `waiting` or `paired`.
    pub state: &'static str,
    pub game: Option<String>,
    pub seat: Option<i64>,
    /// Whether the game is against a bot (after the wait chosen).
    pub bot: bool,
    pub waited_ms: i64,
    pub rating: i64,
}

/// The rating window for two players who waited `waited_ms` (the longer
/// wait): 100 points, 50 more every 5 seconds.
pub fn rating_window(waited_ms: i64) -> i64 {
    100 + 50 * (waited_ms.max(0) / 5000)
}

/// "Play now": people waiting, paired.
pub struct PlayNow {
    repo: Arc<dyn LobbyRepo>,
    games: Arc<Games>,
    ratings: Arc<Ratings>,
    quotas: Arc<Quotas>,
    programs: Vec<ExternalBot>,
}

impl PlayNow {
    pub fn new(
        store: &Store,
        games: Arc<Games>,
        ratings: Arc<Ratings>,
        quotas: Arc<Quotas>,
        programs: Vec<ExternalBot>,
    ) -> PlayNow {
        PlayNow { repo: Arc::clone(&store.lobby), games, ratings, quotas, programs }
    }

    /// Starts waiting for "Play now": the seat token of the game to come
    /// is handed back.
    ///
    /// # Errors
    /// `bad_request` (name, level, wait), `quota_exceeded`, `storage_error`.
    pub async fn wait(&self, req: PlayNowRequest, who: &Who) -> Result<Seated<WaitView>, ApiError> {
        if let Some(s) = req.bot_after {
            if !BOT_AFTER.contains(&s) {
                return Err(ApiError::BadRequest(format!(
                    "bot_after: {} to {} seconds",
                    BOT_AFTER.start(),
                    BOT_AFTER.end()
                )));
            }
        }
        let level = match req.level.as_deref() {
            None => None,
            Some(l) => Some(
                BotLevel::named(l, &self.programs)
                    .ok_or_else(|| ApiError::BadRequest(format!("unknown bot level \"{l}\"")))?,
            ),
        };
        let name = sitter_name(who, req.name.as_deref(), &[])?;
        let token = new_token()?;
        let now = now_ms();
        let body = WaitBody { bot_after: req.bot_after, level };
        // A signed-in player's two-player rating; a guest's, a new player's.
        let rating = match &who.account {
            Some((account, _)) => self.ratings.duel_rating(account).await.map_or(DEFAULT_RATING, |(rating, _)| rating),
            None => DEFAULT_RATING,
        };
        let w = Waiting {
            id: new_id()?,
            owner: who.owner.clone(),
            token_hash: hash_token(&token),
            name,
            rating,
            body: serde_json::to_string(&body).map_err(|e| ApiError::Storage(e.to_string()))?,
            since: now,
            seen_at: now,
            game: None,
            seat: None,
        };
        // The game it will make (paired or with a bot) counts now.
        self.quotas.take(who.ip)?;
        if !self.repo.wait(&w, WAITS_PER_OWNER, MAX_WAITS).await? {
            self.quotas.give_back(who.ip);
            return Err(ApiError::Quota(format!("{WAITS_PER_OWNER} waits per person")));
        }
        let view = self.try_pair(w).await?;
        Ok(Seated { view, seat: 0, token })
    }

    /// Where wait `id` stands (its holder, `token`, asks): pairs it with
    /// another waiting player if one is near enough in rating, or starts
    /// the bot game once its wait is over.
    ///
    /// # Errors
    /// `not_found` (no such wait, or it ended), `unauthorized`, `storage_error`.
    pub async fn waiting(&self, id: &str, token: &str) -> Result<WaitView, ApiError> {
        if !plausible(id) {
            return Err(ApiError::NotFound(format!("wait {id}")));
        }
        let w = self.repo.waiting(id, None).await?.ok_or_else(|| ApiError::NotFound(format!("wait {id}")))?;
        if !plausible_token(token) || !same_hash(&w.token_hash, &hash_token(token)) {
            return Err(ApiError::Unauthorized);
        }
        let w = self.repo.waiting(id, Some(now_ms())).await?.unwrap_or(w);
        self.try_pair(w).await
    }

    /// Ends wait `id` unless it was paired.
    ///
    /// # Errors
    /// `not_found`, `unauthorized`, `already_paired`, `storage_error`.
    pub async fn stop(&self, id: &str, token: &str) -> Result<(), ApiError> {
        if !plausible(id) {
            return Err(ApiError::NotFound(format!("wait {id}")));
        }
        let w = self.repo.waiting(id, None).await?.ok_or_else(|| ApiError::NotFound(format!("wait {id}")))?;
        if !plausible_token(token) || !same_hash(&w.token_hash, &hash_token(token)) {
            return Err(ApiError::Unauthorized);
        }
        if self.repo.cancel(id).await? {
            Ok(())
        } else {
            Err(refused("already_paired", "you were paired: the game is on"))
        }
    }

    fn wait_view(w: &Waiting, now: i64, bot: bool) -> WaitView {
        WaitView {
            id: w.id.clone(),
            state: if w.game.is_some() { "paired" } else { "waiting" },
            game: w.game.clone(),
            seat: w.seat,
            bot,
            waited_ms: now - w.since,
            rating: w.rating,
        }
    }

    async fn try_pair(&self, w: Waiting) -> Result<WaitView, ApiError> {
        let now = now_ms();
        let body: WaitBody = serde_json::from_str(&w.body).unwrap_or(WaitBody { bot_after: None, level: None });
        if w.game.is_some() {
            return Ok(Self::wait_view(&w, now, false));
        }
        // Someone waiting near enough in rating: the one waiting longest.
        let seen_after = now - WAIT_GONE.as_millis() as i64;
        let others = self.repo.waiters(seen_after, 100).await?;
        let mine = now - w.since;
        let other = others
            .into_iter()
            .find(|o| o.id != w.id && (o.rating - w.rating).abs() <= rating_window(mine.max(now - o.since)));
        if let Some(o) = other {
            let names = if name_key(&o.name) == name_key(&w.name) {
                [o.name.clone(), format!("{} 2", w.name)]
            } else {
                [o.name.clone(), w.name.clone()]
            };
            let seats = vec![
                Seat::Human { name: names[0].clone(), token_hash: o.token_hash.clone(), remote: true, account: None },
                Seat::Human { name: names[1].clone(), token_hash: w.token_hash.clone(), remote: true, account: None },
            ];
            // The game first, then the claim of both waits: a game whose
            // claim lost a race is never handed out.
            let live = self.games.start(seats, Rules::default(), Start { public: true, ..Start::default() }).await?;
            if self.repo.pair(&[o.id.clone(), w.id.clone()], &live.id).await? {
                tracing::info!(game = %live.id, "two waiting players paired");
                let w = Waiting { game: Some(live.id.clone()), seat: Some(1), ..w };
                return Ok(Self::wait_view(&w, now, false));
            }
            // Someone else paired one of them first: as it stands now.
            let w = self.repo.waiting(&w.id, None).await?.ok_or_else(|| ApiError::NotFound("wait".into()))?;
            return Ok(Self::wait_view(&w, now, false));
        }
        if let Some(after) = body.bot_after {
            if mine >= after as i64 * 1000 {
                let level = body.level.clone().unwrap_or(BotLevel::Normal);
                let bot = BOT_NAMES.iter().find(|b| name_key(b) != name_key(&w.name)).copied().unwrap_or("Aldric");
                let seats = vec![
                    Seat::Human { name: w.name.clone(), token_hash: w.token_hash.clone(), remote: true, account: None },
                    Seat::Bot { name: bot.to_string(), level },
                ];
                let live =
                    self.games.start(seats, Rules::default(), Start { public: true, ..Start::default() }).await?;
                if self.repo.pair(std::slice::from_ref(&w.id), &live.id).await? {
                    let w = Waiting { game: Some(live.id.clone()), seat: Some(0), ..w };
                    return Ok(Self::wait_view(&w, now, true));
                }
                let w = self.repo.waiting(&w.id, None).await?.ok_or_else(|| ApiError::NotFound("wait".into()))?;
                return Ok(Self::wait_view(&w, now, false));
            }
        }
        Ok(Self::wait_view(&w, now, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_widens_with_waiting() {
        assert_eq!(rating_window(0), 100);
        assert_eq!(rating_window(4999), 100);
        assert_eq!(rating_window(10_000), 200);
        assert!(rating_window(60_000) > rating_window(30_000));
    }
}
