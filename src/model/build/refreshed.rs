//! A `resourceVersion` copied from a fresh read into an older body (see
//! [`Precondition::Refreshed`]): `let fresh = api.get_status(n).await?;
//! self.obj.metadata.resource_version = fresh.metadata.resource_version;
//! api.replace_status(n, &pp, serde_json::to_vec(&self.obj)?)`. The fresh version guards only the
//! time between the two requests; what another writer wrote before the read is overwritten with
//! the older copy's fields. A body that is the fresh object itself, or a copy of it, carries its
//! own version and stays guarded. Only a body with positive evidence of being older than the
//! read is told apart: an object kept in a field, a parameter (handed in before the read), or a
//! local holding an earlier read (or a copy of one of these, `let mut body = self.obj.clone()`).
//! A body built otherwise (a struct literal, a function's result) is read as before, guarded.

use quote::ToTokens;
use syn::Expr;

use super::{ident_in, member_is, same_object, strip, Builder};
use crate::model::{NameExpr, ObjectName, Precondition, RawKind};

/// What a local holds, for telling a body older than a read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Held {
    /// The object a `get` answered (this entry of the file's requests), or a copy of it.
    Read(usize),
    /// A parameter of the function the local is in, or a copy of one or of an object kept in a
    /// field (`let mut body = self.obj.clone()`): there before any read the function makes.
    Older,
}

/// Where a copied `resourceVersion` goes: a local, or an object kept in a field.
enum Target {
    Local(u64),
    Field(String),
}

impl Builder<'_> {
    /// `let fresh = api.get(n).await?` (or a copy of such a local, `let body = fresh.clone()`):
    /// the local holds the object as that read answered it.
    pub(super) fn note_fresh_read(&mut self, id: u64, init: &Expr) {
        let held = match super::precondition::awaited_get(init) {
            Some(get) => {
                let span = self.span(get);
                self.entry_by_span
                    .get(&(span.start, span.end))
                    .map(|&read| Held::Read(read))
            }
            None => match same_object(init) {
                f @ Expr::Field(_) if self.is_stored_object(f) => Some(Held::Older),
                e => self.path_binding(e).and_then(|b| self.held(b)),
            },
        };
        if let Some(held) = held {
            self.fresh_reads.insert(id, held);
        }
    }

    /// What a local holds: a read (or a copy of one), or an object older than the function's
    /// reads (a parameter, an object kept in a field, or a copy of either).
    fn held(&self, id: u64) -> Option<Held> {
        if let Some(&held) = self.fresh_reads.get(&id) {
            return Some(held);
        }
        let function = self.functions.last().map(|&f| &self.facts.functions[f])?;
        function.params.contains(&Some(id)).then_some(Held::Older)
    }

    /// `body.metadata.resource_version = fresh.metadata.resource_version.clone();` (also through
    /// `body.meta_mut()`, and from `fresh.resource_version()`): when `fresh` holds a read and
    /// `body` is not that read or a copy of it, the version is refreshed, not the body's own.
    /// Returns false when the assignment is not such a copy (the caller reads it as before).
    pub(super) fn note_version_refreshed(&mut self, field: &syn::ExprField, value: &Expr) -> bool {
        if !member_is(&field.member, "resource_version") {
            return false;
        }
        let object = match strip(&field.base) {
            Expr::Field(meta) if member_is(&meta.member, "metadata") => &meta.base,
            Expr::MethodCall(m) if m.args.is_empty() && m.method == "meta_mut" => &m.receiver,
            _ => return false,
        };
        let Some(Held::Read(read)) = self.version_source(value).and_then(|b| self.held(b)) else {
            return false;
        };
        let target = match strip(object) {
            Expr::Path(_) => match self.path_binding(strip(object)) {
                Some(id) => Target::Local(id),
                None => return false,
            },
            f @ Expr::Field(_) => Target::Field(f.to_token_stream().to_string()),
            _ => return false,
        };
        match target {
            Target::Local(id) => {
                // Older than the read: a parameter, a field's copy, or an earlier read. The read
                // itself (a copy of it), a later one or a body built otherwise are read as before.
                match self.held(id) {
                    Some(Held::Older) => {}
                    Some(Held::Read(earlier)) if earlier < read => {}
                    _ => return false,
                }
                self.body_preconditions
                    .insert(id, Precondition::Refreshed(read));
            }
            Target::Field(path) => {
                let function = self.functions.last().copied();
                self.field_preconditions
                    .insert((function, path), Precondition::Refreshed(read));
            }
        }
        true
    }

    /// What a field body carries when a fresh version was copied into it in this function.
    pub(super) fn field_precondition(&self, field: &Expr) -> Option<Precondition> {
        if self.unrefreshed.get() {
            return None;
        }
        let key = (
            self.functions.last().copied(),
            field.to_token_stream().to_string(),
        );
        self.field_preconditions.get(&key).copied()
    }

    /// A local's precondition as recorded, a refreshed one read as before it was told apart
    /// (a `resourceVersion` given, so guarded) while the read is of another object.
    pub(super) fn recorded_precondition(&self, p: Precondition) -> Precondition {
        match p {
            Precondition::Refreshed(_) if self.unrefreshed.get() => Precondition::ResourceVersion,
            p => p,
        }
    }

    /// The precondition of a write's body: a version refreshed from a read of the same object
    /// (same receiver, same name) stays refreshed; from a read of another object (or one whose
    /// name is not known) it is no evidence either way, and the body reads as before the copy
    /// was told apart.
    pub(super) fn write_precondition(
        &self,
        body: &Expr,
        receiver: &str,
        object: &ObjectName,
    ) -> Precondition {
        match self.precondition_of(body) {
            Precondition::Refreshed(read) if !self.reads_written(read, receiver, object) => {
                self.unrefreshed.set(true);
                let p = self.precondition_of(body);
                self.unrefreshed.set(false);
                p
            }
            p => p,
        }
    }

    /// Whether the read at entry `read` is of the object a write through `receiver` names.
    fn reads_written(&self, read: usize, receiver: &str, object: &ObjectName) -> bool {
        let Some(RawKind::Api(get)) = self.facts.requests.get(read).map(|r| &r.kind) else {
            return false;
        };
        match (&get.object, object) {
            (ObjectName::One { name: a, .. }, ObjectName::One { name: b, .. }) => {
                get.receiver == receiver && a == b && *b != NameExpr::Unknown
            }
            _ => false,
        }
    }

    /// The local whose version a value is: `fresh.metadata.resource_version`,
    /// `fresh.meta().resource_version`, `fresh.resource_version()`, through `.clone()`.
    fn version_source(&self, value: &Expr) -> Option<u64> {
        let object = match same_object(value) {
            Expr::Field(f) if member_is(&f.member, "resource_version") => match strip(&f.base) {
                Expr::Field(meta) if member_is(&meta.member, "metadata") => &meta.base,
                Expr::MethodCall(m) if m.args.is_empty() && m.method == "meta" => &m.receiver,
                _ => return None,
            },
            Expr::MethodCall(m)
                if m.args.is_empty() && ident_in(&m.method, &["resource_version"]) =>
            {
                &m.receiver
            }
            _ => return None,
        };
        self.path_binding(strip(object))
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{build, Precondition, RawKind};
    use crate::source::SourceFile;

    /// The precondition of the `replace_status` made by `statements`, the body of a method of a
    /// struct keeping a Deployment in `obj`, handed the `api` and an `old` Deployment.
    fn written(statements: &str) -> Precondition {
        let text = format!(
            "use k8s_openapi::api::apps::v1::Deployment;\nuse kube::api::{{Api, PostParams}};\nstruct T {{ obj: Deployment }}\n\
             impl T {{ async fn w(&mut self, api: Api<Deployment>, old: Deployment, n: String) -> anyhow::Result<()> {{ {statements} Ok(()) }} }}"
        );
        let file = syn::parse_file(&text).expect("parses");
        let facts = build::build(&SourceFile::new(0, "f.rs".into(), text), &file);
        facts
            .requests
            .iter()
            .find_map(|r| match &r.kind {
                RawKind::Api(c) if c.verb.method == "replace_status" => Some(c.precondition),
                _ => None,
            })
            .expect("a replace_status")
    }

    const WRITE: &str =
        "api.replace_status(&n, &PostParams::default(), serde_json::to_vec(&body)?).await?;";

    fn refreshed(p: Precondition) -> bool {
        matches!(p, Precondition::Refreshed(_))
    }

    #[test]
    fn a_fresh_version_copied_into_an_older_body_is_refreshed() {
        // Into a field, into a parameter's copy (also through `meta_mut()`), into an earlier read.
        assert!(refreshed(written(
            "let fresh = api.get_status(&n).await?; self.obj.metadata.resource_version = fresh.metadata.resource_version.clone(); api.replace_status(&n, &PostParams::default(), serde_json::to_vec(&self.obj)?).await?;"
        )));
        assert!(refreshed(written(&format!(
            "let fresh = api.get_status(&n).await?; let mut body = old; body.meta_mut().resource_version = fresh.resource_version(); {WRITE}"
        ))));
        assert!(refreshed(written(&format!(
            "let mut body = api.get(&n).await?; let fresh = api.get(&n).await?; body.metadata.resource_version = fresh.metadata.resource_version; {WRITE}"
        ))));
        assert!(refreshed(written(&format!(
            "let mut body = self.obj.clone(); let fresh = api.get_status(&n).await?; body.metadata.resource_version = fresh.metadata.resource_version.clone(); {WRITE}"
        ))));
    }

    #[test]
    fn a_body_carrying_its_own_version_or_one_of_no_known_read_is_guarded() {
        // The fresh object itself, a copy of it, a body built here: guarded as before.
        for statements in [
            format!("let mut body = api.get_status(&n).await?; body.status = None; {WRITE}"),
            format!("let fresh = api.get_status(&n).await?; let mut body = fresh.clone(); body.metadata.resource_version = fresh.metadata.resource_version.clone(); {WRITE}"),
            format!("let fresh = api.get_status(&n).await?; let mut body = Deployment::default(); body.metadata.resource_version = fresh.metadata.resource_version; {WRITE}"),
            // The version of a parameter (no read seen), and of a read of another object.
            format!("let mut body = self.obj.clone(); body.metadata.resource_version = old.metadata.resource_version; {WRITE}"),
            format!("let other = api.get_status(\"x\").await?; let mut body = old; body.metadata.resource_version = other.metadata.resource_version; {WRITE}"),
        ] {
            assert_eq!(written(&statements), Precondition::ResourceVersion, "{statements}");
        }
        // A field given the version of another object's read: as before, a stored object.
        assert_eq!(
            written("let other = api.get_status(\"x\").await?; self.obj.metadata.resource_version = other.metadata.resource_version; api.replace_status(&n, &PostParams::default(), serde_json::to_vec(&self.obj)?).await?;"),
            Precondition::Stored
        );
    }
}
