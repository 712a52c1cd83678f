//! `LobbyRepo`: the lobby's tables (each change made at the version read,
//! each admitted within its host's share and the places kept for hosts with
//! a history) and the players waiting for "Play now" (one wait per person,
//! a few pairings a while, places kept; claimed all or none, once; a claim
//! made into a pairing or given back).

use carcassonne_server::{Admission, LobbyRow, LobbySweep, Store, TableBounds, WaitBounds, Waiting};

use crate::{ids, race, wins};

conformance!(
    tables_open_within_their_host_s_share_and_the_lobby_s_places,
    fresh_hosts_leave_the_kept_places_to_hosts_with_a_history,
    a_table_changes_only_at_the_version_read,
    a_table_changed_from_two_servers_at_once_changes_once,
    tables_opened_at_once_stay_within_their_owner_s_share,
    tables_opened_at_once_by_many_fresh_hosts_leave_the_kept_places,
    tables_are_listed_open_first_each_kind_oldest_first,
    waits_are_one_per_person,
    waits_start_within_the_pairings_and_the_places,
    one_person_starting_waits_at_once_on_two_servers_waits_once,
    waits_started_at_once_by_many_fresh_people_leave_the_kept_places,
    waits_are_claimed_all_or_none_and_once,
    a_claim_becomes_a_pairing_or_is_given_back,
    waits_claimed_from_two_servers_at_once_are_claimed_once,
    a_wait_is_cancelled_only_while_unclaimed,
    held_tables_and_waits_are_seen_again,
    the_waiters_are_the_unclaimed_seen_lately_longest_waiting_first,
    the_sweep_removes_stale_tables_and_waits_and_undoes_stale_claims,
);

const NOW: i64 = 1_000_000_000_000;

fn row(id: &str, owner: &str, at: i64) -> LobbyRow {
    LobbyRow {
        id: id.into(),
        owner: owner.into(),
        address: format!("addr-{owner}"),
        known: false,
        body: format!("{{\"table\":\"{id}\"}}"),
        version: 0,
        open: true,
        seen_at: at,
        created_at: at,
    }
}

/// A table of a host with a history.
fn known_row(id: &str, owner: &str, at: i64) -> LobbyRow {
    LobbyRow { known: true, ..row(id, owner, at) }
}

fn tables_within(per_owner: usize, total: usize, fresh: usize) -> TableBounds {
    TableBounds { per_owner, per_address: per_owner, total, fresh }
}

/// A guest's wait, from address `addr-{person}`, no device.
fn waiter(id: &str, person: &str, at: i64) -> Waiting {
    Waiting {
        id: id.into(),
        owner: format!("address:{person}"),
        address: format!("addr-{person}"),
        account: None,
        device: None,
        known: false,
        token_hash: format!("hash-{id}"),
        name: id.into(),
        rating: 1500,
        body: format!("{{\"wait\":\"{id}\"}}"),
        since: at,
        seen_at: at,
        game: None,
        seat: None,
        ready: false,
    }
}

fn waits_within(total: usize, fresh: usize) -> WaitBounds {
    WaitBounds { pairings: 3, pairings_since: 0, total, fresh }
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

async fn tables_open_within_their_host_s_share_and_the_lobby_s_places(store: Store) {
    let b = tables_within(2, 4, 4);
    assert!(store.lobby.tables(10).await.unwrap().is_empty());
    assert_eq!(store.lobby.open(&row("t2", "a", NOW + 1), &b).await.unwrap(), Admission::Admitted);
    assert_eq!(store.lobby.open(&row("t1", "a", NOW), &b).await.unwrap(), Admission::Admitted);
    assert_eq!(store.lobby.open(&row("t3", "a", NOW + 2), &b).await.unwrap(), Admission::Share, "two per owner");
    // Another owner at the same address (a fresh account there): the address's share is spent.
    let same_address = LobbyRow { address: "addr-a".into(), ..row("t3", "a2", NOW + 2) };
    assert_eq!(store.lobby.open(&same_address, &b).await.unwrap(), Admission::Share, "two per address");
    assert!(store.lobby.table("t3").await.unwrap().is_none(), "a table kept out is not stored");
    // A host with a history is not counted by address.
    let known_there = LobbyRow { address: "addr-a".into(), ..known_row("t3", "k", NOW + 2) };
    assert_eq!(store.lobby.open(&known_there, &b).await.unwrap(), Admission::Admitted);
    assert_eq!(store.lobby.open(&row("t0", "c", NOW + 1), &b).await.unwrap(), Admission::Admitted);
    assert_eq!(store.lobby.open(&row("t4", "d", NOW + 3), &b).await.unwrap(), Admission::Full, "four in all");
    assert!(store.lobby.open(&row("t1", "d", NOW + 3), &tables_within(2, 5, 5)).await.is_err(), "the id is taken");
    // Oldest first, and by id when opened at once.
    assert_eq!(tables(&store).await, ["t1", "t0", "t2", "t3"]);
    assert_eq!(ids(&store.lobby.tables(2).await.unwrap(), |t| &t.id), ["t1", "t0"]);
    assert!(store.lobby.tables(0).await.unwrap().is_empty());
    assert_eq!(store.lobby.table("t3").await.unwrap(), Some(known_there), "kept as opened");
    assert_eq!(store.lobby.table("t4").await.unwrap(), None);
    // A started table no longer counts against its owner, but still takes a place in the lobby.
    assert!(store.lobby.update("t1", 0, Some(("{}", false, NOW + 7))).await.unwrap());
    assert_eq!(store.lobby.open(&row("t5", "a", NOW + 8), &b).await.unwrap(), Admission::Full, "the lobby is full");
    let more = tables_within(2, 5, 5);
    assert_eq!(store.lobby.open(&row("t5", "a", NOW + 8), &more).await.unwrap(), Admission::Admitted, "a's second");
    assert_eq!(store.lobby.open(&row("t6", "a", NOW + 8), &tables_within(2, 9, 9)).await.unwrap(), Admission::Share);
}

async fn fresh_hosts_leave_the_kept_places_to_hosts_with_a_history(store: Store) {
    // Five places, two kept: fresh hosts take three.
    let b = tables_within(3, 5, 3);
    for (i, host) in ["a", "b", "c"].into_iter().enumerate() {
        assert_eq!(store.lobby.open(&row(&format!("f{i}"), host, NOW), &b).await.unwrap(), Admission::Admitted);
    }
    assert_eq!(
        store.lobby.open(&row("f3", "d", NOW), &b).await.unwrap(),
        Admission::Full,
        "no place left for fresh hosts"
    );
    assert_eq!(store.lobby.open(&known_row("k0", "k", NOW), &b).await.unwrap(), Admission::Admitted);
    assert_eq!(store.lobby.open(&known_row("k1", "l", NOW), &b).await.unwrap(), Admission::Admitted);
    assert_eq!(store.lobby.open(&known_row("k2", "m", NOW), &b).await.unwrap(), Admission::Full, "five in all");
    // A fresh host's table gone: a fresh host again.
    assert!(store.lobby.update("f0", 0, None).await.unwrap());
    assert_eq!(store.lobby.open(&row("f3", "d", NOW), &b).await.unwrap(), Admission::Admitted);
}

async fn a_table_changes_only_at_the_version_read(store: Store) {
    let b = tables_within(2, 3, 3);
    store.lobby.open(&row("t1", "a", NOW), &b).await.unwrap();
    store.lobby.open(&row("t2", "a", NOW), &b).await.unwrap();
    assert!(store.lobby.update("t1", 0, Some(("{\"x\":1}", true, NOW + 5))).await.unwrap());
    assert!(!store.lobby.update("t1", 0, Some(("{\"x\":2}", true, NOW + 6))).await.unwrap(), "from version 0 again");
    let t1 = store.lobby.table("t1").await.unwrap().unwrap();
    assert_eq!(t1, LobbyRow { body: "{\"x\":1}".into(), version: 1, seen_at: NOW + 5, ..row("t1", "a", NOW) });
    assert!(store.lobby.update("t1", 1, Some(("{\"x\":3}", true, NOW + 2))).await.unwrap());
    assert_eq!(store.lobby.table("t1").await.unwrap().unwrap().seen_at, NOW + 5, "seen never earlier than it was");
    assert!(store.lobby.update("t1", 2, Some(("{\"x\":3}", false, NOW + 9))).await.unwrap());
    let t1 = store.lobby.table("t1").await.unwrap().unwrap();
    assert_eq!((t1.version, t1.open, t1.seen_at, t1.created_at), (3, false, NOW + 9, NOW), "started");
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
    stores[0].lobby.open(&row("t1", "a", NOW), &tables_within(2, 3, 3)).await.unwrap();
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

async fn tables_opened_at_once_stay_within_their_owner_s_share(stores: [Store; 2]) {
    // One owner opening eight at once from two servers: two per owner.
    let opened = race(&stores, 8, |i, store| async move {
        store.lobby.open(&row(&format!("a{i}"), "a", NOW), &tables_within(2, 100, 100)).await.unwrap()
    })
    .await;
    assert_eq!(opened.iter().filter(|a| **a == Admission::Admitted).count(), 2, "{opened:?}");
    assert_eq!(stores[1].lobby.tables(100).await.unwrap().len(), 2);
}

async fn tables_opened_at_once_by_many_fresh_hosts_leave_the_kept_places(stores: [Store; 2]) {
    // Eight fresh hosts opening one each at once, with room for three more
    // of them (and two kept); four times.
    for round in 1..=4 {
        let opened = race(&stores, 8, |i, store| async move {
            let owner = format!("o{round}-{i}");
            store.lobby.open(&row(&owner, &owner, NOW), &tables_within(2, 3 * round + 2, 3 * round)).await.unwrap()
        })
        .await;
        assert_eq!(opened.iter().filter(|a| **a == Admission::Admitted).count(), 3, "round {round}: {opened:?}");
        assert!(opened.iter().all(|a| matches!(a, Admission::Admitted | Admission::Full)), "{opened:?}");
    }
    assert_eq!(stores[1].lobby.tables(100).await.unwrap().len(), 12);
    let kept = race(&stores, 4, |i, store| async move {
        store.lobby.open(&known_row(&format!("k{i}"), &format!("k{i}"), NOW), &tables_within(2, 14, 12)).await.unwrap()
    })
    .await;
    assert_eq!(kept.iter().filter(|a| **a == Admission::Admitted).count(), 2, "the two kept places: {kept:?}");
}

async fn tables_are_listed_open_first_each_kind_oldest_first(store: Store) {
    let b = tables_within(9, 9, 9);
    for (id, at) in [("s1", 1), ("o1", 2), ("s2", 0), ("o2", 3)] {
        store.lobby.open(&row(id, id, NOW + at), &b).await.unwrap();
    }
    for id in ["s1", "s2"] {
        assert!(store.lobby.update(id, 0, Some(("{}", false, NOW + 9))).await.unwrap());
    }
    assert_eq!(tables(&store).await, ["o1", "o2", "s2", "s1"]);
    assert_eq!(ids(&store.lobby.tables(2).await.unwrap(), |t| &t.id), ["o1", "o2"], "a full list shows the open");
}

async fn waits_are_one_per_person(store: Store) {
    let b = waits_within(100, 100);
    let w = |id: &str, address: &str, account: Option<&str>, device: Option<&str>, known: bool| Waiting {
        address: address.into(),
        account: account.map(Into::into),
        device: device.map(Into::into),
        known,
        ..waiter(id, "x", NOW)
    };
    assert_eq!(store.lobby.wait(&w("w1", "A", None, Some("dev1"), false), &b).await.unwrap(), Admission::Admitted);
    // The same address (a second tab, or someone else there): one wait.
    assert_eq!(store.lobby.wait(&w("w2", "A", None, None, false), &b).await.unwrap(), Admission::Share);
    // The same device from another address (a phone off the wifi).
    assert_eq!(store.lobby.wait(&w("w2", "B", None, Some("dev1"), false), &b).await.unwrap(), Admission::Share);
    assert_eq!(
        store.lobby.wait(&w("w2", "B", Some("acc1"), Some("dev2"), false), &b).await.unwrap(),
        Admission::Admitted
    );
    // The same account from elsewhere.
    assert_eq!(store.lobby.wait(&w("w3", "C", Some("acc1"), None, true), &b).await.unwrap(), Admission::Share);
    // People with a history are not counted by address: two of them at A,
    // besides the guest there.
    assert_eq!(store.lobby.wait(&w("w3", "A", Some("acc2"), None, true), &b).await.unwrap(), Admission::Admitted);
    assert_eq!(
        store.lobby.wait(&w("w4", "A", Some("acc3"), Some("dev3"), true), &b).await.unwrap(),
        Admission::Admitted
    );
    assert_eq!(store.lobby.wait(&w("w5", "A", Some("acc4"), Some("dev3"), true), &b).await.unwrap(), Admission::Share);
    assert!(store.lobby.waiting("w5").await.unwrap().is_none(), "a wait kept out is not stored");
    assert_eq!(
        store.lobby.waiting("w4").await.unwrap(),
        Some(w("w4", "A", Some("acc3"), Some("dev3"), true)),
        "as begun"
    );
    // Claimed for a pairing, a wait still counts; paired into a game, no more.
    assert!(store.lobby.pair(&pair(&["w1", "w3"]), "c1", NOW).await.unwrap());
    assert_eq!(store.lobby.wait(&w("w6", "A", None, None, false), &b).await.unwrap(), Admission::Share, "claimed");
    assert_eq!(store.lobby.paired("c1", "g1", NOW).await.unwrap(), 2);
    assert_eq!(store.lobby.wait(&w("w6", "A", None, None, false), &b).await.unwrap(), Admission::Admitted, "paired");
}

async fn waits_start_within_the_pairings_and_the_places(store: Store) {
    let bounds = |since| WaitBounds { pairings: 2, pairings_since: since, total: 6, fresh: 4 };
    let setup = WaitBounds { pairings: 9, pairings_since: 0, total: 100, fresh: 100 };
    // Person p paired with another person twice (at NOW and NOW + 10), and
    // with a bot once (which does not count).
    for (k, at) in [(0, NOW), (1, NOW + 10)] {
        let (mine, theirs) = (format!("p{k}"), format!("q{k}"));
        store.lobby.wait(&waiter(&mine, "p", at), &setup).await.unwrap();
        store.lobby.wait(&waiter(&theirs, &format!("q{k}"), at), &setup).await.unwrap();
        assert!(store.lobby.pair(&[mine, theirs], &format!("c{k}"), at).await.unwrap());
        assert_eq!(store.lobby.paired(&format!("c{k}"), &format!("g{k}"), at).await.unwrap(), 2);
    }
    store.lobby.wait(&waiter("pb", "p", NOW), &setup).await.unwrap();
    assert!(store.lobby.pair(&pair(&["pb"]), "cb", NOW + 20).await.unwrap());
    store.lobby.paired("cb", "gb", NOW + 20).await.unwrap();
    assert_eq!(store.lobby.wait(&waiter("p2", "p", NOW), &bounds(NOW)).await.unwrap(), Admission::Pairings);
    assert_eq!(
        store.lobby.wait(&waiter("p2", "p", NOW), &bounds(NOW + 1)).await.unwrap(),
        Admission::Admitted,
        "one was long ago"
    );
    // Six places, two kept for people with a history: four fresh waits (p2 and three more).
    for id in ["r1", "r2", "r3"] {
        assert_eq!(store.lobby.wait(&waiter(id, id, NOW), &bounds(0)).await.unwrap(), Admission::Admitted);
    }
    assert_eq!(store.lobby.wait(&waiter("r4", "r4", NOW), &bounds(0)).await.unwrap(), Admission::Full);
    let known = |id: &str| Waiting { known: true, account: Some(id.into()), ..waiter(id, id, NOW) };
    assert_eq!(store.lobby.wait(&known("k1"), &bounds(0)).await.unwrap(), Admission::Admitted);
    assert_eq!(store.lobby.wait(&known("k2"), &bounds(0)).await.unwrap(), Admission::Admitted);
    assert_eq!(store.lobby.wait(&known("k3"), &bounds(0)).await.unwrap(), Admission::Full, "six in all");
}

async fn one_person_starting_waits_at_once_on_two_servers_waits_once(stores: [Store; 2]) {
    // Eight tabs of one browser (one device), from two addresses, on two servers.
    let started = race(&stores, 8, |i, store| async move {
        let w = Waiting { device: Some("dev".into()), ..waiter(&format!("w{i}"), &format!("p{}", i % 2), NOW) };
        store.lobby.wait(&w, &waits_within(100, 100)).await.unwrap()
    })
    .await;
    assert_eq!(started.iter().filter(|a| **a == Admission::Admitted).count(), 1, "{started:?}");
    assert_eq!(waiters(&stores[1], NOW).await.len(), 1);
}

async fn waits_started_at_once_by_many_fresh_people_leave_the_kept_places(stores: [Store; 2]) {
    for round in 1..=4 {
        let started = race(&stores, 8, |i, store| async move {
            let person = format!("o{round}-{i}");
            store.lobby.wait(&waiter(&person, &person, NOW), &waits_within(3 * round + 1, 3 * round)).await.unwrap()
        })
        .await;
        assert_eq!(started.iter().filter(|a| **a == Admission::Admitted).count(), 3, "round {round}: {started:?}");
    }
    assert_eq!(waiters(&stores[1], NOW).await.len(), 12);
    let known = Waiting { known: true, ..waiter("k", "k", NOW) };
    assert_eq!(
        stores[0].lobby.wait(&known, &waits_within(13, 12)).await.unwrap(),
        Admission::Admitted,
        "the kept place"
    );
}

async fn waits_are_claimed_all_or_none_and_once(store: Store) {
    for (i, id) in ["w1", "w2", "w3", "w4"].into_iter().enumerate() {
        store.lobby.wait(&waiter(id, id, NOW + i as i64), &waits_within(10, 10)).await.unwrap();
    }
    assert!(store.lobby.pair(&pair(&["w2", "w1"]), "c1", NOW + 7).await.unwrap());
    let w2 = store.lobby.waiting("w2").await.unwrap().unwrap();
    assert_eq!((w2.game.as_deref(), w2.seat, w2.ready), (Some("c1"), Some(0), false), "seat: the place in the claim");
    let w1 = store.lobby.waiting("w1").await.unwrap().unwrap();
    assert_eq!(w1, Waiting { game: Some("c1".into()), seat: Some(1), seen_at: NOW + 7, ..waiter("w1", "w1", NOW) });
    assert!(!store.lobby.pair(&pair(&["w3", "w2"]), "c2", NOW).await.unwrap(), "w2 is claimed");
    assert!(!store.lobby.pair(&pair(&["w3", "w9"]), "c2", NOW).await.unwrap(), "w9 is gone");
    assert!(!store.lobby.pair(&pair(&["w3", "w3"]), "c2", NOW).await.unwrap(), "w3 cannot take two seats");
    let w3 = store.lobby.waiting("w3").await.unwrap().unwrap();
    assert_eq!((w3.game, w3.seat), (None, None), "all or none: w3 is still waiting");
    assert_eq!(store.lobby.waiting("w2").await.unwrap().unwrap().game.as_deref(), Some("c1"), "still c1's");
    assert!(store.lobby.pair(&pair(&["w4", "w3"]), "c3", NOW).await.unwrap());
    assert_eq!(store.lobby.waiting("w3").await.unwrap().unwrap().seat, Some(1));
    let mut got = ids(&store.lobby.waits(&pair(&["w3", "w9", "w1"])).await.unwrap(), |w| &w.id);
    got.sort();
    assert_eq!(got, ["w1", "w3"], "the waits still stored");
    assert!(store.lobby.waits(&[]).await.unwrap().is_empty());
}

async fn a_claim_becomes_a_pairing_or_is_given_back(store: Store) {
    for id in ["w1", "w2", "w3", "w4"] {
        store.lobby.wait(&waiter(id, id, NOW), &waits_within(10, 10)).await.unwrap();
    }
    assert!(store.lobby.pair(&pair(&["w1", "w2"]), "c1", NOW + 1).await.unwrap());
    assert!(store.lobby.pair(&pair(&["w3", "w4"]), "c2", NOW + 1).await.unwrap());
    // c1's game was made: its waits are paired into it.
    assert_eq!(store.lobby.paired("c1", "g1", NOW + 5).await.unwrap(), 2);
    let w1 = store.lobby.waiting("w1").await.unwrap().unwrap();
    assert_eq!((w1.game.as_deref(), w1.seat, w1.ready, w1.seen_at), (Some("g1"), Some(0), true, NOW + 5));
    assert_eq!(store.lobby.paired("c1", "g1", NOW + 6).await.unwrap(), 0, "once");
    assert_eq!(store.lobby.unpair("g1").await.unwrap(), 0, "a pairing made is not undone");
    // c2's could not be: its waits wait again, as they were.
    assert_eq!(store.lobby.unpair("c2").await.unwrap(), 2);
    assert_eq!(store.lobby.unpair("c2").await.unwrap(), 0, "once");
    let w3 = store.lobby.waiting("w3").await.unwrap().unwrap();
    assert_eq!((w3.game, w3.seat, w3.ready), (None, None, false));
    assert_eq!(store.lobby.paired("c2", "g2", NOW).await.unwrap(), 0, "a claim given back makes no pairing");
    assert_eq!(waiters(&store, NOW).await, ["w3", "w4"]);
}

async fn waits_claimed_from_two_servers_at_once_are_claimed_once(stores: [Store; 2]) {
    for i in 0..6 {
        let w = waiter(&format!("w{i}"), &format!("o{i}"), NOW + i);
        stores[0].lobby.wait(&w, &waits_within(10, 10)).await.unwrap();
    }
    // Eight pairings at once of overlapping waits (w_i with w_i+1, and the
    // other way around): the waits each go to one claim, a claim all or none.
    let paired = race(&stores, 8, |i, store| async move {
        let (a, b) = (format!("w{}", i % 5), format!("w{}", i % 5 + 1));
        let ids = if i < 5 { vec![a, b] } else { vec![b, a] };
        let claim = format!("c{i}");
        let won = store.lobby.pair(&ids, &claim, NOW).await.unwrap();
        (won, ids, claim)
    })
    .await;
    let won: Vec<_> = paired.iter().filter(|p| p.0).collect();
    assert!(!won.is_empty(), "{paired:?}");
    let mut seen = Vec::new();
    for (_, ids, claim) in &won {
        for (seat, id) in ids.iter().enumerate() {
            assert!(!seen.contains(id), "{id} claimed twice: {paired:?}");
            seen.push(id.clone());
            let w = stores[1].lobby.waiting(id).await.unwrap().unwrap();
            assert_eq!((w.game.as_ref(), w.seat), (Some(claim), Some(seat as i64)), "{id}");
        }
    }
    for i in 0..6 {
        let id = format!("w{i}");
        if !seen.contains(&id) {
            assert_eq!(stores[1].lobby.waiting(&id).await.unwrap().unwrap().game, None, "{id}: none");
        }
    }
}

async fn a_wait_is_cancelled_only_while_unclaimed(store: Store) {
    for id in ["w1", "w2", "w3", "w4"] {
        store.lobby.wait(&waiter(id, id, NOW), &waits_within(10, 10)).await.unwrap();
    }
    assert!(store.lobby.pair(&pair(&["w1", "w2"]), "c1", NOW).await.unwrap());
    assert!(!store.lobby.cancel("w1").await.unwrap(), "claimed: not cancelled");
    assert!(store.lobby.paired("c1", "g1", NOW).await.unwrap() == 2);
    assert!(!store.lobby.cancel("w2").await.unwrap(), "paired: not cancelled");
    assert!(store.lobby.waiting("w1").await.unwrap().is_some());
    assert!(store.lobby.cancel("w3").await.unwrap());
    assert!(!store.lobby.cancel("w3").await.unwrap(), "cancelled already");
    assert!(store.lobby.waiting("w3").await.unwrap().is_none());
    assert!(!store.lobby.cancel("w9").await.unwrap());
    assert_eq!(store.lobby.waiting("w4").await.unwrap(), Some(waiter("w4", "w4", NOW)), "the others untouched");
}

async fn held_tables_and_waits_are_seen_again(store: Store) {
    let b = tables_within(9, 9, 9);
    for id in ["t1", "t2", "t3"] {
        store.lobby.open(&row(id, id, NOW), &b).await.unwrap();
    }
    assert!(store.lobby.update("t3", 0, Some(("{}", false, NOW + 1))).await.unwrap());
    for id in ["w1", "w2", "w3"] {
        store.lobby.wait(&waiter(id, id, NOW), &waits_within(10, 10)).await.unwrap();
    }
    assert!(store.lobby.pair(&pair(&["w3"]), "c3", NOW + 1).await.unwrap());
    let all = |ids: &[&str]| pair(ids);
    store.lobby.touch(&all(&["t1", "t3", "t9"]), &all(&["w1", "w3", "w9"]), NOW + 50).await.unwrap();
    store.lobby.touch(&all(&["t1"]), &all(&["w1"]), NOW + 20).await.unwrap();
    store.lobby.touch(&[], &[], NOW + 90).await.unwrap();
    let seen = |t: Option<LobbyRow>| t.unwrap().seen_at;
    assert_eq!(seen(store.lobby.table("t1").await.unwrap()), NOW + 50, "seen, never earlier than it was");
    assert_eq!(seen(store.lobby.table("t2").await.unwrap()), NOW, "not held here");
    assert_eq!(seen(store.lobby.table("t3").await.unwrap()), NOW + 1, "started: its start is kept");
    let t1 = store.lobby.table("t1").await.unwrap().unwrap();
    assert_eq!(t1.version, 0, "seeing a table changes no version");
    assert_eq!(store.lobby.waiting("w1").await.unwrap().unwrap().seen_at, NOW + 50);
    assert_eq!(store.lobby.waiting("w2").await.unwrap().unwrap().seen_at, NOW);
    assert_eq!(store.lobby.waiting("w3").await.unwrap().unwrap().seen_at, NOW + 1, "claimed: its claim's time is kept");
}

async fn the_waiters_are_the_unclaimed_seen_lately_longest_waiting_first(store: Store) {
    for (id, since, seen) in [("w1", 3, 10), ("w2", 1, 20), ("w3", 2, 5), ("w4", 1, 30), ("w5", 0, 40)] {
        let w = Waiting { since: NOW + since, seen_at: NOW + seen, ..waiter(id, id, NOW) };
        store.lobby.wait(&w, &waits_within(10, 10)).await.unwrap();
    }
    assert!(store.lobby.pair(&pair(&["w5"]), "c1", NOW + 40).await.unwrap());
    assert_eq!(waiters(&store, NOW).await, ["w2", "w4", "w3", "w1"], "by since, then id; claimed w5 is not waiting");
    assert_eq!(waiters(&store, NOW + 10).await, ["w2", "w4", "w1"], "seen at 10 or since");
    assert_eq!(ids(&store.lobby.waiters(NOW, 2).await.unwrap(), |w| &w.id), ["w2", "w4"]);
    assert!(waiters(&store, NOW + 31).await.is_empty());
    let first = store.lobby.waiters(NOW, 1).await.unwrap().remove(0);
    assert_eq!(first, Waiting { since: NOW + 1, seen_at: NOW + 20, ..waiter("w2", "w2", NOW) });
}

async fn the_sweep_removes_stale_tables_and_waits_and_undoes_stale_claims(store: Store) {
    let b = tables_within(1, 10, 10);
    for (id, seen) in [("open-old", 3), ("open-edge", 4), ("open-new", 8)] {
        store.lobby.open(&row(id, id, NOW + seen), &b).await.unwrap();
    }
    for (id, seen) in [("started-old", 99), ("started-new", 100)] {
        store.lobby.open(&row(id, id, NOW), &b).await.unwrap();
        assert!(store.lobby.update(id, 0, Some(("{}", false, NOW + seen))).await.unwrap());
    }
    let w = |id: &str, seen: i64| Waiting { seen_at: NOW + seen, ..waiter(id, id, NOW) };
    for (id, seen) in [("wait-old", 9), ("wait-new", 10), ("paired-old", 0), ("paired-new", 0), ("claim-old", 0)] {
        store.lobby.wait(&w(id, seen), &waits_within(10, 10)).await.unwrap();
    }
    store.lobby.wait(&w("claim-new", 0), &waits_within(10, 10)).await.unwrap();
    assert!(store.lobby.pair(&pair(&["paired-old"]), "c-old", NOW).await.unwrap());
    assert_eq!(store.lobby.paired("c-old", "g-old", NOW).await.unwrap(), 1);
    assert!(store.lobby.pair(&pair(&["paired-new"]), "c-new", NOW).await.unwrap());
    assert_eq!(store.lobby.paired("c-new", "g-new", NOW + 1).await.unwrap(), 1);
    assert!(store.lobby.pair(&pair(&["claim-old"]), "c-stuck", NOW + 9).await.unwrap());
    assert!(store.lobby.pair(&pair(&["claim-new"]), "c-fresh", NOW + 10).await.unwrap());
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
        assert_eq!(store.lobby.waiting(id).await.unwrap().is_some(), kept, "{id}");
    }
    // A claim whose game never came waits again; one under way is left alone.
    let stuck = store.lobby.waiting("claim-old").await.unwrap().unwrap();
    assert_eq!((stuck.game, stuck.seat, stuck.ready), (None, None, false), "given back");
    assert_eq!(waiters(&store, NOW + 10).await, ["claim-old", "wait-new"]);
    assert_eq!(store.lobby.waiting("claim-new").await.unwrap().unwrap().game.as_deref(), Some("c-fresh"));
    assert_eq!(store.lobby.paired("c-stuck", "g-late", NOW + 11).await.unwrap(), 0, "a claim given back stays so");
    let again = LobbySweep { open_before: 0, started_before: 0, waiting_before: 0, paired_before: 0 };
    assert!(store.lobby.sweep(again).await.unwrap().is_empty(), "nothing more");
}
