//! Budgets counted in CPU time: a command's time limit, grounding's share of it, a reasoner's
//! deadline. Wall-clock time would make results depend on the machine's load (a game that
//! grounds in 1.5 s alone takes 4 s while two other builds run, and would then be played by
//! the interpreter instead); the CPU time of the thread doing the work does not.
//!
//! The work under one budget runs on one thread (engines are single-threaded), so the clock is
//! the calling thread's CPU time. A reading taken on one thread and compared on another (a
//! budget handed to a worker) has no common clock: there, wall-clock time since the reading
//! stands in, which is never shorter than the CPU time spent.

use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// A reading of the budget clock: the calling thread's CPU time (and the wall-clock time, for
/// a comparison made on another thread).
#[derive(Clone, Copy, Debug)]
pub struct CpuInstant {
    thread: ThreadId,
    cpu: Option<Duration>,
    wall: Instant,
}

impl CpuInstant {
    pub fn now() -> Self {
        CpuInstant {
            thread: std::thread::current().id(),
            cpu: thread_cpu_time(),
            wall: Instant::now(),
        }
    }

    /// The CPU time this thread has used since the reading (wall-clock time on another thread,
    /// or where the system has no thread CPU clock).
    pub fn elapsed(&self) -> Duration {
        match self.cpu {
            Some(then) if self.thread == std::thread::current().id() => thread_cpu_time()
                .map_or_else(|| self.wall.elapsed(), |now| now.saturating_sub(then)),
            _ => self.wall.elapsed(),
        }
    }

    /// The deadline `budget` of CPU time after this reading.
    pub fn deadline(self, budget: Duration) -> CpuDeadline {
        CpuDeadline {
            start: self,
            budget,
        }
    }
}

/// When a budget of CPU time counted from a [`CpuInstant`] is spent.
#[derive(Clone, Copy, Debug)]
pub struct CpuDeadline {
    start: CpuInstant,
    budget: Duration,
}

impl CpuDeadline {
    /// `budget` of CPU time from now.
    pub fn after(budget: Duration) -> Self {
        CpuInstant::now().deadline(budget)
    }

    pub fn is_past(&self) -> bool {
        self.start.elapsed() >= self.budget
    }

    /// The CPU time left (zero once past).
    pub fn remaining(&self) -> Duration {
        self.budget.saturating_sub(self.start.elapsed())
    }

    /// Whichever of the two comes first.
    pub fn earlier(self, other: CpuDeadline) -> CpuDeadline {
        if other.remaining() < self.remaining() {
            other
        } else {
            self
        }
    }
}

/// The CPU time the calling thread has used, where the system can tell.
fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut time = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` writes one `timespec` through the valid pointer it is given.
        let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
        if status != 0 {
            return None;
        }
        let seconds = u64::try_from(time.tv_sec).ok()?;
        let nanos = u32::try_from(time.tv_nsec).ok()?;
        Some(Duration::new(seconds, nanos))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sleeping uses no CPU time: a budget counted in CPU time is not spent by waiting, the way
    /// a loaded machine's waits do not spend it.
    #[test]
    fn waiting_does_not_spend_a_cpu_budget() {
        let deadline = CpuDeadline::after(Duration::from_millis(50));
        std::thread::sleep(Duration::from_millis(120));
        assert!(!deadline.is_past());
        assert!(deadline.remaining() > Duration::from_millis(20));
    }

    #[test]
    fn working_spends_a_cpu_budget() {
        let deadline = CpuDeadline::after(Duration::from_millis(30));
        let mut spin = 0u64;
        while !deadline.is_past() {
            spin = std::hint::black_box(spin.wrapping_add(1));
        }
        assert_eq!(deadline.remaining(), Duration::ZERO);
    }

    /// On another thread the reading has no common CPU clock; wall-clock time stands in.
    #[test]
    fn another_thread_counts_wall_clock_time() {
        let deadline = CpuDeadline::after(Duration::from_millis(50));
        let past = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(80));
            deadline.is_past()
        })
        .join()
        .unwrap();
        assert!(past);
    }

    #[test]
    fn the_earlier_of_two_deadlines_is_the_one_with_less_left() {
        let long = CpuDeadline::after(Duration::from_secs(60));
        let short = CpuDeadline::after(Duration::from_secs(1));
        assert_eq!(long.earlier(short).budget, short.budget);
        assert_eq!(short.earlier(long).budget, short.budget);
    }
}
