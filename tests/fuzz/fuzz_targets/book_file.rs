//! Fuzz target `book_file`: the body is `kingme_shared::fuzzing::book_file`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kingme_fuzz::run("book_file", data));
