//! Fuzz target `key_file`: the body is `kingme_client::fuzzing::key_file`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("key_file", data));
