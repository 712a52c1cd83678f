//! "Play now" (docs/web.md, *Lobby*): one button pairs a person with
//! someone waiting for the same rule family (the base game's `standard`
//! preset, or the `big-box` preset), close in rating first (the window
//! widening with the wait), or starts a game against a bot after the wait
//! they chose.
//!
//! A wait is started through its person's lobby websocket and lives while
//! that socket is open (`holds`): the socket closing ends it at once; a
//! server that stops says nothing more of it, and the sweep ends it unless
//! the page holds it again. One person (account, device; address, between
//! people without a history) waits once at a time, is never paired with
//! themselves, and is paired with another person a few times in a while at
//! most.
//!
//! Waits live in the store, so that two servers pair whoever waits on
//! either: a pairing first claims its waits (`LobbyRepo::pair`, a
//! conditional write, all or none), then makes the game, then marks the
//! waits paired into it. A pairing that lost its race makes nothing; a game
//! that could not be made gives its waits back.

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::common::{refused, sitter_name, Seated, Who};
use super::holds::Holds;
use crate::bots::{BotLevel, ExternalBot};
use crate::config::LobbySettings;
use crate::error::ApiError;
use crate::names::name_key;
use crate::rating::{Family, Pool};
use crate::services::games::clock::TimeControl;
use crate::services::games::new::BOT_NAMES;
use crate::services::games::{Games, Start};
use crate::services::ids::{new_id, new_token, now_ms, plausible, plausible_token};
use crate::services::quotas::Quotas;
use crate::services::ratings::Ratings;
use crate::store::{hash_token, same_hash, Admission, LobbyRepo, Seat, Store, WaitBounds, Waiting};

/// The rating of a player without one (a guest).
pub const DEFAULT_RATING: i64 = 1500;
/// Bot games offered after a wait of this many seconds at least / at most.
pub const BOT_AFTER: std::ops::RangeInclusive<u64> = 5..=600;
/// How often the waits held here are looked at (paired, or told of a
/// pairing made elsewhere), at most.
pub const PAIR_EVERY: Duration = Duration::from_secs(1);
/// The waits a pairing looks among: the longest waiting.
const CANDIDATES: usize = 100;

/// A wait's first message on its socket (`{"type": "play-now", …}`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayNowRequest {
    #[serde(default)]
    pub name: Option<String>,
    /// Seconds after which a bot game is offered instead (none: wait on).
    #[serde(default)]
    pub bot_after: Option<u64>,
    /// The bot's level (as the new-game form's).
    #[serde(default)]
    pub level: Option<String>,
    /// The time control wanted (a new game's `clock`; none: untimed):
    /// only waits for the same one are paired.
    #[serde(default)]
    pub clock: Option<serde_json::Value>,
    /// The rule family wanted (`base`, the default: the `standard` preset;
    /// `big-box`: the `big-box` preset): only waits for the same one are
    /// paired, by their ratings in its two-player pool.
    #[serde(default)]
    pub rules: Option<String>,
}

/// What a wait keeps besides its columns (`Waiting::body`).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct WaitBody {
    bot_after: Option<u64>,
    level: Option<BotLevel>,
    /// Its time control (a wait kept before clocks were asked: none).
    #[serde(default)]
    clock: TimeControl,
    /// Its rule family (a wait kept before families were asked: the base game).
    #[serde(default)]
    family: Family,
}

/// A wait's time control, as kept (a body that does not read: none).
fn clock_of(w: &Waiting) -> TimeControl {
    serde_json::from_str::<WaitBody>(&w.body).map(|b| b.clock).unwrap_or_default()
}

/// A wait's rule family, as kept (a body that does not read: the base game).
fn family_of(w: &Waiting) -> Family {
    serde_json::from_str::<WaitBody>(&w.body).map(|b| b.family).unwrap_or_default()
}

/// A time control as a new game's `clock` (none: no clock).
fn clock_json(clock: TimeControl) -> Option<serde_json::Value> {
    (clock != TimeControl::None).then(|| serde_json::to_value(clock).ok()).flatten()
}

/// Where a wait stands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WaitView {
    pub id: String,
    /// `waiting` or `paired`.
    pub state: &'static str,
    pub game: Option<String>,
    pub seat: Option<i64>,
    /// Whether the game is against a bot (after the wait chosen).
    pub bot: bool,
    pub waited_ms: i64,
    /// The rating paired by: the two-player one of `family`'s pool.
    pub rating: i64,
    /// The rule family waited for (`base`, `big-box`).
    pub family: &'static str,
}

/// What a socket holding a wait is told: it was paired (`Changed`, the
/// view naming the game), or it ended (cancelled, or swept).
#[derive(Clone, Debug)]
pub enum WaitEvent {
    Changed(WaitView),
    Gone(String),
}

/// A lobby websocket, as "Play now" knows it: its number, and how to tell it.
#[derive(Clone, Debug)]
pub struct WaitSocket {
    pub id: u64,
    pub events: mpsc::Sender<WaitEvent>,
}

/// The rating window for two players who waited `waited_ms` (the longer
/// wait): 100 points, 50 more every 5 seconds.
pub fn rating_window(waited_ms: i64) -> i64 {
    100 + 50 * (waited_ms.max(0) / 5000)
}

/// "Play now": people waiting, paired.
pub struct PlayNow {
    repo: Arc<dyn LobbyRepo>,
    /// Who blocks whom: two accounts are never paired if either blocks the other.
    moderation: Arc<dyn crate::store::ModerationRepo>,
    games: Arc<Games>,
    ratings: Arc<Ratings>,
    quotas: Arc<Quotas>,
    programs: Vec<ExternalBot>,
    settings: LobbySettings,
    /// The waits this server's sockets hold, each socket's way to be told.
    holds: Holds<String, mpsc::Sender<WaitEvent>>,
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl PlayNow {
    pub fn new(
        store: &Store,
        games: Arc<Games>,
        ratings: Arc<Ratings>,
        quotas: Arc<Quotas>,
        programs: Vec<ExternalBot>,
        settings: LobbySettings,
    ) -> PlayNow {
        PlayNow {
            repo: Arc::clone(&store.lobby),
            moderation: Arc::clone(&store.moderation),
            games,
            ratings,
            quotas,
            programs,
            settings,
            holds: Holds::default(),
        }
    }

    /// Follows the waits held here: every [`PAIR_EVERY`] (or a third of
    /// `hold_gone`, if shorter) each is paired if it can be and its socket
    /// told of a pairing made on any server; every third of `hold_gone`
    /// the store is told they are still held.
    pub fn start(self: &Arc<Self>) {
        let weak: Weak<PlayNow> = Arc::downgrade(self);
        let every = PAIR_EVERY.min(self.settings.hold_gone / 3).max(Duration::from_millis(10));
        let touch_every = (self.settings.hold_gone / 3).max(Duration::from_millis(10));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut touched = Instant::now();
            loop {
                tick.tick().await;
                let Some(play_now) = weak.upgrade() else { return };
                let touch = touched.elapsed() >= touch_every;
                if touch {
                    touched = Instant::now();
                }
                if let Err(e) = play_now.follow(touch).await {
                    tracing::warn!(error = %e, "cannot follow the waits");
                }
            }
        });
    }

    /// Starts waiting for "Play now", held by `socket`: the seat token of
    /// the game to come is handed back (and the game, if paired at once).
    ///
    /// # Errors
    /// `bad_request` (name, level, wait), `already_waiting` (this person
    /// waits already), `quota_exceeded` (new games of the hour, pairings of
    /// late, or no place left), `storage_error`.
    pub async fn wait(
        &self,
        req: PlayNowRequest,
        who: &Who,
        socket: &WaitSocket,
    ) -> Result<Seated<WaitView>, ApiError> {
        if let Some(s) = req.bot_after {
            if !BOT_AFTER.contains(&s) {
                return Err(ApiError::BadRequest(format!(
                    "bot_after: {} to {} seconds",
                    BOT_AFTER.start(),
                    BOT_AFTER.end()
                )));
            }
        }
        let level = match req.level.as_deref() {
            None => None,
            Some(l) => Some(
                BotLevel::named(l, &self.programs)
                    .ok_or_else(|| ApiError::BadRequest(format!("unknown bot level \"{l}\"")))?,
            ),
        };
        let clock = match &req.clock {
            Some(c) => TimeControl::parse(c)?,
            None => TimeControl::None,
        };
        let family = match req.rules.as_deref() {
            None => Family::Base,
            Some(f) => Family::from_word(f)
                .ok_or_else(|| ApiError::BadRequest(format!("rules: \"base\" or \"big-box\", not \"{f}\"")))?,
        };
        let name = sitter_name(who, req.name.as_deref(), &[])?;
        let token = new_token()?;
        let now = now_ms();
        let body = WaitBody { bot_after: req.bot_after, level, clock, family };
        // A signed-in player's two-player rating in the family's pool; a
        // guest's, a new player's.
        let pool = Pool::of(2, family);
        let rating = match &who.account {
            Some((account, _)) => {
                self.ratings.pool_rating(account, pool).await.map_or(DEFAULT_RATING, |(rating, _)| rating)
            }
            None => DEFAULT_RATING,
        };
        let w = Waiting {
            id: new_id()?,
            owner: who.owner.clone(),
            address: who.address(),
            account: who.account.as_ref().map(|a| a.0.clone()),
            device: who.device.clone(),
            known: who.known,
            token_hash: hash_token(&token),
            name,
            rating,
            body: serde_json::to_string(&body).map_err(|e| ApiError::Storage(e.to_string()))?,
            since: now,
            seen_at: now,
            game: None,
            seat: None,
            ready: false,
        };
        let s = &self.settings;
        let bounds = WaitBounds {
            pairings: s.pairings_per_person,
            pairings_since: now - ms(s.pairings_window),
            total: s.max_waits,
            fresh: s.max_waits.saturating_sub(s.waits_kept),
        };
        // The game it will make (paired or with a bot) counts now.
        self.quotas.take(who.spender())?;
        let admission = self.repo.wait(&w, &bounds).await;
        if !matches!(admission, Ok(Admission::Admitted)) {
            self.quotas.give_back(who.spender());
        }
        match admission? {
            Admission::Admitted => {}
            Admission::Share => {
                return Err(refused(
                    "already_waiting",
                    "you are waiting already (in another tab or window, on another device, or from this address)",
                ))
            }
            Admission::Pairings => {
                return Err(ApiError::Quota(format!(
                    "{} games with a person from Play now in {} minutes per person",
                    s.pairings_per_person,
                    s.pairings_window.as_secs() / 60
                )))
            }
            Admission::Full => {
                return Err(ApiError::Quota(format!(
                    "{} people waiting, {} of the places kept for signed-in players with a history",
                    s.max_waits, s.waits_kept
                )))
            }
        }
        self.holds.hold(socket.id, w.id.clone(), socket.events.clone());
        let others = self.repo.waiters(now - ms(s.hold_gone), CANDIDATES).await?;
        // A pairing whose game could not be made gave the waits back: this
        // one waits on (the next round tries again).
        let view = match self.try_pair(w.clone(), &others).await {
            Ok(view) => view,
            Err(e) => {
                tracing::warn!(wait = %w.id, error = %e, "a new wait could not be paired: it waits on");
                Self::wait_view(&w, now, false)
            }
        };
        Ok(Seated { view, seat: 0, token })
    }

    /// Wait `id` held again by `socket` (its page came back, on this server
    /// or another): where it stands.
    ///
    /// # Errors
    /// `not_found` (no such wait, or it ended), `unauthorized`, `storage_error`.
    pub async fn hold(&self, id: &str, token: &str, socket: &WaitSocket) -> Result<WaitView, ApiError> {
        let w = self.checked(id, token).await?;
        if w.game.is_none() {
            self.holds.hold(socket.id, w.id.clone(), socket.events.clone());
            self.repo.touch(&[], std::slice::from_ref(&w.id), now_ms()).await?;
        }
        Ok(self.view(&w).await)
    }

    /// Where wait `id` stands (its holder, `token`, asks). Asking keeps
    /// nothing alive: its socket does.
    ///
    /// # Errors
    /// `not_found` (no such wait, or it ended), `unauthorized`, `storage_error`.
    pub async fn waiting(&self, id: &str, token: &str) -> Result<WaitView, ApiError> {
        let w = self.checked(id, token).await?;
        Ok(self.view(&w).await)
    }

    /// Ends wait `id` unless it was claimed for a pairing.
    ///
    /// # Errors
    /// `not_found`, `unauthorized`, `already_paired`, `storage_error`.
    pub async fn stop(&self, id: &str, token: &str) -> Result<(), ApiError> {
        self.checked(id, token).await?;
        if self.repo.cancel(id).await? {
            self.tell(id, WaitEvent::Gone(id.to_string()));
            Ok(())
        } else {
            Err(refused("already_paired", "you were paired: the game is on"))
        }
    }

    /// Socket `socket` closed: the waits it alone held here end (unless
    /// claimed for a pairing already).
    pub async fn release(&self, socket: u64) {
        for (id, _) in self.holds.release(socket) {
            match self.repo.cancel(&id).await {
                Ok(true) => tracing::info!(wait = %id, "a wait ended: its socket closed"),
                Ok(false) => {}
                Err(e) => tracing::warn!(wait = %id, error = %e, "cannot end a wait whose socket closed"),
            }
        }
    }

    async fn checked(&self, id: &str, token: &str) -> Result<Waiting, ApiError> {
        if !plausible(id) {
            return Err(ApiError::NotFound(format!("wait {id}")));
        }
        let w = self.repo.waiting(id).await?.ok_or_else(|| ApiError::NotFound(format!("wait {id}")))?;
        if !plausible_token(token) || !same_hash(&w.token_hash, &hash_token(token)) {
            return Err(ApiError::Unauthorized);
        }
        Ok(w)
    }

    fn wait_view(w: &Waiting, now: i64, bot: bool) -> WaitView {
        WaitView {
            id: w.id.clone(),
            state: if w.ready { "paired" } else { "waiting" },
            game: w.game.clone().filter(|_| w.ready),
            seat: w.seat.filter(|_| w.ready),
            bot: w.ready && bot,
            waited_ms: now - w.since,
            rating: w.rating,
            family: family_of(w).word(),
        }
    }

    /// A wait's view, read from its game whether it was paired with a bot
    /// (only a wait that offered one, at seat 0, may have been).
    async fn view(&self, w: &Waiting) -> WaitView {
        let may = w.ready
            && w.seat == Some(0)
            && serde_json::from_str::<WaitBody>(&w.body).is_ok_and(|b| b.bot_after.is_some());
        let mut bot = false;
        if let (true, Some(game)) = (may, &w.game) {
            if let Ok(live) = self.games.game(game).await {
                bot = live.lock().await.seats.iter().any(|s| matches!(s, Seat::Bot { .. }));
            }
        }
        Self::wait_view(w, now_ms(), bot)
    }

    /// Tells the sockets holding wait `id` here, and lets it go (it is over).
    fn tell(&self, id: &str, event: WaitEvent) {
        let key = id.to_string();
        for events in self.holds.holders(&key) {
            let _ = events.try_send(event.clone());
        }
        self.holds.forget(&key);
    }

    /// One look at the waits held here: each socket told of its wait's
    /// pairing or end; those still waiting paired if they can be, the
    /// longest waiting first; the store told they are held (`touch`).
    async fn follow(&self, touch: bool) -> Result<(), ApiError> {
        let ids = self.holds.keys();
        if ids.is_empty() {
            return Ok(());
        }
        let now = now_ms();
        let rows = self.repo.waits(&ids).await?;
        for id in &ids {
            match rows.iter().find(|w| &w.id == id) {
                None => self.tell(id, WaitEvent::Gone(id.clone())),
                Some(w) if w.ready => {
                    let view = self.view(w).await;
                    self.tell(id, WaitEvent::Changed(view));
                }
                Some(_) => {}
            }
        }
        let mut waiting: Vec<Waiting> = rows.into_iter().filter(|w| w.game.is_none()).collect();
        if touch && !waiting.is_empty() {
            let ids: Vec<String> = waiting.iter().map(|w| w.id.clone()).collect();
            self.repo.touch(&[], &ids, now).await?;
        }
        waiting.sort_by(|a, b| (a.since, &a.id).cmp(&(b.since, &b.id)));
        let seen_after = now - ms(self.settings.hold_gone);
        let mut others = self.repo.waiters(seen_after, CANDIDATES).await?;
        for w in waiting {
            let id = w.id.clone();
            match self.try_pair(w, &others).await {
                Ok(view) if view.state == "paired" => {
                    self.tell(&id, WaitEvent::Changed(view));
                    others = self.repo.waiters(seen_after, CANDIDATES).await?;
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(wait = %id, error = %e, "a wait could not be paired"),
            }
        }
        Ok(())
    }

    /// Pairs wait `w` (held here) with the first of `others` (the longest
    /// waiting) near enough in rating who is not the same person, nor an
    /// account blocking `w`'s or blocked by it, or with a bot once its wait
    /// is over: the claim first, then the game.
    async fn try_pair(&self, w: Waiting, others: &[Waiting]) -> Result<WaitView, ApiError> {
        let now = now_ms();
        if w.game.is_some() {
            return Ok(self.view(&w).await);
        }
        let mine = now - w.since;
        let clock = clock_of(&w);
        let family = family_of(&w);
        let shunned: std::collections::HashSet<String> = match &w.account {
            Some(account) if others.iter().any(|o| o.account.is_some() && o.id != w.id) => {
                self.moderation.either_way(account).await?.into_iter().collect()
            }
            _ => Default::default(),
        };
        let other = others.iter().find(|o| {
            o.id != w.id
                && !o.same_person(&w)
                && o.account.as_ref().is_none_or(|a| !shunned.contains(a))
                && clock_of(o) == clock
                && family_of(o) == family
                && (o.rating - w.rating).abs() <= rating_window(mine.max(now - o.since))
        });
        if let Some(o) = other {
            let names = if name_key(&o.name) == name_key(&w.name) {
                [o.name.clone(), format!("{} 2", w.name)]
            } else {
                [o.name.clone(), w.name.clone()]
            };
            let seats = vec![
                Seat::Human { name: names[0].clone(), token_hash: o.token_hash.clone(), remote: true, account: None },
                Seat::Human { name: names[1].clone(), token_hash: w.token_hash.clone(), remote: true, account: None },
            ];
            if let Some(game) =
                self.claim_then_make(&[o.id.clone(), w.id.clone()], seats, &w.address, clock, family).await?
            {
                tracing::info!(game = %game, "two waiting players paired");
                let paired = Waiting { game: Some(game), seat: Some(0), ready: true, ..o.clone() };
                self.tell(&o.id, WaitEvent::Changed(Self::wait_view(&paired, now, false)));
                let w = Waiting { game: paired.game, seat: Some(1), ready: true, ..w };
                return Ok(Self::wait_view(&w, now, false));
            }
            return self.as_it_stands(&w.id).await;
        }
        let body: Option<WaitBody> = serde_json::from_str(&w.body).ok();
        if let Some(WaitBody { bot_after: Some(after), level, .. }) = body {
            if mine >= after as i64 * 1000 {
                let level = level.unwrap_or(BotLevel::Normal);
                let bot = BOT_NAMES.iter().find(|b| name_key(b) != name_key(&w.name)).copied().unwrap_or("Aldric");
                let seats = vec![
                    Seat::Human { name: w.name.clone(), token_hash: w.token_hash.clone(), remote: true, account: None },
                    Seat::Bot { name: bot.to_string(), level },
                ];
                if let Some(game) =
                    self.claim_then_make(std::slice::from_ref(&w.id), seats, &w.address, clock, family).await?
                {
                    let w = Waiting { game: Some(game), seat: Some(0), ready: true, ..w };
                    return Ok(Self::wait_view(&w, now, true));
                }
                return self.as_it_stands(&w.id).await;
            }
        }
        Ok(Self::wait_view(&w, now, false))
    }

    /// Where wait `id` stands now (a pairing of it lost a race).
    async fn as_it_stands(&self, id: &str) -> Result<WaitView, ApiError> {
        let w = self.repo.waiting(id).await?.ok_or_else(|| ApiError::NotFound(format!("wait {id}")))?;
        Ok(self.view(&w).await)
    }

    /// Claims the waits `ids` for a pairing, then makes its game of `seats`
    /// and marks them paired into it: the game's id, or `None` if another
    /// pairing claimed one of them first (nothing is made). A game that
    /// cannot be made gives the waits back (they wait on). The game counts
    /// among those kept for address `owner` (the pairing wait's), and is
    /// played on `clock`, on the rules of `family` (`Family::rules`).
    async fn claim_then_make(
        &self,
        ids: &[String],
        seats: Vec<Seat>,
        owner: &str,
        clock: TimeControl,
        family: Family,
    ) -> Result<Option<String>, ApiError> {
        let claim = format!("claim:{}", new_id()?);
        if !self.repo.pair(ids, &claim, now_ms()).await? {
            return Ok(None);
        }
        let owner = (!owner.is_empty()).then(|| hash_token(owner));
        let start = Start { public: true, owner, clock: clock_json(clock), ..Start::default() };
        let made = self.games.start(seats, family.rules(), start).await;
        let live = match made {
            Ok(live) => live,
            Err(e) => {
                tracing::warn!(error = %e, "a pairing's game could not be made: its waits wait on");
                if let Err(e) = self.repo.unpair(&claim).await {
                    tracing::warn!(error = %e, "cannot give a pairing's waits back");
                }
                return Err(e);
            }
        };
        let marked = self.repo.paired(&claim, &live.id, now_ms()).await?;
        if marked < ids.len() {
            tracing::warn!(game = %live.id, "a pairing's claim was undone before its game was made");
        }
        Ok(Some(live.id.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_widens_with_waiting() {
        assert_eq!(rating_window(0), 100);
        assert_eq!(rating_window(4999), 100);
        assert_eq!(rating_window(10_000), 200);
        assert!(rating_window(60_000) > rating_window(30_000));
    }
}
