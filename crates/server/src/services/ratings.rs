//! Ratings, profiles, the leaderboard and the seats linked to accounts
//! (docs/web.md, *Ratings and profiles*). The maths is `crate::rating`;
//! a result is applied once by the store's claim ([`RatingRepo::apply`]).

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use serde_json::{json, Value};

use super::games::clock::ClockState;
use super::games::Games;
use super::ids::{now_ms, plausible_id};
use crate::error::ApiError;
use crate::names::{clean_name, name_key};
use crate::rating::{bot_rating, rank_seats, Family, Pool, Rating, BOT_DEVIATION, PROVISIONAL_GAMES};
use crate::store::{
    hash_address, hash_token, Account, AccountRepo, Change, ClockRepo, ClusterRepo, GameRepo, RatedResult, RatedSeat,
    RatingChange, RatingRepo, RatingRow, Seat, Store, DELETED_ACCOUNT,
};

/// The most seats one request may link.
pub const MAX_LINKS: usize = 50;
/// The games a profile lists.
pub const PROFILE_GAMES: usize = 50;
/// The games a profile's win rates are counted over (the most recent).
pub const STATS_GAMES: usize = 500;
/// The rating history a profile shows (the most recent rows).
pub const HISTORY_ROWS: usize = 200;
/// Players per leaderboard list.
pub const LEADERBOARD_SIZE: usize = 50;

/// How a deleted account's seat is named in lists and profiles.
pub const DELETED_NAME: &str = "deleted player";
/// Rated games two accounts may play together in a day: the next ones
/// count for nothing.
pub const TOGETHER_PER_DAY: u64 = 2;
/// The moves a finished game needs to count in a new account's history
/// (`Config::rated_min_games`): a game resigned or left at once does not.
pub const HISTORY_GAME_MOVES: usize = 30;
/// The games of a new account looked at for its history (the most recent).
const HISTORY_GAMES_READ: usize = 200;
/// The games of an account being deleted looked at for rated games not yet
/// settled (the most recent; an account holds far fewer games in play).
const GAMES_JUDGED_AT_DELETION: usize = 1000;

/// A rating as shown: its pool, rating and deviation on the shown scale.
fn shown(pool: Pool, r: &Rating) -> (f64, f64) {
    let (rating, deviation) = pool.shown(r);
    ((rating * 10.0).round() / 10.0, (deviation * 10.0).round() / 10.0)
}

fn rating_json(row: &RatingRow) -> Value {
    let (rating, deviation) = shown(row.pool, &row.rating);
    json!({
        "pool": row.pool.word(),
        "rating": rating,
        "deviation": deviation,
        "games": row.games,
        "provisional": row.games < PROVISIONAL_GAMES,
    })
}

/// Ratings, profiles and the leaderboard.
pub struct Ratings {
    repo: Arc<dyn RatingRepo>,
    stored: Arc<dyn GameRepo>,
    accounts: Arc<dyn AccountRepo>,
    clocks: Arc<dyn ClockRepo>,
    cluster: Arc<dyn ClusterRepo>,
    games: Arc<Games>,
    /// `Config::rated_min_age`, `Config::rated_min_games`.
    min_age: std::time::Duration,
    min_games: usize,
    /// `Config::rated_shared_address`.
    shared_address: bool,
}

impl Ratings {
    pub fn new(store: &Store, games: Arc<Games>, config: &crate::config::Config) -> Ratings {
        Ratings {
            repo: Arc::clone(&store.ratings),
            stored: Arc::clone(&store.games),
            accounts: Arc::clone(&store.accounts),
            clocks: Arc::clone(&store.clocks),
            cluster: Arc::clone(&store.cluster),
            games,
            min_age: config.rated_min_age,
            min_games: config.rated_min_games,
            shared_address: config.rated_shared_address,
        }
    }

    /// Applies a finished rated game's result (final `scores`; a seat that
    /// ran out of time, `forced_loser`, loses whatever the scores — the
    /// clocks' hook), once whichever server asks: the changes, or `None`
    /// for a game not rated or already applied. A game whose human seats
    /// are not each linked to a different account is voided (never rated).
    ///
    /// # Errors
    /// The storage fails (nothing is applied; a later call may).
    pub async fn settle(
        &self,
        id: &str,
        scores: &[u32],
        forced_loser: Option<usize>,
    ) -> Result<Option<Vec<RatingChange>>, ApiError> {
        match self.repo.rated(id).await? {
            None | Some(true) => return Ok(None),
            Some(false) => {}
        }
        let stored = self.stored.load(id).await?.ok_or_else(|| ApiError::NotFound(format!("game {id}")))?;
        let pool = Pool::of(stored.seats.len(), Family::of_json(&stored.record.rules));
        let places = rank_seats(scores, forced_loser);
        let mut seats = Vec::new();
        let mut void = scores.len() != stored.seats.len();
        for (i, seat) in stored.seats.iter().enumerate() {
            let place = places.get(i).copied().unwrap_or(stored.seats.len());
            let rated = match seat {
                Seat::Human { account: Some(a), .. } if a != DELETED_ACCOUNT => {
                    if seats.iter().any(|s: &RatedSeat| s.account.as_deref() == Some(a)) {
                        void = true;
                    }
                    RatedSeat { seat: i as u8, account: Some(a.clone()), fixed: None, place }
                }
                // An account deleted before the end: its result stands for
                // the others, against a player of the starting rating.
                Seat::Human { account: Some(_), .. } => {
                    let fixed = pool.native(pool.shown(&pool.start()).0, BOT_DEVIATION);
                    RatedSeat { seat: i as u8, account: None, fixed: Some(fixed), place }
                }
                Seat::Bot { level, .. } => match bot_rating(level) {
                    Some(r) => {
                        RatedSeat { seat: i as u8, account: None, fixed: Some(pool.native(r, BOT_DEVIATION)), place }
                    }
                    None => {
                        void = true;
                        continue;
                    }
                },
                Seat::Human { .. } => {
                    void = true;
                    continue;
                }
            };
            seats.push(rated);
        }
        let accounts: Vec<&str> = seats.iter().filter_map(|s| s.account.as_deref()).collect();
        if void {
            tracing::info!(game = %id, "a rated game is void: a seat was not a signed-in player");
            seats.clear();
        } else if let Some(why) = self.farmed(id, pool, &accounts, None).await? {
            tracing::info!(game = %id, why, "a rated game counts for nothing");
            seats.clear();
        }
        let result = RatedResult { game: id.to_string(), pool, seats, at: now_ms() };
        Ok(self.repo.apply(&result).await?)
    }

    /// Why a rated game's result must count for nothing, if it must (the
    /// defences against farming a rating with puppet accounts): one of its
    /// `accounts` too new (younger than `Config::rated_min_age` and fewer
    /// than `Config::rated_min_games` finished games of
    /// [`HISTORY_GAME_MOVES`] moves or more), two seats taken from one
    /// client address (unless `Config::rated_shared_address`), or two
    /// accounts that played [`TOGETHER_PER_DAY`] rated games together in
    /// the last day already, in the game's pool (each pool keeps its own
    /// ratings, so each counts its own games). With `only`, just the
    /// reasons that concern that account (its age and history, its seat's
    /// address, its pairs).
    async fn farmed(
        &self,
        id: &str,
        pool: Pool,
        accounts: &[&str],
        only: Option<&str>,
    ) -> Result<Option<&'static str>, ApiError> {
        let concerned = |a: &str| only.is_none_or(|o| o == a);
        let now = now_ms();
        for a in accounts.iter().filter(|a| concerned(a)) {
            let old = match self.accounts.by_id(a).await? {
                Some(account) => now - account.created_at >= self.min_age.as_millis() as i64,
                None => false,
            };
            if !old {
                let games = self.repo.account_games(a, HISTORY_GAMES_READ).await?;
                let played = |g: &&crate::store::AccountGame| {
                    g.game.id != id && g.game.progress.finished && g.game.moves >= HISTORY_GAME_MOVES
                };
                if games.iter().filter(played).count() < self.min_games {
                    return Ok(Some("an account too new to play rated games"));
                }
            }
        }
        if !self.shared_address {
            let linked = self.repo.linked(id).await?;
            for (i, (_, a, address)) in linked.iter().enumerate() {
                let shared =
                    |(_, b, other): &(u8, String, Option<String>)| other == address && (concerned(a) || concerned(b));
                if address.is_some() && linked[..i].iter().any(shared) {
                    return Ok(Some("two seats taken from one address"));
                }
            }
        }
        let day = now - 24 * 3600 * 1000;
        for (i, a) in accounts.iter().enumerate() {
            for b in accounts[i + 1..].iter().filter(|b| concerned(a) || concerned(b)) {
                if self.repo.together(a, b, pool.word(), day).await? >= TOGETHER_PER_DAY {
                    return Ok(Some("the same accounts' third rated game in a day"));
                }
            }
        }
        Ok(None)
    }

    /// Before `account` is deleted: each of its rated games not settled yet
    /// is judged now, while the account, its age, history and the address
    /// its seat was taken from are there to judge by. One that would count
    /// for nothing for a reason that concerns the account
    /// ([`Ratings::farmed`]: too new, its seat's address, its pairs) is
    /// void at once; the others stand for the other players when they end,
    /// the deleted seat as a player of the starting rating
    /// ([`Ratings::settle`]), the other accounts judged then as ever. Then
    /// the account's seats' links are dropped. (Judged only at the end, a
    /// puppet deleted during the game would be checked for nothing.)
    ///
    /// # Errors
    /// The storage fails (the links are kept; the deletion may be asked again).
    pub async fn forget_account(&self, account: &str) -> Result<(), ApiError> {
        for g in self.repo.account_games(account, GAMES_JUDGED_AT_DELETION).await? {
            let id = &g.game.id;
            if !g.rated || self.repo.rated(id).await? != Some(false) {
                continue;
            }
            let pool = Pool::of(g.game.seats.len(), Family::of_json(&g.game.rules));
            let accounts: Vec<&str> =
                g.game.seats.iter().filter_map(Seat::account).filter(|a| *a != DELETED_ACCOUNT).collect();
            if let Some(why) = self.farmed(id, pool, &accounts, Some(account)).await? {
                tracing::info!(game = %id, why, "a rated game counts for nothing: an account in it is deleted");
                self.repo.apply(&RatedResult { game: id.clone(), pool, seats: Vec::new(), at: now_ms() }).await?;
            }
        }
        Ok(self.repo.forget_account_seats(account).await?)
    }

    /// An account's rating in `pool`, rounded, and whether it is
    /// provisional (a new account's is the starting rating): the lobby
    /// shows a table host's in the table's pool, Play now pairs by the
    /// two-player pool of the rule family asked. `None` if the store fails.
    pub async fn pool_rating(&self, account: &str, pool: Pool) -> Option<(i64, bool)> {
        let rows = self.repo.of(account).await.ok()?;
        let (rating, games) = match rows.iter().find(|r| r.pool == pool) {
            Some(row) => (row.rating, row.games),
            None => (pool.start(), 0),
        };
        Some((pool.shown(&rating).0.round() as i64, games < PROVISIONAL_GAMES))
    }

    /// Applies the results of rated games finished over a minute ago and
    /// not applied (their server stopped between storing the last move and
    /// applying it): how many were applied now.
    ///
    /// # Errors
    /// The storage fails.
    pub async fn settle_unsettled(&self) -> Result<usize, ApiError> {
        let before = now_ms() - 60_000;
        let mut applied = 0;
        for (id, scores) in self.repo.unsettled(before, 100).await? {
            // The seat that ran out of time first (its stored clocks), if one did.
            let clock = self.clocks.load(&id).await.ok().flatten();
            let forced = clock.and_then(|json| serde_json::from_str::<ClockState>(&json).ok()?.timed_out);
            applied += usize::from(self.settle(&id, &scores, forced.map(usize::from)).await?.is_some());
        }
        Ok(applied)
    }

    /// Settles what is left unsettled ([`Ratings::settle_unsettled`]): a
    /// minute after start, then every ten minutes.
    pub fn start(self: &Arc<Self>) {
        let weak: Weak<Ratings> = Arc::downgrade(self);
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_secs(60)).await;
            loop {
                let Some(ratings) = weak.upgrade() else { return };
                if let Err(e) = ratings.settle_unsettled().await {
                    tracing::warn!(error = %e, "cannot settle the rated games left unsettled");
                }
                tokio::time::sleep(std::time::Duration::from_secs(600)).await;
            }
        });
    }

    /// Links the seats a signed-in person holds (each game's id and a seat
    /// token) to their account: the (game, seat) pairs linked. Tokens that
    /// hold no seat, or seats linked to someone else, are passed over.
    ///
    /// # Errors
    /// `bad_request` for more than [`MAX_LINKS`]; the storage fails.
    pub async fn link_seats(
        &self,
        account: &Account,
        held: &[(String, String)],
        address: Option<std::net::IpAddr>,
    ) -> Result<Vec<(String, u8)>, ApiError> {
        let address = address.map(hash_address);
        if held.len() > MAX_LINKS {
            return Err(ApiError::BadRequest(format!("at most {MAX_LINKS} seats at once")));
        }
        let mut linked = Vec::new();
        for (game, token) in held {
            if !plausible_id(game) || token.is_empty() || token.len() > 128 {
                continue;
            }
            let hash = hash_token(token);
            let Some(seat) = self.repo.link_seat(game, &hash, &account.id, address.as_deref()).await? else { continue };
            // The game in memory (on this server) knows it too, and the
            // other servers sharing the storage are told.
            if let Some(live) = self.games.in_memory(game) {
                let mut table = live.lock().await;
                if let Some(Seat::Human { account: a @ None, .. }) = table.seats.get_mut(seat as usize) {
                    *a = Some(account.id.clone());
                }
            }
            if let Some(server) = self.cluster.server() {
                let change = Change::Seats { game: game.clone(), server: server.to_string() };
                if let Err(e) = self.cluster.publish(&change).await {
                    tracing::warn!(game = %game, error = %e, "cannot tell the other servers of a seat linked");
                }
            }
            linked.push((game.clone(), seat));
        }
        Ok(linked)
    }

    /// The account of a (shown) name, or `not_found`.
    async fn player(&self, name: &str) -> Result<Account, ApiError> {
        let key = clean_name(name).map(|n| name_key(&n)).unwrap_or_default();
        let missing = || ApiError::NotFound(format!("player {name}"));
        if key.is_empty() || name.len() > 200 {
            return Err(missing());
        }
        self.accounts.by_key(&key).await?.ok_or_else(missing)
    }

    /// What a game did to its players' ratings: `{"rated", "pool",
    /// "settled", "players": [{"seat", "player", "before", "after"}]}` — each seat of
    /// an account, on the shown scale; `settled` once the result is
    /// applied (or the game found void, when the list is empty). Until
    /// then, each seat of an account with its rating now in the game's
    /// pool: `{"seat", "player", "rating"}` (none yet: null), for the
    /// players to see whom they play.
    ///
    /// # Errors
    /// `not_found`; the storage fails.
    pub async fn game_ratings(&self, id: &str) -> Result<Value, ApiError> {
        let live = self.games.game(id).await?;
        let (rated, seats, pool) = {
            let table = live.table.lock().await;
            let pool = Pool::of_game(table.seats.len(), table.game.rules());
            let seats: Vec<(usize, String)> = table
                .seats
                .iter()
                .enumerate()
                .filter_map(|(i, s)| match s {
                    Seat::Human { account: Some(a), .. } => Some((i, a.clone())),
                    _ => None,
                })
                .collect();
            (table.rated, seats, pool)
        };
        if !rated {
            return Ok(json!({ "rated": false, "settled": false, "players": [] }));
        }
        let settled = self.repo.rated(id).await? == Some(true);
        let mut players = Vec::new();
        let ids: Vec<String> = seats.iter().map(|(_, a)| a.clone()).collect();
        let names: HashMap<String, String> = self.repo.account_names(&ids).await?.into_iter().collect();
        if !settled {
            for (seat, account) in &seats {
                let Some(name) = names.get(account) else { continue };
                let now = self.repo.of(account).await?.into_iter().find(|r| r.pool == pool);
                let rating = now.map(|r| shown(pool, &r.rating).0.round());
                players.push(json!({ "seat": seat, "player": name, "rating": rating }));
            }
        } else {
            for (seat, account) in &seats {
                // The game just ended: among the account's latest rows.
                let history = self.repo.history(account, 20).await?;
                if let (Some(h), Some(name)) = (history.iter().find(|h| h.game == id), names.get(account)) {
                    players.push(json!({
                        "seat": seat,
                        "player": name,
                        "before": shown(h.pool, &h.before).0.round(),
                        "after": shown(h.pool, &h.after).0.round(),
                    }));
                }
            }
        }
        Ok(json!({ "rated": true, "pool": pool.word(), "settled": settled, "players": players }))
    }

    /// A player's public profile: ratings, their history, games with
    /// results, win rates by preset and by player count.
    ///
    /// # Errors
    /// `not_found` for a name no account has; the storage fails.
    pub async fn profile(&self, name: &str) -> Result<Value, ApiError> {
        let account = self.player(name).await?;
        let mut ratings = self.repo.of(&account.id).await?;
        // The base game's pools first, then the Big Box's.
        ratings.sort_by_key(|r| Pool::ALL.iter().position(|p| *p == r.pool));
        let history = self.repo.history(&account.id, HISTORY_ROWS).await?;
        let games = self.repo.account_games(&account.id, STATS_GAMES).await?;
        // Names of the accounts seated in the games listed.
        let mut ids: Vec<String> = games
            .iter()
            .take(PROFILE_GAMES)
            .flat_map(|g| g.game.seats.iter().filter_map(|s| s.account().map(str::to_string)))
            .filter(|a| a != DELETED_ACCOUNT)
            .collect();
        ids.sort();
        ids.dedup();
        let names: HashMap<String, String> = self.repo.account_names(&ids).await?.into_iter().collect();
        let changes: HashMap<&str, &crate::store::HistoryRow> = history.iter().map(|h| (h.game.as_str(), h)).collect();

        #[derive(Default)]
        struct Tally {
            games: u32,
            wins: u32,
        }
        let mut by_preset: std::collections::BTreeMap<String, Tally> = Default::default();
        let mut by_players: std::collections::BTreeMap<usize, Tally> = Default::default();
        for g in games.iter().filter(|g| g.game.progress.finished) {
            let won = g.game.progress.winners.contains(&g.seat);
            let preset = g.game.rules.get("preset").and_then(Value::as_str).unwrap_or("standard").to_string();
            for t in [by_preset.entry(preset).or_default(), by_players.entry(g.game.seats.len()).or_default()] {
                t.games += 1;
                t.wins += u32::from(won);
            }
        }
        let listed: Vec<Value> = games
            .iter()
            .take(PROFILE_GAMES)
            .map(|g| {
                let p = &g.game.progress;
                let result = if !p.finished {
                    "in play"
                } else if p.winners.contains(&g.seat) && p.winners.len() > 1 {
                    "shared win"
                } else if p.winners.contains(&g.seat) {
                    "won"
                } else {
                    "lost"
                };
                let players: Vec<Value> = g
                    .game
                    .seats
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let mut v = json!({ "name": s.name(), "score": p.scores.get(i).copied().unwrap_or(0) });
                        match s {
                            Seat::Bot { level, .. } => v["bot"] = level.name().into(),
                            Seat::Human { account: Some(a), .. } => match names.get(a) {
                                Some(n) => v["player"] = n.clone().into(),
                                None => v["name"] = DELETED_NAME.into(),
                            },
                            Seat::Human { .. } => {}
                        }
                        v
                    })
                    .collect();
                let mut v = json!({
                    "id": g.game.id,
                    "seat": g.seat,
                    "finished": p.finished,
                    "result": result,
                    "rated": g.rated,
                    "preset": g.game.rules.get("preset").and_then(Value::as_str).unwrap_or("standard"),
                    "family": Family::of_json(&g.game.rules).word(),
                    "clock": g.clock.as_deref().unwrap_or("none"),
                    "players": players,
                    "at": p.at,
                });
                if g.rated {
                    v["pool"] = Pool::of(g.game.seats.len(), Family::of_json(&g.game.rules)).word().into();
                }
                if let Some(h) = changes.get(g.game.id.as_str()) {
                    v["rating_before"] = shown(h.pool, &h.before).0.into();
                    v["rating_after"] = shown(h.pool, &h.after).0.into();
                }
                v
            })
            .collect();
        let tally = |t: &Tally| json!({ "games": t.games, "wins": t.wins });
        Ok(json!({
            "name": account.name,
            "since": account.created_at,
            "ratings": ratings.iter().map(rating_json).collect::<Vec<_>>(),
            "history": history.iter().map(|h| {
                let (before, _) = shown(h.pool, &h.before);
                let (after, deviation) = shown(h.pool, &h.after);
                json!({ "game": h.game, "pool": h.pool.word(), "place": h.place, "before": before,
                        "after": after, "deviation": deviation, "at": h.at })
            }).collect::<Vec<_>>(),
            "games": listed,
            "by_preset": by_preset.iter().map(|(k, t)| { let mut v = tally(t); v["preset"] = k.clone().into(); v }).collect::<Vec<_>>(),
            "by_players": by_players.iter().map(|(k, t)| { let mut v = tally(t); v["players"] = (*k).into(); v }).collect::<Vec<_>>(),
            "provisional_games": PROVISIONAL_GAMES,
        }))
    }

    /// The leaderboards: the best established (not provisional) players
    /// of each pool (`duel`, `multi`, `big-box-duel`, `big-box-multi`),
    /// and the bots' fixed ratings (the same in every pool).
    ///
    /// # Errors
    /// The storage fails.
    pub async fn leaderboard(&self) -> Result<Value, ApiError> {
        let mut out = json!({ "provisional_games": PROVISIONAL_GAMES });
        for pool in Pool::ALL {
            let rows = self.repo.leaderboard(pool.word(), PROVISIONAL_GAMES, LEADERBOARD_SIZE).await?;
            out[pool.word()] = rows
                .iter()
                .enumerate()
                .map(|(i, (name, row))| {
                    let mut v = rating_json(row);
                    v["rank"] = (i + 1).into();
                    v["name"] = name.clone().into();
                    v
                })
                .collect::<Vec<_>>()
                .into();
        }
        out["bots"] = crate::bots::BotLevel::ALL
            .iter()
            .filter_map(|l| bot_rating(l).map(|r| json!({ "level": l.name(), "rating": r })))
            .collect::<Vec<_>>()
            .into();
        Ok(out)
    }
}
