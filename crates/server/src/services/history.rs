//! Who has a history (docs/web.md, *Fair play*): an account old enough,
//! with rated games played to the end. Such people take the places kept
//! for them in the lobby and Play now, and their bots think first (*Bot
//! time*): a crowd of fresh addresses and accounts can slow newcomers at
//! worst, never the people the server already knows. Read from the store,
//! and kept a minute.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::ids::now_ms;
use crate::config::LobbySettings;
use crate::store::{AccountRepo, RatingRepo, Store};

/// How long an answer is kept.
const KEPT_MS: i64 = 60_000;

/// The most answers kept (all forgotten at once when full).
const MAX_KEPT: usize = 4096;

/// Whether an account `age` old with `rated_games` rated games played to
/// the end has a history.
pub fn known(age: Duration, rated_games: i64, settings: &LobbySettings) -> bool {
    age >= settings.known_after && rated_games >= settings.known_rated_games
}

/// Accounts' histories, as last read.
pub struct Histories {
    accounts: Arc<dyn AccountRepo>,
    rated: Arc<dyn RatingRepo>,
    settings: LobbySettings,
    /// By account id: the answer and when it was read (Unix ms).
    kept: Mutex<HashMap<String, (bool, i64)>>,
}

impl Histories {
    pub fn new(store: &Store, settings: LobbySettings) -> Histories {
        Histories {
            accounts: Arc::clone(&store.accounts),
            rated: Arc::clone(&store.ratings),
            settings,
            kept: Mutex::default(),
        }
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, HashMap<String, (bool, i64)>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the account `account`, made at `created_at` (Unix ms), has a
    /// history ([`known`]). An account whose ratings cannot be read has none.
    pub async fn of(&self, account: &str, created_at: i64) -> bool {
        let now = now_ms();
        if let Some(&(known, at)) = self.kept().get(account) {
            if now - at < KEPT_MS {
                return known;
            }
        }
        let age = Duration::from_millis(u64::try_from(now - created_at).unwrap_or(0));
        let games = match self.rated.of(account).await {
            Ok(rows) => rows.iter().map(|r| r.games).sum(),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read an account's ratings");
                return false;
            }
        };
        let answer = known(age, games, &self.settings);
        let mut kept = self.kept();
        if kept.len() >= MAX_KEPT {
            kept.clear();
        }
        kept.insert(account.to_string(), (answer, now));
        answer
    }

    /// Whether account `account` (by id) has a history; none if it is gone.
    pub async fn of_id(&self, account: &str) -> bool {
        if let Some(&(known, at)) = self.kept().get(account) {
            if now_ms() - at < KEPT_MS {
                return known;
            }
        }
        match self.accounts.by_id(account).await {
            Ok(Some(a)) => self.of(&a.id, a.created_at).await,
            Ok(None) => false,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read an account");
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_history_is_an_account_a_day_old_with_a_rated_game() {
        let s = LobbySettings::default();
        let day = Duration::from_secs(24 * 3600);
        assert!(known(day, 1, &s));
        assert!(known(day * 30, 12, &s));
        assert!(!known(day - Duration::from_secs(1), 40, &s), "too young");
        assert!(!known(day * 365, 0, &s), "no rated game played to the end");
    }
}
