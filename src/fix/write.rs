//! Replacing a file on disk so that, whatever happens, it holds either its old bytes or its new
//! ones: the new bytes go to a temporary file in the same directory (same file system), which is
//! flushed to disk and then renamed over the original. Permissions and owner are kept; a file
//! changed since it was read, a read-only file and a file with several hard links are left
//! alone. Every rewrite of a checked file goes through here: `--fix` and `--add-suppressions`;
//! the files the user names for output (`-o`, `--write-baseline`) through [`write_output`].

use std::io::Write;
use std::path::{Path, PathBuf};

/// [`replace_file`] for Rust source: `new` (after a byte-order mark) must parse, else nothing is
/// written.
pub fn replace_source(path: &Path, expected: &[u8], new: &[u8]) -> Result<(), String> {
    let text = std::str::from_utf8(new).map_err(|_| "the new text is not UTF-8; left unchanged")?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Parsing recurses along the code: on a thread with the analysis' stack.
    crate::parse::on_worker_stack(|| crate::parse::parse_file(text).map(drop)).map_err(|e| {
        format!(
            "the new text would not parse ({}:{}: {}); left unchanged",
            e.line, e.column, e.message
        )
    })?;
    replace_file(path, expected, new)
}

/// Replace the file at `path`, which must still hold `expected`, with `new`. Symbolic links are
/// followed: the file they point to is replaced and the link kept. A file that is not writable
/// (by its permissions, whoever runs the tool, root included: a 0444 file is meant to stay as
/// it is) is refused, as editors do, although the rename would only need the directory to be
/// writable. On error the file is untouched and the message says why (one line, lowercase).
pub fn replace_file(path: &Path, expected: &[u8], new: &[u8]) -> Result<(), String> {
    let target = std::fs::canonicalize(path)
        .map_err(|e| format!("cannot resolve: {}", crate::discover::io_message(&e)))?;
    let meta = std::fs::metadata(&target)
        .map_err(|e| format!("cannot stat: {}", crate::discover::io_message(&e)))?;
    if !meta.is_file() {
        return Err("no longer a regular file; left unchanged".into());
    }
    if !writable(&target, &meta) {
        return Err("the file is read-only; left unchanged".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(format!(
                "the file has {} hard links, which replacing it would separate; left unchanged",
                meta.nlink()
            ));
        }
    }
    unchanged(&target, expected)?;
    let dir = target
        .parent()
        .ok_or_else(|| "the file has no parent directory".to_string())?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".kube-order-lint.tmp")
        .tempfile_in(dir)
        .map_err(|e| {
            format!(
                "cannot create a temporary file next to it: {}",
                crate::discover::io_message(&e)
            )
        })?;
    let written = temp
        .as_file_mut()
        .write_all(new)
        .and_then(|()| keep_owner(temp.as_file(), &meta))
        .and_then(|()| temp.as_file().set_permissions(meta.permissions()))
        .and_then(|()| temp.as_file().sync_all());
    // On any error below, dropping `temp` deletes the temporary file.
    written.map_err(|e| {
        format!(
            "cannot write the fixed file: {}",
            crate::discover::io_message(&e)
        )
    })?;
    // Read once more right before the rename: the window for a concurrent edit to be lost is
    // as small as the file system allows without locks.
    unchanged(&target, expected)?;
    temp.persist(&target).map_err(|e| {
        format!(
            "cannot replace the file: {}",
            crate::discover::io_message(&e.error)
        )
    })?;
    // Make the rename itself durable; a failure here loses nothing.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Where `--fix` and `--add-suppressions` may write: inside the paths the user named (a named
/// directory, the directory of a named file or manifest), compared after following links. A
/// file of the checked crate that lies elsewhere (`#[path = "/abs/m.rs"]`, a `[[bin]] path`
/// outside the package, a source file that is a link to outside) is checked and reported, but
/// never rewritten: the crate chooses those paths, not the user.
#[derive(Clone, Debug, Default)]
pub struct WriteRoots(Vec<PathBuf>);

impl WriteRoots {
    /// The roots of the paths named on the command line (those that exist).
    pub fn of(named: &[PathBuf]) -> Self {
        let roots = named
            .iter()
            .filter_map(|p| {
                let canon = std::fs::canonicalize(p).ok()?;
                if canon.is_dir() {
                    Some(canon)
                } else {
                    canon.parent().map(Path::to_path_buf)
                }
            })
            .collect();
        WriteRoots(roots)
    }

    /// Where `path` really is, when that is outside every root (or cannot be resolved); None
    /// when it may be written.
    pub fn outside(&self, path: &Path) -> Option<PathBuf> {
        match std::fs::canonicalize(path) {
            Ok(real) if self.0.iter().any(|root| real.starts_with(root)) => None,
            Ok(real) => Some(real),
            Err(_) => Some(path.to_path_buf()),
        }
    }

    /// The note for a file that is not rewritten; `what` is what was not done.
    pub fn note(display: &str, real: &Path, what: &str) -> String {
        format!(
            "{display}: {what}: the file is outside the paths named on the command line (it is \
             {}); it was checked but is never rewritten",
            real.display()
        )
    }
}

/// Write `bytes` to the output file `path` (`-o`, `--write-baseline`) atomically: a temporary
/// file in the same directory, flushed, then renamed over `path`, so that a run killed midway
/// leaves the previous content whole. A symbolic link at `path` (dangling or not) is refused,
/// not followed: a link planted in a checkout must not make the tool write elsewhere. An
/// existing file keeps its permissions; a new one gets 0666 less the umask, as a plain write.
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let existing = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err("is a symbolic link, which is not written through; \
                        name the file itself"
                .into())
        }
        Ok(meta) if !meta.is_file() => {
            return Err(format!(
                "{}, not a regular file; not written",
                crate::read::kind(meta.file_type())
            ))
        }
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(crate::discover::io_message(&e)),
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| "not a file name".to_string())?;
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".kube-order-lint.tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(dir).map_err(|e| {
        format!(
            "cannot create a temporary file next to it: {}",
            crate::discover::io_message(&e)
        )
    })?;
    let written = temp
        .as_file_mut()
        .write_all(bytes)
        .and_then(|()| match &existing {
            Some(meta) => temp.as_file().set_permissions(meta.permissions()),
            None => Ok(()),
        })
        .and_then(|()| temp.as_file().sync_all());
    // On error, dropping `temp` deletes the temporary file.
    written.map_err(|e| crate::discover::io_message(&e))?;
    temp.persist(path)
        .map_err(|e| crate::discover::io_message(&e.error))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

fn unchanged(target: &Path, expected: &[u8]) -> Result<(), String> {
    let current = crate::read::read_file(target, crate::read::MAX_SOURCE_BYTES)
        .map_err(|e| format!("cannot read: {e}"))?;
    if current != expected {
        return Err("changed on disk since it was read; left unchanged".into());
    }
    Ok(())
}

/// May the file be written: a write permission bit at all, and (on Unix) write access for this
/// process (`access(2)`).
fn writable(path: &Path, meta: &std::fs::Metadata) -> bool {
    if meta.permissions().readonly() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: a valid, NUL-terminated path.
        unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        true
    }
}

/// Give the new file the owner of the old one (a no-op unless running as another user, such as
/// root fixing someone else's checkout).
#[cfg(unix)]
fn keep_owner(file: &std::fs::File, meta: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let new = file.metadata()?;
    if new.uid() == meta.uid() && new.gid() == meta.gid() {
        return Ok(());
    }
    std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid()))
}

#[cfg(not(unix))]
fn keep_owner(_: &std::fs::File, _: &std::fs::Metadata) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_and_keeps_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.rs");
        std::fs::write(&path, b"old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        replace_file(&path, b"old", b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        // Nothing is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_changed_file_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.rs");
        std::fs::write(&path, b"edited meanwhile").unwrap();
        let err = replace_file(&path, b"old", b"new").unwrap_err();
        assert!(err.contains("changed on disk"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"edited meanwhile");
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_kept_and_its_target_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.rs");
        let link = dir.path().join("link.rs");
        std::fs::write(&real, b"old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        replace_file(&link, b"old", b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
    }

    #[cfg(unix)]
    #[test]
    fn read_only_files_are_left_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.rs");
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let err = replace_file(&path, b"old", b"new").unwrap_err();
        assert_eq!(err, "the file is read-only; left unchanged");
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
    }

    #[test]
    fn source_that_would_not_parse_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.rs");
        std::fs::write(&path, b"fn f() {}\n").unwrap();
        let err = replace_source(&path, b"fn f() {}\n", b"fn f() {\n").unwrap_err();
        assert!(err.starts_with("the new text would not parse"), "{err}");
        replace_source(&path, b"fn f() {}\n", b"\xEF\xBB\xBFfn g() {}\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"\xEF\xBB\xBFfn g() {}\n");
    }

    #[cfg(unix)]
    #[test]
    fn output_is_written_whole_and_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("report.txt");
        write_output(&out, b"first").unwrap();
        write_output(&out, b"second").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"second");
        let outside = dir.path().join("outside");
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let err = write_output(&link, b"x").unwrap_err();
        assert!(err.starts_with("is a symbolic link"), "{err}");
        assert!(!outside.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn hard_links_are_not_separated() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.rs");
        std::fs::write(&a, b"old").unwrap();
        std::fs::hard_link(&a, dir.path().join("b.rs")).unwrap();
        assert!(replace_file(&a, b"old", b"new").is_err());
        assert_eq!(std::fs::read(&a).unwrap(), b"old");
    }
}
