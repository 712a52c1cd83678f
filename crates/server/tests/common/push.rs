//! A push service and a browser of the tests' own (tests/push.rs,
//! tests/push_fair.rs): the service on 127.0.0.1 passes on every request it
//! receives; the browser has a P-256 key pair and an auth secret, and
//! decrypts what the server sent it as a browser would.

use std::net::SocketAddr;
use std::time::Duration;

use aes_gcm::aead::{Aead, KeyInit};
use axum::Router;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use carcassonne_server::{app, AppState, Config, PushSettings, Store};
use hkdf::Hkdf;
use http_body_util::BodyExt;
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

pub const SUBJECT: &str = "mailto:push-test@example.com";

/// One request the push service received.
#[derive(Debug)]
pub struct Received {
    pub path: String,
    pub headers: axum::http::HeaderMap,
    pub body: Vec<u8>,
}

/// How long the push service takes to answer a path that begins `/slow`.
pub const SLOW_ANSWER: Duration = Duration::from_millis(250);

/// A push service on 127.0.0.1: every request is passed on; paths that
/// begin `/gone` are answered 410, those that begin `/hang` after a
/// minute (and passed on again then), those that begin `/slow` after
/// [`SLOW_ANSWER`], the others 201 at once.
pub async fn push_service() -> (SocketAddr, mpsc::UnboundedReceiver<Received>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let tx = tx.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                    let tx = tx.clone();
                    async move {
                        let path = req.uri().path().to_string();
                        let headers = req.headers().clone();
                        let body = req.into_body().collect().await.map(|b| b.to_bytes().to_vec()).unwrap_or_default();
                        let status = if path.starts_with("/gone") { 410 } else { 201 };
                        if path.starts_with("/hang") {
                            // A push service that takes its time.
                            let _ =
                                tx.send(Received { path: path.clone(), headers: headers.clone(), body: body.clone() });
                            tokio::time::sleep(Duration::from_secs(60)).await;
                            let _ = tx.send(Received { path, headers, body });
                        } else if path.starts_with("/slow") {
                            // A busy one: passed on as it arrives, answered later.
                            let _ = tx.send(Received { path, headers, body });
                            tokio::time::sleep(SLOW_ANSWER).await;
                        } else {
                            let _ = tx.send(Received { path, headers, body });
                        }
                        hyper::Response::builder()
                            .status(status)
                            .body(http_body_util::Full::new(axum::body::Bytes::new()))
                    }
                });
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
            });
        }
    });
    (addr, rx)
}

pub fn push_config() -> Config {
    Config {
        push: PushSettings { subject: SUBJECT.into(), allow_loopback_http: true, ..PushSettings::default() },
        ..Config::quick()
    }
}

pub fn server_with(store: Store, config: Config) -> (Router, AppState) {
    let state = AppState::new(store, config);
    (app(state.clone()), state)
}

/// The test's browser: a P-256 key pair and an auth secret.
pub struct Browser {
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    pub fn new(seed: &str) -> Browser {
        let bytes = Sha256::digest(seed.as_bytes());
        let secret = p256::SecretKey::from_slice(&bytes).unwrap();
        let auth: [u8; 16] = Sha256::digest(format!("auth {seed}").as_bytes())[..16].try_into().unwrap();
        Browser { secret, auth }
    }

    pub fn public(&self) -> Vec<u8> {
        self.secret.public_key().to_encoded_point(false).as_bytes().to_vec()
    }

    /// The subscription as `PushSubscription.toJSON()` gives it.
    pub fn subscription(&self, endpoint: &str) -> Value {
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": { "p256dh": URL_SAFE_NO_PAD.encode(self.public()), "auth": URL_SAFE_NO_PAD.encode(self.auth) },
        })
    }

    /// Decrypts an `aes128gcm` Web Push body (RFC 8291 §3.4, RFC 8188 §2).
    pub fn decrypt(&self, body: &[u8]) -> Vec<u8> {
        // The header: salt (16), record size (4), key id length (1), key id:
        // the server's ephemeral public key.
        assert!(body.len() > 21, "a body with its header");
        let salt = &body[..16];
        let rs = u32::from_be_bytes(body[16..20].try_into().unwrap()) as usize;
        let idlen = body[20] as usize;
        assert_eq!(idlen, 65, "the key id is the server's uncompressed P-256 key");
        let as_public = &body[21..21 + idlen];
        let records = &body[21 + idlen..];
        assert!(records.len() <= rs, "one record");
        let as_key = p256::PublicKey::from_sec1_bytes(as_public).expect("a P-256 point");
        let shared = p256::ecdh::diffie_hellman(self.secret.to_nonzero_scalar(), as_key.as_affine());
        // RFC 8291 §3.3: IKM from the auth secret and the ECDH secret.
        let mut key_info = b"WebPush: info\0".to_vec();
        key_info.extend_from_slice(&self.public());
        key_info.extend_from_slice(as_public);
        let mut ikm = [0u8; 32];
        Hkdf::<Sha256>::new(Some(&self.auth), shared.raw_secret_bytes().as_slice())
            .expand(&key_info, &mut ikm)
            .unwrap();
        // RFC 8188 §2.2, §2.3: the content key and nonce from the salt.
        let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
        let mut cek = [0u8; 16];
        prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek).unwrap();
        let mut nonce = [0u8; 12];
        prk.expand(b"Content-Encoding: nonce\0", &mut nonce).unwrap();
        // The first (and last) record: its sequence number 0 leaves the nonce as is.
        let cipher = aes_gcm::Aes128Gcm::new_from_slice(&cek).unwrap();
        let mut plain = cipher.decrypt(aes_gcm::Nonce::from_slice(&nonce), records).expect("the record decrypts");
        // Padding: a 0x02 delimiter (last record), then zeros.
        while plain.last() == Some(&0) {
            plain.pop();
        }
        assert_eq!(plain.pop(), Some(2), "the last record's delimiter");
        plain
    }
}
