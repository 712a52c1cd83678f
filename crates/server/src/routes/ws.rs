//! A game's websocket: the viewer's state, then each change (`crate::wire`);
//! moves in, errors out.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::response::Response;

use super::common::{query_list, tokens, viewer_of, DirectLimiter, MAX_WS_MESSAGE, WS_READ_BUFFER};
use crate::error::ApiError;
use crate::listen::{client_ip, until_set, Class, Connections, Slot};
use crate::services::chat::{not_hidden, visible, ChatEvent, Member, Speaker};
use crate::services::games::{Live, Viewer};
use crate::services::quotas::Spender;
use crate::services::AppState;
use crate::wire::{ClientMessage, Follower, ServerMessage};

pub(super) async fn websocket(
    State(app): State<AppState>,
    State(conns): State<Arc<Connections>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    request: axum::http::request::Parts,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if !super::session::origin_allowed(&request.headers, &app.config().allowed_origins) {
        return Err(ApiError::ForbiddenOrigin);
    }
    let protocol = match query_list(&query, "protocol").first().map(String::as_str) {
        None | Some("1") => 1,
        Some("2") => 2,
        Some(other) => return Err(ApiError::BadRequest(format!("protocol {other} is not spoken here (1 or 2)"))),
    };
    let tokens = tokens(&query)?;
    let browser = super::chat::spectator_token(&query)?;
    let live = app.games.game(&id).await?;
    let viewer = viewer_of(&live, &tokens).await?;
    // A seat holder's websocket counts among the address's connections but
    // not its spectators' websockets: players behind one address with a
    // crowd still connect (their seats' places bound them, `SEAT_SOCKETS`).
    let spectator = viewer.seats.is_empty();
    let slot = conns.admit(client_ip(&request.extensions), spectator).map_err(ApiError::Busy)?;
    let c = app.config();
    let key = super::common::client_key(&request.extensions, c);
    let signed_in = super::session::signed_in(&request, &app).await.ok().map(|(a, _)| a);
    let history = match &signed_in {
        Some(a) => app.histories.of(&a.id, a.created_at).await,
        None => false,
    };
    // When the server is full, a newcomer may displace the spectator idle
    // longest; a seat holder's socket never: a person with a history's at
    // all, another's within its address's share and the crowd's three
    // quarters (`listen::HELD_PER_ADDRESS`, `Connections::held_cap`; past
    // them, it gives way as a spectator's).
    slot.set_class(match (spectator, history) {
        (true, _) => Class::Idle,
        (false, true) => Class::Kept,
        (false, false) => Class::Held,
    });
    // A spectator with a history may take a place kept for such people.
    let known = match &signed_in {
        Some(a) if spectator && history => Some(a.id.as_str()),
        _ => None,
    };
    let place = live
        .take_socket_place(&viewer, key, known, c.max_sockets_per_game, c.max_spectators_per_ip_per_game)
        .map_err(ApiError::Busy)?;
    // A spectator writes in the chat under their account's name, if signed
    // in; else as the spectator their address or browser's token names.
    // Whoever is signed in is not sent the lines of the accounts they block.
    let reader = signed_in.as_ref().map(|a| a.id.clone());
    // A rematch accepted here spends a known account's new games, else its address's.
    let spender = super::common::spender_of(signed_in.as_ref(), history, key);
    let account = signed_in.filter(|_| spectator).map(|a| Member { id: a.id, name: a.name });
    let client = Client { speaker: Speaker::of(&viewer, key, account, browser), reader, spender };
    let ws = ws.max_message_size(MAX_WS_MESSAGE).max_frame_size(MAX_WS_MESSAGE).read_buffer_size(WS_READ_BUFFER);
    Ok(ws.on_upgrade(move |socket| async move {
        let _held = place;
        ws_session(app, live, viewer, client, protocol, &slot, socket).await;
    }))
}

/// Who is at the other end of a socket: who writes in the chat as them,
/// who reads, and whose quotas they spend.
struct Client {
    speaker: Speaker,
    /// The signed-in account reading (its id), if any.
    reader: Option<String>,
    /// Whose new games a rematch accepted here spends.
    spender: Spender,
}

/// What ends a socket besides its client: the server stopping, or a
/// newcomer displacing it (`crate::listen`).
struct Ends<'a> {
    stopping: tokio::sync::watch::Receiver<bool>,
    slot: &'a Slot,
}

/// A socket sending this many messages over its rate, with no calm spell
/// of [`STRIKES_FORGOTTEN`] between them, is closed.
const STRIKES: u32 = 100;
const STRIKES_FORGOTTEN: std::time::Duration = std::time::Duration::from_secs(5);

fn error_message(e: &ApiError) -> Message {
    ServerMessage::Error(e.body()).frame()
}

/// One websocket: the viewer's state, then each change (in the protocol
/// the client asked for, `crate::wire`); moves in, errors out.
async fn ws_session(
    app: AppState,
    live: Arc<Live>,
    viewer: Viewer,
    client: Client,
    protocol: u8,
    slot: &Slot,
    mut socket: WebSocket,
) {
    app.games.presence(&live, &viewer, true).await;
    let mut chat = Some(app.chat.rooms().subscribe(&live.id));
    app.push.notify_invite_taken(&live, &viewer).await;
    // A player back at their game takes their seats back from the bots
    // standing in for them (services/clocks.rs).
    if let Err(e) = app.clocks.take_back(&live, &viewer).await {
        tracing::warn!(game = %live.id, error = %e, "cannot give a player their seat back");
    }
    let mut changes = live.subscribe();
    changes.mark_unchanged();
    let mut follower = Follower::new(protocol);
    if socket.send(follower.full(&live, &viewer).await).await.is_ok() {
        let mut ends = Ends { stopping: app.stopping(), slot };
        let mut talk = Talk { client, chat: &mut chat };
        ws_loop(&app, &live, &viewer, &mut socket, &mut changes, &mut follower, &mut ends, &mut talk).await;
    }
    app.games.presence(&live, &viewer, false).await;
}

/// A socket's chat: who writes through it, and the game's chat room.
struct Talk<'a> {
    client: Client,
    chat: &'a mut Option<tokio::sync::broadcast::Receiver<ChatEvent>>,
}

/// The next event of the game's chat room (never, once it is gone).
async fn next_event(
    chat: &mut Option<tokio::sync::broadcast::Receiver<ChatEvent>>,
) -> Result<ChatEvent, tokio::sync::broadcast::error::RecvError> {
    match chat.as_mut() {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// What a viewer is told of a chat event, if anything: players do not read
/// the spectators' chat while the game is in play, and nobody the lines of
/// an account they block.
async fn chat_frame(
    app: &AppState,
    live: &Live,
    viewer: &Viewer,
    reader: Option<&str>,
    event: &ChatEvent,
) -> Option<Message> {
    match event {
        ChatEvent::Message(m) => {
            let player = !viewer.seats.is_empty();
            let finished = player && m.seat.is_none() && live.lock().await.finished();
            if m.author_account.is_some() && !not_hidden(m, &*app.chat.hidden_for(reader).await) {
                return None;
            }
            visible(m, player, finished).then(|| ServerMessage::Chat { message: m }.frame())
        }
        ChatEvent::After(after) => Some(ServerMessage::Rematch(after).frame()),
    }
}

#[allow(clippy::too_many_arguments)]
async fn ws_loop(
    app: &AppState,
    live: &Arc<Live>,
    viewer: &Viewer,
    socket: &mut WebSocket,
    changes: &mut tokio::sync::watch::Receiver<u64>,
    follower: &mut Follower,
    ends: &mut Ends<'_>,
    talk: &mut Talk<'_>,
) {
    let limiter: Option<DirectLimiter> = app.config().ws_rate.map(|r| governor::RateLimiter::direct(r.quota()));
    // A socket that died silently (a phone asleep, a lost network) would
    // keep its seat "online": ping it, and give up on it when nothing comes
    // back. Browsers answer pings by themselves.
    let ping_every = app.config().ws_ping;
    let mut heartbeat = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_heard = tokio::time::Instant::now();
    let mut strikes = 0u32;
    let mut last_strike = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = until_set(&mut ends.stopping) => {
                let bye = axum::extract::ws::CloseFrame { code: 1001, reason: "the server is stopping".into() };
                let _ = socket.send(Message::Close(Some(bye))).await;
                break;
            }
            () = ends.slot.displaced() => {
                // The server is full and this spectator was idle longest.
                let bye = axum::extract::ws::CloseFrame { code: 1013, reason: "the server is full; try again later".into() };
                let _ = socket.send(Message::Close(Some(bye))).await;
                break;
            }
            _ = heartbeat.tick() => {
                if last_heard.elapsed() > ping_every * 3
                    || socket.send(Message::Ping(Bytes::from_static(b"carcassonne"))).await.is_err()
                {
                    break;
                }
            }
            msg = socket.recv() => {
                last_heard = tokio::time::Instant::now();
                if matches!(msg, Some(Ok(Message::Text(_) | Message::Binary(_)))) {
                    // A message of its own: not idle (pongs are the browser's).
                    ends.slot.touch();
                }
                let over = |m: &Option<Result<Message, axum::Error>>| {
                    matches!(m, Some(Ok(Message::Text(_) | Message::Binary(_))))
                        && limiter.as_ref().is_some_and(|l| l.check().is_err())
                };
                let limited = over(&msg);
                if limited {
                    // Refusals count until the socket has been calm for a while.
                    if last_strike.elapsed() > STRIKES_FORGOTTEN {
                        strikes = 0;
                    }
                    strikes += 1;
                    last_strike = tokio::time::Instant::now();
                }
                if strikes > STRIKES {
                    let bye = axum::extract::ws::CloseFrame { code: 1008, reason: "too many messages".into() };
                    let _ = socket.send(Message::Close(Some(bye))).await;
                    break;
                }
                let reply = match msg {
                    _ if limited => Reply::Error(ApiError::RateLimited),
                    Some(Ok(Message::Text(text))) => ws_command(app, live, viewer, &talk.client, text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => Reply::Error(ApiError::BadRequest("messages are JSON text".into())),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => Reply::Nothing, // ping/pong: answered by the library
                };
                let sent = match reply {
                    Reply::Nothing => Ok(()),
                    Reply::State => socket.send(follower.full(live, viewer).await).await,
                    // The error alone: a refusal costs the server next to
                    // nothing. A client that needs the state asks (`sync`).
                    Reply::Error(e) => socket.send(error_message(&e)).await,
                    Reply::Frame(frame) => socket.send(frame).await,
                };
                if sent.is_err() {
                    break;
                }
            }
            event = next_event(talk.chat) => {
                let frame = match event {
                    Ok(event) => chat_frame(app, live, viewer, talk.client.reader.as_deref(), &event).await,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => None,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => {
                        *talk.chat = None;
                        None
                    }
                };
                if let Some(frame) = frame {
                    if socket.send(frame).await.is_err() {
                        break;
                    }
                }
            }
            changed = changes.changed() => {
                if changed.is_err() {
                    break;
                }
                if let Some(message) = follower.next(live, viewer).await {
                    if socket.send(message).await.is_err() {
                        break;
                    }
                }
            }
        }
    }
}

/// What to answer a client's message with.
enum Reply {
    /// Nothing now (a move that was played shows up as the next state).
    Nothing,
    /// The state as it is.
    State,
    /// A refusal (the client asks for the state if it needs it).
    Error(ApiError),
    /// A message for this socket alone (a rematch's tokens).
    Frame(Message),
}

/// Handles one client message: `{"type": "move", "version": …, "tile": …}`
/// or `{"type": "sync"}`.
async fn ws_command(app: &AppState, live: &Arc<Live>, viewer: &Viewer, client: &Client, text: &str) -> Reply {
    match serde_json::from_str::<ClientMessage>(text) {
        Ok(ClientMessage::Move(req)) => match app.games.play(live, viewer, &req).await {
            Ok(()) => Reply::Nothing,
            Err(e) => Reply::Error(e),
        },
        Ok(ClientMessage::Sync) => Reply::State,
        Ok(
            m @ (ClientMessage::Resign { .. }
            | ClientMessage::Leave { .. }
            | ClientMessage::Abort
            | ClientMessage::Finish),
        ) => {
            let Some(ending) = m.ending() else { return Reply::Nothing };
            match app.clocks.end(live, viewer, ending).await {
                Ok(()) => Reply::Nothing,
                Err(e) => Reply::Error(e),
            }
        }
        // The request and its answers come back in the state.
        Ok(ClientMessage::Takeback) => match app.takebacks.ask(live, viewer).await {
            Ok(()) => Reply::Nothing,
            Err(e) => Reply::Error(e),
        },
        Ok(ClientMessage::TakebackAnswer { accept }) => match app.takebacks.answer(live, viewer, accept).await {
            Ok(()) => Reply::Nothing,
            Err(e) => Reply::Error(e),
        },
        // The message comes back through the chat room, to this socket too.
        Ok(ClientMessage::Chat { text }) => match app.chat.say(live, &client.speaker, &text).await {
            Ok(_) => Reply::Nothing,
            Err(e) => Reply::Error(e),
        },
        Ok(ClientMessage::Rematch) => match app.rematches.accept(live, viewer, Some(client.spender.clone())).await {
            Ok(accepted) => {
                let tokens = accepted
                    .tokens
                    .iter()
                    .map(|(seat, token)| serde_json::json!({ "seat": seat.0, "token": token }))
                    .collect();
                Reply::Frame(ServerMessage::Accepted { tokens, after: &accepted.after }.frame())
            }
            Err(e) => Reply::Error(e),
        },
        Err(e) => Reply::Error(ApiError::BadRequest(format!("malformed message: {e}"))),
    }
}
