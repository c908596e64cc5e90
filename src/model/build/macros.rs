//! Macro invocations whose value is one of their arguments: `std::pin::pin!(fut)` is `fut`,
//! pinned. The argument is kept (re-parsed from the tokens, with their spans) so that
//! [`Builder::eval`] can follow the future through the invocation as through `Box::pin(fut)`.

use syn::Expr;

use super::Builder;

/// `pin!`, `std::pin::pin!`, `core::pin::pin!`: the pinned future is the argument. (`tokio::pin!`
/// and `futures::pin_mut!` pin a binding in place and have no value.)
fn is_pin_macro(path: &syn::Path) -> bool {
    let segs = crate::model::sites::segments(path);
    match segs.as_slice() {
        [one] => one == "pin",
        [root, module, name] => {
            (root == "std" || root == "core") && module == "pin" && name == "pin"
        }
        _ => false,
    }
}

impl Builder<'_> {
    /// Which argument of `mac` is its value, when one is.
    fn value_arg_index(&self, mac: &syn::Macro) -> Option<usize> {
        is_pin_macro(&mac.path).then_some(0)
    }

    /// Remember the argument that is `mac`'s value, from the arguments it parsed into.
    pub(super) fn note_macro_value(&mut self, mac: &syn::Macro, args: &[Option<Expr>]) {
        let Some(Some(arg)) = self.value_arg_index(mac).and_then(|i| args.get(i)) else {
            return;
        };
        let span = self.span(mac);
        self.macro_values
            .insert((span.start, span.end), arg.clone());
    }

    /// The argument that is `mac`'s value, when it was noted while visiting it.
    pub(super) fn macro_value(&self, mac: &syn::Macro) -> Option<&Expr> {
        let span = self.span(mac);
        self.macro_values.get(&(span.start, span.end))
    }
}
