//! QR codes of invite links (`POST /api/qr`), as SVG.
//!
//! A code of 1 KiB of text costs several milliseconds to draw: the last
//! [`CACHED`] codes drawn are kept by text (at most [`CACHED_BYTES`] of SVG
//! in all), and one client address may have at most [`RENDERS`] codes
//! drawn that were not kept, per second, in bursts of [`RENDER_BURST`]
//! (with the server's rate limits on); over it, `429 rate_limited`.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{header, Extensions, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{post, MethodRouter};

use crate::error::{parse_body, ApiError};
use crate::listen::{addr_key, client_ip};

/// The longest text a QR code is made of.
pub const MAX_QR_TEXT: usize = 1024;
/// Codes kept, by text.
pub const CACHED: usize = 256;
/// SVG kept in all, in bytes.
pub const CACHED_BYTES: usize = 8 << 20;
/// Codes drawn (not kept) per second and client address.
pub const RENDERS: u32 = 2;
pub const RENDER_BURST: u32 = 10;

/// Codes drawn so far (a test's witness).
static RENDERED: AtomicU64 = AtomicU64::new(0);

#[derive(Default)]
struct Cache {
    svg: HashMap<String, Bytes>,
    /// Texts, oldest first.
    order: VecDeque<String>,
    bytes: usize,
}

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(Default::default);

impl Cache {
    fn get(&self, text: &str) -> Option<Bytes> {
        self.svg.get(text).cloned()
    }

    fn put(&mut self, text: String, svg: Bytes) {
        if self.svg.contains_key(&text) {
            return;
        }
        while !self.order.is_empty() && (self.order.len() >= CACHED || self.bytes + svg.len() > CACHED_BYTES) {
            if let Some(old) = self.order.pop_front().and_then(|t| self.svg.remove(&t)) {
                self.bytes -= old.len();
            }
        }
        self.bytes += svg.len();
        self.order.push_back(text.clone());
        self.svg.insert(text, svg);
    }
}

type KeyedLimiter = crate::limits::Keyed<IpAddr>;

/// The route's handler: drawing limited per address when the server's
/// rate limits are on.
/// Addresses are keyed by [`addr_key`] (IPv6 cut to `ipv6_prefix` bits).
pub fn route<S: Clone + Send + Sync + 'static>(limited: bool, ipv6_prefix: u8) -> MethodRouter<S> {
    let limiter: Option<Arc<KeyedLimiter>> = limited.then(|| {
        let quota = governor::Quota::per_second(NonZeroU32::new(RENDERS).unwrap_or(NonZeroU32::MIN))
            .allow_burst(NonZeroU32::new(RENDER_BURST).unwrap_or(NonZeroU32::MIN));
        Arc::new(KeyedLimiter::new(quota))
    });
    post(move |extensions: Extensions, body: Result<Bytes, BytesRejection>| {
        let limiter = limiter.clone();
        async move { qr_code(limiter.as_deref(), addr_key(client_ip(&extensions), ipv6_prefix), body) }
    })
}

/// A QR code of `{"text": …}` (an invite link) as SVG.
fn qr_code(
    limiter: Option<&KeyedLimiter>,
    ip: IpAddr,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Req {
        text: String,
    }
    let req: Req = parse_body(body)?;
    if req.text.is_empty() || req.text.len() > MAX_QR_TEXT {
        return Err(ApiError::BadRequest(format!("a QR code holds 1 to {MAX_QR_TEXT} bytes of text")));
    }
    let kept = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&req.text);
    let svg = match kept {
        Some(svg) => svg,
        None => {
            if let Some(l) = limiter {
                l.check(&ip).map_err(|_| ApiError::RateLimited)?;
            }
            let svg = render(&req.text)?;
            CACHE.lock().unwrap_or_else(|e| e.into_inner()).put(req.text, svg.clone());
            svg
        }
    };
    Ok(([(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"))], svg).into_response())
}

fn render(text: &str) -> Result<Bytes, ApiError> {
    RENDERED.fetch_add(1, Ordering::Relaxed);
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M)
        .map_err(|e| ApiError::BadRequest(format!("no QR code for that text: {e}")))?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(200, 200)
        .dark_color(qrcode::render::svg::Color("#1d1a16"))
        .light_color(qrcode::render::svg::Color("#ffffff"))
        .build();
    Ok(Bytes::from(svg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    fn ask(limiter: Option<&KeyedLimiter>, ip: [u8; 4], text: &str) -> StatusCode {
        let body = Ok(Bytes::from(serde_json::json!({ "text": text }).to_string()));
        match qr_code(limiter, IpAddr::from(ip), body) {
            Ok(r) => r.status(),
            Err(e) => e.into_response().status(),
        }
    }

    #[test]
    fn codes_are_kept_by_text_and_drawing_is_limited_per_address() {
        // The burst, refilled slowly enough that a slow debug build cannot
        // earn a drawing back during the test.
        let quota = governor::Quota::per_hour(NonZeroU32::MIN).allow_burst(NonZeroU32::new(RENDER_BURST).unwrap());
        let limiter = KeyedLimiter::new(quota);
        let l = Some(&limiter);
        let link = "https://example.com/#/game/qr-test?token=0123456789abcdef".to_string();
        assert_eq!(ask(l, [10, 0, 0, 1], &link), StatusCode::OK);
        let drawn = RENDERED.load(Ordering::Relaxed);
        // The same text again, as often as asked: never drawn again, never refused.
        for _ in 0..50 {
            assert_eq!(ask(l, [10, 0, 0, 1], &link), StatusCode::OK);
        }
        assert_eq!(RENDERED.load(Ordering::Relaxed), drawn, "a kept code was drawn again");
        // New texts from one address: the burst, then refusals.
        let statuses: Vec<StatusCode> =
            (0..RENDER_BURST + 5).map(|i| ask(l, [10, 0, 0, 2], &format!("{link}&{i}"))).collect();
        assert!(statuses[..RENDER_BURST as usize].iter().all(|s| *s == StatusCode::OK), "{statuses:?}");
        assert_eq!(statuses.last(), Some(&StatusCode::TOO_MANY_REQUESTS), "{statuses:?}");
        // Another address draws all the same.
        assert_eq!(ask(l, [10, 0, 0, 3], &format!("{link}&other")), StatusCode::OK);
    }

    #[test]
    fn the_cache_is_bounded() {
        let mut cache = Cache::default();
        for i in 0..CACHED + 10 {
            cache.put(format!("t{i}"), Bytes::from(vec![b'x'; 100]));
        }
        assert_eq!(cache.svg.len(), CACHED);
        assert!(cache.get("t0").is_none() && cache.get(&format!("t{}", CACHED + 9)).is_some());
        cache.put("big".into(), Bytes::from(vec![b'x'; CACHED_BYTES - 50]));
        assert!(cache.bytes <= CACHED_BYTES && cache.get("big").is_some());
    }
}
