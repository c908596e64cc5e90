//! Resolving `mod x;` items to files.
//!
//! The rules follow rustc (`rustc_expand::module`) and the Rust reference ("Modules" and "The
//! path attribute"):
//!
//! * Every module has a *directory* for its children. A file that owns its directory (crate
//!   root, `mod.rs`, file loaded through `#[path]`) puts children next to itself: `DIR/x.rs` or
//!   `DIR/x/mod.rs`. A non-mod-rs file `DIR/foo.rs` puts them in `DIR/foo/x.rs` or
//!   `DIR/foo/x/mod.rs`.
//! * An inline module `mod a { ... }` appends `a` to that directory (after the `foo` of a non-mod-rs
//!   file), so `mod a { mod b; }` in `DIR/foo.rs` loads `DIR/foo/a/b.rs`.
//! * `#[path = "p"] mod x;` outside inline modules is relative to the directory containing the
//!   current file (even for non-mod-rs files); inside an inline module it is relative to the
//!   directory the inline module has (`DIR/foo/a/p`).
//! * `#[path = "p"] mod a { ... }` (on an *inline* module) makes `p` the directory of `a`, relative
//!   to the directory containing the current file (rustc: "for inline modules file path from
//!   `#[path]` is actually the directory path for historical reasons").
//! * `#[cfg_attr(..., path = "...")]` is ignored: we do not evaluate `cfg`s, and every `mod` item
//!   is followed whatever its `#[cfg]`.
//!
//! Beyond rustc's own rules, `mod x;` items written inside item-position macro calls
//! (`cfg_if! { if #[cfg(unix)] { mod unix; } }`, `cfg_client! { pub mod api; }`) are found by a
//! heuristic: the macro's tokens, or any `{ ... }` group inside them, are parsed as items. Since
//! we cannot know what the macro does with them, such children are only returned when their
//! file exists. `macro_rules!` definitions are not looked into.
use std::path::{Path, PathBuf};

use proc_macro2::{LineColumn, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;

use crate::source::{SourceFile, Span};

/// Files loaded by the `mod x;` items of `source` (including those nested in inline modules).
///
/// `owns_directory` is true for crate roots, `mod.rs` files and files loaded through `#[path]`:
/// their children live next to them (`dir/x.rs`); otherwise (`dir/foo.rs`) children live in
/// `dir/foo/x.rs`. Files that do not exist are returned too, with `exists == false`.
///
/// `ast` must have been parsed from `source.text` on the current thread (spans are turned into
/// byte offsets through proc-macro2's line/column locations).
pub fn child_modules(
    source: &SourceFile,
    ast: &syn::File,
    owns_directory: bool,
) -> Vec<ChildModule> {
    let dir = source
        .path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let relative = if owns_directory {
        None
    } else {
        source.path.file_stem().map(PathBuf::from)
    };
    let module = ModDir { dir, relative };
    let mut out = Vec::new();
    collect(source, &ast.items, &module, false, &mut out);
    out
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildModule {
    pub path: PathBuf,
    /// The `mod x;` item in the parent file (for error reporting).
    pub decl: Span,
    pub exists: bool,
    /// Passed back as `owns_directory` when this child's own modules are resolved.
    pub owns_directory: bool,
    /// The item carries `#[cfg]` or `#[cfg_attr]`: a missing file may just be for another
    /// platform (packaged crates often leave those out), so it is a note, not an error.
    pub conditional: bool,
}

/// Where the children of the module being walked live (rustc's `dir_path` + `DirOwnership`).
struct ModDir {
    /// For a file: the directory containing it. For an inline module: its full directory.
    dir: PathBuf,
    /// `Some("foo")` at the top level of a non-mod-rs file `dir/foo.rs`: plain `mod x;` items
    /// resolve under `dir/foo/`, but `#[path]` ones under `dir/`.
    relative: Option<PathBuf>,
}

impl ModDir {
    /// The directory in which `mod x;` (without `#[path]`) looks for `x.rs` / `x/mod.rs`.
    fn children_dir(&self) -> PathBuf {
        match &self.relative {
            Some(r) => self.dir.join(r),
            None => self.dir.clone(),
        }
    }
}

fn collect(
    source: &SourceFile,
    items: &[syn::Item],
    module: &ModDir,
    from_macro: bool,
    out: &mut Vec<ChildModule>,
) {
    for item in items {
        match item {
            syn::Item::Mod(item_mod) => {
                let name = item_mod.ident.unraw().to_string();
                let path_attr = path_attribute(&item_mod.attrs);
                match &item_mod.content {
                    Some((_, inner_items)) => {
                        let inner = match path_attr {
                            Some(p) => ModDir {
                                dir: module.dir.join(p),
                                relative: None,
                            },
                            None => ModDir {
                                dir: module.children_dir().join(&name),
                                relative: None,
                            },
                        };
                        collect(source, inner_items, &inner, from_macro, out);
                    }
                    None => {
                        // `#[cfg_attr(unix, path = "unix.rs")]`: we do not evaluate cfgs, so
                        // every alternative file that exists is code of the crate.
                        let conditional = item_mod
                            .attrs
                            .iter()
                            .any(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"));
                        let mut found_alternative = false;
                        for alt in cfg_attr_paths(&item_mod.attrs) {
                            let child = resolve(source, item_mod, &name, Some(alt), module);
                            if child.exists {
                                found_alternative = true;
                                out.push(ChildModule {
                                    conditional,
                                    ..child
                                });
                            }
                        }
                        let child = resolve(source, item_mod, &name, path_attr, module);
                        let child = ChildModule {
                            conditional,
                            ..child
                        };
                        if child.exists || (!from_macro && !found_alternative) {
                            out.push(child);
                        }
                    }
                }
            }
            syn::Item::Macro(item_macro) if item_macro.mac.path.is_ident("macro_rules") => {}
            syn::Item::Macro(item_macro) => {
                let items = items_in_tokens(item_macro.mac.tokens.clone());
                collect(source, &items, module, true, out);
            }
            _ => {}
        }
    }
}

fn resolve(
    source: &SourceFile,
    item: &syn::ItemMod,
    name: &str,
    path_attr: Option<String>,
    module: &ModDir,
) -> ChildModule {
    let decl = decl_span(source, item);
    if let Some(p) = path_attr {
        let path = module.dir.join(p);
        return ChildModule {
            exists: path.is_file(),
            path,
            decl,
            owns_directory: true,
            conditional: false,
        };
    }
    let base = module.children_dir();
    let file = base.join(format!("{name}.rs"));
    if file.is_file() {
        // rustc rejects the crate when `x/mod.rs` exists as well; we take `x.rs`.
        return ChildModule {
            path: file,
            decl,
            exists: true,
            owns_directory: false,
            conditional: false,
        };
    }
    let mod_rs = base.join(name).join("mod.rs");
    if mod_rs.is_file() {
        return ChildModule {
            path: mod_rs,
            decl,
            exists: true,
            owns_directory: true,
            conditional: false,
        };
    }
    ChildModule {
        path: file,
        decl,
        exists: false,
        owns_directory: false,
        conditional: false,
    }
}

/// The `path = "..."` values inside `#[cfg_attr(predicate, path = "...")]` attributes.
fn cfg_attr_paths(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("cfg_attr")) {
        let Ok(list) = attr.parse_args_with(
            syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
        ) else {
            continue;
        };
        for meta in list.iter().skip(1) {
            if let syn::Meta::NameValue(nv) = meta {
                if nv.path.is_ident("path") {
                    if let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) = &nv.value
                    {
                        out.push(s.value());
                    }
                }
            }
        }
    }
    out
}

/// The value of the first `#[path = "..."]` attribute (like rustc, later ones are ignored).
fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    let attr = attrs.iter().find(|a| a.path().is_ident("path"))?;
    let syn::Meta::NameValue(nv) = &attr.meta else {
        return None;
    };
    match &nv.value {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

/// From the first non-doc attribute (or the visibility, or `mod`) to the `;`, so that
/// `#[path = "..."]` is shown but doc comments are not.
fn decl_span(source: &SourceFile, item: &syn::ItemMod) -> Span {
    let mut starts: Vec<LineColumn> = item
        .attrs
        .iter()
        .filter(|a| !a.path().is_ident("doc"))
        .map(|a| a.pound_token.span.start())
        .collect();
    if !matches!(item.vis, syn::Visibility::Inherited) {
        starts.push(item.vis.span().start());
    }
    if let Some(u) = &item.unsafety {
        starts.push(u.span.start());
    }
    starts.push(item.mod_token.span.start());
    let start = starts
        .into_iter()
        .map(|lc| offset(source, lc))
        .min()
        .unwrap_or(0);
    let end_lc = match &item.semi {
        Some(semi) => semi.span.end(),
        None => item.span().end(),
    };
    let end = offset(source, end_lc).max(start);
    Span {
        file: source.id,
        start,
        end,
    }
}

/// A proc-macro2 location as a byte offset. `syn::parse_file` strips a leading byte order mark,
/// which shifts the columns of line 1 by one character.
fn offset(source: &SourceFile, lc: LineColumn) -> usize {
    let mut column = lc.column;
    if lc.line == 1 && source.text.starts_with('\u{feff}') {
        column += 1;
    }
    source.offset_of(lc.line, column)
}

/// Items written in a macro call: the whole token stream if it parses as items, otherwise the
/// items of every `{ ... }` group in it that does (recursively).
fn items_in_tokens(tokens: TokenStream) -> Vec<syn::Item> {
    if let Ok(Items(items)) = syn::parse2::<Items>(tokens.clone()) {
        return items;
    }
    let mut items = Vec::new();
    for tt in tokens {
        if let TokenTree::Group(g) = tt {
            if g.delimiter() == proc_macro2::Delimiter::Brace {
                items.extend(items_in_tokens(g.stream()));
            }
        }
    }
    items
}

struct Items(Vec<syn::Item>);

impl Parse for Items {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut items = Vec::new();
        while !input.is_empty() {
            items.push(input.parse()?);
        }
        Ok(Items(items))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    struct Tree {
        dir: tempfile::TempDir,
    }

    impl Tree {
        fn new(files: &[&str]) -> Tree {
            let dir = tempfile::tempdir().unwrap();
            for f in files {
                let p = dir.path().join(f);
                fs::create_dir_all(p.parent().unwrap()).unwrap();
                fs::write(&p, "").unwrap();
            }
            Tree { dir }
        }

        fn path(&self, rel: &str) -> PathBuf {
            self.dir.path().join(rel)
        }

        /// Resolves the children of `rel` (written with `text`), as (relative path, exists, owns).
        fn children(&self, rel: &str, text: &str, owns: bool) -> Vec<(String, bool, bool)> {
            self.children_full(rel, text, owns)
                .into_iter()
                .map(|(c, _)| {
                    let p = c.path.strip_prefix(self.dir.path()).unwrap();
                    (
                        p.to_string_lossy().replace('\\', "/"),
                        c.exists,
                        c.owns_directory,
                    )
                })
                .collect()
        }

        fn children_full(&self, rel: &str, text: &str, owns: bool) -> Vec<(ChildModule, String)> {
            let path = self.path(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, text).unwrap();
            let ast = syn::parse_file(text).unwrap();
            let source = SourceFile::new(7, path, text.to_string());
            child_modules(&source, &ast, owns)
                .into_iter()
                .map(|c| {
                    let snippet = source.snippet(c.decl).to_string();
                    (c, snippet)
                })
                .collect()
        }
    }

    fn c(path: &str, exists: bool, owns: bool) -> (String, bool, bool) {
        (path.to_string(), exists, owns)
    }

    #[test]
    fn mod_rs_file_children_live_next_to_it() {
        let t = Tree::new(&["src/a.rs", "src/b/mod.rs"]);
        let got = t.children("src/lib.rs", "mod a;\npub mod b;\n", true);
        assert_eq!(
            got,
            vec![c("src/a.rs", true, false), c("src/b/mod.rs", true, true)]
        );

        let t = Tree::new(&["src/m/x.rs"]);
        let got = t.children("src/m/mod.rs", "mod x;", true);
        assert_eq!(got, vec![c("src/m/x.rs", true, false)]);
    }

    #[test]
    fn non_mod_rs_file_children_live_in_a_directory_named_after_it() {
        let t = Tree::new(&["src/foo/x.rs", "src/foo/y/mod.rs", "src/x.rs"]);
        let got = t.children("src/foo.rs", "mod x; mod y;", false);
        assert_eq!(
            got,
            vec![
                c("src/foo/x.rs", true, false),
                c("src/foo/y/mod.rs", true, true)
            ]
        );
    }

    #[test]
    fn file_rs_wins_over_mod_rs_when_both_exist() {
        let t = Tree::new(&["src/a.rs", "src/a/mod.rs"]);
        let got = t.children("src/lib.rs", "mod a;", true);
        assert_eq!(got, vec![c("src/a.rs", true, false)]);
    }

    #[test]
    fn inline_modules_add_directories() {
        let t = Tree::new(&["src/a/b/c.rs", "src/foo/a/c/mod.rs"]);
        let got = t.children("src/lib.rs", "mod a { pub mod b { mod c; } }", true);
        assert_eq!(got, vec![c("src/a/b/c.rs", true, false)]);
        let got = t.children("src/foo.rs", "mod a { mod c; }", false);
        assert_eq!(got, vec![c("src/foo/a/c/mod.rs", true, true)]);
    }

    #[test]
    fn path_attribute_outside_inline_modules_is_relative_to_the_files_directory() {
        let t = Tree::new(&["src/other/z.rs", "src/w.rs"]);
        let got = t.children(
            "src/foo.rs",
            "#[path = \"other/z.rs\"] mod z;\n#[path = \"w.rs\"] mod w;",
            false,
        );
        assert_eq!(
            got,
            vec![c("src/other/z.rs", true, true), c("src/w.rs", true, true)]
        );
        let got = t.children("src/lib.rs", "#[path = \"other/z.rs\"] mod z;", true);
        assert_eq!(got, vec![c("src/other/z.rs", true, true)]);
    }

    #[test]
    fn path_attribute_inside_inline_modules_is_relative_to_the_inline_directory() {
        let t = Tree::new(&["src/a/q.rs", "src/foo/a/b/q.rs"]);
        let got = t.children("src/lib.rs", "mod a { #[path = \"q.rs\"] mod q; }", true);
        assert_eq!(got, vec![c("src/a/q.rs", true, true)]);
        let got = t.children(
            "src/foo.rs",
            "mod a { mod b { #[path = \"q.rs\"] mod q; } }",
            false,
        );
        assert_eq!(got, vec![c("src/foo/a/b/q.rs", true, true)]);
    }

    #[test]
    fn path_attribute_on_an_inline_module_sets_its_directory() {
        let t = Tree::new(&["src/p/b.rs"]);
        let got = t.children("src/foo.rs", "#[path = \"p\"] mod a { mod b; }", false);
        assert_eq!(got, vec![c("src/p/b.rs", true, false)]);
    }

    #[test]
    fn missing_child_is_reported_with_the_first_candidate() {
        let t = Tree::new(&[]);
        let got = t.children("src/foo.rs", "mod x;\n#[path = \"nope.rs\"] mod y;", false);
        assert_eq!(
            got,
            vec![
                c("src/foo/x.rs", false, false),
                c("src/nope.rs", false, true)
            ]
        );
    }

    #[test]
    fn cfg_attr_path_alternatives_that_exist_are_followed() {
        let t = Tree::new(&["src/a.rs", "src/b.rs", "src/unix/mod.rs"]);
        let got = t.children(
            "src/lib.rs",
            "#[cfg(test)] mod a;\n\
             #[cfg_attr(unix, path = \"unix/mod.rs\")]\n\
             #[cfg_attr(windows, path = \"windows/mod.rs\")]\n\
             mod b;\n\
             #[cfg(windows)] mod only_windows;",
            true,
        );
        assert_eq!(
            got,
            vec![
                c("src/a.rs", true, false),
                c("src/unix/mod.rs", true, true),
                c("src/b.rs", true, false),
                c("src/only_windows.rs", false, false),
            ]
        );
        let missing = t.children_full("src/lib.rs", "#[cfg(windows)] mod only_windows;", true);
        assert!(
            missing[0].0.conditional,
            "a missing #[cfg] module is only a note"
        );
        let plain = t.children_full("src/lib.rs", "mod gone;", true);
        assert!(
            !plain[0].0.conditional,
            "a missing plain module is an error"
        );
    }

    #[test]
    fn raw_identifiers_name_files_without_the_prefix() {
        let t = Tree::new(&["src/type.rs"]);
        let got = t.children("src/lib.rs", "mod r#type;", true);
        assert_eq!(got, vec![c("src/type.rs", true, false)]);
    }

    #[test]
    fn modules_declared_inside_item_macros_are_found_when_they_exist() {
        let t = Tree::new(&["src/unix.rs", "src/api/mod.rs"]);
        let text =
            "cfg_if::cfg_if! {\n    if #[cfg(unix)] { mod unix; } else { mod windows; }\n}\n\
                    cfg_client! { pub mod api; }\n\
                    macro_rules! m { () => { mod generated; } }\n";
        let got = t.children("src/lib.rs", text, true);
        assert_eq!(
            got,
            vec![
                c("src/unix.rs", true, false),
                c("src/api/mod.rs", true, true)
            ]
        );
    }

    #[test]
    fn decl_span_covers_attributes_and_visibility_but_not_doc_comments() {
        let t = Tree::new(&["src/a.rs", "src/x.rs"]);
        let text = "\u{feff}mod a;\n/// docs\n#[path = \"x.rs\"]\npub(crate) mod é_b;\n";
        let got = t.children_full("src/lib.rs", text, true);
        let snippets: Vec<&str> = got.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(
            snippets,
            vec!["mod a;", "#[path = \"x.rs\"]\npub(crate) mod é_b;"]
        );
        assert_eq!(got[0].0.decl.file, 7);
    }
}
