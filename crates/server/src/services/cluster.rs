//! Servers sharing a PostgreSQL database: the changes the others made, the
//! heartbeats (who is alive, whose bots to drive), who is here and which
//! bot thinks, on every server.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use carcassonne::PlayerId;

use super::bots::Bots;
use super::chat::Chat;
use super::clocks::Clocks;
use super::games::Games;
use super::lobby::Lobby;
use super::takebacks::Takebacks;
use crate::store::{Beat, Change, ClusterRepo, GameChanged, Store, BEAT_EVERY};

/// The services told the other servers' news.
pub struct Told {
    pub games: Arc<Games>,
    pub bots: Arc<Bots>,
    pub clocks: Arc<Clocks>,
    pub takebacks: Arc<Takebacks>,
    pub chat: Arc<Chat>,
    pub lobby: Arc<Lobby>,
}

/// This server among those sharing the storage.
pub struct Cluster {
    repo: Arc<dyn ClusterRepo>,
    games: Arc<Games>,
    bots: Arc<Bots>,
    clocks: Arc<Clocks>,
    takebacks: Arc<Takebacks>,
    chat: Arc<Chat>,
    lobby: Arc<Lobby>,
    /// Set once this server leaves the others (it is stopping).
    left: Arc<AtomicBool>,
}

impl Cluster {
    pub fn new(store: &Store, told: Told, left: Arc<AtomicBool>) -> Cluster {
        let Told { games, bots, clocks, takebacks, chat, lobby } = told;
        Cluster { repo: Arc::clone(&store.cluster), games, bots, clocks, takebacks, chat, lobby, left }
    }

    /// Starts following the other servers' changes, and the heartbeats.
    pub fn start(self: &Arc<Self>) {
        self.follow_changes();
        self.beat_now_and_then();
    }

    /// Follows the storage's news from the other servers sharing it (a
    /// PostgreSQL database): a game in play here catches up with a move
    /// stored elsewhere, and learns who is online and which bot is thinking
    /// there; its viewers are told, whichever news it was.
    fn follow_changes(self: &Arc<Self>) {
        let Some(mut rx) = self.repo.changes() else { return };
        let weak: Weak<Cluster> = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(change) = rx.recv().await {
                let Some(cluster) = weak.upgrade() else { return };
                cluster.learn(change).await;
            }
        });
    }

    async fn learn(&self, change: Change) {
        let me = self.repo.server().unwrap_or_default();
        match change {
            Change::Moved(GameChanged { id, moves }) => {
                let Some(live) = self.games.in_memory(&id) else { return };
                let mut t = live.lock().await;
                if (t.game.moves_played() as usize) < moves {
                    if let Err(e) = self.games.catch_up(&live, &mut t).await {
                        tracing::error!(game = %id, error = %e, "cannot catch up with the storage");
                    } else if t.clock.is_some() {
                        // The clocks as stored with those moves, at once (their
                        // own news may come later: after a feed's look back,
                        // always).
                        self.games.load_clock_into(&id, &mut t).await;
                    }
                }
                drop(t);
                self.bots.kick(&live);
            }
            Change::Presence { game, server, online } if server != me => {
                let Some(live) = self.games.in_memory(&game) else { return };
                let mut t = live.lock().await;
                if online.iter().all(|n| *n == 0) {
                    t.remote_online.remove(&server);
                } else {
                    t.remote_online.insert(server, online);
                }
                drop(t);
                live.changed();
            }
            Change::PresenceAll { present } => self.presence_now(present, me).await,
            Change::Thinking { game, server, version, seat } if server != me => {
                let Some(live) = self.games.in_memory(&game) else { return };
                let mut t = live.lock().await;
                match seat {
                    Some(seat) => t.remote_thinking = Some((server, PlayerId(seat), version)),
                    None => {
                        t.remote_thinking.take_if(|t| t.0 == server);
                    }
                }
                drop(t);
                live.changed();
            }
            Change::Gone { server } if server != me => self.forget_server(&server).await,
            Change::Chat { ref server, .. } | Change::Rematch { ref server, .. } if *server != me => {
                self.chat.learn(change).await;
            }
            Change::Chat { .. } | Change::Rematch { .. } => {}
            Change::Seats { game, server } if server != me => self.games.reload_seats(&game).await,
            Change::Seats { .. } => {}
            Change::Clock { game } => self.clocks.changed(&game).await,
            Change::Takeback { game } => self.takebacks.changed(&game).await,
            Change::Lobby { .. } => self.lobby.heard(),
            Change::Presence { .. } | Change::Thinking { .. } | Change::Gone { .. } => {}
        }
    }

    /// Who is here through the other servers, on every game held here, as
    /// `present` says (`(game, server, online)`, this server's own rows
    /// left out): the presence news missed while the change feed was away.
    async fn presence_now(&self, present: Vec<(String, String, Vec<u32>)>, me: &str) {
        let mut by_game: HashMap<String, HashMap<String, Vec<u32>>> = HashMap::new();
        for (game, server, online) in present {
            if server != me && online.iter().any(|n| *n > 0) {
                by_game.entry(game).or_default().insert(server, online);
            }
        }
        let games = self.games.all();
        for live in games {
            let now = by_game.remove(&live.id).unwrap_or_default();
            let mut t = live.lock().await;
            if t.remote_online != now {
                t.remote_online = now;
                drop(t);
                live.changed();
            }
        }
    }

    /// Server `server` stopped: its players are offline and its bots no
    /// longer thinking, on every game here.
    async fn forget_server(&self, server: &str) {
        let games = self.games.all();
        for live in games {
            if live.lock().await.forget_server(server) {
                live.changed();
            }
        }
    }

    /// Says this server is alive a few times a second, while it shares its
    /// storage with others: learns which servers died (their players go
    /// offline here) and drives the bots their deaths orphaned.
    fn beat_now_and_then(self: &Arc<Self>) {
        if self.repo.server().is_none() {
            return;
        }
        let weak: Weak<Cluster> = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(BEAT_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut servers: Vec<String> = Vec::new();
            let mut failing = false;
            loop {
                every.tick().await;
                let Some(cluster) = weak.upgrade() else { return };
                if cluster.left.load(Ordering::Relaxed) {
                    return;
                }
                match cluster.repo.beat().await {
                    Ok(beat) => {
                        if std::mem::take(&mut failing) {
                            tracing::info!("heartbeats reach the database again");
                        }
                        cluster.after_beat(beat, &mut servers).await;
                    }
                    Err(e) => {
                        if !std::mem::replace(&mut failing, true) {
                            tracing::error!(error = %e, "cannot say this server is alive");
                        }
                    }
                }
            }
        });
    }

    async fn after_beat(&self, beat: Beat, servers: &mut Vec<String>) {
        for gone in servers.iter().filter(|s| !beat.servers.contains(s)) {
            self.forget_server(gone).await;
        }
        *servers = beat.servers;
        if beat.rejoined {
            // Taken for dead meanwhile: who is here through this server was forgotten.
            let games = self.games.all();
            for live in games {
                let online = live.lock().await.online.clone();
                if online.iter().any(|n| *n > 0) {
                    self.games.publish_presence(&live, online).await;
                }
            }
        }
        for id in beat.claimed {
            match self.games.game(&id).await {
                Ok(live) => {
                    tracing::info!(game = %id, "driving the bots of a game whose server stopped");
                    self.bots.kick(&live);
                }
                Err(e) => {
                    tracing::error!(game = %id, error = %e, "cannot drive the bots of a game");
                    let _ = self.repo.release_bots(&id).await;
                }
            }
        }
    }

    /// This server stops: it stops beating, and the other servers sharing
    /// the storage are told at once (its bots go to them, its players offline).
    pub async fn leave(&self) {
        self.left.store(true, Ordering::Relaxed);
        if self.repo.server().is_none() {
            return;
        }
        match tokio::time::timeout(Duration::from_secs(2), self.repo.leave()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!(error = %e, "cannot tell the other servers this one stops"),
            Err(_) => tracing::warn!("the database did not hear that this server stops"),
        }
    }
}
