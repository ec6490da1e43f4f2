//! `ludi/missing-part`: a mandatory part left out: the game's `players`, `board` or `end`, a
//! board's `tiling` or `size`, a move's `action`, a piece's `moves` — or the game itself.

use crate::ludi::{missing_parts, schema};
use crate::rules::Rule;
use crate::{Diagnostic, Severity, TextRange};

use super::Context;
use super::context::{entry, see};
use super::wrong_arity::takes_ludemes;

pub const MISSING_PART: Rule = Rule {
    code: "ludi/missing-part",
    severity: Severity::Error,
    summary: "a mandatory part is missing: players, board or end of a game, tiling or size of a board, ...",
    explanation: "\
Some parts cannot be left out, because nothing sensible can stand in for them: a game needs
`players`, `board` and `end` (the seed: \"players ... (mandatory)\", \"board ... (mandatory)\",
\"end ... (mandatory)\"); a board its `tiling` and `size`; a piece type its `moves`; a move its
`action`; an end clause a condition. Optional parts (`pieces`, `start`, `play`, `support`,
`shape`, ...) have defaults, listed in docs/ludi.md.

    (game Tic-Tac-Toe
      (players White Black)
      (board (tiling square i-nbors) (size 3 3)))   ; missing: (end ...)

Fix: add the part; the message gives an example.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if context.bound.no_game {
        let game = schema::game();
        out.push(Diagnostic::new(
            &MISSING_PART,
            TextRange::empty(0),
            format!(
                "the file has no `(game NAME ...)`, so there is no game to check: {}",
                see(game)
            ),
        ));
    }
    for missing in missing_parts(context.bound) {
        let ludeme = entry(missing.parent);
        let spec = &ludeme.params[missing.param];
        if !takes_ludemes(spec.accepts) {
            continue;
        }
        let (what, example) = match missing.part {
            Some(part) => (part.written(), see(part)),
            None => (format!("its {}", spec.name), see(ludeme)),
        };
        let message = format!("{} needs {what}: add it ({example})", ludeme.written());
        out.push(Diagnostic::new(&MISSING_PART, missing.range, message));
    }
}
