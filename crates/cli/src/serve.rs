//! `carcassonne serve`: the web game.

use std::time::Duration;

use carcassonne_server::{Config, ExternalBot, LogFormat};

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
    /// Connections open at once, in all (kept below the limit of open files).
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Connections open at once from one client address (websockets included).
    #[arg(long, value_name = "N")]
    pub max_connections_per_ip: Option<usize>,
    /// Games one client address may create in an hour (the new-game form,
    /// lobby tables it opens, "Play now" waits it starts, rematches it
    /// completes).
    #[arg(long, value_name = "N")]
    pub max_games_per_hour_per_ip: Option<usize>,
    /// Unfinished games in play that one client address may have created.
    #[arg(long, value_name = "N")]
    pub max_active_games_per_ip: Option<usize>,
    /// Games one client address may keep stored (default 300): past it, a
    /// new game first makes room by dropping the address's oldest unrated
    /// unfinished game, else its oldest finished game without an account.
    #[arg(long, value_name = "N")]
    pub max_kept_games_per_ip: Option<usize>,
    /// Hours after sign-up from which an account's rated games count
    /// (default 24; sooner once it has finished `--rated-min-games` games).
    #[arg(long, value_name = "HOURS")]
    pub rated_min_age_hours: Option<u64>,
    /// Finished games after which a new account's rated games count (default 5).
    #[arg(long, value_name = "N")]
    pub rated_min_games: Option<usize>,
    /// Seats of one rated game may be taken from one client address (a club
    /// behind one router); by default such a game counts for nothing.
    #[arg(long)]
    pub rated_shared_address: bool,
    /// Bot searches run at once (default: one core fewer than the machine has, at least one).
    #[arg(long, value_name = "N")]
    pub bot_workers: Option<usize>,
    /// Threads working out reviews of finished games, at the lowest priority
    /// and only while no bot search waits or runs (default 1).
    #[arg(long, value_name = "N")]
    pub review_workers: Option<usize>,
    /// Reviews being worked out or waiting, in all (default 8); one more is
    /// answered `busy` (503 with Retry-After).
    #[arg(long, value_name = "N")]
    pub max_reviews: Option<usize>,
    /// Reviews being worked out or waiting that one client address started (default 2).
    #[arg(long, value_name = "N")]
    pub max_reviews_per_ip: Option<usize>,
    /// Spectators' live connections on one game (default 256); its players
    /// always have places of their own.
    #[arg(long, value_name = "N")]
    pub max_spectators_per_game: Option<usize>,
    /// Spectators' live connections on one game from one client address (default 8).
    #[arg(long, value_name = "N")]
    pub max_spectators_per_ip: Option<usize>,
    /// The prefix length under which IPv6 addresses count as one client for
    /// every per-address limit (default 64: a host's /64).
    #[arg(long, value_name = "BITS", value_parser = clap::value_parser!(u8).range(0..=128))]
    pub ipv6_prefix: Option<u8>,
    /// Minutes after which a game nobody plays, watches or asks for leaves
    /// memory (it comes back from the storage when asked for).
    #[arg(long, value_name = "MINUTES")]
    pub idle_minutes: Option<u64>,
    /// Days after which an unfinished game without a move is deleted as
    /// abandoned (0: never).
    #[arg(long, value_name = "DAYS")]
    pub expire_days: Option<u64>,
    /// Another site whose pages may open live connections (repeatable), as
    /// `https://example.com`; pages of this server's own address always may.
    #[arg(long, value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// The log's format: `text` (coloured only on a terminal) or `json` (a
    /// JSON object per line).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub log_format: String,
    /// Offer a program that speaks the bot protocol (docs/bot-protocol.md)
    /// as an opponent named NAME (repeatable), e.g.
    /// `--bot "pybot=python3 examples/bot.py"`. It is started once at
    /// start-up to check it answers, then once per move it makes.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    pub bots: Vec<String>,
    /// Time per move for those programs; one that answers late, illegally or
    /// not at all is replaced for that move by the built-in normal bot.
    #[arg(long, value_name = "TIME", default_value = "2s", value_parser = crate::arena::parse_duration)]
    pub bot_time: Duration,
    /// The address people open the game at, as `https://carcassonne.example`
    /// (no path): passkeys are made for this site and work only on pages
    /// of this origin. Unset, passkeys work on `http://localhost` (any port),
    /// for development (docs/web.md, *Passkeys*).
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Web Push: the file holding the VAPID private key (base64url of its
    /// 32 bytes, or a P-256 key in PEM); also `CARCASSONNE_VAPID_KEY` (the key
    /// itself). Without either, the storage's own key (made on first start).
    #[arg(long, value_name = "FILE")]
    pub vapid_private_key: Option<std::path::PathBuf>,
    /// Web Push: who the push services may write to about this server,
    /// `mailto:you@example.com` or an https URL (also `CARCASSONNE_VAPID_SUBJECT`).
    #[arg(long, value_name = "CONTACT")]
    pub vapid_subject: Option<String>,
    /// The account named NAME is an operator (repeatable, or NAME,NAME): its
    /// account page links to the admin page (#/admin), where it lists the
    /// players' reports and mutes, renames or closes accounts while the
    /// server runs. Also `CARCASSONNE_ADMIN` (comma-separated). Sign the
    /// name up first: whoever holds it is an operator.
    #[arg(long = "admin", value_name = "NAME", value_delimiter = ',')]
    pub admins: Vec<String>,
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs {
            addr: "127.0.0.1:8080".into(),
            db: "carcassonne.db".into(),
            max_connections: None,
            max_connections_per_ip: None,
            max_games_per_hour_per_ip: None,
            max_active_games_per_ip: None,
            max_kept_games_per_ip: None,
            rated_min_age_hours: None,
            rated_min_games: None,
            rated_shared_address: false,
            bot_workers: None,
            review_workers: None,
            max_reviews: None,
            max_reviews_per_ip: None,
            max_spectators_per_game: None,
            max_spectators_per_ip: None,
            ipv6_prefix: None,
            idle_minutes: None,
            expire_days: None,
            allow_origin: Vec::new(),
            log_format: "text".into(),
            bots: Vec::new(),
            bot_time: Duration::from_secs(2),
            public_url: None,
            vapid_private_key: None,
            vapid_subject: None,
            admins: Vec::new(),
        }
    }
}

impl ServeArgs {
    /// The server's settings: the environment's (`Config::from_env`), then these flags.
    pub(crate) fn config(&self) -> Result<Config, Box<dyn std::error::Error>> {
        let mut c = Config::from_env();
        if let Some(n) = self.max_connections {
            c.max_connections = n.max(1);
        }
        if let Some(n) = self.max_connections_per_ip {
            c.max_connections_per_ip = n.max(1);
        }
        if let Some(n) = self.max_games_per_hour_per_ip {
            c.max_new_games_per_hour_per_ip = n;
        }
        if let Some(n) = self.max_active_games_per_ip {
            c.max_active_games_per_ip = n;
        }
        if let Some(n) = self.max_kept_games_per_ip {
            c.max_kept_games_per_ip = n.max(1);
        }
        if let Some(h) = self.rated_min_age_hours {
            c.rated_min_age = Duration::from_secs(h.saturating_mul(3600));
        }
        if let Some(n) = self.rated_min_games {
            c.rated_min_games = n;
        }
        c.rated_shared_address |= self.rated_shared_address;
        if let Some(n) = self.bot_workers {
            c.bot_workers = n.max(1);
        }
        if let Some(n) = self.review_workers {
            c.review_workers = n.max(1);
        }
        if let Some(n) = self.max_reviews {
            c.max_reviews = n;
        }
        if let Some(n) = self.max_reviews_per_ip {
            c.max_reviews_per_ip = n;
        }
        if let Some(n) = self.max_spectators_per_game {
            c.max_sockets_per_game = n;
        }
        if let Some(n) = self.max_spectators_per_ip {
            c.max_spectators_per_ip_per_game = n;
        }
        if let Some(bits) = self.ipv6_prefix {
            c.ipv6_prefix = bits;
        }
        if let Some(m) = self.idle_minutes {
            c.idle_after = Duration::from_secs(m.max(1).saturating_mul(60));
        }
        if let Some(d) = self.expire_days {
            c.expire_after = (d > 0).then(|| Duration::from_secs(d.saturating_mul(24 * 3600)));
        }
        if let Some(url) = &self.public_url {
            c.public_url = Some(
                carcassonne_server::passkey_origin(url)
                    .map_err(|e| carcassonne_server::ExternalBotError(format!("--public-url {e}")))?,
            );
        }
        if let Some(path) = &self.vapid_private_key {
            let key =
                std::fs::read_to_string(path).map_err(|e| format!("--vapid-private-key {}: {e}", path.display()))?;
            c.push.vapid_key = Some(key);
        }
        if let Some(subject) = &self.vapid_subject {
            c.push.subject = subject.trim().to_string();
        }
        c.operators.extend(self.admins.iter().flat_map(|n| carcassonne_server::operator_names(n)));
        c.allowed_origins.extend(self.allow_origin.iter().map(|o| o.trim_end_matches('/').to_string()));
        for spec in &self.bots {
            let bot = ExternalBot::start(spec, self.bot_time)?;
            if c.external_bots.iter().any(|b| b.name == bot.name) {
                return Err(
                    carcassonne_server::ExternalBotError(format!("--bot {spec}: {} is named twice", bot.name)).into()
                );
            }
            c.external_bots.push(bot);
        }
        Ok(c)
    }
}

/// Serves the web game until Ctrl-C or SIGTERM; prints the URL to open.
pub fn run(args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    carcassonne_server::init_logging(if args.log_format == "json" { LogFormat::Json } else { LogFormat::Text });
    let config = args.config()?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let served = runtime.block_on(carcassonne_server::serve_with(&args.addr, &args.db, config));
    // A bot still thinking on a blocking thread does not hold up the exit.
    runtime.shutdown_timeout(Duration::from_millis(500));
    served.map_err(|e| -> Box<dyn std::error::Error> { e })
}
