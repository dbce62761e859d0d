//! Fuzz target `config_file`: the body is `kingme_server::fuzzing::config_file`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("config_file", data));
