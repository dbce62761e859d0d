//! Fuzz target `tictactoe_position`: the body is `kingme_shared::fuzzing::tictactoe_position`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("tictactoe_position", data));
