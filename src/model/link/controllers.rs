//! A controller handed to functions before its `run` (`setup_watches(Controller::new(..),
//! client).run(..)`, see [`ControllerRun::through`]): what the functions the calls resolve to do
//! to it. A function of the crate that returns the controller it is handed passes it on, with
//! its limit or the one its body sets; any other function returning a `Controller`, and one the
//! crate does not declare (a dependency's, whose body is not read), leave the limit unseen. A
//! `run` on what a crate function returning no `Controller` gives is not a controller's.

use std::borrow::Cow;

use super::{by_name_only, Linker};
use crate::model::{Callee, Concurrency, ControllerRun, HandedTo, RawKind, RawRequest};

/// A controller run once the functions its controller went through are followed.
pub(super) enum LinkedRun {
    /// Not a run handed through functions (or not a run at all): as built.
    AsBuilt,
    /// The run, with the limit the functions leave and `through` cleared.
    Run(Box<ControllerRun>),
    /// What `run` is called on is what a crate function returning no `Controller` gives: not a
    /// controller's run (its reconcile is not called by a controller).
    NotARun,
}

/// What one function a controller is handed to does to its limit.
enum Handing {
    /// Returns the controller handed in, leaving its limit (None) or setting one.
    Passes(Option<Concurrency>),
    /// Not a function of the crate that returns a `Controller`: no controller comes out.
    NotAController,
}

impl Linker<'_> {
    /// The run of entry `raw` of file `pos`, its controller followed through the functions it
    /// was handed to before `run`.
    pub(super) fn linked_run(&self, pos: usize, raw: &RawRequest) -> LinkedRun {
        let Some(run) = raw.controller.as_deref().filter(|r| !r.through.is_empty()) else {
            return LinkedRun::AsBuilt;
        };
        let mut limit = run.concurrency;
        for handed in &run.through {
            match self.handing(pos, handed) {
                Handing::Passes(Some(set)) => limit = set,
                Handing::Passes(None) => {}
                Handing::NotAController => return LinkedRun::NotARun,
            }
            if let Some(set) = handed.set_after {
                limit = set;
            }
        }
        LinkedRun::Run(Box::new(ControllerRun {
            concurrency: limit,
            through: Vec::new(),
            ..run.clone()
        }))
    }

    /// Entry `raw` with its run linked (see [`Linker::linked_run`]); None when it is not a
    /// controller's run after all.
    pub(super) fn with_linked_run<'r>(
        &self,
        pos: usize,
        raw: &'r RawRequest,
    ) -> Option<Cow<'r, RawRequest>> {
        match self.linked_run(pos, raw) {
            LinkedRun::AsBuilt => Some(Cow::Borrowed(raw)),
            LinkedRun::Run(run) => {
                let mut linked = raw.clone();
                linked.controller = Some(run);
                Some(Cow::Owned(linked))
            }
            LinkedRun::NotARun => None,
        }
    }

    /// What the call a controller is handed to does to its limit: each function the call may
    /// run is asked (see [`FunctionFacts::passes_controller`]); a call that resolves to no
    /// function of the crate (a dependency's, or a method of a receiver of unknown type, whose
    /// name says nothing) leaves the limit unseen.
    ///
    /// [`FunctionFacts::passes_controller`]: crate::model::FunctionFacts::passes_controller
    fn handing(&self, pos: usize, handed: &HandedTo) -> Handing {
        let unseen = Handing::Passes(Some(Concurrency::NotVisible));
        let facts = self.shared.facts(pos);
        let entry = facts.requests.iter().find(|e| {
            e.span == handed.call && e.controller.is_none() && matches!(e.kind, RawKind::Helper(_))
        });
        let Some((entry, RawKind::Helper(call))) = entry.map(|e| (e, &e.kind)) else {
            return unseen;
        };
        if by_name_only(call) && self.receiver_type(pos, call, 0).is_none() {
            return unseen;
        }
        let callees = self.callees(pos, entry, call);
        if callees.is_empty() {
            return unseen;
        }
        let mut sets: Option<Option<Concurrency>> = None;
        for (p, k) in callees {
            let f = &self.shared.facts(p).functions[k];
            // `Type::method(receiver, c)`: the receiver is the first argument.
            let param = match (&call.callee, f.has_self) {
                (Callee::Path(_), true) => handed.arg.checked_sub(1),
                _ => Some(handed.arg),
            };
            let this = match f.passes_controller {
                Some(passed) if Some(passed.param) == param => passed.sets,
                _ if f.returns.name.as_deref() == Some("Controller") => {
                    Some(Concurrency::NotVisible)
                }
                _ => return Handing::NotAController,
            };
            // Functions that may run (one per platform, every impl of a trait) and differ:
            // which one runs is not known.
            sets = match sets {
                Some(before) if before != this => Some(Some(Concurrency::NotVisible)),
                _ => Some(this),
            };
        }
        Handing::Passes(sets.flatten())
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{build, link, Concurrency};
    use crate::source::SourceFile;

    const ITEMS: &str = "
        struct Runner;
        fn passes(c: Controller<ConfigMap>, client: Client) -> Controller<ConfigMap> {
            c.owns(Api::<Secret>::all(client), watcher::Config::default())
        }
        fn rebinds(c: Controller<ConfigMap>) -> Controller<ConfigMap> {
            let c = c.shutdown_on_signal();
            c
        }
        fn one(c: Controller<ConfigMap>) -> Controller<ConfigMap> {
            c.with_config(Config::default().concurrency(1))
        }
        fn configured(c: Controller<ConfigMap>, cfg: Config) -> Controller<ConfigMap> {
            c.with_config(cfg)
        }
        fn replaced(_c: Controller<ConfigMap>, client: Client) -> Controller<ConfigMap> {
            Controller::new(Api::all(client), watcher::Config::default())
        }
        fn start(c: Controller<ConfigMap>) -> Runner {
            Runner
        }
        async fn reconcile(obj: Arc<ConfigMap>, ctx: Arc<Ctx>) -> Result<Action, Error> {
            Ok(Action::await_change())
        }
    ";

    /// The limit of each controller run of `body` (in a function of a file with [`ITEMS`]), as
    /// linked; None for a run that linking finds is not a controller's.
    fn limits(body: &str) -> Vec<Option<Concurrency>> {
        let text = format!("{ITEMS}\nasync fn main(api: Api<ConfigMap>, client: Client, ctx: Arc<Ctx>, x: X) {{ {body} }}");
        let source = SourceFile::new(0, "lib.rs".into(), text.clone());
        let facts = build::build(&source, &syn::parse_file(&text).unwrap());
        let model = link::link_single(0, &facts, "lib.rs");
        facts
            .requests
            .iter()
            .zip(&model.raw)
            .filter(|(built, _)| built.controller.is_some())
            .map(|(_, linked)| linked.controller.as_ref().map(|r| r.concurrency))
            .collect()
    }

    fn run_of(controller: &str) -> Option<Concurrency> {
        let found = limits(&format!(
            "{controller}.run(reconcile, error_policy, ctx).for_each(|_| async {{}}).await;"
        ));
        assert_eq!(found.len(), 1, "one run in {controller}");
        found[0]
    }

    #[test]
    fn a_function_returning_the_controller_handed_in_passes_its_limit() {
        let new = "Controller::new(api, watcher::Config::default())";
        assert_eq!(
            run_of(&format!("passes({new}, client)")),
            Some(Concurrency::Many)
        );
        assert_eq!(run_of(&format!("rebinds({new})")), Some(Concurrency::Many));
        let limited = format!("{new}.with_config(Config::default().concurrency(1))");
        assert_eq!(
            run_of(&format!("passes({limited}, client)")),
            Some(Concurrency::One)
        );
        assert_eq!(
            run_of(&format!("passes(rebinds({limited}), client).owns(x, y)")),
            Some(Concurrency::One)
        );
    }

    #[test]
    fn a_limit_set_in_or_after_the_function_is_the_one_run() {
        let new = "Controller::new(api, watcher::Config::default())";
        assert_eq!(run_of(&format!("one({new})")), Some(Concurrency::One));
        assert_eq!(
            run_of(&format!("passes(one({new}), client)")),
            Some(Concurrency::One)
        );
        assert_eq!(
            run_of(&format!("one({new}).with_config(Config::default())")),
            Some(Concurrency::Many)
        );
        assert_eq!(
            run_of(&format!("passes({new}, client).with_config(cfg)")),
            Some(Concurrency::NotVisible)
        );
        assert_eq!(
            run_of(&format!("configured({new}, cfg)")),
            Some(Concurrency::NotVisible)
        );
        // A limit of one set after a function that hides it: one.
        assert_eq!(
            run_of(&format!(
                "configured({new}, cfg).with_config(Config::default().concurrency(1))"
            )),
            Some(Concurrency::One)
        );
    }

    #[test]
    fn a_function_not_seen_or_returning_another_controller_hides_the_limit() {
        let new = "Controller::new(api, watcher::Config::default())";
        assert_eq!(
            run_of(&format!("replaced({new}, client)")),
            Some(Concurrency::NotVisible)
        );
        // A dependency's function: its body is not read.
        assert_eq!(
            run_of(&format!("kube_primary::setup_watches({new}, client)")),
            Some(Concurrency::NotVisible)
        );
        // A method of a receiver of unknown type: by its name alone, not the crate's.
        assert_eq!(
            run_of(&format!("x.passes({new}, client)")),
            Some(Concurrency::NotVisible)
        );
    }

    #[test]
    fn a_run_on_what_a_crate_function_returning_no_controller_gives_is_not_a_controllers() {
        let new = "Controller::new(api, watcher::Config::default())";
        assert_eq!(run_of(&format!("start({new})")), None);
        // Nor the stream a controller's `run` gives, handed on.
        let run = format!("{new}.run(reconcile, error_policy, ctx)");
        assert_eq!(
            limits(&format!("passes({run}, client).run(a, b, c);")).len(),
            1
        );
    }
}
