//! Reading JSONL files (plain or `.gz`) in blocks of whole lines on a thread of their
//! own, so that decompression overlaps the parsing and signing of the block before
//! (issue 15 item 6). Measured with `examples/read_profile.rs` on dedup-dev (73 MB,
//! one core): gzip 0.17 s, JSON parsing 0.07 s, signing 0.38 s; reading line by line
//! into a fresh `Vec` per line and parsing 1,024 lines at a time left the decompression
//! serial and the other core idle while it ran.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// Bytes per block (about 2,000 documents of 2 KB): large enough to keep every worker
/// busy, small enough that two blocks in flight cost little memory.
pub const BLOCK_BYTES: usize = 4 << 20;

/// Bytes of the first block: the workers wait for it, so it is small (a full block took
/// ~6 ms to inflate on dedup-dev while every signing thread sat idle).
const FIRST_BLOCK_BYTES: usize = 256 << 10;

/// Whole lines of one file, with the number of the first one (1-based).
pub struct Block<'a> {
    pub first_line: usize,
    /// A buffer of the reading thread, or part of a file inflated whole.
    pub data: Cow<'a, [u8]>,
}

impl Block<'_> {
    /// The lines of the block with their numbers (without the `\n`).
    pub fn lines(&self) -> Vec<(usize, &[u8])> {
        let mut out = Vec::with_capacity(self.data.len() / 1024 + 1);
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', &self.data) {
            out.push((self.first_line + out.len(), &self.data[start..end]));
            start = end + 1;
        }
        if start < self.data.len() {
            out.push((self.first_line + out.len(), &self.data[start..]));
        }
        out
    }
}

/// Call `f` with each block of `file` in order. The file is read and decompressed by a
/// second thread, at most two blocks ahead; an error of `f` stops the reading. The
/// buffers of blocks done with go back to the reading thread: a new 4 MB buffer a block
/// cost a fresh mapping and a page fault every 4 KB of it (18,000 faults on dedup-dev).
pub fn for_each_block(file: &Path, mut f: impl FnMut(&Block) -> Result<()>) -> Result<()> {
    let reader = match open(file)? {
        Source::Stream(reader) => reader,
        Source::Whole(text) => {
            return whole_blocks(crate::source::records_input::strip_bom(&text), f)
        }
    };
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Block<'static>>>(2);
        let (done_tx, done_rx) = std::sync::mpsc::channel::<Vec<u8>>();
        scope.spawn(move || {
            let mut reader = reader;
            let sent = read_blocks(
                &mut *reader,
                |b| tx.send(Ok(b)).is_ok(),
                || done_rx.try_recv().ok(),
            );
            if let Err(e) = sent {
                let _ = tx.send(Err(Error::io(file, e)));
            }
        });
        for block in rx {
            let block = block?;
            f(&block)?;
            if let Cow::Owned(data) = block.data {
                let _ = done_tx.send(data);
            }
        }
        Ok(())
    })
}

/// Blocks of whole lines cut from a text already in memory, in order (each ends at the
/// first line end at or past [`BLOCK_BYTES`]; where blocks end changes no result).
fn whole_blocks(text: &[u8], mut f: impl FnMut(&Block) -> Result<()>) -> Result<()> {
    let mut start = 0;
    let mut line = 1;
    while start < text.len() {
        let end = match memchr::memchr(b'\n', &text[(start + BLOCK_BYTES).min(text.len())..]) {
            Some(p) => (start + BLOCK_BYTES).min(text.len()) + p + 1,
            None => text.len(),
        };
        let data = &text[start..end];
        f(&Block {
            first_line: line,
            data: Cow::Borrowed(data),
        })?;
        line += memchr::memchr_iter(b'\n', data).count();
        start = end;
    }
    Ok(())
}

enum Source {
    /// Read (and decompressed) by the reading thread as signing goes on.
    Stream(Box<dyn Read + Send>),
    /// A `.gz` file inflated whole ([`inflate_whole`]).
    Whole(Vec<u8>),
}

/// `file` opened by the records reader shared with every command that reads JSON records
/// ([`crate::source::records_input`]: a pipe, a FIFO or `-` too; gzip and Parquet told
/// from the first bytes read).
fn open(file: &Path) -> Result<Source> {
    use crate::source::records_input::{self, Format};
    let opened = records_input::open(file)?;
    let one_core = std::thread::available_parallelism().map_or(true, |n| n.get() == 1);
    let whole = opened.format == Format::Gzip
        && one_core
        && opened
            .regular_len()
            .is_some_and(|size| size <= WHOLE_GZIP_MAX_INPUT);
    if !whole {
        return Ok(Source::Stream(opened.into_lines(file)?));
    }
    let size = opened.regular_len().unwrap_or(0);
    let mut gz = Vec::with_capacity(size as usize);
    opened
        .into_raw()
        .read_to_end(&mut gz)
        .map_err(|e| Error::io(file, e))?;
    Ok(match inflate_whole(&gz) {
        Some(text) => Source::Whole(text),
        // Anything else (several members, a damaged stream, a large output) streams,
        // with the errors it always had.
        None => Source::Stream(records_input::open_bytes(gz, file)?),
    })
}

/// On one core a `.gz` file up to this size (compressed) is read whole and inflated by
/// libdeflate when it is one gzip member of at most [`WHOLE_GZIP_MAX_OUTPUT`] bytes:
/// libdeflate needs the whole member in memory and its output size (the trailer's
/// ISIZE), and takes 0.74 G instructions on dedup-dev where zlib-rs streaming takes
/// 1.02 G. But it cannot start signing before the whole file is inflated: with a second
/// core, streaming overlaps decompression with signing, and the serial inflate would
/// cost more wall time than it saves (from the instruction counts: 0.74 G serial
/// against 1.02 G shared with the signing threads), so there the file streams.
const WHOLE_GZIP_MAX_INPUT: u64 = 256 << 20;
const WHOLE_GZIP_MAX_OUTPUT: usize = 1 << 30;

/// The text of `gz` when it is certainly one gzip member, inflated whole; `None` when
/// it may be anything else (the caller streams it).
///
/// libdeflate inflates the first member and checks it against its own trailer, but
/// does not say where that member ended. So the output must match the file's last
/// trailer (CRC-32 and ISIZE), and the file must hold no second copy of that trailer
/// followed by a gzip header (`1f 8b`): a file of several members whose first one
/// inflated to the very bytes of the last one would have one there.
fn inflate_whole(gz: &[u8]) -> Option<Vec<u8>> {
    const MIN_MEMBER: usize = 18; // a 10-byte header, an empty deflate stream, 8 bytes
    if gz.len() < MIN_MEMBER {
        return None;
    }
    let (body, trailer) = gz.split_at(gz.len() - 8);
    let crc = u32::from_le_bytes(trailer[..4].try_into().expect("4 bytes"));
    let size = u32::from_le_bytes(trailer[4..].try_into().expect("4 bytes")) as usize;
    if size > WHOLE_GZIP_MAX_OUTPUT {
        return None;
    }
    let mut out = vec![0u8; size];
    let n = libdeflater::Decompressor::new()
        .gzip_decompress(gz, &mut out)
        .ok()?;
    if n != size || libdeflater::crc32(&out) != crc {
        return None;
    }
    let mut member_end = trailer.to_vec();
    member_end.extend_from_slice(&[0x1f, 0x8b]);
    if memchr::memmem::find(body, &member_end).is_some() {
        return None;
    }
    Some(out)
}

/// Cut `reader` into blocks of whole lines; `send` returns false when nobody listens;
/// `recycled` gives back the buffer of a block already used, if any.
///
/// `buf[..filled]` is what was read; the bytes past it, up to `buf.len()`, are already
/// initialised (a used buffer's old content) and are read over without being zeroed
/// again: zeroing every 64 KB before reading into it was 2 % of a dedup run.
fn read_blocks(
    reader: &mut dyn Read,
    mut send: impl FnMut(Block<'static>) -> bool,
    mut recycled: impl FnMut() -> Option<Vec<u8>>,
) -> std::io::Result<()> {
    const READ: usize = 1 << 16;
    let mut buf: Vec<u8> = Vec::with_capacity(BLOCK_BYTES + READ);
    let mut filled = 0;
    let mut line = 1;
    let mut eof = false;
    let mut target = FIRST_BLOCK_BYTES;
    while !eof {
        // Fill to at least `target` and one line end (a line may be longer than a block).
        let mut searched = 0;
        let cut = loop {
            if filled >= target {
                if let Some(p) = memchr::memrchr(b'\n', &buf[searched..filled]) {
                    break searched + p + 1;
                }
                searched = filled;
            }
            if buf.len() < filled + READ {
                buf.resize(filled + READ, 0);
            }
            let n = match reader.read(&mut buf[filled..filled + READ]) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // A broken stream (a truncated gzip): its whole lines read so far are
                    // still records; the partial last line is lost with the rest.
                    let whole = memchr::memrchr(b'\n', &buf[..filled]).map_or(0, |p| p + 1);
                    buf.truncate(whole);
                    if !buf.is_empty() {
                        let data = std::mem::take(&mut buf);
                        send(Block {
                            first_line: line,
                            data: Cow::Owned(data),
                        });
                    }
                    return Err(e);
                }
            };
            filled += n;
            if n == 0 {
                eof = true;
                break filled;
            }
        };
        if cut == 0 {
            break;
        }
        // The rest (a partial line) starts the next buffer: a used one when there is.
        let rest = filled - cut;
        let mut next = recycled().unwrap_or_default();
        if next.len() < rest {
            next.resize(rest, 0);
        }
        next[..rest].copy_from_slice(&buf[cut..filled]);
        buf.truncate(cut);
        let data = std::mem::replace(&mut buf, next);
        filled = rest;
        let lines =
            memchr::memchr_iter(b'\n', &data).count() + usize::from(data.last() != Some(&b'\n'));
        let first_line = line;
        line += lines;
        target = BLOCK_BYTES;
        if !send(Block {
            first_line,
            data: Cow::Owned(data),
        }) {
            return Ok(());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_keep_whole_lines_and_their_numbers() {
        // Lines longer and shorter than a block, without a final newline.
        let long = "x".repeat(BLOCK_BYTES + 10);
        let text = format!("a\n{long}\nb\n\nc");
        let want: Vec<(usize, String)> = text
            .split('\n')
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect();
        // Fresh buffers, then used ones still holding other bytes.
        for dirty in [false, true] {
            let mut got = Vec::new();
            read_blocks(
                &mut text.as_bytes(),
                |b| {
                    for (n, l) in b.lines() {
                        got.push((n, String::from_utf8(l.to_vec()).unwrap()));
                    }
                    true
                },
                || dirty.then(|| b"stale\nbytes".repeat(100_000)),
            )
            .unwrap();
            assert_eq!(got, want, "used buffers: {dirty}");
        }
        // The same lines and numbers from a text in memory.
        let mut got = Vec::new();
        whole_blocks(text.as_bytes(), |b| {
            for (n, l) in b.lines() {
                got.push((n, String::from_utf8(l.to_vec()).unwrap()));
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(got, want, "whole text");
    }

    fn gzip(text: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn only_a_single_gzip_member_is_inflated_whole() {
        let a = b"{\"id\": 1}\n".repeat(1000);
        let b = b"{\"id\": 2}\n".repeat(1000);
        assert_eq!(inflate_whole(&gzip(&a)).as_deref(), Some(&a[..]));
        // Several members: libdeflate would stop after the first; they stream instead.
        // Members of the same size, and a first member equal to the last.
        for members in [vec![&a, &b], vec![&a, &b, &a], vec![&a, &a]] {
            let gz: Vec<u8> = members.iter().flat_map(|m| gzip(m)).collect();
            assert_eq!(inflate_whole(&gz), None);
        }
        // Damaged or truncated data and a trailer that lies also stream (and fail there).
        let mut bad = gzip(&a);
        let mid = bad.len() / 2;
        bad[mid] ^= 0x55;
        assert_eq!(inflate_whole(&bad), None);
        let whole = gzip(&a);
        assert_eq!(inflate_whole(&whole[..whole.len() - 1]), None);
        assert_eq!(inflate_whole(b"not gzip at all, long enough"), None);
    }
}
