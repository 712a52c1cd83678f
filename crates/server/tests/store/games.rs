//! `GameRepo`: a game's record (setup and seats written once, then one row
//! per move), the games lists, expiry.

use carcassonne::record::RecordMove;
use carcassonne_server::{hash_token, GameSummary, NewGame, Progress, Room, Store, StoreError};
use serde_json::json;

use crate::{a_move, finished, ids, new_game, progress, race};

conformance!(
    a_game_round_trips_with_its_moves_in_order,
    tokens_are_kept_hashed_and_still_seat_their_holder,
    a_duplicate_id_is_refused,
    a_move_out_of_sequence_is_refused,
    a_second_writer_of_a_move_is_a_conflict,
    of_many_writers_racing_for_one_move_exactly_one_wins,
    the_list_is_newest_first_and_limited,
    the_games_list_holds_the_named_games_and_the_public_ones,
    in_play_lists_only_unfinished_games,
    the_games_to_watch_are_the_public_ones_in_play_however_many_finished_lie_between,
    only_unfinished_games_without_a_recent_move_expire,
    an_owner_at_the_cap_loses_its_oldest_unfinished_casual_game_first,
);

fn summaries(list: &[GameSummary]) -> Vec<String> {
    ids(list, |g| &g.id)
}

async fn a_game_round_trips_with_its_moves_in_order(store: Store) {
    store.games.create(&new_game("g1")).await.unwrap();
    let g = store.games.load("g1").await.unwrap().unwrap();
    assert!(g.record.moves.is_empty());
    assert_eq!((g.created_at, g.updated_at), (1, 1), "not moved yet: updated when created");
    let (m0, m1) = (a_move(), RecordMove { rot: 0, meeple: None, at: [1, 0], ..a_move() });
    store.games.append_move("g1", 0, &m0, &progress(5)).await.unwrap();
    store.games.append_move("g1", 1, &m1, &progress(7)).await.unwrap();
    let g = store.games.load("g1").await.unwrap().unwrap();
    let made = new_game("g1");
    assert_eq!(g.id, "g1");
    assert_eq!(g.record.deck.as_deref(), Some(&["E".to_string(), "V".to_string()][..]));
    let mut record = made.record.clone();
    record.moves = vec![m0, m1];
    assert_eq!(g.record, record, "the record as made, and its moves");
    assert_eq!(g.seats, made.seats);
    assert_eq!((g.created_at, g.updated_at), (1, 7), "updated at the last move's time");
    assert_eq!(g.live_seed, Some(u64::MAX - 5), "a seed keeps all 64 bits");
    let list = store.games.list(10).await.unwrap();
    assert_eq!(list.len(), 1);
    let summary = &list[0];
    assert_eq!((summary.id.as_str(), summary.moves, summary.created_at, summary.public), ("g1", 2, 1, false));
    assert_eq!(summary.progress, progress(7), "the progress after the last move");
    assert_eq!(summary.seats, made.seats);
    assert_eq!(summary.rules.get("preset"), Some(&json!("standard")));
    // A game without a live seed, listed for everyone.
    store.games.create(&NewGame { live_seed: None, public: true, ..new_game("g2") }).await.unwrap();
    let g2 = store.games.load("g2").await.unwrap().unwrap();
    assert_eq!(g2.live_seed, None);
    let g2 = store.games.list(10).await.unwrap().into_iter().find(|g| g.id == "g2").unwrap();
    assert!(g2.public);
    assert_eq!((g2.moves, g2.progress.to_move, g2.progress.bot_turn), (0, Some(0), false), "Ada is to move first");
    assert!(store.games.load("nope").await.unwrap().is_none());
}

async fn tokens_are_kept_hashed_and_still_seat_their_holder(store: Store) {
    store.games.create(&new_game("g1")).await.unwrap();
    let seats = store.games.load("g1").await.unwrap().unwrap().seats;
    assert!(seats[0].held_by("t0"));
    assert!(!seats[0].held_by("t1"));
    assert!(!seats[1].held_by("t0"), "a bot's seat is held by no token");
    let text = serde_json::to_string(&seats).unwrap();
    assert!(!text.contains("\"t0\""), "{text}");
    assert_eq!(hash_token("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

async fn a_duplicate_id_is_refused(store: Store) {
    store.games.create(&new_game("g1")).await.unwrap();
    store.games.append_move("g1", 0, &a_move(), &progress(5)).await.unwrap();
    let other = NewGame { public: true, created_at: 9, ..crate::with_seats("g1", vec![crate::human("Eve", "e")]) };
    let Err(e) = store.games.create(&other).await else { panic!("a second game g1 was stored") };
    assert!(matches!(e, StoreError::Failed(_)), "{e}");
    assert!(e.to_string().contains("g1 is taken"), "{e}");
    // The first is as it was.
    let g = store.games.load("g1").await.unwrap().unwrap();
    assert_eq!((g.seats, g.record.moves.len(), g.created_at), (new_game("g1").seats, 1, 1));
    let list = store.games.list(10).await.unwrap();
    assert_eq!((list.len(), list[0].public), (1, false));
}

async fn a_move_out_of_sequence_is_refused(store: Store) {
    store.games.create(&new_game("g1")).await.unwrap();
    let m = a_move();
    let ahead = store.games.append_move("g1", 1, &m, &progress(2)).await;
    assert!(matches!(ahead, Err(StoreError::Conflict(_))), "a move past the next: {ahead:?}");
    store.games.append_move("g1", 0, &m, &progress(2)).await.unwrap();
    store.games.append_move("g1", 1, &m, &progress(3)).await.unwrap();
    let behind = store.games.append_move("g1", 0, &m, &progress(4)).await;
    assert!(matches!(behind, Err(StoreError::Conflict(_))), "a move before the last: {behind:?}");
    let none = store.games.append_move("nope", 0, &m, &progress(4)).await;
    assert!(matches!(none, Err(StoreError::Failed(_))), "no such game: {none:?}");
    // Nothing of the refused moves was stored.
    let g = store.games.load("g1").await.unwrap().unwrap();
    assert_eq!((g.record.moves.len(), g.updated_at), (2, 3));
    let list = store.games.list(10).await.unwrap();
    assert_eq!((list[0].moves, list[0].progress.at), (2, 3));
    assert!(store.games.load("nope").await.unwrap().is_none(), "a move made no game");
}

async fn a_second_writer_of_a_move_is_a_conflict(store: Store) {
    store.games.create(&new_game("g1")).await.unwrap();
    let first = a_move();
    store.games.append_move("g1", 0, &first, &progress(2)).await.unwrap();
    let second = RecordMove { rot: 1, ..a_move() };
    let Err(StoreError::Conflict(why)) = store.games.append_move("g1", 0, &second, &progress(3)).await else {
        panic!("a second writer of move 0 was not a conflict")
    };
    assert!(why.contains("1 moves stored"), "{why}");
    let g = store.games.load("g1").await.unwrap().unwrap();
    assert_eq!(g.record.moves, vec![first], "the first writer's move is the one kept");
    assert_eq!(g.updated_at, 2);
}

async fn of_many_writers_racing_for_one_move_exactly_one_wins(stores: [Store; 2]) {
    stores[0].games.create(&new_game("g1")).await.unwrap();
    for ply in 0..3usize {
        let results = race(&stores, 6, |w, store| async move {
            let m = RecordMove { rot: w as u8 % 4, at: [w as i32, ply as i32], ..a_move() };
            store.games.append_move("g1", ply, &m, &progress(10 + ply as i64)).await.map(|()| m)
        })
        .await;
        let won: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!(won.len(), 1, "ply {ply}: {results:?}");
        for r in &results {
            if let Err(e) = r {
                assert!(matches!(e, StoreError::Conflict(_)), "ply {ply}: a loser must see a conflict: {e}");
            }
        }
        let stored = stores[1].games.load("g1").await.unwrap().unwrap();
        assert_eq!(stored.record.moves.len(), ply + 1);
        assert_eq!(&stored.record.moves[ply], won[0], "the winner's move is the one stored");
    }
    // Moves of many games at once: each game's own, in order.
    for g in 0..4 {
        stores[0].games.create(&new_game(&format!("m{g}"))).await.unwrap();
    }
    let stored = race(&stores, 8, |w, store| async move {
        let mut stored = 0;
        for ply in 0..5 {
            let m = RecordMove { at: [w as i32, ply as i32], ..a_move() };
            match store.games.append_move(&format!("m{}", w % 4), ply, &m, &progress(ply as i64)).await {
                Ok(()) => stored += 1,
                Err(StoreError::Conflict(_)) => {}
                Err(e) => panic!("writer {w}, move {ply}: {e}"),
            }
        }
        stored
    })
    .await;
    for g in 0..4 {
        assert_eq!(stored[g] + stored[g + 4], 5, "m{g}: each move stored once, by one of its two writers");
    }
    for g in 0..4 {
        let stored = stores[1].games.load(&format!("m{g}")).await.unwrap().unwrap();
        assert_eq!(stored.record.moves.len(), 5, "m{g}");
        let x = stored.record.moves[0].at[0];
        assert!(x % 4 == g, "m{g}'s moves are its writers': {:?}", stored.record.moves);
    }
}

async fn the_list_is_newest_first_and_limited(store: Store) {
    for (i, id) in ["a", "b", "c", "d"].iter().enumerate() {
        store.games.create(&NewGame { created_at: i as i64 + 1, ..new_game(id) }).await.unwrap();
    }
    store.games.append_move("a", 0, &a_move(), &progress(100)).await.unwrap();
    // b and d last changed at 2 and 4; c moved at 4: d and c tie, by id.
    store.games.append_move("c", 0, &a_move(), &progress(4)).await.unwrap();
    assert_eq!(summaries(&store.games.list(10).await.unwrap()), ["a", "c", "d", "b"]);
    assert_eq!(summaries(&store.games.list(2).await.unwrap()), ["a", "c"]);
    assert!(store.games.list(0).await.unwrap().is_empty());
}

async fn the_games_list_holds_the_named_games_and_the_public_ones(store: Store) {
    store.games.create(&NewGame { created_at: 1, ..new_game("mine") }).await.unwrap();
    store.games.create(&NewGame { created_at: 2, ..new_game("theirs") }).await.unwrap();
    store.games.create(&NewGame { created_at: 3, public: true, ..new_game("open") }).await.unwrap();
    store.games.create(&NewGame { created_at: 4, public: true, ..new_game("open2") }).await.unwrap();
    let listed = store.games.listed(&[], 10).await.unwrap();
    assert_eq!(summaries(&listed), ["open2", "open"], "the public games, newest first");
    assert!(listed.iter().all(|g| g.public));
    let named = ["mine".to_string(), "nope".to_string(), "open".to_string()];
    assert_eq!(summaries(&store.games.listed(&named, 10).await.unwrap()), ["open2", "open", "mine"]);
    assert_eq!(summaries(&store.games.listed(&named, 2).await.unwrap()), ["open2", "open"]);
    store.games.append_move("mine", 0, &a_move(), &progress(50)).await.unwrap();
    assert_eq!(summaries(&store.games.listed(&named, 2).await.unwrap()), ["mine", "open2"]);
}

async fn in_play_lists_only_unfinished_games(store: Store) {
    for id in ["g1", "g2", "g3"] {
        store.games.create(&new_game(id)).await.unwrap();
    }
    store.games.append_move("g2", 0, &a_move(), &finished(9, vec![1, 0])).await.unwrap();
    store.games.append_move("g3", 0, &a_move(), &progress(9)).await.unwrap();
    let mut in_play = summaries(&store.games.in_play().await.unwrap());
    in_play.sort();
    assert_eq!(in_play, ["g1", "g3"]);
}

async fn the_games_to_watch_are_the_public_ones_in_play_however_many_finished_lie_between(store: Store) {
    for (i, id) in ["old", "private", "done", "aborted", "recent"].into_iter().enumerate() {
        let public = id != "private";
        store.games.create(&NewGame { created_at: 1 + i as i64, public, ..new_game(id) }).await.unwrap();
    }
    store.games.append_move("old", 0, &a_move(), &progress(5)).await.unwrap();
    store.games.append_move("recent", 0, &a_move(), &progress(90)).await.unwrap();
    store.games.append_move("done", 0, &a_move(), &finished(95, vec![1, 0])).await.unwrap();
    store.games.append_move("aborted", 0, &a_move(), &Progress { aborted: true, ..progress(96) }).await.unwrap();
    // Many finished public games played since: the live ones are still found.
    for i in 0..30 {
        let id = format!("f{i}");
        store.games.create(&NewGame { created_at: 10, public: true, ..new_game(&id) }).await.unwrap();
        store.games.append_move(&id, 0, &a_move(), &finished(100 + i, vec![0, 1])).await.unwrap();
    }
    assert_eq!(
        summaries(&store.games.watchable(10).await.unwrap()),
        ["recent", "old"],
        "public, in play, the latest first"
    );
    assert_eq!(summaries(&store.games.watchable(1).await.unwrap()), ["recent"]);
}

async fn only_unfinished_games_without_a_recent_move_expire(store: Store) {
    for id in ["old", "done", "recent", "edge", "new"] {
        store.games.create(&NewGame { created_at: if id == "new" { 60 } else { 1 }, ..new_game(id) }).await.unwrap();
    }
    store.games.append_move("old", 0, &a_move(), &progress(10)).await.unwrap();
    store.games.append_move("done", 0, &a_move(), &finished(10, vec![1, 0])).await.unwrap();
    store.games.append_move("recent", 0, &a_move(), &progress(100)).await.unwrap();
    store.games.append_move("edge", 0, &a_move(), &progress(50)).await.unwrap();
    assert!(store.games.expire(1).await.unwrap().is_empty(), "nothing older than 1");
    assert_eq!(store.games.expire(50).await.unwrap(), ["old"], "older than 50: not 50 itself, nor a game made at 60");
    assert!(store.games.load("old").await.unwrap().is_none());
    assert_eq!(store.games.load("done").await.unwrap().unwrap().record.moves.len(), 1, "a finished game stays");
    for kept in ["recent", "edge", "new"] {
        assert!(store.games.load(kept).await.unwrap().is_some(), "{kept}");
    }
    assert!(store.games.expire(50).await.unwrap().is_empty());
    // The expired game's moves went with it: a new game of its id has none.
    store.games.create(&new_game("old")).await.unwrap();
    assert!(store.games.load("old").await.unwrap().unwrap().record.moves.is_empty());
    store.games.append_move("old", 0, &a_move(), &progress(70)).await.unwrap();
    // A game not moved since it was made expires by its creation.
    let mut gone = store.games.expire(65).await.unwrap();
    gone.sort();
    assert_eq!(gone, ["edge", "new"]);
}

/// Issue 45, 10: what one address keeps is bounded; at the bound its
/// oldest unfinished casual game goes first, then its oldest finished one
/// that no account played; rated games and accounts' history stay.
async fn an_owner_at_the_cap_loses_its_oldest_unfinished_casual_game_first(store: Store) {
    let mine = |id: &str, at: i64| NewGame { created_at: at, owner: Some("crowd".into()), ..new_game(id) };
    assert_eq!(store.games.make_room("crowd", 3).await.unwrap(), Room::Free);
    store.games.create(&mine("done", 1)).await.unwrap();
    store.games.append_move("done", 0, &a_move(), &finished(2, vec![4, 0])).await.unwrap();
    store.games.create(&mine("rated", 2)).await.unwrap();
    store.ratings.mark_rated("rated", "duel").await.unwrap();
    store.games.create(&mine("old", 3)).await.unwrap();
    store.games.create(&NewGame { owner: Some("other".into()), ..new_game("theirs") }).await.unwrap();
    assert_eq!(store.games.make_room("crowd", 4).await.unwrap(), Room::Free, "three of four");
    assert_eq!(store.games.make_room("crowd", 3).await.unwrap(), Room::Dropped("old".into()));
    assert!(store.games.load("old").await.unwrap().is_none(), "dropped with its moves");
    store.games.create(&mine("new", 4)).await.unwrap();
    store.games.append_move("new", 0, &a_move(), &progress(5)).await.unwrap();
    assert_eq!(store.games.make_room("crowd", 3).await.unwrap(), Room::Dropped("new".into()), "unfinished first");
    assert_eq!(store.games.make_room("crowd", 2).await.unwrap(), Room::Dropped("done".into()), "then finished");
    assert_eq!(store.games.make_room("crowd", 1).await.unwrap(), Room::Full, "a rated game stays");
    // A finished game with an account's seat is someone's history: it stays.
    let played = NewGame {
        created_at: 9,
        owner: Some("third".into()),
        seats: vec![
            carcassonne_server::Seat::Human {
                name: "Ada".into(),
                token_hash: hash_token("t"),
                remote: false,
                account: Some("acc".into()),
            },
            crate::human("Bob", "b"),
        ],
        ..new_game("played")
    };
    store.games.create(&played).await.unwrap();
    store.games.append_move("played", 0, &a_move(), &finished(10, vec![4, 0])).await.unwrap();
    assert_eq!(store.games.make_room("third", 1).await.unwrap(), Room::Full);
    assert!(store.games.load("theirs").await.unwrap().is_some(), "another owner's games are theirs");
    assert_eq!(store.games.load("rated").await.unwrap().unwrap().owner.as_deref(), Some("crowd"));
}
