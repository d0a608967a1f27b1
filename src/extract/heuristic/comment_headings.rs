//! The line that opens an article's comment section, known by its words: "Оставить
//! комментарий", "Комментарии (3)", "Post a comment", "Komentarze", "Σχόλια", "发表评论".
//! Flat layouts of the 2000s write the comment form and the readers' posts in the
//! article's own cell without a class that names them (so `marks.rs` does not see them),
//! and a few posts' words can outweigh the evidence tests of the tail cut. A line that is
//! only such a phrase (with a count, a colon or an asterisk) ends the article
//! ([`article_edges`](super::article_edges)); a longer line that mentions comments is
//! prose ("Comments, ideas, improvements?"), and French "comment" is "how".

/// Leading words that ask for or count comments ("add", "your", "all", "selected").
const LEAD_WORDS: &[&str] = &[
    "оставить",
    "добавить",
    "написать",
    "ваш",
    "ваши",
    "все",
    "dodaj",
    "wybrane",
    "najnowsze",
    "twój",
    "προσθήκη",
    "προσθέστε",
    "γράψτε",
    "post",
    "add",
    "leave",
    "write",
    "submit",
    "reader",
    "readers'",
    "your",
];
/// Words after a lead word in English ("post a comment").
const ARTICLES: &[&str] = &["a", "your"];
/// The comment word itself, by its stem (declined forms follow it).
const STEMS: &[&str] = &[
    "комментари",
    "коментар",
    "komentarz",
    "skomentuj",
    "σχόλι",
    "comments",
    "comment",
    "reply",
];
/// What names a comment section in Chinese (no spaces between words).
const CJK_HEADINGS: &[&str] = &[
    "评论",
    "評論",
    "发表评论",
    "發表評論",
    "我要评论",
    "网友评论",
    "網友評論",
    "留言",
    "网友留言",
    "網友留言",
    "发表文章",
    "發表文章",
    "新闻讨论",
    "新聞討論",
];

/// Whether a line is only the heading of a comment section or form.
pub(super) fn is_comment_heading(text: &str) -> bool {
    // A heading is at most five words (two leads and three of the name), and cleaning only
    // splits words: a longer line is no heading, told without the copy (this test runs on
    // every block after the article's start: 4.6 % of extraction's instructions before).
    if text.split_whitespace().nth(5).is_some() {
        return false;
    }
    let cleaned: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_digit() || "()[]:*»>«<|-–—.!".contains(c) {
                ' '
            } else {
                c
            }
        })
        .collect::<String>()
        .to_lowercase();
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    if words.len() == 1 && CJK_HEADINGS.contains(&words[0]) {
        return true;
    }
    let rest = match words.as_slice() {
        [lead, article, rest @ ..] if LEAD_WORDS.contains(lead) && ARTICLES.contains(article) => {
            rest
        }
        [lead, rest @ ..] if LEAD_WORDS.contains(lead) => rest,
        rest => rest,
    };
    match rest {
        // "Комментарии к статье", "Komentarze do artykułu": the section's name with its
        // object.
        [noun, ..] if rest.len() <= 3 => {
            let stem = STEMS.iter().find(|s| noun.starts_with(*s));
            // A bare "comment" or "reply" is a verb or French; plural or led it is a
            // heading.
            match stem {
                Some(&"comment") | Some(&"reply") => {
                    rest.len() == 1 && words.len() > 1 && noun.len() <= "comment".len() + 1
                }
                Some(_) => rest.len() == 1 || noun_object(&rest[1..]),
                None => false,
            }
        }
        _ => false,
    }
}

/// "к статье", "do artykułu", "on this article": what the comments are on.
fn noun_object(words: &[&str]) -> bool {
    matches!(
        words.first(),
        Some(&("к" | "do" | "on" | "to" | "στο" | "στην"))
    )
}

#[cfg(test)]
mod tests {
    use super::is_comment_heading;

    #[test]
    fn comment_section_headings_are_known() {
        for line in [
            "Оставить комментарий *",
            "Комментарии (3)",
            "Комментарии к новости:",
            "Добавить комментарий",
            "Post a comment",
            "Leave a reply",
            "12 Comments",
            "Komentarze",
            "Dodaj komentarz",
            "Skomentuj (0)",
            "Σχόλια",
            "发表评论",
        ] {
            assert!(is_comment_heading(line), "{line}");
        }
    }

    #[test]
    fn prose_about_comments_is_no_heading() {
        for line in [
            "Comments, ideas, improvements and other thoughts are welcome here",
            "Comment choisir son barbecue ?",
            "Comment",
            ">>> comments = r.json()",
            "Комментарии экспертов разошлись в оценке реформы",
            "The minister declined to comment",
        ] {
            assert!(!is_comment_heading(line), "{line}");
        }
    }
}
