//! cargo-fuzz target: see `common::rules_yaml_bytes`.
#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::rules_yaml_bytes(data));
