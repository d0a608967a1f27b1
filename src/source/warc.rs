//! WARC input (`*.warc`, `*.warc.gz`): `response` records carrying an HTTP response, and
//! `resource` records, become pages; `WARC-Target-URI` is the URL, `WARC-Date` the time.
//! Records are read one at a time, so a multi-gigabyte WARC never sits in memory.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use warc::{RecordType, WarcHeader, WarcReader};

use super::PageJob;
use crate::page::{ErrorKind, Page, PageError};

/// Pages of one WARC file, lazily. Records that are not pages (requests, metadata,
/// non-2xx responses, non-HTML payloads) are skipped and counted in [`WarcPages::skipped`].
pub struct WarcPages {
    path: PathBuf,
    records: Box<dyn Iterator<Item = Result<warc::Record<warc::BufferedBody>, warc::Error>> + Send>,
    index: usize,
    done: bool,
    max_page_bytes: usize,
    /// Records skipped so far, by reason (for `summary.json`).
    pub skipped: Vec<(String, String)>,
}

impl WarcPages {
    pub fn open(path: &Path, max_page_bytes: usize) -> Result<WarcPages, PageError> {
        let file = std::fs::File::open(path).map_err(|e| PageError {
            path: path.display().to_string(),
            url: String::new(),
            kind: ErrorKind::Read,
            message: e.to_string(),
        })?;
        let gz = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
        let reader: Box<dyn BufRead + Send> = if gz {
            Box::new(BufReader::with_capacity(
                1 << 16,
                flate2::read::MultiGzDecoder::new(BufReader::new(file)),
            ))
        } else {
            Box::new(BufReader::with_capacity(1 << 16, file))
        };
        Ok(WarcPages {
            path: path.to_owned(),
            records: Box::new(WarcReader::new(reader).iter_records()),
            index: 0,
            done: false,
            max_page_bytes,
            skipped: Vec::new(),
        })
    }

    fn error(&self, message: String) -> PageError {
        PageError {
            path: format!("{}#{}", self.path.display(), self.index),
            url: String::new(),
            kind: ErrorKind::Warc,
            message,
        }
    }
}

impl Iterator for WarcPages {
    type Item = PageJob;

    fn next(&mut self) -> Option<PageJob> {
        while !self.done {
            let record = self.records.next()?;
            self.index += 1;
            let record = match record {
                Ok(r) => r,
                // A record whose headers parsed but lack a required field: the reader is
                // past it and can go on.
                Err(e @ warc::Error::MissingHeader(_))
                | Err(e @ warc::Error::MalformedHeader(..)) => {
                    return Some(PageJob::Failed(self.error(e.to_string())));
                }
                // Anything else leaves the reader mid-record: stop this file, say where.
                Err(e) => {
                    self.done = true;
                    return Some(PageJob::Failed(
                        self.error(format!("cannot read further: {e}")),
                    ));
                }
            };
            match page_from_record(&record, &self.path, self.index, self.max_page_bytes) {
                Ok(Some(page)) => return Some(PageJob::Loaded(page)),
                Ok(None) => {}
                Err(reason) => {
                    let uri = record.header(WarcHeader::TargetURI).unwrap_or_default();
                    self.skipped.push((uri.into_owned(), reason));
                }
            }
        }
        None
    }
}

/// `Ok(None)`: not a page-carrying record type. `Err(reason)`: a response that is not a
/// page we keep (status, content type).
fn page_from_record(
    record: &warc::Record<warc::BufferedBody>,
    path: &Path,
    index: usize,
    max: usize,
) -> Result<Option<Page>, String> {
    let url = record
        .header(WarcHeader::TargetURI)
        .map(|u| u.trim_matches(['<', '>']).to_string())
        .unwrap_or_default();
    let page_path = format!("{}#{}", path.display(), index);
    let block = record.body();
    let (content_type, body) = match record.warc_type() {
        RecordType::Response => {
            let http = parse_http_response(block).ok_or("not an HTTP response")?;
            if !(200..300).contains(&http.status) {
                return Err(format!("HTTP status {}", http.status));
            }
            let mut body = http.body.to_vec();
            if http.chunked {
                body = dechunk(&body).unwrap_or(body);
            }
            if let Some(enc) = &http.content_encoding {
                body = decode_content_encoding(enc, &body, max)?;
            }
            (http.content_type, body)
        }
        RecordType::Resource => (
            record
                .header(WarcHeader::ContentType)
                .map(|c| c.into_owned()),
            block.to_vec(),
        ),
        _ => return Ok(None),
    };
    if let Some(ct) = &content_type {
        if !is_html_content_type(ct) {
            return Err(format!("content type {ct}"));
        }
    }
    let mut body = body;
    body.truncate(max);
    Ok(Some(Page {
        path: page_path,
        url,
        fetched_at: Some(*record.date()),
        popularity: 0.0,
        content_type,
        body,
    }))
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
            .take(max as u64)
            .read_to_end(&mut out),
        "deflate" => flate2::read::ZlibDecoder::new(body)
            .take(max as u64)
            .read_to_end(&mut out),
        "identity" | "" => return Ok(body.to_vec()),
        other => return Err(format!("unsupported content encoding {other}")),
    };
    result
        .map(|_| out)
        .map_err(|e| format!("content encoding {enc}: {e}"))
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
    fn only_html_like_content_types_are_pages() {
        assert!(is_html_content_type("text/html; charset=utf-8"));
        assert!(!is_html_content_type("application/pdf"));
    }
}
