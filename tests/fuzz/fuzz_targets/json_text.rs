//! Fuzz target `json_text`: the body is `kingme_shared::fuzzing::json_text`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("json_text", data));
