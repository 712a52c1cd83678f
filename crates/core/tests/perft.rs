//! Pinned counts of legal placements and moves at fixed turns of fixed
//! seeds (perft-style): a change to move generation cannot slip by. The
//! games are played by the engine's seeded random mover; the counts were
//! checked against the flood-fill reference of `properties.rs` when pinned.

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
            (2, "H", 8, 28),
            (3, "N", 9, 22),
            (5, "X", 8, 64),
            (8, "V", 14, 37),
            (11, "U", 20, 46),
            (12, "E", 12, 24),
            (20, "D", 23, 23),
            (30, "V", 32, 32),
            (40, "K", 28, 28),
            (50, "V", 39, 39),
            (60, "D", 39, 39),
            (70, "K", 46, 46),
        ],
    ),
    (
        2,
        3,
        "standard",
        &[
            (1, "X", 8, 72),
            (2, "D", 10, 48),
            (3, "N", 4, 12),
            (5, "V", 11, 39),
            (8, "S", 6, 24),
            (11, "L", 11, 75),
            (12, "U", 16, 52),
            (20, "O", 23, 88),
            (30, "W", 31, 188),
            (40, "W", 41, 41),
            (50, "K", 39, 39),
            (60, "A", 53, 53),
            (70, "W", 52, 52),
        ],
    ),
    (
        3,
        4,
        "first-edition",
        &[
            (1, "W", 7, 49),
            (2, "A", 9, 35),
            (3, "K", 12, 58),
            (5, "M", 10, 30),
            (8, "Ug", 16, 54),
            (11, "U", 20, 60),
            (12, "V", 22, 61),
            (20, "E", 30, 68),
            (30, "D", 32, 123),
            (40, "S", 21, 85),
            (50, "U", 36, 96),
            (60, "G", 60, 60),
            (70, "U", 50, 50),
        ],
    ),
    (
        4,
        2,
        "beginner",
        &[
            (1, "R", 4, 8),
            (2, "J", 8, 24),
            (3, "W", 6, 24),
            (5, "G", 10, 18),
            (8, "N", 10, 20),
            (11, "E", 18, 36),
            (12, "P", 23, 61),
            (20, "B", 12, 24),
            (30, "U", 26, 48),
            (40, "D", 35, 35),
            (50, "L", 34, 34),
            (60, "O", 56, 56),
            (70, "B", 60, 60),
        ],
    ),
    (
        5,
        6,
        "standard,farms=per-farm-once",
        &[
            (1, "K", 6, 30),
            (2, "G", 4, 16),
            (3, "J", 10, 49),
            (5, "A", 8, 30),
            (8, "P", 10, 46),
            (11, "B", 12, 24),
            (12, "Ig", 16, 52),
            (20, "V", 21, 56),
            (30, "V", 22, 69),
            (40, "V", 39, 114),
            (50, "U", 44, 126),
            (60, "J", 49, 191),
            (70, "V", 63, 63),
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
            (20, "B", 52, 116),
            (30, "U", 28, 28),
            (40, "Q", 33, 33),
            (50, "T", 32, 32),
            (60, "B", 40, 40),
            (70, "Mg", 41, 41),
            (80, "U", 58, 58),
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
            (20, "O", 17, 77),
            (30, "F", 34, 112),
            (40, "V", 34, 102),
            (50, "K", 42, 84),
            (60, "S", 45, 45),
            (70, "Ng", 35, 70),
            (80, "V", 58, 58),
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
    ] {
        let got = counts(seed, players, rules, &[1, 2, 3, 5, 8, 11, 12, 20, 30, 40, 50, 60, 70, 80]);
        println!("    ({seed}, {players}, \"{rules}\", &[");
        for (t, tile, p, m) in got {
            println!("        ({t}, \"{tile}\", {p}, {m}),");
        }
        println!("    ]),");
    }
}
