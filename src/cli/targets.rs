//! cargo's target selection flags. clap-cargo has the package and manifest flags but not these.

use crate::discover::TargetFilter;

/// Which targets of the selected packages to check. Without any of these flags every target is
/// checked but build scripts: unlike `cargo check`, tests, examples and benches too, because a
/// request race in a test or an example is as real as one in the library.
#[derive(clap::Args, Debug, Default, Clone)]
#[command(next_help_heading = "Target Selection")]
pub struct TargetArgs {
    /// Check only the library.
    #[arg(long)]
    pub lib: bool,
    /// Check all binaries.
    #[arg(long)]
    pub bins: bool,
    /// Check this binary (repeatable).
    #[arg(long, value_name = "NAME")]
    pub bin: Vec<String>,
    /// Check all examples.
    #[arg(long)]
    pub examples: bool,
    /// Check this example (repeatable).
    #[arg(long, value_name = "NAME")]
    pub example: Vec<String>,
    /// Check all integration tests.
    #[arg(long)]
    pub tests: bool,
    /// Check this integration test (repeatable).
    #[arg(long, value_name = "NAME")]
    pub test: Vec<String>,
    /// Check all benchmarks.
    #[arg(long)]
    pub benches: bool,
    /// Check this benchmark (repeatable).
    #[arg(long, value_name = "NAME")]
    pub bench: Vec<String>,
    /// Check every target (the default).
    #[arg(long)]
    pub all_targets: bool,
}

impl TargetArgs {
    pub fn filter(&self) -> TargetFilter {
        TargetFilter {
            lib: self.lib,
            bins: self.bins,
            bin: self.bin.clone(),
            examples: self.examples,
            example: self.example.clone(),
            tests: self.tests,
            test: self.test.clone(),
            benches: self.benches,
            bench: self.bench.clone(),
            all_targets: self.all_targets,
        }
    }
}
