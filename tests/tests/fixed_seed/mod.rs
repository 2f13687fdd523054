//! The runner of every property test here: CI runs a fixed seed and budget of cases;
//! `AIDOCS_PROPTEST_CASES=N` and `AIDOCS_PROPTEST_SEED=S` run others.

use proptest::test_runner::{Config, RngSeed, TestRunner};

/// A runner of `default_cases` cases from `default_seed` (unless the environment says otherwise),
/// no failure persistence; with the cases and seed it runs, for the test to report.
pub fn runner(default_cases: u32, default_seed: u64) -> (TestRunner, u32, u64) {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let cases = env("AIDOCS_PROPTEST_CASES").map_or(default_cases, |c| c as u32);
    let seed = env("AIDOCS_PROPTEST_SEED").unwrap_or(default_seed);
    let runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    });
    (runner, cases, seed)
}
