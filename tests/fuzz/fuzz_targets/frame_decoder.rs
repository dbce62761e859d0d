//! Fuzz target `frame_decoder`: the body is `kingme_shared::fuzzing::frame_decoder`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("frame_decoder", data));
