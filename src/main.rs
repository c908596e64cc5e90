/// syn allocates a node per token: the system allocator was a third of a run's work.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(kube_order_lint::cli::run(std::env::args_os()));
}
