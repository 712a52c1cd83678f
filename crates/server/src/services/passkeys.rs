//! Passkeys (WebAuthn, through webauthn-rs): a second way to sign in to an
//! account (docs/web.md, *Passkeys*).
//!
//! A signed-in account adds passkeys (at most [`MAX_PASSKEYS`]), lists and
//! removes them; anyone signs in with one without typing a name (a
//! discoverable credential; the browser offers it in the name field,
//! "conditional UI"). Each ceremony is two requests: its start keeps
//! webauthn-rs's state in the store under the hash of a fresh token (so
//! that any server sharing the database can finish it), for
//! `Config::passkey_challenge_ttl`; its finish takes that state, once.
//! The ceremonies kept at once are bounded across servers
//! (`Config::passkey_ceremonies`), with places kept for people with a
//! history, so that a crowd of addresses fills neither the disk nor the
//! known people's way in.
//!
//! The relying party is `Config::public_url` (its host is the RP id); with
//! none, `http://localhost` at any port, for development.

use std::net::IpAddr;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use serde::Serialize;
use sha2::{Digest, Sha256};
use webauthn_rs::prelude::{
    DiscoverableAuthentication, DiscoverableKey, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Url, Uuid, Webauthn, WebauthnBuilder,
};

use std::sync::Arc;

use super::accounts::{Accounts, Session};
use super::history::Histories;
use super::ids::{new_token, now_ms};
use crate::config::{Config, PasskeyCeremonies};
use crate::error::ApiError;
use crate::names::clean_name;
use crate::store::{hash_token, Account, PasskeyChallenge, PasskeyRepo, Store, StoredPasskey};

/// Passkeys one account may have.
pub const MAX_PASSKEYS: usize = 10;
/// The longest name of a passkey, in characters.
pub const MAX_PASSKEY_NAME: usize = 40;
/// Ceremonies one address may start: this many at once, then one every
/// two seconds (each keeps a row in the store until it expires).
pub const STARTS_PER_ADDRESS: u32 = 30;
/// The longest credential id (WebAuthn's limit is 1023 bytes), hex.
pub const MAX_CREDENTIAL_ID: usize = 2 * 1023;

const REGISTER: &str = "register";
const SIGN_IN: &str = "signin";

/// The relying party's origin from a configured public URL: its scheme,
/// host and port (`https://carcassonne.example`). The host must be a
/// domain name (browsers refuse passkeys for IP addresses), the scheme
/// https (or http for localhost), and nothing may follow the host but `/`.
///
/// # Errors
/// Says what is wrong with `url`.
pub fn passkey_origin(url: &str) -> Result<String, String> {
    let parsed = Url::parse(url.trim()).map_err(|e| format!("{url} is not a URL: {e}"))?;
    let Some(host) = parsed.host_str() else {
        return Err(format!("{url} has no host"));
    };
    if parsed.domain().is_none() {
        return Err(format!("{url}: passkeys need a domain name, not an IP address"));
    }
    let local = host == "localhost" || host.ends_with(".localhost");
    match parsed.scheme() {
        "https" => {}
        "http" if local => {}
        _ => return Err(format!("{url}: passkeys need https (http only for localhost)")),
    }
    if parsed.path() != "/" || parsed.query().is_some() || parsed.fragment().is_some() || !parsed.username().is_empty()
    {
        return Err(format!("{url}: give the origin only, as https://carcassonne.example"));
    }
    Ok(parsed.origin().ascii_serialization())
}

type Limiter<K> = crate::limits::Keyed<K>;

/// Passkeys: a second way to sign in.
pub struct Passkeys {
    repo: Arc<dyn PasskeyRepo>,
    accounts: Arc<Accounts>,
    histories: Arc<Histories>,
    /// `Config::passkey_challenge_ttl`.
    ttl: Duration,
    /// `Config::passkey_ceremonies`.
    ceremonies: PasskeyCeremonies,
    /// `None` when `Config::public_url` is not a usable origin (logged).
    webauthn: Option<Webauthn>,
    /// The origin pages must come from.
    origin: Url,
    /// Development: `http://localhost` at any port.
    any_port: bool,
    /// Ceremonies started, per address.
    starts: Limiter<IpAddr>,
}

impl Passkeys {
    pub fn new(store: &Store, accounts: Arc<Accounts>, histories: Arc<Histories>, config: &Config) -> Passkeys {
        let (origin, any_port) = match &config.public_url {
            Some(url) => match passkey_origin(url) {
                Ok(o) => (Url::parse(&o).ok(), false),
                Err(e) => {
                    tracing::warn!(error = %e, "passkeys are off: the public URL will not do");
                    (None, false)
                }
            },
            None => (Url::parse("http://localhost").ok(), true),
        };
        let webauthn = origin.as_ref().and_then(|o| {
            let rp_id = o.host_str()?;
            WebauthnBuilder::new(rp_id, o)
                .ok()?
                .rp_name("Carcassonne")
                .allow_any_port(any_port)
                .timeout(config.passkey_challenge_ttl)
                .build()
                .map_err(|e| tracing::warn!(error = %e, "passkeys are off"))
                .ok()
        });
        let one = std::num::NonZeroU32::MIN;
        let quota = governor::Quota::with_period(Duration::from_secs(2))
            .unwrap_or_else(|| governor::Quota::per_minute(one))
            .allow_burst(std::num::NonZeroU32::new(STARTS_PER_ADDRESS).unwrap_or(one));
        Passkeys {
            repo: Arc::clone(&store.passkeys),
            accounts,
            histories,
            ttl: config.passkey_challenge_ttl,
            ceremonies: config.passkey_ceremonies,
            webauthn,
            origin: origin.unwrap_or_else(|| Url::parse("http://localhost").expect("a URL")),
            any_port,
            starts: Limiter::new(quota),
        }
    }

    /// Whether a page of `origin` may use passkeys here.
    fn serves(&self, origin: Option<&str>) -> bool {
        let Some(origin) = origin.and_then(|o| Url::parse(o).ok()) else {
            return false;
        };
        self.webauthn.is_some()
            && origin.scheme() == self.origin.scheme()
            && origin.host_str() == self.origin.host_str()
            && (self.any_port || origin.port_or_known_default() == self.origin.port_or_known_default())
    }

    /// Counts a ceremony started from `address`, or says how long to wait.
    fn start(&self, address: IpAddr) -> Result<(), ApiError> {
        self.starts.check(&address).map_err(|n| {
            let secs = n.wait_time_from(DefaultClock::default().now()).as_secs_f64().ceil();
            ApiError::Throttled((secs as u64).max(1))
        })
    }
}

/// Who begins a ceremony: an account adding a passkey, or a browser
/// signing in (its device cookie's token, if any).
#[derive(Clone, Copy)]
enum By<'a> {
    Account(&'a Account),
    Device(Option<&'a str>),
}

/// A passkey as its account's list shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PasskeyInfo {
    /// The credential id, hex.
    pub id: String,
    pub name: String,
    pub created_at: i64,
    pub used_at: Option<i64>,
}

impl From<&StoredPasskey> for PasskeyInfo {
    fn from(p: &StoredPasskey) -> Self {
        PasskeyInfo { id: p.credential_id.clone(), name: p.name.clone(), created_at: p.created_at, used_at: p.used_at }
    }
}

/// A ceremony started: the token the browser sends back, and the options
/// for `navigator.credentials` (webauthn-rs's JSON).
pub struct Started {
    pub challenge: String,
    pub options: serde_json::Value,
}

/// The WebAuthn user handle of an account: not its id (which stays on the
/// server), but 16 bytes of a hash of it.
fn user_handle(account: &Account) -> Uuid {
    let digest =
        Sha256::new().chain_update(b"carcassonne passkey user\0").chain_update(account.id.as_bytes()).finalize();
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    Uuid::from_bytes(bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn json<T: Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| ApiError::Storage(format!("passkey state: {e}")))
}

fn parse<T: serde::de::DeserializeOwned>(s: &str) -> Result<T, ApiError> {
    serde_json::from_str(s).map_err(|e| ApiError::Storage(format!("passkey state: {e}")))
}

fn refused(why: impl std::fmt::Display) -> ApiError {
    tracing::info!(%why, "passkey refused");
    ApiError::PasskeyRefused
}

/// The challenge token as the browser sends it back, if it looks like one.
fn challenge_hash(token: &str) -> Result<String, ApiError> {
    if token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(hash_token(token))
    } else {
        Err(ApiError::ChallengeExpired)
    }
}

impl Passkeys {
    /// webauthn-rs, if passkeys work for pages of `origin`.
    fn webauthn_for(&self, origin: Option<&str>) -> Result<&Webauthn, ApiError> {
        let p = self;
        match &p.webauthn {
            Some(w) if p.serves(origin) => Ok(w),
            _ => Err(ApiError::PasskeysUnavailable),
        }
    }

    fn webauthn(&self) -> Result<&Webauthn, ApiError> {
        self.webauthn.as_ref().ok_or(ApiError::PasskeysUnavailable)
    }

    /// Keeps a ceremony's state, begun by `by`; the token for the browser.
    /// The places kept are taken only when the others are, by people with a
    /// history (so the common case reads no history).
    ///
    /// # Errors
    /// `busy` when the ceremonies' places open to this person are taken.
    async fn keep_challenge(&self, kind: &str, by: By<'_>, state: String) -> Result<String, ApiError> {
        let token = new_token()?;
        let now = now_ms();
        let ttl = i64::try_from(self.ttl.as_millis()).unwrap_or(i64::MAX / 4);
        let account = match by {
            By::Account(a) => Some(a.id.clone()),
            By::Device(_) => None,
        };
        let challenge = PasskeyChallenge {
            id_hash: hash_token(&token),
            kind: kind.into(),
            account,
            state,
            expires_at: now.saturating_add(ttl),
        };
        let PasskeyCeremonies { total, kept: reserve } = self.ceremonies;
        let saved = self.repo.save_challenge(&challenge, now, total.saturating_sub(reserve)).await?
            || (reserve > 0 && self.known(by).await? && self.repo.save_challenge(&challenge, now, total).await?);
        if !saved {
            return Err(ApiError::TryLater("too many passkey ceremonies are under way".into()));
        }
        Ok(token)
    }

    /// Whether `by` has a history: the account, or the account whose device it is.
    async fn known(&self, by: By<'_>) -> Result<bool, ApiError> {
        Ok(match by {
            By::Account(a) => self.histories.of(&a.id, a.created_at).await,
            By::Device(device) => match self.accounts.device_account(device).await? {
                Some(a) => self.histories.of(&a.id, a.created_at).await,
                None => false,
            },
        })
    }

    /// Takes a ceremony's state (once): `challenge_expired` if it is not
    /// there (never was, taken, or too old).
    async fn take_challenge(&self, kind: &str, token: &str) -> Result<PasskeyChallenge, ApiError> {
        let hash = challenge_hash(token)?;
        self.repo.take_challenge(&hash, kind, now_ms()).await?.ok_or(ApiError::ChallengeExpired)
    }

    /// The account's passkeys.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn of(&self, account: &Account) -> Result<Vec<PasskeyInfo>, ApiError> {
        Ok(self.repo.of(&account.id).await?.iter().map(PasskeyInfo::from).collect())
    }

    /// Whether pages served under this `Host` can use passkeys (a hint for
    /// the page: a `GET` carries no `Origin`; the ceremonies check the origin).
    pub fn available(&self, host: Option<&str>) -> bool {
        let p = self;
        host.is_some_and(|h| p.serves(Some(&format!("{}://{h}", p.origin.scheme()))))
    }

    /// Starts adding a passkey to `account`, from a page of `origin`.
    ///
    /// # Errors
    /// `passkeys_unavailable`, `quota_exceeded` (the account has
    /// [`MAX_PASSKEYS`]), `too_many_attempts`, `busy`.
    pub async fn start_registration(
        &self,
        account: &Account,
        origin: Option<&str>,
        address: IpAddr,
    ) -> Result<Started, ApiError> {
        let webauthn = self.webauthn_for(origin)?;
        self.start(address)?;
        let existing = self.repo.of(&account.id).await?;
        if existing.len() >= MAX_PASSKEYS {
            return Err(ApiError::Quota(format!("{MAX_PASSKEYS} passkeys per account")));
        }
        let mut exclude = Vec::with_capacity(existing.len());
        for p in &existing {
            let key: Passkey = parse(&p.passkey)?;
            exclude.push(key.cred_id().clone());
        }
        let (ccr, state) = webauthn
            .start_passkey_registration(user_handle(account), &account.name, &account.name, Some(exclude))
            .map_err(|e| ApiError::Storage(format!("webauthn: {e}")))?;
        let mut options = serde_json::to_value(&ccr).map_err(|e| ApiError::Storage(e.to_string()))?;
        // A passkey that signs in without a name is a discoverable one:
        // webauthn-rs 0.5 only "discourages" them, so ask for one.
        if let Some(sel) = options.pointer_mut("/publicKey/authenticatorSelection").and_then(|s| s.as_object_mut()) {
            sel.insert("residentKey".into(), "required".into());
            sel.insert("requireResidentKey".into(), true.into());
        }
        let challenge = self.keep_challenge(REGISTER, By::Account(account), json(&state)?).await?;
        Ok(Started { challenge, options })
    }

    /// Finishes adding a passkey (named `name`, or "Passkey"): the account's passkeys.
    ///
    /// # Errors
    /// `challenge_expired`, `passkey_refused` (the browser's answer does
    /// not check out, or the passkey is stored already), `bad_request`
    /// (the name), `quota_exceeded`.
    pub async fn finish_registration(
        &self,
        account: &Account,
        token: &str,
        credential: &RegisterPublicKeyCredential,
        name: Option<&str>,
    ) -> Result<Vec<PasskeyInfo>, ApiError> {
        let name = match name.map(str::trim).filter(|n| !n.is_empty()) {
            None => "Passkey".to_string(),
            Some(n) if n.chars().count() > MAX_PASSKEY_NAME => {
                return Err(ApiError::BadRequest(format!(
                    "a passkey's name has at most {MAX_PASSKEY_NAME} characters"
                )));
            }
            Some(n) => clean_name(n).unwrap_or_else(|| "Passkey".into()),
        };
        let webauthn = self.webauthn()?;
        let challenge = self.take_challenge(REGISTER, token).await?;
        if challenge.account.as_deref() != Some(account.id.as_str()) {
            return Err(ApiError::ChallengeExpired);
        }
        let state: PasskeyRegistration = parse(&challenge.state)?;
        let passkey = webauthn.finish_passkey_registration(credential, &state).map_err(refused)?;
        let stored = StoredPasskey {
            credential_id: hex(passkey.cred_id().as_ref()),
            account: account.id.clone(),
            name,
            passkey: json(&passkey)?,
            created_at: now_ms(),
            used_at: None,
        };
        if !self.repo.add(&stored, MAX_PASSKEYS).await? {
            if self.repo.of(&account.id).await?.len() >= MAX_PASSKEYS {
                return Err(ApiError::Quota(format!("{MAX_PASSKEYS} passkeys per account")));
            }
            return Err(refused("the credential is stored already"));
        }
        self.of(account).await
    }

    /// Removes one of the account's passkeys: those left.
    ///
    /// # Errors
    /// `not_found`.
    pub async fn remove(&self, account: &Account, id: &str) -> Result<Vec<PasskeyInfo>, ApiError> {
        let plausible = id.len() <= MAX_CREDENTIAL_ID && id.bytes().all(|b| b.is_ascii_hexdigit());
        if !plausible || !self.repo.delete(&account.id, id).await? {
            return Err(ApiError::NotFound("that passkey".into()));
        }
        self.of(account).await
    }

    /// Starts a sign-in with a passkey, from a page of `origin`.
    ///
    /// # Errors
    /// `passkeys_unavailable`, `too_many_attempts`, `busy`.
    pub async fn start_sign_in(
        &self,
        origin: Option<&str>,
        address: IpAddr,
        device: Option<&str>,
    ) -> Result<Started, ApiError> {
        let webauthn = self.webauthn_for(origin)?;
        // The address's ceremonies spent (a crowd may share it), a device
        // that signed in before spends its own budget instead.
        if let Err(refused) = self.start(address) {
            if !self.accounts.count_known_device(device).await? {
                return Err(refused);
            }
        }
        let (rcr, state) =
            webauthn.start_discoverable_authentication().map_err(|e| ApiError::Storage(format!("webauthn: {e}")))?;
        let options = serde_json::to_value(&rcr).map_err(|e| ApiError::Storage(e.to_string()))?;
        let challenge = self.keep_challenge(SIGN_IN, By::Device(device), json(&state)?).await?;
        Ok(Started { challenge, options })
    }

    /// Finishes a sign-in with a passkey (counted as a password attempt
    /// from `address` is): a new session.
    ///
    /// # Errors
    /// `challenge_expired`, `passkey_refused` (an unknown passkey, or an
    /// answer that does not check out), `too_many_attempts`.
    pub async fn finish_sign_in(
        &self,
        token: &str,
        credential: &PublicKeyCredential,
        address: IpAddr,
        device: Option<&str>,
    ) -> Result<Session, ApiError> {
        let webauthn = self.webauthn()?;
        self.accounts.count_sign_in_attempt(address, device).await?;
        let challenge = self.take_challenge(SIGN_IN, token).await?;
        let state: DiscoverableAuthentication = parse(&challenge.state)?;
        let (handle, cred_id) = webauthn.identify_discoverable_authentication(credential).map_err(refused)?;
        if cred_id.len() * 2 > MAX_CREDENTIAL_ID {
            return Err(refused("a credential id too long"));
        }
        let id = hex(cred_id);
        let (stored, account) = self.repo.by_credential(&id).await?.ok_or_else(|| refused("an unknown credential"))?;
        if handle != user_handle(&account) {
            return Err(refused("the user handle is not the account's"));
        }
        let mut passkey: Passkey = parse(&stored.passkey)?;
        let result = webauthn
            .finish_discoverable_authentication(credential, state, &[DiscoverableKey::from(&passkey)])
            .map_err(refused)?;
        passkey.update_credential(&result);
        self.repo.used(&id, &json(&passkey)?, now_ms()).await?;
        self.accounts.start_session(account, device).await
    }
}
