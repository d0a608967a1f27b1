//! One HTTP exchange: the target checked (scheme, IP literal), one GET with one deadline
//! for headers and every body chunk, the body streamed through the size caps (or not
//! downloaded when it is not HTML), and the request and response heads as they are stored
//! in the WARC; failures classified (timeout, connect, transport, blocked address, …)
//! with whether trying again may help.

use std::net::IpAddr;

use chrono::{DateTime, Utc};
use tokio::time::Instant;
use url::Url;

use super::body::{self, BodyDecoder, Cut};
use super::net::{self, AddrPolicy};
use super::options::FetchConfig;
use super::previous::Validators;
use crate::source::revisit::RefersTo;
use crate::source::warc::is_html_content_type;

/// A request and its response as they go into the WARC.
pub(super) struct Exchange {
    pub(super) target: String,
    pub(super) request: Vec<u8>,
    pub(super) response_head: Vec<u8>,
    pub(super) body: Vec<u8>,
    pub(super) date: DateTime<Utc>,
    pub(super) ip: Option<IpAddr>,
    pub(super) truncated: Option<&'static str>,
    /// Set for a 304 to a conditional request: the earlier response it stands for (the
    /// exchange is stored as a revisit record).
    pub(super) revisit: Option<RefersTo>,
}

/// A failure of one request: kind, message, and whether trying again may help.
pub(super) struct Failure {
    pub(super) kind: &'static str,
    pub(super) message: String,
    pub(super) transient: bool,
}

/// A response with its body read (or skipped, for non-HTML).
pub(super) struct Fetched {
    pub(super) status: u16,
    pub(super) headers: reqwest::header::HeaderMap,
    pub(super) exchange: Exchange,
    pub(super) cut: Option<Cut>,
    pub(super) skipped_body: bool,
}

fn error_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(s) = cur {
        let t = s.to_string();
        if !parts.iter().any(|p| p.contains(&t)) {
            parts.push(t);
        }
        cur = s.source();
    }
    parts.join(": ")
}

/// Whether an error chain holds a TLS error (certificate not trusted, handshake failed).
/// `std::io::Error::source` skips the error it wraps, so that one is looked at too.
fn tls_in_chain(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = cur {
        if e.is::<rustls::Error>() {
            return true;
        }
        if let Some(inner) = e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            if tls_in_chain(inner) {
                return true;
            }
        }
        cur = e.source();
    }
    false
}

fn classify(e: &reqwest::Error) -> Failure {
    if let Some(b) = net::blocked_in_chain(e) {
        return Failure {
            kind: "blocked_address",
            message: b,
            transient: false,
        };
    }
    // Not retried within the run: an untrusted certificate stays untrusted (a later run,
    // with --ca-cert, may succeed).
    if tls_in_chain(e) {
        return Failure {
            kind: "tls",
            message: error_text(e),
            transient: false,
        };
    }
    let message = error_text(e);
    let kind = if e.is_timeout() {
        "timeout"
    } else if e.is_connect() {
        "connect"
    } else {
        "transport"
    };
    Failure {
        kind,
        message,
        transient: true,
    }
}

/// Refuse non-http(s) schemes and IP literals outside the address policy.
pub(super) fn check_target(url: &Url, policy: &AddrPolicy) -> std::result::Result<(), Failure> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Failure {
            kind: "bad_scheme",
            message: format!("scheme {}: only http and https are fetched", url.scheme()),
            transient: false,
        });
    }
    let ip = match url.host() {
        Some(url::Host::Ipv4(a)) => Some(IpAddr::V4(a)),
        Some(url::Host::Ipv6(a)) => Some(IpAddr::V6(a)),
        Some(url::Host::Domain(_)) => None,
        None => {
            return Err(Failure {
                kind: "bad_url",
                message: "no host".into(),
                transient: false,
            })
        }
    };
    if let Some(ip) = ip {
        policy.check(ip).map_err(|message| Failure {
            kind: "blocked_address",
            message,
            transient: false,
        })?;
    }
    Ok(())
}

fn request_head(url: &Url, cfg: &FetchConfig, cond: Option<&Validators>) -> Vec<u8> {
    let mut target = url.path().to_string();
    if let Some(q) = url.query() {
        target.push('?');
        target.push_str(q);
    }
    let host = match url.port() {
        Some(p) => format!("{}:{p}", url.host_str().unwrap_or("")),
        None => url.host_str().unwrap_or("").to_string(),
    };
    let mut head = format!(
        "GET {target} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: {}\r\nAccept: {ACCEPT}\r\nAccept-Encoding: {ACCEPT_ENCODING}\r\n",
        cfg.user_agent
    );
    for (name, value) in conditional_headers(cond) {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head.into_bytes()
}

/// `If-None-Match` / `If-Modified-Since` from the last crawl's validators (values that
/// could not be header values are left out).
fn conditional_headers(cond: Option<&Validators>) -> Vec<(reqwest::header::HeaderName, String)> {
    let Some(v) = cond else { return Vec::new() };
    [
        (reqwest::header::IF_NONE_MATCH, &v.etag),
        (reqwest::header::IF_MODIFIED_SINCE, &v.last_modified),
    ]
    .into_iter()
    .filter_map(|(name, value)| {
        let value = value.as_ref()?;
        reqwest::header::HeaderValue::from_str(value).ok()?;
        Some((name, value.clone()))
    })
    .collect()
}

const ACCEPT: &str = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
const ACCEPT_ENCODING: &str = "gzip, deflate, br";

/// The response's status line and headers as stored: the body is stored decoded and
/// de-chunked, so `Content-Length` is the stored length and the original
/// `Content-Encoding`, `Transfer-Encoding` and `Content-Length` are kept under
/// `X-Thresher-Orig-…`.
fn response_head(resp: &reqwest::Response, decoded: bool, stored_len: usize) -> Vec<u8> {
    let version = match resp.version() {
        reqwest::Version::HTTP_09 => "HTTP/0.9",
        reqwest::Version::HTTP_10 => "HTTP/1.0",
        reqwest::Version::HTTP_2 => "HTTP/2",
        reqwest::Version::HTTP_3 => "HTTP/3",
        _ => "HTTP/1.1",
    };
    let status = resp.status();
    let mut head = format!(
        "{version} {} {}\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or("")
    )
    .into_bytes();
    for (name, value) in resp.headers() {
        let n = name.as_str();
        let rename = matches!(n, "content-length" | "transfer-encoding")
            || (n == "content-encoding" && decoded);
        if rename {
            head.extend_from_slice(b"X-Thresher-Orig-");
        }
        head.extend_from_slice(n.as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value.as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(format!("Content-Length: {stored_len}\r\n\r\n").as_bytes());
    head
}

pub(super) fn header_str(
    h: &reqwest::header::HeaderMap,
    name: reqwest::header::HeaderName,
) -> Option<String> {
    h.get(name)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.trim().to_string())
}

/// One GET with `client` under `cfg`'s timeout, body streamed through the caps.
/// `html_only`: a 2xx response that is not HTML-like is not downloaded. `cond`: the last
/// crawl's validators (a conditional GET).
pub(super) async fn request(
    client: &reqwest::Client,
    cfg: &FetchConfig,
    url: &Url,
    html_only: bool,
    max_body: usize,
    max_decoded: usize,
    cond: Option<&Validators>,
) -> std::result::Result<Fetched, Failure> {
    let deadline = Instant::now() + cfg.timeout;
    let timeout = || Failure {
        kind: "timeout",
        message: format!("no complete response within {:?}", cfg.timeout),
        transient: true,
    };
    let mut get = client
        .get(url.clone())
        .header(reqwest::header::ACCEPT, ACCEPT)
        .header(reqwest::header::ACCEPT_ENCODING, ACCEPT_ENCODING);
    for (name, value) in conditional_headers(cond) {
        get = get.header(name, value);
    }
    let send = get.send();
    let mut resp = match tokio::time::timeout_at(deadline, send).await {
        Err(_) => return Err(timeout()),
        Ok(Err(e)) => return Err(classify(&e)),
        Ok(Ok(r)) => r,
    };
    let date = Utc::now();
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let content_type = header_str(&headers, reqwest::header::CONTENT_TYPE);
    let ip = resp.remote_addr().map(|a| a.ip());
    let request = request_head(url, cfg, cond);
    if html_only
        && (200..300).contains(&status)
        && content_type
            .as_deref()
            .is_some_and(|ct| !is_html_content_type(ct))
    {
        let response_head = response_head(&resp, false, 0);
        return Ok(Fetched {
            status,
            headers,
            exchange: Exchange {
                target: url.to_string(),
                request,
                response_head,
                body: Vec::new(),
                date,
                ip,
                truncated: Some("unspecified"),
                revisit: None,
            },
            cut: None,
            skipped_body: true,
        });
    }
    let encoding = header_str(&headers, reqwest::header::CONTENT_ENCODING)
        .map(|e| e.to_ascii_lowercase())
        .filter(|e| body::supported_encoding(e));
    let mut decoder = BodyDecoder::new(encoding.as_deref(), max_body, max_decoded);
    loop {
        match tokio::time::timeout_at(deadline, resp.chunk()).await {
            Err(_) => return Err(timeout()),
            Ok(Err(e)) => {
                let mut f = classify(&e);
                f.message = format!("after {} body bytes: {}", decoder.raw_len(), f.message);
                return Err(f);
            }
            Ok(Ok(None)) => break,
            Ok(Ok(Some(chunk))) => match decoder.push(&chunk) {
                Ok(true) => {}
                Ok(false) => break, // a cap: stop reading, the connection is dropped
                Err(message) => {
                    return Err(Failure {
                        kind: "decompress",
                        message,
                        transient: false,
                    })
                }
            },
        }
    }
    let decoded = decoder.encoding.is_some();
    let (body, cut) = decoder.finish().map_err(|message| Failure {
        kind: "decompress",
        message,
        transient: false,
    })?;
    let response_head = response_head(&resp, decoded, body.len());
    Ok(Fetched {
        status,
        headers,
        exchange: Exchange {
            target: url.to_string(),
            request,
            response_head,
            body,
            date,
            ip,
            truncated: cut.map(|_| "length"),
            revisit: None,
        },
        cut,
        skipped_body: false,
    })
}
