//! A reduced load test: 200 games at once over real websockets, a few client
//! moves each (the bots answer every one). It checks that nothing goes wrong
//! under concurrency — no errors, every move where it was played, every
//! stored game replays — and measures nothing: `examples/load.rs` does that.

mod loadgen;

use carcassonne_server::rebuild;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_games_at_once_lose_nothing() {
    let (addr, state, _db) = loadgen::start_server("load-test").await;
    let opts = loadgen::Options { games: 200, moves_per_game: Some(6), bots: 1, seed: 2024 };
    let report = loadgen::run(&addr, &opts, None).await;
    assert!(report.errors.is_empty(), "{} errors, the first: {:?}", report.errors.len(), report.errors.first());
    assert_eq!(report.games.len(), 200);
    assert_eq!(report.client_moves(), 200 * 6);
    assert_eq!(report.latencies.len(), 200 * 6, "every move came back");
    let store = state.store();
    let mut ids = std::collections::HashSet::new();
    for g in &report.games {
        assert!(ids.insert(g.id.clone()), "game ids are unique");
        let stored = store.load(&g.id).await.unwrap().expect("the game is stored");
        let moves = &stored.record.moves;
        // The client's moves are where it played them, and the game reached
        // at least the version that includes its last one.
        let (last, _) = g.sent.last().unwrap();
        assert!(g.last_version > *last, "{}: saw {} after its move at {last}", g.id, g.last_version);
        assert!(moves.len() as u64 >= g.last_version, "{}: {} stored, {} seen", g.id, moves.len(), g.last_version);
        for (version, mv) in &g.sent {
            assert_eq!(&serde_json::to_value(&moves[*version as usize]).unwrap(), mv, "{} move {version}", g.id);
        }
        // The bots moved in between: the client's moves are every other one.
        assert_eq!(g.sent.iter().map(|(v, _)| v % 2).collect::<Vec<_>>(), vec![g.sent[0].0 % 2; 6], "{}", g.id);
        // The stored record replays through the engine.
        let game = rebuild(&stored.record, stored.live_seed).unwrap_or_else(|e| panic!("{}: {e}", g.id));
        assert_eq!(game.moves_played() as usize, moves.len());
    }
    eprintln!("{}", report.summary());
}
