//! `carcassonne arena`: bots against each other.

#[derive(clap::Args, Debug)]
pub struct ArenaArgs {}

pub fn run(_args: ArenaArgs) -> Result<(), Box<dyn std::error::Error>> {
    Err("the arena is not built yet".into())
}
