//! Peak memory of the benchmark process, shared by the benches that run
//! their subject in a fresh child process so that the peak is its own.

/// This process's peak resident set size (`VmHWM` of `/proc/self/status`),
/// in KiB.
pub fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .expect("VmHWM line")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .expect("VmHWM in kB")
}
