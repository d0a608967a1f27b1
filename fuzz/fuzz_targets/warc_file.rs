//! cargo-fuzz target: see `common::warc_file_bytes`.
#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::warc_file_bytes(data));
