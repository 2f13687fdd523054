//! End-to-end test helpers; the tests live in `tests/*.rs`.
