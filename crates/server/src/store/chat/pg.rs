//! Chat and rematches in PostgreSQL. A change of consent or rematch is
//! noted in `after_game_changes`, so that a change feed that was away looks
//! back for it (`cluster/feed.rs`).

use std::sync::Arc;

use super::{ChatMessage, ChatRepo, ChatSettings, Rematch, RematchRepo};
use crate::store::error::{is_unique_violation, StoreError};
use crate::store::pg::Pg;

/// The chat of a PostgreSQL database.
pub(crate) struct PgChat(pub(crate) Arc<Pg>);

/// The rematches of a PostgreSQL database.
pub(crate) struct PgRematches(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl ChatRepo for PgChat {
    async fn add(&self, id: &str, m: &ChatMessage, max: usize) -> Result<Option<u64>, StoreError> {
        let conn = self.0.conn().await?;
        let st = conn
            .prepare_cached(
                "INSERT INTO chat_messages (game_id, seq, seat, author, name, text, at)
                 SELECT $1::text, (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_messages WHERE game_id = $1::text),
                        $2::int, $3::text, $4::text, $5::text, $6::bigint
                 WHERE (SELECT COUNT(*) FROM chat_messages WHERE game_id = $1::text) < $7::bigint
                 RETURNING seq",
            )
            .await?;
        let seat = m.seat.map(i32::from);
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        // Two servers numbering a message at once: the second tries again.
        for _ in 0..8 {
            match conn.query_opt(&st, &[&id, &seat, &m.author, &m.name, &m.text, &m.at, &max]).await {
                Ok(row) => return Ok(row.map(|r| r.try_get::<_, i64>(0)).transpose()?.map(|s| s as u64)),
                Err(e) if is_unique_violation(&e) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::failed("too many chat messages at once"))
    }

    async fn messages(&self, id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        let rows = self
            .0
            .conn()
            .await?
            .query(
                "SELECT seq, seat, author, name, text, at FROM chat_messages WHERE game_id = $1 ORDER BY seq",
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
/// author, name, text, at`.
pub(crate) fn chat_message(r: &tokio_postgres::Row, first: usize) -> Result<ChatMessage, StoreError> {
    Ok(ChatMessage {
        seq: r.try_get::<_, i64>(first)? as u64,
        seat: r.try_get::<_, Option<i32>>(first + 1)?.map(|s| s as u8),
        author: r.try_get(first + 2)?,
        name: r.try_get(first + 3)?,
        text: r.try_get(first + 4)?,
        at: r.try_get(first + 5)?,
    })
}
