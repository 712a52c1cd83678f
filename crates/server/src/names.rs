//! Player names as the other players will read them.
//!
//! A name is Unicode-normalised (NFC), loses control, format, bidi and
//! invisible characters (right-to-left overrides, zero-width spaces and
//! joiners, soft hyphens, fillers, format controls, blanks that draw
//! nothing), has its runs of spaces made one, and is cut to [`MAX_NAME`]
//! graphemes (user-perceived characters).
//!
//! Names are compared by their key ([`name_key`]): case folded, NFKC, the
//! default-ignorable code points (variation selectors…) left out, then the
//! confusables skeleton of Unicode TR39 (`unicode-security`), so that one
//! player cannot pose as another with `ADA`, `Ada` in full-width letters,
//! Cyrillic or Greek look-alikes (`Аda`), `Ada` with a hidden character,
//! or `rn` for `m`. Accounts are unique by key; two seats of a game may not
//! share one. The names the server gives or shows itself ("Player 2",
//! "Guest 1234", "Spectator 3", "deleted player") and a few that speak for
//! the server ("admin", "moderator"…) are [`reserved`]: nobody signs up or
//! sits down among strangers under them.

use unicode_normalization::UnicodeNormalization;
use unicode_security::confusable_detection::skeleton;
use unicode_segmentation::UnicodeSegmentation;

/// The longest player name, in graphemes.
pub const MAX_NAME: usize = 24;

/// Most code points one grapheme may hold: letters with a few accents and
/// emoji with modifiers fit; a stack of combining marks that would draw
/// over the next line does not.
const MAX_GRAPHEME: usize = 8;

/// Characters that draw nothing or reorder the text around them: controls,
/// format characters (Unicode's `Cf`), fillers.
pub(crate) fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}' // soft hyphen
            | '\u{034F}' // combining grapheme joiner
            | '\u{0600}'..='\u{0605}' | '\u{06DD}' | '\u{070F}' | '\u{0890}' | '\u{0891}' | '\u{08E2}' // Arabic, Syriac format
            | '\u{061C}' // Arabic letter mark
            | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers
            | '\u{17B4}' | '\u{17B5}' // Khmer inherent vowels
            | '\u{180B}'..='\u{180F}' // Mongolian selectors and vowel separator
            | '\u{200B}'..='\u{200F}' // zero-width space, joiners, LRM, RLM
            | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
            | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, bidi isolates
            | '\u{FEFF}' // zero-width no-break space
            | '\u{FFF0}'..='\u{FFFB}' // unassigned specials, interlinear annotation
            | '\u{110BD}' | '\u{110CD}' // Kaithi number signs
            | '\u{13430}'..='\u{1345F}' // Egyptian hieroglyph format controls
            | '\u{1BCA0}'..='\u{1BCA3}' // shorthand format controls
            | '\u{1D173}'..='\u{1D17A}' // musical formatting
            | '\u{E0000}'..='\u{E007F}' // tags
        )
}

/// Characters a name's key leaves out besides the invisible ones: the other
/// default-ignorable code points (variation selectors), which change how a
/// character looks at most.
fn ignorable(c: char) -> bool {
    invisible(c) || matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// Blanks that are not whitespace to Unicode but draw nothing (the Braille
/// blank): spaces, in a name.
fn blank(c: char) -> bool {
    c.is_whitespace() || c == '\u{2800}'
}

/// The name to show for what a client sent, or `None` if nothing readable
/// is left.
pub fn clean_name(raw: &str) -> Option<String> {
    let mut flat = String::with_capacity(raw.len().min(256));
    let mut space = false;
    for c in raw.chars().take(1024).nfc() {
        if blank(c) {
            space = !flat.is_empty();
        } else if !invisible(c) {
            if space {
                flat.push(' ');
                space = false;
            }
            flat.push(c);
        }
    }
    let name: String = flat
        .graphemes(true)
        .filter(|g| g.chars().count() <= MAX_GRAPHEME)
        .take(MAX_NAME)
        .collect::<String>()
        .trim()
        .to_string();
    (!name.is_empty()).then_some(name)
}

/// What two names must not share (two accounts, two seats of a game): the
/// name case folded, in NFKC, its default-ignorable code points left out,
/// its blanks one space, then its confusables skeleton (Unicode TR39)
/// case folded again.
pub fn name_key(name: &str) -> String {
    let folded: String = name.nfkc().flat_map(char::to_lowercase).filter(|c| !ignorable(*c)).collect();
    let mut flat = String::with_capacity(folded.len());
    for word in folded.split(blank).filter(|w| !w.is_empty()) {
        if !flat.is_empty() {
            flat.push(' ');
        }
        flat.push_str(word);
    }
    skeleton(&flat).flat_map(char::to_lowercase).collect()
}

/// Names that speak for the server, by key.
const RESERVED: [&str; 14] = [
    "admin",
    "administrator",
    "root",
    "moderator",
    "mod",
    "system",
    "server",
    "support",
    "staff",
    "carcassonne",
    "deleted player",
    "anonymous",
    "guest",
    "spectator",
];

/// Whether a name is one the server gives or shows itself, or one that
/// speaks for it: nobody takes it for an account, nor sits down under it
/// among strangers (lobby tables, Play now). The words of [`RESERVED`]
/// alone, and "Player N", "Guest N", "Spectator N", "Bot N", all compared
/// by key.
pub fn reserved(name: &str) -> bool {
    let key = name_key(name);
    if RESERVED.iter().any(|r| name_key(r) == key) {
        return true;
    }
    // A word and a number, the number's characters compared by key too
    // ("Player l" looks like "Player 1").
    let Some((word, number)) = key.rsplit_once(' ') else { return false };
    let digits: Vec<String> = ('0'..='9').map(|d| name_key(&d.to_string())).collect();
    let numbered = !number.is_empty() && number.chars().all(|c| digits.contains(&c.to_string()));
    numbered && ["player", "guest", "spectator", "bot"].iter().any(|w| name_key(w) == word)
}

#[cfg(test)]
mod tests {
    use super::{clean_name, name_key, reserved, MAX_NAME};

    #[test]
    fn names_are_cleaned() {
        assert_eq!(clean_name("  Ada \n"), Some("Ada".into()));
        assert_eq!(clean_name("   "), None);
        assert_eq!(clean_name("Ada   \t Lovelace"), Some("Ada Lovelace".into()));
        // A right-to-left override and zero-width characters are dropped.
        assert_eq!(clean_name("\u{202E}adA\u{202C}"), Some("adA".into()));
        assert_eq!(clean_name("A\u{200B}d\u{200D}a\u{FEFF}"), Some("Ada".into()));
        assert_eq!(clean_name("\u{3164}\u{200B}"), None);
        // NFC: `e` + combining acute is the one character `é`.
        assert_eq!(clean_name("Rene\u{301}"), Some("Ren\u{e9}".into()));
    }

    #[test]
    fn names_are_cut_in_graphemes() {
        assert_eq!(clean_name(&"x".repeat(100)).unwrap().chars().count(), MAX_NAME);
        // Flags are one grapheme of two code points each.
        let flags = "\u{1F1EB}\u{1F1F7}".repeat(30);
        assert_eq!(clean_name(&flags).unwrap().chars().count(), 2 * MAX_NAME);
        // A letter under a pile of marks is dropped, the rest kept.
        let zalgo = format!("A{}da", "\u{301}".repeat(50));
        assert_eq!(clean_name(&zalgo), Some("da".into()));
    }

    #[test]
    fn look_alikes_share_a_key() {
        assert_eq!(name_key("Ada"), name_key("ADA"));
        assert_eq!(name_key("Ada"), name_key("\u{FF21}\u{FF44}\u{FF41}"));
        assert_ne!(name_key("Ada"), name_key("Eda"));
    }

    /// The second "Ada Lovelace"s of issue 45, each once refused by nothing.
    #[test]
    fn a_second_ada_lovelace_shares_the_first_ones_key() {
        let ada = name_key("Ada Lovelace");
        let twins = [
            "\u{0410}da Lovelace",   // Cyrillic А
            "Ad\u{0430} Lovelace",   // Cyrillic а
            "\u{0391}da Lovelace",   // Greek Α
            "Ada Lovel\u{0430}ce",   // Cyrillic а inside
            "Ada\u{FE0F} Lovelace",  // a variation selector
            "Ada Love\u{FE00}lace",  // another
            "Ada\u{1BCA1} Lovelace", // shorthand format control
            "Ada Lovelace\u{13430}", // Egyptian hieroglyph format control
            "Ada Lovelace\u{2800}",  // a trailing Braille blank
            "Ada\u{2800}Lovelace",   // a Braille blank for the space
            "Ada  Lovelace",         // two spaces
            "ADA LOVELACE",          // capitals
            "\u{FF21}da Lovelace",   // full-width
        ];
        for twin in twins {
            assert_eq!(name_key(twin), ada, "{twin:?}");
            let shown = clean_name(twin).unwrap();
            assert_eq!(name_key(&shown), ada, "shown as {shown:?}");
        }
        assert_eq!(clean_name("Ada Lovelace\u{2800}").as_deref(), Some("Ada Lovelace"), "no trailing blank shown");
        assert_eq!(clean_name("Ada\u{1BCA1} Lovelace").as_deref(), Some("Ada Lovelace"), "no format control shown");
        assert_ne!(name_key("Ada Lovelace"), name_key("Ada Byron"));
        // Confusables among plain letters too: `rn` and `m`.
        assert_eq!(name_key("Barney"), name_key("Bamey"));
    }

    #[test]
    fn the_servers_own_names_are_reserved() {
        for name in [
            "admin",
            "Admin",
            "\u{0430}dmin",
            "root",
            "Moderator",
            "deleted player",
            "Deleted  Player",
            "Spectator 1",
            "Guest 1234",
            "Player 1",
            "Player l",
            "player \u{FF12}",
            "Bot 3",
        ] {
            assert!(reserved(name), "{name:?}");
        }
        for name in ["Ada", "Adminah", "Player One", "Guest House", "Spectator Sport", "Rooted"] {
            assert!(!reserved(name), "{name:?}");
        }
    }
}
