//! Training data from recorded matches: the records `ludeme match --record` writes (the shape
//! of ggp.org's match archive: `roles`, and `moves`, one list per step with one move name per
//! role), replayed from the initial state so that each of the studied role's decisions gets
//! the state it was made in.

use serde::Deserialize;

use super::{Decision, Observe};
use crate::RoleIndex;
use crate::notation::named_moves;

/// The parts of a match record a model reads; the record's other fields are ignored.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedMatch {
    pub roles: Vec<String>,
    /// One list per step, one move name per role in `roles` order.
    pub moves: Vec<Vec<String>>,
}

/// Reads a file of match records: a JSON list of them (what `ludeme match --record` writes), or
/// one record alone. The error names the place (line and column) that could not be read.
pub fn read_match_records(text: &str) -> Result<Vec<RecordedMatch>, String> {
    // Chosen by the first character rather than by trying both shapes, so that the error is
    // the one of the shape meant, with its position.
    let records = if text.trim_start().starts_with('[') {
        serde_json::from_str::<Vec<RecordedMatch>>(text)
    } else {
        serde_json::from_str::<RecordedMatch>(text).map(|record| vec![record])
    };
    match records {
        Ok(records) => Ok(records),
        Err(error) => Err(format!("not a list of match records: {error}")),
    }
}

/// The decisions of `role` (states where it had two or more legal moves) in `matches`,
/// replayed on `game`; an error names the match and step (both from 1) whose move is not
/// legal, or the record whose roles are not the game's.
pub fn recorded_decisions<G: Observe>(
    game: &G,
    role: RoleIndex,
    matches: &[RecordedMatch],
) -> Result<Vec<Decision>, String> {
    let mut decisions = Vec::new();
    for (number, record) in matches.iter().enumerate() {
        let number = number + 1;
        if record.roles.as_slice() != game.roles() {
            return Err(format!(
                "match {number}: its roles are {}, the game's are {}",
                record.roles.join(", "),
                game.roles().join(", ")
            ));
        }
        let mut state = game.initial_state();
        for (step, joint_names) in record.moves.iter().enumerate() {
            let step = step + 1;
            let at = || format!("match {number}, step {step}");
            if game.is_terminal(&state) {
                return Err(format!("{}: the game was already over", at()));
            }
            if joint_names.len() != game.roles().len() {
                return Err(format!(
                    "{}: {} moves for {} roles",
                    at(),
                    joint_names.len(),
                    game.roles().len()
                ));
            }
            let mut joint = Vec::with_capacity(joint_names.len());
            for (mover, name) in joint_names.iter().enumerate() {
                let legal = named_moves(game, &state, mover);
                if let Some(why) = game.failure() {
                    return Err(format!("{}: the engine gave up: {why}", at()));
                }
                let Some(index) = legal.iter().position(|(legal_name, _)| legal_name == name)
                else {
                    return Err(format!(
                        "{}: `{name}` is not a legal move of {}",
                        at(),
                        game.roles()[mover]
                    ));
                };
                if mover == role && legal.len() >= 2 {
                    decisions.push(Decision {
                        atoms: game.atoms(&state),
                        legal: legal
                            .iter()
                            .map(|(_, action)| game.move_text(&state, mover, action))
                            .collect(),
                        chosen: game.move_text(&state, mover, &legal[index].1),
                    });
                }
                joint.push(legal[index].1.clone());
            }
            state = game.next_state(&state, &joint);
            if let Some(why) = game.failure() {
                return Err(format!("{}: the engine gave up: {why}", at()));
            }
        }
    }
    Ok(decisions)
}
