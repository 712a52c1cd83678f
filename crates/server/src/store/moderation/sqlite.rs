//! Blocks, reports and sanctions in SQLite.

use rusqlite::{params, OptionalExtension};

use super::{
    reports_sql, BlockRow, Blocked, ModerationRepo, NewReport, Report, ReportBounds, Reported, Sanctions, ADD_BLOCK,
    ADD_REPORT,
};
use crate::store::error::StoreError;
use crate::store::sqlite::SqliteDb;

/// The moderation of one SQLite file.
pub(crate) struct SqliteModeration(pub(crate) SqliteDb);

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn report_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Report> {
    Ok(Report {
        id: r.get(0)?,
        reporter: r.get(1)?,
        reporter_name: r.get(2)?,
        thing: r.get(3)?,
        target: r.get(4)?,
        target_name: r.get(5)?,
        target_now: r.get(6)?,
        game: r.get(7)?,
        seq: r.get::<_, Option<i64>>(8)?.map(|s| s as u64),
        text: r.get(9)?,
        reason: r.get(10)?,
        note: r.get(11)?,
        at: r.get(12)?,
        resolved_at: r.get(13)?,
        against: r.get::<_, i64>(14)? as u64,
        sanctions: Sanctions { muted_until: r.get(15)?, closed_at: r.get(16)? },
    })
}

#[async_trait::async_trait]
impl ModerationRepo for SqliteModeration {
    async fn block(&self, account: &str, blocked: &str, at: i64, max: usize) -> Result<Blocked, StoreError> {
        let (account, blocked) = (account.to_string(), blocked.to_string());
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let already = tx
                    .query_row(
                        "SELECT 1 FROM blocks WHERE account = ?1 AND blocked = ?2",
                        params![account, blocked],
                        |_| Ok(()),
                    )
                    .optional()?
                    .is_some();
                if already {
                    return Ok(Blocked::Already);
                }
                let n = tx.execute(ADD_BLOCK, params![account, blocked, at, count(max)])?;
                tx.commit()?;
                Ok(if n == 1 { Blocked::Added } else { Blocked::Full })
            })
            .await
    }

    async fn unblock(&self, account: &str, blocked: &str) -> Result<bool, StoreError> {
        let (account, blocked) = (account.to_string(), blocked.to_string());
        self.0
            .run(move |db| {
                let n = db
                    .conn()
                    .execute("DELETE FROM blocks WHERE account = ?1 AND blocked = ?2", params![account, blocked])?;
                Ok(n == 1)
            })
            .await
    }

    async fn blocks(&self, account: &str) -> Result<Vec<BlockRow>, StoreError> {
        let account = account.to_string();
        self.0
            .run(move |db| {
                let conn = db.read();
                let mut st = conn.prepare_cached(
                    "SELECT b.blocked, a.name, b.created_at FROM blocks b JOIN accounts a ON a.id = b.blocked
                     WHERE b.account = ?1 ORDER BY b.created_at DESC, a.name",
                )?;
                let rows =
                    st.query_map([&account], |r| Ok(BlockRow { account: r.get(0)?, name: r.get(1)?, at: r.get(2)? }))?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            })
            .await
    }

    async fn either_way(&self, account: &str) -> Result<Vec<String>, StoreError> {
        let account = account.to_string();
        self.0
            .run(move |db| {
                let conn = db.read();
                let mut st = conn.prepare_cached(
                    "SELECT blocked FROM blocks WHERE account = ?1 UNION SELECT account FROM blocks WHERE blocked = ?1",
                )?;
                let rows = st.query_map([&account], |r| r.get(0))?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            })
            .await
    }

    async fn report(&self, report: &NewReport, bounds: &ReportBounds) -> Result<Reported, StoreError> {
        let (r, b) = (report.clone(), *bounds);
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let already = tx
                    .query_row(
                        "SELECT 1 FROM reports WHERE reporter = ?1 AND thing = ?2",
                        params![r.reporter, r.thing],
                        |_| Ok(()),
                    )
                    .optional()?
                    .is_some();
                if already {
                    return Ok(Reported::Already);
                }
                let id: Option<i64> = tx
                    .query_row(
                        ADD_REPORT,
                        params![
                            r.reporter,
                            r.thing,
                            r.target,
                            r.target_name,
                            r.game,
                            r.seq.map(|s| s as i64),
                            r.text,
                            r.reason,
                            r.note,
                            r.address,
                            r.at,
                            count(b.per_reporter),
                            count(b.per_address),
                            count(b.total)
                        ],
                        |row| row.get(0),
                    )
                    .optional()?;
                tx.commit()?;
                Ok(id.map_or(Reported::Full, Reported::Added))
            })
            .await
    }

    async fn reports(&self, open_only: bool, limit: usize) -> Result<Vec<Report>, StoreError> {
        self.0
            .run(move |db| {
                let conn = db.read();
                let mut st = conn.prepare_cached(&reports_sql(open_only, "?1"))?;
                let rows = st.query_map([count(limit)], report_row)?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            })
            .await
    }

    async fn resolve(&self, id: i64, at: i64) -> Result<bool, StoreError> {
        self.0
            .run(move |db| {
                let n = db.conn().execute(
                    "UPDATE reports SET resolved_at = ?2 WHERE id = ?1 AND resolved_at IS NULL",
                    params![id, at],
                )?;
                Ok(n == 1)
            })
            .await
    }

    async fn sanctions(&self, account: &str) -> Result<Sanctions, StoreError> {
        let account = account.to_string();
        self.0
            .run(move |db| {
                let row = db
                    .read()
                    .query_row("SELECT muted_until, closed_at FROM sanctions WHERE account = ?1", [&account], |r| {
                        Ok(Sanctions { muted_until: r.get(0)?, closed_at: r.get(1)? })
                    })
                    .optional()?;
                Ok(row.unwrap_or_default())
            })
            .await
    }

    async fn mute(&self, account: &str, until: i64) -> Result<(), StoreError> {
        let account = account.to_string();
        self.0
            .run(move |db| {
                db.conn().execute(
                    "INSERT INTO sanctions (account, muted_until) VALUES (?1, ?2)
                     ON CONFLICT (account) DO UPDATE SET muted_until = excluded.muted_until",
                    params![account, until],
                )?;
                Ok(())
            })
            .await
    }

    async fn close(&self, account: &str, at: i64) -> Result<bool, StoreError> {
        let account = account.to_string();
        self.0
            .run(move |db| {
                let mut conn = db.conn();
                let tx = conn.transaction()?;
                let was: Option<Option<i64>> = tx
                    .query_row("SELECT closed_at FROM sanctions WHERE account = ?1", [&account], |r| r.get(0))
                    .optional()?;
                tx.execute(
                    "INSERT INTO sanctions (account, closed_at) VALUES (?1, ?2)
                     ON CONFLICT (account) DO UPDATE SET closed_at = COALESCE(sanctions.closed_at, excluded.closed_at)",
                    params![account, at],
                )?;
                tx.execute("DELETE FROM sessions WHERE account = ?1", [&account])?;
                tx.commit()?;
                Ok(!matches!(was, Some(Some(_))))
            })
            .await
    }
}
