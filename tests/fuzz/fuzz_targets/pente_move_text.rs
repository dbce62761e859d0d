//! Fuzz target `pente_move_text`: the body is `kingme_shared::fuzzing::pente_move_text`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("pente_move_text", data));
