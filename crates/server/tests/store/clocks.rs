//! `ClockRepo`: each game's clocks, kept with it, and the deadline of the
//! move to make now.

use carcassonne_server::{NewGame, Store, TurnOf};

use crate::{a_move, finished, new_game, progress, race, wins};

conformance!(
    a_game_is_kept_with_its_clocks_in_one_write,
    clocks_are_saved_and_read_back,
    a_swap_keeps_the_clocks_only_at_the_deadline_expected,
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
    store.clocks.save("g1", CLOCK, Some(500)).await.unwrap();
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(CLOCK));
    assert_eq!(store.clocks.due(500, 10).await.unwrap(), ["g1"]);
    store.clocks.save("g1", "{\"over\":true}", None).await.unwrap();
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some("{\"over\":true}"));
    assert!(store.clocks.due(i64::MAX, 10).await.unwrap().is_empty(), "untimed: never due");
    assert_eq!(store.clocks.load("nope").await.unwrap(), None);
    // Moves leave the clocks alone.
    store.clocks.save("g1", CLOCK, Some(700)).await.unwrap();
    store.games.append_move("g1", 0, &a_move(), &progress(5)).await.unwrap();
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some(CLOCK));
    assert_eq!(store.clocks.due(700, 10).await.unwrap(), ["g1"]);
}

async fn a_swap_keeps_the_clocks_only_at_the_deadline_expected(store: Store) {
    store.games.create(&new_game("g1")).await.unwrap();
    assert!(!store.clocks.swap("g1", Some(5), "{\"a\":1}", Some(10)).await.unwrap(), "no deadline yet");
    assert!(store.clocks.swap("g1", None, "{\"a\":1}", Some(10)).await.unwrap(), "none expected, none there");
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some("{\"a\":1}"));
    assert!(!store.clocks.swap("g1", None, "{\"a\":2}", Some(20)).await.unwrap(), "10 is there");
    assert!(!store.clocks.swap("g1", Some(11), "{\"a\":2}", Some(20)).await.unwrap());
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some("{\"a\":1}"), "a refused swap changes nothing");
    assert_eq!(store.clocks.due(10, 10).await.unwrap(), ["g1"]);
    assert!(store.clocks.swap("g1", Some(10), "{\"a\":3}", None).await.unwrap());
    assert!(store.clocks.due(i64::MAX, 10).await.unwrap().is_empty());
    assert!(store.clocks.swap("g1", None, "{\"a\":4}", None).await.unwrap(), "none for none");
    assert_eq!(store.clocks.load("g1").await.unwrap().as_deref(), Some("{\"a\":4}"));
    assert!(!store.clocks.swap("nope", None, "{}", None).await.unwrap(), "no such game");
}

async fn servers_swapping_at_once_act_on_an_expiry_once(stores: [Store; 2]) {
    let game = NewGame { clock: Some(CLOCK.into()), deadline: Some(1_000), ..new_game("g1") };
    stores[0].games.create(&game).await.unwrap();
    let mut expected = Some(1_000);
    for round in 0..3i64 {
        let swapped = race(&stores, 8, |i, store| async move {
            let next = (round < 2).then_some(2_000 + 10 * round + i as i64);
            store.clocks.swap("g1", expected, &format!("{{\"by\":{i}}}"), next).await.unwrap()
        })
        .await;
        assert_eq!(wins(&swapped), 1, "round {round}: {swapped:?}");
        let by = swapped.iter().position(|s| *s).unwrap() as i64;
        assert_eq!(stores[1].clocks.load("g1").await.unwrap(), Some(format!("{{\"by\":{by}}}")));
        expected = (round < 2).then_some(2_000 + 10 * round + by);
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
    store.clocks.save("b", CLOCK, None).await.unwrap();
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
