//! The CPU time of the calling thread, for timing work on a machine shared with other
//! processes (wall-clock rounds would count their turns on the CPU too).

/// Nanoseconds the calling thread has run on a CPU (`CLOCK_THREAD_CPUTIME_ID`, exact at
/// the call: the kernel adds the time of the running slice).
pub(crate) fn thread_cpu_ns() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec; the call writes nothing else.
    let done = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if done != 0 {
        return 0;
    }
    (now.tv_sec as u64).saturating_mul(1_000_000_000) + now.tv_nsec as u64
}
