//! Ratings in SQLite: a result is applied in one transaction with the
//! claim of its game (`applied` from 0).

use rusqlite::{params, OptionalExtension};

use super::{
    changes_of, forget_in, link_in, AccountGame, HistoryRow, RatedResult, RatingChange, RatingRepo, RatingRow,
    RATING_COLUMNS, TOGETHER,
};
use crate::rating::{Pool, Rating};
use crate::store::error::StoreError;
use crate::store::games::{summary, Seat};
use crate::store::sqlite::SqliteDb;

/// The ratings of one SQLite file.
pub(crate) struct SqliteRatings(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl RatingRepo for SqliteRatings {
    async fn mark_rated(&self, id: &str, pool: &str) -> Result<(), StoreError> {
        let (id, pool) = (id.to_string(), pool.to_string());
        self.0
            .run(move |db| {
                db.conn().execute("INSERT INTO rated_games (game_id, pool, applied) VALUES (?1, ?2, 0)", [id, pool])?;
                Ok(())
            })
            .await
    }

    async fn rated(&self, id: &str) -> Result<Option<bool>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let applied: Option<i64> = db
                    .conn()
                    .query_row("SELECT applied FROM rated_games WHERE game_id = ?1", [id], |r| r.get(0))
                    .optional()?;
                Ok(applied.map(|a| a != 0))
            })
            .await
    }

    async fn link_seat(
        &self,
        id: &str,
        token_hash: &str,
        account: &str,
        address: Option<&str>,
    ) -> Result<Option<u8>, StoreError> {
        let (id, hash, account) = (id.to_string(), token_hash.to_string(), account.to_string());
        let address = address.map(str::to_string);
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let seats: Option<String> =
                    tx.query_row("SELECT seats FROM games WHERE id = ?1", [&id], |r| r.get(0)).optional()?;
                let Some(seats) = seats else { return Ok(None) };
                let mut seats: Vec<Seat> = serde_json::from_str(&seats)?;
                let Some(seat) = link_in(&mut seats, &hash, &account) else { return Ok(None) };
                tx.execute("UPDATE games SET seats = ?2 WHERE id = ?1", params![id, serde_json::to_string(&seats)?])?;
                tx.execute(
                    "INSERT INTO account_seats (game_id, seat, account, address) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT DO NOTHING",
                    params![id, seat, account, address],
                )?;
                tx.commit()?;
                Ok(Some(seat))
            })
            .await
    }

    async fn linked(&self, id: &str) -> Result<Vec<(u8, String, Option<String>)>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let conn = db.read();
                let mut stmt =
                    conn.prepare("SELECT seat, account, address FROM account_seats WHERE game_id = ?1 ORDER BY seat")?;
                let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn together(&self, a: &str, b: &str, pool: &str, since: i64) -> Result<u64, StoreError> {
        let (a, b, pool) = (a.to_string(), b.to_string(), pool.to_string());
        self.0
            .run(move |db| {
                let n: i64 = db.read().query_row(TOGETHER, params![a, b, since, pool], |r| r.get(0))?;
                Ok(n.max(0) as u64)
            })
            .await
    }

    async fn apply(&self, result: &RatedResult) -> Result<Option<Vec<RatingChange>>, StoreError> {
        let result = result.clone();
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let to = if result.seats.is_empty() { 2 } else { 1 };
                let claimed = tx.execute(
                    "UPDATE rated_games SET applied = ?2 WHERE game_id = ?1 AND applied = 0",
                    params![result.game, to],
                )?;
                if claimed != 1 {
                    return Ok(None);
                }
                let pool = result.pool.word();
                let mut current = Vec::new();
                for a in result.seats.iter().filter_map(|s| s.account.as_ref()) {
                    let r: Option<Rating> = tx
                        .query_row(
                            "SELECT rating, deviation, volatility FROM ratings WHERE account = ?1 AND pool = ?2",
                            params![a, pool],
                            |r| Ok(Rating { rating: r.get(0)?, deviation: r.get(1)?, volatility: r.get(2)? }),
                        )
                        .optional()?;
                    current.push((a.clone(), r.unwrap_or_else(|| result.pool.start())));
                }
                let changes = changes_of(&result, &current);
                for c in &changes {
                    let place = result.seats.iter().find(|s| s.seat == c.seat).map_or(0, |s| s.place) as i64;
                    tx.execute(
                        "INSERT INTO ratings (account, pool, rating, deviation, volatility, games, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)
                     ON CONFLICT (account, pool) DO UPDATE SET rating = excluded.rating,
                       deviation = excluded.deviation, volatility = excluded.volatility,
                       games = ratings.games + 1, updated_at = excluded.updated_at",
                        params![c.account, pool, c.after.rating, c.after.deviation, c.after.volatility, result.at],
                    )?;
                    tx.execute(
                        "INSERT INTO rating_history (account, game_id, pool, seat, place, before_rating,
                       before_deviation, after_rating, after_deviation, at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                        params![
                            c.account,
                            result.game,
                            pool,
                            c.seat,
                            place,
                            c.before.rating,
                            c.before.deviation,
                            c.after.rating,
                            c.after.deviation,
                            result.at
                        ],
                    )?;
                }
                tx.commit()?;
                Ok(Some(changes))
            })
            .await
    }

    async fn of(&self, account: &str) -> Result<Vec<RatingRow>, StoreError> {
        let account = account.to_string();
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn
                    .prepare(&format!("SELECT {RATING_COLUMNS} FROM ratings r WHERE r.account = ?1 ORDER BY r.pool"))?;
                let rows = stmt.query_map([account], rating_row)?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn history(&self, account: &str, limit: usize) -> Result<Vec<HistoryRow>, StoreError> {
        let account = account.to_string();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn.prepare(
                    "SELECT * FROM (SELECT game_id, pool, seat, place, before_rating, before_deviation, after_rating,
                   after_deviation, at FROM rating_history WHERE account = ?1 ORDER BY at DESC, game_id LIMIT ?2)
                 ORDER BY at, game_id",
                )?;
                let rows = stmt.query_map(params![account, limit], |r| {
                    let pool: String = r.get(1)?;
                    Ok(HistoryRow {
                        game: r.get(0)?,
                        pool: Pool::from_word(&pool).unwrap_or(Pool::Duel),
                        seat: r.get(2)?,
                        place: r.get::<_, i64>(3)?.max(0) as usize,
                        before: Rating { rating: r.get(4)?, deviation: r.get(5)?, volatility: 0.0 },
                        after: Rating { rating: r.get(6)?, deviation: r.get(7)?, volatility: 0.0 },
                        at: r.get(8)?,
                    })
                })?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn account_games(&self, account: &str, limit: usize) -> Result<Vec<AccountGame>, StoreError> {
        let account = account.to_string();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn.prepare(
                    "SELECT g.id, g.setup, g.seats, g.progress, g.moves, g.created_at, g.public, s.seat,
                   r.game_id IS NOT NULL, json_extract(g.clock, '$.control.kind')
                 FROM account_seats s JOIN games g ON g.id = s.game_id
                 LEFT JOIN rated_games r ON r.game_id = g.id
                 WHERE s.account = ?1 ORDER BY g.updated_at DESC, g.id, s.seat LIMIT ?2",
                )?;
                let rows = stmt.query_map(params![account, limit], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, i64>(4)?,
                        r.get::<_, i64>(5)?,
                        r.get::<_, bool>(6)?,
                        r.get::<_, u8>(7)?,
                        r.get::<_, bool>(8)?,
                        r.get::<_, Option<String>>(9)?,
                    ))
                })?;
                let mut out = Vec::new();
                for row in rows {
                    let (id, setup, seats, progress, moves, created_at, public, seat, rated, clock) = row?;
                    let game = summary(id, &setup, &seats, &progress, moves, created_at, public)?;
                    out.push(AccountGame { game, seat, rated, clock });
                }
                Ok(out)
            })
            .await
    }

    async fn account_names(&self, ids: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        let ids = serde_json::to_string(ids)?;
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt =
                    conn.prepare("SELECT id, name FROM accounts WHERE id IN (SELECT value FROM json_each(?1))")?;
                let rows = stmt.query_map([ids], |r| Ok((r.get(0)?, r.get(1)?)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn leaderboard(
        &self,
        pool: &str,
        min_games: i64,
        limit: usize,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        let pool = pool.to_string();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn.prepare(&format!(
                    "SELECT {RATING_COLUMNS}, a.name FROM ratings r JOIN accounts a ON a.id = r.account
                 WHERE r.pool = ?1 AND r.games >= ?2 ORDER BY r.rating DESC, a.name_key LIMIT ?3"
                ))?;
                let rows =
                    stmt.query_map(params![pool, min_games, limit], |r| Ok((r.get::<_, String>(7)?, rating_row(r)?)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            })
            .await
    }

    async fn unsettled(&self, before: i64, limit: usize) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn.prepare(
                    "SELECT g.id, g.progress FROM rated_games r JOIN games g ON g.id = r.game_id
                 WHERE r.applied = 0 AND json_extract(g.progress, '$.finished') = 1 AND g.updated_at < ?1
                 ORDER BY g.updated_at, g.id LIMIT ?2",
                )?;
                let rows =
                    stmt.query_map(params![before, limit], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
                let mut out = Vec::new();
                for row in rows {
                    let (id, progress) = row?;
                    let progress: crate::store::games::Progress = serde_json::from_str(&progress)?;
                    out.push((id, progress.scores));
                }
                Ok(out)
            })
            .await
    }

    async fn forget_account_seats(&self, account: &str) -> Result<(), StoreError> {
        let account = account.to_string();
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let games: Vec<(String, String)> = {
                    let mut stmt = tx.prepare(
                    "SELECT id, seats FROM games WHERE id IN (SELECT game_id FROM account_seats WHERE account = ?1)",
                )?;
                    let rows = stmt.query_map([&account], |r| Ok((r.get(0)?, r.get(1)?)))?;
                    rows.collect::<Result<_, _>>()?
                };
                for (id, seats) in games {
                    let mut seats: Vec<Seat> = serde_json::from_str(&seats)?;
                    if forget_in(&mut seats, &account) {
                        tx.execute(
                            "UPDATE games SET seats = ?2 WHERE id = ?1",
                            params![id, serde_json::to_string(&seats)?],
                        )?;
                    }
                }
                tx.execute("DELETE FROM account_seats WHERE account = ?1", [&account])?;
                tx.commit()?;
                Ok(())
            })
            .await
    }
}

fn rating_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RatingRow> {
    let pool: String = r.get(1)?;
    Ok(RatingRow {
        account: r.get(0)?,
        pool: Pool::from_word(&pool).unwrap_or(Pool::Duel),
        rating: Rating { rating: r.get(2)?, deviation: r.get(3)?, volatility: r.get(4)? },
        games: r.get(5)?,
        updated_at: r.get(6)?,
    })
}
