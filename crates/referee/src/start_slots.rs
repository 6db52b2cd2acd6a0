//! How many bots start at once. A bot's start-up limit (`startup_ms`) is
//! meant to measure the bot: the time from its own spawn to its `ready`.
//! Spawning 64 interpreters at once on 2 cores would make each wait for the
//! others' CPU, and charge every bot for the queue arena made. So a new
//! process is spawned only when it gets one of [`slots`] start slots, and
//! holds it until its handshake ends; waiting for a slot happens before the
//! spawn, so it is nobody's time. Reused processes take no slot.
//!
//! The bound is the cores arena may use (`available_parallelism`, which
//! follows CPU affinity and cgroup quotas, as Slurm sets them), and at
//! least 2, so that the two bots of a game start together even on one core.

use std::sync::OnceLock;

use tokio::sync::{Semaphore, SemaphorePermit};

/// The cores this process may use (CPU affinity and cgroup quota).
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(1)
}

/// Bots that may be starting (spawned, `ready` not yet read) at once.
pub fn slots() -> usize {
    cores().max(2)
}

/// Waits for a start slot; the start may begin when this returns, and the
/// slot is free again when the permit is dropped.
pub async fn start_slot() -> SemaphorePermit<'static> {
    static SLOTS: OnceLock<Semaphore> = OnceLock::new();
    SLOTS
        .get_or_init(|| Semaphore::new(slots()))
        .acquire()
        .await
        .expect("the start semaphore is never closed")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn no_more_than_the_slots_start_at_once() {
        let starting = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..4 * slots())
            .map(|_| {
                let (starting, most) = (starting.clone(), most.clone());
                tokio::spawn(async move {
                    let _slot = start_slot().await;
                    let now = starting.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                    starting.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), slots());
    }
}
