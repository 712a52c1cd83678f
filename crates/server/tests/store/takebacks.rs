//! `TakebackRepo`: a game's takeback request, kept only over the revision
//! and move count read, and the grant that deletes the moves taken back
//! with the game's new progress, request and clocks in one write.

use carcassonne_server::{ClockAfter, Grant, NewGame, Progress, Store, StoreError};

use crate::{a_move, finished, new_game, progress, race, wins};

conformance!(
    a_request_is_kept_only_at_the_revision_and_move_count_read,
    a_grant_deletes_the_moves_taken_back_in_one_write,
    a_grant_keeps_the_clocks_only_at_their_revision,
    servers_granting_at_once_grant_once,
);

/// A grant of these fields (`Grant`).
fn g<'a>(
    moves: usize,
    rev: u64,
    json: &'a str,
    to: usize,
    progress: &'a Progress,
    clock: Option<ClockAfter<'a>>,
) -> Grant<'a> {
    Grant { moves, rev, json, to, progress, clock }
}

const CLOCK: &str = r#"{"rev":3}"#;

async fn a_request_is_kept_only_at_the_revision_and_move_count_read(store: Store) {
    store.games.create(&new_game("g1")).await.unwrap();
    assert_eq!(store.takebacks.load("g1").await.unwrap(), None, "never asked");
    assert_eq!(store.takebacks.load("nope").await.unwrap(), None);
    assert!(!store.takebacks.put("g1", 0, 1, r#"{"rev":2}"#).await.unwrap(), "none stored: revision 0");
    assert!(!store.takebacks.put("g1", 1, 0, r#"{"rev":1}"#).await.unwrap(), "no move stored");
    assert!(store.takebacks.put("g1", 0, 0, r#"{"rev":1,"a":1}"#).await.unwrap());
    assert!(!store.takebacks.put("g1", 0, 0, r#"{"rev":1,"a":2}"#).await.unwrap(), "1 is there");
    assert_eq!(store.takebacks.load("g1").await.unwrap().as_deref(), Some(r#"{"rev":1,"a":1}"#));
    store.games.append_move("g1", 0, &a_move(), &progress(5)).await.unwrap();
    assert!(!store.takebacks.put("g1", 0, 1, r#"{"rev":2}"#).await.unwrap(), "a move came");
    assert!(store.takebacks.put("g1", 1, 1, r#"{"rev":2}"#).await.unwrap());
    assert!(!store.takebacks.put("nope", 0, 0, r#"{"rev":1}"#).await.unwrap(), "no such game");
    // A game over takes no request.
    store.games.create(&new_game("g2")).await.unwrap();
    store.games.append_move("g2", 0, &a_move(), &finished(6, vec![4, 0])).await.unwrap();
    assert!(!store.takebacks.put("g2", 1, 0, r#"{"rev":1}"#).await.unwrap());
    assert_eq!(store.takebacks.load("g2").await.unwrap(), None);
    // Moves leave the request alone.
    assert_eq!(store.takebacks.load("g1").await.unwrap().as_deref(), Some(r#"{"rev":2}"#));
}

/// Game `id` with two moves stored (the store does not judge them).
async fn two_moves(store: &Store, game: NewGame) {
    let id = game.id.clone();
    store.games.create(&game).await.unwrap();
    store.games.append_move(&id, 0, &a_move(), &progress(5)).await.unwrap();
    let second = carcassonne::record::RecordMove { tile: "V".into(), at: [1, 0], ..a_move() };
    store.games.append_move(&id, 1, &second, &progress(6)).await.unwrap();
}

async fn a_grant_deletes_the_moves_taken_back_in_one_write(store: Store) {
    two_moves(&store, new_game("g1")).await;
    assert!(store.takebacks.put("g1", 2, 0, r#"{"rev":1}"#).await.unwrap());
    let back = progress(7);
    // Refused: another count, another revision, another game; nothing changes.
    assert!(!store.takebacks.grant("g1", &g(1, 1, r#"{"rev":2}"#, 1, &back, None)).await.unwrap());
    assert!(!store.takebacks.grant("g1", &g(2, 0, r#"{"rev":2}"#, 1, &back, None)).await.unwrap());
    assert!(!store.takebacks.grant("nope", &g(2, 1, r#"{"rev":2}"#, 1, &back, None)).await.unwrap());
    assert_eq!(store.games.load("g1").await.unwrap().unwrap().record.moves.len(), 2);
    assert_eq!(store.takebacks.load("g1").await.unwrap().as_deref(), Some(r#"{"rev":1}"#));

    assert!(store.takebacks.grant("g1", &g(2, 1, r#"{"rev":2,"granted":1}"#, 1, &back, None)).await.unwrap());
    let stored = store.games.load("g1").await.unwrap().unwrap();
    assert_eq!(stored.record.moves, [a_move()], "the moves from the one taken back are gone");
    assert_eq!(stored.updated_at, 7);
    assert_eq!(store.takebacks.load("g1").await.unwrap().as_deref(), Some(r#"{"rev":2,"granted":1}"#));
    let listed = store.games.list(10).await.unwrap().into_iter().find(|g| g.id == "g1").unwrap();
    assert_eq!((listed.moves, &listed.progress), (1, &back), "the count and progress kept with it");
    // The game goes on from there: a move at the old count is refused, at the new one stored.
    let err = store.games.append_move("g1", 2, &a_move(), &progress(8)).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict(_)), "{err:?}");
    store.games.append_move("g1", 1, &a_move(), &progress(8)).await.unwrap();
    assert_eq!(store.games.load("g1").await.unwrap().unwrap().record.moves.len(), 2);
    // Back to no move at all.
    assert!(store.takebacks.grant("g1", &g(2, 2, r#"{"rev":3}"#, 0, &progress(9), None)).await.unwrap());
    assert!(store.games.load("g1").await.unwrap().unwrap().record.moves.is_empty());
    // A game over is not taken back.
    two_moves(&store, new_game("g2")).await;
    store.games.append_move("g2", 2, &a_move(), &finished(9, vec![1, 0])).await.unwrap();
    assert!(!store.takebacks.grant("g2", &g(3, 0, r#"{"rev":1}"#, 1, &back, None)).await.unwrap());
    assert_eq!(store.games.load("g2").await.unwrap().unwrap().record.moves.len(), 3);
}

async fn a_grant_keeps_the_clocks_only_at_their_revision(store: Store) {
    two_moves(&store, NewGame { clock: Some(CLOCK.into()), deadline: Some(50), ..new_game("g1") }).await;
    let clock = |rev, json| Some(ClockAfter { rev, json, deadline: Some(90) });
    let back = progress(7);
    assert!(!store.takebacks.grant("g1", &g(2, 0, r#"{"rev":1}"#, 1, &back, clock(2, r#"{"rev":3}"#))).await.unwrap());
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(CLOCK), "refused: the clocks as they were");
    assert_eq!(store.games.load("g1").await.unwrap().unwrap().record.moves.len(), 2);
    assert_eq!(store.clocks.due(50, 10).await.unwrap(), ["g1"]);
    assert!(store.takebacks.grant("g1", &g(2, 0, r#"{"rev":1}"#, 1, &back, clock(3, r#"{"rev":4}"#))).await.unwrap());
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(r#"{"rev":4}"#));
    assert!(store.clocks.due(89, 10).await.unwrap().is_empty(), "the new deadline");
    assert_eq!(store.clocks.due(90, 10).await.unwrap(), ["g1"]);
    assert_eq!(store.games.load("g1").await.unwrap().unwrap().record.moves.len(), 1);
}

async fn servers_granting_at_once_grant_once(stores: [Store; 2]) {
    two_moves(&stores[0], new_game("g1")).await;
    let granted = race(&stores, 8, |i, store| async move {
        let json = format!("{{\"rev\":1,\"by\":{i}}}");
        store
            .takebacks
            .grant("g1", &Grant { moves: 2, rev: 0, json: &json, to: 1, progress: &progress(7), clock: None })
            .await
            .unwrap()
    })
    .await;
    assert_eq!(wins(&granted), 1, "{granted:?}");
    let by = granted.iter().position(|g| *g).unwrap();
    assert_eq!(stores[1].takebacks.load("g1").await.unwrap(), Some(format!("{{\"rev\":1,\"by\":{by}}}")));
    assert_eq!(stores[1].games.load("g1").await.unwrap().unwrap().record.moves.len(), 1);
}
