//! A fast reader for the one-level JSON objects `thresher dedup` reads (a record a line),
//! for the fields it needs, with serde_json's answer or none at all.
//!
//! Why: serde_json spent 0.61 G of the 4.12 G instructions of a `dedup --threads 1` run
//! on dedup-dev, mostly scanning and copying each `text` byte by byte. Here a string is
//! cut with `memchr2` (the next `"` or `\`, SIMD); the line is checked for control
//! characters once, in a loop the compiler vectorises.
//!
//! The contract: [`scan`] returns the fields serde_json would give for the line, or
//! `None` whenever it is not sure (anything unusual: a key with an escape, a field seen
//! twice, a lone surrogate, a control character anywhere, trailing bytes, a value of the wrong
//! type...). The caller then parses the line with serde_json, so what is accepted and
//! every error message stay serde_json's. Values other than plain strings of the needed
//! fields (numbers, dates, escaped ids) are handed to serde_json one by one; values of
//! other fields are checked by serde_json too when they are objects or arrays
//! (`tests::agrees_with_serde_json` holds the two readers together).

use std::borrow::Cow;

/// The fields of a record, raw JSON values (`null` included) for all but the strings.
#[derive(Debug, Default, PartialEq)]
pub struct RawFields<'a> {
    /// Decoded string values, by field index in `names`.
    pub strings: Vec<Option<Cow<'a, str>>>,
    /// The raw JSON text of each value found, by field index.
    pub raw: Vec<Option<&'a str>>,
}

/// Scan `line` (a whole JSON text) as an object whose fields `names` are wanted.
/// A wanted field whose value is a string gets it decoded in `strings` (and its raw
/// text in `raw`); any other value gets only its raw text. `None`: let serde_json
/// parse the line.
pub fn scan<'a>(line: &'a str, names: &[&str]) -> Option<RawFields<'a>> {
    let b = line.as_bytes();
    if has_control(b) {
        return None;
    }
    let mut out = RawFields {
        strings: vec![None; names.len()],
        raw: vec![None; names.len()],
    };
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            // A key: a string without escapes.
            if b.get(i) != Some(&b'"') {
                return None;
            }
            let key_end = i + 1 + memchr::memchr2(b'"', b'\\', &b[i + 1..])?;
            if b[key_end] != b'"' {
                return None;
            }
            let key = &line[i + 1..key_end];
            i = skip_ws(b, key_end + 1);
            if b.get(i) != Some(&b':') {
                return None;
            }
            i = skip_ws(b, i + 1);
            // First bytes first: most keys are told apart without a comparison call.
            let wanted = names.iter().position(|n| {
                n.len() == key.len() && n.as_bytes().first() == key.as_bytes().first() && *n == key
            });
            let start = i;
            match b.get(i)? {
                b'"' => {
                    let (s, end) = string(line, i)?;
                    i = end;
                    if let Some(k) = wanted {
                        out.strings[k] = Some(s);
                    }
                }
                b'{' | b'[' => {
                    // Nested values are checked by serde_json (as it skips them).
                    let mut values = serde_json::Deserializer::from_str(&line[i..])
                        .into_iter::<serde::de::IgnoredAny>();
                    values.next()?.ok()?;
                    i += values.byte_offset();
                }
                b't' | b'f' | b'n' => {
                    let word = [&b"true"[..], b"false", b"null"]
                        .into_iter()
                        .find(|w| b[i..].starts_with(w))?;
                    i += word.len();
                }
                _ => i = number(b, i)?,
            }
            if let Some(k) = wanted {
                if out.raw[k].is_some() {
                    return None; // serde: "duplicate field"
                }
                out.raw[k] = Some(&line[start..i]);
            }
            i = skip_ws(b, i);
            match b.get(i)? {
                b',' => i = skip_ws(b, i + 1),
                b'}' => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    // Only whitespace may follow the object.
    (skip_ws(b, i) == b.len()).then_some(out)
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// A byte below 0x20: serde_json refuses it inside a string (and between tokens only
/// `\t`, `\r` and `\n` may be, which are rare in JSONL). Checked once for the whole line
/// as its least byte, a reduction without an early exit that the compiler vectorises (a
/// per-byte comparison in each string span cost 1 instruction a byte, 0.06 G on dedup-dev).
fn has_control(bytes: &[u8]) -> bool {
    bytes.iter().fold(u8::MAX, |m, &c| m.min(c)) < 0x20
}

/// The JSON number at `i` (its grammar exactly: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`);
/// the index after it.
fn number(b: &[u8], mut i: usize) -> Option<usize> {
    let digits = |b: &[u8], mut i: usize| {
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > s).then_some(i)
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i)? {
        b'0' => i += 1,
        b'1'..=b'9' => i = digits(b, i)?,
        _ => return None,
    }
    if b.get(i) == Some(&b'.') {
        i = digits(b, i + 1)?;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(b, i)?;
    }
    Some(i)
}

/// The string starting with the `"` at `i`: its decoded value (borrowed when it has no
/// escape) and the index after its closing quote.
fn string(line: &str, i: usize) -> Option<(Cow<'_, str>, usize)> {
    let b = line.as_bytes();
    let mut start = i + 1;
    let mut owned: Option<String> = None;
    loop {
        let at = start + memchr::memchr2(b'"', b'\\', &b[start..])?;
        if b[at] == b'"' {
            return Some(match owned {
                None => (Cow::Borrowed(&line[start..at]), at + 1),
                Some(mut s) => {
                    s.push_str(&line[start..at]);
                    (Cow::Owned(s), at + 1)
                }
            });
        }
        let s = owned.get_or_insert_with(|| String::with_capacity(line.len() - i));
        s.push_str(&line[start..at]);
        let escaped = *b.get(at + 1)?;
        start = at + 2;
        s.push(match escaped {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = hex4(b, at + 2)?;
                start = at + 6;
                match high {
                    0xD800..=0xDBFF => {
                        // A pair: the low half must follow at once.
                        if b.get(start..start + 2)? != b"\\u" {
                            return None;
                        }
                        let low = hex4(b, start + 2)?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return None;
                        }
                        start += 6;
                        char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?
                    }
                    0xDC00..=0xDFFF => return None,
                    c => char::from_u32(c)?,
                }
            }
            _ => return None,
        });
    }
}

fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let digits = b.get(i..i + 4)?;
    digits
        .iter()
        .try_fold(0u32, |acc, &d| Some(acc * 16 + char::from(d).to_digit(16)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 3] = ["id", "text", "n"];

    /// What serde_json makes of the same fields (`None` when it refuses the line or a
    /// wanted field is not a string or null where the scan decoded a string).
    fn by_serde(line: &str) -> Option<Vec<Option<String>>> {
        let v: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line).ok()?;
        Some(
            NAMES
                .iter()
                .map(|n| v.get(*n).map(|v| v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn agrees_with_serde_json() {
        let lines = [
            r#"{"id": 7, "text": "a\nb \"q\" \\ \/ \u0430\u00e9 \ud83d\ude00", "src": "x"}"#,
            r#"  { "text" : "plain" , "n": -0.5e+3, "o": {"a": [1, {"b": null}]}, "t": true } "#,
            r#"{}"#,
            r#"{"id": "k", "n": null, "text": "\t"}"#,
            r#"{"id": 01}"#,
            r#"{"id": 1.}"#,
            r#"{"id": -}"#,
            r#"{"text": "raw	tab"}"#,
            r#"{"text": "\ud83d"}"#,
            r#"{"text": "\ude00"}"#,
            r#"{"text": "\x"}"#,
            r#"{"text": "a", "text": "b"}"#,
            r#"{"text": "a"} x"#,
            r#"{"text": "a",}"#,
            r#"{"o": {"a": }, "text": "a"}"#,
            r#"{"t": tru}"#,
            r#"[1]"#,
            r#"{"te\u0078t": "a"}"#,
            r#"{"text": "unterminated}"#,
        ];
        for line in lines {
            let scanned = scan(line, &NAMES);
            let serde = by_serde(line);
            match &scanned {
                Some(f) => {
                    // Accepted: serde_json accepts it too, with the same values.
                    let serde = serde
                        .as_ref()
                        .unwrap_or_else(|| panic!("serde refuses {line}"));
                    for k in 0..NAMES.len() {
                        let want = serde[k]
                            .as_ref()
                            .map(|v| serde_json::from_str::<serde_json::Value>(v).unwrap());
                        let got =
                            f.raw[k].map(|r| serde_json::from_str::<serde_json::Value>(r).unwrap());
                        assert_eq!(got, want, "{line} field {}", NAMES[k]);
                        if let Some(s) = &f.strings[k] {
                            assert_eq!(
                                want,
                                Some(serde_json::Value::String(s.to_string())),
                                "{line}"
                            );
                        }
                    }
                }
                // Refused lines go to serde_json; those it accepts cost time, not answers.
                None => {}
            }
            // Lines serde_json refuses are never accepted by the scan.
            if serde.is_none() {
                assert!(scanned.is_none(), "scan accepts {line}");
            }
        }
        // The common cases are taken by the scan, not passed on.
        for line in &lines[..4] {
            assert!(scan(line, &NAMES).is_some(), "{line}");
        }
    }
}
