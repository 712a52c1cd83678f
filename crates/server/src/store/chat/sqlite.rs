//! Chat and rematches in SQLite.

use rusqlite::{params, OptionalExtension};

use super::{ChatCaps, ChatMessage, ChatRepo, ChatSettings, Part, Rematch, RematchRepo, SPECTATOR_KEYS};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The chat of one SQLite file.
pub(crate) struct SqliteChat(pub(crate) SqliteDb);

/// The messages of a part of a game's chat.
fn part_sql(part: Part) -> &'static str {
    match part {
        Part::Players => "seat IS NOT NULL",
        Part::Known => "seat IS NULL AND kept <> 0",
        Part::Others => "seat IS NULL AND kept = 0",
    }
}

/// The rematches of one SQLite file.
pub(crate) struct SqliteRematches(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl ChatRepo for SqliteChat {
    async fn add(&self, id: &str, message: &ChatMessage, caps: &ChatCaps) -> Result<Option<u64>, StoreError> {
        let (id, m, part) = (id.to_string(), message.clone(), Part::of(message));
        let cap = i64::try_from(part.cap(caps)).unwrap_or(i64::MAX);
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let held = |tx: &rusqlite::Transaction<'_>| -> Result<i64, StoreError> {
                    let sql = format!("SELECT COUNT(*) FROM chat_messages WHERE game_id = ?1 AND {}", part_sql(part));
                    Ok(tx.query_row(&sql, [&id], |r| r.get(0))?)
                };
                if cap == 0 || (part == Part::Players && held(&tx)? >= cap) {
                    return Ok(None);
                }
                let seq: i64 = tx.query_row(
                    "INSERT INTO chat_messages
                         (game_id, seq, seat, author, name, text, at, spectator, account, author_account, kept)
                     SELECT ?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_messages WHERE game_id = ?1),
                            ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10
                     RETURNING seq",
                    params![
                        id,
                        m.seat,
                        m.author,
                        m.name,
                        m.text,
                        m.at,
                        m.spectator,
                        m.account,
                        m.author_account,
                        m.kept
                    ],
                    |r| r.get(0),
                )?;
                if part != Part::Players {
                    let evict = format!(
                        "DELETE FROM chat_messages WHERE game_id = ?1 AND seq = (
                             SELECT MIN(seq) FROM chat_messages WHERE game_id = ?1 AND {p} AND author = (
                                 SELECT author FROM chat_messages WHERE game_id = ?1 AND {p}
                                 GROUP BY author ORDER BY COUNT(*) DESC, MIN(seq) LIMIT 1))",
                        p = part_sql(part)
                    );
                    for _ in cap..held(&tx)? {
                        tx.execute(&evict, [&id])?;
                    }
                }
                tx.commit()?;
                Ok(Some(seq as u64))
            })
            .await
    }

    async fn spectator(&self, id: &str, keys: &[String], max: usize) -> Result<Option<u32>, StoreError> {
        if keys.is_empty() {
            return Err(StoreError::failed("a spectator is named by a key at least"));
        }
        let (id, keys) = (id.to_string(), keys.to_vec());
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let mut number = None;
                for key in &keys {
                    number = tx
                        .query_row(
                            "SELECT number FROM chat_spectators WHERE game_id = ?1 AND key = ?2",
                            params![id, key],
                            |r| r.get::<_, i64>(0),
                        )
                        .optional()?;
                    if number.is_some() {
                        break;
                    }
                }
                let number = match number {
                    Some(n) => n,
                    None => {
                        let most: i64 = tx.query_row(
                            "SELECT COALESCE(MAX(number), 0) FROM chat_spectators WHERE game_id = ?1",
                            [&id],
                            |r| r.get(0),
                        )?;
                        if most >= max {
                            return Ok(None);
                        }
                        most + 1
                    }
                };
                let mut known: i64 = tx.query_row(
                    "SELECT COUNT(*) FROM chat_spectators WHERE game_id = ?1 AND number = ?2",
                    params![id, number],
                    |r| r.get(0),
                )?;
                for key in &keys {
                    if known >= SPECTATOR_KEYS as i64 {
                        break;
                    }
                    known += tx.execute(
                        "INSERT OR IGNORE INTO chat_spectators (game_id, key, number) VALUES (?1, ?2, ?3)",
                        params![id, key, number],
                    )? as i64;
                }
                tx.commit()?;
                Ok(Some(u32::try_from(number).unwrap_or(u32::MAX)))
            })
            .await
    }

    async fn messages(&self, id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        let id = id.to_string();
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut st = conn.prepare_cached(
                    "SELECT seq, seat, author, name, text, at, spectator, account, author_account, kept
                     FROM chat_messages WHERE game_id = ?1 ORDER BY seq",
                )?;
                let rows = st.query_map([&id], |r| {
                    Ok(ChatMessage {
                        seq: r.get::<_, i64>(0)? as u64,
                        seat: r.get(1)?,
                        author: r.get(2)?,
                        name: r.get(3)?,
                        text: r.get(4)?,
                        at: r.get(5)?,
                        spectator: r.get(6)?,
                        account: r.get(7)?,
                        member: r.get::<_, Option<String>>(8)?.is_some(),
                        author_account: r.get(8)?,
                        kept: r.get(9)?,
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
