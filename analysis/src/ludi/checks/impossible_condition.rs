//! `ludi/impossible-condition`: an end condition the board can never satisfy: a line longer
//! than the board's longest line, a group larger than the board, a connection of more targets
//! than it names.

use crate::ludi::model::{Board, ConnectTarget, EndCondition};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const IMPOSSIBLE_CONDITION: Rule = Rule {
    code: "ludi/impossible-condition",
    severity: Severity::Warning,
    summary: "an end condition that can never hold on this board",
    explanation: "\
Some conditions ask for more than the board has room for: a line of N cannot be made when no
straight line of the board has N cells, a group of N pieces cannot be formed on fewer than N
cells, a chain cannot join N of fewer than N named targets (`(connect 3 North South)`). Such a clause never ends the game; if it is the only way to win, every game is a draw.
The seed's example is Tic-Tac-Toe on a 2×2 board: three in a row is impossible.

    (board (tiling square i-nbors) (size 2 2))
    (end (All win (in-a-row 3)))      ; the longest line has 2 cells

Fix: enlarge the board or shorten the line. (The longest line: the longer side of a square
board, 2n−1 on a hexagon of side n, n on a hex triangle, W+H−1 on a trapezium.)",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(game) = context.game else { return };
    let Some(board) = &game.board else { return };
    for clause in &game.end.clauses {
        visit(&clause.condition, board, out);
    }
}

fn visit(condition: &EndCondition, board: &Board, out: &mut Vec<Diagnostic>) {
    match condition {
        EndCondition::And(parts) | EndCondition::Or(parts) => {
            for part in parts {
                visit(part, board, out);
            }
        }
        EndCondition::Not(inner) => visit(inner, board, out),
        EndCondition::InARow { length, range, .. } => {
            if let Some(longest) = board.longest_line()
                && u64::try_from(*length).is_ok_and(|length| length > longest)
            {
                let message = format!(
                    "a line of {length} can never be made: the longest line of this board has {longest} cells; \
                     enlarge the board or shorten the line (see docs/ludi.md#endcondition-in-a-row)"
                );
                out.push(Diagnostic::new(&IMPOSSIBLE_CONDITION, *range, message));
            }
        }
        EndCondition::Group {
            size: Some(size),
            range,
            ..
        } => {
            if let Some(cells) = board.cell_count()
                && u64::try_from(*size).is_ok_and(|size| size > cells)
            {
                let message = format!(
                    "a group of {size} can never be formed: the board has only {cells} cells; \
                     enlarge the board or shrink the group (see docs/ludi.md#endcondition-group)"
                );
                out.push(Diagnostic::new(&IMPOSSIBLE_CONDITION, *range, message));
            }
        }
        EndCondition::Connect {
            targets,
            count: Some(count),
            range,
            ..
        } => {
            // `own-regions` stands for however many regions each player owns: not counted.
            let named = targets.len();
            let all_named = targets
                .iter()
                .all(|t| matches!(t.value, ConnectTarget::Region(_)));
            if all_named && usize::try_from(*count).is_ok_and(|count| count > named) {
                let message = format!(
                    "a chain can never join {count} of these targets: only {named} are named; \
                     name more targets or lower the count (see docs/ludi.md#endcondition-connect)"
                );
                out.push(Diagnostic::new(&IMPOSSIBLE_CONDITION, *range, message));
            }
        }
        _ => {}
    }
}
