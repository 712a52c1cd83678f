//! `ClockRepo`: each game's clocks, kept with it, and the deadline of the
//! move to make now.

use carcassonne_server::{NewGame, Store, TurnOf};

use crate::{a_move, finished, new_game, progress, race, wins};

conformance!(
    a_game_is_kept_with_its_clocks_in_one_write,
    clocks_are_saved_and_read_back,
    a_swap_keeps_the_clocks_only_at_the_revision_expected,
    a_change_needs_the_moves_and_the_revision_expected,
    servers_swapping_at_once_act_on_an_expiry_once,
    due_games_are_earliest_first_and_limited,
    the_turns_of_games_are_their_seats_progress_and_deadline,
);

const CLOCK: &str = r#"{"control":{"kind":"fischer"}}"#;

async fn a_game_is_kept_with_its_clocks_in_one_write(store: Store) {
    let game = NewGame { clock: Some(CLOCK.into()), deadline: Some(1_000), ..new_game("g1") };
    store.games.create(&game).await.unwrap();
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(CLOCK));
    assert_eq!(store.clocks.due(1_000, 10).await.unwrap(), ["g1"]);
    assert!(store.clocks.due(999, 10).await.unwrap().is_empty());
    // A taken id is refused, and changes nothing.
    assert!(store.games.create(&new_game("g1")).await.is_err());
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(CLOCK));
    assert_eq!(store.clocks.due(1_000, 10).await.unwrap(), ["g1"]);
    // A game made without clocks has none.
    store.games.create(&new_game("g2")).await.unwrap();
    assert_eq!(store.clocks.load("g2").await.unwrap(), None);
}

async fn clocks_are_saved_and_read_back(store: Store) {
    store.games.create(&new_game("g1")).await.unwrap();
    assert!(store.clocks.swap("g1", 0, r#"{"rev":1}"#, Some(500)).await.unwrap());
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(r#"{"rev":1}"#));
    assert_eq!(store.clocks.due(500, 10).await.unwrap(), ["g1"]);
    assert!(store.clocks.swap("g1", 1, r#"{"rev":2,"over":true}"#, None).await.unwrap());
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(r#"{"rev":2,"over":true}"#));
    assert!(store.clocks.due(i64::MAX, 10).await.unwrap().is_empty(), "untimed: never due");
    assert_eq!(store.clocks.load("nope").await.unwrap(), None);
    // Moves leave the clocks alone.
    assert!(store.clocks.swap("g1", 2, r#"{"rev":3}"#, Some(700)).await.unwrap());
    store.games.append_move("g1", 0, &a_move(), &progress(5)).await.unwrap();
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(r#"{"rev":3}"#));
    assert_eq!(store.clocks.due(700, 10).await.unwrap(), ["g1"]);
}

async fn a_swap_keeps_the_clocks_only_at_the_revision_expected(store: Store) {
    store.games.create(&new_game("g1")).await.unwrap();
    assert!(!store.clocks.swap("g1", 1, r#"{"rev":2}"#, Some(10)).await.unwrap(), "no clocks: revision 0");
    assert!(store.clocks.swap("g1", 0, r#"{"rev":1,"a":1}"#, Some(10)).await.unwrap());
    assert!(!store.clocks.swap("g1", 0, r#"{"rev":1,"a":2}"#, Some(20)).await.unwrap(), "1 is there");
    assert!(!store.clocks.swap("g1", 2, r#"{"rev":3,"a":2}"#, Some(20)).await.unwrap());
    assert_eq!(
        store.clocks.load("g1").await.unwrap().as_deref(),
        Some(r#"{"rev":1,"a":1}"#),
        "a refused swap changes nothing"
    );
    assert_eq!(store.clocks.due(10, 10).await.unwrap(), ["g1"]);
    assert!(store.clocks.swap("g1", 1, r#"{"rev":2,"a":3}"#, None).await.unwrap());
    assert!(store.clocks.due(i64::MAX, 10).await.unwrap().is_empty());
    assert!(!store.clocks.swap("nope", 0, "{}", None).await.unwrap(), "no such game");
    // Clocks kept before revisions were are at revision 0.
    store.games.create(&NewGame { clock: Some(CLOCK.into()), deadline: Some(5), ..new_game("g2") }).await.unwrap();
    assert!(!store.clocks.swap("g2", 1, r#"{"rev":2}"#, None).await.unwrap());
    assert!(store.clocks.swap("g2", 0, r#"{"rev":1}"#, None).await.unwrap());
}

async fn a_change_needs_the_moves_and_the_revision_expected(store: Store) {
    store.games.create(&NewGame { clock: Some(CLOCK.into()), deadline: Some(5), ..new_game("g1") }).await.unwrap();
    store.games.append_move("g1", 0, &a_move(), &progress(5)).await.unwrap();
    let over = finished(6, vec![4, 0]);
    assert!(!store.clocks.change("g1", 0, 0, r#"{"rev":1}"#, None, Some(&over)).await.unwrap(), "a move came");
    assert!(!store.clocks.change("g1", 1, 1, r#"{"rev":2}"#, None, Some(&over)).await.unwrap(), "not that revision");
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(CLOCK), "refused: nothing changed");
    assert_eq!(store.clocks.due(5, 10).await.unwrap(), ["g1"]);
    assert!(store.clocks.change("g1", 1, 0, r#"{"rev":1}"#, None, None).await.unwrap());
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(r#"{"rev":1}"#));
    assert!(store.clocks.due(i64::MAX, 10).await.unwrap().is_empty());
    assert!(store.clocks.change("g1", 1, 1, r#"{"rev":2}"#, None, Some(&over)).await.unwrap());
    let listed = store.games.list(10).await.unwrap().into_iter().find(|g| g.id == "g1").unwrap();
    assert_eq!(listed.progress, over, "the progress given is kept with the clocks");
}

async fn servers_swapping_at_once_act_on_an_expiry_once(stores: [Store; 2]) {
    let game = NewGame { clock: Some(CLOCK.into()), deadline: Some(1_000), ..new_game("g1") };
    stores[0].games.create(&game).await.unwrap();
    for round in 0..3u64 {
        let swapped = race(&stores, 8, |i, store| async move {
            let next = (round < 2).then_some(2_000 + 10 * round as i64 + i as i64);
            let json = format!("{{\"rev\":{},\"by\":{i}}}", round + 1);
            store.clocks.swap("g1", round, &json, next).await.unwrap()
        })
        .await;
        assert_eq!(wins(&swapped), 1, "round {round}: {swapped:?}");
        let by = swapped.iter().position(|s| *s).unwrap();
        assert_eq!(stores[1].clocks.load("g1").await.unwrap(), Some(format!("{{\"rev\":{},\"by\":{by}}}", round + 1)));
    }
}

async fn due_games_are_earliest_first_and_limited(store: Store) {
    for (id, deadline) in [("a", Some(30)), ("b", Some(10)), ("c", None), ("d", Some(20)), ("e", Some(40))] {
        store.games.create(&NewGame { clock: Some(CLOCK.into()), deadline, ..new_game(id) }).await.unwrap();
    }
    assert_eq!(store.clocks.due(30, 10).await.unwrap(), ["b", "d", "a"], "at 30 or earlier");
    assert_eq!(store.clocks.due(30, 2).await.unwrap(), ["b", "d"]);
    assert!(store.clocks.due(9, 10).await.unwrap().is_empty());
    assert!(store.clocks.due(30, 0).await.unwrap().is_empty());
    // A finished game's clocks are saved without a deadline: it is due no more.
    store.games.append_move("b", 0, &a_move(), &finished(11, vec![1, 0])).await.unwrap();
    assert!(store.clocks.swap("b", 0, CLOCK, None).await.unwrap());
    assert_eq!(store.clocks.due(i64::MAX, 10).await.unwrap(), ["d", "a", "e"]);
    // An expired game is due no more either.
    store.games.expire(i64::MAX).await.unwrap();
    assert!(store.clocks.due(i64::MAX, 10).await.unwrap().is_empty());
}

async fn the_turns_of_games_are_their_seats_progress_and_deadline(store: Store) {
    store.games.create(&NewGame { deadline: Some(50), ..new_game("a") }).await.unwrap();
    store.games.create(&new_game("b")).await.unwrap();
    store.games.create(&new_game("c")).await.unwrap();
    store.games.append_move("b", 0, &a_move(), &progress(7)).await.unwrap();
    let asked = ["b".to_string(), "a".to_string(), "nope".to_string()];
    let mut turns = store.clocks.turns_of(&asked).await.unwrap();
    turns.sort_by(|x, y| x.id.cmp(&y.id));
    let fresh = store.games.list(10).await.unwrap().into_iter().find(|g| g.id == "a").unwrap().progress;
    assert_eq!(
        turns,
        [
            TurnOf { id: "a".into(), seats: new_game("a").seats, progress: fresh, deadline: Some(50) },
            TurnOf { id: "b".into(), seats: new_game("b").seats, progress: progress(7), deadline: None },
        ]
    );
    assert!(store.clocks.turns_of(&[]).await.unwrap().is_empty());
    assert!(store.clocks.turns_of(&["nope".to_string()]).await.unwrap().is_empty());
}
