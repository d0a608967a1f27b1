//! ScrapingHub's `ground-truth.json`: `{id: {articleBody, url}}`, pages in id order.

use std::path::Path;

use serde_json::Value;

use super::{read_json_object, GoldPage, Truth};
use crate::error::Result;

pub(super) fn read(path: &Path) -> Result<Vec<GoldPage>> {
    Ok(read_json_object(path, "{id: {articleBody, url}}")?
        .into_iter()
        .map(|(id, v)| GoldPage {
            keys: vec![id.clone()],
            id,
            url: v.get("url").and_then(Value::as_str).map(str::to_string),
            page_type: None,
            language: None,
            truth: Truth::Shingles(
                v.get("articleBody")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            ),
        })
        .collect())
}
