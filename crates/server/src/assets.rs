//! The embedded UI (`web/`): each file compressed once, on its first use
//! (brotli and gzip), and kept; served as the client's `Accept-Encoding`
//! asks (brotli, else gzip, else as is) with `Vary: Accept-Encoding` and a
//! strong ETag per encoding. Requests for files are rate limited per client
//! address ([`limited`]), apart from the API's allowance.

use std::collections::HashMap;
use std::io::Write;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;

use crate::config::Rate;
use crate::error::ApiError;
use crate::listen::{addr_key, client_ip};

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
struct Web;

/// One file as served: its bytes as they are and compressed.
struct Asset {
    mime: HeaderValue,
    /// The hex of the content's hash (the ETag's stem).
    tag: String,
    plain: Bytes,
    /// Brotli and gzip, when the type compresses.
    br: Option<Bytes>,
    gzip: Option<Bytes>,
    html: bool,
}

/// Files compressed so far (each once; a test's witness).
static COMPRESSED: AtomicU64 = AtomicU64::new(0);

/// The files served, by content hash (in debug builds `web/` is read from
/// disk, and a changed file is another entry). Bounded: cleared past
/// [`MAX_CACHED`] (only edits during development get there).
static CACHE: LazyLock<Mutex<HashMap<[u8; 32], Cell>>> = LazyLock::new(Default::default);
/// A file, once compressed (whoever asks first compresses; the others wait).
type Cell = Arc<OnceLock<Asset>>;
const MAX_CACHED: usize = 512;

/// Whether a type is worth compressing (text, scripts, JSON, SVG), as
/// tower-http's compression layer judges (it would compress the rest of
/// the responses).
fn compressible(mime: &str) -> bool {
    mime.starts_with("text/")
        || mime.contains("javascript")
        || mime.contains("json")
        || mime.contains("xml")
        || mime.contains("svg")
}

impl Asset {
    fn new(file: &rust_embed::EmbeddedFile) -> Asset {
        let mime = file.metadata.mimetype();
        let plain = Bytes::from(file.data.to_vec());
        let (br, gzip) = if compressible(mime) && plain.len() >= 32 {
            COMPRESSED.fetch_add(1, Ordering::Relaxed);
            (Some(brotli_of(&plain)), Some(gzip_of(&plain)))
        } else {
            (None, None)
        };
        Asset {
            mime: HeaderValue::from_str(mime).unwrap_or(HeaderValue::from_static("application/octet-stream")),
            tag: file.metadata.sha256_hash().iter().take(12).map(|b| format!("{b:02x}")).collect(),
            html: mime.starts_with("text/html"),
            plain,
            br,
            gzip,
        }
    }

    /// The bytes, `Content-Encoding` and ETag for a client accepting `accept`.
    fn variant(&self, accept: &str) -> (&Bytes, Option<&'static str>, String) {
        match (&self.br, &self.gzip) {
            (Some(br), _) if accepts(accept, "br") => (br, Some("br"), format!("\"{}-br\"", self.tag)),
            (_, Some(gz)) if accepts(accept, "gzip") => (gz, Some("gzip"), format!("\"{}-gz\"", self.tag)),
            _ => (&self.plain, None, format!("\"{}\"", self.tag)),
        }
    }
}

fn brotli_of(data: &[u8]) -> Bytes {
    let mut out = Vec::new();
    {
        // Once per file: the best quality.
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
        let _ = w.write_all(data);
    }
    Bytes::from(out)
}

fn gzip_of(data: &[u8]) -> Bytes {
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = w.write_all(data);
    Bytes::from(w.finish().unwrap_or_default())
}

/// Whether an `Accept-Encoding` value takes `coding` (by name or `*`, with
/// a weight above zero).
fn accepts(accept: &str, coding: &str) -> bool {
    accept.split(',').any(|item| {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let refused =
            parts.any(|p| p.trim().strip_prefix("q=").is_some_and(|q| q.trim().parse::<f32>().is_ok_and(|q| q <= 0.0)));
        (name.eq_ignore_ascii_case(coding) || name == "*") && !refused
    })
}

/// The file at `path`, compressed at its first use.
fn asset(path: &str) -> Option<Cell> {
    let file = Web::get(path)?;
    let hash = file.metadata.sha256_hash();
    let cell = {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= MAX_CACHED && !cache.contains_key(&hash) {
            cache.clear();
        }
        Arc::clone(cache.entry(hash).or_default())
    };
    // Whoever comes first compresses; the others wait for it.
    cell.get_or_init(|| Asset::new(&file));
    Some(cell)
}

/// The embedded UI; unknown `/api/` paths are JSON 404s.
pub async fn static_file(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path == "api" || path.starts_with("api/") {
        return ApiError::NotFound(format!("/{path}")).into_response();
    }
    let path = if path.is_empty() { "index.html" } else { path };
    let Some(cell) = asset(path) else {
        return ApiError::NotFound(format!("/{path}")).into_response();
    };
    let Some(file) = cell.get() else {
        return ApiError::NotFound(format!("/{path}")).into_response();
    };
    let accept = headers.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).unwrap_or("");
    let (bytes, encoding, etag) = file.variant(accept);
    // Any encoding's tag names the same content.
    let held = headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).is_some_and(|v| {
        v.split(',').map(|t| t.trim().trim_matches('"')).any(|t| t == "*" || t.split('-').next() == Some(&file.tag))
    });
    let mut resp =
        if held { StatusCode::NOT_MODIFIED.into_response() } else { Response::new(Body::from(bytes.clone())) };
    let h = resp.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if file.br.is_some() {
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    if held {
        return resp;
    }
    h.insert(header::CONTENT_TYPE, file.mime.clone());
    if let Some(e) = encoding {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(e));
    }
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if file.html {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; \
                 connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
            ),
        );
    }
    resp
}

type KeyedLimiter = crate::limits::Keyed<IpAddr>;

/// `router` with requests outside `/api/` (the UI's files) limited to
/// `rate` per client address (keyed by [`addr_key`]), apart from the API's allowance (a first visit
/// loads 18 files); over it, `429 rate_limited`. No limit without a rate.
pub fn limited(router: Router, rate: Option<Rate>, ipv6_prefix: u8) -> Router {
    let Some(rate) = rate else {
        return router;
    };
    let limiter: Arc<KeyedLimiter> = Arc::new(KeyedLimiter::new(rate.quota()));
    router.layer(middleware::from_fn(move |req: Request, next: Next| {
        let limiter = Arc::clone(&limiter);
        async move {
            if !req.uri().path().starts_with("/api/")
                && limiter.check(&addr_key(client_ip(req.extensions()), ipv6_prefix)).is_err()
            {
                return ApiError::RateLimited.into_response();
            }
            next.run(req).await
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::services::AppState;
    use crate::store::Store;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    /// The modules a module imports (`import … from './x.js'`), not those it loads later (`import('./x.js')`).
    fn imports(module: &str) -> Vec<String> {
        let text = String::from_utf8(Web::get(&format!("js/{module}")).unwrap().data.to_vec()).unwrap();
        text.lines()
            .filter(|l| l.starts_with("import "))
            .filter_map(|l| l.split("from './").nth(1).or_else(|| l.strip_prefix("import './")))
            .map(|rest| rest.split('\'').next().unwrap().to_string())
            .collect()
    }

    #[test]
    fn the_page_preloads_every_module_app_js_imports_and_no_other() {
        let mut graph = std::collections::BTreeSet::new();
        let mut todo = imports("app.js");
        while let Some(m) = todo.pop() {
            if graph.insert(m.clone()) {
                todo.extend(imports(&m));
            }
        }
        assert!(graph.contains("game.js") && graph.contains("chatlog.js"), "{graph:?}");
        let page = String::from_utf8(Web::get("index.html").unwrap().data.to_vec()).unwrap();
        let preloaded: std::collections::BTreeSet<String> = page
            .split("<link rel=\"modulepreload\" href=\"js/")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().to_string())
            .collect();
        assert_eq!(preloaded, graph, "index.html's modulepreload links");
    }

    async fn get(app: &Router, path: &str, headers: &[(&str, &str)]) -> Response {
        let mut req = axum::http::Request::get(path);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        app.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap()
    }

    fn app(config: Config) -> Router {
        crate::routes::app(AppState::new(Store::in_memory().unwrap(), config))
    }

    #[tokio::test]
    async fn files_are_compressed_once_and_served_as_asked() {
        let app = app(Config::quick());
        let first = get(&app, "/js/game.js", &[("accept-encoding", "gzip, deflate, br")]).await;
        assert_eq!(first.headers()[header::CONTENT_ENCODING], "br");
        assert_eq!(first.headers()[header::VARY], "accept-encoding");
        let etag = first.headers()[header::ETAG].to_str().unwrap().to_string();
        let after_first = COMPRESSED.load(Ordering::Relaxed);
        assert!(after_first >= 1);
        // Again, and in the other encodings: no compressing.
        let again = get(&app, "/js/game.js", &[("accept-encoding", "br")]).await;
        assert_eq!(again.headers()[header::ETAG].to_str().unwrap(), etag);
        let gz = get(&app, "/js/game.js", &[("accept-encoding", "gzip;q=1, br;q=0")]).await;
        assert_eq!(gz.headers()[header::CONTENT_ENCODING], "gzip");
        let plain = get(&app, "/js/game.js", &[]).await;
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(COMPRESSED.load(Ordering::Relaxed), after_first, "game.js was compressed again");
        // Each decodes to the file.
        let file = Web::get("js/game.js").unwrap().data.to_vec();
        let body = |r: Response| async { r.into_body().collect().await.unwrap().to_bytes().to_vec() };
        let mut br = Vec::new();
        brotli::BrotliDecompress(&mut body(again).await.as_slice(), &mut br).unwrap();
        assert_eq!(br, file);
        let mut gunzipped = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(body(gz).await.as_slice()), &mut gunzipped)
            .unwrap();
        assert_eq!(gunzipped, file);
        assert_eq!(body(plain).await, file);
        // Revalidation by any encoding's tag.
        let held = get(&app, "/js/game.js", &[("if-none-match", &etag)]).await;
        assert_eq!(held.status(), StatusCode::NOT_MODIFIED);
    }

    #[tokio::test]
    async fn a_flood_of_file_requests_from_one_address_is_refused() {
        let rate = Rate { per_second: 1, burst: 5 };
        let app = app(Config { http_rate: Some(rate), ..Config::quick() });
        let mut statuses = Vec::new();
        for _ in 0..10 {
            statuses.push(get(&app, "/js/game.js", &[("accept-encoding", "br")]).await.status());
        }
        assert!(statuses[..5].iter().all(|s| *s == StatusCode::OK), "{statuses:?}");
        assert_eq!(statuses[9], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
        // The API keeps its own allowance.
        assert_eq!(get(&app, "/api/health", &[]).await.status(), StatusCode::OK);
    }
}
