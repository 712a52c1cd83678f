//! Web Push end to end (docs/web.md, *Notifications*): a push service of
//! the test's own on 127.0.0.1 receives the server's requests; the test is
//! the browser, with a P-256 key pair and an auth secret of its own, and
//! decrypts each payload itself (RFC 8291 over RFC 8188 `aes128gcm`: ECDH
//! with the server's ephemeral key from the payload's header, then HKDF as
//! the RFCs say) and checks the VAPID signature (RFC 8292: a JWT ES256
//! signed with the key `GET /api/push/key` serves, its `aud`, `exp`, `sub`).
//! Also: a 410 answer removes the subscription; malformed, oversized,
//! non-https, private-address and over-cap subscriptions are refused with
//! stable codes; an invite taken tells its creator once; two servers on one
//! PostgreSQL database (`CARCASSONNE_TEST_POSTGRES`) sign with one key.
//! (What the storage keeps is the conformance suite's: tests/store/push.rs.)

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use carcassonne_server::{serve_on, Config, Store};
use common::push::{push_config, push_service, server_with, Browser, Received, SUBJECT};
use common::{call, create, pick_move, post_move, state, two_humans};
use futures_util::StreamExt;
use p256::ecdsa::signature::Verifier as _;
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

/// The server's VAPID public key.
async fn server_key(app: &Router) -> Vec<u8> {
    let (status, v) = call(app, "GET", "/api/push/key", None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let key = URL_SAFE_NO_PAD.decode(v["key"].as_str().unwrap()).unwrap();
    assert_eq!(key.len(), 65);
    key
}

async fn subscribe(app: &Router, body: Value) -> (StatusCode, Value) {
    call(app, "POST", "/api/push/subscribe", Some(&body.to_string())).await
}

/// Checks the VAPID `Authorization` header: the JWT's signature by
/// `server_key`, its audience `origin`, its subject and expiry.
fn check_vapid(authorization: &str, server_key: &[u8], origin: &str) {
    let rest = authorization.strip_prefix("vapid ").expect("the vapid scheme");
    let mut t = None;
    let mut k = None;
    for part in rest.split(',') {
        let (name, value) = part.trim().split_once('=').unwrap();
        match name {
            "t" => t = Some(value.to_string()),
            "k" => k = Some(value.to_string()),
            other => panic!("unexpected parameter {other}"),
        }
    }
    assert_eq!(URL_SAFE_NO_PAD.decode(k.unwrap()).unwrap(), server_key, "k is the key the server serves");
    let jwt = t.unwrap();
    let parts: Vec<&str> = jwt.split('.').collect();
    assert_eq!(parts.len(), 3);
    let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[0]).unwrap()).unwrap();
    assert_eq!(header["alg"], "ES256");
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
    assert_eq!(claims["aud"], origin);
    assert_eq!(claims["sub"], SUBJECT);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let exp = claims["exp"].as_u64().unwrap();
    assert!(exp > now + 11 * 3600 && exp <= now + 12 * 3600 + 60, "exp {exp}: 12 hours after {now}");
    let signature = p256::ecdsa::Signature::from_slice(&URL_SAFE_NO_PAD.decode(parts[2]).unwrap()).unwrap();
    let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(server_key).unwrap();
    key.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature).expect("signed by the server's key");
}

async fn next(rx: &mut mpsc::UnboundedReceiver<Received>) -> Received {
    tokio::time::timeout(Duration::from_secs(20), rx.recv()).await.expect("a push within 20 s").unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn your_turn_reaches_the_push_service_encrypted_and_signed() {
    let (addr, mut pushes) = push_service().await;
    let (app, _) = server_with(Store::in_memory().unwrap(), push_config());
    let key = server_key(&app).await;
    assert_eq!(server_key(&app).await, key, "one key");
    let (id, tokens, created) = create(&app, two_humans()).await;
    // "Ada" moves first, "Bob" second (whichever seats they are).
    let first = created["turn"]["seat"].as_u64().unwrap() as usize;
    let (ada, bob) = (tokens[first].clone().unwrap(), tokens[1 - first].clone().unwrap());
    let browser = Browser::new("bob");
    let endpoint = format!("http://{addr}/push/bob-endpoint");
    let (status, v) =
        subscribe(&app, json!({ "subscription": browser.subscription(&endpoint), "game": id, "tokens": bob })).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["targets"], json!([format!("seat:{id}:{}", 1 - first)]));

    // Ada moves: Bob, with no websocket open, is told.
    let s = state(&app, &id, Some(&ada)).await;
    let (status, v) = post_move(&app, &id, &ada, &pick_move(&s, 0, false)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let got = next(&mut pushes).await;
    assert_eq!(got.path, "/push/bob-endpoint");
    let header = |name: &str| got.headers.get(name).map(|v| v.to_str().unwrap().to_string());
    assert_eq!(header("content-encoding").as_deref(), Some("aes128gcm"));
    assert_eq!(header("content-type").as_deref(), Some("application/octet-stream"));
    assert_eq!(header("ttl").as_deref(), Some("86400"));
    assert_eq!(header("urgency").as_deref(), Some("high"));
    assert_eq!(header("topic"), Some(format!("t{id}")), "a newer turn replaces an undelivered one");
    check_vapid(&header("authorization").unwrap(), &key, &format!("http://{addr}"));
    let payload: Value = serde_json::from_slice(&browser.decrypt(&got.body)).unwrap();
    assert_eq!(payload["kind"], "turn");
    assert_eq!(payload["game"], id);
    assert_eq!(payload["seat"], 1 - first);
    assert_eq!(payload["url"], format!("/#/game/{id}"));
    assert_eq!(payload["title"], "Your turn");
    assert!(payload["body"].as_str().unwrap().contains(&id), "{payload}");
    assert!(!got.body.windows(id.len()).any(|w| w == id.as_bytes()), "the game's id travels encrypted only");

    // A second browser of Bob's, in German: each is told in its language.
    let german = Browser::new("bob-de");
    let de_endpoint = format!("http://{addr}/push/bob-de");
    let sub = json!({ "subscription": german.subscription(&de_endpoint), "game": id, "tokens": bob, "lang": "de" });
    assert_eq!(subscribe(&app, sub).await.0, StatusCode::OK);
    let s = state(&app, &id, Some(&bob)).await;
    assert_eq!(post_move(&app, &id, &bob, &pick_move(&s, 0, false)).await.0, StatusCode::OK);
    let s = state(&app, &id, Some(&ada)).await;
    assert_eq!(post_move(&app, &id, &ada, &pick_move(&s, 0, false)).await.0, StatusCode::OK);
    let told = [next(&mut pushes).await, next(&mut pushes).await];
    let to = |path: &str| told.iter().find(|t| t.path == path).unwrap_or_else(|| panic!("nothing to {path}"));
    let en: Value = serde_json::from_slice(&browser.decrypt(&to("/push/bob-endpoint").body)).unwrap();
    let de: Value = serde_json::from_slice(&german.decrypt(&to("/push/bob-de").body)).unwrap();
    assert_eq!(en["title"], "Your turn");
    assert_eq!(de["title"], "Du bist am Zug", "{de}");
    assert!(de["body"].as_str().unwrap().starts_with(&format!("Du bist am Zug in Partie {id} (")), "{de}");
    assert_eq!((&de["kind"], &de["url"]), (&en["kind"], &en["url"]));
    let (status, _) = call(
        &app,
        "POST",
        "/api/push/unsubscribe",
        Some(&json!({ "endpoint": de_endpoint, "game": id, "tokens": bob }).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    // Bob moves: Ada is not subscribed, so nothing goes out; once Bob
    // unsubscribes, Ada's next move tells nobody either.
    let s = state(&app, &id, Some(&bob)).await;
    assert_eq!(post_move(&app, &id, &bob, &pick_move(&s, 0, false)).await.0, StatusCode::OK);
    let (status, v) = call(
        &app,
        "POST",
        "/api/push/unsubscribe",
        Some(&json!({ "endpoint": endpoint, "game": id, "tokens": bob }).to_string()),
    )
    .await;
    assert_eq!((status, v["removed"].as_u64()), (StatusCode::OK, Some(1)), "{v}");
    let s = state(&app, &id, Some(&ada)).await;
    assert_eq!(post_move(&app, &id, &ada, &pick_move(&s, 0, false)).await.0, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(pushes.try_recv().is_err(), "no push for a seat no browser follows");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscription_the_push_service_says_is_gone_is_removed() {
    let (addr, mut pushes) = push_service().await;
    let store: Store = Store::in_memory().unwrap();
    let (app, _) = server_with(store.clone(), push_config());
    let (id, tokens, created) = create(&app, two_humans()).await;
    let first = created["turn"]["seat"].as_u64().unwrap() as usize;
    let (ada, bob) = (tokens[first].clone().unwrap(), tokens[1 - first].clone().unwrap());
    let browser = Browser::new("gone");
    let endpoint = format!("http://{addr}/gone/1");
    let (status, v) =
        subscribe(&app, json!({ "subscription": browser.subscription(&endpoint), "game": id, "tokens": bob })).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let target = format!("seat:{id}:{}", 1 - first);
    assert_eq!(store.push.subscriptions(&target).await.unwrap().len(), 1);
    let s = state(&app, &id, Some(&ada)).await;
    assert_eq!(post_move(&app, &id, &ada, &pick_move(&s, 0, false)).await.0, StatusCode::OK);
    assert_eq!(next(&mut pushes).await.path, "/gone/1");
    for _ in 0..200 {
        if store.push.subscriptions(&target).await.unwrap().is_empty() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the subscription answered 410 was kept");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_subscriptions_are_refused_with_stable_codes_and_change_nothing() {
    let store: Store = Store::in_memory().unwrap();
    // The settings of a real server: no http endpoints at all.
    let (app, _) = server_with(store.clone(), Config::quick());
    let (id, tokens, _) = create(&app, two_humans()).await;
    let bob = tokens[1].clone().unwrap();
    let browser = Browser::new("bad");
    let good = browser.subscription("https://push.example.com/send/abc");
    let with = |endpoint: &str| {
        let mut s = good.clone();
        s["endpoint"] = endpoint.into();
        json!({ "subscription": s, "game": id, "tokens": bob })
    };
    let long = format!("https://push.example.com/{}", "a".repeat(1100));
    for endpoint in [
        "http://push.example.com/x",
        "http://127.0.0.1:9/x",
        "https://127.0.0.1/x",
        "https://localhost/x",
        "https://[::1]/x",
        "https://10.1.2.3/x",
        "https://192.168.0.10/x",
        "https://172.16.0.1/x",
        "https://169.254.169.254/latest",
        "https://100.64.0.1/x",
        "https://[fd00::1]/x",
        "https://[fe80::1]/x",
        "https://[::ffff:10.0.0.1]/x",
        "https://0.0.0.0/x",
        "https://push.example.com:8443/x",
        "https://user@push.example.com/x",
        "https://metadata.internal/x",
        "https://printer.local/x",
        "https://intranet/x",
        "ftp://push.example.com/x",
        "not a url",
        "",
        &long,
    ] {
        let (status, v) = subscribe(&app, with(endpoint)).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_subscription")), "{endpoint}");
    }
    // Keys: not base64url, the wrong length, not a point of the curve.
    let mut bad_keys = Vec::new();
    for (p256dh, auth) in [
        ("***".to_string(), URL_SAFE_NO_PAD.encode([1u8; 16])),
        (URL_SAFE_NO_PAD.encode([4u8; 33]), URL_SAFE_NO_PAD.encode([1u8; 16])),
        (URL_SAFE_NO_PAD.encode([4u8; 65]), URL_SAFE_NO_PAD.encode([1u8; 16])),
        (URL_SAFE_NO_PAD.encode(browser.public()), URL_SAFE_NO_PAD.encode([1u8; 15])),
        (URL_SAFE_NO_PAD.encode(browser.public()), "A".repeat(200)),
        ("A".repeat(5000), URL_SAFE_NO_PAD.encode([1u8; 16])),
    ] {
        let mut s = good.clone();
        s["keys"] = json!({ "p256dh": p256dh, "auth": auth });
        bad_keys.push(json!({ "subscription": s, "game": id, "tokens": bob }));
    }
    for (i, body) in bad_keys.iter().enumerate() {
        let (status, v) = subscribe(&app, body.clone()).await;
        let want = if i == 5 { "too_large" } else { "bad_subscription" };
        assert_eq!(v["error"], want, "keys {i}: {status} {v}");
    }
    // Malformed bodies, a token of no seat, no session.
    let (status, v) = call(&app, "POST", "/api/push/subscribe", Some("{not json")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    let (_, v) = subscribe(&app, json!({ "subscription": good, "game": id, "tokens": bob, "extra": 1 })).await;
    assert_eq!(v["error"], "bad_request");
    let (_, v) = subscribe(&app, json!({ "subscription": good })).await;
    assert_eq!(v["error"], "bad_request", "neither a seat nor an account");
    for lang in [json!("xx"), json!(""), json!(7), json!("de-DE-x-".repeat(100))] {
        let (status, v) =
            subscribe(&app, json!({ "subscription": good, "game": id, "tokens": bob, "lang": lang })).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "lang {lang}");
    }
    let (status, v) = subscribe(&app, json!({ "subscription": good, "game": id, "tokens": "0".repeat(32) })).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::FORBIDDEN, Some("unauthorized")));
    let (_, v) = subscribe(&app, json!({ "subscription": good, "game": "nosuchgame", "tokens": bob })).await;
    assert_eq!(v["error"], "not_found");
    let (_, v) = subscribe(&app, json!({ "subscription": good, "game": id, "tokens": "a,b,c,d,e,f,g" })).await;
    assert_eq!(v["error"], "too_many_tokens");
    let (status, v) = subscribe(&app, json!({ "subscription": good, "account": true })).await;
    assert!(v["error"] == "not_signed_in" || v["error"] == "forbidden_origin", "{status} {v}");
    assert!(store.push.subscriptions(&format!("seat:{id}:1")).await.unwrap().is_empty(), "nothing kept");

    // Caps: 8 browsers per seat (a browser renewing its keys is not a new one)…
    for n in 0..8 {
        let (status, v) = subscribe(&app, with(&format!("https://push.example.com/b{n}"))).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    assert_eq!(subscribe(&app, with("https://push.example.com/b3")).await.0, StatusCode::OK, "renewed");
    let (status, v) = subscribe(&app, with("https://push.example.com/b8")).await;
    assert_eq!((status, v["error"].as_str()), (StatusCode::CONFLICT, Some("too_many_subscriptions")));
    assert_eq!(store.push.subscriptions(&format!("seat:{id}:1")).await.unwrap().len(), 8);
    // …and 32 seats per browser.
    let six =
        json!({ "seats": (0..6).map(|i| json!({ "kind": "human", "name": format!("P{i}") })).collect::<Vec<_>>() });
    let endpoint = "https://push.example.com/many";
    let mut kept = 0;
    let mut refused = false;
    for _ in 0..6 {
        let (id, tokens, _) = create(&app, six.clone()).await;
        let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
        let mut body = with(endpoint);
        body["game"] = id.into();
        body["tokens"] = tokens.join(",").into();
        let (status, v) = subscribe(&app, body).await;
        if status == StatusCode::OK {
            kept += v["targets"].as_array().unwrap().len();
        } else {
            assert_eq!(v["error"], "too_many_subscriptions", "{v}");
            refused = true;
        }
    }
    assert!(refused && kept == 30, "the 33rd and later seats are refused ({kept} kept)");
    // A refused request kept none of its seats; unsubscribing by endpoint
    // alone removes everything it follows.
    let (status, v) =
        call(&app, "POST", "/api/push/unsubscribe", Some(&json!({ "endpoint": endpoint }).to_string())).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["removed"].as_u64(), Some(30), "{v}");
    let (_, v) = call(&app, "POST", "/api/push/unsubscribe", Some(&json!({ "endpoint": "" }).to_string())).await;
    assert_eq!(v["error"], "bad_subscription");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_taken_tells_its_creator_once() {
    let (addr, mut pushes) = push_service().await;
    let store: Store = Store::in_memory().unwrap();
    let (app, state_) = server_with(store, push_config());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = listener.local_addr().unwrap();
    tokio::spawn(serve_on(listener, state_));
    let (id, tokens, _) =
        create(&app, json!({ "seats": [ { "kind": "human", "name": "Ada" }, { "kind": "remote", "name": "Bob" } ] }))
            .await;
    let (ada, bob) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let browser = Browser::new("ada");
    let endpoint = format!("http://{addr}/push/ada");
    let sub = json!({ "subscription": browser.subscription(&endpoint), "game": id, "tokens": ada, "lang": "fr" });
    let (status, v) = subscribe(&app, sub).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Bob opens the invite twice: Ada is told once (in French).
    for _ in 0..2 {
        let (mut ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{server}/api/games/{id}/ws?token={bob}")).await.unwrap();
        let first = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.unwrap();
        assert!(first.is_some(), "the state");
        let _ = ws.close(None).await;
    }
    let got = next(&mut pushes).await;
    let payload: Value = serde_json::from_slice(&browser.decrypt(&got.body)).unwrap();
    assert_eq!(payload["kind"], "invite");
    assert_eq!(payload["game"], id);
    assert_eq!(payload["seat"], 1);
    assert_eq!(payload["title"], "Votre invitation a été acceptée", "{payload}");
    assert_eq!(payload["body"], format!("La place de Bob dans la partie {id} est prise"));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(pushes.try_recv().is_err(), "told once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_servers_sign_with_one_key() {
    let Some(server) = common::pg::server_url() else { return };
    let schema = common::pg::Schema::new(&server);
    let one: Store = schema.open().await;
    let two: Store = schema.open().await;
    let (app_one, _) = server_with(one, Config::quick());
    let (app_two, _) = server_with(two, Config::quick());
    // Two servers starting on one database sign with one key.
    let (k1, k2) = tokio::join!(server_key(&app_one), server_key(&app_two));
    assert_eq!(k1, k2, "one VAPID key for the servers sharing a database");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_s_key_is_used_and_a_bad_one_refused() {
    // A key as `web-push generate-vapid-keys` prints it: base64url of 32 bytes.
    let secret = Sha256::digest(b"operator key");
    let public = p256::SecretKey::from_slice(&secret).unwrap().public_key().to_encoded_point(false).as_bytes().to_vec();
    let store: Store = Store::in_memory().unwrap();
    let mut config = push_config();
    config.push.vapid_key = Some(format!("{}\n", URL_SAFE_NO_PAD.encode(secret)));
    let (app, state_) = server_with(store.clone(), config);
    assert_eq!(server_key(&app).await, public, "the operator's key, not the storage's");
    assert!(state_.push.ready().await.is_ok());
    for bad in [
        "garbage",
        "AAAA",
        &URL_SAFE_NO_PAD.encode([0u8; 32]),
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
    ] {
        let mut config = push_config();
        config.push.vapid_key = Some(bad.to_string());
        let (app, state_) = server_with(Store::in_memory().unwrap(), config);
        assert!(state_.push.ready().await.is_err(), "{bad} refused");
        let (status, v) = call(&app, "GET", "/api/push/key", None).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::INTERNAL_SERVER_ERROR, Some("storage_error")));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_push_service_never_holds_a_move_up() {
    let (addr, mut pushes) = push_service().await;
    let (app, _) = server_with(Store::in_memory().unwrap(), push_config());
    let (id, tokens, created) = create(&app, two_humans()).await;
    let first = created["turn"]["seat"].as_u64().unwrap() as usize;
    let (a, b) = (tokens[first].clone().unwrap(), tokens[1 - first].clone().unwrap());
    // Both seats followed by a push service that answers after a minute.
    for (n, token) in [&a, &b].into_iter().enumerate() {
        let browser = Browser::new(&format!("slow {n}"));
        let endpoint = format!("http://{addr}/hang/{n}");
        let body = json!({ "subscription": browser.subscription(&endpoint), "game": id, "tokens": token });
        assert_eq!(subscribe(&app, body).await.0, StatusCode::OK);
    }
    let started = std::time::Instant::now();
    for k in 0..6 {
        let token = if k % 2 == 0 { &a } else { &b };
        let s = state(&app, &id, Some(token)).await;
        let (status, v) = post_move(&app, &id, token, &pick_move(&s, 0, false)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    assert!(started.elapsed() < Duration::from_secs(10), "six moves in {:?}", started.elapsed());
    assert!(next(&mut pushes).await.path.starts_with("/hang/"), "the pushes went out meanwhile");
}
