//! The messages of the GGP HTTP protocol (the bodies ggp-base's GameServer posts and its players
//! answer), read with the project's KIF reader and printed back in the same form.
//!
//! Requests: `(info)`, `(preview (RULES…) CLOCK)`, `(start ID ROLE (RULES…) START PLAY)`,
//! `(play ID (MOVES…)|nil)`, `(stop ID (MOVES…)|nil)`, `(abort ID)`. Replies: `available` or
//! `busy` (to `info`, as a `((name N) (status S))` list), `ready`, a move, `done`.
//!
//! A message is never trusted: it is read only when it is at most [`MAX_MESSAGE_BYTES`] long
//! and nested at most [`MAX_DEPTH`] deep, and each malformed message gets one
//! [`MessageError`] with the byte offset of what is wrong.

use std::fmt;

use ludeme_analysis::kif_forms::{FormKind, Forms};
use ludeme_analysis::{Syntax, parse_text};

/// The longest message read: big games' rules run to a few hundred kilobytes.
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// The deepest nesting of lists read: real rules nest a handful of levels.
pub const MAX_DEPTH: usize = 64;

/// A KIF term: an atom (constant, number, variable) or a list (a rule is a list headed `<=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Atom(String),
    List(Vec<Term>),
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Atom(atom) => f.write_str(atom),
            Term::List(elements) => {
                f.write_str("(")?;
                for (index, element) in elements.iter().enumerate() {
                    if index > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{element}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl Term {
    fn atom(&self) -> Option<&str> {
        match self {
            Term::Atom(atom) => Some(atom),
            Term::List(_) => None,
        }
    }
}

/// Why a message could not be read: what is wrong, and where (a byte offset in the message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageError {
    pub offset: usize,
    pub problem: String,
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.problem)
    }
}

impl std::error::Error for MessageError {}

fn error(offset: usize, problem: impl Into<String>) -> MessageError {
    MessageError {
        offset,
        problem: problem.into(),
    }
}

/// Reads every top-level KIF term of `text`, refusing text over the size and depth limits and
/// text with a syntax error (the first one is reported).
pub fn read_terms(text: &str) -> Result<Vec<Term>, MessageError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(error(
            MAX_MESSAGE_BYTES,
            format!(
                "the message is {} bytes long; at most {MAX_MESSAGE_BYTES} are read",
                text.len()
            ),
        ));
    }
    if let Some(offset) = too_deep(text) {
        return Err(error(
            offset,
            format!("lists nest more than {MAX_DEPTH} deep"),
        ));
    }
    let parse = parse_text(Syntax::GdlKif, text, None);
    let root = parse.root();
    if root.has_error() {
        return Err(first_syntax_error(root));
    }
    let forms = Forms::from_tree(root);
    Ok(terms_of(&forms, text))
}

/// Where the nesting of parentheses first goes beyond [`MAX_DEPTH`] (outside comments), so
/// that neither the parser nor the terms built recurse without bound.
fn too_deep(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_comment = false;
    for (offset, byte) in text.bytes().enumerate() {
        match byte {
            b'\n' | b'\r' => in_comment = false,
            _ if in_comment => {}
            b';' => in_comment = true,
            b'(' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(offset);
                }
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The first ERROR or MISSING node of a tree that has one, as a message error.
fn first_syntax_error(root: tree_sitter::Node<'_>) -> MessageError {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_missing() {
            return error(node.start_byte(), format!("a missing `{}`", node.kind()));
        }
        if node.is_error() {
            return error(node.start_byte(), "text that is not KIF");
        }
        // Depth first into the children that hold the error.
        let mut entered = false;
        if node.has_error() && cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                if child.has_error() || child.is_missing() || child.is_error() {
                    entered = true;
                    break;
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        if !entered {
            return error(node.start_byte(), "text that is not KIF");
        }
    }
}

/// The terms of `forms`, built bottom-up (children close before their parents), so without
/// recursion.
fn terms_of(forms: &Forms, text: &str) -> Vec<Term> {
    let mut built: Vec<Option<Term>> = Vec::with_capacity(forms.all().len());
    for (id, form) in forms.all().iter().enumerate() {
        let id = id as u32;
        let term = match form.kind {
            FormKind::Constant | FormKind::Number | FormKind::Variable => {
                Term::Atom(text[form.range.start..form.range.end].to_owned())
            }
            FormKind::List => Term::List(take_children(forms, id, &mut built)),
            FormKind::Rule => {
                let mut elements = vec![Term::Atom("<=".to_owned())];
                elements.extend(take_children(forms, id, &mut built));
                Term::List(elements)
            }
        };
        built.push(Some(term));
    }
    forms
        .top_level()
        .iter()
        .filter_map(|&id| built[id as usize].take())
        .collect()
}

fn take_children(forms: &Forms, id: u32, built: &mut [Option<Term>]) -> Vec<Term> {
    forms
        .elements(id)
        .iter()
        .filter_map(|&child| built[child as usize].take())
        .collect()
}

/// A request of the GGP HTTP protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Info,
    Preview {
        rules: Vec<Term>,
        clock: u64,
    },
    Start {
        id: String,
        role: String,
        rules: Vec<Term>,
        start_clock: u64,
        play_clock: u64,
    },
    /// `moves` is `None` on the first step (`nil`): otherwise the joint move just played, one
    /// move per role in the game's order.
    Play {
        id: String,
        moves: Option<Vec<Term>>,
    },
    Stop {
        id: String,
        moves: Option<Vec<Term>>,
    },
    Abort {
        id: String,
    },
}

impl Request {
    /// Reads a request; one error for a malformed one.
    pub fn parse(text: &str) -> Result<Request, MessageError> {
        let mut terms = read_terms(text)?;
        let Some(Term::List(elements)) = terms.pop().filter(|_| terms.is_empty()) else {
            return Err(error(
                0,
                "a message is one list, such as `(play ID nil)`".to_owned(),
            ));
        };
        let Some(keyword) = elements.first().and_then(Term::atom) else {
            return Err(error(
                0,
                "a message begins with its kind: info, start, play, ...",
            ));
        };
        let keyword = keyword.to_ascii_lowercase();
        let arguments = &elements[1..];
        let expect = |count: usize, form: &str| {
            if arguments.len() == count {
                Ok(())
            } else {
                Err(error(
                    0,
                    format!(
                        "`{keyword}` takes {count} argument(s), {} given: {form}",
                        arguments.len()
                    ),
                ))
            }
        };
        let atom = |index: usize, what: &str| {
            arguments[index]
                .atom()
                .map(str::to_owned)
                .ok_or_else(|| error(0, format!("the {what} of `{keyword}` is a symbol")))
        };
        let clock = |index: usize, what: &str| {
            arguments[index]
                .atom()
                .and_then(|text| text.parse::<u64>().ok())
                .ok_or_else(|| error(0, format!("the {what} of `{keyword}` is whole seconds")))
        };
        let rules = |index: usize| match &arguments[index] {
            Term::List(rules) => Ok(rules.clone()),
            Term::Atom(_) => Err(error(0, format!("the rules of `{keyword}` are a list"))),
        };
        let moves = |index: usize| match &arguments[index] {
            Term::List(moves) => Ok(Some(moves.clone())),
            Term::Atom(nil) if nil.eq_ignore_ascii_case("nil") => Ok(None),
            Term::Atom(_) => Err(error(
                0,
                format!("the moves of `{keyword}` are a list, or nil"),
            )),
        };
        match keyword.as_str() {
            "info" => {
                expect(0, "(info)")?;
                Ok(Request::Info)
            }
            "preview" => {
                expect(2, "(preview (RULES...) CLOCK)")?;
                Ok(Request::Preview {
                    rules: rules(0)?,
                    clock: clock(1, "clock")?,
                })
            }
            "start" => {
                expect(5, "(start ID ROLE (RULES...) STARTCLOCK PLAYCLOCK)")?;
                Ok(Request::Start {
                    id: atom(0, "match id")?,
                    role: atom(1, "role")?,
                    rules: rules(2)?,
                    start_clock: clock(3, "start clock")?,
                    play_clock: clock(4, "play clock")?,
                })
            }
            "play" | "stop" => {
                expect(2, &format!("({keyword} ID (MOVES...))"))?;
                let id = atom(0, "match id")?;
                let moves = moves(1)?;
                Ok(if keyword == "play" {
                    Request::Play { id, moves }
                } else {
                    Request::Stop { id, moves }
                })
            }
            "abort" => {
                expect(1, "(abort ID)")?;
                Ok(Request::Abort {
                    id: atom(0, "match id")?,
                })
            }
            other => Err(error(
                1,
                format!(
                    "`{other}` is no message of the protocol (info, preview, start, play, stop, abort)"
                ),
            )),
        }
    }
}

fn list(terms: &[Term]) -> String {
    Term::List(terms.to_vec()).to_string()
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = |moves: &Option<Vec<Term>>| moves.as_deref().map_or("nil".to_owned(), list);
        match self {
            Request::Info => write!(f, "(info)"),
            Request::Preview { rules, clock } => write!(f, "(preview {} {clock})", list(rules)),
            Request::Start {
                id,
                role,
                rules,
                start_clock,
                play_clock,
            } => write!(
                f,
                "(start {id} {role} {} {start_clock} {play_clock})",
                list(rules)
            ),
            Request::Play { id, moves: m } => write!(f, "(play {id} {})", moves(m)),
            Request::Stop { id, moves: m } => write!(f, "(stop {id} {})", moves(m)),
            Request::Abort { id } => write!(f, "(abort {id})"),
        }
    }
}

/// Rules as the text of a KIF file: one term per line.
pub fn rules_text(rules: &[Term]) -> String {
    let mut text = String::new();
    for rule in rules {
        text.push_str(&rule.to_string());
        text.push('\n');
    }
    text
}

/// A move as a reply prints it: the term read back and printed canonically, or `None` when
/// the reply is not exactly one term.
pub fn read_move(reply: &str) -> Option<String> {
    match read_terms(reply.trim()) {
        Ok(terms) if terms.len() == 1 => Some(terms[0].to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn symbol() -> impl Strategy<Value = String> {
        "[a-z][a-z0-9_]{0,6}"
    }

    fn term() -> impl Strategy<Value = Term> {
        let atom = prop_oneof![symbol(), "[0-9]{1,3}", "\\?[a-z]{1,3}"].prop_map(Term::Atom);
        atom.prop_recursive(3, 16, 4, |inner| {
            (symbol(), proptest::collection::vec(inner, 0..4)).prop_map(|(head, rest)| {
                let mut elements = vec![Term::Atom(head)];
                elements.extend(rest);
                Term::List(elements)
            })
        })
    }

    fn request() -> impl Strategy<Value = Request> {
        let moves = || proptest::option::of(proptest::collection::vec(term(), 1..4));
        prop_oneof![
            Just(Request::Info),
            (proptest::collection::vec(term(), 0..4), 0u64..1000)
                .prop_map(|(rules, clock)| Request::Preview { rules, clock }),
            (
                symbol(),
                symbol(),
                proptest::collection::vec(term(), 0..4),
                0u64..1000,
                0u64..1000
            )
                .prop_map(|(id, role, rules, start_clock, play_clock)| {
                    Request::Start {
                        id,
                        role,
                        rules,
                        start_clock,
                        play_clock,
                    }
                }),
            (symbol(), moves()).prop_map(|(id, moves)| Request::Play { id, moves }),
            (symbol(), moves()).prop_map(|(id, moves)| Request::Stop { id, moves }),
            symbol().prop_map(|id| Request::Abort { id }),
        ]
    }

    proptest! {
        /// What the manager prints, the player reads back unchanged.
        #[test]
        fn printed_requests_read_back(request in request()) {
            prop_assert_eq!(Request::parse(&request.to_string()), Ok(request));
        }

        /// Any text gets a request or one error, never a panic, and an error's offset lies in
        /// the text (or at the size limit).
        #[test]
        fn any_text_is_read_or_refused(text in "\\PC{0,80}") {
            if let Err(error) = Request::parse(&text) {
                prop_assert!(error.offset <= text.len().max(MAX_MESSAGE_BYTES));
            }
        }
    }

    #[test]
    fn nesting_and_size_beyond_the_limits_are_refused() {
        let deep = format!("{}{}", "(".repeat(MAX_DEPTH + 1), ")".repeat(MAX_DEPTH + 1));
        let error = Request::parse(&deep).unwrap_err();
        assert_eq!(error.offset, MAX_DEPTH);
        let long = format!("(abort {})", "a".repeat(MAX_MESSAGE_BYTES));
        assert!(
            Request::parse(&long)
                .unwrap_err()
                .problem
                .contains("at most")
        );
    }

    #[test]
    fn rules_with_nested_rules_are_read_as_lists() {
        let request =
            Request::parse("(start m x ((role x) (<= (legal x a) (true p))) 10 5)").unwrap();
        let Request::Start { rules, .. } = request else {
            panic!("a start message");
        };
        assert_eq!(rules_text(&rules), "(role x)\n(<= (legal x a) (true p))\n");
    }
}
