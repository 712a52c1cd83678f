//! The lobby: open tables people sit down at (docs/web.md, *Lobby*);
//! "Play now" is `play_now`.
//!
//! Tables and waits live in the store, so that every server sharing a
//! PostgreSQL database shows the same lobby: a change is a conditional
//! write (a table changes only at the version it was read at, so a seat is
//! taken once and a table starts once, whichever servers race), then news
//! for the others (`Change::Lobby`); each server keeps the list its lobby
//! websockets share, read again from the store on news.
//!
//! A seat's token is handed to the sitter when they sit down; the table
//! keeps only its hash, and the game started from the table seats that
//! hash: there is nothing to pick up later.
//!
//! A table is opened, and a seat taken, through its person's lobby
//! websocket, and lives while that socket is open (`holds`): the host's
//! socket closing closes the table, a sitter's stands them up. A table
//! starts by claiming it (marked starting at the version read), then making
//! its game: a start that lost its race makes nothing, a game that could not
//! be made opens the table again.

use std::sync::{Arc, Weak};
use std::time::Duration;

use carcassonne::record::{rules_from_json, rules_to_json};
use carcassonne::Rules;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio::sync::{watch, Notify};

pub mod common;
pub mod holds;
pub mod play_now;

use self::common::{refused, sitter_name};
pub use self::common::{Seated, Who};
use self::holds::Holds;
use super::games::clock::TimeControl;
use super::games::new::{check_rules, BOT_NAMES};
use super::games::{Games, Start};
use super::ids::{new_id, new_token, now_ms, plausible, plausible_token};
use super::quotas::Quotas;
use super::ratings::Ratings;
use crate::bots::{BotLevel, ExternalBot};
use crate::config::LobbySettings;
use crate::error::ApiError;
use crate::names::{clean_name, name_key};
use crate::rating::Pool;
use crate::store::{
    hash_token, same_hash, Admission, Change, ClusterRepo, LobbyRepo, LobbyRow, LobbySweep, Seat, Store, TableBounds,
};

/// A started table stays listed this long (its sitters' pages learn the game).
pub const STARTED_KEPT: Duration = Duration::from_secs(2 * 60);
/// How often stale tables and waits are swept, at most.
const SWEEP_EVERY: Duration = Duration::from_secs(10);

/// A seat held by a socket: its token (to stand up with when the socket
/// closes), and whether it is the host's (whose socket keeps the table).
#[derive(Clone, Debug)]
struct SeatHold {
    token: String,
    host: bool,
    since: std::time::Instant,
}

/// A seat at a lobby table, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum TableSeat {
    Open,
    Human {
        name: String,
        token_hash: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<String>,
        /// Where the seat was taken (the address key's hash), for the
        /// rating checks (one address, one player in a rated game).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        address: Option<String>,
    },
    Bot {
        name: String,
        level: BotLevel,
    },
}

impl TableSeat {
    /// Whether `who` sits here: their account, or a guest's address
    /// (`address`, its hash) for a guest.
    fn is_of(&self, who: &Who, address: Option<&str>) -> bool {
        match (self, &who.account) {
            (TableSeat::Human { account: Some(a), .. }, Some((mine, _))) => a == mine,
            (TableSeat::Human { account: None, address: Some(h), .. }, None) => Some(h.as_str()) == address,
            _ => false,
        }
    }
}

/// Seats one person (an account, or guests by their address) holds at open
/// tables at once, hosts' seats included: one socket cannot take every
/// open seat of the lobby under made-up names.
pub const SEATS_AT_ONCE: usize = 4;

/// A lobby table as stored (`LobbyRow::body`).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Body {
    /// The host's seat.
    host: usize,
    rules_code: String,
    /// The time control as given (the clocks' JSON), `None` for none.
    #[serde(default)]
    clock: Option<Value>,
    #[serde(default)]
    rated: bool,
    seats: Vec<TableSeat>,
    /// The game it started, once started.
    #[serde(default)]
    game: Option<String>,
    /// The claim of the start under way (the game being made).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    claim: Option<String>,
    /// The host's rating in the table's pool (`TableView::pool`) when the
    /// table opened (a signed-in host's; a table stored before the Big Box
    /// was rated holds the two-player base game's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    host_rating: Option<i64>,
    /// Whether that rating is provisional (fewer than
    /// [`PROVISIONAL_GAMES`](crate::rating::PROVISIONAL_GAMES) rated games
    /// in that pool).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    host_provisional: bool,
    /// Its seats are for people with a history only (the host's choice).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    known_only: bool,
}

/// A seat as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatView {
    /// `open`, `human` or `bot`.
    pub kind: &'static str,
    pub name: Option<String>,
    pub level: Option<String>,
    /// A human seat of a signed-in account.
    pub signed_in: bool,
    pub host: bool,
}

/// A table as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableView {
    pub id: String,
    /// `open`, `starting` (its game being made) or `started`.
    pub state: &'static str,
    /// The game it started.
    pub game: Option<String>,
    pub rules_code: String,
    /// The rules in record form (`preset` and the options changed from it),
    /// for the page to say the headline in its own language.
    pub rules: Map<String, Value>,
    /// The engine's sentence for the rules (`Rules::headline`).
    pub headline: String,
    pub host: String,
    /// The rating pool of a game of all its seats on its rules (a
    /// [`Pool`]'s word: `duel`, `multi`, `big-box-duel`, `big-box-multi`),
    /// whose rating the host is shown with; a rated table's game moves
    /// the ratings of this pool (of the pool of the players seated, if
    /// started with seats left open).
    pub pool: &'static str,
    /// Its rule family ([`Family`](crate::rating::Family)'s word: `base`, `big-box`).
    pub family: &'static str,
    /// The host's rating in `pool` when the table opened (`null`: a guest;
    /// a new account's is the starting rating, provisional).
    pub rating: Option<i64>,
    /// Whether `rating` is provisional (fewer than
    /// [`PROVISIONAL_GAMES`](crate::rating::PROVISIONAL_GAMES) rated games
    /// in `pool`).
    pub provisional: bool,
    pub clock: Option<Value>,
    /// The time control in words ("no clock").
    pub clock_text: String,
    pub rated: bool,
    /// Its open seats take people with a history only (signed in to an
    /// account old enough, with rated games played to the end): the host
    /// keeps the table from a crowd of fresh addresses and accounts.
    pub known_only: bool,
    pub seats: Vec<SeatView>,
    pub free: usize,
    pub created_at: i64,
}

/// A seat as the form asks for it: `me` (the host's, once), `open`, `bot`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatAsk {
    pub kind: String,
    #[serde(default)]
    pub level: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
}

/// `POST /api/lobby/tables`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenRequest {
    /// The host's name (a signed-in host sits under their account's).
    #[serde(default)]
    pub name: Option<String>,
    pub seats: Vec<SeatAsk>,
    #[serde(default)]
    pub rules: Option<Map<String, Value>>,
    #[serde(default)]
    pub clock: Option<Value>,
    #[serde(default)]
    pub rated: bool,
    /// Seats for people with a history only (a signed-in host's choice).
    #[serde(default)]
    pub known_only: bool,
}

/// The lobby's tables. Each server keeps the list its websockets share,
/// and the wake-up for reading it again.
pub struct Lobby {
    repo: Arc<dyn LobbyRepo>,
    /// Who blocks whom: nobody sits with an account blocking them, or blocked.
    moderation: Arc<dyn crate::store::ModerationRepo>,
    cluster: Arc<dyn ClusterRepo>,
    games: Arc<Games>,
    ratings: Arc<Ratings>,
    quotas: Arc<Quotas>,
    programs: Vec<ExternalBot>,
    settings: LobbySettings,
    /// The seats this server's sockets hold, by table and token hash.
    holds: Holds<(String, String), SeatHold>,
    list: watch::Sender<Arc<Vec<TableView>>>,
    /// Shared with the task that reads the list (which holds the server
    /// only while it reads or sweeps, so that a server dropped is gone).
    refresh: Arc<Notify>,
    /// Held while the list is read and published: one read at a time, so
    /// that a read begun earlier never replaces a later one's list.
    reading: tokio::sync::Mutex<()>,
}

impl Lobby {
    pub fn new(
        store: &Store,
        games: Arc<Games>,
        ratings: Arc<Ratings>,
        quotas: Arc<Quotas>,
        programs: Vec<ExternalBot>,
        settings: LobbySettings,
    ) -> Lobby {
        Lobby {
            repo: Arc::clone(&store.lobby),
            moderation: Arc::clone(&store.moderation),
            cluster: Arc::clone(&store.cluster),
            games,
            ratings,
            quotas,
            programs,
            settings,
            holds: Holds::default(),
            list: watch::channel(Arc::new(Vec::new())).0,
            refresh: Arc::new(Notify::new()),
            reading: Default::default(),
        }
    }
}

fn not_found(id: &str) -> ApiError {
    ApiError::NotFound(format!("table {id}"))
}

/// The time control in words; `bad_request` for one that is not the
/// clocks' JSON (which `services::clock` checks again when the game starts).
fn clock_text(clock: Option<&Value>) -> Result<String, ApiError> {
    let bad = |why: &str| ApiError::BadRequest(format!("clock: {why}"));
    let Some(clock) = clock else { return Ok("no clock".into()) };
    let obj = clock.as_object().ok_or_else(|| bad("an object {\"kind\": …}"))?;
    let int = |k: &str| obj.get(k).and_then(Value::as_u64);
    let only = |keys: &[&str]| obj.keys().all(|k| k == "kind" || keys.contains(&k.as_str()));
    match obj.get("kind").and_then(Value::as_str) {
        Some("none") if only(&[]) => Ok("no clock".into()),
        Some("realtime") if only(&["minutes", "increment"]) => {
            let m = int("minutes").filter(|m| (1..=180).contains(m)).ok_or_else(|| bad("minutes 1 to 180"))?;
            let s = int("increment").unwrap_or(0);
            if s > 180 {
                return Err(bad("increment 0 to 180 seconds"));
            }
            Ok(format!("{m} min + {s} s"))
        }
        Some("turn") if only(&["days"]) => {
            let d = int("days").filter(|d| [1, 3, 7].contains(d)).ok_or_else(|| bad("days 1, 3 or 7"))?;
            Ok(if d == 1 { "1 day per move".into() } else { format!("{d} days per move") })
        }
        _ => Err(bad("kind \"none\", \"realtime\" (minutes, increment) or \"turn\" (days)")),
    }
}

fn view_of(row: &LobbyRow) -> Option<TableView> {
    let body: Body = serde_json::from_str(&row.body).ok()?;
    let rules = Rules::from_code(&body.rules_code).ok()?;
    let seats: Vec<SeatView> = body
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            TableSeat::Open => SeatView { kind: "open", name: None, level: None, signed_in: false, host: false },
            TableSeat::Human { name, account, .. } => SeatView {
                kind: "human",
                name: Some(name.clone()),
                level: None,
                signed_in: account.is_some(),
                host: i == body.host,
            },
            TableSeat::Bot { name, level } => SeatView {
                kind: "bot",
                name: Some(name.clone()),
                level: Some(level.name().to_string()),
                signed_in: false,
                host: false,
            },
        })
        .collect();
    let host = seats.get(body.host).and_then(|s| s.name.clone()).unwrap_or_default();
    let pool = Pool::of_game(seats.len(), &rules);
    Some(TableView {
        id: row.id.clone(),
        state: match (row.open, &body.game) {
            (true, _) => "open",
            (false, None) => "starting",
            (false, Some(_)) => "started",
        },
        game: body.game.clone(),
        rules_code: body.rules_code.clone(),
        rules: rules_to_json(&rules),
        headline: rules.headline(),
        host,
        pool: pool.word(),
        family: pool.family().word(),
        rating: body.host_rating,
        provisional: body.host_provisional,
        clock_text: clock_text(body.clock.as_ref()).unwrap_or_else(|_| "no clock".into()),
        clock: body.clock.clone(),
        rated: body.rated,
        known_only: body.known_only,
        free: seats.iter().filter(|s| s.kind == "open").count(),
        seats,
        created_at: row.created_at,
    })
}

/// Why a person without a history may not sit at a table for people with
/// one: what a history is, by these settings.
fn needs_history(settings: &LobbySettings) -> String {
    let secs = settings.known_after.as_secs();
    let age = match secs {
        0 => String::new(),
        s if s % 86_400 == 0 => format!(" at least {} day{} old", s / 86_400, if s == 86_400 { "" } else { "s" }),
        s => format!(" at least {} hour{} old", s.div_ceil(3600), if s <= 3600 { "" } else { "s" }),
    };
    let games = match settings.known_rated_games {
        n if n <= 0 => String::new(),
        1 => " with a rated game played to the end".to_string(),
        n => format!(" with {n} rated games played to the end"),
    };
    format!("this table's seats are for people with a history here: signed in to an account{age}{games}")
}

/// Whether a rule set may be played rated: a preset as it stands, no house rule.
fn rated_rules(rules: &Rules) -> bool {
    *rules == Rules::preset(rules.preset)
}

fn taken_names(seats: &[TableSeat]) -> Vec<String> {
    seats
        .iter()
        .filter_map(|s| match s {
            TableSeat::Human { name, .. } | TableSeat::Bot { name, .. } => Some(name.clone()),
            TableSeat::Open => None,
        })
        .collect()
}

impl Lobby {
    /// Follows the lobby: reads the list again on news (from this server
    /// or, through the change feed, another), says in the store which
    /// tables this server's sockets hold (every third of `hold_gone`),
    /// sweeps stale tables and waits.
    pub fn start(self: &Arc<Self>) {
        let weak: Weak<Lobby> = Arc::downgrade(self);
        let refresh = Arc::clone(&self.refresh);
        let third = (self.settings.hold_gone / 3).max(Duration::from_millis(10));
        tokio::spawn(async move {
            let mut sweep = tokio::time::interval(SWEEP_EVERY.min(third));
            sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut touch = tokio::time::interval(third);
            touch.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                {
                    let Some(lobby) = weak.upgrade() else { return };
                    lobby.read().await;
                }
                // News during the read left a permit: the wait ends at once.
                loop {
                    let (swept, touched) = tokio::select! {
                        () = refresh.notified() => break,
                        _ = sweep.tick() => (true, false),
                        _ = touch.tick() => (false, true),
                    };
                    let Some(lobby) = weak.upgrade() else { return };
                    if touched {
                        lobby.touch().await;
                    }
                    if swept {
                        lobby.sweep().await;
                    }
                }
            }
        });
    }

    async fn read(&self) {
        let _one = self.reading.lock().await;
        match self.repo.tables(self.settings.max_tables).await {
            Ok(rows) => {
                let list: Vec<TableView> = rows.iter().filter_map(view_of).collect();
                self.list.send_if_modified(|old| {
                    if **old == list {
                        false
                    } else {
                        *old = Arc::new(list);
                        true
                    }
                });
            }
            Err(e) => tracing::warn!(error = %e, "cannot read the lobby"),
        }
    }

    /// Tells the store which open tables this server's sockets hold (their
    /// hosts'), and lets go of seats at tables that started or went.
    async fn touch(&self) {
        let list = Arc::clone(&self.list.borrow());
        let mut hosts = Vec::new();
        for key in self.holds.keys() {
            let Some(hold) = self.holds.holders(&key).into_iter().next() else { continue };
            let open = list.iter().any(|t| t.id == key.0 && t.state == "open");
            if !open && hold.since.elapsed() > self.settings.hold_gone {
                self.holds.forget(&key);
            } else if hold.host {
                hosts.push(key.0.clone());
            }
        }
        hosts.sort_unstable();
        hosts.dedup();
        if !hosts.is_empty() {
            if let Err(e) = self.repo.touch(&hosts, &[], now_ms()).await {
                tracing::warn!(error = %e, "cannot say which lobby tables are held");
            }
        }
    }

    async fn sweep(&self) {
        let now = now_ms();
        let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        let when = LobbySweep {
            open_before: now - ms(self.settings.hold_gone),
            started_before: now - ms(STARTED_KEPT),
            waiting_before: now - ms(self.settings.hold_gone),
            paired_before: now - ms(self.settings.pairings_window),
        };
        match self.repo.sweep(when).await {
            Ok(gone) => {
                for id in gone {
                    tracing::info!(table = %id, "lobby table closed: its host's socket is gone");
                    self.news(&id).await;
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot sweep the lobby"),
        }
    }

    /// News of table `id` (from another server): the list is read again.
    pub fn heard(&self) {
        self.refresh.notify_one();
    }

    /// Table `id` changed here: the list is read again, and the other
    /// servers told.
    async fn news(&self, id: &str) {
        self.refresh.notify_one();
        if self.cluster.server().is_some() {
            if let Err(e) = self.cluster.publish(&Change::Lobby { table: id.to_string() }).await {
                tracing::warn!(table = %id, error = %e, "cannot tell the other servers of a lobby change");
            }
        }
    }

    /// The lobby's tables, read from the store now (a page opening the
    /// lobby sees every change made before), and each list after.
    pub async fn list(&self) -> watch::Receiver<Arc<Vec<TableView>>> {
        self.read().await;
        self.list.subscribe()
    }

    /// The tables, read from the store now.
    ///
    /// # Errors
    /// `storage_error`.
    pub async fn tables(&self) -> Result<Vec<TableView>, ApiError> {
        let rows = self.repo.tables(self.settings.max_tables).await?;
        Ok(rows.iter().filter_map(view_of).collect())
    }

    /// One table, read from the store now.
    ///
    /// # Errors
    /// `not_found`, `storage_error`.
    pub async fn table(&self, id: &str) -> Result<TableView, ApiError> {
        let row = self.table_row(id).await?;
        view_of(&row).ok_or_else(|| not_found(id))
    }

    async fn table_row(&self, id: &str) -> Result<LobbyRow, ApiError> {
        if !plausible(id) {
            return Err(not_found(id));
        }
        self.repo.table(id).await?.ok_or_else(|| not_found(id))
    }

    /// Opens a table, held by socket `socket`: the host sits at their `me`
    /// seat (its token handed back), bots at theirs, the others open.
    ///
    /// # Errors
    /// `bad_request` (seats, names, levels, rules, clock), `not_signed_in`
    /// (a rated table, or one for people with a history, for a guest),
    /// `rated_needs_preset`, `quota_exceeded` (the host's share of tables,
    /// no place left, new games of the hour), `storage_error`.
    pub async fn open(&self, req: OpenRequest, who: &Who, socket: u64) -> Result<Seated<TableView>, ApiError> {
        let n = req.seats.len();
        if !(2..=carcassonne::MAX_PLAYERS).contains(&n) {
            return Err(ApiError::BadRequest(format!("a table has 2 to {} seats, not {n}", carcassonne::MAX_PLAYERS)));
        }
        if req.seats.iter().filter(|s| s.kind == "me").count() != 1 {
            return Err(ApiError::BadRequest("exactly one seat is the host's (kind \"me\")".into()));
        }
        if !req.seats.iter().any(|s| s.kind == "open") {
            return Err(ApiError::BadRequest("a lobby table has at least one open seat".into()));
        }
        let rules =
            rules_from_json(&req.rules.clone().unwrap_or_default()).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        clock_text(req.clock.as_ref())?;
        if let Some(c) = &req.clock {
            TimeControl::parse(c)?;
        }
        let clock = req.clock.clone().filter(|c| c.get("kind").and_then(Value::as_str) != Some("none"));
        // A rated table: signed-in people only (here and at `sit`; no bot),
        // a preset's rules.
        if req.rated {
            if let Some(i) = req.seats.iter().position(|s| s.kind == "bot") {
                return Err(refused(
                    "not_ratable",
                    format!("seat {}: rated games are between people; a game against a bot is never rated", i + 1),
                ));
            }
            if who.account.is_none() {
                return Err(ApiError::NotSignedIn);
            }
            if !rated_rules(&rules) {
                return Err(refused("rated_needs_preset", "a rated table plays a preset without house rules"));
            }
        }
        // Seats for people with a history: a signed-in host's choice.
        if req.known_only && who.account.is_none() {
            return Err(ApiError::NotSignedIn);
        }
        let token = new_token()?;
        let mut seats = Vec::with_capacity(n);
        let mut host = 0;
        for (i, s) in req.seats.iter().enumerate() {
            let seat = match s.kind.as_str() {
                "me" => {
                    host = i;
                    let taken = taken_names(&seats);
                    TableSeat::Human {
                        name: sitter_name(who, req.name.as_deref(), &taken)?,
                        token_hash: hash_token(&token),
                        account: who.account.as_ref().map(|a| a.0.clone()),
                        address: who.address_hash(),
                    }
                }
                "open" => TableSeat::Open,
                "bot" => {
                    let level = match s.level.as_deref() {
                        None => BotLevel::Normal,
                        Some(l) => BotLevel::named(l, &self.programs).ok_or_else(|| {
                            ApiError::BadRequest(format!("seat {}: unknown bot level \"{l}\"", i + 1))
                        })?,
                    };
                    let taken = taken_names(&seats);
                    let name =
                        s.name.as_deref().and_then(clean_name).unwrap_or_else(|| BOT_NAMES[i % BOT_NAMES.len()].into());
                    if taken.iter().any(|t| name_key(t) == name_key(&name)) {
                        return Err(ApiError::BadRequest(format!("seat {}: \"{name}\" is taken at this table", i + 1)));
                    }
                    TableSeat::Bot { name, level }
                }
                other => {
                    return Err(ApiError::BadRequest(format!(
                        "seat {}: kind must be \"me\", \"open\" or \"bot\", not \"{other}\"",
                        i + 1
                    )))
                }
            };
            seats.push(seat);
        }
        // The host's name must not clash with a bot's named after it.
        let names = taken_names(&seats);
        for (i, a) in names.iter().enumerate() {
            if names[..i].iter().any(|b| name_key(a) == name_key(b)) {
                return Err(ApiError::BadRequest(format!("\"{a}\" names two seats")));
            }
        }
        let seat_programs: Vec<Seat> = seats
            .iter()
            .filter_map(|s| match s {
                TableSeat::Bot { name, level } => Some(Seat::Bot { name: name.clone(), level: level.clone() }),
                _ => None,
            })
            .collect();
        check_rules(&seat_programs, &rules, &self.programs).map_err(ApiError::BadRequest)?;
        let (host_rating, host_provisional) = match &who.account {
            Some((account, _)) => self.ratings.pool_rating(account, Pool::of_game(n, &rules)).await.unzip(),
            None => (None, None),
        };
        let body = Body {
            host,
            rules_code: rules.to_code(),
            clock,
            rated: req.rated,
            seats,
            game: None,
            claim: None,
            host_rating,
            host_provisional: host_provisional.unwrap_or(false),
            known_only: req.known_only,
        };
        let now = now_ms();
        let row = LobbyRow {
            id: new_id()?,
            owner: who.owner.clone(),
            address: who.address(),
            known: who.known,
            body: serde_json::to_string(&body).map_err(|e| ApiError::Storage(e.to_string()))?,
            version: 0,
            open: true,
            seen_at: now,
            created_at: now,
        };
        // The game it will make counts now, against the host's address
        // (whoever fills it: a host may sit at their own table).
        let s = &self.settings;
        let bounds = TableBounds {
            per_owner: s.tables_per_host,
            per_address: s.tables_per_host,
            total: s.max_tables,
            fresh: s.max_tables.saturating_sub(s.tables_kept),
        };
        self.quotas.take(who.spender())?;
        let admission = self.repo.open(&row, &bounds).await;
        if !matches!(admission, Ok(Admission::Admitted)) {
            self.quotas.give_back(who.spender());
        }
        match admission? {
            Admission::Admitted => {}
            Admission::Share | Admission::Pairings => {
                return Err(ApiError::Quota(format!(
                    "{} open tables per host (and per address, for hosts without a history)",
                    s.tables_per_host
                )))
            }
            Admission::Full => {
                return Err(ApiError::Quota(format!(
                    "{} tables in the lobby, {} of the places kept for signed-in hosts with a history",
                    s.max_tables, s.tables_kept
                )))
            }
        }
        self.holds.hold(
            socket,
            (row.id.clone(), hash_token(&token)),
            SeatHold { token: token.clone(), host: true, since: std::time::Instant::now() },
        );
        tracing::info!(table = %row.id, "lobby table opened");
        self.news(&row.id).await;
        let view = view_of(&row).ok_or_else(|| ApiError::Storage("a table just stored does not read".into()))?;
        Ok(Seated { view, seat: host, token })
    }

    /// Changes table `id` with `f` at the version read, reading it again
    /// when another change got there first. `f` answers the next body (or
    /// `None`: the table closes) and what to hand back.
    async fn change_table<T>(
        &self,
        id: &str,
        mut f: impl FnMut(&LobbyRow, &mut Body) -> Result<(Option<()>, T), ApiError>,
    ) -> Result<(LobbyRow, Body, T), ApiError> {
        for _ in 0..20 {
            let row = self.table_row(id).await?;
            let mut body: Body = serde_json::from_str(&row.body).map_err(|e| ApiError::Storage(e.to_string()))?;
            let (keep, out) = f(&row, &mut body)?;
            let text = serde_json::to_string(&body).map_err(|e| ApiError::Storage(e.to_string()))?;
            let next = keep.map(|()| (text.as_str(), row.open, row.seen_at));
            if self.repo.update(id, row.version, next).await? {
                self.news(id).await;
                let mut row = row;
                row.version += 1;
                row.body = text;
                return Ok((row, body, out));
            }
        }
        Err(ApiError::TryLater("this table is changing too fast".into()))
    }

    /// Sits `who` at open seat `seat` of table `id`, held by socket
    /// `socket`; the table starts when this fills it.
    ///
    /// # Errors
    /// `not_found`, `table_started`, `seat_taken`, `bad_request` (no such
    /// seat, a name), `not_signed_in` (a rated table), `needs_history` (a
    /// table for people with a history, and `who` has none), `name_taken_here`,
    /// `already_seated` (this account sits here), `too_many_seats` (this
    /// person holds [`SEATS_AT_ONCE`] seats at open tables already),
    /// `quota_exceeded` (at another's table: the person's new games of the
    /// hour, [`Who::spender`]'s, one a seat taken, given back if the sit
    /// fails),
    /// `blocked` (someone seated blocks this account, or is blocked by it),
    /// `storage_error`.
    pub async fn sit(
        &self,
        id: &str,
        seat: usize,
        name: Option<&str>,
        who: &Who,
        socket: u64,
    ) -> Result<Seated<TableView>, ApiError> {
        let address = who.address_hash();
        let seats_held = |row: &LobbyRow| match serde_json::from_str::<Body>(&row.body) {
            Ok(body) if row.open => body.seats.iter().filter(|s| s.is_of(who, address.as_deref())).count(),
            _ => 0,
        };
        let rows = self.repo.tables(self.settings.max_tables).await?;
        if rows.iter().map(seats_held).sum::<usize>() >= SEATS_AT_ONCE {
            return Err(refused("too_many_seats", format!("you hold {SEATS_AT_ONCE} seats at open tables already")));
        }
        let mine = rows.iter().any(|r| r.id == id && seats_held(r) > 0);
        // Taking a seat makes a game as opening a table does (a full table
        // starts): a seat at someone else's table spends one of the
        // person's games of the hour (a newcomer's address's), so filling
        // every table of the lobby takes many addresses. A host's table
        // spent its game when it opened.
        let spend = if mine { None } else { who.spender() };
        self.quotas.take(spend.clone())?;
        let sat = self.sit_here(id, seat, name, who, address, socket).await;
        if sat.is_err() {
            self.quotas.give_back(spend);
        }
        sat
    }

    /// [`Lobby::sit`] past the person's shares.
    async fn sit_here(
        &self,
        id: &str,
        seat: usize,
        name: Option<&str>,
        who: &Who,
        address: Option<String>,
        socket: u64,
    ) -> Result<Seated<TableView>, ApiError> {
        let token = new_token()?;
        let hash = hash_token(&token);
        let shunned: std::collections::HashSet<String> = match &who.account {
            Some((account, _)) => self.moderation.either_way(account).await?.into_iter().collect(),
            None => Default::default(),
        };
        let (row, body, ()) = self
            .change_table(id, |row, body| {
                if !row.open {
                    return Err(refused("table_started", "this table has started"));
                }
                let blocks = body
                    .seats
                    .iter()
                    .any(|s| matches!(s, TableSeat::Human { account: Some(a), .. } if shunned.contains(a)));
                if blocks {
                    return Err(ApiError::Moderation("blocked", "you cannot sit at this table".into()));
                }
                if seat >= body.seats.len() {
                    return Err(ApiError::BadRequest(format!("the table has {} seats", body.seats.len())));
                }
                if body.seats[seat] != TableSeat::Open {
                    return Err(refused("seat_taken", format!("seat {} is taken", seat + 1)));
                }
                if body.rated && who.account.is_none() {
                    return Err(ApiError::NotSignedIn);
                }
                if body.known_only && !who.known {
                    return Err(refused("needs_history", needs_history(&self.settings)));
                }
                if let Some((account, _)) = &who.account {
                    let here = body
                        .seats
                        .iter()
                        .any(|s| matches!(s, TableSeat::Human { account: Some(a), .. } if a == account));
                    if here {
                        return Err(refused("already_seated", "you already sit at this table"));
                    }
                }
                let name = sitter_name(who, name, &taken_names(&body.seats))?;
                body.seats[seat] = TableSeat::Human {
                    name,
                    token_hash: hash.clone(),
                    account: who.account.as_ref().map(|a| a.0.clone()),
                    address: address.clone(),
                };
                Ok((Some(()), ()))
            })
            .await?;
        self.holds.hold(
            socket,
            (id.to_string(), hash),
            SeatHold { token: token.clone(), host: false, since: std::time::Instant::now() },
        );
        let full = !body.seats.contains(&TableSeat::Open);
        let view = if full {
            match self.start_once(id).await {
                Ok(view) => view,
                Err(e) => {
                    tracing::warn!(table = %id, error = %e, "a full table did not start");
                    view_of(&row).ok_or_else(|| not_found(id))?
                }
            }
        } else {
            view_of(&row).ok_or_else(|| not_found(id))?
        };
        Ok(Seated { view, seat, token })
    }

    /// The seat `token` holds at a table's `body`.
    fn seat_of(body: &Body, token: &str) -> Result<usize, ApiError> {
        if !plausible_token(token) {
            return Err(ApiError::Unauthorized);
        }
        let hash = hash_token(token);
        body.seats
            .iter()
            .position(|s| matches!(s, TableSeat::Human { token_hash, .. } if same_hash(token_hash, &hash)))
            .ok_or(ApiError::Unauthorized)
    }

    /// The holder of `token` stands up; the host standing up closes the table.
    ///
    /// # Errors
    /// `not_found`, `unauthorized` (no seat of this table), `table_started`,
    /// `storage_error`.
    pub async fn stand(&self, id: &str, token: &str) -> Result<Option<TableView>, ApiError> {
        let (row, _, closed) = self
            .change_table(id, |row, body| {
                let seat = Self::seat_of(body, token)?;
                if !row.open {
                    return Err(refused("table_started", "this table has started: the game is on"));
                }
                if seat == body.host {
                    return Ok((None, true));
                }
                body.seats[seat] = TableSeat::Open;
                Ok((Some(()), false))
            })
            .await?;
        if closed {
            tracing::info!(table = %id, "lobby table closed by its host");
            return Ok(None);
        }
        Ok(view_of(&row))
    }

    /// The seat `token` holds at table `id` held again by socket `socket`
    /// (its page came back, on this server or another): the table as it
    /// stands, and the seat.
    ///
    /// # Errors
    /// `not_found` (no such table: it closed), `unauthorized` (no seat of
    /// this table), `storage_error`.
    pub async fn hold(&self, id: &str, token: &str, socket: u64) -> Result<(TableView, usize), ApiError> {
        let row = self.table_row(id).await?;
        let body: Body = serde_json::from_str(&row.body).map_err(|e| ApiError::Storage(e.to_string()))?;
        let seat = Self::seat_of(&body, token)?;
        let host = seat == body.host;
        if row.open {
            let since = std::time::Instant::now();
            self.holds.hold(socket, (id.to_string(), hash_token(token)), SeatHold { token: token.into(), host, since });
            if host {
                self.repo.touch(&[id.to_string()], &[], now_ms()).await?;
            }
        }
        Ok((view_of(&row).ok_or_else(|| not_found(id))?, seat))
    }

    /// Socket `socket` closed: the seats it alone held here are left (a
    /// host's closes the table) unless the table started.
    pub async fn release(&self, socket: u64) {
        for ((id, _), hold) in self.holds.release(socket) {
            match self.stand(&id, &hold.token).await {
                Ok(_) => tracing::info!(table = %id, host = hold.host, "a lobby seat was left: its socket closed"),
                Err(ApiError::Lobby("table_started", _) | ApiError::NotFound(_) | ApiError::Unauthorized) => {}
                Err(e) => tracing::warn!(table = %id, error = %e, "cannot leave a seat whose socket closed"),
            }
        }
    }

    /// The host (holder of `token`) starts the table: open seats are left
    /// out (at least two seats must be taken).
    ///
    /// # Errors
    /// `not_found`, `unauthorized`, `not_host`, `table_started`,
    /// `too_few_players`, `storage_error`.
    pub async fn start_table(&self, id: &str, token: &str) -> Result<TableView, ApiError> {
        let row = self.table_row(id).await?;
        let body: Body = serde_json::from_str(&row.body).map_err(|e| ApiError::Storage(e.to_string()))?;
        let seat = Self::seat_of(&body, token)?;
        if seat != body.host {
            return Err(refused("not_host", "only the table's host starts it"));
        }
        if !row.open {
            return Err(refused("table_started", "this table has started"));
        }
        self.start_once(id).await
    }

    /// Starts table `id` once, whichever servers race: the table is first
    /// claimed (marked starting at the version read: a start that lost
    /// the race makes nothing), then its game made from its seats and the
    /// table marked started with it. A game that cannot be made opens the
    /// table again, its seats as they were.
    async fn start_once(&self, id: &str) -> Result<TableView, ApiError> {
        for _ in 0..20 {
            let row = self.table_row(id).await?;
            let mut body: Body = serde_json::from_str(&row.body).map_err(|e| ApiError::Storage(e.to_string()))?;
            if !row.open {
                return view_of(&row).ok_or_else(|| not_found(id));
            }
            let (seats, seat_addresses): (Vec<Seat>, Vec<Option<String>>) = body
                .seats
                .iter()
                .filter_map(|s| match s {
                    TableSeat::Open => None,
                    TableSeat::Human { name, token_hash, account, address } => Some((
                        Seat::Human {
                            name: name.clone(),
                            token_hash: token_hash.clone(),
                            remote: true,
                            account: account.clone(),
                        },
                        address.clone(),
                    )),
                    TableSeat::Bot { name, level } => {
                        Some((Seat::Bot { name: name.clone(), level: level.clone() }, None))
                    }
                })
                .unzip();
            if seats.len() < 2 {
                return Err(refused("too_few_players", "a game needs two players at least"));
            }
            let rules = Rules::from_code(&body.rules_code).map_err(|e| ApiError::Storage(e.to_string()))?;
            body.claim = Some(new_id()?);
            let claimed = serde_json::to_string(&body).map_err(|e| ApiError::Storage(e.to_string()))?;
            if !self.repo.update(id, row.version, Some((&claimed, false, now_ms()))).await? {
                continue; // another change got there first: read it again
            }
            self.news(id).await;
            // The host's game: it counts among the games their address keeps.
            let owner = (!row.address.is_empty()).then(|| hash_token(&row.address));
            let start = Start {
                public: true,
                clock: body.clock.clone(),
                rated: body.rated,
                owner,
                seat_addresses,
                ..Start::default()
            };
            let made = self.games.start(seats, rules, start).await;
            body.claim = None;
            let (open, game) = match &made {
                Ok(live) => (false, Some(live.id.clone())),
                Err(e) => {
                    tracing::warn!(table = %id, error = %e, "a lobby table's game could not be made: it opens again");
                    (true, None)
                }
            };
            body.game = game;
            let text = serde_json::to_string(&body).map_err(|e| ApiError::Storage(e.to_string()))?;
            let now = now_ms();
            // Nobody else changes a table being started (sits, stands and
            // starts need it open): only the sweep may have removed it.
            let marked = self.repo.update(id, row.version + 1, Some((&text, open, now))).await?;
            self.news(id).await;
            let live = made?;
            if !marked {
                tracing::warn!(table = %id, game = %live.id, "a lobby table went while its game was made");
                return Err(not_found(id));
            }
            tracing::info!(table = %id, game = %live.id, "lobby table started");
            let row = LobbyRow { body: text, open, seen_at: now.max(row.seen_at), version: row.version + 2, ..row };
            return view_of(&row).ok_or_else(|| not_found(id));
        }
        Err(ApiError::TryLater("this table is changing too fast".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_read_or_refused() {
        assert_eq!(clock_text(None).unwrap(), "no clock");
        assert_eq!(clock_text(Some(&serde_json::json!({"kind": "none"}))).unwrap(), "no clock");
        let rt = serde_json::json!({"kind": "realtime", "minutes": 10, "increment": 5});
        assert_eq!(clock_text(Some(&rt)).unwrap(), "10 min + 5 s");
        assert_eq!(clock_text(Some(&serde_json::json!({"kind": "turn", "days": 3}))).unwrap(), "3 days per move");
        for bad in [
            serde_json::json!({"kind": "turn", "days": 2}),
            serde_json::json!({"kind": "realtime", "minutes": 0}),
            serde_json::json!({"kind": "blitz"}),
            serde_json::json!({"kind": "none", "x": 1}),
            serde_json::json!([1]),
        ] {
            assert!(clock_text(Some(&bad)).is_err(), "{bad}");
        }
    }
}
