#![no_main]
// The target's body is server_fuzz::targets::posting_rules (src/targets.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| server_fuzz::fuzz("posting_rules", data));
