//! CPU time per thread, to split a round trip's cost between the calling thread and the
//! server (`/proc/thread-self/schedstat`: nanoseconds on the CPU, Linux only).

/// The schedstat file of the current thread, by its id (so that another thread can
/// read it), if the system has one.
pub(crate) fn this_thread_schedstat() -> Option<std::path::PathBuf> {
    let link = std::fs::read_link("/proc/thread-self").ok()?;
    Some(std::path::Path::new("/proc").join(link).join("schedstat"))
}

/// Nanoseconds the threads of `files` have run on a CPU (0 where unknown).
pub(crate) fn cpu_ns(files: &[std::path::PathBuf]) -> u64 {
    files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .filter_map(|text| text.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

/// The server's threads (its runtime's and the one that accepts).
pub(crate) static SERVER_THREADS: std::sync::Mutex<Vec<std::path::PathBuf>> =
    std::sync::Mutex::new(Vec::new());

pub(crate) fn server_cpu_ns() -> u64 {
    cpu_ns(&SERVER_THREADS.lock().map(|t| t.clone()).unwrap_or_default())
}

pub(crate) fn calling_cpu_ns() -> u64 {
    cpu_ns(&this_thread_schedstat().into_iter().collect::<Vec<_>>())
}
