//! WCXB ground truth (also daniel-dev's): a folder of `NNNN.json`, each with
//! `ground_truth.main_content`, `ground_truth.with`/`without` snippets,
//! `_internal.page_type.primary` and, in daniel-dev, `lang` (the page type there is the
//! language; Chinese is counted per letter). A page's id is the file name without
//! `.json`, as the scorer's `f.stem`.

use std::path::Path;

use serde_json::Value;

use super::{files_ending, read_json, strings, GoldPage, Truth};
use crate::error::{Error, Result};

pub(super) fn read(dir: &Path) -> Result<Vec<GoldPage>> {
    let mut pages = Vec::new();
    for file in files_ending(dir, ".json")? {
        let rec = read_json(&file)?;
        let bad = |message: &str| Error::BadLine {
            path: file.clone(),
            line: 1,
            message: message.to_string(),
        };
        let gt = match rec.get("ground_truth") {
            Some(Value::Object(_)) => &rec["ground_truth"],
            Some(Value::String(s)) => {
                // Some WCXB exports hold the object as a string; JSON ones are read.
                &serde_json::from_str::<Value>(s)
                    .map_err(|_| bad("ground_truth is a string that is not a JSON object"))?
                    .clone()
            }
            _ => return Err(bad("no ground_truth object")),
        };
        let text = gt
            .get("main_content")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let page_type = rec
            .get("_internal")
            .and_then(|i| i.get("page_type"))
            .and_then(|t| t.get("primary"))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .unwrap_or("unknown")
            .to_string();
        let language = rec.get("lang").and_then(Value::as_str).map(str::to_string);
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let stem = name.strip_suffix(".json").unwrap_or(&name).to_string();
        pages.push(GoldPage {
            id: stem.clone(),
            keys: vec![stem],
            url: rec.get("url").and_then(Value::as_str).map(str::to_string),
            page_type: Some(page_type),
            truth: Truth::Words {
                text,
                chinese: language.as_deref() == Some("Chinese"),
                snippets: Some((strings(gt.get("with")), strings(gt.get("without")))),
            },
            language,
        });
    }
    Ok(pages)
}
