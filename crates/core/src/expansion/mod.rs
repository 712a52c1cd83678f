//! The expansions, each a part of its own: its tiles (carried into the
//! tile table by `tile.rs`), its figures, what it adds to a turn and what
//! it adds to scoring. The engine's turn and scoring ask each part at a
//! few fixed points (a road's or city's worth, a completed city, the turn's
//! end, the final scoring, a farm's pay) instead of testing options all
//! over; a rule set without an expansion skips its part with one test.
//!
//! - [`inns`]: Inns & Cathedrals — inns on roads, cathedrals in cities,
//!   the big follower.
//! - [`traders`]: Traders & Builders — goods in cities and their tokens,
//!   the builder and its double turn, the pig.
//!
//! The next expansions (Princess & Dragon, The Tower, Abbey & Mayor) are
//! further parts beside these two.

use std::fmt;

pub(crate) mod inns;
pub(crate) mod traders;

pub use traders::Good;

/// One of the expansions the engine plays (expansions.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Expansion {
    InnsCathedrals,
    TradersBuilders,
}

impl Expansion {
    pub const ALL: [Expansion; 2] = [Expansion::InnsCathedrals, Expansion::TradersBuilders];

    /// The rule option that turns it on (`inns_cathedrals`, `traders_builders`).
    pub const fn option(self) -> &'static str {
        match self {
            Expansion::InnsCathedrals => "inns_cathedrals",
            Expansion::TradersBuilders => "traders_builders",
        }
    }

    /// Its name in words.
    pub const fn title(self) -> &'static str {
        match self {
            Expansion::InnsCathedrals => "Inns & Cathedrals",
            Expansion::TradersBuilders => "Traders & Builders",
        }
    }

    /// How many copies of each of its tiles a game adds to the land tiles.
    pub(crate) const fn counts(self) -> &'static [(&'static str, u8)] {
        match self {
            Expansion::InnsCathedrals => inns::COUNTS,
            Expansion::TradersBuilders => traders::COUNTS,
        }
    }
}

impl fmt::Display for Expansion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.option())
    }
}
