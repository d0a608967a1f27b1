//! thresher separates grain from chaff in crawled web pages: it reads pages (files,
//! directories, WARC), groups them by URL prefix, strips boilerplate, normalizes the
//! text, finds near-duplicates (shingles, MinHash, LSH, verification) and picks one
//! main document per duplicate cluster.
//!
//! ```
//! use thresher::extract::{dom, heuristic, Cascade, PageContext};
//! let html = "<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>\
//!     <article><p>The main text of this page is long enough to be taken for content \
//!     by the local heuristic, which keeps it.</p></article>\
//!     <footer>Copyright 2026 The Example Company, all rights reserved.</footer></body></html>";
//! let page = dom::parse_page(html);
//! let cascade = Cascade::local(heuristic::HeuristicConfig::default());
//! let ctx = PageContext { url: "http://example.com/a.html", group: "example.com/" };
//! let (found, method) = cascade.extract(&page, &ctx);
//! assert_eq!(method, "heuristic");
//! assert!(found.text.starts_with("The main text"));
//! assert!(!found.text.contains("Copyright"));
//! ```

pub mod atomic_file;
pub mod charset;
pub mod choose_main;
pub mod cli;
pub mod config;
pub mod dedup;
pub mod error;
pub mod extract;
pub mod extract_eval;
pub mod group;
pub mod index;
pub mod normalize;
pub mod page;
pub mod parquet_io;
pub mod pipeline;
pub mod render;
pub mod render_browser;
pub mod report;
pub mod source;

pub use error::{Error, Result};
