//! Ratings: seats linked to accounts, rated games (applied once), ratings
//! per pool and their history.

use super::error::StoreError;
use super::games::{GameSummary, Seat};
use crate::rating::{self, Pool, Rating};

pub(crate) mod pg;
pub(crate) mod sqlite;

/// What a seat's account becomes once that account is deleted: the link is
/// dropped, the seat keeps the name it was played under, lists say
/// "deleted player".
pub const DELETED_ACCOUNT: &str = "deleted";

/// One seat of a rated result: an account (whose rating moves) or a bot's
/// fixed rating (native scale), and its place (1 = first).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedSeat {
    pub seat: u8,
    pub account: Option<String>,
    pub fixed: Option<Rating>,
    pub place: usize,
}

/// A finished rated game's result, to apply once ([`RatingRepo::apply`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedResult {
    pub game: String,
    pub pool: Pool,
    /// Every seat, in order; none to void the game.
    pub seats: Vec<RatedSeat>,
    /// Unix ms.
    pub at: i64,
}

/// An account's rating in one pool (native scale).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub account: String,
    pub pool: Pool,
    pub rating: Rating,
    pub games: i64,
    pub updated_at: i64,
}

/// What one rated game did to one account's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub account: String,
    pub seat: u8,
    pub before: Rating,
    pub after: Rating,
}

/// One row of an account's rating history (native scale).
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    pub game: String,
    pub pool: Pool,
    pub seat: u8,
    pub place: usize,
    pub before: Rating,
    pub after: Rating,
    /// Unix ms.
    pub at: i64,
}

/// A game an account holds a seat in.
#[derive(Clone, Debug, PartialEq)]
pub struct AccountGame {
    pub game: GameSummary,
    pub seat: u8,
    pub rated: bool,
    /// Its time control's kind as stored with its clocks (`realtime`,
    /// `turn`, `none`; none for a game made before clocks were kept).
    pub clock: Option<String>,
}

/// The ratings' tables in SQLite (migration 8).
pub(crate) const SQLITE_SCHEMA: &str = "CREATE TABLE account_seats (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX account_seats_by_account ON account_seats(account);
    CREATE TABLE rated_games (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        pool        TEXT NOT NULL,     -- duel | multi
        applied     INTEGER NOT NULL DEFAULT 0  -- 0 to apply, 1 applied, 2 void
    );
    CREATE TABLE ratings (
        account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        pool        TEXT NOT NULL,
        rating      REAL NOT NULL,     -- native scale (rating.rs)
        deviation   REAL NOT NULL,
        volatility  REAL NOT NULL,
        games       INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,  -- Unix ms
        PRIMARY KEY (account, pool)
    );
    CREATE INDEX ratings_by_pool ON ratings(pool, rating DESC);
    CREATE TABLE rating_history (
        account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        game_id     TEXT NOT NULL,
        pool        TEXT NOT NULL,
        seat        INTEGER NOT NULL,
        place       INTEGER NOT NULL,
        before_rating REAL NOT NULL, before_deviation REAL NOT NULL,
        after_rating  REAL NOT NULL, after_deviation  REAL NOT NULL,
        at          INTEGER NOT NULL,  -- Unix ms
        PRIMARY KEY (account, game_id)
    );";

/// The ratings' tables in PostgreSQL (migration 7).
pub(crate) const PG_SCHEMA: &str = "CREATE TABLE account_seats (
        game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX account_seats_by_account ON account_seats (account);
    CREATE TABLE rated_games (
        game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        pool        TEXT NOT NULL,     -- duel | multi
        applied     INTEGER NOT NULL DEFAULT 0  -- 0 to apply, 1 applied, 2 void
    );
    CREATE TABLE ratings (
        account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        pool        TEXT NOT NULL,
        rating      DOUBLE PRECISION NOT NULL,  -- native scale (rating.rs)
        deviation   DOUBLE PRECISION NOT NULL,
        volatility  DOUBLE PRECISION NOT NULL,
        games       BIGINT NOT NULL,
        updated_at  BIGINT NOT NULL,  -- Unix ms
        PRIMARY KEY (account, pool)
    );
    CREATE INDEX ratings_by_pool ON ratings (pool, rating DESC);
    CREATE TABLE rating_history (
        account     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        game_id     TEXT NOT NULL,
        pool        TEXT NOT NULL,
        seat        INTEGER NOT NULL,
        place       INTEGER NOT NULL,
        before_rating DOUBLE PRECISION NOT NULL, before_deviation DOUBLE PRECISION NOT NULL,
        after_rating  DOUBLE PRECISION NOT NULL, after_deviation  DOUBLE PRECISION NOT NULL,
        at          BIGINT NOT NULL,  -- Unix ms
        PRIMARY KEY (account, game_id)
    );";

/// The address a seat was taken from (migration 17, both backends): the
/// hash of the client address's key, so that two seats of one rated game
/// taken from one address are known.
pub(crate) const SEAT_ADDRESS_SCHEMA: &str = "ALTER TABLE account_seats ADD COLUMN address TEXT;";

/// Rated games of pool `$4` both accounts `$1` and `$2` played since `$3`.
const TOGETHER: &str = "SELECT COUNT(*) FROM rating_history x JOIN rating_history y ON y.game_id = x.game_id
     WHERE x.account = $1 AND y.account = $2 AND x.at >= $3 AND x.pool = $4";

/// The columns a [`RatingRow`] is read from, in its fields' order.
pub(crate) const RATING_COLUMNS: &str = "r.account, r.pool, r.rating, r.deviation, r.volatility, r.games, r.updated_at";

/// The seats with the one held by `token_hash` linked to `account`: the
/// seat's index, or `None` (no such seat, or linked to someone else).
pub(crate) fn link_in(seats: &mut [Seat], token_hash: &str, account: &str) -> Option<u8> {
    seats.iter_mut().enumerate().find_map(|(i, s)| match s {
        Seat::Human { token_hash: h, account: linked, .. } if super::games::same_hash(h, token_hash) => {
            match linked.as_deref() {
                None => {
                    *linked = Some(account.to_string());
                    Some(i as u8)
                }
                Some(a) if a == account => Some(i as u8),
                Some(_) => None,
            }
        }
        _ => None,
    })
}

/// The seats with `account`'s links dropped: whether any was.
pub(crate) fn forget_in(seats: &mut [Seat], account: &str) -> bool {
    let mut any = false;
    for s in seats {
        if let Seat::Human { account: linked @ Some(_), .. } = s {
            if linked.as_deref() == Some(account) {
                *linked = Some(DELETED_ACCOUNT.to_string());
                any = true;
            }
        }
    }
    any
}

/// The new ratings of a result's accounts: (seat, account, before, after).
/// `current` holds each account's rating before (a new player's start if
/// it has none).
pub(crate) fn changes_of(result: &RatedResult, current: &[(String, Rating)]) -> Vec<RatingChange> {
    let players: Vec<(Rating, usize)> = result
        .seats
        .iter()
        .map(|s| {
            let r = match (&s.account, s.fixed) {
                (Some(a), _) => current.iter().find(|(x, _)| x == a).map(|(_, r)| *r),
                (None, Some(f)) => Some(f),
                (None, None) => None,
            };
            (r.unwrap_or_else(|| result.pool.start()), s.place)
        })
        .collect();
    let after = rating::update(result.pool, &players);
    result
        .seats
        .iter()
        .zip(players.iter().zip(after))
        .filter_map(|(s, ((before, _), after))| {
            s.account.clone().map(|account| RatingChange { account, seat: s.seat, before: *before, after })
        })
        .collect()
}

#[async_trait::async_trait]
pub trait RatingRepo: Send + Sync {
    /// Marks game `id` (just created) as rated, in `pool` (a [`Pool`]'s word).
    ///
    /// # Errors
    /// The storage fails (or the game is gone).
    async fn mark_rated(&self, id: &str, pool: &str) -> Result<(), StoreError>;

    /// Whether game `id` is rated: `None` if not, `Some(applied)` if it is
    /// (`applied`: its result was applied, or the game was voided).
    ///
    /// # Errors
    /// The storage fails.
    async fn rated(&self, id: &str) -> Result<Option<bool>, StoreError>;

    /// Links the human seat of game `id` held by the token hashing to
    /// `token_hash` to `account`, taken from the client address whose key
    /// hashes to `address` (if known), unless it is linked to another
    /// account: the seat linked (or already linked to this account).
    ///
    /// # Errors
    /// The storage fails.
    async fn link_seat(
        &self,
        id: &str,
        token_hash: &str,
        account: &str,
        address: Option<&str>,
    ) -> Result<Option<u8>, StoreError>;

    /// Game `id`'s seats linked to accounts: (seat, account, the address's
    /// hash it was taken from if known), by seat.
    ///
    /// # Errors
    /// The storage fails.
    async fn linked(&self, id: &str) -> Result<Vec<(u8, String, Option<String>)>, StoreError>;

    /// How many rated games of `pool` (a [`Pool`]'s word) accounts `a` and
    /// `b` both played (results applied) since `since` (Unix ms).
    ///
    /// # Errors
    /// The storage fails.
    async fn together(&self, a: &str, b: &str, pool: &str, since: i64) -> Result<u64, StoreError>;

    /// Applies a rated game's result, **once**: the game is claimed (its
    /// `applied` flag set from 0) in the same transaction as the new
    /// ratings and their history rows, so that whichever servers try, one
    /// applies it. `None` when it was applied (or voided) already. A result
    /// with no seats voids the game (nothing changes, it is never applied).
    ///
    /// # Errors
    /// The storage fails (nothing is applied).
    async fn apply(&self, result: &RatedResult) -> Result<Option<Vec<RatingChange>>, StoreError>;

    /// The account's ratings, one per pool it played rated games in.
    ///
    /// # Errors
    /// The storage fails.
    async fn of(&self, account: &str) -> Result<Vec<RatingRow>, StoreError>;

    /// The account's rating history, oldest first, the last `limit` rows.
    ///
    /// # Errors
    /// The storage fails.
    async fn history(&self, account: &str, limit: usize) -> Result<Vec<HistoryRow>, StoreError>;

    /// The games the account holds a seat in, most recently played first.
    ///
    /// # Errors
    /// The storage fails.
    async fn account_games(&self, account: &str, limit: usize) -> Result<Vec<AccountGame>, StoreError>;

    /// The names of the accounts of these ids (those that exist).
    ///
    /// # Errors
    /// The storage fails.
    async fn account_names(&self, ids: &[String]) -> Result<Vec<(String, String)>, StoreError>;

    /// The best ratings of `pool` among accounts with at least `min_games`
    /// rated games in it: (name, rating), best first.
    ///
    /// # Errors
    /// The storage fails.
    async fn leaderboard(
        &self,
        pool: &str,
        min_games: i64,
        limit: usize,
    ) -> Result<Vec<(String, RatingRow)>, StoreError>;

    /// Before an account is deleted: its seats' links are dropped (each
    /// becomes [`DELETED_ACCOUNT`]).
    ///
    /// # Errors
    /// The storage fails.
    async fn forget_account_seats(&self, account: &str) -> Result<(), StoreError>;

    /// Rated games finished before `before` (Unix ms) whose result is not
    /// applied yet (the server that stored the last move stopped first):
    /// their ids and final scores, at most `limit`.
    ///
    /// # Errors
    /// The storage fails.
    async fn unsettled(&self, before: i64, limit: usize) -> Result<Vec<(String, Vec<u32>)>, StoreError>;
}
