//! `RatingRepo`: seats linked to accounts, rated games (a result applied
//! once), ratings per pool, their history, the leaderboard.

use carcassonne_server::{
    hash_token, update_ratings, HistoryRow, Pool, RatedResult, RatedSeat, Rating, RatingRow, Store, DELETED_ACCOUNT,
};

use crate::{a_move, account, finished, human, progress, race, with_seats};

conformance!(
    a_game_is_rated_once_marked_and_applied_once,
    a_seat_is_linked_to_one_account,
    a_result_is_applied_once_whichever_server_tries,
    results_applied_at_once_lose_no_update,
    a_voided_game_is_never_applied,
    ratings_and_their_history_follow_each_game,
    the_leaderboard_is_best_first_among_those_with_enough_games,
    an_account_s_games_are_those_of_its_seats_most_recently_played_first,
    account_names_are_those_of_the_accounts_that_exist,
    a_deleted_account_s_seats_are_unlinked_and_its_ratings_go,
    unsettled_games_are_the_finished_rated_ones_not_applied,
    linked_seats_keep_the_address_they_were_taken_from,
    two_accounts_rated_games_together_are_counted_since_a_time,
    the_big_box_pools_keep_ratings_of_their_own,
);

/// Accounts a1 (Ada), b1 (Bob), c1 (Cy), d1 (Dee).
async fn accounts(store: &Store) {
    for (id, name) in [("a1", "Ada"), ("b1", "Bob"), ("c1", "Cy"), ("d1", "Dee")] {
        assert!(store.accounts.create(&account(id, name)).await.unwrap());
    }
}

/// A rated duel of `a` (seat 0, token `<id>-0`) and `b` (seat 1,
/// `<id>-1`), both seats linked.
async fn rated_duel(store: &Store, id: &str, a: &str, b: &str) {
    let seats = vec![human(a, &format!("{id}-0")), human(b, &format!("{id}-1"))];
    store.games.create(&with_seats(id, seats)).await.unwrap();
    store.ratings.mark_rated(id, "duel").await.unwrap();
    assert_eq!(store.ratings.link_seat(id, &hash_token(&format!("{id}-0")), a, None).await.unwrap(), Some(0));
    assert_eq!(store.ratings.link_seat(id, &hash_token(&format!("{id}-1")), b, None).await.unwrap(), Some(1));
}

/// A duel's result: `(account, place)` by seat.
fn duel(game: &str, seats: [(&str, usize); 2], at: i64) -> RatedResult {
    RatedResult {
        game: game.into(),
        pool: Pool::Duel,
        seats: seats
            .iter()
            .enumerate()
            .map(|(i, (a, place))| RatedSeat {
                seat: i as u8,
                account: Some(a.to_string()),
                fixed: None,
                place: *place,
            })
            .collect(),
        at,
    }
}

/// Ratings as history keeps them (no volatility).
fn shown(r: Rating) -> Rating {
    Rating { volatility: 0.0, ..r }
}

async fn a_game_is_rated_once_marked_and_applied_once(store: Store) {
    accounts(&store).await;
    store.games.create(&with_seats("g", vec![human("a1", "g-0"), human("b1", "g-1")])).await.unwrap();
    assert_eq!(store.ratings.rated("g").await.unwrap(), None, "not rated");
    assert_eq!(store.ratings.apply(&duel("g", [("a1", 1), ("b1", 2)], 10)).await.unwrap(), None, "nor applied");
    assert!(store.ratings.of("a1").await.unwrap().is_empty(), "a game not rated changes nothing");
    store.ratings.mark_rated("g", "duel").await.unwrap();
    assert_eq!(store.ratings.rated("g").await.unwrap(), Some(false), "rated, to apply");
    assert!(store.ratings.mark_rated("g", "duel").await.is_err(), "marked once");
    assert!(store.ratings.mark_rated("gone", "duel").await.is_err(), "only a stored game");
    assert_eq!(store.ratings.rated("gone").await.unwrap(), None);
    let changes = store.ratings.apply(&duel("g", [("a1", 1), ("b1", 2)], 10)).await.unwrap().unwrap();
    let start = Pool::Duel.start();
    let after = update_ratings(Pool::Duel, &[(start, 1), (start, 2)]);
    let pairs: Vec<_> = changes.iter().map(|c| (c.account.as_str(), c.seat, c.before, c.after)).collect();
    assert_eq!(pairs, [("a1", 0, start, after[0]), ("b1", 1, start, after[1])], "from the start, as the maths says");
    assert_eq!(store.ratings.rated("g").await.unwrap(), Some(true), "applied");
    assert_eq!(store.ratings.apply(&duel("g", [("a1", 2), ("b1", 1)], 11)).await.unwrap(), None, "applied once");
    let a = store.ratings.of("a1").await.unwrap();
    assert_eq!(a, [RatingRow { account: "a1".into(), pool: Pool::Duel, rating: after[0], games: 1, updated_at: 10 }]);
}

async fn a_seat_is_linked_to_one_account(store: Store) {
    accounts(&store).await;
    let seats = vec![human("Ada", "ta"), human("Bob", "tb"), crate::new_game("x").seats[1].clone()];
    store.games.create(&with_seats("g", seats.clone())).await.unwrap();
    assert_eq!(store.ratings.link_seat("g", &hash_token("ta"), "a1", None).await.unwrap(), Some(0));
    assert_eq!(store.ratings.link_seat("g", &hash_token("ta"), "a1", None).await.unwrap(), Some(0), "linked already");
    assert_eq!(store.ratings.link_seat("g", &hash_token("ta"), "b1", None).await.unwrap(), None, "another's");
    assert_eq!(
        store.ratings.link_seat("g", &hash_token("zz"), "b1", None).await.unwrap(),
        None,
        "no seat of that token"
    );
    assert_eq!(store.ratings.link_seat("gone", &hash_token("ta"), "b1", None).await.unwrap(), None, "no such game");
    assert!(store.ratings.link_seat("g", &hash_token("tb"), "nobody", None).await.is_err(), "no such account");
    let stored = store.games.load("g").await.unwrap().unwrap().seats;
    let accounts: Vec<Option<&str>> = stored.iter().map(|s| s.account()).collect();
    assert_eq!(accounts, [Some("a1"), None, None], "the refused link changed nothing");
    // One account may hold two seats (a game at one screen).
    assert_eq!(store.ratings.link_seat("g", &hash_token("tb"), "a1", None).await.unwrap(), Some(1));
    let games = store.ratings.account_games("a1", 10).await.unwrap();
    let held: Vec<(&str, u8, bool)> = games.iter().map(|g| (g.game.id.as_str(), g.seat, g.rated)).collect();
    assert_eq!(held, [("g", 0, false), ("g", 1, false)]);
    assert_eq!(games[0].game.seats[1].account(), Some("a1"), "the listed seats say whose they are");
    assert!(store.ratings.account_games("b1", 10).await.unwrap().is_empty());
}

async fn a_result_is_applied_once_whichever_server_tries(stores: [Store; 2]) {
    let store = &stores[0];
    accounts(store).await;
    let (mut ada, mut bob) = (Pool::Duel.start(), Pool::Duel.start());
    for g in 0..4 {
        let id = format!("g{g}");
        rated_duel(store, &id, "a1", "b1").await;
        let places = if g == 2 { [2, 1] } else { [1, 2] };
        // Both servers, twice each, at once: one applies it.
        let tries = race(&stores, 4, |_, s| {
            let r = duel(&id, [("a1", places[0]), ("b1", places[1])], 10 + g);
            async move { s.ratings.apply(&r).await.unwrap() }
        })
        .await;
        let applied: Vec<_> = tries.into_iter().flatten().collect();
        assert_eq!(applied.len(), 1, "game {g}: applied once");
        let after = update_ratings(Pool::Duel, &[(ada, places[0]), (bob, places[1])]);
        let pairs: Vec<_> = applied[0].iter().map(|c| (c.before, c.after)).collect();
        assert_eq!(pairs, [(ada, after[0]), (bob, after[1])], "game {g}: from the last ratings");
        (ada, bob) = (after[0], after[1]);
        assert_eq!(stores[1].ratings.rated(&id).await.unwrap(), Some(true));
    }
    let a = stores[1].ratings.of("a1").await.unwrap();
    assert_eq!(a, [RatingRow { account: "a1".into(), pool: Pool::Duel, rating: ada, games: 4, updated_at: 13 }]);
    assert_eq!(stores[1].ratings.history("b1", 100).await.unwrap().len(), 4, "one row a game");
}

async fn results_applied_at_once_lose_no_update(stores: [Store; 2]) {
    accounts(&stores[0]).await;
    for g in 0..6 {
        rated_duel(&stores[0], &format!("g{g}"), "a1", "b1").await;
    }
    // Six games finishing at once on two servers, the same two players in each.
    let applied = race(&stores, 6, |g, s| async move {
        s.ratings.apply(&duel(&format!("g{g}"), [("a1", 1), ("b1", 2)], 10)).await.unwrap().is_some()
    })
    .await;
    assert_eq!(applied, [true; 6]);
    for account in ["a1", "b1"] {
        let now = stores[1].ratings.of(account).await.unwrap().remove(0);
        assert_eq!(now.games, 6, "{account}");
        // The history is one chain from the start to the rating now: each
        // game started from the one before (none from a rating overwritten).
        let mut history = stores[1].ratings.history(account, 100).await.unwrap();
        let mut at = shown(Pool::Duel.start());
        while let Some(i) = history.iter().position(|h| h.before == at) {
            at = history.remove(i).after;
        }
        assert!(history.is_empty(), "{account}: games off the chain: {history:?}");
        assert_eq!(at, shown(now.rating), "{account}");
    }
}

async fn a_voided_game_is_never_applied(store: Store) {
    accounts(&store).await;
    rated_duel(&store, "v", "a1", "b1").await;
    let void = RatedResult { seats: vec![], ..duel("v", [("a1", 1), ("b1", 2)], 10) };
    assert_eq!(store.ratings.apply(&void).await.unwrap(), Some(vec![]), "voided");
    assert_eq!(store.ratings.rated("v").await.unwrap(), Some(true), "settled");
    assert_eq!(store.ratings.apply(&duel("v", [("a1", 1), ("b1", 2)], 11)).await.unwrap(), None, "never applied");
    assert_eq!(store.ratings.apply(&void).await.unwrap(), None, "nor voided twice");
    assert!(store.ratings.of("a1").await.unwrap().is_empty());
    assert!(store.ratings.history("a1", 10).await.unwrap().is_empty());
}

async fn ratings_and_their_history_follow_each_game(store: Store) {
    accounts(&store).await;
    let mut expected = Vec::new();
    let (mut ada, mut bob) = (Pool::Duel.start(), Pool::Duel.start());
    for (g, places, at) in [("g0", [1, 2], 30), ("g1", [2, 1], 10), ("g2", [1, 1], 20)] {
        rated_duel(&store, g, "b1", "a1").await;
        store.ratings.apply(&duel(g, [("b1", places[0]), ("a1", places[1])], at)).await.unwrap().unwrap();
        let after = update_ratings(Pool::Duel, &[(bob, places[0]), (ada, places[1])]);
        expected.push(HistoryRow {
            game: g.into(),
            pool: Pool::Duel,
            seat: 1,
            place: places[1],
            before: shown(ada),
            after: shown(after[1]),
            at,
        });
        (bob, ada) = (after[0], after[1]);
    }
    // A game of three in the other pool.
    let seats = vec![human("a1", "m-0"), human("b1", "m-1"), human("c1", "m-2")];
    store.games.create(&with_seats("m", seats)).await.unwrap();
    store.ratings.mark_rated("m", "multi").await.unwrap();
    for (seat, a) in ["a1", "b1", "c1"].into_iter().enumerate() {
        store.ratings.link_seat("m", &hash_token(&format!("m-{seat}")), a, None).await.unwrap();
    }
    let three = RatedResult {
        game: "m".into(),
        pool: Pool::Multi,
        seats: (0..3)
            .map(|i| RatedSeat {
                seat: i,
                account: Some(["a1", "b1", "c1"][i as usize].into()),
                fixed: None,
                place: 3 - i as usize,
            })
            .collect(),
        at: 40,
    };
    store.ratings.apply(&three).await.unwrap().unwrap();
    let multi = Pool::Multi.start();
    let after = update_ratings(Pool::Multi, &[(multi, 3), (multi, 2), (multi, 1)]);
    let mut rows = store.ratings.of("a1").await.unwrap();
    rows.sort_by_key(|r| r.pool.word());
    assert_eq!(
        rows,
        [
            RatingRow { account: "a1".into(), pool: Pool::Duel, rating: ada, games: 3, updated_at: 20 },
            RatingRow { account: "a1".into(), pool: Pool::Multi, rating: after[0], games: 1, updated_at: 40 },
        ],
        "one rating per pool, each as its games made it"
    );
    expected.sort_by_key(|h| h.at);
    expected.push(HistoryRow {
        game: "m".into(),
        pool: Pool::Multi,
        seat: 0,
        place: 3,
        before: shown(multi),
        after: shown(after[0]),
        at: 40,
    });
    assert_eq!(store.ratings.history("a1", 100).await.unwrap(), expected, "oldest first");
    assert_eq!(store.ratings.history("a1", 2).await.unwrap(), expected[2..], "the last two");
    assert!(store.ratings.history("a1", 0).await.unwrap().is_empty());
    assert!(store.ratings.history("d1", 10).await.unwrap().is_empty());
    assert!(store.ratings.of("d1").await.unwrap().is_empty());
}

async fn the_leaderboard_is_best_first_among_those_with_enough_games(store: Store) {
    accounts(&store).await;
    // Bob and Ada draw (the same rating); Cy beats Dee.
    rated_duel(&store, "g1", "b1", "a1").await;
    store.ratings.apply(&duel("g1", [("b1", 1), ("a1", 1)], 10)).await.unwrap();
    rated_duel(&store, "g2", "d1", "c1").await;
    store.ratings.apply(&duel("g2", [("d1", 2), ("c1", 1)], 20)).await.unwrap();
    let board = store.ratings.leaderboard("duel", 1, 10).await.unwrap();
    let names: Vec<&str> = board.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Cy", "Ada", "Bob", "Dee"], "best first; a tie by name");
    for (name, row) in &board {
        let account = format!("{}1", name[..1].to_lowercase());
        assert_eq!(*row, store.ratings.of(&account).await.unwrap().remove(0), "{name}");
    }
    let top: Vec<String> = store.ratings.leaderboard("duel", 1, 2).await.unwrap().into_iter().map(|(n, _)| n).collect();
    assert_eq!(top, ["Cy", "Ada"]);
    // Cy plays again: two games.
    rated_duel(&store, "g3", "c1", "a1").await;
    store.ratings.apply(&duel("g3", [("c1", 1), ("a1", 2)], 30)).await.unwrap();
    let two: Vec<String> =
        store.ratings.leaderboard("duel", 2, 10).await.unwrap().into_iter().map(|(n, _)| n).collect();
    assert_eq!(two, ["Cy", "Ada"], "at least two games");
    assert!(store.ratings.leaderboard("duel", 3, 10).await.unwrap().is_empty());
    assert!(store.ratings.leaderboard("multi", 0, 10).await.unwrap().is_empty(), "another pool");
}

async fn an_account_s_games_are_those_of_its_seats_most_recently_played_first(store: Store) {
    accounts(&store).await;
    for g in ["g1", "g2", "g3"] {
        let seats = vec![human("a1", &format!("{g}-0")), human("b1", &format!("{g}-1"))];
        store.games.create(&with_seats(g, seats)).await.unwrap();
        store.ratings.link_seat(g, &hash_token(&format!("{g}-0")), "a1", None).await.unwrap();
    }
    // g1 on a clock: its kind is read with it.
    let clock = r#"{"rev":1,"control":{"kind":"realtime","minutes":5,"increment":3}}"#;
    assert!(store.clocks.swap("g1", 0, clock, Some(9)).await.unwrap());
    store.ratings.link_seat("g2", &hash_token("g2-1"), "b1", None).await.unwrap();
    store.ratings.mark_rated("g3", "duel").await.unwrap();
    store.games.append_move("g1", 0, &a_move(), &progress(50)).await.unwrap();
    store.games.append_move("g3", 0, &a_move(), &progress(40)).await.unwrap();
    let games = store.ratings.account_games("a1", 10).await.unwrap();
    let held: Vec<(&str, u8, bool)> = games.iter().map(|g| (g.game.id.as_str(), g.seat, g.rated)).collect();
    assert_eq!(held, [("g1", 0, false), ("g3", 0, true), ("g2", 0, false)]);
    let clocks: Vec<Option<&str>> = games.iter().map(|g| g.clock.as_deref()).collect();
    assert_eq!(clocks, [Some("realtime"), None, None], "made without clocks: none");
    let listed = store.games.list(10).await.unwrap();
    for g in &games {
        assert_eq!(Some(&g.game), listed.iter().find(|l| l.id == g.game.id), "{}: as the games list has it", g.game.id);
    }
    assert_eq!(store.ratings.account_games("a1", 1).await.unwrap().len(), 1);
    let bob: Vec<(String, u8)> =
        store.ratings.account_games("b1", 10).await.unwrap().into_iter().map(|g| (g.game.id, g.seat)).collect();
    assert_eq!(bob, [("g2".to_string(), 1)]);
    assert!(store.ratings.account_games("c1", 10).await.unwrap().is_empty());
}

async fn account_names_are_those_of_the_accounts_that_exist(store: Store) {
    accounts(&store).await;
    let asked = ["c1".to_string(), "zz".to_string(), "a1".to_string()];
    let mut names = store.ratings.account_names(&asked).await.unwrap();
    names.sort();
    assert_eq!(names, [("a1".to_string(), "Ada".to_string()), ("c1".to_string(), "Cy".to_string())]);
    assert!(store.ratings.account_names(&[]).await.unwrap().is_empty());
}

async fn a_deleted_account_s_seats_are_unlinked_and_its_ratings_go(store: Store) {
    accounts(&store).await;
    rated_duel(&store, "g0", "a1", "b1").await;
    rated_duel(&store, "g1", "b1", "c1").await;
    store.ratings.apply(&duel("g0", [("a1", 1), ("b1", 2)], 10)).await.unwrap().unwrap();
    store.ratings.forget_account_seats("b1").await.unwrap();
    assert!(store.accounts.delete("b1").await.unwrap());
    let g0 = store.games.load("g0").await.unwrap().unwrap().seats;
    assert_eq!((g0[0].account(), g0[1].account()), (Some("a1"), Some(DELETED_ACCOUNT)));
    assert_eq!(g0[1].name(), "b1", "the seat keeps the name it was played under");
    let g1 = store.games.load("g1").await.unwrap().unwrap().seats;
    assert_eq!((g1[0].account(), g1[1].account()), (Some(DELETED_ACCOUNT), Some("c1")));
    assert!(store.ratings.of("b1").await.unwrap().is_empty());
    assert!(store.ratings.history("b1", 10).await.unwrap().is_empty());
    assert!(store.ratings.account_games("b1", 10).await.unwrap().is_empty());
    assert_eq!(store.ratings.account_games("a1", 10).await.unwrap().len(), 1, "the others' links stay");
    assert_eq!(store.ratings.of("a1").await.unwrap()[0].games, 1, "and their ratings");
    assert_eq!(store.ratings.history("a1", 10).await.unwrap().len(), 1);
    store.ratings.forget_account_seats("nobody").await.unwrap();
}

async fn unsettled_games_are_the_finished_rated_ones_not_applied(store: Store) {
    accounts(&store).await;
    // (id, rated, finished at, applied)
    let games = [
        ("late", true, Some(5), false),
        ("early", true, Some(3), false),
        ("recent", true, Some(50), false),
        ("edge", true, Some(10), false),
        ("playing", true, None, false),
        ("casual", false, Some(4), false),
        ("applied", true, Some(4), true),
    ];
    for (id, rated, ended, applied) in games {
        if rated {
            rated_duel(&store, id, "a1", "b1").await;
        } else {
            store.games.create(&with_seats(id, vec![human("a1", "x"), human("b1", "y")])).await.unwrap();
        }
        let after = match ended {
            Some(at) => finished(at, vec![at as u32, 1]),
            None => progress(1),
        };
        store.games.append_move(id, 0, &a_move(), &after).await.unwrap();
        if applied {
            store.ratings.apply(&duel(id, [("a1", 1), ("b1", 2)], 4)).await.unwrap().unwrap();
        }
    }
    let left = store.ratings.unsettled(10, 10).await.unwrap();
    assert_eq!(left, [("early".to_string(), vec![3, 1]), ("late".to_string(), vec![5, 1])], "finished before 10");
    assert_eq!(store.ratings.unsettled(10, 1).await.unwrap(), left[..1]);
    assert_eq!(store.ratings.unsettled(i64::MAX, 10).await.unwrap().len(), 4);
    store.ratings.apply(&duel("early", [("a1", 1), ("b1", 2)], 60)).await.unwrap().unwrap();
    assert_eq!(store.ratings.unsettled(10, 10).await.unwrap(), left[1..], "settled: no longer left");
}

async fn linked_seats_keep_the_address_they_were_taken_from(store: Store) {
    accounts(&store).await;
    let seats = vec![human("Ada", "la-0"), human("Bob", "la-1"), human("Cy", "la-2")];
    store.games.create(&with_seats("la", seats)).await.unwrap();
    assert_eq!(store.ratings.linked("la").await.unwrap(), vec![]);
    store.ratings.link_seat("la", &hash_token("la-1"), "b1", Some("here")).await.unwrap();
    store.ratings.link_seat("la", &hash_token("la-0"), "a1", None).await.unwrap();
    // Linked again from elsewhere: the first address stays.
    store.ratings.link_seat("la", &hash_token("la-1"), "b1", Some("there")).await.unwrap();
    let linked = store.ratings.linked("la").await.unwrap();
    assert_eq!(linked, vec![(0, "a1".to_string(), None), (1, "b1".to_string(), Some("here".to_string()))]);
    assert_eq!(store.ratings.linked("nope").await.unwrap(), vec![]);
}

/// Two accounts' rated games together (the defence against a pair farming
/// a rating), counted since a time, in one pool.
async fn two_accounts_rated_games_together_are_counted_since_a_time(store: Store) {
    accounts(&store).await;
    for (i, (a, b, at)) in [("a1", "b1", 100), ("b1", "a1", 200), ("a1", "c1", 300)].into_iter().enumerate() {
        let id = format!("t{i}");
        rated_duel(&store, &id, a, b).await;
        assert!(store.ratings.apply(&duel(&id, [(a, 1), (b, 2)], at)).await.unwrap().is_some());
    }
    // A Big Box duel of a1 and b1: its own pool.
    rated_duel(&store, "t3", "a1", "b1").await;
    let big = RatedResult { pool: Pool::BigBoxDuel, ..duel("t3", [("a1", 1), ("b1", 2)], 400) };
    assert!(store.ratings.apply(&big).await.unwrap().is_some());
    let together = |a: &'static str, b: &'static str, pool: Pool, since| {
        let store = &store;
        async move { store.ratings.together(a, b, pool.word(), since).await.unwrap() }
    };
    assert_eq!(together("a1", "b1", Pool::Duel, 0).await, 2);
    assert_eq!(together("b1", "a1", Pool::Duel, 0).await, 2, "either way round");
    assert_eq!(together("a1", "b1", Pool::Duel, 150).await, 1, "since 150");
    assert_eq!(together("a1", "c1", Pool::Duel, 0).await, 1);
    assert_eq!(together("b1", "c1", Pool::Duel, 0).await, 0);
    assert_eq!(together("a1", "b1", Pool::BigBoxDuel, 0).await, 1, "each pool counts its own");
    assert_eq!(together("a1", "b1", Pool::Multi, 0).await, 0);
}

/// The Big Box's pools (`big-box-duel`, `big-box-multi`) are pools of
/// their own: a Big Box game starts its players at the start of its pool
/// whatever their base game's ratings, moves only its pool's, and each
/// pool's leaderboard lists its own; the base game's pools keep the words
/// they were stored under before the Big Box was rated.
async fn the_big_box_pools_keep_ratings_of_their_own(store: Store) {
    accounts(&store).await;
    // A base game duel: Ada beats Bob.
    rated_duel(&store, "base", "a1", "b1").await;
    store.ratings.apply(&duel("base", [("a1", 1), ("b1", 2)], 10)).await.unwrap().unwrap();
    let base = store.ratings.of("a1").await.unwrap();
    assert_eq!(base.len(), 1);
    // A Big Box duel: Bob beats Ada, both from the Big Box's start.
    let seats = vec![human("a1", "bb-0"), human("b1", "bb-1")];
    store.games.create(&with_seats("bb", seats)).await.unwrap();
    store.ratings.mark_rated("bb", Pool::BigBoxDuel.word()).await.unwrap();
    let result = RatedResult { pool: Pool::BigBoxDuel, ..duel("bb", [("a1", 2), ("b1", 1)], 20) };
    let changes = store.ratings.apply(&result).await.unwrap().unwrap();
    let start = Pool::BigBoxDuel.start();
    let after = update_ratings(Pool::BigBoxDuel, &[(start, 2), (start, 1)]);
    let pairs: Vec<_> = changes.iter().map(|c| (c.account.as_str(), c.before, c.after)).collect();
    assert_eq!(pairs, [("a1", start, after[0]), ("b1", start, after[1])], "from the Big Box pool's start");
    let mut rows = store.ratings.of("a1").await.unwrap();
    rows.sort_by_key(|r| r.pool.word());
    assert_eq!(
        rows,
        [
            RatingRow { account: "a1".into(), pool: Pool::BigBoxDuel, rating: after[0], games: 1, updated_at: 20 },
            base[0].clone(),
        ],
        "the base game's rating stays as it was"
    );
    assert_eq!(base[0].pool, Pool::Duel);
    let pools: Vec<Pool> = store.ratings.history("a1", 10).await.unwrap().iter().map(|h| h.pool).collect();
    assert_eq!(pools, [Pool::Duel, Pool::BigBoxDuel], "each history row says its pool");
    // A Big Box game of three: its own pool again.
    let seats = vec![human("a1", "bm-0"), human("c1", "bm-1"), human("d1", "bm-2")];
    store.games.create(&with_seats("bm", seats)).await.unwrap();
    store.ratings.mark_rated("bm", Pool::BigBoxMulti.word()).await.unwrap();
    let three = RatedResult {
        game: "bm".into(),
        pool: Pool::BigBoxMulti,
        seats: (0..3)
            .map(|i| RatedSeat {
                seat: i,
                account: Some(["a1", "c1", "d1"][i as usize].into()),
                fixed: None,
                place: 1 + i as usize,
            })
            .collect(),
        at: 30,
    };
    store.ratings.apply(&three).await.unwrap().unwrap();
    let multi = Pool::BigBoxMulti.start();
    let after3 = update_ratings(Pool::BigBoxMulti, &[(multi, 1), (multi, 2), (multi, 3)]);
    let a = store.ratings.of("a1").await.unwrap();
    assert_eq!(a.len(), 3, "three pools: {a:?}");
    assert_eq!(a.iter().find(|r| r.pool == Pool::BigBoxMulti).map(|r| r.rating), Some(after3[0]));
    assert!(store.ratings.of("c1").await.unwrap().iter().all(|r| r.pool == Pool::BigBoxMulti));
    // Each pool's leaderboard lists its own players, as its games made them.
    let board = |pool: Pool| {
        let store = &store;
        async move {
            let rows = store.ratings.leaderboard(pool.word(), 1, 10).await.unwrap();
            rows.into_iter().map(|(n, r)| (n, r.pool)).collect::<Vec<_>>()
        }
    };
    let named = |names: &[&str], pool: Pool| names.iter().map(|n| (n.to_string(), pool)).collect::<Vec<_>>();
    assert_eq!(board(Pool::Duel).await, named(&["Ada", "Bob"], Pool::Duel));
    assert_eq!(board(Pool::BigBoxDuel).await, named(&["Bob", "Ada"], Pool::BigBoxDuel));
    assert_eq!(board(Pool::BigBoxMulti).await, named(&["Ada", "Cy", "Dee"], Pool::BigBoxMulti));
    assert!(board(Pool::Multi).await.is_empty());
}
