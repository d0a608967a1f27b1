//! JSON-LD (`<script type=application/ld+json>`): the schema.org entities a page
//! declares, searched for the one that describes the page's own content (an `Article`
//! kind, else a `WebPage`, else anything with a date), and what it says of its
//! publication date, author, publisher, description and address.

use serde_json::Value;

/// What the JSON-LD blocks of a page say, from the best-ranked entity that says it.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LdFacts {
    pub date_published: Option<String>,
    pub author: Option<String>,
    pub publisher: Option<String>,
    /// `name` of a `WebSite` entity.
    pub website_name: Option<String>,
    pub description: Option<String>,
    pub url: Option<String>,
}

/// Entities visited at most per page (a product listing may declare thousands).
const MAX_ENTITIES: usize = 500;

/// How well an entity's `@type` says "this is the page's own content": 3 for article
/// kinds, 2 for other creative works that carry dates, 1 for web pages, 0 otherwise.
fn rank(types: &[&str]) -> u8 {
    let mut best = 0;
    for t in types {
        let t = t.rsplit(['/', ':']).next().unwrap_or(t);
        let r = if t.ends_with("Article")
            || matches!(
                t,
                "BlogPosting" | "Report" | "LiveBlogPosting" | "Posting" | "SocialMediaPosting"
            ) {
            3
        } else if matches!(
            t,
            "CreativeWork"
                | "VideoObject"
                | "Review"
                | "Recipe"
                | "Event"
                | "Question"
                | "PodcastEpisode"
                | "Book"
                | "Dataset"
        ) {
            2
        } else if t.ends_with("Page") {
            1
        } else {
            0
        };
        best = best.max(r);
    }
    best
}

fn types_of(obj: &serde_json::Map<String, Value>) -> Vec<&str> {
    match obj.get("@type") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// A person's or organisation's name: a string, `{name}`, or the first of a list.
fn name_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Object(o) => o.get("name").and_then(name_of),
        Value::Array(a) => {
            let names: Vec<String> = a
                .iter()
                .filter_map(name_of)
                .filter(|n| !n.is_empty())
                .collect();
            (!names.is_empty()).then(|| names.join(", "))
        }
        _ => None,
    }
    .filter(|s| !s.is_empty())
}

fn string_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Array(a) => string_of(a.first()),
        _ => None,
    }
}

/// Parse every block and take each field from the best-ranked entity that has it (the
/// first in document order among equals). Blocks that are not valid JSON are skipped
/// (CMSs emit trailing commas and raw newlines; a lenient second try strips control
/// characters).
pub fn read(blocks: &[String]) -> LdFacts {
    let mut entities: Vec<(u8, serde_json::Map<String, Value>)> = Vec::new();
    for block in blocks {
        let value: Value = match serde_json::from_str(block.trim()) {
            Ok(v) => v,
            Err(_) => {
                let cleaned: String = block
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                match serde_json::from_str(cleaned.trim()) {
                    Ok(v) => v,
                    Err(_) => continue,
                }
            }
        };
        // Iterative walk over nested objects and arrays (`@graph`, `mainEntity`, …).
        let mut stack = vec![value];
        while let Some(v) = stack.pop() {
            if entities.len() >= MAX_ENTITIES {
                break;
            }
            match v {
                Value::Array(a) => stack.extend(a.into_iter().rev()),
                Value::Object(o) => {
                    for (k, child) in o.iter() {
                        if matches!(
                            k.as_str(),
                            "@graph" | "mainEntity" | "mainEntityOfPage" | "hasPart"
                        ) && (child.is_object() || child.is_array())
                        {
                            stack.push(child.clone());
                        }
                    }
                    let r = rank(&types_of(&o));
                    entities.push((r, o));
                }
                _ => {}
            }
        }
    }
    // Stable sort: best rank first, document order among equals.
    entities.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut facts = LdFacts::default();
    for (r, o) in &entities {
        let types = types_of(o);
        if facts.website_name.is_none() && types.contains(&"WebSite") {
            facts.website_name = o.get("name").and_then(name_of);
        }
        if *r == 0 {
            // Organisations, breadcrumbs, products: their dates and descriptions are not
            // the page's.
            continue;
        }
        if facts.date_published.is_none() {
            facts.date_published = string_of(o.get("datePublished"))
                .or_else(|| string_of(o.get("dateCreated")))
                .or_else(|| string_of(o.get("uploadDate")));
        }
        if facts.author.is_none() {
            facts.author = o
                .get("author")
                .or_else(|| o.get("creator"))
                .and_then(name_of);
        }
        if facts.publisher.is_none() {
            facts.publisher = o.get("publisher").and_then(name_of);
        }
        if facts.description.is_none() {
            facts.description = string_of(o.get("description"));
        }
        if facts.url.is_none() && *r >= 2 {
            facts.url = string_of(o.get("url"));
        }
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_in_graph_beats_website_and_organisation() {
        let ld = r#"{"@context":"https://schema.org","@graph":[
            {"@type":"Organization","name":"Org","description":"We make news"},
            {"@type":"WebSite","name":"The Daily","description":"Site"},
            {"@type":"WebPage","datePublished":"2020-01-01","description":"page"},
            {"@type":["NewsArticle"],"datePublished":"2021-03-04T10:00:00+02:00",
             "author":[{"@type":"Person","name":"Ann Lee"},{"name":"Bo Chan"}],
             "publisher":{"@type":"Organization","name":"Daily Co"}}]}"#;
        let f = read(&[ld.to_string()]);
        assert_eq!(
            f.date_published.as_deref(),
            Some("2021-03-04T10:00:00+02:00")
        );
        assert_eq!(f.author.as_deref(), Some("Ann Lee, Bo Chan"));
        assert_eq!(f.publisher.as_deref(), Some("Daily Co"));
        assert_eq!(f.website_name.as_deref(), Some("The Daily"));
        // The article has none: the web page's description is next.
        assert_eq!(f.description.as_deref(), Some("page"));
    }

    #[test]
    fn broken_blocks_are_skipped_and_raw_newlines_tolerated() {
        let f = read(&[
            "{not json".to_string(),
            "{\"@type\":\"BlogPosting\",\"description\":\"line\none\",\"datePublished\":\"2019-05-06\"}"
                .to_string(),
        ]);
        assert_eq!(f.date_published.as_deref(), Some("2019-05-06"));
        assert_eq!(f.description.as_deref(), Some("line one"));
    }
}
