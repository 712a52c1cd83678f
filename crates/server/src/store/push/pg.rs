//! Web Push in PostgreSQL: servers subscribing the same endpoint or
//! target at once take turns (advisory locks), so that the bounds hold.

use std::sync::Arc;

use super::{PushRepo, PushSubscription, COLUMNS};
use crate::store::error::StoreError;
use crate::store::pg::Pg;

/// The push subscriptions of a PostgreSQL database.
pub(crate) struct PgPush(pub(crate) Arc<Pg>);

#[async_trait::async_trait]
impl PushRepo for PgPush {
    async fn vapid_key(&self, candidate: &str, now: i64) -> Result<String, StoreError> {
        let conn = self.0.conn().await?;
        conn.execute(
            "INSERT INTO push_keys (id, private_key, created_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING",
            &[&candidate, &now],
        )
        .await?;
        Ok(conn.query_one("SELECT private_key FROM push_keys WHERE id = 1", &[]).await?.try_get(0)?)
    }

    async fn subscribe(
        &self,
        sub: &PushSubscription,
        per_endpoint: usize,
        per_target: usize,
    ) -> Result<bool, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // Servers subscribing the same endpoint or target at once take turns.
        tx.execute(
            "SELECT pg_advisory_xact_lock(hashtext('push:' || $1)), pg_advisory_xact_lock(hashtext('push:' || $2))",
            &[&sub.endpoint, &sub.target],
        )
        .await?;
        let renewed = tx
            .execute(
                "UPDATE push_subscriptions SET p256dh = $3, auth = $4, lang = $5 WHERE endpoint = $1 AND target = $2",
                &[&sub.endpoint, &sub.target, &sub.p256dh, &sub.auth, &sub.lang],
            )
            .await?;
        if renewed == 0 {
            let by_endpoint: i64 = tx
                .query_one("SELECT count(*) FROM push_subscriptions WHERE endpoint = $1", &[&sub.endpoint])
                .await?
                .try_get(0)?;
            let by_target: i64 = tx
                .query_one("SELECT count(*) FROM push_subscriptions WHERE target = $1", &[&sub.target])
                .await?
                .try_get(0)?;
            if by_endpoint as usize >= per_endpoint || by_target as usize >= per_target {
                return Ok(false);
            }
            tx.execute(
                &format!("INSERT INTO push_subscriptions ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"),
                &[
                    &sub.endpoint,
                    &sub.p256dh,
                    &sub.auth,
                    &sub.target,
                    &sub.game_id,
                    &sub.account,
                    &sub.created_at,
                    &sub.lang,
                ],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn unsubscribe(&self, endpoint: &str, target: Option<&str>) -> Result<u64, StoreError> {
        Ok(self
            .0
            .conn()
            .await?
            .execute(
                "DELETE FROM push_subscriptions WHERE endpoint = $1 AND ($2::TEXT IS NULL OR target = $2)",
                &[&endpoint, &target],
            )
            .await?)
    }

    async fn subscriptions(&self, target: &str) -> Result<Vec<PushSubscription>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM push_subscriptions WHERE target = $1 ORDER BY created_at, endpoint");
        let rows = self.0.conn().await?.query(&sql, &[&target]).await?;
        rows.iter()
            .map(|r| {
                Ok(PushSubscription {
                    endpoint: r.try_get(0)?,
                    p256dh: r.try_get(1)?,
                    auth: r.try_get(2)?,
                    target: r.try_get(3)?,
                    game_id: r.try_get(4)?,
                    account: r.try_get(5)?,
                    created_at: r.try_get(6)?,
                    lang: r.try_get(7)?,
                })
            })
            .collect()
    }

    async fn invite_taken(&self, game: &str, seat: u8) -> Result<bool, StoreError> {
        let n = self
            .0
            .conn()
            .await?
            .execute(
                "INSERT INTO push_invites (game_id, seat) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&game, &i32::from(seat)],
            )
            .await?;
        Ok(n == 1)
    }
}
