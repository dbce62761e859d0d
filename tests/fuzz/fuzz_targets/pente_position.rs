//! Fuzz target `pente_position`: the body is `kingme_shared::fuzzing::pente_position`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("pente_position", data));
