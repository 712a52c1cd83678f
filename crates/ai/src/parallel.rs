//! Independent jobs numbered `0..total`, shared out over threads: the
//! reviews' positions, self-play's games, the value floor's positions.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work(i)` for every `i` in `0..total`, on up to `threads` threads, each
/// taking the next job as it finishes one; `progress(done)` is called as
/// each is finished (from the working threads). The results come in job
/// order, whatever the threads.
///
/// ```
/// let squares = carcassonne_ai::parallel::map_jobs(5, 2, |_| {}, |i| i * i);
/// assert_eq!(squares, [0, 1, 4, 9, 16]);
/// ```
pub fn map_jobs<T: Send>(
    total: usize,
    threads: usize,
    progress: impl Fn(usize) + Sync,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..total).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, total.max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let r = work(i);
                results.lock().expect("no job panics")[i] = Some(r);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            });
        }
    });
    results.into_inner().expect("no job panics").into_iter().map(|r| r.expect("every job done")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every job runs once, the results in job order and the progress
    /// counted to the total, on one thread or several (more than jobs too).
    #[test]
    fn every_job_once_in_order() {
        for threads in [0, 1, 3, 40] {
            let calls = AtomicUsize::new(0);
            let last = AtomicUsize::new(0);
            let out = map_jobs(
                25,
                threads,
                |d| {
                    last.fetch_max(d, Ordering::Relaxed);
                },
                |i| {
                    calls.fetch_add(1, Ordering::Relaxed);
                    i + 100
                },
            );
            assert_eq!(out, (100..125).collect::<Vec<_>>(), "{threads} threads");
            assert_eq!(calls.into_inner(), 25);
            assert_eq!(last.into_inner(), 25);
        }
        assert!(map_jobs(0, 2, |_| {}, |i| i).is_empty());
    }
}
