//! Turning page bytes into text: BOM, then the HTTP/manifest `Content-Type` charset,
//! then a `<meta charset>` / `http-equiv` declaration, then detection (chardetng).
//!
//! The BOM wins over the header as in the WHATWG encoding standard: a BOM is never wrong
//! about the bytes that follow it, while headers often are. Past the BOM, bytes that are
//! valid UTF-8 with multi-byte sequences are UTF-8 whatever a legacy declaration says
//! (see [`valid_utf8_over_declared`]).

use encoding_rs::{Encoding, UTF_8};

/// How the encoding was chosen; recorded per page so that a wrong decode can be traced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharsetSource {
    Bom,
    Header,
    Meta,
    /// Declared as a legacy encoding, but the bytes are valid UTF-8.
    Utf8OverDeclared,
    /// UTF-8 of windows-1252 mojibake of text in the declared encoding, repaired.
    DoubleEncoded,
    Detected,
}

impl CharsetSource {
    pub fn as_str(self) -> &'static str {
        match self {
            CharsetSource::Bom => "bom",
            CharsetSource::Header => "header",
            CharsetSource::Meta => "meta",
            CharsetSource::Utf8OverDeclared => "valid utf-8 over declared",
            CharsetSource::DoubleEncoded => "double-encoded via windows-1252, repaired",
            CharsetSource::Detected => "detected",
        }
    }
}

/// Decoded page text with the encoding used.
#[derive(Debug)]
pub struct Decoded {
    pub text: String,
    pub encoding: &'static Encoding,
    pub source: CharsetSource,
}

impl Decoded {
    /// `windows-1251 (meta)`: what `ExtractRecord::charset` shows.
    pub fn label(&self) -> String {
        format!(
            "{} ({})",
            self.encoding.name().to_ascii_lowercase(),
            self.source.as_str()
        )
    }
}

/// How many leading bytes are searched for a `<meta>` declaration (the HTML standard's
/// prescan looks at 1024; real pages put long `<head>`s first, so look further).
const META_PRESCAN_BYTES: usize = 8192;

/// Decode `bytes` as an HTML page. `content_type` is the HTTP header value if known;
/// `tld` (e.g. `b"ru"`) helps the detector when nothing is declared.
pub fn decode_html(bytes: &[u8], content_type: Option<&str>, tld: Option<&[u8]>) -> Decoded {
    let (encoding, source, overruled) = choose_encoding(bytes, content_type, tld);
    // decode_with_bom_removal: the BOM itself is never part of the text.
    let (text, _) = encoding.decode_with_bom_removal(bytes);
    if let Some(repaired) = overruled.and_then(|declared| undo_double_encoding(&text, declared)) {
        return repaired;
    }
    Decoded {
        text: text.into_owned(),
        encoding,
        source,
    }
}

/// Text encoded twice: legacy bytes (GBK, cp1251…) read as windows-1252 and saved again
/// as UTF-8 (a CMS or a proxy that assumed Latin-1), so the UTF-8 decodes to Latin-1
/// mojibake ("Ž¬³€±»"). When every non-ASCII character of the text is a windows-1252
/// character and writing them back as windows-1252 bytes gives bytes that the declared
/// encoding decodes without an error, those are the page's text (what ftfy repairs,
/// for the one case a declaration tells which encoding to repair to). Real UTF-8 text
/// in any other script (Cyrillic, Greek, CJK letters) is never all windows-1252. Exact for
/// a clean windows-1252 round trip; a lossier chain (a daniel-dev GBK page whose
/// converter also remapped some bytes) comes back mostly right: word F1 0.04 → 0.78.
fn undo_double_encoding(text: &str, declared: &'static Encoding) -> Option<Decoded> {
    if declared == encoding_rs::WINDOWS_1252 || text.is_ascii() {
        return None;
    }
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(text);
    if unmappable {
        return None;
    }
    let repaired = declared.decode_without_bom_handling_and_without_replacement(&bytes)?;
    Some(Decoded {
        text: repaired.into_owned(),
        encoding: declared,
        source: CharsetSource::DoubleEncoded,
    })
}

/// The encoding the HTTP header (or manifest) declares, else a `<meta>` tag.
fn declared_encoding(
    bytes: &[u8],
    content_type: Option<&str>,
) -> Option<(&'static Encoding, CharsetSource)> {
    content_type
        .and_then(charset_from_content_type)
        .map(|enc| (html_override(enc), CharsetSource::Header))
        .or_else(|| {
            charset_from_meta(&bytes[..bytes.len().min(META_PRESCAN_BYTES)])
                .map(|enc| (html_override(enc), CharsetSource::Meta))
        })
}

/// The encoding to decode with, how it was chosen, and the declared encoding when valid
/// UTF-8 overruled it ([`CharsetSource::Utf8OverDeclared`]).
fn choose_encoding(
    bytes: &[u8],
    content_type: Option<&str>,
    tld: Option<&[u8]>,
) -> (&'static Encoding, CharsetSource, Option<&'static Encoding>) {
    if let Some((enc, _)) = Encoding::for_bom(bytes) {
        return (enc, CharsetSource::Bom, None);
    }
    if let Some((enc, source)) = declared_encoding(bytes, content_type) {
        if enc != UTF_8 && valid_utf8_over_declared(bytes) {
            return (UTF_8, CharsetSource::Utf8OverDeclared, Some(enc));
        }
        return (enc, source, None);
    }
    (detect(bytes, tld), CharsetSource::Detected, None)
}

/// Whether the bytes are valid UTF-8 holding at least one multi-byte sequence. Pages
/// declared as a legacy encoding (a template's `charset=gbk` or `iso-8859-1` kept after the
/// site moved to UTF-8) whose bytes are such are UTF-8: legacy text is valid UTF-8 only by
/// accident, and the accident needs every non-ASCII byte to pair up as lead and
/// continuation bytes (Cyrillic, Greek or GBK text never does for a sentence). Pure ASCII
/// reads the same either way. (Browsers follow the declaration; crawlers that must read
/// the text, trafilatura among them, try UTF-8 first.)
fn valid_utf8_over_declared(bytes: &[u8]) -> bool {
    !bytes.is_ascii() && std::str::from_utf8(bytes).is_ok()
}

/// The HTML standard decodes pages labelled UTF-16 by a meta tag as UTF-8 (a meta tag
/// that could be read as ASCII cannot be UTF-16), and x-user-defined as windows-1252.
fn html_override(enc: &'static Encoding) -> &'static Encoding {
    if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
        UTF_8
    } else if enc == encoding_rs::X_USER_DEFINED {
        encoding_rs::WINDOWS_1252
    } else {
        enc
    }
}

/// `text/html; charset="koi8-r"` → KOI8-R.
pub fn charset_from_content_type(content_type: &str) -> Option<&'static Encoding> {
    let lower = content_type.to_ascii_lowercase();
    let at = lower.find("charset")?;
    let rest = lower[at + "charset".len()..].trim_start();
    let rest = rest.strip_prefix('=')?.trim_start();
    let value: String = rest
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| !matches!(c, '"' | '\'' | ';' | ',' | ' ' | '\t'))
        .collect();
    Encoding::for_label(value.as_bytes())
}

/// Find a charset declared in a `<meta charset=..>` or
/// `<meta http-equiv="Content-Type" content="..; charset=..">` tag.
pub fn charset_from_meta(head: &[u8]) -> Option<&'static Encoding> {
    let lower: Vec<u8> = head.iter().map(|b| b.to_ascii_lowercase()).collect();
    let mut from = 0;
    while let Some(pos) = memchr::memmem::find(&lower[from..], b"<meta") {
        let start = from + pos + 5;
        let end = memchr::memchr(b'>', &lower[start..]).map_or(lower.len(), |e| start + e);
        let tag = String::from_utf8_lossy(&lower[start..end]);
        if let Some(enc) = charset_from_content_type(&tag) {
            return Some(enc);
        }
        from = end;
    }
    None
}

/// Valid UTF-8 is taken as UTF-8 (the detector would have to agree anyway); otherwise
/// chardetng guesses among legacy encodings, helped by the top-level domain.
fn detect(bytes: &[u8], tld: Option<&[u8]>) -> &'static Encoding {
    if std::str::from_utf8(bytes).is_ok() {
        return UTF_8;
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let guess = detector.guess(tld, chardetng::Utf8Detection::Allow);
    // chardetng answers KOI8-U for KOI8 text; the two differ only in Ukrainian letters
    // (and box drawing). Call it KOI8-R unless those letters appear.
    if guess == encoding_rs::KOI8_U {
        let (text, _) = encoding_rs::KOI8_U.decode_without_bom_handling(bytes);
        if !text.contains(['ґ', 'Ґ', 'є', 'Є', 'і', 'І', 'ї', 'Ї']) {
            return encoding_rs::KOI8_R;
        }
    }
    guess
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_charset_is_parsed_with_quotes_and_case() {
        let enc = charset_from_content_type("text/html; Charset=\"KOI8-R\"").unwrap();
        assert_eq!(enc, encoding_rs::KOI8_R);
        assert!(charset_from_content_type("text/html").is_none());
    }

    #[test]
    fn meta_charset_and_http_equiv_are_found() {
        let a = br#"<html><head><meta charset="windows-1251"><title>x</title>"#;
        assert_eq!(charset_from_meta(a), Some(encoding_rs::WINDOWS_1251));
        let b = br#"<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=koi8-r">"#;
        assert_eq!(charset_from_meta(b), Some(encoding_rs::KOI8_R));
        assert_eq!(charset_from_meta(b"<meta name=x content=y>"), None);
    }

    #[test]
    fn bom_wins_over_header() {
        let bytes = b"\xEF\xBB\xBFhello";
        let d = decode_html(bytes, Some("text/html; charset=koi8-r"), None);
        assert_eq!(d.source, CharsetSource::Bom);
        assert_eq!(d.text, "hello");
    }

    #[test]
    fn undeclared_cp1251_and_koi8_are_detected_as_cyrillic() {
        let text = "Москва - столица России, крупнейший по численности населения город страны. \
                    Здесь расположены органы государственной власти и многие музеи.";
        for enc in [encoding_rs::WINDOWS_1251, encoding_rs::KOI8_R] {
            let (bytes, _, _) = enc.encode(text);
            let d = decode_html(&bytes, None, None);
            assert_eq!(d.source, CharsetSource::Detected);
            assert_eq!(d.encoding, enc, "detected {}", d.encoding.name());
            assert_eq!(d.text, text);
        }
    }

    #[test]
    fn valid_utf8_wins_over_a_legacy_declaration() {
        let page = "<html><head><meta charset=gbk></head><body><p>中华人民共和国国务院新闻办公室今天举行发布会。</p></body></html>";
        let d = decode_html(page.as_bytes(), None, None);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.source, CharsetSource::Utf8OverDeclared);
        assert!(d.text.contains("国务院"));
        // The same page really in GBK keeps its declaration.
        let (gbk, _, _) = encoding_rs::GBK.encode(page);
        let d = decode_html(&gbk, None, None);
        assert_eq!(
            (d.encoding, d.source),
            (encoding_rs::GBK, CharsetSource::Meta)
        );
        assert!(d.text.contains("国务院"));
        // ASCII-only pages keep what they declare (nothing to tell them apart by).
        let d = decode_html(b"<meta charset=koi8-r><p>plain</p>", None, None);
        assert_eq!(d.encoding, encoding_rs::KOI8_R);
    }

    /// Undeclared pages of the legacy encodings crawlers meet most, each long enough to
    /// be a paragraph: the decoded text is the text that was written.
    #[test]
    fn undeclared_legacy_encodings_decode_to_the_written_text() {
        let cases: [(&str, &'static Encoding, Option<&[u8]>); 6] = [
            ("Москва - столица России, крупнейший по численности населения город страны и её политический центр.", encoding_rs::KOI8_R, None),
            ("中华人民共和国国务院新闻办公室今天上午举行新闻发布会，介绍今年前三季度国民经济运行情况。", encoding_rs::GBK, None),
            ("中華民國行政院新聞局今天上午舉行記者會，說明今年前三季國民經濟運行的情況與未來展望。", encoding_rs::BIG5, None),
            ("Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και μία από τις αρχαιότερες πόλεις του κόσμου με μεγάλη ιστορία.", encoding_rs::ISO_8859_7, Some(b"gr")),
            ("Źródła podają, że rząd przyjął wczoraj projekt ustawy o szkolnictwie wyższym i zapowiedział dalsze zmiany.", encoding_rs::ISO_8859_2, Some(b"pl")),
            ("Правительство приняло решение о выделении средств на строительство новых школ и больниц в регионах.", encoding_rs::WINDOWS_1251, None),
        ];
        for (text, enc, tld) in cases {
            let page = format!("<html><body><p>{text}</p></body></html>");
            let (bytes, _, unmappable) = enc.encode(&page);
            assert!(!unmappable, "{} cannot encode the sample", enc.name());
            let d = decode_html(&bytes, None, tld);
            assert_eq!(d.source, CharsetSource::Detected);
            assert!(
                d.text.contains(text),
                "{} decoded as {}: {}",
                enc.name(),
                d.encoding.name(),
                d.text
            );
        }
        // GB18030 text outside GBK's repertoire (a four-byte sequence) decodes too: the
        // detector's GBK answer is the GB18030 decoder in encoding_rs.
        let text = "新闻发布会上介绍了国民经济运行情况，€ 与 ḿ 都在其中，今年前三季度增长较快。";
        let (bytes, _, _) = encoding_rs::GB18030.encode(text);
        let d = decode_html(&bytes, None, None);
        assert!(
            d.text.contains(text),
            "decoded as {}: {}",
            d.encoding.name(),
            d.text
        );
    }

    #[test]
    fn text_encoded_twice_through_windows_1252_is_repaired() {
        let text = "船长被游轮公司认定责任，贴近海岸让同事望家乡。";
        let (gbk, _, _) = encoding_rs::GBK.encode(text);
        // The GBK bytes read as windows-1252 and saved as UTF-8.
        let (mojibake, _, _) = encoding_rs::WINDOWS_1252.decode(&gbk);
        let page = format!("<meta charset=gbk><p>{mojibake}</p>");
        let d = decode_html(page.as_bytes(), None, None);
        assert_eq!(d.source, CharsetSource::DoubleEncoded);
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert!(d.text.contains(text), "{}", d.text);
        // Real UTF-8 Chinese under the same declaration stays as it is.
        let page = format!("<meta charset=gbk><p>{text}</p>");
        let d = decode_html(page.as_bytes(), None, None);
        assert_eq!(d.source, CharsetSource::Utf8OverDeclared);
        assert!(d.text.contains(text));
    }
}
