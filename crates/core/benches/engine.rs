//! `cargo bench -p carcassonne`: legal-move generation, playing a move, final
//! scoring and whole random games. Figures go in docs/performance.md.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};

use carcassonne::{seeded_rng, Game, PackedPlacements, RandomMover, Rules, Setup};

/// Random games stopped after `turns` moves: mid-game positions to time.
fn positions(turns: u16, n: u64) -> Vec<Game> {
    let mut mover = RandomMover::new();
    (0..n)
        .map(|seed| {
            let mut g = Game::new(Setup::standard(Rules::default(), 2, seed)).unwrap();
            g.set_event_log(false);
            let mut rng = seeded_rng(seed);
            while g.moves_played() < turns {
                let mv = mover.choose(&g, &mut rng).unwrap();
                g.play_unchecked(&mv);
            }
            g
        })
        .collect()
}

fn movegen(c: &mut Criterion) {
    let games = positions(40, 64);
    let mut packed = PackedPlacements::new();
    let mut list = Vec::with_capacity(512);
    c.bench_function("placements, packed (turn 40)", |b| {
        b.iter(|| {
            for g in &games {
                g.packed_placements(&mut packed);
                black_box(packed.len());
            }
        })
    });
    c.bench_function("placements into Vec (turn 40)", |b| {
        b.iter(|| {
            for g in &games {
                list.clear();
                g.placements_into(&mut list);
                black_box(list.len());
            }
        })
    });
    c.bench_function("legal moves with follower spots (turn 40)", |b| {
        b.iter(|| {
            for g in &games {
                black_box(g.legal_moves().len());
            }
        })
    });
}

fn play(c: &mut Criterion) {
    // Few positions, so that the cloned boards stay in cache.
    let games = positions(40, 8);
    let mut rng = seeded_rng(1);
    let mut mover = RandomMover::new();
    let moves: Vec<_> = games.iter().map(|g| mover.choose(g, &mut rng).unwrap()).collect();
    c.bench_function("play_unchecked one move (turn 40)", |b| {
        b.iter_batched_ref(
            || games.clone(),
            |gs| {
                for (g, m) in gs.iter_mut().zip(&moves) {
                    g.play_unchecked(m);
                }
            },
            BatchSize::LargeInput,
        )
    });
    c.bench_function("play checked one move (turn 40)", |b| {
        b.iter_batched_ref(
            || games.clone(),
            |gs| {
                for (g, m) in gs.iter_mut().zip(&moves) {
                    g.play(m).unwrap();
                }
            },
            BatchSize::LargeInput,
        )
    });
}

fn final_scoring(c: &mut Criterion) {
    // Positions one move before the end: the timed move triggers final scoring.
    let games = positions(70, 8);
    let mut rng = seeded_rng(2);
    let mut mover = RandomMover::new();
    let last: Vec<_> = games.iter().map(|g| mover.choose(g, &mut rng)).collect();
    c.bench_function("last move with final scoring", |b| {
        b.iter_batched_ref(
            || games.clone(),
            |gs| {
                for (g, m) in gs.iter_mut().zip(&last) {
                    if let Some(m) = m {
                        g.play_unchecked(m);
                    }
                }
            },
            BatchSize::LargeInput,
        )
    });
}

fn whole_games(c: &mut Criterion) {
    let mut mover = RandomMover::new();
    let mut rng = seeded_rng(3);
    let mut seed = 0;
    c.bench_function("random 2-player standard game", |b| {
        b.iter(|| {
            seed += 1;
            let mut g = Game::new(Setup::standard(Rules::default(), 2, seed)).unwrap();
            g.set_event_log(false);
            mover.playout(&mut g, &mut rng);
            black_box(g.scores()[0])
        })
    });
}

criterion_group!(benches, movegen, play, final_scoring, whole_games);
criterion_main!(benches);
