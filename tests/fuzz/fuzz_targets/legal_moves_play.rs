//! Fuzz target `legal_moves_play`: the body is `kingme_shared::fuzzing::legal_moves_play`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("legal_moves_play", data));
