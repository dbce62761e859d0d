//! Helpers for the end-to-end tests in `tests/tests/`: start the real server, connect real
//! clients over TCP. Also the plain reference rules ([`reference`]) and the differential
//! comparison against the fast rules ([`differential`]).

pub mod differential;
pub mod reference;
