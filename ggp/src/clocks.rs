//! The clocks of a match: how long a player thinks and how long a manager waits.
//!
//! Clocks run on wall time on purpose: a manager (or a person) is waiting on the other end
//! of the connection, and a move that comes late is late whatever the CPU did meanwhile.
//!
//! A player keeps back a safety margin of each clock for everything but thinking: reading and
//! parsing the message, stopping the search (an engine call in progress finishes first),
//! writing the reply, the network. The margin is measured ([`SafetyMargin`]): each answer tells
//! how long after the end of its thinking time it left, and the margin is twice the worst of
//! the recent ones plus a floor for what the player cannot see (the network). Until a player
//! has answered once, it keeps back the cautious [`prior_margin`].

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

/// Before any answer was measured, a player keeps back a fifth of the clock, at least
/// [`MIN_MARGIN`], at most [`MAX_MARGIN`].
const PRIOR_SHARE: u32 = 5;
pub const MIN_MARGIN: Duration = Duration::from_millis(150);
pub const MAX_MARGIN: Duration = Duration::from_secs(2);

/// What a measured margin keeps back beyond the overruns seen: the network and the manager's
/// side, which the player cannot observe.
pub const MEASURED_FLOOR: Duration = Duration::from_millis(60);

/// How many recent answers the measured margin looks at: enough to remember a slow move of
/// the engine, few enough to forget a load that has passed.
const OVERRUNS_KEPT: usize = 16;

/// How long a manager waits beyond a clock before calling an answer late: the network's
/// share, as ggp-base's server allows some slack beyond the clock too.
pub const MANAGER_GRACE: Duration = Duration::from_millis(500);

/// A clock of the protocol (whole seconds) as a duration.
pub fn seconds(clock: u64) -> Duration {
    Duration::from_secs(clock.min(24 * 3600))
}

/// The margin kept back from `clock` before anything was measured.
pub fn prior_margin(clock: Duration) -> Duration {
    (clock / PRIOR_SHARE).clamp(MIN_MARGIN, MAX_MARGIN)
}

/// The safety margin of a player, measured from its own answers.
#[derive(Debug, Default)]
pub struct SafetyMargin {
    /// How long after the end of its thinking time each recent answer left, newest last.
    overruns: Mutex<VecDeque<Duration>>,
}

impl SafetyMargin {
    pub fn new() -> SafetyMargin {
        SafetyMargin::default()
    }

    fn overruns(&self) -> std::sync::MutexGuard<'_, VecDeque<Duration>> {
        // Every change is one push or pop: a panic elsewhere leaves the list whole.
        self.overruns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Records that an answer left `overrun` after its thinking time ended (zero when it left
    /// on time).
    pub fn observe(&self, overrun: Duration) {
        let mut overruns = self.overruns();
        if overruns.len() == OVERRUNS_KEPT {
            overruns.pop_front();
        }
        overruns.push_back(overrun);
    }

    /// The time kept back from `clock`: [`MEASURED_FLOOR`] plus twice the worst recent overrun,
    /// at most half the clock; [`prior_margin`] until an answer has been measured.
    pub fn margin(&self, clock: Duration) -> Duration {
        match self.overruns().iter().max() {
            None => prior_margin(clock),
            Some(&worst) => (MEASURED_FLOOR + worst * 2).min(clock / 2),
        }
    }

    /// The times of a clock under the current margin.
    pub fn timing(&self, clock: Duration) -> Timing {
        Timing {
            clock,
            margin: self.margin(clock),
        }
    }
}

/// A clock and the margin kept back from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    pub clock: Duration,
    pub margin: Duration,
}

impl Timing {
    /// The time a player thinks on a move (or grounds a game): the clock minus the margin, or
    /// nothing when the clock is shorter than the margin.
    pub fn thinking_time(&self) -> Duration {
        self.clock.saturating_sub(self.margin)
    }

    /// When a player stops waiting for its own search and answers with the move it holds
    /// ready: half the margin after the thinking time, so the answer still leaves in time.
    pub fn answer_by(&self) -> Duration {
        self.clock.saturating_sub(self.margin / 2)
    }

    /// When a player that is still grounding its game at the start gives up on grounding and
    /// builds the interpreter instead: a quarter of the clock before [`Timing::answer_by`].
    pub fn interpreter_by(&self) -> Duration {
        self.answer_by().saturating_sub(self.clock / 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn before_any_answer_a_one_second_clock_keeps_a_fifth_back() {
        let timing = SafetyMargin::new().timing(Duration::from_secs(1));
        assert_eq!(timing.thinking_time(), ms(800));
        assert_eq!(timing.answer_by(), ms(900));
        let start = SafetyMargin::new().timing(Duration::from_secs(10));
        assert_eq!(start.interpreter_by(), ms(6500));
    }

    #[test]
    fn before_any_answer_short_and_long_clocks_keep_the_bounded_margin() {
        let margin = SafetyMargin::new();
        assert_eq!(margin.timing(ms(100)).thinking_time(), Duration::ZERO);
        assert_eq!(
            margin.timing(Duration::from_secs(60)).thinking_time(),
            Duration::from_secs(58)
        );
    }

    #[test]
    fn the_margin_follows_the_overruns_measured() {
        let margin = SafetyMargin::new();
        let clock = Duration::from_secs(1);
        // Answers that left 10 ms late: the margin shrinks to the floor and twice that.
        margin.observe(ms(10));
        margin.observe(ms(4));
        assert_eq!(margin.margin(clock), MEASURED_FLOOR + ms(20));
        assert_eq!(margin.timing(clock).thinking_time(), ms(920));
        // A slow engine call held one answer 150 ms: the margin grows to cover it twice.
        margin.observe(ms(150));
        assert_eq!(margin.margin(clock), MEASURED_FLOOR + ms(300));
        // Never more than half the clock.
        margin.observe(ms(2_000));
        assert_eq!(margin.margin(clock), ms(500));
    }

    #[test]
    fn an_overrun_is_forgotten_after_the_answers_kept() {
        let margin = SafetyMargin::new();
        margin.observe(ms(300));
        for _ in 0..OVERRUNS_KEPT {
            margin.observe(Duration::ZERO);
        }
        assert_eq!(margin.margin(Duration::from_secs(10)), MEASURED_FLOOR);
    }
}
