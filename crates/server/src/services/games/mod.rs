//! The games in play (lila's `round`): one lock per game serialises its
//! commands, every move is checked by the engine and stored before it is
//! applied; a game's clocks are part of its state.
//!
//! What follows a move elsewhere (its bots playing, the next player told,
//! a finished rated game's result applied) is said to [`GameEvents`], which
//! the server wires to those services: the games know nothing of them.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, OnceLock};

use carcassonne::record::{rules_from_json, Record, RecordMove, Replayer};
use carcassonne::{Game, Move, Rules, Setup};
use serde_json::Value;

pub mod clock;
pub mod live;
pub mod new;
pub mod takeback;

use self::clock::{ClockState, Now, TimeControl, DEFAULT_AWAY_MINUTES, MAX_AWAY_MINUTES};
pub use self::live::{Live, Table, Viewer};
use self::new::{check_rated, seats_of};
pub use self::new::{check_rules, progress_with, rebuild, CreateRequest, Created, SeatToken};
use crate::bots::ExternalBot;
use crate::error::ApiError;
use crate::services::ids::{new_game_id, now_ms, plausible_id, random_bytes};
use crate::services::quotas::{Quotas, Spender};
use crate::store::{
    hash_address, Account, Change, ChatRepo, ClockRepo, ClusterRepo, GameRepo, NewGame, RatingRepo, Room, Seat, Store,
    StoreError, TakebackRepo,
};

/// A move as a client sends it: the record's move fields plus the version
/// the client saw.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct MoveRequest {
    pub version: u64,
    #[serde(flatten)]
    pub mv: RecordMove,
}

/// What the rest of the server does when a game moves on (wired by
/// `AppState`: the bots, the notifications, the ratings).
#[async_trait::async_trait]
pub trait GameEvents: Send + Sync {
    /// A game in memory may have a bot to move: its bots play.
    fn bots(&self, live: &Arc<Live>);

    /// A move was stored and applied (the table still locked): the player
    /// to move now may be told.
    fn moved(&self, live: &Live, table: &Table);

    /// Game `id` just ended with `scores` (a seat that ran out of time,
    /// `forced_loser`, places last): its result is applied if it is rated.
    async fn finished(&self, id: &str, scores: &[u32], forced_loser: Option<usize>);
}

/// How a new game starts, besides its seats and rules.
#[derive(Clone, Debug, Default)]
pub struct Start {
    /// Listed for everyone to watch.
    pub public: bool,
    /// Its time control (the clocks' JSON, checked), none by default.
    pub clock: Option<Value>,
    /// Minutes a seat must be away before the others may hand it to a bot.
    pub away_minutes: Option<u32>,
    pub rated: bool,
    /// Chat turned off for everyone.
    pub chat_off: bool,
    /// The client address the game was made from (the key's hash): where
    /// its creator's linked seat was taken (ratings).
    pub address: Option<String>,
    /// Where each seat was taken, if not from `address` (the key's hash, by
    /// seat): a lobby table's sitters each sat from their own.
    pub seat_addresses: Vec<Option<String>>,
    /// Whose game it is (a client address's key hash): the store keeps so
    /// many games of one owner (`--max-kept-games-per-ip`, making room by
    /// [`GameRepo::make_room`]), and its bots take turns in the owner's lane.
    pub owner: Option<String>,
}

/// The most spare games kept.
const SPARE_GAMES: usize = 64;

/// The games in play, on this server.
pub struct Games {
    games: Arc<dyn GameRepo>,
    clocks: Arc<dyn ClockRepo>,
    ratings: Arc<dyn RatingRepo>,
    chat: Arc<dyn ChatRepo>,
    cluster: Arc<dyn ClusterRepo>,
    takebacks: Arc<dyn TakebackRepo>,
    programs: Vec<ExternalBot>,
    quotas: Arc<Quotas>,
    now: Now,
    /// The games held in memory, by id.
    live: Mutex<HashMap<String, Arc<Live>>>,
    /// Games whose buffers a move being checked may reuse (a copy of a game
    /// allocates its board; a copy into a spare one does not).
    spare: Mutex<Vec<Game>>,
    events: OnceLock<Arc<dyn GameEvents>>,
}

impl Games {
    pub fn new(store: &Store, programs: Vec<ExternalBot>, quotas: Arc<Quotas>, now: Now) -> Games {
        Games {
            games: Arc::clone(&store.games),
            clocks: Arc::clone(&store.clocks),
            ratings: Arc::clone(&store.ratings),
            chat: Arc::clone(&store.chat),
            cluster: Arc::clone(&store.cluster),
            takebacks: Arc::clone(&store.takebacks),
            programs,
            quotas,
            now,
            live: Mutex::default(),
            spare: Mutex::default(),
            events: OnceLock::new(),
        }
    }

    /// Says where moves are told (once, when the server is put together).
    pub fn tell(&self, events: Arc<dyn GameEvents>) {
        let _ = self.events.set(events);
    }

    /// The server's clock (tests move it on).
    pub fn now(&self) -> &Now {
        &self.now
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Live>>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn kick(&self, live: &Arc<Live>) {
        if let Some(events) = self.events.get() {
            events.bots(live);
        }
    }

    /// Starts a game from the new-game form, for a client at `ip` signed in
    /// to `account` (if any: the first seat at the creator's screen is
    /// linked to it), within the quotas of `spender` (its address's, or a
    /// known account's own).
    ///
    /// # Errors
    /// `bad_request` for a form the rules refuse (seats, names, levels,
    /// options), `bad_clock`, `not_ratable`, `quota_exceeded`,
    /// `storage_error` if it cannot be saved.
    pub async fn create(
        &self,
        req: CreateRequest,
        ip: Option<IpAddr>,
        spender: Option<Spender>,
        account: Option<&Account>,
    ) -> Result<Created, ApiError> {
        let (seats, tokens) = seats_of(&req, account, &self.programs)?;
        // The engine builds the game from a seeded record, so every rule
        // option it knows (river, first player…) is set up by the engine.
        let rules = rules_from_json(&req.rules.unwrap_or_default()).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        check_rules(&seats, &rules, &self.programs).map_err(ApiError::BadRequest)?;
        if req.rated {
            check_rated(&seats, &rules, account)?;
        }
        let start = Start {
            public: req.public,
            clock: req.clock,
            away_minutes: req.away_minutes,
            rated: req.rated,
            chat_off: req.chat_off,
            address: ip.map(hash_address),
            seat_addresses: Vec::new(),
            owner: ip.map(hash_address),
        };
        control_of(start.clock.as_ref(), start.away_minutes)?;
        self.quotas.take(spender.clone())?;
        let live = self.start(seats, rules, start).await.inspect_err(|_| self.quotas.give_back(spender.clone()))?;
        self.quotas.count_active(spender, &live);
        Ok(Created { live, tokens })
    }

    /// Room in the store for one more game of `owner` (a client address's
    /// hash): its oldest unfinished casual game may go (`GameRepo::make_room`).
    ///
    /// # Errors
    /// `quota_exceeded` (every game it keeps stays), `storage_error`.
    async fn make_room(&self, owner: &str) -> Result<(), ApiError> {
        match self.games.make_room(owner, self.quotas.kept).await? {
            Room::Free => Ok(()),
            Room::Dropped(id) => {
                tracing::info!(game = %id, "a game was dropped: its address keeps the most games allowed");
                self.forget(std::slice::from_ref(&id));
                Ok(())
            }
            Room::Full => Err(ApiError::Quota(format!(
                "{} games kept from one address, every one rated or in an account's history",
                self.quotas.kept
            ))),
        }
    }

    /// Room in the store for one more game of `owner` (a client address's
    /// hash; none for a game without one) while the games kept per owner
    /// are capped.
    ///
    /// # Errors
    /// `quota_exceeded` (every game it keeps must stay), `storage_error`.
    pub async fn room_for(&self, owner: Option<&str>) -> Result<(), ApiError> {
        match owner {
            Some(owner) if self.quotas.kept < usize::MAX => self.make_room(owner).await,
            _ => Ok(()),
        }
    }

    /// Makes, stores and holds a game of `seats` (tokens already hashed):
    /// the engine deals the deck for the rules (the river first, the first
    /// player…) from a fresh seed, and the record is stored with the deck as
    /// dealt and the live bag's seed, so that a replay of the moves rebuilds
    /// this very game; its clocks in the same write. Room is made for it
    /// among its owner's games first.
    ///
    /// # Errors
    /// `bad_request` (rules the engine refuses), `bad_clock`,
    /// `quota_exceeded` (its owner keeps as many games as allowed, none of
    /// which may go), `storage_error`.
    pub async fn start(&self, seats: Vec<Seat>, rules: Rules, start: Start) -> Result<Arc<Live>, ApiError> {
        self.room_for(start.owner.as_deref()).await?;
        let names: Vec<String> = seats.iter().map(|s| s.name().to_string()).collect();
        let setup = Setup::standard(rules, names.len(), u64::from_le_bytes(random_bytes::<8>()?));
        let live_seed = setup.live_seed;
        let game = Game::new(setup).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let record = Record::from_game(&game, &names);
        let (control, away) = control_of(start.clock.as_ref(), start.away_minutes)?;
        let clock = ClockState::new(control, away, &game, &seats, self.now.ms());
        let id = new_game_id()?;
        let created_at = now_ms();
        let new = NewGame {
            owner: start.owner.clone(),
            ..clock.kept_with(NewGame::new(id.clone(), record, live_seed, seats.clone(), created_at, start.public))?
        };
        let address = |i: usize| start.seat_addresses.get(i).cloned().flatten().or_else(|| start.address.clone());
        self.keep(&new, start.rated, start.chat_off, address).await?;
        tracing::info!(game = %id, players = names.len(), "game created");
        let mut table = Table::new(game, seats, created_at, created_at);
        table.owner = start.owner;
        table.clock = Some(clock);
        table.rated = start.rated;
        table.now = self.now.clone();
        let live = Live::new(id.clone(), table);
        self.held().insert(id, Arc::clone(&live));
        self.kick(&live);
        Ok(live)
    }

    /// Stores a new game (not held in memory: it is loaded when asked for),
    /// its seats linked to their accounts (their rows; each taken from the
    /// address whose key hashes to `address(seat)`, if known), marked
    /// rated, its chat turned off.
    ///
    /// # Errors
    /// `storage_error` (a taken id among them).
    pub async fn keep(
        &self,
        new: &NewGame,
        rated: bool,
        chat_off: bool,
        address: impl Fn(usize) -> Option<String>,
    ) -> Result<(), ApiError> {
        self.games.create(new).await?;
        for (i, s) in new.seats.iter().enumerate() {
            if let Seat::Human { token_hash, account: Some(account), .. } = s {
                self.ratings.link_seat(&new.id, token_hash, account, address(i).as_deref()).await?;
            }
        }
        if rated {
            let family = crate::rating::Family::of_json(&new.record.rules);
            self.ratings.mark_rated(&new.id, crate::rating::Pool::of(new.seats.len(), family).word()).await?;
        }
        if chat_off {
            self.chat.set_off(&new.id).await?;
        }
        Ok(())
    }

    /// The game `id`, loaded from the store and replayed if it is not in play.
    ///
    /// # Errors
    /// `not_found`, or `storage_error` for a store failure or a stored game
    /// that does not replay.
    pub async fn game(&self, id: &str) -> Result<Arc<Live>, ApiError> {
        if let Some(live) = self.held().get(id) {
            live.touch();
            return Ok(Arc::clone(live));
        }
        if !plausible_id(id) {
            return Err(ApiError::NotFound(format!("game {id}")));
        }
        let stored = self.games.load(id).await?.ok_or_else(|| ApiError::NotFound(format!("game {id}")))?;
        let game = rebuild(&stored.record, stored.live_seed)
            .map_err(|e| ApiError::Storage(format!("game {id} does not replay: {e}")))?;
        let mut table = Table::new(game, stored.seats, stored.created_at, stored.updated_at);
        table.owner = stored.owner;
        table.rated = self.ratings.rated(id).await?.is_some();
        // Who is here through the other servers.
        match self.cluster.presence(id).await {
            Ok(remote) => table.remote_online = remote.into_iter().collect(),
            Err(e) => tracing::warn!(game = %id, error = %e, "cannot ask who is on the other servers"),
        }
        table.now = self.now.clone();
        self.load_clock_into(id, &mut table).await;
        self.load_takeback_into(id, &mut table).await;
        let live = Live::new(id.to_string(), table);
        let (live, fresh) = {
            let mut games = self.held();
            match games.get(id) {
                Some(other) => (Arc::clone(other), false),
                None => {
                    games.insert(id.to_string(), Arc::clone(&live));
                    (live, true)
                }
            }
        };
        if fresh {
            // A bot whose turn it was when the server stopped moves now.
            self.kick(&live);
        }
        Ok(live)
    }

    /// Plays a client's move for `viewer` after every check; the move is
    /// stored before it is applied. A refused move changes nothing.
    ///
    /// # Errors
    /// `game_over`, `stale_version`, `unauthorized`, `not_your_turn`,
    /// `time_up`, `bad_request`, `illegal_move` (with the engine's rule
    /// code), `storage_error`.
    pub async fn play(&self, live: &Arc<Live>, viewer: &Viewer, req: &MoveRequest) -> Result<(), ApiError> {
        let mut table = live.lock().await;
        let Some(to_move) = table.to_move() else {
            return Err(ApiError::GameOver);
        };
        if req.version != table.version() {
            return Err(ApiError::StaleVersion { current: table.version() });
        }
        if viewer.seats.is_empty() {
            return Err(ApiError::Unauthorized);
        }
        if !viewer.holds(to_move) || table.bot_to_move().is_some() {
            return Err(ApiError::NotYourTurn);
        }
        // A person's move after their deadline is refused (the clocks'
        // sweeper acts on it), and in real time after their flag fell,
        // for good: the seat no longer moves.
        if let Some(c) = &table.clock {
            if c.deadline.is_some_and(|d| d <= self.now.ms()) || c.flagged(to_move) {
                return Err(ApiError::TimeUp);
            }
            // A player who resigned or left moves no more.
            if c.is_out(to_move) {
                return Err(ApiError::NotYourTurn);
            }
        }
        let mv = req.mv.to_move().map_err(|e| match e {
            carcassonne::record::RecordError::Illegal(e) => ApiError::Illegal(e),
            other => ApiError::BadRequest(other.to_string()),
        })?;
        self.commit(live, &mut table, mv).await?;
        drop(table);
        self.kick(live);
        Ok(())
    }

    /// Checks, stores, then applies `mv`; the clocks move on, and the
    /// events are told.
    ///
    /// # Errors
    /// `illegal_move`, `stale_version` (another server stored a move first:
    /// the table caught up with it), `storage_error`.
    pub async fn commit(&self, live: &Live, table: &mut Table, mv: Move) -> Result<(), ApiError> {
        table.game.check(&mv).map_err(ApiError::Illegal)?;
        let mut next = self.copy_of(&table.game);
        next.play_unchecked(&mv);
        let progress = progress_with(&next, &table.seats, table.clock.as_ref());
        let ply = table.game.moves_played() as usize;
        let (rm, at) = (RecordMove::from_move(&mv), progress.at);
        match self.games.append_move(&live.id, ply, &rm, &progress).await {
            Ok(()) => {}
            Err(StoreError::Conflict(why)) => {
                // Another server sharing the storage stored this move first:
                // catch up with it; the client resyncs.
                tracing::info!(game = %live.id, %why, "a move raced another server's");
                self.catch_up(live, table).await?;
                self.load_clock_into(&live.id, table).await;
                if table.over() {
                    live.changed();
                    return Err(ApiError::GameOver);
                }
                return Err(ApiError::StaleVersion { current: table.version() });
            }
            Err(e) => return Err(e.into()),
        }
        let mover = table.game.to_move();
        let by_person = table.bot_to_move().is_none();
        let before = std::mem::replace(&mut table.game, next);
        self.spare(before);
        table.updated_at = at;
        if by_person {
            table.person_at = at;
        }
        self.clock_after_move(live, table, mover).await;
        live.changed();
        if let Some(events) = self.events.get() {
            if progress.finished {
                // A rated game's result, applied once whichever server tries
                // (a seat that ran out of time placed last).
                let forced = table.clock.as_ref().and_then(|c| c.timed_out).map(usize::from);
                events.finished(&live.id, &progress.scores, forced).await;
            }
            events.moved(live, table);
        }
        Ok(())
    }

    /// Game `id` ended early with `scores` (resigned, or ended as it
    /// stood), a seat placed last (`forced_loser`): told as a finished game.
    pub async fn ended(&self, id: &str, scores: &[u32], forced_loser: Option<usize>) {
        if let Some(events) = self.events.get() {
            events.finished(id, scores, forced_loser).await;
        }
    }

    /// A copy of `game`, made in a spare game's buffers if there is one.
    pub fn copy_of(&self, game: &Game) -> Game {
        let spare = self.spare.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match spare {
            Some(mut copy) => {
                copy.clone_from(game);
                copy
            }
            None => game.clone(),
        }
    }

    /// Keeps `game`'s buffers for a later [`Games::copy_of`].
    pub fn spare(&self, game: Game) {
        let mut spares = self.spare.lock().unwrap_or_else(|e| e.into_inner());
        if spares.len() < SPARE_GAMES {
            spares.push(game);
        }
    }

    /// Plays the moves the storage holds beyond the table's (stored by
    /// another server sharing it), each checked by the engine.
    ///
    /// # Errors
    /// `storage_error`: the game is gone, or a stored move does not play.
    pub async fn catch_up(&self, live: &Live, table: &mut Table) -> Result<(), ApiError> {
        let stored = self
            .games
            .load(&live.id)
            .await?
            .ok_or_else(|| ApiError::Storage(format!("game {} is gone from the storage", live.id)))?;
        let have = table.game.moves_played() as usize;
        // Moves taken back there (services/takebacks.rs): the table's are
        // not the first of the stored ones. The game is built again from
        // the stored record, as when it is loaded.
        let follows = stored.record.moves.len() >= have
            && table.game.history().iter().zip(&stored.record.moves).all(|(m, r)| RecordMove::from_move(m) == *r);
        if !follows {
            let game = rebuild(&stored.record, stored.live_seed)
                .map_err(|e| ApiError::Storage(format!("game {} does not replay: {e}", live.id)))?;
            let before = table.rewound(game, stored.updated_at);
            self.spare(before);
            self.load_takeback_into(&live.id, table).await;
            live.changed();
            return Ok(());
        }
        if stored.record.moves.len() == have {
            return Ok(());
        }
        let mut next = Replayer::resume(table.game.clone(), have);
        next.run(&stored.record.moves[have..])
            .map_err(|e| ApiError::Storage(format!("game {}: a stored move does not play: {e}", live.id)))?;
        table.game = next.finish();
        table.updated_at = stored.updated_at;
        live.changed();
        Ok(())
    }

    /// Game `id`'s takeback request as stored, into the table.
    pub async fn load_takeback_into(&self, id: &str, table: &mut Table) {
        match self.takebacks.load(id).await {
            Ok(Some(json)) => match serde_json::from_str(&json) {
                Ok(t) => table.takeback = Some(t),
                Err(e) => tracing::error!(game = %id, error = %e, "a stored takeback request does not read"),
            },
            Ok(None) => table.takeback = None,
            Err(e) => tracing::warn!(game = %id, error = %e, "cannot read the game's takeback request"),
        }
    }

    /// Game `id`, if it is in memory here.
    pub fn in_memory(&self, id: &str) -> Option<Arc<Live>> {
        self.held().get(id).cloned()
    }

    /// Every game in memory here.
    pub fn all(&self) -> Vec<Arc<Live>> {
        self.held().values().cloned().collect()
    }

    /// Games held in memory now.
    pub fn count(&self) -> usize {
        self.held().len()
    }

    /// Keeps in memory only the games `keep` says: how many left.
    pub fn retain(&self, keep: impl Fn(&Live) -> bool) -> usize {
        let mut games = self.held();
        let before = games.len();
        games.retain(|_, live| keep(live));
        before - games.len()
    }

    /// Game `id`'s seats as stored, if it is in memory here (another
    /// server linked one to an account): each seat's account link.
    pub async fn reload_seats(&self, id: &str) {
        let Some(live) = self.in_memory(id) else { return };
        let stored = match self.games.load(id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "cannot read a game's seats again");
                return;
            }
        };
        let mut t = live.lock().await;
        let mut changed = false;
        for (mine, theirs) in t.seats.iter_mut().zip(stored.seats) {
            if let (Seat::Human { account, .. }, Seat::Human { account: linked, .. }) = (mine, theirs) {
                if *account != linked {
                    *account = linked;
                    changed = true;
                }
            }
        }
        drop(t);
        if changed {
            live.changed();
        }
    }

    /// Lets games `ids` leave memory (they were deleted).
    pub fn forget(&self, ids: &[String]) {
        let mut games = self.held();
        for id in ids {
            games.remove(id);
        }
    }

    /// Counts a websocket of `viewer` in (`joined`) or out, and tells
    /// everyone, on every server sharing the storage.
    pub async fn presence(&self, live: &Live, viewer: &Viewer, joined: bool) {
        if viewer.seats.is_empty() {
            return;
        }
        let mut t = live.lock().await;
        for p in &viewer.seats {
            if let Some(n) = t.online.get_mut(p.index()) {
                *n = if joined { n.saturating_add(1) } else { n.saturating_sub(1) };
            }
        }
        let online = t.online.clone();
        drop(t);
        live.changed();
        self.publish_presence(live, online).await;
    }

    /// Tells the other servers who is here on `live` through this one.
    pub async fn publish_presence(&self, live: &Live, online: Vec<u32>) {
        let Some(server) = self.cluster.server() else { return };
        let change = Change::Presence { game: live.id.clone(), server: server.to_string(), online };
        if let Err(e) = self.cluster.publish(&change).await {
            tracing::warn!(game = %live.id, error = %e, "cannot tell the other servers who is here");
        }
    }

    /// Tells the other servers that game `id`'s clocks changed.
    pub async fn publish_clock(&self, id: &str) {
        if self.cluster.server().is_none() {
            return;
        }
        if let Err(e) = self.cluster.publish(&Change::Clock { game: id.to_string() }).await {
            tracing::warn!(game = %id, error = %e, "cannot tell the other servers about the game's clocks");
        }
    }

    /// The clocks as stored, into the table (another server changed them).
    pub async fn load_clock_into(&self, id: &str, table: &mut Table) {
        match self.clocks.load(id).await {
            Ok(Some(json)) => match serde_json::from_str::<ClockState>(&json) {
                Ok(c) if c.remaining.len() == table.seats.len() => table.clock = Some(c),
                Ok(_) => tracing::error!(game = %id, "stored clocks for another number of seats"),
                Err(e) => tracing::error!(game = %id, error = %e, "stored clocks do not read"),
            },
            Ok(None) => {}
            Err(e) => tracing::warn!(game = %id, error = %e, "cannot read the game's clocks"),
        }
    }

    /// A move was stored: the mover's time used, the next move offered,
    /// kept over the clocks this server last read. If another server
    /// changed them meanwhile (a seat resigned, left or handed over), the
    /// clocks are read again and the move counted on them: nothing it
    /// wrote is lost.
    async fn clock_after_move(&self, live: &Live, table: &mut Table, mover: Option<carcassonne::PlayerId>) {
        for _ in 0..4 {
            let now = self.now.ms();
            let version = table.version();
            let Table { clock, game, seats, .. } = &mut *table;
            let Some(c) = clock.as_mut() else { return };
            let base = c.rev;
            // (Read again after another server's change that already
            // counted this move: nothing more to count.)
            if c.offered_version == version {
                return;
            }
            let first = mover.is_some_and(|p| !c.has_moved(p));
            if let Some(p) = mover {
                c.moved(p, seats, now);
            }
            let first = first && mover.is_some_and(|p| c.has_moved(p));
            c.offer(game, seats, now);
            // Without a clock nothing timed changed: the stored clocks stay
            // (the away minutes count from the last move stored,
            // `Table::updated_at`), but for a player's first move (who has
            // moved: a game may be aborted until each has).
            if c.control == TimeControl::None && !first {
                return;
            }
            let kept = match c.stored_after(base) {
                Ok(json) => self.clocks.swap(&live.id, base, &json, c.deadline).await.map_err(ApiError::from),
                Err(e) => Err(e),
            };
            match kept {
                Ok(true) => {
                    self.publish_clock(&live.id).await;
                    return;
                }
                Ok(false) => self.load_clock_into(&live.id, table).await,
                Err(e) => {
                    tracing::error!(game = %live.id, error = %e, "cannot keep the game's clocks");
                    return;
                }
            }
        }
        tracing::error!(game = %live.id, "the game's clocks kept changing on other servers: this move's time is not kept");
    }
}

/// A new game's time control and away minutes, checked.
///
/// # Errors
/// `bad_clock`.
fn control_of(clock: Option<&Value>, away_minutes: Option<u32>) -> Result<(TimeControl, u32), ApiError> {
    let control = match clock {
        Some(v) => TimeControl::parse(v)?,
        None => TimeControl::None,
    };
    let away = away_minutes.unwrap_or(DEFAULT_AWAY_MINUTES);
    if !(1..=MAX_AWAY_MINUTES).contains(&away) {
        return Err(ApiError::BadClock(format!("away_minutes must be from 1 to {MAX_AWAY_MINUTES}")));
    }
    Ok((control, away))
}
