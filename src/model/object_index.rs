//! Requests indexed by the object they touch, so that a lint compares a request only with those
//! that may touch the same object: thousands of requests on different literal names (generated
//! code, a `join!` of every object) would otherwise make every lint quadratic.

use std::borrow::Cow;
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

impl Request {
    /// The same request written at another place: everything but where it is (the span, and
    /// the line of the request call) is equal, so it touches the objects `self` touches and
    /// compares with every request as `self` does.
    pub fn alike(&self, other: &Request) -> bool {
        // Every field named, so that a new one is compared or left out knowingly.
        let Request {
            span: _,
            verb,
            handle,
            receiver,
            object,
            via,
            defined_at: _,
            written_at: _,
            keyed_by,
            in_channel_loop,
            resolution,
            may_create,
            cfg,
            name_from_get,
            name_from_list,
            listed,
            fetched,
            precondition,
            controller,
            left_running,
        } = self;
        *verb == other.verb
            && *handle == other.handle
            && *receiver == other.receiver
            && *object == other.object
            && *via == other.via
            && *keyed_by == other.keyed_by
            && *in_channel_loop == other.in_channel_loop
            && *resolution == other.resolution
            && *may_create == other.may_create
            && *cfg == other.cfg
            && *name_from_get == other.name_from_get
            && *name_from_list == other.name_from_list
            && *listed == other.listed
            && *fetched == other.fetched
            && *precondition == other.precondition
            && *controller == other.controller
            && *left_running == other.left_running
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
    /// order, each once: every item when one of the requests has no key. The index's own list
    /// when the requests have one key and every item has a key (a future compared with
    /// thousands of awaits of its object does not copy them).
    pub fn candidates<'r>(
        &self,
        requests: impl IntoIterator<Item = &'r Request>,
    ) -> Cow<'_, [usize]> {
        let keys: Vec<Option<&str>> = requests.into_iter().map(Request::object_key).collect();
        if keys.contains(&None) {
            return Cow::Owned((0..self.items).collect());
        }
        let of = |key: &str| self.by_key.get(key).map_or(&[][..], Vec::as_slice);
        if let (true, Some(Some(first))) = (self.unkeyed.is_empty(), keys.first()) {
            if keys.iter().all(|k| *k == Some(*first)) {
                return Cow::Borrowed(of(first));
            }
        }
        let mut out = self.unkeyed.clone();
        keys.iter().flatten().for_each(|key| out.extend(of(key)));
        out.sort_unstable();
        out.dedup();
        Cow::Owned(out)
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

    /// Copies differ only in where they are written; another verb or name is another request.
    #[test]
    fn alike_requests_differ_only_in_where_they_are() {
        let code = "async fn f(pods: Api<Pod>, dp: DeleteParams) {\n    pods.delete(\"a\", &dp).await;\n    pods.delete(\"a\", &dp).await;\n    pods.get(\"a\").await;\n    pods.delete(\"b\", &dp).await;\n}\n";
        let source = SourceFile::new(0, "lib.rs".into(), code.to_string());
        let file = syn::parse_file(code).unwrap();
        let facts = build::build(&source, &file);
        let model = link::link_single(0, &facts, "lib.rs");
        let r: Vec<&Request> = model.requests.iter().flatten().collect();
        assert_eq!(r.len(), 4);
        assert!(r[0].alike(r[1]) && r[1].alike(r[0]));
        assert!(!r[0].alike(r[2]) && !r[0].alike(r[3]));
        proc_macro2::extra::invalidate_current_thread_spans();
    }
}
