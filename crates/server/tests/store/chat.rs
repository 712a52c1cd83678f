//! `ChatRepo` (a game's chat and its settings) and `RematchRepo` (who
//! accepted a game's rematch, and the new game, made once).

use carcassonne_server::{ChatMessage, ChatSettings, Rematch, Store};

use crate::{new_game, race, wins};

conformance!(
    messages_are_numbered_in_order_per_game_up_to_the_most,
    messages_written_at_once_are_numbered_once_each,
    a_chat_is_turned_off_and_its_download_agreed_to_per_seat,
    a_rematch_is_accepted_once_per_seat_and_made_once,
    a_rematch_claimed_from_two_servers_at_once_is_made_once,
    a_game_s_chat_and_rematch_go_with_it,
    consent_withdrawn_for_a_game_that_is_gone_is_refused,
    a_chat_bounded_past_any_count_takes_every_message,
);

fn line(seat: Option<u8>, text: &str, at: i64) -> ChatMessage {
    let name = seat.map_or("Spectator 1".to_string(), |s| format!("Seat {s}"));
    let author = seat.map_or("spectator-hash".to_string(), |s| format!("seat:{s}"));
    ChatMessage { seq: 0, seat, name, text: text.into(), at, author }
}

async fn messages_are_numbered_in_order_per_game_up_to_the_most(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    store.games.create(&new_game("h")).await.unwrap();
    assert!(store.chat.messages("g").await.unwrap().is_empty());
    let said = [line(Some(0), "hello", 10), line(None, "nice move", 11), line(Some(1), "thanks", 11)];
    for (i, m) in said.iter().enumerate() {
        let numbered = ChatMessage { seq: 99, ..m.clone() };
        assert_eq!(
            store.chat.add("g", &numbered, 4).await.unwrap(),
            Some(i as u64 + 1),
            "its number, not the one given"
        );
    }
    assert_eq!(store.chat.add("h", &line(Some(0), "other game", 12), 4).await.unwrap(), Some(1), "each game its own");
    assert_eq!(store.chat.add("g", &line(Some(0), "four", 13), 4).await.unwrap(), Some(4));
    assert_eq!(store.chat.add("g", &line(Some(0), "five", 14), 4).await.unwrap(), None, "the chat is full");
    let kept = store.chat.messages("g").await.unwrap();
    let expected: Vec<ChatMessage> = said
        .iter()
        .chain([&line(Some(0), "four", 13)])
        .enumerate()
        .map(|(i, m)| ChatMessage { seq: i as u64 + 1, ..m.clone() })
        .collect();
    assert_eq!(kept, expected, "in order, as written (the author too)");
    assert_eq!(store.chat.messages("h").await.unwrap().len(), 1);
    assert!(store.chat.messages("nope").await.unwrap().is_empty());
    assert!(store.chat.add("nope", &line(Some(0), "?", 1), 4).await.is_err(), "a game that is gone");
}

async fn messages_written_at_once_are_numbered_once_each(stores: [Store; 2]) {
    stores[0].games.create(&new_game("g")).await.unwrap();
    let numbers = race(&stores, 8, |i, store| async move {
        store.chat.add("g", &line(Some(i as u8 % 2), &format!("m{i}"), i as i64), 100).await.unwrap()
    })
    .await;
    let mut numbers: Vec<u64> = numbers.into_iter().map(Option::unwrap).collect();
    numbers.sort();
    assert_eq!(numbers, (1..=8).collect::<Vec<_>>(), "no gap, no number twice");
    // Up to the most, at once: room for three more.
    let room = race(&stores, 8, |i, store| async move {
        store.chat.add("g", &line(None, &format!("n{i}"), 20), 11).await.unwrap().is_some()
    })
    .await;
    assert_eq!(wins(&room), 3, "{room:?}");
    let kept = stores[1].chat.messages("g").await.unwrap();
    assert_eq!(kept.iter().map(|m| m.seq).collect::<Vec<_>>(), (1..=11).collect::<Vec<_>>());
}

async fn a_chat_is_turned_off_and_its_download_agreed_to_per_seat(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    store.games.create(&new_game("h")).await.unwrap();
    assert_eq!(store.chat.settings("g").await.unwrap(), ChatSettings::default());
    store.chat.set_off("g").await.unwrap();
    store.chat.set_off("g").await.unwrap();
    assert_eq!(store.chat.settings("g").await.unwrap(), ChatSettings { off: true, consent: vec![] }, "off, once");
    store.chat.set_consent("h", 3, true).await.unwrap();
    store.chat.set_consent("h", 1, true).await.unwrap();
    store.chat.set_consent("h", 1, true).await.unwrap();
    assert_eq!(store.chat.settings("h").await.unwrap(), ChatSettings { off: false, consent: vec![1, 3] }, "by seat");
    store.chat.set_consent("h", 3, false).await.unwrap();
    store.chat.set_consent("h", 0, false).await.unwrap();
    assert_eq!(store.chat.settings("h").await.unwrap().consent, [1], "agreed no longer");
    assert_eq!(store.chat.settings("g").await.unwrap().consent, Vec::<u8>::new(), "each game its own");
    assert_eq!(store.chat.settings("nope").await.unwrap(), ChatSettings::default());
    assert!(store.chat.set_off("nope").await.is_err(), "a game that is gone");
    assert!(store.chat.set_consent("nope", 0, true).await.is_err(), "a game that is gone");
}

async fn a_rematch_is_accepted_once_per_seat_and_made_once(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    assert_eq!(store.rematches.get("g").await.unwrap(), Rematch::default());
    assert!(store.rematches.accept("g", 1, "hash-1").await.unwrap());
    assert!(!store.rematches.accept("g", 1, "hash-x").await.unwrap(), "accepted already");
    assert!(store.rematches.accept("g", 0, "hash-0").await.unwrap());
    let both = vec![(0, "hash-0".to_string()), (1, "hash-1".to_string())];
    assert_eq!(store.rematches.get("g").await.unwrap(), Rematch { accepted: both.clone(), game: None }, "by seat");
    assert!(store.rematches.claim("g", "g2").await.unwrap());
    assert!(!store.rematches.claim("g", "g3").await.unwrap(), "made once");
    assert_eq!(store.rematches.get("g").await.unwrap(), Rematch { accepted: both, game: Some("g2".into()) });
    assert_eq!(store.rematches.get("nope").await.unwrap(), Rematch::default());
    assert!(store.rematches.accept("nope", 0, "h").await.is_err(), "a game that is gone");
    assert!(store.rematches.claim("nope", "n2").await.is_err(), "a game that is gone");
}

async fn a_rematch_claimed_from_two_servers_at_once_is_made_once(stores: [Store; 2]) {
    stores[0].games.create(&new_game("g")).await.unwrap();
    let accepted =
        race(&stores, 4, |i, store| async move { store.rematches.accept("g", 0, &format!("h{i}")).await.unwrap() })
            .await;
    assert_eq!(wins(&accepted), 1, "a seat accepts once: {accepted:?}");
    let claims =
        race(&stores, 8, |i, store| async move { store.rematches.claim("g", &format!("n{i}")).await.unwrap() }).await;
    assert_eq!(wins(&claims), 1, "{claims:?}");
    let made = claims.iter().position(|c| *c).unwrap();
    assert_eq!(stores[1].rematches.get("g").await.unwrap().game, Some(format!("n{made}")), "the winner's game");
}

async fn a_game_s_chat_and_rematch_go_with_it(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    store.chat.add("g", &line(Some(0), "hi", 1), 9).await.unwrap();
    store.chat.set_off("g").await.unwrap();
    store.chat.set_consent("g", 0, true).await.unwrap();
    store.rematches.accept("g", 0, "h").await.unwrap();
    store.rematches.claim("g", "g2").await.unwrap();
    assert_eq!(store.games.expire(i64::MAX).await.unwrap(), ["g"]);
    store.games.create(&new_game("g")).await.unwrap();
    assert!(store.chat.messages("g").await.unwrap().is_empty(), "a new game of that id starts afresh");
    assert_eq!(store.chat.settings("g").await.unwrap(), ChatSettings::default());
    assert_eq!(store.rematches.get("g").await.unwrap(), Rematch::default());
    assert_eq!(store.chat.add("g", &line(Some(0), "hi", 2), 9).await.unwrap(), Some(1));
}

/// Consent withdrawn for a game that is gone is refused, as every other
/// write of its chat and rematch is (`set_consent(.., true)`, `set_off`,
/// `add`, `accept`, `claim`).
async fn consent_withdrawn_for_a_game_that_is_gone_is_refused(store: Store) {
    let withdrawn = store.chat.set_consent("nope", 0, false).await;
    assert!(withdrawn.is_err(), "{withdrawn:?}");
}

/// A bound past any count (the most a `usize` holds) is no bound.
async fn a_chat_bounded_past_any_count_takes_every_message(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    assert_eq!(store.chat.add("g", &line(Some(0), "hi", 1), usize::MAX).await.unwrap(), Some(1));
}
