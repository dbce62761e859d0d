//! The load tools' and end-to-end tests' own code: the hostile clients ([`hostile`]) and soak
//! cycles ([`soak`]) of `kingme-hostile`; what the load tools read from `/proc` ([`measure`]),
//! the bare relay of `kingme-floor` ([`floor`]), and the repository's own files for the
//! document checks ([`source_tree`]). The test client, the servers and the rest the tests share
//! are `kingme-testkit`'s; the plain reference rules and the differential comparison are
//! `kingme-reference`'s.

pub mod floor;
pub mod hostile;
pub mod measure;
pub mod soak;
pub mod source_tree;
