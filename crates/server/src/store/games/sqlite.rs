//! Games and moves in SQLite. New games and moves go through the backend's
//! writer thread (group commit); loads and lists read on the reader's
//! connection.

use carcassonne::record::{Record, RecordMove};
use rusqlite::{params, Connection, OptionalExtension};

use super::{summary, GameRepo, GameSummary, NewGame, Progress, Room, Seat, StoredGame};

/// The games dropped first to make room: unfinished.
const DROP_FIRST: &str = "json_extract(progress, '$.finished') = 0";
/// Then: finished, no seat linked to an account.
const DROP_THEN: &str = "json_extract(progress, '$.finished') = 1 AND seats NOT LIKE '%\"account\"%'";
use crate::store::error::StoreError;
use crate::store::sqlite::{Sqlite, SqliteDb};

/// The games of one SQLite file.
pub(crate) struct SqliteGames(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl GameRepo for SqliteGames {
    async fn create(&self, game: &NewGame) -> Result<(), StoreError> {
        let (setup, progress) = game.setup_and_progress();
        let row = NewRow {
            id: game.id.clone(),
            setup: serde_json::to_string(&setup)?,
            seats: serde_json::to_string(&game.seats)?,
            progress: serde_json::to_string(&progress)?,
            created_at: game.created_at,
            // SQLite integers are signed: the seed's bits are kept as they are.
            live_seed: game.live_seed.map(|s| s as i64),
            public: game.public,
            clock: game.clock.clone(),
            deadline: game.deadline,
            owner: game.owner.clone(),
        };
        self.0.queue(Box::new(move |tx| insert_game(tx, &row)))?.wait().await
    }

    async fn append_move(&self, id: &str, ply: usize, mv: &RecordMove, progress: &Progress) -> Result<(), StoreError> {
        self.0.queue(append(id, ply, mv, progress)?)?.wait().await
    }

    async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let id = id.to_string();
        self.0.run(move |db| load(db, &id)).await
    }

    async fn list(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.0.run(move |db| summaries(db, "1", limit, None)).await
    }

    async fn listed(&self, ids: &[String], limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let ids = serde_json::to_string(ids)?;
        self.0
            .run(move |db| summaries(db, "public = 1 OR id IN (SELECT value FROM json_each(?2))", limit, Some(ids)))
            .await
    }

    async fn in_play(&self) -> Result<Vec<GameSummary>, StoreError> {
        self.0.run(|db| summaries(db, "json_extract(progress, '$.finished') = 0", usize::MAX >> 1, None)).await
    }

    async fn watchable(&self, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.0
            .run(move |db| {
                summaries(
                    db,
                    "public = 1 AND json_extract(progress, '$.finished') = 0
                     AND NOT COALESCE(json_extract(progress, '$.aborted'), 0)",
                    limit,
                    None,
                )
            })
            .await
    }

    async fn make_room(&self, owner: &str, max: usize) -> Result<Room, StoreError> {
        let owner = owner.to_string();
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        self.0
            .run(move |db| {
                let conn = db.conn();
                // Counted up to the cap only: a look at `max` index entries at most.
                let kept: i64 = conn.query_row(
                    "SELECT COUNT(*) FROM (SELECT 1 FROM games WHERE owner = ?1 LIMIT ?2)",
                    params![&owner, max],
                    |r| r.get(0),
                )?;
                if kept < max {
                    return Ok(Room::Free);
                }
                for filter in [DROP_FIRST, DROP_THEN] {
                    let sql = format!(
                        "DELETE FROM games WHERE id = (SELECT id FROM games WHERE owner = ?1 AND {filter}
                         AND id NOT IN (SELECT game_id FROM rated_games) ORDER BY created_at, id LIMIT 1) RETURNING id"
                    );
                    let dropped: Option<String> = conn.query_row(&sql, [&owner], |r| r.get(0)).optional()?;
                    if let Some(id) = dropped {
                        return Ok(Room::Dropped(id));
                    }
                }
                Ok(Room::Full)
            })
            .await
    }

    async fn expire(&self, before: i64) -> Result<Vec<String>, StoreError> {
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn.prepare(
                    "DELETE FROM games WHERE json_extract(progress, '$.finished') = 0 AND updated_at < ?1 RETURNING id",
                )?;
                let ids = stmt.query_map([before], |r| r.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
                Ok(ids)
            })
            .await
    }
}

/// A `games` row, as it is inserted.
struct NewRow {
    id: String,
    setup: String,
    seats: String,
    progress: String,
    created_at: i64,
    live_seed: Option<i64>,
    public: bool,
    clock: Option<String>,
    deadline: Option<i64>,
    owner: Option<String>,
}

/// Inserts a new game's row. A taken id is refused.
fn insert_game(tx: &Connection, c: &NewRow) -> Result<(), StoreError> {
    let taken: bool =
        tx.prepare_cached("SELECT EXISTS (SELECT 1 FROM games WHERE id = ?1)")?.query_row([&c.id], |r| r.get(0))?;
    if taken {
        return Err(StoreError::failed(format!("game id {} is taken", c.id)));
    }
    tx.prepare_cached(
        "INSERT INTO games (id, setup, seats, progress, moves, created_at, updated_at, live_seed, public, clock, deadline,
                            owner)
         VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        c.id,
        c.setup,
        c.seats,
        c.progress,
        c.created_at,
        c.live_seed,
        c.public,
        c.clock,
        c.deadline,
        c.owner
    ])?;
    Ok(())
}

/// The write that appends move `ply` of game `id`: the games row is updated
/// only if the move is the next one (one statement checks and writes), then
/// the move is inserted.
pub(crate) fn append(
    id: &str,
    ply: usize,
    mv: &RecordMove,
    progress: &Progress,
) -> Result<crate::store::sqlite::Write, StoreError> {
    let (id, body, progress_json, at) =
        (id.to_string(), serde_json::to_string(mv)?, serde_json::to_string(progress)?, progress.at);
    Ok(Box::new(move |tx: &Connection| {
        let ply = ply as i64;
        let updated = tx
            .prepare_cached(
                // (A game ended or aborted takes no more moves.)
                "UPDATE games SET moves = ?2 + 1, progress = ?3, updated_at = ?4 WHERE id = ?1 AND moves = ?2
                 AND NOT COALESCE(json_extract(progress, '$.finished'), 0)
                 AND NOT COALESCE(json_extract(progress, '$.aborted'), 0)",
            )?
            .execute(params![id, ply, progress_json, at])?;
        if updated == 0 {
            let moves: Option<i64> = tx
                .prepare_cached("SELECT moves FROM games WHERE id = ?1")?
                .query_row([&id], |r| r.get(0))
                .optional()?;
            return Err(match moves {
                None => StoreError::failed(format!("no game {id}")),
                Some(n) if n == ply => StoreError::Conflict(format!("game {id} is over")),
                Some(n) => StoreError::Conflict(format!("game {id} has {n} moves stored, not {ply}")),
            });
        }
        tx.prepare_cached("INSERT INTO moves (game_id, ply, body) VALUES (?1, ?2, ?3)")?
            .execute(params![id, ply, body])?;
        Ok(())
    }))
}

fn load(db: &Sqlite, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let conn = db.read();
    type Row = (String, String, i64, i64, Option<i64>, Option<String>);
    let row: Option<Row> = conn
        .query_row(
            "SELECT setup, seats, created_at, updated_at, live_seed, owner FROM games WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
        )
        .optional()?;
    let Some((setup, seats, created_at, updated_at, live_seed, owner)) = row else {
        return Ok(None);
    };
    let mut record: Record = serde_json::from_str(&setup)?;
    let seats: Vec<Seat> = serde_json::from_str(&seats)?;
    let mut stmt = conn.prepare("SELECT body FROM moves WHERE game_id = ?1 ORDER BY ply")?;
    let bodies = stmt.query_map([id], |r| r.get::<_, String>(0))?;
    record.moves.clear();
    for body in bodies {
        record.moves.push(serde_json::from_str(&body?)?);
    }
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

/// Summaries of the games matching `filter` (SQL; `?1` is the limit,
/// `?2` the `extra` parameter), most recent first.
fn summaries(db: &Sqlite, filter: &str, limit: usize, extra: Option<String>) -> Result<Vec<GameSummary>, StoreError> {
    let conn = db.read();
    let mut stmt = conn.prepare(&format!(
        "SELECT id, setup, seats, progress, moves, created_at, public FROM games WHERE {filter}
         ORDER BY updated_at DESC, id LIMIT ?1"
    ))?;
    let limit = limit.min(i64::MAX as usize) as i64;
    let row = |r: &rusqlite::Row<'_>| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, i64>(4)?,
            r.get::<_, i64>(5)?,
            r.get::<_, bool>(6)?,
        ))
    };
    let rows = match &extra {
        Some(x) => stmt.query_map(params![limit, x], row)?.collect::<Result<Vec<_>, _>>()?,
        None => stmt.query_map(params![limit], row)?.collect::<Result<Vec<_>, _>>()?,
    };
    let mut out = Vec::new();
    for (id, setup, seats, progress, moves, created_at, public) in rows {
        out.push(summary(id, &setup, &seats, &progress, moves, created_at, public)?);
    }
    Ok(out)
}
