//! `LobbyRepo`: the lobby's tables (each change made at the version read)
//! and the players waiting for "Play now" (paired all or none, once).

use carcassonne_server::{LobbyRow, LobbySweep, Store, Waiting};

use crate::{ids, race, wins};

conformance!(
    tables_open_within_their_owner_s_and_the_lobby_s_bounds,
    a_table_changes_only_at_the_version_read,
    a_table_changed_from_two_servers_at_once_changes_once,
    tables_opened_at_once_stay_within_their_owner_s_bound,
    tables_opened_at_once_by_many_owners_stay_within_the_lobby_s_bound,
    waits_start_within_their_bounds,
    waits_started_at_once_stay_within_their_owner_s_bound,
    waits_started_at_once_by_many_owners_stay_within_the_bound_in_all,
    waits_are_paired_all_or_none_and_once,
    waits_paired_from_two_servers_at_once_are_paired_once,
    a_wait_is_seen_and_cancelled_only_while_unpaired,
    the_waiters_are_the_unpaired_seen_lately_longest_waiting_first,
    the_sweep_removes_stale_tables_and_waits,
);

const NOW: i64 = 1_000_000_000_000;

fn row(id: &str, owner: &str, at: i64) -> LobbyRow {
    LobbyRow {
        id: id.into(),
        owner: owner.into(),
        body: format!("{{\"table\":\"{id}\"}}"),
        version: 0,
        open: true,
        seen_at: at,
        created_at: at,
    }
}

fn waiter(id: &str, owner: &str, at: i64) -> Waiting {
    Waiting {
        id: id.into(),
        owner: owner.into(),
        token_hash: format!("hash-{id}"),
        name: id.into(),
        rating: 1500,
        body: format!("{{\"wait\":\"{id}\"}}"),
        since: at,
        seen_at: at,
        game: None,
        seat: None,
    }
}

async fn tables(store: &Store) -> Vec<String> {
    ids(&store.lobby.tables(100).await.unwrap(), |t| &t.id)
}

async fn waiters(store: &Store, seen_after: i64) -> Vec<String> {
    ids(&store.lobby.waiters(seen_after, 100).await.unwrap(), |w| &w.id)
}

fn pair(ids: &[&str]) -> Vec<String> {
    ids.iter().map(|s| s.to_string()).collect()
}

async fn tables_open_within_their_owner_s_and_the_lobby_s_bounds(store: Store) {
    assert!(store.lobby.tables(10).await.unwrap().is_empty());
    assert!(store.lobby.open(&row("t2", "a", NOW + 1), 2, 4).await.unwrap());
    assert!(store.lobby.open(&row("t1", "a", NOW), 2, 4).await.unwrap());
    assert!(!store.lobby.open(&row("t3", "a", NOW + 2), 2, 4).await.unwrap(), "two per owner");
    assert!(store.lobby.open(&row("t3", "b", NOW + 2), 2, 4).await.unwrap());
    assert!(store.lobby.open(&row("t0", "c", NOW + 1), 2, 4).await.unwrap());
    assert!(!store.lobby.open(&row("t4", "d", NOW + 3), 2, 4).await.unwrap(), "four in all");
    assert!(store.lobby.open(&row("t1", "d", NOW + 3), 2, 5).await.is_err(), "the id is taken");
    // Oldest first, and by id when opened at once.
    assert_eq!(tables(&store).await, ["t1", "t0", "t2", "t3"]);
    assert_eq!(ids(&store.lobby.tables(2).await.unwrap(), |t| &t.id), ["t1", "t0"]);
    assert!(store.lobby.tables(0).await.unwrap().is_empty());
    assert_eq!(store.lobby.table("t3").await.unwrap(), Some(row("t3", "b", NOW + 2)), "kept as opened");
    assert_eq!(store.lobby.table("t4").await.unwrap(), None);
    // A started table no longer counts against its owner, but still takes room in the lobby.
    assert!(store.lobby.update("t1", 0, Some(("{}", false, NOW + 7))).await.unwrap());
    assert!(!store.lobby.open(&row("t5", "a", NOW + 8), 2, 4).await.unwrap(), "the lobby is full");
    assert!(store.lobby.open(&row("t5", "a", NOW + 8), 2, 5).await.unwrap(), "a's second open table");
    assert!(!store.lobby.open(&row("t6", "a", NOW + 8), 2, 9).await.unwrap());
}

async fn a_table_changes_only_at_the_version_read(store: Store) {
    store.lobby.open(&row("t1", "a", NOW), 2, 3).await.unwrap();
    store.lobby.open(&row("t2", "a", NOW), 2, 3).await.unwrap();
    assert!(store.lobby.update("t1", 0, Some(("{\"x\":1}", true, NOW + 5))).await.unwrap());
    assert!(!store.lobby.update("t1", 0, Some(("{\"x\":2}", true, NOW + 6))).await.unwrap(), "from version 0 again");
    let t1 = store.lobby.table("t1").await.unwrap().unwrap();
    assert_eq!(t1, LobbyRow { body: "{\"x\":1}".into(), version: 1, seen_at: NOW + 5, ..row("t1", "a", NOW) });
    assert!(store.lobby.update("t1", 1, Some(("{\"x\":3}", false, NOW + 9))).await.unwrap());
    let t1 = store.lobby.table("t1").await.unwrap().unwrap();
    assert_eq!((t1.version, t1.open, t1.seen_at, t1.created_at), (2, false, NOW + 9, NOW), "started");
    assert!(!store.lobby.update("t9", 0, Some(("{}", true, NOW))).await.unwrap(), "no such table");
    // Removed only at its version.
    assert!(!store.lobby.update("t2", 5, None).await.unwrap());
    assert!(store.lobby.table("t2").await.unwrap().is_some());
    assert!(store.lobby.update("t2", 0, None).await.unwrap());
    assert!(store.lobby.table("t2").await.unwrap().is_none());
    assert!(!store.lobby.update("t2", 0, None).await.unwrap(), "removed already");
    assert!(!store.lobby.update("t2", 0, Some(("{}", true, NOW))).await.unwrap(), "a table removed stays so");
    assert_eq!(tables(&store).await, ["t1"]);
}

async fn a_table_changed_from_two_servers_at_once_changes_once(stores: [Store; 2]) {
    stores[0].lobby.open(&row("t1", "a", NOW), 2, 3).await.unwrap();
    for version in 0..3 {
        let changed = race(&stores, 8, |i, store| async move {
            let body = format!("{{\"by\":{i}}}");
            store.lobby.update("t1", version, Some((&body, true, NOW + i as i64))).await.unwrap()
        })
        .await;
        assert_eq!(wins(&changed), 1, "from version {version}: {changed:?}");
        let t1 = stores[1].lobby.table("t1").await.unwrap().unwrap();
        let by = changed.iter().position(|c| *c).unwrap();
        assert_eq!((t1.version, t1.body), (version + 1, format!("{{\"by\":{by}}}")), "the winner's change");
    }
    // Removed from both at once: once.
    let removed = race(&stores, 4, |_, store| async move { store.lobby.update("t1", 3, None).await.unwrap() }).await;
    assert_eq!(wins(&removed), 1);
}

async fn tables_opened_at_once_stay_within_their_owner_s_bound(stores: [Store; 2]) {
    // One owner opening eight at once from two servers: two per owner.
    let opened = race(&stores, 8, |i, store| async move {
        store.lobby.open(&row(&format!("a{i}"), "a", NOW), 2, 100).await.unwrap()
    })
    .await;
    assert_eq!(wins(&opened), 2, "{opened:?}");
    assert_eq!(stores[1].lobby.tables(100).await.unwrap().len(), 2);
}

async fn tables_opened_at_once_by_many_owners_stay_within_the_lobby_s_bound(stores: [Store; 2]) {
    // Eight owners opening one each at once, with room for three more in the lobby; four times.
    for round in 1..=4 {
        let opened = race(&stores, 8, |i, store| async move {
            let owner = format!("o{round}-{i}");
            store.lobby.open(&row(&owner, &owner, NOW), 2, 3 * round).await.unwrap()
        })
        .await;
        assert_eq!(wins(&opened), 3, "round {round}: {opened:?}");
    }
    assert_eq!(stores[1].lobby.tables(100).await.unwrap().len(), 12);
}

async fn waits_start_within_their_bounds(store: Store) {
    for (i, id) in ["w1", "w2", "w3"].into_iter().enumerate() {
        assert!(store.lobby.wait(&waiter(id, "o", NOW + i as i64), 3, 5).await.unwrap());
    }
    assert!(!store.lobby.wait(&waiter("w4", "o", NOW), 3, 5).await.unwrap(), "three per owner");
    assert!(store.lobby.wait(&waiter("w4", "p", NOW), 3, 5).await.unwrap());
    assert!(store.lobby.wait(&waiter("w1", "q", NOW), 3, 9).await.is_err(), "the id is taken");
    assert_eq!(store.lobby.waiting("w4", None).await.unwrap(), Some(waiter("w4", "p", NOW)), "kept as begun");
    // A paired wait no longer counts against its owner, but still takes room.
    assert!(store.lobby.pair(&pair(&["w1", "w4"]), "g1").await.unwrap());
    assert!(store.lobby.wait(&waiter("w5", "o", NOW), 3, 5).await.unwrap(), "o has two unpaired");
    assert!(!store.lobby.wait(&waiter("w6", "q", NOW), 3, 5).await.unwrap(), "five in all");
    assert!(store.lobby.waiting("w6", None).await.unwrap().is_none());
}

async fn waits_started_at_once_stay_within_their_owner_s_bound(stores: [Store; 2]) {
    let started = race(&stores, 8, |i, store| async move {
        store.lobby.wait(&waiter(&format!("w{i}"), "o", NOW), 3, 100).await.unwrap()
    })
    .await;
    assert_eq!(wins(&started), 3, "{started:?}");
    assert_eq!(waiters(&stores[1], NOW).await.len(), 3);
}

async fn waits_started_at_once_by_many_owners_stay_within_the_bound_in_all(stores: [Store; 2]) {
    for round in 1..=4 {
        let started = race(&stores, 8, |i, store| async move {
            let owner = format!("o{round}-{i}");
            store.lobby.wait(&waiter(&owner, &owner, NOW), 3, 3 * round).await.unwrap()
        })
        .await;
        assert_eq!(wins(&started), 3, "round {round}: {started:?}");
    }
    assert_eq!(waiters(&stores[1], NOW).await.len(), 12);
}

async fn waits_are_paired_all_or_none_and_once(store: Store) {
    for (i, id) in ["w1", "w2", "w3", "w4"].into_iter().enumerate() {
        store.lobby.wait(&waiter(id, id, NOW + i as i64), 1, 10).await.unwrap();
    }
    assert!(store.lobby.pair(&pair(&["w2", "w1"]), "g1").await.unwrap());
    let w2 = store.lobby.waiting("w2", None).await.unwrap().unwrap();
    assert_eq!((w2.game.as_deref(), w2.seat), (Some("g1"), Some(0)), "seat: the place in the pairing");
    let w1 = store.lobby.waiting("w1", None).await.unwrap().unwrap();
    assert_eq!(w1, Waiting { game: Some("g1".into()), seat: Some(1), ..waiter("w1", "w1", NOW) });
    assert!(!store.lobby.pair(&pair(&["w3", "w2"]), "g2").await.unwrap(), "w2 is paired");
    assert!(!store.lobby.pair(&pair(&["w3", "w9"]), "g2").await.unwrap(), "w9 is gone");
    assert!(!store.lobby.pair(&pair(&["w3", "w3"]), "g2").await.unwrap(), "w3 cannot take two seats");
    let w3 = store.lobby.waiting("w3", None).await.unwrap().unwrap();
    assert_eq!((w3.game, w3.seat), (None, None), "all or none: w3 is still waiting");
    assert_eq!(store.lobby.waiting("w2", None).await.unwrap().unwrap().game.as_deref(), Some("g1"), "still g1's");
    assert!(store.lobby.pair(&pair(&["w4", "w3"]), "g3").await.unwrap());
    assert_eq!(store.lobby.waiting("w3", None).await.unwrap().unwrap().seat, Some(1));
}

async fn waits_paired_from_two_servers_at_once_are_paired_once(stores: [Store; 2]) {
    for i in 0..6 {
        stores[0].lobby.wait(&waiter(&format!("w{i}"), &format!("o{i}"), NOW + i), 1, 10).await.unwrap();
    }
    // Eight pairings at once of overlapping waits (w_i with w_i+1, and the
    // other way around): the waits each go to one game, a pairing all or none.
    let paired = race(&stores, 8, |i, store| async move {
        let (a, b) = (format!("w{}", i % 5), format!("w{}", i % 5 + 1));
        let ids = if i < 5 { vec![a, b] } else { vec![b, a] };
        let game = format!("g{i}");
        let won = store.lobby.pair(&ids, &game).await.unwrap();
        (won, ids, game)
    })
    .await;
    let won: Vec<_> = paired.iter().filter(|p| p.0).collect();
    assert!(!won.is_empty(), "{paired:?}");
    let mut seen = Vec::new();
    for (_, ids, game) in &won {
        for (seat, id) in ids.iter().enumerate() {
            assert!(!seen.contains(id), "{id} paired twice: {paired:?}");
            seen.push(id.clone());
            let w = stores[1].lobby.waiting(id, None).await.unwrap().unwrap();
            assert_eq!((w.game.as_ref(), w.seat), (Some(game), Some(seat as i64)), "{id}");
        }
    }
    for i in 0..6 {
        let id = format!("w{i}");
        if !seen.contains(&id) {
            assert_eq!(stores[1].lobby.waiting(&id, None).await.unwrap().unwrap().game, None, "{id}: none");
        }
    }
}

async fn a_wait_is_seen_and_cancelled_only_while_unpaired(store: Store) {
    for id in ["w1", "w2", "w3"] {
        store.lobby.wait(&waiter(id, id, NOW), 1, 10).await.unwrap();
    }
    let w1 = store.lobby.waiting("w1", Some(NOW + 50)).await.unwrap().unwrap();
    assert_eq!((w1.since, w1.seen_at), (NOW, NOW + 50), "seen now");
    let w1 = store.lobby.waiting("w1", Some(NOW + 20)).await.unwrap().unwrap();
    assert_eq!(w1.seen_at, NOW + 50, "never seen earlier than it was");
    assert_eq!(store.lobby.waiting("w1", None).await.unwrap().unwrap().seen_at, NOW + 50);
    assert_eq!(store.lobby.waiting("w9", Some(NOW)).await.unwrap(), None);
    assert!(store.lobby.pair(&pair(&["w1", "w2"]), "g1").await.unwrap());
    assert!(!store.lobby.cancel("w1").await.unwrap(), "paired: not cancelled");
    assert!(store.lobby.waiting("w1", None).await.unwrap().is_some());
    let w2 = store.lobby.waiting("w2", Some(NOW + 60)).await.unwrap().unwrap();
    assert_eq!((w2.game.as_deref(), w2.seen_at), (Some("g1"), NOW + 60), "a paired wait is seen too");
    assert!(store.lobby.cancel("w3").await.unwrap());
    assert!(!store.lobby.cancel("w3").await.unwrap(), "cancelled already");
    assert!(store.lobby.waiting("w3", None).await.unwrap().is_none());
    assert!(!store.lobby.cancel("w9").await.unwrap());
}

async fn the_waiters_are_the_unpaired_seen_lately_longest_waiting_first(store: Store) {
    for (id, since, seen) in [("w1", 3, 10), ("w2", 1, 20), ("w3", 2, 5), ("w4", 1, 30), ("w5", 0, 40)] {
        let w = Waiting { since: NOW + since, seen_at: NOW + seen, ..waiter(id, id, NOW) };
        store.lobby.wait(&w, 1, 10).await.unwrap();
    }
    assert!(store.lobby.pair(&pair(&["w5"]), "g1").await.unwrap());
    assert_eq!(waiters(&store, NOW).await, ["w2", "w4", "w3", "w1"], "by since, then id; paired w5 is not waiting");
    assert_eq!(waiters(&store, NOW + 10).await, ["w2", "w4", "w1"], "seen at 10 or since");
    assert_eq!(ids(&store.lobby.waiters(NOW, 2).await.unwrap(), |w| &w.id), ["w2", "w4"]);
    assert!(waiters(&store, NOW + 31).await.is_empty());
    let first = store.lobby.waiters(NOW, 1).await.unwrap().remove(0);
    assert_eq!(first, Waiting { since: NOW + 1, seen_at: NOW + 20, ..waiter("w2", "w2", NOW) });
}

async fn the_sweep_removes_stale_tables_and_waits(store: Store) {
    for (id, seen) in [("open-old", 3), ("open-edge", 4), ("open-new", 8)] {
        store.lobby.open(&row(id, id, NOW + seen), 1, 10).await.unwrap();
    }
    for (id, seen) in [("started-old", 99), ("started-new", 100)] {
        store.lobby.open(&row(id, id, NOW), 1, 10).await.unwrap();
        assert!(store.lobby.update(id, 0, Some(("{}", false, NOW + seen))).await.unwrap());
    }
    for (id, seen) in [("wait-old", 9), ("wait-new", 10), ("paired-old", 0), ("paired-new", 1)] {
        store.lobby.wait(&Waiting { seen_at: NOW + seen, ..waiter(id, id, NOW) }, 1, 10).await.unwrap();
    }
    assert!(store.lobby.pair(&pair(&["paired-old", "paired-new"]), "g").await.unwrap());
    let mut gone = store
        .lobby
        .sweep(LobbySweep {
            open_before: NOW + 4,
            started_before: NOW + 100,
            waiting_before: NOW + 10,
            paired_before: NOW + 1,
        })
        .await
        .unwrap();
    gone.sort();
    assert_eq!(gone, ["open-old", "started-old"], "each seen before its time");
    assert_eq!(tables(&store).await.len(), 3);
    for (id, kept) in [("wait-old", false), ("wait-new", true), ("paired-old", false), ("paired-new", true)] {
        assert_eq!(store.lobby.waiting(id, None).await.unwrap().is_some(), kept, "{id}");
    }
    let again = LobbySweep { open_before: 0, started_before: 0, waiting_before: 0, paired_before: 0 };
    assert!(store.lobby.sweep(again).await.unwrap().is_empty(), "nothing more");
}
