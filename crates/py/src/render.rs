//! The board as an RGB image (`Game.to_rgb`, the environments'
//! `render_mode="rgb_array"`): each tile drawn from the engine's tile data in
//! the web page's colours (web/js/tiles.js, web/js/meeple.js) — fields green,
//! cities tan with their shields, roads pale, rivers blue, cloisters and
//! gardens — and the followers as discs (the abbot a square) in the seats'
//! colours. A plain raster: the same shapes as the web page's SVG, simplified.

use carcassonne::{Game, SegmentKind, Spot, TileDef};

type Rgb = [u8; 3];

const GRASS: Rgb = [0x8d, 0xbb, 0x57];
const GARDEN: Rgb = [0x3f, 0x7d, 0x31];
const CITY: Rgb = [0xda, 0xb2, 0x7a];
const ROAD: Rgb = [0xef, 0xe3, 0xc1];
const ROAD_EDGE: Rgb = [0x8f, 0x7b, 0x57];
const WATER: Rgb = [0x4f, 0x9f, 0xdc];
const SHIELD: Rgb = [0x1f, 0x4f, 0xa3];
const CLOISTER: Rgb = [0xef, 0xe6, 0xd2];
const ROOF: Rgb = [0xb4, 0x47, 0x2f];
const VILLAGE: Rgb = [0xb9, 0x8d, 0x55];
const FELT: Rgb = [0x2f, 0x42, 0x36];
const GRID: Rgb = [0x6b, 0x5a, 0x45];

/// The seats' colours and their edges (web/js/meeple.js), seat 0 first.
const SEATS: [(Rgb, Rgb); 6] = [
    ([0xf0, 0xe4, 0x42], [0x5c, 0x53, 0x00]),
    ([0xd5, 0x5e, 0x00], [0x4d, 0x22, 0x00]),
    ([0x00, 0x9e, 0x73], [0x00, 0x3d, 0x2c]),
    ([0x00, 0x4f, 0x8c], [0x00, 0x1f, 0x38]),
    ([0x2a, 0x2a, 0x2a], [0xd9, 0xd9, 0xd9]),
    ([0xe8, 0xa0, 0xc8], [0x5a, 0x23, 0x46]),
];

/// Where the garden lies on a tile, canonical orientation.
const GARDEN_AT: (f32, f32) = (0.75, 0.75);

/// Distance of `(x, y)` (0–1, y down) from edge `d` (N E S W) and the
/// position along it.
fn depth(d: usize, x: f32, y: f32) -> (f32, f32) {
    match d {
        0 => (y, x),
        1 => (1.0 - x, y),
        2 => (1.0 - y, x),
        _ => (x, y),
    }
}

/// A bulge over an edge, `height` deep at its middle and 0 at the corners.
fn cap(d: usize, x: f32, y: f32, height: f32) -> bool {
    let (dp, a) = depth(d, x, y);
    dp < height * (4.0 * a * (1.0 - a)).sqrt()
}

/// Whether the canonical point lies in a city reaching `edges` (bit per edge).
fn in_city(edges: u8, x: f32, y: f32) -> bool {
    let ds: Vec<usize> = (0..4).filter(|d| edges & (1 << d) != 0).collect();
    match ds[..] {
        [d] => {
            let (dp, a) = depth(d, x, y);
            dp < 0.26 * 4.0 * a * (1.0 - a)
        }
        [a, b] if (a + 2) % 4 != b => {
            // Two neighbouring edges: the corner, bowed towards the open one.
            let (p, q) = (depth(a, x, y).0, depth(b, x, y).0);
            p + q - 0.6 * p * q < 1.0
        }
        _ => {
            let height = if ds.len() == 2 { 0.3 } else { 0.4 };
            (0..4).filter(|d| edges & (1 << d) == 0).all(|d| !cap(d, x, y, height))
        }
    }
}

/// Distance from `(x, y)` to the segment from edge `d`'s middle to the centre.
fn to_spoke(d: usize, x: f32, y: f32) -> f32 {
    let (dp, a) = depth(d, x, y);
    let along = dp.min(0.5);
    ((dp - along).powi(2) + (a - 0.5).powi(2)).sqrt()
}

/// The colour of the canonical point `(x, y)` of a tile.
fn paint(def: &TileDef, x: f32, y: f32) -> Rgb {
    let mut colour = GRASS;
    let segs = &def.segments;
    for s in segs.iter().filter(|s| s.kind == SegmentKind::City) {
        if in_city(s.edges, x, y) {
            colour = CITY;
            if def.shield && shield_at(s.edges).is_some_and(|(sx, sy)| (x - sx).abs() < 0.07 && (y - sy).abs() < 0.07) {
                colour = SHIELD;
            }
        }
    }
    for d in (0..4).filter(|d| def.river & (1 << d) != 0) {
        if to_spoke(d, x, y) < 0.085 {
            colour = WATER;
        }
    }
    if def.river.count_ones() == 1 && ((x - 0.5).powi(2) + (y - 0.5).powi(2)).sqrt() < 0.16 {
        colour = WATER;
    }
    let roads: Vec<u8> = segs.iter().filter(|s| s.kind == SegmentKind::Road).map(|s| s.edges).collect();
    for &edges in &roads {
        for d in (0..4).filter(|d| edges & (1 << d) != 0) {
            let r = to_spoke(d, x, y);
            if r < 0.045 {
                colour = ROAD;
            } else if r < 0.06 && colour != ROAD {
                colour = ROAD_EDGE;
            }
        }
    }
    let ends = roads.iter().filter(|e| e.count_ones() == 1).count();
    if ends >= 3 && (x - 0.5).abs() < 0.1 && (y - 0.5).abs() < 0.1 {
        colour = VILLAGE;
    }
    if def.has_garden() && ((x - GARDEN_AT.0).powi(2) + (y - GARDEN_AT.1).powi(2)).sqrt() < 0.09 {
        colour = GARDEN;
    }
    colour
}

/// Where a city's shield sits (canonical), for the city reaching `edges`.
fn shield_at(edges: u8) -> Option<(f32, f32)> {
    [(0.7, 0.1), (0.9, 0.3), (0.3, 0.9), (0.1, 0.3), (0.3, 0.3), (0.5, 0.5)]
        .into_iter()
        .find(|&(x, y)| in_city(edges, x, y))
}

/// A point turned `k` quarter turns clockwise about the tile's centre.
fn turn(p: (f32, f32), k: u8) -> (f32, f32) {
    (0..k).fold(p, |(x, y), _| (1.0 - y, x))
}

/// Where a follower on `spot` stands on a tile as it lies (0–1).
fn spot_at(spot: Spot, rot: u8) -> (f32, f32) {
    const AT: [(f32, f32); 14] = [
        (0.5, 0.12),
        (0.88, 0.5),
        (0.5, 0.88),
        (0.12, 0.5),
        (0.25, 0.13),
        (0.75, 0.13),
        (0.87, 0.25),
        (0.87, 0.75),
        (0.75, 0.87),
        (0.25, 0.87),
        (0.13, 0.75),
        (0.13, 0.25),
        (0.5, 0.5),
        GARDEN_AT,
    ];
    let i = spot.index();
    if spot == Spot::GARDEN {
        turn(GARDEN_AT, rot)
    } else {
        AT[i]
    }
}

/// The board of `game` as an `(height, width, 3)` RGB image, `tile` pixels
/// a tile, with a free cell around the placed tiles.
pub(crate) fn rgb(game: &Game, tile: usize) -> (Vec<u8>, usize, usize) {
    let tiles = game.board().tiles();
    let (x0, x1) = tiles.iter().fold((0, 0), |(lo, hi), t| (t.pos.x.min(lo), t.pos.x.max(hi)));
    let (y0, y1) = tiles.iter().fold((0, 0), |(lo, hi), t| (t.pos.y.min(lo), t.pos.y.max(hi)));
    let cols = (x1 - x0 + 3) as usize;
    let rows = (y1 - y0 + 3) as usize;
    let (w, h) = (cols * tile, rows * tile);
    let mut img = vec![0u8; w * h * 3];
    for px in img.chunks_exact_mut(3) {
        px.copy_from_slice(&FELT);
    }
    let origin = |x: i32, y: i32| ((x - x0 + 1) as usize * tile, (y - y0 + 1) as usize * tile);
    let put = |img: &mut Vec<u8>, px: usize, py: usize, c: Rgb| {
        let i = (py * w + px) * 3;
        img[i..i + 3].copy_from_slice(&c);
    };
    for t in tiles {
        let (ox, oy) = origin(t.pos.x, t.pos.y);
        let def = t.tile.def();
        let back = (4 - t.rot.quarter_turns()) % 4;
        for j in 0..tile {
            for i in 0..tile {
                let p = ((i as f32 + 0.5) / tile as f32, (j as f32 + 0.5) / tile as f32);
                let (cx, cy) = turn(p, back);
                let edge = i == 0 || j == 0 || i == tile - 1 || j == tile - 1;
                let mut colour = if edge { GRID } else { paint(def, cx, cy) };
                // The cloister stands upright whatever the tile's rotation, its roof up.
                if def.has_cloister() && (p.0 - 0.5).abs() < 0.17 && (p.1 - 0.5).abs() < 0.17 {
                    colour = if p.1 < 0.42 { ROOF } else { CLOISTER };
                }
                put(&mut img, ox + i, oy + j, colour);
            }
        }
    }
    let radius = tile as f32 * 0.11;
    for f in game.followers() {
        let rot = game.board().tile_at(f.pos).map(|t| t.rot.quarter_turns()).unwrap_or(0);
        let (ox, oy) = origin(f.pos.x, f.pos.y);
        let (sx, sy) = spot_at(f.spot, rot);
        let (cx, cy) = (ox as f32 + sx * tile as f32, oy as f32 + sy * tile as f32);
        let (fill, edge) = SEATS[f.player.index() % SEATS.len()];
        let abbot = f.role == carcassonne::Role::Abbot;
        let r = radius.ceil() as i32 + 1;
        for dy in -r..=r {
            for dx in -r..=r {
                let (px, py) = (cx as i32 + dx, cy as i32 + dy);
                let (fx, fy) = (px as f32 + 0.5 - cx, py as f32 + 0.5 - cy);
                let d = if abbot { fx.abs().max(fy.abs()) } else { (fx * fx + fy * fy).sqrt() };
                if d < radius && px >= 0 && py >= 0 && (px as usize) < w && (py as usize) < h {
                    put(&mut img, px as usize, py as usize, if d < radius - 1.5 { fill } else { edge });
                }
            }
        }
    }
    (img, h, w)
}
