//! `carcassonne admin`: the operator's moderation (docs/web.md, *Blocking
//! and reporting*): the open reports, and mute, rename, close, resolve.

use carcassonne_server::moderation::Moderation;
use carcassonne_server::{Config, Histories, Report, Store};

#[derive(clap::Args, Debug)]
pub struct AdminArgs {
    /// The server's storage, as `serve --db` names it: a SQLite file (which
    /// the server must not hold open: stop it first) or a PostgreSQL URL.
    #[arg(long, default_value = "carcassonne.db", global = true)]
    pub db: String,
    #[command(subcommand)]
    pub command: AdminCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum AdminCommand {
    /// The open reports, newest first: each one's number, when, the account
    /// or line reported, the reason, the text, the open reports against
    /// that account, and whether it is muted or closed.
    Reports {
        /// The resolved ones too.
        #[arg(long)]
        all: bool,
    },
    /// The account named NAME may not chat for HOURS hours (0 lifts a mute).
    Mute {
        name: String,
        #[arg(long, default_value_t = 24)]
        hours: u64,
    },
    /// The account named NAME is named NEW from now on (the name rules of
    /// sign-up apply; old games keep the names they were played under).
    Rename { name: String, new: String },
    /// Closes the account named NAME: it can no longer sign in, its sessions
    /// end, it may not chat; its games and ratings stay.
    Close { name: String },
    /// Report REPORT_ID was dealt with: it leaves the open reports.
    Resolve { report_id: i64 },
}

/// A time as the operator reads it: UTC, to the minute.
fn when(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rest / 3600, rest % 3600 / 60)
}

/// One report, as lines of text.
fn describe(r: &Report) -> String {
    let account = match (&r.target_now, &r.target) {
        (Some(now), _) if *now != r.target_name => format!("{} (now {now})", r.target_name),
        (Some(_), _) => r.target_name.clone(),
        (None, Some(_)) => format!("{} (account deleted)", r.target_name),
        (None, None) => format!("{} (not signed in)", r.target_name),
    };
    let what = match (&r.game, r.seq) {
        (Some(game), Some(seq)) => format!("chat line {seq} of game {game}"),
        _ => "name".to_string(),
    };
    let by = r.reporter_name.clone().unwrap_or_else(|| "a guest's seat".into());
    let mut state = String::new();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
    if let Some(until) = r.sanctions.muted_until.filter(|&u| u > now) {
        state.push_str(&format!(" [muted until {}]", when(until)));
    }
    if let Some(at) = r.sanctions.closed_at {
        state.push_str(&format!(" [closed {}]", when(at)));
    }
    if let Some(at) = r.resolved_at {
        state.push_str(&format!(" [resolved {}]", when(at)));
    }
    let mut out = format!(
        "#{}  {}  {}: {}  reason: {}  by: {}  reports against: {}{}",
        r.id,
        when(r.at),
        what,
        account,
        r.reason,
        by,
        r.against,
        state
    );
    if let Some(text) = &r.text {
        out.push_str(&format!("\n    text: {text}"));
    }
    if !r.note.is_empty() {
        out.push_str(&format!("\n    note: {}", r.note));
    }
    out
}

pub fn run(args: AdminArgs) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
    runtime.block_on(async move {
        let (store, _) = Store::open(std::ffi::OsStr::new(&args.db)).await?;
        // The operator's commands only: the reports' bounds are the server's.
        let config = Config::default();
        let histories = std::sync::Arc::new(Histories::new(&store, config.lobby.clone()));
        let moderation = Moderation::new(&store, histories, config.reports);
        match args.command {
            AdminCommand::Reports { all } => {
                let reports = moderation.reports(!all).await?;
                if reports.is_empty() {
                    say!("{}", if all { "No reports." } else { "No open reports." });
                }
                for r in &reports {
                    say!("{}", describe(r));
                }
            }
            AdminCommand::Mute { name, hours } => {
                let (account, until) = moderation.mute(&name, hours).await?;
                if hours == 0 {
                    say!("{} may chat again.", account.name);
                } else {
                    say!("{} is muted until {}.", account.name, when(until));
                }
            }
            AdminCommand::Rename { name, new } => {
                let new = moderation.rename(&name, &new).await?;
                say!("{name} is now {new}.");
            }
            AdminCommand::Close { name } => {
                let closed = moderation.close(&name).await?;
                say!("{name} {}.", if closed { "is closed: signed out everywhere" } else { "was closed already" });
            }
            AdminCommand::Resolve { report_id } => {
                moderation.resolve(report_id).await?;
                say!("Report #{report_id} is resolved.");
            }
        }
        Ok::<(), Box<dyn std::error::Error>>(())
    })
}

#[cfg(test)]
mod tests {
    use super::when;

    #[test]
    fn times_are_dates_in_utc() {
        assert_eq!(when(0), "1970-01-01 00:00 UTC");
        assert_eq!(when(951_782_400_000 + 3_723_000), "2000-02-29 01:02 UTC");
        assert_eq!(when(1_767_225_599_000), "2025-12-31 23:59 UTC");
    }
}
