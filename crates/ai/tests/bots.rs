//! Every bot plays legal games under every rule option; the search bot is
//! deterministic for a seed and an iteration budget; no bot's decision
//! depends on the order of the tiles it cannot see.

use carcassonne::{FarmRule, Game, Move, PlayerId, RandomMover, Rules, Setup, View};
use carcassonne_ai::{Bot, BotSpec, Budget, Difficulty, MctsBot, MctsConfig};

fn specs() -> Vec<BotSpec> {
    vec![
        BotSpec::Random,
        BotSpec::Greedy,
        "mcts:40it".parse().unwrap(),
        // Weighted playout decisions, playouts cut short and valued by the
        // learned valuation (the engine checks each playout move in debug builds).
        "mcts:40it:wroad=0.5:wcity=2:wmonk=4:depth=8:learned=1".parse().unwrap(),
        // Sequential halving at the root instead of the tree, playouts that
        // take every follower that scores at once.
        "mcts:40it:sh=8:instant=1".parse().unwrap(),
        // The network trained by self-play ranks the moves and values the
        // playouts cut short, its value of their start blended in.
        "mcts:40it:net=1:depth=4:mix=0.5".parse().unwrap(),
    ]
}

/// Plays a whole game between `bots` (seat i plays bots[i % len]), checking
/// every move against the rules before playing it.
fn play(rules: Rules, players: usize, seed: u64, bots: &mut [Box<dyn Bot>]) -> Game {
    let mut game = Game::new(Setup::standard(rules, players, seed)).unwrap();
    while let Some(seat) = game.to_move() {
        let n = bots.len();
        let mv = bots[seat.index() % n].choose(&View::new(&game, seat)).expect("a move while the game is on");
        assert_eq!(game.check(&mv), Ok(()), "{} under {rules}", bots[seat.index() % n].name());
        game.play(&mv).unwrap();
    }
    assert!(bots.iter_mut().all(|b| b.choose(&View::new(&game, PlayerId(0))).is_none()));
    game
}

#[test]
fn every_bot_plays_legal_games_under_every_farm_rule() {
    for (i, farms) in FarmRule::ALL.into_iter().enumerate() {
        let rules = Rules { farms, ..Rules::default() };
        let mut bots: Vec<Box<dyn Bot>> = specs().iter().map(|s| s.build(i as u64)).collect();
        let g = play(rules, bots.len(), 100 + i as u64, &mut bots);
        assert!(g.is_over());
    }
}

#[test]
fn every_bot_plays_legal_games_with_the_expansions_and_house_rules() {
    let options = [
        "first-edition",
        "standard,river=true",
        "standard,abbot=true",
        "standard,river=true,abbot=true,farms=per-farm-once",
        "standard,hand=3",
        "standard,hand=2,hand_visible=true",
        "standard,draw_at_turn_end=true",
        "standard,unplaceable=reshuffle",
        "standard,hole_bonus_turn=true,incomplete_scoring=false",
        "standard,board_limit=9x7,border_completes=true",
    ];
    for (i, text) in options.iter().enumerate() {
        let rules = Rules::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        // Random against each of the others, two players.
        for (k, other) in (1..specs().len()).enumerate() {
            let mut pair = [specs()[0].build(i as u64), specs()[other].build(i as u64)];
            play(rules, 2, 7 + (3 * i + k) as u64, &mut pair);
        }
    }
}

#[test]
fn difficulty_levels_build_search_bots() {
    for d in Difficulty::ALL {
        let BotSpec::Mcts(c) = d.spec() else { panic!("{d:?}") };
        assert!(matches!(c.budget, Budget::Iterations(_) | Budget::Time(_)));
        assert!(d.spec().build(1).name().starts_with("mcts:"));
    }
    assert!(Difficulty::Easy.spec().is_deterministic());
}

fn history(spec: &str, seed: u64) -> Vec<Move> {
    let s: BotSpec = spec.parse().unwrap();
    let mut bots: Vec<Box<dyn Bot>> = vec![s.build(seed), BotSpec::Greedy.build(seed)];
    play(Rules::default(), 2, 42, &mut bots).history().to_vec()
}

#[test]
fn search_is_deterministic_for_a_seed_and_an_iteration_budget() {
    assert_eq!(history("mcts:150it", 5), history("mcts:150it", 5));
    // Root parallelism too: each thread's share and seed are fixed.
    assert_eq!(history("mcts:150it:2t", 5), history("mcts:150it:2t", 5));
    // And sequential halving, on one thread and on two.
    assert_eq!(history("mcts:150it:sh=8", 5), history("mcts:150it:sh=8", 5));
    assert_eq!(history("mcts:150it:sh=8:2t", 5), history("mcts:150it:sh=8:2t", 5));
    // And the seed matters.
    assert_ne!(history("mcts:150it", 5), history("mcts:150it", 6));
}

/// Stopping once the pick cannot change plays the same moves as spending
/// the whole budget, and does stop early on some moves.
#[test]
fn early_stop_plays_the_same_moves_in_fewer_iterations() {
    let mut game = Game::new(Setup::standard(Rules::default(), 2, 11)).unwrap();
    let config = MctsConfig { budget: Budget::Iterations(600), seed: 3, ..MctsConfig::default() };
    assert!(config.early_stop);
    let (mut early, mut full) = (MctsBot::new(config), MctsBot::new(MctsConfig { early_stop: false, ..config }));
    let mut stopped = 0;
    while let Some(seat) = game.to_move() {
        let view = View::new(&game, seat);
        let mv = early.choose(&view).unwrap();
        assert_eq!(Some(mv), full.choose(&view), "move {}", game.moves_played());
        if let (Some(e), Some(f)) = (early.last_search(), full.last_search()) {
            assert!(e.iterations <= f.iterations);
            stopped += usize::from(e.iterations < f.iterations);
        }
        game.play(&mv).unwrap();
    }
    assert!(stopped > 0);
}

/// Sequential halving plays out the best `sh` ranked moves, halves them
/// round by round on an even share of the budget, spends exactly its
/// iteration budget, and plays the one move that survived every round.
#[test]
fn sequential_halving_spends_its_budget_on_the_survivors() {
    let mut game = Game::new(Setup::standard(Rules::default(), 2, 21)).unwrap();
    let mut rng = carcassonne::seeded_rng(21);
    let mut mover = RandomMover::new();
    while game.moves_played() < 12 {
        let mv = mover.choose(&game, &mut rng).unwrap();
        game.play(&mv).unwrap();
    }
    let seat = game.to_move().unwrap();
    let view = View::new(&game, seat);
    assert!(view.legal_moves().len() > 8);
    let config = MctsConfig { budget: Budget::Iterations(400), halving: 8, seed: 4, ..MctsConfig::default() };
    let mut bot = MctsBot::new(config);
    let mv = bot.choose(&view).unwrap();
    assert_eq!(game.check(&mv), Ok(()));
    let info = bot.last_search().unwrap();
    // 8 moves × 16 samples, 4 × 34, 2 × 68: 400 playouts in three rounds.
    assert_eq!(info.iterations, 400);
    let mut visits: Vec<u32> = info.root.iter().map(|r| r.1).filter(|&v| v > 0).collect();
    visits.sort_unstable();
    assert_eq!(visits, [16, 16, 16, 16, 50, 50, 118, 118]);
    // The move played is one of the last two, the better by mean.
    let last: Vec<_> = info.root.iter().filter(|r| r.1 == 118).collect();
    let best = last.iter().max_by(|a, b| a.2.total_cmp(&b.2)).unwrap();
    assert_eq!(best.0, mv);
    assert!(last.iter().all(|r| r.2 <= best.2));
}

/// Two games that look the same to every player but hold the unseen tiles
/// in different orders.
fn twins(rules: Rules, seed: u64, turns: u16) -> (Game, Game) {
    let setup = Setup::standard(rules, 2, seed);
    let mut a = Game::new(setup.clone()).unwrap();
    let mut rng = carcassonne::seeded_rng(seed);
    let mut mover = RandomMover::new();
    while a.moves_played() < turns {
        let mv = mover.choose(&a, &mut rng).unwrap();
        a.play(&mv).unwrap();
    }
    let known = a.drawn().len();
    let mut deck = setup.deck.clone();
    deck[known..].reverse();
    let mut b = Game::new(Setup { deck, ..setup }).unwrap();
    for mv in a.history() {
        b.play(mv).unwrap();
    }
    assert_ne!(a.deck(), b.deck());
    (a, b)
}

#[test]
fn no_bot_sees_the_order_of_the_bag() {
    for (rules, seed, turns) in
        [(Rules::default(), 1, 10), (Rules::default(), 2, 35), (Rules::parse("standard,hand=3").unwrap(), 3, 12)]
    {
        let (a, b) = twins(rules, seed, turns);
        let me = a.to_move().unwrap();
        for spec in
            ["random", "greedy", "mcts:300it", "mcts:200it:2t", "mcts:200it:net=1:depth=6", "mcts:200it:net=1:mix=0.5"]
        {
            let spec: BotSpec = spec.parse().unwrap();
            let x = spec.build(9).choose(&View::new(&a, me));
            let y = spec.build(9).choose(&View::new(&b, me));
            assert_eq!(x, y, "{spec} under {rules}, turn {turns}");
        }
        // The whole search, not just its pick, is the same.
        let config =
            MctsConfig { budget: Budget::Iterations(300), seed: 4, early_stop: false, ..MctsConfig::default() };
        let (mut x, mut y) = (MctsBot::new(config), MctsBot::new(config));
        x.choose(&View::new(&a, me));
        y.choose(&View::new(&b, me));
        assert_eq!(x.last_search(), y.last_search());
        assert_eq!(x.last_search().unwrap().iterations, 300);
    }
}

/// Inns & Cathedrals and Traders & Builders: every bot plays legal moves
/// (the engine's own checked path judges each), second parts included, and
/// the bots' figures go on the board. The bots' valuation does not yet know
/// the expansions (docs/ai.md); they play the expansions' moves as legal moves.
#[test]
fn every_bot_plays_legal_big_box_games() {
    use carcassonne::{Action, Preset};
    let rules_sets = [
        Rules::preset(Preset::BigBox),
        Rules::parse("first-edition,inns_cathedrals=true,traders_builders=true,hand=2").unwrap(),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (i, rules) in rules_sets.into_iter().enumerate() {
        let mut bots: Vec<Box<dyn Bot>> = specs().iter().map(|s| s.build(i as u64 + 7)).collect();
        let game = play(rules, 3, 40 + i as u64, &mut bots);
        assert!(game.is_over());
        for mv in game.history() {
            seen.insert(match mv.action {
                Action::BigFollower(_) => "big follower",
                Action::Builder(_) => "builder",
                Action::Pig(_) => "pig",
                Action::Follower(_) => "follower",
                _ => "other",
            });
            if mv.bonus.is_some() {
                seen.insert("second part");
            }
        }
    }
    assert!(seen.contains("big follower") && seen.contains("builder"), "{seen:?}");
}

/// The teaching tools on a Big Box game: the review's best move, every
/// hint and every puzzle's answers are legal moves of their positions, and
/// positions where a big follower, builder or pig could go are reviewed too.
#[test]
fn review_hints_and_puzzles_work_on_big_box_games() {
    use carcassonne::record::{Record, RecordMove};
    use carcassonne::{Action, Preset};
    use carcassonne_ai::hint::hint;
    use carcassonne_ai::puzzle::{find_puzzles, PuzzleOptions};
    use carcassonne_ai::review::{positions, review, ReviewOptions};
    let rules = Rules::preset(Preset::BigBox);
    let mut bots: Vec<Box<dyn Bot>> = vec![BotSpec::Greedy.build(1), BotSpec::Greedy.build(2)];
    let game = play(rules, 2, 11, &mut bots);
    // The first 40 moves (a debug build reviews a whole Big Box game slowly).
    let mut record = Record::from_game(&game, &["Ada".into(), "Bob".into()]);
    record.moves.truncate(30);
    let positions = positions(&record).unwrap();
    let legal_in = |turn: usize, m: &RecordMove| {
        let mv = m.to_move().unwrap();
        positions[turn].0.check(&mv).is_ok()
    };
    let budget = Budget::Iterations(12);
    let options = ReviewOptions { budget, seed: 3, threads: 1 };
    let reviewed = review(&record, &options, |_, _| {}).unwrap();
    assert_eq!(reviewed.moves.len(), record.moves.len());
    let mut figures = 0;
    for (i, m) in reviewed.moves.iter().enumerate() {
        assert!(legal_in(i, &m.best) && legal_in(i, &m.search), "turn {}", m.turn);
        let expansion = |a: Action| matches!(a, Action::BigFollower(_) | Action::Builder(_) | Action::Pig(_));
        figures += positions[i].0.legal_moves().into_iter().any(|mv| expansion(mv.action)) as usize;
    }
    assert!(figures > 3, "only {figures} positions offered the expansions' figures");
    for (i, (position, _)) in positions.iter().enumerate().step_by(10) {
        let h = hint(position, budget, i as u64).expect("a hint while the game is on");
        assert_eq!(position.check(&h.best), Ok(()), "hint at move {}", i + 1);
    }
    let options = PuzzleOptions { screen: 1, keep: 2, samples: 4, min_gap: 0.0, max_per_game: 3, seed: 1, threads: 1 };
    let puzzles = find_puzzles(&record, "big-box", &options, |_, _| {}).unwrap();
    assert!(!puzzles.is_empty());
    for p in &puzzles {
        let at = usize::from(p.turn) - 1;
        assert!(p.answers.iter().chain([&p.best, &p.second]).all(|m| legal_in(at, m)), "puzzle {}", p.id);
    }
}
