//! What every check reads, and the wording helpers the messages share.

use crate::ludi::bind::{Bound, Finding};
use crate::ludi::model::Game;
use crate::ludi::schema::{LUDEMES, Ludeme};

pub struct Context<'a> {
    pub bound: &'a Bound,
    pub game: Option<&'a Game>,
    /// The file's text, for fixes that lay out what they insert as the file does.
    pub text: &'a str,
}

impl<'a> Context<'a> {
    pub fn new(bound: &'a Bound, game: Option<&'a Game>, text: &'a str) -> Self {
        Self { bound, game, text }
    }

    pub fn findings(&self) -> impl Iterator<Item = &'a Finding> + 'a {
        self.bound.findings.iter()
    }
}

/// "see docs/ludi.md#part-size, e.g. `(size 3 3)`": where to read about a ludeme.
pub fn see(ludeme: &Ludeme) -> String {
    if ludeme.example.is_empty() {
        format!("see {}", ludeme.manual_link())
    } else {
        format!("see {}, e.g. `{}`", ludeme.manual_link(), ludeme.example)
    }
}

/// The entry at `index`.
pub fn entry(index: usize) -> &'static Ludeme {
    &LUDEMES[index]
}

/// How a parent is named in a message: "`(board ...)`", or "the top level".
pub fn parent_name(parent: Option<usize>) -> String {
    parent.map_or_else(
        || "the top level of the file".to_owned(),
        |p| entry(p).written(),
    )
}

/// "a, b or c" with backquotes.
pub fn alternatives(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
