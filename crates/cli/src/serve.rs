//! `carcassonne serve`: the web game.

use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// The SQLite file the games are kept in.
    #[arg(long, default_value = "carcassonne.db")]
    pub db: PathBuf,
}

pub fn run(_args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    Err("the web game is not built yet".into())
}
