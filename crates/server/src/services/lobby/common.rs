//! What the lobby's tables and "Play now" share: who asks (and whether they
//! have a history), the seat handed out, the name a person sits under.

use crate::error::ApiError;
use crate::names::{clean_name, name_key, reserved};
use crate::services::ids::random_bytes;

/// Who asks (through their lobby websocket): their signed-in account (id,
/// name), whom their tables and waits count against (the account, or the
/// address for a guest), their address (its key, `listen::addr_key`),
/// whose new-game quota a table or a wait spends (each makes one game at
/// most), their device (the page's own id, if it gave one), and whether
/// they have a history ([`known`]).
#[derive(Clone, Debug)]
pub struct Who {
    pub account: Option<(String, String)>,
    pub owner: String,
    pub ip: Option<std::net::IpAddr>,
    pub device: Option<String>,
    pub known: bool,
}

impl Who {
    /// The address's key as stored.
    pub fn address(&self) -> String {
        self.ip.map(|ip| ip.to_string()).unwrap_or_default()
    }

    /// Whom the games this person makes in the lobby count against: a
    /// person with a history their account (a crowd on their address does
    /// not count against them), anyone else their address.
    pub fn spender(&self) -> Option<crate::services::quotas::Spender> {
        use crate::services::quotas::Spender;
        match &self.account {
            Some((account, _)) if self.known => Some(Spender::Account(account.clone())),
            _ => self.ip.map(Spender::Address),
        }
    }

    /// The address key's hash, as a seat linked to an account keeps it
    /// (the rating checks: one address, one player in a rated game).
    pub fn address_hash(&self) -> Option<String> {
        self.ip.map(crate::store::hash_address)
    }
}

/// Whether a device id as a page sends it looks like one: 16 to 64 letters,
/// digits, `-` or `_`. It is the page's own (kept in its storage), so it
/// only ever tells one person's two waits apart from two people's, never
/// grants anything.
pub fn plausible_device(id: &str) -> bool {
    (16..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A seat handed out: the table (or wait) as it is now, and the token.
#[derive(Clone, Debug)]
pub struct Seated<T> {
    pub view: T,
    pub seat: usize,
    pub token: String,
}

pub fn refused(code: &'static str, why: impl Into<String>) -> ApiError {
    ApiError::Lobby(code, why.into())
}

/// The name a person sits under: their account's, or the one they gave
/// (checked as seat names are), or "Guest N"; never one taken at the table.
pub fn sitter_name(who: &Who, given: Option<&str>, taken: &[String]) -> Result<String, ApiError> {
    let name = match (&who.account, given) {
        (Some((_, name)), _) => name.clone(),
        (None, Some(raw)) => {
            let name = clean_name(raw).ok_or_else(|| ApiError::BadRequest("name: nothing readable".into()))?;
            if reserved(&name) {
                return Err(ApiError::BadRequest(format!("name: \"{name}\" is the server's to give")));
            }
            name
        }
        (None, None) => {
            let n = u16::from_le_bytes(random_bytes::<2>()?) % 9000 + 1000;
            format!("Guest {n}")
        }
    };
    if taken.iter().any(|t| name_key(t) == name_key(&name)) {
        return Err(refused("name_taken_here", format!("\"{name}\" is already seated at this table")));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_ids_are_short_and_plain() {
        assert!(plausible_device("0123456789abcdef"));
        assert!(plausible_device(&"a_-Z".repeat(16)));
        for bad in ["", "short", "0123456789abcde", "0123456789abcdef!", &"a".repeat(65)] {
            assert!(!plausible_device(bad), "{bad}");
        }
    }
}
