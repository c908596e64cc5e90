//! Items that a suppression comment can cover as a whole: functions, methods, impls, traits,
//! inline modules, and the file itself (its module).
//!
//! A suppression comment covers an item when it sits in the item's *head*: the stretch between
//! the opening brace of its body and its first statement or item (for a file: from the start of
//! the file to its first item). See [`crate::suppression`].

use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::source::{SourceFile, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    File,
    Module,
    Function,
    Impl,
    Trait,
}

impl ScopeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ScopeKind::File => "file",
            ScopeKind::Module => "module",
            ScopeKind::Function => "function",
            ScopeKind::Impl => "impl",
            ScopeKind::Trait => "trait",
        }
    }
}

/// An item that a suppression comment in its head covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    pub kind: ScopeKind,
    /// The whole item (for a file: the whole text).
    pub item: Span,
    /// Where a suppression comment must start to cover the item: from just after the opening
    /// brace to the start of the first statement or item (or the closing brace).
    pub head: Span,
}

/// Every scope of a file, outermost first.
pub fn scopes(source: &SourceFile, file: &syn::File) -> Vec<Scope> {
    let mut collector = Collector {
        source,
        comments: comments(&source.text),
        out: Vec::new(),
    };
    let first = file
        .items
        .first()
        .map(|i| collector.start(i.span()))
        .unwrap_or(source.text.len());
    collector.out.push(Scope {
        kind: ScopeKind::File,
        item: Span {
            file: source.id,
            start: 0,
            end: source.text.len(),
        },
        head: Span {
            file: source.id,
            start: 0,
            end: first,
        },
    });
    collector.visit_file(file);
    collector.out
}

struct Collector<'a> {
    source: &'a SourceFile,
    /// The comments of the file, in order, each with whether it is an outer doc comment
    /// (`///`, `/** */`).
    comments: Vec<(std::ops::Range<usize>, bool)>,
    out: Vec<Scope>,
}

/// The file's comments; outer doc comments document the item after them.
fn comments(text: &str) -> Vec<(std::ops::Range<usize>, bool)> {
    crate::prefilter::non_code_ranges(text.as_bytes())
        .into_iter()
        .filter(|r| text.as_bytes()[r.start] == b'/')
        .map(|r| {
            let c = &text.as_bytes()[r.clone()];
            let doc = (c.starts_with(b"///") && !c.starts_with(b"////"))
                || (c.starts_with(b"/**") && !c.starts_with(b"/***") && !c.starts_with(b"/**/"));
            (r, doc)
        })
        .collect()
}

impl Collector<'_> {
    /// Where the node of `span` starts, its doc comments included: they are its attributes
    /// (the parser reads them as plain comments, see `parse::prepare`).
    fn start(&self, span: proc_macro2::Span) -> usize {
        let s = span.start();
        let mut start = self.source.offset_of(s.line, s.column);
        let text = self.source.text.as_bytes();
        // Back over the comments right before it (only white space between): it starts at the
        // first doc comment among them; plain comments between doc comments are inside.
        let mut reached = start;
        let mut i = self.comments.partition_point(|(r, _)| r.end <= start);
        while let Some((comment, doc)) = i.checked_sub(1).map(|k| &self.comments[k]) {
            if !text[comment.end..reached]
                .iter()
                .all(u8::is_ascii_whitespace)
            {
                break;
            }
            reached = comment.start;
            if *doc {
                start = comment.start;
            }
            i -= 1;
        }
        start
    }

    fn end(&self, span: proc_macro2::Span) -> usize {
        let e = span.end();
        self.source.offset_of(e.line, e.column)
    }

    /// Record an item whose body is delimited by `brace`, with `first` the span of the first
    /// statement or item inside it.
    fn push(
        &mut self,
        kind: ScopeKind,
        item: proc_macro2::Span,
        brace: &syn::token::Brace,
        first: Option<proc_macro2::Span>,
    ) {
        let open = brace.span.open();
        let head_start = self.end(open);
        let head_end = match first {
            Some(span) => self.start(span),
            None => self.start(brace.span.close()),
        };
        let file = self.source.id;
        self.out.push(Scope {
            kind,
            item: Span {
                file,
                start: self.start(item),
                end: self.end(item),
            },
            head: Span {
                file,
                start: head_start,
                end: head_end.max(head_start),
            },
        });
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_fn(&mut self, node: &'ast syn::ItemFn) {
        let first = node.block.stmts.first().map(Spanned::span);
        self.push(
            ScopeKind::Function,
            node.span(),
            &node.block.brace_token,
            first,
        );
        syn::visit::visit_item_fn(self, node);
    }

    fn visit_impl_item_fn(&mut self, node: &'ast syn::ImplItemFn) {
        let first = node.block.stmts.first().map(Spanned::span);
        self.push(
            ScopeKind::Function,
            node.span(),
            &node.block.brace_token,
            first,
        );
        syn::visit::visit_impl_item_fn(self, node);
    }

    fn visit_trait_item_fn(&mut self, node: &'ast syn::TraitItemFn) {
        if let Some(block) = &node.default {
            let first = block.stmts.first().map(Spanned::span);
            self.push(ScopeKind::Function, node.span(), &block.brace_token, first);
        }
        syn::visit::visit_trait_item_fn(self, node);
    }

    fn visit_item_impl(&mut self, node: &'ast syn::ItemImpl) {
        let first = node.items.first().map(Spanned::span);
        self.push(ScopeKind::Impl, node.span(), &node.brace_token, first);
        syn::visit::visit_item_impl(self, node);
    }

    fn visit_item_trait(&mut self, node: &'ast syn::ItemTrait) {
        let first = node.items.first().map(Spanned::span);
        self.push(ScopeKind::Trait, node.span(), &node.brace_token, first);
        syn::visit::visit_item_trait(self, node);
    }

    fn visit_item_mod(&mut self, node: &'ast syn::ItemMod) {
        if let Some((brace, items)) = &node.content {
            let first = items.first().map(Spanned::span);
            self.push(ScopeKind::Module, node.span(), brace, first);
        }
        syn::visit::visit_item_mod(self, node);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heads(text: &str) -> Vec<(ScopeKind, String, String)> {
        let source = SourceFile::new(0, "a.rs".into(), text.to_string());
        // As the run parses: doc comments read as plain comments.
        let file = crate::parse::parse_file(text).unwrap();
        let out = scopes(&source, &file)
            .into_iter()
            .map(|s| {
                (
                    s.kind,
                    source.snippet(s.head).trim().to_string(),
                    source
                        .snippet(s.item)
                        .lines()
                        .next()
                        .unwrap_or("")
                        .to_string(),
                )
            })
            .collect();
        proc_macro2::extra::invalidate_current_thread_spans();
        out
    }

    #[test]
    fn an_item_starts_at_its_doc_comments() {
        let text = "//! crate\n/// first\n// kube-order-lint: allow(x)\n/** more */\nfn f() {\n    /// inner\n    fn g() {}\n}\n";
        let got = heads(text);
        // The comment between the doc comments and `fn f` is in `f`'s attributes, not in the
        // file's head.
        assert_eq!(got[0].1, "//! crate");
        assert_eq!(got[1].2, "/// first");
        assert_eq!(got[1].1, "");
        assert_eq!(got[2].2, "/// inner");
    }

    #[test]
    fn heads_run_from_the_brace_to_the_first_statement() {
        let text = "// file head\n#![allow(x)]\n\n/// doc\nfn f() { // on the brace line\n    // first line\n    let a = 1;\n}\nimpl S {\n    // impl head\n    fn g(&self) {}\n}\nmod m {\n    // mod head\n}\n";
        let got = heads(text);
        assert_eq!(
            got,
            vec![
                (
                    ScopeKind::File,
                    "// file head\n#![allow(x)]".to_string(),
                    "// file head".to_string()
                ),
                (
                    ScopeKind::Function,
                    "// on the brace line\n    // first line".to_string(),
                    "/// doc".to_string()
                ),
                (
                    ScopeKind::Impl,
                    "// impl head".to_string(),
                    "impl S {".to_string()
                ),
                (
                    ScopeKind::Function,
                    String::new(),
                    "fn g(&self) {}".to_string()
                ),
                (
                    ScopeKind::Module,
                    "// mod head".to_string(),
                    "mod m {".to_string()
                ),
            ]
        );
    }
}
