//! `ReviewRepo`: a finished game's review, worked out once whichever
//! server is asked, and kept.

use carcassonne_server::Store;

use crate::{new_game, race, wins};

conformance!(
    a_review_is_worked_out_once_and_kept,
    a_review_is_worked_out_by_one_server_and_kept_for_all,
    servers_racing_for_a_review_leave_it_to_one,
);

async fn a_review_is_worked_out_once_and_kept(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    assert_eq!(store.reviews.get("g").await.unwrap(), None);
    assert!(store.reviews.claim("g", 10, 0).await.unwrap());
    assert_eq!(store.reviews.get("g").await.unwrap(), None, "being worked out: not kept yet");
    assert!(store.reviews.claim("g", 20, 0).await.unwrap(), "this server again (restarted mid-review)");
    store.reviews.save("g", "{}").await.unwrap();
    assert_eq!(store.reviews.get("g").await.unwrap().as_deref(), Some("{}"));
    assert!(!store.reviews.claim("g", 30, 30).await.unwrap(), "kept: never worked out again");
    assert!(!store.reviews.claim("g", 40, 0).await.unwrap(), "nor by this server");
    assert_eq!(store.reviews.get("g").await.unwrap().as_deref(), Some("{}"), "a refused claim changes nothing");
    assert!(store.reviews.claim("nosuchgame", 10, 0).await.is_err(), "only a stored game");
    assert!(store.reviews.save("nosuchgame", "{}").await.is_err(), "only a stored game");
    assert_eq!(store.reviews.get("nosuchgame").await.unwrap(), None);
    // Kept without a claim (a review worked out by a server that never claimed it).
    store.games.create(&new_game("h")).await.unwrap();
    store.reviews.save("h", "{\"moves\":[]}").await.unwrap();
    assert_eq!(store.reviews.get("h").await.unwrap().as_deref(), Some("{\"moves\":[]}"));
    assert!(!store.reviews.claim("h", 50, 50).await.unwrap());
}

/// Two servers: the second is refused while the first works the review
/// out, until the first is taken for gone. With SQLite both are the one
/// server of the file, which may always take it again (a restart).
async fn a_review_is_worked_out_by_one_server_and_kept_for_all([one, two]: [Store; 2]) {
    let shared = one.cluster.server().is_some();
    one.games.create(&new_game("g")).await.unwrap();
    assert!(one.reviews.claim("g", 1_000, 0).await.unwrap(), "the first server takes it");
    assert_eq!(two.reviews.claim("g", 1_001, 0).await.unwrap(), !shared, "a second, while the first works it out");
    assert!(one.reviews.claim("g", 1_002, 0).await.unwrap(), "the first server may take it again (a restart)");
    // Claimed at 1002, so not stale before 1002 itself.
    assert_eq!(two.reviews.claim("g", 1_003, 1_002).await.unwrap(), !shared);
    // A server silent since before `stale_before` is taken for gone.
    assert!(two.reviews.claim("g", 5_000, 2_000).await.unwrap());
    assert_eq!(one.reviews.claim("g", 5_001, 2_000).await.unwrap(), !shared, "the second has it now");
    two.reviews.save("g", "{\"moves\":[]}").await.unwrap();
    assert_eq!(one.reviews.get("g").await.unwrap().as_deref(), Some("{\"moves\":[]}"));
    assert!(!one.reviews.claim("g", 9_000, 9_000).await.unwrap(), "a kept review is never worked out again");
    assert!(!two.reviews.claim("g", 9_000, 9_000).await.unwrap());
}

/// Servers asked at once: with PostgreSQL one of them works it out; with
/// SQLite the one server does.
async fn servers_racing_for_a_review_leave_it_to_one(stores: [Store; 2]) {
    let shared = stores[0].cluster.server().is_some();
    stores[0].games.create(&new_game("g")).await.unwrap();
    let claims = race(&stores, 8, |i, store| async move { store.reviews.claim("g", 100 + i as i64, 0).await }).await;
    let claims: Vec<bool> = claims.into_iter().map(Result::unwrap).collect();
    if shared {
        // Every claim by the server that won is its own again (a restart): all of one server's, none of the other's.
        let by_server: Vec<bool> = (0..2).map(|s| claims.iter().skip(s).step_by(2).any(|c| *c)).collect();
        assert_eq!(wins(&by_server), 1, "one server works it out: {claims:?}");
    } else {
        assert_eq!(wins(&claims), 8, "the one server's claims: {claims:?}");
    }
}
