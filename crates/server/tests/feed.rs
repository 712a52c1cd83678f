//! News from the storage's change feed (another server sharing the games)
//! reaching a game whose bot is thinking here: once the other server's move
//! is caught up, the viewers here see the turn as it is, not the bot
//! thinking for ever. The feed is driven by hand through a store wrapper.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use carcassonne::record::RecordMove;
use carcassonne_server::{
    rebuild, serve_until, AppState, Beat, Change, ClusterRepo, Config, Feed, GameChanged, Progress, Store, StoreError,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio_tungstenite::tungstenite::Message;

/// The cluster of a SQLite store whose change feed the test writes, and
/// whose health it sets.
struct FedStore {
    inner: Store,
    feed: Mutex<Option<UnboundedReceiver<Change>>>,
    store_up: AtomicBool,
    feed_up: AtomicBool,
}

impl FedStore {
    /// The store, with this cluster in it.
    fn new(feed: UnboundedReceiver<Change>) -> (Store, Arc<FedStore>) {
        let inner = Store::in_memory().unwrap();
        let fed = Arc::new(FedStore {
            inner: inner.clone(),
            feed: Mutex::new(Some(feed)),
            store_up: AtomicBool::new(true),
            feed_up: AtomicBool::new(true),
        });
        (Store { cluster: fed.clone(), ..inner }, fed)
    }
}

#[async_trait::async_trait]
impl ClusterRepo for FedStore {
    fn changes(&self) -> Option<UnboundedReceiver<Change>> {
        self.feed.lock().unwrap().take()
    }
    async fn health(&self) -> Result<(), StoreError> {
        if self.store_up.load(Ordering::Relaxed) {
            self.inner.cluster.health().await
        } else {
            Err(StoreError::failed("the database is down"))
        }
    }
    fn feed(&self) -> Feed {
        if self.feed_up.load(Ordering::Relaxed) {
            Feed::Up
        } else {
            Feed::Down
        }
    }
    fn server(&self) -> Option<&str> {
        None
    }
    async fn claim_bots(&self, id: &str) -> Result<bool, StoreError> {
        self.inner.cluster.claim_bots(id).await
    }
    async fn release_bots(&self, id: &str) -> Result<(), StoreError> {
        self.inner.cluster.release_bots(id).await
    }
    async fn publish(&self, change: &Change) -> Result<(), StoreError> {
        self.inner.cluster.publish(change).await
    }
    async fn presence(&self, id: &str) -> Result<Vec<(String, Vec<u32>)>, StoreError> {
        self.inner.cluster.presence(id).await
    }
    async fn beat(&self) -> Result<Beat, StoreError> {
        self.inner.cluster.beat().await
    }
    async fn leave(&self) -> Result<(), StoreError> {
        self.inner.cluster.leave().await
    }
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn state_where(ws: &mut Socket, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let wait = async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    if v["type"] == "state" && done(&v["state"]) {
                        return v["state"].clone();
                    }
                }
                Some(Ok(_)) => {}
                other => panic!("the socket ended: {other:?}"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(5), wait).await.unwrap_or_else(|_| panic!("no state where {what}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_caught_up_while_the_bot_thinks_does_not_leave_it_thinking() {
    let (news, feed): (UnboundedSender<Change>, _) = unbounded_channel();
    let (store, _) = FedStore::new(feed);
    // The bot takes a second over each move: time for "another server" to move first.
    let config = Config { bot_delay: Duration::from_millis(1000), ..Config::quick() };
    let state = AppState::new(store.clone(), config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_until(listener, state.clone(), std::future::pending()));

    let app = carcassonne_server::app(state);
    let form = json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "bot", "level": "random" } ] });
    let (id, tokens, first) = common::create(&app, form).await;
    let token = tokens[0].clone().unwrap();
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token={token}")).await.unwrap();
    state_where(&mut ws, "the game begins", |s| s["version"] == 0).await;

    let mut mv = common::pick_move(&first, 0, false);
    mv["type"] = "move".into();
    ws.send(Message::Text(mv.to_string().into())).await.unwrap();
    state_where(&mut ws, "the bot thinks", |s| s["version"] == 1 && s["thinking"] == 1).await;

    // Another server stores the bot's move and announces it.
    let stored = store.games.load(&id).await.unwrap().unwrap();
    let game = rebuild(&stored.record, stored.live_seed).unwrap();
    let bot_move = game.legal_moves()[0];
    let mut after = game.clone();
    after.play(&bot_move).unwrap();
    let progress = Progress {
        finished: after.is_over(),
        scores: after.scores().to_vec(),
        to_move: after.to_move().map(|p| p.0),
        winners: vec![],
        at: 1,
        bot_turn: false,
        aborted: false,
    };
    store.games.append_move(&id, 1, &RecordMove::from_move(&bot_move), &progress).await.unwrap();
    news.send(Change::Moved(GameChanged { id: id.clone(), moves: 2 })).unwrap();

    // The page here ends up with Ada to move and her legal moves, not the
    // bot thinking.
    let s = state_where(&mut ws, "Ada is to move again", |s| {
        s["version"] == 2 && s["thinking"].is_null() && !s["legal"].is_null()
    })
    .await;
    assert_eq!(s["turn"]["seat"], 0);
    // The bot's own thought was dropped: the move is stored once.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(store.games.load(&id).await.unwrap().unwrap().record.moves.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_fails_while_the_storage_or_the_change_feed_is_down() {
    let (_news, feed) = unbounded_channel();
    let (store, fed) = FedStore::new(feed);
    let app = carcassonne_server::app(AppState::new(store, Config::quick()));
    let health = || async { common::call(&app, "GET", "/api/health", None).await };
    let (status, v) = health().await;
    assert_eq!((status.as_u16(), v), (200, json!({ "ok": true, "store": "up", "feed": "up" })));
    fed.feed_up.store(false, Ordering::Relaxed);
    let (status, v) = health().await;
    assert_eq!((status.as_u16(), v), (503, json!({ "ok": false, "store": "up", "feed": "down" })));
    fed.store_up.store(false, Ordering::Relaxed);
    let (status, v) = health().await;
    assert_eq!((status.as_u16(), v), (503, json!({ "ok": false, "store": "down", "feed": "down" })));
    fed.feed_up.store(true, Ordering::Relaxed);
    fed.store_up.store(true, Ordering::Relaxed);
    assert_eq!(health().await.0.as_u16(), 200, "healthy again once both are back");
}
