//! Fuzz target `board_file`: the body is `kingme_shared::fuzzing::board_file`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("board_file", data));
