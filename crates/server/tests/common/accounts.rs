//! What every store must do with accounts and sessions (SQLite in
//! tests/accounts.rs, PostgreSQL in tests/postgres.rs).

use carcassonne_server::{hash_token, Account, Store};

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

pub async fn accounts_contract(store: &Store) {
    let ada = account("a1", "Ada");
    assert!(store.accounts.create(&ada).await.unwrap());
    assert!(!store.accounts.create(&account("a2", "ADA")).await.unwrap(), "the name's key is taken");
    assert_eq!(store.accounts.by_key("ada").await.unwrap(), Some(ada.clone()));
    assert_eq!(store.accounts.by_key("bob").await.unwrap(), None);

    // Sessions: found while used within the idle time, renewed on use.
    store.accounts.create_session("s1", "a1", 1_000, 0).await.unwrap();
    store.accounts.create_session("s2", "a1", 1_000, 0).await.unwrap();
    assert_eq!(store.accounts.session("s1", 1_500, 900, 1_400).await.unwrap().unwrap().id, "a1", "renewed at 1500");
    assert_eq!(
        store.accounts.session("s1", 2_400, 1_450, 1_400).await.unwrap().unwrap().id,
        "a1",
        "used at 1500: alive"
    );
    assert_eq!(store.accounts.session("s2", 2_400, 1_450, 1_400).await.unwrap(), None, "idle since 1000: over");
    assert_eq!(store.accounts.session("s2", 0, -10, -10).await.unwrap(), None, "and removed");
    assert_eq!(store.accounts.session("nope", 2_400, 0, 0).await.unwrap(), None);
    // A new session sweeps the idle ones.
    store.accounts.create_session("s3", "a1", 10_000, 2_000).await.unwrap();
    assert_eq!(store.accounts.session("s1", 10_000, 0, 0).await.unwrap(), None, "swept: last used at 1500");

    // Ending one, the others, all.
    store.accounts.create_session("s4", "a1", 10_000, 0).await.unwrap();
    store.accounts.create_session("s5", "a1", 10_000, 0).await.unwrap();
    assert!(store.accounts.end_session("s3").await.unwrap());
    assert!(!store.accounts.end_session("s3").await.unwrap());
    assert_eq!(store.accounts.end_sessions("a1", Some("s4")).await.unwrap(), 1);
    assert!(store.accounts.session("s4", 10_000, 0, 0).await.unwrap().is_some(), "the kept one stays");
    assert_eq!(store.accounts.session("s5", 10_000, 0, 0).await.unwrap(), None);

    // The password (and recovery code) replaced.
    assert!(store.accounts.set_password("a1", "new", None).await.unwrap());
    let a = store.accounts.by_key("ada").await.unwrap().unwrap();
    assert_eq!((a.password.as_str(), a.recovery.as_str()), ("new", ada.recovery.as_str()));
    assert!(store.accounts.set_password("a1", "newer", Some("r2")).await.unwrap());
    assert_eq!(store.accounts.by_key("ada").await.unwrap().unwrap().recovery, "r2");
    assert!(!store.accounts.set_password("zz", "x", None).await.unwrap());

    // Deleting the account ends its sessions and frees the name.
    assert!(store.accounts.delete("a1").await.unwrap());
    assert!(!store.accounts.delete("a1").await.unwrap());
    assert_eq!(store.accounts.session("s4", 10_000, 0, 0).await.unwrap(), None);
    assert!(store.accounts.create(&account("a3", "Ada")).await.unwrap());
}
