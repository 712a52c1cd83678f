//! Player names as the other players will read them.
//!
//! A name is Unicode-normalised (NFC), loses control, bidi and invisible
//! characters (right-to-left overrides, zero-width spaces and joiners, soft
//! hyphens, fillers), has its runs of spaces made one, and is cut to
//! [`MAX_NAME`] graphemes (user-perceived characters). Two seats of a game
//! may not share a name, compared after NFKC and case folding, so that one
//! player cannot pose as another with `ADA`, `Ada` in full-width letters or
//! `Ada` with a hidden character.

use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

/// The longest player name, in graphemes.
pub const MAX_NAME: usize = 24;

/// Most code points one grapheme may hold: letters with a few accents and
/// emoji with modifiers fit; a stack of combining marks that would draw
/// over the next line does not.
const MAX_GRAPHEME: usize = 8;

/// Characters that draw nothing or reorder the text around them.
pub(crate) fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}' // soft hyphen
            | '\u{034F}' // combining grapheme joiner
            | '\u{061C}' // Arabic letter mark
            | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers
            | '\u{17B4}' | '\u{17B5}' // Khmer inherent vowels
            | '\u{180B}'..='\u{180F}' // Mongolian selectors and vowel separator
            | '\u{200B}'..='\u{200F}' // zero-width space, joiners, LRM, RLM
            | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
            | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, bidi isolates
            | '\u{FEFF}' // zero-width no-break space
            | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation
            | '\u{1D173}'..='\u{1D17A}' // musical formatting
            | '\u{E0000}'..='\u{E007F}' // tags
        )
}

/// The name to show for what a client sent, or `None` if nothing readable
/// is left.
pub fn clean_name(raw: &str) -> Option<String> {
    let mut flat = String::with_capacity(raw.len().min(256));
    let mut space = false;
    for c in raw.chars().take(1024).nfc() {
        if c.is_whitespace() {
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

/// What two names must not share within a game: NFKC, case folded.
pub fn name_key(name: &str) -> String {
    name.nfkc().flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::{clean_name, name_key, MAX_NAME};

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
}
