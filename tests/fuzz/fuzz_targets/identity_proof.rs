//! Fuzz target `identity_proof`: the body is `kingme_shared::fuzzing::identity_proof`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("identity_proof", data));
