//! Small private files (keys, secrets, resume tokens): written whole to a temporary file in the
//! same directory and renamed over the old one (the `tempfile` crate, readable only by the
//! owner on Unix), so a crash leaves either the old file or the new one, never half; read with
//! a size limit and, for secrets, a check that nobody else may read them.

use std::fs;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a private file could not be read or written.
#[derive(Debug, Error)]
pub enum PrivateFileError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is more than {limit} bytes, more than it can be; move it away")]
    TooLarge { path: PathBuf, limit: u64 },
    #[error(
        "{path} can be read by others (permissions {mode:o}); it must be private: run chmod 600 {path}"
    )]
    NotPrivate { path: PathBuf, mode: u32 },
}

/// Reads the file at `path`, `None` if there is none. Files over `limit` bytes are refused
/// (without reading them); with `private`, so are files others may read or write (Unix).
pub(crate) fn read(
    path: &Path,
    limit: u64,
    private: bool,
) -> Result<Option<Vec<u8>>, PrivateFileError> {
    let read_error = |source| PrivateFileError::Read {
        path: path.to_owned(),
        source,
    };
    let file = match fs::File::open(path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        other => other.map_err(read_error)?,
    };
    let meta = file.metadata().map_err(read_error)?;
    if private {
        check_private(path, &meta)?;
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > limit {
        return Err(PrivateFileError::TooLarge {
            path: path.to_owned(),
            limit,
        });
    }
    Ok(Some(bytes))
}

#[cfg(unix)]
fn check_private(path: &Path, meta: &fs::Metadata) -> Result<(), PrivateFileError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(PrivateFileError::NotPrivate {
            path: path.to_owned(),
            mode,
        });
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(_path: &Path, _meta: &fs::Metadata) -> Result<(), PrivateFileError> {
    Ok(())
}

/// Writes `bytes` to `path` atomically, readable only by the owner on Unix; creates the
/// directory (owner-only too) if needed.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), PrivateFileError> {
    let write_error = |source| PrivateFileError::Write {
        path: path.to_owned(),
        source,
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if !dir.exists() {
        let mut builder = fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
        }
        builder.create(dir).map_err(write_error)?;
    }
    // NamedTempFile is created 0600 on Unix.
    let mut temporary = tempfile::NamedTempFile::new_in(dir).map_err(write_error)?;
    temporary
        .write_all(bytes)
        .and_then(|()| temporary.as_file().sync_all())
        .map_err(write_error)?;
    temporary
        .persist(path)
        .map_err(|err| write_error(err.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_files_are_whole_and_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a").join("b").join("file");
        assert!(read(&path, 10, true).unwrap().is_none());
        write(&path, b"first").unwrap();
        write(&path, b"second").unwrap();
        assert_eq!(read(&path, 10, true).unwrap().unwrap(), b"second");
        // No temporary file is left beside it.
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
        let err = read(&path, 3, true).unwrap_err();
        assert!(matches!(err, PrivateFileError::TooLarge { .. }), "{err}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0);
            fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
            let err = read(&path, 10, true).unwrap_err();
            assert!(
                err.to_string()
                    .contains("can be read by others (permissions 644)")
                    && err.to_string().contains("chmod 600"),
                "{err}"
            );
            assert!(read(&path, 10, false).is_ok());
        }
    }
}
