//! The lobby's attacks of issue 45 (items 5, 6 and the "Play now" part of
//! 11), each reduced to run in CI (a few addresses of 127.0.0.0/8, a lobby
//! made smaller through `LobbySettings`), each failing on the code before
//! the fix (docs/web.md, *Lobby*, says each share and each place kept):
//!
//! - one address keeping a wait alive was the opponent of every real
//!   player: now a person is paired with others a few times a while;
//! - a crowd of addresses filled the waits and the tables: now each person
//!   waits once and opens a few tables, fresh hosts leave places to hosts
//!   with a history, and what they hold goes with their sockets;
//! - games made before their waits were claimed (phantoms, listed in
//!   play), and one person paired with themselves: now the claim comes
//!   first, a lost race makes nothing, and one person (account, address,
//!   device) waits once and is never their own opponent, on two servers too.

mod common;
mod lobby_socket;

use std::time::Duration;

use common::pg::{server_url, Schema};
use lobby_socket::{config, refusal, seated, waiting, Node, Page, SOON};
use serde_json::{json, Value};

macro_rules! server {
    () => {
        match server_url() {
            Some(url) => url,
            None => return,
        }
    };
}

/// Item 5: one address kept one wait alive (waiting again as soon as it
/// was paired) and was the opponent of 10 of 10 real players arriving one
/// by one. Now it is the opponent of 3 at most in 10 minutes (its share of
/// pairings), and the others are paired with each other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_keeping_a_wait_alive_is_the_opponent_of_a_few_at_most() {
    let node = Node::sqlite(config(|_| {})).await;
    let addr = node.addr;
    // The attacker: one socket, waiting again at once whenever paired,
    // until refused; its games.
    let attacker = tokio::spawn(async move {
        let mut page = Page::try_open(addr, "127.0.1.1", None, None).await.unwrap();
        let (mut games, mut refused) = (Vec::new(), None);
        loop {
            let v = page.play_now(json!({"name": "Mallory"})).await;
            if v["type"] == "error" {
                refused = Some(v);
                break;
            }
            let wait = if v["wait"]["state"] == "paired" {
                v["wait"].clone()
            } else {
                match page.paired(Duration::from_secs(20)).await {
                    Some(w) => w,
                    None => break,
                }
            };
            games.push(wait["game"].as_str().unwrap().to_string());
        }
        (games, refused, page)
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut real = Vec::new();
    for i in 0..10 {
        let mut page = Page::open(&node, &format!("127.0.2.{}", i + 1), None, None).await;
        let v = page.play_now(json!({"name": format!("Real {i}")})).await;
        let game = if v["wait"]["state"] == "paired" {
            Some(v["wait"]["game"].clone())
        } else {
            page.paired(Duration::from_millis(1500)).await.map(|w| w["game"].clone())
        };
        real.push((page, game));
        tokio::time::sleep(Duration::from_millis(150)).await; // the attacker waits again
    }
    // The last real players still waiting are paired as the others come:
    // each waits for what is left of its news.
    let mut games: Vec<Option<String>> = Vec::new();
    for (page, game) in &mut real {
        if game.is_none() {
            *game = page.paired(Duration::from_millis(300)).await.map(|w| w["game"].clone());
        }
        games.push(game.as_ref().and_then(|g| g.as_str().map(str::to_string)));
    }
    let (theirs, refused, _page) = attacker.await.unwrap();
    let intercepted = games.iter().flatten().filter(|g| theirs.contains(g)).count();
    assert!(intercepted <= 3, "the attacker was the opponent of {intercepted} of 10 real players");
    assert_eq!(theirs.len(), 3, "three pairings, then no more: {theirs:?}");
    let refused = refused.expect("the attacker's fourth wait is refused");
    assert_eq!(refused["error"], "quota_exceeded", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("with a person from Play now"), "{refused}");
    // The other seven were paired with each other as they came: three pairs,
    // the last one waiting.
    let with_each_other = games.iter().flatten().filter(|g| !theirs.contains(g)).count();
    assert_eq!(with_each_other, 6, "{games:?}");
}

/// Item 5: 18 addresses × 60 waits filled the 1,000-wait store, and every
/// real Play now got 429. Now each address waits once at a time and is
/// paired a few times a while: reduced, 18 addresses × 20 tries each never
/// fill the store, and a newcomer and a known person both wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_of_addresses_cannot_fill_the_waits() {
    let node = Node::sqlite(config(|c| {
        c.lobby.max_waits = 40;
        c.lobby.waits_kept = 10;
    }))
    .await;
    let mut crowd = Vec::new();
    let mut admitted = 0;
    for a in 0..18 {
        let mut page = Page::open(&node, &format!("127.0.3.{}", a + 1), None, None).await;
        for _ in 0..20 {
            let v = page.play_now(json!({})).await;
            match v["type"].as_str() {
                Some("waiting") => admitted += 1,
                _ => assert!(
                    ["already_waiting", "quota_exceeded"].contains(&refusal(&v)),
                    "a crowd's wait refused for its share: {v}"
                ),
            }
        }
        crowd.push(page);
    }
    assert!(admitted <= 18 * 4, "18 addresses: one wait at a time, 3 pairings each: {admitted}");
    let waiting_now: usize = node.state.store().lobby.waiters(0, 1000).await.unwrap().len();
    assert!(waiting_now <= 18, "{waiting_now}");
    // A newcomer (a fresh address) and a known person (signed in, with a
    // history) both wait; neither is refused.
    let mut newcomer = Page::open(&node, "127.0.4.1", None, None).await;
    let v = newcomer.play_now(json!({"name": "New"})).await;
    assert!(v["type"] == "waiting", "a newcomer's Play now: {v}");
    let cookie = node.sign_up("127.0.4.2", "Known").await;
    let mut known = Page::open(&node, "127.0.4.2", None, Some(&cookie)).await;
    let v = known.play_now(json!({})).await;
    assert!(v["type"] == "waiting", "a known person's Play now: {v}");
}

/// Item 6: 80 addresses × 3 tables took all 200 places, kept by one "here"
/// a minute; real hosts got 429. Reduced: a lobby of 20 places, 5 kept for
/// hosts with a history, 3 open tables per address among fresh hosts: 10
/// fresh addresses take 15 places at most, a known host still opens one,
/// and the crowd's tables go as their sockets close.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_of_addresses_cannot_fill_the_lobby() {
    let node = Node::sqlite(config(|c| {
        c.lobby.max_tables = 20;
        c.lobby.tables_kept = 5;
    }))
    .await;
    let table = json!({"seats": [{"kind": "me"}, {"kind": "open"}]});
    let mut crowd = Vec::new();
    let mut opened = 0;
    for a in 0..10 {
        let mut page = Page::open(&node, &format!("127.0.5.{}", a + 1), None, None).await;
        let mut here = 0;
        for _ in 0..4 {
            let v = page.open_table(table.clone()).await;
            if v["type"] == "seated" {
                here += 1;
            } else {
                assert_eq!(refusal(&v), "quota_exceeded", "{v}");
            }
        }
        assert!(here <= 3, "3 open tables per address: {here}");
        opened += here;
        crowd.push(page);
    }
    assert_eq!(opened, 15, "fresh hosts take the places not kept");
    let mut newcomer = Page::open(&node, "127.0.6.1", None, None).await;
    let v = newcomer.open_table(table.clone()).await;
    assert_eq!(refusal(&v), "quota_exceeded", "a newcomer waits for a place: {v}");
    assert!(v["message"].as_str().unwrap().contains("kept for signed-in hosts with a history"), "{v}");
    let cookie = node.sign_up("127.0.6.2", "Known").await;
    let mut known = Page::open(&node, "127.0.6.2", None, Some(&cookie)).await;
    seated(&known.open_table(table.clone()).await);
    // The crowd's sockets close: their tables go, and the newcomer opens one.
    for page in crowd {
        page.close().await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(node.get("/api/lobby/tables").await.1["tables"].as_array().unwrap().len(), 1);
    seated(&newcomer.open_table(table.clone()).await);
}

/// Item 11: one person waiting in two tabs was paired with themselves. Now
/// one person (account, address or device) waits once; two people of one
/// address (a known account and a guest) both wait, and are never paired
/// with each other.
/// One socket cannot take every open seat of the lobby under made-up
/// names: a person (guests by their address) holds 4 seats at open tables
/// at most, their hosts' seats included, and a newcomer's seat at another's
/// table spends one of the address's new games of the hour (a full table
/// starts a game); others still sit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_takes_a_few_seats_not_the_lobby() {
    let node = Node::sqlite(config(|c| c.max_new_games_per_hour_per_ip = 6)).await;
    let big = json!({"seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]});
    let duel = json!({"seats": [{"kind": "me"}, {"kind": "open"}]});
    let mut tables = Vec::new();
    let mut hosts = Vec::new();
    for (a, table) in [&big, &duel, &duel, &duel, &duel, &duel, &duel, &duel].into_iter().enumerate() {
        let mut host = Page::open(&node, &format!("127.0.7.{}", a + 1), None, None).await;
        tables.push(seated(&host.open_table(table.clone()).await).0);
        hosts.push(host);
    }
    let mut taker = Page::open(&node, "127.0.8.1", None, None).await;
    let mut answers = Vec::new();
    for seat in 1..6 {
        answers.push(refusal(&taker.sit(&tables[0], seat, Some(&format!("Made up {seat}"))).await).to_string());
    }
    assert_eq!(answers, ["", "", "", "", "too_many_seats"], "four seats at open tables, then no more");
    // The big table is still open, so its four seats hold: no duel either.
    for table in &tables[1..] {
        assert_eq!(refusal(&taker.sit(table, 1, Some("Taker")).await), "too_many_seats");
    }
    // Another address fills the duels, each starting a game: six this hour.
    let mut other = Page::open(&node, "127.0.8.2", None, None).await;
    for (t, table) in tables.iter().enumerate().skip(1) {
        let v = other.sit(table, 1, Some("Someone")).await;
        if t <= 6 {
            assert_eq!(v["type"], "seated", "another address sits, a game each: {v}");
        } else {
            assert_eq!(refusal(&v), "quota_exceeded", "the address's six games of the hour: {v}");
        }
    }
    let v = other.sit(&tables[0], 5, Some("Someone")).await;
    assert_eq!(refusal(&v), "quota_exceeded", "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_person_waits_once_and_is_never_their_own_opponent() {
    let node = Node::sqlite(config(|_| {})).await;
    let device = "browser-of-ada-000001";
    let mut tab1 = Page::open(&node, "127.0.7.1", Some(device), None).await;
    waiting(&tab1.play_now(json!({"name": "Ada"})).await);
    // The same browser: another tab; the same device on another network.
    let mut tab2 = Page::open(&node, "127.0.7.1", Some(device), None).await;
    assert_eq!(refusal(&tab2.play_now(json!({"name": "Ada"})).await), "already_waiting");
    let mut phone = Page::open(&node, "127.0.7.2", Some(device), None).await;
    assert_eq!(refusal(&phone.play_now(json!({"name": "Ada"})).await), "already_waiting");
    // The same address, no device named.
    let mut bare = Page::open(&node, "127.0.7.1", None, None).await;
    assert_eq!(refusal(&bare.play_now(json!({})).await), "already_waiting");
    // Another person: paired with Ada's one wait.
    let mut bea = Page::open(&node, "127.0.7.3", None, None).await;
    let v = bea.play_now(json!({"name": "Bea"})).await;
    assert_eq!(v["wait"]["state"], "paired", "{v}");
    assert_eq!(tab1.paired(SOON).await.expect("Ada paired")["game"], v["wait"]["game"]);

    // A known account and a guest at one address: two people, both wait,
    // never paired with each other.
    let cookie = node.sign_up("127.0.8.1", "Kim").await;
    let mut kim = Page::open(&node, "127.0.8.1", None, Some(&cookie)).await;
    let mut kim_elsewhere = Page::open(&node, "127.0.8.9", None, Some(&cookie)).await;
    let mut guest = Page::open(&node, "127.0.8.1", None, None).await;
    let (kim_wait, _) = waiting(&kim.play_now(json!({})).await);
    assert_eq!(refusal(&kim_elsewhere.play_now(json!({})).await), "already_waiting", "one account, one wait");
    let v = guest.play_now(json!({"name": "Gus"})).await;
    assert_eq!(v["wait"]["state"], "waiting", "one address, never paired together: {v}");
    assert!(guest.paired(Duration::from_millis(1500)).await.is_none(), "still not paired");
    // Someone from elsewhere is paired with the one waiting longest.
    let mut third = Page::open(&node, "127.0.8.2", None, None).await;
    let v = third.play_now(json!({"name": "Tom"})).await;
    assert_eq!(v["wait"]["state"], "paired", "{v}");
    let kims = kim.paired(SOON).await.expect("Kim paired");
    assert_eq!(kims["game"], v["wait"]["game"]);
    assert_eq!(kims["id"], kim_wait.as_str());
}

// ---- Two servers over one PostgreSQL database ----

/// The games in the database.
fn games(schema: &Schema) -> i64 {
    schema.one("SELECT COUNT(*)::text FROM games").parse().unwrap()
}

/// Item 11: games were made before their waits were claimed, so that two
/// servers racing made 38 games for 30 pairings (phantoms listed in play
/// under real names). Now a pairing claims its waits first: one game each.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn people_waiting_on_two_servers_are_paired_once_and_no_game_is_made_for_nothing() {
    let url = server!();
    let schema = Schema::new(&url);
    let (a, b) = (Node::postgres(&schema, config(|_| {})).await, Node::postgres(&schema, config(|_| {})).await);
    let mut pairings = 0;
    for round in 0..15 {
        // Four people start at once, two on each server.
        let starts = [&a, &b, &a, &b].into_iter().enumerate().map(|(i, node)| {
            let addr = node.addr;
            async move {
                let mut page = Page::try_open(addr, &format!("127.1.{round}.{}", i + 1), None, None).await.unwrap();
                let v = page.play_now(json!({"name": format!("P{round}-{i}")})).await;
                (page, v)
            }
        });
        let mut started = futures_util::future::join_all(starts).await;
        let mut outcome = Vec::new();
        for (page, v) in &mut started {
            let (_, _) = waiting(v);
            let w = if v["wait"]["state"] == "paired" {
                v["wait"].clone()
            } else {
                page.paired(SOON).await.expect("paired")
            };
            outcome.push(w);
        }
        // Everyone is in exactly one game, two to a game, each seat once.
        let mut by_game: std::collections::HashMap<String, Vec<u64>> = Default::default();
        for w in &outcome {
            by_game.entry(w["game"].as_str().unwrap().to_string()).or_default().push(w["seat"].as_u64().unwrap());
        }
        assert_eq!(by_game.len(), 2, "{outcome:?}");
        for seats in by_game.values_mut() {
            seats.sort();
            assert_eq!(seats, &vec![0, 1]);
        }
        pairings += 2;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let paired: i64 = schema.one("SELECT COUNT(DISTINCT game)::text FROM lobby_waiting WHERE ready").parse().unwrap();
    assert_eq!(paired, pairings);
    assert_eq!(games(&schema), pairings, "one game per pairing, none for a pairing that lost its race");
}

/// Item 11, tables: the last sit and the host's start racing on two servers
/// made a game each (7 phantoms in 10 tables). Now the start claims the
/// table first: one game per table.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_table_filled_and_started_from_both_servers_at_once_starts_once() {
    let url = server!();
    let schema = Schema::new(&url);
    let (a, b) = (Node::postgres(&schema, config(|_| {})).await, Node::postgres(&schema, config(|_| {})).await);
    for round in 0..10 {
        let mut host = Page::open(&a, &format!("127.2.{round}.1"), None, None).await;
        let seats = json!([{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]);
        let (id, host_token) = seated(&host.open_table(json!({"name": format!("H{round}"), "seats": seats})).await);
        let mut first = Page::open(&b, &format!("127.2.{round}.2"), None, None).await;
        seated(&first.sit(&id, 1, Some("S1")).await);
        let mut last = Page::open(&a, &format!("127.2.{round}.3"), None, None).await;
        let before = games(&schema);
        let start = format!("/api/lobby/tables/{id}/start");
        let (sat, started) = tokio::join!(last.sit(&id, 2, Some("S2")), b.post(&start, json!({"token": host_token})));
        assert_eq!(games(&schema) - before, 1, "one game for one table: {sat} {started:?}");
        let (_, t) = b.get(&format!("/api/lobby/tables/{id}")).await;
        assert_eq!(t["state"], "started", "{t}");
        let game = t["game"].as_str().unwrap();
        // The host's token holds its seat in that game; the last sitter's too
        // if the sit came before the start.
        let (s, g) = a.get(&format!("/api/games/{game}?token={host_token}")).await;
        assert_eq!(s, 200, "{g}");
        assert_eq!(g["players"].as_array().unwrap().iter().filter(|p| p["you"] == true).count(), 1, "{g}");
        if sat["type"] == "seated" && sat["table"]["seats"][2]["kind"] == "human" {
            let token = sat["token"].as_str().unwrap();
            let (_, g) = a.get(&format!("/api/games/{game}?token={token}")).await;
            assert!(g["players"].as_array().unwrap().len() == 3, "{g}");
        }
    }
}

/// Item 11: one person in two tabs, their tabs on two servers, started at
/// once: one wait, never paired with themselves.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_person_on_two_servers_at_once_waits_once() {
    let url = server!();
    let schema = Schema::new(&url);
    let (a, b) = (Node::postgres(&schema, config(|_| {})).await, Node::postgres(&schema, config(|_| {})).await);
    for round in 0..5 {
        let device = format!("one-browser-round-{round}");
        // The browser's tabs: on A from the wifi's address, on B from the phone network's.
        let tabs = [(&a, 1), (&b, 2), (&a, 1), (&b, 2)].map(|(node, net)| {
            let (addr, device) = (node.addr, device.clone());
            async move {
                let mut page =
                    Page::try_open(addr, &format!("127.3.{round}.{net}"), Some(&device), None).await.unwrap();
                let v = page.play_now(json!({"name": "Ada"})).await;
                (page, v)
            }
        });
        let answers = futures_util::future::join_all(tabs).await;
        let waits: Vec<&Value> = answers.iter().map(|(_, v)| v).filter(|v| v["type"] == "waiting").collect();
        assert_eq!(waits.len(), 1, "one wait: {:?}", answers.iter().map(|(_, v)| v).collect::<Vec<_>>());
        assert_eq!(waits[0]["wait"]["state"], "waiting", "never paired with themselves");
        for (_, v) in &answers {
            assert!(v["type"] == "waiting" || refusal(v) == "already_waiting", "{v}");
        }
        // Someone else comes: paired with them.
        let mut other = Page::open(&b, &format!("127.3.{round}.9"), None, None).await;
        let v = other.play_now(json!({"name": "Bo"})).await;
        assert_eq!(v["wait"]["state"], "paired", "{v}");
    }
    let selves: i64 = schema
        .one("SELECT COUNT(*)::text FROM lobby_waiting a JOIN lobby_waiting b ON a.game = b.game AND a.id < b.id WHERE a.device = b.device OR a.address = b.address")
        .parse()
        .unwrap();
    assert_eq!(selves, 0, "nobody paired with themselves");
}

/// Claim first, then make: a pairing whose game cannot be made (the
/// database refuses new games) gives its waits back; they wait on, and
/// are paired once games can be made again. No game is left behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pairing_whose_game_cannot_be_made_gives_its_waits_back() {
    let url = server!();
    let schema = Schema::new(&url);
    let (a, b) = (Node::postgres(&schema, config(|_| {})).await, Node::postgres(&schema, config(|_| {})).await);
    schema.rows(
        "CREATE FUNCTION no_games() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'no new games'; END $$ LANGUAGE plpgsql;
         CREATE TRIGGER no_games BEFORE INSERT ON games FOR EACH ROW EXECUTE FUNCTION no_games();",
    );
    let mut ann = Page::open(&a, "127.4.0.1", None, None).await;
    let (ann_wait, ann_token) = waiting(&ann.play_now(json!({"name": "Ann"})).await);
    let mut bo = Page::open(&b, "127.4.0.2", None, None).await;
    let v = bo.play_now(json!({"name": "Bo"})).await;
    assert_eq!(v["wait"]["state"], "waiting", "the pairing's game could not be made: Bo waits on: {v}");
    // Ann's wait was given back too: it waits on (the servers' rounds try
    // again, and fail again, meanwhile).
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (s, v) = a.post(&format!("/api/lobby/play-now/{ann_wait}"), json!({"token": ann_token})).await;
    assert_eq!((s, v["wait"]["state"].as_str()), (200, Some("waiting")), "{v}");
    assert_eq!(schema.one("SELECT COUNT(*)::text FROM lobby_waiting WHERE NOT ready"), "2", "both wait on");
    assert_eq!(games(&schema), 0);
    // Games can be made again: they are paired (by the servers' rounds), once.
    schema.rows("DROP TRIGGER no_games ON games");
    let ann_paired = ann.paired(SOON).await.expect("Ann paired");
    let bo_paired = bo.paired(SOON).await.expect("Bo paired");
    assert_eq!(ann_paired["game"], bo_paired["game"]);
    assert_eq!(games(&schema), 1);
}
