//! `ChatRepo` (a game's chat, its parts' caps, its spectators' numbers and
//! its settings) and `RematchRepo` (who accepted a game's rematch, and the
//! new game, made once).

use carcassonne_server::{ChatCaps, ChatMessage, ChatSettings, Rematch, Store, SPECTATOR_KEYS};

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
    each_part_of_a_chat_has_its_cap_and_each_spectator_their_share,
    a_spectator_is_numbered_by_the_first_key_known,
    spectators_numbered_at_once_get_numbers_of_their_own,
);

fn line(seat: Option<u8>, text: &str, at: i64) -> ChatMessage {
    let name = seat.map_or("Spectator 1".to_string(), |s| format!("Seat {s}"));
    let author = seat.map_or("spectator-hash".to_string(), |s| format!("seat:{s}"));
    ChatMessage {
        seq: 0,
        seat,
        name,
        text: text.into(),
        at,
        spectator: seat.map_or(Some(1), |_| None),
        account: false,
        member: false,
        author_account: None,
        author,
        kept: false,
    }
}

/// A spectator's line by `author` (an address's hash, or an account's);
/// `kept`: a signed-in spectator with a history's, in their reserve.
fn watching(author: &str, text: &str, kept: bool) -> ChatMessage {
    ChatMessage { author: author.into(), account: kept, kept, ..line(None, text, 7) }
}

/// Caps of `n` for every part.
fn caps(n: usize) -> ChatCaps {
    ChatCaps { players: n, known: n, others: n }
}

fn keys(keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| k.to_string()).collect()
}

async fn messages_are_numbered_in_order_per_game_up_to_the_most(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    store.games.create(&new_game("h")).await.unwrap();
    assert!(store.chat.messages("g").await.unwrap().is_empty());
    let said = [line(Some(0), "hello", 10), line(None, "nice move", 11), line(Some(1), "thanks", 11)];
    for (i, m) in said.iter().enumerate() {
        let numbered = ChatMessage { seq: 99, ..m.clone() };
        assert_eq!(
            store.chat.add("g", &numbered, &caps(3)).await.unwrap(),
            Some(i as u64 + 1),
            "its number, not the one given"
        );
    }
    assert_eq!(
        store.chat.add("h", &line(Some(0), "other game", 12), &caps(3)).await.unwrap(),
        Some(1),
        "each game its own"
    );
    assert_eq!(store.chat.add("g", &line(Some(0), "four", 13), &caps(3)).await.unwrap(), Some(4));
    assert_eq!(
        store.chat.add("g", &line(Some(0), "five", 14), &caps(3)).await.unwrap(),
        None,
        "the players' chat is full"
    );
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
    assert!(store.chat.add("nope", &line(Some(0), "?", 1), &caps(3)).await.is_err(), "a game that is gone");
    assert!(store.chat.add("nope", &line(None, "?", 1), &caps(3)).await.is_err(), "a game that is gone");
}

async fn messages_written_at_once_are_numbered_once_each(stores: [Store; 2]) {
    stores[0].games.create(&new_game("g")).await.unwrap();
    let numbers = race(&stores, 8, |i, store| async move {
        store.chat.add("g", &line(Some(i as u8 % 2), &format!("m{i}"), i as i64), &caps(100)).await.unwrap()
    })
    .await;
    let mut numbers: Vec<u64> = numbers.into_iter().map(Option::unwrap).collect();
    numbers.sort();
    assert_eq!(numbers, (1..=8).collect::<Vec<_>>(), "no gap, no number twice");
    // Up to the players' most, at once: room for three more.
    let room = race(&stores, 8, |i, store| async move {
        store.chat.add("g", &line(Some(0), &format!("n{i}"), 20), &caps(11)).await.unwrap().is_some()
    })
    .await;
    assert_eq!(wins(&room), 3, "{room:?}");
    let kept = stores[1].chat.messages("g").await.unwrap();
    assert_eq!(kept.iter().map(|m| m.seq).collect::<Vec<_>>(), (1..=11).collect::<Vec<_>>());
    // Spectators past their most, at once: each taken, numbered once, and
    // the oldest go (each writer holds one: the earliest's goes first).
    let taken = race(&stores, 8, |i, store| async move {
        store.chat.add("g", &watching(&format!("address {i}"), &format!("s{i}"), false), &caps(3)).await.unwrap()
    })
    .await;
    let mut taken: Vec<u64> = taken.into_iter().map(Option::unwrap).collect();
    taken.sort();
    assert_eq!(taken, (12..=19).collect::<Vec<_>>());
    let kept = stores[0].chat.messages("g").await.unwrap();
    let spectators: Vec<u64> = kept.iter().filter(|m| m.seat.is_none()).map(|m| m.seq).collect();
    assert_eq!(spectators, [17, 18, 19], "the latest three");
    assert_eq!(kept.len(), 14, "the players' untouched");
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
    store.chat.add("g", &line(Some(0), "hi", 1), &caps(9)).await.unwrap();
    assert_eq!(store.chat.spectator("g", &keys(&["address"]), 9).await.unwrap(), Some(1));
    assert_eq!(store.chat.spectator("g", &keys(&["other"]), 9).await.unwrap(), Some(2));
    store.chat.set_off("g").await.unwrap();
    store.chat.set_consent("g", 0, true).await.unwrap();
    store.rematches.accept("g", 0, "h").await.unwrap();
    store.rematches.claim("g", "g2").await.unwrap();
    assert_eq!(store.games.expire(i64::MAX).await.unwrap(), ["g"]);
    store.games.create(&new_game("g")).await.unwrap();
    assert!(store.chat.messages("g").await.unwrap().is_empty(), "a new game of that id starts afresh");
    assert_eq!(store.chat.settings("g").await.unwrap(), ChatSettings::default());
    assert_eq!(store.rematches.get("g").await.unwrap(), Rematch::default());
    assert_eq!(store.chat.add("g", &line(Some(0), "hi", 2), &caps(9)).await.unwrap(), Some(1));
    assert_eq!(store.chat.spectator("g", &keys(&["other"]), 9).await.unwrap(), Some(1), "numbered afresh");
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
    assert_eq!(store.chat.add("g", &line(Some(0), "hi", 1), &caps(usize::MAX)).await.unwrap(), Some(1));
    assert_eq!(store.chat.add("g", &line(None, "hi", 1), &caps(usize::MAX)).await.unwrap(), Some(2));
    assert_eq!(store.chat.spectator("g", &keys(&["k"]), usize::MAX).await.unwrap(), Some(1));
}

/// The players' messages, spectators' with a history and the others' have caps
/// of their own: past the players', a player is refused; past a
/// spectators' part's, the oldest message of whoever holds the most in it
/// goes (of equals, the one whose oldest is oldest), so that a crowd takes
/// no one's fair share, nor the other parts.
async fn each_part_of_a_chat_has_its_cap_and_each_spectator_their_share(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    let caps = ChatCaps { players: 2, known: 2, others: 4 };
    let texts = |part: fn(&ChatMessage) -> bool| {
        let store = store.clone();
        async move {
            let all = store.chat.messages("g").await.unwrap();
            all.into_iter().filter(part).map(|m| m.text).collect::<Vec<_>>()
        }
    };
    let others = |m: &ChatMessage| m.seat.is_none() && !m.kept;
    let mut last = 0;
    let say = |m: ChatMessage| {
        let store = store.clone();
        async move { store.chat.add("g", &m, &caps).await.unwrap() }
    };
    for m in [line(Some(0), "p1", 1), line(Some(1), "p2", 2)] {
        assert!(say(m).await.is_some());
    }
    for (author, text) in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1")] {
        let seq = say(watching(author, text, false)).await.unwrap();
        assert!(seq > last);
        last = seq;
    }
    assert_eq!(texts(others).await, ["a1", "a2", "a3", "b1"]);
    assert_eq!(say(watching("c", "c1", false)).await, Some(last + 1));
    assert_eq!(texts(others).await, ["a2", "a3", "b1", "c1"], "the one who holds the most loses their oldest");
    say(watching("a", "a4", false)).await.unwrap();
    assert_eq!(texts(others).await, ["a3", "b1", "c1", "a4"], "their own, again");
    say(watching("b", "b2", false)).await.unwrap();
    assert_eq!(texts(others).await, ["b1", "c1", "a4", "b2"], "of equals, the one whose oldest is oldest");
    // Spectators with a history: a part of their own.
    for text in ["m1", "m2", "n1"] {
        let author = if text.starts_with('m') { "account m" } else { "account n" };
        say(watching(author, text, true)).await.unwrap();
    }
    assert_eq!(texts(|m| m.kept).await, ["m2", "n1"]);
    assert_eq!(texts(others).await, ["b1", "c1", "a4", "b2"], "the others' untouched");
    // A signed-in spectator without a history writes with the others, in their address's share.
    say(ChatMessage { account: true, ..watching("b", "b3", false) }).await.unwrap();
    assert_eq!(texts(others).await, ["c1", "a4", "b2", "b3"]);
    assert_eq!(texts(|m| m.kept).await, ["m2", "n1"], "the reserve untouched");
    // The players: refused past theirs, untouched by the spectators.
    assert_eq!(say(line(Some(0), "p3", 3)).await, None);
    assert_eq!(texts(|m| m.seat.is_some()).await, ["p1", "p2"]);
    // Numbers never given twice: the latest is never the one that goes.
    let seqs: Vec<u64> = store.chat.messages("g").await.unwrap().iter().map(|m| m.seq).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
    // A cap of 0 takes nothing.
    let none = ChatCaps { players: 0, known: 0, others: 0 };
    assert_eq!(store.chat.add("g", &watching("d", "d1", false), &none).await.unwrap(), None);
    assert_eq!(store.chat.add("g", &line(Some(0), "p4", 4), &none).await.unwrap(), None);
    assert_eq!(store.chat.messages("g").await.unwrap().len(), 8, "refusals change nothing");
    let account_line = store.chat.messages("g").await.unwrap().into_iter().find(|m| m.text == "b3").unwrap();
    assert!(account_line.account && !account_line.kept, "kept as written");
}

/// A spectator's number is that of the first of their keys known (an
/// address before a browser), else the next; their other keys are
/// remembered for it, up to `SPECTATOR_KEYS`; past `max` numbered, no new
/// one.
async fn a_spectator_is_numbered_by_the_first_key_known(store: Store) {
    store.games.create(&new_game("g")).await.unwrap();
    store.games.create(&new_game("h")).await.unwrap();
    let number = |k: &[&str], max: usize| {
        let (store, k) = (store.clone(), keys(k));
        async move { store.chat.spectator("g", &k, max).await.unwrap() }
    };
    assert_eq!(number(&["address 1", "browser 1"], 9).await, Some(1));
    assert_eq!(number(&["address 2", "browser 1"], 9).await, Some(1), "the same browser elsewhere");
    assert_eq!(number(&["address 2"], 9).await, Some(1), "the address it came from since");
    assert_eq!(number(&["address 3", "browser 2"], 9).await, Some(2), "both new: another");
    assert_eq!(number(&["address 1", "browser 2"], 9).await, Some(1), "the first key known names them");
    assert_eq!(number(&["browser 2"], 9).await, Some(2), "a key known keeps its number");
    assert_eq!(number(&["account"], 9).await, Some(3));
    assert_eq!(store.chat.spectator("h", &keys(&["address 1"]), 9).await.unwrap(), Some(1), "each game its own");
    // Past the most numbered, no new one; those known still are.
    assert_eq!(number(&["address 4"], 3).await, None);
    assert_eq!(number(&["address 4"], 3).await, None, "and it was not remembered");
    assert_eq!(number(&["address 1"], 3).await, Some(1));
    // Spectator 1 has 3 keys; the next ones are remembered up to the most.
    let room = SPECTATOR_KEYS - 3;
    for i in 0..room + 2 {
        assert_eq!(number(&["browser 1", &format!("far {i}")], 9).await, Some(1));
    }
    assert_eq!(number(&[&format!("far {}", room - 1)], 9).await, Some(1), "remembered");
    assert_eq!(number(&[&format!("far {room}")], 9).await, Some(4), "past the most: not remembered");
    assert!(store.chat.spectator("g", &[], 9).await.is_err(), "no key");
    assert!(store.chat.spectator("nope", &keys(&["address 1"]), 9).await.is_err(), "a game that is gone");
}

/// Spectators numbered at once, on two servers, get numbers of their own;
/// one spectator, at once, one number; the most, at once, is kept.
async fn spectators_numbered_at_once_get_numbers_of_their_own(stores: [Store; 2]) {
    stores[0].games.create(&new_game("g")).await.unwrap();
    let numbers = race(&stores, 16, |i, store| async move {
        store.chat.spectator("g", &[format!("address {i}")], 100).await.unwrap().unwrap()
    })
    .await;
    let mut sorted = numbers.clone();
    sorted.sort();
    assert_eq!(sorted, (1..=16).collect::<Vec<_>>(), "no number twice: {numbers:?}");
    let same = race(&stores, 8, |i, store| async move {
        store.chat.spectator("g", &[format!("address {i}"), "one browser".into()], 100).await.unwrap().unwrap()
    })
    .await;
    assert_eq!(same, numbers[..8], "known by their addresses");
    let one = race(&stores, 8, |_, store| async move {
        store.chat.spectator("g", &keys(&["one newcomer"]), 100).await.unwrap().unwrap()
    })
    .await;
    assert_eq!(one, [17; 8], "one newcomer, one number");
    let room = race(&stores, 8, |i, store| async move {
        store.chat.spectator("g", &[format!("late {i}")], 20).await.unwrap().is_some()
    })
    .await;
    assert_eq!(wins(&room), 3, "{room:?}");
}
