//! Pinning a benchmark to one CPU, shared by the benches that compare with
//! the pipe floor.

/// Runs the calling thread (and so the children it starts afterwards, and
/// threads it spawns afterwards) on one CPU: the first one it may use.
/// Returns that CPU.
///
/// On a virtual machine a wake-up that crosses to an idle virtual CPU costs
/// tens of microseconds of hypervisor latency, more than the whole round
/// trip; whether a run gets such wake-ups depends on where the scheduler
/// happens to place the processes, so unpinned runs flip between fast and
/// slow for reasons that have nothing to do with the code measured. Pinned,
/// every wake-up is a same-CPU context switch: the floor.
pub fn pin_to_one_cpu() -> Option<usize> {
    // SAFETY: plain system calls on a zeroed, correctly sized cpu_set_t.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        let cpu = (0..libc::CPU_SETSIZE as usize).find(|&c| libc::CPU_ISSET(c, &set))?;
        libc::CPU_ZERO(&mut set);
        libc::CPU_SET(cpu, &mut set);
        (libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0)
            .then_some(cpu)
    }
}

/// Whether pinning is on (`ARENA_BENCH_PIN=0` turns it off).
pub fn pinning_wanted() -> bool {
    std::env::var("ARENA_BENCH_PIN").map_or(true, |v| v != "0")
}
