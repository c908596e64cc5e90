//! Reading the files of a checked crate, which may be hostile: every reader of a source file,
//! manifest, configuration file or baseline goes through [`read_file`].
//!
//! - Only regular files are read. The type is checked without blocking (`stat`, then an open
//!   with `O_NONBLOCK` and an `fstat` of what was opened), so a FIFO named `Cargo.toml` cannot
//!   hang the run and a link to `/dev/zero` is not read forever; anything else is an error that
//!   says what the path is.
//! - At most a limit of bytes is read, whatever the file claims its size is (`/proc` files
//!   claim 0): a larger file is an error, not an allocation.

use std::fs::{File, FileType, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// The largest source file read: 64 MiB, far above any hand-written file (files with over
/// [`crate::check::DEFAULT_MAX_FILE_SIZE`] of code are not parsed anyway).
pub const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// The largest manifest, configuration file or baseline read: 16 MiB.
pub const MAX_SMALL_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The bytes of the regular file at `path` (symbolic links followed), at most `limit` of them.
/// Errors are one line, lower case, without the path: "permission denied", "a FIFO (named
/// pipe), not a regular file", "larger than 64 MiB".
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| error_of(path, &e))?;
    regular(&meta)?;
    let file = open(path).map_err(|e| error_of(path, &e))?;
    // What was opened may not be what was looked at.
    let meta = file.metadata().map_err(|e| io_message(&e))?;
    regular(&meta)?;
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_message(&e))?;
    if bytes.len() as u64 > limit {
        return Err(format!("larger than {}; not read", size(limit)));
    }
    Ok(bytes)
}

/// [`read_file`] of a text file: UTF-8 (a byte-order mark is kept).
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    String::from_utf8(read_file(path, limit)?).map_err(|_| "not valid UTF-8".to_string())
}

/// Why `path` is not a regular file that can be read, when it is not: "does not exist", "a FIFO
/// (named pipe), not a regular file", "dangling symbolic link: …", "symbolic link cannot be
/// followed: too many levels of symbolic links". None for a regular file.
pub fn not_regular(path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Ok(meta) => regular(&meta).err(),
        Err(e) if e.kind() == io::ErrorKind::NotFound && !is_symlink(path) => {
            Some("does not exist".to_string())
        }
        Err(e) => Some(error_of(path, &e)),
    }
}

/// What a file type is, for messages: "a FIFO (named pipe)", "a directory".
pub fn kind(ft: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_dir() {
        "a directory"
    } else if ft.is_symlink() {
        "a symbolic link"
    } else if ft.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

fn regular(meta: &Metadata) -> Result<(), String> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(format!("{}, not a regular file", kind(meta.file_type())))
    }
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

fn error_of(path: &Path, e: &io::Error) -> String {
    if is_symlink(path) {
        link_message(path, e)
    } else {
        io_message(e)
    }
}

#[cfg(unix)]
fn open(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: should the path have become a FIFO since it was looked at, the open does not
    // wait for a writer (on a regular file the flag changes nothing). O_NOCTTY: a terminal
    // never becomes the controlling one.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> io::Result<File> {
    File::open(path)
}

fn size(bytes: u64) -> String {
    if bytes % (1024 * 1024) == 0 {
        format!("{} MiB", bytes / (1024 * 1024))
    } else {
        format!("{bytes} bytes")
    }
}

/// Why the symbolic link `path` cannot be followed (`err` is the error of following it).
pub(crate) fn link_message(path: &Path, err: &io::Error) -> String {
    if err.kind() == io::ErrorKind::NotFound {
        return match std::fs::read_link(path) {
            Ok(target) => format!(
                "dangling symbolic link: its target {} does not exist",
                target.display()
            ),
            Err(_) => "dangling symbolic link: its target does not exist".to_string(),
        };
    }
    format!("symbolic link cannot be followed: {}", io_message(err))
}

/// An I/O error as a short lower-case message, without rustc's "(os error N)" suffix.
pub(crate) fn io_message(e: &io::Error) -> String {
    if e.kind() == io::ErrorKind::NotFound {
        return "no such file or directory".to_string();
    }
    let text = e.to_string();
    let text = match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => "i/o error".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_regular_files_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.rs");
        std::fs::write(&path, b"fn f() {}\n").unwrap();
        assert_eq!(read_file(&path, 10).unwrap(), b"fn f() {}\n");
        assert_eq!(
            read_file(&path, 9).unwrap_err(),
            "larger than 9 bytes; not read"
        );
        assert_eq!(not_regular(&path), None);
        assert_eq!(
            read_file(dir.path(), 10).unwrap_err(),
            "a directory, not a regular file"
        );
        assert_eq!(
            not_regular(&dir.path().join("b.rs")).as_deref(),
            Some("does not exist")
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_and_bad_links_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            read_file(Path::new("/dev/zero"), 10).unwrap_err(),
            "a character device, not a regular file"
        );
        let fifo = dir.path().join("Cargo.toml");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        // Would block forever if opened for reading without a writer.
        assert_eq!(
            read_file(&fifo, 10).unwrap_err(),
            "a FIFO (named pipe), not a regular file"
        );
        let link = dir.path().join("zero.rs");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert_eq!(
            read_file(&link, 10).unwrap_err(),
            "a character device, not a regular file"
        );
        let dangling = dir.path().join("gone.rs");
        std::os::unix::fs::symlink(dir.path().join("nowhere.rs"), &dangling).unwrap();
        assert!(not_regular(&dangling)
            .unwrap()
            .starts_with("dangling symbolic link"));
        let looped = dir.path().join("loop.rs");
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        assert!(not_regular(&looped)
            .unwrap()
            .starts_with("symbolic link cannot be followed"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn files_that_claim_to_be_empty_are_still_limited() {
        // /proc files are regular and report a size of 0.
        let bytes = read_file(Path::new("/proc/self/maps"), 1 << 20);
        assert!(bytes.is_ok_and(|b| !b.is_empty()));
        assert!(read_file(Path::new("/proc/self/maps"), 1)
            .unwrap_err()
            .starts_with("larger than"));
    }
}
