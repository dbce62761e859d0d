//! Helpers for the end-to-end tests in `tests/tests/`: start the real server, connect real
//! clients over TCP.
