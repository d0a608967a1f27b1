//! Streaming content decoding with two caps: the bytes received (`max_body`) and the bytes
//! they decode to (`max_decoded`). Chunks are fed as they arrive; a compression bomb stops
//! as soon as its output reaches the cap, without decompressing the rest.

use std::io::Write;

/// Why a body was cut (WARC-Truncated `length`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// More bytes arrived than `max_body`.
    Body,
    /// The decoded payload reached `max_decoded`.
    Decoded,
}

/// Collects decoded bytes up to a cap; a write past the cap fails so that the decoder
/// writing into it stops.
struct CapWriter {
    buf: Vec<u8>,
    cap: usize,
    full: bool,
}

impl Write for CapWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let room = self.cap - self.buf.len();
        if room == 0 && !data.is_empty() {
            self.full = true;
            return Err(std::io::Error::other("decoded size cap reached"));
        }
        let n = room.min(data.len());
        self.buf.extend_from_slice(&data[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

enum Decoder {
    Identity(CapWriter),
    /// `deflate` before its first two bytes tell zlib from raw deflate.
    Pending(CapWriter, Vec<u8>),
    Gzip(Box<flate2::write::MultiGzDecoder<CapWriter>>),
    Zlib(Box<flate2::write::ZlibDecoder<CapWriter>>),
    Deflate(Box<flate2::write::DeflateDecoder<CapWriter>>),
    Brotli(Box<brotli_decompressor::DecompressorWriter<CapWriter>>),
}

/// A body being received.
pub struct BodyDecoder {
    decoder: Option<Decoder>,
    raw: usize,
    max_body: usize,
    /// The `Content-Encoding` decoded (`None`: identity or unsupported, stored as is).
    pub encoding: Option<String>,
    cut: Option<Cut>,
}

/// Content encodings decoded here.
pub fn supported_encoding(enc: &str) -> bool {
    matches!(enc, "gzip" | "x-gzip" | "deflate" | "br")
}

impl BodyDecoder {
    /// `encoding`: the response's `Content-Encoding` (lower-cased), if any and supported.
    pub fn new(encoding: Option<&str>, max_body: usize, max_decoded: usize) -> BodyDecoder {
        let sink = CapWriter {
            buf: Vec::new(),
            cap: max_decoded,
            full: false,
        };
        let decoder = match encoding {
            Some("gzip" | "x-gzip") => {
                Decoder::Gzip(Box::new(flate2::write::MultiGzDecoder::new(sink)))
            }
            Some("deflate") => Decoder::Pending(sink, Vec::new()),
            Some("br") => Decoder::Brotli(Box::new(brotli_decompressor::DecompressorWriter::new(
                sink,
                1 << 14,
            ))),
            _ => Decoder::Identity(sink),
        };
        BodyDecoder {
            decoder: Some(decoder),
            raw: 0,
            max_body,
            encoding: encoding.map(str::to_string),
            cut: None,
        }
    }

    /// Bytes received so far.
    pub fn raw_len(&self) -> usize {
        self.raw
    }

    /// Feed a received chunk. `Ok(false)`: a cap was reached, stop reading.
    pub fn push(&mut self, chunk: &[u8]) -> Result<bool, String> {
        if self.cut.is_some() {
            return Ok(false);
        }
        let room = self.max_body - self.raw;
        let (chunk, over) = if chunk.len() > room {
            (&chunk[..room], true)
        } else {
            (chunk, false)
        };
        self.raw += chunk.len();
        self.feed(chunk)?;
        if over && self.cut.is_none() {
            self.cut = Some(Cut::Body);
        }
        Ok(self.cut.is_none())
    }

    fn feed(&mut self, chunk: &[u8]) -> Result<(), String> {
        let mut decoder = self.decoder.take().expect("decoder present");
        if let Decoder::Pending(sink, mut head) = decoder {
            head.extend_from_slice(chunk);
            if head.len() < 2 {
                self.decoder = Some(Decoder::Pending(sink, head));
                return Ok(());
            }
            // RFC 9110 `deflate` is zlib; some servers send raw deflate.
            let zlib =
                (head[0] & 0x0f) == 8 && (u16::from(head[0]) << 8 | u16::from(head[1])) % 31 == 0;
            decoder = if zlib {
                Decoder::Zlib(Box::new(flate2::write::ZlibDecoder::new(sink)))
            } else {
                Decoder::Deflate(Box::new(flate2::write::DeflateDecoder::new(sink)))
            };
            self.decoder = Some(decoder);
            return self.feed(&head);
        }
        let result = match &mut decoder {
            Decoder::Identity(w) => w.write_all(chunk),
            Decoder::Gzip(d) => d.write_all(chunk),
            Decoder::Zlib(d) => d.write_all(chunk),
            Decoder::Deflate(d) => d.write_all(chunk),
            Decoder::Brotli(d) => d.write_all(chunk),
            Decoder::Pending(..) => unreachable!(),
        };
        let full = sink_of(&decoder).full;
        self.decoder = Some(decoder);
        match result {
            Ok(()) => Ok(()),
            Err(_) if full => {
                self.cut = Some(Cut::Decoded);
                Ok(())
            }
            Err(e) => Err(format!(
                "content encoding {}: {e}",
                self.encoding.as_deref().unwrap_or("identity")
            )),
        }
    }

    /// The decoded payload and why it was cut, if it was. A compressed stream that ends
    /// early is an error unless a cap cut it.
    pub fn finish(mut self) -> Result<(Vec<u8>, Option<Cut>), String> {
        let decoder = self.decoder.take().expect("decoder present");
        let cut = self.cut;
        let enc = self.encoding.clone().unwrap_or_default();
        let done = |r: std::io::Result<CapWriter>| -> Result<(Vec<u8>, Option<Cut>), String> {
            match r {
                Ok(w) => Ok((w.buf, cut)),
                Err(e) => Err(format!("content encoding {enc}: {e}")),
            }
        };
        if cut.is_some() {
            // Cut short on purpose: keep what was decoded, ignore the unfinished stream.
            let w = match decoder {
                Decoder::Identity(w) | Decoder::Pending(w, _) => w,
                Decoder::Gzip(d) => d.get_ref().clone_buf(),
                Decoder::Zlib(d) => d.get_ref().clone_buf(),
                Decoder::Deflate(d) => d.get_ref().clone_buf(),
                Decoder::Brotli(d) => d.get_ref().clone_buf(),
            };
            return Ok((w.buf, cut));
        }
        match decoder {
            Decoder::Identity(w) => Ok((w.buf, None)),
            Decoder::Pending(w, head) if head.is_empty() => Ok((w.buf, None)),
            Decoder::Pending(..) => Err(format!("content encoding {enc}: truncated stream")),
            Decoder::Gzip(d) => done(d.finish()),
            Decoder::Zlib(d) => done(d.finish()),
            Decoder::Deflate(d) => done(d.finish()),
            Decoder::Brotli(d) => match d.into_inner() {
                Ok(w) => Ok((w.buf, None)),
                Err(_) => Err(format!("content encoding {enc}: truncated stream")),
            },
        }
    }
}

impl CapWriter {
    fn clone_buf(&self) -> CapWriter {
        CapWriter {
            buf: self.buf.clone(),
            cap: self.cap,
            full: self.full,
        }
    }
}

fn sink_of(d: &Decoder) -> &CapWriter {
    match d {
        Decoder::Identity(w) | Decoder::Pending(w, _) => w,
        Decoder::Gzip(d) => d.get_ref(),
        Decoder::Zlib(d) => d.get_ref(),
        Decoder::Deflate(d) => d.get_ref(),
        Decoder::Brotli(d) => d.get_ref(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn identity_is_cut_at_the_body_cap() {
        let mut d = BodyDecoder::new(None, 10, 100);
        assert!(d.push(b"0123456").unwrap());
        assert!(!d.push(b"789abc").unwrap());
        let (body, cut) = d.finish().unwrap();
        assert_eq!(body, b"0123456789");
        assert_eq!(cut, Some(Cut::Body));
    }

    #[test]
    fn gzip_bomb_stops_at_the_decoded_cap() {
        let bomb = gzip(&vec![0u8; 20 << 20]);
        assert!(bomb.len() < 100_000);
        let mut d = BodyDecoder::new(Some("gzip"), 1 << 20, 1 << 16);
        let mut stopped = false;
        for chunk in bomb.chunks(4096) {
            if !d.push(chunk).unwrap() {
                stopped = true;
                break;
            }
        }
        assert!(stopped);
        let (body, cut) = d.finish().unwrap();
        assert_eq!(body.len(), 1 << 16);
        assert_eq!(cut, Some(Cut::Decoded));
    }

    #[test]
    fn deflate_bomb_stops_at_the_decoded_cap() {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&vec![b'a'; 16 << 20]).unwrap();
        let bomb = z.finish().unwrap();
        let mut d = BodyDecoder::new(Some("deflate"), 1 << 20, 4096);
        assert!(!d.push(&bomb).unwrap());
        let (body, cut) = d.finish().unwrap();
        assert_eq!((body.len(), cut), (4096, Some(Cut::Decoded)));
    }

    #[test]
    fn small_gzip_zlib_and_raw_deflate_decode_whole() {
        let page = b"<html><body>hello</body></html>".repeat(50);
        let mut d = BodyDecoder::new(Some("gzip"), 1 << 20, 1 << 20);
        for c in gzip(&page).chunks(7) {
            assert!(d.push(c).unwrap());
        }
        assert_eq!(d.finish().unwrap(), (page.clone(), None));

        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&page).unwrap();
        let mut d = BodyDecoder::new(Some("deflate"), 1 << 20, 1 << 20);
        for c in z.finish().unwrap().chunks(1) {
            d.push(c).unwrap();
        }
        assert_eq!(d.finish().unwrap().0, page);

        let mut r = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        r.write_all(&page).unwrap();
        let mut d = BodyDecoder::new(Some("deflate"), 1 << 20, 1 << 20);
        d.push(&r.finish().unwrap()).unwrap();
        assert_eq!(d.finish().unwrap().0, page);
    }

    #[test]
    fn truncated_gzip_is_an_error() {
        let page = b"<p>some text that compresses</p>".repeat(100);
        let gz = gzip(&page);
        let mut d = BodyDecoder::new(Some("gzip"), 1 << 20, 1 << 20);
        d.push(&gz[..gz.len() / 2]).unwrap();
        assert!(d.finish().is_err());
    }
}
