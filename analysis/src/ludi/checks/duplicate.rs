//! `ludi/duplicate`: a ludeme given twice where one is allowed, or a name declared twice.

use std::collections::HashMap;

use crate::ludi::bind::{Finding, Value};
use crate::ludi::schema::Namespace;
use crate::rules::Rule;
use crate::{Diagnostic, Severity, TextRange};

use super::Context;
use super::context::{entry, see};

pub const DUPLICATE: Rule = Rule {
    code: "ludi/duplicate",
    severity: Severity::Error,
    summary: "a ludeme given twice where it may appear once, or a player, piece or region declared twice",
    explanation: "\
A game has one `players`, one `board`, one `end`; a board one `tiling` and one `size`; a move
one `pre` and one `action`. Names are unique in their scope: two players, two piece types or
two regions may not share a name (the seed: \"the first item of each element is its name which
must be unique within its current scope\").

    (board (tiling square) (size 3 3) (size 4 4))   ; which size?
    (players White White)                            ; two players named White

Fix: keep one (merge what each says), or rename one of the two.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for finding in context.findings() {
        let Finding::Duplicate {
            range,
            parent,
            param,
            first,
        } = finding
        else {
            continue;
        };
        let message = match parent {
            Some(index) => {
                let ludeme = entry(*index);
                let spec = &ludeme.params[*param];
                format!(
                    "{} takes one {}, and one was already given: keep one of them ({})",
                    ludeme.written(),
                    spec.name,
                    see(ludeme)
                )
            }
            None => "a file holds one game, and this file already has one: move this game to a file of its own".to_owned(),
        };
        out.push(
            Diagnostic::new(&DUPLICATE, *range, message).with_label(*first, "first given here"),
        );
    }
    let Some(game) = &context.bound.game else {
        return;
    };
    let mut declared: HashMap<(Namespace, &str), TextRange> = HashMap::new();
    game.walk_args(&mut |_, arg| {
        let Value::Name { text, range, use_ } = &arg.value else {
            return;
        };
        if !use_.declares || matches!(use_.namespace, Namespace::Flag | Namespace::Game) {
            return;
        }
        if let Some(first) = declared.get(&(use_.namespace, text.as_str())) {
            let kind = use_.namespace.describe();
            let message = format!(
                "a {kind} named `{text}` is already declared: give this {kind} another name"
            );
            out.push(
                Diagnostic::new(&DUPLICATE, *range, message)
                    .with_label(*first, "first declared here"),
            );
        } else {
            declared.insert((use_.namespace, text.as_str()), *range);
        }
    });
}
