//! Reading dates: machine-readable values (ISO 8601 / RFC 3339, RFC 2822, `20110509`),
//! dates written in text (`9 listopada 2011`, `Νοεμβρίου 9, 2011`, `2011年11月9日`,
//! `09.11.2011`, `11/09/2011`), and dates in URL paths (`/2011/11/09/`, `-20111109-`).
//! chrono parses the machine formats; the text forms are a small tokenizer and a few
//! patterns over it, with month names from `months.rs`.

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime};

use super::months::month_of;

/// Earliest year taken as a publication date (the first news sites went online in 1994;
/// an earlier year in a page is a historical date, not when the page was written).
pub const MIN_YEAR: i32 = 1994;

/// A publication date: the day as the source wrote it, and the time with its offset when
/// the source gave them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dated {
    pub date: NaiveDate,
    pub time: Option<(NaiveTime, Option<FixedOffset>)>,
}

impl Dated {
    pub fn day(date: NaiveDate) -> Self {
        Dated { date, time: None }
    }

    /// ISO 8601: `2011-11-09`, `2011-11-09T14:35:00+02:00`, or without offset when the
    /// source gave none.
    pub fn to_iso(self) -> String {
        match self.time {
            None => self.date.format("%Y-%m-%d").to_string(),
            Some((t, Some(off))) => {
                let dt = self.date.and_time(t).and_local_timezone(off).single();
                match dt {
                    Some(dt) => dt.format("%Y-%m-%dT%H:%M:%S%:z").to_string(),
                    None => self.date.format("%Y-%m-%d").to_string(),
                }
            }
            Some((t, None)) => self
                .date
                .and_time(t)
                .format("%Y-%m-%dT%H:%M:%S")
                .to_string(),
        }
    }
}

/// A machine-readable date (`datetime` attributes, meta contents, JSON-LD): ISO 8601 in
/// its common shapes, RFC 2822, eight digits; else the first date written in it as text.
pub fn parse_machine(s: &str, day_first: bool) -> Option<Dated> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if let Ok(dt) = DateTime::parse_from_rfc3339(s) {
        return Some(with_offset(dt));
    }
    for fmt in [
        "%Y-%m-%dT%H:%M:%S%.f%z",
        "%Y-%m-%dT%H:%M%z",
        "%Y-%m-%d %H:%M:%S%.f%z",
        "%Y-%m-%d %H:%M:%S %z",
    ] {
        if let Ok(dt) = DateTime::parse_from_str(s, fmt) {
            return Some(with_offset(dt));
        }
    }
    if let Ok(dt) = DateTime::parse_from_rfc2822(s) {
        return Some(with_offset(dt));
    }
    for fmt in [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%d %H:%M",
    ] {
        if let Ok(dt) = NaiveDateTime::parse_from_str(s, fmt) {
            return Some(Dated {
                date: dt.date(),
                time: Some((dt.time(), None)),
            });
        }
    }
    // A trailing `Z` or offset after a time chrono did not take (`2011-11-09T14:35Z`).
    if let Some(date) = s
        .get(..10)
        .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
    {
        return Some(Dated::day(date));
    }
    if s.len() == 8 && s.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(date) = NaiveDate::parse_from_str(s, "%Y%m%d") {
            return Some(Dated::day(date));
        }
    }
    find_in_text(s, day_first).map(Dated::day)
}

fn with_offset(dt: DateTime<FixedOffset>) -> Dated {
    Dated {
        date: dt.date_naive(),
        time: Some((dt.time(), Some(*dt.offset()))),
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// Digits: value and how many.
    Num(u32, usize),
    /// A month name.
    Month(u32),
    /// `st`, `nd`, `rd`, `th` (after a day: `9th`).
    Ordinal,
    /// Spanish, Portuguese, Catalan `de`, `del` between a day, its month and its year
    /// (`5 de marzo de 2012`).
    Of,
    /// Another word.
    Word,
    /// `am`, `pm`, `Uhr`, `h` (after a time of day: `6:46 PM`, `10:27 Uhr`).
    TimeMark,
    /// 年, 月, 日 / 号 (CJK date markers; Korean 년, 월, 일 are read as them).
    Cjk(char),
    /// A separator character that may sit inside a date.
    Sep(char),
}

/// Text → tokens; whitespace is dropped, runs of digits and letters become one token.
/// Full-width digits count as digits.
fn tokenize(text: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if let Some(d) = digit(c) {
            let (mut v, mut n) = (d as u64, 1usize);
            chars.next();
            while let Some(d) = chars.peek().and_then(|&c| digit(c)) {
                v = (v * 10 + d as u64).min(u32::MAX as u64);
                n += 1;
                chars.next();
            }
            toks.push(Tok::Num(v as u32, n));
        } else if matches!(c, '年' | '月' | '日' | '号') {
            toks.push(Tok::Cjk(c));
            chars.next();
        } else if c.is_alphabetic() && !is_cjk(c) {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_alphabetic() && !is_cjk(c) {
                    w.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            // "Nov." keeps its period as a separator token; month_of ignores it.
            let tok = match month_of(&w) {
                Some(m) => Tok::Month(m),
                None => match w.as_str() {
                    "st" | "nd" | "rd" | "th" => Tok::Ordinal,
                    "de" | "del" => Tok::Of,
                    "am" | "pm" | "AM" | "PM" | "Uhr" | "uhr" | "h" => Tok::TimeMark,
                    "년" => Tok::Cjk('年'),
                    "월" => Tok::Cjk('月'),
                    "일" => Tok::Cjk('日'),
                    _ => Tok::Word,
                },
            };
            toks.push(tok);
        } else if c.is_whitespace() {
            chars.next();
        } else {
            toks.push(Tok::Sep(c));
            chars.next();
        }
    }
    toks
}

fn digit(c: char) -> Option<u32> {
    match c {
        '0'..='9' => Some(c as u32 - '0' as u32),
        '０'..='９' => Some(c as u32 - '０' as u32),
        _ => None,
    }
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

fn ymd(y: u32, m: u32, d: u32) -> Option<NaiveDate> {
    let date = NaiveDate::from_ymd_opt(y as i32, m, d)?;
    (date.year() >= MIN_YEAR && date.year() <= 2100).then_some(date)
}

/// A four-digit year (two-digit years are not taken: too often a count or a time).
fn year(t: Option<&Tok>) -> Option<u32> {
    match t {
        Some(&Tok::Num(v, 4)) => Some(v),
        _ => None,
    }
}

fn day(t: Option<&Tok>) -> Option<u32> {
    match t {
        Some(&Tok::Num(v, 1 | 2)) if (1..=31).contains(&v) => Some(v),
        _ => None,
    }
}

fn sep(t: Option<&Tok>, allowed: &[char]) -> bool {
    matches!(t, Some(Tok::Sep(c)) if allowed.contains(c))
}

/// The date a pattern starting at token `i` gives.
fn date_at(toks: &[Tok], i: usize, day_first: bool) -> Option<NaiveDate> {
    let t = |k: usize| toks.get(i + k);
    // An English ordinal suffix ("9th") right after the day.
    let skip_ordinal = |k: usize| usize::from(matches!(t(k), Some(Tok::Ordinal)));
    match t(0)? {
        // 2011年11月9日
        Tok::Num(y, 4) if t(1) == Some(&Tok::Cjk('年')) => {
            let m = day(t(2)).filter(|m| *m <= 12)?;
            if t(3) != Some(&Tok::Cjk('月')) {
                return None;
            }
            let d = day(t(4))?;
            matches!(t(5), Some(Tok::Cjk('日' | '号'))).then_some(())?;
            ymd(*y, m, d)
        }
        // Hungarian 2011. november 9.
        Tok::Num(y, 4) if sep(t(1), &['.']) && matches!(t(2), Some(Tok::Month(_))) => {
            let Some(&Tok::Month(m)) = t(2) else {
                return None;
            };
            ymd(*y, m, day(t(3))?)
        }
        // 2011-11-09, 2011/11/09, 2011.11.09
        Tok::Num(y, 4) => {
            let s = match t(1)? {
                Tok::Sep(c @ ('-' | '/' | '.')) => *c,
                _ => return None,
            };
            let m = day(t(2)).filter(|m| *m <= 12)?;
            sep(t(3), &[s]).then_some(())?;
            let d = day(t(4))?;
            ymd(*y, m, d)
        }
        // 09.11.2011, 11/09/2011, 9-11-2011; 9 November 2011, 9. listopada 2011, 9th Nov 2011,
        // 9 de noviembre de 2011
        Tok::Num(a, 1 | 2) => {
            let a = *a;
            if let (Some(&Tok::Sep(s)), Some(&Tok::Num(b, 1 | 2))) = (t(1), t(2)) {
                if matches!(s, '.' | '/' | '-') && sep(t(3), &[s]) {
                    let y = year(t(4))?;
                    // Dots are always day.month; slashes and dashes follow the page's
                    // language unless one of the numbers is above 12.
                    let (d, m) = if s == '.' || a > 12 {
                        (a, b)
                    } else if b > 12 || !day_first {
                        (b, a)
                    } else {
                        (a, b)
                    };
                    return ymd(y, m, d);
                }
            }
            let mut k = 1 + skip_ordinal(1);
            if sep(t(k), &['.']) || t(k) == Some(&Tok::Of) {
                k += 1;
            }
            let Some(&Tok::Month(m)) = t(k) else {
                return None;
            };
            k += 1;
            if sep(t(k), &['.', ',']) || t(k) == Some(&Tok::Of) {
                k += 1;
            }
            let y = year(t(k))?;
            ymd(y, m, day(t(0))?)
        }
        // November 9, 2011 / Nov. 9th 2011
        Tok::Month(m) => {
            let mut k = 1;
            if sep(t(k), &['.']) {
                k += 1;
            }
            let d = day(t(k))?;
            k += 1;
            k += skip_ordinal(k);
            if sep(t(k), &[',']) {
                k += 1;
            }
            let y = year(t(k))?;
            ymd(y, *m, d)
        }
        _ => None,
    }
}

/// The first date written in `text`. `day_first`: how to read `05/06/2011` (false for
/// English pages, month first).
pub fn find_in_text(text: &str, day_first: bool) -> Option<NaiveDate> {
    all_in_text(text, day_first).next()
}

/// The words of `text` other than its numbers and the words dates and times are
/// written with (month names, `de`, ordinal suffixes, `am`/`pm`/`Uhr`), when `text`
/// holds a date: "Aktualisiert: 11.04.2020, 10:27" has one, "22 de abril de 2022 6:46 PM"
/// none. `None` when it holds no date.
pub fn words_beside_date(text: &str, day_first: bool) -> Option<usize> {
    let toks = tokenize(text);
    (0..toks.len()).find_map(|i| date_at(&toks, i, day_first))?;
    Some(toks.iter().filter(|t| **t == Tok::Word).count())
}

/// Every date written in `text`, in order.
pub fn all_in_text(text: &str, day_first: bool) -> impl Iterator<Item = NaiveDate> {
    let toks = tokenize(text);
    (0..toks.len()).filter_map(move |i| date_at(&toks, i, day_first))
}

/// A date in a URL's path: `/2011/11/09/`, `/2011-11-09-slug`, `/20111109/`, `_20111109.`.
/// A year and month alone (`/2011/11/slug`) is not a day, and is not taken.
pub fn from_url(url: &str) -> Option<NaiveDate> {
    let path = match url::Url::parse(url) {
        Ok(u) => u.path().to_string(),
        Err(_) => url.to_string(),
    };
    let parts: Vec<&str> = path
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .collect();
    // Consecutive digit runs y, m, d with the separators the path used between them.
    let bytes = path.as_bytes();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    debug_assert_eq!(runs.len(), parts.len());
    for w in 0..runs.len() {
        let (s, e) = runs[w];
        let run = &path[s..e];
        let bounded = |at: usize| at >= bytes.len() || !bytes[at].is_ascii_alphanumeric();
        let before_ok = s == 0 || !bytes[s - 1].is_ascii_alphanumeric();
        if run.len() == 8 && before_ok && bounded(e) {
            let v: u32 = run.parse().ok()?;
            if let Some(d) = ymd(v / 10000, v / 100 % 100, v % 100) {
                return Some(d);
            }
        }
        if run.len() == 4 && w + 2 < runs.len() && before_ok {
            let (ms, me) = runs[w + 1];
            let (ds, de) = runs[w + 2];
            let gap_ok = |a: usize, b: usize| b == a + 1 && matches!(bytes[a], b'/' | b'-' | b'_');
            if gap_ok(e, ms) && gap_ok(me, ds) && me - ms <= 2 && de - ds <= 2 && bounded(de) {
                let y: u32 = run.parse().ok()?;
                let m: u32 = path[ms..me].parse().ok()?;
                let d: u32 = path[ds..de].parse().ok()?;
                if let Some(date) = ymd(y, m, d) {
                    return Some(date);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn text_dates_in_five_languages() {
        let cases = [
            ("Ημερομηνία δημοσίευσης: 9 Νοεμβρίου 2011", "2011-11-09"),
            ("Τρίτη, 15 ΜΑΪΟΥ 2012 10:31", "2012-05-15"),
            ("Опубликовано 3 марта 2011 г., 12:40", "2011-03-03"),
            ("Dodano: 21 października 2011, 14:35", "2011-10-21"),
            ("wtorek, 8. listopada 2011", "2011-11-08"),
            ("发布时间：2011年11月09日 10:32", "2011-11-09"),
            ("２０１１年１１月９日", "2011-11-09"),
            ("Posted on November 9th, 2011 by admin", "2011-11-09"),
            ("Nov. 9, 2011", "2011-11-09"),
            ("Updated 14:00, 09.11.2011", "2011-11-09"),
            ("2011-11-09 08:00", "2011-11-09"),
            ("2011/11/09", "2011-11-09"),
            // German, French, Spanish, Portuguese, Italian, Dutch, Czech, Ukrainian,
            // Turkish, Swedish, Romanian, Hungarian, Korean
            ("Veröffentlicht am 9. November 2011", "2011-11-09"),
            ("Publié le 3 mars 2012 à 10h", "2012-03-03"),
            ("Publicado el 5 de marzo de 2012", "2012-03-05"),
            ("Atualizado em 5 de março de 2012", "2012-03-05"),
            ("12 maggio 2012", "2012-05-12"),
            ("3 maart 2012", "2012-03-03"),
            ("5. března 2012", "2012-03-05"),
            ("5 березня 2012 р.", "2012-03-05"),
            ("5 MAYIS 2012", "2012-05-05"),
            ("5 Nisan 2012", "2012-04-05"),
            ("5 augusti 2012", "2012-08-05"),
            ("5 septembrie 2012", "2012-09-05"),
            ("2012. március 5.", "2012-03-05"),
            ("2012년 3월 5일", "2012-03-05"),
        ];
        for (text, want) in cases {
            assert_eq!(find_in_text(text, true), Some(d(want)), "{text}");
        }
        // Slashes: month first in English, day first elsewhere, unless one is > 12.
        assert_eq!(find_in_text("11/09/2011", false), Some(d("2011-11-09")));
        assert_eq!(find_in_text("11/09/2011", true), Some(d("2011-09-11")));
        assert_eq!(find_in_text("25/09/2011", false), Some(d("2011-09-25")));
        // No day, impossible days, historical years: nothing.
        for text in [
            "November 2011",
            "31.02.2011",
            "9 May 1945",
            "page 12 of 2011",
            "v1.2.3",
            "5 de los 2012 votos",
            "In 2012, May 5 people",
        ] {
            assert_eq!(find_in_text(text, true), None, "{text}");
        }
    }

    #[test]
    fn machine_formats() {
        let p = |s: &str| parse_machine(s, true).map(Dated::to_iso);
        assert_eq!(
            p("2011-11-09T14:35:00+02:00").as_deref(),
            Some("2011-11-09T14:35:00+02:00")
        );
        assert_eq!(
            p("2011-11-09T14:35:00Z").as_deref(),
            Some("2011-11-09T14:35:00+00:00")
        );
        assert_eq!(
            p("2011-11-09T14:35:00.123+0200").as_deref(),
            Some("2011-11-09T14:35:00+02:00")
        );
        assert_eq!(
            p("2011-11-09T14:35").as_deref(),
            Some("2011-11-09T14:35:00")
        );
        assert_eq!(p("2011-11-09").as_deref(), Some("2011-11-09"));
        assert_eq!(
            p("Wed, 09 Nov 2011 14:35:00 GMT").as_deref(),
            Some("2011-11-09T14:35:00+00:00")
        );
        assert_eq!(p("20111109").as_deref(), Some("2011-11-09"));
        assert_eq!(p("9 listopada 2011").as_deref(), Some("2011-11-09"));
        assert_eq!(p("soon"), None);
    }

    #[test]
    fn url_dates() {
        assert_eq!(
            from_url("https://x.com/2011/11/09/story"),
            Some(d("2011-11-09"))
        );
        assert_eq!(
            from_url("https://x.com/news/2011-11-09-story.html"),
            Some(d("2011-11-09"))
        );
        assert_eq!(
            from_url("https://x.com/a/20111109/b"),
            Some(d("2011-11-09"))
        );
        assert_eq!(from_url("https://x.com/2011/11/story"), None);
        assert_eq!(from_url("https://x.com/item/1234567890"), None);
        assert_eq!(from_url("https://x.com/p/id20111109x"), None);
    }
}
