//! cargo-fuzz target: see `common::dedup_jsonl_bytes`.
#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::dedup_jsonl_bytes(data));
