//! Local HTTP/1.1 servers for `bench/fetch_local.sh`: one per loopback address
//! 127.0.0.2 … 127.0.0.(1+HOSTS), all on PORT, serving generated ~15 KB article pages
//! (gzip when asked), `robots.txt` allowing everything, keep-alive, LATENCY_MS think time
//! per response. Each page has an ETag and answers a matching `If-None-Match` with 304;
//! one page in ten (`/p10.html`, `/p20.html`, …) changes at every request (new ETag, always
//! 200), as a re-crawl of a real site finds some pages changed. Exits by itself after
//! MAX_SECONDS.
//!
//! `cargo run --release --example bench_server -- HOSTS PORT LATENCY_MS MAX_SECONDS`

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn page(i: usize) -> String {
    let mut body = format!(
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>Article {i}</title></head><body>\
         <header><nav><a href=/>Home</a> <a href=/news>News</a> <a href=/about>About</a></nav></header><article><h1>Article {i}</h1>"
    );
    for p in 0..40 {
        body.push_str(&format!(
            "<p>Paragraph {p} of article {i}: the council met on Tuesday to discuss the budget for road repairs, \
             school renovations and the new library; residents asked about timelines and costs ({}).</p>",
            (i * 7919 + p * 104729) % 100_003
        ));
    }
    body.push_str("</article><footer>© Example · Privacy · Terms</footer></body></html>");
    body
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

struct Pages {
    plain: Vec<Vec<u8>>,
    gz: Vec<Vec<u8>>,
    /// Responses sent so far (the ETag of the changing pages).
    served: AtomicUsize,
}

fn serve(stream: TcpStream, pages: &Pages, latency: Duration) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        let mut gz = false;
        let mut close = false;
        let mut if_none_match = None;
        let mut line = String::new();
        // Request line and headers.
        let path = match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => line.split_whitespace().nth(1).unwrap_or("/").to_string(),
        };
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let l = line.trim_end().to_ascii_lowercase();
            if l.is_empty() {
                break;
            }
            if l.starts_with("accept-encoding:") && l.contains("gzip") {
                gz = true;
            }
            if l.starts_with("connection:") && l.contains("close") {
                close = true;
            }
            if let Some(v) = l.strip_prefix("if-none-match:") {
                if_none_match = Some(v.trim().to_string());
            }
        }
        if !latency.is_zero() {
            std::thread::sleep(latency);
        }
        let mut etag = None;
        let (status, ctype, enc, body): (&str, &str, Option<&str>, &[u8]) = if path == "/robots.txt"
        {
            ("200 OK", "text/plain", None, b"User-agent: *\nAllow: /\n")
        } else {
            let n = path
                .trim_start_matches("/p")
                .trim_end_matches(".html")
                .parse::<usize>()
                .unwrap_or(0);
            let i = n % pages.plain.len();
            let tag = if n % 10 == 0 {
                format!("\"p{n}-{}\"", pages.served.fetch_add(1, Ordering::Relaxed))
            } else {
                format!("\"p{n}\"")
            };
            let unchanged = if_none_match.as_deref() == Some(tag.as_str());
            etag = Some(tag);
            if unchanged {
                ("304 Not Modified", "text/html; charset=utf-8", None, b"")
            } else if gz {
                (
                    "200 OK",
                    "text/html; charset=utf-8",
                    Some("gzip"),
                    &pages.gz[i],
                )
            } else {
                ("200 OK", "text/html; charset=utf-8", None, &pages.plain[i])
            }
        };
        let mut head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n",
            body.len()
        );
        if let Some(e) = enc {
            head.push_str(&format!("Content-Encoding: {e}\r\n"));
        }
        if let Some(t) = etag {
            head.push_str(&format!("ETag: {t}\r\n"));
        }
        head.push_str("\r\n");
        // One write per response: head and body in separate writes would meet Nagle's
        // algorithm and the client's delayed ACK (a 40 ms stall per response).
        let mut response = head.into_bytes();
        response.extend_from_slice(body);
        if out.write_all(&response).is_err() || close {
            return;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let hosts = arg(0, 50) as usize;
    let port = arg(1, 18080) as u16;
    let latency = Duration::from_millis(arg(2, 50));
    let max_seconds = arg(3, 300);
    let plain: Vec<Vec<u8>> = (0..50).map(|i| page(i).into_bytes()).collect();
    let gz = plain.iter().map(|p| gzip(p)).collect();
    let pages = Arc::new(Pages {
        plain,
        gz,
        served: AtomicUsize::new(0),
    });
    for h in 0..hosts {
        let ip = format!("127.0.0.{}", 2 + h);
        let listener = TcpListener::bind((ip.as_str(), port)).expect("bind a loopback address");
        let pages = pages.clone();
        std::thread::spawn(move || {
            for s in listener.incoming().flatten() {
                s.set_nodelay(true).ok();
                let pages = pages.clone();
                std::thread::spawn(move || serve(s, &pages, latency));
            }
        });
    }
    println!(
        "ready: {hosts} hosts on 127.0.0.2..127.0.0.{} port {port}",
        1 + hosts
    );
    std::io::stdout().flush().ok();
    std::thread::sleep(Duration::from_secs(max_seconds));
}
