//! Background work at a low scheduling priority, so that it never takes a core from the work
//! an editor waits for.
//!
//! A probe or a bench lens plays games for seconds. On a machine with few cores its thread
//! competes with the thread computing the next edit's diagnostics, and the scheduler shares
//! the core evenly: the measured edit latency doubled while a probe ran. Played on a thread of
//! the lowest priority (nice 19, weight 15 against 1024 for normal threads), the games take
//! only what the diagnostics leave.

/// Runs `work` on a thread of its own and waits for it, so that `work` may lower the thread's
/// priority ([`lower_current_thread_priority`]).
///
/// The work needs a fresh thread because a priority cannot be raised back without privileges:
/// lowering the calling thread (one of the runtime's pool, later reused for diagnostics) would
/// slow every later task of that thread. A panic of `work` continues in the caller, as if it
/// had run there.
pub fn on_own_thread<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        scope
            .spawn(work)
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Sets the calling thread's nice value to 19, for good: call it on a thread of
/// [`on_own_thread`] only. Linux schedules threads individually and lets any thread lower its
/// own priority; elsewhere (where the call would lower the whole process) the thread keeps its
/// priority.
pub fn lower_current_thread_priority() {
    #[cfg(target_os = "linux")]
    {
        const LOWEST_PRIORITY: libc::c_int = 19;
        // SAFETY: `gettid` has no preconditions; `setpriority` on the calling thread's own id
        // changes only its nice value, and a failure (reported by the return value) leaves the
        // thread as it was, which is harmless.
        unsafe {
            let thread = libc::gettid();
            libc::setpriority(libc::PRIO_PROCESS, thread as libc::id_t, LOWEST_PRIORITY);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_runs_and_returns_its_value() {
        let borrowed = [1, 2, 3];
        assert_eq!(on_own_thread(|| borrowed.iter().sum::<i32>()), 6);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_work_may_lower_its_priority_and_the_caller_keeps_its_own() {
        // SAFETY: reading the calling thread's nice value has no preconditions.
        let nice_of_current_thread =
            || unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) };
        let before = nice_of_current_thread();
        let during = on_own_thread(|| {
            lower_current_thread_priority();
            nice_of_current_thread()
        });
        assert_eq!(during, 19);
        assert_eq!(nice_of_current_thread(), before);
    }

    #[test]
    fn a_panic_of_the_work_reaches_the_caller() {
        let outcome = std::panic::catch_unwind(|| on_own_thread(|| panic!("inside the work")));
        assert!(outcome.is_err());
    }
}

/// Raises its flag when dropped. A request handler holds one while work on another thread
/// watches the flag: `$/cancelRequest` drops the handler's future, and the work stops instead
/// of running on for nobody (the flag is also raised, harmlessly, once the handler answers).
#[derive(Default)]
pub struct StopOnDrop(pub std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}
