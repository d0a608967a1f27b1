//! cargo-fuzz target: see `common::extract_page_bytes`.
#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::extract_page_bytes(data));
