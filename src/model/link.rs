//! Linking the files of one crate: receivers that were not visibly `Api` handles in their own file
//! (fields, helper return values) are resolved against item facts from every file.

use std::collections::HashMap;

use super::{FileFacts, FileModel, Handle, HandleSource, ItemIndex, Namespace, Request};
use crate::source::FileId;

/// Item facts of every file of a crate, by name.
#[derive(Debug, Default)]
pub struct CrateIndex {
    /// Field name → kinds declared for fields of that name with an `Api<K>` type.
    api_fields: HashMap<String, Vec<Option<String>>>,
    /// Function or method name → kinds of the `Api<K>` it returns.
    api_fns: HashMap<String, Vec<Option<String>>>,
}

impl CrateIndex {
    pub fn add(&mut self, items: &ItemIndex) {
        for (field, kind) in &items.api_fields {
            self.api_fields
                .entry(field.clone())
                .or_default()
                .push(kind.clone());
        }
        for (name, kind) in &items.api_returning_fns {
            self.api_fns
                .entry(name.clone())
                .or_default()
                .push(kind.clone());
        }
    }

    /// One kind when every declaration agrees, None (unknown) when they differ.
    fn kind(decls: &[Option<String>]) -> Option<String> {
        let first = decls.first()?.clone();
        decls.iter().all(|k| *k == first).then_some(first).flatten()
    }

    pub fn resolve(&self, source: &HandleSource) -> Option<Handle> {
        let (decls, origin) = match source {
            HandleSource::Known(h) => return Some(h.clone()),
            HandleSource::Field { field, origin } => (self.api_fields.get(field)?, origin),
            HandleSource::Returned { name, origin } => (self.api_fns.get(name)?, origin),
        };
        Some(Handle {
            kind: Self::kind(decls),
            namespace: Namespace::Unknown,
            origin: origin.clone(),
        })
    }
}

/// Resolve one file's raw facts into its model.
pub fn link(file: FileId, facts: FileFacts, index: &CrateIndex) -> FileModel {
    let requests = facts
        .requests
        .into_iter()
        .map(|raw| {
            index.resolve(&raw.source).map(|handle| Request {
                span: raw.span,
                verb: raw.verb,
                handle,
                receiver: raw.receiver,
                object: raw.object,
            })
        })
        .collect();
    FileModel {
        file,
        requests,
        sites: facts.sites,
    }
}
