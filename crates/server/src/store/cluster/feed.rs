//! The change feed: `LISTEN` on a connection of its own, reconnecting with
//! backoff when it is lost, until the server stops reading; after each
//! (re)connection it looks back for what was stored meanwhile.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio::sync::mpsc::UnboundedSender;
use tokio_postgres::{Config, Notification};

use super::{Change, GameChanged};
use crate::store::chat::pg::chat_message;
use crate::store::error::describe;
use crate::store::pg::Tls;

/// The channel on which stored moves are announced: `"<game id>:<moves>"`.
pub(crate) const CHANNEL: &str = "carcassonne_moves";

/// The channel of the other news between servers: a [`Change`] in JSON.
pub(crate) const EVENTS: &str = "carcassonne_events";

/// How often the change feed checks that its connection is alive.
const FEED_HEARTBEAT: Duration = Duration::from_secs(10);

/// How far before the last sign of life a reconnected feed looks for moves
/// it may have missed (a move stored by a transaction that began earlier
/// and committed while the feed was away).
const MISSED_MARGIN_SECS: f64 = 60.0;

/// The longest wait between two attempts to reconnect the change feed.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// The change feed: `LISTEN` on a connection of its own, reconnecting with
/// backoff when it is lost, until the server stops reading.
pub(crate) struct Listener {
    pub(crate) config: Config,
    pub(crate) tls: Tls,
    pub(crate) shown: String,
    /// Where the first session looks back from.
    pub(crate) since: SystemTime,
    pub(crate) tx: UnboundedSender<Change>,
    /// Set while a session listens (the server's health says so).
    pub(crate) listening: Arc<AtomicBool>,
}

/// Why a listening session ended.
enum Ended {
    /// Nobody reads the news any more.
    Closed,
    /// The connection failed.
    Lost(String),
}

impl Listener {
    pub(crate) async fn run(self) {
        let mut config = self.config.clone();
        let name = format!("{}:listen", config.get_application_name().unwrap_or("carcassonne"));
        config.application_name(&name);
        // The database's clock when the feed was last known to be listening
        // (at first: when the store was opened).
        let mut alive = self.since;
        let mut first = true;
        let mut backoff = Duration::from_millis(200);
        loop {
            let ended = self.session(&config, &mut alive, std::mem::take(&mut first)).await;
            // A session that listened was a success: the next attempt comes soon.
            let listened = self.listening.swap(false, Ordering::Relaxed);
            match ended {
                Ended::Closed => return,
                Ended::Lost(why) => {
                    if listened {
                        backoff = Duration::from_millis(200);
                    }
                    tracing::warn!(db = %self.shown, error = %why, retry_in = ?backoff,
                        "lost the PostgreSQL change feed; reconnecting");
                    tokio::select! {
                        () = tokio::time::sleep(backoff) => {}
                        () = self.tx.closed() => return,
                    }
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    }

    fn send(&self, change: Change) -> bool {
        self.tx.send(change).is_ok()
    }

    /// One connection's worth of listening.
    async fn session(&self, config: &Config, alive: &mut SystemTime, first: bool) -> Ended {
        let lost = |e: tokio_postgres::Error| Ended::Lost(describe(&e));
        let (client, mut notes) = match self.tls.connect(config).await {
            Ok(c) => c,
            Err(e) => return lost(e),
        };
        if let Err(e) = client.batch_execute(&format!("LISTEN {CHANNEL}; LISTEN {EVENTS}")).await {
            return lost(e);
        }
        let now = match client.query_one("SELECT now()", &[]).await.and_then(|r| r.try_get::<_, SystemTime>(0)) {
            Ok(t) => t,
            Err(e) => return lost(e),
        };
        // Announce what was stored while the feed was not listening (before
        // its first session, or since its last sign of life): the moves, and
        // the clocks (a time that ran out, a seat handed to a bot).
        let since = std::mem::replace(alive, now);
        let missed = client
            .query(
                "SELECT id, moves, clock IS NOT NULL, takeback IS NOT NULL FROM games
                 WHERE stored_at >= $1::timestamptz - make_interval(secs => $2)",
                &[&since, &MISSED_MARGIN_SECS],
            )
            .await;
        let missed = match missed {
            Ok(rows) => rows,
            Err(e) => return lost(e),
        };
        if first {
            tracing::debug!(db = %self.shown, "following PostgreSQL's changes");
        } else {
            tracing::info!(db = %self.shown, games = missed.len(), "the PostgreSQL change feed is back");
        }
        for row in missed {
            if let (Ok(id), Ok(moves)) = (row.try_get::<_, String>(0), row.try_get::<_, i64>(1)) {
                let clock = row.try_get::<_, bool>(2).unwrap_or(true).then(|| Change::Clock { game: id.clone() });
                // Its seats too (one may have been linked to an account).
                let seats = Change::Seats { game: id.clone(), server: String::new() };
                // The move first: a server reads the clocks once caught up.
                // And its takeback request (one granted meanwhile rewinds it).
                let takeback = row.try_get::<_, bool>(3).unwrap_or(true).then(|| Change::Takeback { game: id.clone() });
                let moved = Change::Moved(GameChanged { id, moves: moves.max(0) as usize });
                if !self.send(moved)
                    || clock.is_some_and(|c| !self.send(c))
                    || !self.send(seats)
                    || takeback.is_some_and(|c| !self.send(c))
                {
                    return Ended::Closed;
                }
            }
        }
        // Who is here through each server (players who came or left meanwhile).
        let present = match client.query("SELECT game_id, server, online FROM presence", &[]).await {
            Ok(rows) => rows,
            Err(e) => return lost(e),
        };
        let present = present
            .iter()
            .filter_map(|r| {
                let online = serde_json::from_str(r.try_get::<_, &str>(2).ok()?).ok()?;
                Some((r.try_get(0).ok()?, r.try_get(1).ok()?, online))
            })
            .collect();
        if !self.send(Change::PresenceAll { present }) {
            return Ended::Closed;
        }
        // The lobby's tables are read again (one may have opened or closed meanwhile).
        if !self.send(Change::Lobby { table: String::new() }) {
            return Ended::Closed;
        }
        // And the chat messages written meanwhile: a message reaches the
        // other servers only as news. Told again to the sockets of a game
        // here; a page keeps one message per number, so one it had stays one.
        let from_ms = since.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
            - (MISSED_MARGIN_SECS * 1000.0) as i64;
        let lines = client
            .query(
                "SELECT game_id, seq, seat, author, name, text, at, spectator, account, author_account, kept FROM chat_messages
                 WHERE at >= $1::bigint ORDER BY game_id, seq",
                &[&from_ms],
            )
            .await;
        let lines = match lines {
            Ok(rows) => rows,
            Err(e) => return lost(e),
        };
        for row in lines {
            if let (Ok(game), Ok(message)) = (row.try_get::<_, String>(0), chat_message(&row, 1)) {
                // From no server: every server, the writer's too, tells it.
                let author_account = message.author_account.clone();
                if !self.send(Change::Chat { game, server: String::new(), message, author_account }) {
                    return Ended::Closed;
                }
            }
        }
        // And the games whose chat consent or rematch changed meanwhile.
        let changed = client.query("SELECT game_id FROM after_game_changes WHERE at >= $1::bigint", &[&from_ms]).await;
        let changed = match changed {
            Ok(rows) => rows,
            Err(e) => return lost(e),
        };
        for row in changed {
            if let Ok(game) = row.try_get::<_, String>(0) {
                if !self.send(Change::Rematch { game, server: String::new() }) {
                    return Ended::Closed;
                }
            }
        }
        self.listening.store(true, Ordering::Relaxed);
        let mut beat = tokio::time::interval(FEED_HEARTBEAT);
        beat.tick().await;
        loop {
            tokio::select! {
                note = notes.recv() => {
                    let Some(note) = note else { return Ended::Lost("the connection closed".into()) };
                    match read_note(&note) {
                        Some(change) => {
                            if !self.send(change) {
                                return Ended::Closed;
                            }
                        }
                        None => tracing::warn!(channel = note.channel(), payload = note.payload(), "an unreadable notice"),
                    }
                }
                _ = beat.tick() => {
                    // A connection that died quietly shows up here.
                    match client.query_one("SELECT now()", &[]).await.and_then(|r| r.try_get::<_, SystemTime>(0)) {
                        Ok(t) => *alive = t,
                        Err(e) => return lost(e),
                    }
                }
                () = self.tx.closed() => return Ended::Closed,
            }
        }
    }
}

/// A notification read: a move (`"<game id>:<moves>"` on [`CHANNEL`]) or
/// other news (JSON on [`EVENTS`]).
fn read_note(note: &Notification) -> Option<Change> {
    if note.channel() == EVENTS {
        return serde_json::from_str(note.payload()).ok();
    }
    let (id, moves) = parse_note(note.payload())?;
    Some(Change::Moved(GameChanged { id, moves }))
}

/// A notification's payload: `"<game id>:<moves>"`.
fn parse_note(payload: &str) -> Option<(String, usize)> {
    let (id, moves) = payload.rsplit_once(':')?;
    Some((id.to_string(), moves.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_are_read_and_junk_is_not() {
        assert_eq!(parse_note("abc:12"), Some(("abc".into(), 12)));
        assert_eq!(parse_note("abc"), None);
        assert_eq!(parse_note("abc:-1"), None);
        assert_eq!(parse_note("abc:x"), None);
    }
}
