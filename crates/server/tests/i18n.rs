//! The interface's languages (web/i18n/LANG.ftl): every file is valid
//! Fluent; every message of one language is in the others; every message
//! the page asks for (web/js, web/index.html, the tutorial and puzzle
//! files), every rule option's (the engine's RULE_OPTIONS) and every error
//! code's exists; and the server says its refusals in the language a
//! request asks for.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use carcassonne::RULE_OPTIONS;
use carcassonne_server::i18n::{self, Lang};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

fn keys(lang: Lang) -> BTreeSet<String> {
    i18n::message_keys(&i18n::source(lang))
}

#[test]
fn every_file_is_fluent_and_not_empty() {
    for lang in Lang::ALL {
        let src = i18n::source(lang);
        assert!(src.len() > 1000, "{}.ftl is missing or nearly empty", lang.code());
        if let Err(errs) = i18n::parse(&src) {
            panic!("{}.ftl does not parse: {errs:#?}", lang.code());
        }
    }
}

#[test]
fn every_message_is_in_every_language() {
    let en = keys(Lang::En);
    assert!(en.len() > 100, "en.ftl has only {} messages", en.len());
    for lang in [Lang::De, Lang::Fr] {
        let other = keys(lang);
        let missing: Vec<_> = en.difference(&other).collect();
        let extra: Vec<_> = other.difference(&en).collect();
        assert!(missing.is_empty(), "in en.ftl, not in {}.ftl: {missing:?}", lang.code());
        assert!(extra.is_empty(), "in {}.ftl, not in en.ftl: {extra:?}", lang.code());
    }
}

/// The quoted ids after `t(` (not a longer name ending in t), `data-i18n="…"`
/// and `data-i18n-attr="attr:id;…"` in a source.
fn used_keys(src: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let bytes = src.as_bytes();
    let id_at = |from: usize, quote: u8| -> Option<String> {
        let end = src[from..].find(quote as char)? + from;
        let id = &src[from..end];
        id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)).then(|| id.to_string())
    };
    for (i, _) in src.match_indices("t(") {
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || b"_$.".contains(&bytes[i - 1])) {
            continue;
        }
        let q = bytes.get(i + 2).copied();
        if let Some(q @ (b'\'' | b'"')) = q {
            if let Some(id) = id_at(i + 3, q) {
                found.insert(id);
            }
        }
    }
    for (i, m) in src.match_indices("data-i18n=\"") {
        if let Some(id) = id_at(i + m.len(), b'"') {
            found.insert(id);
        }
    }
    for (i, m) in src.match_indices("data-i18n-attr=\"") {
        let from = i + m.len();
        if let Some(end) = src[from..].find('"') {
            for pair in src[from..from + end].split(';') {
                if let Some((_, id)) = pair.split_once(':') {
                    found.insert(id.to_string());
                }
            }
        }
    }
    found
}

#[test]
fn every_message_the_page_asks_for_exists() {
    let en = keys(Lang::En);
    let mut files: Vec<PathBuf> = std::fs::read_dir(web().join("js")).unwrap().map(|e| e.unwrap().path()).collect();
    files.push(web().join("index.html"));
    let mut asked = 0;
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "js" || e == "html")) {
        let src = std::fs::read_to_string(f).unwrap();
        for id in used_keys(&src) {
            asked += 1;
            assert!(en.contains(&id), "{} asks for `{id}`, which en.ftl lacks", f.display());
        }
    }
    assert!(asked > 100, "only {asked} messages asked for: the scan is broken");
}

#[test]
fn the_scan_finds_what_it_should() {
    let src = r#"t('a-b'); sort('x'); x.t('no'); t("c", { n }); <a data-i18n="d">; <b data-i18n-attr="title:e;aria-label:f.g">"#;
    let found: Vec<String> = used_keys(src).into_iter().collect();
    assert_eq!(found, ["a-b", "c", "d", "e", "f.g"]);
}

#[test]
fn every_rule_option_has_its_words_in_every_language() {
    for lang in Lang::ALL {
        let have = keys(lang);
        for o in &RULE_OPTIONS {
            assert_eq!(o.key, format!("rule-{}", o.name));
            for k in o.message_keys() {
                assert!(have.contains(&k), "{}.ftl lacks {k} (rule option {})", lang.code(), o.name);
            }
            let about = format!("{}.about", o.key);
            assert!(have.contains(&about), "{}.ftl lacks {about}", lang.code());
            // Formatted by the server, in words of their own.
            let label = i18n::text(lang, o.key, &[]).unwrap();
            assert!(!label.is_empty());
            if lang != Lang::En {
                assert_ne!(label, i18n::text(Lang::En, o.key, &[]).unwrap(), "{} untranslated", o.key);
            }
        }
        for k in ["rule-value-on", "rule-value-off", "rule-value-no-limit"] {
            assert!(have.contains(k), "{}.ftl lacks {k}", lang.code());
        }
    }
}

/// The error codes `ApiError::code` returns, read from its source.
fn error_codes() -> BTreeSet<String> {
    let src = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/error.rs")).unwrap();
    let start = src.find("pub fn code(&self)").unwrap();
    let end = start + src[start..].find("pub fn status").unwrap();
    src[start..end].split("=> \"").skip(1).map(|rest| rest[..rest.find('"').unwrap()].to_string()).collect()
}

#[test]
fn every_error_code_has_its_sentence_in_every_language() {
    let codes = error_codes();
    assert!(codes.len() > 20 && codes.contains("not_your_turn"), "{codes:?}");
    for lang in Lang::ALL {
        let have = keys(lang);
        for code in codes.iter().map(String::as_str).chain(["network", "unknown"]) {
            assert!(have.contains(&format!("error-{code}")), "{}.ftl lacks error-{code}", lang.code());
        }
    }
}

#[test]
fn accept_language_is_read_by_its_weights() {
    assert_eq!(Lang::from_accept_language("de-DE,de;q=0.9,en;q=0.8"), Lang::De);
    assert_eq!(Lang::from_accept_language("en-GB, fr;q=0.5"), Lang::En);
    assert_eq!(Lang::from_accept_language("es, fr-CA;q=0.7, de;q=0.6"), Lang::Fr);
    assert_eq!(Lang::from_accept_language("fr;q=0.2, de;q=0.9"), Lang::De);
    assert_eq!(Lang::from_accept_language("fr;q=0, it"), Lang::En);
    assert_eq!(Lang::from_accept_language(""), Lang::En);
    assert_eq!(Lang::from_accept_language(&"xx,".repeat(10_000)), Lang::En);
}

async fn get(app: &axum::Router, uri: &str, lang: Option<&str>) -> (StatusCode, Value) {
    let mut req = Request::builder().uri(uri);
    if let Some(l) = lang {
        req = req.header("accept-language", l);
    }
    let resp = app.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[tokio::test]
async fn refusals_are_said_in_the_language_asked_for() {
    let (app, _) = common::test_app();
    let uri = "/api/rules/not-a-rules-code";
    let (status, en) = get(&app, uri, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let code = en["error"].as_str().unwrap().to_string();
    let (_, en_asked) = get(&app, uri, Some("en-US,en;q=0.9")).await;
    assert_eq!(en_asked, en, "English is left as the server says it");
    for (lang, header) in [(Lang::De, "de-DE,de;q=0.9,en;q=0.5"), (Lang::Fr, "fr-FR")] {
        let (status, v) = get(&app, uri, Some(header)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(v["error"], code.as_str(), "the code stays");
        assert_eq!(v["message"], i18n::error_text(lang, &code, None).unwrap().as_str());
        assert_ne!(v["message"], en["message"]);
        assert_eq!(v["detail"], en["message"], "the server's own sentence is kept");
    }
    // A successful answer is not touched.
    let (status, ok) = get(&app, "/api/options", Some("de")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(ok["options"].as_array().unwrap().iter().all(|o| o["message"].as_str().unwrap().starts_with("rule-")));
}

#[test]
fn the_rules_summary_reads_in_every_language_as_in_english() {
    use carcassonne::Rules;
    let sets = [
        "standard",
        "beginner",
        "first-edition",
        "standard,river=true,abbot=true,hand=3,hand_visible=true,board_limit=7x7,border_completes=true",
        "standard,draw_at_turn_end=true,unplaceable=reshuffle,hole_bonus_turn=true,incomplete_scoring=false",
        "standard,farms=per-farm-once,first_player=random,small_city=true",
    ];
    for text in sets {
        let rules = Rules::parse(text).unwrap();
        let en = i18n::rules_summary(Lang::En, &rules);
        let engine = rules.summary();
        assert_eq!(en.len(), engine.len());
        for lang in [Lang::De, Lang::Fr] {
            let other = i18n::rules_summary(lang, &rules);
            assert_eq!(other.len(), en.len(), "{text} in {}", lang.code());
            for ((t1, l1), (t2, l2)) in en.iter().zip(&other) {
                assert_eq!(t1, t2, "the titles stay the page's keys");
                assert_eq!(l1.len(), l2.len(), "{text}, {t1}, in {}: {l2:?}", lang.code());
                for line in l2 {
                    assert!(!line.starts_with("rs-") && !l1.contains(line), "{text}, {t1}, in {}: {line}", lang.code());
                }
            }
            // Numbers from the rule set reach the words.
            if rules.hand > 1 {
                assert!(other[0].1.iter().any(|l| l.contains(&rules.hand.to_string())), "{other:?}");
            }
        }
    }
}

#[tokio::test]
async fn the_rules_page_comes_in_the_language_asked_for() {
    let (app, _) = common::test_app();
    let code = carcassonne::Rules::parse("standard,river=true").unwrap().to_code();
    let uri = format!("/api/rules/{code}");
    let (_, en) = get(&app, &uri, None).await;
    let (_, de) = get(&app, &uri, Some("de")).await;
    assert_eq!(en["code"], de["code"]);
    assert_eq!(en["summary"].as_array().unwrap().len(), de["summary"].as_array().unwrap().len());
    assert_eq!(de["summary"][0]["title"], "Setup");
    let first = de["summary"][0]["lines"][0].as_str().unwrap();
    assert_eq!(first, i18n::text(Lang::De, "rs-setup-river", &[]).unwrap());
    assert_ne!(first, en["summary"][0]["lines"][0].as_str().unwrap());
}
