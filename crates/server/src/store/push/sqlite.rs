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
        sub: &PushSubscription,
        per_endpoint: usize,
        per_target: usize,
    ) -> Result<bool, StoreError> {
        let sub = sub.clone();
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let renewed = tx.execute(
                "UPDATE push_subscriptions SET p256dh = ?3, auth = ?4, lang = ?5 WHERE endpoint = ?1 AND target = ?2",
                params![sub.endpoint, sub.target, sub.p256dh, sub.auth, sub.lang],
            )?;
                if renewed == 0 {
                    let count = |sql: &str, key: &str| tx.query_row(sql, [key], |r| r.get::<_, i64>(0));
                    let by_endpoint =
                        count("SELECT count(*) FROM push_subscriptions WHERE endpoint = ?1", &sub.endpoint)?;
                    let by_target = count("SELECT count(*) FROM push_subscriptions WHERE target = ?1", &sub.target)?;
                    if by_endpoint as usize >= per_endpoint || by_target as usize >= per_target {
                        return Ok(false);
                    }
                    tx.execute(
                        &format!("INSERT INTO push_subscriptions ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"),
                        params![
                            sub.endpoint,
                            sub.p256dh,
                            sub.auth,
                            sub.target,
                            sub.game_id,
                            sub.account,
                            sub.created_at,
                            sub.lang
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
