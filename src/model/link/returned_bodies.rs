//! Write bodies a crate function builds (`Patch::Merge(lease_patch(record))`, `lease_patch`'s
//! tail `json!({"metadata": {"resourceVersion": ..}, ..})`): guarded as the function's tail is
//! (see [`Precondition::Returned`]).

use super::callees::resolution_of;
use super::{Linker, MAX_DEPTH};
use crate::model::{Precondition, RawKind, Resolution};

impl Linker<'_> {
    /// A precondition with a body returned by a call of the file at `pos` resolved: guarded or
    /// not. Others are kept (a parameter is resolved through the callers).
    pub(super) fn resolve_returned_body(&self, pos: usize, p: Precondition) -> Precondition {
        match p {
            Precondition::Returned(entry) if self.returns_guarded_body(pos, entry, 0) => {
                Precondition::ResourceVersion
            }
            Precondition::Returned(_) => Precondition::None,
            p => p,
        }
    }

    /// Whether the call at `entry` of the file at `pos` returns a body carrying a
    /// `resourceVersion`: the crate function it resolves to by type (a method found by its
    /// name alone may be another type's) returns one, written in its tail or returned to it by
    /// another such call.
    pub(super) fn returns_guarded_body(&self, pos: usize, entry: usize, depth: usize) -> bool {
        let Some(raw) = self.shared.facts(pos).requests.get(entry) else {
            return false;
        };
        let RawKind::Helper(call) = &raw.kind else {
            return false;
        };
        if depth >= MAX_DEPTH
            || resolution_of(call, self.receiver_type(pos, call, 0).is_some()) != Resolution::Typed
        {
            return false;
        }
        let Some((cpos, k)) = self.resolve_callee(pos, raw, call) else {
            return false;
        };
        match self.shared.facts(cpos).functions[k].returned_body {
            Precondition::ResourceVersion | Precondition::Refreshed(_) => true,
            Precondition::Returned(inner) => self.returns_guarded_body(cpos, inner, depth + 1),
            Precondition::None
            | Precondition::Param(_)
            | Precondition::Cleared
            | Precondition::Stored => false,
        }
    }
}
