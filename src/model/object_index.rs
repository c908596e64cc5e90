//! Requests indexed by the object they touch, so that a lint compares a request only with those
//! that may touch the same object: thousands of requests on different literal names (generated
//! code, a `join!` of every object) would otherwise make every lint quadratic.

use std::collections::HashMap;

use super::{NameExpr, ObjectName, Request};

impl Request {
    /// The literal name of the one object the request touches, when it is named by a literal.
    /// Two requests with different keys are never the same object ([`Request::same_object`]
    /// says None, whatever the handles, and so does [`Request::event_about`], which compares
    /// names alike), so an index by key finds every candidate.
    pub fn object_key(&self) -> Option<&str> {
        match &self.object {
            ObjectName::One {
                name: NameExpr::Literal(name),
                ..
            } => Some(name),
            _ => None,
        }
    }
}

/// Items (indices the caller chooses: spawns, operands, entries) by the object keys of their
/// requests.
#[derive(Debug, Default)]
pub struct ObjectIndex {
    by_key: HashMap<String, Vec<usize>>,
    /// Items with a request without a key: candidates for every request.
    unkeyed: Vec<usize>,
    items: usize,
}

impl ObjectIndex {
    /// Item `item` makes `request`.
    pub fn add(&mut self, item: usize, request: &Request) {
        match request.object_key() {
            Some(key) => self.by_key.entry(key.to_string()).or_default().push(item),
            None => self.unkeyed.push(item),
        }
        self.items = self.items.max(item + 1);
    }

    /// The items that may make a request on the object of one of `requests`, in increasing
    /// order, each once: every item when one of the requests has no key.
    pub fn candidates<'r>(&self, requests: impl IntoIterator<Item = &'r Request>) -> Vec<usize> {
        let mut out = self.unkeyed.clone();
        for r in requests {
            match r.object_key() {
                Some(key) => out.extend(self.by_key.get(key).into_iter().flatten()),
                None => return (0..self.items).collect(),
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{build, link};
    use crate::source::SourceFile;

    /// Every request of a file that names its object in many ways, with those requests whose
    /// object it is not ruled out that they touch.
    const CODE: &str = r#"
const NAME: &str = "a";
async fn f(pods: Api<Pod>, cms: Api<ConfigMap>, dp: DeleteParams, n: String, p: Pod) {
    pods.delete("a", &dp).await;
    pods.delete("b", &dp).await;
    cms.delete("a", &dp).await;
    pods.delete(NAME, &dp).await;
    pods.delete(&n, &dp).await;
    pods.delete(&format!("a{}", n), &dp).await;
    pods.delete(&p.name_any(), &dp).await;
    pods.list(&Default::default()).await;
    pods.get("a").await;
}
"#;

    /// The index leaves out only pairs that `same_object` rules out: what makes the lints that
    /// use it report what comparing every pair reported.
    #[test]
    fn candidates_hold_every_request_that_may_touch_the_object() {
        let source = SourceFile::new(0, "lib.rs".into(), CODE.to_string());
        let file = syn::parse_file(CODE).unwrap();
        let facts = build::build(&source, &file);
        let model = link::link_single(0, &facts, "lib.rs");
        let requests: Vec<&Request> = model.requests.iter().flatten().collect();
        assert_eq!(requests.len(), 9);
        let mut index = ObjectIndex::default();
        requests
            .iter()
            .enumerate()
            .for_each(|(i, r)| index.add(i, r));
        let mut left_out = 0;
        for a in &requests {
            let candidates = index.candidates([*a]);
            for (j, b) in requests.iter().enumerate() {
                if a.same_object(b).is_some() {
                    assert!(candidates.contains(&j), "{a:?} {b:?}");
                }
                left_out += usize::from(!candidates.contains(&j));
            }
        }
        // Four requests name "a" (one through the const), one "b": told apart without a
        // comparison, both ways.
        assert_eq!(left_out, 8);
        proc_macro2::extra::invalidate_current_thread_spans();
    }
}
