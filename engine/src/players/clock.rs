//! The budget of one decision: wall-clock time (a match's play clock), units of work, a CPU
//! deadline (for measurements that must not depend on the machine's load) and an outside cancel
//! flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::cpu_time::CpuDeadline;

/// What one move may cost. `nodes` counts a player's units of work: states expanded by the tree
/// searches, iterations by MCTS. A budget with neither limit lets a search run to its end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveBudget {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

impl MoveBudget {
    /// No limit: searches run until they are complete.
    pub fn unlimited() -> Self {
        MoveBudget::default()
    }

    /// A play clock: so much wall-clock time per move.
    pub fn time(time: Duration) -> Self {
        MoveBudget {
            time: Some(time),
            nodes: None,
        }
    }

    /// So many units of work per move; repeatable, unlike a time limit.
    pub fn nodes(nodes: u64) -> Self {
        MoveBudget {
            time: None,
            nodes: Some(nodes),
        }
    }
}

/// A running [`MoveBudget`]. Players call [`Clock::tick`] once per unit of work and stop as soon
/// as it says no; once it has said no it keeps saying no, so every level of a search unwinds.
#[derive(Clone, Debug)]
pub struct Clock {
    started: Instant,
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    nodes: u64,
    cpu_deadline: Option<CpuDeadline>,
    cancel: Option<Arc<AtomicBool>>,
    stopped: bool,
}

impl Clock {
    /// Starts the budget now.
    pub fn start(budget: &MoveBudget) -> Clock {
        let started = Instant::now();
        Clock {
            started,
            // A time too large to add to `now` is as good as no limit.
            deadline: budget.time.and_then(|time| started.checked_add(time)),
            max_nodes: budget.nodes,
            nodes: 0,
            cpu_deadline: None,
            cancel: None,
            stopped: false,
        }
    }

    pub fn unlimited() -> Clock {
        Clock::start(&MoveBudget::unlimited())
    }

    /// Also stops once the calling thread has spent the CPU time of `deadline`: a guard that
    /// gives the same answer on a loaded machine as on an idle one (a wall-clock `time` does not).
    pub fn with_cpu_deadline(mut self, deadline: CpuDeadline) -> Clock {
        self.cpu_deadline = Some(deadline);
        self
    }

    /// Also stops when `flag` is set (by another thread, a Ctrl-C handler, an editor request).
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Clock {
        self.cancel = Some(flag);
        self
    }

    /// Counts one unit of work; false once the budget is spent.
    pub fn tick(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        if self.max_nodes.is_some_and(|max| self.nodes >= max) || self.out_of_time() {
            self.stopped = true;
            return false;
        }
        self.nodes += 1;
        true
    }

    /// Whether the budget is spent, without counting work.
    pub fn is_stopped(&mut self) -> bool {
        if !self.stopped
            && (self.max_nodes.is_some_and(|max| self.nodes >= max) || self.out_of_time())
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether time is up or the search was cancelled, whatever the count of work: what a
    /// long piece of work checks as it goes (a node budget is spent one tick at a time).
    pub fn out_of_time(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
            || self.cpu_deadline.is_some_and(|deadline| deadline.is_past())
            || self
                .cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Whether a deadline or a cancel flag can stop the clock while work is under way (a node
    /// budget alone stops it only between units of work).
    pub fn can_interrupt(&self) -> bool {
        self.deadline.is_some() || self.cpu_deadline.is_some() || self.cancel.is_some()
    }

    /// Whether nothing but the cancel flag can stop the clock: players that never finish on
    /// their own (MCTS) then set themselves a limit.
    pub fn is_unlimited(&self) -> bool {
        self.deadline.is_none() && self.cpu_deadline.is_none() && self.max_nodes.is_none()
    }

    /// Units of work counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_cpu_deadline_stops_the_clock_whatever_its_node_budget() {
        let mut clock = Clock::start(&MoveBudget::nodes(1_000))
            .with_cpu_deadline(CpuDeadline::after(Duration::ZERO));
        assert!(clock.can_interrupt());
        assert!(!clock.tick());
        assert!(clock.is_stopped());
    }

    #[test]
    fn a_cpu_deadline_not_yet_spent_leaves_the_node_budget_in_charge() {
        let mut clock = Clock::start(&MoveBudget::nodes(3))
            .with_cpu_deadline(CpuDeadline::after(Duration::from_secs(3600)));
        assert!(!clock.is_unlimited());
        assert_eq!((0..5).filter(|_| clock.tick()).count(), 3);
    }
}
