//! Fuzz target `checkers_move_text`: the body is `kingme_shared::fuzzing::checkers_move_text`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("checkers_move_text", data));
