//! Source files and positions. Spans are turned into byte ranges right after parsing, so nothing
//! downstream depends on proc-macro2's thread-local source map.

use std::ops::Range;
use std::path::{Path, PathBuf};

/// Index of a file in [`crate::Session::files`].
pub type FileId = usize;

/// A byte range inside one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }
    pub fn contains(&self, other: &Span) -> bool {
        self.file == other.file && self.start <= other.start && other.end <= self.end
    }
}

/// One file read from disk (or given as text), with a line index.
#[derive(Debug)]
pub struct SourceFile {
    pub id: FileId,
    /// The path as found on disk.
    pub path: PathBuf,
    /// The path shown to users: relative to the current directory when the file lies under it.
    pub display: String,
    pub text: String,
    line_starts: Vec<usize>,
    /// Whether each line is ASCII: there a column is a byte count, and [`SourceFile::offset_of`]
    /// needs no scan (a scan per span is quadratic on a long line, such as a macro call with
    /// 10,000 arguments).
    ascii_lines: Vec<bool>,
}

impl SourceFile {
    pub fn new(id: FileId, path: PathBuf, text: String) -> Self {
        let display = display_path(&path);
        let line_starts = line_starts(&text);
        let ascii_lines = line_starts
            .iter()
            .zip(line_starts.iter().skip(1).chain([&text.len()]))
            .map(|(&a, &b)| text.as_bytes()[a..b].is_ascii())
            .collect();
        SourceFile {
            id,
            path,
            display,
            text,
            line_starts,
            ascii_lines,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start);
        (line + 1, col + 1)
    }

    /// Byte offset of a proc-macro2 line/column (1-based line, 0-based column in chars).
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let index = line.saturating_sub(1);
        let Some(&start) = self.line_starts.get(index) else {
            return self.text.len();
        };
        let end = self.line_starts.get(index + 1).copied();
        if self.ascii_lines[index] && start + column <= end.unwrap_or(self.text.len()) {
            return start + column;
        }
        let rest = &self.text[start..];
        rest.char_indices()
            .nth(column)
            .map(|(i, _)| start + i)
            .unwrap_or_else(|| start + rest.len())
    }

    pub fn snippet(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// Paths under the current directory are shown relative to it, like rustc does. A path that
/// climbs (`../src/lib.rs` seen from `src/`) is shown by where it leads (`lib.rs`).
pub fn display_path(path: &Path) -> String {
    let shown = std::env::current_dir()
        .ok()
        .and_then(|cwd| {
            let abs = if path.is_absolute() {
                path.to_path_buf()
            } else {
                cwd.join(path)
            };
            let climbs = path
                .components()
                .any(|c| c == std::path::Component::ParentDir);
            if climbs {
                if let (Ok(target), Ok(base)) = (abs.canonicalize(), cwd.canonicalize()) {
                    return pathdiff::diff_paths(target, base);
                }
            }
            abs.strip_prefix(&cwd).ok().map(Path::to_path_buf)
        })
        .unwrap_or_else(|| path.to_path_buf());
    let s = slash_path(&shown);
    let s = s.strip_prefix("./").map(str::to_string).unwrap_or(s);
    // The current directory itself: never an empty path in a message.
    if s.is_empty() {
        ".".to_string()
    } else {
        s
    }
}

/// A path as text with `/` separators. Only on Windows is `\\` a separator: elsewhere it is an
/// ordinary character of a file name, and kept.
pub fn slash_path(path: &Path) -> String {
    let s = path.to_string_lossy();
    if cfg!(windows) {
        s.replace('\\', "/")
    } else {
        s.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_chars_from_one() {
        let f = SourceFile::new(0, "a.rs".into(), "ab\nçd\n".into());
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(5), (2, 2));
        assert_eq!(f.offset_of(2, 1), 5);
    }

    #[test]
    fn offsets_of_ascii_and_other_lines_agree_with_a_scan() {
        let text = "ab\nçd\nxyz";
        let f = SourceFile::new(0, "a.rs".into(), text.into());
        for line in 0..=4 {
            for column in 0..=12 {
                let scan = f
                    .line_starts
                    .get(line.max(1) - 1)
                    .map(|&start| {
                        text[start..]
                            .char_indices()
                            .nth(column)
                            .map_or(text.len(), |(i, _)| start + i)
                    })
                    .unwrap_or(text.len());
                assert_eq!(f.offset_of(line, column), scan, "{line}:{column}");
            }
        }
    }

    #[test]
    fn the_current_directory_is_shown_as_a_dot() {
        assert_eq!(display_path(Path::new(".")), ".");
        assert_eq!(display_path(Path::new("")), ".");
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(display_path(&cwd), ".");
        assert_eq!(display_path(Path::new("./src/lib.rs")), "src/lib.rs");
    }

    #[cfg(unix)]
    #[test]
    fn a_backslash_in_a_file_name_is_kept() {
        assert_eq!(display_path(Path::new("a\\b.rs")), "a\\b.rs");
        assert_eq!(slash_path(Path::new("dir/a\\b.rs")), "dir/a\\b.rs");
    }
}
