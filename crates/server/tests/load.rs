//! A reduced load test: 200 games at once over real websockets (protocol 2),
//! a few client moves each (the bots answer every one), a spectator on each. It checks that nothing goes wrong
//! under concurrency — no errors, every move where it was played, every
//! stored game replays — and measures nothing: `examples/load.rs` does that.
//! A second, smaller run does the same under the shipped limits less those
//! per address (`load --limits shipped`), which must refuse nothing a
//! well-behaved crowd of players sends.

mod loadgen;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_games_at_once_lose_nothing() {
    let (addr, state, _db) = loadgen::start_server("load-test").await;
    let opts = loadgen::Options { moves_per_game: Some(6), seed: 2024, spectators: 1, ..loadgen::Options::new(200) };
    let report = loadgen::run(&addr, &opts, None).await;
    assert!(report.errors.is_empty(), "{} errors, the first: {:?}", report.errors.len(), report.errors.first());
    assert_eq!(report.games.len(), 200);
    assert_eq!(report.client_moves(), 200 * 6);
    assert_eq!(report.latencies.len(), 200 * 6, "every move came back");
    assert_eq!(report.spectators, 200);
    let wrong = loadgen::verify(state.store(), &report).await;
    assert!(wrong.is_empty(), "{} games wrong, the first: {:?}", wrong.len(), wrong.first());
    for g in &report.games {
        // The client saw its last move come back; the bots moved in between,
        // so the client's moves are every other one.
        let (last, _) = g.sent.last().unwrap();
        assert!(g.last_version > *last, "{}: saw {} after its move at {last}", g.id, g.last_version);
        assert_eq!(g.sent.iter().map(|(v, _)| v % 2).collect::<Vec<_>>(), vec![g.sent[0].0 % 2; 6], "{}", g.id);
    }
    eprintln!("{}", report.summary());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shipped_limits_refuse_no_player() {
    // 80 games from one address (more than the 60 an hour it may make by
    // default), each with a player's socket and a spectator's, under a cap
    // of 256 connections.
    let (addr, state, _db) = loadgen::start_server_on("load-shipped", "127.0.0.1:0", loadgen::shipped(256)).await;
    let opts = loadgen::Options { moves_per_game: Some(4), seed: 7, spectators: 1, ..loadgen::Options::new(80) };
    let report = loadgen::run(&addr, &opts, None).await;
    assert!(report.errors.is_empty(), "{} errors, the first: {:?}", report.errors.len(), report.errors.first());
    assert_eq!(report.client_moves(), 80 * 4);
    assert_eq!(report.latencies.len(), 80 * 4, "every move came back");
    assert_eq!(report.spectators, 80);
    let wrong = loadgen::verify(state.store(), &report).await;
    assert!(wrong.is_empty(), "{} games wrong, the first: {:?}", wrong.len(), wrong.first());
}
