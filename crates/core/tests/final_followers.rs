//! The final scoring says which followers stood on what it scored
//! (`Scoring::followers`): those of the seats it paid counted, the others
//! were outnumbered. Checked over random games under every farm rule.

use carcassonne::{seeded_rng, Event, FarmRule, Game, PlayerId, RandomMover, Role, Rules, ScoredKind, Setup, When};

fn played_out(rules: Rules, players: usize, seed: u64) -> Game {
    let mut game = Game::new(Setup::standard(rules, players, seed)).unwrap();
    RandomMover::new().playout(&mut game, &mut seeded_rng(seed));
    assert!(game.is_over());
    game
}

#[test]
fn final_scorings_name_the_followers_on_what_they_scored() {
    let mut outnumbered = 0;
    let mut farms_seen = 0;
    for (k, farms) in FarmRule::ALL.into_iter().enumerate() {
        for seed in 0..40u64 {
            let rules = Rules { farms, abbot: seed % 3 == 0, ..Rules::default() };
            let players = 2 + (seed as usize % 4);
            let game = played_out(rules, players, seed * 7 + k as u64);
            let men = game.followers();
            let mut on_scored = vec![0; men.len()];
            for e in game.events() {
                let Event::Scored(s) = e else { continue };
                if s.when == When::Completed {
                    assert_eq!(s.followers, 0, "a completed feature's followers came home");
                    continue;
                }
                assert_ne!(s.followers, 0, "someone stood on what scored at the end: {s:?}");
                assert!(s.followers >> men.len() == 0, "only followers on the board: {s:?}");
                let mine: Vec<_> = (0..men.len()).filter(|&i| s.followers & (1 << i) != 0).map(|i| &men[i]).collect();
                for (i, _) in men.iter().enumerate().filter(|&(i, _)| s.followers & (1 << i) != 0) {
                    on_scored[i] += 1;
                }
                let mut count = vec![0; players];
                for f in &mine {
                    count[f.player.index()] += 1;
                    let farmer = f.role == Role::Farmer;
                    assert_eq!(farmer, s.kind == ScoredKind::Farm, "{s:?}: {f:?}");
                }
                let most = *count.iter().max().unwrap();
                let majority: Vec<PlayerId> =
                    (0..players).filter(|&p| count[p] == most).map(|p| PlayerId(p as u8)).collect();
                if farms == FarmRule::PerFarmOnce && s.kind == ScoredKind::Farm {
                    // Paid once over the farms where the seat had the most: it stood on them.
                    let [p] = s.to.iter().collect::<Vec<_>>()[..] else { panic!("one seat a scoring: {s:?}") };
                    assert!(count[p.index()] > 0, "{s:?}");
                } else {
                    assert_eq!(s.to.iter().collect::<Vec<_>>(), majority, "the seats paid had the most: {s:?}");
                }
                outnumbered += mine.iter().filter(|f| !s.to.contains(f.player)).count();
                farms_seen += usize::from(s.kind == ScoredKind::Farm);
            }
            // Every follower but a farmer on a farm that paid nothing is on one
            // final scoring (a farmer may be on several under the 2000 rule).
            for (f, n) in men.iter().zip(&on_scored) {
                if f.role == Role::Farmer {
                    assert!(farms != FarmRule::PerFarm || *n <= 1, "{f:?}");
                } else {
                    assert_eq!(*n, 1, "{f:?} is on one final scoring");
                }
            }
        }
    }
    assert!(outnumbered > 0, "random games leave some follower outnumbered");
    assert!(farms_seen > 0);
}
