//! Web Push in PostgreSQL: servers subscribing the same endpoint, target
//! or owner at once take turns (advisory locks), so that the bounds hold.

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
        subs: &[PushSubscription],
        per_endpoint: usize,
        per_target: usize,
        per_owner: usize,
    ) -> Result<bool, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // Servers subscribing the same endpoint, target or owner at once
        // take turns: each takes the locks of all it touches, in one order.
        let keys: Vec<String> =
            subs.iter().flat_map(|s| [&s.endpoint, &s.target, &s.owner]).map(|k| format!("push:{k}")).collect();
        tx.execute(
            "SELECT pg_advisory_xact_lock(h) FROM
                (SELECT DISTINCT hashtext(k) AS h FROM unnest($1::TEXT[]) AS k ORDER BY h) AS keys",
            &[&keys],
        )
        .await?;
        for sub in subs {
            let renewed = tx
                .execute(
                    "UPDATE push_subscriptions SET p256dh = $3, auth = $4, lang = $5 WHERE endpoint = $1 AND target = $2",
                    &[&sub.endpoint, &sub.target, &sub.p256dh, &sub.auth, &sub.lang],
                )
                .await?;
            if renewed > 0 {
                continue;
            }
            let counts = tx
                .query_one(
                    "SELECT (SELECT count(*) FROM push_subscriptions WHERE endpoint = $1),
                            (SELECT count(*) FROM push_subscriptions WHERE target = $2),
                            (SELECT count(*) FROM push_subscriptions WHERE owner = $3)",
                    &[&sub.endpoint, &sub.target, &sub.owner],
                )
                .await?;
            let (by_endpoint, by_target, by_owner): (i64, i64, i64) =
                (counts.try_get(0)?, counts.try_get(1)?, counts.try_get(2)?);
            if by_endpoint as usize >= per_endpoint
                || by_target as usize >= per_target
                || by_owner as usize >= per_owner
            {
                // Dropped uncommitted, the transaction keeps nothing.
                return Ok(false);
            }
            tx.execute(
                &format!("INSERT INTO push_subscriptions ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"),
                &[
                    &sub.endpoint,
                    &sub.p256dh,
                    &sub.auth,
                    &sub.target,
                    &sub.game_id,
                    &sub.account,
                    &sub.created_at,
                    &sub.lang,
                    &sub.owner,
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

    async fn forget_game(&self, game: &str) -> Result<u64, StoreError> {
        Ok(self.0.conn().await?.execute("DELETE FROM push_subscriptions WHERE game_id = $1", &[&game]).await?)
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
                    owner: r.try_get(8)?,
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
