//! Pinned counts of legal placements and moves at fixed turns of fixed
//! seeds (perft-style): a change to move generation cannot slip by. The
//! games are played by the engine's seeded random mover (a change to how
//! it draws moves means pinning them again: `print_counts`); the last test
//! recounts every pinned count without the engine's move generation.

// The reference's final scoring is not needed here.
#[allow(dead_code)]
mod reference;

use carcassonne::{seeded_rng, Game, RandomMover, Rules, Setup};

/// (seed, players, rules, [(turn, tile, placements, legal moves)]).
type Case = (u64, usize, &'static str, &'static [(u16, &'static str, usize, usize)]);

const CASES: &[Case] = &[
    (
        1,
        2,
        "standard",
        &[
            (1, "Vg", 6, 24),
            (2, "H", 8, 32),
            (3, "N", 9, 26),
            (5, "X", 8, 72),
            (8, "V", 16, 53),
            (11, "U", 18, 58),
            (12, "E", 24, 56),
            (20, "D", 24, 97),
            (30, "V", 31, 94),
            (40, "K", 41, 41),
            (50, "V", 45, 45),
            (60, "D", 63, 63),
            (70, "K", 51, 51),
        ],
    ),
    (
        2,
        3,
        "standard",
        &[
            (1, "X", 8, 72),
            (2, "D", 10, 48),
            (3, "N", 8, 22),
            (5, "V", 12, 40),
            (8, "S", 12, 51),
            (11, "L", 23, 154),
            (12, "U", 16, 46),
            (20, "O", 27, 111),
            (30, "W", 21, 21),
            (40, "W", 40, 40),
            (50, "K", 43, 43),
            (60, "A", 49, 49),
            (70, "W", 51, 51),
        ],
    ),
    (
        3,
        4,
        "first-edition",
        &[
            (1, "W", 7, 49),
            (2, "A", 9, 31),
            (3, "K", 9, 40),
            (5, "M", 12, 30),
            (8, "Ug", 12, 44),
            (11, "U", 16, 48),
            (12, "V", 18, 50),
            (20, "E", 25, 55),
            (30, "D", 26, 103),
            (40, "S", 27, 27),
            (50, "U", 30, 98),
            (60, "G", 46, 46),
            (70, "U", 46, 46),
        ],
    ),
    (
        4,
        2,
        "beginner",
        &[
            (1, "R", 4, 8),
            (2, "J", 8, 24),
            (3, "W", 6, 21),
            (5, "G", 6, 12),
            (8, "N", 18, 30),
            (11, "E", 20, 38),
            (12, "P", 10, 24),
            (20, "B", 28, 56),
            (30, "U", 28, 50),
            (40, "D", 34, 91),
            (50, "L", 48, 48),
            (60, "O", 47, 47),
            (70, "B", 44, 44),
        ],
    ),
    (
        5,
        6,
        "standard,farms=per-farm-once",
        &[
            (1, "K", 6, 30),
            (2, "G", 4, 16),
            (3, "J", 12, 56),
            (5, "A", 14, 48),
            (8, "P", 15, 66),
            (11, "B", 12, 28),
            (12, "Ig", 17, 63),
            (20, "V", 27, 75),
            (30, "V", 25, 68),
            (40, "V", 28, 77),
            (50, "U", 34, 100),
            (60, "J", 46, 46),
            (70, "V", 45, 45),
        ],
    ),
    (
        6,
        2,
        "standard,river=true",
        &[
            (1, "RV06", 2, 12),
            (2, "RV08", 2, 8),
            (3, "RV07", 2, 6),
            (5, "RV10g", 2, 6),
            (8, "RV03", 2, 6),
            (11, "RV02", 1, 1),
            (12, "O", 14, 59),
            (20, "B", 48, 100),
            (30, "U", 38, 38),
            (40, "Q", 44, 44),
            (50, "T", 43, 43),
            (60, "B", 52, 52),
            (70, "Mg", 58, 58),
            (80, "U", 60, 60),
        ],
    ),
    (
        7,
        3,
        "first-edition,river=true,abbot=true",
        &[
            (1, "RV07", 2, 6),
            (2, "RV06", 2, 8),
            (3, "RV05", 2, 12),
            (5, "RV09", 2, 10),
            (8, "RV03", 2, 10),
            (11, "RV02", 1, 1),
            (12, "S", 14, 73),
            (20, "O", 21, 102),
            (30, "F", 42, 144),
            (40, "V", 41, 41),
            (50, "K", 49, 98),
            (60, "S", 40, 40),
            (70, "Ng", 58, 116),
            (80, "V", 67, 67),
        ],
    ),
    (
        8,
        2,
        "standard,hand=3,abbot=true",
        &[
            (1, "U", 6, 32),
            (2, "P", 10, 130),
            (3, "U", 8, 49),
            (5, "U", 8, 104),
            (8, "Hg", 10, 133),
            (11, "U", 12, 136),
            (12, "N", 16, 209),
            (20, "N", 30, 132),
            (30, "U", 30, 103),
            (40, "Rg", 29, 144),
            (50, "Rg", 30, 230),
            (60, "Rg", 29, 256),
            (70, "I", 46, 46),
        ],
    ),
    (
        9,
        2,
        "big-box",
        &[
            (1, "RV04", 2, 26),
            (2, "RV05", 2, 24),
            (3, "RV10", 2, 6),
            (5, "RV09", 2, 14),
            (8, "RV08", 1, 2),
            (11, "RV02", 1, 3),
            (12, "V", 30, 99),
            (20, "F", 22, 64),
            (30, "TB08", 27, 29),
            (40, "IC15", 32, 143),
            (50, "E", 54, 54),
            (60, "Ug", 58, 116),
            (70, "J", 70, 141),
            (80, "TB22", 69, 71),
            (90, "U", 72, 72),
            (100, "IC02", 66, 132),
            (110, "V", 77, 155),
            (120, "B", 72, 144),
        ],
    ),
    (
        10,
        3,
        "first-edition,inns_cathedrals=true,traders_builders=true",
        &[
            (1, "TB06", 5, 45),
            (2, "U", 10, 66),
            (3, "G", 10, 66),
            (5, "TB21", 11, 72),
            (8, "Vg", 15, 52),
            (11, "TB18", 18, 128),
            (12, "TB02", 16, 188),
            (20, "U", 22, 68),
            (30, "W", 40, 53),
            (40, "B", 52, 128),
            (50, "Q", 39, 114),
            (60, "K", 38, 39),
            (70, "J", 47, 51),
            (80, "V", 61, 67),
            (90, "U", 62, 64),
            (100, "E", 68, 69),
            (110, "IC01", 57, 59),
        ],
    ),
    (
        11,
        4,
        "standard,traders_builders=true,hand=2,hole_bonus_turn=true",
        &[
            (1, "TB09", 5, 102),
            (2, "K", 9, 65),
            (3, "TB14", 12, 84),
            (5, "X", 8, 126),
            (8, "I", 10, 70),
            (11, "TB20", 11, 70),
            (12, "I", 11, 60),
            (20, "TB08", 25, 174),
            (30, "P", 32, 264),
            (40, "B", 36, 298),
            (50, "V", 35, 72),
            (60, "D", 31, 81),
            (70, "V", 37, 89),
            (80, "U", 40, 98),
            (90, "U", 54, 117),
        ],
    ),
];

fn counts(seed: u64, players: usize, rules: &str, turns: &[u16]) -> Vec<(u16, String, usize, usize)> {
    let mut game = Game::new(Setup::standard(Rules::parse(rules).unwrap(), players, seed)).unwrap();
    let mut rng = seeded_rng(seed + 1000);
    let mut mover = RandomMover::new();
    let mut out = Vec::new();
    while let Some(tile) = game.tile() {
        let turn = game.moves_played() + 1;
        if turns.contains(&turn) {
            out.push((turn, tile.name().to_string(), game.placements().len(), game.legal_moves().len()));
        }
        let mv = mover.choose(&game, &mut rng).unwrap();
        game.play_unchecked(&mv);
    }
    out
}

#[test]
fn legal_move_counts_are_pinned() {
    for &(seed, players, rules, expected) in CASES {
        let turns: Vec<u16> = expected.iter().map(|e| e.0).collect();
        let got = counts(seed, players, rules, &turns);
        let want: Vec<(u16, String, usize, usize)> =
            expected.iter().map(|&(t, tile, p, m)| (t, tile.to_string(), p, m)).collect();
        assert_eq!(got, want, "seed {seed}, {players} players, {rules}");
    }
}

/// Every case's counts were pinned from the engine; here they are
/// recounted without its move generation: placements by the flood-fill
/// reference's scan of the board (`properties.rs`), legal moves by asking
/// the checked path about every decision of every placement (each figure
/// on each of the 15 spots, the abbot's, recall, pass), spots naming one
/// segment counted once.
#[test]
fn counts_agree_with_the_reference_and_the_checked_path() {
    use carcassonne::{Action, Move, Spot};
    use reference::{RefAction, Reference};
    for &(seed, players, rules, expected) in CASES {
        let rules = Rules::parse(rules).unwrap();
        let mut game = Game::new(Setup::standard(rules, players, seed)).unwrap();
        let (start, rot) = game.start();
        let mut reference = Reference::new(rules, players, start, rot.quarter_turns());
        let mut rng = seeded_rng(seed + 1000);
        let mut mover = RandomMover::new();
        let mut checked = 0;
        while let Some(tile) = game.tile() {
            let turn = game.moves_played() + 1;
            if let Some(&(_, name, placements, moves)) = expected.iter().find(|e| e.0 == turn) {
                checked += 1;
                assert_eq!(tile.name(), name);
                assert_eq!(reference.all_fits(tile).len(), placements, "seed {seed} turn {turn}: placements");
                let mut decisions = std::collections::BTreeSet::new();
                for (_, t) in game.tiles_to_place() {
                    for (x, y, r) in reference.all_fits(t) {
                        let (pos, rot) = (carcassonne::Pos::new(x, y), carcassonne::Rotation::new(r).unwrap());
                        let mut candidates = vec![Action::Pass, Action::Recall];
                        for s in Spot::all() {
                            candidates.extend([
                                Action::Follower(s),
                                Action::BigFollower(s),
                                Action::Builder(s),
                                Action::Pig(s),
                                Action::Abbot(s),
                            ]);
                        }
                        for action in candidates {
                            let mv = Move { tile: t, pos, rot, action, bonus: game.bonus() };
                            if game.check(&mv).is_ok() {
                                // One decision per segment, however named.
                                let seg = action.deploys().map(|(_, s)| {
                                    t.canonical_spot(rot, s, rules.abbot).expect("a legal spot names a segment")
                                });
                                decisions.insert((t, x, y, r, format!("{:?}", std::mem::discriminant(&action)), seg));
                            }
                        }
                    }
                }
                assert_eq!(decisions.len(), moves, "seed {seed} turn {turn}: legal moves");
            }
            let player = game.to_move().unwrap().index();
            let mv = mover.choose(&game, &mut rng).unwrap();
            let action = match mv.action {
                Action::Follower(s) => RefAction::Follower(s.name()),
                Action::Abbot(s) => RefAction::Abbot(s.name()),
                Action::Recall => RefAction::Recall,
                Action::Pass => RefAction::Nothing,
                Action::BigFollower(s) => RefAction::Big(s.name()),
                Action::Builder(s) => RefAction::Builder(s.name()),
                Action::Pig(s) => RefAction::Pig(s.name()),
            };
            reference.play(player, mv.tile, mv.pos, mv.rot.quarter_turns(), action, mv.bonus.is_some()).unwrap();
            game.play_unchecked(&mv);
        }
        assert_eq!(checked, expected.len(), "seed {seed}: every pinned turn recounted");
    }
}

#[test]
#[ignore = "prints the table to pin"]
fn print_counts() {
    for (seed, players, rules) in [
        (1, 2, "standard"),
        (2, 3, "standard"),
        (3, 4, "first-edition"),
        (4, 2, "beginner"),
        (5, 6, "standard,farms=per-farm-once"),
        (6, 2, "standard,river=true"),
        (7, 3, "first-edition,river=true,abbot=true"),
        (8, 2, "standard,hand=3,abbot=true"),
        (9, 2, "big-box"),
        (10, 3, "first-edition,inns_cathedrals=true,traders_builders=true"),
        (11, 4, "standard,traders_builders=true,hand=2,hole_bonus_turn=true"),
    ] {
        let got = counts(seed, players, rules, &[1, 2, 3, 5, 8, 11, 12, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120]);
        println!("    ({seed}, {players}, \"{rules}\", &[");
        for (t, tile, p, m) in got {
            println!("        ({t}, \"{tile}\", {p}, {m}),");
        }
        println!("    ]),");
    }
}
