//! Passkeys: the refusals through the router: not signed in, pages of other
//! sites, origins passkeys are not made for, ceremonies unknown, taken
//! twice, expired, of another account or kind, answers that do not check
//! out, throttles, and bodies too large or malformed. A whole ceremony needs
//! an authenticator: the browser test (tests/browser/passkeys.test.mjs) does
//! it with Chromium's virtual one. (What the stores keep is the conformance
//! suite's: tests/store/accounts.rs.)

mod common;

use std::net::IpAddr;
use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use carcassonne_server::{
    app, passkey_origin, AppState, Config, PasskeyCeremonies, Store, MAX_PASSKEYS, MAX_PASSKEY_BODY, STARTS_PER_ADDRESS,
};
use common::accounts::passkey;
use common::page::{Answer, Req};
use serde_json::{json, Value};

// ---------------------------------------------------------------- through the router

/// The development relying party: `http://localhost`, any port.
const HOST: &str = "localhost:8080";
const ORIGIN: &str = "http://localhost:8080";

struct Server {
    app: Router,
}

fn server_on(store: Store, config: Config) -> Server {
    Server { app: app(AppState::new(store, config)) }
}

fn server(config: Config) -> Server {
    server_on(Store::in_memory().unwrap(), config)
}

fn req<'a>(method: &'a str, uri: &'a str, body: Option<Value>) -> Req<'a> {
    Req { fetch_site: Some("same-origin"), ..common::page::req(HOST, ORIGIN, method, uri, body) }
}

fn post<'a>(uri: &'a str, body: Value) -> Req<'a> {
    req("POST", uri, Some(body))
}

async fn send(s: &Server, r: Req<'_>) -> Answer {
    common::page::send(&s.app, r).await
}

/// Signs up `name`: the session token.
async fn signed_up(s: &Server, name: &str) -> String {
    let a = send(s, post("/api/account/signup", json!({ "name": name, "password": "correct horse" }))).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    a.token()
}

/// A registration's answer that decodes but does not check out.
fn bogus_registration() -> Value {
    json!({
        "id": "AAECAwQFBgcICQoLDA0ODw",
        "rawId": "AAECAwQFBgcICQoLDA0ODw",
        "type": "public-key",
        "response": { "attestationObject": "o2NmbXRkbm9uZQ", "clientDataJSON": "e30" }
    })
}

/// A sign-in's answer that decodes but does not check out.
fn bogus_assertion() -> Value {
    json!({
        "id": "AAECAwQFBgcICQoLDA0ODw",
        "rawId": "AAECAwQFBgcICQoLDA0ODw",
        "type": "public-key",
        "response": {
            "authenticatorData": "AAAA",
            "clientDataJSON": "e30",
            "signature": "AAAA",
            "userHandle": "AAECAwQFBgcICQoLDA0ODw"
        }
    })
}

async fn register_start(s: &Server, token: &str) -> Answer {
    send(s, Req { token: Some(token), ..post("/api/passkeys/register/start", json!({})) }).await
}

async fn sign_in_start(s: &Server) -> Answer {
    send(s, post("/api/passkeys/signin/start", json!({}))).await
}

#[tokio::test]
async fn a_ceremony_starts_with_options_for_the_browser() {
    let s = server(Config::quick());
    let ada = signed_up(&s, "Ada").await;

    let a = register_start(&s, &ada).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.body["challenge"].as_str().unwrap().len(), 32);
    let pk = &a.body["options"]["publicKey"];
    assert_eq!(pk["rp"]["id"], "localhost");
    assert_eq!(pk["user"]["name"], "Ada");
    assert!(pk["challenge"].as_str().unwrap().len() >= 43, "32 random bytes, base64url");
    assert_eq!(pk["authenticatorSelection"]["residentKey"], "required", "a discoverable credential");
    assert_eq!(pk["authenticatorSelection"]["userVerification"], "required");
    // The user handle is not the account's id: the same for one account, another for another.
    let again = register_start(&s, &ada).await;
    assert_eq!(again.body["options"]["publicKey"]["user"]["id"], pk["user"]["id"]);
    assert_ne!(again.body["challenge"], a.body["challenge"]);
    let bob = signed_up(&s, "Bob").await;
    let b = register_start(&s, &bob).await;
    assert_ne!(b.body["options"]["publicKey"]["user"]["id"], pk["user"]["id"]);

    let a = sign_in_start(&s).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.body["options"]["mediation"], "conditional");
    assert_eq!(a.body["options"]["publicKey"]["rpId"], "localhost");
    assert!(a.body["options"]["publicKey"].get("allowCredentials").is_none_or(|c| c.as_array().unwrap().is_empty()));

    let list = send(&s, Req { token: Some(&ada), ..req("GET", "/api/passkeys", None) }).await;
    assert_eq!((list.status, list.body.clone()), (StatusCode::OK, json!({ "passkeys": [] })));
}

#[tokio::test]
async fn an_account_is_needed_to_add_or_list_passkeys() {
    let s = server(Config::quick());
    let a = send(&s, post("/api/passkeys/register/start", json!({}))).await;
    assert_eq!((a.status, a.code()), (StatusCode::UNAUTHORIZED, "not_signed_in"));
    let a = send(&s, req("GET", "/api/passkeys", None)).await;
    assert_eq!((a.status, a.code()), (StatusCode::UNAUTHORIZED, "not_signed_in"));
    let body = json!({ "challenge": "0".repeat(32), "credential": bogus_registration() });
    let a = send(&s, post("/api/passkeys/register/finish", body)).await;
    assert_eq!(a.code(), "not_signed_in");
    let a = send(&s, post("/api/passkeys/delete", json!({ "id": "00" }))).await;
    assert_eq!(a.code(), "not_signed_in");
    let a = send(&s, Req { token: Some(&"f".repeat(32)), ..post("/api/passkeys/register/start", json!({})) }).await;
    assert_eq!(a.code(), "not_signed_in", "a session that is not one");
}

#[tokio::test]
async fn pages_of_other_sites_are_refused() {
    let s = server(Config::quick());
    let ada = signed_up(&s, "Ada").await;
    let uris = ["/api/passkeys/register/start", "/api/passkeys/signin/start", "/api/passkeys/signin/finish"];
    for uri in uris {
        let evil = Req { token: Some(&ada), origin: Some("https://evil.example"), ..post(uri, json!({})) };
        let a = send(&s, evil).await;
        assert_eq!((a.status, a.code()), (StatusCode::FORBIDDEN, "forbidden_origin"), "{uri}");
        let cross = Req { token: Some(&ada), fetch_site: Some("cross-site"), ..post(uri, json!({})) };
        assert_eq!(send(&s, cross).await.code(), "forbidden_origin", "{uri}");
    }
    let body = json!({ "challenge": "0".repeat(32), "credential": bogus_registration() });
    let evil =
        Req { token: Some(&ada), origin: Some("https://evil.example"), ..post("/api/passkeys/register/finish", body) };
    assert_eq!(send(&s, evil).await.code(), "forbidden_origin");
    let evil =
        Req { token: Some(&ada), fetch_site: Some("same-site"), ..post("/api/passkeys/delete", json!({ "id": "00" })) };
    assert_eq!(send(&s, evil).await.code(), "forbidden_origin");
    // Not JSON: refused before anything (a form from another site).
    let mut form = post("/api/passkeys/signin/start", json!({}));
    form.body = None;
    assert_eq!(send(&s, form).await.code(), "unsupported_media_type");
}

fn available(host: &str) -> Req<'_> {
    Req { host, origin: None, fetch_site: None, ..req("GET", "/api/passkeys/available", None) }
}

#[tokio::test]
async fn passkeys_work_only_on_the_configured_origin() {
    // No public URL: localhost only (any port), never an IP address.
    let s = server(Config::quick());
    for (host, origin) in [("127.0.0.1:8080", "http://127.0.0.1:8080"), ("play.example", "http://play.example")] {
        let a = send(&s, Req { host, origin: Some(origin), ..post("/api/passkeys/signin/start", json!({})) }).await;
        assert_eq!((a.status, a.code()), (StatusCode::NOT_FOUND, "passkeys_unavailable"), "{origin}");
    }
    let a = send(
        &s,
        Req {
            host: "localhost:3",
            origin: Some("http://localhost:3"),
            ..post("/api/passkeys/signin/start", json!({}))
        },
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(send(&s, available("localhost:3")).await.body, json!({ "available": true }));
    assert_eq!(send(&s, available("127.0.0.1:3")).await.body, json!({ "available": false }));

    // A public URL: its origin only.
    let config = Config { public_url: Some("https://carcassonne.example".into()), ..Config::quick() };
    let s = server(config);
    let a = sign_in_start(&s).await;
    assert_eq!(a.code(), "passkeys_unavailable", "localhost is no longer the site");
    let here = Req {
        host: "carcassonne.example",
        origin: Some("https://carcassonne.example"),
        ..post("/api/passkeys/signin/start", json!({}))
    };
    let a = send(&s, here).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.body["options"]["publicKey"]["rpId"], "carcassonne.example");
    let other_port = Req {
        host: "carcassonne.example:8443",
        origin: Some("https://carcassonne.example:8443"),
        ..post("/api/passkeys/signin/start", json!({}))
    };
    assert_eq!(send(&s, other_port).await.code(), "passkeys_unavailable");
    assert_eq!(send(&s, available("carcassonne.example")).await.body, json!({ "available": true }));
    assert_eq!(send(&s, available("carcassonne.example:8443")).await.body, json!({ "available": false }));
    assert_eq!(send(&s, available("localhost:8080")).await.body, json!({ "available": false }));

    // A public URL that will not do turns passkeys off (the CLI refuses it at start).
    let s = server(Config { public_url: Some("https://10.0.0.1".into()), ..Config::quick() });
    let ip =
        Req { host: "10.0.0.1", origin: Some("https://10.0.0.1"), ..post("/api/passkeys/signin/start", json!({})) };
    assert_eq!(send(&s, ip).await.code(), "passkeys_unavailable");
}

#[test]
fn the_public_url_must_be_an_origin_with_a_domain() {
    assert_eq!(passkey_origin("https://carcassonne.example/").unwrap(), "https://carcassonne.example");
    assert_eq!(passkey_origin("https://carcassonne.example:8443").unwrap(), "https://carcassonne.example:8443");
    assert_eq!(passkey_origin("http://localhost:8080").unwrap(), "http://localhost:8080");
    for bad in [
        "http://carcassonne.example",
        "https://127.0.0.1",
        "https://[::1]",
        "https://carcassonne.example/play",
        "https://carcassonne.example/?x=1",
        "carcassonne.example",
        "ftp://carcassonne.example",
    ] {
        assert!(passkey_origin(bad).is_err(), "{bad}");
    }
}

#[tokio::test]
async fn a_ceremony_is_finished_once_by_its_own_account_and_kind() {
    let s = server(Config::quick());
    let ada = signed_up(&s, "Ada").await;
    let bob = signed_up(&s, "Bob").await;
    let finish = |token: &str, challenge: &str| {
        let body = json!({ "challenge": challenge, "credential": bogus_registration(), "name": "laptop" });
        Req { token: Some(token), ..post("/api/passkeys/register/finish", body) }.into_owned()
    };

    // Unknown, or not even a token.
    for c in ["0".repeat(32), "nope".into(), String::new()] {
        let a = send(&s, finish(&ada, &c).as_req()).await;
        assert_eq!((a.status, a.code()), (StatusCode::CONFLICT, "challenge_expired"), "{c:?}");
    }

    // An answer that does not check out is refused, and the ceremony is over.
    let c = register_start(&s, &ada).await.body["challenge"].as_str().unwrap().to_string();
    let a = send(&s, finish(&ada, &c).as_req()).await;
    assert_eq!((a.status, a.code()), (StatusCode::UNAUTHORIZED, "passkey_refused"), "{}", a.body);
    assert_eq!(send(&s, finish(&ada, &c).as_req()).await.code(), "challenge_expired");

    // Another account's ceremony is not Bob's (and Ada's is gone with the try).
    let c = register_start(&s, &ada).await.body["challenge"].as_str().unwrap().to_string();
    assert_eq!(send(&s, finish(&bob, &c).as_req()).await.code(), "challenge_expired");
    assert_eq!(send(&s, finish(&ada, &c).as_req()).await.code(), "challenge_expired");

    // A sign-in's ceremony does not add a passkey, and the other way round.
    let c = sign_in_start(&s).await.body["challenge"].as_str().unwrap().to_string();
    assert_eq!(send(&s, finish(&ada, &c).as_req()).await.code(), "challenge_expired");
    let c = register_start(&s, &ada).await.body["challenge"].as_str().unwrap().to_string();
    let body = json!({ "challenge": c, "credential": bogus_assertion() });
    let a = send(&s, post("/api/passkeys/signin/finish", body)).await;
    assert_eq!(a.code(), "challenge_expired");

    // A sign-in with a passkey the server does not know: refused, no cookie.
    let c = sign_in_start(&s).await.body["challenge"].as_str().unwrap().to_string();
    let body = json!({ "challenge": c, "credential": bogus_assertion() });
    let a = send(&s, post("/api/passkeys/signin/finish", body.clone())).await;
    assert_eq!((a.status, a.code(), a.set_cookie.is_none()), (StatusCode::UNAUTHORIZED, "passkey_refused", true));
    assert_eq!(send(&s, post("/api/passkeys/signin/finish", body)).await.code(), "challenge_expired");

    // Nothing was added.
    let list = send(&s, Req { token: Some(&ada), ..req("GET", "/api/passkeys", None) }).await;
    assert_eq!(list.body, json!({ "passkeys": [] }));
}

#[tokio::test]
async fn a_ceremony_too_old_is_refused() {
    let s = server(Config { passkey_challenge_ttl: Duration::ZERO, ..Config::quick() });
    let ada = signed_up(&s, "Ada").await;
    let c = register_start(&s, &ada).await.body["challenge"].as_str().unwrap().to_string();
    let s_in = sign_in_start(&s).await.body["challenge"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let body = json!({ "challenge": c, "credential": bogus_registration() });
    let a = send(&s, Req { token: Some(&ada), ..post("/api/passkeys/register/finish", body) }).await;
    assert_eq!(a.code(), "challenge_expired", "{}", a.body);
    let body = json!({ "challenge": s_in, "credential": bogus_assertion() });
    assert_eq!(send(&s, post("/api/passkeys/signin/finish", body)).await.code(), "challenge_expired");
}

#[tokio::test]
async fn starts_and_sign_ins_are_throttled_per_address() {
    let s = server(Config::quick());
    for i in 0..STARTS_PER_ADDRESS {
        assert_eq!(sign_in_start(&s).await.status, StatusCode::OK, "start {i}");
    }
    let a = sign_in_start(&s).await;
    assert_eq!((a.status, a.code()), (StatusCode::TOO_MANY_REQUESTS, "too_many_attempts"));
    assert!(a.retry_after.unwrap().parse::<u64>().unwrap() >= 1);
    let other = Req { ip: "198.51.100.7".parse().unwrap(), ..post("/api/passkeys/signin/start", json!({})) };
    assert_eq!(send(&s, other).await.status, StatusCode::OK, "another address is not held back");

    // Finishing a sign-in counts as a password attempt does (20 at once per address).
    let ip: IpAddr = "203.0.113.9".parse().unwrap();
    let mut codes = Vec::new();
    for _ in 0..21 {
        let body = json!({ "challenge": "0".repeat(32), "credential": bogus_assertion() });
        codes.push(send(&s, Req { ip, ..post("/api/passkeys/signin/finish", body) }).await.code().to_string());
    }
    assert!(codes[..20].iter().all(|c| c == "challenge_expired"), "{codes:?}");
    assert_eq!(codes[20], "too_many_attempts");
    let a = send(&s, Req { ip, ..post("/api/account/signin", json!({ "name": "x", "password": "12345678" })) }).await;
    assert_eq!(a.code(), "too_many_attempts", "the same throttle as passwords");

    // A browser that signed in to an account before spends its own budget,
    // not the crowded address's: it starts and finishes from both.
    let made = send(
        &s,
        Req {
            ip: "198.51.100.8".parse().unwrap(),
            ..post("/api/account/signup", json!({ "name": "Ada", "password": "correct horse" }))
        },
    )
    .await;
    let device = made.device().expect("a device cookie");
    let starts = Req { device: Some(&device), ..post("/api/passkeys/signin/start", json!({})) };
    let a = send(&s, starts).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let body = json!({ "challenge": "0".repeat(32), "credential": bogus_assertion() });
    let a = send(&s, Req { ip, device: Some(&device), ..post("/api/passkeys/signin/finish", body) }).await;
    assert_eq!(a.code(), "challenge_expired", "{}", a.body);
    // A made-up device cookie counts for nothing.
    let made_up =
        Req { device: Some("00112233445566778899aabbccddeeff"), ..post("/api/passkeys/signin/start", json!({})) };
    assert_eq!(send(&s, made_up).await.code(), "too_many_attempts");
}

#[tokio::test]
async fn a_crowd_fills_the_open_ceremonies_and_leaves_the_kept_ones_to_people_with_a_history() {
    let mut config = Config::quick();
    config.passkey_ceremonies = PasskeyCeremonies { total: 12, kept: 4 };
    // Every account has a history here; a browser without one's device cookie has none.
    config.lobby.known_after = Duration::ZERO;
    config.lobby.known_rated_games = 0;
    let s = server(config);
    let ada = send(&s, post("/api/account/signup", json!({ "name": "Ada", "password": "correct horse" }))).await;
    let (ada, device) = (ada.token(), ada.device().expect("a device cookie"));
    let from = |i: usize| -> IpAddr { format!("198.51.100.{i}").parse().unwrap() };

    // A crowd, one ceremony from each of eight addresses, takes the open places.
    for i in 0..8 {
        let a = send(&s, Req { ip: from(i), ..post("/api/passkeys/signin/start", json!({})) }).await;
        assert_eq!(a.status, StatusCode::OK, "{i}: {}", a.body);
    }
    let a = send(&s, Req { ip: from(8), ..post("/api/passkeys/signin/start", json!({})) }).await;
    assert_eq!((a.status, a.code()), (StatusCode::SERVICE_UNAVAILABLE, "busy"), "{}", a.body);
    assert!(a.retry_after.is_some());
    let made_up = Req {
        ip: from(9),
        device: Some("00112233445566778899aabbccddeeff"),
        ..post("/api/passkeys/signin/start", json!({}))
    };
    assert_eq!(send(&s, made_up).await.code(), "busy", "a made-up device cookie counts for nothing");

    // Ada, known, signs in from her browser and adds a passkey: the kept places.
    let hers = || Req { ip: from(20), device: Some(&device), ..post("/api/passkeys/signin/start", json!({})) };
    assert_eq!(send(&s, hers()).await.status, StatusCode::OK);
    let a = register_start(&s, &ada).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(send(&s, hers()).await.status, StatusCode::OK);
    assert_eq!(send(&s, hers()).await.status, StatusCode::OK);
    // All twelve taken: nobody begins another until one is finished or expires.
    assert_eq!(send(&s, hers()).await.code(), "busy");
    assert_eq!(register_start(&s, &ada).await.code(), "busy");
}

#[tokio::test]
async fn bad_bodies_are_refused_with_stable_codes() {
    let s = server(Config::quick());
    let ada = signed_up(&s, "Ada").await;
    let bad = [
        json!({}),
        json!({ "challenge": "0".repeat(32) }),
        json!({ "challenge": 5, "credential": bogus_registration() }),
        json!({ "challenge": "0".repeat(32), "credential": { "id": "x" } }),
        json!({ "challenge": "0".repeat(32), "credential": bogus_registration(), "extra": 1 }),
    ];
    for body in bad {
        let a = send(&s, Req { token: Some(&ada), ..post("/api/passkeys/register/finish", body.clone()) }).await;
        assert_eq!((a.status, a.code()), (StatusCode::BAD_REQUEST, "bad_request"), "{body}");
    }
    let a = send(
        &s,
        Req { token: Some(&ada), ..post("/api/passkeys/register/finish", json!("x".repeat(MAX_PASSKEY_BODY))) },
    )
    .await;
    assert_eq!((a.status, a.code()), (StatusCode::PAYLOAD_TOO_LARGE, "too_large"));
    let a =
        send(&s, post("/api/passkeys/signin/finish", json!({ "challenge": "0".repeat(32), "credential": [] }))).await;
    assert_eq!(a.code(), "bad_request");

    // A name too long, checked before the ceremony is taken.
    let c = register_start(&s, &ada).await.body["challenge"].as_str().unwrap().to_string();
    let body = json!({ "challenge": c, "credential": bogus_registration(), "name": "n".repeat(41) });
    let a = send(&s, Req { token: Some(&ada), ..post("/api/passkeys/register/finish", body) }).await;
    assert_eq!(a.code(), "bad_request");
    let body = json!({ "challenge": c, "credential": bogus_registration(), "name": "laptop" });
    let a = send(&s, Req { token: Some(&ada), ..post("/api/passkeys/register/finish", body) }).await;
    assert_eq!(a.code(), "passkey_refused", "the ceremony was still there");

    // Removing a passkey the account does not have.
    for id in ["00", "zz", &"0".repeat(5000)] {
        let a = send(&s, Req { token: Some(&ada), ..post("/api/passkeys/delete", json!({ "id": id })) }).await;
        assert_eq!((a.status, a.code()), (StatusCode::NOT_FOUND, "not_found"));
    }
}

#[tokio::test]
async fn an_account_has_at_most_so_many_passkeys() {
    let store = Store::in_memory().unwrap();
    let s = server_on(store.clone(), Config::quick());
    let ada = signed_up(&s, "Ada").await;
    let me = store.accounts.by_key("ada").await.unwrap().unwrap();
    for i in 0..MAX_PASSKEYS {
        assert!(store.passkeys.add(&passkey(&format!("{i:02x}"), &me.id, i as i64), MAX_PASSKEYS).await.unwrap());
    }
    let a = register_start(&s, &ada).await;
    assert_eq!((a.status, a.code()), (StatusCode::TOO_MANY_REQUESTS, "quota_exceeded"));
    let list = send(&s, Req { token: Some(&ada), ..req("GET", "/api/passkeys", None) }).await;
    assert_eq!(list.body["passkeys"].as_array().unwrap().len(), MAX_PASSKEYS);
    assert_eq!(list.body["passkeys"][0], json!({ "id": "00", "name": "key 00", "created_at": 0, "used_at": null }));
    // Removing one: listed no more, and Bob cannot remove Ada's.
    let bob = signed_up(&s, "Bob").await;
    let a = send(&s, Req { token: Some(&bob), ..post("/api/passkeys/delete", json!({ "id": "00" })) }).await;
    assert_eq!(a.code(), "not_found");
    let a = send(&s, Req { token: Some(&ada), ..post("/api/passkeys/delete", json!({ "id": "00" })) }).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.body["passkeys"].as_array().unwrap().len(), MAX_PASSKEYS - 1);
    assert_eq!(a.body["passkeys"][0]["id"], "01");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ceremony_begun_on_one_server_finishes_on_another() {
    let Some(url) = common::pg::server_url() else { return };
    let schema = common::pg::Schema::new(&url);
    let one = server_on(schema.open().await, Config::quick());
    let two = server_on(schema.open().await, Config::quick());
    let c = sign_in_start(&one).await.body["challenge"].as_str().unwrap().to_string();
    let body = json!({ "challenge": c, "credential": bogus_assertion() });
    // The second server finds the ceremony (and checks the answer: refused), once.
    assert_eq!(send(&two, post("/api/passkeys/signin/finish", body.clone())).await.code(), "passkey_refused");
    assert_eq!(send(&one, post("/api/passkeys/signin/finish", body)).await.code(), "challenge_expired");
}

// ---------------------------------------------------------------- helpers

/// A request kept with owned strings (for closures that build one).
struct OwnedReq {
    uri: String,
    body: Value,
    token: String,
}

impl Req<'_> {
    fn into_owned(self) -> OwnedReq {
        OwnedReq {
            uri: self.uri.to_string(),
            body: serde_json::from_slice(self.body.as_deref().unwrap_or(b"null")).unwrap(),
            token: self.token.unwrap_or_default().to_string(),
        }
    }
}

impl OwnedReq {
    fn as_req(&self) -> Req<'_> {
        Req { token: Some(&self.token), ..post(&self.uri, self.body.clone()) }
    }
}
