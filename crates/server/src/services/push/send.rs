//! The requests to the push services (docs/web.md, *Notifications*,
//! "What reaches the push service" and "Which endpoints are written to"):
//! the server's VAPID key and signature (RFC 8292), the endpoints it may
//! write to, the payload encrypted for the browser (RFC 8291, `aes128gcm`,
//! by the `web-push-native` crate), one request on a connection of its own
//! (a plain hyper client over rustls, connecting only to the address it
//! checked).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use p256::ecdsa::signature::Signer as _;
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use serde_json::json;

use tokio::sync::OnceCell;

use crate::config::PushSettings;
use crate::error::ApiError;
use crate::services::ids::now_ms;
use crate::store::{PushRepo, PushSubscription};

/// The longest endpoint URL accepted (the push services' are 150–500 bytes).
pub const MAX_ENDPOINT: usize = 1024;
/// How long a VAPID signature is valid (at most 24 hours, RFC 8292).
const JWT_VALID: Duration = Duration::from_secs(12 * 3600);

/// The server's VAPID key pair.
pub struct Vapid {
    key: p256::ecdsa::SigningKey,
    /// The public key as the browsers want it: base64url of its 65
    /// uncompressed bytes (`applicationServerKey`).
    public: String,
}

impl Vapid {
    /// A key from its text: base64url of the 32-byte scalar, or a PEM
    /// (SEC1 `EC PRIVATE KEY` or PKCS#8 `PRIVATE KEY`) P-256 key.
    ///
    /// # Errors
    /// Anything else.
    pub fn parse(text: &str) -> Result<Vapid, String> {
        let text = text.trim();
        let secret = if text.starts_with("-----BEGIN") {
            use p256::pkcs8::DecodePrivateKey as _;
            p256::SecretKey::from_pkcs8_pem(text)
                .or_else(|_| p256::SecretKey::from_sec1_pem(text))
                .map_err(|e| format!("not a P-256 private key in PEM: {e}"))?
        } else {
            let bytes =
                URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')).map_err(|e| format!("not base64url: {e}"))?;
            if bytes.len() != 32 {
                return Err(format!("a P-256 private key is 32 bytes, not {}", bytes.len()));
            }
            p256::SecretKey::from_slice(&bytes).map_err(|_| "not a P-256 private key".to_string())?
        };
        let public = secret.public_key().to_encoded_point(false);
        Ok(Vapid { key: secret.into(), public: URL_SAFE_NO_PAD.encode(public.as_bytes()) })
    }

    /// A new key, as text for [`Vapid::parse`].
    fn generate() -> Result<String, String> {
        loop {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
            if p256::SecretKey::from_slice(&bytes).is_ok() {
                return Ok(URL_SAFE_NO_PAD.encode(bytes));
            }
        }
    }

    /// The public key, base64url (what `GET /api/push/key` serves).
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header of a request to `origin` (RFC 8292:
    /// `vapid t=<JWT ES256>, k=<public key>`).
    fn authorization(&self, origin: &str, subject: &str, now_s: u64) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = json!({ "aud": origin, "exp": now_s + JWT_VALID.as_secs(), "sub": subject });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let input = format!("{header}.{claims}");
        let signature: p256::ecdsa::Signature = self.key.sign(input.as_bytes());
        format!("vapid t={input}.{}, k={}", URL_SAFE_NO_PAD.encode(signature.to_bytes()), self.public)
    }
}

/// The VAPID key kept in `cell`: the operator's, or the storage's (made
/// now if it has none), loaded the first time.
///
/// # Errors
/// `storage_error`: the storage fails, or the key does not parse.
pub(crate) async fn vapid_of(
    cell: &OnceCell<Arc<Vapid>>,
    settings: &PushSettings,
    store: &dyn PushRepo,
) -> Result<Arc<Vapid>, ApiError> {
    let key = cell
        .get_or_try_init(|| async {
            let text = match &settings.vapid_key {
                Some(text) => text.clone(),
                None => {
                    let candidate = Vapid::generate().map_err(ApiError::Storage)?;
                    store.vapid_key(&candidate, now_ms()).await?
                }
            };
            Vapid::parse(&text).map(Arc::new).map_err(|e| ApiError::Storage(format!("the VAPID key: {e}")))
        })
        .await?;
    Ok(Arc::clone(key))
}

/// Whether a push service at `ip` may be written to: a public address
/// (never loopback, private, link-local, shared, multicast, documentation or
/// reserved ranges, nor IPv6 forms of those), or loopback when the settings
/// allow it (tests).
pub fn allowed_ip(ip: IpAddr, settings: &PushSettings) -> bool {
    if ip.is_loopback() {
        return settings.allow_loopback_http;
    }
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return allowed_ip(IpAddr::V4(v4), settings);
            }
            let s = v6.segments();
            !(v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || (s[0] == 0x0064 && s[1] == 0xff9b) // NAT64: an IPv4 address inside
                || (s[0] == 0x2002) // 6to4: the same
                || (s[0] == 0x2001 && s[1] == 0)) // Teredo
        }
    }
}

fn public_v4(ip: std::net::Ipv4Addr) -> bool {
    let o = ip.octets();
    !(ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_unspecified()
        || ip.is_multicast()
        || o[0] == 0
        || (o[0] == 100 && (o[1] & 0xc0) == 64) // shared (CGNAT) 100.64/10
        || (o[0] == 192 && o[1] == 0 && o[2] == 0) // IETF protocol assignments
        || (o[0] == 198 && (o[1] & 0xfe) == 18) // benchmarking 198.18/15
        || o[0] >= 240) // reserved
}

/// A checked endpoint: its URL, host, port and whether it is https.
#[derive(Clone, Debug)]
pub(crate) struct Endpoint {
    uri: axum::http::Uri,
    host: String,
    port: u16,
    tls: bool,
}

impl Endpoint {
    /// `url` as an endpoint this server may write to (before resolving its
    /// host): https on port 443 (or http on loopback when allowed), no user
    /// name, a host that is not an address this server may not reach.
    pub(crate) fn parse(url: &str, settings: &PushSettings) -> Result<Endpoint, String> {
        if url.len() > MAX_ENDPOINT {
            return Err(format!("an endpoint is at most {MAX_ENDPOINT} bytes"));
        }
        let uri: axum::http::Uri = url.parse().map_err(|_| "the endpoint is not a URL".to_string())?;
        let authority = uri.authority().ok_or("the endpoint has no host")?.clone();
        if authority.as_str().contains('@') {
            return Err("the endpoint may not carry a user name".into());
        }
        let host = authority.host().trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
        if host.is_empty() {
            return Err("the endpoint has no host".into());
        }
        let ip = host.parse::<IpAddr>().ok();
        let loopback = host == "localhost" || ip.is_some_and(|ip| ip.is_loopback());
        let (tls, port) = match uri.scheme_str() {
            Some("https") => (true, authority.port_u16().unwrap_or(443)),
            Some("http") if settings.allow_loopback_http && loopback => (false, authority.port_u16().unwrap_or(80)),
            _ => return Err("the endpoint must be an https URL".into()),
        };
        if tls && port != 443 && !(settings.allow_loopback_http && loopback) {
            return Err("the endpoint must be on port 443".into());
        }
        if loopback && !settings.allow_loopback_http {
            return Err("the endpoint must be at a public address".into());
        }
        if ip.is_some_and(|ip| !allowed_ip(ip, settings))
            || host.ends_with(".localhost")
            || host.ends_with(".local")
            || host.ends_with(".internal")
            || (ip.is_none() && !host.contains('.') && host != "localhost")
        {
            return Err("the endpoint must be at a public address".into());
        }
        Ok(Endpoint { uri, host, port, tls })
    }

    /// `scheme://host[:port]`: the JWT's audience, and the push service
    /// its sends are scheduled under (`push/queue.rs`).
    pub(crate) fn origin(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        let default = if self.tls { 443 } else { 80 };
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        if self.port == default {
            format!("{scheme}://{host}")
        } else {
            format!("{scheme}://{host}:{}", self.port)
        }
    }
}

/// A subscription's keys decoded and checked: the browser's public key (a
/// point of P-256) and its 16-byte auth secret.
pub(crate) fn browser_keys(p256dh: &str, auth: &str) -> Result<(p256::PublicKey, [u8; 16]), String> {
    if p256dh.len() > 100 || auth.len() > 32 {
        return Err("the subscription's keys are too long".into());
    }
    let decode = |s: &str| URL_SAFE_NO_PAD.decode(s.trim_end_matches('='));
    let public = decode(p256dh).map_err(|_| "keys.p256dh is not base64url")?;
    if public.len() != 65 {
        return Err("keys.p256dh is not an uncompressed P-256 key (65 bytes)".into());
    }
    let public = p256::PublicKey::from_sec1_bytes(&public).map_err(|_| "keys.p256dh is not a P-256 key")?;
    let auth = decode(auth).map_err(|_| "keys.auth is not base64url")?;
    let auth: [u8; 16] = auth.try_into().map_err(|_| "keys.auth is not 16 bytes")?;
    Ok((public, auth))
}

/// What one request carries.
pub(crate) struct Message<'a> {
    pub body: &'a str,
    pub ttl: u32,
    pub urgency: &'static str,
    pub topic: Option<&'a str>,
}

/// Why a message was not sent.
#[derive(Debug)]
pub(crate) enum SendError {
    /// On our side: the subscription's keys do not work, the request
    /// cannot be made. The push service is not to blame.
    Ours(String),
    /// On the push service's side: its name does not resolve to a public
    /// address, no connection, TLS or HTTP failed.
    Theirs(String),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Ours(why) | SendError::Theirs(why) => f.write_str(why),
        }
    }
}

/// The TLS client of the requests: the Mozilla roots (`webpki-roots`).
pub(crate) fn tls_connector() -> tokio_rustls::TlsConnector {
    let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map(|b| b.with_root_certificates(roots).with_no_client_auth())
        .unwrap_or_else(|_| {
            rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_protocol_versions(&[&rustls::version::TLS13])
                .expect("ring supports TLS 1.3")
                .with_root_certificates(rustls::RootCertStore::empty())
                .with_no_client_auth()
        });
    tokio_rustls::TlsConnector::from(Arc::new(config))
}

/// Sends one encrypted message to one subscription: the push service's
/// status. Dropped (a timeout), it closes its connection.
pub(crate) async fn send(
    sub: &PushSubscription,
    message: &Message<'_>,
    vapid: &Vapid,
    settings: &PushSettings,
    tls: &tokio_rustls::TlsConnector,
) -> Result<u16, SendError> {
    use http_body_util::Full;
    use hyper_util::rt::TokioIo;
    use SendError::{Ours, Theirs};

    let endpoint = Endpoint::parse(&sub.endpoint, settings).map_err(Ours)?;
    let (public, auth) = browser_keys(&sub.p256dh, &sub.auth).map_err(Ours)?;
    let auth = web_push_native::Auth::clone_from_slice(&auth);
    let payload = web_push_native::encrypt(message.body.as_bytes().to_vec(), &public, &auth)
        .map_err(|e| Ours(format!("cannot encrypt: {e}")))?;
    // The host is resolved once and checked: the connection goes to the
    // address checked (a name that resolves elsewhere later changes nothing).
    let addrs: Vec<SocketAddr> = match endpoint.host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, endpoint.port)],
        Err(_) => tokio::net::lookup_host((endpoint.host.as_str(), endpoint.port))
            .await
            .map_err(|e| Theirs(format!("cannot resolve {}: {e}", endpoint.host)))?
            .collect(),
    };
    let addr = addrs
        .into_iter()
        .find(|a| allowed_ip(a.ip(), settings))
        .ok_or_else(|| Theirs(format!("{} is not at a public address", endpoint.host)))?;
    let tcp = tokio::net::TcpStream::connect(addr).await.map_err(|e| Theirs(format!("cannot connect: {e}")))?;
    let now_s = u64::try_from(now_ms() / 1000).unwrap_or(0);
    let path = endpoint.uri.path_and_query().map_or("/", |p| p.as_str()).to_string();
    let mut request = axum::http::Request::post(path)
        .header(axum::http::header::HOST, endpoint.uri.authority().map_or("", |a| a.as_str()))
        .header("TTL", message.ttl)
        .header("Urgency", message.urgency)
        .header(axum::http::header::CONTENT_ENCODING, "aes128gcm")
        .header(axum::http::header::CONTENT_TYPE, "application/octet-stream")
        .header(axum::http::header::AUTHORIZATION, vapid.authorization(&endpoint.origin(), &settings.subject, now_s));
    if let Some(topic) = message.topic {
        request = request.header("Topic", topic);
    }
    let request =
        request.body(Full::new(axum::body::Bytes::from(payload))).map_err(|e| Ours(format!("a bad request: {e}")))?;
    let status = if endpoint.tls {
        let name = rustls::pki_types::ServerName::try_from(endpoint.host.clone())
            .map_err(|e| Ours(format!("a bad host name: {e}")))?;
        let stream = tls.connect(name, tcp).await.map_err(|e| Theirs(format!("TLS: {e}")))?;
        exchange(TokioIo::new(stream), request).await
    } else {
        exchange(TokioIo::new(tcp), request).await
    };
    status.map_err(Theirs)
}

/// One HTTP/1.1 request on a connection: the answer's status.
async fn exchange<T>(
    io: T,
    request: axum::http::Request<http_body_util::Full<axum::body::Bytes>>,
) -> Result<u16, String>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io).await.map_err(|e| format!("HTTP: {e}"))?;
    // The connection is driven here, not on a task of its own: when the
    // send is given up (dropped), the connection goes with it.
    let response = sender.send_request(request);
    tokio::pin!(conn, response);
    let response = tokio::select! {
        r = &mut response => r,
        // Closed (or failed) first: the answer, if it came, is ready.
        _ = &mut conn => response.await,
    };
    Ok(response.map_err(|e| format!("HTTP: {e}"))?.status().as_u16())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_written_to() {
        let real = PushSettings::default();
        let dev = PushSettings { allow_loopback_http: true, ..PushSettings::default() };
        for ip in ["142.250.74.42", "17.188.128.1", "2a00:1450:4001:82b::200a", "8.8.8.8"] {
            assert!(allowed_ip(ip.parse().unwrap(), &real), "{ip}");
        }
        for ip in [
            "127.0.0.1",
            "10.0.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.100.1.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "198.18.0.1",
            "192.0.0.8",
            "240.0.0.1",
            "::1",
            "::",
            "fd12::1",
            "fe80::1",
            "::ffff:192.168.0.1",
            "64:ff9b::a00:1",
            "2002:a00:1::1",
            "2001:db8::1",
        ] {
            assert!(!allowed_ip(ip.parse().unwrap(), &real), "{ip}");
        }
        assert!(allowed_ip("127.0.0.1".parse().unwrap(), &dev));
        assert!(!allowed_ip("10.0.0.1".parse().unwrap(), &dev), "loopback only, in tests");
    }

    #[test]
    fn the_audience_is_the_endpoint_s_origin() {
        let real = PushSettings::default();
        let e = Endpoint::parse("https://fcm.googleapis.com/fcm/send/abc", &real).unwrap();
        assert_eq!(e.origin(), "https://fcm.googleapis.com");
        let dev = PushSettings { allow_loopback_http: true, ..PushSettings::default() };
        let e = Endpoint::parse("http://127.0.0.1:9999/p", &dev).unwrap();
        assert_eq!(e.origin(), "http://127.0.0.1:9999");
    }
}
