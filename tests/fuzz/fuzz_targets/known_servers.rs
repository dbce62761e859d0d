//! Fuzz target `known_servers`: the body is `kingme_client::fuzzing::known_servers`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("known_servers", data));
