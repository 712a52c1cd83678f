use carcassonne::*;
fn main() {
    let mut rng = seeded_rng(99);
    let mut m = RandomMover::new();
    let (mut turns, mut fr) = (0u64, 0u64);
    for seed in 0..2000u64 {
        let mut g = Game::new(Setup::standard(Rules::default(), 2, seed)).unwrap();
        while let Some(mv) = m.choose(&g, &mut rng) {
            turns += 1;
            let (a, b) = g.board().bounds();
            let _ = (a, b);
            fr += g.frontier_len() as u64;
            g.play_unchecked(&mv);
        }
    }
    println!("frontier/turn {:.1}", fr as f64 / turns as f64);
}
