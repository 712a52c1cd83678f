//! Inns & Cathedrals (expansions.md §1): 18 tiles, inns beside roads,
//! cathedrals in cities, and one big follower per player.
//!
//! What it adds, and where the engine asks for it:
//! - a road's or city's worth ([`road_points`], [`city_points`]): a
//!   completed road with an inn pays 2 a tile, a completed city with a
//!   cathedral 3 a tile and shield; left open at the end, either pays 0;
//! - the big follower ([`crate::Figure::BigFollower`]): deployed like a
//!   follower, it weighs 2 in every majority (its feature's count of
//!   followers simply takes 2 for it, so farms and per-city sums see it too).

use crate::rules::Rules;
use crate::tile::TileLine;

/// The 18 tiles (17 ids, `IC11` twice): expansions.md §7, in the notation of
/// `tile.rs`. Canonical orientation as in the Wikicarpedia C3 pictures.
#[rustfmt::skip]
pub(crate) const TILES: [TileLine; 17] = [
    ("IC01", "FFRR", "r:SW/inn f:Nw,Ne,En,Es,Se,Wn f:Sw,Ws", "", ""),
    ("IC02", "FRFR", "r:EW/inn f:Nw,Ne,En,Wn f:Es,Se,Sw,Ws", "garden", ""),
    // R3: the inn stands beside the E arm only.
    ("IC03", "FRRR", "r:E/inn r:S r:W f:Nw,Ne,En,Wn f:Es,Se f:Sw,Ws", "", ""),
    ("IC04", "FRFR", "r:E r:W f:Nw,Ne,En,Wn f:Es,Se,Sw,Ws", "cloister", ""),
    ("IC05", "RRRR", "r:NW r:ES f:Nw,Wn f:Ne,En,Sw,Ws f:Es,Se", "", ""),
    ("IC06", "CRFC", "c:NW r:E f:En>0 f:Es,Se,Sw>0", "", ""),
    ("IC07", "FFFC", "c:W f:Nw,Ne>0 f:En,Es,Se,Sw>0", "", ""),
    ("IC08", "CCCC", "c:N c:E c:S c:W f:>0,1,2,3", "garden", ""),
    ("IC09", "CRCR", "c:N c:S r:E r:W f:En>0 f:Es>1 f:Ws>1 f:Wn>0", "", ""),
    ("IC10", "CFRF", "c:N r:S f:En,Es,Se>0 f:Sw,Ws,Wn>0", "", ""),
    ("IC11", "CCCC", "c:NESW/cathedral", "", ""),
    ("IC12", "CRRC", "c:NW/shield r:ES/inn f:En,Sw>0 f:Es,Se", "", ""),
    ("IC13", "CFRR", "c:N r:SW/inn f:En,Es,Se,Wn>0 f:Sw,Ws", "", ""),
    ("IC14", "CFRC", "c:NW r:S/inn f:En,Es,Se>0 f:Sw>0", "", ""),
    ("IC15", "CCFC", "c:N c:E c:W f:Se,Sw>0,1,2", "", ""),
    ("IC16", "CFCC", "c:NW/shield c:S f:En,Es>0,1", "", ""),
    ("IC17", "RCRC", "c:EW/shield r:N r:S f:Nw>0 f:Ne>0 f:Se>0 f:Sw>0", "", ""),
];

/// Copies of each tile in the expansion (expansions.md §1.1).
#[rustfmt::skip]
pub(crate) const COUNTS: &[(&str, u8)] = &[
    ("IC01", 1), ("IC02", 1), ("IC03", 1), ("IC04", 1), ("IC05", 1), ("IC06", 1), ("IC07", 1), ("IC08", 1),
    ("IC09", 1), ("IC10", 1), ("IC11", 2), ("IC12", 1), ("IC13", 1), ("IC14", 1), ("IC15", 1), ("IC16", 1),
    ("IC17", 1),
];

/// What a road of `tiles` tiles pays its holders: 1 a tile; with an inn
/// (and inns in play) 2 a tile when completed, nothing when left open at
/// the end (expansions.md §1.2).
pub(crate) fn road_points(rules: &Rules, tiles: u32, inn: bool, completed: bool) -> u32 {
    match (inn && rules.has_inns(), completed) {
        (false, _) => tiles,
        (true, true) => 2 * tiles,
        (true, false) => 0,
    }
}

/// What a city pays its holders: completed, 2 a tile and shield (the
/// small-city rule's 1 for a 2-tile city), 3 with a cathedral (and
/// cathedrals in play; R18: before the small-city rule); left open at the
/// end, 1 a tile and shield, nothing with a cathedral.
pub(crate) fn city_points(rules: &Rules, tiles: u32, shields: u32, cathedral: bool, completed: bool) -> u32 {
    let cathedral = cathedral && rules.has_cathedrals();
    match (cathedral, completed) {
        (true, true) => 3 * (tiles + shields),
        (true, false) => 0,
        // rules.md, small-city rule: a completed 2-tile city scores as an incomplete one.
        (false, true) if rules.small_city && tiles == 2 => tiles + shields,
        (false, true) => 2 * (tiles + shields),
        (false, false) => tiles + shields,
    }
}
