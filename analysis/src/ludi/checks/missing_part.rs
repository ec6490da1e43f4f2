//! `ludi/missing-part`: a mandatory part left out: the game's `players`, `board` or `end`, a
//! board's `tiling` or `size`, a move's `action`, a piece's `moves` — or the game itself.

use crate::ludi::bind::Node;
use crate::ludi::{MissingPart, missing_parts, schema};
use crate::rules::Rule;
use crate::{Applicability, Diagnostic, Fix, Severity, TextRange};

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
        let mut diagnostic = Diagnostic::new(&MISSING_PART, missing.range, message);
        diagnostic.fixes.extend(add_from_example(context, &missing));
        out.push(diagnostic);
    }
}

/// "Add `(end ...)`": the part written as the schema's example, inserted where the schema puts
/// it, on a line of its own in a ludeme written over several lines. Unsafe: the example's values
/// (three in a row, White and Black) are the manual's, not the designer's.
fn add_from_example(context: &Context<'_>, missing: &MissingPart) -> Option<Fix> {
    let part = missing.part?;
    // Only an example that is the part itself can stand in for it.
    if !part.example.starts_with(&format!("({} ", part.name)) {
        return None;
    }
    let game = context.bound.game.as_ref()?;
    let mut node: Option<&Node> = None;
    game.walk(&mut |candidate| {
        if candidate.name_range == missing.range && candidate.entry == missing.parent {
            node = Some(candidate);
        }
    });
    let node = node?;
    let text = context.text;
    let insert_at = insertion_point(node, missing.param);
    let multiline = text
        .get(node.range.start..node.range.end)
        .is_some_and(|written| written.contains('\n'));
    let separator = if multiline {
        format!("\n{}", indentation_of_children(text, node))
    } else {
        " ".to_owned()
    };
    Some(Fix {
        title: format!("Add `{}`", part.example),
        edits: vec![(
            TextRange::empty(insert_at),
            format!("{separator}{}", part.example),
        )],
        applicability: Applicability::Unsafe,
    })
}

/// Where a missing argument of parameter `param` goes: after the last argument of an earlier
/// parameter, else right after the ludeme's name.
fn insertion_point(node: &Node, param: usize) -> usize {
    node.args
        .iter()
        .filter(|arg| arg.param < param)
        .map(|arg| arg.value.range().end)
        .max()
        .unwrap_or(node.name_range.end)
}

/// The indentation of a multi-line ludeme's children: that of its first argument on a line of
/// its own, else its own line's indentation and two spaces.
fn indentation_of_children(text: &str, node: &Node) -> String {
    let line_of = |offset: usize| {
        let before = text.get(..offset).unwrap_or(text);
        let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
        let indent: String = text[line_start..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        (line_start, indent)
    };
    let (own_line, own_indent) = line_of(node.range.start);
    node.args
        .iter()
        .map(|arg| line_of(arg.value.range().start))
        .find(|(line_start, _)| *line_start != own_line)
        .map_or_else(|| format!("{own_indent}  "), |(_, indent)| indent)
}
