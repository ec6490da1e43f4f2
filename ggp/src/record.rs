//! Match records: what `ludeme match --record FILE` (a JSON list of records) and
//! `--record-dir DIR` (one `<matchId>.json` per match) write, and reading them back as steps
//! of (state, joint move) for learning from real players' games.
//!
//! # The format
//!
//! A record ([`MatchRecord`]) is a JSON object with the field names of ggp.org's match archive,
//! and a few of Ludeme's own:
//!
//! | field | content |
//! |---|---|
//! | `matchId` | the match's id, as sent in `start` |
//! | `game` | the game's file, as given to `ludeme match` |
//! | `roles` | the role names, in the game's order |
//! | `playerNamesFromHost` | the player of each role: its URL |
//! | `startClock`, `playClock` | the clocks, in seconds |
//! | `moves` | one list per step: the joint move, one move per role in `roles` order (KIF, `(mark 1 1)`; `noop`) |
//! | `states` | the initial state, then the state after each step: each a sorted list of what holds (a GDL game's fluents in KIF, `(cell 1 1 x)`, `(control oplayer)`) |
//! | `errors` | one list per message round, one entry per role, empty when none: the `start` round, then one per step (a late, illegal or unreadable answer, replaced by a random legal move) |
//! | `replyMillis` | per step, per role: milliseconds from sending `play` to the whole reply |
//! | `goalValues` | the goals by role when the game ended, else `null` |
//! | `isCompleted`, `isAborted`, `abortReason` | how the match ended |
//!
//! So `states[i]` is the state in which the joint move `moves[i]` was made, and
//! `states[moves.len()]` the final one. A move in `moves` is the one played: a substituted
//! move, where the player's answer was refused, is marked by the step's entry in `errors`.

use std::path::Path;

use ludeme_analysis::play::Reward;

pub use crate::manager::MatchRecord;

/// One step of a recorded match: the state the roles were in, and the joint move they made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedStep {
    /// What held in the state, sorted (a GDL game's fluents in KIF).
    pub state: Vec<String>,
    /// The joint move: one move per role, in the record's role order.
    pub moves: Vec<String>,
    /// Per role, whether its move was the player's own answer (`false`: its answer was late,
    /// illegal or unreadable, and the manager played a random legal move for it).
    pub answered: Vec<bool>,
}

/// A recorded match read as steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedSteps {
    pub match_id: String,
    pub game: String,
    pub roles: Vec<String>,
    pub steps: Vec<RecordedStep>,
    /// The state after the last step.
    pub final_state: Vec<String>,
    /// The goals by role, when the game ended.
    pub goals: Option<Vec<Reward>>,
}

/// Reads the match records in `text`: a JSON list of records (`--record FILE`) or one record
/// (a file of `--record-dir`). An error names the place that could not be read.
pub fn read_records(text: &str) -> Result<Vec<MatchRecord>, String> {
    // Chosen by the first character, so that the error is the one of the shape meant.
    let records = if text.trim_start().starts_with('[') {
        serde_json::from_str::<Vec<MatchRecord>>(text)
    } else {
        serde_json::from_str::<MatchRecord>(text).map(|record| vec![record])
    };
    records.map_err(|error| format!("not a match record or a list of them: {error}"))
}

/// Reads the records of the file at `path` (see [`read_records`]) as steps of (state, joint
/// move) with [`steps_of`]: the loader for learning from recorded games. An error names the
/// file, and the match and step where a record is not whole.
pub fn load_steps(path: &Path) -> Result<Vec<RecordedSteps>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let at = |why: String| format!("{}: {why}", path.display());
    read_records(&text)
        .map_err(at)?
        .iter()
        .map(|record| steps_of(record).map_err(at))
        .collect()
}

/// A record as steps: `states[i]` with `moves[i]`, each move marked as answered or
/// substituted. A record without its states (written before they were recorded) or whose
/// lists do not line up is refused, with the match and step.
pub fn steps_of(record: &MatchRecord) -> Result<RecordedSteps, String> {
    let id = &record.match_id;
    if record.states.len() < record.moves.len() + 1 {
        return Err(format!(
            "match {id}: {} state(s) for {} step(s); a record needs the state before each step and the last one",
            record.states.len(),
            record.moves.len()
        ));
    }
    let roles = record.roles.len();
    let mut steps = Vec::with_capacity(record.moves.len());
    for (index, moves) in record.moves.iter().enumerate() {
        if moves.len() != roles {
            return Err(format!(
                "match {id}, step {}: {} move(s) for {roles} role(s)",
                index + 1,
                moves.len()
            ));
        }
        // `errors[0]` is the start round; step i's errors are `errors[i + 1]`.
        let errors = record.errors.get(index + 1);
        let answered = (0..roles)
            .map(|role| {
                errors
                    .and_then(|errors| errors.get(role))
                    .is_none_or(String::is_empty)
            })
            .collect();
        steps.push(RecordedStep {
            state: record.states[index].clone(),
            moves: moves.clone(),
            answered,
        });
    }
    Ok(RecordedSteps {
        match_id: id.clone(),
        game: record.game.clone(),
        roles: record.roles.clone(),
        steps,
        final_state: record.states[record.moves.len()].clone(),
        goals: record.goal_values.clone(),
    })
}
