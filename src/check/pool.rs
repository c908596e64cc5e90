//! The worker threads: how many, with the stack the analysis needs.

use super::WORKER_STACK;

/// At most this many worker threads per core: more cannot run at once, and each costs memory
/// and start-up time (`-j 10000` used to spend minutes starting and spinning threads).
pub const MAX_JOBS_PER_CORE: usize = 4;

/// The worker threads for `jobs` (None or 0: rayon's default, one per core or
/// `RAYON_NUM_THREADS`), at most [`MAX_JOBS_PER_CORE`] per core and, when the number of files is
/// known, no more than there are files. None leaves the choice to rayon.
pub(super) fn worker_count(jobs: Option<usize>, files: Option<usize>) -> Option<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let asked = jobs
        .filter(|&j| j > 0)
        .map(|j| j.min(cores.saturating_mul(MAX_JOBS_PER_CORE)));
    match files {
        Some(files) => {
            let default = || {
                std::env::var("RAYON_NUM_THREADS")
                    .ok()
                    .and_then(|v| v.parse::<usize>().ok())
                    .filter(|&n| n > 0)
                    .unwrap_or(cores)
            };
            Some(asked.unwrap_or_else(default).min(files).max(1))
        }
        None => asked,
    }
}

/// `jobs` threads; None (or 0) for one per core (rayon's default, which honours
/// `RAYON_NUM_THREADS`).
pub(super) fn worker_pool(
    jobs: Option<usize>,
) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .stack_size(WORKER_STACK)
        .build()
}
