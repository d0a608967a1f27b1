//! Text that was UTF-8, read as Windows-1252 (or Latin-1) and saved as UTF-8 again
//! (`obowiÄzkÃ³w` for `obowiązków`, `Â ` for a no-break space): a publishing system's
//! double encoding, common on older news sites. Such a text node's character sequences
//! are written back to the bytes they came from and read as UTF-8 ([`repair`]), where
//! they form one multi-byte character and such sequences are most of the node's non-ASCII
//! characters: a real Latin-1 or Windows-1252 text (`café`, `Ã` alone, `naïve`) forms no
//! such sequence once written back as single bytes, and a text with characters beyond
//! Windows-1252 (Polish `ą`, Cyrillic, CJK) before its first sequence is no double
//! encoding.

/// The Windows-1252 characters of bytes 0x80–0x9F (undefined bytes read as the C1
/// controls U+0081, U+008D, U+008F, U+0090, U+009D, which map to themselves).
const CP1252_HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž', '\u{8f}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}', 'ž', 'Ÿ',
];

/// The byte a character of a Windows-1252 or Latin-1 reading came from, if any. Not
/// `encoding_rs`'s windows-1252 encoder: it refuses the C1 controls a true ISO-8859-1
/// reading leaves (`ą` → `Ä\u{85}`), the pages this repair exists for.
fn byte_of(c: char) -> Option<u8> {
    let u = c as u32;
    // Latin-1 maps every byte to the character of the same number (a Windows-1252
    // reading leaves its five undefined bytes so too).
    if u <= 0xff {
        return Some(u as u8);
    }
    CP1252_HIGH
        .iter()
        .position(|&h| h == c)
        .map(|i| 0x80 + i as u8)
}

/// `s` read back as UTF-8 when it is double-encoded UTF-8, else `None`. Cheap for the
/// usual text: it returns at the first character no lead byte of a sequence can be
/// (none of `Â`–`ô` before a character of the 0x80–0xBF range).
///
/// Each character sequence whose bytes form one UTF-8 character is read back; other
/// characters stay as they are. A publishing system that double-encodes its text still
/// writes its entities (`&#8221;`, `&#8211;`) and template characters right, so one
/// text node mixes both, and a whole-node reading fails at the first right one. The
/// repair is made only when the sequences read back outnumber the other non-ASCII
/// characters: real Latin-1 or Windows-1252 text (`café`, `naïve`, `Ã© and é`) forms no
/// sequence or as many strays as sequences.
pub(crate) fn repair(s: &str) -> Option<String> {
    // Most text nodes are ASCII (a word-at-a-time test), which no reading changes.
    if s.is_ascii() || !looks_double_encoded(s) {
        return None;
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let (mut read_back, mut strays) = (0usize, 0usize);
    let mut i = 0;
    while i < chars.len() {
        if let Some((c, len)) = sequence_at(&chars[i..]) {
            out.push(c);
            read_back += 1;
            i += len;
        } else {
            strays += usize::from(!chars[i].is_ascii());
            out.push(chars[i]);
            i += 1;
        }
    }
    (read_back > strays).then_some(out)
}

/// The character that the one-byte readings at the start of `chars` spell in UTF-8, with
/// the number of readings it takes, when they form one multi-byte UTF-8 character.
fn sequence_at(chars: &[char]) -> Option<(char, usize)> {
    let len = match byte_of(chars[0])? {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let mut bytes = [0u8; 4];
    for (k, b) in bytes.iter_mut().enumerate().take(len) {
        *b = byte_of(*chars.get(k)?)?;
    }
    let c = std::str::from_utf8(&bytes[..len]).ok()?.chars().next()?;
    Some((c, len))
}

/// Some character that UTF-8 uses as a lead byte (0xC2–0xF4 read as `Â`…`ô`) is followed
/// by one of a continuation byte (0x80–0xBF read as Windows-1252 or C1 controls), and no
/// character lies beyond a one-byte reading.
fn looks_double_encoded(s: &str) -> bool {
    let mut lead = false;
    for c in s.chars() {
        let b = if (c as u32) < 0x80 {
            lead = false;
            continue;
        } else {
            byte_of(c)
        };
        match b {
            Some(b) if lead && (0x80..0xc0).contains(&b) => return true,
            Some(b) => lead = (0xc2..=0xf4).contains(&b),
            // No byte: the text cannot be written back (Cyrillic, CJK, Polish `ą`), so
            // no repair; stop at the first such letter.
            None => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::repair;

    #[test]
    fn double_encoded_utf8_is_read_back() {
        assert_eq!(
            repair("obowiÄ\u{85}zkÃ³w, poszedÅ\u{82}em").as_deref(),
            Some("obowiązków, poszedłem")
        );
        assert_eq!(repair("siÄ\u{99} â€“ done").as_deref(), Some("się – done"));
        assert_eq!(repair("a\u{c2}\u{a0}b").as_deref(), Some("a\u{a0}b"));
        // Real text stays: Latin-1 letters, letters beyond Windows-1252, ASCII.
        assert_eq!(repair("café naïve Ã"), None);
        assert_eq!(repair("zażółć gęślą jaźń"), None);
        assert_eq!(repair("plain text"), None);
        // A lead-looking letter before a real continuation-looking one but not valid UTF-8.
        assert_eq!(repair("Ã© and é"), None);
        // A right entity among double-encoded letters stays, and the letters are read back.
        assert_eq!(
            repair("pokoleniaÅ\u{82}\u{201d}. Czy przesadziÅ\u{82}? Nie sÄ\u{85}dzÄ\u{99} \u{2013} tak").as_deref(),
            Some("pokoleniał\u{201d}. Czy przesadził? Nie sądzę \u{2013} tak")
        );
        // As many strays as sequences: no repair.
        assert_eq!(repair("Ã© \u{201d}"), None);
    }

    #[test]
    fn pages_are_read_with_their_double_encoding_repaired() {
        let page = super::super::parse(
            "<html><head><title>PrzeglÄ\u{85}d</title></head>\
             <body><p>Nie mogÄ\u{85}c pojechaÄ\u{87} <b>do Warszawy</b></p></body></html>",
        );
        assert_eq!(page.title, "Przegląd");
        assert_eq!(page.blocks[0].text, "Nie mogąc pojechać do Warszawy");
        assert_eq!(page.blocks[0].words, 5);
    }
}
