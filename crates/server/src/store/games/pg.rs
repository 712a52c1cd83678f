//! Games and moves in PostgreSQL. A stored move is announced to every
//! server (`NOTIFY` on the moves channel, delivered when it commits).

use std::sync::Arc;

use carcassonne::record::{Record, RecordMove};
use tokio_postgres::IsolationLevel;

use super::{summary, GameRepo, GameSummary, NewGame, Progress, Room, StoredGame};

/// The games dropped first to make room: unfinished.
const DROP_FIRST: &str = "NOT COALESCE((progress::jsonb ->> 'finished')::boolean, FALSE)";
/// Then: finished, no seat linked to an account.
const DROP_THEN: &str =
    "COALESCE((progress::jsonb ->> 'finished')::boolean, FALSE) AND NOT seats::jsonb @? '$[*].account'";
use crate::store::cluster::feed::CHANNEL;
use crate::store::error::{is_unique_violation, StoreError};
use crate::store::pg::Pg;

/// The games of a PostgreSQL database.
pub(crate) struct PgGames(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl GameRepo for PgGames {
    async fn create(&self, game: &NewGame) -> Result<(), StoreError> {
        let (setup, progress) = game.setup_and_progress();
        let conn = self.0.conn().await?;
        let inserted = conn
            .execute(
                "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at, live_seed, public, bot_turn,
                                    clock, deadline, owner)
                 VALUES ($1, $2, $3, $4, 0, $5, $5, $6, $7, $8, $9, $10, $11)",
                &[
                    &game.id,
                    &serde_json::to_string(&setup)?,
                    &serde_json::to_string(&game.seats)?,
                    &serde_json::to_string(&progress)?,
                    &game.created_at,
                    // BIGINT is signed: the seed's bits are kept as they are.
                    &game.live_seed.map(|s| s as i64),
                    &game.public,
                    &progress.bot_turn,
                    &game.clock,
                    &game.deadline,
                    &game.owner,
                ],
            )
            .await;
        match inserted {
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => Err(StoreError::failed(format!("game id {} is taken", game.id))),
            Err(e) => Err(e.into()),
        }
    }

    async fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<(), StoreError> {
        let ply = i64::try_from(ply).map_err(|_| StoreError::failed("move number out of range"))?;
        let body = serde_json::to_string(mv)?;
        let progress_json = serde_json::to_string(progress)?;
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // The game's row stays locked until commit: a second writer of the
        // same move waits here, then sees the count has moved on.
        // (A game another server ended or aborted takes no more moves.)
        let lock = tx.prepare_cached("SELECT moves, progress FROM games WHERE id = $1 FOR UPDATE").await?;
        let (moves, stored): (i64, String) = match tx.query_opt(&lock, &[&id]).await? {
            None => return Err(StoreError::failed(format!("no game {id}"))),
            Some(row) => (row.try_get(0)?, row.try_get(1)?),
        };
        if moves != ply {
            return Err(StoreError::Conflict(format!("game {id} has {moves} moves stored, not {ply}")));
        }
        let stored: Progress = serde_json::from_str(&stored)?;
        if stored.finished || stored.aborted {
            return Err(StoreError::Conflict(format!("game {id} is over")));
        }
        let insert = tx.prepare_cached("INSERT INTO moves (game_id, ply, body) VALUES ($1, $2, $3)").await?;
        match tx.execute(&insert, &[&id, &ply, &body]).await {
            Ok(_) => {}
            // The row lock makes this unreachable, unless the moves were
            // written by something else: still, never two moves at one ply.
            Err(e) if is_unique_violation(&e) => {
                return Err(StoreError::Conflict(format!("game {id} already has move {ply}")));
            }
            Err(e) => return Err(e.into()),
        }
        // Delivered to every listener when (and only if) the move commits.
        let update = tx
            .prepare_cached(
                "UPDATE games SET moves = $2, progress = $3, updated_at = $4, stored_at = now(), bot_turn = $5
                 WHERE id = $1 RETURNING pg_notify($6, id || ':' || moves)",
            )
            .await?;
        tx.execute(&update, &[&id, &(ply + 1), &progress_json, &progress.at, &progress.bot_turn, &CHANNEL]).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let mut conn = self.0.conn().await?;
        // One snapshot for the game and its moves.
        let tx =
            conn.build_transaction().isolation_level(IsolationLevel::RepeatableRead).read_only(true).start().await?;
        let game = tx
            .prepare_cached("SELECT setup, seats, created_at, updated_at, live_seed, owner FROM games WHERE id = $1")
            .await?;
        let Some(row) = tx.query_opt(&game, &[&id]).await? else {
            return Ok(None);
        };
        let mut record: Record = serde_json::from_str(row.try_get::<_, &str>(0)?)?;
        let seats = serde_json::from_str(row.try_get::<_, &str>(1)?)?;
        let (created_at, updated_at): (i64, i64) = (row.try_get(2)?, row.try_get(3)?);
        let live_seed: Option<i64> = row.try_get(4)?;
        let owner: Option<String> = row.try_get(5)?;
        record.moves.clear();
        let moves = tx.prepare_cached("SELECT body FROM moves WHERE game_id = $1 ORDER BY ply").await?;
        for m in tx.query(&moves, &[&id]).await? {
            record.moves.push(serde_json::from_str(m.try_get::<_, &str>(0)?)?);
        }
        tx.commit().await?;
        Ok(Some(StoredGame {
            id: id.to_string(),
            record,
            live_seed: live_seed.map(|s| s as u64),
            seats,
            created_at,
            updated_at,
            owner,
        }))
    }

    async fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        summaries(&self.0, "TRUE", limit, None).await
    }

    async fn listed(&self, ids: &[String], limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        summaries(&self.0, "public OR id = ANY($2)", limit, Some(ids)).await
    }

    async fn in_play(&self) -> Result<Vec<GameSummary>, StoreError> {
        summaries(&self.0, "NOT COALESCE((progress::jsonb ->> 'finished')::boolean, FALSE)", usize::MAX >> 1, None)
            .await
    }

    async fn watchable(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let filter = "public AND NOT COALESCE((progress::jsonb ->> 'finished')::boolean, FALSE)
             AND NOT COALESCE((progress::jsonb ->> 'aborted')::boolean, FALSE)";
        summaries(&self.0, filter, limit, None).await
    }

    async fn make_room(&self, owner: &str, max: usize) -> Result<Room, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // One owner's room is made by one server at a time.
        tx.execute("SELECT pg_advisory_xact_lock(hashtext('games/' || $1))", &[&owner]).await?;
        // Counted up to the cap only: a look at `max` index entries at most.
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let kept: i64 = tx
            .query_one("SELECT COUNT(*) FROM (SELECT 1 FROM games WHERE owner = $1 LIMIT $2) AS kept", &[&owner, &max])
            .await?
            .try_get(0)?;
        if kept < max {
            return Ok(Room::Free);
        }
        for filter in [DROP_FIRST, DROP_THEN] {
            let sql = format!(
                "DELETE FROM games WHERE id = (SELECT id FROM games WHERE owner = $1 AND {filter}
                 AND id NOT IN (SELECT game_id FROM rated_games) ORDER BY created_at, id LIMIT 1) RETURNING id"
            );
            if let Some(row) = tx.query_opt(&sql, &[&owner]).await? {
                let id: String = row.try_get(0)?;
                tx.commit().await?;
                return Ok(Room::Dropped(id));
            }
        }
        Ok(Room::Full)
    }

    async fn expire(&self, before: i64) -> Result<Vec<String>, StoreError> {
        let rows = self
            .0
            .conn()
            .await?
            .query(
                "DELETE FROM games WHERE NOT COALESCE((progress::jsonb ->> 'finished')::boolean, FALSE)
                 AND updated_at < $1 RETURNING id",
                &[&before],
            )
            .await?;
        rows.iter().map(|r| r.try_get(0).map_err(StoreError::from)).collect()
    }
}

/// Summaries of the games matching `filter` (SQL; `$1` is the limit,
/// `$2` the ids of `ids`), most recent first.
async fn summaries(
    pg: &Pg,
    filter: &str,
    limit: usize,
    ids: Option<&[String]>,
) -> Result<Vec<GameSummary>, StoreError> {
    let conn = pg.conn().await?;
    let sql = format!(
        "SELECT id, setup, seats, progress, moves, created_at, public FROM games WHERE {filter}
         ORDER BY updated_at DESC, id LIMIT $1"
    );
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let rows = match ids {
        Some(ids) => conn.query(&sql, &[&limit, &ids]).await?,
        None => conn.query(&sql, &[&limit]).await?,
    };
    rows.iter()
        .map(|r| {
            summary(
                r.try_get(0)?,
                r.try_get(1)?,
                r.try_get(2)?,
                r.try_get(3)?,
                r.try_get(4)?,
                r.try_get(5)?,
                r.try_get(6)?,
            )
        })
        .collect()
}
