use carcassonne::*;
fn main() {
    let n = 20000u64;
    let t = std::time::Instant::now();
    let mut rng = seeded_rng(99);
    let mut pl = Vec::new();
    let mut sp = Vec::new();
    let mut total = 0u64;
    for seed in 0..n {
        let mut g = Game::new(Setup::standard(Rules::default(), 2, seed)).unwrap();
        g.set_event_log(false);
        while let Some(tile) = g.tile() {
            pl.clear();
            g.placements_into(&mut pl);
            let p = pl[uniform_below(&mut rng, pl.len() as u32) as usize];
            sp.clear();
            g.spots_into(p, &mut sp);
            let k = uniform_below(&mut rng, sp.len() as u32 + 1) as usize;
            let action = if k == sp.len() {
                Action::Pass
            } else {
                Action::Follower(sp[k])
            };
            g.play_unchecked(&Move {
                tile,
                pos: p.pos,
                rot: p.rot,
                action,
            });
        }
        total += g.scores().iter().map(|&s| s as u64).sum::<u64>();
    }
    let e = t.elapsed();
    println!(
        "{} games/s, {:.1} us/game, avg total score {}",
        n as f64 / e.as_secs_f64(),
        e.as_micros() as f64 / n as f64,
        total / n
    );
}
