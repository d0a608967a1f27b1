//! trafilatura's `evaldata.json`: `{url: {file, with: [...], without: [...]}}`. A page is
//! matched by its URL, then by its `file`'s name (the records' file names), as the
//! scorer does.

use std::path::Path;

use serde_json::Value;

use super::{read_json_object, strings, GoldPage, Truth};
use crate::error::{Error, Result};

pub(super) fn read(path: &Path) -> Result<Vec<GoldPage>> {
    read_json_object(path, "{url: {file, with, without}}")?
        .into_iter()
        .map(|(url, item)| {
            let file = item
                .get("file")
                .and_then(Value::as_str)
                .ok_or_else(|| Error::BadLine {
                    path: path.to_path_buf(),
                    line: 1,
                    message: format!("{url}: no \"file\""),
                })?;
            let name = file.rsplit('/').next().unwrap_or(file).to_string();
            Ok(GoldPage {
                id: url.clone(),
                keys: vec![url.clone(), name],
                url: Some(url),
                page_type: None,
                language: None,
                truth: Truth::Snippets {
                    with: strings(item.get("with")),
                    without: strings(item.get("without")),
                },
            })
        })
        .collect()
}
