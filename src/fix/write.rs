//! Replacing a file on disk so that, whatever happens, it holds either its old bytes or its new
//! ones: the new bytes go to a temporary file in the same directory (same file system), which is
//! flushed to disk and then renamed over the original. Permissions and owner are kept; a file
//! changed since it was read is left alone.

use std::io::Write;
use std::path::Path;

/// Replace the file at `path`, which must still hold `expected`, with `new`. Symbolic links are
/// followed: the file they point to is replaced and the link kept. On error the file is
/// untouched and the message says why (one line, lowercase).
pub fn replace_file(path: &Path, expected: &[u8], new: &[u8]) -> Result<(), String> {
    let target = std::fs::canonicalize(path)
        .map_err(|e| format!("cannot resolve: {}", crate::discover::io_message(&e)))?;
    let meta = std::fs::metadata(&target)
        .map_err(|e| format!("cannot stat: {}", crate::discover::io_message(&e)))?;
    if !meta.is_file() {
        return Err("no longer a regular file; not fixed".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(format!(
                "the file has {} hard links, which replacing it would separate; not fixed",
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

fn unchanged(target: &Path, expected: &[u8]) -> Result<(), String> {
    let current = crate::read::read_file(target, crate::read::MAX_SOURCE_BYTES)
        .map_err(|e| format!("cannot read: {e}"))?;
    if current != expected {
        return Err("changed on disk since it was read; not fixed".into());
    }
    Ok(())
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
    fn hard_links_are_not_separated() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.rs");
        std::fs::write(&a, b"old").unwrap();
        std::fs::hard_link(&a, dir.path().join("b.rs")).unwrap();
        assert!(replace_file(&a, b"old", b"new").is_err());
        assert_eq!(std::fs::read(&a).unwrap(), b"old");
    }
}
