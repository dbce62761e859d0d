//! Fuzz target `tictactoe_move_text`: the body is `kingme_shared::fuzzing::tictactoe_move_text`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("tictactoe_move_text", data));
