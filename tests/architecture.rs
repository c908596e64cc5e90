//! The crate's modules form layers with no cycles, in the order docs/architecture.md gives
//! under "## Layers".
//!
//! Every `src/**/*.rs` file is parsed with syn and each `crate::…` or `super::…` path in it
//! (in `use` items and in expressions, types and patterns) becomes an edge from the file's module
//! to the module the path names. Code under `#[cfg(test)]` is left out: a unit test may drive
//! the whole pipeline to test a small part. Doc comments are not paths and are left out too.
//!
//! Cycles are looked for among the children of every module (the crate's top-level modules, the
//! submodules of `cli`, of `model`, …), each child standing for itself and everything below it.
//! An edge from a child to its own parent is not counted: a parent declares its children, so a
//! child using its parent's items is how Rust modules work.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module path below the crate root: `["model", "build", "flow"]`; empty for the root.
type ModulePath = Vec<String>;

/// The absolute paths a file names, each with the place (`file:line`) that names it.
type NamedPaths = Vec<(Vec<String>, String)>;

/// Which modules each module uses, as found in its source.
struct Graph {
    modules: BTreeSet<ModulePath>,
    /// module → (used module → one place that uses it, for the failure message).
    uses: BTreeMap<ModulePath, BTreeMap<ModulePath, String>>,
}

fn crate_graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect_rs(&src, &mut files);
    let mut modules = BTreeSet::new();
    let mut raw: Vec<(ModulePath, NamedPaths)> = Vec::new();
    for file in files {
        let Some(module) = module_of(&src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        let ast = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", file.display()));
        let mut paths = PathCollector {
            module: module.clone(),
            file: file.strip_prefix(&src).unwrap().display().to_string(),
            found: Vec::new(),
        };
        paths.visit_file(&ast);
        modules.insert(module.clone());
        raw.push((module, paths.found));
    }
    let mut uses: BTreeMap<ModulePath, BTreeMap<ModulePath, String>> = BTreeMap::new();
    for (module, found) in raw {
        for (path, place) in found {
            let target = longest_module_prefix(&modules, &path);
            if target != module {
                uses.entry(module.clone())
                    .or_default()
                    .entry(target)
                    .or_insert(place);
            }
        }
    }
    Graph { modules, uses }
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file defines; None for the binaries (`main.rs`, `bin/`), which use the crate
/// from outside as `kube_order_lint::…`.
fn module_of(src: &Path, file: &Path) -> Option<ModulePath> {
    let relative = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts[0] == "bin" || parts == ["main.rs"] {
        return None;
    }
    let last = parts.pop().unwrap();
    let stem = last.strip_suffix(".rs").unwrap();
    if stem != "mod" && !(parts.is_empty() && stem == "lib") {
        parts.push(stem.to_string());
    }
    Some(parts)
}

fn longest_module_prefix(modules: &BTreeSet<ModulePath>, path: &[String]) -> ModulePath {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|prefix| modules.contains(prefix))
        .unwrap_or_default()
}

/// The absolute module paths a file names through `crate::` and `super::`.
struct PathCollector {
    module: ModulePath,
    file: String,
    found: NamedPaths,
}

impl PathCollector {
    /// `segments` as written; kept only when it starts at `crate` or `super`.
    fn add(&mut self, segments: Vec<String>, line: usize) {
        let mut absolute = match segments.first().map(String::as_str) {
            Some("crate") => Vec::new(),
            Some("super") => self.module.clone(),
            _ => return,
        };
        let mut rest = &segments[..];
        if rest[0] == "crate" {
            rest = &rest[1..];
        }
        while rest.first().is_some_and(|s| s == "super") {
            absolute.pop();
            rest = &rest[1..];
        }
        absolute.extend(rest.iter().cloned());
        self.found.push((absolute, format!("{}:{line}", self.file)));
    }

    fn use_tree(&mut self, prefix: Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                let mut prefix = prefix;
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
            }
            syn::UseTree::Name(n) => {
                let mut path = prefix;
                if n.ident != "self" {
                    path.push(n.ident.to_string());
                }
                self.add(path, n.ident.span().start().line);
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix;
                path.push(r.ident.to_string());
                self.add(path, r.ident.span().start().line);
            }
            syn::UseTree::Glob(g) => {
                self.add(prefix, g.star_token.spans[0].start().line);
            }
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix.clone(), tree);
                }
            }
        }
    }
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

impl<'ast> Visit<'ast> for PathCollector {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Impl(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if is_cfg_test(attrs) {
            return;
        }
        // `super` in an inline module (`mod exit { … }`) is the file's module.
        if let syn::Item::Mod(m) = item {
            self.module.push(m.ident.to_string());
            syn::visit::visit_item(self, item);
            self.module.pop();
        } else {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let line = path.segments[0].ident.span().start().line;
        self.add(segments, line);
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // Macro bodies are token streams: a `crate::` path in `format!` or `matches!` counts too.
        let tokens: Vec<proc_macro2::TokenTree> = mac.tokens.clone().into_iter().collect();
        self.macro_tokens(&tokens);
        syn::visit::visit_macro(self, mac);
    }
}

impl PathCollector {
    fn macro_tokens(&mut self, tokens: &[proc_macro2::TokenTree]) {
        use proc_macro2::TokenTree;
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Group(g) => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    self.macro_tokens(&inner);
                }
                TokenTree::Ident(id) if id == "crate" || id == "super" => {
                    let line = id.span().start().line;
                    let mut segments = vec![id.to_string()];
                    let mut j = i + 1;
                    while let (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) =
                        (tokens.get(j), tokens.get(j + 1))
                    {
                        let Some(TokenTree::Ident(next)) = tokens.get(j + 2) else {
                            break;
                        };
                        if a.as_char() != ':' || b.as_char() != ':' {
                            break;
                        }
                        segments.push(next.to_string());
                        j += 3;
                    }
                    self.add(segments, line);
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// For each module with children: its children and the edges among them, each child standing
/// for its whole subtree.
fn sibling_graphs(
    graph: &Graph,
) -> BTreeMap<ModulePath, BTreeMap<String, BTreeMap<String, String>>> {
    let mut out: BTreeMap<ModulePath, BTreeMap<String, BTreeMap<String, String>>> = BTreeMap::new();
    for module in &graph.modules {
        if let Some((child, parent)) = module.split_last() {
            out.entry(parent.to_vec())
                .or_default()
                .entry(child.clone())
                .or_default();
        }
    }
    for (from, targets) in &graph.uses {
        for (to, place) in targets {
            // The common ancestor, and the children of it on each side.
            let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
            let (Some(a), Some(b)) = (from.get(common), to.get(common)) else {
                continue; // one is an ancestor of the other
            };
            let parent = from[..common].to_vec();
            out.entry(parent)
                .or_default()
                .entry(a.clone())
                .or_default()
                .entry(b.clone())
                .or_insert_with(|| format!("{} uses {} ({place})", show(from), show(to)));
        }
    }
    out
}

fn show(module: &[String]) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.join("::")
    }
}

/// The groups of nodes that reach each other (strongly connected components) with more than one
/// node: each is one cycle or several.
fn cycles(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(node) = todo.pop() {
            for next in edges.get(&node).into_iter().flat_map(|t| t.keys()) {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|n| (n, reach(n))).collect();
    let mut groups: Vec<BTreeSet<String>> = Vec::new();
    for (node, from_node) in &reached {
        let group: BTreeSet<String> = from_node
            .iter()
            .filter(|other| reached.get(other).is_some_and(|r| r.contains(*node)))
            .cloned()
            .collect();
        if group.len() > 1 && !groups.contains(&group) {
            groups.push(group);
        }
    }
    groups
}

#[test]
fn no_module_uses_itself_through_others() {
    let graph = crate_graph();
    let mut found = Vec::new();
    for (parent, edges) in sibling_graphs(&graph) {
        for group in cycles(&edges) {
            let mut text = format!("cycle among the children of {}:", show(&parent));
            for from in &group {
                for (to, why) in &edges[from] {
                    if group.contains(to) {
                        text.push_str(&format!("\n  {why}"));
                    }
                }
            }
            found.push(text);
        }
    }
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

/// The layers as docs/architecture.md lists them, top first: the first code block after
/// `## Layers`, one layer a line, its modules before the first double space, comma-separated.
fn documented_layers() -> Vec<Vec<String>> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .unwrap();
    let section = doc
        .split("\n## Layers\n")
        .nth(1)
        .expect("docs/architecture.md has a section ## Layers");
    let block = section
        .split("```")
        .nth(1)
        .expect("## Layers has a code block");
    block
        .lines()
        .skip(1) // the rest of the opening fence's line
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let names = l.split("  ").next().unwrap_or_default();
            names.split(',').map(|n| n.trim().to_string()).collect()
        })
        .collect()
}

#[test]
fn modules_use_only_their_own_layer_and_the_layers_below() {
    let graph = crate_graph();
    let layers = documented_layers();
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, names)| names.iter().map(move |n| (n.as_str(), i)))
        .collect();
    let top_level: BTreeSet<&str> = graph
        .modules
        .iter()
        .filter(|m| m.len() == 1)
        .map(|m| m[0].as_str())
        .collect();
    let documented: BTreeSet<&str> = layer_of.keys().copied().collect();
    assert_eq!(
        documented, top_level,
        "docs/architecture.md's ## Layers must list every top-level module once"
    );
    let mut upward = Vec::new();
    for (from, targets) in &graph.uses {
        let Some(a) = from.first() else { continue };
        for (to, place) in targets {
            let Some(b) = to.first() else { continue };
            // Layers are listed top first: a smaller index is a higher layer.
            if layer_of[b.as_str()] < layer_of[a.as_str()] {
                upward.push(format!("{} uses {} ({place})", show(from), show(to)));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "modules using a layer above their own (docs/architecture.md, ## Layers):\n  {}",
        upward.join("\n  ")
    );
}

/// The longest a source file may be, in lines (issue 29): past it, no one holds a file in
/// their head, and a newcomer cannot find "how X is done" by a file's name.
const MAX_FILE_LINES: usize = 1500;

/// The longest a function may be, in lines from its `fn` to its closing brace: a screen or two.
const MAX_FUNCTION_LINES: usize = 150;

/// The Rust sources the project ships: the tool's `src/`, the lintcheck's and the test layer's,
/// and the examples. Tests are left out (a fixture table may be long).
fn shipped_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "lintcheck/src", "kube-order-test/src", "examples"] {
        if root.join(dir).is_dir() {
            collect_rs(&root.join(dir), &mut files);
        }
    }
    files
}

fn relative(file: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    file.strip_prefix(root).unwrap().display().to_string()
}

#[test]
fn no_source_file_is_longer_than_the_limit() {
    let long: Vec<String> = shipped_sources()
        .iter()
        .filter_map(|file| {
            let lines = std::fs::read_to_string(file).unwrap().lines().count();
            (lines > MAX_FILE_LINES).then(|| format!("{} ({lines} lines)", relative(file)))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines (split them by what they know; docs/architecture.md):\n  {}",
        long.join("\n  ")
    );
}

/// Functions longer than the limit, outside unit tests, each as `file:line name (n lines)`.
struct LongFunctions {
    file: String,
    found: Vec<String>,
}

impl LongFunctions {
    fn check(&mut self, name: &syn::Ident, node: &dyn syn::spanned::Spanned) {
        let span = node.span();
        let lines = span.end().line - span.start().line + 1;
        if lines > MAX_FUNCTION_LINES {
            self.found.push(format!(
                "{}:{} {name} ({lines} lines)",
                self.file,
                span.start().line
            ));
        }
    }
}

impl<'ast> Visit<'ast> for LongFunctions {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_cfg_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.check(&f.sig.ident, f);
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.check(&f.sig.ident, f);
        syn::visit::visit_impl_item_fn(self, f);
    }
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.check(&f.sig.ident, f);
        syn::visit::visit_trait_item_fn(self, f);
    }
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let mut found = Vec::new();
    for file in shipped_sources() {
        let text = std::fs::read_to_string(&file).unwrap();
        let ast = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", file.display()));
        let mut long = LongFunctions {
            file: relative(&file),
            found: Vec::new(),
        };
        long.visit_file(&ast);
        found.extend(long.found);
    }
    assert!(
        found.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (split them into named steps):\n  {}",
        found.join("\n  ")
    );
}
