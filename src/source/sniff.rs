//! What a file is, by its first bytes: crawlers often save pages without an extension
//! (`example.com/news/12345`, `index`), or gzip a page under `.html`. A file is a page
//! when, after a byte-order mark, whitespace, an `<?xml …?>` prolog and comments (the
//! `<!-- saved from url=… -->` browsers write), it starts with `<!doctype`, `<html`,
//! `<head` or `<body`; a WARC file when it starts with `WARC/`; a gzip stream (magic
//! `1f 8b`) is looked into the same way; a Parquet file of pages when it starts with
//! `PAR1`. Only the first [`SNIFF_BYTES`] are read.

use std::io::Read;
use std::path::Path;

/// Bytes of a file (after decompression) that decide what it is. A page's head rarely
/// holds more than a few comments before `<html>`; 8 KiB leaves room for long ones.
const SNIFF_BYTES: usize = 8192;

/// What a file's first bytes say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Page,
    Warc,
    /// Parquet (magic `PAR1`): pages one per row (`parquet_pages.rs`).
    Parquet,
    Other,
}

/// `true` for the gzip magic number.
pub fn is_gzip(head: &[u8]) -> bool {
    head.starts_with(&[0x1f, 0x8b])
}

/// Read the first bytes of `file` (decompressed when gzip) and say what it is; an
/// unreadable file is `Other` (it is not listed, and says nothing about the rest).
pub fn sniff_file(file: &Path) -> Kind {
    let Ok(f) = std::fs::File::open(file) else {
        return Kind::Other;
    };
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    if f.take(SNIFF_BYTES as u64).read_to_end(&mut head).is_err() {
        return Kind::Other;
    }
    if is_gzip(&head) {
        let Ok(f) = std::fs::File::open(file) else {
            return Kind::Other;
        };
        let mut inner = Vec::with_capacity(SNIFF_BYTES);
        // A truncated stream still gives its first bytes; an error after them is fine.
        let _ = flate2::read::MultiGzDecoder::new(f)
            .take(SNIFF_BYTES as u64)
            .read_to_end(&mut inner);
        // Parquet cannot be read through gzip: such a file is not an input.
        return match sniff_bytes(&inner) {
            Kind::Parquet => Kind::Other,
            kind => kind,
        };
    }
    sniff_bytes(&head)
}

/// What `head` (a file's first bytes, decompressed) is.
pub fn sniff_bytes(head: &[u8]) -> Kind {
    if head.starts_with(b"WARC/") {
        return Kind::Warc;
    }
    if head.starts_with(b"PAR1") {
        return Kind::Parquet;
    }
    // UTF-16 pages: drop the zero bytes of ASCII characters after the BOM.
    let narrowed: Vec<u8>;
    let mut rest = if let Some(r) = head
        .strip_prefix(&[0xff, 0xfe])
        .or_else(|| head.strip_prefix(&[0xfe, 0xff]))
    {
        narrowed = r.iter().copied().filter(|&b| b != 0).collect();
        &narrowed[..]
    } else {
        head.strip_prefix(&[0xef, 0xbb, 0xbf]).unwrap_or(head)
    };
    loop {
        rest = rest.trim_ascii_start();
        if let Some(r) = rest.strip_prefix(b"<!--") {
            match memchr::memmem::find(r, b"-->") {
                Some(end) => rest = &r[end + 3..],
                None => return Kind::Other,
            }
        } else if starts_with_ignore_case(rest, b"<?xml") {
            match memchr::memmem::find(rest, b"?>") {
                Some(end) => rest = &rest[end + 2..],
                None => return Kind::Other,
            }
        } else {
            break;
        }
    }
    let page = [&b"<!doctype"[..], b"<html", b"<head", b"<body"]
        .iter()
        .any(|start| starts_with_ignore_case(rest, start));
    if page {
        Kind::Page
    } else {
        Kind::Other
    }
}

fn starts_with_ignore_case(bytes: &[u8], prefix: &[u8]) -> bool {
    bytes.len() >= prefix.len() && bytes[..prefix.len()].eq_ignore_ascii_case(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_known_by_their_start() {
        for head in [
            &b"<!DOCTYPE html><html>"[..],
            b"\xef\xbb\xbf\n  <html lang=en>",
            b"<!-- saved from url=(0042)http://example.com/ -->\r\n<HTML>",
            b"<?xml version=\"1.0\"?>\n<!DOCTYPE html PUBLIC>",
            b"\t<head><title>x</title>",
            b"<body>",
            b"\xff\xfe<\0h\0t\0m\0l\0>\0",
        ] {
            assert_eq!(sniff_bytes(head), Kind::Page, "{head:?}");
        }
        assert_eq!(sniff_bytes(b"WARC/1.1\r\nWARC-Type: warcinfo"), Kind::Warc);
        assert_eq!(sniff_bytes(b"PAR1\x15\x04"), Kind::Parquet);
        for head in [
            &b"%PDF-1.4"[..],
            b"{\"a\": 1}",
            b"",
            b"<!-- never closed",
            b"<div>",
        ] {
            assert_eq!(sniff_bytes(head), Kind::Other, "{head:?}");
        }
    }

    #[test]
    fn gzip_is_looked_into() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("page");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"<!doctype html><p>hi").unwrap();
        std::fs::write(&file, gz.finish().unwrap()).unwrap();
        assert_eq!(sniff_file(&file), Kind::Page);
    }
}
