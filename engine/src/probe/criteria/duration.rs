//! Criteria of the games' lengths. `M_g` is game g's length in plies (its random opening
//! included), `M_pref` the preferred length (60).

use super::{Trials, mean, variance};

fn lengths(trials: &Trials) -> Vec<f64> {
    trials.histories.iter().map(|h| h.length as f64).collect()
}

/// Duration (seed eq. (3)): `1 − mean_g |M_pref − M_g| / M_pref`. The seed writes a sum over the
/// games; its mean is taken here so that the figure does not depend on how many games were
/// played (a sum would fall below −1 after a few games).
pub fn duration(trials: &Trials) -> Option<f64> {
    let preferred = trials.preferred_length.max(1) as f64;
    mean(
        lengths(trials)
            .into_iter()
            .map(|length| (preferred - length).abs() / preferred),
    )
    .map(|distance| 1.0 - distance)
}

/// Length (Ludii `duration/DurationMoves`): `mean_g M_g`.
pub fn length(trials: &Trials) -> Option<f64> {
    mean(lengths(trials))
}

/// Length spread (Ludii `duration/DurationTurnsStdDev`): the standard deviation of `M_g`.
pub fn length_spread(trials: &Trials) -> Option<f64> {
    let lengths = lengths(trials);
    (!lengths.is_empty()).then(|| variance(&lengths).sqrt())
}

/// Length of the games not abandoned (Ludii `duration/DurationTurnsNotTimeouts`): `mean M_g`
/// over the games that ended by the rules.
pub fn length_not_abandoned(trials: &Trials) -> Option<f64> {
    mean(
        trials
            .histories
            .iter()
            .filter(|h| !h.abandoned)
            .map(|h| h.length as f64),
    )
}
