#![no_main]
// The target's body is server_fuzz::targets::recognizer_answer (src/targets.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| server_fuzz::fuzz("recognizer_answer", data));
