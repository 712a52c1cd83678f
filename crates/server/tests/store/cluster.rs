//! `ClusterRepo`: what makes servers sharing a database one game. The
//! backends promise different things by nature, and each test checks what
//! the one it runs on promises: SQLite is one server per file (no name, no
//! feed, every game's bots its own, nobody else here, nothing to beat for);
//! PostgreSQL is shared (a name per server, news between them, one lease
//! per game's bots, presence, heartbeats).

use std::time::Duration;

use carcassonne_server::{Beat, Change, Feed, NewGame, Store, DEAD_AFTER};

use crate::{a_move, new_game, progress, race};

conformance!(
    the_storage_answers_and_names_its_server,
    news_published_on_one_server_reaches_the_others,
    a_game_s_bots_are_driven_by_one_server,
    presence_is_told_to_the_other_servers,
    a_heartbeat_names_the_live_servers_and_a_server_leaving_lets_its_games_go,
    a_silent_server_is_let_go_and_bots_nobody_drives_are_shared_out,
);

/// Whether `store` is one of several servers sharing its database.
fn shared(store: &Store) -> bool {
    store.cluster.server().is_some()
}

/// Both servers beat until each sees the other (on a busy machine, a first
/// heartbeat may come late enough for its server to be taken for dead):
/// the live servers.
async fn both_alive(one: &Store, two: &Store) -> Vec<String> {
    for _ in 0..10 {
        let (x, y) = (one.cluster.beat().await.unwrap(), two.cluster.beat().await.unwrap());
        if x.servers.len() == 2 && y.servers.len() == 2 {
            return y.servers;
        }
    }
    panic!("the two servers never saw each other")
}

async fn the_storage_answers_and_names_its_server([one, two]: [Store; 2]) {
    one.cluster.health().await.unwrap();
    two.cluster.health().await.unwrap();
    if shared(&one) {
        let (a, b) = (one.cluster.server().unwrap(), two.cluster.server().unwrap());
        assert!(!a.is_empty() && a != b, "each server a name of its own: {a}, {b}");
        assert_eq!(one.cluster.server(), Some(a), "and always the same");
    } else {
        assert_eq!((one.cluster.server(), two.cluster.server()), (None, None), "SQLite: the one server");
    }
}

async fn news_published_on_one_server_reaches_the_others([one, two]: [Store; 2]) {
    assert_eq!(two.cluster.feed(), Feed::None, "no feed before it is asked for");
    let Some(mut news) = two.cluster.changes() else {
        assert!(!shared(&two), "a shared storage has a change feed");
        assert_eq!(two.cluster.feed(), Feed::None, "SQLite: no feed, ever");
        let change = Change::Lobby { table: "t1".into() };
        one.cluster.publish(&change).await.unwrap();
        return;
    };
    // The feed says it listens once it does (its look back ends with the lobby).
    let listening = async { while !matches!(news.recv().await, Some(Change::Lobby { table }) if table.is_empty()) {} };
    tokio::time::timeout(Duration::from_secs(10), listening).await.expect("the feed listens");
    for _ in 0..200 {
        if two.cluster.feed() == Feed::Up {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(two.cluster.feed(), Feed::Up);
    let server = one.cluster.server().unwrap().to_string();
    let told = [
        Change::Lobby { table: "t1".into() },
        Change::Clock { game: "g".into() },
        Change::Thinking { game: "g".into(), server: server.clone(), version: 3, seat: Some(1) },
        Change::Rematch { game: "g".into(), server: server.clone() },
    ];
    for change in &told {
        one.cluster.publish(change).await.unwrap();
    }
    let mut heard = Vec::new();
    let wait = async {
        while heard.len() < told.len() {
            match news.recv().await {
                Some(
                    c
                    @ (Change::Lobby { .. } | Change::Clock { .. } | Change::Thinking { .. } | Change::Rematch { .. }),
                ) => heard.push(c),
                Some(_) => {}
                None => panic!("the feed ended"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), wait).await.expect("the news within 10 s");
    assert_eq!(heard, told, "as published, in order");
}

async fn a_game_s_bots_are_driven_by_one_server([one, two]: [Store; 2]) {
    for g in ["g1", "g2"] {
        one.games.create(&new_game(g)).await.unwrap();
    }
    assert!(one.cluster.claim_bots("g1").await.unwrap());
    assert!(one.cluster.claim_bots("g1").await.unwrap(), "held already");
    if !shared(&one) {
        // SQLite: every lease is the one server's.
        assert!(two.cluster.claim_bots("g1").await.unwrap());
        two.cluster.release_bots("g1").await.unwrap();
        assert!(one.cluster.claim_bots("g1").await.unwrap());
        return;
    }
    assert!(!two.cluster.claim_bots("g1").await.unwrap(), "a live server holds it");
    two.cluster.release_bots("g1").await.unwrap();
    assert!(!two.cluster.claim_bots("g1").await.unwrap(), "only its holder gives a lease up");
    one.cluster.release_bots("g1").await.unwrap();
    assert!(two.cluster.claim_bots("g1").await.unwrap(), "given up: another takes it");
    assert!(!one.cluster.claim_bots("g1").await.unwrap());
    // Both servers at once, twice each: one drives the game's bots.
    let claims = race(&[one.clone(), two.clone()], 4, |_, s| async move {
        let won = s.cluster.claim_bots("g2").await.unwrap();
        (won, s.cluster.server().unwrap().to_string())
    })
    .await;
    let winners: Vec<&String> = claims.iter().filter(|c| c.0).map(|c| &c.1).collect();
    assert!(!winners.is_empty() && winners.iter().all(|w| *w == winners[0]), "one server: {claims:?}");
    // A game gone takes its lease with it.
    one.games.expire(i64::MAX).await.unwrap();
    one.games.create(&new_game("g1")).await.unwrap();
    assert!(one.cluster.claim_bots("g1").await.unwrap(), "a new game of that id is free");
}

async fn presence_is_told_to_the_other_servers([one, two]: [Store; 2]) {
    one.games.create(&new_game("g")).await.unwrap();
    let here = |online: Vec<u32>| Change::Presence {
        game: "g".into(),
        server: one.cluster.server().unwrap_or_default().to_string(),
        online,
    };
    one.cluster.publish(&here(vec![1, 0])).await.unwrap();
    if !shared(&one) {
        // SQLite: nobody is here through another server.
        assert!(one.cluster.presence("g").await.unwrap().is_empty());
        assert!(two.cluster.presence("g").await.unwrap().is_empty());
        return;
    }
    let a = one.cluster.server().unwrap().to_string();
    assert_eq!(two.cluster.presence("g").await.unwrap(), [(a.clone(), vec![1, 0])]);
    assert!(one.cluster.presence("g").await.unwrap().is_empty(), "a server's own are not the others'");
    assert!(two.cluster.presence("nope").await.unwrap().is_empty());
    one.cluster.publish(&here(vec![2, 1])).await.unwrap();
    assert_eq!(two.cluster.presence("g").await.unwrap(), [(a.clone(), vec![2, 1])], "the latest");
    let b = two.cluster.server().unwrap().to_string();
    two.cluster.publish(&Change::Presence { game: "g".into(), server: b.clone(), online: vec![0, 1] }).await.unwrap();
    assert_eq!(one.cluster.presence("g").await.unwrap(), [(b, vec![0, 1])]);
    one.cluster.publish(&here(vec![0, 0])).await.unwrap();
    assert!(two.cluster.presence("g").await.unwrap().is_empty(), "nobody left: gone");
}

async fn a_heartbeat_names_the_live_servers_and_a_server_leaving_lets_its_games_go([one, two]: [Store; 2]) {
    one.games.create(&new_game("g")).await.unwrap();
    if !shared(&one) {
        // SQLite: nothing to share, so nothing to learn.
        assert_eq!(one.cluster.beat().await.unwrap(), Beat::default());
        one.cluster.leave().await.unwrap();
        assert_eq!(two.cluster.beat().await.unwrap(), Beat::default());
        return;
    }
    let (a, b) = (one.cluster.server().unwrap().to_string(), two.cluster.server().unwrap().to_string());
    let mut both = vec![a.clone(), b.clone()];
    both.sort();
    assert_eq!(both_alive(&one, &two).await, both, "by name");
    let beat = one.cluster.beat().await.unwrap();
    assert_eq!((beat.servers, beat.rejoined), (both.clone(), false));
    assert!(one.cluster.claim_bots("g").await.unwrap());
    let online = Change::Presence { game: "g".into(), server: a.clone(), online: vec![1, 0] };
    one.cluster.publish(&online).await.unwrap();
    one.cluster.leave().await.unwrap();
    assert_eq!(two.cluster.beat().await.unwrap().servers, [b], "gone at once");
    assert!(two.cluster.presence("g").await.unwrap().is_empty(), "its presence with it");
    assert!(two.cluster.claim_bots("g").await.unwrap(), "and its leases");
    // A server taken for gone that beats again joins again.
    let back = one.cluster.beat().await.unwrap();
    assert!(back.rejoined);
    assert_eq!(back.servers, both);
    assert!(!one.cluster.beat().await.unwrap().rejoined, "once");
}

async fn a_silent_server_is_let_go_and_bots_nobody_drives_are_shared_out([one, two]: [Store; 2]) {
    let both_beat = || async { [one.cluster.beat().await.unwrap(), two.cluster.beat().await.unwrap()] };
    let claimed = |beats: [Beat; 2]| beats.into_iter().flat_map(|b| b.claimed).collect::<Vec<_>>();
    if !shared(&one) {
        // SQLite: every game's bots are the one server's already.
        one.games.create(&new_game("g")).await.unwrap();
        assert_eq!(both_beat().await, [Beat::default(), Beat::default()]);
        return;
    }
    both_alive(&one, &two).await;
    // A game whose bot is to move (it moves first), one whose person is, one whose bot a server drives.
    let bot_first = new_game("x").seats.into_iter().rev().collect();
    one.games.create(&NewGame { seats: bot_first, ..new_game("bot") }).await.unwrap();
    one.games.create(&new_game("person")).await.unwrap();
    one.games.create(&new_game("moved")).await.unwrap();
    one.games.append_move("moved", 0, &a_move(), &progress(2)).await.unwrap();
    assert!(one.cluster.claim_bots("moved").await.unwrap());
    // Past the time a server that stored a move takes to claim its bots.
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(claimed(both_beat().await), ["bot"], "the bot nobody drives; not a person's turn, nor a game leased");
    assert!(claimed(both_beat().await).is_empty(), "claimed once");
    // One falls silent: let go at another's heartbeat, its leases shared out.
    let b = two.cluster.server().unwrap().to_string();
    tokio::time::sleep(DEAD_AFTER + Duration::from_millis(250)).await;
    let beat = two.cluster.beat().await.unwrap();
    assert_eq!(beat.servers, [b], "{:?} was let go", one.cluster.server());
    let mut taken = beat.claimed;
    taken.extend(two.cluster.beat().await.unwrap().claimed);
    assert!(taken.contains(&"moved".to_string()), "{taken:?}");
    for g in ["bot", "moved"] {
        assert!(two.cluster.claim_bots(g).await.unwrap(), "{g}'s bots are the live server's now");
    }
    // The silent one comes back: the games stay where they went.
    assert!(one.cluster.beat().await.unwrap().rejoined);
    assert!(!one.cluster.claim_bots("moved").await.unwrap());
}
