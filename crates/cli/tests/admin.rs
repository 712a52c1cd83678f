//! `carcassonne admin` through the binary, on a SQLite file: the open
//! reports listed newest first with the count against each account, and
//! resolve, mute, rename and close, each refusal a message and exit 1.

use std::path::PathBuf;
use std::process::Command;

use carcassonne_server::{hash_token, Account, NewReport, ReportBounds, Store};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
}

/// `carcassonne admin --db DB ARGS…`: exit code, stdout, stderr.
fn admin(db: &PathBuf, args: &[&str]) -> (i32, String, String) {
    let out = bin().arg("admin").arg("--db").arg(db).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn account(id: &str, name: &str) -> Account {
    Account {
        id: id.into(),
        name: name.into(),
        name_key: name.to_lowercase(),
        password: "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaA".into(),
        recovery: hash_token("code"),
        created_at: 1,
    }
}

fn report(reporter: &str, thing: &str, target: &str, shown: &str, at: i64) -> NewReport {
    NewReport {
        reporter: reporter.into(),
        thing: thing.into(),
        target: Some(target.into()),
        target_name: shown.into(),
        game: None,
        seq: None,
        text: None,
        reason: "offensive_name".into(),
        note: String::new(),
        address: "a".into(),
        at,
    }
}

#[test]
fn reports_are_listed_and_dealt_with() {
    let dir = std::env::temp_dir().join(format!("carcassonne-admin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("admin.db");
    let _ = std::fs::remove_file(&db);
    let bounds = ReportBounds { per_reporter: 10, per_address: 10, total: 10 };
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = Store::sqlite(&db).unwrap();
        for (id, name) in [("a", "Ada"), ("b", "Bob"), ("c", "Cy")] {
            assert!(store.accounts.create(&account(id, name)).await.unwrap());
        }
        store.moderation.report(&report("a", "name:b", "b", "Bob", 1_700_000_000_000), &bounds).await.unwrap();
        let line = NewReport {
            game: Some("g1".into()),
            seq: Some(4),
            text: Some("rude words".into()),
            reason: "abusive_chat".into(),
            note: "every game".into(),
            ..report("c", "chat:g1:4", "b", "Bob", 1_700_000_060_000)
        };
        store.moderation.report(&line, &bounds).await.unwrap();
        store.moderation.report(&report("b", "name:c", "c", "Cy", 1_600_000_000_000), &bounds).await.unwrap();
    });

    let (code, out, err) = admin(&db, &["reports"]);
    assert_eq!(code, 0, "{err}");
    let expected = "\
#2  2023-11-14 22:14 UTC  chat line 4 of game g1: Bob  reason: abusive_chat  by: Cy  reports against: 2
    text: rude words
    note: every game
#1  2023-11-14 22:13 UTC  name: Bob  reason: offensive_name  by: Ada  reports against: 2
#3  2020-09-13 12:26 UTC  name: Cy  reason: offensive_name  by: Bob  reports against: 1
";
    assert_eq!(out, expected);

    let (code, out, _) = admin(&db, &["resolve", "3"]);
    assert_eq!((code, out.as_str()), (0, "Report #3 is resolved.\n"));
    let (code, _, err) = admin(&db, &["resolve", "3"]);
    assert_eq!(code, 1);
    assert!(err.contains("open report 3 was not found"), "{err}");
    let (_, out, _) = admin(&db, &["reports"]);
    assert!(!out.contains("#3"), "{out}");
    let (_, out, _) = admin(&db, &["reports", "--all"]);
    assert!(out.contains("#3  2020-09-13 12:26 UTC  name: Cy") && out.contains("[resolved "), "{out}");

    let (code, out, _) = admin(&db, &["mute", "bob", "--hours", "2"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Bob is muted until ") && out.ends_with(" UTC.\n"), "{out}");
    let (_, out, _) = admin(&db, &["reports"]);
    assert_eq!(out.matches("reports against: 2 [muted until ").count(), 2, "{out}");
    let (code, out, _) = admin(&db, &["mute", "Bob", "--hours", "0"]);
    assert_eq!((code, out.as_str()), (0, "Bob may chat again.\n"));

    let (code, _, err) = admin(&db, &["rename", "Bob", "ada"]);
    assert_eq!(code, 1);
    assert!(err.contains("name_taken"), "{err}");
    let (code, out, _) = admin(&db, &["rename", "Bob", "Robert"]);
    assert_eq!((code, out.as_str()), (0, "Bob is now Robert.\n"));
    let (_, out, _) = admin(&db, &["reports"]);
    assert!(out.contains("name: Bob (now Robert)"), "reports say the name reported and the name now: {out}");

    let (code, out, _) = admin(&db, &["close", "Cy"]);
    assert_eq!((code, out.as_str()), (0, "Cy is closed: signed out everywhere.\n"));
    let (code, out, _) = admin(&db, &["close", "Cy"]);
    assert_eq!((code, out.as_str()), (0, "Cy was closed already.\n"));
    let (_, out, _) = admin(&db, &["reports", "--all"]);
    assert!(out.contains("name: Cy  reason: offensive_name  by: Robert  reports against: 0 [closed "), "{out}");
    assert!(!out.contains("[muted"), "a lifted mute is not said: {out}");
    let (code, _, err) = admin(&db, &["close", "Nobody"]);
    assert_eq!(code, 1);
    assert!(err.contains("not_found"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
