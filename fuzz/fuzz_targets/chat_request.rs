#![no_main]
// The target's body is server_fuzz::targets::chat_request (src/targets.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| server_fuzz::fuzz("chat_request", data));
