//! Games to watch (docs/web.md, *Watch*): the public games in play, the
//! highest rated first — those of a lobby table or a "Play now" pairing
//! among them, so that a game that left the lobby stays findable. Read
//! from the store at most once every few seconds, whoever asks: a crowd of
//! visitors costs one read.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Mutex;

use crate::error::ApiError;
use crate::rating::{Family, Pool};
use crate::store::{GameRepo, GameSummary, RatingRepo, RatingRow, Seat, Store};

/// How long one reading of the list serves.
const FRESH: Duration = Duration::from_secs(5);

/// Public games in play read from the store (the most recently played
/// first: however many finished games lie between), and listed.
const READ: usize = 200;
const LISTED: usize = 50;

/// A game to watch.
#[derive(Clone, Debug)]
pub struct Watched {
    pub game: GameSummary,
    pub rated: bool,
    /// Each seat's rating: an account's in the game's pool, shown rounded
    /// (none for a bot, a guest, or a player with no rating there).
    pub ratings: Vec<Option<i64>>,
    /// The highest of them.
    pub top: Option<i64>,
    /// Each seat's account's name (none for a bot or a guest).
    pub players: Vec<Option<String>>,
}

pub struct Watch {
    games: Arc<dyn GameRepo>,
    ratings: Arc<dyn RatingRepo>,
    /// The last list, and when it was read (one reader at a time).
    last: Mutex<Option<(Instant, Arc<Vec<Watched>>)>>,
}

impl Watch {
    pub fn new(store: &Store) -> Watch {
        Watch { games: Arc::clone(&store.games), ratings: Arc::clone(&store.ratings), last: Mutex::default() }
    }

    /// The public games in play: the highest `top` first (rated players'
    /// games before the others), then the most recently played.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn live(&self) -> Result<Arc<Vec<Watched>>, ApiError> {
        let mut last = self.last.lock().await;
        if let Some((at, list)) = last.as_ref() {
            if at.elapsed() < FRESH {
                return Ok(Arc::clone(list));
            }
        }
        let list = Arc::new(self.read().await?);
        *last = Some((Instant::now(), Arc::clone(&list)));
        Ok(list)
    }

    async fn read(&self) -> Result<Vec<Watched>, ApiError> {
        let games = self.games.watchable(READ).await?;
        // Each account's ratings, read once.
        let mut known: HashMap<String, Vec<RatingRow>> = HashMap::new();
        let mut listed = Vec::with_capacity(games.len());
        for g in games {
            let pool = Pool::of(g.seats.len(), Family::of_json(&g.rules));
            let mut ratings = Vec::with_capacity(g.seats.len());
            for s in &g.seats {
                let rating = match s {
                    Seat::Human { account: Some(a), .. } => {
                        if !known.contains_key(a) {
                            known.insert(a.clone(), self.ratings.of(a).await?);
                        }
                        known[a].iter().find(|r| r.pool == pool).map(|r| pool.shown(&r.rating).0.round() as i64)
                    }
                    _ => None,
                };
                ratings.push(rating);
            }
            let top = ratings.iter().flatten().max().copied();
            let rated = self.ratings.rated(&g.id).await?.is_some();
            listed.push(Watched { game: g, rated, ratings, top, players: Vec::new() });
        }
        listed.sort_by(|a, b| b.top.cmp(&a.top).then(b.game.progress.at.cmp(&a.game.progress.at)));
        listed.truncate(LISTED);
        // The accounts' names, read at once.
        let ids: Vec<String> = known.into_keys().collect();
        let names: HashMap<String, String> = self.ratings.account_names(&ids).await?.into_iter().collect();
        for w in &mut listed {
            w.players = w.game.seats.iter().map(|s| s.account().and_then(|a| names.get(a).cloned())).collect();
        }
        Ok(listed)
    }
}
