//! `PushRepo`: the VAPID key (one per storage), browsers' subscriptions
//! (bounded per endpoint, per target and per owner, kept all or none,
//! forgotten with their game's end), invites taken (once).

use carcassonne_server::{PushSubscription, Store};

use crate::{account, new_game, race, wins};

conformance!(
    one_vapid_key_is_kept_whoever_offers_one,
    servers_starting_at_once_keep_one_vapid_key,
    subscriptions_are_bounded_per_endpoint_and_per_target,
    a_subscription_kept_already_is_renewed_even_at_the_bounds,
    an_endpoint_unsubscribes_from_one_target_or_from_all,
    subscriptions_made_at_once_stay_within_the_bounds,
    subscriptions_are_bounded_per_owner,
    subscriptions_are_kept_all_or_none,
    subscriptions_made_at_once_stay_within_an_owner_s_share,
    an_ended_game_s_seats_are_forgotten,
    an_invite_is_taken_once,
    subscriptions_and_invites_go_with_their_game_or_account,
);

fn sub(endpoint: &str, target: &str, at: i64) -> PushSubscription {
    let game = target.strip_prefix("seat:").and_then(|t| t.split(':').next()).map(str::to_string);
    let account = target.strip_prefix("account:").map(str::to_string);
    PushSubscription {
        endpoint: endpoint.into(),
        p256dh: format!("p-{endpoint}"),
        auth: format!("a-{endpoint}"),
        target: target.into(),
        game_id: game,
        account,
        created_at: at,
        lang: "en".into(),
        owner: "addr:192.0.2.1".into(),
    }
}

/// `sub` counted in `owner`'s share.
fn owned(endpoint: &str, target: &str, owner: &str) -> PushSubscription {
    PushSubscription { owner: owner.into(), ..sub(endpoint, target, 1) }
}

async fn endpoints(store: &Store, target: &str) -> Vec<String> {
    crate::ids(&store.push.subscriptions(target).await.unwrap(), |s| &s.endpoint)
}

async fn one_vapid_key_is_kept_whoever_offers_one(store: Store) {
    assert_eq!(store.push.vapid_key("first-key", 1).await.unwrap(), "first-key");
    assert_eq!(store.push.vapid_key("second-key", 2).await.unwrap(), "first-key", "one key per storage");
    assert_eq!(store.push.vapid_key("first-key", 3).await.unwrap(), "first-key");
}

async fn servers_starting_at_once_keep_one_vapid_key(stores: [Store; 2]) {
    let keys =
        race(&stores, 8, |i, store| async move { store.push.vapid_key(&format!("key-{i}"), i as i64).await.unwrap() })
            .await;
    assert!(keys.iter().all(|k| *k == keys[0]), "{keys:?}");
    assert!(keys[0].starts_with("key-"));
    assert_eq!(stores[1].push.vapid_key("late", 99).await.unwrap(), keys[0]);
}

async fn subscriptions_are_bounded_per_endpoint_and_per_target(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    assert!(store.push.subscriptions("seat:g:0").await.unwrap().is_empty());
    assert!(store.push.subscribe(&[sub("e2", "seat:g:0", 5)], 2, 2, 99).await.unwrap());
    assert!(store.push.subscribe(&[sub("e1", "seat:g:0", 4)], 2, 2, 99).await.unwrap());
    assert!(!store.push.subscribe(&[sub("e3", "seat:g:0", 6)], 2, 2, 99).await.unwrap(), "a target's bound");
    assert!(store.push.subscribe(&[sub("e1", "seat:g:1", 7)], 2, 2, 99).await.unwrap());
    assert!(!store.push.subscribe(&[sub("e1", "seat:g:2", 8)], 2, 2, 99).await.unwrap(), "an endpoint's bound");
    assert!(store.push.subscribe(&[sub("e3", "seat:g:2", 8)], 2, 2, 99).await.unwrap());
    // Oldest first; kept as subscribed.
    assert_eq!(endpoints(&store, "seat:g:0").await, ["e1", "e2"]);
    assert_eq!(store.push.subscriptions("seat:g:1").await.unwrap(), [sub("e1", "seat:g:1", 7)]);
    assert_eq!(endpoints(&store, "seat:g:2").await, ["e3"], "nothing of the refused ones");
    assert!(!store.push.subscribe(&[sub("e4", "seat:g:3", 9)], 0, 2, 99).await.unwrap(), "none at all");
    assert!(store.push.subscriptions("seat:g:3").await.unwrap().is_empty());
    assert!(store.push.subscribe(&[sub("e4", "seat:gone:0", 9)], 2, 2, 99).await.is_err(), "a game that is gone");
    assert!(
        store.push.subscribe(&[sub("e4", "account:nobody", 9)], 2, 2, 99).await.is_err(),
        "an account that is gone"
    );
}

async fn a_subscription_kept_already_is_renewed_even_at_the_bounds(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    store.push.subscribe(&[sub("e1", "seat:g:0", 5)], 1, 1, 99).await.unwrap();
    let renewed =
        PushSubscription { p256dh: "p2".into(), auth: "a2".into(), lang: "de".into(), ..sub("e1", "seat:g:0", 6) };
    assert!(store.push.subscribe(&[renewed], 1, 1, 99).await.unwrap(), "a renewal at the bounds");
    let kept = store.push.subscriptions("seat:g:0").await.unwrap();
    assert_eq!(
        kept,
        [PushSubscription { p256dh: "p2".into(), auth: "a2".into(), lang: "de".into(), ..sub("e1", "seat:g:0", 5) }],
        "new keys and language, one subscription"
    );
}

async fn an_endpoint_unsubscribes_from_one_target_or_from_all(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    for (e, t) in [("e1", "seat:g:0"), ("e1", "seat:g:1"), ("e1", "seat:g:2"), ("e2", "seat:g:0")] {
        assert!(store.push.subscribe(&[sub(e, t, 1)], 9, 9, 99).await.unwrap());
    }
    assert_eq!(store.push.unsubscribe("e1", Some("seat:g:1")).await.unwrap(), 1);
    assert_eq!(store.push.unsubscribe("e1", Some("seat:g:1")).await.unwrap(), 0, "gone already");
    assert_eq!(store.push.unsubscribe("e9", None).await.unwrap(), 0);
    assert_eq!(store.push.unsubscribe("e1", None).await.unwrap(), 2, "the rest of e1's");
    assert_eq!(endpoints(&store, "seat:g:0").await, ["e2"]);
    assert!(store.push.subscriptions("seat:g:2").await.unwrap().is_empty());
    // Room again: the bounds count what is kept.
    assert!(store.push.subscribe(&[sub("e1", "seat:g:0", 2)], 1, 2, 99).await.unwrap());
}

async fn subscriptions_made_at_once_stay_within_the_bounds(stores: [Store; 2]) {
    stores[0].games.create(&new_game("g")).await.unwrap();
    // Eight browsers at once on one target with room for three.
    let made = race(&stores, 8, |i, store| async move {
        store.push.subscribe(&[sub(&format!("e{i}"), "seat:g:0", 1)], 9, 3, 99).await.unwrap()
    })
    .await;
    assert_eq!(wins(&made), 3, "per target: {made:?}");
    // One browser at once on eight targets, with room for two.
    let made = race(&stores, 8, |i, store| async move {
        store.push.subscribe(&[sub("one", &format!("seat:g:{}", i + 1), 1)], 2, 9, 99).await.unwrap()
    })
    .await;
    assert_eq!(wins(&made), 2, "per endpoint: {made:?}");
    assert_eq!(stores[1].push.subscriptions("seat:g:0").await.unwrap().len(), 3);
}

async fn an_invite_is_taken_once(stores: [Store; 2]) {
    stores[0].games.create(&new_game("g")).await.unwrap();
    assert!(stores[0].push.invite_taken("g", 1).await.unwrap());
    assert!(!stores[1].push.invite_taken("g", 1).await.unwrap(), "once, whichever server asks");
    assert!(stores[1].push.invite_taken("g", 2).await.unwrap(), "each seat's own");
    assert!(stores[0].push.invite_taken("gone", 1).await.is_err(), "a game that is gone");
    let taken = race(&stores, 8, |_, store| async move { store.push.invite_taken("g", 0).await.unwrap() }).await;
    assert_eq!(wins(&taken), 1, "{taken:?}");
}

async fn subscriptions_and_invites_go_with_their_game_or_account(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    store.games.create(&new_game("h")).await.unwrap();
    store.games.append_move("h", 0, &crate::a_move(), &crate::finished(5, vec![1, 0])).await.unwrap();
    store.accounts.create(&account("acc", "Pusher")).await.unwrap();
    for s in [sub("e1", "seat:g:0", 1), sub("e1", "seat:h:0", 1), sub("e1", "account:acc", 1)] {
        assert!(store.push.subscribe(&[s], 9, 9, 99).await.unwrap());
    }
    assert!(store.push.invite_taken("g", 1).await.unwrap());
    assert!(store.push.invite_taken("h", 1).await.unwrap());
    // An account deleted: its subscriptions go.
    assert!(store.accounts.delete("acc").await.unwrap());
    assert!(store.push.subscriptions("account:acc").await.unwrap().is_empty());
    // A game expired: its subscriptions and invites go (a finished game's stay).
    assert_eq!(store.games.expire(i64::MAX).await.unwrap(), ["g"]);
    assert!(store.push.subscriptions("seat:g:0").await.unwrap().is_empty());
    assert_eq!(endpoints(&store, "seat:h:0").await, ["e1"]);
    assert!(!store.push.invite_taken("h", 1).await.unwrap());
    store.games.create(&new_game("g")).await.unwrap();
    assert!(store.push.invite_taken("g", 1).await.unwrap(), "a new game of that id: its invites are its own");
    assert_eq!(store.push.unsubscribe("e1", None).await.unwrap(), 1, "only h's was left");
}

async fn subscriptions_are_bounded_per_owner(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    for (i, e) in ["e1", "e2", "e3"].into_iter().enumerate() {
        assert!(store.push.subscribe(&[owned(e, &format!("seat:g:{i}"), "addr:a")], 9, 9, 3).await.unwrap());
    }
    assert!(!store.push.subscribe(&[owned("e4", "seat:g:3", "addr:a")], 9, 9, 3).await.unwrap(), "a's share");
    assert!(store.push.subscriptions("seat:g:3").await.unwrap().is_empty());
    assert!(store.push.subscribe(&[owned("e4", "seat:g:3", "account:b")], 9, 9, 3).await.unwrap(), "b's own");
    // A renewal at the bound, whoever renews it, stays in the share it was in.
    let renewed = PushSubscription { p256dh: "p2".into(), ..owned("e1", "seat:g:0", "account:b") };
    assert!(store.push.subscribe(&[renewed], 9, 9, 3).await.unwrap());
    let kept = store.push.subscriptions("seat:g:0").await.unwrap();
    assert_eq!((kept[0].p256dh.as_str(), kept[0].owner.as_str()), ("p2", "addr:a"));
    // Room again once one goes.
    assert_eq!(store.push.unsubscribe("e2", None).await.unwrap(), 1);
    assert!(store.push.subscribe(&[owned("e5", "seat:g:4", "addr:a")], 9, 9, 3).await.unwrap());
    assert_eq!(store.push.subscriptions("seat:g:4").await.unwrap(), [owned("e5", "seat:g:4", "addr:a")]);
}

async fn subscriptions_are_kept_all_or_none(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    assert!(store.push.subscribe(&[owned("e1", "seat:g:0", "addr:a")], 9, 9, 3).await.unwrap());
    // Three more (one a renewal) where two fit: none kept, nothing renewed.
    let renewed = PushSubscription { lang: "fr".into(), ..owned("e1", "seat:g:0", "addr:a") };
    let batch = [
        owned("e1", "seat:g:1", "addr:a"),
        renewed.clone(),
        owned("e1", "seat:g:2", "addr:a"),
        owned("e1", "seat:g:3", "addr:a"),
    ];
    assert!(!store.push.subscribe(&batch, 9, 9, 3).await.unwrap());
    for seat in 1..4 {
        assert!(store.push.subscriptions(&format!("seat:g:{seat}")).await.unwrap().is_empty(), "seat {seat}");
    }
    assert_eq!(store.push.subscriptions("seat:g:0").await.unwrap()[0].lang, "en", "not renewed");
    // Each bound refuses a whole batch: the endpoint's, the target's.
    assert!(!store.push.subscribe(&batch[..3], 2, 9, 9).await.unwrap(), "e1 would follow three");
    assert!(store.push.subscribe(&[owned("e2", "seat:g:1", "addr:b")], 9, 9, 9).await.unwrap());
    assert!(!store.push.subscribe(&batch[..3], 9, 1, 9).await.unwrap(), "seat 1 would have two");
    assert!(store.push.subscriptions("seat:g:2").await.unwrap().is_empty());
    // Within the bounds, all kept.
    assert!(store.push.subscribe(&batch[..3], 9, 9, 9).await.unwrap());
    assert_eq!(endpoints(&store, "seat:g:1").await, ["e1", "e2"]);
    assert_eq!(store.push.subscriptions("seat:g:0").await.unwrap()[0].lang, "fr");
    // A batch with a game that is gone keeps nothing either.
    let gone = [owned("e3", "seat:g:5", "addr:c"), owned("e3", "seat:gone:0", "addr:c")];
    assert!(store.push.subscribe(&gone, 9, 9, 9).await.is_err());
    assert!(store.push.subscriptions("seat:g:5").await.unwrap().is_empty());
}

async fn subscriptions_made_at_once_stay_within_an_owner_s_share(stores: [Store; 2]) {
    stores[0].games.create(&new_game("g")).await.unwrap();
    // Eight browsers of one address at once, each for a seat of its own, with room for three.
    let made = race(&stores, 8, |i, store| async move {
        store.push.subscribe(&[owned(&format!("e{i}"), &format!("seat:g:{i}"), "addr:a")], 9, 9, 3).await.unwrap()
    })
    .await;
    assert_eq!(wins(&made), 3, "per owner: {made:?}");
    // Batches of two racing for five places: two batches kept, whole.
    let made = race(&stores, 6, |i, store| async move {
        let batch = [owned(&format!("f{i}"), "seat:g:10", "addr:b"), owned(&format!("f{i}"), "seat:g:11", "addr:b")];
        store.push.subscribe(&batch, 9, 9, 5).await.unwrap()
    })
    .await;
    assert_eq!(wins(&made), 2, "{made:?}");
    assert_eq!(stores[1].push.subscriptions("seat:g:10").await.unwrap().len(), 2);
    assert_eq!(stores[1].push.subscriptions("seat:g:11").await.unwrap().len(), 2);
}

async fn an_ended_game_s_seats_are_forgotten(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    store.games.create(&new_game("h")).await.unwrap();
    store.accounts.create(&account("acc", "Pusher")).await.unwrap();
    for s in [
        sub("e1", "seat:g:0", 1),
        sub("e2", "seat:g:0", 1),
        sub("e1", "seat:g:1", 1),
        sub("e1", "seat:h:0", 1),
        sub("e1", "account:acc", 1),
    ] {
        assert!(store.push.subscribe(&[s], 9, 9, 9).await.unwrap());
    }
    assert_eq!(store.push.forget_game("g").await.unwrap(), 3);
    assert!(store.push.subscriptions("seat:g:0").await.unwrap().is_empty());
    assert!(store.push.subscriptions("seat:g:1").await.unwrap().is_empty());
    assert_eq!(endpoints(&store, "seat:h:0").await, ["e1"]);
    assert_eq!(endpoints(&store, "account:acc").await, ["e1"]);
    assert_eq!(store.push.forget_game("g").await.unwrap(), 0, "once");
    assert_eq!(store.push.forget_game("nosuchgame").await.unwrap(), 0);
    // Room again: the bounds count what is kept.
    assert!(store.push.subscribe(&[sub("e9", "seat:g:0", 1)], 9, 9, 3).await.unwrap());
}
