fn main() {
    std::process::exit(kube_order_lint::cli::run(std::env::args_os()));
}
