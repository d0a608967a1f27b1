//! The test web servers of the fetch tests: HTTP (or HTTPS with a certificate from a CA
//! generated here with rcgen) on loopback addresses, one thread per connection,
//! `Connection: close`; every request seen is kept (path, headers, time) for the tests to
//! check what the crawler sent.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::common;

pub enum Reply {
    Full {
        status: u16,
        headers: Vec<(&'static str, String)>,
        body: Vec<u8>,
    },
    /// Wait, then answer 200 (longer than the client's timeout).
    Slow(Duration),
    /// 200 text/html whose body never ends (until the client hangs up, 256 MiB at most).
    Endless,
}

pub fn html(status: u16, body: &str) -> Reply {
    Reply::Full {
        status,
        headers: vec![("Content-Type", "text/html; charset=utf-8".into())],
        body: body.as_bytes().to_vec(),
    }
}

pub fn redirect(status: u16, to: &str) -> Reply {
    Reply::Full {
        status,
        headers: vec![("Location", to.into())],
        body: Vec::new(),
    }
}

pub fn article(title: &str) -> String {
    format!(
        "<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a></nav><article><h1>{title}</h1>\
         <p>{title} is the subject of this page, a paragraph long enough to be the main text of the page for the extractor.</p>\
         <p>A second paragraph about {title} follows with more words so that the heuristic sees real content here.</p>\
         </article></body></html>"
    )
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Hit {
    pub path: String,
    pub user_agent: String,
    /// Request headers, names in lower case.
    pub headers: Vec<(String, String)>,
    pub at: Instant,
}

impl Hit {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The handler sees the path, how many times it was requested before, and the request.
type Handler = dyn Fn(&str, usize, &Hit) -> Reply + Send + Sync;

pub struct Server {
    pub addr: SocketAddr,
    scheme: &'static str,
    hits: Arc<Mutex<Vec<Hit>>>,
    pub max_in_flight: Arc<AtomicUsize>,
}

impl Server {
    /// Serve HTTP on `ip` (a loopback address).
    pub fn start(
        ip: &str,
        handler: impl Fn(&str, usize) -> Reply + Send + Sync + 'static,
    ) -> Server {
        Server::start_with(ip, None, move |p, n, _| handler(p, n))
    }

    /// Serve HTTP, or HTTPS with `tls`, on `ip`; the handler also sees the request.
    pub fn start_with(
        ip: &str,
        tls: Option<Arc<rustls::ServerConfig>>,
        handler: impl Fn(&str, usize, &Hit) -> Reply + Send + Sync + 'static,
    ) -> Server {
        let listener = TcpListener::bind((ip, 0)).expect("bind loopback");
        let addr = listener.local_addr().unwrap();
        let hits = Arc::new(Mutex::new(Vec::new()));
        let in_flight = Arc::new(AtomicUsize::new(0));
        let max_in_flight = Arc::new(AtomicUsize::new(0));
        let handler: Arc<Handler> = Arc::new(handler);
        let scheme = if tls.is_some() { "https" } else { "http" };
        let (h, inf, maxf) = (hits.clone(), in_flight.clone(), max_in_flight.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (handler, hits, inf, maxf) =
                    (handler.clone(), h.clone(), inf.clone(), maxf.clone());
                let tls = tls.clone();
                std::thread::spawn(move || {
                    stream.set_read_timeout(Some(Duration::from_secs(5))).ok();
                    match tls {
                        None => serve_one(stream, &*handler, &hits, &inf, &maxf),
                        Some(cfg) => {
                            let conn = rustls::ServerConnection::new(cfg).expect("TLS session");
                            let mut s = rustls::StreamOwned::new(conn, stream);
                            serve_one(&mut s, &*handler, &hits, &inf, &maxf);
                            s.conn.send_close_notify();
                            let _ = s.flush();
                        }
                    }
                });
            }
        });
        Server {
            addr,
            scheme,
            hits,
            max_in_flight,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}://{}{path}", self.scheme, self.addr)
    }

    pub fn hits(&self, path: &str) -> usize {
        self.hits
            .lock()
            .unwrap()
            .iter()
            .filter(|h| h.path == path)
            .count()
    }

    pub fn all_hits(&self) -> Vec<Hit> {
        self.hits.lock().unwrap().clone()
    }
}

fn serve_one<S: Read + Write>(
    mut stream: S,
    handler: &Handler,
    hits: &Mutex<Vec<Hit>>,
    in_flight: &AtomicUsize,
    max_in_flight: &AtomicUsize,
) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < 65536 {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    let head = String::from_utf8_lossy(&buf).into_owned();
    let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
    let headers: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| {
            let (n, v) = l.split_once(':')?;
            Some((n.trim().to_ascii_lowercase(), v.trim().to_string()))
        })
        .collect();
    let user_agent = headers
        .iter()
        .find(|(n, _)| n == "user-agent")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let hit = Hit {
        path: path.clone(),
        user_agent,
        headers,
        at: Instant::now(),
    };
    let nth = {
        let mut hits = hits.lock().unwrap();
        let nth = hits.iter().filter(|h| h.path == path).count();
        hits.push(hit.clone());
        nth
    };
    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    max_in_flight.fetch_max(now, Ordering::SeqCst);
    let reply = handler(&path, nth, &hit);
    // Leave the count before the reply goes out: once the client has read it, it may
    // start its next request before this thread is scheduled again (seen under load).
    in_flight.fetch_sub(1, Ordering::SeqCst);
    let _ = respond(&mut stream, reply);
}

fn respond(stream: &mut impl Write, reply: Reply) -> std::io::Result<()> {
    match reply {
        Reply::Full {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\nConnection: close\r\nContent-Length: {}\r\n",
                body.len()
            );
            for (n, v) in headers {
                head.push_str(&format!("{n}: {v}\r\n"));
            }
            head.push_str("\r\n");
            stream.write_all(head.as_bytes())?;
            stream.write_all(&body)?;
            stream.flush()
        }
        Reply::Slow(wait) => {
            std::thread::sleep(wait);
            let body = "<html><body><p>too late</p></body></html>";
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
        }
        Reply::Endless => {
            stream.write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: text/html\r\n\r\n<html><body>")?;
            let line =
                b"<p>and on and on and on and on and on and on and on and on</p>\n".repeat(1000);
            let mut sent = 0;
            while sent < 256 << 20 {
                stream.write_all(&line)?;
                sent += line.len();
            }
            Ok(())
        }
    }
}

/// A certificate authority made for one test, and a server configuration whose
/// certificate (for `127.0.0.1` and `localhost`) it signed.
pub struct TestCa {
    /// The CA's certificate, PEM (what `--ca-cert` is given).
    pub ca_pem: String,
    pub server: Arc<rustls::ServerConfig>,
}

pub fn test_ca(name: &str) -> TestCa {
    use rcgen::{
        BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose,
    };
    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, format!("{name} test CA"));
    ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_cert = ca_params.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca_params, ca_key);

    let leaf_key = KeyPair::generate().unwrap();
    let mut leaf_params =
        CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()]).unwrap();
    leaf_params
        .distinguished_name
        .push(DnType::CommonName, "127.0.0.1");
    let leaf = leaf_params.signed_by(&leaf_key, &issuer).unwrap();

    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(rustls::pki_types::PrivatePkcs8KeyDer::from(
        leaf_key.serialize_der(),
    ));
    let server = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![leaf.der().clone(), ca_cert.der().clone()], key)
    .unwrap();
    TestCa {
        ca_pem: ca_cert.pem(),
        server: Arc::new(server),
    }
}

/// Manifest lines keyed by URL.
pub fn manifest(path: &Path) -> HashMap<String, Value> {
    common::jsonl(path)
        .into_iter()
        .map(|r| (r["url"].as_str().unwrap().to_string(), r))
        .collect()
}

/// Options that keep every test short and bounded.
pub const FAST: &[&str] = &[
    "--allow-private",
    "--delay",
    "0",
    "--timeout",
    "1500ms",
    "--connect-timeout",
    "1500ms",
    "--retries",
    "1",
    "--retry-delay",
    "10ms",
];

/// The records of a WARC file (plain or gzip), as (header block, record block) text.
pub fn warc_records(path: &Path) -> Vec<(String, String)> {
    let raw = std::fs::read(path).unwrap();
    let bytes = if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .unwrap();
        out
    } else {
        raw
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("WARC/1.1\r\n") {
        rest = &rest[start..];
        let head_end = rest.find("\r\n\r\n").unwrap();
        let head = &rest[..head_end];
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let block_start = head_end + 4;
        // Lossy decoding may change lengths for binary blocks; clamp.
        let block_end = (block_start + len).min(rest.len());
        let block = rest.get(block_start..block_end).unwrap_or("");
        out.push((head.to_string(), block.to_string()));
        rest = &rest[block_end..];
    }
    out
}

/// A WARC header field's value in a record's header block.
pub fn field<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}
