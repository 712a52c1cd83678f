//! An account, a passkey and a rating as the tests store them (what every
//! store must do with them is the conformance suite's: tests/store/).

use carcassonne_server::{hash_token, Account, Store, StoredPasskey};

pub fn account(id: &str, name: &str) -> Account {
    Account {
        id: id.into(),
        name: name.into(),
        name_key: name.to_lowercase(),
        password: "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaA".into(),
        recovery: hash_token("code"),
        created_at: 1,
    }
}

/// A passkey of `account`'s, named after its credential id, added at `at`.
pub fn passkey(id: &str, account: &str, at: i64) -> StoredPasskey {
    StoredPasskey {
        credential_id: id.into(),
        account: account.into(),
        name: format!("key {id}"),
        passkey: format!("{{\"cred\":\"{id}\"}}"),
        created_at: at,
        used_at: None,
    }
}

/// Gives the account named `name` a rating of `rating` in `pool` (a rated
/// game against a bot's fixed rating, applied by the store).
pub async fn rated(store: &Store, name: &str, pool: carcassonne_server::Pool, rating: f64) {
    let account = store.accounts.by_key(&name.to_lowercase()).await.unwrap().unwrap();
    let id = format!("r{}", account.id.len() + rating as usize);
    let record = carcassonne::record::Record::from_json(
        r#"{ "format": 1, "rules": { "preset": "standard" }, "players": ["A", "B"], "deck": ["E", "V"] }"#,
    )
    .unwrap();
    let token = carcassonne_server::hash_token("t");
    let seat = carcassonne_server::Seat::Human { name: name.into(), token_hash: token, remote: true, account: None };
    let bot = carcassonne_server::Seat::Bot { name: "Bot".into(), level: carcassonne_server::BotLevel::Random };
    let game = carcassonne_server::NewGame {
        id: id.clone(),
        record,
        live_seed: None,
        seats: vec![seat, bot],
        created_at: 1,
        public: false,
        clock: None,
        deadline: None,
        owner: None,
    };
    store.games.create(&game).await.unwrap();
    store.ratings.mark_rated(&id, pool.word()).await.unwrap();
    let seat =
        |i: u8, account: Option<String>, fixed, place| carcassonne_server::RatedSeat { seat: i, account, fixed, place };
    // A win from the start against a bot of that rating.
    let fixed = pool.native(rating, 60.0);
    let result = carcassonne_server::RatedResult {
        game: id,
        pool,
        seats: vec![seat(0, Some(account.id.clone()), None, 1), seat(1, None, Some(fixed), 2)],
        at: 1,
    };
    store.ratings.apply(&result).await.unwrap().unwrap();
}
