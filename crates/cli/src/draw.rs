//! The board as text: each tile is 7 characters wide and 5 tall, so the
//! landscape reads continuously across tiles.
//!
//! `#` city (`*` a shield), `=` and `|` road, `~` river, `+` cloister,
//! `o` a road's end at a village or junction, `.` field, `"` garden.
//! Followers are the seat number (`0`–`5`) of their owner on the spot they
//! stand on.

use carcassonne::{Board, Dir, Follower, Game, PlacedTile, SegmentKind, Spot, TileId};

const TW: usize = 7;
const TH: usize = 5;

/// A rendered tile: 5 rows of 7 characters.
type Picture = [[char; TW]; TH];

/// Draws one placed tile (without followers).
fn picture(t: &PlacedTile) -> Picture {
    let mut pic = [['.'; TW]; TH];
    let def = t.tile.def();
    let r = t.rot.quarter_turns();
    let rot_edges = |m: u8| ((m << r) | (m >> (4 - r))) & 0xF;
    let has = |m: u8, d: Dir| m & (1 << d.index()) != 0;

    // Cities: a band along each city edge; joined edges fill between them.
    for seg in def.segments.iter().filter(|s| s.kind == SegmentKind::City) {
        let e = rot_edges(seg.edges);
        for (y, row) in pic.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                let (u, v) = (x as i32 - 3, y as i32 - 2); // u in -3..=3, v in -2..=2
                let near = |d: Dir| match d {
                    Dir::N => v == -2,
                    Dir::S => v == 2,
                    Dir::W => u == -3,
                    Dir::E => u == 3,
                };
                let mut inside = Dir::ALL.into_iter().any(|d| has(e, d) && near(d));
                let n = e.count_ones();
                if n >= 3 {
                    // Everything but a strip along the open side.
                    let open = Dir::ALL.into_iter().find(|&d| !has(e, d)).map(|d| match d {
                        Dir::N => v == -2,
                        Dir::S => v == 2,
                        Dir::W => u <= -2,
                        Dir::E => u >= 2,
                    });
                    inside |= !open.unwrap_or(false);
                } else if n == 2 {
                    let opposite = has(e, Dir::N) && has(e, Dir::S) || has(e, Dir::E) && has(e, Dir::W);
                    if opposite {
                        inside |= if has(e, Dir::E) { v == 0 || u.abs() >= 2 } else { u.abs() <= 1 || v.abs() == 2 };
                    } else {
                        // Corner: a triangle between the two edges.
                        let su = if has(e, Dir::E) { u } else { -u };
                        let sv = if has(e, Dir::S) { v } else { -v };
                        inside |= su * 2 + sv * 3 >= 5;
                    }
                }
                if inside {
                    *c = '#';
                }
            }
        }
        if def.shield {
            let d = Dir::ALL.into_iter().find(|&d| has(e, d)).unwrap_or(Dir::N);
            let (x, y) = spot_xy(Spot::edge(d));
            pic[y][x] = '*';
        }
    }

    // Roads and the river: from each edge to the middle.
    let center = (3usize, 2usize);
    let mut ends = 0;
    for seg in def.segments.iter().filter(|s| s.kind == SegmentKind::Road) {
        let e = rot_edges(seg.edges);
        for d in Dir::ALL.into_iter().filter(|&d| has(e, d)) {
            draw_arm(&mut pic, d, if d == Dir::N || d == Dir::S { '|' } else { '=' });
        }
        if e.count_ones() == 1 {
            ends += 1;
        }
    }
    if def.river != 0 {
        for d in Dir::ALL.into_iter().filter(|&d| has(rot_edges(def.river), d)) {
            draw_arm(&mut pic, d, '~');
        }
    }
    if ends >= 3 || (ends == 1 && !def.has_cloister() && !has_city(&pic)) {
        pic[center.1][center.0] = 'o';
    }
    if def.has_cloister() {
        pic[center.1][center.0] = '+';
    }
    if def.has_garden() {
        let (x, y) = (1, 3);
        if pic[y][x] == '.' {
            pic[y][x] = '"';
        }
    }
    pic
}

fn has_city(p: &Picture) -> bool {
    p.iter().flatten().any(|&c| c == '#')
}

fn draw_arm(pic: &mut Picture, d: Dir, ch: char) {
    let cells: &[(usize, usize)] = match d {
        Dir::N => &[(3, 0), (3, 1), (3, 2)],
        Dir::S => &[(3, 4), (3, 3), (3, 2)],
        Dir::W => &[(0, 2), (1, 2), (2, 2), (3, 2)],
        Dir::E => &[(6, 2), (5, 2), (4, 2), (3, 2)],
    };
    for &(x, y) in cells {
        pic[y][x] = if pic[y][x] == '.' || (x, y) == (3, 2) { ch } else { pic[y][x] };
    }
}

/// Where a spot is drawn within a tile picture.
fn spot_xy(spot: Spot) -> (usize, usize) {
    match spot.name() {
        "N" => (3, 0),
        "E" => (6, 2),
        "S" => (3, 4),
        "W" => (0, 2),
        "Nw" => (1, 0),
        "Ne" => (5, 0),
        "En" => (6, 1),
        "Es" => (6, 3),
        "Se" => (5, 4),
        "Sw" => (1, 4),
        "Ws" => (0, 3),
        "Wn" => (0, 1),
        "C" => (3, 2),
        _ => (1, 3),
    }
}

/// The whole board as text, with followers, x coordinates above and y
/// coordinates to the left.
pub fn board(board: &Board, followers: &[Follower]) -> String {
    let (min, max) = board.bounds();
    let cols = (max.x - min.x + 1) as usize;
    let rows = (max.y - min.y + 1) as usize;
    let mut canvas = vec![vec![' '; cols * TW]; rows * TH];
    for t in board.tiles() {
        let pic = picture(t);
        let (ox, oy) = ((t.pos.x - min.x) as usize * TW, (t.pos.y - min.y) as usize * TH);
        for (y, row) in pic.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                canvas[oy + y][ox + x] = c;
            }
        }
    }
    for f in followers {
        let (x, y) = spot_xy(f.spot);
        let (ox, oy) = ((f.pos.x - min.x) as usize * TW, (f.pos.y - min.y) as usize * TH);
        canvas[oy + y][ox + x] = char::from_digit(f.player.0 as u32, 10).unwrap_or('?');
    }
    let mut out = String::new();
    out.push_str("  # city  * shield  = | road  ~ river  + cloister  \" garden  o village  . field  0-5 followers\n\n");
    out.push_str("      ");
    for x in min.x..=max.x {
        out.push_str(&format!("{:^7}", x));
    }
    out.push('\n');
    for (i, row) in canvas.iter().enumerate() {
        if i % TH == TH / 2 {
            out.push_str(&format!("{:>4}  ", min.y + (i / TH) as i32));
        } else {
            out.push_str("      ");
        }
        out.extend(row.iter());
        out.push('\n');
    }
    out
}

/// The board of a game with its followers.
pub fn game_board(game: &Game) -> String {
    board(game.board(), game.followers())
}

/// A tile by its letter and, for a base tile, its course name: `D (CRFR50)`.
pub fn tile_label(t: TileId) -> String {
    match t.course_name() {
        Some(course) => format!("{t} ({course})"),
        None => t.to_string(),
    }
}

/// The tiles on a board, by kind: `tiles: 2 × D (CRFR50), 1 × Eg`.
pub fn tile_legend(board: &Board) -> String {
    let mut counts = [0u32; carcassonne::TILE_KINDS];
    for t in board.tiles() {
        counts[t.tile.index()] += 1;
    }
    let kinds: Vec<String> = TileId::all()
        .filter(|t| counts[t.index()] > 0)
        .map(|t| format!("{} × {}", counts[t.index()], tile_label(t)))
        .collect();
    format!("  tiles: {}", kinds.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Pos, Rotation, Rules, Setup, TileId};

    #[test]
    fn the_start_tile_shows_its_city_and_road() {
        let g = Game::new(Setup::with_deck(Rules::default(), 2, vec![])).unwrap();
        let text = game_board(&g);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[3].trim(), "#######", "city along the north edge:\n{text}");
        assert_eq!(lines[5].trim_start().trim_start_matches('0').trim(), "=======", "road east-west:\n{text}");
        let _ = (Pos::ORIGIN, Rotation::default(), TileId::START);
    }
}
