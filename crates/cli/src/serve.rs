//! `carcassonne serve`: the web game.

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Where the games are kept: a SQLite file (created if missing) for one
    /// server, or a PostgreSQL URL (postgres://user:password@host:port/db)
    /// that several servers share.
    #[arg(long, default_value = "carcassonne.db")]
    pub db: String,
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs { addr: "127.0.0.1:8080".into(), db: "carcassonne.db".into() }
    }
}

/// Serves the web game until Ctrl-C; prints the URL to open.
pub fn run(args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    carcassonne_server::init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(carcassonne_server::serve(&args.addr, &args.db)).map_err(|e| -> Box<dyn std::error::Error> { e })
}
