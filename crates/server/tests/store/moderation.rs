//! `ModerationRepo` (blocks, reports, sanctions), `AccountRepo::rename`,
//! and a chat line's author account.

use carcassonne_server::{Blocked, ChatCaps, ChatMessage, NewReport, ReportBounds, Reported, Sanctions, Store};

use crate::{account, new_game, race, wins};

conformance!(
    a_block_is_kept_once_within_the_bound_and_listed_latest_first,
    blocks_are_seen_either_way_and_go_with_the_account,
    blocks_made_at_once_stay_within_the_bound,
    a_report_is_kept_once_per_reporter_and_thing,
    reports_stay_within_their_bounds,
    reports_are_listed_newest_first_with_the_count_against_the_account,
    a_report_is_resolved_once,
    a_mute_is_set_replaced_and_lifted,
    closing_an_account_ends_its_sessions_once,
    an_account_is_renamed_unless_the_name_is_taken,
    a_chat_line_keeps_its_author_account,
);

async fn accounts(store: &Store, names: &[&str]) {
    for n in names {
        assert!(store.accounts.create(&account(&format!("id-{n}"), n)).await.unwrap());
    }
}

fn report(reporter: &str, thing: &str, target: Option<&str>, at: i64) -> NewReport {
    NewReport {
        reporter: reporter.into(),
        thing: thing.into(),
        target: target.map(str::to_string),
        target_name: "Shown".into(),
        game: None,
        seq: None,
        text: None,
        reason: "other".into(),
        note: String::new(),
        address: "addr".into(),
        at,
    }
}

const ROOMY: ReportBounds = ReportBounds { per_reporter: 100, per_address: 100, total: 100 };

async fn a_block_is_kept_once_within_the_bound_and_listed_latest_first(store: Store) {
    accounts(&store, &["Ada", "Bob", "Cy", "Di"]).await;
    let m = &store.moderation;
    assert_eq!(m.block("id-Ada", "id-Bob", 10, 2).await.unwrap(), Blocked::Added);
    assert_eq!(m.block("id-Ada", "id-Bob", 11, 2).await.unwrap(), Blocked::Already, "once");
    assert_eq!(m.block("id-Ada", "id-Cy", 12, 2).await.unwrap(), Blocked::Added);
    assert_eq!(m.block("id-Ada", "id-Di", 13, 2).await.unwrap(), Blocked::Full, "the bound");
    let list = m.blocks("id-Ada").await.unwrap();
    let names: Vec<(&str, &str, i64)> = list.iter().map(|b| (b.account.as_str(), b.name.as_str(), b.at)).collect();
    assert_eq!(names, vec![("id-Cy", "Cy", 12), ("id-Bob", "Bob", 10)], "latest first, as first blocked");
    assert!(m.blocks("id-Bob").await.unwrap().is_empty(), "a block is one way");
    assert!(m.unblock("id-Ada", "id-Bob").await.unwrap());
    assert!(!m.unblock("id-Ada", "id-Bob").await.unwrap(), "once");
    assert_eq!(m.block("id-Ada", "id-Di", 14, 2).await.unwrap(), Blocked::Added, "room again");
    assert!(m.block("id-Ada", "nobody", 15, 9).await.is_err(), "an account that does not exist");
}

async fn blocks_are_seen_either_way_and_go_with_the_account(store: Store) {
    accounts(&store, &["Ada", "Bob", "Cy"]).await;
    let m = &store.moderation;
    m.block("id-Ada", "id-Bob", 1, 10).await.unwrap();
    m.block("id-Cy", "id-Ada", 2, 10).await.unwrap();
    let mut either = m.either_way("id-Ada").await.unwrap();
    either.sort();
    assert_eq!(either, vec!["id-Bob".to_string(), "id-Cy".to_string()]);
    assert_eq!(m.either_way("id-Bob").await.unwrap(), vec!["id-Ada".to_string()]);
    assert!(store.accounts.delete("id-Bob").await.unwrap());
    assert_eq!(m.either_way("id-Ada").await.unwrap(), vec!["id-Cy".to_string()], "a deleted account's blocks go");
}

async fn blocks_made_at_once_stay_within_the_bound(stores: [Store; 2]) {
    let names: Vec<String> = (0..12).map(|i| format!("P{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    accounts(&stores[0], &["Ada"]).await;
    accounts(&stores[0], &refs).await;
    let outcomes = race(&stores, 12, |i, store| async move {
        store.moderation.block("id-Ada", &format!("id-P{i}"), i as i64, 5).await.unwrap() == Blocked::Added
    })
    .await;
    assert_eq!(wins(&outcomes), 5);
    assert_eq!(stores[1].moderation.blocks("id-Ada").await.unwrap().len(), 5);
}

async fn a_report_is_kept_once_per_reporter_and_thing(store: Store) {
    accounts(&store, &["Ada", "Bob"]).await;
    let m = &store.moderation;
    let Reported::Added(first) = m.report(&report("id-Ada", "name:id-Bob", Some("id-Bob"), 1), &ROOMY).await.unwrap()
    else {
        panic!("kept")
    };
    assert_eq!(m.report(&report("id-Ada", "name:id-Bob", Some("id-Bob"), 2), &ROOMY).await.unwrap(), Reported::Already);
    let Reported::Added(second) = m.report(&report("id-Bob", "name:id-Bob", Some("id-Bob"), 3), &ROOMY).await.unwrap()
    else {
        panic!("another reporter's")
    };
    assert_ne!(first, second);
    let line = NewReport {
        game: Some("g".into()),
        seq: Some(3),
        text: Some("rude words".into()),
        reason: "abusive_chat".into(),
        note: "again".into(),
        ..report("seat:g:1", "chat:g:3", None, 4)
    };
    let Reported::Added(third) = m.report(&line, &ROOMY).await.unwrap() else { panic!("a guest's line report") };
    m.resolve(third, 5).await.unwrap();
    assert_eq!(m.report(&line, &ROOMY).await.unwrap(), Reported::Already, "resolved, still once");
    let all = m.reports(false, 10).await.unwrap();
    let kept = all.iter().find(|r| r.id == third).unwrap();
    assert_eq!(
        (kept.game.as_deref(), kept.seq, kept.text.as_deref(), kept.reason.as_str(), kept.note.as_str()),
        (Some("g"), Some(3), Some("rude words"), "abusive_chat", "again"),
        "kept as made"
    );
    assert_eq!((kept.target.as_deref(), kept.reporter_name.as_deref(), kept.resolved_at), (None, None, Some(5)));
}

async fn reports_stay_within_their_bounds(store: Store) {
    accounts(&store, &["Ada", "Bob"]).await;
    let m = &store.moderation;
    let tight = ReportBounds { per_reporter: 2, per_address: 3, total: 4 };
    let add = |r: NewReport| async move { m.report(&r, &tight).await.unwrap() };
    assert!(matches!(add(report("id-Ada", "t1", None, 1)).await, Reported::Added(_)));
    let Reported::Added(second) = add(report("id-Ada", "t2", None, 2)).await else { panic!() };
    assert_eq!(add(report("id-Ada", "t3", None, 3)).await, Reported::Full, "per reporter");
    m.resolve(second, 4).await.unwrap();
    assert!(matches!(add(report("id-Ada", "t3", None, 5)).await, Reported::Added(_)), "open ones count");
    assert!(matches!(add(report("id-Bob", "t1", None, 6)).await, Reported::Added(_)));
    assert_eq!(add(report("id-Bob", "t2", None, 7)).await, Reported::Full, "per address (3 open)");
    let elsewhere = NewReport { address: "other".into(), ..report("id-Bob", "t2", None, 8) };
    assert!(matches!(add(elsewhere).await, Reported::Added(_)));
    let third = NewReport { address: "third".into(), ..report("x", "t9", None, 9) };
    assert_eq!(add(third).await, Reported::Full, "in all (4 open)");
    assert_eq!(m.reports(true, 100).await.unwrap().len(), 4, "nothing more kept");
}

async fn reports_are_listed_newest_first_with_the_count_against_the_account(store: Store) {
    accounts(&store, &["Ada", "Bob", "Cy"]).await;
    let m = &store.moderation;
    for r in [
        report("id-Ada", "name:id-Cy", Some("id-Cy"), 10),
        report("id-Bob", "name:id-Cy", Some("id-Cy"), 30),
        report("id-Cy", "name:id-Ada", Some("id-Ada"), 20),
    ] {
        assert!(matches!(m.report(&r, &ROOMY).await.unwrap(), Reported::Added(_)));
    }
    store.accounts.rename("id-Cy", "Cyrus", "cyrus").await.unwrap();
    let open = m.reports(true, 10).await.unwrap();
    type Seen<'a> = (i64, &'a str, Option<&'a str>, Option<&'a str>, u64);
    let seen: Vec<Seen> = open
        .iter()
        .map(|r| (r.at, r.reporter.as_str(), r.reporter_name.as_deref(), r.target_now.as_deref(), r.against))
        .collect();
    assert_eq!(
        seen,
        vec![
            (30, "id-Bob", Some("Bob"), Some("Cyrus"), 2),
            (20, "id-Cy", Some("Cyrus"), Some("Ada"), 1),
            (10, "id-Ada", Some("Ada"), Some("Cyrus"), 2),
        ],
        "newest first; names as they are now; open reports against the account"
    );
    assert_eq!(open[0].target_name, "Shown", "the name as reported");
    assert_eq!(m.reports(true, 2).await.unwrap().len(), 2, "the limit");
    m.resolve(open[0].id, 40).await.unwrap();
    let open = m.reports(true, 10).await.unwrap();
    assert_eq!(open.iter().map(|r| r.against).collect::<Vec<_>>(), vec![1, 1], "resolved ones do not count");
    assert_eq!(m.reports(false, 10).await.unwrap().len(), 3, "all of them");
    // Each report says its account's sanctions now.
    assert!(open.iter().all(|r| r.sanctions == Sanctions::default()));
    m.mute("id-Cy", 5_000).await.unwrap();
    m.close("id-Ada", 6_000).await.unwrap();
    let sanctions: Vec<Sanctions> = m.reports(false, 10).await.unwrap().iter().map(|r| r.sanctions).collect();
    let cy = Sanctions { muted_until: Some(5_000), closed_at: None };
    let ada = Sanctions { muted_until: None, closed_at: Some(6_000) };
    assert_eq!(sanctions, vec![cy, ada, cy]);
}

async fn a_report_is_resolved_once(store: Store) {
    let m = &store.moderation;
    let Reported::Added(id) = m.report(&report("r", "t", None, 1), &ROOMY).await.unwrap() else { panic!() };
    assert!(!m.resolve(id + 1000, 2).await.unwrap(), "no such report");
    assert!(m.resolve(id, 2).await.unwrap());
    assert!(!m.resolve(id, 3).await.unwrap(), "once");
    assert_eq!(m.reports(false, 10).await.unwrap()[0].resolved_at, Some(2), "when first resolved");
    assert!(m.reports(true, 10).await.unwrap().is_empty());
}

async fn a_mute_is_set_replaced_and_lifted(store: Store) {
    accounts(&store, &["Ada"]).await;
    let m = &store.moderation;
    assert_eq!(m.sanctions("id-Ada").await.unwrap(), Sanctions::default());
    m.mute("id-Ada", 5_000).await.unwrap();
    assert_eq!(m.sanctions("id-Ada").await.unwrap(), Sanctions { muted_until: Some(5_000), closed_at: None });
    m.mute("id-Ada", 1).await.unwrap();
    assert_eq!(m.sanctions("id-Ada").await.unwrap().muted_until, Some(1), "replaced (lifted: in the past)");
    assert!(m.mute("nobody", 5).await.is_err(), "an account that does not exist");
}

async fn closing_an_account_ends_its_sessions_once(store: Store) {
    accounts(&store, &["Ada", "Bob"]).await;
    for (s, a) in [("s1", "id-Ada"), ("s2", "id-Ada"), ("s3", "id-Bob")] {
        store.accounts.create_session(s, a, 1_000, 0, 100).await.unwrap();
    }
    let m = &store.moderation;
    m.mute("id-Ada", 9).await.unwrap();
    assert!(m.close("id-Ada", 2_000).await.unwrap());
    assert!(!m.close("id-Ada", 3_000).await.unwrap(), "once");
    assert_eq!(m.sanctions("id-Ada").await.unwrap(), Sanctions { muted_until: Some(9), closed_at: Some(2_000) });
    for s in ["s1", "s2"] {
        assert_eq!(store.accounts.session(s, 1_100, 0, 0).await.unwrap(), None, "its sessions ended");
    }
    assert!(store.accounts.session("s3", 1_100, 0, 0).await.unwrap().is_some(), "not another's");
    assert_eq!(m.sanctions("id-Bob").await.unwrap(), Sanctions::default());
}

async fn an_account_is_renamed_unless_the_name_is_taken(store: Store) {
    accounts(&store, &["Ada", "Bob"]).await;
    assert!(!store.accounts.rename("id-Ada", "BOB", "bob").await.unwrap(), "another's key");
    assert_eq!(store.accounts.by_key("ada").await.unwrap().unwrap().name, "Ada", "unchanged");
    assert!(store.accounts.rename("id-Ada", "ADA", "ada").await.unwrap(), "its own key, written otherwise");
    assert!(store.accounts.rename("id-Ada", "Ann", "ann").await.unwrap());
    assert_eq!(store.accounts.by_key("ada").await.unwrap(), None, "the old name is free");
    let ann = store.accounts.by_id("id-Ada").await.unwrap().unwrap();
    assert_eq!((ann.name.as_str(), ann.name_key.as_str()), ("Ann", "ann"));
    assert!(!store.accounts.rename("nobody", "Zed", "zed").await.unwrap(), "no such account");
}

async fn a_chat_line_keeps_its_author_account(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    let caps = ChatCaps { players: 10, known: 10, others: 10 };
    let line = |author: Option<&str>| ChatMessage {
        seq: 0,
        seat: Some(0),
        name: "Ada".into(),
        text: "hi".into(),
        at: 1,
        spectator: None,
        account: false,
        member: author.is_some(),
        author_account: author.map(str::to_string),
        author: "seat:0".into(),
        kept: false,
    };
    store.chat.add("g", &line(Some("id-Ada")), &caps).await.unwrap();
    store.chat.add("g", &line(None), &caps).await.unwrap();
    let kept = store.chat.messages("g").await.unwrap();
    let authors: Vec<(bool, Option<&str>)> = kept.iter().map(|m| (m.member, m.author_account.as_deref())).collect();
    assert_eq!(authors, vec![(true, Some("id-Ada")), (false, None)]);
}
