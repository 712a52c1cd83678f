//! The operator's admin page over HTTP (docs/web.md, *Blocking and
//! reporting*), on a server of its own over SQLite and (with
//! `CARCASSONNE_TEST_POSTGRES`) PostgreSQL: an operator (`serve --admin`)
//! lists the reports, mutes, renames, closes and resolves; anyone else, signed
//! in or not, finds no such page (404 `not_found`) and changes nothing; an
//! operator's request from another site is `forbidden_origin`; bad input is
//! refused with its code and changes nothing. Each action is logged with
//! the operator's name; a name no account holds is warned of at start.

mod common;
mod lobby_socket;

use std::sync::{Arc, Mutex, OnceLock};

use common::pg::{server_url, Schema};
use lobby_socket::{config, http_with, Node};
use serde_json::{json, Value};

/// What the server logs (every test of this file's, at `info` and above).
static LOG: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();

struct LogWriter(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Starts keeping the log (once per test binary).
fn keep_log() {
    LOG.get_or_init(|| {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let to = Arc::clone(&buf);
        tracing_subscriber::fmt()
            .with_ansi(false)
            .with_env_filter("carcassonne_server=info")
            .with_writer(move || LogWriter(Arc::clone(&to)))
            .try_init()
            .expect("the only subscriber");
        buf
    });
}

/// Whether a line of the log holds every one of `parts`.
fn logged(parts: &[&str]) -> bool {
    let log = LOG.get().map(|b| String::from_utf8_lossy(&b.lock().unwrap()).into_owned()).unwrap_or_default();
    log.lines().any(|line| parts.iter().all(|p| line.contains(p)))
}

/// A request from `from` with the session `cookie` (if any) and more
/// `headers`: status and body.
async fn ask(
    node: &Node,
    from: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
    cookie: Option<&str>,
    headers: &[(&str, &str)],
) -> (u16, Value) {
    let (s, _, v) = http_with(node.addr, from, method, path, body.as_ref(), cookie, headers).await;
    (s, v)
}

fn code(v: &(u16, Value)) -> (u16, &str) {
    (v.0, v.1["error"].as_str().unwrap_or("?"))
}

/// An admin request from the server's own page (as a browser sends it).
async fn admin(node: &Node, cookie: Option<&str>, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let origin = format!("http://{}", node.addr);
    let headers = [("Origin", origin.as_str()), ("Sec-Fetch-Site", "same-origin")];
    ask(node, "127.0.0.2", method, path, body, cookie, &headers).await
}

async fn me(node: &Node, cookie: &str) -> Value {
    ask(node, "127.0.0.2", "GET", "/api/me", None, Some(cookie), &[]).await.1
}

/// A game of two people nobody plays (its chat is what counts): its id.
async fn a_game(node: &Node) -> String {
    let body = json!({ "seats": [ { "kind": "human", "name": "P1" }, { "kind": "human", "name": "P2" } ] });
    let (s, v) = node.post("/api/games", body).await;
    assert_eq!(s, 201, "{v}");
    v["id"].as_str().unwrap().to_string()
}

/// What a line said by `cookie`'s account in `game`'s chat is answered.
async fn say(node: &Node, game: &str, text: &str, cookie: &str) -> (u16, Value) {
    let path = format!("/api/games/{game}/chat");
    ask(node, "127.0.0.3", "POST", &path, Some(json!({ "text": text })), Some(cookie), &[]).await
}

async fn sign_in(node: &Node, name: &str) -> (u16, Value) {
    let body = json!({ "name": name, "password": "password!" });
    ask(node, "127.0.0.2", "POST", "/api/account/signin", Some(body), None, &[]).await
}

async fn report(node: &Node, cookie: &str, body: Value) -> (u16, Value) {
    ask(node, "127.0.0.9", "POST", "/api/reports", Some(body), Some(cookie), &[]).await
}

async fn open_reports(node: &Node) -> usize {
    node.state.store().moderation.reports(true, 100).await.unwrap().len()
}

async fn the_operator_deals_with_reports(node: Node) {
    keep_log();
    let olga = node.sign_up("127.0.0.2", "Olga").await;
    let ada = node.sign_up("127.0.0.4", "Ada").await;
    let bob = node.sign_up("127.0.0.3", "Bob").await;
    let cy = node.sign_up("127.0.0.5", "Cy").await;
    let game = a_game(&node).await;

    // Only the operator is told she is one.
    assert_eq!(me(&node, &olga).await, json!({ "name": "Olga", "admin": true }));
    assert_eq!(me(&node, &ada).await, json!({ "name": "Ada" }));

    // Bob's line and name reported, by Ada and by Cy.
    let line = say(&node, &game, "you are rude words", &bob).await.1["message"]["seq"].as_u64().unwrap();
    assert_eq!(report(&node, &ada, json!({ "name": "Bob", "reason": "offensive_name" })).await.0, 200);
    let v = report(&node, &ada, json!({ "game": game, "seq": line, "reason": "abusive_chat", "note": "again" })).await;
    assert_eq!(v.0, 200, "{}", v.1);
    let line_report = v.1["report"].as_i64().unwrap();
    assert_eq!(report(&node, &cy, json!({ "name": "Bob", "reason": "other" })).await.0, 200);

    // Anyone else finds no such page, whatever they send, and changes nothing.
    let unknown = admin(&node, Some(&ada), "GET", "/api/admin/nothing", None).await;
    assert_eq!(code(&unknown), (404, "not_found"));
    let calls = [
        ("GET", "/api/admin/reports", None),
        ("GET", "/api/admin/reports?all=1", None),
        ("POST", "/api/admin/mute", Some(json!({ "name": "Bob", "hours": 24 }))),
        ("POST", "/api/admin/rename", Some(json!({ "name": "Bob", "new": "Robert" }))),
        ("POST", "/api/admin/close", Some(json!({ "name": "Bob" }))),
        ("POST", "/api/admin/resolve", Some(json!({ "report": line_report }))),
        ("POST", "/api/admin/mute", Some(json!({ "bad": "body" }))),
    ];
    for who in [Some(ada.as_str()), Some(cy.as_str()), None] {
        for (method, path, body) in &calls {
            let v = admin(&node, who, method, path, body.clone()).await;
            assert_eq!(code(&v), (404, "not_found"), "{method} {path} {}", v.1);
            let path_only = path.split('?').next().unwrap();
            assert_eq!(v.1["message"], unknown.1["message"].as_str().unwrap().replace("/api/admin/nothing", path_only));
        }
    }
    // A bad session cookie is nobody.
    let v = admin(&node, Some("0123456789abcdef0123456789abcdef"), "GET", "/api/admin/reports", None).await;
    assert_eq!(code(&v), (404, "not_found"));
    assert_eq!(say(&node, &game, "not muted", &bob).await.0, 200);
    assert_eq!(me(&node, &bob).await["name"], "Bob");
    assert_eq!(open_reports(&node).await, 3);

    // The operator's own requests from another site's page are refused.
    let body = json!({ "name": "Bob", "hours": 24 });
    for headers in [
        vec![("Origin", "https://evil.example")],
        vec![("Origin", "https://evil.example"), ("Sec-Fetch-Site", "cross-site")],
        vec![("Sec-Fetch-Site", "cross-site")],
    ] {
        let v = ask(&node, "127.0.0.2", "POST", "/api/admin/mute", Some(body.clone()), Some(&olga), &headers).await;
        assert_eq!(code(&v), (403, "forbidden_origin"), "{headers:?}");
        let v = ask(&node, "127.0.0.2", "GET", "/api/admin/reports", None, Some(&olga), &headers).await;
        assert_eq!(code(&v), (403, "forbidden_origin"), "{headers:?}");
    }
    assert_eq!(say(&node, &game, "still not muted", &bob).await.0, 200);

    // The list: newest first, what was reported, by whom, how many against Bob.
    let v = admin(&node, Some(&olga), "GET", "/api/admin/reports", None).await;
    assert_eq!(v.0, 200, "{}", v.1);
    assert_eq!((v.1["all"].as_bool(), v.1["max"].as_u64()), (Some(false), Some(1000)));
    let list = v.1["reports"].as_array().unwrap();
    let reasons: Vec<&str> = list.iter().map(|r| r["reason"].as_str().unwrap()).collect();
    assert_eq!(reasons, ["other", "abusive_chat", "offensive_name"]);
    let chat = &list[1];
    assert_eq!(chat["id"], line_report);
    assert_eq!(
        (&chat["what"], &chat["name"], &chat["name_now"], &chat["member"], &chat["game"], &chat["seq"]),
        (&json!("chat"), &json!("Bob"), &json!("Bob"), &json!(true), &json!(game), &json!(line))
    );
    assert_eq!(
        (&chat["text"], &chat["note"], &chat["reporter"], &chat["against"], &chat["resolved_at"]),
        (&json!("you are rude words"), &json!("again"), &json!("Ada"), &json!(3), &Value::Null)
    );
    assert_eq!(
        (&list[0]["what"], &list[0]["reporter"], &list[0]["text"]),
        (&json!("name"), &json!("Cy"), &Value::Null)
    );
    assert!(list.iter().all(|r| r["at"].as_i64().unwrap() > 0));
    assert!(!v.1.to_string().contains("\"target\""), "no account's id is sent");

    // Bad input: its code, nothing changed.
    let bad = [
        ("/api/admin/mute", json!({ "name": "Bob", "hours": 100_000 }), (400, "bad_request")),
        ("/api/admin/mute", json!({ "name": "Bob", "hours": -1 }), (400, "bad_request")),
        ("/api/admin/mute", json!({ "name": "Bob", "hours": "24" }), (400, "bad_request")),
        ("/api/admin/mute", json!({ "name": "Bob" }), (400, "bad_request")),
        ("/api/admin/mute", json!({ "name": "Bob", "hours": 1, "x": 1 }), (400, "bad_request")),
        ("/api/admin/mute", json!({ "name": "Nobody", "hours": 1 }), (404, "not_found")),
        ("/api/admin/rename", json!({ "name": "Bob", "new": "ADA" }), (409, "name_taken")),
        ("/api/admin/rename", json!({ "name": "Bob", "new": "Moderator" }), (409, "name_taken")),
        ("/api/admin/rename", json!({ "name": "Bob", "new": " \u{200B} " }), (400, "bad_request")),
        ("/api/admin/rename", json!({ "name": "Nobody", "new": "Zed" }), (404, "not_found")),
        ("/api/admin/close", json!({ "name": "Nobody" }), (404, "not_found")),
        ("/api/admin/close", json!({}), (400, "bad_request")),
        ("/api/admin/resolve", json!({ "report": 999_999 }), (404, "not_found")),
        ("/api/admin/resolve", json!({ "report": "1" }), (400, "bad_request")),
    ];
    for (path, body, want) in bad {
        let v = admin(&node, Some(&olga), "POST", path, Some(body.clone())).await;
        assert_eq!(code(&v), want, "{path} {body}: {}", v.1);
    }
    assert_eq!(code(&admin(&node, Some(&olga), "GET", "/api/admin/reports?all=2", None).await), (400, "bad_request"));
    assert_eq!(say(&node, &game, "unchanged", &bob).await.0, 200);
    assert_eq!(me(&node, &bob).await["name"], "Bob");
    assert_eq!(open_reports(&node).await, 3);

    // Mute: Bob's chat refused, then the mute lifted.
    let v = admin(&node, Some(&olga), "POST", "/api/admin/mute", Some(json!({ "name": "bob", "hours": 2 }))).await;
    assert_eq!(v.0, 200, "{}", v.1);
    assert_eq!((&v.1["name"], &v.1["hours"]), (&json!("Bob"), &json!(2)));
    let until = v.1["muted_until"].as_i64().unwrap();
    assert!(until > 0);
    assert_eq!(code(&say(&node, &game, "muted?", &bob).await), (403, "muted"));
    let listed = admin(&node, Some(&olga), "GET", "/api/admin/reports", None).await.1;
    assert!(listed["reports"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["muted_until"] == until && r["closed_at"].is_null()));
    assert!(logged(&["admin: mute", "operator=Olga", "account=Bob", "hours=2"]));
    let v = admin(&node, Some(&olga), "POST", "/api/admin/mute", Some(json!({ "name": "Bob", "hours": 0 }))).await;
    assert_eq!((v.0, &v.1["muted_until"]), (200, &Value::Null), "{}", v.1);
    assert_eq!(say(&node, &game, "free again", &bob).await.0, 200);

    // Rename: the reports show the name now.
    let v =
        admin(&node, Some(&olga), "POST", "/api/admin/rename", Some(json!({ "name": "Bob", "new": " Robert " }))).await;
    assert_eq!((v.0, &v.1), (200, &json!({ "name": "Robert", "was": "Bob" })));
    assert_eq!(me(&node, &bob).await["name"], "Robert");
    assert!(logged(&["admin: rename", "operator=Olga", "account=Bob", "new=Robert"]));
    let v = admin(&node, Some(&olga), "GET", "/api/admin/reports", None).await;
    assert!(v.1["reports"].as_array().unwrap().iter().all(|r| r["name"] == "Bob" && r["name_now"] == "Robert"));

    // Resolve: out of the open ones, still among all; once.
    let body = json!({ "report": line_report });
    let v = admin(&node, Some(&olga), "POST", "/api/admin/resolve", Some(body.clone())).await;
    assert_eq!((v.0, &v.1), (200, &json!({ "resolved": line_report })));
    assert!(logged(&["admin: resolve", "operator=Olga", &format!("report={line_report}")]));
    assert_eq!(code(&admin(&node, Some(&olga), "POST", "/api/admin/resolve", Some(body)).await), (404, "not_found"));
    let open = admin(&node, Some(&olga), "GET", "/api/admin/reports", None).await.1;
    assert_eq!(open["reports"].as_array().unwrap().len(), 2);
    assert!(open["reports"].as_array().unwrap().iter().all(|r| r["against"] == 2));
    let all = admin(&node, Some(&olga), "GET", "/api/admin/reports?all=1", None).await.1;
    assert_eq!(all["all"], true);
    let all = all["reports"].as_array().unwrap();
    assert_eq!(all.len(), 3);
    assert!(all.iter().find(|r| r["id"] == line_report).unwrap()["resolved_at"].as_i64().unwrap() > 0);

    // Close: Robert is signed out and cannot sign in; once.
    let v = admin(&node, Some(&olga), "POST", "/api/admin/close", Some(json!({ "name": "Robert" }))).await;
    assert_eq!((v.0, &v.1), (200, &json!({ "name": "Robert", "closed": true })));
    assert_eq!(me(&node, &bob).await["name"], Value::Null);
    assert!(logged(&["admin: close", "operator=Olga", "account=Robert", "was_open=true"]));
    assert_eq!(code(&sign_in(&node, "Robert").await), (403, "account_closed"));
    let v = admin(&node, Some(&olga), "POST", "/api/admin/close", Some(json!({ "name": "robert" }))).await;
    assert_eq!((v.0, &v.1["closed"]), (200, &json!(false)));
    let listed = admin(&node, Some(&olga), "GET", "/api/admin/reports?all=1", None).await.1;
    assert!(listed["reports"].as_array().unwrap().iter().all(|r| r["closed_at"].as_i64().unwrap() > 0));

    // An operator is one by name: Olga renamed away is one no longer.
    let v =
        admin(&node, Some(&olga), "POST", "/api/admin/rename", Some(json!({ "name": "Olga", "new": "Olive" }))).await;
    assert_eq!(v.0, 200, "{}", v.1);
    assert_eq!(me(&node, &olga).await, json!({ "name": "Olive" }));
    assert_eq!(code(&admin(&node, Some(&olga), "GET", "/api/admin/reports", None).await), (404, "not_found"));
}

fn operators() -> carcassonne_server::Config {
    config(|c| c.operators = carcassonne_server::operator_names(" Olga , ,").collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_deals_with_reports_on_sqlite() {
    the_operator_deals_with_reports(Node::sqlite(operators()).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_deals_with_reports_on_postgres() {
    let Some(url) = server_url() else { return };
    let schema = Schema::new(&url);
    the_operator_deals_with_reports(Node::postgres(&schema, operators()).await).await;
}

/// A server without operators has no admin page for anyone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_operators_nobody_has_the_page() {
    let node = Node::sqlite(config(|_| {})).await;
    let olga = node.sign_up("127.0.0.2", "Olga").await;
    assert_eq!(me(&node, &olga).await, json!({ "name": "Olga" }));
    assert_eq!(code(&admin(&node, Some(&olga), "GET", "/api/admin/reports", None).await), (404, "not_found"));
}

/// An operator's name no account holds, or none can, is warned of at start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_no_account_holds_is_warned_of() {
    keep_log();
    let node = Node::sqlite(config(|c| c.operators = vec!["Ghostly Op".into(), "Moderator".into()])).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !(logged(&["WARN", "no account holds an operator's name", "Ghostly Op"])
        && logged(&["WARN", "an operator's name is reserved", "Moderator"]))
    {
        assert!(std::time::Instant::now() < deadline, "no warnings");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // Whoever signs the name up is the operator.
    let ghost = node.sign_up("127.0.0.2", "ghostly op").await;
    assert_eq!(me(&node, &ghost).await["admin"], true);
}
