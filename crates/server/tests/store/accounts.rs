//! `AccountRepo` (accounts and their sessions) and `PasskeyRepo` (passkeys
//! and the ceremonies begun).

use carcassonne_server::{Account, PasskeyChallenge, Store, StoredPasskey};

use crate::{account, ids, passkey, race, wins};

/// Room for every ceremony a test begins, where the room is not what it tests.
const ROOM: usize = 100;
/// Sessions kept per account, where that is not what a test tests.
const SESSIONS: usize = 100;

conformance!(
    an_account_is_found_by_its_name_s_key_which_is_taken_once,
    a_session_lives_while_used_and_is_renewed_on_use,
    a_new_session_sweeps_the_idle_ones,
    an_account_keeps_its_latest_used_sessions,
    sessions_end_one_at_a_time_or_all_but_one,
    a_password_is_replaced_with_or_without_the_recovery_code,
    a_deleted_account_ends_its_sessions_and_frees_its_name,
    sign_ups_of_one_name_at_once_make_one_account,
    a_ceremony_is_taken_once_by_its_kind_before_it_expires,
    saving_a_ceremony_sweeps_the_expired_ones,
    a_ceremony_taken_on_two_servers_at_once_is_taken_once,
    ceremonies_are_kept_while_there_is_room,
    ceremonies_begun_at_once_on_two_servers_stay_within_the_room,
    passkeys_are_added_once_within_the_bound_and_listed_oldest_first,
    a_passkey_is_found_by_its_credential_used_and_removed_by_its_account,
    passkeys_added_at_once_stay_within_the_bound,
    a_deleted_account_takes_its_passkeys_and_ceremonies_along,
    a_refused_session_sweeps_nothing,
    a_refused_ceremony_sweeps_nothing,
    devices_are_kept_per_account_the_oldest_forgotten,
    an_account_is_found_by_its_id,
    a_budget_of_attempts_lets_its_burst_through_then_one_a_period,
    attempts_spent_at_once_on_two_servers_spend_one_budget,
);

// ---------------------------------------------------------------- accounts and sessions

async fn an_account_is_found_by_its_name_s_key_which_is_taken_once(store: Store) {
    let ada = account("a1", "Ada");
    assert_eq!(store.accounts.by_key("ada").await.unwrap(), None);
    assert!(store.accounts.create(&ada).await.unwrap());
    assert!(!store.accounts.create(&account("a2", "ADA")).await.unwrap(), "the name's key is taken");
    assert!(store.accounts.create(&account("a1", "Bob")).await.is_err(), "the id is taken");
    assert_eq!(store.accounts.by_key("ada").await.unwrap(), Some(ada), "kept as made");
    assert_eq!(store.accounts.by_key("bob").await.unwrap(), None, "nothing of the refused ones");
    assert_eq!(store.accounts.by_key("Ada").await.unwrap(), None, "found by its key, not its name");
}

async fn a_session_lives_while_used_and_is_renewed_on_use(store: Store) {
    store.accounts.create(&account("a1", "Ada")).await.unwrap();
    store.accounts.create_session("s1", "a1", 1_000, 0, SESSIONS).await.unwrap();
    store.accounts.create_session("s2", "a1", 1_000, 0, SESSIONS).await.unwrap();
    let s = store.accounts.session("s1", 1_500, 900, 1_400).await.unwrap();
    assert_eq!(s.map(|a| a.id).as_deref(), Some("a1"), "used at 1000, renewed at 1500");
    let s = store.accounts.session("s1", 2_400, 1_450, 1_400).await.unwrap();
    assert_eq!(s.map(|a| a.id).as_deref(), Some("a1"), "used at 1500: alive, and not renewed (since 1400)");
    let s = store.accounts.session("s1", 3_000, 1_500, 1_400).await.unwrap();
    assert!(s.is_some(), "used at 1500 exactly: alive");
    assert!(store.accounts.session("s1", 3_000, 1_501, 0).await.unwrap().is_none(), "not renewed at 2400");
    assert_eq!(store.accounts.session("s2", 2_400, 1_450, 1_400).await.unwrap(), None, "idle since 1000: over");
    assert_eq!(store.accounts.session("s2", 0, -10, -10).await.unwrap(), None, "and removed");
    assert_eq!(store.accounts.session("nope", 2_400, 0, 0).await.unwrap(), None);
    // The account a session gives is the account as stored.
    store.accounts.create_session("s3", "a1", 5_000, 0, SESSIONS).await.unwrap();
    let s = store.accounts.session("s3", 5_000, 0, 0).await.unwrap();
    assert_eq!(s, Some(account("a1", "Ada")));
    assert!(store.accounts.create_session("s4", "nobody", 5_000, 0, SESSIONS).await.is_err(), "no such account");
    assert!(
        store.accounts.create_session("s3", "a1", 5_000, 0, SESSIONS).await.is_err(),
        "a session's hash is taken once"
    );
}

async fn an_account_keeps_its_latest_used_sessions(store: Store) {
    store.accounts.create(&account("a1", "Ada")).await.unwrap();
    store.accounts.create(&account("b1", "Bob")).await.unwrap();
    for (i, at) in [1_000, 2_000, 3_000].into_iter().enumerate() {
        store.accounts.create_session(&format!("s{i}"), "a1", at, 0, 3).await.unwrap();
    }
    store.accounts.create_session("b", "b1", 3_500, 0, 3).await.unwrap();
    // s0, begun first, is used again: s1 is the least lately used.
    assert!(store.accounts.session("s0", 3_600, 0, 3_600).await.unwrap().is_some());
    store.accounts.create_session("s3", "a1", 4_000, 0, 3).await.unwrap();
    let alive = |s: &'static str| {
        let store = store.clone();
        async move { store.accounts.session(s, 4_000, 0, 0).await.unwrap().is_some() }
    };
    assert!(!alive("s1").await, "the least lately used went");
    for s in ["s0", "s2", "s3", "b"] {
        assert!(alive(s).await, "{s} stays (Bob's are his own)");
    }
}

async fn a_new_session_sweeps_the_idle_ones(store: Store) {
    store.accounts.create(&account("a1", "Ada")).await.unwrap();
    store.accounts.create(&account("b1", "Bob")).await.unwrap();
    store.accounts.create_session("s1", "a1", 1_000, 0, SESSIONS).await.unwrap();
    store.accounts.create_session("s2", "b1", 1_500, 0, SESSIONS).await.unwrap();
    store.accounts.create_session("s3", "b1", 2_000, 0, SESSIONS).await.unwrap();
    // Sessions unused since before 2000 go, whoever's they were.
    store.accounts.create_session("s4", "a1", 10_000, 2_000, SESSIONS).await.unwrap();
    for gone in ["s1", "s2"] {
        assert_eq!(store.accounts.session(gone, 10_000, 0, 0).await.unwrap(), None, "{gone} swept");
    }
    for kept in ["s3", "s4"] {
        assert!(store.accounts.session(kept, 10_000, 0, 0).await.unwrap().is_some(), "{kept} kept");
    }
}

async fn sessions_end_one_at_a_time_or_all_but_one(store: Store) {
    store.accounts.create(&account("a1", "Ada")).await.unwrap();
    store.accounts.create(&account("b1", "Bob")).await.unwrap();
    for s in ["s1", "s2", "s3", "s4"] {
        store.accounts.create_session(s, "a1", 10_000, 0, SESSIONS).await.unwrap();
    }
    store.accounts.create_session("b", "b1", 10_000, 0, SESSIONS).await.unwrap();
    assert!(store.accounts.end_session("s1").await.unwrap());
    assert!(!store.accounts.end_session("s1").await.unwrap(), "ended already");
    assert_eq!(store.accounts.session("s1", 10_000, 0, 0).await.unwrap(), None);
    assert_eq!(store.accounts.end_sessions("a1", Some("s2")).await.unwrap(), 2, "s3 and s4");
    assert!(store.accounts.session("s2", 10_000, 0, 0).await.unwrap().is_some(), "the kept one stays");
    assert_eq!(store.accounts.session("s3", 10_000, 0, 0).await.unwrap(), None);
    assert_eq!(store.accounts.end_sessions("a1", Some("s2")).await.unwrap(), 0);
    assert_eq!(store.accounts.end_sessions("a1", None).await.unwrap(), 1, "all of them");
    assert_eq!(store.accounts.session("s2", 10_000, 0, 0).await.unwrap(), None);
    assert!(store.accounts.session("b", 10_000, 0, 0).await.unwrap().is_some(), "another's sessions stay");
    assert_eq!(store.accounts.end_sessions("nobody", None).await.unwrap(), 0);
}

async fn a_password_is_replaced_with_or_without_the_recovery_code(store: Store) {
    let ada = account("a1", "Ada");
    store.accounts.create(&ada).await.unwrap();
    store.accounts.create(&account("b1", "Bob")).await.unwrap();
    assert!(store.accounts.set_password("a1", "new", None).await.unwrap());
    let a = store.accounts.by_key("ada").await.unwrap().unwrap();
    assert_eq!((a.password.as_str(), a.recovery.as_str()), ("new", ada.recovery.as_str()), "the code kept");
    assert!(store.accounts.set_password("a1", "newer", Some("r2")).await.unwrap());
    let a = store.accounts.by_key("ada").await.unwrap().unwrap();
    assert_eq!((a.password.as_str(), a.recovery.as_str()), ("newer", "r2"));
    assert_eq!(a, Account { password: "newer".into(), recovery: "r2".into(), ..ada }, "nothing else");
    assert!(!store.accounts.set_password("zz", "x", None).await.unwrap(), "no such account");
    assert_eq!(store.accounts.by_key("bob").await.unwrap(), Some(account("b1", "Bob")), "another's untouched");
}

async fn a_deleted_account_ends_its_sessions_and_frees_its_name(store: Store) {
    store.accounts.create(&account("a1", "Ada")).await.unwrap();
    store.accounts.create(&account("b1", "Bob")).await.unwrap();
    store.accounts.create_session("s1", "a1", 10_000, 0, SESSIONS).await.unwrap();
    store.accounts.create_session("s2", "b1", 10_000, 0, SESSIONS).await.unwrap();
    assert!(store.accounts.delete("a1").await.unwrap());
    assert!(!store.accounts.delete("a1").await.unwrap(), "deleted already");
    assert_eq!(store.accounts.by_key("ada").await.unwrap(), None);
    assert_eq!(store.accounts.session("s1", 10_000, 0, 0).await.unwrap(), None);
    assert!(!store.accounts.end_session("s1").await.unwrap(), "its sessions went with it");
    assert!(store.accounts.session("s2", 10_000, 0, 0).await.unwrap().is_some());
    assert!(store.accounts.create(&account("a3", "Ada")).await.unwrap(), "the name is free again");
}

async fn an_account_is_found_by_its_id(store: Store) {
    let ada = account("a1", "Ada");
    assert!(store.accounts.create(&ada).await.unwrap());
    assert_eq!(store.accounts.by_id("a1").await.unwrap(), Some(ada));
    assert_eq!(store.accounts.by_id("nope").await.unwrap(), None);
    assert!(store.accounts.delete("a1").await.unwrap());
    assert_eq!(store.accounts.by_id("a1").await.unwrap(), None);
}

async fn devices_are_kept_per_account_the_oldest_forgotten(store: Store) {
    store.accounts.create(&account("a1", "Ada")).await.unwrap();
    store.accounts.create(&account("b1", "Bob")).await.unwrap();
    assert_eq!(store.accounts.device("d1").await.unwrap(), None);
    for (i, d) in ["d1", "d2", "d3"].iter().enumerate() {
        store.accounts.add_device(d, "a1", 1_000 + i as i64, 2).await.unwrap();
    }
    assert_eq!(store.accounts.device("d1").await.unwrap(), None, "past the newest two: forgotten");
    assert_eq!(store.accounts.device("d2").await.unwrap().as_deref(), Some("a1"));
    assert_eq!(store.accounts.device("d3").await.unwrap().as_deref(), Some("a1"));
    // A device that signs in to another account is that account's now.
    store.accounts.add_device("d2", "b1", 2_000, 2).await.unwrap();
    assert_eq!(store.accounts.device("d2").await.unwrap().as_deref(), Some("b1"));
    assert_eq!(store.accounts.device("d3").await.unwrap().as_deref(), Some("a1"));
    assert!(store.accounts.add_device("d4", "nobody", 3_000, 2).await.is_err(), "no such account");
    assert!(store.accounts.delete("a1").await.unwrap());
    assert_eq!(store.accounts.device("d3").await.unwrap(), None, "gone with its account");
    assert_eq!(store.accounts.device("d2").await.unwrap().as_deref(), Some("b1"));
}

async fn sign_ups_of_one_name_at_once_make_one_account(stores: [Store; 2]) {
    let made = race(&stores, 8, |i, store| async move {
        store.accounts.create(&account(&format!("a{i}"), if i % 2 == 0 { "Ada" } else { "ADA" })).await.unwrap()
    })
    .await;
    assert_eq!(wins(&made), 1, "{made:?}");
    let ada = stores[1].accounts.by_key("ada").await.unwrap().unwrap();
    assert_eq!(made.iter().position(|m| *m), ada.id[1..].parse().ok(), "the account made is the one kept");
}

// ---------------------------------------------------------------- sign-in attempts

async fn a_budget_of_attempts_lets_its_burst_through_then_one_a_period(store: Store) {
    let accounts = &store.accounts;
    // Three at once, then one a minute.
    for _ in 0..3 {
        assert_eq!(accounts.spend_attempt("k1", 60_000, 3).await.unwrap(), None);
    }
    let wait = accounts.spend_attempt("k1", 60_000, 3).await.unwrap().expect("the budget is spent");
    assert!((50_000..=60_000).contains(&wait), "{wait} ms");
    // A refused attempt spends nothing: the wait does not grow.
    for _ in 0..5 {
        let again = accounts.spend_attempt("k1", 60_000, 3).await.unwrap().expect("still spent");
        assert!(again <= wait, "{again} ms after {wait} ms");
    }
    // Another budget is its own.
    assert_eq!(accounts.spend_attempt("k2", 60_000, 3).await.unwrap(), None);
    // One a tenth of a second: refused at once, let through once it has passed.
    assert_eq!(accounts.spend_attempt("k3", 100, 1).await.unwrap(), None);
    let wait = accounts.spend_attempt("k3", 100, 1).await.unwrap().expect("spent");
    assert!((1..=100).contains(&wait), "{wait} ms");
    tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    assert_eq!(accounts.spend_attempt("k3", 100, 1).await.unwrap(), None, "whole again");
    // Whole again, its row may be forgotten on another budget's attempt:
    // either way the budget starts whole.
    tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    assert_eq!(accounts.spend_attempt("k4", 100, 1).await.unwrap(), None);
    assert_eq!(accounts.spend_attempt("k3", 100, 1).await.unwrap(), None);
}

async fn attempts_spent_at_once_on_two_servers_spend_one_budget(stores: [Store; 2]) {
    let spent = race(&stores, 16, |_, store| async move {
        store.accounts.spend_attempt("a name", 60_000, 5).await.unwrap().is_none()
    })
    .await;
    assert_eq!(wins(&spent), 5, "{spent:?}");
    for store in &stores {
        assert!(store.accounts.spend_attempt("a name", 60_000, 5).await.unwrap().is_some());
    }
}

// ---------------------------------------------------------------- passkeys

fn challenge(id: &str, kind: &str, account: Option<&str>, expires_at: i64) -> PasskeyChallenge {
    PasskeyChallenge {
        id_hash: id.into(),
        kind: kind.into(),
        account: account.map(str::to_string),
        state: format!("{{\"state\":\"{id}\"}}"),
        expires_at,
    }
}

async fn two_accounts(store: &Store) {
    store.accounts.create(&account("a1", "Ada")).await.unwrap();
    store.accounts.create(&account("b1", "Bob")).await.unwrap();
}

async fn passkeys_of(store: &Store, account: &str) -> Vec<String> {
    ids(&store.passkeys.of(account).await.unwrap(), |p| &p.credential_id)
}

async fn a_ceremony_is_taken_once_by_its_kind_before_it_expires(store: Store) {
    two_accounts(&store).await;
    store.passkeys.save_challenge(&challenge("c1", "register", Some("a1"), 2_000), 1_000, ROOM).await.unwrap();
    store.passkeys.save_challenge(&challenge("c2", "signin", None, 2_000), 1_000, ROOM).await.unwrap();
    store.passkeys.save_challenge(&challenge("c3", "signin", None, 1_500), 1_000, ROOM).await.unwrap();
    assert_eq!(store.passkeys.take_challenge("c1", "signin", 1_100).await.unwrap(), None, "another kind");
    let c1 = store.passkeys.take_challenge("c1", "register", 1_100).await.unwrap();
    assert_eq!(c1, Some(challenge("c1", "register", Some("a1"), 2_000)), "kept as begun");
    assert_eq!(store.passkeys.take_challenge("c1", "register", 1_100).await.unwrap(), None, "taken once");
    assert_eq!(store.passkeys.take_challenge("c3", "signin", 1_600).await.unwrap(), None, "expired");
    assert_eq!(store.passkeys.take_challenge("c3", "signin", 1_100).await.unwrap(), None, "and gone");
    let c2 = store.passkeys.take_challenge("c2", "signin", 2_000).await.unwrap();
    assert_eq!(c2, Some(challenge("c2", "signin", None, 2_000)), "taken at its expiry: still good");
    assert_eq!(store.passkeys.take_challenge("nope", "signin", 0).await.unwrap(), None);
    let taken = challenge("c2", "signin", None, 9_000);
    store.passkeys.save_challenge(&taken, 2_000, ROOM).await.unwrap();
    assert!(store.passkeys.save_challenge(&taken, 2_000, ROOM).await.is_err(), "a token's hash is begun once");
    assert!(
        store.passkeys.save_challenge(&challenge("c9", "register", Some("nobody"), 9_000), 2_000, ROOM).await.is_err(),
        "no such account"
    );
}

async fn saving_a_ceremony_sweeps_the_expired_ones(store: Store) {
    store.passkeys.save_challenge(&challenge("c1", "signin", None, 2_000), 1_000, ROOM).await.unwrap();
    store.passkeys.save_challenge(&challenge("c2", "signin", None, 2_500), 1_000, ROOM).await.unwrap();
    store.passkeys.save_challenge(&challenge("c3", "signin", None, 3_000), 1_000, ROOM).await.unwrap();
    // Those expired before 2500 go; 2500 itself is not before.
    store.passkeys.save_challenge(&challenge("c4", "signin", None, 9_000), 2_500, ROOM).await.unwrap();
    assert_eq!(store.passkeys.take_challenge("c1", "signin", 0).await.unwrap(), None, "swept at 2500");
    for kept in ["c2", "c3", "c4"] {
        assert!(store.passkeys.take_challenge(kept, "signin", 0).await.unwrap().is_some(), "{kept}");
    }
}

async fn a_ceremony_taken_on_two_servers_at_once_is_taken_once(stores: [Store; 2]) {
    stores[0].passkeys.save_challenge(&challenge("c1", "signin", None, 9_000), 1_000, ROOM).await.unwrap();
    let taken =
        race(&stores, 8, |_, store| async move { store.passkeys.take_challenge("c1", "signin", 1_000).await.unwrap() })
            .await;
    let taken: Vec<bool> = taken.iter().map(Option::is_some).collect();
    assert_eq!(wins(&taken), 1, "{taken:?}");
}

async fn ceremonies_are_kept_while_there_is_room(store: Store) {
    let passkeys = &store.passkeys;
    assert!(passkeys.save_challenge(&challenge("c1", "signin", None, 2_000), 1_000, 2).await.unwrap());
    assert!(passkeys.save_challenge(&challenge("c2", "signin", None, 9_000), 1_000, 2).await.unwrap());
    assert!(!passkeys.save_challenge(&challenge("c3", "signin", None, 9_000), 1_000, 2).await.unwrap(), "full");
    assert_eq!(passkeys.take_challenge("c3", "signin", 1_000).await.unwrap(), None, "not kept");
    assert!(passkeys.save_challenge(&challenge("c3", "signin", None, 9_000), 1_000, 3).await.unwrap(), "more room");
    assert!(!passkeys.save_challenge(&challenge("c4", "signin", None, 9_000), 1_000, 3).await.unwrap());
    // c1 expired by 3000: swept before the count.
    assert!(passkeys.save_challenge(&challenge("c4", "signin", None, 9_000), 3_000, 3).await.unwrap());
    // A ceremony taken frees its place.
    assert!(passkeys.take_challenge("c2", "signin", 3_000).await.unwrap().is_some());
    assert!(passkeys.save_challenge(&challenge("c5", "signin", None, 9_000), 3_000, 3).await.unwrap());
    assert!(!passkeys.save_challenge(&challenge("c6", "signin", None, 9_000), 3_000, 3).await.unwrap());
}

async fn ceremonies_begun_at_once_on_two_servers_stay_within_the_room(stores: [Store; 2]) {
    stores[0].passkeys.save_challenge(&challenge("c0", "signin", None, 9_000), 1_000, 4).await.unwrap();
    let kept = race(&stores, 12, |i, store| async move {
        store
            .passkeys
            .save_challenge(&challenge(&format!("c{}", i + 1), "signin", None, 9_000), 1_000, 4)
            .await
            .unwrap()
    })
    .await;
    assert_eq!(wins(&kept), 3, "{kept:?}");
}

async fn passkeys_are_added_once_within_the_bound_and_listed_oldest_first(store: Store) {
    two_accounts(&store).await;
    assert!(store.passkeys.of("a1").await.unwrap().is_empty());
    assert!(store.passkeys.add(&passkey("k2", "a1", 20), 3).await.unwrap());
    assert!(store.passkeys.add(&passkey("k1", "a1", 10), 3).await.unwrap());
    assert!(!store.passkeys.add(&passkey("k1", "b1", 30), 3).await.unwrap(), "a credential is stored once");
    assert!(!store.passkeys.add(&passkey("k1", "a1", 30), 3).await.unwrap(), "even by its own account");
    assert!(store.passkeys.add(&passkey("k0", "a1", 20), 3).await.unwrap());
    assert!(!store.passkeys.add(&passkey("k4", "a1", 40), 3).await.unwrap(), "three at most");
    assert!(store.passkeys.add(&passkey("k5", "b1", 50), 3).await.unwrap(), "three each");
    assert!(store.passkeys.add(&passkey("k6", "nobody", 50), 3).await.is_err(), "no such account");
    // Oldest first, and by credential when made at once.
    assert_eq!(passkeys_of(&store, "a1").await, ["k1", "k0", "k2"]);
    assert_eq!(store.passkeys.of("a1").await.unwrap()[0], passkey("k1", "a1", 10), "kept as added");
    assert_eq!(passkeys_of(&store, "b1").await, ["k5"]);
    assert!(store.passkeys.of("nobody").await.unwrap().is_empty());
}

async fn a_passkey_is_found_by_its_credential_used_and_removed_by_its_account(store: Store) {
    two_accounts(&store).await;
    store.passkeys.add(&passkey("k1", "a1", 10), 3).await.unwrap();
    store.passkeys.add(&passkey("k2", "a1", 20), 3).await.unwrap();
    let (k1, owner) = store.passkeys.by_credential("k1").await.unwrap().expect("k1");
    assert_eq!((k1, owner), (passkey("k1", "a1", 10), account("a1", "Ada")));
    assert_eq!(store.passkeys.by_credential("k4").await.unwrap(), None);
    assert!(store.passkeys.used("k1", "{\"cred\":\"k1 again\"}", 99).await.unwrap());
    assert!(!store.passkeys.used("k4", "{}", 99).await.unwrap(), "no such passkey");
    let (k1, _) = store.passkeys.by_credential("k1").await.unwrap().unwrap();
    assert_eq!(
        k1,
        StoredPasskey { passkey: "{\"cred\":\"k1 again\"}".into(), used_at: Some(99), ..passkey("k1", "a1", 10) }
    );
    assert_eq!(store.passkeys.by_credential("k2").await.unwrap().unwrap().0, passkey("k2", "a1", 20), "untouched");
    assert!(!store.passkeys.delete("b1", "k1").await.unwrap(), "not Bob's");
    assert!(store.passkeys.delete("a1", "k1").await.unwrap());
    assert!(!store.passkeys.delete("a1", "k1").await.unwrap(), "removed already");
    assert_eq!(passkeys_of(&store, "a1").await, ["k2"]);
    assert_eq!(store.passkeys.by_credential("k1").await.unwrap(), None);
}

async fn passkeys_added_at_once_stay_within_the_bound(stores: [Store; 2]) {
    // Eight passkeys at once from two servers, for an account with room for two more; four accounts.
    for a in ["a1", "b1", "c1", "d1"] {
        stores[0].accounts.create(&account(a, a)).await.unwrap();
        stores[0].passkeys.add(&passkey(&format!("{a}-0"), a, 1), 3).await.unwrap();
        let added = race(&stores, 8, |i, store| async move {
            store.passkeys.add(&passkey(&format!("{a}-{}", i + 1), a, 10), 3).await.unwrap()
        })
        .await;
        assert_eq!(wins(&added), 2, "{a}: {added:?}");
        assert_eq!(stores[1].passkeys.of(a).await.unwrap().len(), 3, "{a}");
    }
}

async fn a_deleted_account_takes_its_passkeys_and_ceremonies_along(store: Store) {
    two_accounts(&store).await;
    store.passkeys.add(&passkey("k1", "a1", 10), 3).await.unwrap();
    store.passkeys.add(&passkey("k5", "b1", 50), 3).await.unwrap();
    store.passkeys.save_challenge(&challenge("c5", "register", Some("a1"), 9_000), 3_000, ROOM).await.unwrap();
    store.passkeys.save_challenge(&challenge("c6", "register", Some("b1"), 9_000), 3_000, ROOM).await.unwrap();
    assert!(store.accounts.delete("a1").await.unwrap());
    assert!(store.passkeys.of("a1").await.unwrap().is_empty());
    assert_eq!(store.passkeys.by_credential("k1").await.unwrap(), None);
    assert_eq!(store.passkeys.take_challenge("c5", "register", 3_000).await.unwrap(), None);
    assert_eq!(passkeys_of(&store, "b1").await, ["k5"]);
    assert!(store.passkeys.take_challenge("c6", "register", 3_000).await.unwrap().is_some());
}

async fn a_refused_session_sweeps_nothing(store: Store) {
    store.accounts.create(&account("a1", "Ada")).await.unwrap();
    store.accounts.create_session("s1", "a1", 1_000, 0, SESSIONS).await.unwrap();
    assert!(store.accounts.create_session("s2", "nobody", 5_000, 2_000, SESSIONS).await.is_err(), "no such account");
    assert!(store.accounts.session("s1", 1_000, 0, 0).await.unwrap().is_some(), "the refusal swept s1");
}

async fn a_refused_ceremony_sweeps_nothing(store: Store) {
    store.passkeys.save_challenge(&challenge("c1", "signin", None, 2_000), 1_000, ROOM).await.unwrap();
    store.passkeys.save_challenge(&challenge("c2", "signin", None, 9_000), 1_000, ROOM).await.unwrap();
    assert!(
        store.passkeys.save_challenge(&challenge("c2", "signin", None, 9_000), 5_000, ROOM).await.is_err(),
        "begun"
    );
    assert!(store.passkeys.take_challenge("c1", "signin", 0).await.unwrap().is_some(), "the refusal swept c1");
}
