//! Blocking and reporting (docs/web.md, *Blocking and reporting*), and what
//! the operator does about reports (`carcassonne admin`).
//!
//! A signed-in player blocks another account: its chat lines are not sent
//! to them (in any game, as spectator or player), Play now never pairs the
//! two, and neither sits at a lobby table the other sits at. At most
//! [`MAX_BLOCKS`] an account. Whom an account blocks is read from the store
//! at most every [`BLOCKS_FRESH`] per server (at once on the server where
//! the block was made), as each chat line is sent.
//!
//! A player reports an account's name, or a chat line (a guest holding a
//! seat of the game too, for that game's lines), with a reason from
//! [`REASONS`] and a short note. The line's text is copied into the report.
//! One report per reporter and thing; reports are rate limited per reporter
//! and per address, and the open ones bounded (`Config::reports`): per
//! reporter, per address and in all, with places in all kept for reporters
//! with a history ([`Histories`]), so that strangers filling their share
//! never stop the people the server knows from reporting.
//!
//! The operator lists the open reports and mutes (no chat until a time),
//! renames or closes an account (it cannot sign in, its sessions end; its
//! games and ratings stay, under the names they were played under), with
//! `carcassonne admin` on the storage, or on the admin page of a running
//! server as one of the accounts `serve --admin` names ([`Moderation::is_operator`]).

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::history::Histories;
use super::ids::now_ms;
use crate::config::ReportSettings;
use crate::error::ApiError;
use crate::limits::{Keyed, Pruning};
use crate::names::{clean_name, name_key, reserved};
use crate::store::{
    hash_address, Account, AccountRepo, BlockRow, Blocked, ChatRepo, ModerationRepo, NewReport, Report, ReportBounds,
    Reported, Store, DELETED_ACCOUNT,
};

/// The most accounts one account blocks.
pub const MAX_BLOCKS: usize = 500;
/// The reasons a report gives.
pub const REASONS: [&str; 4] = ["offensive_name", "abusive_chat", "cheating", "other"];
/// The longest note of a report, in characters (as a chat message).
pub const MAX_NOTE_CHARS: usize = super::text::MAX_CHAT_CHARS;
/// Reports one reporter (or one address) makes at once…
pub const REPORTS_BURST: u32 = 5;
/// …and then one per this period.
pub const REPORT_PERIOD: Duration = Duration::from_secs(60);
/// How long a server trusts whom an account blocks, as read from the store.
pub const BLOCKS_FRESH: Duration = Duration::from_secs(10);
/// The longest mute, in hours (a year).
pub const MAX_MUTE_HOURS: u64 = 24 * 366;
/// The most reports the operator lists at once.
pub const MAX_LISTED: usize = 1000;

fn refused(code: &'static str, why: impl Into<String>) -> ApiError {
    ApiError::Moderation(code, why.into())
}

/// Who reports: a signed-in account, or a guest holding seat `seat` of `game`.
#[derive(Clone, Debug)]
pub enum Reporter {
    Account(Account),
    Seat { game: String, seat: u8 },
}

/// What is reported: an account's name, or a line of a game's chat.
#[derive(Clone, Debug)]
pub enum Target {
    Name(String),
    Line { game: String, seq: u64 },
}

/// Whom an account blocks, and when it was read.
type BlockedRead = (Instant, Arc<HashSet<String>>);

/// Blocks, reports and the operator's sanctions.
pub struct Moderation {
    repo: Arc<dyn ModerationRepo>,
    accounts: Arc<dyn AccountRepo>,
    chat: Arc<dyn ChatRepo>,
    histories: Arc<Histories>,
    bounds: ReportSettings,
    per_reporter: Keyed<String>,
    per_address: Keyed<IpAddr>,
    /// Whom each account blocks, as read (and when).
    blocked: Mutex<HashMap<String, BlockedRead>>,
    pruning: Pruning,
    /// The operators' names, cleaned, and their keys (`Config::operators`).
    operators: Vec<(String, String)>,
}

fn quota() -> governor::Quota {
    governor::Quota::with_period(REPORT_PERIOD)
        .unwrap_or_else(|| governor::Quota::per_minute(NonZeroU32::MIN))
        .allow_burst(NonZeroU32::new(REPORTS_BURST).unwrap_or(NonZeroU32::MIN))
}

/// A report's note as kept: cleaned as a chat message is (empty allowed).
fn clean_note(raw: &str) -> Result<String, ApiError> {
    match super::text::clean_message(raw) {
        Ok(note) => Ok(note),
        Err(ApiError::EmptyMessage) => Ok(String::new()),
        Err(_) => Err(ApiError::BadRequest(format!("note: at most {MAX_NOTE_CHARS} characters"))),
    }
}

impl Moderation {
    pub fn new(store: &Store, histories: Arc<Histories>, bounds: ReportSettings) -> Moderation {
        Moderation {
            repo: Arc::clone(&store.moderation),
            accounts: Arc::clone(&store.accounts),
            chat: Arc::clone(&store.chat),
            histories,
            bounds,
            per_reporter: Keyed::new(quota()),
            per_address: Keyed::new(quota()),
            blocked: Mutex::default(),
            pruning: Pruning::new(10_000),
            operators: Vec::new(),
        }
    }

    /// The same, the accounts named `names` its operators (names that
    /// clean to nothing are left out).
    #[must_use]
    pub fn with_operators(mut self, names: &[String]) -> Moderation {
        self.operators = names
            .iter()
            .filter_map(|n| clean_name(n))
            .map(|n| {
                let key = name_key(&n);
                (n, key)
            })
            .collect();
        self
    }

    /// Whether `account` is one of the operators: its name's key is one of
    /// theirs (an account renamed away from an operator's name is no longer one).
    pub fn is_operator(&self, account: &Account) -> bool {
        self.operators.iter().any(|(_, key)| *key == account.name_key)
    }

    /// Logs a warning for each operator's name that no account holds (anyone
    /// who signs it up becomes an operator) or that nobody can hold (a
    /// reserved name): the operator signs the name up before naming it.
    pub async fn check_operators(&self) {
        for (name, key) in &self.operators {
            if reserved(name) {
                tracing::warn!(name = %name, "an operator's name is reserved: no account can hold it");
                continue;
            }
            match self.accounts.by_key(key).await {
                Ok(Some(a)) => tracing::info!(operator = %a.name, "operator"),
                Ok(None) => tracing::warn!(
                    name = %name,
                    "no account holds an operator's name: whoever signs it up may use the admin page"
                ),
                Err(e) => tracing::warn!(error = %e, "cannot read the operators' accounts"),
            }
        }
    }

    /// The account shown under `name`, or `not_found`.
    ///
    /// # Errors
    /// `not_found`, `storage_error`.
    pub async fn account_named(&self, name: &str) -> Result<Account, ApiError> {
        let missing = || ApiError::NotFound(format!("player {name}"));
        if name.len() > 200 {
            return Err(missing());
        }
        let key = clean_name(name).map(|n| name_key(&n)).ok_or_else(missing)?;
        self.accounts.by_key(&key).await?.ok_or_else(missing)
    }

    fn forget(&self, account: &str) {
        self.blocked.lock().unwrap_or_else(|e| e.into_inner()).remove(account);
    }

    /// `account` blocks the account named `name`: its name as shown.
    ///
    /// # Errors
    /// `not_found`, `cannot_block_self`, `too_many_blocks`, `storage_error`.
    pub async fn block(&self, account: &Account, name: &str) -> Result<String, ApiError> {
        let target = self.account_named(name).await?;
        self.block_id(account, &target).await?;
        Ok(target.name)
    }

    async fn block_id(&self, account: &Account, target: &Account) -> Result<(), ApiError> {
        if target.id == account.id {
            return Err(refused("cannot_block_self", "you cannot block yourself"));
        }
        match self.repo.block(&account.id, &target.id, now_ms(), MAX_BLOCKS).await? {
            Blocked::Added | Blocked::Already => {}
            Blocked::Full => {
                return Err(refused("too_many_blocks", format!("you block {MAX_BLOCKS} players already: unblock one")))
            }
        }
        self.forget(&account.id);
        Ok(())
    }

    /// `account` blocks the author of line `seq` of game `game`'s chat: their name now.
    ///
    /// # Errors
    /// `not_found` (no such line), `not_a_member` (its author was not signed
    /// in), `cannot_block_self`, `too_many_blocks`, `storage_error`.
    pub async fn block_author(&self, account: &Account, game: &str, seq: u64) -> Result<String, ApiError> {
        let line = self.line(game, seq).await?;
        let author = line
            .author_account
            .filter(|a| a != DELETED_ACCOUNT)
            .ok_or_else(|| refused("not_a_member", "that line's author was not signed in: report it instead"))?;
        let target =
            self.accounts.by_id(&author).await?.ok_or_else(|| ApiError::NotFound(format!("player {}", line.name)))?;
        self.block_id(account, &target).await?;
        Ok(target.name)
    }

    /// `account` no longer blocks the account named `name` (it is not an
    /// error if it did not).
    ///
    /// # Errors
    /// `not_found`, `storage_error`.
    pub async fn unblock(&self, account: &Account, name: &str) -> Result<String, ApiError> {
        let target = self.account_named(name).await?;
        self.repo.unblock(&account.id, &target.id).await?;
        self.forget(&account.id);
        Ok(target.name)
    }

    /// The accounts `account` blocks, the latest first.
    ///
    /// # Errors
    /// `storage_error`.
    pub async fn blocks(&self, account: &Account) -> Result<Vec<BlockRow>, ApiError> {
        Ok(self.repo.blocks(&account.id).await?)
    }

    /// The accounts `account` (an id) blocks: whose chat lines it is not
    /// sent. Read again at most every [`BLOCKS_FRESH`]; a storage failure
    /// keeps what was read last (or none).
    pub async fn blocked_by(&self, account: &str) -> Arc<HashSet<String>> {
        let kept = self.blocked.lock().unwrap_or_else(|e| e.into_inner()).get(account).cloned();
        if let Some((at, set)) = &kept {
            if at.elapsed() < BLOCKS_FRESH {
                return Arc::clone(set);
            }
        }
        let set = match self.repo.blocks(account).await {
            Ok(rows) => Arc::new(rows.into_iter().map(|b| b.account).collect::<HashSet<_>>()),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read whom an account blocks");
                return kept.map(|(_, s)| s).unwrap_or_default();
            }
        };
        let mut map = self.blocked.lock().unwrap_or_else(|e| e.into_inner());
        self.pruning.maybe(map.len(), || {
            map.retain(|_, (at, _)| at.elapsed() < BLOCKS_FRESH);
            map.len()
        });
        map.insert(account.to_string(), (Instant::now(), Arc::clone(&set)));
        set
    }

    /// The accounts `account` blocks or is blocked by, read now: none of
    /// them is paired with it, nor sits at its table.
    ///
    /// # Errors
    /// `storage_error`.
    pub async fn either_way(&self, account: &str) -> Result<HashSet<String>, ApiError> {
        Ok(self.repo.either_way(account).await?.into_iter().collect())
    }

    async fn line(&self, game: &str, seq: u64) -> Result<crate::store::ChatMessage, ApiError> {
        let missing = || ApiError::NotFound(format!("line {seq} of game {game}'s chat"));
        if !super::ids::plausible(game) {
            return Err(missing());
        }
        self.chat.messages(game).await?.into_iter().find(|m| m.seq == seq).ok_or_else(missing)
    }

    /// Keeps a report of `target` by `reporter` (from `address`): its number.
    ///
    /// # Errors
    /// `bad_request` (reason, note), `not_found`, `not_signed_in` (a guest
    /// reports a name, or a line of another game), `cannot_report_self`,
    /// `already_reported`, `reports_too_fast`, `too_many_reports`, `storage_error`.
    pub async fn report(
        &self,
        reporter: &Reporter,
        target: &Target,
        reason: &str,
        note: &str,
        address: IpAddr,
    ) -> Result<i64, ApiError> {
        if !REASONS.contains(&reason) {
            return Err(ApiError::BadRequest(format!("reason: one of {}", REASONS.join(", "))));
        }
        let note = clean_note(note)?;
        let (who, mine) = match reporter {
            Reporter::Account(a) => (a.id.clone(), Some(a.id.as_str())),
            Reporter::Seat { game, seat } => (format!("seat:{game}:{seat}"), None),
        };
        let (thing, target_id, target_name, game, seq, text) = match target {
            Target::Name(name) => {
                if matches!(reporter, Reporter::Seat { .. }) {
                    return Err(ApiError::NotSignedIn);
                }
                let a = self.account_named(name).await?;
                (format!("name:{}", a.id), Some(a.id), a.name, None, None, None)
            }
            Target::Line { game, seq } => {
                if matches!(reporter, Reporter::Seat { game: g, .. } if g != game) {
                    return Err(ApiError::NotSignedIn);
                }
                let line = self.line(game, *seq).await?;
                if let (Reporter::Seat { seat, .. }, Some(s)) = (reporter, line.seat) {
                    if *seat == s {
                        return Err(refused("cannot_report_self", "that line is yours"));
                    }
                }
                let author = line.author_account.clone().filter(|a| a != DELETED_ACCOUNT);
                (format!("chat:{game}:{seq}"), author, line.name, Some(game.clone()), Some(*seq), Some(line.text))
            }
        };
        if mine.is_some() && target_id.as_deref() == mine {
            return Err(refused("cannot_report_self", "you cannot report yourself"));
        }
        let too_fast = || refused("reports_too_fast", format!("one report a minute, after {REPORTS_BURST}"));
        self.per_reporter.check(&who).map_err(|_| too_fast())?;
        self.per_address.check(&address).map_err(|_| too_fast())?;
        let report = NewReport {
            reporter: who,
            thing,
            target: target_id,
            target_name,
            game,
            seq,
            text,
            reason: reason.to_string(),
            note,
            address: hash_address(address),
            at: now_ms(),
        };
        // Reporters without a history (guests' seats among them) share the
        // places not kept.
        let known = match reporter {
            Reporter::Account(a) => self.histories.of(&a.id, a.created_at).await,
            Reporter::Seat { .. } => false,
        };
        let b = self.bounds;
        let total = if known { b.total } else { b.total.saturating_sub(b.kept) };
        let bounds = ReportBounds { per_reporter: b.per_reporter, per_address: b.per_address, total };
        match self.repo.report(&report, &bounds).await? {
            Reported::Added(id) => Ok(id),
            Reported::Already => Err(refused("already_reported", "you reported this already")),
            Reported::Full => Err(refused(
                "too_many_reports",
                "too many of your reports (or of the server's) wait for the operator: try again later",
            )),
        }
    }

    /// Whether account `id` has a history (services/history.rs): the
    /// places and rates kept for people the server knows.
    pub async fn known(&self, id: &str) -> bool {
        self.histories.of_id(id).await
    }

    /// Whether `account` may chat now.
    ///
    /// # Errors
    /// `muted` (until when, in the message), `account_closed`, `storage_error`.
    pub async fn may_chat(&self, account: &str) -> Result<(), ApiError> {
        let s = self.repo.sanctions(account).await?;
        if s.closed_at.is_some() {
            return Err(refused("account_closed", "this account was closed"));
        }
        match s.muted_until {
            Some(until) if until > now_ms() => {
                let minutes = (until - now_ms()).div_euclid(60_000) + 1;
                Err(refused("muted", format!("you may not chat for {minutes} more minutes")))
            }
            _ => Ok(()),
        }
    }

    // ---- The operator's (`carcassonne admin`, the admin page) ----

    /// The reports, newest first: the open ones, or all.
    ///
    /// # Errors
    /// `storage_error`.
    pub async fn reports(&self, open_only: bool) -> Result<Vec<Report>, ApiError> {
        Ok(self.repo.reports(open_only, MAX_LISTED).await?)
    }

    /// Report `id` dealt with.
    ///
    /// # Errors
    /// `not_found` (no such open report), `storage_error`.
    pub async fn resolve(&self, id: i64) -> Result<(), ApiError> {
        if self.repo.resolve(id, now_ms()).await? {
            Ok(())
        } else {
            Err(ApiError::NotFound(format!("open report {id}")))
        }
    }

    /// Mutes the account named `name` for `hours` (0 lifts the mute): until when.
    ///
    /// # Errors
    /// `not_found`, `bad_request` (over [`MAX_MUTE_HOURS`]), `storage_error`.
    pub async fn mute(&self, name: &str, hours: u64) -> Result<(Account, i64), ApiError> {
        if hours > MAX_MUTE_HOURS {
            return Err(ApiError::BadRequest(format!("a mute lasts at most {MAX_MUTE_HOURS} hours")));
        }
        let account = self.account_named(name).await?;
        let until = now_ms() + (hours as i64) * 3_600_000;
        self.repo.mute(&account.id, until).await?;
        Ok((account, until))
    }

    /// Renames the account named `name` to `new` (checked as names at
    /// sign-up are): its name as kept.
    ///
    /// # Errors
    /// `not_found`, `bad_request` (the new name), `name_taken`, `storage_error`.
    pub async fn rename(&self, name: &str, new: &str) -> Result<String, ApiError> {
        let account = self.account_named(name).await?;
        let new = clean_name(new).ok_or_else(|| ApiError::BadRequest("a name needs a visible character".into()))?;
        if reserved(&new) {
            return Err(ApiError::NameTaken);
        }
        if !self.accounts.rename(&account.id, &new, &name_key(&new)).await? {
            return Err(ApiError::NameTaken);
        }
        Ok(new)
    }

    /// Closes the account named `name`: it can no longer sign in, its
    /// sessions end, it may not chat. Whether it was open.
    ///
    /// # Errors
    /// `not_found`, `storage_error`.
    pub async fn close(&self, name: &str) -> Result<bool, ApiError> {
        let account = self.account_named(name).await?;
        Ok(self.repo.close(&account.id, now_ms()).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_cleaned_and_bounded() {
        assert_eq!(clean_note("  ").unwrap(), "");
        assert_eq!(clean_note(" rude \n words ").unwrap(), "rude words");
        assert_eq!(clean_note("\u{200B}").unwrap(), "");
        assert!(clean_note(&"x".repeat(MAX_NOTE_CHARS)).is_ok());
        assert!(matches!(clean_note(&"x".repeat(MAX_NOTE_CHARS + 1)), Err(ApiError::BadRequest(_))));
    }
}
