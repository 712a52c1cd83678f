//! Ratings in PostgreSQL. A result is applied by one server: the rated game's
//! row is claimed (`applied` from 0) in the transaction that writes the
//! ratings, whose rows are locked in a fixed order (by account id) so that
//! two games finishing at once never deadlock.

use std::sync::Arc;

use super::{
    changes_of, forget_in, link_in, AccountGame, HistoryRow, RatedResult, RatingChange, RatingRepo, RatingRow,
    RATING_COLUMNS, TOGETHER,
};
use crate::rating::{Pool, Rating};
use crate::store::error::StoreError;
use crate::store::games::{summary, Seat};
use crate::store::pg::Pg;

/// The ratings of a PostgreSQL database.
pub(crate) struct PgRatings(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl RatingRepo for PgRatings {
    async fn mark_rated(&self, id: &str, pool: &str) -> Result<(), StoreError> {
        self.0
            .conn()
            .await?
            .execute("INSERT INTO rated_games (game_id, pool, applied) VALUES ($1, $2, 0)", &[&id, &pool])
            .await?;
        Ok(())
    }

    async fn rated(&self, id: &str) -> Result<Option<bool>, StoreError> {
        let row = self.0.conn().await?.query_opt("SELECT applied FROM rated_games WHERE game_id = $1", &[&id]).await?;
        Ok(match row {
            Some(r) => Some(r.try_get::<_, i32>(0)? != 0),
            None => None,
        })
    }

    async fn link_seat(
        &self,
        id: &str,
        token_hash: &str,
        account: &str,
        address: Option<&str>,
    ) -> Result<Option<u8>, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        let Some(row) = tx.query_opt("SELECT seats FROM games WHERE id = $1 FOR UPDATE", &[&id]).await? else {
            return Ok(None);
        };
        let mut seats: Vec<Seat> = serde_json::from_str(row.try_get::<_, &str>(0)?)?;
        let Some(seat) = link_in(&mut seats, token_hash, account) else { return Ok(None) };
        // (`stored_at`: a change feed that was away reads the seats again.)
        tx.execute(
            "UPDATE games SET seats = $2, stored_at = now() WHERE id = $1",
            &[&id, &serde_json::to_string(&seats)?],
        )
        .await?;
        tx.execute(
            "INSERT INTO account_seats (game_id, seat, account, address) VALUES ($1, $2, $3, $4)
             ON CONFLICT DO NOTHING",
            &[&id, &i32::from(seat), &account, &address],
        )
        .await?;
        tx.commit().await?;
        Ok(Some(seat))
    }

    async fn linked(&self, id: &str) -> Result<Vec<(u8, String, Option<String>)>, StoreError> {
        let rows = self
            .0
            .conn()
            .await?
            .query("SELECT seat, account, address FROM account_seats WHERE game_id = $1 ORDER BY seat", &[&id])
            .await?;
        rows.iter().map(|r| Ok((r.try_get::<_, i32>(0)? as u8, r.try_get(1)?, r.try_get(2)?))).collect()
    }

    async fn together(&self, a: &str, b: &str, pool: &str, since: i64) -> Result<u64, StoreError> {
        let n: i64 = self.0.conn().await?.query_one(TOGETHER, &[&a, &b, &since, &pool]).await?.try_get(0)?;
        Ok(n.max(0) as u64)
    }

    async fn apply(&self, result: &RatedResult) -> Result<Option<Vec<RatingChange>>, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        let to: i32 = if result.seats.is_empty() { 2 } else { 1 };
        // The claim: one transaction sets the flag from 0; another server's
        // waits on the row, then finds it set and applies nothing.
        let claimed = tx
            .execute("UPDATE rated_games SET applied = $2 WHERE game_id = $1 AND applied = 0", &[&result.game, &to])
            .await?;
        if claimed != 1 {
            return Ok(None);
        }
        let pool = result.pool.word();
        let mut accounts: Vec<&String> = result.seats.iter().filter_map(|s| s.account.as_ref()).collect();
        accounts.sort();
        accounts.dedup();
        let start = result.pool.start();
        let mut current = Vec::new();
        for a in accounts {
            tx.execute(
                "INSERT INTO ratings (account, pool, rating, deviation, volatility, games, updated_at)
                 VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (account, pool) DO NOTHING",
                &[a, &pool, &start.rating, &start.deviation, &start.volatility, &result.at],
            )
            .await?;
            let r = tx
                .query_one(
                    "SELECT rating, deviation, volatility FROM ratings WHERE account = $1 AND pool = $2 FOR UPDATE",
                    &[a, &pool],
                )
                .await?;
            current.push((
                a.clone(),
                Rating { rating: r.try_get(0)?, deviation: r.try_get(1)?, volatility: r.try_get(2)? },
            ));
        }
        let changes = changes_of(result, &current);
        for c in &changes {
            let place = result.seats.iter().find(|s| s.seat == c.seat).map_or(0, |s| s.place) as i32;
            tx.execute(
                "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = games + 1, updated_at = $6
                 WHERE account = $1 AND pool = $2",
                &[&c.account, &pool, &c.after.rating, &c.after.deviation, &c.after.volatility, &result.at],
            )
            .await?;
            tx.execute(
                "INSERT INTO rating_history (account, game_id, pool, seat, place, before_rating, before_deviation,
                   after_rating, after_deviation, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                &[
                    &c.account,
                    &result.game,
                    &pool,
                    &i32::from(c.seat),
                    &place,
                    &c.before.rating,
                    &c.before.deviation,
                    &c.after.rating,
                    &c.after.deviation,
                    &result.at,
                ],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(Some(changes))
    }

    async fn of(&self, account: &str) -> Result<Vec<RatingRow>, StoreError> {
        let sql =
            format!("SELECT {RATING_COLUMNS} FROM ratings r WHERE r.account = $1 AND r.games > 0 ORDER BY r.pool");
        self.0.conn().await?.query(&sql, &[&account]).await?.iter().map(rating_row).collect()
    }

    async fn history(&self, account: &str, limit: usize) -> Result<Vec<HistoryRow>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self
            .0
            .conn()
            .await?
            .query(
                "SELECT * FROM (SELECT game_id, pool, seat, place, before_rating, before_deviation, after_rating,
                   after_deviation, at FROM rating_history WHERE account = $1 ORDER BY at DESC, game_id LIMIT $2) h
                 ORDER BY at, game_id",
                &[&account, &limit],
            )
            .await?;
        rows.iter()
            .map(|r| {
                let pool: String = r.try_get(1)?;
                Ok(HistoryRow {
                    game: r.try_get(0)?,
                    pool: Pool::from_word(&pool).unwrap_or(Pool::Duel),
                    seat: u8::try_from(r.try_get::<_, i32>(2)?).unwrap_or(0),
                    place: r.try_get::<_, i32>(3)?.max(0) as usize,
                    before: Rating { rating: r.try_get(4)?, deviation: r.try_get(5)?, volatility: 0.0 },
                    after: Rating { rating: r.try_get(6)?, deviation: r.try_get(7)?, volatility: 0.0 },
                    at: r.try_get(8)?,
                })
            })
            .collect()
    }

    async fn account_games(&self, account: &str, limit: usize) -> Result<Vec<AccountGame>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self
            .0
            .conn()
            .await?
            .query(
                "SELECT g.id, g.setup, g.seats, g.progress, g.moves, g.created_at, g.public, s.seat,
                   r.game_id IS NOT NULL, g.clock::jsonb -> 'control' ->> 'kind'
                 FROM account_seats s JOIN games g ON g.id = s.game_id
                 LEFT JOIN rated_games r ON r.game_id = g.id
                 WHERE s.account = $1 ORDER BY g.updated_at DESC, g.id, s.seat LIMIT $2",
                &[&account, &limit],
            )
            .await?;
        rows.iter()
            .map(|r| {
                let game = summary(
                    r.try_get(0)?,
                    r.try_get(1)?,
                    r.try_get(2)?,
                    r.try_get(3)?,
                    r.try_get(4)?,
                    r.try_get(5)?,
                    r.try_get(6)?,
                )?;
                Ok(AccountGame {
                    game,
                    seat: u8::try_from(r.try_get::<_, i32>(7)?).unwrap_or(0),
                    rated: r.try_get(8)?,
                    clock: r.try_get(9)?,
                })
            })
            .collect()
    }

    async fn account_names(&self, ids: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        let rows = self.0.conn().await?.query("SELECT id, name FROM accounts WHERE id = ANY($1)", &[&ids]).await?;
        rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).collect()
    }

    async fn leaderboard(
        &self,
        pool: &str,
        min_games: i64,
        limit: usize,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let sql = format!(
            "SELECT {RATING_COLUMNS}, a.name FROM ratings r JOIN accounts a ON a.id = r.account
             WHERE r.pool = $1 AND r.games >= $2 ORDER BY r.rating DESC, a.name_key LIMIT $3"
        );
        let rows = self.0.conn().await?.query(&sql, &[&pool, &min_games, &limit]).await?;
        rows.iter().map(|r| Ok((r.try_get::<_, String>(7)?, rating_row(r)?))).collect()
    }

    async fn unsettled(&self, before: i64, limit: usize) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self
            .0
            .conn()
            .await?
            .query(
                "SELECT g.id, g.progress FROM rated_games r JOIN games g ON g.id = r.game_id
                 WHERE r.applied = 0 AND (g.progress::jsonb ->> 'finished') = 'true' AND g.updated_at < $1
                 ORDER BY g.updated_at, g.id LIMIT $2",
                &[&before, &limit],
            )
            .await?;
        rows.iter()
            .map(|r| {
                let progress: crate::store::Progress = serde_json::from_str(r.try_get::<_, &str>(1)?)?;
                Ok((r.try_get(0)?, progress.scores))
            })
            .collect()
    }

    async fn forget_account_seats(&self, account: &str) -> Result<(), StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        let rows = tx
            .query(
                "SELECT id, seats FROM games WHERE id IN (SELECT game_id FROM account_seats WHERE account = $1)
                 ORDER BY id FOR UPDATE",
                &[&account],
            )
            .await?;
        for r in rows {
            let id: String = r.try_get(0)?;
            let mut seats: Vec<Seat> = serde_json::from_str(r.try_get::<_, &str>(1)?)?;
            if forget_in(&mut seats, account) {
                tx.execute("UPDATE games SET seats = $2 WHERE id = $1", &[&id, &serde_json::to_string(&seats)?])
                    .await?;
            }
        }
        tx.execute("DELETE FROM account_seats WHERE account = $1", &[&account]).await?;
        tx.commit().await?;
        Ok(())
    }
}

fn rating_row(r: &tokio_postgres::Row) -> Result<RatingRow, StoreError> {
    let pool: String = r.try_get(1)?;
    Ok(RatingRow {
        account: r.try_get(0)?,
        pool: Pool::from_word(&pool).unwrap_or(Pool::Duel),
        rating: Rating { rating: r.try_get(2)?, deviation: r.try_get(3)?, volatility: r.try_get(4)? },
        games: r.try_get(5)?,
        updated_at: r.try_get(6)?,
    })
}
