//! Accounts: a unique name and a password (argon2id), a recovery code
//! shown once, and server-side sessions (docs/web.md, *Accounts*).
//!
//! Passwords are hashed on blocking threads, at most [`HASHES_AT_ONCE`] at
//! once (each takes `Config::password_cost` of memory), with at most
//! `Config::password_queue` more waiting: past that, `busy` at once. Every password
//! attempt counts against its name and its address ([`Throttles`]) before
//! anything is hashed; an unknown name costs a hash of a dummy password, so
//! that it answers as a wrong password does, in the same time.
//!
//! A browser that signed in to an account is given a device cookie (its
//! token kept hashed with the account, OWASP's "device cookies"). An
//! attempt on that account from that device goes another way: it counts
//! only against the device's own budget (not the name's, which strangers
//! may spend, nor the address's), and has a hashing thread of its own
//! ([`KNOWN_HASHES`]) and a line of its own ([`KNOWN_QUEUE`]), so that
//! neither a crowd of made-up names nor wrong passwords from many
//! addresses keep its owner out.

use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use super::history::Histories;
use super::ids::{new_token, now_ms};
use crate::config::{Config, PasswordCost};
use crate::error::ApiError;
use crate::names::{clean_name, name_key, reserved};
use crate::store::{hash_token, Account, AccountRepo, ModerationRepo, Store};

/// Password hashes computed at once.
pub const HASHES_AT_ONCE: usize = 2;
/// One more hash at once, for devices that signed in to the account before.
pub const KNOWN_HASHES: usize = 1;
/// Password checks from known devices that may wait for a hashing thread.
pub const KNOWN_QUEUE: usize = 16;
/// Attempts from one known device: this many at once, then one every six seconds.
pub const ATTEMPTS_PER_DEVICE: u32 = 10;
/// Sessions kept per account: a new one ends the least lately used past
/// them (an account signing in again and again keeps the store no fuller).
pub const SESSIONS_PER_ACCOUNT: usize = 100;
/// Devices kept per account (the oldest forgotten).
pub const DEVICES_PER_ACCOUNT: usize = 20;
/// The shortest and longest password, in characters.
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=256;
/// Password attempts for one name: this many at once, then one a minute.
pub const ATTEMPTS_PER_NAME: u32 = 5;
/// Password attempts (and sign-ups) from one address (an IPv6 /64): this
/// many at once, then one every six seconds.
pub const ATTEMPTS_PER_ADDRESS: u32 = 20;

/// A budget of attempts: this many at once, then one every so often.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// What it counts (part of its key in the store).
    kind: &'static str,
    burst: u32,
    every: Duration,
}

const PER_NAME: Budget = Budget { kind: "name", burst: ATTEMPTS_PER_NAME, every: Duration::from_secs(60) };
const PER_ADDRESS: Budget = Budget { kind: "address", burst: ATTEMPTS_PER_ADDRESS, every: Duration::from_secs(6) };
const PER_DEVICE: Budget = Budget { kind: "device", burst: ATTEMPTS_PER_DEVICE, every: Duration::from_secs(6) };

/// Sign-in attempts per name and per address (unknown devices), and per
/// known device: counted in the store, so that every server sharing it
/// spends the same budgets (a name's guesses are not multiplied by the
/// servers a balancer spreads them over).
struct Throttles {
    repo: Arc<dyn AccountRepo>,
}

impl Throttles {
    /// Spends one attempt of `budget` for `key`, or says how long to wait.
    async fn spend(&self, budget: Budget, key: &str) -> Result<(), ApiError> {
        let every = i64::try_from(budget.every.as_millis()).unwrap_or(i64::MAX / 4);
        let stored = hash_token(&format!("{}\0{key}", budget.kind));
        match self.repo.spend_attempt(&stored, every, budget.burst).await? {
            None => Ok(()),
            Some(ms) => Err(ApiError::Throttled(u64::try_from(ms).unwrap_or(0).div_ceil(1000).max(1))),
        }
    }

    /// Counts an attempt from `address` (and for `name`, if given), or says
    /// how long to wait.
    async fn attempt(&self, name: Option<&str>, address: IpAddr) -> Result<(), ApiError> {
        self.spend(PER_ADDRESS, &address.to_string()).await?;
        if let Some(name) = name {
            self.spend(PER_NAME, name).await?;
        }
        Ok(())
    }

    /// Counts an attempt in `lane` (a known device: its own budget only;
    /// else as [`Throttles::attempt`]; a recovery names no budget of its
    /// name: its code carries 128 random bits, so a name's budget would
    /// guard nothing and let strangers keep the owner out).
    async fn attempt_in(&self, lane: &Lane, name: Option<&str>, address: IpAddr) -> Result<(), ApiError> {
        match lane {
            Lane::Known { device, .. } => self.spend(PER_DEVICE, device).await,
            Lane::Unknown => self.attempt(name, address).await,
        }
    }
}

/// Where an attempt on an account comes from: a device that signed in to
/// it before (its token's hash; `history`: the account has one, so its
/// checks may take the hashing thread and line kept), or anywhere else.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Lane {
    Known { device: String, history: bool },
    Unknown,
}

/// Accounts and their sessions.
pub struct Accounts {
    repo: Arc<dyn AccountRepo>,
    /// Judges the account's rated games in play before it is deleted.
    ratings: Arc<super::ratings::Ratings>,
    /// Whether an account was closed (services/moderation.rs).
    moderation: Arc<dyn ModerationRepo>,
    /// Whose devices' checks take the hashing thread and line kept.
    histories: Arc<Histories>,
    cost: PasswordCost,
    queue: usize,
    idle: Duration,
    throttles: Throttles,
    hashing: Arc<tokio::sync::Semaphore>,
    /// The known devices' own hashing thread.
    reserve: tokio::sync::Semaphore,
    /// Password checks waiting for a hashing thread, from anywhere and from
    /// known devices.
    waiting: AtomicUsize,
    known_waiting: AtomicUsize,
    /// The hash an unknown name's password is checked against.
    dummy: Arc<OnceLock<String>>,
}

impl Accounts {
    pub fn new(
        store: &Store,
        ratings: Arc<super::ratings::Ratings>,
        histories: Arc<Histories>,
        config: &Config,
    ) -> Accounts {
        Accounts {
            repo: Arc::clone(&store.accounts),
            ratings,
            moderation: Arc::clone(&store.moderation),
            histories,
            cost: config.password_cost,
            queue: config.password_queue,
            idle: config.session_idle,
            throttles: Throttles { repo: Arc::clone(&store.accounts) },
            hashing: Arc::new(tokio::sync::Semaphore::new(HASHES_AT_ONCE)),
            reserve: tokio::sync::Semaphore::new(KNOWN_HASHES),
            waiting: AtomicUsize::new(0),
            known_waiting: AtomicUsize::new(0),
            dummy: Arc::default(),
        }
    }
}

/// A new session: the account and the token for its cookie (kept only
/// hashed), and a new device token for the browser's device cookie (none
/// when the one it sent is this account's already).
pub struct Session {
    pub account: Account,
    pub token: String,
    pub device: Option<String>,
}

fn hasher(cost: PasswordCost) -> Result<Argon2<'static>, ApiError> {
    let params = Params::new(cost.memory_kib, cost.passes, cost.lanes, None)
        .map_err(|e| ApiError::Storage(format!("argon2 parameters: {e}")))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

fn hash_with(cost: PasswordCost, password: &str) -> Result<String, ApiError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| ApiError::Storage(format!("no randomness: {e}")))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| ApiError::Storage(format!("salt: {e}")))?;
    let hash = hasher(cost)?
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| ApiError::Storage(format!("argon2: {e}")))?;
    Ok(hash.to_string())
}

fn verify_with(cost: PasswordCost, password: &str, phc: &str) -> Result<bool, ApiError> {
    let parsed = PasswordHash::new(phc).map_err(|e| ApiError::Storage(format!("a stored hash: {e}")))?;
    Ok(hasher(cost)?.verify_password(password.as_bytes(), &parsed).is_ok())
}

/// The hash a device's cookie token is kept under; `None` for no token or
/// one that cannot be a cookie of ours.
fn device_hash(device: Option<&str>) -> Option<String> {
    device.filter(|d| !d.is_empty() && d.len() <= 128).map(hash_token)
}

/// A name as an account holds it: cleaned as seat names are.
fn account_name(raw: &str) -> Result<String, ApiError> {
    clean_name(raw).ok_or_else(|| ApiError::BadRequest("a name needs at least one visible character".into()))
}

/// The key a name given at sign-in is looked up by (empty when nothing is left of it).
fn key_of(raw: &str) -> String {
    clean_name(raw).map(|n| name_key(&n)).unwrap_or_default()
}

fn check_password(password: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if PASSWORD_CHARS.contains(&n) {
        Ok(())
    } else {
        Err(ApiError::BadRequest(format!(
            "a password has {} to {} characters",
            PASSWORD_CHARS.start(),
            PASSWORD_CHARS.end()
        )))
    }
}

impl Accounts {
    /// A turn on one of the [`HASHES_AT_ONCE`] hashing threads, waiting
    /// in line if `Config::password_queue` others are not waiting already.
    ///
    /// # Errors
    /// `busy` (503, `Retry-After`) when the line is full.
    /// A check from a device of an account with a history takes the first
    /// of those threads or its own ([`KNOWN_HASHES`]), in a line of its own
    /// ([`KNOWN_QUEUE`]), so that neither a crowd of made-up names nor
    /// one of new accounts signing in from their own devices keeps it out.
    async fn hashing_turn(&self, lane: &Lane) -> Result<tokio::sync::SemaphorePermit<'_>, ApiError> {
        if let Ok(permit) = self.hashing.try_acquire() {
            return Ok(permit);
        }
        let known = matches!(lane, Lane::Known { history: true, .. });
        if known {
            if let Ok(permit) = self.reserve.try_acquire() {
                return Ok(permit);
            }
        }
        /// Leaves the line however the wait ends (a request dropped too).
        struct InLine<'a>(&'a AtomicUsize);
        impl Drop for InLine<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
            }
        }
        let (line, bound) = if known { (&self.known_waiting, KNOWN_QUEUE) } else { (&self.waiting, self.queue) };
        let ahead = line.fetch_add(1, Ordering::SeqCst);
        let _in_line = InLine(line);
        if ahead >= bound {
            return Err(ApiError::TryLater("too many passwords are being checked".into()));
        }
        let closed = |e: tokio::sync::AcquireError| ApiError::Storage(e.to_string());
        if known {
            tokio::select! {
                p = self.hashing.acquire() => p.map_err(closed),
                p = self.reserve.acquire() => p.map_err(closed),
            }
        } else {
            self.hashing.acquire().await.map_err(closed)
        }
    }

    /// The lane of an attempt on `account` from the device whose token is
    /// `device` (its cookie, if any).
    async fn lane(&self, account: Option<&Account>, device: Option<&str>) -> Result<Lane, ApiError> {
        let Some(account) = account else { return Ok(Lane::Unknown) };
        Ok(match self.device_of(device, Some(&account.id)).await? {
            Some(device) => Lane::Known { device, history: self.histories.of(&account.id, account.created_at).await },
            None => Lane::Unknown,
        })
    }

    /// The hash of a device (its cookie's token) that signed in to account
    /// `of` before (to any account, if none is named).
    async fn device_of(&self, device: Option<&str>, of: Option<&str>) -> Result<Option<String>, ApiError> {
        Ok(self.device_owner(device).await?.filter(|(_, owner)| of.is_none_or(|a| a == owner)).map(|(hash, _)| hash))
    }

    /// A device's hash and the account it signed in to, if it did.
    async fn device_owner(&self, device: Option<&str>) -> Result<Option<(String, String)>, ApiError> {
        let Some(hash) = device_hash(device) else { return Ok(None) };
        Ok(self.repo.device(&hash).await?.map(|owner| (hash, owner)))
    }

    /// Hashes a password on a blocking thread (one of [`HASHES_AT_ONCE`]).
    async fn hash_password(&self, password: &str, lane: &Lane) -> Result<String, ApiError> {
        let cost = self.cost;
        let password = password.to_string();
        let _permit = self.hashing_turn(lane).await?;
        tokio::task::spawn_blocking(move || hash_with(cost, &password))
            .await
            .map_err(|e| ApiError::Storage(format!("hashing: {e}")))?
    }

    /// Whether `password` is the one `phc` hashes; with no hash (an unknown
    /// name), checks it against the dummy hash, in the same time, and says no.
    async fn verify_password(&self, password: &str, phc: Option<&str>, lane: &Lane) -> Result<bool, ApiError> {
        let cost = self.cost;
        let (password, phc) = (password.to_string(), phc.map(str::to_string));
        let dummy = Arc::clone(&self.dummy);
        let _permit = self.hashing_turn(lane).await?;
        tokio::task::spawn_blocking(move || {
            // Made at the first check, known name or not.
            let dummy = match dummy.get() {
                Some(d) => d.clone(),
                None => {
                    let d = hash_with(cost, "not anyone's password")?;
                    dummy.get_or_init(|| d).clone()
                }
            };
            let ok = verify_with(cost, &password, phc.as_deref().unwrap_or(&dummy))?;
            Ok(ok && phc.is_some())
        })
        .await
        .map_err(|e| ApiError::Storage(format!("hashing: {e}")))?
    }

    /// A new session for `account`, from the browser whose device cookie
    /// holds `device` (if any): a new device token when that is not one
    /// of this account's devices.
    ///
    /// # Errors
    /// `account_closed` (the operator closed it), `storage_error`.
    pub async fn start_session(&self, account: Account, device: Option<&str>) -> Result<Session, ApiError> {
        self.refuse_closed(&account.id).await?;
        let token = new_token()?;
        let now = now_ms();
        self.repo
            .create_session(&hash_token(&token), &account.id, now, now - self.idle_ms(), SESSIONS_PER_ACCOUNT)
            .await?;
        // Closed meanwhile (its sessions ended before this one began): this one ends too.
        if let Err(e) = self.refuse_closed(&account.id).await {
            self.repo.end_session(&hash_token(&token)).await?;
            return Err(e);
        }
        let device = match self.device_of(device, Some(&account.id)).await? {
            Some(_) => None,
            None => {
                let device = new_token()?;
                self.repo.add_device(&hash_token(&device), &account.id, now, DEVICES_PER_ACCOUNT).await?;
                Some(device)
            }
        };
        Ok(Session { account, token, device })
    }

    async fn refuse_closed(&self, account: &str) -> Result<(), ApiError> {
        if self.moderation.sanctions(account).await?.closed_at.is_some() {
            return Err(ApiError::Moderation("account_closed", "this account was closed by the operator".into()));
        }
        Ok(())
    }

    /// Counts a sign-in attempt that names no account (a passkey's) from
    /// `address`, against the same throttle as passwords; the address's
    /// budget spent, a device that signed in to an account before
    /// (`device`, its cookie's token) spends its own budget instead, so
    /// that a crowd at its address does not keep it out.
    ///
    /// # Errors
    /// `too_many_attempts`.
    pub async fn count_sign_in_attempt(&self, address: IpAddr, device: Option<&str>) -> Result<(), ApiError> {
        match self.throttles.attempt(None, address).await {
            Err(ApiError::Throttled(_)) if self.count_known_device(device).await? => Ok(()),
            other => other,
        }
    }

    /// Counts a step from a device that signed in to an account before
    /// (`device`, its cookie's token) against its own budget: false, and
    /// nothing counted, for any other.
    ///
    /// # Errors
    /// `too_many_attempts`.
    pub async fn count_known_device(&self, device: Option<&str>) -> Result<bool, ApiError> {
        match self.device_of(device, None).await? {
            Some(hash) => self.throttles.spend(PER_DEVICE, &hash).await.map(|()| true),
            None => Ok(false),
        }
    }

    /// The account whose device `device` is (its cookie), if any.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn device_account(&self, device: Option<&str>) -> Result<Option<Account>, ApiError> {
        match self.device_owner(device).await? {
            Some((_, owner)) => Ok(self.repo.by_id(&owner).await?),
            None => Ok(None),
        }
    }

    fn idle_ms(&self) -> i64 {
        i64::try_from(self.idle.as_millis()).unwrap_or(i64::MAX / 4)
    }

    /// Opens an account (and a session): the session and the recovery
    /// code, which is shown this once.
    ///
    /// # Errors
    /// `bad_request` (name or password), `name_taken`, `too_many_attempts`.
    pub async fn sign_up(&self, name: &str, password: &str, address: IpAddr) -> Result<(Session, String), ApiError> {
        let name = account_name(name)?;
        check_password(password)?;
        let key = name_key(&name);
        self.throttles.attempt(None, address).await?;
        // A name the server gives or speaks under is as good as taken.
        if reserved(&name) || self.repo.by_key(&key).await?.is_some() {
            return Err(ApiError::NameTaken);
        }
        let recovery = new_token()?;
        let account = Account {
            id: new_token()?,
            name,
            name_key: key,
            password: self.hash_password(password, &Lane::Unknown).await?,
            recovery: hash_token(&recovery),
            created_at: now_ms(),
        };
        if !self.repo.create(&account).await? {
            return Err(ApiError::NameTaken);
        }
        Ok((self.start_session(account, None).await?, recovery))
    }

    /// Checks a name's password, from the device whose cookie holds
    /// `device` (if any): counted against the name and the address, or
    /// against the device's own budget if it signed in to that account
    /// before. The account, or `bad_credentials` whether the name is
    /// unknown or the password wrong.
    async fn check_credentials(
        &self,
        key: &str,
        password: &str,
        address: IpAddr,
        device: Option<&str>,
    ) -> Result<Account, ApiError> {
        let account = self.repo.by_key(key).await?;
        let lane = self.lane(account.as_ref(), device).await?;
        self.throttles.attempt_in(&lane, Some(key), address).await?;
        let ok = self.verify_password(password, account.as_ref().map(|a| a.password.as_str()), &lane).await?;
        match account {
            Some(a) if ok => Ok(a),
            _ => Err(ApiError::BadCredentials),
        }
    }

    /// Signs in from the device whose cookie holds `device` (if any): a new
    /// session.
    ///
    /// # Errors
    /// `bad_credentials`, `too_many_attempts`, `busy`.
    pub async fn sign_in(
        &self,
        name: &str,
        password: &str,
        address: IpAddr,
        device: Option<&str>,
    ) -> Result<Session, ApiError> {
        let account = self.check_credentials(&key_of(name), password, address, device).await?;
        self.start_session(account, device).await
    }

    /// The account a session token belongs to (renewing the session), if
    /// it is one in use.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn session(&self, token: &str) -> Result<Option<Account>, ApiError> {
        let now = now_ms();
        let idle = self.idle_ms();
        let renew_every = (idle / 10).min(60_000);
        Ok(self.repo.session(&hash_token(token), now, now - idle, now - renew_every).await?)
    }

    /// Ends the session of this token.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn sign_out(&self, token: &str) -> Result<(), ApiError> {
        self.repo.end_session(&hash_token(token)).await?;
        Ok(())
    }

    /// Ends every session of the account, this one too.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn sign_out_everywhere(&self, account: &Account) -> Result<(), ApiError> {
        self.repo.end_sessions(&account.id, None).await?;
        Ok(())
    }

    /// Changes the password (the current one is asked again); the
    /// account's other sessions end, the one of `token` stays.
    ///
    /// # Errors
    /// `bad_request` (the new password), `bad_credentials`, `too_many_attempts`.
    pub async fn change_password(
        &self,
        account: &Account,
        token: &str,
        current: &str,
        new: &str,
        address: IpAddr,
        device: Option<&str>,
    ) -> Result<(), ApiError> {
        check_password(new)?;
        let account = self.check_credentials(&account.name_key, current, address, device).await?;
        let hash = self.hash_password(new, &self.lane(Some(&account), device).await?).await?;
        if !self.repo.set_password(&account.id, &hash, None).await? {
            return Err(ApiError::NotSignedIn);
        }
        self.repo.end_sessions(&account.id, Some(&hash_token(token))).await?;
        Ok(())
    }

    /// Sets a new password with the recovery code (from the device whose
    /// cookie holds `device`, if any): every session ends, a new recovery
    /// code replaces the one used, and a new session starts. Recoveries
    /// count against the address (no name's budget, which strangers could
    /// spend), a known device's against its own as for sign-in. The code is
    /// read in either case (it is hexadecimal), spaces around it left out.
    ///
    /// # Errors
    /// `bad_request`, `bad_credentials` (unknown name or wrong code), `too_many_attempts`.
    pub async fn recover(
        &self,
        name: &str,
        code: &str,
        new: &str,
        address: IpAddr,
        device: Option<&str>,
    ) -> Result<(Session, String), ApiError> {
        check_password(new)?;
        let key = key_of(name);
        let account = self.repo.by_key(&key).await?;
        let lane = self.lane(account.as_ref(), device).await?;
        self.throttles.attempt_in(&lane, None, address).await?;
        let given = hash_token(&code.trim().to_ascii_lowercase());
        let account = match account {
            Some(a) if crate::store::same_hash(&a.recovery, &given) => a,
            _ => return Err(ApiError::BadCredentials),
        };
        let hash = self.hash_password(new, &lane).await?;
        let recovery = new_token()?;
        if !self.repo.set_password(&account.id, &hash, Some(&hash_token(&recovery))).await? {
            return Err(ApiError::BadCredentials);
        }
        self.repo.end_sessions(&account.id, None).await?;
        Ok((self.start_session(account, device).await?, recovery))
    }

    /// Deletes the account (its password asked again) and its sessions,
    /// ratings and history; its seats' links are dropped (the seats keep
    /// the names they were played under; lists say "deleted player").
    ///
    /// # Errors
    /// `bad_credentials`, `too_many_attempts`.
    pub async fn delete(
        &self,
        account: &Account,
        password: &str,
        address: IpAddr,
        device: Option<&str>,
    ) -> Result<(), ApiError> {
        let account = self.check_credentials(&account.name_key, password, address, device).await?;
        self.ratings.forget_account(&account.id).await?;
        self.repo.delete(&account.id).await?;
        Ok(())
    }
}
