//! An account as the tests store it (what every store must do with
//! accounts is the conformance suite's: tests/store/accounts.rs).

use carcassonne_server::{hash_token, Account};

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
