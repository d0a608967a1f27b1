//! ScrapingHub's `ground-truth.json`: `{id: {articleBody, url}}`, pages in id order.

use std::path::Path;

use serde_json::Value;

use super::{read_json, GoldPage, Truth};
use crate::error::{Error, Result};

pub(super) fn read(path: &Path) -> Result<Vec<GoldPage>> {
    let Value::Object(map) = read_json(path)? else {
        return Err(Error::BadLine {
            path: path.to_path_buf(),
            line: 1,
            message: "expected an object {id: {articleBody, url}}".into(),
        });
    };
    let mut ids: Vec<&String> = map.keys().collect();
    ids.sort();
    Ok(ids
        .into_iter()
        .map(|id| {
            let v = &map[id];
            GoldPage {
                id: id.clone(),
                keys: vec![id.clone()],
                url: v.get("url").and_then(Value::as_str).map(str::to_string),
                page_type: None,
                language: None,
                truth: Truth::Shingles(
                    v.get("articleBody")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                ),
            }
        })
        .collect())
}
