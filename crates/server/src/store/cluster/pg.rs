//! Several servers on one PostgreSQL database:
//!
//! - **The change feed.** Every stored move is announced on the
//!   [`CHANNEL`](super::feed::CHANNEL) channel (`NOTIFY`, delivered when its transaction
//!   commits), and presence, bot thinking and the rest on [`EVENTS`];
//!   the feed (`feed.rs`) listens on a connection of its own, read as a
//!   stream, and hands the news to the server.
//! - **Heartbeats.** Each server has a row in `servers` that it touches a
//!   few times a second ([`ClusterRepo::beat`]); one silent for
//!   [`DEAD_AFTER`] is let go, with its bot leases and presence (they
//!   reference it).
//! - **One server drives a game's bots**: whoever holds the game's row in
//!   `bot_leases`. A bot whose server died is claimed by another at its next
//!   heartbeat, without anyone watching the game.
//! - **Presence**: each server keeps, per game, how many websockets it holds
//!   on each seat in `presence`, and announces every change; a change feed
//!   that was away reads the whole table when it listens again.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

use super::feed::{Listener, EVENTS};
use super::{Beat, Change, ClusterRepo, Feed, BEAT_EVERY};
use crate::store::error::StoreError;
use crate::store::pg::Pg;

/// A server whose heartbeat is older than this is taken for dead.
pub const DEAD_AFTER: Duration = Duration::from_millis(5 * BEAT_EVERY.as_millis() as u64);

/// A game whose bot is to move, with no server holding its lease, is
/// claimed by a heartbeat once its last move is this old (before that, the
/// server that stored the move is about to claim it).
const ORPHAN_AFTER: Duration = Duration::from_millis(500);

/// The most orphaned games one heartbeat claims (others take the rest).
const CLAIMS_PER_BEAT: i64 = 20;

/// This server among those sharing a PostgreSQL database.
pub(crate) struct PgCluster(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl ClusterRepo for PgCluster {
    fn changes(&self) -> Option<UnboundedReceiver<Change>> {
        if tokio::runtime::Handle::try_current().is_err() {
            tracing::error!("the PostgreSQL change feed needs a tokio runtime");
            return None;
        }
        let (tx, rx) = unbounded_channel();
        let listener = Listener {
            config: self.0.config.clone(),
            tls: self.0.tls.clone(),
            shown: self.0.shown.clone(),
            since: self.0.opened_at,
            tx,
            listening: Arc::clone(&self.0.listening),
        };
        self.0.feed_started.store(true, Ordering::Relaxed);
        tokio::spawn(listener.run());
        Some(rx)
    }

    async fn health(&self) -> Result<(), StoreError> {
        self.0.conn().await?.query_one("SELECT 1", &[]).await?;
        Ok(())
    }

    fn feed(&self) -> Feed {
        match (self.0.feed_started.load(Ordering::Relaxed), self.0.listening.load(Ordering::Relaxed)) {
            (false, _) => Feed::None,
            (true, true) => Feed::Up,
            (true, false) => Feed::Down,
        }
    }

    fn server(&self) -> Option<&str> {
        Some(&self.0.server)
    }

    async fn claim_bots(&self, id: &str) -> Result<bool, StoreError> {
        let conn = self.0.conn().await?;
        let claim = conn
            .prepare_cached(
                "WITH mine AS (
                    INSERT INTO bot_leases (game_id, server) VALUES ($1, $2)
                    ON CONFLICT (game_id) DO NOTHING RETURNING server
                 )
                 SELECT server FROM mine UNION ALL SELECT server FROM bot_leases WHERE game_id = $1",
            )
            .await?;
        let row = conn.query_opt(&claim, &[&id, &self.0.server]).await?;
        Ok(match row {
            Some(row) => row.try_get::<_, &str>(0)? == self.0.server,
            None => false,
        })
    }

    async fn release_bots(&self, id: &str) -> Result<(), StoreError> {
        let conn = self.0.conn().await?;
        let release = conn.prepare_cached("DELETE FROM bot_leases WHERE game_id = $1 AND server = $2").await?;
        conn.execute(&release, &[&id, &self.0.server]).await?;
        Ok(())
    }

    async fn publish(&self, change: &Change) -> Result<(), StoreError> {
        let payload = serde_json::to_string(change)?;
        match change {
            Change::Presence { game, online, .. } => {
                let conn = self.0.conn().await?;
                // Kept for servers that open the game later, and announced.
                let sql = if online.iter().all(|n| *n == 0) {
                    "WITH kept AS (DELETE FROM presence WHERE game_id = $1 AND server = $2 AND $3::text IS NOT NULL)
                     SELECT pg_notify($4, $5)"
                } else {
                    "WITH kept AS (
                        INSERT INTO presence (game_id, server, online) VALUES ($1, $2, $3)
                        ON CONFLICT (game_id, server) DO UPDATE SET online = EXCLUDED.online
                     )
                     SELECT pg_notify($4, $5)"
                };
                let statement = conn.prepare_cached(sql).await?;
                let online = serde_json::to_string(online)?;
                conn.execute(&statement, &[game, &self.0.server, &online, &EVENTS, &payload]).await?;
                Ok(())
            }
            Change::Thinking { .. }
            | Change::Chat { .. }
            | Change::Rematch { .. }
            | Change::Seats { .. }
            | Change::Clock { .. }
            | Change::Lobby { .. }
            | Change::Takeback { .. } => self.0.notify(EVENTS, &payload).await,
            Change::Moved(_) | Change::Gone { .. } | Change::PresenceAll { .. } => Ok(()),
        }
    }

    async fn presence(&self, id: &str) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        let conn = self.0.conn().await?;
        let rows = conn
            .query("SELECT server, online FROM presence WHERE game_id = $1 AND server <> $2", &[&id, &self.0.server])
            .await?;
        rows.iter().map(|r| Ok((r.try_get::<_, String>(0)?, serde_json::from_str(r.try_get::<_, &str>(1)?)?))).collect()
    }

    async fn beat(&self) -> Result<Beat, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        let touched = tx.execute("UPDATE servers SET seen_at = now() WHERE id = $1", &[&self.0.server]).await?;
        let rejoined = touched == 0;
        if rejoined {
            tracing::warn!(server = %self.0.server, "this server was taken for dead (a late heartbeat): joining again");
            tx.execute("INSERT INTO servers (id) VALUES ($1)", &[&self.0.server]).await?;
        }
        // Servers that stopped beating go, with their leases and presence.
        let dead = DEAD_AFTER.as_secs_f64();
        let gone = tx
            .query("DELETE FROM servers WHERE seen_at < now() - make_interval(secs => $1) RETURNING id", &[&dead])
            .await?;
        for row in &gone {
            let server: String = row.try_get(0)?;
            tracing::warn!(server = %server, "a server stopped answering: its bots and players are let go");
            let payload = serde_json::to_string(&Change::Gone { server })?;
            tx.execute("SELECT pg_notify($1, $2)", &[&EVENTS, &payload]).await?;
        }
        let servers = tx.query("SELECT id FROM servers ORDER BY id", &[]).await?;
        let servers = servers.iter().map(|r| r.try_get(0)).collect::<Result<Vec<String>, _>>()?;
        let orphan_after = ORPHAN_AFTER.as_secs_f64();
        let claimed = tx
            .query(
                "INSERT INTO bot_leases (game_id, server)
                 SELECT g.id, $1 FROM games g
                 WHERE g.bot_turn AND g.stored_at < now() - make_interval(secs => $2)
                   AND NOT EXISTS (SELECT 1 FROM bot_leases l WHERE l.game_id = g.id)
                 ORDER BY g.stored_at LIMIT $3
                 ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                &[&self.0.server, &orphan_after, &CLAIMS_PER_BEAT],
            )
            .await?;
        let claimed = claimed.iter().map(|r| r.try_get(0)).collect::<Result<Vec<String>, _>>()?;
        tx.commit().await?;
        Ok(Beat { servers, claimed, rejoined })
    }

    async fn leave(&self) -> Result<(), StoreError> {
        let payload = serde_json::to_string(&Change::Gone { server: self.0.server.clone() })?;
        self.0
            .conn()
            .await?
            .execute(
                "WITH gone AS (DELETE FROM servers WHERE id = $1) SELECT pg_notify($2, $3)",
                &[&self.0.server, &EVENTS, &payload],
            )
            .await?;
        Ok(())
    }
}
