//! Head matter and declarations: the `<title>`, the `og:*` / `twitter:title` /
//! `application-name` metas, and whether the page declares a product (`og:type`, a
//! JSON-LD `Product`), read during the walk into [`PageDom`]'s fields.

use markup5ever_rcdom::Handle;

use super::build::Builder;
use super::node_text::{collapse, text_of};
use super::PageDom;

impl PageDom {
    /// Whether the page says it shows one product: `og:type` `product` (or
    /// `product.item`, not `product.group`, a category page), or a JSON-LD `Product` on a
    /// page that does not call itself an article (editorial reviews describe the reviewed
    /// product in JSON-LD too). Stores' product pages carry customer reviews and
    /// questions next to the description; see the heuristic's review items.
    pub fn declares_product(&self) -> bool {
        match self.og_type.as_deref() {
            Some(t) if t.starts_with("product") || t.starts_with("og:product") => {
                !t.contains("group")
            }
            Some("article") => false,
            _ => self.ld_product,
        }
    }
}

impl Builder {
    /// The first `<title>`'s text, whitespace collapsed.
    pub(super) fn read_title(&mut self, node: &Handle) {
        if self.page.title.is_empty() {
            let title = text_of(node);
            self.page.title = collapse(&super::text::read_text(&title));
        }
    }

    /// Title, site name, type and address from a `<meta>` (the first of each wins).
    pub(super) fn read_meta<'a>(&mut self, attr: &impl Fn(&str) -> Option<&'a str>) {
        let prop = attr("property").or_else(|| attr("name")).unwrap_or("");
        if matches!(prop, "og:title" | "twitter:title") && self.page.meta_title.is_none() {
            self.page.meta_title = attr("content").map(collapse);
        }
        if matches!(prop, "og:site_name" | "application-name") && self.page.site_name.is_none() {
            self.page.site_name = attr("content").map(collapse);
        }
        if prop == "og:type" && self.page.og_type.is_none() {
            self.page.og_type = attr("content").map(|c| collapse(c).to_lowercase());
        }
        if prop == "og:url" && self.page.meta_url.is_none() {
            self.page.meta_url = attr("content").map(collapse);
        }
    }

    /// Whether a JSON-LD `<script>` declares a product (until one does).
    pub(super) fn read_ld_json<'a>(
        &mut self,
        node: &Handle,
        attr: &impl Fn(&str) -> Option<&'a str>,
    ) {
        if !self.page.ld_product && attr("type").is_some_and(|t| t.contains("ld+json")) {
            self.page.ld_product = ld_declares_product(&text_of(node));
        }
    }
}

/// Whether a JSON-LD text gives some entity the type `Product` (`"@type": "Product"` or
/// `"@type": ["Product", …]`), by a plain scan: no JSON parse.
fn ld_declares_product(json: &str) -> bool {
    let mut rest = json;
    while let Some(at) = rest.find("\"@type\"") {
        rest = &rest[at + "\"@type\"".len()..];
        let v = rest.trim_start();
        let Some(v) = v.strip_prefix(':') else {
            continue;
        };
        let v = v.trim_start();
        let v = v.strip_prefix('[').map_or(v, str::trim_start);
        if v.starts_with("\"Product\"") {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::parse;

    #[test]
    fn product_declarations() {
        let og = |t: &str| parse(&format!("<meta property=og:type content='{t}'><p>x</p>"));
        assert!(og("product").declares_product());
        assert!(og("product.item").declares_product());
        assert!(!og("product.group").declares_product());
        assert!(!og("website").declares_product());
        let ld = |og: &str, json: &str| {
            parse(&format!(
                "<meta property=og:type content={og}><script type='application/ld+json'>{json}</script><p>x</p>"
            ))
        };
        assert!(ld("website", r#"{"@type" : "Product", "name": "x"}"#).declares_product());
        assert!(ld("website", r#"{"@type":["Product","Thing"]}"#).declares_product());
        assert!(!ld("website", r#"{"@type":"ProductGroup"}"#).declares_product());
        // An editorial review describes the reviewed product too.
        assert!(!ld(
            "article",
            r#"{"@type":"Review","itemReviewed":{"@type":"Product"}}"#
        )
        .declares_product());
    }
}
