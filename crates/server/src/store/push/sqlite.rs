//! Web Push in SQLite.

use rusqlite::params;

use super::{PushRepo, PushSubscription, COLUMNS};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The push subscriptions of one SQLite file.
pub(crate) struct SqlitePush(pub(crate) SqliteDb);

#[async_trait::async_trait]
impl PushRepo for SqlitePush {
    async fn vapid_key(&self, candidate: &str, now: i64) -> Result<String, StoreError> {
        let candidate = candidate.to_string();
        self.0
            .run(move |db| {
                let conn = db.conn();
                conn.execute(
                "INSERT INTO push_keys (id, private_key, created_at) VALUES (1, ?1, ?2) ON CONFLICT (id) DO NOTHING",
                params![candidate, now],
            )?;
                Ok(conn.query_row("SELECT private_key FROM push_keys WHERE id = 1", [], |r| r.get(0))?)
            })
            .await
    }

    async fn subscribe(
        &self,
        subs: &[PushSubscription],
        per_endpoint: usize,
        per_target: usize,
        per_owner: usize,
    ) -> Result<bool, StoreError> {
        let subs = subs.to_vec();
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                // Dropped uncommitted (a bound passed), the transaction
                // keeps nothing.
                let tx = conn.transaction()?;
                for sub in &subs {
                    let renewed = tx.execute(
                        "UPDATE push_subscriptions SET p256dh = ?3, auth = ?4, lang = ?5 WHERE endpoint = ?1 AND target = ?2",
                        params![sub.endpoint, sub.target, sub.p256dh, sub.auth, sub.lang],
                    )?;
                    if renewed > 0 {
                        continue;
                    }
                    let (by_endpoint, by_target, by_owner): (i64, i64, i64) = tx.query_row(
                        "SELECT (SELECT count(*) FROM push_subscriptions WHERE endpoint = ?1),
                                (SELECT count(*) FROM push_subscriptions WHERE target = ?2),
                                (SELECT count(*) FROM push_subscriptions WHERE owner = ?3)",
                        params![sub.endpoint, sub.target, sub.owner],
                        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                    )?;
                    if by_endpoint as usize >= per_endpoint
                        || by_target as usize >= per_target
                        || by_owner as usize >= per_owner
                    {
                        return Ok(false);
                    }
                    tx.execute(
                        &format!(
                            "INSERT INTO push_subscriptions ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
                        ),
                        params![
                            sub.endpoint,
                            sub.p256dh,
                            sub.auth,
                            sub.target,
                            sub.game_id,
                            sub.account,
                            sub.created_at,
                            sub.lang,
                            sub.owner
                        ],
                    )?;
                }
                tx.commit()?;
                Ok(true)
            })
            .await
    }

    async fn unsubscribe(&self, endpoint: &str, target: Option<&str>) -> Result<u64, StoreError> {
        let (endpoint, target) = (endpoint.to_string(), target.map(str::to_string));
        self.0
            .run(move |db| {
                let n = db.conn().execute(
                    "DELETE FROM push_subscriptions WHERE endpoint = ?1 AND (?2 IS NULL OR target = ?2)",
                    params![endpoint, target],
                )?;
                Ok(n as u64)
            })
            .await
    }

    async fn forget_game(&self, game: &str) -> Result<u64, StoreError> {
        let game = game.to_string();
        self.0
            .run(move |db| {
                let n = db.conn().execute("DELETE FROM push_subscriptions WHERE game_id = ?1", params![game])?;
                Ok(n as u64)
            })
            .await
    }

    async fn subscriptions(&self, target: &str) -> Result<Vec<PushSubscription>, StoreError> {
        let target = target.to_string();
        self.0
            .run(move |db| {
                let conn = db.conn();
                let mut stmt = conn.prepare(&format!(
                    "SELECT {COLUMNS} FROM push_subscriptions WHERE target = ?1 ORDER BY created_at, endpoint"
                ))?;
                let rows = stmt.query_map([target], |r| {
                    Ok(PushSubscription {
                        endpoint: r.get(0)?,
                        p256dh: r.get(1)?,
                        auth: r.get(2)?,
                        target: r.get(3)?,
                        game_id: r.get(4)?,
                        account: r.get(5)?,
                        created_at: r.get(6)?,
                        lang: r.get(7)?,
                        owner: r.get(8)?,
                    })
                })?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            })
            .await
    }

    async fn invite_taken(&self, game: &str, seat: u8) -> Result<bool, StoreError> {
        let game = game.to_string();
        self.0
            .run(move |db| {
                let n = db.conn().execute(
                    "INSERT INTO push_invites (game_id, seat) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
                    params![game, seat],
                )?;
                Ok(n == 1)
            })
            .await
    }
}
