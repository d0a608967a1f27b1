//! WARC records with their offsets in the file: a sequential scan ([`scan`]) and a read of
//! one record at a known offset ([`read_record_at`]). The `warc` crate (used for page
//! input in `warc.rs`) reads records but does not tell where each one starts, and
//! revisit records point at their earlier response by file and offset
//! (`WARC-Refers-To-Filename`, `WARC-Refers-To-File-Offset`), so this small reader is
//! written here. In a `.gz` file an offset is known for records that start a gzip member
//! (one record per member, as `WarcWriter` and most crawlers write them).

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// A WARC header line longer than this, or a header block with more lines, is not WARC.
const MAX_HEADER_LINE: usize = 64 << 10;
const MAX_HEADER_LINES: usize = 1000;

/// One record: where it starts (when known), its named fields, its block (or the first
/// `max_block` bytes of it).
#[derive(Debug)]
pub struct RawRecord {
    pub offset: Option<u64>,
    pub headers: Vec<(String, String)>,
    pub block: Vec<u8>,
    /// The block was longer than `max_block`: `block` is its beginning.
    pub cut: bool,
}

impl RawRecord {
    /// A named field's value (names compare case-insensitively), `<>` around URIs removed
    /// for `WARC-Target-URI`-like fields.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn warc_type(&self) -> &str {
        self.header("WARC-Type").unwrap_or("")
    }

    /// `WARC-Target-URI` without the `<>` some writers put around it.
    pub fn target_uri(&self) -> &str {
        self.header("WARC-Target-URI")
            .unwrap_or("")
            .trim_matches(['<', '>'])
    }
}

/// Counts the bytes consumed from a buffered reader: the offset of the next record in a
/// plain file, the offset of the next gzip member in a `.gz` file.
struct Counting<R> {
    inner: R,
    pos: u64,
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.pos += amt as u64;
        self.inner.consume(amt)
    }
}

/// Read one line (up to `\n`), at most [`MAX_HEADER_LINE`] bytes; `None` at end of input.
fn read_line(r: &mut impl BufRead) -> Result<Option<Vec<u8>>, String> {
    let mut line = Vec::new();
    let n = r
        .by_ref()
        .take(MAX_HEADER_LINE as u64)
        .read_until(b'\n', &mut line)
        .map_err(|e| e.to_string())?;
    if n == 0 {
        return Ok(None);
    }
    if !line.ends_with(b"\n") && n == MAX_HEADER_LINE {
        return Err(format!("header line longer than {MAX_HEADER_LINE} bytes"));
    }
    Ok(Some(line))
}

/// Consume whitespace (the blank lines that end a record).
fn skip_blank(r: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        let n = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let all = n == buf.len();
        r.consume(n);
        if !all {
            return Ok(());
        }
    }
}

/// Parse the next record from `r` (blank lines before it skipped); `None` at end of input.
/// Block bytes past `max_block` are read and dropped.
fn parse_record(r: &mut impl BufRead, max_block: usize) -> Result<Option<RawRecord>, String> {
    let first = loop {
        match read_line(r)? {
            None => return Ok(None),
            Some(l) if l.iter().all(|b| b.is_ascii_whitespace()) => continue,
            Some(l) => break l,
        }
    };
    if !first.starts_with(b"WARC/") {
        let shown = String::from_utf8_lossy(&first[..first.len().min(40)]).into_owned();
        return Err(format!("not a WARC record start: {shown:?}"));
    }
    let mut headers = Vec::new();
    loop {
        let Some(line) = read_line(r)? else {
            return Err("end of input inside a record's header".into());
        };
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        if headers.len() >= MAX_HEADER_LINES {
            return Err(format!("more than {MAX_HEADER_LINES} header lines"));
        }
        if let Some((n, v)) = text.split_once(':') {
            headers.push((n.trim().to_string(), v.trim().to_string()));
        }
    }
    let len: u64 = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
        .and_then(|(_, v)| v.parse().ok())
        .ok_or("record without a valid Content-Length")?;
    let keep = len.min(max_block as u64);
    let mut block = Vec::with_capacity(keep as usize);
    r.by_ref()
        .take(keep)
        .read_to_end(&mut block)
        .map_err(|e| e.to_string())?;
    if (block.len() as u64) < keep {
        return Err("end of input inside a record's block".into());
    }
    let rest = len - keep;
    let skipped = std::io::copy(&mut r.by_ref().take(rest), &mut std::io::sink())
        .map_err(|e| e.to_string())?;
    if skipped < rest {
        return Err(format!(
            "end of input inside a record's block (Content-Length {len} is more than the record holds)"
        ));
    }
    // A block ends with the record's blank line (`\r\n\r\n`; a bare `\n` is taken
    // too) or the end of input: anything else means the Content-Length is wrong (too
    // small: the block's end is cut; too large: the next record's start was taken).
    let after = r.fill_buf().map_err(|e| e.to_string())?;
    let ends = after.is_empty()
        || after.starts_with(b"\r\n")
        || after.starts_with(b"\n")
        || after.starts_with(b"WARC/");
    if !ends {
        return Err(format!(
            "Content-Length {len} does not end at the record's end"
        ));
    }
    Ok(Some(RawRecord {
        offset: None,
        headers,
        block,
        cut: rest > 0,
    }))
}

type Input = Counting<BufReader<std::fs::File>>;

/// Where a scan is: a plain file, or a `.gz` file between members or inside one.
enum State {
    Plain(Input),
    Between(Input),
    /// Inside the gzip member that starts at `offset`; `first`: no record read from it yet.
    Member {
        reader: Box<BufReader<flate2::bufread::GzDecoder<Input>>>,
        offset: u64,
        first: bool,
    },
    Done,
}

/// The records of one WARC file (`.warc` or `.warc.gz`), one at a time, with offsets.
/// After an unreadable record (a corrupt gzip member, a Content-Length too large, too
/// small or not a number, bytes that are no record) the scan resumes at the next record,
/// as warcio and FastWARC do: in a `.gz` file the next gzip member that starts with a
/// WARC record, in a plain file the next line starting with `WARC/1.`. Each skipped span
/// is one error naming its byte offset and where reading resumed.
pub struct Scanner {
    state: State,
    max_block: usize,
}

/// The file under a scan's buffered, counting reader.
fn file_of(input: Input) -> std::fs::File {
    input.inner.into_inner()
}

/// `input`'s file read from `offset`.
fn input_at(mut file: std::fs::File, offset: u64) -> std::io::Result<Input> {
    file.seek(SeekFrom::Start(offset))?;
    Ok(Counting {
        inner: BufReader::with_capacity(1 << 16, file),
        pos: offset,
    })
}

/// The offset of the first match of `found` at or past `from`, reading `file` forward in
/// blocks (`found` gets a block and its offset, and says where in it a match starts).
fn search(
    file: &mut std::fs::File,
    from: u64,
    mut found: impl FnMut(&mut std::fs::File, &[u8], u64) -> std::io::Result<Option<usize>>,
) -> std::io::Result<Option<u64>> {
    const BLOCK: usize = 1 << 16;
    const OVERLAP: usize = 16; // longer than any pattern searched for
    let mut at = from;
    let mut buf = vec![0u8; BLOCK];
    loop {
        file.seek(SeekFrom::Start(at))?;
        let mut n = 0;
        while n < BLOCK {
            match file.read(&mut buf[n..])? {
                0 => break,
                k => n += k,
            }
        }
        if n == 0 {
            return Ok(None);
        }
        if let Some(p) = found(file, &buf[..n], at)? {
            return Ok(Some(at + p as u64));
        }
        if n < BLOCK {
            return Ok(None);
        }
        at += (n - OVERLAP) as u64;
    }
}

/// The next line start at or past `from` that begins `WARC/1.` (a plain file's record).
fn next_plain_record(file: &mut std::fs::File, from: u64) -> std::io::Result<Option<u64>> {
    search(file, from, |_, block, at| {
        Ok(memchr::memmem::find_iter(block, b"WARC/1.").find(|&p| {
            // At a line start: after `\n`, or at the very start of the file.
            (p == 0 && at == 0) || (p > 0 && block[p - 1] == b'\n')
        }))
    })
}

/// The next offset at or past `from` where a gzip member starts whose text begins with
/// `WARC/` (the magic `1f 8b 08` alone also occurs inside compressed data).
fn next_gzip_record(file: &mut std::fs::File, from: u64) -> std::io::Result<Option<u64>> {
    search(file, from, |file, block, at| {
        for p in memchr::memmem::find_iter(block, &[0x1f, 0x8b, 0x08]) {
            let mut probe = file.try_clone()?;
            probe.seek(SeekFrom::Start(at + p as u64))?;
            let mut head = [0u8; 5];
            let read = flate2::read::GzDecoder::new(BufReader::new(probe)).read_exact(&mut head);
            if read.is_ok() && &head == b"WARC/" {
                return Ok(Some(p));
            }
        }
        Ok(None)
    })
}

impl Scanner {
    /// After an error at `offset` (whose message is `message`): go on at the next record
    /// past it, and say where, as one error for the span skipped.
    fn resume(&mut self, file: std::fs::File, gzip: bool, offset: u64, message: String) -> String {
        let mut file = file;
        let next = if gzip {
            next_gzip_record(&mut file, offset + 1)
        } else {
            next_plain_record(&mut file, offset + 1)
        };
        match next {
            Ok(Some(next)) => match input_at(file, next) {
                Ok(input) => {
                    self.state = if gzip {
                        State::Between(input)
                    } else {
                        State::Plain(input)
                    };
                    format!("{message}; skipped to the next record at offset {next}")
                }
                Err(e) => format!("{message}; cannot read further: {e}"),
            },
            Ok(None) => format!("{message}; no record after it"),
            Err(e) => format!("{message}; cannot read further: {e}"),
        }
    }
}

/// Scan `path`'s records; blocks are kept up to `max_block` bytes each.
pub fn scan(path: &Path, max_block: usize) -> std::io::Result<Scanner> {
    let file = std::fs::File::open(path)?;
    let mut input = Counting {
        inner: BufReader::with_capacity(1 << 16, file),
        pos: 0,
    };
    // By content, not name (a WARC found by sniffing may have any name).
    let state = if super::sniff::is_gzip(input.fill_buf()?) {
        State::Between(input)
    } else {
        State::Plain(input)
    };
    Ok(Scanner { state, max_block })
}

impl Iterator for Scanner {
    type Item = Result<RawRecord, String>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match std::mem::replace(&mut self.state, State::Done) {
                State::Done => return None,
                State::Plain(mut input) => {
                    // The offset is where `WARC/` starts, past the previous record's end.
                    if let Err(e) = skip_blank(&mut input) {
                        return Some(Err(format!("offset {}: {e}", input.pos)));
                    }
                    let offset = input.pos;
                    return match parse_record(&mut input, self.max_block) {
                        Ok(Some(mut rec)) => {
                            rec.offset = Some(offset);
                            self.state = State::Plain(input);
                            Some(Ok(rec))
                        }
                        Ok(None) => None,
                        Err(e) => {
                            let message = format!("offset {offset}: {e}");
                            Some(Err(self.resume(file_of(input), false, offset, message)))
                        }
                    };
                }
                State::Between(mut input) => match input.fill_buf() {
                    Err(e) => return Some(Err(format!("offset {}: {e}", input.pos))),
                    Ok([]) => return None,
                    Ok(_) => {
                        let offset = input.pos;
                        self.state = State::Member {
                            reader: Box::new(BufReader::new(flate2::bufread::GzDecoder::new(
                                input,
                            ))),
                            offset,
                            first: true,
                        };
                    }
                },
                State::Member {
                    mut reader,
                    offset,
                    first,
                } => match parse_record(&mut reader, self.max_block) {
                    Ok(Some(mut rec)) => {
                        if first {
                            rec.offset = Some(offset);
                        }
                        self.state = State::Member {
                            reader,
                            offset,
                            first: false,
                        };
                        return Some(Ok(rec));
                    }
                    // The member is read to its end: the counting reader is at the next one.
                    Ok(None) => self.state = State::Between(reader.into_inner().into_inner()),
                    Err(e) => {
                        let message = format!("gzip member at offset {offset}: {e}");
                        let input = reader.into_inner().into_inner();
                        return Some(Err(self.resume(file_of(input), true, offset, message)));
                    }
                },
            }
        }
    }
}

/// The record that starts at `offset` in `path` (the start of a gzip member in a `.gz`
/// file); its block is kept up to `max_block` bytes.
pub fn read_record_at(path: &Path, offset: u64, max_block: usize) -> Result<RawRecord, String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    file.seek(SeekFrom::Start(offset))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = BufReader::new(file);
    let gz = reader
        .fill_buf()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let parsed = if super::sniff::is_gzip(gz) {
        parse_record(
            &mut BufReader::new(flate2::bufread::GzDecoder::new(reader)),
            max_block,
        )
    } else {
        parse_record(&mut { reader }, max_block)
    };
    match parsed {
        Ok(Some(mut rec)) => {
            rec.offset = Some(offset);
            Ok(rec)
        }
        Ok(None) => Err(format!("{}: no record at offset {offset}", path.display())),
        Err(e) => Err(format!("{}: offset {offset}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::warc::WarcWriter;
    use std::io::Write;

    fn write(path: &Path, n: usize) -> Vec<u64> {
        let mut w = WarcWriter::open_append(path, None).unwrap();
        let offsets = (0..n)
            .map(|i| {
                let block = format!("HTTP/1.1 200 OK\r\nETag: \"{i}\"\r\n\r\n<p>page {i}</p>");
                w.write_record(
                    &[
                        ("WARC-Type", "response".into()),
                        ("WARC-Target-URI", format!("http://a.example/{i}")),
                    ],
                    block.as_bytes(),
                )
                .unwrap()
            })
            .collect();
        w.flush().unwrap();
        offsets
    }

    #[test]
    fn scan_gives_each_record_its_offset_and_reads_back_at_it() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["c.warc", "c.warc.gz"] {
            let path = dir.path().join(name);
            let offsets = write(&path, 3);
            let recs: Vec<RawRecord> = scan(&path, 1 << 20).unwrap().map(|r| r.unwrap()).collect();
            assert_eq!(recs.len(), 3, "{name}");
            for (i, rec) in recs.iter().enumerate() {
                assert_eq!(rec.offset, Some(offsets[i]), "{name}");
                assert_eq!(rec.target_uri(), format!("http://a.example/{i}"));
                let again = read_record_at(&path, offsets[i], 1 << 20).unwrap();
                assert_eq!(again.block, rec.block, "{name}");
            }
            // Blocks are cut at max_block, the scan goes on.
            let short: Vec<RawRecord> = scan(&path, 10).unwrap().map(|r| r.unwrap()).collect();
            assert_eq!(short.len(), 3);
            assert!(short.iter().all(|r| r.block.len() == 10));
        }
    }

    #[test]
    fn a_member_with_several_records_gives_an_offset_to_its_first_only() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("p.warc");
        write(&plain, 2);
        let gz = dir.path().join("one-member.warc.gz");
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&std::fs::read(&plain).unwrap()).unwrap();
        std::fs::write(&gz, e.finish().unwrap()).unwrap();
        let offsets: Vec<Option<u64>> = scan(&gz, 1 << 20)
            .unwrap()
            .map(|r| r.unwrap().offset)
            .collect();
        assert_eq!(offsets, [Some(0), None]);
    }

    #[test]
    fn a_cut_file_ends_the_scan_with_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.warc");
        let offsets = write(&path, 2);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..offsets[1] as usize + 30]).unwrap();
        let items: Vec<Result<RawRecord, String>> = scan(&path, 1 << 20).unwrap().collect();
        assert_eq!(items.len(), 2);
        assert!(items[0].is_ok());
        let err = items[1].as_ref().unwrap_err();
        assert!(err.contains(&format!("offset {}", offsets[1])), "{err}");
        assert!(read_record_at(&path, 5, 1 << 20).is_err());
    }
}
