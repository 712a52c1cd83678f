//! What the lobby's tables and "Play now" share: who asks, the seat handed
//! out, the name a person sits under, how long a wait is kept.

use std::time::Duration;

use crate::error::ApiError;
use crate::names::{clean_name, name_key, reserved};
use crate::services::ids::random_bytes;

/// A wait not asked about for this long is over (the page asks every second).
pub const WAIT_GONE: Duration = Duration::from_secs(20);
/// A paired wait is kept this long (its page learns the game).
pub const PAIRED_KEPT: Duration = Duration::from_secs(10 * 60);
/// Who asks: their signed-in account (id, name), whom their tables and
/// waits count against (the account, or the address for a guest), and
/// their address (its key, `listen::addr_key`), whose new-game quota a
/// table or a wait spends (each makes one game at most).
#[derive(Clone, Debug)]
pub struct Who {
    pub account: Option<(String, String)>,
    pub owner: String,
    pub ip: Option<std::net::IpAddr>,
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
