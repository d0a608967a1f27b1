//! WARC input (`*.warc`, `*.warc.gz`): `response` records carrying an HTTP response,
//! `revisit` records (the earlier response's payload, see `revisit.rs`) and `resource`
//! records become pages; `WARC-Target-URI` is the URL, `WARC-Date` the time.
//! Records are read one at a time by `warc_records`' scanner, which keeps at most
//! `max_page_bytes` (+ room for the HTTP head) of a block and streams past the rest, so
//! neither a multi-gigabyte WARC nor a multi-gigabyte record sits in memory, and an error
//! names the record's byte offset (the `warc` crate used before read each block whole and
//! knew no offsets).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::warc_records::{self, RawRecord};
use super::PageJob;
use crate::page::{ErrorKind, Page, PageError};

/// Block bytes kept beyond `max_page_bytes`: the HTTP status line and headers before the
/// payload (and the slack a compressed payload may need).
const HTTP_HEAD_ROOM: usize = 64 << 10;

/// Pages of one WARC file, lazily. Records that are not pages (requests, metadata,
/// non-2xx responses, non-HTML payloads) are skipped and counted in [`WarcPages::skipped`].
pub struct WarcPages {
    path: PathBuf,
    /// The file read (a stream's temporary copy may be named differently from `path`).
    file: Arc<Path>,
    records: warc_records::Scanner,
    index: usize,
    max_page_bytes: usize,
    /// Records skipped so far, by reason (for `summary.json`).
    pub skipped: Vec<(String, String)>,
}

impl WarcPages {
    pub fn open(path: &Path, max_page_bytes: usize) -> Result<WarcPages, PageError> {
        WarcPages::open_as(path, path, max_page_bytes)
    }

    /// The pages of the WARC read from `file`, named `path` in records and errors (and
    /// revisits resolved beside `path`): a stream's temporary copy under the stream's name.
    pub fn open_as(
        file: &Path,
        path: &Path,
        max_page_bytes: usize,
    ) -> Result<WarcPages, PageError> {
        let records = warc_records::scan(file, max_page_bytes.saturating_add(HTTP_HEAD_ROOM))
            .map_err(|e| PageError {
                path: path.display().to_string(),
                url: String::new(),
                kind: ErrorKind::Read,
                message: e.to_string(),
            })?;
        Ok(WarcPages {
            path: path.to_owned(),
            file: Arc::from(file),
            records,
            index: 0,
            max_page_bytes,
            skipped: Vec::new(),
        })
    }

    /// An error of the current record: `FILE#N` (its number) as the path, its byte offset
    /// (when it starts the file's gzip member or a plain file's record) in the message.
    fn error(&self, offset: Option<u64>, message: String) -> PageError {
        let message = match offset {
            Some(o) => format!("record at byte offset {o}: {message}"),
            None => message,
        };
        PageError {
            path: format!("{}#{}", self.path.display(), self.index),
            url: String::new(),
            kind: ErrorKind::Warc,
            message,
        }
    }
}

/// The record types that carry a page.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PageRecord {
    Response,
    Revisit,
    Resource,
}

fn page_record(record: &RawRecord) -> Option<PageRecord> {
    let t = record.warc_type();
    [
        ("response", PageRecord::Response),
        ("revisit", PageRecord::Revisit),
        ("resource", PageRecord::Resource),
    ]
    .into_iter()
    .find(|(name, _)| t.eq_ignore_ascii_case(name))
    .map(|(_, kind)| kind)
}

impl Iterator for WarcPages {
    type Item = PageJob;

    fn next(&mut self) -> Option<PageJob> {
        loop {
            let record = self.records.next()?;
            self.index += 1;
            let record = match record {
                Ok(r) => r,
                // An unreadable span (a cut or corrupt record, a wrong Content-Length,
                // bytes that are no record): one error naming its byte offset; the
                // scanner goes on at the next record, if any.
                Err(e) => {
                    return Some(PageJob::Failed(self.error(None, e)));
                }
            };
            let Some(kind) = page_record(&record) else {
                continue;
            };
            // A page record without a readable date is an error of its own; the next
            // record is read (the scanner is past this one's block).
            let date = match record.header("WARC-Date") {
                None => Err("no WARC-Date".to_string()),
                Some(d) => chrono::DateTime::parse_from_rfc3339(d)
                    .map(|d| d.with_timezone(&chrono::Utc))
                    .map_err(|e| format!("WARC-Date {d:?}: {e}")),
            };
            let date = match date {
                Ok(d) => d,
                Err(e) => {
                    let mut err = self.error(record.offset, e);
                    err.url = record.target_uri().to_string();
                    return Some(PageJob::Failed(err));
                }
            };
            match page_from_record(
                &record,
                kind,
                date,
                &self.path,
                self.index,
                self.max_page_bytes,
            ) {
                Ok(Some(mut page)) => {
                    page.warc_file = Some(Arc::clone(&self.file));
                    return Some(PageJob::Loaded(page));
                }
                Ok(None) => {}
                // A revisit whose earlier response cannot be read is a lost page: an error.
                Err(reason) if reason.starts_with(super::revisit::UNRESOLVED) => {
                    let mut e = self.error(record.offset, reason);
                    e.url = record.target_uri().to_string();
                    return Some(PageJob::Failed(e));
                }
                Err(reason) => {
                    self.skipped.push((record.target_uri().to_string(), reason));
                }
            }
        }
    }
}

/// `Ok(None)`: no page (a robots.txt record is an `Err`). `Err(reason)`: a response that
/// is not a page we keep (status, content type).
fn page_from_record(
    record: &RawRecord,
    kind: PageRecord,
    date: chrono::DateTime<chrono::Utc>,
    path: &Path,
    index: usize,
    max: usize,
) -> Result<Option<Page>, String> {
    let url = record.target_uri().to_string();
    let page_path = format!("{}#{}", path.display(), index);
    if super::revisit::is_robots_txt(&url) {
        return Err("robots.txt (crawl metadata, not a page)".into());
    }
    // A revisit stands for an earlier response: its payload is read from there.
    let earlier;
    let block = match kind {
        PageRecord::Revisit => {
            let field = |n: &str| record.header(n).map(str::to_string);
            earlier = super::revisit::earlier_response_block(
                &field,
                path,
                max.saturating_add(HTTP_HEAD_ROOM),
            )?;
            &earlier[..]
        }
        _ => &record.block[..],
    };
    let (content_type, body) = match kind {
        PageRecord::Response | PageRecord::Revisit => {
            let (status, content_type, body) = http_payload(block, max)?;
            if !(200..300).contains(&status) {
                return Err(format!("HTTP status {status}"));
            }
            (content_type, body)
        }
        PageRecord::Resource => (
            record.header("Content-Type").map(str::to_string),
            block.to_vec(),
        ),
    };
    if let Some(ct) = &content_type {
        if !is_html_content_type(ct) {
            return Err(format!("content type {ct}"));
        }
    }
    let mut body = body;
    // Longer than kept, or a block the scanner cut (an HTTP head longer than the room
    // left for it).
    let cut = body.len() > max || (record.cut && kind != PageRecord::Revisit);
    body.truncate(max);
    Ok(Some(Page {
        path: page_path,
        url,
        fetched_at: Some(date),
        popularity: 0.0,
        content_type,
        body,
        cut,
        warc_file: None,
    }))
}

/// The HTTP response in a `response` record's block: its status, `Content-Type` and
/// body (chunks joined, content encoding undone, at most about `max` bytes decoded).
pub fn http_payload(block: &[u8], max: usize) -> Result<(u16, Option<String>, Vec<u8>), String> {
    let http = parse_http_response(block).ok_or("not an HTTP response")?;
    let mut body = http.body.to_vec();
    if http.chunked {
        body = dechunk(&body).unwrap_or(body);
    }
    if let Some(enc) = &http.content_encoding {
        body = decode_content_encoding(enc, &body, max)?;
    }
    Ok((http.status, http.content_type, body))
}

/// HTML and its usual mislabels; anything else (PDF, images, JSON) is not a page.
pub fn is_html_content_type(ct: &str) -> bool {
    let mime = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    matches!(
        mime.as_str(),
        "text/html" | "application/xhtml+xml" | "text/xml" | "application/xml" | "text/plain" | ""
    )
}

struct HttpResponse<'a> {
    status: u16,
    content_type: Option<String>,
    content_encoding: Option<String>,
    chunked: bool,
    body: &'a [u8],
}

fn parse_http_response(block: &[u8]) -> Option<HttpResponse<'_>> {
    let head_end = memchr::memmem::find(block, b"\r\n\r\n")
        .map(|p| (p, p + 4))
        .or_else(|| memchr::memmem::find(block, b"\n\n").map(|p| (p, p + 2)))?;
    let head = String::from_utf8_lossy(&block[..head_end.0]);
    let mut lines = head.lines();
    let status_line = lines.next()?;
    if !status_line.starts_with("HTTP/") {
        return None;
    }
    let status = status_line.split_whitespace().nth(1)?.parse().ok()?;
    let mut response = HttpResponse {
        status,
        content_type: None,
        content_encoding: None,
        chunked: false,
        body: &block[head_end.1..],
    };
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-type" => response.content_type = Some(value.to_string()),
            "content-encoding" => response.content_encoding = Some(value.to_ascii_lowercase()),
            "transfer-encoding" => {
                response.chunked = value.to_ascii_lowercase().contains("chunked")
            }
            _ => {}
        }
    }
    Some(response)
}

fn dechunk(mut data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len());
    loop {
        let line_end = memchr::memmem::find(data, b"\r\n")?;
        let size_text = std::str::from_utf8(&data[..line_end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(data.get(..size)?);
        data = data.get(size + 2..).unwrap_or(&[]);
    }
}

fn decode_content_encoding(enc: &str, body: &[u8], max: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let result = match enc {
        "gzip" | "x-gzip" => flate2::read::MultiGzDecoder::new(body)
            .take(max as u64 + 1)
            .read_to_end(&mut out),
        "deflate" => flate2::read::ZlibDecoder::new(body)
            .take(max as u64 + 1)
            .read_to_end(&mut out),
        "br" => brotli_decompressor::Decompressor::new(body, 1 << 14)
            .take(max as u64 + 1)
            .read_to_end(&mut out),
        "identity" | "" => return Ok(body.to_vec()),
        other => return Err(format!("unsupported content encoding {other}")),
    };
    result
        .map(|_| out)
        .map_err(|e| format!("content encoding {enc}: {e}"))
}

/// Writes WARC/1.1 records. With a `.gz` name each record is its own gzip member, so
/// the file can be appended to and a record read from its offset alone.
pub struct WarcWriter {
    file: std::io::BufWriter<std::fs::File>,
    gz: bool,
    pos: u64,
    path: PathBuf,
}

impl WarcWriter {
    /// Open for appending; when `truncate_to` is given the file is first cut there (the
    /// end of the last record a resumable run committed; a record half-written by an
    /// interrupted run is dropped).
    pub fn open_append(path: &Path, truncate_to: Option<u64>) -> std::io::Result<WarcWriter> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(false)
            .write(true)
            .read(true)
            .truncate(false)
            .open(path)?;
        let len = file.metadata()?.len();
        let pos = match truncate_to {
            Some(t) if t < len => {
                file.set_len(t)?;
                t
            }
            _ => len,
        };
        let mut file = std::io::BufWriter::with_capacity(1 << 16, file);
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(pos))?;
        let gz = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
        Ok(WarcWriter {
            file,
            gz,
            pos,
            path: path.to_owned(),
        })
    }

    /// The file's name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes written so far (the offset the next record will start at).
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Write one record: `headers` in order (`Content-Length` is added), then `block`.
    /// Returns the record's offset in the file.
    pub fn write_record(
        &mut self,
        headers: &[(&str, String)],
        block: &[u8],
    ) -> std::io::Result<u64> {
        let mut head = String::from("WARC/1.1\r\n");
        for (name, value) in headers {
            // Header values never carry line breaks (they would end the header block).
            let value: String = value.chars().filter(|c| *c != '\r' && *c != '\n').collect();
            head.push_str(name);
            head.push_str(": ");
            head.push_str(&value);
            head.push_str("\r\n");
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
        let offset = self.pos;
        if self.gz {
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            enc.write_all(head.as_bytes())?;
            enc.write_all(block)?;
            enc.write_all(b"\r\n\r\n")?;
            let bytes = enc.finish()?;
            self.file.write_all(&bytes)?;
            self.pos += bytes.len() as u64;
        } else {
            self.file.write_all(head.as_bytes())?;
            self.file.write_all(block)?;
            self.file.write_all(b"\r\n\r\n")?;
            self.pos += (head.len() + block.len() + 4) as u64;
        }
        Ok(offset)
    }

    /// Flush to the operating system (after each URL's records, before its manifest line).
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// A fresh `<urn:uuid:…>` record id (random, version 4).
pub fn new_record_id() -> String {
    let mut b = [0u8; 16];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut b)
        .expect("system random source");
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// `sha1:` + base32 of the SHA-1 of `data`, the usual WARC digest form.
pub fn sha1_digest(data: &[u8]) -> String {
    let d = ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, data);
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::from("sha1:");
    let bytes = d.as_ref();
    let mut buffer: u64 = 0;
    let mut bits = 0;
    for &byte in bytes {
        buffer = (buffer << 8) | u64::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[((buffer >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((buffer << (5 - bits)) & 31) as usize] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_response_is_split_into_status_headers_and_body() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=koi8-r\r\n\r\n<p>x</p>";
        let r = parse_http_response(block).unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.content_type.as_deref(), Some("text/html; charset=koi8-r"));
        assert_eq!(r.body, b"<p>x</p>");
    }

    #[test]
    fn chunked_bodies_are_joined() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n").unwrap(),
            b"abcde"
        );
    }

    #[test]
    fn written_records_read_back_from_plain_and_gzip_files() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.warc", "a.warc.gz"] {
            let path = dir.path().join(name);
            let mut w = WarcWriter::open_append(&path, None).unwrap();
            let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1251\r\n\r\n<p>\xcf\xf0\xe8\xe2\xe5\xf2</p>";
            for i in 0..2 {
                w.write_record(
                    &[
                        ("WARC-Type", "response".into()),
                        ("WARC-Record-ID", new_record_id()),
                        ("WARC-Date", "2024-01-25T11:43:21Z".into()),
                        ("WARC-Target-URI", format!("http://example.ru/{i}")),
                        ("Content-Type", "application/http;msgtype=response".into()),
                    ],
                    block,
                )
                .unwrap();
            }
            w.flush().unwrap();
            drop(w);
            let pages: Vec<_> = WarcPages::open(&path, 1 << 20).unwrap().collect();
            assert_eq!(pages.len(), 2, "{name}");
            let PageJob::Loaded(p) = &pages[1] else {
                panic!("{name}: {:?}", pages[1])
            };
            assert_eq!(p.url, "http://example.ru/1");
            assert_eq!(
                p.content_type.as_deref(),
                Some("text/html; charset=windows-1251")
            );
        }
    }

    #[test]
    fn sha1_digest_is_base32() {
        // The SHA-1 of the empty string, as WARC tools print it.
        assert_eq!(sha1_digest(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }

    #[test]
    fn only_html_like_content_types_are_pages() {
        assert!(is_html_content_type("text/html; charset=utf-8"));
        assert!(!is_html_content_type("application/pdf"));
    }
}
