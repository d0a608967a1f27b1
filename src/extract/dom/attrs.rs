//! Attribute lookups and what an element record keeps of its attributes: the
//! lower-cased `id class` and `itemprop role` strings, and the kind signature
//! ([`kind_sig`]) that groups the items of a repeated structure.

/// The value of attribute `name`, if the element has it.
pub(super) fn attr_value<'a>(attrs: &'a [html5ever::Attribute], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|a| &*a.name.local == name)
        .map(|a| &*a.value)
}

/// Lower-cased `id` and `class` values joined by a space ([`Element::id_class`]).
///
/// A heading's `id` is left out: it is the anchor the page's table of contents links to,
/// mostly made of the heading's own words (`social-media-video`, `nav_nur_die_folie__1`,
/// `cc-m-header-12986727425`), so its tokens say nothing of the heading's role, and the
/// class/id vocabulary read them as boilerplate names (`social`, `nav`, `header`).
///
/// [`Element::id_class`]: super::Element::id_class
pub(super) fn id_class<'a>(tag: &str, attr: &impl Fn(&str) -> Option<&'a str>) -> String {
    let id = attr("id").filter(|_| !is_heading(tag));
    let class = attr("class");
    // Sized for ASCII values, so that the element's boxed copy needs no reallocation.
    let both = usize::from(id.is_some() && class.is_some());
    let mut id_class =
        String::with_capacity(id.map_or(0, str::len) + both + class.map_or(0, str::len));
    for v in [id, class].into_iter().flatten() {
        if !id_class.is_empty() {
            id_class.push(' ');
        }
        push_lowercase(&mut id_class, v);
    }
    id_class
}

fn is_heading(tag: &str) -> bool {
    matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// Append `v` lower-cased (`str::to_lowercase`) to `out`, without a temporary string
/// when `v` is ASCII (nearly every class and id: one allocation less per element).
fn push_lowercase(out: &mut String, v: &str) {
    if v.is_ascii() {
        let start = out.len();
        out.push_str(v);
        out[start..].make_ascii_lowercase();
    } else {
        out.push_str(&v.to_lowercase());
    }
}

/// Lower-cased `itemprop` and `role` values joined by a space ([`Element::role`]).
///
/// [`Element::role`]: super::Element::role
pub(super) fn role<'a>(attr: &impl Fn(&str) -> Option<&'a str>) -> String {
    let mut role = String::new();
    for n in ["itemprop", "role"] {
        if let Some(v) = attr(n) {
            push_lowercase(&mut role, v);
            role.push(' ');
        }
    }
    let len = role.trim_end().len();
    role.truncate(len);
    role
}

/// An element's kind, [`Element::sig`](super::Element::sig): its tag and the part of its `class` value that
/// names its kind ([`sig_class`]).
pub(crate) fn kind_sig(tag: &str, class: &str) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(tag.as_bytes());
    h.update(b"\0");
    h.update(sig_class(class).as_bytes());
    h.finalize()
}

/// The part of a `class` value that names an element's kind, for [`Element::sig`](super::Element::sig).
/// CMS templates add per-item tokens to repeated items (WordPress `post-94972
/// category-dinner`, WooCommerce `product_cat-bags instock first`, `card card--featured`),
/// which would make every card of a grid its own kind; the first token without a digit
/// names the kind (`product`, `carousel-cell`, `card`). On WCXB dev this beat both the
/// whole value and the value without digit tokens (listing, collection, product, service).
fn sig_class(class: &str) -> &str {
    class
        .split_ascii_whitespace()
        .find(|t| !t.bytes().any(|b| b.is_ascii_digit()))
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::super::parse;

    #[test]
    fn cards_with_per_item_classes_share_a_signature() {
        let page = parse(
            "<body><div><article class='post-11 post category-soup'><p>a</p></article>\
             <article class='post-12 post category-bread has-thumb'><p>b</p></article>\
             <article class='teaser'><p>c</p></article></div></body>",
        );
        let sigs: Vec<u32> = page
            .elements
            .iter()
            .filter(|e| &*e.tag == "article")
            .map(|e| e.sig)
            .collect();
        assert_eq!(sigs.len(), 3);
        assert_eq!(sigs[0], sigs[1]);
        assert_ne!(sigs[0], sigs[2]);
    }
    #[test]
    fn a_headings_id_is_no_name_of_it() {
        let page = parse(
            "<body><div id=site-nav class=menu><h3 id=nav_the_old_ferry__1 class=subheading>The old ferry</h3>\
             <h2 id=social-media-video>Social media video</h2></div></body>",
        );
        let names: Vec<&str> = page.elements.iter().map(|e| &*e.id_class).collect();
        assert!(names.contains(&"site-nav menu"), "{names:?}");
        assert!(names.contains(&"subheading"), "{names:?}");
        assert!(
            !names
                .iter()
                .any(|n| n.contains("social") || n.contains("nav_")),
            "{names:?}"
        );
    }
}
