//! The interface's words in English, German and French: the Fluent files
//! `web/i18n/LANG.ftl` (the same ones the page reads, web/js/i18n.js),
//! embedded in the binary and formatted here with `fluent-bundle` for the
//! words the server says itself (error messages by code; rule options'
//! labels and explanations by their engine key, `RuleOption::key`).

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/i18n/"]
struct Files;

/// A language of the interface.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    De,
    Fr,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::De, Lang::Fr];

    /// Its tag and file name: `en`, `de`, `fr`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::Fr => "fr",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        let base = code.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == base)
    }

    /// The language an `Accept-Language` header asks for first (by its
    /// q-values) among these, else English. Reads at most 16 entries.
    pub fn from_accept_language(header: &str) -> Lang {
        let mut best: Option<(f32, usize, Lang)> = None;
        for (i, item) in header.split(',').take(16).enumerate() {
            let mut parts = item.split(';');
            let Some(lang) = parts.next().and_then(Lang::from_code) else { continue };
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()))
                .unwrap_or(1.0);
            if q > 0.0 && best.is_none_or(|(bq, bi, _)| q > bq || (q == bq && i < bi)) {
                best = Some((q, i, lang));
            }
        }
        best.map_or(Lang::En, |(_, _, l)| l)
    }
}

/// A language's file as it is.
pub fn source(lang: Lang) -> String {
    Files::get(&format!("{}.ftl", lang.code()))
        .map(|f| String::from_utf8_lossy(&f.data).into_owned())
        .unwrap_or_default()
}

/// Parses a file: its resource, or the Fluent parser's complaints.
///
/// # Errors
/// The file is not valid Fluent (each error as the parser says it).
pub fn parse(src: &str) -> Result<FluentResource, Vec<String>> {
    FluentResource::try_new(src.to_string()).map_err(|(_, errs)| errs.iter().map(|e| format!("{e:?}")).collect())
}

/// Every message of a file, as `id` and `id.attribute` (terms start with `-`).
pub fn message_keys(src: &str) -> BTreeSet<String> {
    use fluent_syntax::ast::Entry;
    let Ok(res) = parse(src) else { return BTreeSet::new() };
    let mut keys = BTreeSet::new();
    for entry in res.entries() {
        let (id, attrs, value) = match entry {
            Entry::Message(m) => (m.id.name.to_string(), &m.attributes, m.value.is_some()),
            Entry::Term(t) => (format!("-{}", t.id.name), &t.attributes, true),
            _ => continue,
        };
        for a in attrs {
            keys.insert(format!("{id}.{}", a.id.name));
        }
        if value {
            keys.insert(id);
        }
    }
    keys
}

fn bundle(lang: Lang) -> FluentBundle<FluentResource> {
    let id: LanguageIdentifier = lang.code().parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // No Unicode isolation marks around placeables: the words go into
    // JSON and plain text.
    bundle.set_use_isolating(false);
    match parse(&source(lang)) {
        Ok(res) => {
            if let Err(errs) = bundle.add_resource(res) {
                tracing::error!(lang = lang.code(), ?errs, "interface messages clash");
            }
        }
        Err(errs) => tracing::error!(lang = lang.code(), ?errs, "interface messages do not parse"),
    }
    bundle
}

static BUNDLES: LazyLock<Vec<FluentBundle<FluentResource>>> =
    LazyLock::new(|| Lang::ALL.into_iter().map(bundle).collect());

/// A message's words in a language (`id` or `id.attribute`), with its
/// arguments; `None` when the language has no such message.
pub fn text(lang: Lang, key: &str, args: &[(&str, FluentValue<'_>)]) -> Option<String> {
    let bundle = &BUNDLES[Lang::ALL.iter().position(|&l| l == lang)?];
    let (id, attr) = match key.split_once('.') {
        Some((id, attr)) => (id, Some(attr)),
        None => (key, None),
    };
    let msg = bundle.get_message(id)?;
    let pattern = match attr {
        Some(a) => msg.get_attribute(a)?.value(),
        None => msg.value()?,
    };
    let mut fargs = FluentArgs::new();
    for (k, v) in args {
        fargs.set(*k, v.clone());
    }
    let mut errors = vec![];
    let out: Cow<'_, str> = bundle.format_pattern(pattern, Some(&fargs), &mut errors);
    errors.is_empty().then(|| out.into_owned())
}

/// An error's sentence for people in a language, by its stable code
/// (`error-CODE`), with what the body tells (`version`, `rule`); `None`
/// when the language has no message for the code.
pub fn error_text(lang: Lang, code: &str, version: Option<u64>) -> Option<String> {
    let mut args: Vec<(&str, FluentValue<'_>)> = vec![];
    if let Some(v) = version {
        args.push(("version", FluentValue::from(v)));
    }
    text(lang, &format!("error-{code}"), &args)
}

/// The rules page's summary ([`carcassonne::Rules::summary`]) in a
/// language: the same sections (their English titles kept, as keys for the
/// page) and the same sentences, from the `rs-` messages. English is the
/// engine's own.
pub fn rules_summary(lang: Lang, rules: &carcassonne::Rules) -> Vec<(&'static str, Vec<String>)> {
    use carcassonne::{FarmRule, FirstPlayer, Unplaceable};
    if lang == Lang::En {
        return rules.summary().into_iter().map(|s| (s.title, s.lines)).collect();
    }
    let say = |key: &str, args: &[(&str, FluentValue<'_>)]| text(lang, key, args).unwrap_or_else(|| key.to_string());
    let s = |key: &str| say(key, &[]);
    let n = |v: u8| FluentValue::from(v);
    let yes = |b: bool| FluentValue::from(if b { "yes" } else { "no" });
    let farmers = rules.farms != FarmRule::Off;

    let mut setup = vec![s(if rules.river { "rs-setup-river" } else { "rs-setup-start" })];
    setup.push(s(if rules.abbot { "rs-followers-abbot" } else { "rs-followers" }));
    if rules.hand > 1 {
        setup.push(say("rs-hand", &[("n", n(rules.hand)), ("shown", yes(rules.hand_visible))]));
    } else if rules.draw_at_turn_end {
        setup.push(s("rs-draw-first"));
    }
    if let Some((w, h)) = rules.board_limit {
        setup.push(say("rs-table", &[("w", n(w)), ("h", n(h))]));
    }
    setup.push(s(match rules.first_player {
        FirstPlayer::Seat0 => "rs-first-seat",
        FirstPlayer::Random => "rs-first-random",
    }));

    let mut turn = vec![if rules.hand > 1 {
        say("rs-turn-hand", &[("n", n(rules.hand))])
    } else if rules.draw_at_turn_end {
        s("rs-turn-draw-end")
    } else {
        s("rs-turn-draw")
    }];
    turn.push(s(match rules.unplaceable {
        Unplaceable::Discard => "rs-unplaceable-discard",
        Unplaceable::Reshuffle => "rs-unplaceable-reshuffle",
    }));
    turn.push(s(if farmers { "rs-follower-farmers" } else { "rs-follower-no-farmers" }));
    if rules.abbot {
        turn.push(s("rs-abbot"));
    }
    turn.push(s("rs-complete"));
    if rules.hole_bonus_turn {
        turn.push(s("rs-hole"));
    }
    if rules.hand > 1 {
        turn.push(say("rs-draw-back", &[("n", n(rules.hand))]));
    } else if rules.draw_at_turn_end {
        turn.push(s("rs-draw-next"));
    }

    let edge = yes(rules.border_completes);
    let roads = vec![say("rs-road-complete", &[("edge", edge.clone())]), s("rs-road-score")];
    let mut cities = vec![say("rs-city-complete", &[("edge", edge)]), s("rs-city-score")];
    if rules.small_city {
        cities.push(s("rs-small-city"));
    }
    let mut cloisters = vec![s("rs-cloister")];
    if rules.abbot {
        cloisters.push(s("rs-gardens"));
    }
    let farm = rules.farms.name();
    let example = s(&format!("rs-farms-example-{farm}"));
    let farms = if farmers {
        let summary = s(&format!("rs-farms-summary-{farm}"));
        vec![s("rs-farm-what"), say("rs-farm-end", &[("summary", FluentValue::from(summary))]), example]
    } else {
        vec![s("rs-no-farmers"), example]
    };
    let mut end = vec![s(if rules.hand_mode() { "rs-end-hand" } else { "rs-end-last" })];
    end.push(if rules.incomplete_scoring {
        say("rs-incomplete", &[("gardens", yes(rules.abbot))])
    } else {
        s("rs-incomplete-none")
    });
    if farmers {
        end.push(s("rs-farms-then"));
    }
    end.push(s("rs-winner"));
    // The engine's sections, in its order and with its titles.
    let titles: Vec<&'static str> = rules.summary().into_iter().map(|s| s.title).collect();
    titles.into_iter().zip([setup, turn, roads, cities, cloisters, farms, end]).collect()
}
