//! Blocks, reports and sanctions in PostgreSQL.

use std::sync::Arc;

use super::{
    reports_sql, BlockRow, Blocked, ModerationRepo, NewReport, Report, ReportBounds, Reported, Sanctions, ADD_BLOCK,
    ADD_REPORT,
};
use crate::store::error::StoreError;
use crate::store::pg::Pg;

/// The moderation of a PostgreSQL database.
pub(crate) struct PgModeration(pub(crate) Arc<Pg>);

/// Taken by a transaction that adds a block of account `$1`, or a report:
/// the counts it checks hold until it commits, on every server.
const LOCK: &str = "SELECT pg_advisory_xact_lock(hashtext('moderation:' || $1))";

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn report_row(r: &tokio_postgres::Row) -> Result<Report, StoreError> {
    Ok(Report {
        id: r.try_get(0)?,
        reporter: r.try_get(1)?,
        reporter_name: r.try_get(2)?,
        thing: r.try_get(3)?,
        target: r.try_get(4)?,
        target_name: r.try_get(5)?,
        target_now: r.try_get(6)?,
        game: r.try_get(7)?,
        seq: r.try_get::<_, Option<i64>>(8)?.map(|s| s as u64),
        text: r.try_get(9)?,
        reason: r.try_get(10)?,
        note: r.try_get(11)?,
        at: r.try_get(12)?,
        resolved_at: r.try_get(13)?,
        against: r.try_get::<_, i64>(14)? as u64,
        sanctions: Sanctions { muted_until: r.try_get(15)?, closed_at: r.try_get(16)? },
    })
}

#[async_trait::async_trait]
impl ModerationRepo for PgModeration {
    async fn block(&self, account: &str, blocked: &str, at: i64, max: usize) -> Result<Blocked, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        tx.execute(LOCK, &[&account]).await?;
        let already =
            tx.query_opt("SELECT 1 FROM blocks WHERE account = $1 AND blocked = $2", &[&account, &blocked]).await?;
        if already.is_some() {
            return Ok(Blocked::Already);
        }
        let n = tx.execute(ADD_BLOCK, &[&account, &blocked, &at, &count(max)]).await?;
        tx.commit().await?;
        Ok(if n == 1 { Blocked::Added } else { Blocked::Full })
    }

    async fn unblock(&self, account: &str, blocked: &str) -> Result<bool, StoreError> {
        let conn = self.0.conn().await?;
        let n = conn.execute("DELETE FROM blocks WHERE account = $1 AND blocked = $2", &[&account, &blocked]).await?;
        Ok(n == 1)
    }

    async fn blocks(&self, account: &str) -> Result<Vec<BlockRow>, StoreError> {
        let rows = self
            .0
            .conn()
            .await?
            .query(
                "SELECT b.blocked, a.name, b.created_at FROM blocks b JOIN accounts a ON a.id = b.blocked
                 WHERE b.account = $1 ORDER BY b.created_at DESC, a.name",
                &[&account],
            )
            .await?;
        rows.iter().map(|r| Ok(BlockRow { account: r.try_get(0)?, name: r.try_get(1)?, at: r.try_get(2)? })).collect()
    }

    async fn either_way(&self, account: &str) -> Result<Vec<String>, StoreError> {
        let rows = self
            .0
            .conn()
            .await?
            .query(
                "SELECT blocked FROM blocks WHERE account = $1 UNION SELECT account FROM blocks WHERE blocked = $1",
                &[&account],
            )
            .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    async fn report(&self, r: &NewReport, b: &ReportBounds) -> Result<Reported, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        // One report at a time, on every server: the bounds hold.
        tx.execute(LOCK, &[&"reports"]).await?;
        let already =
            tx.query_opt("SELECT 1 FROM reports WHERE reporter = $1 AND thing = $2", &[&r.reporter, &r.thing]).await?;
        if already.is_some() {
            return Ok(Reported::Already);
        }
        let seq = r.seq.map(|s| i64::try_from(s).unwrap_or(i64::MAX));
        let row = tx
            .query_opt(
                ADD_REPORT,
                &[
                    &r.reporter,
                    &r.thing,
                    &r.target,
                    &r.target_name,
                    &r.game,
                    &seq,
                    &r.text,
                    &r.reason,
                    &r.note,
                    &r.address,
                    &r.at,
                    &count(b.per_reporter),
                    &count(b.per_address),
                    &count(b.total),
                ],
            )
            .await?;
        tx.commit().await?;
        Ok(match row {
            Some(row) => Reported::Added(row.try_get(0)?),
            None => Reported::Full,
        })
    }

    async fn reports(&self, open_only: bool, limit: usize) -> Result<Vec<Report>, StoreError> {
        let rows = self.0.conn().await?.query(&reports_sql(open_only, "$1"), &[&count(limit)]).await?;
        rows.iter().map(report_row).collect()
    }

    async fn resolve(&self, id: i64, at: i64) -> Result<bool, StoreError> {
        let n = self
            .0
            .conn()
            .await?
            .execute("UPDATE reports SET resolved_at = $2 WHERE id = $1 AND resolved_at IS NULL", &[&id, &at])
            .await?;
        Ok(n == 1)
    }

    async fn sanctions(&self, account: &str) -> Result<Sanctions, StoreError> {
        let row = self
            .0
            .conn()
            .await?
            .query_opt("SELECT muted_until, closed_at FROM sanctions WHERE account = $1", &[&account])
            .await?;
        match row {
            Some(r) => Ok(Sanctions { muted_until: r.try_get(0)?, closed_at: r.try_get(1)? }),
            None => Ok(Sanctions::default()),
        }
    }

    async fn mute(&self, account: &str, until: i64) -> Result<(), StoreError> {
        self.0
            .conn()
            .await?
            .execute(
                "INSERT INTO sanctions (account, muted_until) VALUES ($1, $2)
                 ON CONFLICT (account) DO UPDATE SET muted_until = EXCLUDED.muted_until",
                &[&account, &until],
            )
            .await?;
        Ok(())
    }

    async fn close(&self, account: &str, at: i64) -> Result<bool, StoreError> {
        let mut conn = self.0.conn().await?;
        let tx = conn.transaction().await?;
        let was = tx.query_opt("SELECT closed_at FROM sanctions WHERE account = $1 FOR UPDATE", &[&account]).await?;
        let was_closed = match was {
            Some(r) => r.try_get::<_, Option<i64>>(0)?.is_some(),
            None => false,
        };
        tx.execute(
            "INSERT INTO sanctions (account, closed_at) VALUES ($1, $2)
             ON CONFLICT (account) DO UPDATE SET closed_at = COALESCE(sanctions.closed_at, EXCLUDED.closed_at)",
            &[&account, &at],
        )
        .await?;
        tx.execute("DELETE FROM sessions WHERE account = $1", &[&account]).await?;
        tx.commit().await?;
        Ok(!was_closed)
    }
}
