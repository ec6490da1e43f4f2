//! Training data from recorded matches (`ludeme match --record`, read by the match-play
//! crate's loader): the moves are replayed from the initial state, so that each decision of the
//! studied role gets its legal moves as well as its state.

use super::{Decision, Observe};
use crate::RoleIndex;
use crate::notation::named_moves;

/// A recorded match, as much of it as a model reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMatch {
    /// How errors name the match (its id).
    pub name: String,
    pub roles: Vec<String>,
    /// One joint move per step, one move name per role in `roles` order.
    pub moves: Vec<Vec<String>>,
    /// Per step and role, whether the move was the player's own answer (a substituted move
    /// is no decision of the player's); empty when the record does not say.
    pub answered: Vec<Vec<bool>>,
    /// Per step, the atoms of the state the joint move was made in, as recorded; empty when
    /// the record does not hold them. A replay that reaches another state is refused.
    pub states: Vec<Vec<String>>,
}

/// The decisions of `role` (states where it had two or more legal moves and its move was its
/// own) in `matches`, replayed on `game`; an error names the match and the step (from 1) whose
/// move is not legal or whose recorded state is not the replay's, or the record whose roles
/// are not the game's.
pub fn recorded_decisions<G: Observe>(
    game: &G,
    role: RoleIndex,
    matches: &[RecordedMatch],
) -> Result<Vec<Decision>, String> {
    let mut decisions = Vec::new();
    for record in matches {
        let number = &record.name;
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
            if let Some(recorded) = record.states.get(step - 1)
                && *recorded != game.atoms(&state)
            {
                return Err(format!(
                    "{}: the recorded state is not the one the moves lead to in this game",
                    at()
                ));
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
                let answered = record
                    .answered
                    .get(step - 1)
                    .and_then(|answered| answered.get(mover))
                    .is_none_or(|&answered| answered);
                if mover == role && legal.len() >= 2 && answered {
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
