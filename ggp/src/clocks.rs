//! The clocks of a match: how long a player thinks and how long a manager waits.
//!
//! Clocks run on wall time on purpose: a manager (or a person) is waiting on the other end
//! of the connection, and a move that comes late is late whatever the CPU did meanwhile.

use std::time::Duration;

/// The share of a clock a player keeps back for reading the message, answering and the
/// network: a fifth of the clock, at least [`MIN_MARGIN`], at most [`MAX_MARGIN`].
const MARGIN_SHARE: u32 = 5;
pub const MIN_MARGIN: Duration = Duration::from_millis(150);
pub const MAX_MARGIN: Duration = Duration::from_secs(2);

/// How long a manager waits beyond a clock before calling an answer late: the network's
/// share, as ggp-base's server allows some slack beyond the clock too.
pub const MANAGER_GRACE: Duration = Duration::from_millis(500);

/// A clock of the protocol (whole seconds) as a duration.
pub fn seconds(clock: u64) -> Duration {
    Duration::from_secs(clock.min(24 * 3600))
}

/// The time kept back from `clock` for everything but thinking.
pub fn safety_margin(clock: Duration) -> Duration {
    (clock / MARGIN_SHARE).clamp(MIN_MARGIN, MAX_MARGIN)
}

/// The time a player thinks on a move (or grounds a game) when the clock is `clock`: the clock
/// minus its safety margin, or nothing when the clock is shorter than the margin.
pub fn thinking_time(clock: Duration) -> Duration {
    clock.saturating_sub(safety_margin(clock))
}

/// When a player stops waiting for its own search and answers with the move it holds ready:
/// half the margin after the thinking time, so the answer still leaves before the clock ends.
pub fn answer_by(clock: Duration) -> Duration {
    clock.saturating_sub(safety_margin(clock) / 2)
}

/// When a player that is still grounding its game at the start gives up on grounding and builds
/// the interpreter instead: a quarter of the clock before [`answer_by`].
pub fn interpreter_by(clock: Duration) -> Duration {
    answer_by(clock).saturating_sub(clock / 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_second_clock_keeps_a_fifth_back() {
        assert_eq!(
            thinking_time(Duration::from_secs(1)),
            Duration::from_millis(800)
        );
        assert_eq!(
            answer_by(Duration::from_secs(1)),
            Duration::from_millis(900)
        );
        assert_eq!(
            interpreter_by(Duration::from_secs(10)),
            Duration::from_millis(6500)
        );
    }

    #[test]
    fn short_and_long_clocks_keep_the_bounded_margin() {
        assert_eq!(thinking_time(Duration::from_millis(100)), Duration::ZERO);
        assert_eq!(
            thinking_time(Duration::from_secs(60)),
            Duration::from_secs(58)
        );
    }
}
