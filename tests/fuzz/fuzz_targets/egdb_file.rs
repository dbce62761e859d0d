//! Fuzz target `egdb_file`: the body is `kingme_shared::fuzzing::egdb_file`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("egdb_file", data));
