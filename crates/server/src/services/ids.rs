//! Random ids and tokens, what they look like, and the time: what every
//! service names things and stamps them with.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::ApiError;

/// Unix time in milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// `n` random bytes from the operating system. Without them no token can
/// be trusted, so the request fails rather than fall back on the clock.
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf)
        .map_err(|e| ApiError::Storage(format!("no randomness from the operating system: {e}")))?;
    Ok(buf)
}

/// Characters that are easy to read aloud.
const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";

/// A game id: 10 characters that are easy to read aloud.
pub(crate) fn new_game_id() -> Result<String, ApiError> {
    Ok(random_bytes::<10>()?.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect())
}

/// A fresh id for a lobby table or a wait: 12 characters easy to read aloud.
pub(crate) fn new_id() -> Result<String, ApiError> {
    Ok(random_bytes::<12>()?.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect())
}

/// A seat token: 128 random bits from the operating system, in hex.
pub(crate) fn new_token() -> Result<String, ApiError> {
    Ok(random_bytes::<16>()?.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `id` could be a game id (so that junk never reaches the store).
pub fn plausible_id(id: &str) -> bool {
    (1..=40).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether `id` could be a lobby table or wait id.
pub(crate) fn plausible(id: &str) -> bool {
    (1..=40).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A seat token as sent: 32 hex digits.
pub(crate) fn plausible_token(token: &str) -> bool {
    token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_look_right() {
        let id = new_game_id().unwrap();
        assert_eq!(id.len(), 10);
        assert!(plausible_id(&id));
        assert_ne!(new_game_id().unwrap(), id);
        assert_eq!(new_token().unwrap().len(), 32);
        assert!(plausible_token(&new_token().unwrap()));
        assert!(plausible(&new_id().unwrap()));
        assert!(!plausible_id("../etc"));
        assert!(!plausible_id(""));
    }
}
