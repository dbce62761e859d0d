//! Fuzz target `checkers_fen`: the body is `kingme_shared::fuzzing::checkers_fen`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("checkers_fen", data));
