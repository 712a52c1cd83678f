//! Chat and rematches in PostgreSQL. A change of consent or rematch is
//! noted in `after_game_changes`, so that a change feed that was away looks
//! back for it (`cluster/feed.rs`).

use std::sync::Arc;

use super::{ChatCaps, ChatMessage, ChatRepo, ChatSettings, Part, Rematch, RematchRepo, SPECTATOR_KEYS};
use crate::store::error::StoreError;
use crate::store::pg::Pg;

/// The chat of a PostgreSQL database.
pub(crate) struct PgChat(pub(crate) Arc<Pg>);

/// The rematches of a PostgreSQL database.
pub(crate) struct PgRematches(pub(crate) Arc<Pg>);

/// Taken by a transaction that writes game `$1`'s chat: one at a time, on
/// every server.
const CHAT_LOCK: &str = "SELECT pg_advisory_xact_lock(hashtext('chat:' || $1))";

/// The messages of a part of a game's chat.
fn part_sql(part: Part) -> &'static str {
    match part {
        Part::Players => "seat IS NOT NULL",
        Part::Known => "seat IS NULL AND kept",
        Part::Others => "seat IS NULL AND NOT kept",
    }
}

/// A spectator's number as stored.
fn spectator(n: Option<u32>) -> Option<i32> {
    n.map(|n| i32::try_from(n).unwrap_or(i32::MAX))
}

#[async_trait::async_trait]
impl ChatRepo for PgChat {
    async fn add(&self, id: &str, m: &ChatMessage, caps: &ChatCaps) -> Result<Option<u64>, StoreError> {
        let part = Part::of(m);
        let cap = i64::try_from(part.cap(caps)).unwrap_or(i64::MAX);
        if cap == 0 {
            return Ok(None);
        }
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // One writer of a game's chat at a time, on every server: numbers
        // and caps are decided under the game's lock.
        tx.execute(CHAT_LOCK, &[&id]).await?;
        let count = format!("SELECT COUNT(*) FROM chat_messages WHERE game_id = $1 AND {}", part_sql(part));
        if part == Part::Players && tx.query_one(&count, &[&id]).await?.try_get::<_, i64>(0)? >= cap {
            return Ok(None);
        }
        let seq: i64 = tx
            .query_one(
                "INSERT INTO chat_messages
                     (game_id, seq, seat, author, name, text, at, spectator, account, author_account, kept)
                 SELECT $1::text, (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_messages WHERE game_id = $1::text),
                        $2::int, $3::text, $4::text, $5::text, $6::bigint, $7::int, $8::bool, $9::text, $10::bool
                 RETURNING seq",
                &[
                    &id,
                    &m.seat.map(i32::from),
                    &m.author,
                    &m.name,
                    &m.text,
                    &m.at,
                    &spectator(m.spectator),
                    &m.account,
                    &m.author_account,
                    &m.kept,
                ],
            )
            .await?
            .try_get(0)?;
        if part != Part::Players {
            let evict = format!(
                "DELETE FROM chat_messages WHERE game_id = $1 AND seq = (
                     SELECT MIN(seq) FROM chat_messages WHERE game_id = $1 AND {p} AND author = (
                         SELECT author FROM chat_messages WHERE game_id = $1 AND {p}
                         GROUP BY author ORDER BY COUNT(*) DESC, MIN(seq) LIMIT 1))",
                p = part_sql(part)
            );
            let held: i64 = tx.query_one(&count, &[&id]).await?.try_get(0)?;
            for _ in cap..held {
                tx.execute(&evict, &[&id]).await?;
            }
        }
        tx.commit().await?;
        Ok(Some(seq as u64))
    }

    async fn spectator(&self, id: &str, keys: &[String], max: usize) -> Result<Option<u32>, StoreError> {
        if keys.is_empty() {
            return Err(StoreError::failed("a spectator is named by a key at least"));
        }
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        tx.execute(CHAT_LOCK, &[&id]).await?;
        let mut number = None;
        for key in keys {
            let row =
                tx.query_opt("SELECT number FROM chat_spectators WHERE game_id = $1 AND key = $2", &[&id, key]).await?;
            if let Some(row) = row {
                number = Some(row.try_get::<_, i32>(0)?);
                break;
            }
        }
        let number = match number {
            Some(n) => n,
            None => {
                let most: i32 = tx
                    .query_one("SELECT COALESCE(MAX(number), 0) FROM chat_spectators WHERE game_id = $1", &[&id])
                    .await?
                    .try_get(0)?;
                if i64::from(most) >= max {
                    return Ok(None);
                }
                most + 1
            }
        };
        let mut known: i64 = tx
            .query_one("SELECT COUNT(*) FROM chat_spectators WHERE game_id = $1 AND number = $2", &[&id, &number])
            .await?
            .try_get(0)?;
        for key in keys {
            if known >= SPECTATOR_KEYS as i64 {
                break;
            }
            known += tx
                .execute(
                    "INSERT INTO chat_spectators (game_id, key, number) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    &[&id, key, &number],
                )
                .await? as i64;
        }
        tx.commit().await?;
        Ok(Some(number as u32))
    }

    async fn messages(&self, id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        let rows = self
            .0
            .conn()
            .await?
            .query(
                "SELECT seq, seat, author, name, text, at, spectator, account, author_account, kept
                 FROM chat_messages WHERE game_id = $1 ORDER BY seq",
                &[&id],
            )
            .await?;
        rows.iter().map(|r| chat_message(r, 0)).collect()
    }

    async fn settings(&self, id: &str) -> Result<ChatSettings, StoreError> {
        let conn = self.0.conn().await?;
        let off = conn.query_opt("SELECT 1 FROM chat_off WHERE game_id = $1", &[&id]).await?.is_some();
        let rows = conn.query("SELECT seat FROM chat_consent WHERE game_id = $1 ORDER BY seat", &[&id]).await?;
        let consent = rows.iter().map(|r| Ok(r.try_get::<_, i32>(0)? as u8)).collect::<Result<_, StoreError>>()?;
        Ok(ChatSettings { off, consent })
    }

    async fn set_off(&self, id: &str) -> Result<(), StoreError> {
        self.0
            .conn()
            .await?
            .execute("INSERT INTO chat_off (game_id) VALUES ($1) ON CONFLICT DO NOTHING", &[&id])
            .await?;
        Ok(())
    }

    async fn set_consent(&self, id: &str, seat: u8, agree: bool) -> Result<(), StoreError> {
        let sql = if agree {
            "INSERT INTO chat_consent (game_id, seat) VALUES ($1, $2) ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM chat_consent WHERE game_id = $1 AND seat = $2"
        };
        let conn = self.0.conn().await?;
        conn.execute(AFTER_GAME_CHANGED, &[&id]).await?;
        conn.execute(sql, &[&id, &i32::from(seat)]).await?;
        Ok(())
    }
}

#[async_trait::async_trait]
impl RematchRepo for PgRematches {
    async fn accept(&self, id: &str, seat: u8, token_hash: &str) -> Result<bool, StoreError> {
        let conn = self.0.conn().await?;
        conn.execute(AFTER_GAME_CHANGED, &[&id]).await?;
        let n = conn
            .execute(
                "INSERT INTO rematch_accepts (game_id, seat, token_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                &[&id, &i32::from(seat), &token_hash],
            )
            .await?;
        Ok(n == 1)
    }

    async fn get(&self, id: &str) -> Result<Rematch, StoreError> {
        let conn = self.0.conn().await?;
        let rows =
            conn.query("SELECT seat, token_hash FROM rematch_accepts WHERE game_id = $1 ORDER BY seat", &[&id]).await?;
        let accepted = rows
            .iter()
            .map(|r| Ok((r.try_get::<_, i32>(0)? as u8, r.try_get(1)?)))
            .collect::<Result<_, StoreError>>()?;
        let game = conn
            .query_opt("SELECT new_game_id FROM rematches WHERE game_id = $1", &[&id])
            .await?
            .map(|r| r.try_get(0))
            .transpose()?;
        Ok(Rematch { accepted, game })
    }

    async fn claim(&self, id: &str, new_id: &str) -> Result<bool, StoreError> {
        let conn = self.0.conn().await?;
        conn.execute(AFTER_GAME_CHANGED, &[&id]).await?;
        let n = conn
            .execute(
                "INSERT INTO rematches (game_id, new_game_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&id, &new_id],
            )
            .await?;
        Ok(n == 1)
    }
}

/// Notes that game `$1`'s chat consent or rematch changes now (before the
/// change itself): a change feed that was away looks back for them.
const AFTER_GAME_CHANGED: &str = "INSERT INTO after_game_changes (game_id, at)
     VALUES ($1, (extract(epoch FROM now()) * 1000)::bigint)
     ON CONFLICT (game_id) DO UPDATE SET at = EXCLUDED.at";

/// A chat message from a row whose columns from `first` on are `seq, seat,
/// author, name, text, at, spectator, account, author_account, kept`.
pub(crate) fn chat_message(r: &tokio_postgres::Row, first: usize) -> Result<ChatMessage, StoreError> {
    Ok(ChatMessage {
        seq: r.try_get::<_, i64>(first)? as u64,
        seat: r.try_get::<_, Option<i32>>(first + 1)?.map(|s| s as u8),
        author: r.try_get(first + 2)?,
        name: r.try_get(first + 3)?,
        text: r.try_get(first + 4)?,
        at: r.try_get(first + 5)?,
        spectator: r.try_get::<_, Option<i32>>(first + 6)?.map(|n| n as u32),
        account: r.try_get(first + 7)?,
        member: r.try_get::<_, Option<String>>(first + 8)?.is_some(),
        author_account: r.try_get(first + 8)?,
        kept: r.try_get(first + 9)?,
    })
}
