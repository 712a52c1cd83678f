//! Text people write (chat messages, a report's note), cleaned as they
//! will read it.

use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

use crate::error::ApiError;
use crate::names::invisible;

/// The longest message, in characters (Unicode code points, after cleaning).
pub const MAX_CHAT_CHARS: usize = 200;
/// The largest message a client may send, in bytes, before cleaning.
pub const MAX_CHAT_BYTES: usize = 2048;
/// Most code points one grapheme may hold (as in names).
const MAX_GRAPHEME: usize = 8;

/// A message as people will read it: NFC, no control, bidi or invisible
/// characters (line breaks become spaces, runs of spaces one), no grapheme
/// of more than a few code points (a pile of combining marks), at most
/// [`MAX_CHAT_CHARS`] characters.
///
/// # Errors
/// `message_too_long` for more than [`MAX_CHAT_BYTES`] bytes or
/// [`MAX_CHAT_CHARS`] characters, `empty_message` when nothing is left.
pub fn clean_message(raw: &str) -> Result<String, ApiError> {
    if raw.len() > MAX_CHAT_BYTES {
        return Err(ApiError::MessageTooLong(MAX_CHAT_CHARS));
    }
    let mut flat = String::with_capacity(raw.len());
    let mut space = false;
    for c in raw.nfc() {
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
    let text: String = flat.graphemes(true).filter(|g| g.chars().count() <= MAX_GRAPHEME).collect();
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::EmptyMessage);
    }
    if text.chars().count() > MAX_CHAT_CHARS {
        return Err(ApiError::MessageTooLong(MAX_CHAT_CHARS));
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_cleaned() {
        assert_eq!(clean_message("  hello \n there ").unwrap(), "hello there");
        assert_eq!(clean_message("\u{202E}olleh\u{202C}\u{200B}").unwrap(), "olleh");
        assert_eq!(clean_message("<b>hi</b>").unwrap(), "<b>hi</b>");
        assert_eq!(clean_message("Rene\u{301}").unwrap(), "Ren\u{e9}");
        assert!(matches!(clean_message(" \u{200B}\t"), Err(ApiError::EmptyMessage)));
        assert!(clean_message(&"x".repeat(MAX_CHAT_CHARS)).is_ok());
        assert!(matches!(clean_message(&"x".repeat(MAX_CHAT_CHARS + 1)), Err(ApiError::MessageTooLong(_))));
        assert!(matches!(clean_message(&"x".repeat(MAX_CHAT_BYTES + 1)), Err(ApiError::MessageTooLong(_))));
        let zalgo = format!("A{}ok", "\u{301}".repeat(50));
        assert_eq!(clean_message(&zalgo).unwrap(), "ok");
    }
}
