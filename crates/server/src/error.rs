//! One error type for every refusal, with a stable code a client can act on.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use carcassonne::IllegalMove;
use serde::de::DeserializeOwned;

/// Why the server refused a request. Every variant leaves the game unchanged.
#[derive(Debug)]
pub enum ApiError {
    /// No such game (or route).
    NotFound(String),
    /// The request is not well formed: bad JSON, a field of the wrong type,
    /// an unknown tile id, spot or option.
    BadRequest(String),
    /// The token does not belong to this game.
    Unauthorized,
    /// The seat the request acts for is not the one to move.
    NotYourTurn,
    /// The client's version is behind the game's: it should resync.
    StaleVersion { current: u64 },
    /// The game has ended.
    GameOver,
    /// What was asked for exists only for a finished game (a review).
    NotFinished,
    /// A well-formed move the rules refuse.
    Illegal(IllegalMove),
    /// The request body is larger than the server accepts.
    TooLarge,
    /// Too many requests from this client (or messages on this socket).
    RateLimited,
    /// What was asked for would show hidden information (a record while
    /// hands are hidden).
    HiddenInformation,
    /// The storage failed; the details are logged, not shown.
    Storage(String),
    /// A POST whose body is not declared `application/json`.
    UnsupportedMediaType,
    /// A websocket opened from a page of another origin.
    ForbiddenOrigin,
    /// No room for another connection (from this address, on this game, or at all).
    Busy(&'static str),
    /// This address created as many games as it may (per hour, or unfinished at once).
    Quota(String),
    /// A rule-set code that does not decode (or comes from a later version).
    RulesCode(carcassonne::RulesError),
    /// The server has no room for this work now (reviews running and
    /// queued, in all or from this address; password checks waiting for a
    /// hashing thread): `503` with `Retry-After`.
    TryLater(String),
    /// More seat tokens in one request than a game has seats (checked before
    /// the game's lock is taken).
    TooManyTokens,
    /// An account of that name (or one that looks the same) exists.
    NameTaken,
    /// Sign-in refused: the same answer for an unknown name and a wrong password.
    BadCredentials,
    /// The request needs a signed-in account (no session, or it ended).
    NotSignedIn,
    /// Too many password attempts for that name or from this address: try
    /// again after so many seconds (`Retry-After`).
    Throttled(u64),
    /// No hints in this game: it is played online with people (or rated).
    NoHints,
    /// A record the replay refuses (`POST /api/replay`): `bad_request`,
    /// with the move's number and, when the rules refused the move, the
    /// rule it breaks (`rule`, the engine's code, and its `facts`).
    Replay(carcassonne::record::ReplayError),
    /// A rated game that cannot be one (why): not signed in, house rules,
    /// an unrated bot, the creator seated twice.
    NotRatable(String),
    /// Passkeys do not work for the page's origin (or are off: no usable
    /// public URL).
    PasskeysUnavailable,
    /// A passkey ceremony that is not (or no longer) under way: never
    /// started, finished already, or too old.
    ChallengeExpired,
    /// A passkey the server does not know, or an answer that does not check out.
    PasskeyRefused,
    // ---- Chat and rematch (services/chat.rs, services/rematch.rs) ----
    /// Chat is off in this game.
    ChatOff,
    /// A chat message with nothing readable in it.
    EmptyMessage,
    /// A chat message over so many characters.
    MessageTooLong(usize),
    /// Chat messages faster than one per so many seconds (after a few).
    ChatTooFast(u64),
    /// The players' chat of the game holds as many messages as it may.
    ChatFull(usize),
    /// So many spectators who are not signed in wrote in the game's chat
    /// that no new one may.
    ChatCrowded(usize),
    /// Not every player agreed to the chat's download.
    ChatNotAgreed,
    /// A rematch (or the chat's download) before the game is over.
    GameNotOver,
    /// This seat accepted the rematch already.
    AlreadyAccepted,
    /// A push subscription refused: malformed, oversized, or an endpoint
    /// this server may not write to (not https, not at a public address).
    BadSubscription(String),
    /// A push subscription over a cap (per browser, per seat or account).
    TooManySubscriptions,
    // Clocks (services/clocks.rs):
    /// A time control out of bounds or malformed.
    BadClock(String),
    /// The seat's time ran out: its move is refused.
    TimeUp,
    /// The seat may not be handed to a bot: its time did not run out and
    /// its player has not been away long enough.
    NotAway,
    /// An abort asked for once every player has moved.
    CannotAbort,
    /// The game asked to end as it stands, with no seat whose flag just
    /// fell in a casual game (or in a rated one).
    CannotEnd,
    // Takebacks (services/takebacks.rs):
    /// A takeback asked in a rated game.
    NotInRated,
    /// A takeback asked by a player who has not moved yet.
    NothingToTakeBack,
    /// A takeback asked while one waits for its answers.
    TakebackPending,
    /// A takeback asked again for the move whose takeback was declined.
    TakebackDeclined,
    /// An answer with no takeback waiting for it.
    NoTakebackAsked,
    /// A lobby request out of order (services/lobby/): a taken seat, a
    /// table started or full, a rated table for a guest…; its stable code
    /// and why. Nothing changed.
    Lobby(&'static str, String),
    /// A block, a report or a chat refused by moderation (services/moderation.rs):
    /// `muted`, `account_closed`, `blocked`, `cannot_block_self`,
    /// `too_many_blocks`, `not_a_member`, `cannot_report_self`,
    /// `already_reported`, `reports_too_fast`, `too_many_reports`; and why.
    /// Nothing changed.
    Moderation(&'static str, String),
}

/// Seconds a client told to try later ([`ApiError::TryLater`]) waits.
pub const RETRY_AFTER_SECS: u64 = 30;

impl ApiError {
    /// The stable code (docs/web.md lists them).
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::NotFound(_) => "not_found",
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Unauthorized => "unauthorized",
            ApiError::NotYourTurn => "not_your_turn",
            ApiError::StaleVersion { .. } => "stale_version",
            ApiError::GameOver => "game_over",
            ApiError::NotFinished => "not_finished",
            ApiError::Illegal(_) => "illegal_move",
            ApiError::TooLarge => "too_large",
            ApiError::RateLimited => "rate_limited",
            ApiError::HiddenInformation => "hidden_information",
            ApiError::Storage(_) => "storage_error",
            ApiError::UnsupportedMediaType => "unsupported_media_type",
            ApiError::ForbiddenOrigin => "forbidden_origin",
            ApiError::Busy(_) => "too_many_connections",
            ApiError::Quota(_) => "quota_exceeded",
            ApiError::RulesCode(carcassonne::RulesError::LaterCode(_)) => "later_rules_code",
            ApiError::RulesCode(_) => "bad_rules_code",
            ApiError::TryLater(_) => "busy",
            ApiError::TooManyTokens => "too_many_tokens",
            ApiError::NameTaken => "name_taken",
            ApiError::BadCredentials => "bad_credentials",
            ApiError::NotSignedIn => "not_signed_in",
            ApiError::Throttled(_) => "too_many_attempts",
            ApiError::NoHints => "no_hints",
            ApiError::Replay(_) => "bad_request",
            ApiError::NotRatable(_) => "not_ratable",
            ApiError::PasskeysUnavailable => "passkeys_unavailable",
            ApiError::ChallengeExpired => "challenge_expired",
            ApiError::PasskeyRefused => "passkey_refused",
            ApiError::ChatOff => "chat_off",
            ApiError::EmptyMessage => "empty_message",
            ApiError::MessageTooLong(_) => "message_too_long",
            ApiError::ChatTooFast(_) => "chat_too_fast",
            ApiError::ChatFull(_) => "chat_full",
            ApiError::ChatCrowded(_) => "chat_crowded",
            ApiError::ChatNotAgreed => "chat_not_agreed",
            ApiError::GameNotOver => "game_not_over",
            ApiError::AlreadyAccepted => "already_accepted",
            ApiError::BadSubscription(_) => "bad_subscription",
            ApiError::TooManySubscriptions => "too_many_subscriptions",
            ApiError::BadClock(_) => "bad_clock",
            ApiError::TimeUp => "time_up",
            ApiError::NotAway => "not_away",
            ApiError::CannotAbort => "cannot_abort",
            ApiError::CannotEnd => "cannot_end",
            ApiError::NotInRated => "not_in_rated",
            ApiError::NothingToTakeBack => "nothing_to_take_back",
            ApiError::TakebackPending => "takeback_pending",
            ApiError::TakebackDeclined => "takeback_declined",
            ApiError::NoTakebackAsked => "no_takeback_asked",
            ApiError::Lobby(code, _) => code,
            ApiError::Moderation(code, _) => code,
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::FORBIDDEN,
            ApiError::NotYourTurn | ApiError::StaleVersion { .. } | ApiError::GameOver | ApiError::NotFinished => {
                StatusCode::CONFLICT
            }
            ApiError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ApiError::HiddenInformation => StatusCode::CONFLICT,
            ApiError::Storage(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::ForbiddenOrigin => StatusCode::FORBIDDEN,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Quota(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::RulesCode(_) | ApiError::TooManyTokens => StatusCode::BAD_REQUEST,
            ApiError::TryLater(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::NameTaken => StatusCode::CONFLICT,
            ApiError::BadCredentials | ApiError::NotSignedIn => StatusCode::UNAUTHORIZED,
            ApiError::Throttled(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NoHints => StatusCode::FORBIDDEN,
            ApiError::Replay(_) => StatusCode::BAD_REQUEST,
            ApiError::NotRatable(_) => StatusCode::BAD_REQUEST,
            ApiError::PasskeysUnavailable => StatusCode::NOT_FOUND,
            ApiError::ChallengeExpired => StatusCode::CONFLICT,
            ApiError::PasskeyRefused => StatusCode::UNAUTHORIZED,
            ApiError::ChatOff | ApiError::ChatFull(_) | ApiError::ChatCrowded(_) | ApiError::ChatNotAgreed => {
                StatusCode::FORBIDDEN
            }
            ApiError::EmptyMessage => StatusCode::BAD_REQUEST,
            ApiError::MessageTooLong(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::ChatTooFast(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::GameNotOver | ApiError::AlreadyAccepted => StatusCode::CONFLICT,
            ApiError::BadSubscription(_) => StatusCode::BAD_REQUEST,
            ApiError::TooManySubscriptions => StatusCode::CONFLICT,
            ApiError::BadClock(_) => StatusCode::BAD_REQUEST,
            ApiError::TimeUp | ApiError::NotAway | ApiError::CannotAbort | ApiError::CannotEnd => StatusCode::CONFLICT,
            ApiError::Lobby(..) => StatusCode::CONFLICT,
            ApiError::Moderation("muted" | "account_closed" | "blocked", _) => StatusCode::FORBIDDEN,
            ApiError::Moderation("reports_too_fast" | "too_many_reports", _) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Moderation("not_a_member" | "cannot_block_self" | "cannot_report_self", _) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::Moderation(..) => StatusCode::CONFLICT,
            ApiError::NotInRated => StatusCode::FORBIDDEN,
            ApiError::NothingToTakeBack
            | ApiError::TakebackPending
            | ApiError::TakebackDeclined
            | ApiError::NoTakebackAsked => StatusCode::CONFLICT,
        }
    }

    /// A sentence for people.
    pub fn message(&self) -> String {
        match self {
            ApiError::NotFound(what) => format!("{what} was not found"),
            ApiError::BadRequest(why) => why.clone(),
            ApiError::Unauthorized => "this link does not seat you at this game".into(),
            ApiError::NotYourTurn => "it is not your turn".into(),
            ApiError::StaleVersion { current } => {
                format!("the game has moved on (it is at version {current}): reload it")
            }
            ApiError::GameOver => "the game is over".into(),
            ApiError::NotFinished => "a review is made of a finished game: this one is still in play".into(),
            ApiError::Illegal(e) => e.to_string(),
            ApiError::TooLarge => "the request is too large".into(),
            ApiError::RateLimited => "too many requests: wait a moment and try again".into(),
            ApiError::HiddenInformation => {
                "the record of a game with hidden hands can be downloaded once the game is over".into()
            }
            ApiError::Storage(_) => "the game could not be saved; nothing was changed".into(),
            ApiError::UnsupportedMediaType => "send JSON with the header content-type: application/json".into(),
            ApiError::ForbiddenOrigin => "this server does not accept connections from pages of that site".into(),
            ApiError::Busy(why) => format!("{why}: try again later"),
            ApiError::Quota(limit) => format!("this server allows {limit}"),
            ApiError::RulesCode(carcassonne::RulesError::LaterCode(_)) => {
                "these rules were made with a later version of the game than this server runs: ask whoever \
                 shared them which version they play"
                    .into()
            }
            ApiError::RulesCode(e) => format!("this link does not hold a rule set this server can read ({e})"),
            ApiError::TryLater(why) => format!("the server is busy ({why}): try again in {RETRY_AFTER_SECS} seconds"),
            ApiError::TooManyTokens => {
                format!("a request names at most {} seat tokens", carcassonne::MAX_PLAYERS)
            }
            ApiError::NameTaken => "that name is taken (or one that looks the same): choose another".into(),
            ApiError::BadCredentials => "wrong name or password".into(),
            ApiError::NotSignedIn => "sign in first".into(),
            ApiError::Throttled(secs) => format!("too many attempts: try again in {secs} seconds"),
            ApiError::NoHints => "no hints in a rated game or one played online with other people".into(),
            ApiError::Replay(e) => e.to_string(),
            ApiError::NotRatable(why) => format!("this game cannot be rated: {why}"),
            ApiError::PasskeysUnavailable => "passkeys do not work on this address of the server".into(),
            ApiError::ChallengeExpired => "that passkey request is over (or took too long): try again".into(),
            ApiError::PasskeyRefused => "this passkey was not accepted".into(),
            ApiError::ChatOff => "chat is off in this game".into(),
            ApiError::EmptyMessage => "the message is empty".into(),
            ApiError::MessageTooLong(max) => format!("a message has at most {max} characters"),
            ApiError::ChatTooFast(secs) => format!("too many messages: one every {secs} seconds, please"),
            ApiError::ChatFull(max) => format!("this game's players' chat holds its {max} messages: no more"),
            ApiError::ChatCrowded(max) => {
                format!(
                    "{max} spectators wrote in this game's chat already: only regulars (accounts a day old \
                     with a rated game played to the end) may join them"
                )
            }
            ApiError::ChatNotAgreed => "the chat is downloaded only when every player agreed to it".into(),
            ApiError::GameNotOver => "the game is not over yet".into(),
            ApiError::AlreadyAccepted => "you accepted the rematch already".into(),
            ApiError::BadSubscription(why) => format!("this push subscription is refused: {why}"),
            ApiError::TooManySubscriptions => format!(
                "a browser follows at most {} seats or accounts, a seat or account at most {} browsers, \
                 and an address keeps at most {} subscriptions ({} for an account with a history)",
                crate::config::PUSH_PER_ENDPOINT,
                crate::config::PUSH_PER_TARGET,
                crate::config::PUSH_PER_ADDRESS,
                crate::config::PUSH_PER_ACCOUNT
            ),
            ApiError::BadClock(why) => why.clone(),
            ApiError::TimeUp => "your time ran out: the others may hand your seat to a bot".into(),
            ApiError::NotAway => "that seat still has time, or its player has not been away long enough".into(),
            ApiError::CannotAbort => "every player has moved: the game can no longer be aborted".into(),
            ApiError::CannotEnd => {
                "the game may be ended as it stands only when a seat's clock has just run out in a casual game".into()
            }
            ApiError::Lobby(_, why) | ApiError::Moderation(_, why) => why.clone(),
            ApiError::NotInRated => "a rated game allows no takebacks".into(),
            ApiError::NothingToTakeBack => "you have played no move to take back".into(),
            ApiError::TakebackPending => "a takeback is already asked in this game: wait for its answer".into(),
            ApiError::TakebackDeclined => "your takeback of this move was declined: it is not asked again".into(),
            ApiError::NoTakebackAsked => "no takeback is waiting for your answer".into(),
        }
    }

    /// The error as it goes on the wire (HTTP bodies and websocket messages).
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: self.code(),
            message: self.message(),
            rule: self.rule().map(IllegalMove::code),
            version: match self {
                ApiError::StaleVersion { current } => Some(*current),
                _ => None,
            },
            move_no: match self {
                ApiError::Replay(e) => e.move_no,
                _ => None,
            },
            facts: self.rule().map(|r| r.facts().into_iter().collect()).unwrap_or_default(),
        }
    }

    /// The rule a refused move breaks (a move played, or one of a record replayed).
    fn rule(&self) -> Option<&IllegalMove> {
        match self {
            ApiError::Illegal(e) => Some(e),
            ApiError::Replay(e) => e.rule(),
            _ => None,
        }
    }
}

/// A refusal on the wire: `{"error": code, "message": …}`, with `rule` (the
/// engine's code) and its `facts` (the parts a sentence needs:
/// `IllegalMove::facts`) for an illegal move, `move` (its 1-based number)
/// for a record the replay refuses, and `version` for a stale one.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ErrorBody {
    pub error: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_no: Option<usize>,
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub facts: std::collections::BTreeMap<&'static str, &'static str>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

impl std::error::Error for ApiError {}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        ApiError::Storage(e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Storage(detail) = &self {
            tracing::error!(%detail, "storage failure");
        }
        let mut resp = (self.status(), Json(self.body())).into_response();
        let retry = match self {
            ApiError::TryLater(_) => Some(RETRY_AFTER_SECS),
            ApiError::Throttled(secs) => Some(secs),
            _ => None,
        };
        if let Some(secs) = retry {
            resp.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(secs));
        }
        resp
    }
}

/// The body's bytes, mapping a refused body to a stable code.
pub(crate) fn body_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge
        } else {
            ApiError::BadRequest(r.body_text())
        }
    })
}

/// Parses a JSON body, mapping every failure to a stable code.
pub(crate) fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body_bytes(body)?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::BadRequest(format!("malformed request: {e}")))
}
