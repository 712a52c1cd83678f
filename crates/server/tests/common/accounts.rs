//! An account and a passkey as the tests store them (what every store must
//! do with them is the conformance suite's: tests/store/accounts.rs).

use carcassonne_server::{hash_token, Account, StoredPasskey};

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
