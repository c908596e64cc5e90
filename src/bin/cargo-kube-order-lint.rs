//! `cargo kube-order-lint`: cargo runs this binary with `kube-order-lint` as the first argument.
fn main() {
    std::process::exit(kube_order_lint::cli::run(std::env::args_os()));
}
