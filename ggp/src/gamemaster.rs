//! The messages of the Stanford Gamemaster (seed 001's "Messages" slides), the protocol's
//! first form, beside the GGP HTTP form of [`crate::messages`]: the same five requests written
//! as infix terms, the rules in the Gamemaster's infix GDL.
//!
//! Requests: `ping()` (also `ping(N)` and a bare `ping`),
//! `start(ID, ROLE, ruleset(R1, …, Rk), STARTCLOCK, PLAYCLOCK)`, `play(ID, nil|[]|ACTION)`,
//! `stop(ID, nil|[]|ACTION)`, `abort(ID)`. An action is the move of the role in control on
//! the step before (`mark(1,1)`); a list `[A1, …, An]` gives one action per role instead, for
//! games where several roles choose at once. Replies: `ready` (or `busy`) to `ping` and
//! `start`, the player's action to `play` (nothing when it is not in control: "no need to
//! reply if not in control"), `done` to `stop` and `abort`.
//!
//! The outer structure (a name and its arguments, split at the commas outside parentheses) is
//! read here; every action is read by the project's infix GDL reader and turned into the KIF
//! term the engines name moves with, and the rules go to the infix reader whole. A message is
//! never trusted: it is read only when it is at most [`MAX_MESSAGE_BYTES`] long and nested at
//! most [`MAX_DEPTH`] deep, and each malformed message gets one [`MessageError`] with the
//! byte offset of what is wrong.

use ludeme_analysis::Syntax;
use ludeme_analysis::gdl::format_gdl_text;

use crate::messages::{MAX_DEPTH, MAX_MESSAGE_BYTES, MessageError, Term, read_terms};

/// What a `play` or `stop` message says was played on the step before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `nil` or `[]`: the first step, nothing played yet.
    First,
    /// The action of the role in control; every other role played its only legal move.
    Action(Term),
    /// One action per role, in the game's role order.
    Joint(Vec<Term>),
}

/// A request of the Gamemaster form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GamemasterRequest {
    Ping,
    Start {
        id: String,
        role: String,
        /// The rules in infix GDL, one per line, as the ruleset listed them.
        rules: String,
        start_clock: u64,
        play_clock: u64,
    },
    Play {
        id: String,
        step: Step,
    },
    Stop {
        id: String,
        step: Step,
    },
    Abort {
        id: String,
    },
}

/// Whether `text` is a message of the Gamemaster form rather than of the GGP form: a GGP
/// message is a KIF list, so its first character (after blank space) is `(`.
pub fn is_gamemaster_form(text: &str) -> bool {
    text.trim_start().chars().next().is_some_and(|c| c != '(')
}

fn error(offset: usize, problem: impl Into<String>) -> MessageError {
    MessageError {
        offset,
        problem: problem.into(),
    }
}

/// A piece of the message: its text and where it starts.
#[derive(Clone, Copy, Debug)]
struct Piece<'a> {
    text: &'a str,
    offset: usize,
}

impl<'a> Piece<'a> {
    fn trimmed(text: &'a str, offset: usize) -> Piece<'a> {
        let start = text.len() - text.trim_start().len();
        Piece {
            text: text.trim(),
            offset: offset + start,
        }
    }
}

/// `name(arguments)` (or a bare `name`) split into the name and the arguments at the commas
/// outside parentheses, brackets, strings and `%` comments; `open`/`close` are the brackets
/// around the arguments (`()` for a compound term, `[]` for a list).
fn split_compound<'a>(
    piece: Piece<'a>,
    open: char,
    close: char,
) -> Result<(Piece<'a>, Vec<Piece<'a>>), MessageError> {
    let text = piece.text;
    let name_end = text.find(open).unwrap_or(text.len());
    let name = Piece::trimmed(&text[..name_end], piece.offset);
    if name_end == text.len() {
        return Ok((name, Vec::new()));
    }
    let mut arguments = Vec::new();
    let mut depth = 0usize;
    let mut start = name_end + 1;
    let mut in_string = false;
    let mut in_comment = false;
    for (index, c) in text.char_indices().skip_while(|&(i, _)| i < name_end) {
        let at = piece.offset + index;
        match c {
            '\n' | '\r' if in_comment => in_comment = false,
            _ if in_comment => {}
            '"' => in_string = !in_string,
            _ if in_string => {}
            '%' => in_comment = true,
            '(' | '[' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(error(at, format!("terms nest more than {MAX_DEPTH} deep")));
                }
            }
            ')' | ']' => {
                if depth == 0 {
                    return Err(error(at, format!("an unmatched `{c}`")));
                }
                depth -= 1;
                if depth == 0 {
                    if c != close {
                        return Err(error(at, format!("`{open}` closed by `{c}`")));
                    }
                    arguments.push(Piece::trimmed(&text[start..index], piece.offset + start));
                    let rest = &text[index + 1..];
                    if !rest.trim().is_empty() {
                        let after = index + 1 + (rest.len() - rest.trim_start().len());
                        return Err(error(
                            piece.offset + after,
                            "text after the end of the term",
                        ));
                    }
                    // `name()` has no arguments, not one empty argument.
                    if arguments.len() == 1 && arguments[0].text.is_empty() {
                        arguments.clear();
                    }
                    return Ok((name, arguments));
                }
            }
            ',' if depth == 1 => {
                arguments.push(Piece::trimmed(&text[start..index], piece.offset + start));
                start = index + 1;
            }
            _ => {}
        }
    }
    Err(error(
        piece.offset + text.len(),
        format!("a missing `{close}`"),
    ))
}

/// Whether `text` is a symbol or a number: a match id, a role, a clock.
fn is_symbol(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
}

/// An action in infix GDL (`mark(1,1)`) as the KIF term the engines name moves with, read by
/// the project's infix reader.
pub fn read_action(text: &str) -> Result<Term, String> {
    if text.contains(":-") {
        return Err(format!("`{text}` is a rule, not an action"));
    }
    let kif = format_gdl_text(&format!("{text}\n"), Syntax::GdlInfix, Syntax::GdlKif)
        .map_err(|why| format!("`{text}` is not an infix GDL action: {why}"))?;
    match read_terms(&kif) {
        Ok(mut terms) if terms.len() == 1 => Ok(terms.remove(0)),
        _ => Err(format!("`{text}` is not one infix GDL action")),
    }
}

/// A KIF move (`(mark 1 1)`) written as the Gamemaster writes actions: `mark(1,1)`.
pub fn infix_action(term: &Term) -> String {
    match term {
        Term::Atom(atom) => atom.clone(),
        Term::List(elements) => match elements.split_first() {
            Some((head, arguments)) => {
                let arguments: Vec<String> = arguments.iter().map(infix_action).collect();
                format!("{}({})", infix_action(head), arguments.join(","))
            }
            None => "[]".to_owned(),
        },
    }
}

fn is_empty_step(text: &str) -> bool {
    text.eq_ignore_ascii_case("nil") || text.split_whitespace().collect::<String>() == "[]"
}

impl GamemasterRequest {
    /// Reads a request of the Gamemaster form; one error for a malformed one.
    pub fn parse(text: &str) -> Result<GamemasterRequest, MessageError> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(error(
                MAX_MESSAGE_BYTES,
                format!(
                    "the message is {} bytes long; at most {MAX_MESSAGE_BYTES} are read",
                    text.len()
                ),
            ));
        }
        let (name, arguments) = split_compound(Piece::trimmed(text, 0), '(', ')')?;
        if !is_symbol(name.text) {
            return Err(error(
                name.offset,
                "a message begins with its kind: ping, start, play, stop or abort",
            ));
        }
        let keyword = name.text.to_ascii_lowercase();
        let expect = |count: usize, form: &str| {
            if arguments.len() == count {
                Ok(())
            } else {
                Err(error(
                    name.offset,
                    format!(
                        "`{keyword}` takes {count} argument(s), {} given: {form}",
                        arguments.len()
                    ),
                ))
            }
        };
        let symbol = |index: usize, what: &str| {
            let argument = arguments[index];
            if is_symbol(argument.text) {
                Ok(argument.text.to_owned())
            } else {
                Err(error(
                    argument.offset,
                    format!("the {what} of `{keyword}` is a symbol"),
                ))
            }
        };
        let clock = |index: usize, what: &str| {
            let argument = arguments[index];
            argument.text.parse::<u64>().map_err(|_| {
                error(
                    argument.offset,
                    format!("the {what} of `{keyword}` is whole seconds"),
                )
            })
        };
        let action = |piece: Piece<'_>| {
            read_action(piece.text).map_err(|problem| error(piece.offset, problem))
        };
        let step = |index: usize| {
            let argument = arguments[index];
            if is_empty_step(argument.text) {
                Ok(Step::First)
            } else if argument.text.starts_with('[') {
                let (_, actions) = split_compound(argument, '[', ']')?;
                actions
                    .into_iter()
                    .map(action)
                    .collect::<Result<_, _>>()
                    .map(Step::Joint)
            } else {
                action(argument).map(Step::Action)
            }
        };
        match keyword.as_str() {
            "ping" if arguments.len() <= 1 => Ok(GamemasterRequest::Ping),
            "ping" => expect(1, "ping(ID)").map(|()| GamemasterRequest::Ping),
            "start" => {
                expect(5, "start(ID, ROLE, ruleset(...), STARTCLOCK, PLAYCLOCK)")?;
                let (head, rules) = split_compound(arguments[2], '(', ')')?;
                if !head.text.eq_ignore_ascii_case("ruleset") {
                    return Err(error(
                        arguments[2].offset,
                        "the rules of `start` are `ruleset(R1, ..., Rk)`",
                    ));
                }
                let rules: Vec<&str> = rules.iter().map(|rule| rule.text).collect();
                Ok(GamemasterRequest::Start {
                    id: symbol(0, "match id")?,
                    role: symbol(1, "role")?,
                    rules: rules.join("\n") + "\n",
                    start_clock: clock(3, "start clock")?,
                    play_clock: clock(4, "play clock")?,
                })
            }
            "play" | "stop" => {
                expect(2, &format!("{keyword}(ID, ACTION)"))?;
                let id = symbol(0, "match id")?;
                let step = step(1)?;
                Ok(if keyword == "play" {
                    GamemasterRequest::Play { id, step }
                } else {
                    GamemasterRequest::Stop { id, step }
                })
            }
            "abort" => {
                expect(1, "abort(ID)")?;
                Ok(GamemasterRequest::Abort {
                    id: symbol(0, "match id")?,
                })
            }
            other => Err(error(
                name.offset,
                format!("`{other}` is no message of the protocol (ping, start, play, stop, abort)"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn kif(text: &str) -> Term {
        read_terms(text).unwrap().remove(0)
    }

    #[test]
    fn the_five_requests_of_the_slides_are_read() {
        assert_eq!(
            GamemasterRequest::parse("ping()"),
            Ok(GamemasterRequest::Ping)
        );
        assert_eq!(
            GamemasterRequest::parse(
                "start(m01, x, ruleset(role(x), role(o), legal(x, noop) :- true(control(o))), 10, 10)"
            ),
            Ok(GamemasterRequest::Start {
                id: "m01".to_owned(),
                role: "x".to_owned(),
                rules: "role(x)\nrole(o)\nlegal(x, noop) :- true(control(o))\n".to_owned(),
                start_clock: 10,
                play_clock: 10,
            })
        );
        assert_eq!(
            GamemasterRequest::parse("play(m01,[])"),
            Ok(GamemasterRequest::Play {
                id: "m01".to_owned(),
                step: Step::First
            })
        );
        assert_eq!(
            GamemasterRequest::parse("play(m01,mark(1,1))"),
            Ok(GamemasterRequest::Play {
                id: "m01".to_owned(),
                step: Step::Action(kif("(mark 1 1)"))
            })
        );
        assert_eq!(
            GamemasterRequest::parse("stop(m01, [mark(1,3), noop])"),
            Ok(GamemasterRequest::Stop {
                id: "m01".to_owned(),
                step: Step::Joint(vec![kif("(mark 1 3)"), kif("noop")])
            })
        );
        assert_eq!(
            GamemasterRequest::parse("abort(m01)"),
            Ok(GamemasterRequest::Abort {
                id: "m01".to_owned()
            })
        );
    }

    #[test]
    fn actions_are_written_back_as_the_slides_write_them() {
        assert_eq!(infix_action(&kif("(mark 1 1)")), "mark(1,1)");
        assert_eq!(infix_action(&kif("noop")), "noop");
        assert_eq!(
            infix_action(&kif("(move (cell 1 2) up)")),
            "move(cell(1,2),up)"
        );
    }

    #[test]
    fn each_malformed_message_gets_one_error_at_its_place() {
        let cases = [
            ("play(m01, mark(1,1)", 19, "missing `)`"),
            ("play(m01, mark(1,1)))", 20, "after the end"),
            ("[m01]", 0, "begins with its kind"),
            ("play(m01, mark(1,1)) x", 21, "after the end"),
            ("dance(m01)", 0, "no message"),
            (
                "start(m01, x, ruleset(role(x)), ten, 1)",
                32,
                "whole seconds",
            ),
            ("start(m01, x, rules(role(x)), 1, 1)", 14, "ruleset"),
            ("play(m(1), nil)", 5, "symbol"),
            ("play(m01, mark(1,1) :- p)", 10, "a rule"),
            ("abort(m01, m02)", 0, "takes 1"),
        ];
        for (message, offset, expected) in cases {
            let error = GamemasterRequest::parse(message).unwrap_err();
            assert!(error.problem.contains(expected), "{message}: {error}");
            assert_eq!(error.offset, offset, "{message}: {error}");
        }
        let deep = format!(
            "play(m, {}{})",
            "f(".repeat(MAX_DEPTH),
            ")".repeat(MAX_DEPTH)
        );
        assert!(
            GamemasterRequest::parse(&deep)
                .unwrap_err()
                .problem
                .contains("deep")
        );
    }

    proptest! {
        /// Any text gets a request or one error, never a panic, and an error's offset lies in
        /// the text.
        #[test]
        fn any_text_is_read_or_refused(text in "[a-z(),\\[\\] %\"\n:-]{0,60}") {
            if let Err(error) = GamemasterRequest::parse(&text) {
                prop_assert!(error.offset <= text.len());
            }
        }
    }
}
