//! Blocking and reporting end to end (docs/web.md, *Blocking and
//! reporting*), on a server of its own over SQLite and (with
//! `CARCASSONNE_TEST_POSTGRES`) PostgreSQL: a block hides the blocked
//! account's chat lines from the blocker (over HTTP and the game's
//! websocket, and from another server sharing PostgreSQL), keeps the two
//! apart in Play now and at lobby tables; reports are kept once, bounded
//! and rate limited; the operator's mute, rename and close (the service
//! `carcassonne admin` drives). Every refusal with its code, nothing changed.

mod common;
mod lobby_socket;

use std::net::SocketAddr;
use std::time::Duration;

use common::pg::{server_url, Schema};
use futures_util::StreamExt;
use lobby_socket::{config, connect_from, http, refusal, seated, Node, Page, SOON};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// A request from `from` with the session `cookie` (if any): status and body.
async fn ask(
    node: &Node,
    from: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
    cookie: Option<&str>,
) -> (u16, Value) {
    let (s, _, v) = http(node.addr, from, method, path, body.as_ref(), cookie).await;
    (s, v)
}

fn code(v: &(u16, Value)) -> (u16, &str) {
    (v.0, v.1["error"].as_str().unwrap_or("?"))
}

/// A game of two people nobody plays (its chat is what counts): its id and tokens.
async fn a_game(node: &Node) -> (String, String, String) {
    let body = json!({ "seats": [ { "kind": "human", "name": "P1" }, { "kind": "human", "name": "P2" } ] });
    let (s, v) = node.post("/api/games", body).await;
    assert_eq!(s, 201, "{v}");
    let token = |i: usize| v["tokens"][i]["token"].as_str().unwrap().to_string();
    (v["id"].as_str().unwrap().to_string(), token(0), token(1))
}

/// A line said in game `game`'s chat by a spectator from `from` (signed in with `cookie`): its number.
async fn say(node: &Node, from: &str, game: &str, text: &str, cookie: Option<&str>) -> u64 {
    let v = ask(node, from, "POST", &format!("/api/games/{game}/chat"), Some(json!({ "text": text })), cookie).await;
    assert_eq!(v.0, 200, "{}", v.1);
    v.1["message"]["seq"].as_u64().unwrap()
}

/// The texts of game `game`'s chat as a spectator with `cookie` reads it.
async fn read(node: &Node, game: &str, cookie: Option<&str>) -> Vec<String> {
    let v = ask(node, "127.0.0.9", "GET", &format!("/api/games/{game}/chat"), None, cookie).await;
    assert_eq!(v.0, 200, "{}", v.1);
    v.1["messages"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap().to_string()).collect()
}

/// A spectator's websocket on game `game` of the server at `addr`, signed in with `cookie`.
async fn game_socket(
    addr: SocketAddr,
    game: &str,
    cookie: &str,
) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    let mut request = format!("ws://{addr}/api/games/{game}/ws").into_client_request().unwrap();
    request.headers_mut().insert("cookie", format!("carcassonne_session={cookie}").parse().unwrap());
    let stream = connect_from("127.0.0.8", addr).await;
    tokio_tungstenite::client_async(request, stream).await.unwrap().0
}

/// The chat lines a socket is sent within `within`.
async fn lines_on(ws: &mut tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>, within: Duration) -> Vec<String> {
    let mut out = Vec::new();
    let deadline = tokio::time::Instant::now() + within;
    while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(deadline, ws.next()).await {
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "chat" {
                out.push(v["message"]["text"].as_str().unwrap().to_string());
            }
        }
    }
    out
}

async fn block(node: &Node, cookie: &str, body: Value) -> (u16, Value) {
    ask(node, "127.0.0.2", "POST", "/api/account/blocks", Some(body), Some(cookie)).await
}

async fn blocked_names(node: &Node, cookie: &str) -> Vec<String> {
    let v = ask(node, "127.0.0.2", "GET", "/api/account/blocks", None, Some(cookie)).await;
    assert_eq!(v.0, 200, "{}", v.1);
    v.1["blocks"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap().to_string()).collect()
}

async fn blocks_hide_chat_and_keep_people_apart(node: Node) {
    let ada = node.sign_up("127.0.0.2", "Ada").await;
    let bob = node.sign_up("127.0.0.3", "Bob").await;
    let cy = node.sign_up("127.0.0.4", "Cy").await;
    let dee = node.sign_up("127.0.0.5", "Dee").await;

    // Refusals change nothing.
    assert_eq!(code(&block(&node, &ada, json!({"name": "Ada"})).await), (422, "cannot_block_self"));
    assert_eq!(code(&block(&node, &ada, json!({"name": "Nobody"})).await), (404, "not_found"));
    assert_eq!(code(&block(&node, &ada, json!({"name": "Bob", "game": "x", "seq": 1})).await), (400, "bad_request"));
    assert_eq!(code(&block(&node, &ada, json!({"who": "Bob"})).await), (400, "bad_request"));
    let guest = ask(&node, "127.0.0.2", "POST", "/api/account/blocks", Some(json!({"name": "Bob"})), None).await;
    assert_eq!(code(&guest), (401, "not_signed_in"));
    assert!(blocked_names(&node, &ada).await.is_empty());

    // Ada blocks Bob (by any spelling of his name).
    let v = block(&node, &ada, json!({"name": "BOB"})).await;
    assert_eq!((v.0, v.1["blocked"].as_str()), (200, Some("Bob")), "{}", v.1);
    assert_eq!(block(&node, &ada, json!({"name": "Bob"})).await.0, 200, "again: nothing new");
    assert_eq!(blocked_names(&node, &ada).await, ["Bob"]);
    assert!(blocked_names(&node, &bob).await.is_empty(), "one way");

    // Chat: Bob's lines are not sent to Ada, over HTTP or her socket.
    let (game, _, _) = a_game(&node).await;
    let mut ada_ws = game_socket(node.addr, &game, &ada).await;
    let mut cy_ws = game_socket(node.addr, &game, &cy).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    say(&node, "127.0.0.3", &game, "from Bob", Some(&bob)).await;
    let cy_line = say(&node, "127.0.0.4", &game, "from Cy", Some(&cy)).await;
    let guest_line = say(&node, "127.0.0.6", &game, "from a guest", None).await;
    assert_eq!(lines_on(&mut ada_ws, Duration::from_millis(800)).await, ["from Cy", "from a guest"]);
    assert_eq!(lines_on(&mut cy_ws, Duration::from_millis(300)).await, ["from Bob", "from Cy", "from a guest"]);
    assert_eq!(read(&node, &game, Some(&ada)).await, ["from Cy", "from a guest"]);
    assert_eq!(read(&node, &game, None).await, ["from Bob", "from Cy", "from a guest"], "others read it all");
    let all = ask(&node, "127.0.0.9", "GET", &format!("/api/games/{game}/chat"), None, None).await.1;
    let members: Vec<bool> = all["messages"].as_array().unwrap().iter().map(|m| m["member"] == true).collect();
    assert_eq!(members, [true, true, false], "whose lines can be blocked");
    assert!(!all.to_string().contains("author_account"), "no account's id is sent");

    // A chat line's author blocked; a guest's line cannot be.
    let v = block(&node, &ada, json!({"game": game, "seq": cy_line})).await;
    assert_eq!((v.0, v.1["blocked"].as_str()), (200, Some("Cy")), "{}", v.1);
    assert_eq!(code(&block(&node, &ada, json!({"game": game, "seq": guest_line})).await), (422, "not_a_member"));
    assert_eq!(code(&block(&node, &ada, json!({"game": game, "seq": 99})).await), (404, "not_found"));
    assert_eq!(read(&node, &game, Some(&ada)).await, ["from a guest"]);
    assert_eq!(blocked_names(&node, &ada).await.len(), 2);
    // Unblocked: seen again at once.
    let v = ask(&node, "127.0.0.2", "POST", "/api/account/unblock", Some(json!({"name": "Cy"})), Some(&ada)).await;
    assert_eq!((v.0, v.1["unblocked"].as_str()), (200, Some("Cy")));
    assert_eq!(read(&node, &game, Some(&ada)).await, ["from Cy", "from a guest"]);
    say(&node, "127.0.0.4", &game, "Cy again", Some(&cy)).await;
    assert_eq!(lines_on(&mut ada_ws, Duration::from_millis(500)).await, ["Cy again"]);

    // Lobby tables: neither sits with the other, whoever hosts.
    let mut ada_page = Page::open(&node, "127.0.0.2", None, Some(&ada)).await;
    let mut bob_page = Page::open(&node, "127.0.0.3", None, Some(&bob)).await;
    let mut dee_page = Page::open(&node, "127.0.0.5", None, Some(&dee)).await;
    let seats = json!([{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]);
    let (table, _) = seated(&ada_page.open_table(json!({ "seats": seats })).await);
    assert_eq!(refusal(&bob_page.sit(&table, 1, None).await), "blocked");
    let free = node.get(&format!("/api/lobby/tables/{table}")).await.1["free"].clone();
    assert_eq!(free, 2, "nothing changed");
    seated(&dee_page.sit(&table, 1, None).await);
    let (bobs, _) = seated(&bob_page.open_table(json!({ "seats": seats })).await);
    let mut ada_again = Page::open(&node, "127.0.0.2", None, Some(&ada)).await;
    assert_eq!(refusal(&ada_again.sit(&bobs, 1, None).await), "blocked", "the blocker at the blocked's table");
    drop((ada_page, dee_page, bob_page, ada_again));

    // Play now: Bob waits; Ada is not paired with him, Dee is.
    let mut bob_wait = Page::open(&node, "127.0.0.3", Some("device-of-bob-0001"), Some(&bob)).await;
    let b = bob_wait.play_now(json!({})).await;
    assert_eq!(b["wait"]["state"], "waiting", "{b}");
    let mut ada_wait = Page::open(&node, "127.0.0.2", Some("device-of-ada-0001"), Some(&ada)).await;
    let a = ada_wait.play_now(json!({})).await;
    assert_eq!(a["wait"]["state"], "waiting", "never paired with someone she blocks: {a}");
    assert!(ada_wait.paired(Duration::from_millis(2500)).await.is_none(), "nor later");
    let mut dee_wait = Page::open(&node, "127.0.0.5", Some("device-of-dee-0001"), Some(&dee)).await;
    let d = dee_wait.play_now(json!({})).await;
    assert_eq!(d["wait"]["state"], "paired", "{d}");
    let paired = bob_wait.paired(SOON).await.expect("Bob paired with Dee");
    assert_eq!(paired["game"], d["wait"]["game"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocks_hide_chat_and_keep_people_apart_on_sqlite() {
    blocks_hide_chat_and_keep_people_apart(Node::sqlite(config(|_| {})).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocks_hide_chat_and_keep_people_apart_on_postgres() {
    let Some(url) = server_url() else { return };
    let schema = Schema::new(&url);
    blocks_hide_chat_and_keep_people_apart(Node::postgres(&schema, config(|_| {})).await).await;
}

/// Two servers sharing PostgreSQL: a line said on one is not sent to a
/// blocker's socket on the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_line_said_on_another_server_is_hidden_from_a_blocker() {
    let Some(url) = server_url() else { return };
    let schema = Schema::new(&url);
    let a = Node::postgres(&schema, config(|_| {})).await;
    let b = Node::postgres(&schema, config(|_| {})).await;
    let ada = a.sign_up("127.0.0.2", "Ada").await;
    let bob = a.sign_up("127.0.0.3", "Bob").await;
    let cy = a.sign_up("127.0.0.4", "Cy").await;
    assert_eq!(block(&a, &ada, json!({"name": "Bob"})).await.0, 200);
    let (game, _, _) = a_game(&a).await;
    let mut ada_ws = game_socket(a.addr, &game, &ada).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    say(&b, "127.0.0.3", &game, "from Bob on B", Some(&bob)).await;
    say(&b, "127.0.0.4", &game, "from Cy on B", Some(&cy)).await;
    assert_eq!(lines_on(&mut ada_ws, Duration::from_secs(3)).await, ["from Cy on B"]);
}

async fn report(node: &Node, from: &str, cookie: Option<&str>, query: &str, body: Value) -> (u16, Value) {
    ask(node, from, "POST", &format!("/api/reports{query}"), Some(body), cookie).await
}

async fn reports_are_kept_once_bounded_and_rate_limited(node: Node) {
    let ada = node.sign_up("127.0.0.2", "Ada").await;
    let bob = node.sign_up("127.0.0.3", "Bob").await;
    let store = node.state.store().clone();
    let (game, t0, _) = a_game(&node).await;
    let rude = say(&node, "127.0.0.3", &game, "you are rude words", Some(&bob)).await;

    // Bad reports are refused, nothing kept.
    let name = |reason: &str| json!({ "name": "Bob", "reason": reason, "note": "" });
    assert_eq!(code(&report(&node, "127.0.0.2", Some(&ada), "", name("meanness")).await), (400, "bad_request"));
    let long = json!({ "name": "Bob", "reason": "other", "note": "x".repeat(201) });
    assert_eq!(code(&report(&node, "127.0.0.2", Some(&ada), "", long).await), (400, "bad_request"));
    let extra = json!({ "name": "Bob", "reason": "other", "url": "x" });
    assert_eq!(code(&report(&node, "127.0.0.2", Some(&ada), "", extra).await), (400, "bad_request"));
    let me = json!({ "name": "ada", "reason": "other" });
    assert_eq!(code(&report(&node, "127.0.0.2", Some(&ada), "", me).await), (422, "cannot_report_self"));
    assert_eq!(code(&report(&node, "127.0.0.2", None, "", name("other")).await), (401, "not_signed_in"));
    let nobody = json!({ "name": "Nobody", "reason": "other" });
    assert_eq!(code(&report(&node, "127.0.0.2", Some(&ada), "", nobody).await), (404, "not_found"));
    assert!(store.moderation.reports(false, 100).await.unwrap().is_empty());

    // A name, once.
    let v = report(&node, "127.0.0.2", Some(&ada), "", name("offensive_name")).await;
    assert_eq!(v.0, 200, "{}", v.1);
    assert_eq!(code(&report(&node, "127.0.0.2", Some(&ada), "", name("other")).await), (409, "already_reported"));
    // A chat line: its text copied (the chat may go).
    let line = json!({ "game": game, "seq": rude, "reason": "abusive_chat", "note": " again \n and again " });
    assert_eq!(report(&node, "127.0.0.2", Some(&ada), "", line.clone()).await.0, 200);
    // A guest holding a seat of the game reports its lines, not names nor other games'.
    let q = format!("?token={t0}");
    assert_eq!(report(&node, "127.0.0.7", None, &q, line.clone()).await.0, 200);
    assert_eq!(code(&report(&node, "127.0.0.7", None, &q, name("other")).await), (401, "not_signed_in"));
    assert_eq!(
        code(&report(&node, "127.0.0.7", None, "?token=0123456789abcdef0123456789abcdef", line.clone()).await).0,
        403
    );
    let reports = store.moderation.reports(true, 100).await.unwrap();
    assert_eq!(reports.len(), 3);
    let by_ada = reports.iter().find(|r| r.game.is_some() && r.reporter_name.as_deref() == Some("Ada")).unwrap();
    assert_eq!(
        (by_ada.text.as_deref(), by_ada.target_name.as_str(), by_ada.note.as_str(), by_ada.against),
        (Some("you are rude words"), "Bob", "again and again", 3)
    );
    let by_guest = reports.iter().find(|r| r.reporter_name.is_none()).unwrap();
    assert_eq!(by_guest.reporter, format!("seat:{game}:0"));

    // Rate limited per reporter: a burst of 5 (the refusal of a report made
    // already spent one too), then refused, nothing kept.
    let mut answers = Vec::new();
    for i in 0..3 {
        let seq = say(&node, "127.0.0.3", &game, &format!("line {i}"), Some(&bob)).await;
        let body = json!({ "game": game, "seq": seq, "reason": "abusive_chat" });
        answers.push(code(&report(&node, "127.0.0.2", Some(&ada), "", body).await).0);
    }
    assert_eq!(answers, [200, 200, 429]);
    let body = json!({ "name": "Bob", "reason": "cheating" });
    assert_eq!(code(&report(&node, "127.0.0.2", Some(&ada), "", body).await), (429, "reports_too_fast"));
    assert_eq!(store.moderation.reports(true, 100).await.unwrap().len(), 5, "nothing more kept");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_are_kept_once_bounded_and_rate_limited_on_sqlite() {
    reports_are_kept_once_bounded_and_rate_limited(Node::sqlite(config(|_| {})).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_are_kept_once_bounded_and_rate_limited_on_postgres() {
    let Some(url) = server_url() else { return };
    let schema = Schema::new(&url);
    reports_are_kept_once_bounded_and_rate_limited(Node::postgres(&schema, config(|_| {})).await).await;
}

/// A crowd of guests' seats (each from an address of its own, in games of
/// its own) fills the reports' places not kept; people with a history (here
/// every account: `known_after` zero, no rated game needed) still report,
/// up to the total, and nothing beyond is kept.
async fn strangers_fill_their_share_of_reports_and_known_people_still_report(node: Node) {
    let store = node.state.store().clone();
    let ada = node.sign_up("127.0.0.2", "Ada").await;
    let bob = node.sign_up("127.0.0.3", "Bob").await;
    let mut games = Vec::new();
    for _ in 0..3 {
        let (game, t0, _) = a_game(&node).await;
        let seq = say(&node, "127.0.0.4", &game, "rude words", None).await;
        games.push((game, t0, seq));
    }
    let line = |g: &(String, String, u64)| json!({ "game": g.0, "seq": g.2, "reason": "abusive_chat" });
    for (i, g) in games.iter().take(2).enumerate() {
        let v = report(&node, &format!("127.0.1.{i}"), None, &format!("?token={}", g.1), line(g)).await;
        assert_eq!(v.0, 200, "guest {i}: {}", v.1);
    }
    let third = report(&node, "127.0.1.9", None, &format!("?token={}", games[2].1), line(&games[2])).await;
    assert_eq!(code(&third), (429, "too_many_reports"), "the strangers' share is full");
    for (from, cookie) in [("127.0.0.2", &ada), ("127.0.0.3", &bob)] {
        let v = report(&node, from, Some(cookie), "", line(&games[2])).await;
        assert_eq!(v.0, 200, "a known account reports: {}", v.1);
    }
    let beyond = report(&node, "127.0.0.2", Some(&ada), "", line(&games[1])).await;
    assert_eq!(code(&beyond), (429, "too_many_reports"), "the total is full");
    assert_eq!(store.moderation.reports(true, 100).await.unwrap().len(), 4, "nothing more kept");
}

fn small_report_caps() -> carcassonne_server::Config {
    config(|c| {
        c.reports = carcassonne_server::ReportSettings { per_reporter: 50, per_address: 100, total: 4, kept: 2 };
        c.lobby.known_after = Duration::ZERO;
        c.lobby.known_rated_games = 0;
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strangers_fill_their_share_of_reports_and_known_people_still_report_on_sqlite() {
    strangers_fill_their_share_of_reports_and_known_people_still_report(Node::sqlite(small_report_caps()).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strangers_fill_their_share_of_reports_and_known_people_still_report_on_postgres() {
    let Some(url) = server_url() else { return };
    let schema = Schema::new(&url);
    strangers_fill_their_share_of_reports_and_known_people_still_report(
        Node::postgres(&schema, small_report_caps()).await,
    )
    .await;
}

async fn sign_in(node: &Node, name: &str) -> (u16, Value) {
    let body = json!({ "name": name, "password": "password!" });
    ask(node, "127.0.0.2", "POST", "/api/account/signin", Some(body), None).await
}

async fn the_operator_mutes_renames_and_closes(node: Node) {
    let _ada = node.sign_up("127.0.0.2", "Ada").await;
    let bob = node.sign_up("127.0.0.3", "Bob").await;
    let cy = node.sign_up("127.0.0.4", "Cy").await;
    let m = &node.state.moderation;
    let (game, _, _) = a_game(&node).await;

    // Muted: Bob's lines are refused with `muted`, until the mute is lifted.
    let (_, until) = m.mute("bob", 2).await.unwrap();
    assert!(until > 0);
    let refused =
        ask(&node, "127.0.0.3", "POST", &format!("/api/games/{game}/chat"), Some(json!({"text": "hi"})), Some(&bob))
            .await;
    assert_eq!(code(&refused), (403, "muted"));
    assert!(read(&node, &game, None).await.is_empty(), "nothing said");
    m.mute("Bob", 0).await.unwrap();
    say(&node, "127.0.0.3", &game, "hi", Some(&bob)).await;
    assert!(matches!(m.mute("Bob", 100_000).await, Err(carcassonne_server::ApiError::BadRequest(_))));
    assert!(matches!(m.mute("Nobody", 1).await, Err(carcassonne_server::ApiError::NotFound(_))));

    // Renamed: the new name signs in, the old one no longer; the rules of names hold.
    for taken in ["Ada", "ADA", "Guest 12"] {
        assert_eq!(m.rename("Bob", taken).await.unwrap_err().code(), "name_taken", "{taken}");
    }
    assert_eq!(m.rename("Bob", " \u{200B} ").await.unwrap_err().code(), "bad_request");
    assert_eq!(m.rename("Bob", "  Robert \u{200B}").await.unwrap(), "Robert");
    assert_eq!(code(&sign_in(&node, "Bob").await), (401, "bad_credentials"));
    assert_eq!(sign_in(&node, "robert").await.0, 200);
    let me = ask(&node, "127.0.0.3", "GET", "/api/me", None, Some(&bob)).await;
    assert_eq!(me.1["name"], "Robert", "the session goes on under the new name");

    // Closed: its sessions end, it cannot sign in, its chat is refused.
    assert_eq!(ask(&node, "127.0.0.4", "GET", "/api/me", None, Some(&cy)).await.1["name"], "Cy");
    assert!(m.close("Cy").await.unwrap());
    assert!(!m.close("cy").await.unwrap(), "once");
    let me = ask(&node, "127.0.0.4", "GET", "/api/me", None, Some(&cy)).await;
    assert_eq!((me.0, &me.1["name"]), (200, &Value::Null), "signed out");
    assert_eq!(code(&sign_in(&node, "Cy").await), (403, "account_closed"));
    assert_eq!(
        m.may_chat(&node.state.store().accounts.by_key("cy").await.unwrap().unwrap().id).await.unwrap_err().code(),
        "account_closed"
    );

    // Resolved: out of the open reports.
    let ada_account = node.state.store().accounts.by_key("ada").await.unwrap().unwrap();
    let reporter = carcassonne_server::moderation::Reporter::Account(ada_account);
    let target = carcassonne_server::moderation::Target::Name("Robert".into());
    let id = m.report(&reporter, &target, "offensive_name", "", "127.0.0.2".parse().unwrap()).await.unwrap();
    assert_eq!(m.reports(true).await.unwrap().len(), 1);
    m.resolve(id).await.unwrap();
    assert!(m.reports(true).await.unwrap().is_empty());
    assert_eq!(m.resolve(id).await.unwrap_err().code(), "not_found", "once");
    assert_eq!(m.reports(false).await.unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_mutes_renames_and_closes_on_sqlite() {
    the_operator_mutes_renames_and_closes(Node::sqlite(config(|_| {})).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_mutes_renames_and_closes_on_postgres() {
    let Some(url) = server_url() else { return };
    let schema = Schema::new(&url);
    the_operator_mutes_renames_and_closes(Node::postgres(&schema, config(|_| {})).await).await;
}
