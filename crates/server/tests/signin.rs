//! Sign-in on the open internet (issue 45, 1 and 2): a device that signed
//! in to an account before is neither starved by a crowd of made-up names
//! filling the hashing line, nor locked out by wrong passwords sent for its
//! name from many addresses; recovery counts against the address alone.

mod common;

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use axum::http::StatusCode;
use axum::Router;
use carcassonne_server::{app, AppState, Config, PasswordCost, Store};
use common::page::{send, Answer, Req};
use serde_json::json;

const HOST: &str = "play.example";
const ORIGIN: &str = "http://play.example";

fn req<'a>(uri: &'a str, body: serde_json::Value) -> Req<'a> {
    common::page::req(HOST, ORIGIN, "POST", uri, Some(body))
}

/// A client address of its own for each `i`.
fn address(i: usize) -> IpAddr {
    format!("10.{}.{}.{}", (i >> 16) & 255, (i >> 8) & 255, i & 255).parse().unwrap()
}

async fn sign_in(app: &Router, name: &str, password: &str, device: Option<&str>, ip: IpAddr) -> Answer {
    let body = json!({ "name": name, "password": password });
    send(app, Req { device, ip, ..req("/api/account/signin", body) }).await
}

/// Ada's account, and the device cookie her browser got when she made it.
async fn ada(app: &Router) -> (String, String) {
    let body = json!({ "name": "Ada", "password": "correct horse" });
    let a = send(app, Req { ip: address(1), ..req("/api/account/signup", body) }).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    let device = a.device().expect("a device cookie with the first session");
    assert!(
        a.set_cookies.iter().any(|c| c.contains("HttpOnly") && c.contains("SameSite=Strict")),
        "{:?}",
        a.set_cookies
    );
    (a.body["recovery_code"].as_str().unwrap().to_string(), device)
}

/// A server whose password hashing takes a while (1 MiB, 1 pass), so that
/// 40 sign-ins at a time keep the line (2 hashing threads, 32 waiting) full,
/// as in the wild; accounts have a history once they have a rated game, as
/// Ada's has. The router, and her browser's device cookie.
async fn known_ada_on_slow_hashing() -> (Router, String) {
    let cost = PasswordCost { memory_kib: 1024, passes: 1, lanes: 1 };
    let mut config = Config { password_cost: cost, ..Config::quick() };
    config.lobby.known_after = std::time::Duration::ZERO;
    config.lobby.known_rated_games = 1;
    let state = AppState::new(Store::in_memory().unwrap(), config);
    let app = app(state.clone());
    let (_, device) = ada(&app).await;
    common::accounts::rated(state.store(), "Ada", carcassonne_server::Pool::Duel, 1500.0).await;
    (app, device)
}

/// Ada's three sign-ins from her browser while a crowd keeps the hashing
/// line full: 40 sign-ins at a time with made-up names, each from an
/// address of its own, and as many by `puppets` (name, device cookie),
/// each from its own device, one after the other, until Ada is done.
async fn ada_under_a_crowd(app: &Router, device: &str, puppets: Vec<(String, String)>) -> Vec<(StatusCode, String)> {
    let done = Arc::new(AtomicBool::new(false));
    let (busy, tried) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut crowd = tokio::task::JoinSet::new();
    let puppets: Vec<Option<(String, String)>> =
        std::iter::repeat_n(None, 40).chain(puppets.into_iter().map(Some)).collect();
    for (c, puppet) in puppets.into_iter().enumerate() {
        let (app, done, busy, tried) = (app.clone(), Arc::clone(&done), Arc::clone(&busy), Arc::clone(&tried));
        crowd.spawn(async move {
            let mut n = 0;
            while !done.load(Ordering::Relaxed) {
                let i = 1_000 + c * 10_000 + n;
                let a = match &puppet {
                    None => sign_in(&app, &format!("Nobody {i}"), "not a password", None, address(i)).await,
                    Some((name, device)) => sign_in(&app, name, "correct horse", Some(device), address(i)).await,
                };
                tried.fetch_add(1, Ordering::Relaxed);
                if a.code() == "busy" {
                    busy.fetch_add(1, Ordering::Relaxed);
                }
                n += 1;
            }
        });
    }
    // Once the line is full, Ada signs in from her browser, again and again.
    while busy.load(Ordering::Relaxed) == 0 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let mut answers = Vec::new();
    for _ in 0..3 {
        let a = sign_in(app, "Ada", "correct horse", Some(device), address(2)).await;
        answers.push((a.status, a.code().to_string()));
    }
    done.store(true, Ordering::Relaxed);
    while crowd.join_next().await.is_some() {}
    assert!(busy.load(Ordering::Relaxed) > 0, "the crowd filled the line ({} tried)", tried.load(Ordering::Relaxed));
    answers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_crowd_of_made_up_names_never_starves_a_known_device() {
    let (app, device) = known_ada_on_slow_hashing().await;
    let answers = ada_under_a_crowd(&app, &device, Vec::new()).await;
    assert!(answers.iter().all(|(s, _)| *s == StatusCode::OK), "Ada was kept out: {answers:?}");
}

/// The hashing thread and line kept are for the devices of accounts with
/// a history: new accounts made for it, each signing in from its own
/// device (its own budget), wait in the line with everyone else.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn new_accounts_signing_in_from_their_own_devices_never_starve_a_known_one() {
    let (app, device) = known_ada_on_slow_hashing().await;
    let mut puppets = Vec::new();
    for p in 0..40 {
        let name = format!("Puppet{p}");
        let body = json!({ "name": name, "password": "correct horse" });
        let a = send(&app, Req { ip: address(500 + p), ..req("/api/account/signup", body) }).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
        puppets.push((name, a.device().expect("a device cookie")));
    }
    let answers = ada_under_a_crowd(&app, &device, puppets).await;
    assert!(answers.iter().all(|(s, _)| *s == StatusCode::OK), "Ada was kept out: {answers:?}");
}

#[tokio::test]
async fn wrong_passwords_from_many_addresses_lock_out_no_known_device() {
    let app = app(AppState::new(Store::in_memory().unwrap(), Config::quick()));
    let (recovery, device) = ada(&app).await;
    // Strangers spend the name's budget: a wrong password from each of
    // 20 addresses, one after the other.
    let mut refused = 0;
    for i in 0..20 {
        let a = sign_in(&app, "Ada", "a guess", None, address(100 + i)).await;
        refused += usize::from(a.code() == "too_many_attempts");
    }
    assert!(refused > 0, "the name's budget is spent");
    // Her browser is let in at once, and again.
    for _ in 0..3 {
        let a = sign_in(&app, "Ada", "correct horse", Some(&device), address(2)).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        assert_eq!(a.device(), None, "her device is hers already: no new cookie");
    }
    // A browser she never used is throttled with the strangers...
    let a = sign_in(&app, "Ada", "correct horse", None, address(3)).await;
    assert_eq!(a.code(), "too_many_attempts", "{}", a.body);
    // ...but may recover the account, even after strangers sent wrong codes
    // for her name from many addresses: a recovery counts against the
    // address alone (its 128-bit code is not guessed), and the code is read
    // in capitals too.
    for i in 0..20 {
        let wrong =
            json!({ "name": "Ada", "recovery_code": "00112233445566778899aabbccddeeff", "password": "a guess 123" });
        let a = send(&app, Req { ip: address(150 + i), ..req("/api/account/recover", wrong) }).await;
        assert_eq!(a.code(), "bad_credentials", "{}", a.body);
    }
    let body = json!({ "name": "Ada", "recovery_code": recovery.to_uppercase(), "password": "battery staple" });
    let a = send(&app, Req { ip: address(3), ..req("/api/account/recover", body) }).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert!(a.device().is_some(), "the recovering browser is one of Ada's devices now");
    // A device cookie of another account, or a made-up one, counts for nothing.
    let a = sign_in(&app, "Ada", "battery staple", Some("00112233445566778899aabbccddeeff"), address(4)).await;
    assert_eq!(a.code(), "too_many_attempts", "{}", a.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_sharing_a_database_spend_one_budget_of_guesses() {
    let Some(server) = common::pg::server_url() else { return };
    let schema = common::pg::Schema::new(&server);
    let one = app(AppState::new(Store::postgres(&schema.url()).await.unwrap(), Config::quick()));
    let two = app(AppState::new(Store::postgres(&schema.url()).await.unwrap(), Config::quick()));
    ada(&one).await;
    // A balancer spreads a stranger's guesses over both servers, each from
    // an address of its own: the name's five are spent whichever server
    // takes them, and both refuse the sixth.
    for i in 0..5 {
        let a = sign_in([&one, &two][i % 2], "Ada", "a guess", None, address(100 + i)).await;
        assert_eq!(a.code(), "bad_credentials", "guess {i}: {}", a.body);
    }
    for (n, server) in [&one, &two].into_iter().enumerate() {
        let a = sign_in(server, "Ada", "a guess", None, address(200 + n)).await;
        assert_eq!(a.code(), "too_many_attempts", "server {n}: {}", a.body);
        let wait = a.retry_after.as_deref().and_then(|s| s.parse::<u64>().ok());
        assert!(wait.is_some_and(|s| (1..=60).contains(&s)), "{wait:?}");
    }
    // One address's twenty attempts too: sign-ups and sign-ins alike, on
    // either server.
    for i in 0..20 {
        let body = json!({ "name": format!("Puppet {i}"), "password": "a password" });
        let a = send([&one, &two][i % 2], Req { ip: address(300), ..req("/api/account/signup", body) }).await;
        assert_eq!(a.status, StatusCode::CREATED, "sign-up {i}: {}", a.body);
    }
    for server in [&one, &two] {
        let a = sign_in(server, "Puppet 0", "a password", None, address(300)).await;
        assert_eq!(a.code(), "too_many_attempts", "{}", a.body);
    }
}
