//! Chat and rematches in SQLite.

use rusqlite::{params, OptionalExtension};

use super::{ChatMessage, ChatRepo, ChatSettings, Rematch, RematchRepo};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The chat of one SQLite file.
pub(crate) struct SqliteChat(pub(crate) SqliteDb);

/// The rematches of one SQLite file.
pub(crate) struct SqliteRematches(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl ChatRepo for SqliteChat {
    async fn add(&self, id: &str, message: &ChatMessage, max: usize) -> Result<Option<u64>, StoreError> {
        let (id, m) = (id.to_string(), message.clone());
        self.0
            .run(move |db| {
                let seq = db
                    .conn()
                    .query_row(
                        "INSERT INTO chat_messages (game_id, seq, seat, author, name, text, at)
                     SELECT ?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_messages WHERE game_id = ?1),
                            ?2, ?3, ?4, ?5, ?6
                     WHERE (SELECT COUNT(*) FROM chat_messages WHERE game_id = ?1) < ?7
                     RETURNING seq",
                        params![id, m.seat, m.author, m.name, m.text, m.at, i64::try_from(max).unwrap_or(i64::MAX)],
                        |r| r.get::<_, i64>(0),
                    )
                    .optional()?;
                Ok(seq.map(|s| s as u64))
            })
            .await
    }

    async fn messages(&self, id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut st = conn.prepare_cached(
                    "SELECT seq, seat, author, name, text, at FROM chat_messages WHERE game_id = ?1 ORDER BY seq",
                )?;
                let rows = st.query_map([&id], |r| {
                    Ok(ChatMessage {
                        seq: r.get::<_, i64>(0)? as u64,
                        seat: r.get(1)?,
                        author: r.get(2)?,
                        name: r.get(3)?,
                        text: r.get(4)?,
                        at: r.get(5)?,
                    })
                })?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            })
            .await
    }

    async fn settings(&self, id: &str) -> Result<ChatSettings, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let conn = db.conn();
                let off = conn
                    .query_row("SELECT 1 FROM chat_off WHERE game_id = ?1", [&id], |_| Ok(()))
                    .optional()?
                    .is_some();
                let mut st = conn.prepare_cached("SELECT seat FROM chat_consent WHERE game_id = ?1 ORDER BY seat")?;
                let consent = st.query_map([&id], |r| r.get::<_, u8>(0))?.collect::<Result<Vec<_>, _>>()?;
                Ok(ChatSettings { off, consent })
            })
            .await
    }

    async fn set_off(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                db.conn().execute("INSERT OR IGNORE INTO chat_off (game_id) VALUES (?1)", [&id])?;
                Ok(())
            })
            .await
    }

    async fn set_consent(&self, id: &str, seat: u8, agree: bool) -> Result<(), StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let conn = db.conn();
                if agree {
                    conn.execute(
                        "INSERT OR IGNORE INTO chat_consent (game_id, seat) VALUES (?1, ?2)",
                        params![id, seat],
                    )?;
                    return Ok(());
                }
                // A withdrawal for a game that is gone is refused, as any write is.
                let game: bool =
                    conn.query_row("SELECT EXISTS (SELECT 1 FROM games WHERE id = ?1)", [&id], |r| r.get(0))?;
                if !game {
                    return Err(StoreError::failed(format!("no game {id}")));
                }
                conn.execute("DELETE FROM chat_consent WHERE game_id = ?1 AND seat = ?2", params![id, seat])?;
                Ok(())
            })
            .await
    }
}

#[async_trait::async_trait]
impl RematchRepo for SqliteRematches {
    async fn accept(&self, id: &str, seat: u8, token_hash: &str) -> Result<bool, StoreError> {
        let (id, hash) = (id.to_string(), token_hash.to_string());
        self.0
            .run(move |db| {
                let n = db.conn().execute(
                    "INSERT OR IGNORE INTO rematch_accepts (game_id, seat, token_hash) VALUES (?1, ?2, ?3)",
                    params![id, seat, hash],
                )?;
                Ok(n == 1)
            })
            .await
    }

    async fn get(&self, id: &str) -> Result<Rematch, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut st = conn
                    .prepare_cached("SELECT seat, token_hash FROM rematch_accepts WHERE game_id = ?1 ORDER BY seat")?;
                let accepted =
                    st.query_map([&id], |r| Ok((r.get::<_, u8>(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
                let game = conn
                    .query_row("SELECT new_game_id FROM rematches WHERE game_id = ?1", [&id], |r| r.get(0))
                    .optional()?;
                Ok(Rematch { accepted, game })
            })
            .await
    }

    async fn claim(&self, id: &str, new_id: &str) -> Result<bool, StoreError> {
        let (id, new_id) = (id.to_string(), new_id.to_string());
        self.0
            .run(move |db| {
                let n = db.conn().execute(
                    "INSERT OR IGNORE INTO rematches (game_id, new_game_id) VALUES (?1, ?2)",
                    params![id, new_id],
                )?;
                Ok(n == 1)
            })
            .await
    }
}
