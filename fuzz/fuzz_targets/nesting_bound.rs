//! Fuzz target: the nesting bound of `kube_order_lint::parse` really bounds the recursion.
//!
//! Each input is analysed on a thread whose stack is proportional to the input's nesting count,
//! not the generous fixed stack the tool uses: if the count under-estimated how deep syn, the
//! model or dropping the tree recurse on some input, that thread overflows its stack, which
//! libFuzzer reports as a crash. (`PER_LEVEL` is about three times the most any construct was
//! measured to need in an optimised build: `&&&…T` reference types, about 3.3 KiB a level.)
#![no_main]

use std::path::Path;

use kube_order_lint::check::check_text_on_current_thread;
use kube_order_lint::parse::{nesting, prepare};
use libfuzzer_sys::fuzz_target;

const PER_LEVEL: usize = 10 * 1024;

/// `PER_LEVEL`, or the `NESTING_BOUND_PER_LEVEL` environment variable: set it very low to see
/// the target catch a stack overflow (`fuzz/run.sh` does not).
fn per_level() -> usize {
    static PER_LEVEL_SET: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *PER_LEVEL_SET.get_or_init(|| {
        std::env::var("NESTING_BOUND_PER_LEVEL")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(PER_LEVEL)
    })
}
/// The thread's own frames and the analysis of a flat file.
const FLOOR: usize = 512 * 1024;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let Ok(tokens) = prepare(&text).parse() else {
        return;
    };
    let deepest = nesting(tokens, usize::MAX).deepest;
    proc_macro2::extra::invalidate_current_thread_spans();
    let stack = FLOOR + deepest * per_level();
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let _alternate = overflow::report_on_this_thread();
            check_text_on_current_thread(Path::new("fuzz.rs"), &text);
        })
        .expect("spawn")
        .join()
        .expect("no panic");
});

/// Without a sanitizer, libFuzzer's SIGSEGV handler runs on the thread's own stack, so a stack
/// overflow kills the process before libFuzzer can report it and save the input. Give the thread
/// an alternate signal stack and the handler `SA_ONSTACK`: the overflow is then a crash like any
/// other, with its input in `fuzz/artifacts/nesting_bound/`.
mod overflow {
    use std::sync::Once;

    /// The alternate stack of the calling thread, in use until dropped.
    pub struct AlternateStack {
        _memory: Vec<u8>,
    }

    impl Drop for AlternateStack {
        fn drop(&mut self) {
            let disable = libc::stack_t {
                ss_sp: std::ptr::null_mut(),
                ss_flags: libc::SS_DISABLE,
                ss_size: 0,
            };
            // SAFETY: disabling the alternate stack before its memory is freed.
            unsafe { libc::sigaltstack(&disable, std::ptr::null_mut()) };
        }
    }

    pub fn report_on_this_thread() -> AlternateStack {
        static HANDLER_ON_ALTERNATE_STACK: Once = Once::new();
        HANDLER_ON_ALTERNATE_STACK.call_once(|| {
            // SAFETY: reads the installed SIGSEGV action (libFuzzer's) and installs it again with
            // one more flag; no other thread changes signal actions while the target runs.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGSEGV, std::ptr::null(), &mut action) == 0 {
                    action.sa_flags |= libc::SA_ONSTACK;
                    libc::sigaction(libc::SIGSEGV, &action, std::ptr::null_mut());
                }
            }
        });
        let mut memory = vec![0u8; 256 * 1024];
        let stack = libc::stack_t {
            ss_sp: memory.as_mut_ptr().cast(),
            ss_flags: 0,
            ss_size: memory.len(),
        };
        // SAFETY: `memory` outlives its use as the alternate stack (see `Drop`).
        unsafe { libc::sigaltstack(&stack, std::ptr::null_mut()) };
        AlternateStack { _memory: memory }
    }
}
