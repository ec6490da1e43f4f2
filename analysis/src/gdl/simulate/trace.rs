//! Where in random play something happened, rendered briefly for a diagnostic: the playout, the
//! last joint moves and the state.

use ludeme_engine::gdl::{ReasonerMove, ReasonerState};

use super::engine::SimulationEngine;

/// How many of the last joint moves and of the state's fluents a message shows.
const SHOWN_PLIES: usize = 3;
const SHOWN_FLUENTS: usize = 8;

/// A point of random play, rendered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// 1-based, so that a message can say "in playout 3".
    pub playout: u64,
    /// Joint moves played before this point.
    pub ply: usize,
    /// The last joint moves, oldest first (`xplayer (mark 1 1), oplayer noop; ...`).
    pub moves: String,
    /// Some of the state's fluents (`(cell 1 1 x) (control oplayer) … and 8 more`).
    pub state: String,
}

impl Trace {
    pub fn new(
        engine: &SimulationEngine,
        roles: &[String],
        playout: u64,
        history: &[Vec<ReasonerMove>],
        state: &ReasonerState,
    ) -> Trace {
        let shown_from = history.len().saturating_sub(SHOWN_PLIES);
        let mut moves: Vec<String> = history[shown_from..]
            .iter()
            .map(|joint| {
                roles
                    .iter()
                    .zip(joint)
                    .map(|(role, action)| format!("{role} {}", engine.render_move(action)))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect();
        if shown_from > 0 {
            moves.insert(0, format!("… {shown_from} earlier plies"));
        }
        let mut fluents = engine.render_state(state);
        let hidden = fluents.len().saturating_sub(SHOWN_FLUENTS);
        fluents.truncate(SHOWN_FLUENTS);
        if hidden > 0 {
            fluents.push(format!("… and {hidden} more"));
        }
        Trace {
            playout,
            ply: history.len(),
            moves: moves.join("; "),
            state: if fluents.is_empty() {
                "no fluent true".to_owned()
            } else {
                fluents.join(" ")
            },
        }
    }

    /// "in playout 2, after 5 plies (…; xplayer (mark 1 1), oplayer noop), in the state {…}".
    pub fn describe(&self) -> String {
        let when = match self.ply {
            0 => "in the initial state".to_owned(),
            1 => format!("after 1 ply ({})", self.moves),
            plies => format!("after {plies} plies ({})", self.moves),
        };
        format!(
            "in playout {}, {when}, with {{{}}}",
            self.playout, self.state
        )
    }
}
