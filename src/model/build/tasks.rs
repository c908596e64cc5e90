//! Spawned tasks and the collections that own futures or tasks (`FuturesUnordered`,
//! `FuturesOrdered`, `JoinSet`, thread scopes): what they hold, and the sites they make once the
//! function that fills them has been visited.

use super::flow::{Fut, Rep};
use super::Builder;
use crate::model::sites::SetKind;
use crate::model::{Site, SiteKind, Spawn, SpawnKind, TaskHandle};
use crate::source::Span;

/// A followed collection of futures or tasks.
#[derive(Clone, Debug)]
pub(in crate::model) struct SetState {
    pub kind: SetKind,
    /// "`FuturesUnordered`", "`std::thread::scope`".
    pub spelling: String,
    /// Where it was made (the constructor, the `collect`, the `thread::scope` call).
    pub made: Span,
    pub members: Vec<Fut>,
    /// Repetition frames open when it was made: members added in deeper frames are batches.
    pub rep_depth: usize,
    /// First poll of a `FuturesUnordered`/`FuturesOrdered`: the futures start there.
    pub first_poll: Option<Span>,
    pub finished: bool,
}

/// What is known of a spawn while its function is visited.
#[derive(Clone, Debug, Default)]
pub(in crate::model) struct SpawnState {
    /// Repetition frames open at the spawn.
    pub reps: Vec<Rep>,
    pub grouped: bool,
}

/// Where the facts of a function begin.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::model) struct FnStart {
    spawns: usize,
    sets: usize,
}

impl Builder<'_> {
    pub(super) fn new_set(&mut self, kind: SetKind, spelling: String, made: Span) -> usize {
        self.sets.push(SetState {
            kind,
            spelling,
            made,
            members: Vec::new(),
            rep_depth: self.reps.len(),
            first_poll: None,
            finished: false,
        });
        let id = self.sets.len() - 1;
        self.set_at.insert((made.start, made.end), id);
        id
    }

    /// Add futures to a set; added inside repetition frames opened since the set was made, each
    /// stands for one future per element. Returns the members as added.
    pub(super) fn add_to_set(&mut self, set: usize, futs: Vec<Fut>) -> Vec<Fut> {
        let depth = self.sets[set].rep_depth.min(self.reps.len());
        let batch = Rep::batch(&self.reps[depth..]);
        let futs: Vec<Fut> = futs
            .into_iter()
            .map(|f| match &batch {
                Some(b) => {
                    let mut f = f;
                    f.batch = Some(match f.batch.take() {
                        None => b.clone(),
                        Some(inner) => crate::model::Batch {
                            elements: b.elements.iter().chain(&inner.elements).copied().collect(),
                            locals: b.locals.start.min(inner.locals.start)..u64::MAX,
                            over: b.over.clone(),
                        },
                    });
                    f
                }
                None => f,
            })
            .collect();
        self.sets[set].members.extend(futs.iter().cloned());
        futs
    }

    pub(super) fn record_spawn(
        &mut self,
        kind: SpawnKind,
        span: Span,
        spelling: String,
        task: Fut,
    ) -> usize {
        let handle = match kind {
            SpawnKind::JoinSet | SpawnKind::ScopedThread => TaskHandle::InSet,
            // The builder spawns no calls: linking makes those.
            SpawnKind::Task | SpawnKind::Thread | SpawnKind::Call => TaskHandle::Unknown,
        };
        let mut operand = task.operand();
        operand.span = task.span;
        self.facts.spawns.push(Spawn {
            kind,
            span,
            spelling,
            task: operand,
            handle,
            body: self.body,
            branches: self.branches.clone(),
            loops: self.loops.clone(),
            handle_used: None,
            set_joined: None,
            aborted: None,
        });
        self.spawn_state.push(SpawnState {
            reps: self.reps.clone(),
            grouped: false,
        });
        let index = self.facts.spawns.len() - 1;
        self.spawn_at.insert((span.start, span.end), index);
        index
    }

    /// The handles of these tasks are awaited or joined at `at` (unless they were already).
    pub(super) fn mark_joined(&mut self, tasks: &[usize], at: Span) {
        for &t in tasks {
            if let Some(s) = self.facts.spawns.get_mut(t) {
                if s.handle == TaskHandle::Unknown {
                    s.handle = TaskHandle::Joined(at);
                }
            }
        }
    }

    /// The handles of these tasks are used at `at` (first use wins).
    pub(super) fn mark_handle_used(&mut self, tasks: &[usize], at: Span) {
        for &t in tasks {
            if let Some(s) = self.facts.spawns.get_mut(t) {
                s.handle_used.get_or_insert(at);
            }
        }
    }

    /// These tasks are aborted at `at` (the first abort wins).
    pub(super) fn mark_aborted(&mut self, tasks: &[usize], at: Span) {
        for &t in tasks {
            if let Some(s) = self.facts.spawns.get_mut(t) {
                s.aborted.get_or_insert(at);
            }
        }
    }

    /// The tasks of a set spawned so far are joined (or aborted) at `at`.
    pub(super) fn mark_set_joined(&mut self, set: usize, at: Span, aborted: bool) {
        let tasks: Vec<usize> = self.sets[set]
            .members
            .iter()
            .flat_map(|m| m.tasks.iter().copied())
            .collect();
        for t in tasks {
            if let Some(s) = self.facts.spawns.get_mut(t) {
                s.set_joined.get_or_insert(at);
                if aborted {
                    s.aborted.get_or_insert(at);
                }
            }
        }
    }

    /// The handles of these tasks are dropped: the tasks run detached.
    pub(super) fn mark_detached(&mut self, tasks: &[usize]) {
        for &t in tasks {
            if let Some(s) = self.facts.spawns.get_mut(t) {
                if s.handle == TaskHandle::Unknown {
                    s.handle = TaskHandle::Detached;
                }
            }
        }
    }

    pub(super) fn begin_fn(&mut self) -> FnStart {
        std::mem::replace(
            &mut self.fn_start,
            FnStart {
                spawns: self.facts.spawns.len(),
                sets: self.sets.len(),
            },
        )
    }

    /// The end of a function: its sets and spawned tasks become sites.
    pub(super) fn finish_fn(&mut self, saved: FnStart) {
        let start = self.fn_start;
        for set in start.sets..self.sets.len() {
            self.finish_set(set);
        }
        self.group_spawns(start.spawns);
        self.fn_start = saved;
    }

    /// A set is complete: record its site.
    pub(super) fn finish_set(&mut self, set: usize) {
        let state = &mut self.sets[set];
        if state.finished {
            return;
        }
        state.finished = true;
        let state = state.clone();
        if state.kind == SetKind::ThreadScope {
            // The scope joins its threads when it returns.
            let end = Span {
                file: state.made.file,
                start: state.made.end,
                end: state.made.end,
            };
            self.mark_set_joined(set, end, false);
        }
        let kind = state.kind.site_kind();
        let span = match state.kind {
            // The futures of a `FuturesUnordered` start when it is first polled.
            SetKind::FuturesUnordered | SetKind::FuturesOrdered => match state.first_poll {
                Some(p) => p,
                None => return,
            },
            // Tasks start when spawned.
            SetKind::JoinSet => match cover(state.members.iter().map(|m| m.span)) {
                Some(s) => s,
                None => return,
            },
            SetKind::ThreadScope => state.made,
        };
        let spelling = match state.kind {
            SetKind::JoinSet => "`JoinSet::spawn`".to_string(),
            _ => state.spelling.clone(),
        };
        let operands = state.members.iter().map(Fut::operand).collect();
        self.facts.sites.push(Site {
            kind,
            span,
            spelling,
            operands,
            binding: None,
            usage: no_usage(span),
            arms: Vec::new(),
            collection: None,
            limit: None,
            body: self.body,
            branches: self.branches.clone(),
            loops: self.loops.clone(),
            in_loop: self.is_in_loop(),
            propagated: false,
        });
    }

    /// Tasks spawned with `tokio::spawn` (or threads) from `start` on: their batches, and a site
    /// for each group of tasks that run at the same time.
    fn group_spawns(&mut self, start: usize) {
        let mut tasks = Vec::new();
        for i in start..self.facts.spawns.len() {
            if self.spawn_state[i].grouped {
                continue;
            }
            self.spawn_state[i].grouped = true;
            let spawn = &self.facts.spawns[i];
            if !matches!(spawn.kind, SpawnKind::Task | SpawnKind::Thread) {
                continue;
            }
            // Repeated per element when the handle is joined outside the loop body (or never).
            let frames: Vec<Rep> = match spawn.handle {
                TaskHandle::Joined(at) => self.spawn_state[i]
                    .reps
                    .iter()
                    .filter(|r| !r.body.contains(&at))
                    .cloned()
                    .collect(),
                _ => self.spawn_state[i].reps.clone(),
            };
            let batch = Rep::batch(&frames);
            self.facts.spawns[i].task.batch = batch;
            let spawn = &self.facts.spawns[i];
            if let TaskHandle::Joined(at) = spawn.handle {
                if !spawn.task.requests.is_empty() {
                    tasks.push((i, spawn.span, at));
                }
            }
        }
        tasks.sort_by_key(|(_, s, _)| s.start);
        // Task a (spawned first) runs concurrently with task b when it is joined after b starts.
        let mut group: Vec<usize> = (0..tasks.len()).collect();
        fn root(g: &mut [usize], mut i: usize) -> usize {
            while g[i] != i {
                g[i] = g[g[i]];
                i = g[i];
            }
            i
        }
        for a in 0..tasks.len() {
            for b in a + 1..tasks.len() {
                let (_, _, joined_a) = tasks[a];
                let (_, spawned_b, _) = tasks[b];
                if joined_a.start > spawned_b.start {
                    let (ra, rb) = (root(&mut group, a), root(&mut group, b));
                    group[rb] = ra;
                }
            }
        }
        let mut components: Vec<Vec<usize>> = Vec::new();
        let mut index_of = foldhash::HashMap::default();
        for (k, &(spawn, _, _)) in tasks.iter().enumerate() {
            let r = root(&mut group, k);
            let c = *index_of.entry(r).or_insert_with(|| {
                components.push(Vec::new());
                components.len() - 1
            });
            components[c].push(spawn);
        }
        for members in components {
            let spawns: Vec<&Spawn> = members.iter().map(|&i| &self.facts.spawns[i]).collect();
            if spawns.len() < 2 && spawns.iter().all(|s| s.task.batch.is_none()) {
                continue;
            }
            let Some(span) = cover(spawns.iter().map(|s| s.span)) else {
                continue;
            };
            let site = Site {
                kind: SiteKind::Spawn,
                span,
                spelling: spawns[0].spelling.clone(),
                operands: spawns.iter().map(|s| s.task.clone()).collect(),
                binding: None,
                usage: no_usage(span),
                arms: Vec::new(),
                collection: None,
                limit: None,
                body: self.body,
                branches: spawns[0].branches.clone(),
                loops: spawns[0].loops.clone(),
                in_loop: false,
                propagated: false,
            };
            self.facts.sites.push(site);
        }
    }
}

/// Sets and spawns are not rewritten: their value is not used as a join's is.
fn no_usage(span: Span) -> crate::model::SiteUsage {
    crate::model::SiteUsage {
        span,
        awaited: false,
        question_mark: false,
        statement: None,
    }
}

/// The smallest span covering all of these (all in one file).
fn cover(spans: impl Iterator<Item = Span>) -> Option<Span> {
    spans.reduce(|a, b| Span {
        file: a.file,
        start: a.start.min(b.start),
        end: a.end.max(b.end),
    })
}
