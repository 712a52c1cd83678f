//! `RuleSetRepo`: named rule sets a visitor keeps, by the hash of their key.

use carcassonne_server::{SavedRules, Store};

use crate::{ids, race, wins};

conformance!(
    saved_rule_sets_belong_to_their_owner_and_are_bounded,
    saved_rule_sets_are_bounded_per_address_whatever_the_keys,
    a_taken_rule_set_id_is_refused,
    saved_rule_sets_stay_bounded_under_racing_saves,
);

fn set(id: &str, at: i64) -> SavedRules {
    SavedRules { id: id.into(), name: format!("set {id}"), code: format!("AQAAAQ{id}"), created_at: at }
}

async fn kept(store: &Store, owner: &str) -> Vec<String> {
    ids(&store.rule_sets.of(owner).await.unwrap(), |s| &s.id)
}

async fn saved_rule_sets_belong_to_their_owner_and_are_bounded(store: Store) {
    assert!(store.rule_sets.of("ann").await.unwrap().is_empty());
    assert!(store.rule_sets.save("ann", "here", &set("a", 2), 3, 100).await.unwrap());
    assert!(store.rule_sets.save("ann", "here", &set("b", 1), 3, 100).await.unwrap());
    assert!(store.rule_sets.save("ann", "here", &set("c", 2), 3, 100).await.unwrap());
    assert!(!store.rule_sets.save("ann", "here", &set("x", 3), 3, 100).await.unwrap(), "a fourth is over the bound");
    assert!(store.rule_sets.save("bob", "here", &set("d", 3), 3, 100).await.unwrap());
    // Oldest first, and by id when made at once.
    assert_eq!(kept(&store, "ann").await, ["b", "a", "c"]);
    assert_eq!(store.rule_sets.of("ann").await.unwrap()[0], set("b", 1), "kept as saved");
    assert!(!store.rule_sets.rename("bob", "a", "mine now").await.unwrap(), "only the owner renames");
    assert!(!store.rule_sets.rename("ann", "zz", "none").await.unwrap(), "no such rule set");
    assert!(store.rule_sets.rename("ann", "a", "Our table").await.unwrap());
    let a = store.rule_sets.of("ann").await.unwrap().remove(1);
    assert_eq!(a, SavedRules { name: "Our table".into(), ..set("a", 2) }, "renamed, nothing else");
    assert!(!store.rule_sets.delete("bob", "a").await.unwrap(), "only the owner deletes");
    assert!(store.rule_sets.delete("ann", "a").await.unwrap());
    assert!(!store.rule_sets.delete("ann", "a").await.unwrap(), "deleted already");
    assert_eq!(kept(&store, "ann").await, ["b", "c"]);
    assert_eq!(kept(&store, "bob").await, ["d"]);
    // Room again for one more.
    assert!(store.rule_sets.save("ann", "here", &set("x", 3), 3, 100).await.unwrap());
    assert!(!store.rule_sets.save("ann", "here", &set("y", 3), 3, 100).await.unwrap());
    assert!(!store.rule_sets.save("carl", "here", &set("z", 3), 0, 100).await.unwrap(), "none at all");
    assert!(store.rule_sets.of("carl").await.unwrap().is_empty());
}

/// Issue 45, 10: one address keeps a bounded number, whatever the keys.
async fn saved_rule_sets_are_bounded_per_address_whatever_the_keys(store: Store) {
    for (i, owner) in ["k1", "k2", "k3"].iter().enumerate() {
        assert!(store.rule_sets.save(owner, "crowd", &set(&format!("c{i}"), 1), 50, 3).await.unwrap());
    }
    assert!(!store.rule_sets.save("k4", "crowd", &set("c4", 1), 50, 3).await.unwrap(), "a fresh key, the same address");
    assert!(store.rule_sets.of("k4").await.unwrap().is_empty());
    assert!(store.rule_sets.save("k4", "elsewhere", &set("c5", 1), 50, 3).await.unwrap(), "another address");
    assert!(store.rule_sets.delete("k1", "c0").await.unwrap());
    assert!(store.rule_sets.save("k1", "crowd", &set("c6", 1), 50, 3).await.unwrap(), "room again");
}

async fn a_taken_rule_set_id_is_refused(store: Store) {
    assert!(store.rule_sets.save("ann", "here", &set("a", 1), 3, 100).await.unwrap());
    assert!(store.rule_sets.save("bob", "here", &set("a", 2), 3, 100).await.is_err(), "another's id");
    assert!(store.rule_sets.save("ann", "here", &set("a", 3), 3, 100).await.is_err(), "one's own id");
    assert_eq!(store.rule_sets.of("ann").await.unwrap(), [set("a", 1)]);
    assert!(store.rule_sets.of("bob").await.unwrap().is_empty());
}

async fn saved_rule_sets_stay_bounded_under_racing_saves(stores: [Store; 2]) {
    assert!(stores[0].rule_sets.save("ann", "here", &set("a", 1), 3, 100).await.unwrap());
    assert!(stores[1].rule_sets.save("bob", "here", &set("d", 1), 3, 100).await.unwrap());
    // Eight saves at once from two servers, for one owner with room for two more: two are kept.
    let saved = race(&stores, 8, |i, store| async move {
        store.rule_sets.save("ann", "here", &set(&format!("r{i}"), 10), 3, 100).await
    })
    .await;
    let saved: Vec<bool> = saved.into_iter().map(Result::unwrap).collect();
    assert_eq!(wins(&saved), 2, "{saved:?}");
    assert_eq!(stores[1].rule_sets.of("ann").await.unwrap().len(), 3);
    assert_eq!(kept(&stores[0], "bob").await, ["d"]);
}
