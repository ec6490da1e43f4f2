//! `gdl/keyword-arity`: a keyword relation written with the wrong number of arguments.

use crate::gdl::keywords::{argument_names, keyword_relation_ignoring_case};
use crate::gdl::model::Sentence;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const KEYWORD_ARITY: Rule = Rule {
    code: "gdl/keyword-arity",
    severity: Severity::Error,
    summary: "a keyword relation (`role`, `legal`, `goal`, ...) with the wrong number of arguments",
    explanation: "\
The game manager reads the keyword relations with fixed arities: `role`, `init`, `true`, `next`
and `base` take one argument; `legal`, `does`, `goal`, `input` and GDL-II's `sees` take two;
`terminal` takes none. A keyword written with another arity is never matched by the manager,
so the game silently lacks moves, goals or state.

    (legal white (move 1 2))     ; right: the role and the action
    (legal white move 1 2)       ; wrong: four arguments
    (<= (goal white) (won))      ; wrong: the goal value is missing

Fix: give the keyword its arguments, grouping an action or fluent with several parts into one
function term (`(move 1 2)`).",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context.rules {
        check_sentence(&rule.head, out);
        for literal in &rule.body {
            literal.for_each_sentence(false, &mut |sentence, _| check_sentence(sentence, out));
        }
    }
}

fn check_sentence(sentence: &Sentence, out: &mut Vec<Diagnostic>) {
    let Some(keyword) = keyword_relation_ignoring_case(&sentence.name.name) else {
        return;
    };
    let Some(arity) = keyword.arity else {
        return;
    };
    if sentence.arity() == arity {
        return;
    }
    let name = &sentence.name.name;
    let has = plural(sentence.arity(), "argument");
    let message = match argument_names(keyword.name) {
        [] => format!("`{name}` takes no arguments, but here it has {has}: write `{name}` alone"),
        names => {
            let wanted = match names {
                [one] => format!("one argument ({one})"),
                _ => format!("{} arguments ({})", names.len(), names.join(" and ")),
            };
            let hint = if sentence.arity() > arity {
                match names.last() {
                    Some(&"the role name") => "declare each role in a fact of its own".to_owned(),
                    Some(&"the goal value") => "give one role and one goal value".to_owned(),
                    Some(last) => format!("group the parts of {last} into one function term"),
                    None => String::new(),
                }
            } else {
                format!(
                    "add {}",
                    names
                        .get(sentence.arity()..)
                        .unwrap_or_default()
                        .join(" and ")
                )
            };
            format!("`{name}` takes {wanted}, but here it has {has}: {hint}")
        }
    };
    out.push(Diagnostic::new(&KEYWORD_ARITY, sentence.range, message));
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
