//! A bounded wait for a lock that is busy for a moment. Our locks (tantivy's writer lock, the build's
//! `build.lock`) are `flock`s, released when their file closes; a child process forked by another
//! thread of the host (a test runner's `Command`, a site generator calling us as a library) holds a
//! copy of the descriptor until it execs, so a lock can stay busy briefly after its holder is gone.
//! A lock still busy after [`WAIT`] is held for real, and the caller reports it.

use std::time::{Duration, Instant};

/// How long a busy lock is waited for.
pub(crate) const WAIT: Duration = Duration::from_secs(2);

/// Runs `attempt` until it succeeds, fails otherwise than `busy`, or [`WAIT`] has passed (then its
/// last result); sleeps 2 ms, doubling to 100 ms, between attempts.
pub(crate) fn retry_while_busy<T, E>(
    mut attempt: impl FnMut() -> Result<T, E>,
    busy: impl Fn(&E) -> bool,
) -> Result<T, E> {
    let deadline = Instant::now() + WAIT;
    let mut pause = Duration::from_millis(2);
    loop {
        match attempt() {
            Err(e) if busy(&e) && Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(100));
            }
            r => return r,
        }
    }
}
