//! The line that opens an article's comment section, known by its words: "Оставить
//! комментарий", "Комментарии (3)", "Post a comment", "Komentarze", "Σχόλια", "发表评论".
//! Flat layouts of the 2000s write the comment form and the readers' posts in the
//! article's own cell without a class that names them (so `marks.rs` does not see them),
//! and a few posts' words can outweigh the evidence tests of the tail cut. A line that is
//! only such a phrase (with a count, a colon or an asterisk) ends the article
//! ([`article_edges`](super::article_edges)); a longer line that mentions comments is
//! prose ("Comments, ideas, improvements?"), and French "comment" is "how". Besides the
//! corpora's languages the lists hold the widely used web languages beyond them (German
//! to Hindi, grouped by language), whose sites write the same flat layouts.

/// Leading words that ask for or count comments ("add", "your", "all", "selected"),
/// grouped by language.
const LEAD_WORDS: &[&str] = &[
    // Russian, Ukrainian
    "оставить",
    "добавить",
    "написать",
    "ваш",
    "ваши",
    "все",
    "залишити",
    "додати",
    "написати",
    "ваші",
    "всі",
    "усі",
    // Polish, Czech, Slovak
    "dodaj",
    "wybrane",
    "najnowsze",
    "twój",
    "přidat",
    "napsat",
    "vložit",
    "pridať",
    "napísať",
    "váš",
    "vaše",
    // Greek
    "προσθήκη",
    "προσθέστε",
    "γράψτε",
    // English
    "post",
    "add",
    "leave",
    "write",
    "submit",
    "reader",
    "readers'",
    "reader's",
    "latest",
    "recent",
    "your",
    // German, Dutch, Swedish, Norwegian, Danish
    "ihr",
    "ihre",
    "alle",
    "plaats",
    "geef",
    "schrijf",
    "lämna",
    "skriv",
    "lägg",
    "tilføj",
    // French, Spanish, Italian, Portuguese, Romanian
    "laisser",
    "laissez",
    "ajouter",
    "écrire",
    "poster",
    "vos",
    "tous",
    "deja",
    "dejar",
    "deje",
    "añadir",
    "agregar",
    "escribe",
    "escribir",
    "tus",
    "lascia",
    "scrivi",
    "aggiungi",
    "inserisci",
    "deixe",
    "deixar",
    "adicionar",
    "escreva",
    "lasă",
    "adaugă",
    "scrie",
    // Arabic: "add", "leave", "write"
    "أضف",
    "اضف",
    "اترك",
    "اكتب",
];
/// Words after a lead word ("post a comment", "laisser un commentaire").
const ARTICLES: &[&str] = &[
    "a", "your", "un", "une", "votre", "les", "tu", "su", "los", "il", "tuo", "i", "um", "seu",
    "sua", "een", "je", "uw", "en", "din", "ditt",
];
/// The comment section's noun or verb, by its stem (declined forms follow it): Russian,
/// Ukrainian, Polish, Greek, English; German "Kommentare", the Scandinavian "kommentarer",
/// "kommentera", French "commentaires", Spanish "comentarios", Catalan "comentaris",
/// Italian "commenti", Portuguese "comentários", Romanian "comentarii", Dutch "reacties",
/// Czech "komentáře", Slovak "komentáre", Turkish "yorumlar", Hungarian "hozzászólások",
/// Finnish "kommentit", Arabic "التعليقات", Hindi "टिप्पणियाँ", Korean "댓글". Plurals only
/// where the singular also names an opinion column ("Kommentar", "Il commento").
const STEMS: &[&str] = &[
    "комментари",
    "коментар",
    "komentarz",
    "skomentuj",
    "σχόλι",
    "comments",
    "kommentare",
    "leserkommentar",
    "kommentier",
    "kommenter",
    "kommentit",
    "kommentoi",
    "commentaires",
    "réagir",
    "comentarios",
    "comentaris",
    "commenti",
    "comentários",
    "comentarii",
    "reacties",
    "reageer",
    "reageren",
    "komentáře",
    "komentáre",
    "yorumlar",
    "hozzászólások",
    "التعليقات",
    "تعليقات",
    "टिप्पणियाँ",
    "टिप्पणियां",
    "댓글",
];
/// The singular noun, or a word that is also a verb or another language's word ("comment"
/// is French "how", "Kommentar" and "commento" head opinion columns): a heading only after
/// a lead word ("Leave a reply", "Lascia un commento", "Ihr Kommentar").
const LED_ONLY: &[&str] = &[
    "comment",
    "reply",
    "kommentar",
    "commentaire",
    "comentario",
    "commento",
    "comentário",
    "comentariu",
    "reactie",
    "komentář",
    "komentár",
    "تعليق",
    "تعليقا",
    "تعليقاً",
];
/// Whole headings whose words are not a lead and a noun ("Kommentar schreiben", "Yorum
/// yap", "Szólj hozzá"), as cleaned (lower-cased, words joined by a space).
const PHRASES: &[&str] = &[
    "kommentar schreiben",
    "kommentar verfassen",
    "kommentar hinzufügen",
    "kommentar abgeben",
    "einen kommentar schreiben",
    "schreiben sie einen kommentar",
    "jetzt kommentieren",
    "laat een reactie achter",
    "legg igjen en kommentar",
    "skriv en kommentar",
    "yorum yap",
    "yorum yaz",
    "yorum ekle",
    "yorum gönder",
    "szólj hozzá",
    "hozzászólás írása",
    "댓글 쓰기",
    "댓글 달기",
    "댓글 작성",
    "टिप्पणी करें",
    "अपनी टिप्पणी दें",
];
/// What names a comment section in Chinese and Japanese (no spaces between words).
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
    "コメント",
    "コメントする",
    "コメントを書く",
    "コメントを投稿する",
    "コメント一覧",
    "みんなのコメント",
    "読者コメント",
];

/// Whether a line is only the heading of a comment section or form.
pub(super) fn is_comment_heading(text: &str) -> bool {
    // "Reader's Comments | Post a comment": a bar between two names of the section (a
    // part without letters, a count, goes with its name as before).
    if text.contains('|') {
        let named: Vec<&str> = text
            .split('|')
            .filter(|part| part.chars().any(char::is_alphabetic))
            .collect();
        if named.len() > 1 {
            return named.iter().all(|part| is_heading_part(part));
        }
    }
    is_heading_part(text)
}

/// Whether one line, or one part of a barred line, is only a comment section's name.
fn is_heading_part(text: &str) -> bool {
    // A heading is at most five words (two leads and three of the name), and cleaning only
    // splits words: a longer line is no heading, told without the copy (this test runs on
    // every block after the article's start: 4.6 % of extraction's instructions before).
    if text.split_whitespace().nth(5).is_some() {
        return false;
    }
    // Digits and the punctuation around a name (ASCII and full-width) are spaces.
    let cleaned: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_digit() || "()[]:*»>«<|-–—.!（）：！【】".contains(c) {
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
    // Compared word by word: no copy of the line for each short block.
    if words.len() > 1
        && PHRASES
            .iter()
            .any(|p| p.split(' ').eq(words.iter().copied()))
    {
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
            if LED_ONLY.contains(noun) {
                rest.len() == 1 && words.len() > 1
            } else {
                STEMS.iter().any(|s| noun.starts_with(s))
                    && (rest.len() == 1 || noun_object(&rest[1..]))
            }
        }
        _ => false,
    }
}

/// "к статье", "do artykułu", "on this article", "zu diesem Artikel", "sur l'article":
/// what the comments are on.
fn noun_object(words: &[&str]) -> bool {
    matches!(
        words.first(),
        Some(
            &("к"
                | "do"
                | "on"
                | "to"
                | "στο"
                | "στην"
                | "до"
                | "zu"
                | "zum"
                | "zur"
                | "sur"
                | "op"
                | "bij"
                | "k"
                | "ke"
                | "på"
                | "til"
                | "till"
                | "la"
                | "al")
        )
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
            "网友评论：",
            "Reader's Comments | Post a comment",
            "Latest Comments",
            "Comments | 3",
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
            "Comments | Sport | Weather",
            "Latest news",
        ] {
            assert!(!is_comment_heading(line), "{line}");
        }
    }

    #[test]
    fn comment_headings_of_other_languages_are_known() {
        for line in [
            // German, Dutch, Scandinavian
            "Kommentare (12)",
            "Kommentar schreiben",
            "Ihr Kommentar",
            "Kommentare zum Artikel",
            "Reacties",
            "Plaats een reactie",
            "Kommentarer",
            "Legg igjen en kommentar",
            // Romance
            "Laisser un commentaire",
            "3 commentaires",
            "Deja un comentario",
            "Comentarios",
            "Lascia un commento",
            "Commenti",
            "Deixe um comentário",
            "Comentários (4)",
            "Lasă un comentariu",
            // Slavic
            "Коментарі",
            "Залишити коментар",
            "Komentáře",
            "Přidat komentář",
            "Komentáre",
            // Turkish, Hungarian, Finnish
            "Yorumlar",
            "Yorum yap",
            "Hozzászólások",
            "Kommentit",
            // Japanese, Korean, Arabic, Hindi
            "コメント",
            "コメント（3）",
            "【コメント】",
            "コメントを書く",
            "댓글",
            "댓글 쓰기",
            "التعليقات",
            "أضف تعليق",
            "टिप्पणियाँ",
            "टिप्पणी करें",
        ] {
            assert!(is_comment_heading(line), "{line}");
        }
    }

    #[test]
    fn prose_and_column_names_of_other_languages_are_no_heading() {
        for line in [
            // An opinion column's name, a verb in prose, a sentence about comments.
            "Kommentar",
            "Il commento",
            "Commentary",
            "Kommentare von Lesern zeigen wie sehr",
            "Comentarios del presidente",
            "Les commentaires du ministre sur la réforme",
            "Коментарі експертів розійшлися",
            "Yorum yapmak istemedi",
            "コメントは控えた",
            "댓글 정책에 대하여",
        ] {
            assert!(!is_comment_heading(line), "{line}");
        }
    }
}
