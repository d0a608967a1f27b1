//! A folder of plain `<id>.txt` files, one page's expected main text each, scored with the
//! word measure. The id is the file name before its first dot.

use std::path::Path;

use super::{files_ending, page_id, read_text, GoldPage, Truth};
use crate::error::Result;

pub(super) fn read(dir: &Path) -> Result<Vec<GoldPage>> {
    let mut pages = Vec::new();
    for file in files_ending(dir, ".txt")? {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let id = page_id(&name).to_string();
        pages.push(GoldPage {
            id: id.clone(),
            keys: vec![id, name.to_string()],
            url: None,
            page_type: None,
            language: None,
            truth: Truth::Words {
                text: read_text(&file)?,
                chinese: false,
                snippets: None,
            },
        });
    }
    Ok(pages)
}
