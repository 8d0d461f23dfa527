#![no_main]
// The target's body is server_fuzz::targets::multipart (src/targets.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| server_fuzz::fuzz("multipart", data));
