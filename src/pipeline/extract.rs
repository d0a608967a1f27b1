//! Extracting one page: decode its bytes (charset), refuse empty and binary pages, parse,
//! compute its group (URL prefix) and run the extraction cascade; and the stream of all
//! pages through it.

use crate::charset;
use crate::config::Config;
use crate::error::Result;
use crate::extract::{dom, metadata, title, Cascade, PageContext};
use crate::group::group_key;
use crate::page::{ErrorKind, ExtractRecord, Page, PageError};
use crate::render;
use crate::render_browser::{self, Answer, Fallback};
use crate::source::warc_index::{self, WarcIndex};
use std::sync::Arc;

use super::output::round4;

/// Characters of the decoded text [`looks_binary`] inspects (the page's beginning).
/// 4 KiB: the head of an HTML page, enough to tell markup from binary. Hand-set, not
/// swept.
const BINARY_SNIFF_CHARS: usize = 4096;

/// A page is binary when more than one in this many inspected characters are control or
/// replacement characters. Hand-set, not swept (`tests/bad_input.rs`: `fixtures/bad/garbage.html` is refused as binary).
const BINARY_BAD_ONE_IN: usize = 10;

/// Decode a page's bytes and parse them (the tag budget of the default `max_page_bytes`);
/// empty and binary pages are errors.
pub fn decode_and_parse(page: &Page) -> Result<(dom::ParsedPage, charset::Decoded), PageError> {
    decode_and_parse_within(page, dom::DEFAULT_MAX_PAGE_BYTES)
}

/// [`decode_and_parse`] with the tag budget of `max_page_bytes` ([`dom::max_tags`]).
pub fn decode_and_parse_within(
    page: &Page,
    max_page_bytes: usize,
) -> Result<(dom::ParsedPage, charset::Decoded), PageError> {
    decode_and_parse_marked(page, max_page_bytes, dom::MarkupOptions::default())
}

/// [`decode_and_parse_within`], recording the inline markup the structured outputs need
/// (`markup`; the blocks are the same either way).
pub fn decode_and_parse_marked(
    page: &Page,
    max_page_bytes: usize,
    markup: dom::MarkupOptions,
) -> Result<(dom::ParsedPage, charset::Decoded), PageError> {
    let decoded = decode_checked(page)?;
    let parsed = dom::parse_page_marked(&decoded.text, dom::max_tags(max_page_bytes), markup);
    Ok((parsed, decoded))
}

/// A page's bytes decoded (charset); empty and binary pages are errors.
fn decode_checked(page: &Page) -> Result<charset::Decoded, PageError> {
    let fail = |kind, message: String| PageError {
        path: page.path.clone(),
        url: page.url.clone(),
        kind,
        message,
    };
    if page.body.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(fail(ErrorKind::Empty, "empty page".into()));
    }
    let host = url::Url::parse(&page.url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string));
    let tld = host
        .as_deref()
        .and_then(|h| h.rsplit('.').next())
        .map(str::as_bytes);
    let decoded = charset::decode_html(&page.body, page.content_type.as_deref(), tld);
    if looks_binary(&decoded.text) {
        return Err(fail(
            ErrorKind::Binary,
            "not text: binary data or an undecodable encoding".into(),
        ));
    }
    Ok(decoded)
}

/// Extract one page: decode, parse, run the cascade. With `render.enabled` the page is
/// rendered in the browser (every page with `answer: rendered`; with `auto`, a page whose
/// recorded answer is little text) and the rendered document's answer used (`method` ends
/// in `+render`) when `answer` says so; when rendering fails, `render.fallback` says
/// whether the page keeps its recorded answer or gets an error record.
pub fn extract_page(
    page: &Page,
    cascade: &Cascade,
    config: &Config,
) -> Result<ExtractRecord, PageError> {
    if !config.render.enabled {
        return extract_static(page, cascade, config);
    }
    let decoded = decode_checked(page)?;
    let auto = config.render.answer == Answer::Auto;
    // Words as the extractors count them (`Extracted::kept_words`: a letter of Chinese or
    // Japanese is a word, see `dom::unspaced_word_len`), not whitespace runs: a Chinese
    // article is one run of letters between spaces and would always look short.
    let recorded = if auto {
        let (record, words) = extract_counted(page, cascade, config)?;
        if !render_browser::worth_rendering(words) {
            return Ok(record);
        }
        Some((record, words))
    } else {
        None
    };
    let pool = render_browser::Pool::shared(&config.render);
    let index = page.warc_file.as_deref().map(recorded_responses);
    let lookup = |url: &str| index.as_ref().and_then(|i| recorded_response(page, i, url));
    let responses = index
        .is_some()
        .then_some(&lookup as &render_browser::RecordedLookup<'_>);
    match pool.render(&page.url, &decoded.text, responses) {
        Ok(rendered) => {
            if let Some(dir) = &config.render.keep_dir {
                if let Err(e) = render_browser::keep(dir, &page.path, &rendered.html) {
                    tracing::warn!(
                        "{}: keeping the rendered document in {}: {e}",
                        page.path,
                        dir.display()
                    );
                }
            }
            let rendered_page = Page {
                body: rendered.html.into_bytes(),
                content_type: Some("text/html; charset=utf-8".into()),
                ..page.clone()
            };
            let (mut record, rendered_words) = extract_counted(&rendered_page, cascade, config)?;
            if let Some((static_record, words)) = recorded {
                if !render_browser::rendered_wins(words, rendered_words) {
                    return Ok(static_record);
                }
            }
            record.method.push_str(RENDER_SUFFIX);
            // The bytes as recorded were in this charset (the browser was given text).
            record.charset = decoded.label();
            Ok(record)
        }
        Err(message) => match (config.render.fallback, recorded) {
            (Fallback::Static, Some((record, _))) => Ok(record),
            (Fallback::Static, None) => {
                tracing::warn!(
                    "{} ({}): not rendered, extracted as recorded: {message}",
                    page.path,
                    page.url
                );
                extract_static(page, cascade, config)
            }
            (Fallback::Error, _) => Err(PageError {
                path: page.path.clone(),
                url: page.url.clone(),
                kind: ErrorKind::Render,
                message,
            }),
        },
    }
}

/// The index of the responses in the WARC file `file` (shared by the pages rendered from
/// it; a file that cannot be scanned gets a warning and its pages' requests are refused).
fn recorded_responses(file: &std::path::Path) -> Arc<std::io::Result<WarcIndex>> {
    let index = warc_index::shared(file);
    if let Err(e) = index.as_ref() {
        tracing::warn!(
            "{}: indexing its records for rendering: {e}",
            file.display()
        );
    }
    index
}

/// The recorded response for `url` in `index`, for a rendered `page`'s request; a record
/// that cannot be read is refused, with a warning naming it.
fn recorded_response(
    page: &Page,
    index: &std::io::Result<WarcIndex>,
    url: &str,
) -> Option<render_browser::Recorded> {
    match index.as_ref().ok()?.get(url)? {
        Ok(p) => Some(render_browser::Recorded {
            status: p.status,
            content_type: p.content_type,
            body: p.body,
        }),
        Err(e) => {
            tracing::warn!("{} ({}): {url} not served: {e}", page.path, page.url);
            None
        }
    }
}

/// What `method` ends with when the text comes from the rendered document.
pub const RENDER_SUFFIX: &str = "+render";

/// Extract one page as its bytes are: decode, parse, run the cascade.
fn extract_static(
    page: &Page,
    cascade: &Cascade,
    config: &Config,
) -> Result<ExtractRecord, PageError> {
    extract_counted(page, cascade, config).map(|(record, _)| record)
}

/// [`extract_static`], with the words of the page kept as its text
/// (`Extracted::kept_words`: the title a record may start with is not counted).
fn extract_counted(
    page: &Page,
    cascade: &Cascade,
    config: &Config,
) -> Result<(ExtractRecord, usize), PageError> {
    let render_options = config.render_options();
    let (parsed, decoded) =
        decode_and_parse_marked(page, config.max_page_bytes, render_options.markup())?;
    let group = group_key(&page.url, config.group_depth);
    let ctx = PageContext {
        url: &page.url,
        group: &group,
    };
    let answer = cascade.answer(&parsed, &ctx);
    let found = answer.extracted;
    let kept_words = usize::try_from(found.kept_words).unwrap_or(usize::MAX);
    let visible = parsed.dom.visible_words();
    let boilerplate_ratio = if visible == 0 {
        0.0
    } else {
        1.0 - found.kept_words.min(visible) as f64 / visible as f64
    };
    let title = answer
        .title
        .unwrap_or_else(|| title::page_title(&parsed.dom, Some(&page.url)));
    let metadata = metadata::extract(
        &parsed,
        &metadata::MetaInputs {
            url: &page.url,
            title: &title,
            text: &found.text,
            rules_date: answer.date.as_deref(),
            fetched_at: page.fetched_at,
        },
    );
    // After the metadata, which reads the text the extractor found.
    let text = if config.with_title {
        title::text_with_title(&title, found.text)
    } else {
        found.text
    };
    let rendered = render::render(
        &render::Rendered {
            dom: &parsed.dom,
            text: &text,
            blocks: &found.blocks,
            title_line: (config.with_title && !text.is_empty()).then_some(title.as_str()),
            url: &page.url,
        },
        &render_options,
    );
    let (markdown, html) = match render_options.format {
        render::OutputFormat::Markdown => (rendered, None),
        render::OutputFormat::Html => (None, rendered),
        render::OutputFormat::Text => (None, None),
    };
    let record = ExtractRecord {
        path: page.path.clone(),
        url: page.url.clone(),
        group,
        title,
        text,
        markdown,
        html,
        method: answer.method,
        date: answer.date,
        fetched_at: page.fetched_at,
        popularity: page.popularity,
        boilerplate_ratio: round4(boilerplate_ratio),
        template_ratio: found.template_ratio,
        charset: decoded.label(),
        empty_reason: found.empty_reason,
        truncated_at: page.cut.then_some(config.max_page_bytes),
        tags_cut_at: parsed.tags_cut_at,
        attributes_dropped: (parsed.attributes_dropped > 0).then_some(parsed.attributes_dropped),
        metadata,
    };
    Ok((record, kept_words))
}

/// Control characters (other than whitespace) or replacement characters in more than
/// a tenth of the first 4,096 characters: not a text page.
fn looks_binary(text: &str) -> bool {
    let mut total = 0usize;
    let mut bad = 0usize;
    for c in text.chars().take(BINARY_SNIFF_CHARS) {
        total += 1;
        if c == '\u{FFFD}' || (c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{0C}')) {
            bad += 1;
        }
    }
    total > 0 && bad * BINARY_BAD_ONE_IN > total
}
