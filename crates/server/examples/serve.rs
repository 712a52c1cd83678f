//! Runs the web game without the `carcassonne` command:
//! `cargo run -p carcassonne-server --example serve -- [ADDR] [DB]`.

#[tokio::main]
async fn main() -> Result<(), carcassonne_server::BoxError> {
    carcassonne_server::init_logging(carcassonne_server::LogFormat::Text);
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:8080".into());
    let db = args.next().unwrap_or_else(|| "carcassonne.db".into());
    carcassonne_server::serve(&addr, std::path::Path::new(&db)).await
}
