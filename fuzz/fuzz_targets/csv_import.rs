#![no_main]
// The target's body is server_fuzz::targets::csv_import (src/targets.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| server_fuzz::fuzz("csv_import", data));
