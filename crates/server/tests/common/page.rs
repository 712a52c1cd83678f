//! Requests as the server's own pages send them, through the router
//! (`oneshot`): a host, an `Origin`, a `Sec-Fetch-Site`, a client address
//! and the session cookie, each settable (tests/accounts.rs,
//! tests/passkeys.rs).

use std::net::{IpAddr, SocketAddr};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::Router;
use carcassonne_server::{COOKIE, DEVICE_COOKIE};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// An answer: status, `Set-Cookie`, `Retry-After`, body.
pub struct Answer {
    pub status: StatusCode,
    pub set_cookie: Option<String>,
    /// Every `Set-Cookie` (the session's, then the device's).
    pub set_cookies: Vec<String>,
    pub retry_after: Option<String>,
    pub body: Value,
}

impl Answer {
    /// The error code, or "".
    pub fn code(&self) -> &str {
        self.body["error"].as_str().unwrap_or("")
    }

    /// The device token the answer's device cookie sets, if it sets one.
    pub fn device(&self) -> Option<String> {
        let prefix = format!("{DEVICE_COOKIE}=");
        let c = self.set_cookies.iter().find(|c| c.starts_with(&prefix))?;
        Some(c.strip_prefix(&prefix)?.split(';').next()?.to_string())
    }

    /// The session token the answer's cookie sets.
    pub fn token(&self) -> String {
        let c = self.set_cookie.as_deref().expect("a cookie");
        c.strip_prefix(&format!("{COOKIE}=")).unwrap().split(';').next().unwrap().to_string()
    }
}

/// A request from a page at `origin` served by `host`, from `ip`, with the session `token`.
pub struct Req<'a> {
    pub method: &'a str,
    pub uri: &'a str,
    pub body: Option<Vec<u8>>,
    pub host: &'a str,
    pub origin: Option<&'a str>,
    pub fetch_site: Option<&'a str>,
    pub token: Option<&'a str>,
    /// The device cookie's token.
    pub device: Option<&'a str>,
    pub ip: IpAddr,
}

/// A request from `http://{host}`'s own page, from 192.0.2.1, signed out.
pub fn req<'a>(host: &'a str, origin: &'a str, method: &'a str, uri: &'a str, body: Option<Value>) -> Req<'a> {
    Req {
        method,
        uri,
        body: body.map(|b| b.to_string().into_bytes()),
        host,
        origin: Some(origin),
        fetch_site: None,
        token: None,
        device: None,
        ip: "192.0.2.1".parse().unwrap(),
    }
}

/// Sends `r` through `app`; the session cookie goes beside another cookie,
/// as a browser's would.
pub async fn send(app: &Router, r: Req<'_>) -> Answer {
    let mut b = Request::builder().method(r.method).uri(r.uri).header("host", r.host);
    if r.body.is_some() {
        b = b.header("content-type", "application/json");
    }
    if let Some(o) = r.origin {
        b = b.header("origin", o);
    }
    if let Some(f) = r.fetch_site {
        b = b.header("sec-fetch-site", f);
    }
    let mut cookies = vec!["theme=dark".to_string()];
    cookies.extend(r.token.map(|t| format!("{COOKIE}={t}")));
    cookies.extend(r.device.map(|d| format!("{DEVICE_COOKIE}={d}")));
    if cookies.len() > 1 {
        b = b.header("cookie", cookies.join("; "));
    }
    let mut request = b.body(r.body.map(Body::from).unwrap_or_else(Body::empty)).unwrap();
    request.extensions_mut().insert(ConnectInfo(SocketAddr::new(r.ip, 40_000)));
    let resp = app.clone().oneshot(request).await.unwrap();
    let (status, set_cookie, retry_after, set_cookies) = {
        let header = |name: &str| resp.headers().get(name).map(|v| v.to_str().unwrap().to_string());
        let all = resp.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_string()).collect();
        (resp.status(), header("set-cookie"), header("retry-after"), all)
    };
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    Answer { status, set_cookie, set_cookies, retry_after, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null) }
}
