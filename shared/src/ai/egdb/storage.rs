//! Where a database file's bytes live: memory-mapped from the file (the normal case, so that a
//! six-piece file costs only the blocks a search touches), or held in memory (files built or
//! received in memory, tests, fuzzing). This is the one file of kingme with unsafe code, for
//! `memmap2`'s map; `tests/tests/it/tidy.rs` checks that no other file has any.

use std::fs::File;
use std::ops::Deref;

/// A database file's bytes.
pub enum Storage {
    /// Read into memory.
    Owned(Vec<u8>),
    /// Mapped from the file.
    Mapped(memmap2::Mmap),
}

impl Storage {
    /// Maps a file read-only.
    pub fn map(file: &File) -> std::io::Result<Storage> {
        // SAFETY: the map is read-only and private to this process; its soundness needs the
        // file not to be changed while it is mapped. kingme never writes a database file in
        // place: `egdb build` writes a new file and renames it over the old one, which leaves
        // this mapping on the old contents. A file cut short by someone else while mapped would
        // fault on access (SIGBUS), as with any program that maps files; the checksum checked
        // at open catches a file damaged before.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(file)? };
        Ok(Storage::Mapped(map))
    }

    /// Whether the bytes are mapped from a file.
    #[must_use]
    pub fn is_mapped(&self) -> bool {
        matches!(self, Storage::Mapped(_))
    }
}

impl Deref for Storage {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Storage::Owned(bytes) => bytes,
            Storage::Mapped(map) => map,
        }
    }
}

impl From<Vec<u8>> for Storage {
    fn from(bytes: Vec<u8>) -> Storage {
        Storage::Owned(bytes)
    }
}
