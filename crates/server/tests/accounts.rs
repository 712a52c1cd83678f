//! Accounts through the router (`oneshot`): sign up, in and out, the
//! cookie's flags, sessions expiring, renewed and revoked, throttles,
//! equal answers for an unknown name and a wrong password, requests from
//! other sites refused, and bodies that are too large or malformed.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use carcassonne_server::{app, hash_token, AppState, Config, Store, COOKIE_MAX_AGE, MAX_ACCOUNT_BODY};
use common::page::{Answer, Req};
use serde_json::{json, Value};

const HOST: &str = "play.example";
const ORIGIN: &str = "http://play.example";

struct Server {
    app: Router,
    store: Store,
}

fn server(config: Config) -> Server {
    let store = Store::in_memory().unwrap();
    let state = AppState::new(store.clone(), config);
    Server { app: app(state), store }
}

fn req<'a>(method: &'a str, uri: &'a str, body: Option<Value>) -> Req<'a> {
    common::page::req(HOST, ORIGIN, method, uri, body)
}

async fn send(s: &Server, r: Req<'_>) -> Answer {
    common::page::send(&s.app, r).await
}

fn creds(name: &str, password: &str) -> Value {
    json!({ "name": name, "password": password })
}

async fn sign_up(s: &Server, name: &str, password: &str) -> Answer {
    send(s, req("POST", "/api/account/signup", Some(creds(name, password)))).await
}

async fn sign_in(s: &Server, name: &str, password: &str) -> Answer {
    send(s, req("POST", "/api/account/signin", Some(creds(name, password)))).await
}

async fn me(s: &Server, token: &str) -> Value {
    let a = send(s, Req { token: Some(token), ..req("GET", "/api/me", None) }).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    a.body["name"].clone()
}

#[tokio::test]
async fn sign_up_in_and_out() {
    let s = server(Config::quick());
    let up = sign_up(&s, "  Ada \u{200B}Lovelace ", "correct horse").await;
    assert_eq!(up.status, StatusCode::CREATED, "{}", up.body);
    assert_eq!(up.body["name"], "Ada Lovelace", "cleaned as seat names are");
    let code = up.body["recovery_code"].as_str().unwrap();
    assert_eq!(code.len(), 32);
    let first = up.token();
    assert_eq!(first.len(), 32, "128 bits in hex");
    assert_eq!(me(&s, &first).await, "Ada Lovelace");
    // Kept hashed: the stored account holds neither the password nor the code.
    let stored = s.store.accounts.by_key("ada lovelace").await.unwrap().unwrap();
    assert!(stored.password.starts_with("$argon2id$v=19$"), "{}", stored.password);
    assert!(!stored.password.contains("correct horse"));
    assert_eq!(stored.recovery, hash_token(code));

    // A name taken, by its look-alike too.
    for name in ["Ada Lovelace", "ADA LOVELACE", "\u{FF21}da Lovelace"] {
        let again = sign_up(&s, name, "another password").await;
        assert_eq!((again.status, again.body["error"].as_str()), (StatusCode::CONFLICT, Some("name_taken")));
        assert!(again.set_cookie.is_none());
    }

    // Signed in again (any spelling of the name with the same key), a second session.
    let inn = sign_in(&s, "ada lovelace", "correct horse").await;
    assert_eq!(inn.status, StatusCode::OK, "{}", inn.body);
    let second = inn.token();
    assert_ne!(first, second);
    assert_eq!(me(&s, &second).await, "Ada Lovelace");

    // Signing out ends that session only, and removes its cookie.
    let out = send(&s, Req { token: Some(&second), ..req("POST", "/api/account/signout", Some(json!({}))) }).await;
    assert_eq!(out.status, StatusCode::OK);
    assert!(out.set_cookie.unwrap().contains("Max-Age=0"));
    assert_eq!(me(&s, &second).await, Value::Null);
    assert_eq!(me(&s, &first).await, "Ada Lovelace");
    // No cookie, or a made-up one: nobody.
    assert_eq!(send(&s, req("GET", "/api/me", None)).await.body, json!({ "name": null }));
    assert_eq!(me(&s, &"0".repeat(32)).await, Value::Null);
}

#[tokio::test]
async fn the_cookie_is_http_only_lax_for_the_whole_site_and_secure_on_https() {
    let s = server(Config::quick());
    let up = sign_up(&s, "Ada", "correct horse").await;
    let cookie = up.set_cookie.unwrap();
    let parts: Vec<&str> = cookie.split("; ").collect();
    assert_eq!(&parts[1..], ["Path=/", "Max-Age=34560000", "HttpOnly", "SameSite=Lax"], "{cookie}");
    assert_eq!(COOKIE_MAX_AGE, 34_560_000, "400 days: the session ends on the server");

    // A page served over https (its origin says so): Secure.
    let https = Req {
        origin: Some("https://play.example"),
        ..req("POST", "/api/account/signin", Some(creds("Ada", "correct horse")))
    };
    let cookie = send(&s, https).await.set_cookie.unwrap();
    assert!(cookie.ends_with("; HttpOnly; SameSite=Lax; Secure"), "{cookie}");
    // The setting makes every cookie Secure (a server behind a TLS proxy).
    let s = server(Config { secure_cookies: true, ..Config::quick() });
    let cookie = sign_up(&s, "Ada", "correct horse").await.set_cookie.unwrap();
    assert!(cookie.ends_with("; Secure"), "{cookie}");
}

#[tokio::test]
async fn a_session_unused_for_the_idle_time_ends_and_each_use_renews_it() {
    let s = server(Config { session_idle: Duration::from_millis(1_500), ..Config::quick() });
    let token = sign_up(&s, "Ada", "correct horse").await.token();
    // The cookie is set once: a GET carries no Origin, so a renewal there
    // could not tell an https page and would drop `Secure`.
    let renewal = send(&s, Req { token: Some(&token), ..req("GET", "/api/me", None) }).await;
    assert_eq!((renewal.body["name"].as_str(), renewal.set_cookie), (Some("Ada"), None));
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(me(&s, &token).await, "Ada", "used within the idle time: renewed");
    }
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    let over = send(&s, Req { token: Some(&token), ..req("GET", "/api/me", None) }).await;
    assert_eq!(over.body, json!({ "name": null }), "unused for longer: over");
    assert!(over.set_cookie.unwrap().contains("Max-Age=0"), "and its cookie removed");
}

#[tokio::test]
async fn signing_out_everywhere_ends_every_session() {
    let s = server(Config::quick());
    let a = sign_up(&s, "Ada", "correct horse").await.token();
    let b = sign_in(&s, "Ada", "correct horse").await.token();
    let c = sign_in(&s, "Ada", "correct horse").await.token();
    let bob = sign_up(&s, "Bob", "battery staple").await.token();
    let out =
        send(&s, Req { token: Some(&b), ..req("POST", "/api/account/signout-everywhere", Some(json!({}))) }).await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.body);
    for t in [&a, &b, &c] {
        assert_eq!(me(&s, t).await, Value::Null);
    }
    assert_eq!(me(&s, &bob).await, "Bob", "another account's sessions stay");
    // Without a session: refused.
    let again =
        send(&s, Req { token: Some(&b), ..req("POST", "/api/account/signout-everywhere", Some(json!({}))) }).await;
    assert_eq!((again.status, again.body["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("not_signed_in")));
}

#[tokio::test]
async fn changing_the_password_needs_the_current_one_and_ends_the_other_sessions() {
    let s = server(Config::quick());
    let here = sign_up(&s, "Ada", "correct horse").await.token();
    let there = sign_in(&s, "Ada", "correct horse").await.token();
    let change = |current: &str, new: &str| json!({ "current": current, "new": new });
    let wrong = send(
        &s,
        Req { token: Some(&here), ..req("POST", "/api/account/password", Some(change("nope nope", "new password"))) },
    )
    .await;
    assert_eq!(wrong.body["error"], "bad_credentials");
    assert_eq!(me(&s, &there).await, "Ada", "nothing changed");
    let nobody = send(&s, req("POST", "/api/account/password", Some(change("correct horse", "new password")))).await;
    assert_eq!(nobody.body["error"], "not_signed_in");
    let short = send(
        &s,
        Req { token: Some(&here), ..req("POST", "/api/account/password", Some(change("correct horse", "short"))) },
    )
    .await;
    assert_eq!(short.body["error"], "bad_request");
    let ok = send(
        &s,
        Req {
            token: Some(&here),
            ..req("POST", "/api/account/password", Some(change("correct horse", "new password")))
        },
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    assert_eq!(me(&s, &here).await, "Ada", "this session stays");
    assert_eq!(me(&s, &there).await, Value::Null, "the others end");
    assert_eq!(sign_in(&s, "Ada", "correct horse").await.body["error"], "bad_credentials");
    assert_eq!(sign_in(&s, "Ada", "new password").await.status, StatusCode::OK);
}

#[tokio::test]
async fn the_recovery_code_sets_a_new_password_once() {
    let s = server(Config::quick());
    let up = sign_up(&s, "Ada", "correct horse").await;
    let (old, code) = (up.token(), up.body["recovery_code"].as_str().unwrap().to_string());
    let recover = |code: &str| json!({ "name": "Ada", "recovery_code": code, "password": "brand new one" });
    let wrong = send(&s, req("POST", "/api/account/recover", Some(recover(&"f".repeat(32))))).await;
    assert_eq!(wrong.body["error"], "bad_credentials");
    let ok = send(&s, req("POST", "/api/account/recover", Some(recover(&code)))).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    assert_ne!(ok.body["recovery_code"].as_str().unwrap(), code, "a new code replaces the used one");
    assert_eq!(me(&s, &old).await, Value::Null, "every older session ends");
    assert_eq!(me(&s, &ok.token()).await, "Ada");
    let twice = send(&s, req("POST", "/api/account/recover", Some(recover(&code)))).await;
    assert_eq!(twice.body["error"], "bad_credentials", "a code works once");
    assert_eq!(sign_in(&s, "Ada", "brand new one").await.status, StatusCode::OK);
}

#[tokio::test]
async fn deleting_the_account_needs_the_password_and_ends_its_sessions() {
    let s = server(Config::quick());
    let a = sign_up(&s, "Ada", "correct horse").await.token();
    let b = sign_in(&s, "Ada", "correct horse").await.token();
    let wrong = send(
        &s,
        Req { token: Some(&a), ..req("POST", "/api/account/delete", Some(json!({ "password": "nope nope" }))) },
    )
    .await;
    assert_eq!(wrong.body["error"], "bad_credentials");
    assert_eq!(me(&s, &b).await, "Ada");
    let ok = send(
        &s,
        Req { token: Some(&a), ..req("POST", "/api/account/delete", Some(json!({ "password": "correct horse" }))) },
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    assert!(ok.set_cookie.unwrap().contains("Max-Age=0"));
    assert_eq!(me(&s, &b).await, Value::Null);
    assert_eq!(sign_in(&s, "Ada", "correct horse").await.body["error"], "bad_credentials");
    assert!(s.store.accounts.by_key("ada").await.unwrap().is_none());
    assert_eq!(sign_up(&s, "Ada", "another one!").await.status, StatusCode::CREATED, "the name is free again");
}

#[tokio::test]
async fn an_unknown_name_and_a_wrong_password_get_the_same_answer() {
    let s = server(Config::quick());
    sign_up(&s, "Ada", "correct horse").await;
    let wrong = sign_in(&s, "Ada", "not the password").await;
    let unknown = sign_in(&s, "Nobody", "not the password").await;
    let empty = sign_in(&s, "\u{200B}", "not the password").await;
    for a in [&wrong, &unknown, &empty] {
        assert_eq!(a.status, StatusCode::UNAUTHORIZED);
        assert!(a.set_cookie.is_none());
    }
    assert_eq!(wrong.body, unknown.body);
    assert_eq!(wrong.body, empty.body);
    assert_eq!(wrong.body["error"], "bad_credentials");
}

#[tokio::test]
async fn sign_in_is_throttled_per_name_and_per_address() {
    let s = server(Config::quick());
    sign_up(&s, "Ada", "correct horse").await;
    // Per name: five attempts from five addresses, then the name waits…
    for i in 0..5 {
        let r = Req {
            ip: format!("198.51.100.{i}").parse().unwrap(),
            ..req("POST", "/api/account/signin", Some(creds("Ada", "wrong password")))
        };
        assert_eq!(send(&s, r).await.body["error"], "bad_credentials");
    }
    let r = Req {
        ip: "198.51.100.9".parse().unwrap(),
        ..req("POST", "/api/account/signin", Some(creds("ADA", "correct horse")))
    };
    let held = send(&s, r).await;
    assert_eq!((held.status, held.body["error"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_attempts")));
    let secs: u64 = held.retry_after.unwrap().parse().unwrap();
    assert!((1..=60).contains(&secs), "{secs}");
    assert!(held.set_cookie.is_none(), "even the right password waits");
    // …while other names are not held.
    sign_up(&s, "Bob", "battery staple").await;
    assert_eq!(sign_in(&s, "Bob", "battery staple").await.status, StatusCode::OK);

    // Per address: twenty attempts from one /64, then it waits, whatever the name.
    let s = server(Config::quick());
    for i in 0..20 {
        let name = format!("name{i}");
        let r = Req {
            ip: format!("2001:db8:1:2::{i:x}").parse().unwrap(),
            ..req("POST", "/api/account/signin", Some(creds(&name, "whatever pw")))
        };
        assert_eq!(send(&s, r).await.body["error"], "bad_credentials");
    }
    let r = Req {
        ip: "2001:db8:1:2:ffff::1".parse().unwrap(),
        ..req("POST", "/api/account/signin", Some(creds("fresh", "whatever pw")))
    };
    let held = send(&s, r).await;
    assert_eq!(held.body["error"], "too_many_attempts");
    assert!(held.retry_after.is_some());
    // Sign-ups from there wait too; another /64 does not.
    let r = Req {
        ip: "2001:db8:1:2::77".parse().unwrap(),
        ..req("POST", "/api/account/signup", Some(creds("Cy", "password!")))
    };
    assert_eq!(send(&s, r).await.body["error"], "too_many_attempts");
    let r = Req {
        ip: "2001:db8:1:3::1".parse().unwrap(),
        ..req("POST", "/api/account/signup", Some(creds("Cy", "password!")))
    };
    assert_eq!(send(&s, r).await.status, StatusCode::CREATED);
}

/// A crowd of sign-ins from many addresses, more than the hashing threads
/// and their line hold: the rest are told `busy` at once (503 with
/// `Retry-After`), nobody waits without bound, and the line empties.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_of_sign_ins_past_the_hashing_line_is_told_busy_at_once() {
    let config = Config {
        // Slow enough that the crowd arrives while the first ones are hashed.
        password_cost: carcassonne_server::PasswordCost { memory_kib: 4096, passes: 2, lanes: 1 },
        password_queue: 2,
        ..Config::quick()
    };
    let s = server(config);
    let crowd = (0..16).map(|i| {
        let r = Req {
            ip: format!("203.0.113.{i}").parse().unwrap(),
            ..req("POST", "/api/account/signin", Some(creds(&format!("someone{i}"), "a password")))
        };
        send(&s, r)
    });
    let answers = futures_util::future::join_all(crowd).await;
    let busy: Vec<&Answer> = answers.iter().filter(|a| a.status == StatusCode::SERVICE_UNAVAILABLE).collect();
    let checked = answers.iter().filter(|a| a.body["error"] == "bad_credentials").count();
    assert_eq!(busy.len() + checked, 16, "each is checked or told busy");
    assert!(!busy.is_empty(), "the line holds two: some are told busy");
    assert!(checked >= 2, "the hashing threads took some ({checked})");
    for a in &busy {
        assert_eq!(a.body["error"], "busy");
        assert!(a.retry_after.is_some());
    }
    // The line is empty again: one after the other, all are checked.
    for i in 0..4 {
        let r = Req {
            ip: format!("203.0.113.{}", 100 + i).parse().unwrap(),
            ..req("POST", "/api/account/signin", Some(creds("nobody", "a password")))
        };
        assert_eq!(send(&s, r).await.body["error"], "bad_credentials");
    }
}

#[tokio::test]
async fn requests_from_another_site_are_refused_and_change_nothing() {
    let s = server(Config::quick());
    let token = sign_up(&s, "Ada", "correct horse").await.token();
    let evil =
        |uri, body| Req { origin: Some("https://evil.example"), token: Some(&token), ..req("POST", uri, Some(body)) };
    let cases = [
        ("/api/account/signup", creds("Eve", "password!")),
        ("/api/account/signin", creds("Ada", "correct horse")),
        ("/api/account/signout", json!({})),
        ("/api/account/signout-everywhere", json!({})),
        ("/api/account/password", json!({ "current": "correct horse", "new": "owned by eve" })),
        ("/api/account/delete", json!({ "password": "correct horse" })),
    ];
    for (uri, body) in &cases {
        let a = send(&s, evil(uri, body.clone())).await;
        assert_eq!((a.status, a.body["error"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden_origin")), "{uri}");
        assert!(a.set_cookie.is_none(), "{uri}");
        // A browser that says the request is cross-site, whatever the origin.
        let a = send(&s, Req { fetch_site: Some("cross-site"), ..req("POST", uri, Some(body.clone())) }).await;
        assert_eq!(a.body["error"], "forbidden_origin", "{uri}");
    }
    assert_eq!(me(&s, &token).await, "Ada", "still signed in");
    assert!(s.store.accounts.by_key("eve").await.unwrap().is_none());
    assert_eq!(sign_in(&s, "Ada", "correct horse").await.status, StatusCode::OK, "the password unchanged");
    // The server's own pages (same-origin) are welcome.
    let a = send(
        &s,
        Req {
            fetch_site: Some("same-origin"),
            ..req("POST", "/api/account/signin", Some(creds("Ada", "correct horse")))
        },
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
}

#[tokio::test]
async fn oversized_and_malformed_bodies_are_refused_and_change_nothing() {
    let s = server(Config::quick());
    let big = json!({ "name": "Ada", "password": "x".repeat(MAX_ACCOUNT_BODY) });
    let a = send(&s, req("POST", "/api/account/signup", Some(big))).await;
    assert_eq!((a.status, a.body["error"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("too_large")));
    for body in [
        json!({ "name": "Ada" }),
        json!({ "name": 3, "password": "correct horse" }),
        json!({ "name": "Ada", "password": "correct horse", "admin": true }),
        json!({ "name": "   ", "password": "correct horse" }),
        json!({ "name": "Ada", "password": "short" }),
        json!({ "name": "Ada", "password": "y".repeat(257) }),
    ] {
        let a = send(&s, req("POST", "/api/account/signup", Some(body.clone()))).await;
        assert_eq!((a.status, a.body["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{body}");
    }
    let junk = Req { body: Some(b"{not json".to_vec()), ..req("POST", "/api/account/signin", None) };
    assert_eq!(send(&s, junk).await.body["error"], "bad_request");
    assert!(s.store.accounts.by_key("ada").await.unwrap().is_none(), "nothing was made");
}

#[tokio::test]
async fn passwords_are_hashed_with_the_documented_cost() {
    // The defaults (docs/web.md): argon2id, 19 MiB, 2 passes, 1 lane.
    let s = server(Config { http_rate: None, ..Config::default() });
    assert_eq!(sign_up(&s, "Ada", "correct horse").await.status, StatusCode::CREATED);
    let stored = s.store.accounts.by_key("ada").await.unwrap().unwrap();
    assert!(stored.password.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{}", stored.password);
    assert_eq!(sign_in(&s, "Ada", "correct horse").await.status, StatusCode::OK);
    assert_eq!(sign_in(&s, "Ada", "wrong horse!").await.body["error"], "bad_credentials");
}

/// The new-game form spends a person with a history's own games of the
/// hour, not their address's: a crowd of guests (or new accounts) on the
/// same address spending its hour shuts none of them out (as the lobby:
/// `lobby.rs` `a_crowd_on_a_known_player_s_address_spends_none_of_their_games`).
#[tokio::test]
async fn a_crowd_on_a_known_player_s_address_spends_none_of_their_new_games() {
    let mut config = Config { max_new_games_per_hour_per_ip: 2, ..Config::quick() };
    config.lobby.known_after = Duration::ZERO;
    config.lobby.known_rated_games = 1;
    let s = server(config);
    let ada = sign_up(&s, "Ada", "correct horse").await.token();
    common::accounts::rated(&s.store, "Ada", carcassonne_server::Pool::Duel, 1500.0).await;
    let newcomer = sign_up(&s, "Newcomer", "correct horse").await.token();
    let form = || req("POST", "/api/games", Some(common::two_humans()));
    for _ in 0..2 {
        assert_eq!(send(&s, form()).await.status, StatusCode::CREATED, "a guest's game");
    }
    let guest = send(&s, form()).await;
    assert_eq!((guest.status, guest.code()), (StatusCode::TOO_MANY_REQUESTS, "quota_exceeded"), "{}", guest.body);
    let new = send(&s, Req { token: Some(&newcomer), ..form() }).await;
    assert_eq!(new.code(), "quota_exceeded", "a new account spends its address's: {}", new.body);
    for _ in 0..2 {
        let a = send(&s, Req { token: Some(&ada), ..form() }).await;
        assert_eq!(a.status, StatusCode::CREATED, "Ada's own: {}", a.body);
    }
    let a = send(&s, Req { token: Some(&ada), ..form() }).await;
    assert_eq!(a.code(), "quota_exceeded", "and hers are bounded too: {}", a.body);
}
